/*
 * btio.c -- the I/O pattern of the BT solver of the NAS Parallel
 * Benchmarks (seed 002): a square number of ranks P = q*q share a global
 * X x Y x Z grid of 5-component double points, cut into q x q x q cells
 * and dealt out by the multi-partition ("diagonal") scheme, so that every
 * rank owns q cells. Every dump appends one record to the single record
 * variable
 *
 *     double var(NUM_DUMPS, Z, Y, X, FIVE_DBL)     FIVE_DBL = 5
 *
 * each rank writing its q cells (one request per cell, so q noncontiguous
 * pieces per rank and dump). The file is then read back with the same
 * partitioning and every value is checked.
 *
 * The parameters come from options or from an input file in the seed's
 * format (-i): IO mode (w|r), method (0-3), dumps, grid points and
 * directory. The seed's methods map onto bio.h's as
 *   0 MPI collective I/O  -> pervar   (MPI-IO proper on the mpiio build)
 *   1 MPI independent I/O -> indep
 *   2 blocking I/O        -> pervar
 *   3 nonblocking I/O     -> combined (iput per cell + wait_all on the
 *                                      netCDF builds)
 * Mode w times writing and then reading back; mode r writes the file once,
 * untimed, and times only the reads.
 *
 * The program uses only bench/bio.h and is linked with each backend. What
 * it promises:
 *  - every value read back is compared, by every rank, with a pure
 *    function of record and global index; a wrong value makes the exit
 *    status 1;
 *  - a phase's time is the slowest rank's (open = create + define when
 *    writing), and the seed's "Time in sec" is open + data + close;
 *  - methods take turns within a repetition, the first one rotating.
 * Memory: every dump's cells are held at once, twice (written and read
 * back): 2 * dumps * X*Y*Z*40 / P bytes per rank.
 */
#define _POSIX_C_SOURCE 200809L

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_common.h"
#include "bio.h"

enum {
    EXIT_USAGE = 2,
    FIVE = 5,               /* components per grid point (FIVE_DBL) */
    MAX_STEPS = 100000,
    MAX_POINTS = 1000000,   /* per axis */
    MAX_REPORTS = 5,
    PATH_LEN = 4096,        /* of the directory */
    BASE_LEN = PATH_LEN + 100,  /* <dir>/btio.<lib>.<pid> */
    STEM_LEN = BASE_LEN + 32,   /* .<method> */
    FILE_LEN = STEM_LEN + 64    /* the backend's suffix */
};

/* Fill of the read buffers: the data are never negative. */
#define READ_FILL (-1.0)

/* The run's parameters, from the options or the input file. */
struct params {
    char mode;                  /* 'w' or 'r' */
    int input_method;           /* 0-3 from an input file, else -1 */
    int64_t steps;
    int64_t grid[3];            /* X, Y, Z */
    char dir[PATH_LEN];
};

struct options {
    const char *input;          /* -i */
    int has_steps, has_grid;
    int nmethods;               /* 0 without -m: every supported one */
    enum bio_method methods[BIO_NMETHODS];  /* in enum order */
    struct params p;
    struct bench_opts run;
};

/* One of this rank's cells: global start and extent, z, y, x. */
struct cell {
    int64_t start[3];
    int64_t count[3];
    size_t elems;               /* points * FIVE */
};

struct setup {
    const struct options *o;
    const struct params *p;
    MPI_Comm comm;
    int rank, nprocs, q;
    int nmeth;
    enum bio_method meth[BIO_NMETHODS];
    MPI_Info info;
    struct cell *cells;         /* [q] */
    size_t step_elems;          /* of all this rank's cells */
    double *wbuf, *rbuf;        /* [steps][step_elems] */
    struct bio_var var;
    struct bio_schema schema;
    struct bio_req *wreq, *rreq;    /* [steps][q] */
    struct bio_step *step;          /* [steps] */
    int64_t bytes;              /* payload of all ranks, all dumps */
    char casename[96];
};

