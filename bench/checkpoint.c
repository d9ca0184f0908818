/*
 * checkpoint.c -- a simulation's checkpoint loop: N times, a compute phase
 * (every rank spins on arithmetic for C seconds) and then a checkpoint of
 * the model state, timing how long each checkpoint blocks the program.
 * Built against ncpario (checkpoint) and PnetCDF (checkpoint_pnetcdf) from
 * this one source; write-behind, where a library has it, is its hints'
 * business (PNETCDF_HINTS), so the same binary measures both ways.
 *
 *   -p flash  each checkpoint a new file, as FLASH's: NV double variables
 *             v<i>(P, B, B, B), rank r's block at [r], all posted with
 *             iput_vara and written by one wait_all; the file is closed
 *             when the next checkpoint begins (and after the last), so
 *             a library that writes in the background has the compute
 *             phase to finish it
 *   -p btio   one file, as BTIO's: a record u(t, B, PY*B, PX*B) a
 *             checkpoint, each rank a B^3 block of the y-x plane (rows of
 *             B doubles interleaved with its neighbours'), put_vara_all;
 *             the file is closed after the last
 *
 * Options (beside the common -d dir, -f format, -q, -c, -k): -p flash|btio
 * (default flash), -b B (default 32), -v NV (flash, default 8), -n N
 * (default 4), -t C seconds of compute (default 0.5).  -r and -w are not
 * used: the checkpoints are the repetitions.
 *
 * Reported (slowest rank): each checkpoint's blocked time (from the
 * write's first call to its last's return; the values are made before,
 * in the compute phase's time), the whole loop's time (the
 * last close included), the compute alone (N x C), the overhead (whole
 * - compute), and the copy floor: the median time to copy one
 * checkpoint's bytes from memory to memory, which a call that must
 * leave the caller's buffer reusable cannot beat.  With -c:
 *   csv,checkpoint,<lib>,<pat>_b<B>_v<NV>_t<C>,<P>,<bytes>,
 *   <blocked median>,<blocked max>,<whole>,<compute>,<copy>
 * Every value of the last checkpoint is read back and checked; exit 1 on
 * a failed call or a wrong value.
 */
#include <mpi.h>
#include <pnetcdf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_common.h"

#define MAX_CKPT 1000

struct options {
    struct bench_opts run;
    int btio;
    int64_t b, nv, n;
    double t;
};

static int rank, nprocs;

static void usage(FILE *f)
{
    fprintf(f, "usage: checkpoint [-p flash|btio] [-b edge] [-v nvars] "
               "[-n checkpoints] [-t compute_s] [-d dir] [-f 1|2|5] [-k] "
               "[-q] [-c]\n");
}

static int apply_option(int c, const char *arg, void *own)
{
    struct options *o = own;
    char *end;
    switch (c) {
    case 'p':
        o->btio = strcmp(arg, "btio") == 0;
        return o->btio || strcmp(arg, "flash") == 0;
    case 'b': return bench_parse_int64(arg, 1, 1024, &o->b);
    case 'v': return bench_parse_int64(arg, 1, 1000, &o->nv);
    case 'n': return bench_parse_int64(arg, 1, MAX_CKPT, &o->n);
    case 't':
        o->t = strtod(arg, &end);
        return *end == '\0' && o->t >= 0 && o->t <= 3600;
    default: return 0;
    }
}

/* The compute phase: arithmetic until c seconds have passed. */
static double compute(double c)
{
    double t0 = MPI_Wtime(), x = 1.0;
    while (MPI_Wtime() - t0 < c) {
        int i;
        for (i = 0; i < 10000; i++) x = x * 1.0000001 + 1e-9;
    }
    return x;
}

/* Element i of variable v at checkpoint k on rank r. */
static double value(int64_t k, int64_t v, int r, int64_t i)
{
    return (double)((k * 7919 + v * 104729 + r * 1299709 + i) % 1000003);
}

static void fill(double *buf, int64_t n, int64_t k, int64_t v)
{
    int64_t i;
    for (i = 0; i < n; i++) buf[i] = value(k, v, rank, i);
}

/* btio: the process layout of the y-x plane and this rank's place. */
static void plane(int *px, int *py, int *cx, int *cy)
{
    int dims[2] = {0, 0};
    MPI_Dims_create(nprocs, 2, dims);
    *px = dims[0], *py = dims[1];
    *cx = rank % *px, *cy = rank / *px;
}

