/* ncp-test: NO_CDL RANKS 1 2 4 */
/* t_bcast_chunks -- headers and attributes that reach the other ranks in
 * many broadcasts.  MPI counts are ints, so ncpario broadcasts header
 * bytes (at open and at enddef's comparison) and safe mode's arguments in
 * pieces of at most nc_bcast_chunk_size bytes; a 2 GiB attribute takes
 * several pieces of the default 1 GiB.  Here the hint is 1000 bytes, so a
 * 320 KiB attribute takes hundreds, and every rank must still read rank
 * 0's values, with safe mode off (<main>.nc) and on (<main>_safe.nc).
 * PnetCDF ignores the hint; its files must be the same.  A hint of 0 is
 * ignored (the default applies), as bad values of PnetCDF's own keys are.
 */
#define _POSIX_C_SOURCE 200809L /* setenv, unsetenv */
#include "testutil.h"

#define NATT 40000 /* doubles: 320,000 bytes */

static void write_file(const char *path, MPI_Info info, const double *att)
{
    int nc, d, v;

    CHECK_ERR(ncmpi_create(MPI_COMM_WORLD, path, NC_CLOBBER | NC_64BIT_DATA,
                           info, &nc));
    CHECK_ERR(ncmpi_set_fill(nc, NC_FILL, NULL)); /* a whole file */
    CHECK_ERR(ncmpi_def_dim(nc, "x", 3, &d));
    CHECK_ERR(ncmpi_def_var(nc, "v", NC_INT, 1, &d, &v));
    CHECK_ERR(ncmpi_put_att_double(nc, v, "big", NC_DOUBLE, NATT, att));
    CHECK_ERR(ncmpi_put_att_text(nc, NC_GLOBAL, "title", 5, "chunk"));
    CHECK_ERR(ncmpi_enddef(nc));
    CHECK_ERR(ncmpi_close(nc));
}

static void read_file(const char *path, MPI_Info info, const double *att,
                      double *got)
{
    int nc, i, bad = 0;
    MPI_Offset len = 0;

    CHECK_ERR(ncmpi_open(MPI_COMM_WORLD, path, NC_NOWRITE, info, &nc));
    CHECK_ERR(ncmpi_inq_attlen(nc, 0, "big", &len));
    CHECK(len == NATT);
    CHECK_ERR(ncmpi_get_att_double(nc, 0, "big", got));
    for (i = 0; i < NATT; i++)
        bad += got[i] != att[i];
    CHECKF(bad == 0, "%s: %d attribute values differ", path, bad);
    CHECK_ERR(ncmpi_close(nc));
}

int main(int argc, char **argv)
{
    static double att[NATT], got[NATT];
    char safe[4096];
    const char *path;
    MPI_Info info;
    int i;

    tu_init(&argc, &argv);
    path = tu_main_path(argc, argv);
    CHECK(path != NULL);
    if (!path) return tu_finish("t_bcast_chunks");
    tu_sibling(safe, sizeof safe, path, "_safe.nc");
    for (i = 0; i < NATT; i++)
        att[i] = i * 0.25 - 7.0;
    MPI_Info_create(&info);
    MPI_Info_set(info, "nc_bcast_chunk_size", "1000");
    write_file(path, info, att);
    read_file(path, info, att, got);
    setenv("PNETCDF_SAFE_MODE", "1", 1);
    write_file(safe, info, att);
    read_file(safe, info, att, got);
    unsetenv("PNETCDF_SAFE_MODE");
    MPI_Info_set(info, "nc_bcast_chunk_size", "0");
    read_file(path, info, att, got);
    MPI_Info_free(&info);
    return tu_finish("t_bcast_chunks");
}