static void usage(FILE *to)
{
    fprintf(to,
        "usage: btio [-i inputfile | [-s steps] [-g X,Y,Z] [-m methods]]\n"
        "            [-d dir] [-r reps] [-w warmup] [-f 1|2|5] [-k] [-q] "
        "[-c]\n"
        "  runs on a square number of processes\n"
        "  -i file     parameters from an input file in the seed's format:\n"
        "              w|r, method 0-3, steps, 'X Y Z', directory "
        "('#' comments)\n"
        "  -s steps    dumps (records) to write and read (default 4)\n"
        "  -g X,Y,Z    global grid points (default 24,24,24)\n"
        "  -m methods  comma-separated subset of pervar,combined,indep\n"
        "              (default: all the backend supports)\n"
        "  -d dir      directory of the file (default /tmp; the input "
        "file's\n"
        "              directory line wins)\n"
        "  -r reps     timed repetitions (default 3)\n"
        "  -w warmup   untimed repetitions before them (default 0)\n"
        "  -f 1|2|5    CDF-1, CDF-2 (default) or CDF-5 (netCDF backends)\n"
        "  -k          keep the file of the last repetition\n"
        "  -q          no human-readable report\n"
        "  -c          csv lines: csv,btio,lib,g<X>x<Y>x<Z>_s<steps>,method,"
        "\n"
        "              nprocs,phase,bytes,median_s,min_s,max_s,MiB/s\n");
}

/* ------------------------------------------------------------ options */

/* "X,Y,Z" (or, from an input file, "X Y Z") into g. */
static int parse_grid(const char *arg, const char *seps, int64_t g[3])
{
    char buf[96];
    char *save = NULL, *w;
    int n = 0;

    if (strlen(arg) >= sizeof buf)
        return 0;
    strcpy(buf, arg);
    for (w = strtok_r(buf, seps, &save); w != NULL && n < 4;
         w = strtok_r(NULL, seps, &save), n++)
        if (n == 3 || !bench_parse_int64(w, 1, MAX_POINTS, &g[n]))
            return 0;
    return n == 3;
}

static int apply_option(int c, const char *arg, void *own)
{
    struct options *o = own;
    int64_t v = 0;
    int ok = 1;

    switch (c) {
    case 'i':
        o->input = arg;
        break;
    case 's':
        ok = bench_parse_int64(arg, 1, MAX_STEPS, &v);
        o->p.steps = v;
        o->has_steps = 1;
        break;
    case 'g':
        ok = parse_grid(arg, ",", o->p.grid);
        o->has_grid = 1;
        break;
    case 'm':
        ok = bio_parse_method_set(arg, o->methods, &o->nmethods);
        break;
    default:
        ok = 0;
    }
    return ok;
}

static int parse_options(int argc, char **argv, int rank, struct options *o)
{
    memset(o, 0, sizeof *o);
    o->p.mode = 'w';
    o->p.input_method = -1;
    o->p.steps = 4;
    o->p.grid[0] = o->p.grid[1] = o->p.grid[2] = 24;
    if (!bench_parse_options("btio", argc, argv, "i:s:g:m:", rank, usage,
                             apply_option, o, &o->run))
        return 0;
    if (o->input != NULL && (o->has_steps || o->has_grid || o->nmethods)) {
        if (rank == 0) {
            fprintf(stderr, "btio: -i takes steps, grid and method from "
                    "the input file; drop -s, -g and -m\n");
            usage(stderr);
        }
        return 0;
    }
    return 1;
}

/* --------------------------------------------------------- input file */

/* The line without its comment and surrounding blanks, in place. */
static char *strip_line(char *line)
{
    char *hash = strchr(line, '#'), *end;

    if (hash != NULL)
        *hash = '\0';
    while (isspace((unsigned char)*line))
        line++;
    end = line + strlen(line);
    while (end > line && isspace((unsigned char)end[-1]))
        *--end = '\0';
    return line;
}

