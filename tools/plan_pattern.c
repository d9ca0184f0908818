/*
 * plan_pattern.c -- which bytes each rank of `ncpario plan`'s write
 * holds (plan_pattern.h): a rank's pieces of every variable, sorted and
 * merged where adjacent, as the engine hands a flush's extents to the
 * driver.
 */
#include "plan_pattern.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <pnetcdf.h>

#include "ncpario_tool.h"

/* ------------------------------------------------------------ parsing */

static int parse_one(const char *w, int *how, int64_t *block)
{
    char *end;
    *block = 0;
    if (strcmp(w, "*") == 0) *how = PD_ALL;
    else if (strcmp(w, "block") == 0) *how = PD_BLOCK;
    else if (strcmp(w, "cyclic") == 0) *how = PD_CYCLIC;
    else if (strncmp(w, "bc", 2) == 0 && isdigit((unsigned char)w[2])) {
        *how = PD_BCYCLIC;
        *block = strtoll(w + 2, &end, 10);
        if (*end != '\0' || *block < 1) return -1;
    } else {
        return -1;
    }
    return 0;
}

int plan_pattern_parse(plan_pattern *pp, const char *spec, char *err,
                       size_t cap)
{
    char item[64];
    const char *s = spec;
    int d = 0, n = 0;
    if (strncmp(spec, "irregular:", 10) == 0) {
        char *end;
        pp->kind = PAT_IRREGULAR;
        pp->chunk = strtoll(spec + 10, &end, 10);
        if (*end == '\0' && pp->chunk >= 1) return 0;
        snprintf(err, cap, "bad chunk in '%s'", spec);
        return -1;
    }
    pp->kind = PAT_GRID;
    while (nt_next_item(&s, item, sizeof item)) {
        if (n >= NT_PLAN_MAXDIMS ||
            parse_one(item, &pp->how[n], &pp->block[n]) != 0) {
            snprintf(err, cap, "bad pattern '%s' (want *, block, cyclic, "
                     "bc<B> per dimension, or irregular:<C>)", item);
            return -1;
        }
        n++;
    }
    if (n == 1) /* one word for every dimension */
        for (d = 1; d < pp->ndims; d++) {
            pp->how[d] = pp->how[0];
            pp->block[d] = pp->block[0];
        }
    else if (n != pp->ndims) {
        snprintf(err, cap, "pattern '%s' has %d dimensions, the variables %d",
                 spec, n, pp->ndims);
        return -1;
    }
    return 0;
}

int plan_grid_parse(plan_pattern *pp, const char *spec, char *err,
                    size_t cap)
{
    int64_t prod = 1;
    int d, n = 0;
    for (d = 0; d < pp->ndims; d++) pp->grid[d] = 1;
    if (pp->kind != PAT_GRID) return 0;
    if (spec) {
        char buf[256];
        size_t i;
        snprintf(buf, sizeof buf, "%s", spec);
        for (i = 0; buf[i]; i++)
            if (buf[i] == 'x') buf[i] = ',';
        if (nt_parse_i64s(buf, pp->grid, NT_PLAN_MAXDIMS, &n) != 0 ||
            n != pp->ndims) {
            snprintf(err, cap, "grid '%s' is not %d numbers PxQx..", spec,
                     pp->ndims);
            return -1;
        }
    } else {
        for (d = 0; d < pp->ndims && pp->how[d] == PD_ALL; d++) continue;
        if (d < pp->ndims) pp->grid[d] = pp->nprocs;
    }
    for (d = 0; d < pp->ndims; d++) {
        if (pp->grid[d] < 1 || (pp->how[d] == PD_ALL && pp->grid[d] != 1)) {
            snprintf(err, cap, "grid dimension %d: %lld ranks over '*'", d,
                     (long long)pp->grid[d]);
            return -1;
        }
        prod *= pp->grid[d];
    }
    if (prod != pp->nprocs) {
        snprintf(err, cap, "the grid holds %lld ranks, not %lld",
                 (long long)prod, (long long)pp->nprocs);
        return -1;
    }
    return 0;
}

/* ------------------------------------------------------ decomposition */

typedef struct drange {
    int64_t rank, lo, hi;
} drange;

