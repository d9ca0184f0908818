/*
 * test_agg_plan.c -- unit test of the aggregator's write planner
 * (src/io/agg/plan.c).  Several ranks are simulated in one process:
 * the planner's steps run for each, with the reductions agg/agg.c does
 * by MPI_Allreduce (MAX, MIN, bitwise OR) done here by hand.  Each plan
 * is then walked round by round and checked against a brute-force
 * reference computed from the extents alone:
 *
 *  - the geometry: domains_start, data_end, domain_size (aligned, the
 *    domains covering the span), window_size within round_cap and, when
 *    sized, the step rule; the part size the largest halving at which
 *    no rank's extents overflow its list slot;
 *  - every window in its aggregator's domain, on the window grid (a
 *    part on the part grid inside its window), no larger than the window
 *    or part size, ascending round by round;
 *  - every byte of every rank's extents in exactly one window (windows
 *    disjoint, their union covering the extents), every domain done
 *    after nrounds rounds;
 *  - busy_windows and nrounds equal to the reference's count of windows
 *    in busy granules (and their parts);
 *  - on the shared path, no rank touching more than slot extents in one
 *    window or part (its list must fit the pool).
 *
 * Thousands of random cases from fixed seeds, plus edge cases: no bytes,
 * one byte, offsets near 2^62, every rank the same extents, gaps.
 * Prints "N passed, M failed"; exit status 0 only when M is 0.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <pnetcdf.h>

#include "io/agg/ncp_agg_plan.h"
#include "io/agg/ncp_shm_stage.h"

enum { MAXR = 8, NCASES = 3000, MAX_WALK = 400000 };

static long passed, failed;
static char why[256]; /* the first broken promise of the current case */

#define FAIL_IF(cond, ...)                                                   \
    do {                                                                     \
        if ((cond) && !why[0]) snprintf(why, sizeof(why), __VA_ARGS__);      \
    } while (0)

/* A small deterministic generator, so a failure reproduces. */
static uint64_t rng_state = 0x2545f4914f6cdd1du;
static int64_t rnd(int64_t n)
{
    rng_state = rng_state * 6364136223846793005u + 1442695040888963407u;
    return (int64_t)((rng_state >> 33) % (uint64_t)n);
}

typedef struct sim {
    int nranks;
    ncp_extents ext[MAXR];
    ncp_plan_limits lim;
    int shm;      /* the shared path: parts and slot */
    int64_t slot; /* shm: pairs a rank may put in one window */
} sim;

static void sim_init(sim *s, int nranks)
{
    memset(s, 0, sizeof(*s));
    s->nranks = nranks;
    for (int r = 0; r < nranks; r++) ncp_extents_init(&s->ext[r]);
}

static void sim_free(sim *s)
{
    for (int r = 0; r < s->nranks; r++) ncp_extents_free(&s->ext[r]);
}

/* Extents as the engine hands them: ascending, disjoint, not adjacent
 * (ncp_extents_add merges adjacent ones). */
static void add(sim *s, int r, MPI_Offset off, MPI_Offset len)
{
    ncp_extents_add(&s->ext[r], off, len);
}

/* ---------------------------------------------------- the planner, run */

