/*
 * pflotran_io.c -- the PFLOTRAN micro-benchmark of seed 004 over
 * bench/bio.h, so that every backend runs it: read two large 1-D datasets
 * from an input file, then write them to an output file.
 *
 * The datasets are permeability(cell) and porosity(cell), double, with
 * N (-n) cells per rank, N * P in all; each rank reads and writes its
 * contiguous block (bench_split_axis over the global length). Per method
 * and repetition:
 *
 *   setup (untimed)  the input file is created by the same backend, every
 *                    rank writing its block of both datasets;
 *   input (timed)    open_r, read (both datasets), close_r;
 *   output (timed)   open_w, write of what was read, close_w: the write
 *                    side of bio_run_job, whose read side (untimed) reads
 *                    the output back for the check.
 *
 * What it promises:
 *  - every value read, from the input and from the output, is checked by
 *    every rank against the value written, a pure function of dataset and
 *    global index, by every method in every repetition (warm-ups too); a
 *    wrong value makes the exit status 1;
 *  - every phase starts after a barrier and is the slowest rank's time;
 *  - the methods take turns within a repetition, the first one rotating
 *    from one repetition to the next, each method on its own files.
 */
#define _POSIX_C_SOURCE 200809L

#include <inttypes.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench_common.h"
#include "bio.h"

enum {
    EXIT_USAGE = 2,
    NDATASETS = 2,
    MAX_REPORTS = 5,
    MAX_MEDIAN = 1000,  /* reps a median looks at, like bio_report_job */
    PATH_LEN = 4096
};

static const char *const prog = "pflotran_io";

/* The order the phases happen in: the input is read before the output is
 * written. */
static const enum bio_phase job_order[BIO_NPHASES] = {
    BIO_OPEN_R, BIO_READ, BIO_CLOSE_R, BIO_OPEN_W, BIO_WRITE, BIO_CLOSE_W};

static const struct bio_var datasets[NDATASETS] = {
    {"permeability", BIO_DOUBLE, 1, {0}, {"cell"}},
    {"porosity", BIO_DOUBLE, 1, {0}, {"cell"}},
};

struct options {
    int64_t ncells;     /* per rank */
    int nmethods;       /* 0 until -m: every supported method */
    enum bio_method methods[BIO_NMETHODS];
    struct bench_opts run;
};

struct setup {
    const struct options *o;
    int rank, nprocs;
    int shared_file;            /* one file for all ranks (not fpp) */
    int64_t start, count;       /* this rank's block */
    struct bio_var vars[NDATASETS];
    struct bio_schema schema;
    double *made[NDATASETS];    /* what the setup writes to the input */
    double *got[NDATASETS];     /* read from the input, written out */
    double *back[NDATASETS];    /* read back from the output */
    struct bio_req made_reqs[NDATASETS], got_reqs[NDATASETS];
    struct bio_req back_reqs[NDATASETS];
    int64_t bytes;              /* payload of all ranks, each way */
    MPI_Info info;
    char casename[32];
    long pid;                   /* rank 0's, names the files */
};