static int drange_order(const void *pa, const void *pb)
{
    const drange *a = pa, *b = pb;
    if (a->rank != b->rank) return a->rank < b->rank ? -1 : 1;
    return (a->lo > b->lo) - (a->lo < b->lo);
}

/* One "rank: lo[-hi] ..." line into *v; -1 when malformed. */
static int decomp_line(char *line, drange **v, int64_t *n, int64_t *cap,
                       int64_t nranks)
{
    char *p = line, *end;
    int64_t rank = strtoll(p, &end, 10);
    if (end == p || *end != ':' || rank < 0 || rank >= nranks) return -1;
    for (p = end + 1;;) {
        int64_t lo, hi;
        while (isspace((unsigned char)*p)) p++;
        if (*p == '\0') return 0;
        lo = strtoll(p, &end, 10);
        if (end == p || lo < 0) return -1;
        hi = lo;
        if (*end == '-') {
            p = end + 1;
            hi = strtoll(p, &end, 10);
            if (end == p || hi < lo) return -1;
        }
        if (*n == *cap) {
            drange *w = realloc(*v, (size_t)(*cap = *cap * 2 + 64) *
                                        sizeof(drange));
            if (!w) return -1;
            *v = w;
        }
        (*v)[*n].rank = rank, (*v)[*n].lo = lo, (*v)[(*n)++].hi = hi + 1;
        p = end;
    }
}

static int decomp_index(plan_decomp *d, drange *v, int64_t n)
{
    int64_t i;
    qsort(v, (size_t)n, sizeof(drange), drange_order);
    d->first = calloc((size_t)d->nranks + 1, sizeof(int64_t));
    d->lo = malloc((size_t)(n + 1) * sizeof(int64_t));
    d->hi = malloc((size_t)(n + 1) * sizeof(int64_t));
    if (!d->first || !d->lo || !d->hi) return -1;
    for (i = 0; i < n; i++) {
        d->first[v[i].rank + 1]++;
        d->lo[i] = v[i].lo;
        d->hi[i] = v[i].hi;
    }
    for (i = 0; i < d->nranks; i++) d->first[i + 1] += d->first[i];
    return 0;
}

int plan_decomp_read(plan_decomp *d, const char *path, char *err, size_t cap)
{
    FILE *f = fopen(path, "r");
    char line[1 << 16];
    drange *v = NULL;
    int64_t n = 0, vcap = 0, lineno = 0;
    int rc = 0;
    memset(d, 0, sizeof(*d));
    if (!f) {
        snprintf(err, cap, "%s: cannot open", path);
        return -1;
    }
    while (rc == 0 && fgets(line, sizeof line, f)) {
        char *p = line;
        lineno++;
        while (isspace((unsigned char)*p)) p++;
        if (*p == '#' || *p == '\0') continue;
        if (strncmp(p, "ranks", 5) == 0 && d->nranks == 0)
            rc = (d->nranks = strtoll(p + 5, NULL, 10)) > 0 ? 0 : -1;
        else
            rc = d->nranks > 0 ? decomp_line(p, &v, &n, &vcap, d->nranks)
                               : -1;
    }
    fclose(f);
    if (rc == 0 && d->nranks == 0) lineno = 0, rc = -1;
    if (rc == 0) rc = decomp_index(d, v, n);
    if (rc != 0)
        snprintf(err, cap, "%s:%lld: want 'ranks N' first, then "
                 "'rank: lo[-hi] ...' lines", path, (long long)lineno);
    free(v);
    return rc;
}

void plan_pattern_free(plan_pattern *pp)
{
    int k;
    for (k = 0; k < pp->ndecomp; k++) {
        free(pp->decomp[k].first);
        free(pp->decomp[k].lo);
        free(pp->decomp[k].hi);
    }
    free(pp->pieces);
    pp->pieces = NULL;
}

/* ----------------------------------------------------------- extents */

static int piece_add(plan_pattern *pp, MPI_Offset off, MPI_Offset len)
{
    if (pp->npieces == pp->cap) {
        int64_t c = pp->cap * 2 + 1024;
        MPI_Offset(*w)[2] = realloc(pp->pieces, (size_t)c * sizeof(*w));
        if (!w) return NC_ENOMEM;
        pp->pieces = w;
        pp->cap = c;
    }
    pp->pieces[pp->npieces][0] = off;
    pp->pieces[pp->npieces++][1] = len;
    return NC_NOERR;
}

