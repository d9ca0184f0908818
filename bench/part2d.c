/*
 * part2d.c -- the 2-D partition patterns of record variables, written
 * over bench/bio.h so that every backend runs the same requests: NVARS
 * record variables v(t, y, x), each record of each variable cut over the
 * ranks in one of four ways, every rank owning SIDE x SIDE elements of
 * every variable and record (P ranks, S = SIDE):
 *
 *   bb  block-block   a 2-D process grid py x px (MPI_Dims_create);
 *                     y = S*py, x = S*px; a rank's block is S rows of S
 *                     adjacent elements;
 *   sc  *-cyclic      y = S whole, x = S*P dealt out one column at a
 *                     time: rank r owns the columns r, r+P, r+2P, ...,
 *                     a strided request (stride P along x) in which
 *                     every element is its own extent in the file;
 *   bs  block-*       y = S*P in blocks of S rows, x = S whole: each
 *                     rank's part of a record is one contiguous extent;
 *   sb  *-block       y = S whole, x = S*P in blocks of S columns: S
 *                     rows of S adjacent elements, the rows of the ranks
 *                     interleaved.
 *
 * One step per record holds one request per variable (every variable's
 * part of that record), as a time-stepping code writes them. The memory
 * side is always a dense S x S array of doubles; -T float stores float
 * variables, so the library converts on the way (the netCDF backends in
 * their typed calls, HDF5 in H5Dwrite, raw MPI-IO and file per process in
 * bio.h's staging). A stride reaches each library as what it offers:
 * ncmpi_put_vars / iput_vars, an HDF5 hyperslab with a stride, an MPI
 * vector file view.
 *
 * Each pattern is its own case (its own schema and file); -p all runs
 * the four in turn.
 *
 * What it promises:
 *  - every value read back is checked by every rank against the value
 *    written, a pure function of variable, record and global index (an
 *    integer below 2^24, so exact in float too), by every method in every
 *    repetition (warm-ups too); a wrong value makes the exit status 1;
 *  - phase times are bio_run_job's: the slowest rank's, each phase
 *    starting after a barrier; the bytes are those of the file's type;
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
    MAX_SIDE = 16384,
    MAX_RECS = 1000,
    MAX_REPORTS = 5,
    PATH_LEN = 4096,            /* of <dir>/part2d.<lib>.<pid> */
    STEM_LEN = PATH_LEN + 32    /* .<pattern>.<method> */
};

static const char *const prog = "part2d";

enum pattern { PAT_BB, PAT_SC, PAT_BS, PAT_SB, NPATTERNS };

/* The case codes, and the long names -p takes too. */
static const char *const pat_code[NPATTERNS] = {"bb", "sc", "bs", "sb"};
static const char *const pat_long[NPATTERNS] = {"block-block", "*-cyclic",
                                                "block-*", "*-block"};

struct options {
    unsigned patterns;  /* bit p: run pattern p */
    int side;
    int nvars;
    int nrecs;
    enum bio_type ftype; /* of the variables in the file */
    int nmethods;       /* 0 until -m: every supported method */
    enum bio_method methods[BIO_NMETHODS];
    struct bench_opts run;
};

/* This rank's share of one pattern and everything bio_run_job needs. */
struct setup {
    const struct options *o;
    enum pattern pat;
    int rank, nprocs;
    int grid[2];                /* process grid, y x */
    int64_t global[2];          /* a record's shape, y x */
    int64_t start[2];           /* this rank's first element, y x */
    int64_t stride[2];          /* between its elements, y x */
    int64_t blk;                /* elements of one part: side^2 */
    struct bio_var *vars;
    struct bio_schema schema;
    double *wbuf, *rbuf;        /* [nvars][nrecs][blk] */
    struct bio_req *wreqs, *rreqs; /* [nrecs][nvars] */
    struct bio_step *steps;
    int64_t bytes;              /* file bytes of all ranks per repetition */
    MPI_Info info;
    char casename[64];
    const char *base;           /* bio_file_base */
};

static void usage(FILE *to)
{
    fprintf(to,
        "usage: part2d [-p patterns] [-s side] [-v nvars] [-t recs]\n"
        "              [-T double|float] [-m methods] [-d dir] [-r reps]\n"
        "              [-w warmup] [-f 1|2|5] [-k] [-q] [-c] [-h]\n"
        "  -p patterns comma list of bb (block-block), sc (*-cyclic),\n"
        "              bs (block-*), sb (*-block), or all (default all)\n"
        "  -s side     side x side elements per rank, variable and record\n"
        "              (default 32)\n"
        "  -v nvars    number of record variables (default 10)\n"
        "  -t recs     records, one step each (default 4)\n"
        "  -T type     the variables' type in the file (default double);\n"
        "              memory is always double, so float converts\n");
    bio_usage_common(to, prog, 0, "case e.g. sc_s32_f8_v10_t4");
}

