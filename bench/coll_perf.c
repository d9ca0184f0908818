/*
 * coll_perf.c -- the collective test of seed 000 (section III.A): NVARS
 * three-dimensional int variables, each cut into blocks over a 3-D process
 * grid, EDGE^3 elements per rank, written and read back by three methods
 * in turn:
 *
 *   pervar  one collective call per variable (ncmpi_put_vara_int_all);
 *   mput    one explicit multi-variable call (ncmpi_mput_vara_int_all);
 *   iput    one nonblocking call per variable, then ncmpi_wait_all.
 *
 * With -i the calls are the independent ones (ncmpi_put_vara_int,
 * ncmpi_mput_vara_int, ncmpi_wait) between begin/end_indep_data.
 *
 * Fixed-size variables are v(z, y, x), written in one step. Record
 * variables are v(t, z, y, x), written one record per step, as a time-
 * stepping code writes them: per step each method writes every variable's
 * block of that record, so record data of different variables interleave
 * in the file and the per-variable method makes NVARS small collective
 * calls per step.
 *
 * Like blocks3d.c it uses only the PnetCDF C API and builds against both
 * ncpario and PnetCDF. What it promises:
 *  - every value read back is checked against the value written (a pure
 *    function of variable, record and global index), by every method in
 *    every repetition; a wrong value makes the exit status 1;
 *  - a phase's time is the slowest rank's, each rank starting its clock
 *    after a barrier: define = create + definitions + enddef, write = the
 *    data calls of every step + close, read = open + data calls + close;
 *  - the methods take turns, the first method of each repetition rotating,
 *    so that none profits from always following another;
 *  - -M measures peak memory: the largest rise of the resident set over
 *    its size before the data calls of a step, while they run (Linux's
 *    VmHWM, reset through /proc/self/clear_refs), max over ranks. It reads
 *    /proc inside the timed region, so time and memory runs are separate.
 *    With glibc, -M also makes every allocation of 64 KiB or more a fresh
 *    mapping returned at free: glibc otherwise keeps freed blocks resident
 *    and hands them out again, and an allocation that reuses them would
 *    not raise the high-water mark, so any repetition after the first
 *    would look free of cost.
 */
#define _POSIX_C_SOURCE 200809L

#include <inttypes.h>
#include <mpi.h>
#include <pnetcdf.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench_common.h"

#if defined(__GLIBC__)
#include <malloc.h>
#endif

#if defined(__has_include)
#if __has_include(<ncpario.h>)
#include <ncpario.h>
#define HAVE_NCPARIO_PROFILE 1
#endif
#endif

#ifndef BENCH_LIB_NAME
#define BENCH_LIB_NAME "ncpario"
#endif

enum {
    EXIT_USAGE = 2,
    MAX_VARS = 1000,
    MAX_EDGE = 1024,
    MAX_RECS = 1000,
    MAX_REPORTED_MISMATCHES = 5
};

enum method { M_PERVAR, M_MPUT, M_IPUT, M_COUNT };
static const char *const method_names[M_COUNT] = {"pervar", "mput", "iput"};

/* Per method and repetition: the slowest rank's times, the largest
 * memory rise (KiB, -1 when not measured) and the MPI-IO calls made. */
enum {
    R_DEFINE, R_WRITE, R_READ, R_WPEAK_KIB, R_RPEAK_KIB, R_WCALLS, R_RCALLS,
    R_COUNT
};

struct options {
    int nvars;
    int edge;
    int nrecs;          /* 0: fixed-size variables */
    unsigned methods;   /* bit per enum method */
    int memory;
    int indep;          /* independent data mode instead of collective */
    struct bench_opts run;
};

/* Where this rank's block lies and what it holds. */
struct setup {
    const struct options *o;
    int rank, nprocs;
    MPI_Comm comm;
    int grid[3], coord[3];
    int64_t global[3];          /* z, y, x */
    MPI_Offset start[4];        /* [t,] z, y, x; t is set per step */
    MPI_Offset count[4];
    int ndims;                  /* 3 fixed, 4 record */
    int nsteps;                 /* 1 fixed, nrecs record */
    size_t step_elems;          /* one variable's block for one step */
    int **wbuf, **rbuf;         /* [nvars][nsteps * step_elems] */
    int *varids;
    int64_t bytes;              /* all ranks, all variables, all steps */
};

