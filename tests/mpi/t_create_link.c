/* ncp-test: NO_CDL RANKS 1 2 4 */
/* t_create_link -- creating through a symbolic link writes the link's
 * target and leaves the link in place.  The main file is written, then
 * rank 0 makes a link to it beside it (not named *.nc), and the file is
 * created again through the link with NC_CLOBBER, once through each I/O
 * driver: afterwards the link must still be a link naming the same
 * target, and the target must hold the second definition.  NC_NOCLOBBER
 * through the link to the existing file fails with NC_EEXIST and leaves
 * the file as it was.
 *
 * The nc_driver hint is ncpario's; PnetCDF ignores it and runs the same
 * checks through its one driver.
 */
#define _POSIX_C_SOURCE 200809L /* symlink, readlink, lstat */
#include <sys/stat.h>
#include <unistd.h>

#include "testutil.h"

#define NX 6

/* Defines one variable called name holding rank-independent values v. */
static void write_file(const char *path, int cmode, MPI_Info info,
                       const char *name, int v)
{
    int ncid, dimid, varid, i, buf[NX];
    MPI_Offset start = 0, count = NX;
    CHECK_ERR(ncmpi_create(MPI_COMM_WORLD, path, cmode, info, &ncid));
    CHECK_ERR(ncmpi_def_dim(ncid, "x", NX, &dimid));
    CHECK_ERR(ncmpi_def_var(ncid, name, NC_INT, 1, &dimid, &varid));
    CHECK_ERR(ncmpi_enddef(ncid));
    for (i = 0; i < NX; i++) buf[i] = v + i;
    if (tu_myrank != 0) count = 0;
    CHECK_ERR(ncmpi_put_vara_int_all(ncid, varid, &start, &count, buf));
    CHECK_ERR(ncmpi_close(ncid));
}

/* The file at path holds variable name with values v, v+1, ... */
static void check_file(const char *path, const char *name, int v)
{
    int ncid, varid, i, buf[NX];
    CHECK_ERR(ncmpi_open(MPI_COMM_WORLD, path, NC_NOWRITE, MPI_INFO_NULL,
                         &ncid));
    CHECK_ERR(ncmpi_inq_varid(ncid, name, &varid));
    for (i = 0; i < NX; i++) buf[i] = -1;
    CHECK_ERR(ncmpi_get_var_int_all(ncid, varid, buf));
    for (i = 0; i < NX; i++)
        CHECKF(buf[i] == v + i, "%s[%d] = %d, want %d", name, i, buf[i],
               v + i);
    CHECK_ERR(ncmpi_close(ncid));
}

/* Rank 0 checks that link is still a symbolic link naming target. */
static void check_link(const char *link, const char *target, const char *drv)
{
    struct stat st;
    char got[4096];
    ssize_t n;
    if (tu_myrank != 0) return;
    CHECKF(lstat(link, &st) == 0 && S_ISLNK(st.st_mode),
           "%s: the link is no longer a symbolic link", drv);
    n = readlink(link, got, sizeof got - 1);
    if (n < 0) n = 0;
    got[n] = '\0';
    CHECKF(strcmp(got, target) == 0, "%s: the link names %s, want %s", drv,
           got, target);
}

int main(int argc, char **argv)
{
    static const char *drivers[] = {"nc_driver=posix", "nc_driver=mpiio"};
    const char *path;
    char link[4096];
    int d, ncid;

    tu_init(&argc, &argv);
    path = tu_main_path(argc, argv);
    if (path == NULL) return tu_finish("t_create_link");
    snprintf(link, sizeof link, "%s.lnk", path);

    for (d = 0; d < 2; d++) {
        MPI_Info info;
        char key[64], val[64];
        sscanf(drivers[d], "%63[^=]=%63s", key, val);
        MPI_Info_create(&info);
        MPI_Info_set(info, key, val);

        write_file(path, NC_CLOBBER, info, "first", 10);
        if (tu_myrank == 0) {
            unlink(link);
            CHECK(symlink(path, link) == 0);
        }
        MPI_Barrier(MPI_COMM_WORLD);

        write_file(link, NC_CLOBBER, info, "second", 20 + d);
        check_link(link, path, drivers[d]);
        check_file(path, "second", 20 + d);

        EXPECT_ERR(ncmpi_create(MPI_COMM_WORLD, link, NC_NOCLOBBER, info,
                                &ncid),
                   NC_EEXIST);
        check_link(link, path, drivers[d]);
        check_file(path, "second", 20 + d);

        MPI_Barrier(MPI_COMM_WORLD);
        if (tu_myrank == 0) unlink(link);
        MPI_Info_free(&info);
    }
    return tu_finish("t_create_link");
}
