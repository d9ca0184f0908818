/*
 * ncp_posix.h -- the POSIX driver's per-file state, shared by posix.c
 * (open, direct transfers) and posix_agg.c (aggregated writes).
 */
#ifndef NCP_POSIX_H
#define NCP_POSIX_H

#include <sys/uio.h>

#include "ncp_io_driver.h"

/* iovec entries handed to one preadv/pwritev (POSIX guarantees 16; Linux
 * takes 1024). */
#define NCP_POSIX_IOV 1024

typedef struct ncp_posix {
    int naggr;          /* number of aggregators */
    int *aggr;          /* their ranks in f->comm, ascending */
    int64_t round_cap;  /* bytes an aggregator stages per round */
} ncp_posix;

/* Collective: the bytes of ext (memory side mem) shipped to the
 * aggregators of their file domains, which write them in rounds of at
 * most round_cap bytes each.  Returns this rank's own code; the caller
 * agrees. */
int ncp_posix_write_aggregated(ncp_file *f, const ncp_extents *ext,
                               const ncp_extents *mem);

/* Move every extent of ext with pwritev/preadv against mem; this rank
 * only. */
int ncp_posix_move(int fd, int is_write, const ncp_extents *ext,
                   const ncp_extents *mem);

/* Write the pieces iov[0..n) at off, continuing after partial writes. */
int ncp_posix_pwritev(int fd, struct iovec *iov, int n, MPI_Offset off);

#endif
