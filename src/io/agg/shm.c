/*
 * shm.c -- the aggregated write staged in shared memory, for a file
 * whose ranks all share one node.  Each aggregator exposes, in an MPI
 * shared-memory window (shm_stage.c), two halves, each holding round_cap
 * data bytes (together nc_posix_buffer_size) and a pool of extent lists.
 * In each round every rank copies its bytes straight into the data of
 * each aggregator it has bytes for, at their offset from the aggregator's
 * file window (an image of the window), byte-swapping deferred puts on
 * the way, and writes its clipped extents into the pool there; the
 * aggregator merges the lists to skip the holes and writes the union of
 * the extents from the image.  The windows of every round are planned
 * for the whole call beforehand (plan.c), so a round needs no
 * collective.
 *
 * Why: by message the aggregator's CPU copies every rank's bytes into its
 * staging buffer, then writes them, and every other rank swaps its buffer
 * in place and back.  Here the senders do the one copy, all at once and
 * while the aggregator writes the previous round.
 *
 * Why no collective a round: the halves change hands through counters in
 * the window (shm_counter.c), so only the aggregator waits for every
 * rank, and a rank only for the aggregator; a reduction a round would
 * make every rank wait for every other.  Why two halves: round k uses
 * half k % 2, so the ranks copy round k + 1 while the aggregator writes
 * round k.
 *
 * THE FILE'S STAGING (a->shm, the same on every rank)
 *
 *   NO ........ no shared staging: the message path (msg.c)
 *   LATER ..... possible, not made yet: the message path meanwhile
 *   ON ........ a->stage holds a staging: the rounds run here
 *
 *   (open)  -> NO      posix_shm_state (posix.c): hint disable, ranks on
 *                      several nodes, read-only, or a buffer too large
 *   (open)  -> LATER   posix_shm_state
 *   (open)  -> ON      posix_shm_state: every rank found a kept staging
 *                      (ncp_shm_keep_take)
 *   LATER   -> ON      ncp_agg_shm_setup, once shm_due (agg.c)
 *   LATER   -> NO      ncp_agg_shm_setup, when any rank failed to make
 *                      its part of the window
 *   ON      -> NO      ncp_agg_shm_free (close): the staging is kept
 *                      or freed, shm_keep.c draws which
 *
 * A HALF h OF AGGREGATOR a, for its rounds k = h, h + 2, h + 4, ...
 *
 *   FREE ...... written(a) >= k - 1: round k - 2 of the half is on disk
 *   FILLING ... some ranks have copied their bytes and list for round k
 *   FULL ...... arrived(a, h) == np * (k / 2 + 1): every rank's part is in
 *   DRAINING .. the aggregator merges the lists and writes the runs
 *
 *   FREE     -> FILLING   shm_put (a rank waits on written, reserves pool
 *                         lines, copies, adds one to arrived)
 *   FILLING  -> FULL      shm_put of the last rank
 *   FULL     -> DRAINING  shm_drain (its wait on arrived returns)
 *   DRAINING -> FREE      shm_drain: fill back to 0, then written + 1,
 *                         for round k + 2
 *
 * Invariants:
 *  1. Every rank runs the same rounds in the same order (the plan is the
 *     same everywhere), and stage->round counts them on every rank alike,
 *     across files when the staging is kept.
 *  2. A rank copies into a half only in FREE or FILLING; the aggregator
 *     reads it only in DRAINING.  The counters' release/acquire order
 *     makes the copies visible before the hand-over.
 *  3. No rank puts more than stage->slot pairs into a half's pool in one
 *     round: the planner cut the windows to that (ncp_plan_part_fit).
 *  4. A failed write on one aggregator does not stop the rounds: the
 *     others still write theirs, and the caller agrees on the code.
 */
#include "ncp_agg_shm.h"

#include <assert.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "ncp_shm_counter.h"
#include "ncp_shm_stage.h"
#include "pnetcdf.h"
#include "../../base/ncp_agree.h"

const char *ncp_agg_shm_broken(const ncp_agg *a)
{
    const ncp_shm_stage *st = a->stage;
    if (a->shm != NCP_SHM_NO && a->shm != NCP_SHM_LATER &&
        a->shm != NCP_SHM_ON)
        return "an unknown staging state";
    if ((a->shm == NCP_SHM_ON) != (st != NULL))
        return "a staging held outside ON, or ON without one";
    if (st && (st->round < 0 || st->np < 1 || st->me < 0 || st->me >= st->np ||
               st->slot < 1))
        return "the staging's rounds, ranks or slot out of range";
    return NULL;
}

