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
 * would not fit the staging's pool.  Otherwise
 * (the message path, here) the clipped extents travel by MPI_Alltoallv
 * and one MPI_Alltoallw moves the bytes with no packing on either side:
 * the sender's memory pieces and the receiver's staging buffer are both
 * described with datatypes on absolute addresses, and the aggregator's
 * pwritev points straight into the staging buffer.
 */
#include "ncp_posix.h"
#include "ncp_stream.h"

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

/*
 * The file range of the call and how it is cut; identical on every rank.
 * Domain a is [base + a*dsz, +dsz) and its window w is the cap bytes
 * from w*cap on.  Only windows where some rank has bytes get a round:
 * a call whose extents lie far apart (I/O groups' aggregators, sparse
 * subarrays of a large variable) would otherwise run one all-to-all per
 * cap bytes of span, nearly all of them empty.  A granule is m windows
 * (m = 1 unless the span holds more than NCP_AGG_MAXBITS windows).
 */
typedef struct agg_plan {
    MPI_Offset base, hi; /* domains start at base; bytes end before hi */
    MPI_Offset dsz;      /* domain size, a multiple of NCP_AGG_ALIGN */
    MPI_Offset cap;      /* window size */
    int64_t wpd, m, gpd; /* windows per domain, per granule; granules
                            per domain */
    uint64_t *busy;      /* bit a*gpd + g: granule g of domain a has bytes */
    uint64_t *dense;     /* the same bits, set where some rank's list
                            would overflow its shared pool (shared
                            staging only): such windows run in parts */
    MPI_Offset part;     /* a dense window's part (cap when none) */
    int64_t nparts;      /* parts of a dense window */
    int64_t *cur;        /* per domain: this round's window, wpd if none */
    int64_t *at;         /* per domain: this round's part of it */
    MPI_Offset most;     /* the most bytes one rank writes */
    int64_t nrounds;     /* the most rounds of one domain (a round per
                            busy window, or per part of a dense one) */
    int64_t nwindows;    /* busy windows of all domains */
} agg_plan;

static int bit_at(const uint64_t *bits, int64_t bit)
{
    return (int)(bits[bit / 64] >> (bit % 64) & 1);
}

static void bit_set(uint64_t *bits, int64_t bit)
{
    bits[bit / 64] |= (uint64_t)1 << (bit % 64);
}

/* Does window w of domain a run in parts? */
static int dense_at(const agg_plan *p, int a, int64_t w)
{
    return p->part < p->cap && bit_at(p->dense, a * p->gpd + w / p->m);
}

/* Mark the granules my extents touch, domain by domain. */
static void plan_mark(agg_plan *p, const ncp_extents *ext)
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
static int64_t plan_next_busy(const agg_plan *p, int a, int64_t w)
{
    while (w < p->wpd && !bit_at(p->busy, a * p->gpd + w / p->m))
        w = (w / p->m + 1) * p->m;
    return w < p->wpd ? w : p->wpd;
}

static int plan_alloc(agg_plan *p, int naggr)
{
    int64_t bits = naggr > NCP_AGG_MAXBITS ? naggr : NCP_AGG_MAXBITS;
    memset(p, 0, sizeof(*p));
    /* the busy bits, then room for as many dense ones */
    p->busy = malloc(2 * (size_t)(bits + 63) / 64 * sizeof(uint64_t));
    p->cur = malloc((size_t)naggr * sizeof(int64_t));
    p->at = calloc((size_t)naggr, sizeof(int64_t));
    return p->busy && p->cur && p->at ? NC_NOERR : NC_ENOMEM;
}

static void plan_free(agg_plan *p)
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
static MPI_Offset sized_cap(const ncp_posix *x, const agg_plan *p, int nbuf)
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
static int64_t window_key(const agg_plan *p, int64_t wpd, MPI_Offset c,
                          MPI_Offset off)
{
    int64_t a = (off - p->base) / p->dsz;
    return a * wpd + (off - p->base - a * p->dsz) / c;
}

/* The most pairs my extents put in one window of size c: one per extent
 * touching it (ext ascends).  With dense, windows (of size p->cap) in
 * which that exceeds slot get their dense bit. */