/* Dimension d's intervals [lo, hi) for grid coordinate c, one at a time:
 * *k is the cursor (0 first); returns 0 when none is left. */
static int dim_next(const plan_pattern *pp, int d, int64_t len, int64_t c,
                    int64_t *k, int64_t *lo, int64_t *hi)
{
    int64_t g = pp->grid[d], b;
    switch (pp->how[d]) {
    case PD_ALL:
        *lo = 0, *hi = len;
        return (*k)++ == 0 && len > 0;
    case PD_BLOCK:
        b = (len + g - 1) / g;
        *lo = c * b, *hi = (c + 1) * b < len ? (c + 1) * b : len;
        return (*k)++ == 0 && *lo < len;
    case PD_CYCLIC:
        *lo = c + (*k)++ * g, *hi = *lo + 1;
        return *lo < len;
    default:
        b = pp->block[d];
        *lo = (c + (*k)++ * g) * b;
        *hi = *lo + b < len ? *lo + b : len;
        return *lo < len;
    }
}

/* Dimension length d of variable v, the record dimension's the records
 * written. */
static int64_t dim_len(const plan_pattern *pp, const ncp_var *v, int d)
{
    return d == 0 && v->is_record ? pp->records : v->shape[d];
}

/* The offset of element idx[] of v (idx of ndims entries). */
static MPI_Offset elem_off(const plan_pattern *pp, const ncp_var *v,
                           const int64_t *idx)
{
    int64_t lin = 0, xs = nt_xsize(v->xtype);
    int d;
    for (d = v->is_record ? 1 : 0; d < v->ndims; d++)
        lin = lin * v->shape[d] + idx[d];
    return v->begin + lin * xs + (v->is_record ? idx[0] * pp->h->recsize : 0);
}

/* The grid pattern's pieces of v for the rank at coordinates c[]: an
 * odometer over the outer dimensions' intervals and indices, a piece for
 * each interval of the innermost. */
static int grid_pieces(plan_pattern *pp, const ncp_var *v, const int64_t *c)
{
    int64_t k[NT_PLAN_MAXDIMS], lo[NT_PLAN_MAXDIMS], hi[NT_PLAN_MAXDIMS];
    int64_t idx[NT_PLAN_MAXDIMS], xs = nt_xsize(v->xtype);
    int nd = v->ndims, d, err = NC_NOERR;
    if (nd == 0) return c[0] == 0 && pp->nprocs > 0 ? piece_add(pp, v->begin, xs)
                                                    : NC_NOERR;
    for (d = 0; d < nd - 1; d++) {
        k[d] = 0;
        if (!dim_next(pp, d, dim_len(pp, v, d), c[d], &k[d], &lo[d], &hi[d]))
            return NC_NOERR;
        idx[d] = lo[d];
    }
    for (;;) {
        int64_t kk = 0, a, b;
        while (err == NC_NOERR &&
               dim_next(pp, nd - 1, dim_len(pp, v, nd - 1), c[nd - 1], &kk,
                        &a, &b)) {
            idx[nd - 1] = a;
            if (nd == 1 && v->is_record) { /* records lie recsize apart */
                for (; idx[0] < b && err == NC_NOERR; idx[0]++)
                    err = piece_add(pp, elem_off(pp, v, idx), xs);
            } else {
                err = piece_add(pp, elem_off(pp, v, idx), (b - a) * xs);
            }
        }
        for (d = nd - 2; d >= 0; d--) { /* the next outer index */
            if (++idx[d] < hi[d]) break;
            if (dim_next(pp, d, dim_len(pp, v, d), c[d], &k[d], &lo[d],
                         &hi[d])) {
                idx[d] = lo[d];
                break;
            }
            k[d] = 0;
            dim_next(pp, d, dim_len(pp, v, d), c[d], &k[d], &lo[d], &hi[d]);
            idx[d] = lo[d];
        }
        if (d < 0 || err != NC_NOERR) return err;
    }
}

/* Elements [lo, hi) of every record of v (one record: a fixed-size
 * variable). */
