/*
 * coll_io.c -- seed 000's collective test (section III.A, ROMIO's
 * coll_perf extended to many variables) written over bench/bio.h, so that
 * every backend runs the same pattern: the netCDF libraries, parallel
 * HDF5, raw MPI-IO and file per process. bench/coll_perf.c is the same
 * test over the PnetCDF API alone.
 *
 * NVARS three-dimensional int variables are each cut into blocks over a
 * 3-D process grid (MPI_Dims_create), every rank owning an EDGE^3 block of
 * every variable, so the arrays grow with the ranks.
 *
 *   -K fixed   v(z, y, x), written and read in one step;
 *   -K record  v(t, z, y, x) with -t records, one step per record holding
 *              every variable's block of that record, as a time-stepping
 *              code writes them: the variables' record data interleave in
 *              the file.
 *
 * Each step is one list of requests (one per variable) moved by one of
 * bio.h's methods: pervar, combined or indep.
 *
 * What it promises:
 *  - every value read back is checked by every rank against the value
 *    written, a pure function of variable, record and global index, by
 *    every method in every repetition (warm-ups too); a wrong value makes
 *    the exit status 1;
 *  - phase times are bio_run_job's: the slowest rank's, each phase
 *    starting after a barrier;
 *  - the methods take turns within a repetition, the first one rotating
 *    from one repetition to the next, each method on its own file.
 */
#define _POSIX_C_SOURCE 200809L

#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_common.h"
#include "bio.h"

enum {
    EXIT_USAGE = 2,
    MAX_VARS = 1000,
    MAX_EDGE = 1024,
    MAX_RECS = 1000,
    MAX_REPORTS = 5,
    PATH_LEN = 4096,            /* of <dir>/coll_io.<lib>.<pid> */
    STEM_LEN = PATH_LEN + 16    /* .<method> */
};

static const char *const prog = "coll_io";

struct options {
    int nvars;
    int edge;
    int record;         /* -K record: v(t, z, y, x) */
    int nrecs;          /* -t, records of -K record */
    int nmethods;       /* 0 until -m: every supported method */
    enum bio_method methods[BIO_NMETHODS];
    struct bench_opts run;
};

/* This rank's share of the job and everything bio_run_job needs. */
struct setup {
    const struct options *o;
    int rank, nprocs;
    int grid[3];                /* process grid, z y x */
    int64_t global[3];          /* array shape, z y x */
    int64_t start[3], count[3]; /* this rank's block */
    int nsteps;
    int64_t blk;                /* elements of one block */
    struct bio_var *vars;
    struct bio_schema schema;
    int *wbuf, *rbuf;           /* [nvars][nsteps][blk] */
    struct bio_req *wreqs, *rreqs; /* [nsteps][nvars] */
    struct bio_step *steps;
    int64_t bytes;              /* payload of all ranks per repetition */
    MPI_Info info;
    char casename[64];
    char base[PATH_LEN];        /* bio_file_base */
};

static void usage(FILE *to)
{
    fprintf(to,
        "usage: coll_io [-v nvars] [-e edge] [-K fixed|record] [-t recs]\n"
        "               [-m methods] [-d dir] [-r reps] [-w warmup]\n"
        "               [-f 1|2|5] [-k] [-q] [-c] [-h]\n"
        "  -v nvars    number of int variables (default 10)\n"
        "  -e edge     edge^3 elements per rank and variable (default 32)\n"
        "  -K kind     fixed: v(z,y,x), one step (default);\n"
        "              record: v(t,z,y,x), one step per record\n"
        "  -t recs     records of -K record (default 2)\n");
    bio_usage_common(to, prog, 0, NULL);
}

