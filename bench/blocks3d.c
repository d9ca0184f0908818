/*
 * blocks3d.c -- the foundation benchmark: one global 3-D array of doubles
 * (z, y, x) cut into blocks, one block per MPI rank, written collectively
 * to one netCDF classic file and read back collectively.
 *
 * It uses nothing but the PnetCDF C API, so the same source builds against
 * ncpario and against any PnetCDF; only BENCH_LIB_NAME, a label for the
 * output, tells the two builds apart.
 *
 * What it promises:
 *  - every value it reads back is checked against the value it wrote (a
 *    pure function of the global index), in every repetition; one wrong
 *    value makes the exit status 1, whatever the timings;
 *  - a phase's time is the slowest rank's, each rank starting its clock
 *    after a barrier, and bandwidth is data bytes / that time;
 *  - "write" ends with ncmpi_close, so its bytes have reached the file
 *    system (its page cache: nothing is fsync'ed); "read" is open + get +
 *    close of that file, usually served from the same cache. The numbers
 *    measure the library and MPI-IO, not the disk.
 *
 * A library error is fatal: the program says which call failed and calls
 * MPI_Abort, because the other ranks may be waiting in a collective call
 * that would never complete. Bad arguments are seen identically by every
 * rank, so those end in an orderly exit with status 2.
 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <inttypes.h>
#include <mpi.h>
#include <pnetcdf.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench_common.h"

#ifndef BENCH_LIB_NAME
#define BENCH_LIB_NAME "ncpario"
#endif

enum { EXIT_USAGE = 2, MAX_REPORTED_MISMATCHES = 5 };

/* Phases timed in every repetition, in output order. */
enum { PH_DEFINE, PH_WRITE, PH_READ, PH_COUNT };

struct options {
    int64_t global[3];  /* z, y, x; 0 = derive from mib_per_rank */
    double mib_per_rank;
    const char *path;   /* -o; NULL = a fresh name in run.dir */
    struct bench_opts run;
};

/* The block of the global array that one rank owns. */
struct block {
    int grid[3];        /* process grid, z, y, x */
    int coord[3];       /* this rank's place in it */
    MPI_Offset start[3];
    MPI_Offset count[3];
    size_t nelems;
};

static void usage(FILE *to)
{
    fprintf(to,
        "usage: blocks3d [-n NX,NY,NZ | -s MiB] [-d dir] [-o file] [-r reps]\n"
        "                [-w warmup] [-f 1|2|5] [-k] [-q] [-c]\n"
        "  -n NX,NY,NZ  global array size (the variable is v(z,y,x))\n"
        "  -s MiB       data per rank instead, as a cube block (default 8)\n"
        "  -d dir       directory of the file (default /tmp)\n"
        "  -o file      the file itself (overrides -d)\n"
        "  -r reps      timed repetitions (default 3)\n"
        "  -w warmup    untimed repetitions before them (default 0)\n"
        "  -f 1|2|5     CDF-1, CDF-2 (default) or CDF-5\n"
        "  -k           keep the file of the last repetition\n"
        "  -q           no human-readable report\n"
        "  -c           one CSV line per repetition:\n"
        "               lib,nprocs,dir,bytes,write_s,read_s,write_mibs,"
        "read_mibs\n");
}

/* "NX,NY,NZ" into global[] in z, y, x order. */
static int parse_sizes(const char *arg, int64_t global[3])
{
    char buf[128];
    char *field = buf;
    int ok = strlen(arg) < sizeof buf;

    if (ok)
        strcpy(buf, arg);
    for (int i = 0; i < 3 && ok; i++) {
        char *comma = strchr(field, ',');

        /* Exactly two commas: after the first and the second number. */
        ok = (comma == NULL) == (i == 2);
        if (ok && comma != NULL)
            *comma = '\0';
        /* Each length alone must not overflow a byte count; their product
         * is checked once the grid is known. */
        ok = ok &&
             bench_parse_int64(field, 1, INT64_MAX / 8, &global[2 - i]);
        if (comma != NULL)
            field = comma + 1;
    }
    return ok;
}

