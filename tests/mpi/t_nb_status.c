/* ncp-test: NO_PNETCDF_CMP NO_CDL RANKS 1 2 4 */
/* t_nb_status -- what a wait reports and what it leaves behind:
 *   - an iput with out-of-range values: the post returns NC_ERANGE, the
 *     request stays posted and its status is clean (as in PnetCDF), the
 *     in-range values are written and the others hold the fill value;
 *   - nc_in_place_swap=enable: a small put's buffer holds its values when
 *     the wait returns (swapped in place and back, or by the posix driver
 *     as it copies: t_swap_defer);
 *   - a request never waited for is cancelled by close (NC_EPENDING).
 * Each rank works on its own row v(rank, x).
 */
#include "testutil.h"

#define NX 6

int main(int argc, char **argv)
{
    int nc, dr, dx, dims[2], v, w, req[2], st[2], x, got[NX], ib[NX], ok = 1;
    double db[NX];
    MPI_Offset s[2], c[2] = {1, NX};
    MPI_Info info;
    const char *path;

    tu_init(&argc, &argv);
    path = tu_main_path(argc, argv);
    CHECK(path != NULL);
    if (!path) return tu_finish("t_nb_status");
    MPI_Info_create(&info);
    MPI_Info_set(info, "nc_in_place_swap", "enable");
    CHECK_ERR(ncmpi_create(MPI_COMM_WORLD, path, NC_CLOBBER, info, &nc));
    MPI_Info_free(&info);
    CHECK_ERR(ncmpi_def_dim(nc, "rank", tu_nranks, &dr));
    CHECK_ERR(ncmpi_def_dim(nc, "x", NX, &dx));
    dims[0] = dr, dims[1] = dx;
    CHECK_ERR(ncmpi_def_var(nc, "v", NC_INT, 2, dims, &v));
    CHECK_ERR(ncmpi_def_var(nc, "w", NC_INT, 2, dims, &w));
    CHECK_ERR(ncmpi_enddef(nc));
    s[0] = tu_myrank, s[1] = 0;

    for (x = 0; x < NX; x++) db[x] = x == 2 ? 1e12 : x + 0.25;
    EXPECT_ERR(ncmpi_iput_vara_double(nc, v, s, c, db, &req[0]), NC_ERANGE);
    for (x = 0; x < NX; x++) ib[x] = 0x01020304 + x;
    CHECK_ERR(ncmpi_iput_vara_int(nc, w, s, c, ib, &req[1]));
    CHECK_ERR(ncmpi_wait_all(nc, 2, req, st));
    CHECKF(st[0] == NC_NOERR, "status of the out-of-range iput: %d", st[0]);
    CHECK(st[1] == NC_NOERR);
    for (x = 0; x < NX; x++) ok &= ib[x] == 0x01020304 + x;
    CHECKF(ok, "in-place swapped buffer restored after the wait");
    CHECK_ERR(tu_sync(nc));
    CHECK_ERR(ncmpi_get_vara_int_all(nc, v, s, c, got));
    for (x = 0; x < NX; x++)
        CHECKF(got[x] == (x == 2 ? NC_FILL_INT : x), "v[%d] = %d", x, got[x]);
    CHECK_ERR(ncmpi_get_vara_int_all(nc, w, s, c, got));
    for (x = 0; x < NX; x++) CHECK(got[x] == 0x01020304 + x);

    CHECK_ERR(ncmpi_iput_vara_int(nc, w, s, c, ib, &req[0]));
    EXPECT_ERR(ncmpi_close(nc), NC_EPENDING);
    return tu_finish("t_nb_status");
}