static void define(const struct options *o, int ncid, int *var)
{
    int d[4], v, px, py, cx, cy;
    char name[32];
    if (o->btio) {
        plane(&px, &py, &cx, &cy);
        ncmpi_def_dim(ncid, "t", NC_UNLIMITED, &d[0]);
        ncmpi_def_dim(ncid, "z", o->b, &d[1]);
        ncmpi_def_dim(ncid, "y", py * o->b, &d[2]);
        ncmpi_def_dim(ncid, "x", px * o->b, &d[3]);
        bench_require("checkpoint",
                      ncmpi_def_var(ncid, "u", NC_DOUBLE, 4, d, &var[0]),
                      "def_var", rank, MPI_COMM_WORLD);
    } else {
        ncmpi_def_dim(ncid, "block", nprocs, &d[0]);
        ncmpi_def_dim(ncid, "z", o->b, &d[1]);
        ncmpi_def_dim(ncid, "y", o->b, &d[2]);
        ncmpi_def_dim(ncid, "x", o->b, &d[3]);
        for (v = 0; v < o->nv; v++) {
            snprintf(name, sizeof name, "v%d", v);
            bench_require("checkpoint",
                          ncmpi_def_var(ncid, name, NC_DOUBLE, 4, d, &var[v]),
                          "def_var", rank, MPI_COMM_WORLD);
        }
    }
    bench_require("checkpoint", ncmpi_enddef(ncid), "enddef", rank,
                  MPI_COMM_WORLD);
}

/* This rank's block: start and count of variable 0 at checkpoint k. */
static void block(const struct options *o, int64_t k, MPI_Offset st[4],
                  MPI_Offset ct[4])
{
    int px, py, cx, cy;
    st[1] = 0, ct[0] = 1, ct[1] = ct[2] = ct[3] = o->b;
    if (o->btio) {
        plane(&px, &py, &cx, &cy);
        st[0] = k, st[2] = cy * o->b, st[3] = cx * o->b;
    } else {
        st[0] = rank, st[2] = st[3] = 0;
    }
}

static void file_name(const struct options *o, int64_t k, char *path,
                      size_t cap)
{
    if (o->btio)
        snprintf(path, cap, "%s/checkpoint.btio.nc", o->run.dir);
    else
        snprintf(path, cap, "%s/checkpoint.flash.%lld.nc", o->run.dir,
                 (long long)k);
}

/* The files written, unless -k keeps them (rank 0, after the check). */
static void remove_files(const struct options *o)
{
    char path[4096];
    int64_t k;
    for (k = 0; !o->run.keep && k < (o->btio ? 1 : o->n); k++) {
        file_name(o, k, path, sizeof path);
        remove(path);
    }
}

static int open_file(const struct options *o, int64_t k, int create,
                     int *ncid)
{
    char path[4096];
    file_name(o, k, path, sizeof path);
    return create ? ncmpi_create(MPI_COMM_WORLD, path,
                                 bench_create_mode(o->run.format),
                                 MPI_INFO_NULL, ncid)
                  : ncmpi_open(MPI_COMM_WORLD, path, NC_NOWRITE,
                               MPI_INFO_NULL, ncid);
}

/* Checkpoint k, timed from its first call to its last's return (the
 * values are made before: the model's state, not the checkpoint's
 * cost). */
static double write_checkpoint(const struct options *o, int64_t k, int *ncid,
                               int *var, double *buf, int *req, int *sts)
{
    MPI_Offset st[4], ct[4];
    int64_t n = o->b * o->b * o->b, v;
    double t0;
    int err = NC_NOERR;
    block(o, k, st, ct);
    for (v = 0; v < (o->btio ? 1 : o->nv); v++) fill(buf + v * n, n, k, v);
    t0 = MPI_Wtime();
    if (o->btio) {
        err = ncmpi_put_vara_double_all(*ncid, var[0], st, ct, buf);
    } else {
        if (k > 0) err = ncmpi_close(*ncid);
        if (err == NC_NOERR) err = open_file(o, k, 1, ncid);
        if (err == NC_NOERR) define(o, *ncid, var);
        for (v = 0; err == NC_NOERR && v < o->nv; v++)
            err = ncmpi_iput_vara_double(*ncid, var[v], st, ct, buf + v * n,
                                         &req[v]);
        if (err == NC_NOERR) err = ncmpi_wait_all(*ncid, (int)o->nv, req, sts);
    }
    bench_require("checkpoint", err, "write", rank, MPI_COMM_WORLD);
    return MPI_Wtime() - t0;
}

