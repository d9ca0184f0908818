/*
 * posix_agg.c -- the POSIX driver's aggregated write (two-phase I/O done
 * by ncpario itself): the file range written by the call is cut into one
 * domain per aggregator (aligned to NCP_AGG_ALIGN), each domain into
 * windows of at most round_cap bytes, and in each round every rank ships
 * the bytes it has in each aggregator's next non-empty window to that
 * aggregator, which writes them with a few large pwritev calls.
 *
 * Why: on one node, many ranks writing small extents of one file contend
 * for the file's inode lock; one writer per node issuing large writes does
 * not.  The bytes move one of two ways.  When every rank shares one node
 * and the shared window could be made (posix_shm.c), each rank copies its
 * bytes and its clipped extents into the aggregators' shared staging
 * itself, window by window of the same plan, and the rounds need no
 * collective; their windows are cut further where a rank's extent list
 * would not fit the staging's pool.  Otherwise each round is one
 * MPI_Alltoallw of extents and bytes (posix_msg.c).  Here: the plan of
 * the rounds, the same on every rank, and the rounds through the shared
 * staging.
 */
#include "ncp_posix_plan.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "pnetcdf.h"

/* Domain boundaries fall on multiples of this (a common file system block
 * and stripe size), so two aggregators never share a block. */
#define NCP_AGG_ALIGN ((MPI_Offset)1 << 20)

/* Occupancy is agreed as a bitmap of at most this many granules (or one
 * per domain, if there are more domains), so one allreduce of at most
 * 8 KiB serves any span. */
#define NCP_AGG_MAXBITS 65536

static int bit_at(const uint64_t *bits, int64_t bit)
{
    return (int)(bits[bit / 64] >> (bit % 64) & 1);
}

static void bit_set(uint64_t *bits, int64_t bit)
{
    bits[bit / 64] |= (uint64_t)1 << (bit % 64);
}

/* Does window w of domain a run in parts? */
static int dense_at(const ncp_agg_plan *p, int a, int64_t w)
{
    return p->part < p->cap && bit_at(p->dense, a * p->gpd + w / p->m);
}

/* Mark the granules my extents touch, domain by domain. */
static void plan_mark(ncp_agg_plan *p, const ncp_extents *ext)
{
    int64_t i, g, g1, gcap = p->cap * p->m;
    for (i = 0; i < ext->n; i++) {
        MPI_Offset o = ext->off[i], end = o + ext->len[i];
        while (o < end) {
            int64_t a = (o - p->base) / p->dsz;
            MPI_Offset dlo = p->base + a * p->dsz;
            MPI_Offset stop = end < dlo + p->dsz ? end : dlo + p->dsz;
            g1 = (stop - 1 - dlo) / gcap;
            for (g = (o - dlo) / gcap; g <= g1; g++) {
                bit_set(p->busy, a * p->gpd + g);
            }
            o = stop;
        }
    }
}

/* Domain a's first busy window at or after w; wpd when there is none. */
static int64_t plan_next_busy(const ncp_agg_plan *p, int a, int64_t w)
{
    while (w < p->wpd && !bit_at(p->busy, a * p->gpd + w / p->m))
        w = (w / p->m + 1) * p->m;
    return w < p->wpd ? w : p->wpd;
}

static int plan_alloc(ncp_agg_plan *p, int naggr)
{
    int64_t bits = naggr > NCP_AGG_MAXBITS ? naggr : NCP_AGG_MAXBITS;
    memset(p, 0, sizeof(*p));
    /* the busy bits, then room for as many dense ones */
    p->busy = malloc(2 * (size_t)(bits + 63) / 64 * sizeof(uint64_t));
    p->cur = malloc((size_t)naggr * sizeof(int64_t));
    p->at = calloc((size_t)naggr, sizeof(int64_t));
    return p->busy && p->cur && p->at ? NC_NOERR : NC_ENOMEM;
}

static void plan_free(ncp_agg_plan *p)
{
    free(p->busy);
    free(p->cur);
    free(p->at);
}

/*
 * A call's window, when nbuf buffers of it are staged at once (the
 * message path's aggregator holds one, the shared staging two halves):
 * all of them together at most 7.5% of the bytes of the rank that writes
 * most, in steps of NCP_SHM_CAP_STEP, at least NCP_SHM_MIN_CAP, within
 * round_cap (all of it under nc_posix_window=full).  Windows of half the
 * 1 MiB hint were 35-40% of what each of 2-4 ranks wrote in coll_perf's
 * 32^3 cases.  The share leaves room under 10% for the extent lists and
 * the call's own arrays.  The rounds this adds cost time: against 512 KiB
 * windows by message and a 64 KiB floor, coll_perf's combined writes
 * at 2-4 ranks ran 0.81-1.14x as fast (median 0.98x), its per-variable
 * writes of 128-500 KiB a rank 0.78-0.95x (docs/BENCHMARKS.md).
 */
static MPI_Offset sized_cap(const ncp_posix *x, const ncp_agg_plan *p, int nbuf)
{
    MPI_Offset c;
    if (x->full_windows) return p->cap;
    c = p->most * 3 / (40 * nbuf);
    c -= c % NCP_SHM_CAP_STEP;
    if (c < NCP_SHM_MIN_CAP) c = NCP_SHM_MIN_CAP;
    return c < p->cap ? c : p->cap;
}

