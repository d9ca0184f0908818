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
 * the extents from the image.
 *
 * Why: on the message path the aggregator's CPU copies every rank's bytes
 * into its staging buffer (the shared-memory transport reads them out of
 * the senders), then writes them, and every other rank swaps its buffer
 * in place and back.  Here the senders do the one copy, all at once and
 * while the aggregator writes the previous round: 1.24-1.28x faster on
 * coll_io's issue-6 case at 4 ranks (docs/BENCHMARKS.md).
 *
 * Why one collective per round: counts, extents and bytes all travel
 * through the window, so a round needs only the MPI_Allreduce that fixes
 * the next round's windows, and it doubles as the barrier between the
 * ranks' copies and the aggregator's write.  A window ends where the
 * first rank's list would overflow its share, so the pool has a fixed
 * size.
 * Three collectives a round (counts, an error agreement, extents by
 * message) made 256 KiB staging 1.18x slower at 4 ranks.
 *
 * Why two halves: round k uses half k % 2.  A rank copies round k + 1 as
 * soon as round k's allreduce returns, while the aggregator may still be
 * writing round k; the half it copies into was last read in round k - 1,
 * which the aggregator had finished before it joined round k's allreduce,
 * and that allreduce cannot complete on this rank before the aggregator
 * has joined it.
 */
#include "ncp_posix.h"

#include <stdint.h>
#include <stdlib.h>

#include "pnetcdf.h"

/* A domain with no bytes left, or a bid of a rank with none. */
#define NO_BYTES ((MPI_Offset)INT64_MAX)

/* A half's extent lists take about this share of its data bytes: one
 * 16-byte pair per 64 data bytes over all ranks.  Smaller extents only
 * shorten the window. */
#define LIST_SHARE 4
#define MIN_SLOT 16
/* Pairs per cache line: each rank reserves whole lines, so no two ranks
 * write pairs into one line while they copy (unpadded, coll_io's
 * issue-6 case measured 1.08x slower in one set of 9 rounds; noisy). */
#define POOL_ALIGN 4

/*
 * Aggregator a's half h: data bytes first, both halves, then the two
 * halves' lists.  A half's lists are a fill counter, a head per rank
 * (where its pairs start in the pool, and how many) and, from the next
 * cache line, the pool of np * slot pairs plus padding.  Each rank
 * reserves its pairs, in whole cache lines, with an atomic add on the
 * counter, so the lists lie packed at the pool's start: the pages the
 * aggregator touches follow the pairs sent, not the number of ranks
 * (with a fixed slot per rank, every rank's list took a page of its own,
 * 24-40 KiB in all at 2-4 ranks).
 */
static char *half_data(const ncp_posix *x, int a, int h)
{
    return x->sbuf[a] + h * x->round_cap;
}

static int64_t *half_fill(const ncp_posix *x, int a, int h)
{
    return (int64_t *)(x->sbuf[a] + x->lists_at + h * x->list_bytes);
}

/* per rank: the index of its first pair in the pool, and their number */
static int64_t *half_heads(const ncp_posix *x, int a, int h)
{
    return half_fill(x, a, h) + 1;
}

/* int64s before a half's pool: the counter and the heads, up to the
 * next cache line */
static int64_t pool_at(int np)
{
    return (1 + 2 * (int64_t)np + 7) / 8 * 8;
}

static MPI_Offset *half_pool(const ncp_posix *x, int a, int h)
{
    return (MPI_Offset *)(half_fill(x, a, h) + pool_at(x->np));
}

