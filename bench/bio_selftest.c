/*
 * bio_selftest.c -- a correctness test of one bio.h backend. It uses only
 * bio.h, so the same source is linked with every backend.
 *
 * The schema has five variables, two fixed-size and three record ones:
 *
 *   fix2i(y6, x10)         int     cut along x over the ranks
 *   fix3f(z3, y4, x5)      float   cut along z; the memory side is one
 *                                  component of an array of doubles of
 *                                  shape (z+2, y+2, x+2, 3) with a guard
 *                                  cell on every side, as a cell-centred
 *                                  code keeps its unknowns (mndims =
 *                                  ndims + 1), converted to float
 *   rec3d(time, y4, x5)    double  x dealt out cyclically: rank r owns
 *                                  x = r, r+P, ..., a file-side stride
 *   rec2i(time, z3)        int     cut along z3
 *   rec1d(time)            double  one value per record, written by rank
 *                                  record % P (the others pass empty
 *                                  requests)
 *
 * With 4 ranks, fix3f and rec2i have 3 rows for 4 ranks, so the last rank
 * passes empty requests (rec2i's with a NULL buffer). Three records are
 * written one per step; the first step also writes the fixed variables,
 * its requests deliberately not in file order.
 *
 * What it promises: for every method the backend supports it writes a
 * fresh file, reads it back with the same decomposition into zeroed
 * buffers and checks every element of every buffer: inside the request the
 * value (a pure function of variable, record and global index), outside it
 * (guard cells, other components) still zero. Where all ranks share one
 * file it reads it again with rank r reading the part rank (r+1) % P
 * wrote, which proves that where a value lands depends only on its global
 * index, not on who wrote it (that it is the netCDF place this program
 * cannot tell by itself: check the files with -k, ncvalidator and
 * ncmpidump), and once more with each record variable's part of all
 * records in one request (count[0] = 3) instead of one per step. It then
 * checks that a request outside a fixed shape is refused with BIO_EINVAL
 * without a hang (independently on one rank, collectively on all), and
 * that a method the backend lacks (at least the out-of-range value
 * BIO_NMETHODS) is answered BIO_ENOTSUP. One line per check on rank 0;
 * exit status 0 only when every check holds, 1 otherwise, 2 on a usage
 * error.
 */
#define _POSIX_C_SOURCE 200809L

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_common.h"
#include "bio.h"

enum {
    EXIT_USAGE = 2,
    NVARS = 5,
    NRECS = 3,
    GUARD = 1,          /* guard cells on each side of the strided array */
    NCOMP = 3,          /* components of its trailing dimension */
    COMP = 1,           /* the component that holds the variable */
    STRIDED_VAR = 1,    /* strided memory side, memory type double */
    CYCLIC_VAR = 2,     /* file-side stride: split_dim dealt out cyclically */
    MAX_REPORTS = 5,    /* wrong values reported per rank and check */
    SENTINEL = -7,      /* what a write buffer holds outside the request */
    ALL_RECS = -1       /* a record variable's request over every record */
};

static const struct bio_var vars[NVARS] = {
    {"fix2i", BIO_INT, 2, {6, 10}, {"y6", "x10"}},
    {"fix3f", BIO_FLOAT, 3, {3, 4, 5}, {"z3", "y4", "x5"}},
    {"rec3d", BIO_DOUBLE, 3, {0, 4, 5}, {"time", "y4", "x5"}},
    {"rec2i", BIO_INT, 2, {0, 3}, {"time", "z3"}},
    {"rec1d", BIO_DOUBLE, 1, {0}, {"time"}},
};

/* The dimension of each variable that is cut over the ranks; -1: the
 * records are dealt out to the ranks in turn. */
static const int split_dim[NVARS] = {1, 0, 2, 1, -1};

/* The order of the requests of the first step: not the file order, so a
 * backend that needs file order has to sort. Later steps skip the fixed
 * variables. */
static const int step_order[NVARS] = {0, 1, 3, 4, 2};

static const struct bio_schema schema = {NVARS, vars, NRECS};

struct ctx {
    MPI_Comm comm;
    int rank, nprocs;
    int shared_file;    /* all ranks use one file (not file per process) */
    struct bench_opts o;
    int failures;       /* checks failed so far (same on every rank) */
};

/* One rank's requests of every step (their buffers in req[][].buf). */
struct plan {
    int nsteps;
    struct bio_req req[NRECS][NVARS];
    int nreq[NRECS];
};

