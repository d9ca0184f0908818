/*
 * write_sample.c -- writes a small file through ncpario's public API for
 * the tools' tests: a record variable, a fixed one, a scalar and text,
 * each rank writing its own rows.  An optional second argument is added to
 * temp[1][2][3], so that two runs make files that differ in one element.
 * The header leaves 200 bytes of free room (ncmpi__enddef's h_minfree).
 *
 *   mpirun -np N write_sample FILE [DELTA [RECORD]]
 */
#include <stdio.h>
#include <stdlib.h>

#include <pnetcdf.h>

#define NY 4
#define NX 6
#define NT 3

/* err, after naming in *where the call that failed, so that a broken
 * sample says which step broke instead of leaving a tool's test to
 * puzzle over a half-written file. */
static int note(int err, const char *what, const char **where)
{
    if (err != NC_NOERR) *where = what;
    return err;
}

static int write_file(const char *path, double delta, int drec,
                      const char **where)
{
    int ncid, dims[3], vt, vc, vs, vn, err, rank, nprocs, t, y, x;
    double temp[NY][NX];
    int count[NY][NX];
    MPI_Offset st[3], ct[3], y0, ny;

    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
    err = note(ncmpi_create(MPI_COMM_WORLD, path,
                            NC_CLOBBER | NC_64BIT_OFFSET, MPI_INFO_NULL,
                            &ncid),
               "ncmpi_create", where);
    if (err != NC_NOERR) return err;
    err = note(ncmpi_def_dim(ncid, "time", NC_UNLIMITED, &dims[0]),
               "ncmpi_def_dim time", where);
    if (err == NC_NOERR)
        err = note(ncmpi_def_dim(ncid, "y", NY, &dims[1]),
                   "ncmpi_def_dim y", where);
    if (err == NC_NOERR)
        err = note(ncmpi_def_dim(ncid, "x", NX, &dims[2]),
                   "ncmpi_def_dim x", where);
    if (err == NC_NOERR)
        err = note(ncmpi_def_var(ncid, "temp", NC_DOUBLE, 3, dims, &vt),
                   "ncmpi_def_var temp", where);
    if (err == NC_NOERR)
        err = note(ncmpi_put_att_text(ncid, vt, "units", 1, "K"),
                   "ncmpi_put_att_text temp:units", where);
    if (err == NC_NOERR)
        err = note(ncmpi_def_var(ncid, "count", NC_INT, 2, dims + 1, &vc),
                   "ncmpi_def_var count", where);
    if (err == NC_NOERR)
        err = note(ncmpi_def_var(ncid, "scale", NC_FLOAT, 0, NULL, &vs),
                   "ncmpi_def_var scale", where);
    if (err == NC_NOERR)
        err = note(ncmpi_def_var(ncid, "label", NC_CHAR, 1, dims + 2, &vn),
                   "ncmpi_def_var label", where);
    if (err == NC_NOERR)
        err = note(ncmpi_put_att_text(ncid, NC_GLOBAL, "title", 6, "sample"),
                   "ncmpi_put_att_text title", where);
    if (err == NC_NOERR)
        err = note(ncmpi__enddef(ncid, 200, 4, 0, 4), "ncmpi__enddef",
                   where);
    /* rows of y split over the ranks; a rank past the end writes none */
    y0 = (MPI_Offset)rank * ((NY + nprocs - 1) / nprocs);
    ny = y0 >= NY ? 0 : (NY - y0 < (NY + nprocs - 1) / nprocs
                             ? NY - y0 : (NY + nprocs - 1) / nprocs);
    if (y0 > NY) y0 = NY;
    for (t = 0; t < NT && err == NC_NOERR; t++) {
        for (y = 0; y < NY; y++)
            for (x = 0; x < NX; x++) {
                temp[y][x] = t * 100 + y * 10 + x + 0.5;
                if (t == drec && y == 2 && x == 3) temp[y][x] += delta;
                count[y][x] = y * NX + x;
            }
        st[0] = t, st[1] = y0, st[2] = 0;
        ct[0] = 1, ct[1] = ny, ct[2] = NX;
        err = note(ncmpi_put_vara_double_all(ncid, vt, st, ct, &temp[y0][0]),
                   "ncmpi_put_vara_double_all temp", where);
        if (err == NC_NOERR && t == 0)
            err = note(ncmpi_put_vara_int_all(ncid, vc, st + 1, ct + 1,
                                              &count[y0][0]),
                       "ncmpi_put_vara_int_all count", where);
    }
    if (err == NC_NOERR) {
        float s = 2.5f;
        MPI_Offset s0 = 0, c0 = rank == 0 ? NX : 0;
        err = note(ncmpi_begin_indep_data(ncid), "ncmpi_begin_indep_data",
                   where);
        if (err == NC_NOERR && rank == 0)
            err = note(ncmpi_put_var_float(ncid, vs, &s),
                       "ncmpi_put_var_float scale", where);
        if (err == NC_NOERR && rank == 0)
            err = note(ncmpi_put_vara_text(ncid, vn, &s0, &c0, "abc\"d\\"),
                       "ncmpi_put_vara_text label", where);
        if (err == NC_NOERR)
            err = note(ncmpi_end_indep_data(ncid), "ncmpi_end_indep_data",
                       where);
    }
    if (err == NC_NOERR) err = note(ncmpi_close(ncid), "ncmpi_close", where);
    else ncmpi_close(ncid);
    return err;
}

int main(int argc, char **argv)
{
    int err = NC_EINVAL;
    const char *where = "";
    MPI_Init(&argc, &argv);
    if (argc < 2) {
        fprintf(stderr, "usage: write_sample FILE [DELTA [RECORD]]\n");
    } else {
        err = write_file(argv[1], argc > 2 ? atof(argv[2]) : 0.0,
                         argc > 3 ? atoi(argv[3]) : 1, &where);
        if (err != NC_NOERR)
            fprintf(stderr, "write_sample: %s: %s\n", where,
                    ncmpi_strerror(err));
    }
    MPI_Finalize();
    return err == NC_NOERR ? 0 : 1;
}