int ncp_posix_shm_setup(ncp_file *f)
{
    ncp_posix *x = f->posix;
    MPI_Aint size, got;
    MPI_Comm comm;
    MPI_Info info;
    char *base;
    int a, unit, err = NC_NOERR, made;
    MPI_Comm_size(f->comm, &x->np);
    x->slot = x->round_cap / LIST_SHARE / (16 * (int64_t)x->np);
    if (x->slot < MIN_SLOT) x->slot = MIN_SLOT;
    /* a fill counter, a head per rank, then from a cache line on the
     * pool with room for each rank's padding; a multiple of 64 bytes, so
     * both halves' counters start cache lines */
    x->list_bytes = ((MPI_Aint)(pool_at(x->np) +
                                2 * x->np * (x->slot + POOL_ALIGN)) * 8 +
                     63) / 64 * 64;
    /* the lists hold int64s: start them on a cache line */
    x->lists_at = (2 * (MPI_Aint)x->round_cap + 63) / 64 * 64;
    size = x->my_aggr >= 0 ? x->lists_at + 2 * x->list_bytes : 0;
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
    /* the pools start empty; the collective that opens the first write
     * orders this before any rank reserves */
    if (x->my_aggr >= 0) {
        *half_fill(x, x->my_aggr, 0) = 0;
        *half_fill(x, x->my_aggr, 1) = 0;
    }
    MPI_Win_sync(x->win);
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

/* One call's walk over the domains, the same on every rank. */
typedef struct shm_walk {
    ncp_file *f;
    const ncp_stream *s;
    const ncp_agg_domains *d;
    int me, half;
    MPI_Offset *win;  /* per aggregator: this round's [lo, hi), NO_BYTES
                         when its domain is done; before the first, an
                         empty window at the domain's start */
    MPI_Offset *next; /* per aggregator: my bid (start, fit), then the
                         next round's window */
    int64_t *first, *end; /* the aggregator's merge: per rank's list */
} shm_walk;

static MPI_Offset domain_lo(const ncp_agg_domains *d, int a)
{
    return d->base + (MPI_Offset)a * d->dsz;
}

static MPI_Offset domain_hi(const ncp_agg_domains *d, int a)
{
    MPI_Offset hi = domain_lo(d, a) + d->dsz;
    return hi < d->hi ? hi : d->hi;
}

static void walk_free(shm_walk *w)
{
    free(w->win);
    free(w->next);
    free(w->first);
    free(w->end);
}

static int walk_init(shm_walk *w, ncp_file *f, const ncp_stream *s,
                     const ncp_agg_domains *d)
{
    size_t nw = 2 * (size_t)f->posix->naggr, np = (size_t)f->posix->np;
    int a;
    w->f = f;
    w->s = s;
    w->d = d;
    w->half = 0;
    MPI_Comm_rank(f->comm, &w->me);
    w->win = malloc(nw * sizeof(MPI_Offset));
    w->next = malloc(nw * sizeof(MPI_Offset));
    w->first = malloc(np * sizeof(int64_t));
    w->end = malloc(np * sizeof(int64_t));
    if (!w->win || !w->next || !w->first || !w->end) return NC_ENOMEM;
    for (a = 0; a < f->posix->naggr; a++)
        w->win[2 * a] = w->win[2 * a + 1] = domain_lo(d, a);
    return NC_NOERR;
}

/*
 * My bid for domain a's next window, from file offset `from` on: where my
 * next byte is (start) and where my list would overflow (fit: the offset
 * of the slot-th extent after the first one ending past `from`, which
 * every window of mine stays below).  Both are NO_BYTES when they do not
 * apply.  Every fit lies past every start, so the agreed window is never
 * empty.
 */
static void bid(const shm_walk *w, int a, MPI_Offset from, MPI_Offset *b)
{
    const ncp_extents *e = w->s->ext;
    int64_t i = ncp_first_ending_after(e, from), slot = w->f->posix->slot;
    b[0] = b[1] = NO_BYTES;
    if (from >= domain_hi(w->d, a) || i == e->n ||
        e->off[i] >= domain_hi(w->d, a))
        return;
    b[0] = e->off[i] > from ? e->off[i] : from;
    if (i + slot < e->n) b[1] = e->off[i + slot];
}

/*
 * The round's collective: the bids' minima become the next windows.  A
 * window never crosses a multiple of cap from its domain's start: windows
 * that split file pages between rounds wrote 1.2x slower (coll_perf, 4
 * ranks, 128 KiB windows).
 */
static void agree_windows(shm_walk *w)
{
    int a, naggr = w->f->posix->naggr;
    for (a = 0; a < naggr; a++) {
        MPI_Offset from = w->win[2 * a + 1];
        if (w->win[2 * a] == NO_BYTES) from = NO_BYTES;
        bid(w, a, from, w->next + 2 * a);
    }
    MPI_Allreduce(MPI_IN_PLACE, w->next, 2 * naggr, MPI_OFFSET, MPI_MIN,
                  w->f->comm);
    for (a = 0; a < naggr; a++) {
        MPI_Offset lo = w->next[2 * a], hi = w->next[2 * a + 1], edge;
        if (lo == NO_BYTES) continue;
        edge = lo + w->d->cap - (lo - domain_lo(w->d, a)) % w->d->cap;
        if (hi > edge) hi = edge;
        if (hi > domain_hi(w->d, a)) hi = domain_hi(w->d, a);
        w->next[2 * a + 1] = hi;
    }
}

/* My bytes in aggregator a's window into its current half, and my list. */
static void put(shm_walk *w, int a)
{
    const ncp_posix *x = w->f->posix;
    MPI_Offset lo = w->win[2 * a], hi = w->win[2 * a + 1], s0, s1;
    MPI_Offset *pairs;
    char *data = half_data(x, a, w->half);
    int64_t *head = half_heads(x, a, w->half) + 2 * w->me, j, n = 0, at = 0;
    if (lo != NO_BYTES) n = ncp_extents_touching(w->s->ext, lo, hi);
    /* the bid kept n within slot, so the pool holds every rank's, each
     * padded to whole lines */
    if (n > 0)
        at = __atomic_fetch_add(half_fill(x, a, w->half),
                                (n + POOL_ALIGN - 1) / POOL_ALIGN * POOL_ALIGN,
                                __ATOMIC_RELAXED);
    pairs = half_pool(x, a, w->half) + 2 * at;
    if (n > 0) ncp_stream_clip(w->s, lo, hi, pairs, &s0, &s1);
    for (j = 0; j < n; j++) {
        MPI_Offset off = pairs[2 * j], len = pairs[2 * j + 1];
        ncp_stream_copy(w->s, s0, s0 + len, data + (off - lo));
        s0 += len;
    }
    head[0] = at;
    head[1] = n;
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

/* The aggregator (this rank): the union of the ranks' lists in its
 * current half, written from the image a run at a time. */
static int write_half(shm_walk *w)
{
    const ncp_posix *x = w->f->posix;
    int a = x->my_aggr, q;
    MPI_Offset lo, run = 0, end = -1; /* the run being gathered */
    const MPI_Offset *pairs;
    const int64_t *head;
    char *data;
    ncp_kmerge m;
    int64_t i;
    int err;
    if (a < 0 || (lo = w->win[2 * a]) == NO_BYTES) return NC_NOERR;
    head = half_heads(x, a, w->half);
    data = half_data(x, a, w->half);
    pairs = half_pool(x, a, w->half);
    for (q = 0; q < x->np; q++) {
        w->first[q] = head[2 * q];
        w->end[q] = w->first[q] + head[2 * q + 1];
    }
    err = ncp_kmerge_init_ranges(&m, x->np, pairs, w->first, w->end);
    while (err == NC_NOERR && ncp_kmerge_pop(&m, &i) >= 0) {
        const MPI_Offset *pair = pairs + 2 * i;
        if (pair[0] > end) { /* a hole: write the run so far */
            err = write_run(w->f->fd, data, lo, run, end);
            run = pair[0];
        }
        if (pair[0] + pair[1] > end) end = pair[0] + pair[1];
    }
    if (err == NC_NOERR) err = write_run(w->f->fd, data, lo, run, end);
    /* empty for this half's next round, two rounds on: its copies start
     * after the next allreduce, which this rank joins only after this */
    *half_fill(x, a, w->half) = 0;
    ncp_kmerge_free(&m);
    return err;
}

static int windows_left(const shm_walk *w)
{
    int a;
    for (a = 0; a < w->f->posix->naggr; a++)
        if (w->win[2 * a] != NO_BYTES) return 1;
    return 0;
}

/* The next round's windows become this round's. */
static void walk_advance(shm_walk *w)
{
    MPI_Offset *t = w->win;
    w->win = w->next;
    w->next = t;
}

int ncp_posix_shm_write(ncp_file *f, const ncp_stream *s,
                        const ncp_agg_domains *d, int64_t *rounds)
{
    shm_walk w;
    int a, err, werr = NC_NOERR, e;
    err = ncp_io_agree(f->comm, walk_init(&w, f, s, d));
    if (err == NC_NOERR) {
        agree_windows(&w);
        walk_advance(&w);
    }
    while (err == NC_NOERR && windows_left(&w)) {
        for (a = 0; a < f->posix->naggr; a++) put(&w, a);
        MPI_Win_sync(f->posix->win);
        agree_windows(&w);
        MPI_Win_sync(f->posix->win);
        /* a failed write does not stop the rounds: the others still
         * write theirs, and the caller agrees on the code */
        if ((e = write_half(&w)) != NC_NOERR && werr == NC_NOERR) werr = e;
        walk_advance(&w);
        w.half ^= 1;
        (*rounds)++;
    }
    walk_free(&w);
    return err != NC_NOERR ? err : werr;
}