static void usage(FILE *to)
{
    fprintf(to,
        "usage: bio_selftest [-d dir] [-f 1|2|5] [-k] [-h]\n"
        "  -d dir    directory of the test files (default /tmp)\n"
        "  -f 1|2|5  netCDF format for the netCDF backends (default 2)\n"
        "  -k        keep the files (bio_selftest.<backend>.<method>.*)\n"
        "  -h        this help\n"
        "  (-r, -w, -q, -c are accepted like in every benchmark and "
        "ignored)\n");
}

static int no_own_option(int c, const char *arg, void *own)
{
    (void)c;
    (void)arg;
    (void)own;
    return 0;
}

/* ------------------------------------------------------------ values */

static double value_of(int var, int64_t rec, int64_t gidx)
{
    return (double)((var + 1) * 1000 + rec * 100 + gidx + 1);
}

static double load(enum bio_type t, const void *buf, int64_t i)
{
    switch (t) {
    case BIO_INT:
        return ((const int *)buf)[i];
    case BIO_FLOAT:
        return ((const float *)buf)[i];
    default:
        return ((const double *)buf)[i];
    }
}

static void store(enum bio_type t, void *buf, int64_t i, double x)
{
    switch (t) {
    case BIO_INT:
        ((int *)buf)[i] = (int)x;
        break;
    case BIO_FLOAT:
        ((float *)buf)[i] = (float)x;
        break;
    default:
        ((double *)buf)[i] = x;
    }
}

static int64_t mem_elems(const struct bio_req *r)
{
    int64_t n = 1;

    for (int d = 0; d < r->mndims; d++)
        n *= r->mshape[d];
    return n;
}

/* Whether memory element mi of r lies inside the request's memory box,
 * and if so the value the file holds for it. */
static int expected_at(const struct bio_req *r, int64_t mi, double *val)
{
    const struct bio_var *v = &vars[r->var];
    int64_t idx[BIO_MAX_DIMS + 1], coord[BIO_MAX_DIMS] = {0};
    int64_t e = 0, rec = 0, g = 0;
    int first = 0;

    for (int d = r->mndims - 1; d >= 0; d--) {
        idx[d] = mi % r->mshape[d];
        mi /= r->mshape[d];
    }
    for (int d = 0; d < r->mndims; d++) {
        int64_t rel = idx[d] - r->mstart[d];

        if (rel < 0 || rel >= r->mcount[d])
            return 0;
        e = e * r->mcount[d] + rel;
    }
    /* e is the element's ordinal in the box; the file side pairs it with
     * the same ordinal of the file subarray. */
    for (int d = v->ndims - 1; d >= 0; d--) {
        coord[d] = r->start[d] + (e % r->count[d]) * bio_req_stride(r, d);
        e /= r->count[d];
    }
    if (v->shape[0] == 0) {
        rec = coord[0];
        first = 1;
    }
    for (int d = first; d < v->ndims; d++)
        g = g * v->shape[d] + coord[d];
    *val = value_of(r->var, rec, g);
    return 1;
}

/* ------------------------------------------------------------ plans */

static void file_box(int var, int rec, int owner, int nprocs,
                     int64_t *start, int64_t *count)
{
    const struct bio_var *v = &vars[var];
    int sd = split_dim[var];
    MPI_Offset s = 0, c = 0;

    for (int d = 0; d < v->ndims; d++) {
        start[d] = 0;
        count[d] = v->shape[d];
    }
    if (v->shape[0] == 0) {
        start[0] = rec == ALL_RECS ? 0 : rec;
        count[0] = rec == ALL_RECS ? NRECS : 1;
    }
    if (sd < 0 && rec != ALL_RECS) {
        count[0] = rec % nprocs == owner ? 1 : 0;
        return;
    }
    if (sd < 0)
        sd = 0; /* all records, cut over the ranks */
    if (var == CYCLIC_VAR) { /* owner, owner + nprocs, ...: see make_req */
        start[sd] = owner;
        count[sd] = owner < v->shape[sd]
                        ? (v->shape[sd] - 1 - owner) / nprocs + 1 : 0;
        return;
    }
    bench_split_axis(sd == 0 && v->shape[0] == 0 ? NRECS : v->shape[sd],
                     nprocs, owner, &s, &c);
    start[sd] = (int64_t)s;
    count[sd] = (int64_t)c;
}

/* The request of `owner`'s part of var at record rec; buf is allocated
 * (NULL for an empty contiguous request) and zeroed. 0 when out of
 * memory. */