static int apply_option(int c, const char *arg, void *own)
{
    struct options *o = own;
    int64_t v = 0;
    int ok = 1;

    switch (c) {
    case 'v':
        ok = bench_parse_int64(arg, 1, MAX_VARS, &v);
        o->nvars = (int)v;
        break;
    case 'e':
        ok = bench_parse_int64(arg, 1, MAX_EDGE, &v);
        o->edge = (int)v;
        break;
    case 'K':
        ok = strcmp(arg, "fixed") == 0 || strcmp(arg, "record") == 0;
        o->record = strcmp(arg, "record") == 0;
        break;
    case 't':
        ok = bench_parse_int64(arg, 1, MAX_RECS, &v);
        o->nrecs = (int)v;
        break;
    case 'm':
        ok = bio_parse_methods(arg, o->methods, &o->nmethods);
        break;
    default:
        ok = 0;
    }
    return ok;
}

/* 1 when the options are usable (or only -h was asked for). */
static int parse_options(int argc, char **argv, int rank, struct options *o)
{
    memset(o, 0, sizeof *o);
    o->nvars = 10;
    o->edge = 32;
    o->nrecs = 2;
    if (!bench_parse_options(prog, argc, argv, "v:e:K:t:m:", rank, usage,
                             apply_option, o, &o->run))
        return 0;
    return o->run.help ||
           bio_choose_methods(prog, o->methods, &o->nmethods, rank);
}

/* ------------------------------------------------------------ values */

/* Variable v at record rec, global (z, y, x): a hash of the linear index
 * that differs between variables at one place and is never negative, so
 * the -1 the read buffers start as never passes. */
static int value_at(const struct setup *s, int v, int64_t rec, int64_t z,
                    int64_t y, int64_t x)
{
    uint64_t lin = (uint64_t)(((rec * s->global[0] + z) * s->global[1] +
                               y) * s->global[2] + x);

    return (int)((lin * 2654435761u + (uint64_t)v * 7919u) & 0x7fffffffu);
}

/* Fills (check == 0) or checks variable v's block of step `step` in buf;
 * returns the wrong values, the first few reported. */
static int64_t walk_block(const struct setup *s, int v, int step,
                          int *buf, int check, int rep)
{
    int64_t bad = 0, i = 0;

    for (int64_t z = 0; z < s->count[0]; z++)
        for (int64_t y = 0; y < s->count[1]; y++)
            for (int64_t x = 0; x < s->count[2]; x++, i++) {
                int64_t gz = s->start[0] + z, gy = s->start[1] + y,
                        gx = s->start[2] + x;
                int want = value_at(s, v, step, gz, gy, gx);

                if (!check)
                    buf[i] = want;
                else if (buf[i] != want && bad++ < MAX_REPORTS)
                    fprintf(stderr, "%s: rank %d rep %d: v%03d(%d,%" PRId64
                            ",%" PRId64 ",%" PRId64 ") = %d, expected %d\n",
                            prog, s->rank, rep, v, step, gz, gy, gx, buf[i],
                            want);
            }
    return bad;
}

static int *block_of(const struct setup *s, int *buf, int v, int step)
{
    return buf + ((int64_t)v * s->nsteps + step) * s->blk;
}

/* Wrong values over all ranks (the same on every rank). */
static int64_t check_all(const struct setup *s, int rep)
{
    int64_t bad = 0, total = 0;

    for (int v = 0; v < s->o->nvars; v++)
        for (int k = 0; k < s->nsteps; k++)
            bad += walk_block(s, v, k, block_of(s, s->rbuf, v, k), 1, rep);
    MPI_Allreduce(&bad, &total, 1, MPI_INT64_T, MPI_SUM, MPI_COMM_WORLD);
    return total;
}

/* -------------------------------------------------------------- setup */

static void decompose(struct setup *s)
{
    int dims[3] = {0, 0, 0}, coord[3];
    int e = s->o->edge;

    MPI_Dims_create(s->nprocs, 3, dims);
    coord[0] = s->rank / (dims[1] * dims[2]);
    coord[1] = (s->rank / dims[2]) % dims[1];
    coord[2] = s->rank % dims[2];
    for (int d = 0; d < 3; d++) {
        MPI_Offset st, ct;

        s->grid[d] = dims[d];
        s->global[d] = (int64_t)e * dims[d];
        bench_split_axis(s->global[d], dims[d], coord[d], &st, &ct);
        s->start[d] = st;
        s->count[d] = ct;
    }
    s->nsteps = s->o->record ? s->o->nrecs : 1;
    s->blk = (int64_t)e * e * e;
    s->bytes = s->blk * (int64_t)sizeof(int) * s->o->nvars * s->nsteps *
               s->nprocs;
    snprintf(s->casename, sizeof s->casename, "%s_e%d_v%d",
             s->o->record ? "record" : "fixed", e, s->o->nvars);
    if (s->o->record)
        snprintf(s->casename + strlen(s->casename),
                 sizeof s->casename - strlen(s->casename), "_t%d",
                 s->o->nrecs);
}

