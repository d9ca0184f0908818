/*
 * posix_shm.c -- the aggregated write staged in shared memory, for a file
 * whose ranks all share one node.  Each aggregator exposes, in an MPI
 * shared-memory window, two halves, each holding round_cap data bytes
 * (together nc_posix_buffer_size) and a pool of extent lists.  In each
 * round every rank copies its bytes straight into the data of each
 * aggregator it has bytes for, at their offset from the aggregator's file
 * window (an image of the window), byte-swapping deferred puts on the
 * way, and writes its clipped extents into the pool there; the
 * aggregator merges the lists to skip the holes and writes the union of
 * the extents from the image.  The windows of every round are planned
 * for the whole call beforehand (posix_agg.c), so a round needs no
 * collective.  The window and its round count are an ncp_shm_stage,
 * which outlives its file when kept: a later file on the same ranks
 * takes it over and goes on counting (shm_keep.c).
 *
 * Why: on the message path the aggregator's CPU copies every rank's bytes
 * into its staging buffer (the shared-memory transport reads them out of
 * the senders), then writes them, and every other rank swaps its buffer
 * in place and back.  Here the senders do the one copy, all at once and
 * while the aggregator writes the previous round: 1.24-1.28x faster on
 * coll_io's issue-6 case at 4 ranks (docs/BENCHMARKS.md).
 *
 * Why no collective a round: the halves change hands through counters
 * in the window (shm_counter.c).  A rank adds one to a half's arrivals
 * once its copies and its list are in; the aggregator waits for all np,
 * writes, and adds one to the rounds it has written, which a rank waits
 * on before copying into that half again.  So only the aggregator waits
 * for every rank, and a rank only for the aggregator.  Before, an
 * MPI_Allreduce a round agreed on the next windows and made every rank
 * wait for every other: coll_io's issue-6 case ran 1.01-1.27x slower at
 * 4 ranks on 2 cores (median 1.12x over six sets), coll_perf's combined
 * writes at 4 ranks 1.08-1.26x (docs/BENCHMARKS.md).
 *
 * Why two halves: round k uses half k % 2, so a rank copies round k + 1
 * while the aggregator writes round k.  Four halves of half the size
 * (the same memory, twice the rounds) were 1.12x slower.
 */
#include "ncp_posix.h"
#include "ncp_shm_counter.h"

#include <stdint.h>
#include <stdlib.h>

#include "pnetcdf.h"

/* A half's extent lists take about this share of its data bytes: one
 * 16-byte pair per 64 data bytes over all ranks.  Smaller extents only
 * shorten the windows (posix_agg.c). */
#define LIST_SHARE 4
#define MIN_SLOT 16
/* Pairs per cache line: each rank reserves whole lines, so no two ranks
 * write pairs into one line while they copy (unpadded, coll_io's
 * issue-6 case measured 1.08x slower in one set of 9 rounds; noisy). */
#define POOL_ALIGN 4
/* A head: where a rank's pairs start in the pool, and how many. */
#define HEAD_WORDS 2

/*
 * Aggregator a's part: data bytes first, both halves, then a cache line
 * holding the rounds it has written, then the two halves' lists (the
 * line shares a page with the first half's counters, which every call
 * touches; after the lists it took a page of its own).  A
 * half's lists are its fill counter, its arrivals, a head per rank and,
 * from the next cache line, the pool of np * slot pairs plus padding.
 * Each rank reserves its pairs, in whole cache lines, with an atomic add
 * on the fill counter, so the lists lie packed at the pool's start: the
 * pages the aggregator touches follow the pairs sent, not the number of
 * ranks (with a fixed slot per rank, every rank's list took a page of
 * its own, 24-40 KiB in all at 2-4 ranks).
 */
static char *half_data(const ncp_shm_stage *x, int a, int h)
{
    return x->sbuf[a] + h * x->round_cap;
}

static int64_t *half_fill(const ncp_shm_stage *x, int a, int h)
{
    return (int64_t *)(x->sbuf[a] + x->lists_at + 64 + h * x->list_bytes);
}

/* the ranks that have put their part of the half's current round */
static ncp_shm_counter *half_arrived(const ncp_shm_stage *x, int a, int h)
{
    return (ncp_shm_counter *)(half_fill(x, a, h) + 1);
}

static int64_t *half_heads(const ncp_shm_stage *x, int a, int h)
{
    return half_fill(x, a, h) + 2;
}

/* int64s before a half's pool: the two counters and the heads, up to
 * the next cache line */
static int64_t pool_at(int np)
{
    return (2 + HEAD_WORDS * (int64_t)np + 7) / 8 * 8;
}

static MPI_Offset *half_pool(const ncp_shm_stage *x, int a, int h)
{
    return (MPI_Offset *)(half_fill(x, a, h) + pool_at(x->np));
}

/* the rounds aggregator a has written */
static ncp_shm_counter *aggr_written(const ncp_shm_stage *x, int a)
{
    return (ncp_shm_counter *)(x->sbuf[a] + x->lists_at);
}