static void usage(FILE *to)
{
    fprintf(to,
        "usage: coll_perf [-v nvars] [-e edge] [-t recs] [-m methods]\n"
        "                 [-d dir] [-r reps] [-w warmup] [-f 1|2|5] [-i]\n"
        "                 [-M] [-k] [-q] [-c]\n"
        "  -v nvars    number of int variables (default 10)\n"
        "  -e edge     block of edge^3 elements per rank and variable "
        "(default 32)\n"
        "  -t recs     record variables with recs records, one per step\n"
        "              (default: fixed-size variables)\n"
        "  -m methods  comma-separated subset of pervar,mput,iput "
        "(default all)\n"
        "  -d dir      directory of the files (default /tmp)\n"
        "  -r reps     timed repetitions (default 3)\n"
        "  -w warmup   untimed repetitions before them (default 0)\n"
        "  -f 1|2|5    CDF-1, CDF-2 (default) or CDF-5\n"
        "  -i          independent data calls (ncmpi_begin_indep_data,\n"
        "              ncmpi_put_vara_int, ncmpi_mput_vara_int, ncmpi_wait)\n"
        "              instead of collective ones\n"
        "  -M          measure peak memory during the data calls\n"
        "  -k          keep the files of the last repetition\n"
        "  -q          no human-readable report\n"
        "  -c          one CSV line per method and repetition:\n"
        "              csv,lib,nprocs,dir,kind,nvars,edge,method,bytes,"
        "write_s,read_s,\n"
        "              write_peak_kib,read_peak_kib,mpiio_writes,"
        "mpiio_reads\n");
}

static int parse_methods(const char *arg, unsigned *out)
{
    char buf[64];
    char *save = NULL;
    int ok = strlen(arg) < sizeof buf;

    *out = 0;
    if (!ok)
        return 0;
    strcpy(buf, arg);
    for (char *m = strtok_r(buf, ",", &save); m != NULL && ok;
         m = strtok_r(NULL, ",", &save)) {
        int found = 0;

        for (int i = 0; i < M_COUNT; i++)
            if (strcmp(m, method_names[i]) == 0) {
                *out |= 1u << i;
                found = 1;
            }
        ok = found;
    }
    return ok && *out != 0;
}

/* One of coll_perf's own options into o; 0 when its value is bad. */
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
    case 't':
        ok = bench_parse_int64(arg, 1, MAX_RECS, &v);
        o->nrecs = (int)v;
        break;
    case 'm':
        ok = parse_methods(arg, &o->methods);
        break;
    case 'i':
        o->indep = 1;
        break;
    case 'M':
        o->memory = 1;
        break;
    default:
        ok = 0;
    }
    return ok;
}

/* 1 when the options are usable (or only -h was asked for), 0 after a
 * message on stderr. */
static int parse_options(int argc, char **argv, int rank, struct options *o)
{
    memset(o, 0, sizeof *o);
    o->nvars = 10;
    o->edge = 32;
    o->methods = (1u << M_COUNT) - 1;
    return bench_parse_options("coll_perf", argc, argv, "v:e:t:m:iM", rank,
                               usage, apply_option, o, &o->run);
}

/* The process grid, this rank's block and the byte counts. Every block is
 * edge^3, so the global array grows with the ranks, as in the seed. */
static void decompose(struct setup *s)
{
    int dims[3] = {0, 0, 0};
    int e = s->o->edge, t = s->o->nrecs > 0;

    MPI_Dims_create(s->nprocs, 3, dims);
    for (int d = 0; d < 3; d++) {
        s->grid[d] = dims[d];
        s->global[d] = (int64_t)e * dims[d];
    }
    s->coord[0] = s->rank / (dims[1] * dims[2]);
    s->coord[1] = (s->rank / dims[2]) % dims[1];
    s->coord[2] = s->rank % dims[2];
    s->ndims = 3 + t;
    s->nsteps = t ? s->o->nrecs : 1;
    if (t) {
        s->start[0] = 0;
        s->count[0] = 1;
    }
    for (int d = 0; d < 3; d++)
        bench_split_axis(s->global[d], s->grid[d], s->coord[d],
                         &s->start[t + d], &s->count[t + d]);
    s->step_elems = (size_t)e * (size_t)e * (size_t)e;
    s->bytes = (int64_t)s->step_elems * (int64_t)sizeof(int) *
               s->o->nvars * s->nsteps * s->nprocs;
}