/* One of blocks3d's own options into o; 0 when its value is bad. */
static int apply_option(int c, const char *arg, void *own)
{
    struct options *o = own;
    char *end = NULL;

    switch (c) {
    case 'n':
        return parse_sizes(arg, o->global);
    case 's':
        errno = 0;
        o->mib_per_rank = strtod(arg, &end);
        o->global[0] = o->global[1] = o->global[2] = 0;
        return errno == 0 && end != arg && *end == '\0' &&
               o->mib_per_rank > 0.0 && o->mib_per_rank <= 1048576.0;
    case 'o':
        o->path = arg;
        return 1;
    default:
        return 0;
    }
}

/* 1 when the options are usable (or only -h was asked for), 0 after a
 * message on stderr. */
static int parse_options(int argc, char **argv, int rank, struct options *o)
{
    memset(o, 0, sizeof *o);
    o->mib_per_rank = 8.0;
    return bench_parse_options("blocks3d", argc, argv, "n:s:o:", rank, usage,
                               apply_option, o, &o->run);
}

/* The largest whole s with s*s*s <= n, by bisection: no libm needed. */
static int64_t cube_root_floor(int64_t n)
{
    int64_t lo = 0, hi = 2097152; /* 2^21, whose cube is 2^63 */

    while (hi - lo > 1) {
        int64_t mid = lo + (hi - lo) / 2;

        if (mid * mid * mid <= n)
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}

/* Sizes the global array (from -n, or a cube block of -s MiB per rank)
 * and finds this rank's block. 1 when the array's bytes can be counted in
 * 64 bits and a block's in size_t; every rank returns the same. */
static int decompose(const struct options *o, int rank, int nprocs,
                     int64_t global[3], struct block *b)
{
    int dims[3] = {0, 0, 0};
    int ok = 1;
    int64_t total = 1;

    MPI_Dims_create(nprocs, 3, dims);
    /* dims come largest first; giving the most processes to z keeps each
     * block's rows long, since x varies fastest in the file. */
    for (int d = 0; d < 3; d++)
        b->grid[d] = dims[d];
    b->coord[0] = rank / (dims[1] * dims[2]);
    b->coord[1] = (rank / dims[2]) % dims[1];
    b->coord[2] = rank % dims[2];

    if (o->global[0] == 0) {
        double elems = o->mib_per_rank * 1048576.0 / sizeof(double);
        int64_t side = cube_root_floor((int64_t)elems);

        /* The nearer of side and side + 1 to the requested volume. */
        if ((double)(side + 1) * (side + 1) * (side + 1) - elems <
            elems - (double)side * side * side)
            side++;
        if (side < 1)
            side = 1;
        for (int d = 0; d < 3; d++)
            global[d] = side * b->grid[d];
    } else {
        for (int d = 0; d < 3; d++)
            global[d] = o->global[d];
    }

    /* Checked on the global size, not the block, so that every rank
     * reaches the same verdict: a rank must not leave alone. A block never
     * exceeds the whole, so its two buffers' sizes cannot overflow either. */
    for (int d = 0; d < 3 && ok; d++) {
        if (global[d] > INT64_MAX / 8 / total)
            ok = 0;
        else
            total *= global[d];
    }
    if (ok && (uint64_t)total > SIZE_MAX / (2 * sizeof(double)))
        ok = 0;
    if (!ok && rank == 0)
        fprintf(stderr, "blocks3d: %" PRId64 " x %" PRId64 " x %" PRId64
                " doubles are too many to address\n",
                global[2], global[1], global[0]);

    b->nelems = 1;
    for (int d = 0; d < 3 && ok; d++) {
        bench_split_axis(global[d], b->grid[d], b->coord[d], &b->start[d],
                   &b->count[d]);
        b->nelems *= (size_t)b->count[d];
    }
    return ok;
}

/* The value stored at global index (z, y, x): its linear index plus one
 * half. Exact in a double below 2^52 elements, different at every index
 * (so a block read from the wrong place fails), and never 0 or negative
 * (so neither zeroed memory nor the -1 the read buffer starts as passes). */
static double value_at(const int64_t global[3], int64_t z, int64_t y,
                       int64_t x)
{
    return (double)((z * global[1] + y) * global[2] + x) + 0.5;
}

static void fill_block(const int64_t global[3], const struct block *b,
                       double *buf)
{
    size_t i = 0;

    for (MPI_Offset z = 0; z < b->count[0]; z++)
        for (MPI_Offset y = 0; y < b->count[1]; y++)
            for (MPI_Offset x = 0; x < b->count[2]; x++)
                buf[i++] = value_at(global, b->start[0] + z,
                                    b->start[1] + y, b->start[2] + x);
}

/* Number of wrong values in buf; reports the first few on stderr. */
static int64_t check_block(const int64_t global[3], const struct block *b,
                           const double *buf, int rank, int rep)
{
    size_t i = 0;
    int64_t bad = 0;

    for (MPI_Offset z = 0; z < b->count[0]; z++)
        for (MPI_Offset y = 0; y < b->count[1]; y++)
            for (MPI_Offset x = 0; x < b->count[2]; x++, i++) {
                int64_t gz = b->start[0] + z, gy = b->start[1] + y,
                        gx = b->start[2] + x;
                double want = value_at(global, gz, gy, gx);

                if (buf[i] == want)
                    continue;
                if (bad < MAX_REPORTED_MISMATCHES)
                    fprintf(stderr, "blocks3d: rank %d rep %d: v(%" PRId64
                            ",%" PRId64 ",%" PRId64 ") = %.17g, expected "
                            "%.17g\n", rank, rep, gz, gy, gx, buf[i], want);
                bad++;
            }
    return bad;
}

static void require(int err, const char *what, int rank, MPI_Comm comm)
{
    bench_require("blocks3d", err, what, rank, comm);
}

/* One repetition: create + define, write + close, open + read + close,
 * each timed on this rank from a common barrier. */
static void run_once(const char *path, const struct options *o,
                     const int64_t global[3], const struct block *b,
                     const double *wbuf, double *rbuf, double t[PH_COUNT],
                     int rank, MPI_Comm comm)
{
    static const char *const dimnames[3] = {"z", "y", "x"};
    static const char title[] = "blocks3d benchmark: v = linear index + 0.5";
    int ncid = -1, varid = -1, dimids[3];
    double t0;

    MPI_Barrier(comm);
    t0 = MPI_Wtime();
    require(ncmpi_create(comm, path, bench_create_mode(o->run.format),
                         MPI_INFO_NULL, &ncid), "ncmpi_create", rank, comm);
    for (int d = 0; d < 3; d++)
        require(ncmpi_def_dim(ncid, dimnames[d], (MPI_Offset)global[d],
                              &dimids[d]), "ncmpi_def_dim", rank, comm);
    require(ncmpi_def_var(ncid, "v", NC_DOUBLE, 3, dimids, &varid),
            "ncmpi_def_var", rank, comm);
    require(ncmpi_put_att_text(ncid, NC_GLOBAL, "title",
                               (MPI_Offset)strlen(title), title),
            "ncmpi_put_att_text", rank, comm);
    require(ncmpi_enddef(ncid), "ncmpi_enddef", rank, comm);
    t[PH_DEFINE] = MPI_Wtime() - t0;

    MPI_Barrier(comm);
    t0 = MPI_Wtime();
    require(ncmpi_put_vara_double_all(ncid, varid, b->start, b->count, wbuf),
            "ncmpi_put_vara_double_all", rank, comm);
    require(ncmpi_close(ncid), "ncmpi_close after writing", rank, comm);
    t[PH_WRITE] = MPI_Wtime() - t0;

    /* A value the writer never stores, so a skipped element shows. */
    for (size_t i = 0; i < b->nelems; i++)
        rbuf[i] = -1.0;

    MPI_Barrier(comm);
    t0 = MPI_Wtime();
    require(ncmpi_open(comm, path, NC_NOWRITE, MPI_INFO_NULL, &ncid),
            "ncmpi_open", rank, comm);
    require(ncmpi_inq_varid(ncid, "v", &varid), "ncmpi_inq_varid", rank,
            comm);
    require(ncmpi_get_vara_double_all(ncid, varid, b->start, b->count, rbuf),
            "ncmpi_get_vara_double_all", rank, comm);
    require(ncmpi_close(ncid), "ncmpi_close after reading", rank, comm);
    t[PH_READ] = MPI_Wtime() - t0;
}

static void report_header(const struct options *o, const char *path,
                          const int64_t global[3], const struct block *b,
                          int nprocs, int64_t bytes, int64_t max_block)
{
    printf("blocks3d: %s build (library %s), %d rank%s, grid z,y,x = "
           "%dx%dx%d\n",
           BENCH_LIB_NAME, ncmpi_inq_libvers(), nprocs, nprocs == 1 ? "" : "s",
           b->grid[0], b->grid[1], b->grid[2]);
    printf("  array   double v(z=%" PRId64 ", y=%" PRId64 ", x=%" PRId64
           "), %s, %.2f MiB (largest block %.2f MiB)\n",
           global[0], global[1], global[2], bench_format_name(o->run.format),
           (double)bytes / 1048576.0, (double)max_block / 1048576.0);
    printf("  file    %s (%s)\n", path,
           o->run.keep ? "kept after the last rep" : "removed after each rep");
    if (o->run.warmup > 0)
        printf("  warmup  %d untimed rep%s before the timed ones\n",
               o->run.warmup, o->run.warmup == 1 ? "" : "s");
    printf("  %4s %10s %10s %10s %12s %12s\n", "rep", "define_s", "write_s",
           "read_s", "write_MiB/s", "read_MiB/s");
}

int main(int argc, char **argv)
{
    struct options o;
    struct block b;
    int64_t global[3];
    int rank = 0, nprocs = 1, status = 0;
    int64_t bytes, max_block = 0, block_bytes, bad_total = 0;
    double *wbuf = NULL, *rbuf = NULL, *tmax = NULL;
    char path[4096], dir[4096];
    long pid;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nprocs);

    if (!parse_options(argc, argv, rank, &o)) {
        status = EXIT_USAGE;
        goto done;
    }
    if (o.run.help)
        goto done;
    if (!decompose(&o, rank, nprocs, global, &b)) {
        status = EXIT_USAGE;
        goto done;
    }
    bytes = global[0] * global[1] * global[2] * (int64_t)sizeof(double);

    /* Every rank must name the same file: rank 0's pid makes it unique. */
    pid = (long)getpid();
    MPI_Bcast(&pid, 1, MPI_LONG, 0, MPI_COMM_WORLD);
    if (o.path != NULL)
        snprintf(path, sizeof path, "%s", o.path);
    else
        snprintf(path, sizeof path, "%s/blocks3d.%s.%ld.nc", o.run.dir,
                 BENCH_LIB_NAME, pid);
    bench_dir_of(path, dir, sizeof dir);
    if (o.run.csv && strpbrk(dir, ",\n") != NULL) {
        if (rank == 0)
            fprintf(stderr, "blocks3d: -c needs a directory without ',' "
                    "or newline\n");
        status = EXIT_USAGE;
        goto done;
    }

    /* Allocation failure is local; agree on it before any collective I/O. */
    wbuf = malloc((b.nelems ? b.nelems : 1) * sizeof *wbuf);
    rbuf = malloc((b.nelems ? b.nelems : 1) * sizeof *rbuf);
    tmax = malloc((size_t)o.run.reps * PH_COUNT * sizeof *tmax);
    status = (wbuf == NULL || rbuf == NULL || tmax == NULL);
    MPI_Allreduce(MPI_IN_PLACE, &status, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (status != 0) {
        if (rank == 0)
            fprintf(stderr, "blocks3d: out of memory for the blocks\n");
        goto done;
    }
    fill_block(global, &b, wbuf);

    block_bytes = (int64_t)b.nelems * (int64_t)sizeof(double);
    MPI_Reduce(&block_bytes, &max_block, 1, MPI_INT64_T, MPI_MAX, 0,
               MPI_COMM_WORLD);
    if (rank == 0 && !o.run.quiet)
        report_header(&o, path, global, &b, nprocs, bytes, max_block);

    /* Warm-up repetitions are numbered 1 - warmup .. 0: run and verified
     * like the others, but neither printed nor counted. */
    for (int rep = 1 - o.run.warmup; rep <= o.run.reps && bad_total == 0;
         rep++) {
        double t[PH_COUNT], warm[PH_COUNT];
        double *tm = rep >= 1 ? tmax + (size_t)(rep - 1) * PH_COUNT : warm;
        int64_t bad;

        run_once(path, &o, global, &b, wbuf, rbuf, t, rank, MPI_COMM_WORLD);
        bad = check_block(global, &b, rbuf, rank, rep);
        MPI_Allreduce(&bad, &bad_total, 1, MPI_INT64_T, MPI_SUM,
                      MPI_COMM_WORLD);
        MPI_Reduce(t, tm, PH_COUNT, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);

        if (rank == 0 && rep >= 1 && !o.run.quiet)
            printf("  %4d %10.6f %10.6f %10.6f %12.1f %12.1f\n", rep,
                   tm[PH_DEFINE], tm[PH_WRITE], tm[PH_READ],
                   bench_mibs(bytes, tm[PH_WRITE]),
                   bench_mibs(bytes, tm[PH_READ]));
        if (rank == 0 && rep >= 1 && o.run.csv && bad_total == 0)
            printf("%s,%d,%s,%" PRId64 ",%.6f,%.6f,%.2f,%.2f\n",
                   BENCH_LIB_NAME, nprocs, dir, bytes, tm[PH_WRITE],
                   tm[PH_READ], bench_mibs(bytes, tm[PH_WRITE]),
                   bench_mibs(bytes, tm[PH_READ]));
        if (rank == 0 &&
            !(o.run.keep && (rep == o.run.reps || bad_total != 0)))
            remove(path);
        fflush(stdout);
        MPI_Barrier(MPI_COMM_WORLD);
    }

    if (bad_total != 0) {
        if (rank == 0)
            fprintf(stderr, "blocks3d: FAILED: %" PRId64 " wrong value%s "
                    "read back%s\n", bad_total, bad_total == 1 ? "" : "s",
                    o.run.keep ? "; file kept" : "");
        status = 1;
    } else if (rank == 0 && !o.run.quiet) {
        double med[PH_COUNT], *col = malloc((size_t)o.run.reps * sizeof *col);

        for (int p = 0; p < PH_COUNT && col != NULL; p++) {
            for (int r = 0; r < o.run.reps; r++)
                col[r] = tmax[(size_t)r * PH_COUNT + p];
            med[p] = bench_median(col, o.run.reps);
        }
        if (col != NULL && o.run.reps > 1)
            printf("  %4s %10.6f %10.6f %10.6f %12.1f %12.1f\n", "med",
                   med[PH_DEFINE], med[PH_WRITE], med[PH_READ],
                   bench_mibs(bytes, med[PH_WRITE]),
                   bench_mibs(bytes, med[PH_READ]));
        free(col);
        printf("  verify  OK: all %" PRId64 " values read back as written, "
               "in each of %d rep%s\n", bytes / (int64_t)sizeof(double),
               o.run.reps + o.run.warmup,
               o.run.reps + o.run.warmup == 1 ? "" : "s");
    }
    fflush(stdout);

done:
    free(wbuf);
    free(rbuf);
    free(tmax);
    MPI_Finalize();
    return status;
}