/* agg/agg.c's plan_collective with the reductions done in process. */
static int plan_sim(const sim *s, ncp_agg_plan *p)
{
    MPI_Offset all[NCP_PLAN_NLOCAL], mine[NCP_PLAN_NLOCAL];
    uint64_t *acc;
    int64_t nwords = 0;
    for (int i = 0; i < NCP_PLAN_NLOCAL; i++) all[i] = INT64_MIN;
    if (ncp_plan_alloc(p, s->lim.naggr) != NC_NOERR) return -1;
    for (int r = 0; r < s->nranks; r++) {
        ncp_plan_local(&s->ext[r], mine);
        for (int i = 0; i < NCP_PLAN_NLOCAL; i++)
            if (mine[i] > all[i]) all[i] = mine[i];
    }
    if (!ncp_plan_shape(p, &s->lim, all)) return 0;
    if (s->shm) {
        MPI_Offset part = INT64_MAX;
        for (int r = 0; r < s->nranks; r++) {
            MPI_Offset c = ncp_plan_part_fit(p, &s->ext[r], s->slot);
            if (c < part) part = c;
        }
        ncp_plan_set_part(p, part);
    }
    acc = calloc(2 * (size_t)p->nwords + 1, sizeof(uint64_t));
    for (int r = 0; r < s->nranks; r++) {
        nwords = ncp_plan_mark(p, &s->ext[r], s->slot);
        for (int64_t i = 0; i < nwords; i++) acc[i] |= p->busy_bits[i];
    }
    memcpy(p->busy_bits, acc, (size_t)nwords * sizeof(uint64_t));
    free(acc);
    ncp_plan_start(p);
    return 1;
}

/* ------------------------------------------------------- the reference */

/* Extents of e touching [lo, hi), by binary search. */
static int64_t touching(const ncp_extents *e, MPI_Offset lo, MPI_Offset hi)
{
    int64_t a = 0, b = e->n, first, last;
    while (a < b) { /* first extent ending after lo */
        int64_t m = (a + b) / 2;
        if (e->off[m] + e->len[m] > lo) b = m;
        else a = m + 1;
    }
    first = a;
    a = first, b = e->n;
    while (a < b) { /* first extent starting at or after hi */
        int64_t m = (a + b) / 2;
        if (e->off[m] >= hi) b = m;
        else a = m + 1;
    }
    last = a;
    return last > first ? last - first : 0;
}

/* Does any rank have a byte in [lo, hi)? */
static int any_bytes(const sim *s, MPI_Offset lo, MPI_Offset hi)
{
    for (int r = 0; r < s->nranks; r++)
        if (touching(&s->ext[r], lo, hi) > 0) return 1;
    return 0;
}

/* The most extents one rank touches in [lo, hi). */
static int64_t most_touching(const sim *s, MPI_Offset lo, MPI_Offset hi)
{
    int64_t most = 0;
    for (int r = 0; r < s->nranks; r++) {
        int64_t n = touching(&s->ext[r], lo, hi);
        if (n > most) most = n;
    }
    return most;
}

static int by_key(const void *x, const void *y)
{
    int64_t a = *(const int64_t *)x, b = *(const int64_t *)y;
    return a < b ? -1 : a > b;
}

/* The most extents one rank touches in one part of size c, parts lying
 * on the grid of c from each window's start: every extent counted in the
 * parts of its first and last byte (a part strictly inside one extent
 * holds only it). */
static int64_t most_per_cell(const sim *s, const ncp_agg_plan *p,
                             MPI_Offset c)
{
    MPI_Offset W = p->window_size;
    int64_t most = 1, cpw = (W + c - 1) / c;
    for (int r = 0; r < s->nranks; r++) {
        const ncp_extents *e = &s->ext[r];
        int64_t *key = malloc((size_t)(2 * e->n + 1) * sizeof(int64_t)), n = 0;
        for (int64_t i = 0; i < e->n; i++) {
            MPI_Offset ends[2] = {e->off[i], e->off[i] + e->len[i] - 1};
            int64_t k[2];
            for (int j = 0; j < 2; j++) {
                int64_t a = (ends[j] - p->domains_start) / p->domain_size;
                MPI_Offset rel = ends[j] - p->domains_start -
                                 a * p->domain_size;
                k[j] = (a * p->windows_per_domain + rel / W) * cpw +
                       rel % W / c;
            }
            key[n++] = k[0];
            if (k[1] != k[0]) key[n++] = k[1];
        }
        qsort(key, (size_t)n, sizeof(*key), by_key);
        for (int64_t i = 0, run = 0; i < n; i++) {
            run = i > 0 && key[i] == key[i - 1] ? run + 1 : 1;
            if (run > most) most = run;
        }
        free(key);
    }
    return most;
}