/* Item k (0-based) of the input file into p; a message and 0 when bad. */
static int input_item(int k, const char *text, struct params *p,
                      const char *file)
{
    int64_t v = 0;
    int ok = 1;

    switch (k) {
    case 0:
        ok = (text[0] == 'w' || text[0] == 'r') && text[1] == '\0';
        p->mode = text[0];
        break;
    case 1:
        ok = bench_parse_int64(text, 0, 3, &v);
        p->input_method = (int)v;
        break;
    case 2:
        ok = bench_parse_int64(text, 1, MAX_STEPS, &p->steps);
        break;
    case 3:
        ok = parse_grid(text, " \t,", p->grid);
        break;
    case 4:
        ok = strlen(text) < sizeof p->dir;
        if (ok)
            strcpy(p->dir, text);
        break;
    default:
        ok = 0;
    }
    if (!ok) {
        static const char *const what[5] = {
            "IO mode 'w' or 'r'", "IO method 0-3", "number of steps",
            "grid points 'X Y Z'", "a directory name"};

        fprintf(stderr, "btio: %s: item %d: expected %s, got '%s'\n", file,
                k + 1, k < 5 ? what[k] : "nothing more", text);
    }
    return ok;
}

/* The input file (rank 0 only): mode, method, steps and grid are
 * required, the directory optional. Lines empty after removing '#'
 * comments do not count. */
static int read_input(const char *file, struct params *p)
{
    FILE *f = fopen(file, "r");
    char line[PATH_LEN + 64];
    int k = 0, ok = 1;

    if (f == NULL) {
        fprintf(stderr, "btio: %s: %s\n", file, strerror(errno));
        return 0;
    }
    while (ok && fgets(line, sizeof line, f) != NULL) {
        char *text = strip_line(line);

        if (*text != '\0')
            ok = input_item(k++, text, p, file);
    }
    fclose(f);
    if (ok && k < 4) {
        fprintf(stderr, "btio: %s: needs at least 4 items (mode, method, "
                "steps, grid), has %d\n", file, k);
        ok = 0;
    }
    return ok;
}

/* The run's parameters on every rank: the options', or rank 0's reading
 * of the input file. 0 when they are not usable (all ranks agree). */
static int load_params(struct setup *s, struct options *o)
{
    int ok = 1;

    if (strlen(o->run.dir) >= sizeof o->p.dir) {
        if (s->rank == 0)
            fprintf(stderr, "btio: directory name too long\n");
        return 0;
    }
    strcpy(o->p.dir, o->run.dir);
    if (o->input != NULL) {
        if (s->rank == 0)
            ok = read_input(o->input, &o->p);
        MPI_Bcast(&ok, 1, MPI_INT, 0, s->comm);
        if (!ok)
            return 0;
        MPI_Bcast(&o->p, (int)sizeof o->p, MPI_BYTE, 0, s->comm);
    }
    return 1;
}

/* Methods: the input file's one, else those asked for, else all the
 * backend has. 0 after a message when one asked for is missing. */
static int choose_methods(struct setup *s)
{
    static const enum bio_method from_input[4] = {BIO_PERVAR, BIO_INDEP,
                                                  BIO_PERVAR, BIO_COMBINED};

    s->nmeth = s->o->nmethods;
    memcpy(s->meth, s->o->methods, sizeof s->meth);
    if (s->p->input_method >= 0) {
        s->meth[0] = from_input[s->p->input_method];
        s->nmeth = 1;
    }
    return bio_choose_methods("btio", s->meth, &s->nmeth, s->rank);
}

/* q with q*q == P, or 0. */
static int square_root(int n)
{
    int q = 1;

    while (q * q < n)
        q++;
    return q * q == n ? q : 0;
}

/* 1 when the data size fits int64 arithmetic comfortably. */
static int size_ok(const struct params *p)
{
    double b = (double)p->grid[0] * (double)p->grid[1] *
               (double)p->grid[2] * FIVE * 8.0 * (double)p->steps;

    return b < 4.0e18;
}

/* ------------------------------------------------------- partitioning */

/* The multi-partition of BT: with row = p % q and col = p / q, rank p's
 * cell c lies at cell coordinates x = (col - c) mod q, y = (row + c) mod
 * q, z = c. For each c the map p -> (x, y) is a bijection, so the q*q
 * ranks tile every z slab exactly once; and as c runs over 0..q-1, x, y
 * and z each take every value once, so every rank owns exactly one cell
 * in every x, y and z slab -- the property that keeps all ranks busy in
 * each of BT's three directional line solves. */