static int make_req(int var, int rec, int owner, int nprocs,
                    struct bio_req *r)
{
    const struct bio_var *v = &vars[var];
    int64_t start[BIO_MAX_DIMS], count[BIO_MAX_DIMS], n;

    file_box(var, rec, owner, nprocs, start, count);
    bio_req_contig(r, var, v->ndims, start, count, NULL);
    if (var == CYCLIC_VAR)
        r->stride[split_dim[var]] = nprocs;
    if (var == STRIDED_VAR) {
        r->mtype = BIO_DOUBLE;
        r->mndims = v->ndims + 1;
        for (int d = 0; d < v->ndims; d++) {
            r->mshape[d] = count[d] + 2 * GUARD;
            r->mstart[d] = GUARD;
            r->mcount[d] = count[d];
        }
        r->mshape[v->ndims] = NCOMP;
        r->mstart[v->ndims] = COMP;
        r->mcount[v->ndims] = 1;
    }
    n = mem_elems(r);
    if (n == 0)
        return 1;
    r->buf = calloc((size_t)n, bio_type_size(bio_req_mtype(&schema, r)));
    return r->buf != NULL;
}

static void free_plan(struct plan *p)
{
    for (int k = 0; k < p->nsteps; k++)
        for (int i = 0; i < p->nreq[k]; i++)
            free(p->req[k][i].buf);
    memset(p, 0, sizeof *p);
}

/* Requests of every step for `owner`'s parts: one step per record, or
 * (whole) one step whose record variables' requests span every record.
 * With BIO_INDEP, empty requests are left out, so ranks pass different
 * numbers of requests. */
static int build_plan(struct plan *p, int owner, int nprocs,
                      enum bio_method m, int whole)
{
    memset(p, 0, sizeof *p);
    p->nsteps = whole ? 1 : NRECS;
    for (int k = 0; k < p->nsteps; k++)
        for (int i = 0; i < NVARS; i++) {
            int var = step_order[i];
            struct bio_req *r = &p->req[k][p->nreq[k]];

            if (k > 0 && vars[var].shape[0] != 0)
                continue;
            if (!make_req(var, whole ? ALL_RECS : k, owner, nprocs, r)) {
                free_plan(p);
                return 0;
            }
            p->nreq[k]++;
            if (m == BIO_INDEP && bio_req_elems(&vars[var], r) == 0) {
                free(r->buf);
                p->nreq[k]--;
            }
        }
    return 1;
}

static void fill_plan(struct plan *p)
{
    for (int k = 0; k < p->nsteps; k++)
        for (int i = 0; i < p->nreq[k]; i++) {
            const struct bio_req *r = &p->req[k][i];
            enum bio_type t = bio_req_mtype(&schema, r);
            int64_t n = mem_elems(r);

            for (int64_t e = 0; e < n && r->buf != NULL; e++) {
                double x = SENTINEL;

                expected_at(r, e, &x);
                store(t, r->buf, e, x);
            }
        }
}

/* Wrong elements of the plan's buffers after a read; the first few are
 * reported on stderr. */
static int64_t verify_plan(const struct plan *p, int rank, const char *what)
{
    int64_t bad = 0;

    for (int k = 0; k < p->nsteps; k++)
        for (int i = 0; i < p->nreq[k]; i++) {
            const struct bio_req *r = &p->req[k][i];
            enum bio_type t = bio_req_mtype(&schema, r);
            int64_t n = mem_elems(r);

            for (int64_t e = 0; e < n && r->buf != NULL; e++) {
                double want = 0.0, got = load(t, r->buf, e);

                expected_at(r, e, &want);
                if (got == want)
                    continue;
                if (bad++ < MAX_REPORTS)
                    fprintf(stderr,
                            "bio_selftest: rank %d: %s: %s step %d memory "
                            "element %lld: got %g, want %g\n",
                            rank, what, vars[r->var].name, k, (long long)e,
                            got, want);
            }
        }
    return bad;
}

/* ------------------------------------------------------------ checks */

/* Records one check: it holds when ok holds on every rank. */
static int check(struct ctx *c, int ok, const char *fmt, ...)
{
    int all = 0;
    char text[256];
    va_list ap;

    MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, c->comm);
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    if (c->rank == 0)
        printf("%s  %s: %s\n", all ? "PASS" : "FAIL", bio_backend_name(),
               text);
    if (!all)
        c->failures++;
    return all;
}

