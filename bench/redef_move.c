/*
 * redef_move.c -- what a redef that grows the header costs when it must
 * move the data: the time of the enddef that moves it.
 *
 * One file with two fixed-size double variables of SIZE/2 MiB each and a
 * few records is written once.  Then, REPS times: open, redef, a 1000-byte
 * global attribute (the header outgrows its 512-byte aligned extent, so
 * every variable moves), enddef, close.  The enddef is timed (the slowest
 * rank's), and every value is checked after the last move.  Built against
 * ncpario (redef_move) and PnetCDF (redef_move_pnetcdf) from this source;
 * ncpario's enddef also writes its rollback journal, which PnetCDF's has no
 * counterpart of.
 *
 * Usage: mpirun -np N redef_move [-d DIR] [-s MiB] [-r REPS]
 * Output: one line, "redef_move lib=L ranks=N mib=S reps=R enddef_s=MEDIAN
 * min=MIN max=MAX mib_per_s=RATE".
 */
#define _POSIX_C_SOURCE 200809L /* getopt */
#include <mpi.h>
#include <pnetcdf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench_common.h"

#define NREC 8
#define RECLEN 1024

static int rank, nranks;

static void must(int err, const char *what)
{
    if (err == NC_NOERR) return;
    fprintf(stderr, "redef_move: %s: %s\n", what, ncmpi_strerror(err));
    MPI_Abort(MPI_COMM_WORLD, 1);
}

static double value_at(int var, MPI_Offset i) { return var * 1e9 + (double)i; }

/* This rank's share of each fixed variable, written in pieces. */
static void write_fixed(int nc, int var, MPI_Offset n)
{
    enum { PIECE = 1 << 20 };
    double *buf = malloc(PIECE * sizeof *buf);
    MPI_Offset st, ct, off, k;
    bench_split_axis(n, nranks, rank, &st, &ct);
    for (off = 0; off < ct || off == 0; off += PIECE) {
        MPI_Offset s = st + off, c = ct - off < PIECE ? ct - off : PIECE;
        if (c < 0) c = 0;
        for (k = 0; k < c; k++) buf[k] = value_at(var, s + k);
        must(ncmpi_put_vara_double_all(nc, var, &s, &c, buf), "put");
        if (ct == 0) break;
    }
    free(buf);
}

static void make_file(const char *path, MPI_Offset n)
{
    int nc, dx, dt, dr, dims[2], va, vb, vr;
    double rec[RECLEN] = {0};
    MPI_Offset st[2] = {0, 0}, ct[2] = {1, RECLEN};
    must(ncmpi_create(MPI_COMM_WORLD, path, NC_CLOBBER | NC_64BIT_DATA,
                      MPI_INFO_NULL, &nc), "create");
    must(ncmpi_def_dim(nc, "x", n, &dx), "def_dim");
    must(ncmpi_def_dim(nc, "t", NC_UNLIMITED, &dt), "def_dim");
    must(ncmpi_def_dim(nc, "r", RECLEN, &dr), "def_dim");
    must(ncmpi_def_var(nc, "a", NC_DOUBLE, 1, &dx, &va), "def_var");
    must(ncmpi_def_var(nc, "b", NC_DOUBLE, 1, &dx, &vb), "def_var");
    dims[0] = dt;
    dims[1] = dr;
    must(ncmpi_def_var(nc, "rec", NC_DOUBLE, 2, dims, &vr), "def_var");
    must(ncmpi_enddef(nc), "enddef");
    write_fixed(nc, va, n);
    write_fixed(nc, vb, n);
    for (st[0] = 0; st[0] < NREC; st[0]++) {
        ct[0] = rank == 0;
        must(ncmpi_put_vara_double_all(nc, vr, st, ct, rec), "put rec");
    }
    must(ncmpi_close(nc), "close");
}

