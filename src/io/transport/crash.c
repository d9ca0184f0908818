/*
 * crash.c -- the crash points of ncp_crash.h.  NCPARIO_TEST_CRASH, read at
 * the first write, says what to do:
 *
 *   count     count the writes; print "ncpario-crash-writes K" on stderr
 *             when the process exits
 *   stop:N    make write N whole, then stop (_exit(NCP_CRASH_STATUS))
 *   tear:N    make the first half of write N's bytes, then stop
 *
 * Writes are counted per process, in the order the process makes them,
 * so a run with the same program, ranks and inputs makes the same
 * sequence; with several ranks, the first to reach N stops, and mpirun
 * stops the rest.
 */
#include "ncp_crash.h"

#ifdef NCP_FAULT_INJECTION

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define CRASH_ENV "NCPARIO_TEST_CRASH"

enum { CRASH_UNREAD, CRASH_OFF, CRASH_COUNT, CRASH_STOP, CRASH_TEAR };

static int crash_mode = CRASH_UNREAD;
static long long crash_at, crash_writes;

static void report_count(void)
{
    fprintf(stderr, "ncpario-crash-writes %lld\n", crash_writes);
}

static void read_conf(void)
{
    const char *env = getenv(CRASH_ENV);
    crash_mode = CRASH_OFF;
    if (env == NULL) return;
    if (strcmp(env, "count") == 0) {
        crash_mode = CRASH_COUNT;
        atexit(report_count);
    } else if (sscanf(env, "stop:%lld", &crash_at) == 1 && crash_at > 0) {
        crash_mode = CRASH_STOP;
    } else if (sscanf(env, "tear:%lld", &crash_at) == 1 && crash_at > 0) {
        crash_mode = CRASH_TEAR;
    } else {
        fprintf(stderr, "ncpario: ignoring malformed " CRASH_ENV "\n");
    }
}

/* The first half of the bytes of iov[0..n) at off, or all of them. */
static void write_part(int fd, const struct iovec *iov, int n, MPI_Offset off,
                       int half)
{
    size_t total = 0, want;
    int i;
    for (i = 0; i < n; i++) total += iov[i].iov_len;
    want = half ? total / 2 : total;
    for (i = 0; i < n && want > 0; i++) {
        size_t len = iov[i].iov_len < want ? iov[i].iov_len : want;
        if (pwrite(fd, iov[i].iov_base, len, (off_t)off) != (ssize_t)len)
            break;
        off += (MPI_Offset)len;
        want -= len;
    }
}

/* Write-behind's thread writes data while the caller writes headers: the
 * count is shared, so each write takes one number. */
static pthread_once_t conf_once = PTHREAD_ONCE_INIT;

void ncp_crash_point(int fd, const struct iovec *iov, int n, MPI_Offset off)
{
    long long mine;
    pthread_once(&conf_once, read_conf);
    if (crash_mode == CRASH_OFF) return;
    mine = __atomic_add_fetch(&crash_writes, 1, __ATOMIC_SEQ_CST);
    if (crash_mode == CRASH_COUNT || mine != crash_at) return;
    write_part(fd, iov, n, off, crash_mode == CRASH_TEAR);
    _exit(NCP_CRASH_STATUS);
}

#endif