static void report_code(const struct ctx *c, const char *what, int err)
{
    if (err != BIO_OK)
        fprintf(stderr, "bio_selftest: rank %d: %s: %s\n", c->rank, what,
                bio_strerror(err));
}

static void make_stem(const struct ctx *c, const char *tag, char *stem,
                      size_t size)
{
    snprintf(stem, size, "%s/bio_selftest.%s.%s", c->o.dir,
             bio_backend_name(), tag);
}

static void remove_files(const struct ctx *c, const char *stem)
{
    if (c->o.keep)
        return;
    MPI_Barrier(c->comm);
    bio_remove(stem, c->rank);
}

/* Runs every step of plan p on f, stopping at the first failure on any
 * rank; the agreed code. */
static int run_steps(const struct ctx *c, struct bio_file *f,
                     const struct plan *p, enum bio_method m, int reading)
{
    int err = BIO_OK;

    for (int k = 0; k < p->nsteps && err == BIO_OK; k++) {
        err = reading ? bio_read(f, p->req[k], p->nreq[k], m)
                      : bio_write(f, p->req[k], p->nreq[k], m);
        report_code(c, reading ? "bio_read" : "bio_write", err);
        err = bio_agree(c->comm, err);
    }
    return err;
}

/* Creates (writing) or opens (reading) stem, runs the plan, closes. */
static int run_file(const struct ctx *c, const char *stem,
                    const struct plan *p, enum bio_method m, int reading)
{
    struct bio_file *f = NULL;
    int err, cerr;

    err = reading ? bio_open(c->comm, stem, &schema, MPI_INFO_NULL, &f)
                  : bio_create(c->comm, stem, &schema, c->o.format,
                               MPI_INFO_NULL, &f);
    report_code(c, reading ? "bio_open" : "bio_create", err);
    err = bio_agree(c->comm, err);
    if (err != BIO_OK) {
        if (f != NULL)
            bio_close(f);
        return err;
    }
    err = run_steps(c, f, p, m, reading);
    cerr = bio_close(f);
    report_code(c, "bio_close", cerr);
    cerr = bio_agree(c->comm, cerr);
    return err != BIO_OK ? err : cerr;
}

/* Reads stem back as `owner`'s parts (per record, or whole: every record
 * in one request) into zeroed buffers and checks them; 1 when the read
 * succeeded and every value is right here. */
static int read_and_verify(const struct ctx *c, const char *stem,
                           enum bio_method m, int owner, int whole,
                           const char *what)
{
    struct plan p;
    int ok, err, built = build_plan(&p, owner, c->nprocs, m, whole);

    if (!built)
        fprintf(stderr, "bio_selftest: rank %d: out of memory\n", c->rank);
    if (bio_agree(c->comm, built ? BIO_OK : BIO_ENOMEM) != BIO_OK) {
        if (built)
            free_plan(&p);
        return 0;
    }
    err = run_file(c, stem, &p, m, 1);
    ok = err == BIO_OK && verify_plan(&p, c->rank, what) == 0;
    free_plan(&p);
    return ok;
}

static void test_method(struct ctx *c, enum bio_method m)
{
    const char *name = bio_method_name(m);
    char stem[4096];
    struct plan w;
    int ok, built;

    make_stem(c, name, stem, sizeof stem);
    built = build_plan(&w, c->rank, c->nprocs, m, 0);
    if (built)
        fill_plan(&w);
    if (!check(c, built, "%s: buffers allocated", name)) {
        if (built)
            free_plan(&w);
        return;
    }
    ok = run_file(c, stem, &w, m, 0) == BIO_OK;
    free_plan(&w);
    if (!check(c, ok, "%s: create, write %d steps, close", name, NRECS))
        return;
    ok = read_and_verify(c, stem, m, c->rank, 0, "same decomposition");
    check(c, ok, "%s: read back, same decomposition, all values and "
          "guard cells right", name);
    /* With a file per process each rank's file holds only its own
     * requests, packed in the order written, so another rank's part, or
     * the same bytes cut into other requests, cannot be read back: these
     * two reads apply to shared files only. */
    if (c->shared_file) {
        ok = read_and_verify(c, stem, m, (c->rank + 1) % c->nprocs, 0,
                             "shifted decomposition");
        check(c, ok, "%s: read back, rank r reads rank (r+1)%%P's part, "
              "all values right", name);
        ok = read_and_verify(c, stem, m, c->rank, 1, "all records at once");
        check(c, ok, "%s: read back, every record of a record variable in "
              "one request, all values right", name);
    }
    remove_files(c, stem);
}

