/* ncp-test: NO_PNETCDF_CMP NO_CDL RANKS 1 2 4 */
/* t_overlap -- overlapping requests of one rank in one flush behave as
 * the same calls made one after another: among puts the later post wins,
 * and overlapping gets each receive the bytes.  (PnetCDF 1.12 does not
 * promise this, so there is no byte comparison with it here.)
 *
 * Every rank works on its own row of v(rank, x) so that ranks never
 * overlap each other; all overlaps are within one rank.
 */
#include "testutil.h"

#define NX 16

static void check_row(int nc, int v, const int *want, const char *what)
{
    MPI_Offset st[2] = {tu_myrank, 0}, ct[2] = {1, NX};
    int got[NX], x, bad = 0;
    CHECK_ERR(ncmpi_get_vara_int_all(nc, v, st, ct, got));
    for (x = 0; x < NX; x++) bad += got[x] != want[x];
    CHECKF(bad == 0, "%s: %d wrong values", what, bad);
}

int main(int argc, char **argv)
{
    int nc, dr, dx, dims[2], v, x, reqs[3], sts[3], want[NX];
    int a[NX], b[NX], c[NX], ga[NX], gb[NX];
    MPI_Offset row = 0, st[2], ct[2];
    const char *path;

    tu_init(&argc, &argv);
    path = tu_main_path(argc, argv);
    CHECK(path != NULL);
    if (!path) return tu_finish("t_overlap");
    row = tu_myrank;
    CHECK_ERR(ncmpi_create(MPI_COMM_WORLD, path, NC_CLOBBER, MPI_INFO_NULL, &nc));
    CHECK_ERR(ncmpi_def_dim(nc, "rank", tu_nranks, &dr));
    CHECK_ERR(ncmpi_def_dim(nc, "x", NX, &dx));
    dims[0] = dr, dims[1] = dx;
    CHECK_ERR(ncmpi_def_var(nc, "v", NC_INT, 2, dims, &v));
    CHECK_ERR(ncmpi_enddef(nc));
    for (x = 0; x < NX; x++) a[x] = 100 + x, b[x] = 200 + x, c[x] = 300 + x;

    /* three iputs: whole row, then [4, 12), then [8, 16) */
    st[0] = row, st[1] = 0, ct[0] = 1, ct[1] = NX;
    CHECK_ERR(ncmpi_iput_vara_int(nc, v, st, ct, a, &reqs[0]));
    st[1] = 4, ct[1] = 8;
    CHECK_ERR(ncmpi_iput_vara_int(nc, v, st, ct, b, &reqs[1]));
    st[1] = 8, ct[1] = 8;
    CHECK_ERR(ncmpi_iput_vara_int(nc, v, st, ct, c, &reqs[2]));
    CHECK_ERR(ncmpi_wait_all(nc, 3, reqs, sts));
    for (x = 0; x < NX; x++)
        want[x] = x < 4 ? 100 + x : x < 8 ? 200 + (x - 4) : 300 + (x - 8);
    CHECK_ERR(tu_sync(nc));
    check_row(nc, v, want, "iputs, later wins");

    /* the same overlaps posted in the other order: the earlier loses */
    st[1] = 8, ct[1] = 8;
    CHECK_ERR(ncmpi_iput_vara_int(nc, v, st, ct, c, &reqs[0]));
    st[1] = 0, ct[1] = NX;
    CHECK_ERR(ncmpi_iput_vara_int(nc, v, st, ct, a, &reqs[1]));
    CHECK_ERR(ncmpi_wait_all(nc, 2, reqs, sts));
    for (x = 0; x < NX; x++) want[x] = 100 + x;
    CHECK_ERR(tu_sync(nc));
    check_row(nc, v, want, "whole row posted last wins");

    /* varn whose subarrays overlap: [0, 10) then [6, 16) */
    {
        MPI_Offset s0[2] = {row, 0}, c0[2] = {1, 10}, s1[2] = {row, 6},
                   c1[2] = {1, 10};
        MPI_Offset *ss[2] = {s0, s1}, *cc[2] = {c0, c1};
        int buf[20];
        for (x = 0; x < 20; x++) buf[x] = 400 + x;
        CHECK_ERR(ncmpi_put_varn_int_all(nc, v, 2, ss, cc, buf));
        for (x = 0; x < NX; x++) want[x] = x < 6 ? 400 + x : 410 + (x - 6);
        CHECK_ERR(tu_sync(nc));
        check_row(nc, v, want, "varn, later subarray wins");
    }

    /* overlapping igets: both buffers get their bytes */
    st[1] = 0, ct[1] = 12;
    CHECK_ERR(ncmpi_iget_vara_int(nc, v, st, ct, ga, &reqs[0]));
    st[1] = 4, ct[1] = 12;
    CHECK_ERR(ncmpi_iget_vara_int(nc, v, st, ct, gb, &reqs[1]));
    CHECK_ERR(ncmpi_wait_all(nc, 2, reqs, sts));
    for (x = 0; x < 12; x++) {
        CHECKF(ga[x] == want[x], "iget a[%d] = %d", x, ga[x]);
        CHECKF(gb[x] == want[4 + x], "iget b[%d] = %d", x, gb[x]);
    }
    CHECK_ERR(ncmpi_close(nc));
    return tu_finish("t_overlap");
}