static void define_schema(struct setup *s)
{
    static const char *const dimnames[4] = {"t", "z", "y", "x"};
    int t = s->o->record;

    for (int v = 0; v < s->o->nvars; v++) {
        struct bio_var *var = &s->vars[v];

        snprintf(var->name, sizeof var->name, "v%03d", v);
        var->type = BIO_INT;
        var->ndims = 3 + t;
        var->shape[0] = 0; /* the record dimension when t */
        for (int d = 0; d < 3; d++)
            var->shape[t + d] = s->global[d];
        for (int d = 0; d < var->ndims; d++)
            snprintf(var->dim[d], sizeof var->dim[d], "%s",
                     dimnames[1 - t + d]);
    }
    s->schema.nvars = s->o->nvars;
    s->schema.vars = s->vars;
    s->schema.nrecs = t ? s->o->nrecs : 0;
}

/* Step k's request for variable v on buffer buf. */
static void make_req(const struct setup *s, struct bio_req *r, int v,
                     int k, int *buf)
{
    int64_t start[4], count[4];
    int t = s->o->record;

    start[0] = k;
    count[0] = 1;
    for (int d = 0; d < 3; d++) {
        start[t + d] = s->start[d];
        count[t + d] = s->count[d];
    }
    bio_req_contig(r, v, 3 + t, start, count, block_of(s, buf, v, k));
}

static void make_steps(struct setup *s)
{
    int n = s->o->nvars;

    for (int k = 0; k < s->nsteps; k++) {
        for (int v = 0; v < n; v++) {
            make_req(s, &s->wreqs[k * n + v], v, k, s->wbuf);
            make_req(s, &s->rreqs[k * n + v], v, k, s->rbuf);
            walk_block(s, v, k, block_of(s, s->wbuf, v, k), 0, 0);
        }
        s->steps[k] = (struct bio_step){&s->wreqs[k * n], n,
                                        &s->rreqs[k * n], n};
    }
}