/* The value of variable v at record rec and global (z, y, x): a hash of
 * the linear index that differs between variables at the same place (so a
 * block of the wrong variable fails) and is never negative (so the -1 the
 * read buffers start as never passes). */
static int value_at(const struct setup *s, int v, int64_t rec, int64_t z,
                    int64_t y, int64_t x)
{
    uint64_t lin = (uint64_t)(((rec * s->global[0] + z) * s->global[1] + y) *
                              s->global[2] + x);

    return (int)((lin * 2654435761u + (uint64_t)v * 97u) & 0x7fffffffu);
}

/* Visits every element of this rank's block of variable v over all steps,
 * in buffer order: fills it (check == 0) or counts wrong values. */
static int64_t walk_block(const struct setup *s, int v, int *buf, int check,
                          int rep)
{
    int t = s->ndims - 3;
    size_t i = 0;
    int64_t bad = 0;

    for (int step = 0; step < s->nsteps; step++)
        for (MPI_Offset z = 0; z < s->count[t]; z++)
            for (MPI_Offset y = 0; y < s->count[t + 1]; y++)
                for (MPI_Offset x = 0; x < s->count[t + 2]; x++, i++) {
                    int64_t gz = s->start[t] + z, gy = s->start[t + 1] + y,
                            gx = s->start[t + 2] + x;
                    int want = value_at(s, v, step, gz, gy, gx);

                    if (!check) {
                        buf[i] = want;
                        continue;
                    }
                    if (buf[i] == want)
                        continue;
                    if (bad < MAX_REPORTED_MISMATCHES)
                        fprintf(stderr, "coll_perf: rank %d rep %d: v%02d"
                                "(%d,%" PRId64 ",%" PRId64 ",%" PRId64
                                ") = %d, expected %d\n", s->rank, rep, v,
                                step, gz, gy, gx, buf[i], want);
                    bad++;
                }
    return bad;
}

static void require(const struct setup *s, int err, const char *what)
{
    bench_require("coll_perf", err, what, s->rank, s->comm);
}

static void define_file(const struct setup *s, const char *path, int *ncid)
{
    static const char *const dimnames[4] = {"t", "z", "y", "x"};
    int dimids[4], t = s->ndims - 3;
    char name[16];

    require(s, ncmpi_create(s->comm, path, bench_create_mode(s->o->run.format),
                            MPI_INFO_NULL, ncid), "ncmpi_create");
    if (t)
        require(s, ncmpi_def_dim(*ncid, "t", NC_UNLIMITED, &dimids[0]),
                "ncmpi_def_dim");
    for (int d = 0; d < 3; d++)
        require(s, ncmpi_def_dim(*ncid, dimnames[1 + d],
                                 (MPI_Offset)s->global[d], &dimids[t + d]),
                "ncmpi_def_dim");
    for (int v = 0; v < s->o->nvars; v++) {
        snprintf(name, sizeof name, "v%02d", v);
        require(s, ncmpi_def_var(*ncid, name, NC_INT, s->ndims, dimids,
                                 &s->varids[v]), "ncmpi_def_var");
    }
    require(s, ncmpi_enddef(*ncid), "ncmpi_enddef");
}

/* One variable's block by one call, collective unless -i. */
static int vara_call(const struct setup *s, int ncid, int v,
                     const MPI_Offset *start, int *buf, int is_put)
{
    const MPI_Offset *count = s->count;
    int id = s->varids[v];

    if (is_put)
        return s->o->indep ? ncmpi_put_vara_int(ncid, id, start, count, buf)
                           : ncmpi_put_vara_int_all(ncid, id, start, count,
                                                    buf);
    return s->o->indep ? ncmpi_get_vara_int(ncid, id, start, count, buf)
                       : ncmpi_get_vara_int_all(ncid, id, start, count, buf);
}

