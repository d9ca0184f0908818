/* ncp-test: RANKS 1 2 4 */
/* t_modes -- which calls each mode refuses, and that a refused call
 * changes nothing.
 *
 * A dataset is in define mode, collective data mode or independent data
 * mode, and opened read-only or writable.  Every refusal below is checked
 * for the exact code PnetCDF 1.12.3 returns, then the dataset is inspected
 * (inquiry and read-back) to show the failed call left no trace.  All ranks
 * make the same calls so each collective refusal is reached together.
 */
#include "testutil.h"

#define N 8

static void expect_shape(int nc, int ndims, int nvars, int natts)
{
    int nd = -1, nv = -1, na = -1, unlim = -2;
    CHECK_ERR(ncmpi_inq(nc, &nd, &nv, &na, &unlim));
    CHECKF(nd == ndims && nv == nvars && na == natts,
           "shape %d/%d/%d want %d/%d/%d", nd, nv, na, ndims, nvars, natts);
}

static void expect_data(int nc, int v, int base)
{
    int buf[N], i;
    CHECK_ERR(ncmpi_get_var_int_all(nc, v, buf));
    for (i = 0; i < N; i++)
        CHECKF(buf[i] == base + i, "data[%d]=%d want %d", i, buf[i], base + i);
    /* no rank may overwrite what another is still reading */
    CHECK_ERR(tu_sync(nc));
}