/* Buffers, schema and requests; 1 when every rank got its memory. */
static int allocate(struct setup *s)
{
    size_t elems = (size_t)s->o->nvars * (size_t)s->nsteps * (size_t)s->blk;
    size_t nreq = (size_t)s->o->nvars * (size_t)s->nsteps;
    int fail;

    s->vars = calloc((size_t)s->o->nvars, sizeof *s->vars);
    s->wbuf = malloc(elems * sizeof *s->wbuf);
    s->rbuf = malloc(elems * sizeof *s->rbuf);
    s->wreqs = malloc(nreq * sizeof *s->wreqs);
    s->rreqs = malloc(nreq * sizeof *s->rreqs);
    s->steps = malloc((size_t)s->nsteps * sizeof *s->steps);
    fail = !s->vars || !s->wbuf || !s->rbuf || !s->wreqs || !s->rreqs ||
           !s->steps;
    MPI_Allreduce(MPI_IN_PLACE, &fail, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (fail)
        return 0;
    define_schema(s);
    make_steps(s);
    return 1;
}

static void release(struct setup *s)
{
    free(s->vars);
    free(s->wbuf);
    free(s->rbuf);
    free(s->wreqs);
    free(s->rreqs);
    free(s->steps);
    bio_env_info_free(&s->info);
}

/* ------------------------------------------------------------- running */

/* One method, one repetition (rep <= 0: a warm-up): the job, its check,
 * its files. 0, or the exit status after a message. bio_bench's run. */
static int run_method(void *ctx, enum bio_method m, int rep,
                      double t[BIO_NPHASES])
{
    struct setup *s = ctx;
    char stem[STEM_LEN];
    struct bio_job job;
    size_t elems = (size_t)s->o->nvars * (size_t)s->nsteps * (size_t)s->blk;
    int64_t bad;
    int err;

    snprintf(stem, sizeof stem, "%s.%s", s->base, bio_method_name(m));
    memset(s->rbuf, 0xff, elems * sizeof *s->rbuf); /* -1 everywhere */
    job = (struct bio_job){MPI_COMM_WORLD, stem, &s->schema,
                           s->o->run.format, s->info, s->nsteps, s->steps};
    err = bio_run_job(&job, m, t);
    if (err != BIO_OK) {
        if (s->rank == 0)
            fprintf(stderr, "%s: %s: %s failed: %s\n", prog, stem,
                    bio_method_name(m), bio_strerror(err));
        return 1;
    }
    bad = check_all(s, rep);
    if (bad != 0 && s->rank == 0)
        fprintf(stderr, "%s: FAILED: %" PRId64 " wrong value%s read back "
                "by method %s\n", prog, bad, bad == 1 ? "" : "s",
                bio_method_name(m));
    if (!(s->o->run.keep && (rep == s->o->run.reps || bad != 0)))
        bio_remove(stem, s->rank);
    MPI_Barrier(MPI_COMM_WORLD);
    return bad != 0;
}

/* ------------------------------------------------------------ reporting */

static void print_header(const struct setup *s)
{
    const struct options *o = s->o;

    printf("%s: backend %s, %d rank%s, grid z,y,x = %dx%dx%d\n", prog,
           bio_backend_name(), s->nprocs, s->nprocs == 1 ? "" : "s",
           s->grid[0], s->grid[1], s->grid[2]);
    printf("  vars    %d %s int variables v000..v%03d(%sz=%" PRId64
           ", y=%" PRId64 ", x=%" PRId64 "), %d^3 per rank\n", o->nvars,
           o->record ? "record" : "fixed", o->nvars - 1,
           o->record ? "t, " : "", s->global[0], s->global[1],
           s->global[2], o->edge);
    printf("  data    %.3f MiB per method and rep in %d step%s\n",
           (double)s->bytes / 1048576.0, s->nsteps,
           s->nsteps == 1 ? "" : "s");
    printf("  files   %s.<method> (%s)\n", s->base,
           o->run.keep ? "kept after the last rep" : "removed after each "
                                                     "rep");
}

int main(int argc, char **argv)
{
    struct options o;
    struct setup s;
    struct bio_bench b;
    int status = 0;

    MPI_Init(&argc, &argv);
    memset(&s, 0, sizeof s);
    s.o = &o;
    s.info = MPI_INFO_NULL;
    MPI_Comm_rank(MPI_COMM_WORLD, &s.rank);
    MPI_Comm_size(MPI_COMM_WORLD, &s.nprocs);
    if (!parse_options(argc, argv, s.rank, &o)) {
        status = EXIT_USAGE;
        goto done;
    }
    if (o.run.help)
        goto done;
    if (!bio_file_base(prog, o.run.dir, s.base, sizeof s.base)) {
        status = EXIT_USAGE;
        goto done;
    }
    s.info = bio_env_info();
    decompose(&s);
    if (!allocate(&s)) {
        if (s.rank == 0)
            fprintf(stderr, "%s: out of memory for the buffers\n", prog);
        status = 1;
        goto done;
    }
    if (s.rank == 0 && !o.run.quiet)
        print_header(&s);
    b = (struct bio_bench){.prog = prog, .casename = s.casename,
                           .rank = s.rank, .nprocs = s.nprocs,
                           .bytes = s.bytes, .methods = o.methods,
                           .nmethods = o.nmethods, .opts = &o.run,
                           .run = run_method, .ctx = &s};
    status = bio_bench_run(&b);

done:
    release(&s);
    MPI_Finalize();
    return status;
}