/* ------------------------------------------------------ error paths */

/* A request for one row just past fix2i's fixed first dimension. */
static void bad_request(struct bio_req *r, int *row)
{
    int64_t start[2] = {6, 0}, count[2] = {1, 10};

    bio_req_contig(r, 0, 2, start, count, row);
}

static void test_bad_requests(struct ctx *c, struct bio_file *f)
{
    int row[10] = {0};
    struct bio_req bad;
    int err;

    bad_request(&bad, row);
    if (bio_supports(BIO_INDEP)) {
        /* Only rank 0 errs; the others pass no request at all. */
        err = bio_write(f, &bad, c->rank == 0 ? 1 : 0, BIO_INDEP);
        check(c, c->rank == 0 ? err == BIO_EINVAL : err == BIO_OK,
              "indep: request outside the fixed shape on rank 0 only -> "
              "BIO_EINVAL there, BIO_OK elsewhere, no hang");
    }
    for (int m = 0; m < BIO_NMETHODS; m++) {
        if (m == BIO_INDEP || !bio_supports((enum bio_method)m))
            continue;
        err = bio_write(f, &bad, 1, (enum bio_method)m);
        check(c, err == BIO_EINVAL,
              "%s: request outside the fixed shape on every rank -> "
              "BIO_EINVAL everywhere", bio_method_name((enum bio_method)m));
    }
}

/* Every method the backend lacks, and the out-of-range BIO_NMETHODS
 * (never a method), must be answered BIO_ENOTSUP. */
static void test_unsupported(struct ctx *c, struct bio_file *f)
{
    for (int m = 0; m <= BIO_NMETHODS; m++) {
        int err;

        if (bio_supports((enum bio_method)m))
            continue;
        err = bio_write(f, NULL, 0, (enum bio_method)m);
        check(c, err == BIO_ENOTSUP, "%s unsupported -> BIO_ENOTSUP",
              m == BIO_NMETHODS ? "BIO_NMETHODS (not a method)"
                                : bio_method_name((enum bio_method)m));
    }
}

static void test_errors(struct ctx *c)
{
    char stem[4096];
    struct bio_file *f = NULL;
    int err;

    make_stem(c, "errors", stem, sizeof stem);
    err = bio_create(c->comm, stem, &schema, c->o.format, MPI_INFO_NULL,
                     &f);
    report_code(c, "bio_create", err);
    if (!check(c, err == BIO_OK, "errors: create")) {
        if (f != NULL)
            bio_close(f);
        return;
    }
    test_bad_requests(c, f);
    test_unsupported(c, f);
    err = bio_close(f);
    report_code(c, "bio_close", err);
    check(c, err == BIO_OK, "errors: close after refused requests");
    remove_files(c, stem);
}

/* ------------------------------------------------------------ main */

static void run_all(struct ctx *c)
{
    int nsup = 0;

    c->shared_file = bio_shared_file();
    check(c, bio_backend_name() != NULL && bio_backend_name()[0] != '\0',
          "backend named, %s file%s, %d rank%s", c->shared_file ?
          "one shared" : "one per rank", c->shared_file ? "" : "s",
          c->nprocs, c->nprocs == 1 ? "" : "s");
    for (int m = 0; m < BIO_NMETHODS; m++)
        if (bio_supports((enum bio_method)m)) {
            nsup++;
            test_method(c, (enum bio_method)m);
        }
    check(c, nsup > 0, "supports %d method%s", nsup, nsup == 1 ? "" : "s");
    test_errors(c);
}

int main(int argc, char **argv)
{
    struct ctx c;
    int status = 0;

    MPI_Init(&argc, &argv);
    memset(&c, 0, sizeof c);
    c.comm = MPI_COMM_WORLD;
    MPI_Comm_rank(c.comm, &c.rank);
    MPI_Comm_size(c.comm, &c.nprocs);
    if (!bench_parse_options("bio_selftest", argc, argv, "", c.rank, usage,
                             no_own_option, NULL, &c.o)) {
        status = EXIT_USAGE;
    } else if (!c.o.help) {
        run_all(&c);
        if (c.rank == 0)
            printf("%s  %s: %d check%s failed\n",
                   c.failures ? "FAIL" : "PASS", bio_backend_name(),
                   c.failures, c.failures == 1 ? "" : "s");
        status = c.failures ? 1 : 0;
    }
    fflush(stdout);
    MPI_Finalize();
    return status;
}