/* The geometry a plan must have, from the extents alone. */
static void check_shape(const sim *s, const ncp_agg_plan *p)
{
    MPI_Offset lo = INT64_MAX, hi = 0, most = 0, span, d, w, c, share, a;
    for (int r = 0; r < s->nranks; r++) {
        const ncp_extents *e = &s->ext[r];
        if (e->n == 0) continue;
        if (e->off[0] < lo) lo = e->off[0];
        if (e->off[e->n - 1] + e->len[e->n - 1] > hi)
            hi = e->off[e->n - 1] + e->len[e->n - 1];
        if (e->nbytes > most) most = e->nbytes;
    }
    FAIL_IF(p->domains_start != lo - lo % NCP_AGG_ALIGN,
            "domains_start %lld", (long long)p->domains_start);
    FAIL_IF(p->data_end != hi, "data_end %lld", (long long)p->data_end);
    FAIL_IF(p->most_bytes != most, "most_bytes");
    span = hi - p->domains_start;
    d = p->domain_size;
    FAIL_IF(d <= 0 || d > span, "domain_size %lld of span %lld",
            (long long)d, (long long)span);
    share = (span + s->lim.naggr - 1) / s->lim.naggr;
    FAIL_IF(d % NCP_AGG_MIN_ALIGN != 0 && d != span, "domain_size unaligned");
    FAIL_IF(d * s->lim.naggr < span, "domains short of the span");
    /* the largest alignment that grows the share by at most an eighth */
    for (a = NCP_AGG_ALIGN; d != span && a >= NCP_AGG_MIN_ALIGN; a /= 2)
        if ((share + a - 1) / a * a - share <= share / 8 ||
            a == NCP_AGG_MIN_ALIGN) {
            FAIL_IF(d != (share + a - 1) / a * a,
                    "domain_size %lld, want %lld (share %lld, align %lld)",
                    (long long)d, (long long)((share + a - 1) / a * a),
                    (long long)share, (long long)a);
            break;
        }
    w = p->window_size;
    FAIL_IF(w < 1 || w > s->lim.round_cap, "window_size %lld over cap",
            (long long)w);
    if (s->lim.full_windows) {
        FAIL_IF(w != s->lim.round_cap, "full window %lld", (long long)w);
    } else if (w != s->lim.round_cap && w != NCP_AGG_MIN_WINDOW) {
        int64_t budget = most * 3 / 40; /* 7.5% of the largest rank's */
        FAIL_IF(w % NCP_AGG_WINDOW_STEP != 0, "window not whole steps");
        FAIL_IF(w * s->lim.nbuf > budget, "windows over 7.5%%");
        FAIL_IF((w + NCP_AGG_WINDOW_STEP) * s->lim.nbuf <= budget,
                "window a step short");
    }
    FAIL_IF(p->windows_per_domain != (d + w - 1) / w, "windows_per_domain");
    FAIL_IF(p->granules_per_domain * s->lim.naggr > NCP_AGG_MAXBITS &&
                p->granules_per_domain > 1,
            "bitmap over NCP_AGG_MAXBITS");
    FAIL_IF(p->granules_per_domain * p->windows_per_granule <
                p->windows_per_domain,
            "granules short of the domain");
    if (!s->shm) {
        FAIL_IF(p->part_size != w, "parts off the shared path");
        return;
    }
    /* the part: the first halving of w at which every rank fits */
    c = w;
    while (c > 1 && most_per_cell(s, p, c) > s->slot)
        c = c / 2 >= 4096 ? c / 2 / 4096 * 4096 : c / 2;
    FAIL_IF(p->part_size != c, "part_size %lld, reference %lld",
            (long long)p->part_size, (long long)c);
    FAIL_IF(p->parts_per_window != (w + c - 1) / c, "parts_per_window");
}

typedef struct win {
    MPI_Offset lo, hi;
    int a;
} win;

