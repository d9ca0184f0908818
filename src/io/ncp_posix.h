/*
 * ncp_posix.h -- the POSIX driver's per-file state, shared by posix.c
 * (open, direct transfers) and posix_agg.c (aggregated writes).
 */
#ifndef NCP_POSIX_H
#define NCP_POSIX_H

#include <sys/uio.h>

#include "ncp_io_driver.h"
#include "ncp_stream.h"

/* iovec entries handed to one preadv/pwritev (POSIX guarantees 16; Linux
 * takes 1024). */
#define NCP_POSIX_IOV 1024

/* Shared staging (posix_shm.c): not for this file, possible once an
 * aggregated write comes, or set up. */
enum { NCP_SHM_NO, NCP_SHM_LATER, NCP_SHM_ON };

/* The largest nc_posix_buffer_size staged in shared memory; a larger
 * hint keeps the message path. */
#define NCP_SHM_MAX_CAP ((int64_t)256 << 20)

/*
 * nc_posix_shm=auto sets the shared staging up once the file's
 * aggregated writes reach this many busy windows (this call's included).
 * Making the window and faulting its pages into every rank took 1.8-3.5
 * ms here: a file of one 2.5 MiB call (5 windows) was written 2x faster
 * by message, while at 10 windows a call went either way (1.3x faster by
 * message in coll_perf, 1.12x slower in coll_io's four calls) and from
 * about 20 on shared staging was 1.04-1.5x faster (docs/BENCHMARKS.md).
 * 8 keeps the clear win and the old behaviour elsewhere.  Counting
 * windows, not bytes, keeps the rule for any nc_posix_buffer_size: both
 * costs scale with it.
 */
#define NCP_SHM_AFTER_WINDOWS 8

typedef struct ncp_posix {
    int naggr;          /* number of aggregators */
    int *aggr;          /* their ranks in f->comm, ascending */
    int my_aggr;        /* this rank's index in aggr, or -1 */
    int64_t round_cap;  /* bytes an aggregator stages per round: the
                           nc_posix_buffer_size hint, or half of it when
                           two rounds share it (shm) */
    int shm;            /* NCP_SHM_* */
    int64_t shm_after;  /* NCP_SHM_LATER: set up once `windows` reaches
                           this (0: at the first aggregated write) */
    int64_t windows;    /* busy windows of the aggregated writes so far,
                           the same on every rank */
    MPI_Win win;        /* the shared staging, when NCP_SHM_ON */
    char **sbuf;        /* per aggregator: its two halves in win */
} ncp_posix;

/* Collective: the bytes of ext (memory side mem) shipped to the
 * aggregators of their file domains, which write them in rounds of at
 * most round_cap bytes each.  Returns this rank's own code; the caller
 * agrees. */
int ncp_posix_write_aggregated(ncp_file *f, const ncp_extents *ext,
                               const ncp_extents *mem);

/* Collective, at the first aggregated write of a file whose shm is
 * NCP_SHM_LATER: the shared staging window.  Every rank agrees on the
 * outcome; on failure shm becomes NCP_SHM_NO (the message path). */
int ncp_posix_shm_setup(ncp_file *f);
/* Collective when the window exists (close). */
void ncp_posix_shm_free(ncp_file *f);
/* Order this rank's copies into the window before the exchange that
 * follows them, and the aggregator's reads after it. */
void ncp_posix_shm_sync(ncp_file *f);
/* Copy my bytes of pairs[0..n) -- extents clipped to aggregator a's
 * window, which starts at file offset lo; their bytes from stream
 * position s0 on -- into half `half` of a's staging, as the file is to
 * hold them. */
void ncp_posix_shm_put(const ncp_file *f, int a, int half, MPI_Offset lo,
                       const ncp_stream *s, MPI_Offset s0,
                       const MPI_Offset *pairs, int64_t n);
/* Aggregator a (this rank): write the union of the np ranks' sorted pair
 * lists (rank q's from first[q] to first[q + 1]) from half `half`. */
int ncp_posix_shm_write(const ncp_file *f, int a, int half, MPI_Offset lo,
                        int np, const MPI_Offset *pairs,
                        const int64_t *first);

/* Move every extent of ext with pwritev/preadv against mem; this rank
 * only. */
int ncp_posix_move(int fd, int is_write, const ncp_extents *ext,
                   const ncp_extents *mem);

/* Write the pieces iov[0..n) at off, continuing after partial writes. */
int ncp_posix_pwritev(int fd, struct iovec *iov, int n, MPI_Offset off);

#endif
