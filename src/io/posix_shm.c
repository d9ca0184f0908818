/*
 * posix_shm.c -- the aggregated write's staging in shared memory, for a
 * file whose ranks all share one node: each aggregator exposes two
 * staging halves of round_cap bytes (together nc_posix_buffer_size) in
 * an MPI shared-memory window; in
 * each round every rank copies its bytes straight into the half of each
 * aggregator it has bytes for, at their offset from the aggregator's file
 * window (an image of the window), byte-swapping deferred puts on the
 * way, and the aggregator writes the union of the ranks' extents from
 * there.  The extents themselves still travel by message (posix_agg.c):
 * the aggregator needs them to skip the holes.
 *
 * Why: on the message path the aggregator's CPU copies every rank's bytes
 * into its staging buffer (the shared-memory transport reads them out of
 * the senders), then writes them, and every other rank swaps its buffer
 * in place and back.  Here the senders do the one copy, all at once and
 * while the aggregator writes the previous round: 1.24-1.28x faster on
 * coll_io's issue-6 case at 4 ranks (docs/BENCHMARKS.md).
 *
 * Why two halves: round k uses half k % 2.  A rank copies round k + 1 as
 * soon as its part of round k's exchange is over, while the aggregator
 * may still be writing round k; the half it copies into was last read in
 * round k - 1, which the aggregator had finished before it joined round
 * k's all-to-all, and that all-to-all cannot complete on this rank
 * before the aggregator has joined it.
 */
#include "ncp_posix.h"

#include <stdint.h>
#include <stdlib.h>

#include "pnetcdf.h"

int ncp_posix_shm_setup(ncp_file *f)
{
    ncp_posix *x = f->posix;
    MPI_Aint size = x->my_aggr >= 0 ? 2 * (MPI_Aint)x->round_cap : 0, got;
    MPI_Comm comm;
    MPI_Info info;
    char *base;
    int a, unit, err = NC_NOERR, made;
    x->sbuf = malloc((size_t)x->naggr * sizeof(char *));
    if (!x->sbuf) err = NC_ENOMEM;
    if ((err = ncp_io_agree(f->comm, err)) != NC_NOERR) goto fail;
    /* a failed allocation must come back as a code, not abort the job */
    MPI_Comm_dup(f->comm, &comm);
    MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);
    MPI_Info_create(&info);
    MPI_Info_set(info, "alloc_shared_noncontig", "true");
    made = MPI_Win_allocate_shared(size, 1, info, comm, &base, &x->win) ==
           MPI_SUCCESS;
    MPI_Info_free(&info);
    MPI_Comm_free(&comm);
    err = ncp_io_agree(f->comm, made ? NC_NOERR : NC_ENOMEM);
    if (err != NC_NOERR) {
        if (made) MPI_Win_free(&x->win);
        goto fail;
    }
    for (a = 0; a < x->naggr; a++)
        MPI_Win_shared_query(x->win, x->aggr[a], &got, &unit, &x->sbuf[a]);
    /* one passive epoch for the file's life: MPI_Win_sync then orders
     * the copies against the aggregator's reads */
    MPI_Win_lock_all(MPI_MODE_NOCHECK, x->win);
    x->shm = NCP_SHM_ON;
    return NC_NOERR;
fail:
    free(x->sbuf);
    x->sbuf = NULL;
    x->shm = NCP_SHM_NO;
    return err;
}

void ncp_posix_shm_free(ncp_file *f)
{
    ncp_posix *x = f->posix;
    if (x->shm == NCP_SHM_ON) {
        MPI_Win_unlock_all(x->win);
        MPI_Win_free(&x->win);
    }
    free(x->sbuf);
    x->sbuf = NULL;
    x->shm = NCP_SHM_NO;
}

void ncp_posix_shm_sync(ncp_file *f)
{
    MPI_Win_sync(f->posix->win);
}

/* Half `half` of aggregator a's staging, addressed by file offset: the
 * window starting at lo maps onto the half's first byte. */
static char *half_image(const ncp_file *f, int a, int half, MPI_Offset lo)
{
    return f->posix->sbuf[a] + half * f->posix->round_cap - lo;
}

void ncp_posix_shm_put(const ncp_file *f, int a, int half, MPI_Offset lo,
                       const ncp_stream *s, MPI_Offset s0,
                       const MPI_Offset *pairs, int64_t n)
{
    char *img = half_image(f, a, half, lo);
    int64_t j;
    for (j = 0; j < n; j++) {
        MPI_Offset off = pairs[2 * j], len = pairs[2 * j + 1];
        ncp_stream_copy(s, s0, s0 + len, img + off);
        s0 += len;
    }
}

/* File bytes [run, end) from the image img (nothing when empty). */
static int write_run(int fd, char *img, MPI_Offset run, MPI_Offset end)
{
    struct iovec one;
    if (end <= run) return NC_NOERR;
    one.iov_base = img + run;
    one.iov_len = (size_t)(end - run);
    return ncp_posix_pwritev(fd, &one, 1, run);
}

int ncp_posix_shm_write(const ncp_file *f, int a, int half, MPI_Offset lo,
                        int np, const MPI_Offset *pairs,
                        const int64_t *first)
{
    char *img = half_image(f, a, half, lo);
    MPI_Offset run = 0, end = -1; /* the run being gathered: [run, end) */
    ncp_kmerge m;
    int64_t i;
    int err = ncp_kmerge_init(&m, np, pairs, first);
    while (err == NC_NOERR && ncp_kmerge_pop(&m, &i) >= 0) {
        MPI_Offset off = pairs[2 * i], stop = off + pairs[2 * i + 1];
        if (off > end) { /* a hole: write the run so far */
            err = write_run(f->fd, img, run, end);
            run = off;
        }
        if (stop > end) end = stop;
    }
    if (err == NC_NOERR) err = write_run(f->fd, img, run, end);
    ncp_kmerge_free(&m);
    return err;
}