static int by_lo(const void *x, const void *y)
{
    MPI_Offset a = ((const win *)x)->lo, b = ((const win *)y)->lo;
    return a < b ? -1 : a > b;
}

/* The reference's rounds: every window of a granule in which some rank
 * has bytes, in parts where some rank overflows its slot in a window of
 * the granule.  Returns the most rounds of one domain; *nbusy the
 * windows. */
static int64_t ref_rounds(const sim *s, const ncp_agg_plan *p,
                          int64_t *nbusy)
{
    int64_t most = 0, m = p->windows_per_granule, W = p->window_size;
    *nbusy = 0;
    for (int a = 0; a < s->lim.naggr; a++) {
        MPI_Offset dlo = p->domains_start + (MPI_Offset)a * p->domain_size;
        MPI_Offset dhi = dlo + p->domain_size;
        int64_t n = 0;
        for (int64_t g = 0; g < p->granules_per_domain; g++) {
            int64_t w0 = g * m, w1 = w0 + m;
            MPI_Offset glo = dlo + w0 * W, ghi = dlo + w1 * W;
            int dense = 0;
            if (w1 > p->windows_per_domain) w1 = p->windows_per_domain;
            if (ghi > dhi) ghi = dhi;
            if (glo >= ghi || !any_bytes(s, glo, ghi)) continue;
            for (int64_t w = w0; s->shm && w < w1 && !dense; w++) {
                MPI_Offset lo = dlo + w * W, hi = lo + W;
                if (hi > dhi) hi = dhi;
                /* only windows with bytes of the rank count */
                dense = lo < hi && most_touching(s, lo, hi) > s->slot;
            }
            *nbusy += w1 - w0;
            n += (w1 - w0) * (dense && p->part_size < W ? p->parts_per_window
                                                        : 1);
        }
        if (n > most) most = n;
    }
    return most;
}

