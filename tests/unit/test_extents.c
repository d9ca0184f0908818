/*
 * test_extents.c -- unit test of ncp_req_extents (src/access/request.c):
 * the file extents of a request, for random subarrays of fixed-size and
 * record variables, must equal the extents of the request taken one
 * element at a time (each element's offset from the format's rules, the
 * runs then joined).  ncp_req_extents folds whole inner dimensions into
 * one run per step; this pins down that the folding never changes what
 * is read or written.
 *
 * Prints "N passed, M failed"; exit status 0 only when M is 0.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <pnetcdf.h>

#include "access/ncp_access.h"
#include "format/ncp_xconv.h"

enum { MAXD = 4, NCASES = 4000 };

static long passed, failed;

/* A small deterministic generator, so a failure reproduces. */
static uint64_t rng_state = 0x9e3779b97f4a7c15u;
static int64_t rnd(int64_t n)
{
    rng_state = rng_state * 6364136223846793005u + 1442695040888963407u;
    return (int64_t)((rng_state >> 33) % (uint64_t)n);
}

/* The reference: every element's offset, in row-major request order. */
static int reference(const ncp_header *h, const ncp_var *v,
                     const ncp_req *r, ncp_extents *e)
{
    int64_t idx[MAXD] = {0}, xsz = ncp_xtype_size(v->xtype);
    int n = r->ndims, err = NC_NOERR;

    for (int64_t k = 0; k < r->nelems && err == NC_NOERR; k++) {
        int64_t off = v->begin, pitch = 1;

        for (int i = n - 1; i >= 0; i--) {
            int64_t c = r->start[i] + idx[i] * r->stride[i];

            if (i == 0 && v->is_record)
                off += c * h->recsize;
            else
                off += c * pitch * xsz;
            pitch *= v->shape[i];
        }
        err = ncp_extents_add(e, off, xsz);
        for (int i = n - 1; i >= 0; i--) {
            if (++idx[i] < r->count[i])
                break;
            idx[i] = 0;
        }
    }
    return err;
}

/* Random shape, subarray and stride; whole dimensions are made common so
 * the folding paths are taken often. */
static void random_case(ncp_header *h, ncp_var *v, ncp_req *r)
{
    static const int types[] = {NC_BYTE, NC_SHORT, NC_INT, NC_DOUBLE};

    v->ndims = r->ndims = 1 + (int)rnd(MAXD);
    v->is_record = rnd(2) == 0;
    v->xtype = types[rnd(4)];
    v->begin = 64 + 8 * rnd(16);
    r->var = v;
    r->nelems = 1;
    for (int i = 0; i < v->ndims; i++) {
        int64_t len = 1 + rnd(5);
        int whole = rnd(2) == 0;

        v->shape[i] = i == 0 && v->is_record ? 0 : len;
        r->stride[i] = whole || rnd(3) ? 1 : 1 + rnd(3);
        r->start[i] = whole ? 0 : rnd(len);
        r->count[i] = whole ? len : 1 + rnd(len - r->start[i]);
        if (r->stride[i] > 1)
            r->count[i] = 1 + (len - 1 - r->start[i]) / r->stride[i];
        r->nelems *= r->count[i];
    }
    v->nelems_per_rec = 1;
    for (int i = v->is_record ? 1 : 0; i < v->ndims; i++)
        v->nelems_per_rec *= v->shape[i];
    /* room for this variable and a neighbour's slab in every record */
    h->recsize = v->nelems_per_rec * ncp_xtype_size(v->xtype) + 8 * rnd(4);
}

static int same(const ncp_extents *a, const ncp_extents *b)
{
    if (a->n != b->n || a->nbytes != b->nbytes)
        return 0;
    for (int64_t i = 0; i < a->n; i++)
        if (a->off[i] != b->off[i] || a->len[i] != b->len[i])
            return 0;
    return 1;
}