/* Every variable's block by one multi-variable call. */
static int multi_call(const struct setup *s, int ncid, MPI_Offset **starts,
                      MPI_Offset **counts, int **bufs, int is_put)
{
    int n = s->o->nvars, *ids = s->varids;

    if (is_put)
        return s->o->indep
                   ? ncmpi_mput_vara_int(ncid, n, ids, starts, counts, bufs)
                   : ncmpi_mput_vara_int_all(ncid, n, ids, starts, counts,
                                             bufs);
    return s->o->indep
               ? ncmpi_mget_vara_int(ncid, n, ids, starts, counts, bufs)
               : ncmpi_mget_vara_int_all(ncid, n, ids, starts, counts, bufs);
}

/* Every variable's block posted, then one wait for all of them. */
static void nonblocking_step(const struct setup *s, int ncid,
                             const MPI_Offset *start, int **bufs, int is_put)
{
    int n = s->o->nvars;
    int *req = malloc((size_t)n * sizeof *req);
    int *st = malloc((size_t)n * sizeof *st);

    if (req == NULL || st == NULL)
        require(s, NC_ENOMEM, "malloc");
    for (int v = 0; v < n; v++)
        require(s, is_put ? ncmpi_iput_vara_int(ncid, s->varids[v], start,
                                                s->count, bufs[v], &req[v])
                          : ncmpi_iget_vara_int(ncid, s->varids[v], start,
                                                s->count, bufs[v], &req[v]),
                is_put ? "ncmpi_iput_vara_int" : "ncmpi_iget_vara_int");
    require(s, s->o->indep ? ncmpi_wait(ncid, n, req, st)
                           : ncmpi_wait_all(ncid, n, req, st),
            "ncmpi_wait_all");
    for (int v = 0; v < n; v++)
        require(s, st[v], "a nonblocking request");
    free(req);
    free(st);
}

/* One step of writes (is_put) or reads by method m: every variable's block
 * of record `step` (fixed-size variables: the whole block). */
static void access_step(const struct setup *s, int ncid, enum method m,
                        int is_put, int step)
{
    int n = s->o->nvars;
    MPI_Offset start[4];
    MPI_Offset **starts = malloc((size_t)n * sizeof *starts);
    MPI_Offset **counts = malloc((size_t)n * sizeof *counts);
    int **bufs = malloc((size_t)n * sizeof *bufs);
    size_t off = (size_t)step * s->step_elems;

    if (starts == NULL || counts == NULL || bufs == NULL)
        require(s, NC_ENOMEM, "malloc");
    memcpy(start, s->start, sizeof start);
    if (s->ndims == 4)
        start[0] = step;
    for (int v = 0; v < n; v++) {
        bufs[v] = (is_put ? s->wbuf[v] : s->rbuf[v]) + off;
        starts[v] = start;
        counts[v] = (MPI_Offset *)s->count;
    }
    if (m == M_PERVAR)
        for (int v = 0; v < n; v++)
            require(s, vara_call(s, ncid, v, start, bufs[v], is_put),
                    is_put ? "ncmpi_put_vara_int" : "ncmpi_get_vara_int");
    else if (m == M_MPUT)
        require(s, multi_call(s, ncid, starts, counts, bufs, is_put),
                is_put ? "ncmpi_mput_vara_int" : "ncmpi_mget_vara_int");
    else
        nonblocking_step(s, ncid, start, bufs, is_put);
    free(starts);
    free(counts);
    free(bufs);
}

/* The MPI-IO calls the library made so far on ncid: {writes, reads};
 * -1 where the library has no counters. */
static void mpiio_calls(const struct setup *s, int ncid, double out[2])
{
#ifdef HAVE_NCPARIO_PROFILE
    ncpario_profile p;

    require(s, ncpario_inq_profile(ncid, &p), "ncpario_inq_profile");
    out[0] = (double)p.mpiio_write_calls;
    out[1] = (double)p.mpiio_read_calls;
#else
    (void)s;
    (void)ncid;
    out[0] = out[1] = -1.0;
#endif
}

/* All steps of writes or reads; with -M, the largest rise of the resident
 * set (KiB) during a step's data calls goes to *peak_kib. */
static void access_all(const struct setup *s, int ncid, enum method m,
                       int is_put, double *peak_kib)
{
    for (int step = 0; step < s->nsteps; step++) {
        long long before = -1, high;

        if (s->o->memory && bench_rss_reset_peak())
            before = bench_rss_kib("VmRSS");
        access_step(s, ncid, m, is_put, step);
        high = before >= 0 ? bench_rss_kib("VmHWM") : -1;
        if (high >= 0 && (double)(high - before) > *peak_kib)
            *peak_kib = (double)(high - before);
    }
}