/* Walk the plan's rounds and check every window; then coverage. */
static void check_rounds(const sim *s, ncp_agg_plan *p)
{
    int naggr = s->lim.naggr;
    int64_t cap = p->nrounds * naggr + 1, n = 0, nbusy, rounds;
    win *all = malloc((size_t)cap * sizeof(win));
    MPI_Offset *last = calloc((size_t)naggr, sizeof(MPI_Offset));
    MPI_Offset W = p->window_size, P = p->part_size;
    for (int64_t k = 0; k < p->nrounds && !why[0]; k++) {
        MPI_Offset prev_hi = INT64_MIN;
        for (int a = 0; a < naggr && !why[0]; a++) {
            MPI_Offset lo, hi, dlo, dend, rel, ws;
            ncp_plan_window(p, a, &lo, &hi);
            if (lo >= hi) continue;
            dlo = p->domains_start + (MPI_Offset)a * p->domain_size;
            dend = dlo + p->domain_size;
            if (dend > p->data_end) dend = p->data_end;
            FAIL_IF(lo < dlo || hi > dend, "round %lld aggr %d: [%lld,%lld) "
                    "outside its domain", (long long)k, a, (long long)lo,
                    (long long)hi);
            rel = lo - dlo;
            ws = dlo + rel / W * W; /* the window's start */
            FAIL_IF(hi - lo > W, "window over window_size");
            FAIL_IF(lo != ws && ((lo - ws) % P != 0 || hi - lo > P),
                    "part off its grid");
            FAIL_IF(lo != ws && P == W, "off the grid without parts");
            FAIL_IF(lo == ws && P < W && hi - lo > P &&
                        most_touching(s, ws, ws + W < dend ? ws + W : dend) >
                            s->slot,
                    "dense window run whole");
            FAIL_IF(lo < last[a], "aggregator %d goes back", a);
            FAIL_IF(lo < prev_hi, "round %lld: windows out of order",
                    (long long)k);
            if (s->shm)
                FAIL_IF(most_touching(s, lo, hi) > s->slot,
                        "round %lld aggr %d: %lld pairs in [%lld,%lld) over "
                        "slot %lld (part %lld, window %lld)",
                        (long long)k, a, (long long)most_touching(s, lo, hi),
                        (long long)lo, (long long)hi, (long long)s->slot,
                        (long long)P, (long long)W);
            if (p->windows_per_granule == 1 && lo == ws && P == W)
                FAIL_IF(!any_bytes(s, lo, hi), "an empty window gets a round");
            last[a] = prev_hi = hi;
            all[n++] = (win){lo, hi, a};
        }
        ncp_plan_advance(p);
    }
    for (int a = 0; a < naggr; a++)
        FAIL_IF(p->cur_window[a] != p->windows_per_domain,
                "domain %d not done after nrounds", a);
    /* exactly once: disjoint windows whose union covers every extent */
    qsort(all, (size_t)n, sizeof(*all), by_lo);
    for (int64_t i = 1; i < n; i++)
        FAIL_IF(all[i].lo < all[i - 1].hi, "windows overlap at %lld",
                (long long)all[i].lo);
    for (int r = 0; r < s->nranks && !why[0]; r++) {
        const ncp_extents *e = &s->ext[r];
        for (int64_t i = 0; i < e->n && !why[0]; i++) {
            MPI_Offset o = e->off[i], end = o + e->len[i], at;
            int64_t lo = 0, hi = n;
            while (lo < hi) { /* the last window starting at or before o */
                int64_t m = (lo + hi) / 2;
                if (all[m].lo <= o) lo = m + 1;
                else hi = m;
            }
            FAIL_IF(lo == 0 || all[lo - 1].hi <= o,
                    "byte %lld of rank %d in no window", (long long)o, r);
            if (why[0]) break;
            at = all[lo - 1].hi;
            for (int64_t j = lo; at < end && !why[0]; j++) {
                FAIL_IF(j >= n || all[j].lo != at,
                        "byte %lld of rank %d in no window", (long long)at,
                        r);
                if (!why[0]) at = all[j].hi;
            }
        }
    }
    rounds = ref_rounds(s, p, &nbusy);
    FAIL_IF(p->busy_windows != nbusy, "busy_windows %lld, reference %lld",
            (long long)p->busy_windows, (long long)nbusy);
    FAIL_IF(p->nrounds != rounds, "nrounds %lld, reference %lld",
            (long long)p->nrounds, (long long)rounds);
    free(all);
    free(last);
}

/* A check outside run_case's promises. */
static void expect(int ok, const char *what)
{
    if (ok) {
        passed++;
        return;
    }
    failed++;
    printf("FAIL %s\n", what);
}

/* agg/agg.c's choice of the direct write, the reduction in process. */
static int direct_sim(const sim *s)
{
    MPI_Offset all[NCP_PLAN_NLOCAL], mine[NCP_PLAN_NLOCAL];
    for (int i = 0; i < NCP_PLAN_NLOCAL; i++) all[i] = INT64_MIN;
    for (int r = 0; r < s->nranks; r++) {
        ncp_plan_local(&s->ext[r], mine);
        for (int i = 0; i < NCP_PLAN_NLOCAL; i++)
            if (mine[i] > all[i]) all[i] = mine[i];
    }
    return ncp_plan_direct(all);
}

/* The reference: some rank has bytes, and every rank that has writes at
 * least NCP_AGG_DIRECT_MIN bytes an extent on average (compared without
 * dividing). */
static int ref_direct(const sim *s)
{
    int any = 0;
    for (int r = 0; r < s->nranks; r++) {
        const ncp_extents *e = &s->ext[r];
        if (e->nbytes == 0) continue;
        any = 1;
        if (e->nbytes < NCP_AGG_DIRECT_MIN * e->n) return 0;
    }
    return any;
}