static void usage(FILE *to)
{
    fprintf(to,
        "usage: pflotran_io [-n cells] [-m methods] [-d dir] [-r reps]\n"
        "                   [-w warmup] [-f 1|2|5] [-k] [-q] [-c] [-h]\n"
        "  -n cells    cells per rank of both datasets (default 65536)\n"
        "  -m methods  comma list of pervar,combined,indep (default: all "
        "the\n"
        "              backend supports)\n"
        "  -d dir      directory of the files (default /tmp)\n"
        "  -r reps     timed repetitions (default 3)\n"
        "  -w warmup   untimed repetitions before them (default 0)\n"
        "  -f 1|2|5    CDF-1, CDF-2 (default) or CDF-5 (netCDF backends)\n"
        "  -k          keep the files of the last repetition\n"
        "  -q          no human-readable report\n"
        "  -c          csv lines: csv,pflotran_io,lib,case,method,nprocs,"
        "phase,\n"
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

    if (c == 'n')
        return bench_parse_int64(arg, 1, INT_MAX, &o->ncells);
    if (c == 'm')
        return parse_methods(arg, o->methods, &o->nmethods);
    return 0;
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
    o->ncells = 65536;
    if (!bench_parse_options(prog, argc, argv, "n:m:", rank, usage,
                             apply_option, o, &o->run))
        return 0;
    return o->run.help || choose_methods(o, rank);
}

/* ------------------------------------------------------------ values */

/* Dataset d at global cell i: a hash of the index that differs between
 * the datasets, plus one half, so that neither zeros nor the NaN the read
 * buffers start as pass. */
static double value_at(int d, int64_t i)
{
    return (double)(((uint64_t)i * 2654435761u + (uint64_t)d * 7919u) &
                    0x7fffffffu) + 0.5;
}

/* Wrong values of this rank's block of both datasets in bufs (the first
 * few reported), summed over all ranks. */
static int64_t check_all(const struct setup *s, double *const *bufs,
                         const char *what, int rep)
{
    int64_t bad = 0, total = 0;

    for (int d = 0; d < NDATASETS; d++)
        for (int64_t k = 0; k < s->count; k++) {
            double want = value_at(d, s->start + k);

            if (bufs[d][k] != want && bad++ < MAX_REPORTS)
                fprintf(stderr, "%s: rank %d rep %d: %s %s[%" PRId64
                        "] = %.17g, expected %.17g\n", prog, s->rank, rep,
                        what, datasets[d].name, s->start + k, bufs[d][k],
                        want);
        }
    MPI_Allreduce(&bad, &total, 1, MPI_INT64_T, MPI_SUM, MPI_COMM_WORLD);
    if (total != 0 && s->rank == 0)
        fprintf(stderr, "%s: FAILED: %" PRId64 " wrong value%s in the %s\n",
                prog, total, total == 1 ? "" : "s", what);
    return total;
}

/* -------------------------------------------------------------- setup */

static void decompose(struct setup *s)
{
    int64_t global = s->o->ncells * s->nprocs;
    MPI_Offset st, ct;

    bench_split_axis(global, s->nprocs, s->rank, &st, &ct);
    s->start = st;
    s->count = ct;
    for (int d = 0; d < NDATASETS; d++) {
        s->vars[d] = datasets[d];
        s->vars[d].shape[0] = global;
    }
    s->schema = (struct bio_schema){NDATASETS, s->vars, 0};
    s->bytes = global * NDATASETS * (int64_t)sizeof(double);
    snprintf(s->casename, sizeof s->casename, "n%" PRId64, s->o->ncells);
}

/* Buffers and requests; 1 when every rank got its memory. */
static int allocate(struct setup *s)
{
    size_t n = (size_t)s->count;
    int fail = 0;

    for (int d = 0; d < NDATASETS; d++) {
        s->made[d] = malloc(n * sizeof(double));
        s->got[d] = malloc(n * sizeof(double));
        s->back[d] = malloc(n * sizeof(double));
        fail |= !s->made[d] || !s->got[d] || !s->back[d];
    }
    MPI_Allreduce(MPI_IN_PLACE, &fail, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (fail)
        return 0;
    for (int d = 0; d < NDATASETS; d++) {
        for (int64_t k = 0; k < s->count; k++)
            s->made[d][k] = value_at(d, s->start + k);
        bio_req_contig(&s->made_reqs[d], d, 1, &s->start, &s->count,
                       s->made[d]);
        bio_req_contig(&s->got_reqs[d], d, 1, &s->start, &s->count,
                       s->got[d]);
        bio_req_contig(&s->back_reqs[d], d, 1, &s->start, &s->count,
                       s->back[d]);
    }
    return 1;
}

static void release(struct setup *s)
{
    for (int d = 0; d < NDATASETS; d++) {
        free(s->made[d]);
        free(s->got[d]);
        free(s->back[d]);
    }
    bio_env_info_free(&s->info);
}

/* ------------------------------------------------------------- running */

/* The worst code over all ranks: codes are <= 0, so the minimum. */
static int agree(int code)
{
    int worst = code;

    MPI_Allreduce(&code, &worst, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    return worst;
}

/* Creates and writes (or opens and reads) one file with reqs, timed into
 * t[0..2] (open, data, close). Every rank returns the same code. */
static int one_side(const struct setup *s, const char *stem,
                    const struct bio_req *reqs, enum bio_method m,
                    int reading, double t[3])
{
    MPI_Comm comm = MPI_COMM_WORLD;
    struct bio_file *f = NULL;
    double t0 = bio_phase_start(comm);
    int err, cerr;

    err = reading ? bio_open(comm, stem, &s->schema, s->info, &f)
                  : bio_create(comm, stem, &s->schema, s->o->run.format,
                               s->info, &f);
    t[0] = bio_phase_end(comm, t0);
    err = agree(err);
    if (err != BIO_OK) {
        if (f != NULL)
            bio_close(f);
        return err;
    }
    t0 = bio_phase_start(comm);
    err = reading ? bio_read(f, reqs, NDATASETS, m)
                  : bio_write(f, reqs, NDATASETS, m);
    t[1] = bio_phase_end(comm, t0);
    err = agree(err);
    t0 = bio_phase_start(comm);
    cerr = bio_close(f);
    t[2] = bio_phase_end(comm, t0);
    cerr = agree(cerr);
    return err != BIO_OK ? err : cerr;
}

static void stem_of(const struct setup *s, enum bio_method m,
                    const char *which, char *out, size_t size)
{
    snprintf(out, size, "%s/%s.%s.%ld.%s.%s", s->o->run.dir, prog,
             bio_backend_name(), s->pid, bio_method_name(m), which);
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

static int failed(const struct setup *s, const char *stem, const char *what,
                  enum bio_method m, int err)
{
    if (s->rank == 0)
        fprintf(stderr, "%s: %s: %s %s failed: %s\n", prog, stem,
                bio_method_name(m), what, bio_strerror(err));
    return 1;
}

/* Setup, timed input read, checked; timed output write, read back and
 * checked. 0, or the exit status after a message. */
static int run_files(struct setup *s, enum bio_method m, int rep,
                     const char *in, const char *out, double t[BIO_NPHASES])
{
    double scratch[3], tout[BIO_NPHASES];
    struct bio_step step = {s->got_reqs, NDATASETS, s->back_reqs,
                            NDATASETS};
    struct bio_job job = {MPI_COMM_WORLD, out, &s->schema,
                          s->o->run.format, s->info, 1, &step};
    int err;

    for (int d = 0; d < NDATASETS; d++) { /* NaN everywhere */
        memset(s->got[d], 0xff, (size_t)s->count * sizeof(double));
        memset(s->back[d], 0xff, (size_t)s->count * sizeof(double));
    }
    err = one_side(s, in, s->made_reqs, m, 0, scratch);
    if (err != BIO_OK)
        return failed(s, in, "writing the input", m, err);
    err = one_side(s, in, s->got_reqs, m, 1, &t[BIO_OPEN_R]);
    if (err != BIO_OK)
        return failed(s, in, "reading the input", m, err);
    if (check_all(s, s->got, "input", rep) != 0)
        return 1;
    err = bio_run_job(&job, m, tout);
    if (err != BIO_OK)
        return failed(s, out, "writing the output", m, err);
    memcpy(&t[BIO_OPEN_W], &tout[BIO_OPEN_W], 3 * sizeof *t);
    return check_all(s, s->back, "output", rep) != 0;
}

/* One method, one repetition (rep <= 0: a warm-up). 0, or the exit
 * status after a message. */
static int run_method(struct setup *s, enum bio_method m, int rep,
                      double t[BIO_NPHASES])
{
    char in[PATH_LEN], out[PATH_LEN];
    int status;

    stem_of(s, m, "in", in, sizeof in);
    stem_of(s, m, "out", out, sizeof out);
    memset(t, 0, BIO_NPHASES * sizeof *t);
    status = run_files(s, m, rep, in, out, t);
    if (!(s->o->run.keep && (rep == s->o->run.reps || status != 0))) {
        remove_files(s, in);
        remove_files(s, out);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    return status;
}

/* ------------------------------------------------------------ reporting */

static void print_header(const struct setup *s)
{
    const struct options *o = s->o;

    printf("%s: backend %s, %d rank%s\n", prog, bio_backend_name(),
           s->nprocs, s->nprocs == 1 ? "" : "s");
    printf("  data    permeability, porosity (cell=%" PRId64 "), double, %"
           PRId64 " cells per rank: %.3f MiB each way\n",
           o->ncells * s->nprocs, o->ncells, (double)s->bytes / 1048576.0);
    printf("  files   %s/%s.%s.%ld.<method>.in (written untimed first) and "
           ".out (%s)\n", o->run.dir, prog, bio_backend_name(), s->pid,
           o->run.keep ? "kept after the last rep"
                       : "removed after each rep");
    printf("  %4s %-8s %9s %9s %9s %9s %9s %9s %10s %10s\n", "rep", "method",
           "open_r", "read", "close_r", "open_w", "write", "close_w",
           "MiB/s_r", "MiB/s_w");
}

static void print_row(const struct setup *s, const char *label,
                      enum bio_method m, const double *t)
{
    double tw = t[BIO_OPEN_W] + t[BIO_WRITE] + t[BIO_CLOSE_W];
    double tr = t[BIO_OPEN_R] + t[BIO_READ] + t[BIO_CLOSE_R];

    printf("  %4s %-8s", label, bio_method_name(m));
    for (int p = 0; p < BIO_NPHASES; p++)
        printf(" %9.6f", t[job_order[p]]);
    printf(" %10.1f %10.1f\n", bench_mibs(s->bytes, tr),
           bench_mibs(s->bytes, tw));
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
    printf("  verify  OK: every value read back as written, input and "
           "output, by every method in each of %d rep%s\n",
           reps + s->o->run.warmup, reps + s->o->run.warmup == 1 ? "" : "s");
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