void ncp_agg_shm_check(const ncp_agg *a, const char *file, int line)
{
    const char *broken = ncp_agg_shm_broken(a);
    if (broken) {
        fprintf(stderr, "ncpario: %s:%d: shared staging broken: %s\n", file,
                line, broken);
        abort();
    }
}

int64_t ncp_agg_shm_slot(const ncp_agg *a, int np)
{
    return ncp_shm_slot(a->round_cap, np);
}

int ncp_agg_shm_setup(ncp_agg *a)
{
    ncp_shm_stage *st =
        ncp_shm_stage_new(a->comm, a->round_cap, a->per_node, a->naggr);
    int made = 0, err = ncp_agree(a->comm, st ? NC_NOERR : NC_ENOMEM);
    if (err == NC_NOERR)
        made = ncp_shm_stage_window(st, a->comm, a->aggr, a->naggr,
                                    a->my_aggr >= 0);
    if (err == NC_NOERR)
        err = ncp_agree(a->comm, made ? NC_NOERR : NC_ENOMEM);
    if (err != NC_NOERR) {
        if (made) MPI_Win_free(&st->win);
        if (st && st->comm != MPI_COMM_NULL) MPI_Comm_free(&st->comm);
        ncp_shm_stage_drop(st);
        a->shm = NCP_SHM_NO;
        return err;
    }
    /* one passive epoch for the window's life, in which the ranks order
     * their accesses with atomics (release stores, acquire loads) */
    MPI_Win_lock_all(MPI_MODE_NOCHECK, st->win);
    a->stage = st;
    a->shm = NCP_SHM_ON;
    if (a->my_aggr >= 0) ncp_shm_stage_clear(st, a->my_aggr);
    MPI_Win_sync(st->win);
    /* nobody reserves or hands over before the counters are clear */
    MPI_Barrier(a->comm);
    NCP_AGG_SHM_CHECK(a);
    return NC_NOERR;
}

void ncp_agg_shm_free(ncp_agg *a)
{
    ncp_shm_stage *st = a->stage;
    int keep;
    a->stage = NULL;
    a->shm = NCP_SHM_NO;
    NCP_AGG_SHM_CHECK(a);
    if (!st) return;
    if (st->kept) {
        ncp_shm_keep_release(st);
        return;
    }
    keep = a->keep_stage && ncp_shm_keep_room();
    MPI_Allreduce(MPI_IN_PLACE, &keep, 1, MPI_INT, MPI_MIN, a->comm);
    if (keep) ncp_shm_keep_add(st);
    else ncp_shm_stage_free(st);
}

/* Arrivals in the current round's half once every rank has put its
 * part: np per round that used the half, counted since the setup. */
static uint32_t all_arrived(const ncp_shm_stage *x)
{
    return (uint32_t)x->np * (uint32_t)(x->round / 2 + 1);
}

#ifndef NDEBUG
/* The arrivals in aggregator a's half h so far (for the checks). */
static uint32_t half_arrivals(const ncp_shm_stage *x, int a, int h)
{
    return __atomic_load_n(&ncp_shm_half_arrived(x, a, h)->value,
                           __ATOMIC_ACQUIRE);
}
#endif

/* This rank's bytes of stream s in aggregator a's window [lo, hi)
 * (lo == hi: none) into a's current half: FREE -> FILLING -> FULL. */
static void shm_put(const ncp_agg *agg, const ncp_stream *s, int a,
                    MPI_Offset lo, MPI_Offset hi)
{
    const ncp_shm_stage *x = agg->stage;
    int h = (int)(x->round % 2);
    int64_t *head = ncp_shm_half_heads(x, a, h) + NCP_SHM_HEAD_WORDS * x->me;
    int64_t j, n = 0, at = 0;
    char *data = ncp_shm_half_data(x, a, h);
    MPI_Offset *pairs, s0, s1;
    /* the half last held round - 2: its aggregator must have written it */
    ncp_shm_counter_wait(ncp_shm_written(x, a), (uint32_t)(x->round - 1));
    if (lo < hi) n = ncp_extents_touching(s->ext, lo, hi);
    /* the half is FREE or FILLING (invariant 2), its pool slot enough
     * (invariant 3) */
    assert(half_arrivals(x, a, h) != all_arrived(x));
    assert(n <= x->slot);
    /* the window was fitted to keep n within slot, so the pool holds
     * every rank's pairs, each list padded to whole lines */
    if (n > 0)
        at = __atomic_fetch_add(ncp_shm_half_fill(x, a, h),
                                (n + NCP_SHM_POOL_ALIGN - 1) /
                                    NCP_SHM_POOL_ALIGN * NCP_SHM_POOL_ALIGN,
                                __ATOMIC_RELAXED);
    pairs = ncp_shm_half_pool(x, a, h) + 2 * at;
    if (n > 0) ncp_stream_clip(s, lo, hi, pairs, &s0, &s1);
    for (j = 0; j < n; j++) {
        MPI_Offset off = pairs[2 * j], len = pairs[2 * j + 1];
        ncp_stream_copy(s, s0, s0 + len, data + (off - lo));
        s0 += len;
    }
    head[0] = at;
    head[1] = n;
    /* hands the copies and the list above to the aggregator */
    ncp_shm_counter_add(ncp_shm_half_arrived(x, a, h), 1, all_arrived(x));
}