/* The last checkpoint's values, read back and compared; 1 when wrong. */
static int check_last(const struct options *o, double *buf)
{
    MPI_Offset st[4], ct[4];
    int64_t n = o->b * o->b * o->b, i, v, k = o->n - 1;
    int ncid, var, bad = 0;
    char name[32];
    bench_require("checkpoint", open_file(o, k, 0, &ncid), "open", rank,
                  MPI_COMM_WORLD);
    block(o, k, st, ct);
    for (v = 0; v < (o->btio ? 1 : o->nv); v++) {
        snprintf(name, sizeof name, o->btio ? "u" : "v%lld", (long long)v);
        bench_require("checkpoint", ncmpi_inq_varid(ncid, name, &var),
                      "inq_varid", rank, MPI_COMM_WORLD);
        bench_require("checkpoint",
                      ncmpi_get_vara_double_all(ncid, var, st, ct, buf),
                      "get", rank, MPI_COMM_WORLD);
        for (i = 0; i < n; i++) bad |= buf[i] != value(k, v, rank, i);
    }
    ncmpi_close(ncid);
    MPI_Allreduce(MPI_IN_PLACE, &bad, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    return bad;
}

/* The median of 5 copies of n doubles into warm memory: the floor. */
static double copy_floor(const double *src, int64_t n)
{
    double t[5], *dst = malloc((size_t)n * sizeof(double)), med;
    int i;
    if (!dst) return 0;
    memcpy(dst, src, (size_t)n * sizeof(double));
    for (i = 0; i < 5; i++) {
        double t0 = MPI_Wtime();
        memcpy(dst, src, (size_t)n * sizeof(double));
        t[i] = MPI_Wtime() - t0;
    }
    med = bench_median(t, 5) + dst[n - 1] * 0.0;
    free(dst);
    return med;
}

static void report(const struct options *o, double *blocked, double whole,
                   double copy)
{
    int64_t k, bytes = o->b * o->b * o->b * 8 * (o->btio ? 1 : o->nv) *
                       nprocs;
    double most = 0, compute_s = (double)o->n * o->t, med;
    for (k = 0; k < o->n; k++) {
        if (blocked[k] > most) most = blocked[k];
        if (!o->run.quiet)
            printf("checkpoint %lld: blocked %.4f s\n", (long long)k,
                   blocked[k]);
    }
    med = bench_median(blocked, (int)o->n);
    if (!o->run.quiet)
        printf("checkpoint %s %s: %d ranks, %lld bytes a checkpoint, "
               "blocked median %.4f s, whole %.4f s, compute %.4f s, "
               "overhead %.4f s, copy floor %.4f s\n", BENCH_LIB_NAME,
               o->btio ? "btio" : "flash", nprocs, (long long)bytes, med,
               whole, compute_s, whole - compute_s, copy);
    if (o->run.csv)
        printf("csv,checkpoint,%s,%s_b%lld_v%lld_t%g,%d,%lld,%.6f,%.6f,%.6f,"
               "%.6f,%.6f\n", BENCH_LIB_NAME, o->btio ? "btio" : "flash",
               (long long)o->b, (long long)(o->btio ? 1 : o->nv), o->t,
               nprocs, (long long)bytes, med, most, whole, compute_s, copy);
}

int main(int argc, char **argv)
{
    struct options o = {.btio = 0, .b = 32, .nv = 8, .n = 4, .t = 0.5};
    double blocked[MAX_CKPT], t0, whole, copy, *buf;
    int ncid = -1, var[1000], req[1000], sts[1000], bad;
    int64_t k, n;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
    if (!bench_parse_options("checkpoint", argc, argv, "p:b:v:n:t:", rank,
                             usage, apply_option, &o, &o.run)) {
        MPI_Finalize();
        return 2;
    }
    if (o.run.help) {
        MPI_Finalize();
        return 0;
    }
    n = o.b * o.b * o.b * (o.btio ? 1 : o.nv);
    buf = malloc((size_t)n * sizeof(double));
    if (!buf) bench_require("checkpoint", NC_ENOMEM, "malloc", rank,
                            MPI_COMM_WORLD);
    if (o.btio) {
        bench_require("checkpoint", open_file(&o, 0, 1, &ncid), "create",
                      rank, MPI_COMM_WORLD);
        define(&o, ncid, var);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    t0 = MPI_Wtime();
    for (k = 0; k < o.n; k++) {
        compute(o.t);
        blocked[k] = write_checkpoint(&o, k, &ncid, var, buf, req, sts);
    }
    bench_require("checkpoint", ncmpi_close(ncid), "close", rank,
                  MPI_COMM_WORLD);
    whole = MPI_Wtime() - t0;
    MPI_Allreduce(MPI_IN_PLACE, blocked, (int)o.n, MPI_DOUBLE, MPI_MAX,
                  MPI_COMM_WORLD);
    MPI_Allreduce(MPI_IN_PLACE, &whole, 1, MPI_DOUBLE, MPI_MAX,
                  MPI_COMM_WORLD);
    copy = copy_floor(buf, n);
    MPI_Allreduce(MPI_IN_PLACE, &copy, 1, MPI_DOUBLE, MPI_MAX,
                  MPI_COMM_WORLD);
    bad = check_last(&o, buf);
    if (rank == 0) report(&o, blocked, whole, copy);
    if (rank == 0 && bad) fprintf(stderr, "checkpoint: wrong values\n");
    if (rank == 0) remove_files(&o);
    free(buf);
    MPI_Finalize();
    return bad;
}
