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
#include <unistd.h>

#include "bench_common.h"
#include "bio.h"

enum {
    EXIT_USAGE = 2,
    MAX_VARS = 1000,
    MAX_EDGE = 1024,
    MAX_RECS = 1000,
    MAX_REPORTS = 5,
    MAX_MEDIAN = 1000, /* reps a median looks at, like bio_report_job */
    PATH_LEN = 4096
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
    int shared_file;            /* one file for all ranks (not fpp) */
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
    long pid;                   /* rank 0's, names the files */
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
        "  -t recs     records of -K record (default 2)\n"
        "  -m methods  comma list of pervar,combined,indep (default: all "
        "the\n"
        "              backend supports)\n"
        "  -d dir      directory of the files (default /tmp)\n"
        "  -r reps     timed repetitions (default 3)\n"
        "  -w warmup   untimed repetitions before them (default 0)\n"
        "  -f 1|2|5    CDF-1, CDF-2 (default) or CDF-5 (netCDF backends)\n"
        "  -k          keep the files of the last repetition\n"
        "  -q          no human-readable report\n"
        "  -c          csv lines: csv,coll_io,lib,case,method,nprocs,phase,"
        "\n"
        "              bytes,median_s,min_s,max_s,MiB/s\n");
}

/* "pervar,indep" into list, in the order given; 0 when a name is unknown
 * or repeated. */
static int parse_methods(const char *arg, enum bio_method *list, int *n)
{
    char buf[64], *save = NULL;

    *n = 0;
    if (strlen(arg) >= sizeof buf)
        return 0;
    strcpy(buf, arg);
    for (char *p = strtok_r(buf, ",", &save); p != NULL;
         p = strtok_r(NULL, ",", &save)) {
        enum bio_method m;

        if (!bio_method_parse(p, &m))
            return 0;
        for (int i = 0; i < *n; i++)
            if (list[i] == m)
                return 0;
        list[(*n)++] = m;
    }
    return *n > 0;
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
        ok = parse_methods(arg, o->methods, &o->nmethods);
        break;
    default:
        ok = 0;
    }
    return ok;
}

/* The methods to run: -m's, each of which the backend must support, or
 * every supported one. 0 after a message. */
