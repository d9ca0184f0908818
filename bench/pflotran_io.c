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

#include "bench_common.h"
#include "bio.h"

enum {
    EXIT_USAGE = 2,
    NDATASETS = 2,
    MAX_REPORTS = 5,
    PATH_LEN = 4096,            /* of <dir>/pflotran_io.<lib>.<pid> */
    STEM_LEN = PATH_LEN + 16    /* .<method>.in */
};

static const char *const prog = "pflotran_io";

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
    char base[PATH_LEN];        /* bio_file_base */
};

static void usage(FILE *to)
{
    fprintf(to,
        "usage: pflotran_io [-n cells] [-m methods] [-d dir] [-r reps]\n"
        "                   [-w warmup] [-f 1|2|5] [-k] [-q] [-c] [-h]\n"
        "  -n cells    cells per rank of both datasets (default 65536)\n");
    bio_usage_common(to, prog, 0, NULL);
}

static int apply_option(int c, const char *arg, void *own)
{
    struct options *o = own;

    if (c == 'n')
        return bench_parse_int64(arg, 1, INT_MAX, &o->ncells);
    if (c == 'm')
        return bio_parse_methods(arg, o->methods, &o->nmethods);
    return 0;
}

/* 1 when the options are usable (or only -h was asked for). */
static int parse_options(int argc, char **argv, int rank, struct options *o)
{
    memset(o, 0, sizeof *o);
    o->ncells = 65536;
    if (!bench_parse_options(prog, argc, argv, "n:m:", rank, usage,
                             apply_option, o, &o->run))
        return 0;
    return o->run.help ||
           bio_choose_methods(prog, o->methods, &o->nmethods, rank);
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
    err = bio_agree(comm, err);
    if (err != BIO_OK) {
        if (f != NULL)
            bio_close(f);
        return err;
    }
    t0 = bio_phase_start(comm);
    err = reading ? bio_read(f, reqs, NDATASETS, m)
                  : bio_write(f, reqs, NDATASETS, m);
    t[1] = bio_phase_end(comm, t0);
    err = bio_agree(comm, err);
    t0 = bio_phase_start(comm);
    cerr = bio_close(f);
    t[2] = bio_phase_end(comm, t0);
    cerr = bio_agree(comm, cerr);
    return err != BIO_OK ? err : cerr;
}

static void stem_of(const struct setup *s, enum bio_method m,
                    const char *which, char *out, size_t size)
{
    snprintf(out, size, "%s.%s.%s", s->base, bio_method_name(m), which);
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
 * status after a message. bio_bench's run. */
static int run_method(void *ctx, enum bio_method m, int rep,
                      double t[BIO_NPHASES])
{
    struct setup *s = ctx;
    char in[STEM_LEN], out[STEM_LEN];
    int status;

    stem_of(s, m, "in", in, sizeof in);
    stem_of(s, m, "out", out, sizeof out);
    memset(t, 0, BIO_NPHASES * sizeof *t);
    status = run_files(s, m, rep, in, out, t);
    if (!(s->o->run.keep && (rep == s->o->run.reps || status != 0))) {
        bio_remove(in, s->rank);
        bio_remove(out, s->rank);
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
    printf("  files   %s.<method>.in (written untimed first) and .out "
           "(%s)\n", s->base, o->run.keep ? "kept after the last rep"
                                          : "removed after each rep");
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
    /* The input is read before the output is written. */
    b = (struct bio_bench){.prog = prog, .casename = s.casename,
                           .rank = s.rank, .nprocs = s.nprocs,
                           .bytes = s.bytes, .methods = o.methods,
                           .nmethods = o.nmethods, .opts = &o.run,
                           .read_first = 1,
                           .verified = "every value read back as written, "
                                       "input and output",
                           .run = run_method, .ctx = &s};
    status = bio_bench_run(&b);

done:
    release(&s);
    MPI_Finalize();
    return status;
}