/* Plan s's case and check it; label names it in a failure. */
static void run_case(sim *s, const char *label, long id)
{
    ncp_agg_plan p;
    int made;
    why[0] = 0;
    if (s->shm) s->slot = ncp_shm_slot(s->lim.round_cap, s->nranks);
    s->lim.nbuf = s->shm ? 2 : 1;
    FAIL_IF(direct_sim(s) != ref_direct(s), "direct write %d, expected %d",
            direct_sim(s), ref_direct(s));
    made = plan_sim(s, &p);
    if (made < 0) {
        snprintf(why, sizeof(why), "out of memory");
    } else if (made == 0) {
        for (int r = 0; r < s->nranks; r++)
            FAIL_IF(s->ext[r].n > 0, "no plan for bytes");
        FAIL_IF(p.nrounds != 0, "rounds with no bytes");
    } else {
        check_shape(s, &p);
        if (!why[0] && p.nrounds <= MAX_WALK / s->lim.naggr)
            check_rounds(s, &p);
    }
    ncp_plan_free(&p);
    if (why[0]) {
        failed++;
        if (failed <= 10)
            printf("FAIL %s %ld (ranks %d, aggrs %d, cap %lld, %s%s): %s\n",
                   label, id, s->nranks, s->lim.naggr,
                   (long long)s->lim.round_cap,
                   s->lim.full_windows ? "full" : "sized",
                   s->shm ? ", shm" : "", why);
    } else {
        passed++;
    }
}

/* --------------------------------------------------------------- cases */

static const MPI_Offset caps[] = {1 << 20, 512 << 10, 4096, 8192, 28672,
                                  114688, 100000, 65536, 3 << 20, 777};

/* A random case: per rank, runs of small extents with gaps, or a few
 * large ones, somewhere in a file range of random size and base. */
static void random_case(sim *s)
{
    int nranks = 1 + (int)rnd(MAXR);
    MPI_Offset base, range;
    sim_init(s, nranks);
    s->lim.naggr = 1 + (int)rnd(nranks < 4 ? nranks : 4);
    s->lim.round_cap = rnd(4) ? caps[rnd(10)] : 1 + rnd(2 << 20);
    s->lim.full_windows = rnd(3) == 0;
    s->shm = rnd(2);
    if (s->shm && s->lim.round_cap > (128 << 20)) s->lim.round_cap >>= 2;
    base = rnd(5) == 0 ? ((int64_t)1 << 62) - rnd((int64_t)1 << 40)
                       : rnd((int64_t)1 << (10 + rnd(28)));
    range = (MPI_Offset)1 << (6 + rnd(24));
    for (int r = 0; r < nranks; r++) {
        int style = (int)rnd(4);
        MPI_Offset o = base + rnd(range);
        int64_t count = style == 3 ? 0 : 1 + rnd(style == 0 ? 8 : 600);
        for (int64_t i = 0; i < count; i++) {
            MPI_Offset len = style == 0 ? 1 + rnd(range / 2 + 1)
                                        : 1 + rnd(style == 1 ? 64 : 4096);
            MPI_Offset gap = 1 + rnd(style == 1 ? 200 : range / 64 + 2);
            add(s, r, o, len);
            o += len + gap;
        }
    }
}

/* Every rank writes the same extents (shared bytes land once). */
static void same_extents_case(sim *s, int nranks, MPI_Offset off)
{
    sim_init(s, nranks);
    s->lim.naggr = nranks > 1 ? nranks - 1 : 1;
    s->lim.round_cap = 512 << 10;
    for (int r = 0; r < nranks; r++)
        for (int64_t i = 0; i < 500; i++) add(s, r, off + i * 100, 40);
}