/* One method, one repetition: define, write + close, open + read + close;
 * r[] gets this rank's R_* values. */
static void run_method(const struct setup *s, enum method m,
                       const char *path, double r[R_COUNT])
{
    int ncid = -1;
    double t0, calls[2];

    r[R_WPEAK_KIB] = r[R_RPEAK_KIB] = s->o->memory ? 0.0 : -1.0;
    MPI_Barrier(s->comm);
    t0 = MPI_Wtime();
    define_file(s, path, &ncid);
    r[R_DEFINE] = MPI_Wtime() - t0;

    MPI_Barrier(s->comm);
    t0 = MPI_Wtime();
    if (s->o->indep)
        require(s, ncmpi_begin_indep_data(ncid), "ncmpi_begin_indep_data");
    access_all(s, ncid, m, 1, &r[R_WPEAK_KIB]);
    if (s->o->indep)
        require(s, ncmpi_end_indep_data(ncid), "ncmpi_end_indep_data");
    mpiio_calls(s, ncid, calls);
    require(s, ncmpi_close(ncid), "ncmpi_close after writing");
    r[R_WRITE] = MPI_Wtime() - t0;
    r[R_WCALLS] = calls[0];

    for (int v = 0; v < s->o->nvars; v++)
        for (size_t i = 0; i < (size_t)s->nsteps * s->step_elems; i++)
            s->rbuf[v][i] = -1;

    MPI_Barrier(s->comm);
    t0 = MPI_Wtime();
    require(s, ncmpi_open(s->comm, path, NC_NOWRITE, MPI_INFO_NULL, &ncid),
            "ncmpi_open");
    if (s->o->indep)
        require(s, ncmpi_begin_indep_data(ncid), "ncmpi_begin_indep_data");
    access_all(s, ncid, m, 0, &r[R_RPEAK_KIB]);
    if (s->o->indep)
        require(s, ncmpi_end_indep_data(ncid), "ncmpi_end_indep_data");
    mpiio_calls(s, ncid, calls);
    require(s, ncmpi_close(ncid), "ncmpi_close after reading");
    r[R_READ] = MPI_Wtime() - t0;
    r[R_RCALLS] = calls[1];
}

static int64_t check_all(const struct setup *s, int rep)
{
    int64_t bad = 0;

    for (int v = 0; v < s->o->nvars; v++)
        bad += walk_block(s, v, s->rbuf[v], 1, rep);
    return bad;
}

/* Buffers for every variable; 1 when every rank got its own (and
 * `other`, a rank-local allocation made before, is not NULL either). */
static int allocate(struct setup *s, const void *other)
{
    size_t n = (size_t)s->nsteps * s->step_elems;
    int fail = other == NULL;

    s->varids = calloc((size_t)s->o->nvars, sizeof *s->varids);
    s->wbuf = calloc((size_t)s->o->nvars, sizeof *s->wbuf);
    s->rbuf = calloc((size_t)s->o->nvars, sizeof *s->rbuf);
    fail = fail || s->varids == NULL || s->wbuf == NULL || s->rbuf == NULL;
    for (int v = 0; v < s->o->nvars && !fail; v++) {
        s->wbuf[v] = malloc(n * sizeof(int));
        s->rbuf[v] = malloc(n * sizeof(int));
        fail = s->wbuf[v] == NULL || s->rbuf[v] == NULL;
        if (!fail)
            walk_block(s, v, s->wbuf[v], 0, 0);
    }
    MPI_Allreduce(MPI_IN_PLACE, &fail, 1, MPI_INT, MPI_MAX, s->comm);
    return !fail;
}

static void release(struct setup *s)
{
    for (int v = 0; v < s->o->nvars && s->wbuf != NULL; v++) {
        free(s->wbuf[v]);
        free(s->rbuf[v]);
    }
    free(s->wbuf);
    free(s->rbuf);
    free(s->varids);
}

static const char *kind_name(const struct setup *s)
{
    return s->ndims == 4 ? "record" : "fixed";
}

