/*
 * indep_restart.c -- an ocean model's restart written the independent
 * way: NV fixed-size double variables of NZ x NY x NX (v(z,y,x)), the
 * y-x plane cut over a px x py process layout (MPI_Dims_create(P, 2),
 * px >= py, rank r at column r % px of row r / px), every rank writing
 * its subdomain of each variable with one ncmpi_put_vara_double between
 * ncmpi_begin_indep_data and ncmpi_end_indep_data.  Each rank's rows are
 * NX / px doubles, interleaved with its neighbours' in the file, so a
 * library either writes many small pieces or patches them into larger
 * spans.  Built against ncpario (indep_restart) and PnetCDF
 * (indep_restart_pnetcdf) from this one source.
 *
 * Options (beside the common -d dir, -f format, -r reps, -w warmup, -q,
 * -c): -g NX,NY,NZ (default 480,320,20), -v NV (default 8).
 * The time is the slowest rank's from begin_indep_data to the return of
 * end_indep_data, after a barrier, median over the repetitions; every
 * value is read back (collectively) and checked.  With -c a line
 *   csv,indep_restart,<lib>,g<NX>x<NY>x<NZ>_v<NV>,indep,<P>,write,
 *   <bytes>,<median_s>,<min_s>,<max_s>,<MiB/s>
 * as the bio programs print.  Exit 1 on a failed call or a wrong value.
 */
#define _POSIX_C_SOURCE 200809L /* strtok_r */
#include <mpi.h>
#include <pnetcdf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_common.h"

#define MAX_REPS 1000

struct options {
    struct bench_opts run;
    int64_t g[3]; /* NX, NY, NZ */
    int64_t nv;
};

static void usage(FILE *f)
{
    fprintf(f, "usage: indep_restart [-g NX,NY,NZ] [-v nvars] [-d dir] "
               "[-f 1|2|5] [-r reps] [-w warmup] [-q] [-c]\n");
}

static int apply_option(int c, const char *arg, void *own)
{
    struct options *o = own;
    char buf[96], *save = NULL, *t;
    int i = 0;
    if (c == 'v') return bench_parse_int64(arg, 1, 1000, &o->nv);
    if (c != 'g' || strlen(arg) >= sizeof buf) return 0;
    strcpy(buf, arg);
    for (t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save))
        if (i > 2 || !bench_parse_int64(t, 1, 1 << 20, &o->g[i++])) return 0;
    return i == 3;
}

/* This rank's subdomain: start and count in (z, y, x). */
static void subdomain(const struct options *o, int rank, int nprocs,
                      MPI_Offset st[3], MPI_Offset ct[3])
{
    int dims[2] = {0, 0};
    MPI_Dims_create(nprocs, 2, dims);
    st[0] = 0;
    ct[0] = o->g[2];
    bench_split_axis(o->g[1], dims[1], rank / dims[0], &st[1], &ct[1]);
    bench_split_axis(o->g[0], dims[0], rank % dims[0], &st[2], &ct[2]);
}

static double value_at(int v, MPI_Offset z, MPI_Offset y, MPI_Offset x)
{
    return v * 1e9 + z * 1e6 + y * 1e3 + x;
}

static void fill(double *a, int v, const MPI_Offset st[3],
                 const MPI_Offset ct[3])
{
    MPI_Offset z, y, x, i = 0;
    for (z = 0; z < ct[0]; z++)
        for (y = 0; y < ct[1]; y++)
            for (x = 0; x < ct[2]; x++)
                a[i++] = value_at(v, st[0] + z, st[1] + y, st[2] + x);
}

/* One repetition: create, define, the timed independent writes, a
 * checked read back, close.  Returns the timed seconds (this rank's) or
 * -1 on a wrong value. */