static void place_cells(struct setup *s)
{
    int q = s->q, row = s->rank % q, col = s->rank / q;

    s->step_elems = 0;
    for (int c = 0; c < q; c++) {
        int idx[3] = {c, (row + c) % q, ((col - c) % q + q) % q}; /* z,y,x */
        struct cell *cl = &s->cells[c];

        cl->elems = FIVE;
        for (int d = 0; d < 3; d++) {
            MPI_Offset st, ct;

            bench_split_axis(s->p->grid[2 - d], q, idx[d], &st, &ct);
            cl->start[d] = st;
            cl->count[d] = ct;
            cl->elems *= (size_t)ct;
        }
        s->step_elems += cl->elems;
    }
}

/* Value of component f of point (z, y, x) in record rec. */
static double value_at(const struct setup *s, int64_t rec, int64_t z,
                       int64_t y, int64_t x, int f)
{
    const int64_t *g = s->p->grid;
    int64_t lin = (((rec * g[2] + z) * g[1] + y) * g[0] + x) * FIVE + f;

    return (double)lin + 0.5;
}

/* Visits every value of every step in buffer order: fills buf (check ==
 * 0) or counts wrong ones. */
static int64_t walk(const struct setup *s, double *buf, int check,
                    const char *what)
{
    size_t i = 0;
    int64_t bad = 0;

    for (int64_t k = 0; k < s->p->steps; k++)
        for (int c = 0; c < s->q; c++) {
            const struct cell *cl = &s->cells[c];

            for (int64_t z = 0; z < cl->count[0]; z++)
                for (int64_t y = 0; y < cl->count[1]; y++)
                    for (int64_t x = 0; x < cl->count[2]; x++)
                        for (int f = 0; f < FIVE; f++, i++) {
                            int64_t gz = cl->start[0] + z,
                                    gy = cl->start[1] + y,
                                    gx = cl->start[2] + x;
                            double want = value_at(s, k, gz, gy, gx, f);

                            if (!check)
                                buf[i] = want;
                            else if (buf[i] != want && bad++ < MAX_REPORTS)
                                fprintf(stderr, "btio: rank %d: %s: var(%"
                                        PRId64 ",%" PRId64 ",%" PRId64 ",%"
                                        PRId64 ",%d) = %.17g, expected "
                                        "%.17g\n", s->rank, what, k, gz, gy,
                                        gx, f, buf[i], want);
                        }
        }
    return bad;
}

static void define_schema(struct setup *s)
{
    static const char *const dims[5] = {"NUM_DUMPS", "Z", "Y", "X",
                                        "FIVE_DBL"};
    struct bio_var *v = &s->var;

    memset(v, 0, sizeof *v);
    snprintf(v->name, sizeof v->name, "var");
    v->type = BIO_DOUBLE;
    v->ndims = 5;
    v->shape[0] = 0; /* the record dimension */
    v->shape[1] = s->p->grid[2];
    v->shape[2] = s->p->grid[1];
    v->shape[3] = s->p->grid[0];
    v->shape[4] = FIVE;
    for (int d = 0; d < 5; d++)
        snprintf(v->dim[d], sizeof v->dim[d], "%s", dims[d]);
    s->schema.nvars = 1;
    s->schema.vars = v;
    s->schema.nrecs = s->p->steps;
}

/* One request per cell and dump, into consecutive pieces of the step's
 * buffer. */
static void build_requests(struct setup *s)
{
    int q = s->q;

    for (int64_t k = 0; k < s->p->steps; k++) {
        size_t off = (size_t)k * s->step_elems;

        for (int c = 0; c < q; c++) {
            const struct cell *cl = &s->cells[c];
            int64_t start[5] = {k, cl->start[0], cl->start[1], cl->start[2],
                                0};
            int64_t count[5] = {1, cl->count[0], cl->count[1], cl->count[2],
                                FIVE};
            size_t i = (size_t)k * (size_t)q + (size_t)c;

            bio_req_contig(&s->wreq[i], 0, 5, start, count, s->wbuf + off);
            bio_req_contig(&s->rreq[i], 0, 5, start, count, s->rbuf + off);
            off += cl->elems;
        }
        s->step[k] = (struct bio_step){&s->wreq[(size_t)k * (size_t)q], q,
                                       &s->rreq[(size_t)k * (size_t)q], q};
    }
}