/* The window of size c holding file offset off, numbered across the
 * domains (wpd windows each). */
static int64_t window_key(const ncp_agg_plan *p, int64_t wpd, MPI_Offset c,
                          MPI_Offset off)
{
    int64_t a = (off - p->base) / p->dsz;
    return a * wpd + (off - p->base - a * p->dsz) / c;
}

/* The most pairs my extents put in one window of size c: one per extent
 * touching it (ext ascends).  With dense, windows (of size p->cap) in
 * which that exceeds slot get their dense bit. */
static int64_t count_pairs(const ncp_agg_plan *p, const ncp_extents *ext,
                           MPI_Offset c, int64_t slot, uint64_t *dense)
{
    int64_t i, n = 0, most = 0, cur = -1;
    int64_t wpd = (p->dsz + c - 1) / c;
    for (i = 0; i < ext->n; i++) {
        int64_t k0, k1;
        if (ext->len[i] == 0) continue;
        k0 = window_key(p, wpd, c, ext->off[i]);
        k1 = window_key(p, wpd, c, ext->off[i] + ext->len[i] - 1);
        n = k0 == cur ? n + 1 : 1;
        if (n > most) most = n;
        if (dense && n > slot)
            bit_set(dense, k0 / wpd * p->gpd + k0 % wpd / p->m);
        if (k1 != k0) n = 1;
        cur = k1;
    }
    return most;
}

/*
 * Collective: the part of a window the shared staging stages at once,
 * p->cap or smaller, so that no rank touches more extents in one part
 * than its list in a half holds (a rank's share of one pair per 64
 * bytes of the hint's half, at least 16 pairs: only extents far smaller
 * than that cut windows into parts).  Halved in whole pages while a
 * page or more, so part edges stay on page boundaries.
 */
static MPI_Offset pool_fit(ncp_file *f, const ncp_agg_plan *p,
                           const ncp_extents *ext, int64_t slot)
{
    MPI_Offset c = p->cap;
    while (c > 1 && count_pairs(p, ext, c, slot, NULL) > slot)
        c = c / 2 >= 4096 ? c / 2 / 4096 * 4096 : c / 2;
    MPI_Allreduce(MPI_IN_PLACE, &c, 1, MPI_OFFSET, MPI_MIN, f->comm);
    return c;
}

/* Collective: the call's range, the domains, their windows and which of
 * them are busy.  p->busy and p->cur come from plan_alloc. */
static void plan_make(ncp_file *f, const ncp_extents *ext, ncp_agg_plan *p)
{
    MPI_Offset mine[3], all[3];
    int64_t span, nwords, a, w, slot = 0; /* slot: shared staging only */
    int naggr = f->posix->naggr, np;
    mine[0] = ext->n ? -ext->off[0] : -INT64_MAX;
    mine[1] = ext->n ? ext->off[ext->n - 1] + ext->len[ext->n - 1] : 0;
    mine[2] = ext->nbytes;
    MPI_Allreduce(mine, all, 3, MPI_OFFSET, MPI_MAX, f->comm);
    p->base = -all[0];
    p->hi = all[1];
    p->most = all[2];
    p->nrounds = p->nwindows = 0;
    if (p->hi <= p->base) return;
    p->base -= p->base % NCP_AGG_ALIGN;
    span = p->hi - p->base;
    p->dsz = (span + naggr - 1) / naggr;
    p->dsz = (p->dsz + NCP_AGG_ALIGN - 1) / NCP_AGG_ALIGN * NCP_AGG_ALIGN;
    if (p->dsz > span) p->dsz = span;
    p->cap = f->posix->round_cap;
    if (f->posix->shm == NCP_SHM_ON) {
        p->cap = sized_cap(f->posix, p, 2);
        MPI_Comm_size(f->comm, &np);
        slot = ncp_posix_shm_slot(f->posix, np);
        p->part = pool_fit(f, p, ext, slot);
    } else {
        p->part = p->cap = sized_cap(f->posix, p, 1);
    }
    p->nparts = (p->cap + p->part - 1) / p->part;
    p->wpd = (p->dsz + p->cap - 1) / p->cap;
    p->gpd = NCP_AGG_MAXBITS / naggr;
    if (p->gpd < 1) p->gpd = 1;
    if (p->gpd > p->wpd) p->gpd = p->wpd;
    p->m = (p->wpd + p->gpd - 1) / p->gpd;
    p->gpd = (p->wpd + p->m - 1) / p->m;
    nwords = (naggr * p->gpd + 63) / 64;
    /* the dense bits follow the busy ones, so one allreduce takes both */
    p->dense = p->busy + nwords;
    if (p->part < p->cap) nwords *= 2;
    memset(p->busy, 0, (size_t)nwords * sizeof(uint64_t));
    plan_mark(p, ext);
    if (p->part < p->cap) count_pairs(p, ext, p->cap, slot, p->dense);
    MPI_Allreduce(MPI_IN_PLACE, p->busy, (int)nwords, MPI_UINT64_T, MPI_BOR,
                  f->comm);
    for (a = 0; a < naggr; a++) {
        int64_t n = 0;
        for (w = plan_next_busy(p, (int)a, 0); w < p->wpd;
             w = plan_next_busy(p, (int)a, w + 1)) {
            n += dense_at(p, (int)a, w) ? p->nparts : 1;
            p->nwindows++;
        }
        p->cur[a] = plan_next_busy(p, (int)a, 0);
        p->at[a] = 0;
        if (n > p->nrounds) p->nrounds = n;
    }
}