static double one_rep(const struct options *o, const char *path, int rank,
                      int nprocs, double *a, double *b)
{
    MPI_Offset st[3], ct[3], n;
    int nc, d[3], *var = malloc((size_t)o->nv * sizeof(int)), v, bad = 0;
    double t0, t;
    subdomain(o, rank, nprocs, st, ct);
    n = ct[0] * ct[1] * ct[2];
    bench_require("indep_restart",
                  ncmpi_create(MPI_COMM_WORLD, path,
                               bench_create_mode(o->run.format),
                               MPI_INFO_NULL, &nc),
                  "ncmpi_create", rank, MPI_COMM_WORLD);
    ncmpi_def_dim(nc, "z", o->g[2], &d[0]);
    ncmpi_def_dim(nc, "y", o->g[1], &d[1]);
    ncmpi_def_dim(nc, "x", o->g[0], &d[2]);
    for (v = 0; v < o->nv; v++) {
        char name[16];
        snprintf(name, sizeof name, "v%d", v);
        ncmpi_def_var(nc, name, NC_DOUBLE, 3, d, &var[v]);
    }
    ncmpi_set_fill(nc, NC_NOFILL, NULL);
    bench_require("indep_restart", ncmpi_enddef(nc), "ncmpi_enddef", rank,
                  MPI_COMM_WORLD);
    fill(a, 0, st, ct);
    MPI_Barrier(MPI_COMM_WORLD);
    t0 = MPI_Wtime();
    ncmpi_begin_indep_data(nc);
    for (v = 0; v < o->nv; v++) {
        if (v > 0) fill(a, v, st, ct); /* counted: as a model would */
        bench_require("indep_restart",
                      ncmpi_put_vara_double(nc, var[v], st, ct, a),
                      "ncmpi_put_vara_double", rank, MPI_COMM_WORLD);
    }
    bench_require("indep_restart", ncmpi_end_indep_data(nc),
                  "ncmpi_end_indep_data", rank, MPI_COMM_WORLD);
    t = MPI_Wtime() - t0;
    for (v = 0; v < o->nv; v++) {
        MPI_Offset i;
        ncmpi_get_vara_double_all(nc, var[v], st, ct, b);
        fill(a, v, st, ct);
        for (i = 0; i < n; i++) bad += a[i] != b[i];
    }
    ncmpi_close(nc);
    free(var);
    return bad ? -1 : t;
}

static void report(const struct options *o, int nprocs, double *t, int n)
{
    double lo = t[0], hi = t[0], med;
    int64_t bytes = o->g[0] * o->g[1] * o->g[2] * 8 * o->nv;
    int i;
    for (i = 1; i < n; i++) {
        if (t[i] < lo) lo = t[i];
        if (t[i] > hi) hi = t[i];
    }
    med = bench_median(t, n);
    if (o->run.csv)
        printf("csv,indep_restart,%s,g%lldx%lldx%lld_v%lld,indep,%d,write,"
               "%lld,%.6f,%.6f,%.6f,%.1f\n",
               BENCH_LIB_NAME, (long long)o->g[0], (long long)o->g[1],
               (long long)o->g[2], (long long)o->nv, nprocs,
               (long long)bytes, med, lo, hi, bench_mibs(bytes, med));
    if (!o->run.quiet)
        printf("indep_restart %s: %d ranks, %lld bytes, median %.4f s "
               "(%.1f MiB/s)\n",
               BENCH_LIB_NAME, nprocs, (long long)bytes, med,
               bench_mibs(bytes, med));
}

int main(int argc, char **argv)
{
    struct options o = {.g = {480, 320, 20}, .nv = 8};
    double times[MAX_REPS], *a = NULL, *b = NULL;
    char path[4096];
    int rank, nprocs, r, n = 0, bad = 0;
    MPI_Offset st[3], ct[3];
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
    if (!bench_parse_options("indep_restart", argc, argv, "g:v:", rank,
                             usage, apply_option, &o, &o.run) ||
        o.run.help || o.run.reps > MAX_REPS) {
        MPI_Finalize();
        return o.run.help ? 0 : 2;
    }
    subdomain(&o, rank, nprocs, st, ct);
    a = malloc((size_t)(ct[0] * ct[1] * ct[2]) * sizeof(double) + 1);
    b = malloc((size_t)(ct[0] * ct[1] * ct[2]) * sizeof(double) + 1);
    snprintf(path, sizeof path, "%s/indep_restart.%s.nc", o.run.dir,
             BENCH_LIB_NAME);
    for (r = 0; r < o.run.warmup + o.run.reps; r++) {
        double t = one_rep(&o, path, rank, nprocs, a, b), most;
        int wrong = t < 0, any;
        MPI_Allreduce(&wrong, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
        MPI_Allreduce(&t, &most, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
        bad |= any;
        if (r >= o.run.warmup) times[n++] = most;
    }
    if (rank == 0 && !o.run.keep) remove(path);
    if (rank == 0 && bad) fprintf(stderr, "indep_restart: wrong values\n");
    if (rank == 0 && !bad) report(&o, nprocs, times, n);
    free(a);
    free(b);
    MPI_Finalize();
    return bad;
}