static void clear_counters(ncp_shm_stage *x, int a)
{
    int h;
    ncp_shm_counter_clear(aggr_written(x, a));
    for (h = 0; h < 2; h++) {
        *half_fill(x, a, h) = 0;
        ncp_shm_counter_clear(half_arrived(x, a, h));
    }
}

static int64_t slot_for(int64_t round_cap, int np)
{
    int64_t slot = round_cap / LIST_SHARE / (16 * (int64_t)np);
    return slot < MIN_SLOT ? MIN_SLOT : slot;
}

int64_t ncp_posix_shm_slot(const ncp_posix *x, int np)
{
    return slot_for(x->round_cap, np);
}

static void stage_drop(ncp_shm_stage *st)
{
    if (!st) return;
    free(st->sbuf);
    free(st->first);
    free(st);
}

/* A staging's key, geometry and arrays, before its window. */
static ncp_shm_stage *stage_new(ncp_file *f)
{
    const ncp_posix *x = f->posix;
    ncp_shm_stage *st = calloc(1, sizeof(*st));
    if (!st) return NULL;
    MPI_Comm_size(f->comm, &st->np);
    MPI_Comm_rank(f->comm, &st->me);
    st->comm = MPI_COMM_NULL;
    st->round_cap = x->round_cap;
    st->per_node = x->per_node;
    st->slot = slot_for(st->round_cap, st->np);
    /* the counters, a head per rank, then from a cache line on the pool
     * with room for each rank's padding; a multiple of 64 bytes, so both
     * halves' counters start cache lines */
    st->list_bytes = ((MPI_Aint)(pool_at(st->np) +
                                 2 * st->np * (st->slot + POOL_ALIGN)) * 8 +
                      63) / 64 * 64;
    /* the written rounds and the lists on cache lines of their own */
    st->lists_at = (2 * (MPI_Aint)st->round_cap + 63) / 64 * 64;
    st->sbuf = malloc((size_t)x->naggr * sizeof(char *));
    st->first = malloc(2 * (size_t)st->np * sizeof(int64_t));
    if (st->sbuf && st->first) return st;
    stage_drop(st);
    return NULL;
}

/* Collective: st's window, on a duplicate of the file's communicator
 * that returns errors, so a failed allocation comes back as a code
 * instead of aborting the job.  Returns whether this rank made it. */
static int stage_window(ncp_file *f, ncp_shm_stage *st)
{
    MPI_Aint size = 0, got;
    MPI_Info info;
    char *base;
    int a, unit, made;
    if (f->posix->my_aggr >= 0) size = st->lists_at + 64 + 2 * st->list_bytes;
    MPI_Comm_dup(f->comm, &st->comm);
    MPI_Comm_set_errhandler(st->comm, MPI_ERRORS_RETURN);
    MPI_Info_create(&info);
    MPI_Info_set(info, "alloc_shared_noncontig", "true");
    made = MPI_Win_allocate_shared(size, 1, info, st->comm, &base,
                                   &st->win) == MPI_SUCCESS;
    MPI_Info_free(&info);
    for (a = 0; made && a < f->posix->naggr; a++)
        MPI_Win_shared_query(st->win, f->posix->aggr[a], &got, &unit,
                             &st->sbuf[a]);
    return made;
}

int ncp_posix_shm_setup(ncp_file *f)
{
    ncp_posix *x = f->posix;
    ncp_shm_stage *st = stage_new(f);
    int made = 0, err = ncp_agree(f->comm, st ? NC_NOERR : NC_ENOMEM);
    if (err == NC_NOERR) made = stage_window(f, st);
    if (err == NC_NOERR)
        err = ncp_agree(f->comm, made ? NC_NOERR : NC_ENOMEM);
    if (err != NC_NOERR) {
        if (made) MPI_Win_free(&st->win);
        if (st && st->comm != MPI_COMM_NULL) MPI_Comm_free(&st->comm);
        stage_drop(st);
        x->shm = NCP_SHM_NO;
        return err;
    }
    /* one passive epoch for the window's life, in which the ranks order
     * their accesses with atomics (release stores, acquire loads) */
    MPI_Win_lock_all(MPI_MODE_NOCHECK, st->win);
    x->stage = st;
    x->shm = NCP_SHM_ON;
    if (x->my_aggr >= 0) clear_counters(st, x->my_aggr);
    MPI_Win_sync(st->win);
    /* nobody reserves or hands over before the counters are clear */
    MPI_Barrier(f->comm);
    return NC_NOERR;
}

void ncp_shm_stage_free(ncp_shm_stage *st)
{
    MPI_Win_unlock_all(st->win);
    MPI_Win_free(&st->win);
    MPI_Comm_free(&st->comm);
    stage_drop(st);
}