/* File bytes [run, end) from data, which holds the window from file
 * offset lo on (nothing when empty), counted as one piece. */
static int write_run(ncp_agg *agg, char *data, MPI_Offset lo,
                     MPI_Offset run, MPI_Offset end)
{
    const ncp_agg_sink *sink = &agg->sink;
    struct iovec one;
    if (end <= run) return NC_NOERR;
    one.iov_base = data + (run - lo);
    one.iov_len = (size_t)(end - run);
    agg->count.pieces++;
    agg->count.sink_writes++;
    agg->count.sink_bytes += end - run;
    return sink->write(sink->arg, &one, 1, run);
}

/* The union of the ranks' lists in the half, written from the image a
 * run at a time. */
static int write_union(ncp_agg *agg, int h, MPI_Offset lo)
{
    const ncp_shm_stage *x = agg->stage;
    const MPI_Offset *pairs = ncp_shm_half_pool(x, agg->my_aggr, h);
    char *data = ncp_shm_half_data(x, agg->my_aggr, h);
    MPI_Offset run = 0, end = -1; /* the run being gathered */
    ncp_runmerge m;
    int64_t i;
    int err = ncp_runmerge_init_pairs(&m, x->np, pairs, x->first,
                                      x->first + x->np);
    while (err == NC_NOERR && ncp_runmerge_pop(&m, &i) >= 0) {
        const MPI_Offset *pair = pairs + 2 * i;
        if (pair[0] > end) { /* a hole: write the run so far */
            err = write_run(agg, data, lo, run, end);
            run = pair[0];
        }
        if (pair[0] + pair[1] > end) end = pair[0] + pair[1];
    }
    if (err == NC_NOERR) err = write_run(agg, data, lo, run, end);
    ncp_runmerge_free(&m);
    return err;
}

/* The aggregator writes its current half, whose window starts at lo:
 * FULL -> DRAINING -> FREE.  Returns its write error. */
static int shm_drain(ncp_agg *agg, MPI_Offset lo)
{
    ncp_shm_stage *x = agg->stage;
    int me = agg->my_aggr;
    int h = (int)(x->round % 2), q, any = 0, err = NC_NOERR;
    const int64_t *head = ncp_shm_half_heads(x, me, h);
    ncp_shm_counter_wait(ncp_shm_half_arrived(x, me, h), all_arrived(x));
    /* FULL: every rank's part and no more (invariant 2) */
    assert(half_arrivals(x, me, h) == all_arrived(x));
    for (q = 0; q < x->np; q++, head += NCP_SHM_HEAD_WORDS) {
        x->first[q] = head[0];
        x->first[x->np + q] = head[0] + head[1];
        any |= head[1] > 0;
    }
    if (any) err = write_union(agg, h, lo);
    /* before the half is handed back: the sink may hold its runs */
    if (agg->sink.round_end) {
        int e = agg->sink.round_end(agg->sink.arg, 1);
        if (err == NC_NOERR) err = e;
    }
    /* empty again for the round two on, whose ranks reserve only after
     * the store below */
    *ncp_shm_half_fill(x, me, h) = 0;
    ncp_shm_counter_add(ncp_shm_written(x, me), 1, (uint32_t)(x->round + 1));
    return err;
}

int ncp_agg_write_by_shm(ncp_agg *agg, ncp_agg_plan *p, const ncp_stream *s)
{
    int a, e, werr = NC_NOERR;
    int64_t k;
    MPI_Offset lo, hi, my_lo = 0; /* my_lo: my own window's start */
    NCP_AGG_SHM_CHECK(agg);
    for (k = 0; k < p->nrounds; k++) {
        for (a = 0; a < agg->naggr; a++) {
            ncp_plan_window(p, a, &lo, &hi);
            shm_put(agg, s, a, lo, hi);
            if (a == agg->my_aggr) my_lo = lo;
        }
        if (agg->my_aggr >= 0) {
            e = shm_drain(agg, my_lo);
            if (e != NC_NOERR && werr == NC_NOERR) werr = e;
        }
        agg->stage->round++;
        ncp_plan_advance(p);
        agg->count.rounds++;
        agg->count.shm_rounds++;
    }
    return werr;
}
