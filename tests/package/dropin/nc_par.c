/*
 * nc_par.c -- a netCDF-C program of the kind that reaches PnetCDF through
 * netCDF-C's parallel path: nc_create_par of a CDF-5 file, a record and a
 * fixed variable written collectively, each rank its own columns, then
 * read back and checked.  Built against Debian's netCDF with PnetCDF
 * (pkg-config netcdf-pnetcdf); the drop-in test runs the one binary on
 * PnetCDF and on ncpario and compares the files.
 *
 *   mpirun -np N nc_par FILE
 */
#include <stdio.h>
#include <stdlib.h>

#include <mpi.h>
#include <netcdf.h>
#include <netcdf_par.h>

#define NX 6     /* columns per rank */
#define NT 3     /* records */

#define CHECK(call)                                                        \
    do {                                                                   \
        int err_ = (call);                                                 \
        if (err_ != NC_NOERR) {                                            \
            fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__,             \
                    nc_strerror(err_));                                    \
            MPI_Abort(MPI_COMM_WORLD, 1);                                  \
        }                                                                  \
    } while (0)

static void write_file(const char *path, int rank, int size)
{
    int nc, dt, dx, rec, fix, dims[2];
    size_t start[2], count[2];
    double row[NX];
    int col[NX], t, i;

    CHECK(nc_create_par(path, NC_CLOBBER | NC_64BIT_DATA, MPI_COMM_WORLD,
                        MPI_INFO_NULL, &nc));
    CHECK(nc_def_dim(nc, "time", NC_UNLIMITED, &dt));
    CHECK(nc_def_dim(nc, "x", (size_t)NX * size, &dx));
    dims[0] = dt;
    dims[1] = dx;
    CHECK(nc_def_var(nc, "rec", NC_DOUBLE, 2, dims, &rec));
    CHECK(nc_def_var(nc, "fix", NC_INT, 1, &dx, &fix));
    CHECK(nc_put_att_text(nc, NC_GLOBAL, "title", 6, "nc_par"));
    CHECK(nc_enddef(nc));
    CHECK(nc_var_par_access(nc, rec, NC_COLLECTIVE));
    CHECK(nc_var_par_access(nc, fix, NC_COLLECTIVE));
    for (i = 0; i < NX; i++) col[i] = rank * 100 + i;
    start[0] = (size_t)rank * NX;
    count[0] = NX;
    CHECK(nc_put_vara_int(nc, fix, start, count, col));
    for (t = 0; t < NT; t++) {
        for (i = 0; i < NX; i++) row[i] = t + 0.5 * (rank * NX + i);
        start[0] = (size_t)t;
        start[1] = (size_t)rank * NX;
        count[0] = 1;
        count[1] = NX;
        CHECK(nc_put_vara_double(nc, rec, start, count, row));
    }
    CHECK(nc_close(nc));
}

static int check_file(const char *path, int rank, int size)
{
    int nc, rec, t, i, bad = 0;
    size_t start[2] = {0, 0}, count[2] = {1, NX}, nrec;
    double row[NX];

    CHECK(nc_open_par(path, NC_NOWRITE, MPI_COMM_WORLD, MPI_INFO_NULL,
                      &nc));
    CHECK(nc_inq_dimlen(nc, 0, &nrec));
    CHECK(nc_inq_varid(nc, "rec", &rec));
    CHECK(nc_var_par_access(nc, rec, NC_COLLECTIVE));
    for (t = 0; t < NT; t++) {
        start[0] = (size_t)t;
        start[1] = (size_t)((rank + 1) % size) * NX; /* the next rank's */
        CHECK(nc_get_vara_double(nc, rec, start, count, row));
        for (i = 0; i < NX; i++)
            bad += row[i] != t + 0.5 * (((rank + 1) % size) * NX + i);
    }
    CHECK(nc_close(nc));
    return bad || nrec != NT;
}

int main(int argc, char **argv)
{
    int rank, size, bad;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (argc != 2) {
        if (rank == 0) fprintf(stderr, "usage: nc_par FILE\n");
        MPI_Finalize();
        return 2;
    }
    write_file(argv[1], rank, size);
    bad = check_file(argv[1], rank, size);
    MPI_Allreduce(MPI_IN_PLACE, &bad, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (rank == 0) printf("nc_par: %s\n", bad ? "FAIL" : "ok");
    MPI_Finalize();
    return bad;
}