/* One grown redef; returns the slowest rank's enddef seconds. */
static double one_move(const char *path, int k)
{
    char name[32], text[1000];
    int nc;
    double t0, t, worst;
    memset(text, 'h', sizeof text);
    snprintf(name, sizeof name, "grow%03d", k);
    must(ncmpi_open(MPI_COMM_WORLD, path, NC_WRITE, MPI_INFO_NULL, &nc),
         "open");
    must(ncmpi_redef(nc), "redef");
    must(ncmpi_put_att_text(nc, NC_GLOBAL, name, sizeof text, text), "att");
    MPI_Barrier(MPI_COMM_WORLD);
    t0 = MPI_Wtime();
    must(ncmpi_enddef(nc), "enddef");
    t = MPI_Wtime() - t0;
    must(ncmpi_close(nc), "close");
    MPI_Allreduce(&t, &worst, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    return worst;
}

/* Every value of a and b where it was written: the moves lost nothing. */
static void check(const char *path, MPI_Offset n)
{
    enum { PIECE = 1 << 20 };
    double *buf = malloc(PIECE * sizeof *buf);
    MPI_Offset st, ct, off, k, bad = 0, all = 0;
    int nc, var;
    must(ncmpi_open(MPI_COMM_WORLD, path, NC_NOWRITE, MPI_INFO_NULL, &nc),
         "open");
    bench_split_axis(n, nranks, rank, &st, &ct);
    for (var = 0; var < 2; var++)
        for (off = 0; off < ct; off += PIECE) {
            MPI_Offset s = st + off, c = ct - off < PIECE ? ct - off : PIECE;
            must(ncmpi_get_vara_double_all(nc, var, &s, &c, buf), "get");
            for (k = 0; k < c; k++) bad += buf[k] != value_at(var, s + k);
        }
    must(ncmpi_close(nc), "close");
    MPI_Allreduce(&bad, &all, 1, MPI_OFFSET, MPI_SUM, MPI_COMM_WORLD);
    if (all != 0) {
        if (rank == 0) fprintf(stderr, "redef_move: %lld values wrong\n",
                               (long long)all);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    free(buf);
}

int main(int argc, char **argv)
{
    const char *dir = "/tmp";
    char path[4096];
    int64_t mib = 1024, reps = 3, k;
    double *t;
    int c;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nranks);
    while ((c = getopt(argc, argv, "d:s:r:")) != -1) {
        if (c == 'd') dir = optarg;
        else if (c == 's' && bench_parse_int64(optarg, 1, 1 << 20, &mib)) ;
        else if (c == 'r' && bench_parse_int64(optarg, 1, 1000, &reps)) ;
        else {
            if (rank == 0)
                fprintf(stderr, "usage: redef_move [-d DIR] [-s MiB] "
                                "[-r REPS]\n");
            MPI_Finalize();
            return 2;
        }
    }
    snprintf(path, sizeof path, "%s/redef_move_%s.nc", dir, BENCH_LIB_NAME);
    make_file(path, (MPI_Offset)mib * 1024 * 1024 / 16);
    t = malloc((size_t)reps * sizeof *t);
    for (k = 0; k < reps; k++) t[k] = one_move(path, (int)k);
    check(path, (MPI_Offset)mib * 1024 * 1024 / 16);
    if (rank == 0) {
        double lo = t[0], hi = t[0], med;
        for (k = 1; k < reps; k++) {
            if (t[k] < lo) lo = t[k];
            if (t[k] > hi) hi = t[k];
        }
        med = bench_median(t, (int)reps);
        printf("redef_move lib=%s ranks=%d mib=%lld reps=%lld enddef_s=%.4f "
               "min=%.4f max=%.4f mib_per_s=%.1f\n", BENCH_LIB_NAME, nranks,
               (long long)mib, (long long)reps, med, lo, hi,
               bench_mibs(mib << 20, med));
        unlink(path);
    }
    free(t);
    MPI_Finalize();
    return 0;
}