static void *alloc(size_t n, size_t size, int *fail)
{
    void *p = malloc((n > 0 ? n : 1) * size);

    if (p == NULL)
        *fail = 1;
    return p;
}

/* Cells, buffers and requests; 1 when every rank got its own. */
static int allocate(struct setup *s)
{
    size_t steps = (size_t)s->p->steps, nreq = steps * (size_t)s->q;
    int fail = 0;

    s->cells = alloc((size_t)s->q, sizeof *s->cells, &fail);
    if (!fail)
        place_cells(s);
    s->wbuf = alloc(steps * s->step_elems, sizeof(double), &fail);
    s->rbuf = alloc(steps * s->step_elems, sizeof(double), &fail);
    s->wreq = alloc(nreq, sizeof *s->wreq, &fail);
    s->rreq = alloc(nreq, sizeof *s->rreq, &fail);
    s->step = alloc(steps, sizeof *s->step, &fail);
    MPI_Allreduce(MPI_IN_PLACE, &fail, 1, MPI_INT, MPI_MAX, s->comm);
    return !fail;
}

static void release(struct setup *s)
{
    free(s->cells);
    free(s->wbuf);
    free(s->rbuf);
    free(s->wreq);
    free(s->rreq);
    free(s->step);
}

/* --------------------------------------------------------------- runs */

struct run {
    const struct setup *s;
    const char *base;               /* <dir>/btio.<lib>.<pid> */
    double (*times)[BIO_NPHASES];   /* [method][rep] */
};

/* The reps rows of method index k. */
static double (*times_of(const struct run *r, int k))[BIO_NPHASES]
{
    return &r->times[(size_t)k * (size_t)r->s->o->run.reps];
}

static void file_stem(const struct run *r, enum bio_method m, char *out,
                      size_t outsz)
{
    snprintf(out, outsz, "%s.%s", r->base, bio_method_name(m));
}

/* Writes and reads back (write_too) or only reads, then checks the
 * values. 0 or the exit status; every rank agrees. */
static int one_job(const struct run *r, enum bio_method m, int write_too,
                   const char *what, double t[BIO_NPHASES])
{
    const struct setup *s = r->s;
    char stem[STEM_LEN];
    struct bio_job job = {.comm = s->comm, .stem = stem,
                          .schema = &s->schema, .format = s->o->run.format,
                          .info = s->info, .nsteps = (int)s->p->steps,
                          .steps = s->step};
    int64_t bad;
    int err;

    file_stem(r, m, stem, sizeof stem);
    for (size_t i = 0; i < (size_t)s->p->steps * s->step_elems; i++)
        s->rbuf[i] = READ_FILL;
    memset(t, 0, BIO_NPHASES * sizeof *t);
    err = write_too ? bio_run_job(&job, m, t)
                    : bio_run_side(&job, m, 1, &t[BIO_OPEN_R]);
    if (err != BIO_OK) {
        bio_report_failure("btio", s->rank, err, what);
        return 1;
    }
    bad = walk(s, s->rbuf, 1, what);
    MPI_Allreduce(MPI_IN_PLACE, &bad, 1, MPI_INT64_T, MPI_SUM, s->comm);
    if (bad != 0 && s->rank == 0)
        fprintf(stderr, "btio: FAILED: %s: %" PRId64 " wrong value%s read "
                "back\n", what, bad, bad == 1 ? "" : "s");
    return bad != 0;
}

/* Mode r: each method's file written once, untimed, before the reads. */
static int prepare_reads(const struct run *r)
{
    const struct setup *s = r->s;
    double t[BIO_NPHASES];

    for (int k = 0; k < s->nmeth; k++) {
        char what[64];
        int status;

        snprintf(what, sizeof what, "untimed write, %s",
                 bio_method_name(s->meth[k]));
        status = one_job(r, s->meth[k], 1, what, t);
        if (status != 0)
            return status;
    }
    return 0;
}

