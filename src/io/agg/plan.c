/*
 * plan.c -- the plan of an aggregated write, pure arithmetic on
 * extents and on numbers the ranks reduced (ncp_agg_plan.h lists the
 * steps and what a plan promises).  No MPI call here, so the plan can be
 * checked alone against a brute-force reference
 * (tests/unit/test_plan.c).
 *
 * A domain's windows lie on a grid of window_size bytes from the domain's
 * start; busy bits cover granules of windows_per_granule windows, so a
 * round runs for every window of a busy granule (all of them when a
 * granule is one window, the usual case: only spans of more than
 * NCP_AGG_MAXBITS windows group them).
 */
#include "ncp_agg_plan.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pnetcdf.h"

#ifndef NDEBUG
/* A broken promise where assertions are on: say which, and stop. */
static void plan_check(const char *broken)
{
    if (broken) {
        fprintf(stderr, "ncpario: aggregation plan broken: %s\n", broken);
        abort();
    }
}
#endif

static int bit_at(const uint64_t *bits, int64_t bit)
{
    return (int)(bits[bit / 64] >> (bit % 64) & 1);
}

static void bit_set(uint64_t *bits, int64_t bit)
{
    bits[bit / 64] |= (uint64_t)1 << (bit % 64);
}

/* The granule's bit of window w of domain a. */
static int64_t granule_bit(const ncp_agg_plan *p, int64_t a, int64_t w)
{
    return a * p->granules_per_domain + w / p->windows_per_granule;
}

/* Does window w of domain a run in parts? */
static int dense_at(const ncp_agg_plan *p, int a, int64_t w)
{
    return p->part_size < p->window_size &&
           bit_at(p->dense_bits, granule_bit(p, a, w));
}

/* The busy bits' words, and room for as many dense ones after them. */
static size_t bitmap_words(int naggr)
{
    int64_t bits = naggr > NCP_AGG_MAXBITS ? naggr : NCP_AGG_MAXBITS;
    return 2 * (size_t)(bits + 63) / 64;
}

int64_t ncp_plan_storage(int naggr)
{
    return (int64_t)(bitmap_words(naggr) * sizeof(uint64_t)) +
           (int64_t)naggr * (2 * (int64_t)sizeof(int64_t) +
                             (int64_t)sizeof(MPI_Offset));
}

int ncp_plan_alloc(ncp_agg_plan *p, int naggr)
{
    memset(p, 0, sizeof(*p));
    p->naggr = naggr;
    p->busy_bits = malloc(bitmap_words(naggr) * sizeof(uint64_t));
    p->cur_window = malloc((size_t)naggr * sizeof(int64_t));
    p->cur_part = calloc((size_t)naggr, sizeof(int64_t));
    p->seen_hi = calloc((size_t)naggr, sizeof(MPI_Offset));
    return p->busy_bits && p->cur_window && p->cur_part && p->seen_hi
               ? NC_NOERR
               : NC_ENOMEM;
}

void ncp_plan_free(ncp_agg_plan *p)
{
    free(p->busy_bits);
    free(p->cur_window);
    free(p->cur_part);
    free(p->seen_hi);
}

void ncp_plan_local(const ncp_extents *ext, MPI_Offset mine[NCP_PLAN_NLOCAL])
{
    mine[0] = ext->n ? -ext->off[0] : -INT64_MAX;
    mine[1] = ext->n ? ext->off[ext->n - 1] + ext->len[ext->n - 1] : 0;
    mine[2] = ext->nbytes;
    mine[3] = ext->nbytes > 0 ? -(ext->nbytes / ext->n) : -INT64_MAX;
}

int ncp_plan_direct(const MPI_Offset all[NCP_PLAN_NLOCAL])
{
    return all[2] > 0 && -all[3] >= NCP_AGG_DIRECT_MIN;
}

/*
 * A call's window, when nbuf windows of it are staged at once: all of
 * them together at most 7.5% of the bytes of the rank that writes most
 * (room under 10% of a rank's bytes for the extent lists and the call's
 * own arrays), in whole steps, at least NCP_AGG_MIN_WINDOW, within
 * round_cap (all of it under nc_posix_window=full).
 */
static MPI_Offset sized_window(const ncp_plan_limits *lim, MPI_Offset most)
{
    MPI_Offset c;
    if (lim->full_windows) return lim->round_cap;
    c = most * 3 / (40 * lim->nbuf);
    c -= c % NCP_AGG_WINDOW_STEP;
    if (c < NCP_AGG_MIN_WINDOW) c = NCP_AGG_MIN_WINDOW;
    return c < lim->round_cap ? c : lim->round_cap;
}