static void edge_cases(void)
{
    sim s;
    /* no bytes anywhere, and one rank empty */
    sim_init(&s, 4);
    s.lim.naggr = 2;
    s.lim.round_cap = 1 << 20;
    run_case(&s, "empty", 0);
    s.shm = 1;
    run_case(&s, "empty-shm", 0);
    sim_free(&s);
    /* one byte, at 0, at a domain edge, near 2^62 */
    const MPI_Offset one[] = {0, NCP_AGG_ALIGN - 1, NCP_AGG_ALIGN,
                              ((int64_t)1 << 62) - 1, (int64_t)1 << 62};
    for (int i = 0; i < 5; i++) {
        for (int shm = 0; shm < 2; shm++) {
            sim_init(&s, 3);
            s.lim.naggr = 2;
            s.lim.round_cap = 512 << 10;
            s.shm = shm;
            add(&s, 1, one[i], 1);
            run_case(&s, "one-byte", i);
            sim_free(&s);
        }
    }
    /* huge offsets: a dense run near 2^62, and a span of 2^40 */
    sim_init(&s, 4);
    s.lim.naggr = 3;
    s.lim.round_cap = 8192;
    s.shm = 1;
    for (int r = 0; r < 4; r++)
        for (int64_t i = 0; i < 300; i++)
            add(&s, r, ((int64_t)1 << 62) + r * 7 + i * 40, 5);
    run_case(&s, "near-2^62", 0);
    sim_free(&s);
    sim_init(&s, 2);
    s.lim.naggr = 1;
    s.lim.round_cap = 1 << 20;
    add(&s, 0, 4096, 10);
    add(&s, 1, ((int64_t)1 << 40) + 5, 10);
    run_case(&s, "span-2^40", 0);
    sim_free(&s);
    /* every rank the same extents, message and shared */
    for (int shm = 0; shm < 2; shm++) {
        same_extents_case(&s, 4, shm ? 3 << 20 : 0);
        s.shm = shm;
        run_case(&s, "same-extents", shm);
        sim_free(&s);
    }
    /* gaps: two clusters far apart in different domains, one empty domain
     * between them */
    sim_init(&s, 3);
    s.lim.naggr = 3;
    s.lim.round_cap = 1 << 20;
    add(&s, 0, 0, 100);
    add(&s, 2, (int64_t)40 << 20, 100);
    add(&s, 1, (int64_t)80 << 20, 1 << 20);
    run_case(&s, "gaps", 0);
    sim_free(&s);
    /* the direct write's threshold: a mean extent of exactly
     * NCP_AGG_DIRECT_MIN, one byte under it, and idle ranks */
    for (int under = 0; under < 2; under++) {
        sim_init(&s, 3);
        s.lim.naggr = 1;
        s.lim.round_cap = 1 << 20;
        add(&s, 0, 0, NCP_AGG_DIRECT_MIN);
        add(&s, 0, NCP_AGG_DIRECT_MIN + 7, NCP_AGG_DIRECT_MIN - under);
        add(&s, 2, (int64_t)5 << 20, (int64_t)3 << 20);
        expect(direct_sim(&s) != under, "direct threshold");
        run_case(&s, "direct-threshold", under);
        sim_free(&s);
    }
    /* one rank of small extents keeps every rank aggregated */
    sim_init(&s, 2);
    s.lim.naggr = 1;
    s.lim.round_cap = 1 << 20;
    add(&s, 0, 0, (int64_t)8 << 20);
    for (int64_t i = 0; i < 4; i++) add(&s, 1, (9 << 20) + i * 4096, 100);
    expect(!direct_sim(&s), "direct with a rank of small extents");
    run_case(&s, "direct-mixed", 0);
    sim_free(&s);
    /* one extent larger than a domain */
    sim_init(&s, 2);
    s.lim.naggr = 2;
    s.lim.round_cap = 1 << 20;
    add(&s, 0, 3, (int64_t)9 << 20);
    run_case(&s, "long-extent", 0);
    sim_free(&s);
}

int main(void)
{
    sim s;
    edge_cases();
    for (long i = 0; i < NCASES; i++) {
        random_case(&s);
        run_case(&s, "random", i);
        sim_free(&s);
    }
    printf("%ld passed, %ld failed\n", passed, failed);
    return failed == 0 ? 0 : 1;
}
