/*
 * python_overhead_c.c -- the C side of bench/python_overhead.py: the
 * same calls the Python side makes, timed the same way.
 *
 * usage: mpirun -np P python_overhead_c -d DIR [-n SMALL] [-s BYTES]
 *                                        [-r REPS]
 *
 * SMALL collective puts of one double each (put_vara_double_all), then
 * REPS collective puts of BYTES per rank (one contiguous block each);
 * prints one line
 *   result small_us=<per call, max over ranks> large_s=<median seconds>
 * Exit 0 on success, 1 on a library error, 2 on bad usage.
 */
#define _POSIX_C_SOURCE 200809L /* getopt, unlink under strict C11 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <mpi.h>
#include <pnetcdf.h>

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static int usage(int rank)
{
    if (rank == 0)
        fprintf(stderr, "usage: python_overhead_c -d DIR [-n SMALL] "
                        "[-s BYTES] [-r REPS]\n");
    MPI_Finalize();
    return 2;
}

int main(int argc, char **argv)
{
    int rank, np, opt, ncid, dims[2], vs, vl, err = NC_NOERR, reps = 3;
    long long nsmall = 10000, bytes = 64LL << 20;
    const char *dir = NULL;
    char path[4096];

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    while ((opt = getopt(argc, argv, "d:n:s:r:")) != -1) {
        switch (opt) {
        case 'd': dir = optarg; break;
        case 'n': nsmall = atoll(optarg); break;
        case 's': bytes = atoll(optarg); break;
        case 'r': reps = atoi(optarg); break;
        default: return usage(rank);
        }
    }
    if (!dir || nsmall < 1 || bytes < 8 || reps < 1 || reps > 1000)
        return usage(rank);
    MPI_Offset nlarge = (MPI_Offset)(bytes / 8);
    snprintf(path, sizeof path, "%s/python_overhead_c.nc", dir);

    double *big = malloc((size_t)nlarge * sizeof *big);
    if (!big)
        MPI_Abort(MPI_COMM_WORLD, 1);
    for (MPI_Offset i = 0; i < nlarge; i++)
        big[i] = (double)i;

#define CK(call) do { if (err == NC_NOERR) err = (call); } while (0)
    CK(ncmpi_create(MPI_COMM_WORLD, path, NC_CLOBBER | NC_64BIT_DATA,
                    MPI_INFO_NULL, &ncid));
    CK(ncmpi_def_dim(ncid, "s", (MPI_Offset)nsmall * np, &dims[0]));
    CK(ncmpi_def_dim(ncid, "l", nlarge * np, &dims[1]));
    CK(ncmpi_def_var(ncid, "small", NC_DOUBLE, 1, &dims[0], &vs));
    CK(ncmpi_def_var(ncid, "large", NC_DOUBLE, 1, &dims[1], &vl));
    CK(ncmpi_enddef(ncid));

    double one = 1.0, t0, t_small, *t_large = malloc(reps * sizeof(double));
    MPI_Barrier(MPI_COMM_WORLD);
    t0 = MPI_Wtime();
    for (long long i = 0; i < nsmall && err == NC_NOERR; i++) {
        MPI_Offset start = (MPI_Offset)rank * nsmall + i, count = 1;
        CK(ncmpi_put_vara_double_all(ncid, vs, &start, &count, &one));
    }
    t_small = MPI_Wtime() - t0;
    MPI_Allreduce(MPI_IN_PLACE, &t_small, 1, MPI_DOUBLE, MPI_MAX,
                  MPI_COMM_WORLD);

    for (int r = 0; r < reps; r++) {
        MPI_Offset start = (MPI_Offset)rank * nlarge, count = nlarge;
        MPI_Barrier(MPI_COMM_WORLD);
        t0 = MPI_Wtime();
        CK(ncmpi_put_vara_double_all(ncid, vl, &start, &count, big));
        t_large[r] = MPI_Wtime() - t0;
        MPI_Allreduce(MPI_IN_PLACE, &t_large[r], 1, MPI_DOUBLE, MPI_MAX,
                      MPI_COMM_WORLD);
    }
    CK(ncmpi_close(ncid));
    qsort(t_large, reps, sizeof(double), cmp_double);
    if (err != NC_NOERR)
        fprintf(stderr, "python_overhead_c: %s\n", ncmpi_strerror(err));
    else if (rank == 0)
        printf("result small_us=%.4f large_s=%.6f\n",
               t_small / nsmall * 1e6, t_large[reps / 2]);
    if (rank == 0)
        unlink(path);
    free(big);
    free(t_large);
    MPI_Finalize();
    return err != NC_NOERR;
}