static void report_header(const struct setup *s, const char *stem)
{
    const struct options *o = s->o;
    int64_t step_bytes = s->bytes / s->nsteps;

    printf("coll_perf: %s build (library %s), %d rank%s, grid z,y,x = "
           "%dx%dx%d\n", BENCH_LIB_NAME, ncmpi_inq_libvers(), s->nprocs,
           s->nprocs == 1 ? "" : "s", s->grid[0], s->grid[1], s->grid[2]);
    printf("  vars    %d %s int variables v00..v%02d(%sz=%" PRId64 ", y=%"
           PRId64 ", x=%" PRId64 "), %d^3 per rank, %s\n", o->nvars,
           kind_name(s), o->nvars - 1, s->ndims == 4 ? "t, " : "",
           s->global[0], s->global[1], s->global[2], o->edge,
           bench_format_name(o->run.format));
    printf("  data    %.2f MiB per method and rep, in %d step%s of %.2f MiB "
           "(%.2f MiB per rank)\n", (double)s->bytes / 1048576.0, s->nsteps,
           s->nsteps == 1 ? "" : "s", (double)step_bytes / 1048576.0,
           (double)step_bytes / s->nprocs / 1048576.0);
    printf("  files   %s.<method>.nc (%s)\n", stem,
           o->run.keep ? "kept after the last rep" : "removed after each rep");
    printf("  %4s %-7s %9s %9s %9s %11s %11s %7s %7s %7s %7s\n", "rep",
           "method", "define_s", "write_s", "read_s", "write_MiB/s",
           "read_MiB/s", "mpiio_w", "mpiio_r", "wpeak_M", "rpeak_M");
}

static void print_row(const struct setup *s, const char *label, int m,
                      const double *r)
{
    char peak[2][32];

    for (int k = 0; k < 2; k++) {
        double kib = r[k == 0 ? R_WPEAK_KIB : R_RPEAK_KIB];

        if (kib >= 0)
            snprintf(peak[k], sizeof peak[k], "%7.2f", kib / 1024.0);
        else
            snprintf(peak[k], sizeof peak[k], "%7s", "-");
    }
    printf("  %4s %-7s %9.6f %9.6f %9.6f %11.1f %11.1f %7.0f %7.0f %s %s\n",
           label, method_names[m], r[R_DEFINE], r[R_WRITE], r[R_READ],
           bench_mibs(s->bytes, r[R_WRITE]), bench_mibs(s->bytes, r[R_READ]),
           r[R_WCALLS], r[R_RCALLS], peak[0], peak[1]);
}

static void print_csv(const struct setup *s, const char *dir, int m,
                      const double *r)
{
    printf("csv,%s,%d,%s,%s,%d,%d,%s,%" PRId64 ",%.6f,%.6f,%.0f,%.0f,%.0f,"
           "%.0f\n", BENCH_LIB_NAME, s->nprocs, dir, kind_name(s),
           s->o->nvars, s->o->edge, method_names[m], s->bytes, r[R_WRITE],
           r[R_READ], r[R_WPEAK_KIB], r[R_RPEAK_KIB], r[R_WCALLS],
           r[R_RCALLS]);
}

/* Median over the timed repetitions of each R_* column of method m (the
 * peak: the maximum) into med[]. */
static void summarize(const struct setup *s, const double *res, int m,
                      double med[R_COUNT])
{
    int n = s->o->run.reps;
    double *col = malloc((size_t)n * sizeof *col);

    for (int k = 0; k < R_COUNT; k++) {
        int is_peak = k == R_WPEAK_KIB || k == R_RPEAK_KIB;

        med[k] = res[((size_t)0 * M_COUNT + m) * R_COUNT + k];
        for (int rep = 0; rep < n && col != NULL; rep++) {
            double x = res[((size_t)rep * M_COUNT + m) * R_COUNT + k];

            col[rep] = x;
            if (is_peak && x > med[k])
                med[k] = x;
        }
        if (col != NULL && !is_peak)
            med[k] = bench_median(col, n);
    }
    free(col);
}

/* Runs every repetition; res[rep][method][R_*] gets the slowest rank's
 * values of the timed ones. Returns the number of wrong values. */