static int run_all(const struct run *r)
{
    const struct setup *s = r->s;
    int reading = s->p->mode == 'r', reps = s->o->run.reps;
    int status = reading ? prepare_reads(r) : 0;
    char stem[STEM_LEN];

    for (int rep = 1 - s->o->run.warmup; rep <= reps && status == 0; rep++)
        for (int k = 0; k < s->nmeth && status == 0; k++) {
            int idx = (k + rep + s->nmeth * BENCH_MAX_REPS) % s->nmeth;
            enum bio_method m = s->meth[idx];
            double t[BIO_NPHASES];
            char what[64];

            snprintf(what, sizeof what, "rep %d %s", rep,
                     bio_method_name(m));
            status = one_job(r, m, !reading, what, t);
            if (status == 0 && rep >= 1)
                memcpy(times_of(r, idx)[rep - 1], t, sizeof t);
            file_stem(r, m, stem, sizeof stem);
            if (!reading && !(s->o->run.keep && (rep == reps || status)))
                bio_remove(stem, s->rank);
        }
    for (int k = 0; k < s->nmeth && reading; k++) {
        file_stem(r, s->meth[k], stem, sizeof stem);
        if (!s->o->run.keep)
            bio_remove(stem, s->rank);
    }
    return status;
}

/* ------------------------------------------------------------ reports */

static const char *method_text(enum bio_method m)
{
    switch (m) {
    case BIO_PERVAR:
        return "one collective call per cell";
    case BIO_COMBINED:
        return "every cell of a dump in one combined call";
    default:
        return "one independent call per cell";
    }
}

static const char *input_method_text(int code)
{
    static const char *const names[4] = {
        "MPI collective I/O", "MPI independent I/O", "blocking I/O",
        "nonblocking I/O"};

    return code >= 0 && code < 4 ? names[code] : "";
}

/* Method index k's report in the seed's words; v has room for reps. */
static void report_method(const struct run *r, int k, double *v)
{
    const struct setup *s = r->s;
    enum bio_method m = s->meth[k];
    int reading = s->p->mode == 'r', reps = s->o->run.reps;
    double tw = bio_median(times_of(r, k), reps, BIO_TOTAL_W, v);
    double tr = bio_median(times_of(r, k), reps, BIO_TOTAL_R, v);
    double t = reading ? tr : tw;
    char stem[STEM_LEN], path[FILE_LEN];

    file_stem(r, m, stem, sizeof stem);
    bio_path(stem, 0, path, sizeof path);
    printf("-- BT-IO Benchmark (%s operation only) --\n",
           reading ? "read" : "write");
    printf("Number of MPI processes  : %9d\n", s->nprocs);
    printf("Global array size X      : %9" PRId64 "\n", s->p->grid[0]);
    printf("Global array size Y      : %9" PRId64 "\n", s->p->grid[1]);
    printf("Global array size Z      : %9" PRId64 "\n", s->p->grid[2]);
    printf("Number of I/O iterations : %9" PRId64 "\n", s->p->steps);
    printf("Total I/O amount         : %12.2f MiB\n",
           (double)s->bytes / 1048576.0);
    printf("Time in sec              : %12.4f\n", t);
    printf("I/O bandwidth            : %12.2f MiB/s\n",
           bench_mibs(s->bytes, t));
    if (s->p->input_method >= 0)
        printf("Using %s method (input method %d): %s, %s backend\n",
               input_method_text(s->p->input_method), s->p->input_method,
               bio_method_name(m), bio_backend_name());
    else
        printf("Using %s method: %s, %s backend\n", bio_method_name(m),
               method_text(m), bio_backend_name());
    printf("output file path         : %s%s\n", path,
           bio_shared_file() ? "" : " (one per rank)");
    if (!reading)
        printf("Read back and verified   : %12.4f sec %12.2f MiB/s\n", tr,
               bench_mibs(s->bytes, tr));
}

