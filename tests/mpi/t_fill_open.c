/* ncp-test: RANKS 1 2 4 NO_CDL */
/* t_fill_open -- fill state as PnetCDF 1.12.3 reports it.
 *
 * After create the file is NC_NOFILL and each variable follows it.  After
 * open the file is still NC_NOFILL (set_fill's old mode says so) but
 * ncmpi_inq_var_fill reports every variable with fill on, so
 * ncmpi_fill_var_rec fills any of them.  In a NOFILL file fill_var_rec
 * also fills a variable that has a _FillValue attribute, with that value,
 * and refuses (NC_ENOTFILL) one that has none.  def_var_fill with fill off
 * writes no attribute, whatever value it is given.  A read-only file
 * refuses fill_var_rec with NC_EPERM.
 */
#include "testutil.h"

#define NX 4

static void expect_fill(int nc, int v, int no_fill, int value,
                        const char *when)
{
    int nf = -1, fv = 0;
    CHECK_ERR(ncmpi_inq_var_fill(nc, v, &nf, &fv));
    CHECKF(nf == no_fill && fv == value, "%s: var %d no_fill %d value %d",
           when, v, nf, fv);
}

/* Record rec of v holds value everywhere. */
static void expect_record(int nc, int v, MPI_Offset rec, int value)
{
    int buf[NX], i;
    MPI_Offset st[2] = {rec, 0}, ct[2] = {1, NX};
    CHECK_ERR(ncmpi_get_vara_int_all(nc, v, st, ct, buf));
    for (i = 0; i < NX; i++)
        CHECKF(buf[i] == value, "var %d record %lld [%d] = %d want %d", v,
               (long long)rec, i, buf[i], value);
}

int main(int argc, char **argv)
{
    const char *path;
    int nc, dt, dx, a, b, e, f, dims[2], fv = 7, old = -1, natts = -1;

    tu_init(&argc, &argv);
    if ((path = tu_main_path(argc, argv)) == NULL)
        return tu_finish("t_fill_open");
    CHECK_ERR(ncmpi_create(MPI_COMM_WORLD, path, NC_CLOBBER, MPI_INFO_NULL, &nc));
    CHECK_ERR(ncmpi_def_dim(nc, "t", NC_UNLIMITED, &dt));
    CHECK_ERR(ncmpi_def_dim(nc, "x", NX, &dx));
    dims[0] = dt; dims[1] = dx;
    CHECK_ERR(ncmpi_def_var(nc, "a", NC_INT, 2, dims, &a)); /* plain */
    CHECK_ERR(ncmpi_def_var(nc, "b", NC_INT, 2, dims, &b)); /* _FillValue */
    CHECK_ERR(ncmpi_def_var(nc, "e", NC_INT, 2, dims, &e)); /* fill off */
    CHECK_ERR(ncmpi_def_var(nc, "f", NC_INT, 1, &dx, &f));  /* fixed */
    CHECK_ERR(ncmpi_put_att_int(nc, b, "_FillValue", NC_INT, 1, &fv));
    CHECK_ERR(ncmpi_def_var_fill(nc, e, 1, &fv));
    CHECK_ERR(ncmpi_inq_varnatts(nc, e, &natts));
    CHECK(natts == 0);
    expect_fill(nc, a, 1, NC_FILL_INT, "create");
    expect_fill(nc, b, 1, fv, "create");
    expect_fill(nc, e, 1, NC_FILL_INT, "create");
    /* define mode: accepted and ignored, but NC_ENOTFILL still applies */
    EXPECT_ERR(ncmpi_fill_var_rec(nc, a, 0), NC_ENOTFILL);
    CHECK_ERR(ncmpi_fill_var_rec(nc, b, 0));
    CHECK_ERR(ncmpi_enddef(nc));

    EXPECT_ERR(ncmpi_fill_var_rec(nc, a, 0), NC_ENOTFILL);
    EXPECT_ERR(ncmpi_fill_var_rec(nc, e, 0), NC_ENOTFILL);
    EXPECT_ERR(ncmpi_fill_var_rec(nc, f, 0), NC_ENOTRECVAR);
    CHECK_ERR(ncmpi_fill_var_rec(nc, b, 0));
    CHECK_ERR(ncmpi_fill_var_rec(nc, b, 1));
    expect_record(nc, b, 1, fv);
    CHECK_ERR(ncmpi_close(nc));

    CHECK_ERR(ncmpi_open(MPI_COMM_WORLD, path, NC_WRITE, MPI_INFO_NULL, &nc));
    expect_fill(nc, a, 0, NC_FILL_INT, "open");
    expect_fill(nc, b, 0, fv, "open");
    expect_fill(nc, e, 0, NC_FILL_INT, "open");
    expect_fill(nc, f, 0, NC_FILL_INT, "open");
    CHECK_ERR(ncmpi_fill_var_rec(nc, a, 2));
    CHECK_ERR(ncmpi_fill_var_rec(nc, b, 2));
    CHECK_ERR(ncmpi_fill_var_rec(nc, e, 2));
    expect_record(nc, a, 2, NC_FILL_INT);
    expect_record(nc, b, 2, fv);
    expect_record(nc, e, 2, NC_FILL_INT);
    CHECK_ERR(ncmpi_redef(nc));
    CHECK_ERR(ncmpi_set_fill(nc, NC_NOFILL, &old));
    CHECK(old == NC_NOFILL);
    expect_fill(nc, a, 1, NC_FILL_INT, "set_fill(NC_NOFILL) after open");
    CHECK_ERR(ncmpi_enddef(nc));
    EXPECT_ERR(ncmpi_fill_var_rec(nc, a, 3), NC_ENOTFILL);
    CHECK_ERR(ncmpi_fill_var_rec(nc, b, 3));
    expect_record(nc, b, 3, fv);
    {
        /* the last record's last variable, so the file is whole */
        int zero[NX] = {0};
        MPI_Offset st[2] = {3, 0}, ct[2] = {1, NX};
        CHECK_ERR(ncmpi_put_vara_int_all(nc, e, st, ct, zero));
    }
    CHECK_ERR(ncmpi_close(nc));

    CHECK_ERR(ncmpi_open(MPI_COMM_WORLD, path, NC_NOWRITE, MPI_INFO_NULL, &nc));
    expect_fill(nc, a, 0, NC_FILL_INT, "read-only open");
    EXPECT_ERR(ncmpi_fill_var_rec(nc, b, 0), NC_EPERM);
    EXPECT_ERR(ncmpi_fill_var_rec(nc, f, 0), NC_ENOTRECVAR);
    CHECK_ERR(ncmpi_close(nc));
    return tu_finish("t_fill_open");
}