void ncp_posix_shm_free(ncp_file *f)
{
    ncp_posix *x = f->posix;
    ncp_shm_stage *st = x->stage;
    int keep;
    x->stage = NULL;
    x->shm = NCP_SHM_NO;
    if (!st) return;
    if (st->kept) {
        st->busy = 0;
        return;
    }
    keep = x->keep_stage && ncp_shm_keep_room();
    MPI_Allreduce(MPI_IN_PLACE, &keep, 1, MPI_INT, MPI_MIN, f->comm);
    if (keep) ncp_shm_keep_add(st);
    else ncp_shm_stage_free(st);
}

/* Arrivals in the current round's half once every rank has put its
 * part: np per round that used the half, counted since the setup. */
static uint32_t all_arrived(const ncp_shm_stage *x)
{
    return (uint32_t)x->np * (uint32_t)(x->round / 2 + 1);
}

void ncp_posix_shm_put(ncp_file *f, const ncp_stream *s, int a,
                       MPI_Offset lo, MPI_Offset hi)
{
    const ncp_shm_stage *x = f->posix->stage;
    int h = (int)(x->round % 2);
    int64_t *head = half_heads(x, a, h) + HEAD_WORDS * x->me;
    int64_t j, n = 0, at = 0;
    char *data = half_data(x, a, h);
    MPI_Offset *pairs, s0, s1;
    /* the half last held round - 2: its aggregator must have written it */
    ncp_shm_counter_wait(aggr_written(x, a), (uint32_t)(x->round - 1));
    if (lo < hi) n = ncp_extents_touching(s->ext, lo, hi);
    /* the window was fitted to keep n within slot, so the pool holds
     * every rank's pairs, each list padded to whole lines */
    if (n > 0)
        at = __atomic_fetch_add(half_fill(x, a, h),
                                (n + POOL_ALIGN - 1) / POOL_ALIGN * POOL_ALIGN,
                                __ATOMIC_RELAXED);
    pairs = half_pool(x, a, h) + 2 * at;
    if (n > 0) ncp_stream_clip(s, lo, hi, pairs, &s0, &s1);
    for (j = 0; j < n; j++) {
        MPI_Offset off = pairs[2 * j], len = pairs[2 * j + 1];
        ncp_stream_copy(s, s0, s0 + len, data + (off - lo));
        s0 += len;
    }
    head[0] = at;
    head[1] = n;
    /* hands the copies and the list above to the aggregator */
    ncp_shm_counter_add(half_arrived(x, a, h), 1, all_arrived(x));
}

/* File bytes [run, end) from data, which holds the window from file
 * offset lo on (nothing when empty). */
static int write_run(int fd, char *data, MPI_Offset lo, MPI_Offset run,
                     MPI_Offset end)
{
    struct iovec one;
    if (end <= run) return NC_NOERR;
    one.iov_base = data + (run - lo);
    one.iov_len = (size_t)(end - run);
    return ncp_posix_pwritev(fd, &one, 1, run);
}

/* The union of the ranks' lists in the half, written from the image a
 * run at a time. */
static int write_union(ncp_file *f, int h, MPI_Offset lo)
{
    const ncp_shm_stage *x = f->posix->stage;
    const MPI_Offset *pairs = half_pool(x, f->posix->my_aggr, h);
    char *data = half_data(x, f->posix->my_aggr, h);
    MPI_Offset run = 0, end = -1; /* the run being gathered */
    ncp_kmerge m;
    int64_t i;
    int err = ncp_kmerge_init_ranges(&m, x->np, pairs, x->first,
                                     x->first + x->np);
    while (err == NC_NOERR && ncp_kmerge_pop(&m, &i) >= 0) {
        const MPI_Offset *pair = pairs + 2 * i;
        if (pair[0] > end) { /* a hole: write the run so far */
            err = write_run(f->fd, data, lo, run, end);
            run = pair[0];
        }
        if (pair[0] + pair[1] > end) end = pair[0] + pair[1];
    }
    if (err == NC_NOERR) err = write_run(f->fd, data, lo, run, end);
    ncp_kmerge_free(&m);
    return err;
}

int ncp_posix_shm_drain(ncp_file *f, MPI_Offset lo)
{
    ncp_shm_stage *x = f->posix->stage;
    int me = f->posix->my_aggr;
    int h = (int)(x->round % 2), q, any = 0, err = NC_NOERR;
    const int64_t *head = half_heads(x, me, h);
    ncp_shm_counter_wait(half_arrived(x, me, h), all_arrived(x));
    for (q = 0; q < x->np; q++, head += HEAD_WORDS) {
        x->first[q] = head[0];
        x->first[x->np + q] = head[0] + head[1];
        any |= head[1] > 0;
    }
    if (any) err = write_union(f, h, lo);
    /* empty again for the round two on, whose ranks reserve only after
     * the store below */
    *half_fill(x, me, h) = 0;
    ncp_shm_counter_add(aggr_written(x, me), 1,
                        (uint32_t)(x->round + 1));
    return err;
}

void ncp_posix_shm_next(ncp_file *f)
{
    f->posix->stage->round++;
}