static int64_t count_pairs(const agg_plan *p, const ncp_extents *ext,
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
static MPI_Offset pool_fit(ncp_file *f, const agg_plan *p,
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
static void plan_make(ncp_file *f, const ncp_extents *ext, agg_plan *p)
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
static void plan_advance(ncp_file *f, agg_plan *p)
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
static void plan_window(const agg_plan *p, int a, MPI_Offset *lo,
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

/* One round's traffic, sized for nprocs peers. */
typedef struct agg_round {
    int np, me;             /* ranks, and mine, in f->comm */
    MPI_Offset *meta_out;   /* my clipped extents, grouped by aggregator */
    int64_t *cnt_out;       /* per peer: pairs, bytes (2 values) */
    int64_t *cnt_in;
    int *meta_scnt, *meta_sdsp, *meta_rcnt, *meta_rdsp;
    MPI_Datatype *stype, *rtype;
    MPI_Datatype empty;     /* zero bytes: Alltoallw wants a type anyway */
    MPI_Offset *lo;         /* per aggregator: its window's start */
    MPI_Offset *s0, *s1;    /* per aggregator: my stream range for it */
    char *packed;           /* my swapped bytes for other aggregators */
    int *ones, *zeros;
    int ready;              /* every array allocated and filled */
} agg_round;

/* Set every type of t[0..np) to empty, freeing the round's own ones. */
static void types_reset(MPI_Datatype *t, int np, MPI_Datatype empty)
{
    int i;
    for (i = 0; i < np; i++) {
        if (t[i] != empty && t[i] != MPI_DATATYPE_NULL) MPI_Type_free(&t[i]);
        t[i] = empty;
    }
}

static void round_free(agg_round *r)
{
    free(r->meta_out);
    free(r->cnt_out);
    free(r->cnt_in);
    free(r->meta_scnt);
    free(r->meta_sdsp);
    free(r->meta_rcnt);
    free(r->meta_rdsp);
    if (r->ready) {
        types_reset(r->stype, r->np, r->empty);
        types_reset(r->rtype, r->np, r->empty);
    }
    free(r->stype);
    free(r->rtype);
    free(r->ones);
    free(r->zeros);
    free(r->lo);
    free(r->s0);
    free(r->s1);
    free(r->packed);
    if (r->empty != MPI_DATATYPE_NULL) MPI_Type_free(&r->empty);
}

/* Nothing allocated: round_free is a no-op. */
static void round_clear(agg_round *r)
{
    memset(r, 0, sizeof(*r));
    r->empty = MPI_DATATYPE_NULL;
}

static int round_alloc(agg_round *r, const ncp_file *f, int64_t next)
{
    int i, np, naggr = f->posix->naggr;
    round_clear(r);
    MPI_Comm_size(f->comm, &np);
    MPI_Comm_rank(f->comm, &r->me);
    r->np = np;
    /* the windows of one round are disjoint and ordered, so an extent
     * yields one pair per window it touches: at most next + nwindows */
    r->meta_out = malloc((size_t)(2 * next + 2) * sizeof(MPI_Offset));
    r->cnt_out = calloc((size_t)np * 2, sizeof(int64_t));
    r->cnt_in = calloc((size_t)np * 2, sizeof(int64_t));
    r->meta_scnt = calloc((size_t)np, sizeof(int));
    r->meta_sdsp = calloc((size_t)np, sizeof(int));
    r->meta_rcnt = calloc((size_t)np, sizeof(int));
    r->meta_rdsp = calloc((size_t)np, sizeof(int));
    r->stype = malloc((size_t)np * sizeof(MPI_Datatype));
    r->rtype = malloc((size_t)np * sizeof(MPI_Datatype));
    r->ones = malloc((size_t)np * sizeof(int));
    r->zeros = calloc((size_t)np, sizeof(int));
    r->lo = malloc((size_t)naggr * sizeof(MPI_Offset));
    r->s0 = malloc((size_t)naggr * sizeof(MPI_Offset));
    r->s1 = malloc((size_t)naggr * sizeof(MPI_Offset));
    MPI_Type_contiguous(0, MPI_BYTE, &r->empty);
    MPI_Type_commit(&r->empty);
    if (!r->meta_out || !r->cnt_out || !r->cnt_in || !r->meta_scnt ||
        !r->meta_sdsp || !r->meta_rcnt || !r->meta_rdsp || !r->stype ||
        !r->rtype || !r->ones || !r->zeros || !r->lo || !r->s0 ||
        !r->s1)
        return NC_ENOMEM;
    for (i = 0; i < np; i++) {
        r->ones[i] = 1;
        r->stype[i] = r->rtype[i] = r->empty;
    }
    r->ready = 1;
    return NC_NOERR;
}

/* A committed datatype of len bytes at addr, used from MPI_BOTTOM. */
static void bytes_type(const char *addr, int len, MPI_Datatype *t)
{
    MPI_Aint disp = (MPI_Aint)(intptr_t)addr;
    MPI_Type_create_hindexed(1, &len, &disp, MPI_BYTE, t);
    MPI_Type_commit(t);
}

/*
 * Send types when my memory pieces carry swap widths: the bytes for each
 * other aggregator are copied swapped into r->packed, since the caller's
 * buffer holds them unswapped.
 */
static int pack_swapped(ncp_file *f, const ncp_stream *s, agg_round *r)
{
    int64_t total = 0, at = 0;
    int a;
    for (a = 0; a < f->posix->naggr; a++)
        if (f->posix->aggr[a] != r->me) total += r->s1[a] - r->s0[a];
    if (total == 0) return NC_NOERR;
    if (!(r->packed = malloc((size_t)total))) return NC_ENOMEM;
    for (a = 0; a < f->posix->naggr; a++) {
        int peer = f->posix->aggr[a];
        int64_t n = r->s1[a] - r->s0[a];
        if (peer == r->me || n == 0) continue;
        ncp_stream_copy(s, r->s0[a], r->s1[a], r->packed + at);
        bytes_type(r->packed + at, (int)n, &r->stype[peer]);
        at += n;
    }
    return NC_NOERR;
}

/* The sender's half of a round: for each aggregator, my extents clipped
 * to its window (the metadata it receives) and the stream range holding
 * their bytes. */
static void round_clip(ncp_file *f, const agg_plan *p, const ncp_stream *s,
                       agg_round *r)
{
    int64_t used = 0;
    int a;
    for (a = 0; a < f->posix->naggr; a++) {
        int peer = f->posix->aggr[a];
        MPI_Offset hi;
        int64_t n;
        plan_window(p, a, &r->lo[a], &hi);
        r->s0[a] = r->s1[a] = 0;
        n = 0;
        if (r->lo[a] < hi)
            n = ncp_stream_clip(s, r->lo[a], hi, r->meta_out + 2 * used,
                                &r->s0[a], &r->s1[a]);
        r->meta_sdsp[peer] = (int)(2 * used);
        r->meta_scnt[peer] = (int)(2 * n);
        r->cnt_out[2 * peer] = n;
        r->cnt_out[2 * peer + 1] = r->s1[a] - r->s0[a];
        used += n;
    }
}

/* Message path: a datatype over the memory holding my bytes for each
 * other aggregator.  My own bytes, when I am one, are not sent: copy_own
 * puts them in my staging buffer, swapping them there if they need it. */
static int round_types(ncp_file *f, const ncp_stream *s, agg_round *r)
{
    int a, err = NC_NOERR;
    if (s->mem->swap) return pack_swapped(f, s, r);
    for (a = 0; a < f->posix->naggr && err == NC_NOERR; a++) {
        int peer = f->posix->aggr[a];
        if (peer != r->me && r->s1[a] > r->s0[a])
            err = ncp_stream_type(s, r->s0[a], r->s1[a], &r->stype[peer]);
    }
    return err;
}

/* The aggregator's receive side: where each peer's metadata and bytes go. */
typedef struct agg_inbox {
    MPI_Offset *meta;   /* every peer's pairs, peer by peer */
    char *stage;        /* every peer's bytes, peer by peer */
    int64_t *meta_at;   /* per peer: index of its first pair */
    int64_t *stage_at;  /* per peer: offset of its first byte */
} agg_inbox;

static void inbox_free(agg_inbox *in)
{
    free(in->meta);
    free(in->stage);
    free(in->meta_at);
    free(in->stage_at);
    memset(in, 0, sizeof(*in));
}

static int inbox_make(agg_round *r, agg_inbox *in)
{
    int64_t npair = 0, nbyte = 0;
    int q;
    memset(in, 0, sizeof(*in));
    in->meta_at = malloc((size_t)(r->np + 1) * sizeof(int64_t));
    in->stage_at = malloc((size_t)(r->np + 1) * sizeof(int64_t));
    if (!in->meta_at || !in->stage_at) return NC_ENOMEM;
    for (q = 0; q < r->np; q++) {
        in->meta_at[q] = npair;
        in->stage_at[q] = nbyte;
        r->meta_rdsp[q] = (int)(2 * npair);
        r->meta_rcnt[q] = (int)(2 * r->cnt_in[2 * q]);
        npair += r->cnt_in[2 * q];
        nbyte += r->cnt_in[2 * q + 1];
    }
    in->meta_at[r->np] = npair;
    in->stage_at[r->np] = nbyte;
    in->meta = malloc((size_t)(2 * npair + 2) * sizeof(MPI_Offset));
    in->stage = malloc((size_t)(nbyte ? nbyte : 1));
    if (!in->meta || !in->stage) return NC_ENOMEM;
    for (q = 0; q < r->np; q++)
        if (q != r->me && r->cnt_in[2 * q + 1] > 0)
            bytes_type(in->stage + in->stage_at[q], (int)r->cnt_in[2 * q + 1],
                       &r->rtype[q]);
    return NC_NOERR;
}

/* pwritev batches: pieces join the current batch while they continue it
 * in the file. */
typedef struct agg_writer {
    int fd, n, err;
    MPI_Offset start, end;
    struct iovec iov[NCP_POSIX_IOV];
} agg_writer;

static void writer_flush(agg_writer *w)
{
    if (w->n > 0 && w->err == NC_NOERR)
        w->err = ncp_posix_pwritev(w->fd, w->iov, w->n, w->start);
    w->n = 0;
}

static void writer_add(agg_writer *w, MPI_Offset off, MPI_Offset len,
                       char *addr)
{
    if (w->n > 0 && (off != w->end || w->n == NCP_POSIX_IOV))
        writer_flush(w);
    if (w->n == 0) w->start = w->end = off;
    w->iov[w->n].iov_base = addr;
    w->iov[w->n].iov_len = (size_t)len;
    w->n++;
    w->end += len;
}

/*
 * Write what the peers sent, in file order: a k-way merge of their sorted
 * pair lists, O(n log k), with no copy beyond the staging buffer.
 */
static int inbox_write(int fd, int np, agg_inbox *in)
{
    agg_writer *w = calloc(1, sizeof(*w));
    int64_t *taken = calloc((size_t)np, sizeof(int64_t)), i;
    ncp_kmerge m;
    int q, err = ncp_kmerge_init(&m, np, in->meta, in->meta_at);
    if (!w || !taken) err = NC_ENOMEM;
    if (err == NC_NOERR) {
        w->fd = fd;
        while ((q = ncp_kmerge_pop(&m, &i)) >= 0) {
            writer_add(w, in->meta[2 * i], in->meta[2 * i + 1],
                       in->stage + in->stage_at[q] + taken[q]);
            taken[q] += in->meta[2 * i + 1];
        }
        writer_flush(w);
        err = w->err;
    }
    ncp_kmerge_free(&m);
    free(w);
    free(taken);
    return err;
}

/* An aggregator's own bytes into its staging buffer, as the file is to
 * hold them: cheaper than sending them to itself through MPI, and the
 * swap of deferred puts rides along with the copy. */
static void copy_own(const ncp_file *f, const ncp_stream *s,
                     const agg_round *r, agg_inbox *in)
{
    int a = f->posix->my_aggr;
    if (a >= 0)
        ncp_stream_copy(s, r->s0[a], r->s1[a], in->stage + in->stage_at[r->me]);
}

/* The bytes after the metadata, and the aggregators' writes. */
static int round_finish(ncp_file *f, const ncp_stream *s, agg_round *r,
                        agg_inbox *in)
{
    MPI_Alltoallw(MPI_BOTTOM, r->ones, r->zeros, r->stype, MPI_BOTTOM,
                  r->ones, r->zeros, r->rtype, f->comm);
    copy_own(f, s, r, in);
    return inbox_write(f->fd, r->np, in);
}

/*
 * One round, every rank: counts, then metadata, then bytes, then the
 * aggregators write.  An allocation failure on any rank is agreed on
 * before the exchange, so nobody waits on a message never sent; that
 * agreed code is returned.  A failed write is this aggregator's own and
 * goes to *werr (the first one kept).
 */
static int round_run(ncp_file *f, const agg_plan *p, const ncp_stream *s,
                     agg_round *r, int *werr)
{
    agg_inbox in;
    int err = NC_NOERR, e;
    memset(&in, 0, sizeof(in));
    round_clip(f, p, s, r);
    err = round_types(f, s, r);
    MPI_Alltoall(r->cnt_out, 2, MPI_INT64_T, r->cnt_in, 2, MPI_INT64_T,
                 f->comm);
    if (err == NC_NOERR) err = inbox_make(r, &in);
    err = ncp_io_agree(f->comm, err);
    if (err == NC_NOERR) {
        MPI_Alltoallv(r->meta_out, r->meta_scnt, r->meta_sdsp, MPI_OFFSET,
                      in.meta, r->meta_rcnt, r->meta_rdsp, MPI_OFFSET,
                      f->comm);
        e = round_finish(f, s, r, &in);
        if (e != NC_NOERR && *werr == NC_NOERR) *werr = e;
    }
    inbox_free(&in);
    free(r->packed);
    r->packed = NULL;
    types_reset(r->stype, r->np, r->empty);
    types_reset(r->rtype, r->np, r->empty);
    return err;
}

/* The call's busy windows counted in round_cap units, as the auto rule
 * was measured: the message path's smaller windows must not bring the
 * shared staging on sooner. */
static int64_t staging_windows(const ncp_posix *x, const agg_plan *p)
{
    return (p->nwindows * p->cap + x->round_cap - 1) / x->round_cap;
}

/* Is it time to set the shared staging up?  x->windows already counts
 * this call's; it and p are the same on every rank, so is the answer. */
static int shm_due(const ncp_posix *x, const agg_plan *p)
{
    return x->shm == NCP_SHM_LATER && p->nrounds > 0 &&
           x->windows >= x->shm_after;
}

/* The rounds by message, four collectives each (counts, the agreement
 * on allocation, extents, bytes). */
static int write_by_message(ncp_file *f, agg_plan *p, const ncp_stream *s,
                            agg_round *r)
{
    int err = NC_NOERR, werr = NC_NOERR;
    int64_t k;
    /* a failed write on one aggregator does not stop the rounds: the
     * others still write theirs, and the caller agrees on the code */
    for (k = 0; err == NC_NOERR && k < p->nrounds; k++) {
        err = round_run(f, p, s, r, &werr);
        plan_advance(f, p);
        f->driver_rounds++;
    }
    return err != NC_NOERR ? err : werr;
}

/* The rounds through the shared staging: the plan's windows, as on the
 * message path, with no collective between them. */
static int write_shared(ncp_file *f, agg_plan *p, const ncp_stream *s)
{
    const ncp_posix *x = f->posix;
    int a, e, werr = NC_NOERR;
    int64_t k;
    MPI_Offset lo, hi;
    /* a failed write on one aggregator does not stop the rounds: the
     * others still write theirs, and the caller agrees on the code */
    for (k = 0; k < p->nrounds; k++) {
        for (a = 0; a < x->naggr; a++) {
            plan_window(p, a, &lo, &hi);
            ncp_posix_shm_put(f, s, a, lo, hi);
        }
        if (x->my_aggr >= 0) {
            plan_window(p, x->my_aggr, &lo, &hi);
            e = ncp_posix_shm_drain(f, lo);
            if (e != NC_NOERR && werr == NC_NOERR) werr = e;
        }
        ncp_posix_shm_next(f);
        plan_advance(f, p);
        f->driver_rounds++;
        f->driver_shm_rounds++;
    }
    return werr;
}

int ncp_posix_write_aggregated(ncp_file *f, const ncp_extents *ext,
                               const ncp_extents *mem)
{
    agg_plan p;
    ncp_stream s;
    agg_round r;
    int err = NC_NOERR;
    /* the message path's buffers; a window set up below leaves them
     * unused */
    round_clear(&r);
    if (f->posix->shm != NCP_SHM_ON)
        err = round_alloc(&r, f, ext->n + f->posix->naggr);
    if (plan_alloc(&p, f->posix->naggr) != NC_NOERR) err = NC_ENOMEM;
    if (ncp_stream_init(&s, ext, mem) != NC_NOERR) err = NC_ENOMEM;
    err = ncp_io_agree(f->comm, err);
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
        err = write_by_message(f, &p, &s, &r);
    plan_free(&p);
    round_free(&r);
    ncp_stream_free(&s);
    return err;
}