/* The domain size for an even share of `share` bytes (NCP_AGG_ALIGN's
 * comment says why it may align to less). */
static MPI_Offset aligned_domain(MPI_Offset share)
{
    MPI_Offset a = NCP_AGG_ALIGN;
    while (a > NCP_AGG_MIN_ALIGN && (share + a - 1) / a * a - share > share / 8)
        a /= 2;
    return (share + a - 1) / a * a;
}

int ncp_plan_shape(ncp_agg_plan *p, const ncp_plan_limits *lim,
                   const MPI_Offset all[NCP_PLAN_NLOCAL])
{
    int64_t span, naggr = p->naggr;
    p->domains_start = -all[0];
    p->data_end = all[1];
    p->most_bytes = all[2];
    p->nrounds = p->busy_windows = 0;
    if (p->data_end <= p->domains_start) return 0;
    p->domains_start -= p->domains_start % NCP_AGG_ALIGN;
    span = p->data_end - p->domains_start;
    p->domain_size = aligned_domain((span + naggr - 1) / naggr);
    if (p->domain_size > span) p->domain_size = span;
    p->window_size = sized_window(lim, p->most_bytes);
    p->part_size = p->window_size;
    p->parts_per_window = 1;
    p->windows_per_domain =
        (p->domain_size + p->window_size - 1) / p->window_size;
    /* as many granules as the bitmap allows, then as few windows per
     * granule as cover the domain, then no more granules than needed */
    p->granules_per_domain = NCP_AGG_MAXBITS / naggr;
    if (p->granules_per_domain < 1) p->granules_per_domain = 1;
    if (p->granules_per_domain > p->windows_per_domain)
        p->granules_per_domain = p->windows_per_domain;
    p->windows_per_granule =
        (p->windows_per_domain + p->granules_per_domain - 1) /
        p->granules_per_domain;
    p->granules_per_domain =
        (p->windows_per_domain + p->windows_per_granule - 1) /
        p->windows_per_granule;
    p->nwords = (naggr * p->granules_per_domain + 63) / 64;
    p->dense_bits = p->busy_bits + p->nwords;
    return 1;
}

/* The cell of size c holding file offset off, numbered across the
 * domains, and in *end one past its last byte.  Cells lie on the grid of
 * c from each window's start, as a dense window's parts do
 * (ncp_plan_window), so a count per cell is a count per part even where c
 * does not divide window_size; with c = window_size the cells are the
 * windows.  [*start, *end) is the cell's file range. */
static int64_t cell_at(const ncp_agg_plan *p, MPI_Offset c,
                       int64_t per_window, MPI_Offset off, MPI_Offset *start,
                       MPI_Offset *end)
{
    int64_t a = (off - p->domains_start) / p->domain_size;
    MPI_Offset dlo = p->domains_start + a * p->domain_size;
    int64_t w = (off - dlo) / p->window_size;
    MPI_Offset wlo = dlo + w * p->window_size;
    int64_t q = (off - wlo) / c;
    MPI_Offset e = wlo + (q + 1) * c;
    *start = wlo + q * c;
    if (e > wlo + p->window_size) e = wlo + p->window_size;
    if (e > dlo + p->domain_size) e = dlo + p->domain_size;
    *end = e;
    return (a * p->windows_per_domain + w) * per_window + q;
}

/* The most pairs my extents put in one cell of size c: one per extent
 * touching it (ext ascends).  With dense, windows (c = window_size) in
 * which that exceeds slot get their dense bit.  A cell is looked up only
 * where an extent leaves the current one, so dense extents cost two
 * comparisons each. */
static int64_t count_pairs(const ncp_agg_plan *p, const ncp_extents *ext,
                           MPI_Offset c, int64_t slot, uint64_t *dense)
{
    int64_t i, n = 0, most = 0, cur = -1;
    int64_t per_window = (p->window_size + c - 1) / c;
    int64_t wpd = p->windows_per_domain;
    MPI_Offset lo = 0, hi = 0; /* the current cell's file range */
    for (i = 0; i < ext->n; i++) {
        MPI_Offset off = ext->off[i], last = off + ext->len[i] - 1;
        int64_t k0 = cur;
        if (ext->len[i] == 0) continue;
        if (cur < 0 || off < lo || off >= hi)
            k0 = cell_at(p, c, per_window, off, &lo, &hi);
        n = k0 == cur ? n + 1 : 1;
        if (n > most) most = n;
        if (dense && n == slot + 1) /* once a cell: the lookup divides */
            bit_set(dense, granule_bit(p, k0 / wpd, k0 % wpd));
        cur = k0;
        if (last >= hi) { /* it ends in a later cell */
            cur = cell_at(p, c, per_window, last, &lo, &hi);
            n = 1;
        }
    }
    return most;
}