/* 0, or 1 after a message. */
static int report_all(const struct run *r)
{
    const struct setup *s = r->s;
    int reps = s->o->run.reps;
    double *v = malloc((size_t)reps * sizeof *v);

    if (v == NULL) {
        fprintf(stderr, "btio: out of memory for the medians\n");
        return 1;
    }

    printf("btio: backend %s, %d = %d x %d ranks, %d cell%s each, %s; "
           "median of %d rep%s after %d warm-up\n", bio_backend_name(),
           s->nprocs, s->q, s->q, s->q, s->q == 1 ? "" : "s",
           bench_format_name(s->o->run.format), reps, reps == 1 ? "" : "s",
           s->o->run.warmup);
    if (s->p->mode == 'r')
        printf("(mode r: the file was written once, untimed; only reading "
               "is timed)\n");
    for (int k = 0; k < s->nmeth; k++) {
        printf("\n");
        report_method(r, k, v);
    }
    free(v);
    printf("\nverify OK: every value read back as written, by every method "
           "in every repetition\n");
    return 0;
}

/* Mode r timed only the reads. 0, or 1 after a message. */
static int report_csv(const struct run *r)
{
    const struct setup *s = r->s;

    for (int k = 0; k < s->nmeth; k++)
        if (bio_report_job("btio", s->casename, bio_method_name(s->meth[k]),
                           s->nprocs, s->bytes, times_of(r, k),
                           s->o->run.reps, s->p->mode == 'r') != BIO_OK)
            return 1;
    return 0;
}

/* ---------------------------------------------------------------- main */

/* The checks that need the parameters; 0 after a message (rank 0). */
static int usable(struct setup *s)
{
    const char *why = NULL;

    s->q = square_root(s->nprocs);
    if (s->q == 0)
        why = "needs a square number of processes (1, 4, 9, 16, ...)";
    else if (!size_ok(s->p))
        why = "grid times steps too large";
    if (why != NULL && s->rank == 0)
        fprintf(stderr, "btio: %s; got %d process%s\n", why, s->nprocs,
                s->nprocs == 1 ? "" : "es");
    return why == NULL && choose_methods(s);
}

static int run_program(struct setup *s)
{
    struct run r;
    char base[BASE_LEN];
    int status;
    const int64_t *g = s->p->grid;

    if (!usable(s) || !bio_file_base("btio", s->p->dir, base, sizeof base))
        return EXIT_USAGE;
    r.s = s;
    r.base = base;
    r.times = calloc((size_t)s->nmeth * (size_t)s->o->run.reps,
                     sizeof *r.times);
    if (!allocate(s) || r.times == NULL) {
        if (s->rank == 0)
            fprintf(stderr, "btio: out of memory for the buffers\n");
        free(r.times);
        return 1;
    }
    walk(s, s->wbuf, 0, "");
    define_schema(s);
    build_requests(s);
    s->bytes = g[0] * g[1] * g[2] * FIVE * 8 * s->p->steps;
    snprintf(s->casename, sizeof s->casename,
             "g%" PRId64 "x%" PRId64 "x%" PRId64 "_s%" PRId64, g[0], g[1],
             g[2], s->p->steps);
    status = run_all(&r);
    if (status == 0 && s->rank == 0 && !s->o->run.quiet)
        status = report_all(&r);
    if (status == 0 && s->rank == 0 && s->o->run.csv)
        status = report_csv(&r);
    fflush(stdout);
    free(r.times);
    return status;
}

int main(int argc, char **argv)
{
    struct options o;
    struct setup s;
    int status = 0;

    MPI_Init(&argc, &argv);
    memset(&s, 0, sizeof s);
    s.comm = MPI_COMM_WORLD;
    s.o = &o;
    s.p = &o.p;
    MPI_Comm_rank(s.comm, &s.rank);
    MPI_Comm_size(s.comm, &s.nprocs);
    if (!parse_options(argc, argv, s.rank, &o) || (!o.run.help &&
                                                   !load_params(&s, &o)))
        status = EXIT_USAGE;
    else if (!o.run.help) {
        s.info = bio_env_info();
        status = run_program(&s);
        bio_env_info_free(&s.info);
    }
    release(&s);
    MPI_Finalize();
    return status;
}