static int range_pieces(plan_pattern *pp, const ncp_var *v, int64_t lo,
                        int64_t hi)
{
    int64_t r, nrec = v->is_record ? pp->records : 1, xs = nt_xsize(v->xtype);
    int err = NC_NOERR;
    if (hi > v->nelems_per_rec) hi = v->nelems_per_rec;
    for (r = 0; r < nrec && lo < hi && err == NC_NOERR; r++)
        err = piece_add(pp, v->begin + r * pp->h->recsize + lo * xs,
                        (hi - lo) * xs);
    return err;
}

static uint64_t odd_inverse(uint64_t a)
{
    uint64_t x = a; /* Newton: each step doubles the correct low bits */
    int i;
    for (i = 0; i < 6; i++) x *= 2 - a * x;
    return x;
}

/* PAT_IRREGULAR: chunk y of the dealing order went to rank y % nprocs;
 * the chunk it is, through an affine bijection on a power of two walked
 * back into [0, nchunks). */
static int irregular_pieces(plan_pattern *pp, const ncp_var *v, int64_t rank)
{
    int64_t n = v->nelems_per_rec, nchunks = (n + pp->chunk - 1) / pp->chunk;
    uint64_t m = 1, a, ainv, b = 0x2545F4914F6CDD1DULL, y;
    int err = NC_NOERR;
    while (m < (uint64_t)nchunks) m <<= 1;
    a = 0x9E3779B97F4A7C15ULL & (m - 1);
    a |= 1;
    ainv = odd_inverse(a) & (m - 1);
    b &= m - 1;
    for (y = (uint64_t)rank; y < (uint64_t)nchunks && err == NC_NOERR;
         y += (uint64_t)pp->nprocs) {
        uint64_t k = y;
        do k = (ainv * (k - b)) & (m - 1);
        while (k >= (uint64_t)nchunks);
        err = range_pieces(pp, v, (int64_t)k * pp->chunk,
                           (int64_t)(k + 1) * pp->chunk);
    }
    return err;
}

/* Variable vi (of pp->vars) under its decomposition. */
static int decomp_pieces(plan_pattern *pp, int vi, int64_t rank)
{
    const plan_decomp *d = &pp->decomp[pp->var_decomp[vi]];
    const ncp_var *v = &pp->h->vars[pp->vars[vi]];
    int64_t i;
    int err = NC_NOERR;
    if (rank >= d->nranks) return NC_NOERR;
    for (i = d->first[rank]; i < d->first[rank + 1] && err == NC_NOERR; i++)
        err = range_pieces(pp, v, d->lo[i], d->hi[i]);
    return err;
}

static int piece_order(const void *pa, const void *pb)
{
    const MPI_Offset *a = pa, *b = pb;
    return (a[0] > b[0]) - (a[0] < b[0]);
}

int plan_rank_extents(void *arg, int64_t rank, ncp_extents *out)
{
    plan_pattern *pp = arg;
    int64_t c[NT_PLAN_MAXDIMS], r = rank, i;
    MPI_Offset end = 0;
    int d, err = NC_NOERR;
    for (d = pp->ndims - 1; pp->kind == PAT_GRID && d >= 0; d--) {
        /* row-major coordinates */
        c[d] = r % pp->grid[d];
        r /= pp->grid[d];
    }
    if (pp->ndims == 0) c[0] = rank;
    pp->npieces = 0;
    for (i = 0; i < pp->nvars && err == NC_NOERR; i++) {
        const ncp_var *v = &pp->h->vars[pp->vars[i]];
        err = pp->kind == PAT_GRID        ? grid_pieces(pp, v, c)
              : pp->kind == PAT_IRREGULAR ? irregular_pieces(pp, v, rank)
                                          : decomp_pieces(pp, (int)i, rank);
    }
    qsort(pp->pieces, (size_t)pp->npieces, sizeof(*pp->pieces), piece_order);
    for (i = 0; i < pp->npieces && err == NC_NOERR; i++) {
        MPI_Offset o = pp->pieces[i][0], e = o + pp->pieces[i][1];
        if (o < end) o = end; /* an overlap listed twice: once */
        if (e > o) err = ncp_extents_add(out, o, e - o);
        if (e > end) end = e;
    }
    return err;
}