/* The next smaller part size: part edges stay on page boundaries while
 * parts are a page or more. */
static MPI_Offset part_below(MPI_Offset c)
{
    return c / 2 >= 4096 ? c / 2 / 4096 * 4096 : c / 2;
}

/* The first part size from window_size down (part_below) in whose cells
 * my extents make at most slot pairs.  The cells of c cut every window
 * into per_window pieces, so a window with most pairs has a cell with at
 * least most / per_window of them: sizes where that alone exceeds slot
 * fail without a pass over the extents. */
MPI_Offset ncp_plan_part_fit(const ncp_agg_plan *p, const ncp_extents *ext,
                             int64_t slot)
{
    MPI_Offset c = p->window_size;
    int64_t most0 = count_pairs(p, ext, c, slot, NULL), most = most0;
    while (c > 1 && most > slot) {
        int64_t per_window;
        c = part_below(c);
        if (c == 1) break;
        per_window = (p->window_size + c - 1) / c;
        if ((most0 + per_window - 1) / per_window > slot) continue;
        most = count_pairs(p, ext, c, slot, NULL);
    }
    return c;
}

void ncp_plan_set_part(ncp_agg_plan *p, MPI_Offset part_size)
{
    p->part_size = part_size;
    p->parts_per_window = (p->window_size + part_size - 1) / part_size;
}

/* Mark the granules my extents touch, domain by domain (ext ascends, so
 * an extent that ends in the granule last marked is skipped). */
static void mark_busy(ncp_agg_plan *p, const ncp_extents *ext)
{
    int64_t i, g, g1, granule = p->window_size * p->windows_per_granule;
    MPI_Offset marked_end = p->domains_start; /* one past the last marked */
    for (i = 0; i < ext->n; i++) {
        MPI_Offset o = ext->off[i], end = o + ext->len[i];
        if (end <= marked_end) continue;
        while (o < end) {
            int64_t a = (o - p->domains_start) / p->domain_size;
            MPI_Offset dlo = p->domains_start + a * p->domain_size;
            MPI_Offset stop =
                end < dlo + p->domain_size ? end : dlo + p->domain_size;
            g1 = (stop - 1 - dlo) / granule;
            for (g = (o - dlo) / granule; g <= g1; g++)
                bit_set(p->busy_bits, a * p->granules_per_domain + g);
            marked_end = dlo + (g1 + 1) * granule;
            if (marked_end > dlo + p->domain_size)
                marked_end = dlo + p->domain_size;
            o = stop;
        }
    }
}

int64_t ncp_plan_mark(ncp_agg_plan *p, const ncp_extents *ext, int64_t slot)
{
    p->seen_ext = ext;
    /* the dense bits follow the busy ones, so one reduction takes both */
    int64_t nwords = p->part_size < p->window_size ? 2 * p->nwords
                                                   : p->nwords;
    memset(p->busy_bits, 0, (size_t)nwords * sizeof(uint64_t));
    mark_busy(p, ext);
    if (p->part_size < p->window_size)
        count_pairs(p, ext, p->window_size, slot, p->dense_bits);
    return nwords;
}

/* Domain a's first busy window at or after w; windows_per_domain when
 * there is none. */
static int64_t next_busy(const ncp_agg_plan *p, int a, int64_t w)
{
    int64_t wpd = p->windows_per_domain, m = p->windows_per_granule;
    while (w < wpd && !bit_at(p->busy_bits, granule_bit(p, a, w)))
        w = (w / m + 1) * m;
    return w < wpd ? w : wpd;
}

void ncp_plan_start(ncp_agg_plan *p)
{
    int64_t w;
    int a;
    p->seen_bytes = p->seen_rounds = 0;
    for (a = 0; a < p->naggr; a++) {
        p->seen_hi[a] = 0;
        int64_t n = 0;
        for (w = next_busy(p, a, 0); w < p->windows_per_domain;
             w = next_busy(p, a, w + 1)) {
            n += dense_at(p, a, w) ? p->parts_per_window : 1;
            p->busy_windows++;
        }
        p->cur_window[a] = next_busy(p, a, 0);
        p->cur_part[a] = 0;
        if (n > p->nrounds) p->nrounds = n;
    }
#ifndef NDEBUG
    plan_check(ncp_plan_broken(p));
#endif
}