static int64_t run_all(const struct setup *s, const char *stem,
                       const char *dir, double *res)
{
    int64_t bad_total = 0;
    char path[4200];

    for (int rep = 1 - s->o->run.warmup;
         rep <= s->o->run.reps && !bad_total; rep++)
        for (int k = 0; k < M_COUNT && !bad_total; k++) {
            int m = (k + rep + M_COUNT * BENCH_MAX_REPS) % M_COUNT;
            double r[R_COUNT], rmax[R_COUNT], *out;
            int64_t bad;

            if (!(s->o->methods & (1u << m)))
                continue;
            snprintf(path, sizeof path, "%s.%s.nc", stem, method_names[m]);
            run_method(s, (enum method)m, path, r);
            bad = check_all(s, rep);
            MPI_Allreduce(&bad, &bad_total, 1, MPI_INT64_T, MPI_SUM,
                          s->comm);
            MPI_Reduce(r, rmax, R_COUNT, MPI_DOUBLE, MPI_MAX, 0, s->comm);
            if (s->rank == 0 &&
                !(s->o->run.keep && (rep == s->o->run.reps || bad_total != 0)))
                remove(path);
            if (rep < 1 || s->rank != 0)
                continue;
            out = res + ((size_t)(rep - 1) * M_COUNT + m) * R_COUNT;
            memcpy(out, rmax, sizeof rmax);
            if (!s->o->run.quiet) {
                char label[16];

                snprintf(label, sizeof label, "%d", rep);
                print_row(s, label, m, out);
            }
            if (s->o->run.csv && bad_total == 0)
                print_csv(s, dir, m, out);
            fflush(stdout);
        }
    return bad_total;
}

static void report_medians(const struct setup *s, const double *res)
{
    double med[R_COUNT];

    for (int m = 0; m < M_COUNT; m++) {
        if (!(s->o->methods & (1u << m)))
            continue;
        summarize(s, res, m, med);
        print_row(s, "med", m, med);
    }
    printf("  verify  OK: every value read back as written, by every "
           "method in each of %d rep%s\n", s->o->run.reps + s->o->run.warmup,
           s->o->run.reps + s->o->run.warmup == 1 ? "" : "s");
}

int main(int argc, char **argv)
{
    struct options o;
    struct setup s;
    int status = 0;
    double *res = NULL;
    char stem[4096], dir[4096];
    long pid;

    MPI_Init(&argc, &argv);
    memset(&s, 0, sizeof s);
    s.comm = MPI_COMM_WORLD;
    s.o = &o;
    MPI_Comm_rank(s.comm, &s.rank);
    MPI_Comm_size(s.comm, &s.nprocs);

    if (!parse_options(argc, argv, s.rank, &o)) {
        status = EXIT_USAGE;
        goto done;
    }
    if (o.run.help)
        goto done;
    decompose(&s);
#if defined(__GLIBC__)
    if (o.memory) {
        mallopt(M_MMAP_THRESHOLD, 64 * 1024);
        mallopt(M_TRIM_THRESHOLD, 64 * 1024);
    }
#endif

    pid = (long)getpid();
    MPI_Bcast(&pid, 1, MPI_LONG, 0, s.comm);
    snprintf(stem, sizeof stem, "%s/coll_perf.%s.%ld", o.run.dir,
             BENCH_LIB_NAME, pid);
    bench_dir_of(stem, dir, sizeof dir);
    if (o.run.csv && strpbrk(dir, ",\n") != NULL) {
        if (s.rank == 0)
            fprintf(stderr, "coll_perf: -c needs a directory without ',' "
                    "or newline\n");
        status = EXIT_USAGE;
        goto done;
    }
    res = calloc((size_t)o.run.reps * M_COUNT * R_COUNT, sizeof *res);
    if (!allocate(&s, res)) {
        if (s.rank == 0)
            fprintf(stderr, "coll_perf: out of memory for the buffers\n");
        status = 1;
        goto done;
    }
    if (s.rank == 0 && !o.run.quiet)
        report_header(&s, stem);

    if (run_all(&s, stem, dir, res) != 0) {
        if (s.rank == 0)
            fprintf(stderr, "coll_perf: FAILED: wrong values read back%s\n",
                    o.run.keep ? "; files kept" : "");
        status = 1;
    } else if (s.rank == 0 && !o.run.quiet) {
        report_medians(&s, res);
    }
    fflush(stdout);

done:
    release(&s);
    free(res);
    MPI_Finalize();
    return status;
}
