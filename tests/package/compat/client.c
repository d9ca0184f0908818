/*
 * client.c -- a PnetCDF program as a user of PnetCDF writes it: only
 * <pnetcdf.h> and -lpnetcdf. Each rank writes its row of a 2-D integer
 * variable, the file is reopened and every row read back and checked. It
 * prints the library's version string, which names ncpario when the
 * drop-in resolved to it.
 *
 *   client FILE
 */
#include <stdio.h>
#include <stdlib.h>

#include <mpi.h>
#include <pnetcdf.h>

#define NX 6

static int fail(const char *what, int err)
{
    fprintf(stderr, "client: %s: %s\n", what, ncmpi_strerror(err));
    return 1;
}

static int write_rows(const char *path, int rank, int nprocs)
{
    int ncid, dimids[2], varid, err, i, row[NX];
    MPI_Offset start[2] = {rank, 0}, count[2] = {1, NX};

    err = ncmpi_create(MPI_COMM_WORLD, path, NC_CLOBBER | NC_64BIT_DATA,
                       MPI_INFO_NULL, &ncid);
    if (err != NC_NOERR) return fail("create", err);
    err = ncmpi_def_dim(ncid, "y", nprocs, &dimids[0]);
    if (err == NC_NOERR) err = ncmpi_def_dim(ncid, "x", NX, &dimids[1]);
    if (err == NC_NOERR)
        err = ncmpi_def_var(ncid, "v", NC_INT, 2, dimids, &varid);
    if (err == NC_NOERR) err = ncmpi_enddef(ncid);
    if (err != NC_NOERR) return fail("define", err);
    for (i = 0; i < NX; i++) row[i] = rank * 100 + i;
    err = ncmpi_put_vara_int_all(ncid, varid, start, count, row);
    if (err != NC_NOERR) return fail("put", err);
    err = ncmpi_close(ncid);
    return err == NC_NOERR ? 0 : fail("close", err);
}

static int check_rows(const char *path, int nprocs)
{
    int ncid, varid, err, r, i, bad = 0;
    int *all = malloc(sizeof(int) * (size_t)nprocs * NX);

    if (all == NULL) return 1;
    err = ncmpi_open(MPI_COMM_WORLD, path, NC_NOWRITE, MPI_INFO_NULL, &ncid);
    if (err == NC_NOERR) err = ncmpi_inq_varid(ncid, "v", &varid);
    if (err == NC_NOERR) err = ncmpi_get_var_int_all(ncid, varid, all);
    if (err == NC_NOERR) err = ncmpi_close(ncid);
    if (err != NC_NOERR) {
        free(all);
        return fail("read back", err);
    }
    for (r = 0; r < nprocs; r++)
        for (i = 0; i < NX; i++)
            if (all[r * NX + i] != r * 100 + i) bad = 1;
    free(all);
    if (bad) fprintf(stderr, "client: values read back differ\n");
    return bad;
}

int main(int argc, char **argv)
{
    int rank, nprocs, rc = 1, any;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
    if (argc != 2) {
        if (rank == 0) fprintf(stderr, "usage: client FILE\n");
    } else {
        rc = write_rows(argv[1], rank, nprocs);
        if (rc == 0) rc = check_rows(argv[1], nprocs);
    }
    MPI_Allreduce(&rc, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (rank == 0)
        printf("client: %s, library %s\n", any ? "FAILED" : "ok",
               ncmpi_inq_libvers());
    MPI_Finalize();
    return any;
}