void ncp_plan_advance(ncp_agg_plan *p)
{
    int a;
#ifndef NDEBUG
    plan_check(ncp_plan_round_broken(p));
#endif
    for (a = 0; a < p->naggr; a++) {
        if (p->cur_window[a] >= p->windows_per_domain) continue;
        if (dense_at(p, a, p->cur_window[a]) &&
            p->cur_part[a] + 1 < p->parts_per_window) {
            p->cur_part[a]++;
        } else {
            p->cur_part[a] = 0;
            p->cur_window[a] = next_busy(p, a, p->cur_window[a] + 1);
        }
    }
#ifndef NDEBUG
    if (p->seen_rounds == p->nrounds) plan_check(ncp_plan_done_broken(p));
#endif
}

void ncp_plan_window(const ncp_agg_plan *p, int a, MPI_Offset *lo,
                     MPI_Offset *hi)
{
    MPI_Offset dlo = p->domains_start + (MPI_Offset)a * p->domain_size;
    MPI_Offset dhi = dlo + p->domain_size;
    *lo = *hi = dlo;
    if (p->cur_window[a] >= p->windows_per_domain) return;
    *lo = dlo + p->cur_window[a] * p->window_size;
    *hi = *lo + p->window_size;
    if (dense_at(p, a, p->cur_window[a])) {
        *lo += p->cur_part[a] * p->part_size;
        if (*hi > *lo + p->part_size) *hi = *lo + p->part_size;
    }
    if (*hi > dhi) *hi = dhi;
    if (*hi > p->data_end) *hi = p->data_end;
    if (*lo > *hi) *lo = *hi;
}

/* ------------------------------------------------------------- checks */

const char *ncp_plan_broken(const ncp_agg_plan *p)
{
    int a;
    if (p->naggr < 1 || p->domain_size <= 0 || p->window_size <= 0)
        return "no domain or window";
    if (p->domains_start % NCP_AGG_ALIGN != 0)
        return "domains start off the alignment";
    if (p->domains_start + p->naggr * p->domain_size < p->data_end)
        return "the domains end before the data";
    if (p->windows_per_domain * p->window_size < p->domain_size)
        return "a domain's windows do not cover it";
    if (p->part_size <= 0 || p->part_size > p->window_size ||
        p->parts_per_window * p->part_size < p->window_size)
        return "parts do not fit their windows";
    if (p->nrounds < 0 || p->nrounds > p->busy_windows * p->parts_per_window)
        return "more rounds than busy windows and parts";
    for (a = 0; a < p->naggr; a++)
        if (p->cur_window[a] < 0 || p->cur_window[a] > p->windows_per_domain ||
            p->cur_part[a] != 0)
            return "a domain does not start on a window";
    return NULL;
}

/* This rank's bytes in [lo, hi): its extents are ascending and disjoint. */
static MPI_Offset bytes_within(const ncp_extents *e, MPI_Offset lo,
                               MPI_Offset hi)
{
    int64_t first = 0, last = e->n, i;
    MPI_Offset n = 0;
    while (first < last) { /* the first extent ending past lo */
        int64_t mid = first + (last - first) / 2;
        if (e->off[mid] + e->len[mid] <= lo) first = mid + 1;
        else last = mid;
    }
    for (i = first; i < e->n && e->off[i] < hi; i++) {
        MPI_Offset s = e->off[i] > lo ? e->off[i] : lo;
        MPI_Offset t = e->off[i] + e->len[i] < hi ? e->off[i] + e->len[i] : hi;
        n += t - s;
    }
    return n;
}

const char *ncp_plan_round_broken(ncp_agg_plan *p)
{
    int a;
    for (a = 0; a < p->naggr; a++) {
        MPI_Offset lo, hi, dlo = p->domains_start + a * p->domain_size;
        MPI_Offset wlo = dlo + p->cur_window[a] * p->window_size;
        int dense = dense_at(p, a, p->cur_window[a]);
        ncp_plan_window(p, a, &lo, &hi);
        if (lo == hi) continue;
        if (lo < dlo || hi > dlo + p->domain_size || hi > p->data_end)
            return "a window outside its domain";
        if ((lo - wlo) % p->part_size != 0 || (!dense && lo != wlo))
            return "a window off the grid";
        if (hi - lo > (dense ? p->part_size : p->window_size))
            return "a window larger than its size";
        if (lo < p->seen_hi[a])
            return "a window not past the domain's last one";
        p->seen_hi[a] = hi;
        if (p->seen_ext) p->seen_bytes += bytes_within(p->seen_ext, lo, hi);
    }
    p->seen_rounds++;
    return NULL;
}

const char *ncp_plan_done_broken(const ncp_agg_plan *p)
{
    int a;
    for (a = 0; a < p->naggr; a++)
        if (p->cur_window[a] < p->windows_per_domain)
            return "a domain has windows left after the last round";
    if (p->seen_ext && p->seen_bytes != p->seen_ext->nbytes)
        return "this rank's bytes were not in the windows exactly once";
    return NULL;
}