/* Every domain moves on to the next part of a dense window, or to its
 * next busy window. */
void ncp_agg_plan_advance(ncp_file *f, ncp_agg_plan *p)
{
    int a;
    for (a = 0; a < f->posix->naggr; a++) {
        if (p->cur[a] >= p->wpd) continue;
        if (dense_at(p, a, p->cur[a]) && p->at[a] + 1 < p->nparts) {
            p->at[a]++;
        } else {
            p->at[a] = 0;
            p->cur[a] = plan_next_busy(p, a, p->cur[a] + 1);
        }
    }
}

/* Aggregator a's window (or part of one) this round: [*lo, *hi),
 * possibly empty. */
void ncp_agg_plan_window(const ncp_agg_plan *p, int a, MPI_Offset *lo,
                         MPI_Offset *hi)
{
    MPI_Offset dlo = p->base + (MPI_Offset)a * p->dsz;
    MPI_Offset dhi = dlo + p->dsz;
    *lo = *hi = dlo;
    if (p->cur[a] >= p->wpd) return;
    *lo = dlo + p->cur[a] * p->cap;
    *hi = *lo + p->cap;
    if (dense_at(p, a, p->cur[a])) {
        *lo += p->at[a] * p->part;
        if (*hi > *lo + p->part) *hi = *lo + p->part;
    }
    if (*hi > dhi) *hi = dhi;
    if (*hi > p->hi) *hi = p->hi;
    if (*lo > *hi) *lo = *hi;
}

/* The call's busy windows counted in round_cap units, as the auto rule
 * was measured: the message path's smaller windows must not bring the
 * shared staging on sooner. */
static int64_t staging_windows(const ncp_posix *x, const ncp_agg_plan *p)
{
    return (p->nwindows * p->cap + x->round_cap - 1) / x->round_cap;
}

/* Is it time to set the shared staging up?  x->windows already counts
 * this call's; it and p are the same on every rank, so is the answer. */
static int shm_due(const ncp_posix *x, const ncp_agg_plan *p)
{
    return x->shm == NCP_SHM_LATER && p->nrounds > 0 &&
           x->windows >= x->shm_after;
}

/* The rounds through the shared staging: the plan's windows, as on the
 * message path, with no collective between them. */
static int write_shared(ncp_file *f, ncp_agg_plan *p, const ncp_stream *s)
{
    const ncp_posix *x = f->posix;
    int a, e, werr = NC_NOERR;
    int64_t k;
    MPI_Offset lo, hi, my_lo = 0; /* my_lo: my own window's start */
    /* a failed write on one aggregator does not stop the rounds: the
     * others still write theirs, and the caller agrees on the code */
    for (k = 0; k < p->nrounds; k++) {
        for (a = 0; a < x->naggr; a++) {
            ncp_agg_plan_window(p, a, &lo, &hi);
            ncp_posix_shm_put(f, s, a, lo, hi);
            if (a == x->my_aggr) my_lo = lo;
        }
        if (x->my_aggr >= 0) {
            e = ncp_posix_shm_drain(f, my_lo);
            if (e != NC_NOERR && werr == NC_NOERR) werr = e;
        }
        ncp_posix_shm_next(f);
        ncp_agg_plan_advance(f, p);
        f->driver_rounds++;
        f->driver_shm_rounds++;
    }
    return werr;
}

int ncp_posix_write_aggregated(ncp_file *f, const ncp_extents *ext,
                               const ncp_extents *mem)
{
    ncp_agg_plan p;
    ncp_stream s;
    int err = NC_NOERR;
    if (plan_alloc(&p, f->posix->naggr) != NC_NOERR) err = NC_ENOMEM;
    if (ncp_stream_init(&s, ext, mem) != NC_NOERR) err = NC_ENOMEM;
    err = ncp_agree(f->comm, err);
    if (err == NC_NOERR) {
        plan_make(f, ext, &p);
        f->posix->windows += staging_windows(f->posix, &p);
    }
    /* all set up or none; a window that cannot be made leaves the
     * message path */
    if (err == NC_NOERR && shm_due(f->posix, &p) &&
        ncp_posix_shm_setup(f) == NC_NOERR)
        plan_make(f, ext, &p); /* the shared staging's windows */
    if (err == NC_NOERR && f->posix->shm == NCP_SHM_ON)
        err = write_shared(f, &p, &s);
    else if (err == NC_NOERR)
        err = ncp_posix_write_by_message(f, &p, &s);
    plan_free(&p);
    ncp_stream_free(&s);
    return err;
}