int main(int argc, char **argv)
{
    int nc, d, d2, dt, v, v2, vr, buf[N], i, old, one = 1;
    MPI_Offset s, c, len;
    char name[NC_MAX_NAME + 1];
    const char *path;

    tu_init(&argc, &argv);
    path = tu_main_path(argc, argv);
    CHECK(path != NULL);
    if (!path)
        return tu_finish("t_modes");

    /* ---- define mode ---- */
    CHECK_ERR(ncmpi_create(MPI_COMM_WORLD, path, NC_CLOBBER, MPI_INFO_NULL, &nc));
    CHECK_ERR(ncmpi_def_dim(nc, "n", N, &d));
    CHECK_ERR(ncmpi_def_var(nc, "v", NC_INT, 1, &d, &v));
    CHECK_ERR(ncmpi_def_dim(nc, "t", NC_UNLIMITED, &dt));
    CHECK_ERR(ncmpi_def_var(nc, "r", NC_INT, 1, &dt, &vr));
    CHECK_ERR(ncmpi_put_att_int(nc, v, "a", NC_INT, 1, &one));
    for (i = 0; i < N; i++)
        buf[i] = 100 + i;
    EXPECT_ERR(ncmpi_put_var_int_all(nc, v, buf), NC_EINDEFINE);
    EXPECT_ERR(ncmpi_get_var_int_all(nc, v, buf), NC_EINDEFINE);
    EXPECT_ERR(ncmpi_put_var_int(nc, v, buf), NC_EINDEFINE);
    EXPECT_ERR(ncmpi_begin_indep_data(nc), NC_EINDEFINE);
    EXPECT_ERR(ncmpi_end_indep_data(nc), NC_EINDEFINE);
    EXPECT_ERR(ncmpi_redef(nc), NC_EINDEFINE);
    EXPECT_ERR(ncmpi_sync(nc), NC_EINDEFINE);
    EXPECT_ERR(ncmpi_sync_numrecs(nc), NC_EINDEFINE);
    /* the variable kind and its fill mode are checked before the mode */
    EXPECT_ERR(ncmpi_fill_var_rec(nc, v, 0), NC_ENOTRECVAR);
    EXPECT_ERR(ncmpi_fill_var_rec(nc, vr, 0), NC_ENOTFILL);
    /* with fill on, PnetCDF 1.12.3 accepts it in define mode and does nothing */
    CHECK_ERR(ncmpi_def_var_fill(nc, vr, 0, NULL));
    CHECK_ERR(ncmpi_fill_var_rec(nc, vr, 0));
    CHECK_ERR(ncmpi_enddef(nc));
    expect_shape(nc, 2, 2, 0);
    CHECK_ERR(ncmpi_inq_dimlen(nc, dt, &len));
    CHECK(len == 0);

    /* ---- collective data mode ---- */
    EXPECT_ERR(ncmpi_enddef(nc), NC_ENOTINDEFINE);
    EXPECT_ERR(ncmpi_def_dim(nc, "m", 3, &d2), NC_ENOTINDEFINE);
    EXPECT_ERR(ncmpi_def_var(nc, "w", NC_INT, 1, &d, &v2), NC_ENOTINDEFINE);
    EXPECT_ERR(ncmpi_set_fill(nc, NC_FILL, &old), NC_ENOTINDEFINE);
    EXPECT_ERR(ncmpi_def_var_fill(nc, v, 0, &one), NC_ENOTINDEFINE);
    EXPECT_ERR(ncmpi_del_att(nc, v, "a"), NC_ENOTINDEFINE);
    /* a new attribute needs define mode, even a small one */
    EXPECT_ERR(ncmpi_put_att_int(nc, NC_GLOBAL, "g", NC_INT, 1, &one), NC_ENOTINDEFINE);
    /* in data mode a rename may not make the name longer */
    EXPECT_ERR(ncmpi_rename_var(nc, v, "vlonger"), NC_ENOTINDEFINE);
    EXPECT_ERR(ncmpi_rename_dim(nc, d, "nlonger"), NC_ENOTINDEFINE);
    EXPECT_ERR(ncmpi_rename_att(nc, v, "a", "along"), NC_ENOTINDEFINE);
    expect_shape(nc, 2, 2, 0);
    CHECK_ERR(ncmpi_inq_varname(nc, v, name));
    CHECK(strcmp(name, "v") == 0);
    CHECK_ERR(ncmpi_inq_dimname(nc, d, name));
    CHECK(strcmp(name, "n") == 0);
    CHECK_ERR(ncmpi_inq_attname(nc, v, 0, name));
    CHECK(strcmp(name, "a") == 0);
    CHECK_ERR(ncmpi_rename_var(nc, v, "u"));
    CHECK_ERR(ncmpi_inq_varid(nc, "u", &i));
    CHECK(i == v);
    CHECK_ERR(ncmpi_rename_var(nc, v, "v"));
    CHECK_ERR(ncmpi_rename_dim(nc, d, "k"));
    CHECK_ERR(ncmpi_rename_dim(nc, d, "n"));
    CHECK_ERR(ncmpi_rename_att(nc, v, "a", "b"));
    CHECK_ERR(ncmpi_rename_att(nc, v, "b", "a"));

    tu_part(N, tu_myrank, tu_nranks, &s, &c);
    EXPECT_ERR(ncmpi_put_vara_int(nc, v, &s, &c, buf + s), NC_ENOTINDEP);
    EXPECT_ERR(ncmpi_get_vara_int(nc, v, &s, &c, buf + s), NC_ENOTINDEP);
    /* ending independent mode when not in it is a no-op */
    CHECK_ERR(ncmpi_end_indep_data(nc));
    CHECK_ERR(ncmpi_put_vara_int_all(nc, v, &s, &c, buf + s));
    CHECK_ERR(tu_sync(nc));
    expect_data(nc, v, 100);

    /* ---- independent data mode ---- */
    CHECK_ERR(ncmpi_begin_indep_data(nc));
    /* so is beginning it twice */
    CHECK_ERR(ncmpi_begin_indep_data(nc));
    EXPECT_ERR(ncmpi_put_vara_int_all(nc, v, &s, &c, buf + s), NC_EINDEP);
    EXPECT_ERR(ncmpi_get_var_int_all(nc, v, buf), NC_EINDEP);
    EXPECT_ERR(ncmpi_enddef(nc), NC_ENOTINDEFINE);
    EXPECT_ERR(ncmpi_def_dim(nc, "m", 3, &d2), NC_ENOTINDEFINE);
    for (i = 0; i < N; i++)
        buf[i] = 200 + i;
    CHECK_ERR(ncmpi_put_vara_int(nc, v, &s, &c, buf + s));
    CHECK_ERR(tu_sync(nc));
    CHECK_ERR(ncmpi_end_indep_data(nc));
    CHECK_ERR(ncmpi_end_indep_data(nc));
    expect_data(nc, v, 200);
    expect_shape(nc, 2, 2, 0);

    /* redef is allowed from independent mode and leaves it; the new items
     * appear and the old data stays */
    CHECK_ERR(ncmpi_begin_indep_data(nc));
    CHECK_ERR(ncmpi_redef(nc));
    CHECK_ERR(ncmpi_def_dim(nc, "m", 3, &d2));
    CHECK_ERR(ncmpi_put_att_int(nc, NC_GLOBAL, "g", NC_INT, 1, &one));
    EXPECT_ERR(ncmpi_put_var_int_all(nc, v, buf), NC_EINDEFINE);
    CHECK_ERR(ncmpi_enddef(nc));
    EXPECT_ERR(ncmpi_put_vara_int(nc, v, &s, &c, buf + s), NC_ENOTINDEP);
    expect_shape(nc, 3, 2, 1);
    expect_data(nc, v, 200);
    /* closing in independent mode is allowed */
    CHECK_ERR(ncmpi_begin_indep_data(nc));
    CHECK_ERR(ncmpi_close(nc));

    /* ---- read-only ---- */
    CHECK_ERR(ncmpi_open(MPI_COMM_WORLD, path, NC_NOWRITE, MPI_INFO_NULL, &nc));
    EXPECT_ERR(ncmpi_put_var_int_all(nc, v, buf), NC_EPERM);
    EXPECT_ERR(ncmpi_redef(nc), NC_EPERM);
    /* a read-only dataset is in data mode, and that is checked first */
    EXPECT_ERR(ncmpi_def_dim(nc, "k", 2, &d2), NC_ENOTINDEFINE);
    EXPECT_ERR(ncmpi_def_var(nc, "k", NC_INT, 1, &d, &v2), NC_ENOTINDEFINE);
    EXPECT_ERR(ncmpi_put_att_int(nc, NC_GLOBAL, "g", NC_INT, 1, &one), NC_EPERM);
    EXPECT_ERR(ncmpi_del_att(nc, NC_GLOBAL, "g"), NC_EPERM);
    EXPECT_ERR(ncmpi_rename_var(nc, v, "w"), NC_EPERM);
    EXPECT_ERR(ncmpi_rename_dim(nc, d, "k"), NC_EPERM);
    EXPECT_ERR(ncmpi_rename_att(nc, NC_GLOBAL, "g", "h"), NC_EPERM);
    EXPECT_ERR(ncmpi_set_fill(nc, NC_FILL, &old), NC_EPERM);
    CHECK_ERR(ncmpi_sync(nc));
    CHECK_ERR(ncmpi_begin_indep_data(nc));
    EXPECT_ERR(ncmpi_put_vara_int(nc, v, &s, &c, buf + s), NC_EPERM);
    CHECK_ERR(ncmpi_get_vara_int(nc, v, &s, &c, buf + s));
    for (i = 0; i < c; i++)
        CHECKF(buf[s + i] == 200 + s + i, "indep read %d", i);
    CHECK_ERR(ncmpi_end_indep_data(nc));
    expect_shape(nc, 3, 2, 1);
    expect_data(nc, v, 200);
    CHECK_ERR(ncmpi_inq_dimlen(nc, d2, &len));
    CHECK(len == 3);
    CHECK_ERR(ncmpi_close(nc));
    /* a closed id is gone */
    EXPECT_ERR(ncmpi_inq_ndims(nc, &i), NC_EBADID);
    return tu_finish("t_modes");
}
