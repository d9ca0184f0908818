/*
 * ncp_crash.h -- crash points, for tests only: every write the I/O layer
 * makes to a file (data, header, numrecs, the enddef journal) passes
 * through ncp_crash_point, which can stop the process dead right after
 * the Nth, or halfway through it, as a kill or a power cut would.  The
 * crash tests (tests/crash/) enumerate N.  Compiled in with the CMake
 * option NCP_FAULT_INJECTION; without it the call does nothing.
 */
#ifndef NCP_CRASH_H
#define NCP_CRASH_H

#include <sys/uio.h>

#include <mpi.h>

/* The exit status of a process stopped at a crash point. */
#define NCP_CRASH_STATUS 86

#ifdef NCP_FAULT_INJECTION
/* Before a write of iov[0..n) at off on fd: when this is the write the
 * test stops at, do it (whole, or its first half) and _exit. */
void ncp_crash_point(int fd, const struct iovec *iov, int n, MPI_Offset off);
#else
static inline void ncp_crash_point(int fd, const struct iovec *iov, int n,
                                   MPI_Offset off)
{
    (void)fd;
    (void)iov;
    (void)n;
    (void)off;
}
#endif

#endif
