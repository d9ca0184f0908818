/* ncp-test: NO_CDL RANKS 1 2 4 */
/* t_close_modes -- ranks that reach ncmpi_close in different modes, as
 * PnetCDF 1.12.3 lets them (NC_NOERR everywhere, and a file every rank
 * then reads alike):
 *   - <main>.nc: rank 0 alone calls redef and adds a global attribute;
 *     then every rank closes, rank 0 from define mode, the others from
 *     data mode.  The attribute is in the file.
 *   - <main>_enddef.nc: created; rank 0 alone calls enddef before its
 *     close, the others close straight from define mode.
 * A redef from collective data mode makes no collective call, and a close
 * from define mode makes the same ones as an enddef and a close.
 */
#include "testutil.h"

#define NX 4

/* Filled, so that the file is whole whichever elements are written. */
static void define(int nc, int *v)
{
    int d;

    CHECK_ERR(ncmpi_set_fill(nc, NC_FILL, NULL));
    CHECK_ERR(ncmpi_def_dim(nc, "x", NX, &d));
    CHECK_ERR(ncmpi_def_var(nc, "v", NC_INT, 1, &d, v));
}

/* Every rank writes its element of v, then only rank 0 redefines. */
static void redef_on_rank0(const char *path, int rank)
{
    MPI_Offset st = rank, ct = rank < NX ? 1 : 0;
    int nc, v, x = 100 + rank, one = 1;

    CHECK_ERR(ncmpi_create(MPI_COMM_WORLD, path, NC_CLOBBER, MPI_INFO_NULL,
                           &nc));
    define(nc, &v);
    CHECK_ERR(ncmpi_enddef(nc));
    CHECK_ERR(ncmpi_put_vara_int_all(nc, v, &st, &ct, &x));
    if (rank == 0) {
        CHECK_ERR(ncmpi_redef(nc));
        CHECK_ERR(ncmpi_put_att_int(nc, NC_GLOBAL, "late", NC_INT, 1, &one));
    }
    CHECK_ERR(ncmpi_close(nc));
}

static void enddef_on_rank0(const char *path, int rank)
{
    int nc, v;

    CHECK_ERR(ncmpi_create(MPI_COMM_WORLD, path, NC_CLOBBER, MPI_INFO_NULL,
                           &nc));
    define(nc, &v);
    if (rank == 0) CHECK_ERR(ncmpi_enddef(nc));
    CHECK_ERR(ncmpi_close(nc));
}

/* Every rank reads the file back: the data and what rank 0 defined. */
static void check(const char *path, int nranks, int want_att)
{
    int nc, v, got[NX], att = 0, i, natts = -1;

    CHECK_ERR(ncmpi_open(MPI_COMM_WORLD, path, NC_NOWRITE, MPI_INFO_NULL,
                         &nc));
    CHECK_ERR(ncmpi_inq_varid(nc, "v", &v));
    CHECK_ERR(ncmpi_inq_natts(nc, &natts));
    CHECKF(natts == want_att, "%s: %d global attributes", path, natts);
    if (want_att) {
        CHECK_ERR(ncmpi_get_att_int(nc, NC_GLOBAL, "late", &att));
        CHECK(att == 1);
        CHECK_ERR(ncmpi_get_var_int_all(nc, v, got));
        for (i = 0; i < NX && i < nranks; i++)
            CHECKF(got[i] == 100 + i, "v[%d] = %d", i, got[i]);
    }
    CHECK_ERR(ncmpi_close(nc));
}

int main(int argc, char **argv)
{
    char second[4096];
    const char *path;
    int rank, nranks;

    tu_init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nranks);
    path = tu_main_path(argc, argv);
    CHECK(path != NULL);
    if (!path) return tu_finish("t_close_modes");
    tu_sibling(second, sizeof second, path, "_enddef.nc");
    redef_on_rank0(path, rank);
    check(path, nranks, 1);
    enddef_on_rank0(second, rank);
    check(second, nranks, 0);
    return tu_finish("t_close_modes");
}