static int choose_methods(struct options *o, int rank)
{
    if (o->nmethods == 0)
        for (int m = 0; m < BIO_NMETHODS; m++)
            if (bio_supports((enum bio_method)m))
                o->methods[o->nmethods++] = (enum bio_method)m;
    for (int i = 0; i < o->nmethods; i++)
        if (!bio_supports(o->methods[i])) {
            if (rank == 0)
                fprintf(stderr, "%s: the %s backend has no method %s\n",
                        prog, bio_backend_name(),
                        bio_method_name(o->methods[i]));
            return 0;
        }
    if (o->nmethods == 0 && rank == 0)
        fprintf(stderr, "%s: the %s backend supports no method\n", prog,
                bio_backend_name());
    return o->nmethods > 0;
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
    return o->run.help || choose_methods(o, rank);
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

static void stem_of(const struct setup *s, enum bio_method m, char *out,
                    size_t size)
{
    snprintf(out, size, "%s/%s.%s.%ld.%s", s->o->run.dir, prog,
             bio_backend_name(), s->pid, bio_method_name(m));
}

/* Removes the file(s) of stem: rank 0 the shared one, or each rank its
 * own. */
static void remove_files(const struct setup *s, const char *stem)
{
    char path[PATH_LEN];

    if (s->shared_file && s->rank != 0)
        return;
    bio_path(stem, s->rank, path, sizeof path);
    unlink(path);
}

/* One method, one repetition (rep <= 0: a warm-up): the job, its check,
 * its files. 0, or the exit status after a message. */
static int run_method(struct setup *s, enum bio_method m, int rep,
                      double t[BIO_NPHASES])
{
    char stem[PATH_LEN];
    struct bio_job job;
    size_t elems = (size_t)s->o->nvars * (size_t)s->nsteps * (size_t)s->blk;
    int64_t bad;
    int err;

    stem_of(s, m, stem, sizeof stem);
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
        remove_files(s, stem);
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
    printf("  files   %s/%s.%s.%ld.<method> (%s)\n", o->run.dir, prog,
           bio_backend_name(), s->pid,
           o->run.keep ? "kept after the last rep" : "removed after each "
                                                     "rep");
    printf("  %4s %-8s %9s %9s %9s %9s %9s %9s %10s %10s\n", "rep", "method",
           "open_w", "write", "close_w", "open_r", "read", "close_r",
           "MiB/s_w", "MiB/s_r");
}

static void print_row(const struct setup *s, const char *label,
                      enum bio_method m, const double *t)
{
    double tw = t[BIO_OPEN_W] + t[BIO_WRITE] + t[BIO_CLOSE_W];
    double tr = t[BIO_OPEN_R] + t[BIO_READ] + t[BIO_CLOSE_R];

    printf("  %4s %-8s", label, bio_method_name(m));
    for (int p = 0; p < BIO_NPHASES; p++)
        printf(" %9.6f", t[p]);
    printf(" %10.1f %10.1f\n", bench_mibs(s->bytes, tw),
           bench_mibs(s->bytes, tr));
    fflush(stdout);
}

/* Median rows of every method's timed reps (rank 0). */
static void print_medians(const struct setup *s,
                          double (**times)[BIO_NPHASES])
{
    int reps = s->o->run.reps, n = reps < MAX_MEDIAN ? reps : MAX_MEDIAN;

    for (int i = 0; i < s->o->nmethods; i++) {
        double med[BIO_NPHASES], col[MAX_MEDIAN];

        for (int p = 0; p < BIO_NPHASES; p++) {
            for (int r = 0; r < n; r++)
                col[r] = times[i][r][p];
            med[p] = bench_median(col, n);
        }
        print_row(s, "med", s->o->methods[i], med);
    }
    printf("  verify  OK: every value read back as written, by every "
           "method in each of %d rep%s\n", reps + s->o->run.warmup,
           reps + s->o->run.warmup == 1 ? "" : "s");
}

/* The human summary and the csv lines (rank 0). */
static void report(const struct setup *s, double (**times)[BIO_NPHASES])
{
    if (!s->o->run.quiet)
        print_medians(s, times);
    for (int i = 0; i < s->o->nmethods && s->o->run.csv; i++)
        bio_report_job(prog, s->casename, bio_method_name(s->o->methods[i]),
                       s->nprocs, s->bytes, times[i], s->o->run.reps);
}

/* Every repetition, the methods taking turns; times[method][rep] gets the
 * timed ones. 0 or the exit status. */
static int run_all(struct setup *s, double (**times)[BIO_NPHASES])
{
    const struct options *o = s->o;
    int total = o->run.warmup + o->run.reps;

    for (int i = 0; i < total; i++) {
        int rep = i - o->run.warmup + 1;

        for (int k = 0; k < o->nmethods; k++) {
            int mi = (i + k) % o->nmethods;
            double t[BIO_NPHASES];
            char label[16];
            int status = run_method(s, o->methods[mi], rep, t);

            if (status != 0)
                return status;
            if (rep < 1)
                continue;
            memcpy(times[mi][rep - 1], t, sizeof t);
            snprintf(label, sizeof label, "%d", rep);
            if (s->rank == 0 && !o->run.quiet)
                print_row(s, label, o->methods[mi], t);
        }
    }
    return 0;
}

int main(int argc, char **argv)
{
    struct options o;
    struct setup s;
    double (*times[BIO_NMETHODS])[BIO_NPHASES] = {NULL};
    char p0[PATH_LEN], p1[PATH_LEN];
    int status = 0, fail = 0;

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
    s.pid = (long)getpid();
    MPI_Bcast(&s.pid, 1, MPI_LONG, 0, MPI_COMM_WORLD);
    bio_path("x", 0, p0, sizeof p0);
    bio_path("x", 1, p1, sizeof p1);
    s.shared_file = strcmp(p0, p1) == 0;
    s.info = bio_env_info();
    decompose(&s);
    for (int i = 0; i < o.nmethods; i++) {
        times[i] = calloc((size_t)o.run.reps, sizeof *times[i]);
        fail |= times[i] == NULL;
    }
    MPI_Allreduce(MPI_IN_PLACE, &fail, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (fail || !allocate(&s)) {
        if (s.rank == 0)
            fprintf(stderr, "%s: out of memory for the buffers\n", prog);
        status = 1;
        goto done;
    }
    if (s.rank == 0 && !o.run.quiet)
        print_header(&s);
    status = run_all(&s, times);
    if (status == 0 && s.rank == 0)
        report(&s, times);
    fflush(stdout);

done:
    release(&s);
    for (int i = 0; i < BIO_NMETHODS; i++)
        free(times[i]);
    MPI_Finalize();
    return status;
}