/* A comma list of pattern names into a bit set; 0 when one is unknown. */
static int parse_patterns(const char *arg, unsigned *set)
{
    char buf[128], *save = NULL;

    *set = 0;
    if (strlen(arg) >= sizeof buf)
        return 0;
    strcpy(buf, arg);
    for (char *w = strtok_r(buf, ",", &save); w != NULL;
         w = strtok_r(NULL, ",", &save)) {
        int found = strcmp(w, "all") == 0;

        if (found)
            *set |= (1u << NPATTERNS) - 1;
        for (int p = 0; p < NPATTERNS && !found; p++)
            if (strcmp(w, pat_code[p]) == 0 || strcmp(w, pat_long[p]) == 0) {
                *set |= 1u << p;
                found = 1;
            }
        if (!found)
            return 0;
    }
    return *set != 0;
}

static int apply_option(int c, const char *arg, void *own)
{
    struct options *o = own;
    int64_t v = 0;
    int ok = 1;

    switch (c) {
    case 'p':
        ok = parse_patterns(arg, &o->patterns);
        break;
    case 's':
        ok = bench_parse_int64(arg, 1, MAX_SIDE, &v);
        o->side = (int)v;
        break;
    case 'v':
        ok = bench_parse_int64(arg, 1, MAX_VARS, &v);
        o->nvars = (int)v;
        break;
    case 't':
        ok = bench_parse_int64(arg, 1, MAX_RECS, &v);
        o->nrecs = (int)v;
        break;
    case 'T':
        ok = strcmp(arg, "double") == 0 || strcmp(arg, "float") == 0;
        o->ftype = strcmp(arg, "float") == 0 ? BIO_FLOAT : BIO_DOUBLE;
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
    o->patterns = (1u << NPATTERNS) - 1;
    o->side = 32;
    o->nvars = 10;
    o->nrecs = 4;
    o->ftype = BIO_DOUBLE;
    if (!bench_parse_options(prog, argc, argv, "p:s:v:t:T:m:", rank, usage,
                             apply_option, o, &o->run))
        return 0;
    return o->run.help ||
           bio_choose_methods(prog, o->methods, &o->nmethods, rank);
}

/* ------------------------------------------------------------ values */

/* Variable v at record rec, global (y, x): a hash of the linear index
 * that differs between neighbours and between variables, an integer in
 * [0, 2^24) so that float holds it exactly and the -1 the read buffers
 * start as never passes. */
static double value_at(const struct setup *s, int v, int64_t rec,
                       int64_t y, int64_t x)
{
    uint64_t lin = (uint64_t)((rec * s->global[0] + y) * s->global[1] + x);

    return (double)((lin * 2654435761u + (uint64_t)v * 7919u) & 0xffffffu);
}

static double *part_of(const struct setup *s, double *buf, int v, int rec)
{
    return buf + ((int64_t)v * s->o->nrecs + rec) * s->blk;
}

/* Fills (check == 0) or checks variable v's part of record rec in buf;
 * returns the wrong values, the first few reported. */
static int64_t walk_part(const struct setup *s, int v, int rec, double *buf,
                         int check, int rep)
{
    int64_t bad = 0, i = 0, side = s->o->side;

    for (int64_t y = 0; y < side; y++)
        for (int64_t x = 0; x < side; x++, i++) {
            int64_t gy = s->start[0] + y * s->stride[0];
            int64_t gx = s->start[1] + x * s->stride[1];
            double want = value_at(s, v, rec, gy, gx);

            if (!check)
                buf[i] = want;
            else if (buf[i] != want && bad++ < MAX_REPORTS)
                fprintf(stderr, "%s: rank %d rep %d %s: v%03d(%d,%" PRId64
                        ",%" PRId64 ") = %.17g, expected %.17g\n", prog,
                        s->rank, rep, pat_code[s->pat], v, rec, gy, gx,
                        buf[i], want);
        }
    return bad;
}

/* Wrong values over all ranks (the same on every rank). */
static int64_t check_all(const struct setup *s, int rep)
{
    int64_t bad = 0, total = 0;

    for (int v = 0; v < s->o->nvars; v++)
        for (int k = 0; k < s->o->nrecs; k++)
            bad += walk_part(s, v, k, part_of(s, s->rbuf, v, k), 1, rep);
    MPI_Allreduce(&bad, &total, 1, MPI_INT64_T, MPI_SUM, MPI_COMM_WORLD);
    return total;
}

/* -------------------------------------------------------------- setup */

/* The record's shape and this rank's part of it under pattern s->pat. */
static void decompose(struct setup *s)
{
    int64_t side = s->o->side, p = s->nprocs, r = s->rank;

    s->grid[0] = s->grid[1] = 1;
    s->stride[0] = s->stride[1] = 1;
    s->start[0] = s->start[1] = 0;
    switch (s->pat) {
    case PAT_BB: {
        int dims[2] = {0, 0};

        MPI_Dims_create(s->nprocs, 2, dims);
        s->grid[0] = dims[0];
        s->grid[1] = dims[1];
        s->start[0] = (r / dims[1]) * side;
        s->start[1] = (r % dims[1]) * side;
        break;
    }
    case PAT_SC:
        s->grid[1] = s->nprocs;
        s->start[1] = r;
        s->stride[1] = p;
        break;
    case PAT_BS:
        s->grid[0] = s->nprocs;
        s->start[0] = r * side;
        break;
    default: /* PAT_SB */
        s->grid[1] = s->nprocs;
        s->start[1] = r * side;
        break;
    }
    s->global[0] = side * s->grid[0];
    s->global[1] = side * s->grid[1];
    s->blk = side * side;
    s->bytes = s->blk * (int64_t)bio_type_size(s->o->ftype) * s->o->nvars *
               s->o->nrecs * p;
    snprintf(s->casename, sizeof s->casename, "%s_s%d_%s_v%d_t%d",
             pat_code[s->pat], s->o->side,
             s->o->ftype == BIO_FLOAT ? "f4" : "f8", s->o->nvars,
             s->o->nrecs);
}

static void define_schema(struct setup *s)
{
    static const char *const dimnames[3] = {"t", "y", "x"};

    for (int v = 0; v < s->o->nvars; v++) {
        struct bio_var *var = &s->vars[v];

        snprintf(var->name, sizeof var->name, "v%03d", v);
        var->type = s->o->ftype;
        var->ndims = 3;
        var->shape[0] = 0; /* the record dimension */
        var->shape[1] = s->global[0];
        var->shape[2] = s->global[1];
        for (int d = 0; d < 3; d++)
            snprintf(var->dim[d], sizeof var->dim[d], "%s", dimnames[d]);
    }
    s->schema.nvars = s->o->nvars;
    s->schema.vars = s->vars;
    s->schema.nrecs = s->o->nrecs;
}

/* Record k's request for variable v on buffer buf: the dense side x side
 * doubles to this rank's elements of the record, strided for *-cyclic. */
static void make_req(const struct setup *s, struct bio_req *r, int v,
                     int k, double *buf)
{
    int64_t start[3] = {k, s->start[0], s->start[1]};
    int64_t count[3] = {1, s->o->side, s->o->side};

    bio_req_contig(r, v, 3, start, count, part_of(s, buf, v, k));
    r->stride[1] = s->stride[0];
    r->stride[2] = s->stride[1];
    r->mtype = BIO_DOUBLE;
}

static void make_steps(struct setup *s)
{
    int n = s->o->nvars;

    for (int k = 0; k < s->o->nrecs; k++) {
        for (int v = 0; v < n; v++) {
            make_req(s, &s->wreqs[k * n + v], v, k, s->wbuf);
            make_req(s, &s->rreqs[k * n + v], v, k, s->rbuf);
            walk_part(s, v, k, part_of(s, s->wbuf, v, k), 0, 0);
        }
        s->steps[k] = (struct bio_step){&s->wreqs[k * n], n,
                                        &s->rreqs[k * n], n};
    }
}

/* Buffers, schema and requests; 1 when every rank got its memory. */
static int allocate(struct setup *s)
{
    size_t elems = (size_t)s->o->nvars * (size_t)s->o->nrecs *
                   (size_t)s->blk;
    size_t nreq = (size_t)s->o->nvars * (size_t)s->o->nrecs;
    int fail;

    s->vars = calloc((size_t)s->o->nvars, sizeof *s->vars);
    s->wbuf = malloc(elems * sizeof *s->wbuf);
    s->rbuf = malloc(elems * sizeof *s->rbuf);
    s->wreqs = malloc(nreq * sizeof *s->wreqs);
    s->rreqs = malloc(nreq * sizeof *s->rreqs);
    s->steps = malloc((size_t)s->o->nrecs * sizeof *s->steps);
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
    s->vars = NULL;
    s->wbuf = s->rbuf = NULL;
    s->wreqs = s->rreqs = NULL;
    s->steps = NULL;
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
    size_t elems = (size_t)s->o->nvars * (size_t)s->o->nrecs *
                   (size_t)s->blk;
    int64_t bad;
    int err;

    snprintf(stem, sizeof stem, "%s.%s.%s", s->base, pat_code[s->pat],
             bio_method_name(m));
    for (size_t i = 0; i < elems; i++)
        s->rbuf[i] = -1.0;
    job = (struct bio_job){MPI_COMM_WORLD, stem, &s->schema,
                           s->o->run.format, s->info, s->o->nrecs,
                           s->steps};
    err = bio_run_job(&job, m, t);
    if (err != BIO_OK) {
        bio_report_failure(prog, s->rank, err, bio_method_name(m));
        return 1;
    }
    bad = check_all(s, rep);
    if (bad != 0 && s->rank == 0)
        fprintf(stderr, "%s: FAILED: %" PRId64 " wrong value%s read back "
                "by method %s, pattern %s\n", prog, bad, bad == 1 ? "" : "s",
                bio_method_name(m), pat_long[s->pat]);
    if (!(s->o->run.keep && (rep == s->o->run.reps || bad != 0)))
        bio_remove(stem, s->rank);
    MPI_Barrier(MPI_COMM_WORLD);
    return bad != 0;
}

/* ------------------------------------------------------------ reporting */

static void print_header(const struct setup *s)
{
    const struct options *o = s->o;
    const char *tname = o->ftype == BIO_FLOAT ? "float" : "double";

    printf("%s: backend %s, %d rank%s, pattern %s (%s), grid y,x = %dx%d\n",
           prog, bio_backend_name(), s->nprocs, s->nprocs == 1 ? "" : "s",
           pat_long[s->pat], pat_code[s->pat], s->grid[0], s->grid[1]);
    printf("  vars    %d record %s variables v000..v%03d(t, y=%" PRId64
           ", x=%" PRId64 "), memory double\n", o->nvars, tname,
           o->nvars - 1, s->global[0], s->global[1]);
    printf("  part    %dx%d elements per rank and record%s\n", o->side,
           o->side, s->stride[1] > 1 ? ", x dealt out column by column"
                                     : "");
    printf("  data    %.3f MiB (in the file's type) per method and rep in "
           "%d record%s\n", (double)s->bytes / 1048576.0, o->nrecs,
           o->nrecs == 1 ? "" : "s");
    printf("  files   %s.%s.<method> (%s)\n", s->base, pat_code[s->pat],
           o->run.keep ? "kept after the last rep" : "removed after each "
                                                     "rep");
}

/* One pattern's whole run: setup, repetitions, release. 0, or the exit
 * status after a message. */
static int run_pattern(struct setup *s)
{
    struct bio_bench b;
    int status;

    decompose(s);
    if (!allocate(s)) {
        if (s->rank == 0)
            fprintf(stderr, "%s: out of memory for the buffers\n", prog);
        release(s);
        return 1;
    }
    if (s->rank == 0 && !s->o->run.quiet)
        print_header(s);
    b = (struct bio_bench){.prog = prog, .casename = s->casename,
                           .rank = s->rank, .nprocs = s->nprocs,
                           .bytes = s->bytes, .methods = s->o->methods,
                           .nmethods = s->o->nmethods, .opts = &s->o->run,
                           .run = run_method, .ctx = s};
    status = bio_bench_run(&b);
    release(s);
    return status;
}

int main(int argc, char **argv)
{
    struct options o;
    struct setup s;
    static char base[PATH_LEN];
    int status = 0;

    MPI_Init(&argc, &argv);
    memset(&s, 0, sizeof s);
    s.o = &o;
    s.info = MPI_INFO_NULL;
    s.base = base;
    MPI_Comm_rank(MPI_COMM_WORLD, &s.rank);
    MPI_Comm_size(MPI_COMM_WORLD, &s.nprocs);
    if (!parse_options(argc, argv, s.rank, &o)) {
        status = EXIT_USAGE;
        goto done;
    }
    if (o.run.help)
        goto done;
    if (!bio_file_base(prog, o.run.dir, base, sizeof base)) {
        status = EXIT_USAGE;
        goto done;
    }
    s.info = bio_env_info();
    for (int p = 0; p < NPATTERNS && status == 0; p++)
        if (o.patterns & (1u << p)) {
            s.pat = (enum pattern)p;
            status = run_pattern(&s);
        }

done:
    bio_env_info_free(&s.info);
    MPI_Finalize();
    return status;
}