static void run_case(int k)
{
    ncp_header h;
    ncp_var v;
    ncp_req r;
    int64_t shape[MAXD];
    MPI_Offset start[MAXD], count[MAXD], stride[MAXD];
    ncp_extents got, want;
    int e1, e2;

    memset(&h, 0, sizeof h);
    memset(&v, 0, sizeof v);
    memset(&r, 0, sizeof r);
    v.shape = shape;
    r.start = start, r.count = count, r.stride = stride;
    random_case(&h, &v, &r);
    ncp_extents_init(&got);
    ncp_extents_init(&want);
    e1 = ncp_req_extents(&h, &r, &got);
    e2 = reference(&h, &v, &r, &want);
    if (e1 == NC_NOERR && e2 == NC_NOERR && same(&got, &want) &&
        got.n <= ncp_req_nextents(&r) && ncp_req_nextents(&r) <= r.nelems &&
        got.nbytes % ncp_req_nextents(&r) == 0) {
        passed++;
    } else {
        failed++;
        printf("FAIL case %d: ndims %d record %d: %lld extents, want %lld "
               "(err %d/%d)\n", k, v.ndims, v.is_record, (long long)got.n,
               (long long)want.n, e1, e2);
    }
    ncp_extents_free(&got);
    ncp_extents_free(&want);
}

/* A whole fixed-size variable is one extent; whole records of a record
 * variable one per record (records are recsize apart). */
static void whole_cases(void)
{
    ncp_header h;
    ncp_var v;
    ncp_req r;
    int64_t shape[3] = {4, 6, 5};
    MPI_Offset start[3] = {0, 0, 0}, count[3] = {4, 6, 5},
               stride[3] = {1, 1, 1};
    ncp_extents e;

    memset(&h, 0, sizeof h);
    memset(&v, 0, sizeof v);
    v.ndims = 3, v.xtype = NC_INT, v.begin = 128, v.shape = shape;
    r.var = &v, r.ndims = 3, r.nelems = 120, r.imap = NULL;
    r.start = start, r.count = count, r.stride = stride;
    ncp_extents_init(&e);
    if (ncp_req_extents(&h, &r, &e) == NC_NOERR && e.n == 1 &&
        e.off[0] == 128 && e.len[0] == 480)
        passed++;
    else
        failed++, printf("FAIL whole fixed variable: %lld extents\n",
                         (long long)e.n);
    ncp_extents_free(&e);

    shape[0] = 0, v.is_record = 1, h.recsize = 480 + 8;
    ncp_extents_init(&e);
    if (ncp_req_extents(&h, &r, &e) == NC_NOERR && e.n == 4 &&
        e.len[0] == 120 && e.off[1] == 128 + 488)
        passed++;
    else
        failed++, printf("FAIL whole records: %lld extents\n",
                         (long long)e.n);
    ncp_extents_free(&e);
}

/* ncp_req_nextents counts the runs exactly where none touch. */
static void expect_runs(const char *what, ncp_req *r, int64_t want)
{
    if (ncp_req_nextents(r) == want)
        passed++;
    else
        failed++, printf("FAIL %s: %lld runs, want %lld\n", what,
                         (long long)ncp_req_nextents(r), (long long)want);
}

static void run_counts(void)
{
    ncp_var v;
    ncp_req r;
    int64_t shape[3] = {4, 6, 5};
    MPI_Offset start[3] = {0, 0, 0}, count[3] = {4, 6, 5},
               stride[3] = {1, 1, 1};

    memset(&v, 0, sizeof v);
    memset(&r, 0, sizeof r);
    v.ndims = 3, v.xtype = NC_INT, v.shape = shape;
    r.var = &v, r.ndims = 3, r.nelems = 120;
    r.start = start, r.count = count, r.stride = stride;
    expect_runs("whole fixed variable", &r, 1);
    shape[0] = 0, v.is_record = 1;
    expect_runs("whole records", &r, 4);
    start[1] = 1, count[1] = 3, r.nelems = 4 * 3 * 5;
    expect_runs("records' middle rows", &r, 4);
    start[2] = 1, count[2] = 2, r.nelems = 4 * 3 * 2;
    expect_runs("a subarray's rows", &r, 12);
    stride[2] = 2, r.nelems = 4 * 3 * 2;
    expect_runs("a strided last dimension", &r, 24);
    r.nelems = 0;
    expect_runs("an empty request", &r, 0);
}

int main(void)
{
    whole_cases();
    run_counts();
    for (int k = 0; k < NCASES; k++)
        run_case(k);
    printf("%ld passed, %ld failed\n", passed, failed);
    return failed == 0 ? 0 : 1;
}
