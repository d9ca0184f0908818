/* ncp-test: RANKS 1 2 4 NO_CDL */
/* t_latefill -- NC_ELATEFILL: once a variable has been through an enddef
 * its fill value is fixed.  In a later redef (of the same session or
 * after reopening) put_att _FillValue and def_var_fill with a value are
 * refused on it; def_var_fill without a value, or turning fill off, still
 * works, and so do copy_att, rename_att and del_att (as in PnetCDF
 * 1.12.3).  Variables defined in the current redef take a fill value
 * freely, and in data mode an existing _FillValue may be overwritten in
 * place.  A type or length error is reported before NC_ELATEFILL.
 */
#include "testutil.h"

#define NX 4

static int fill_of(int nc, int v, int *no_fill)
{
    int fv = 0;
    CHECK_ERR(ncmpi_inq_var_fill(nc, v, no_fill, &fv));
    return fv;
}

int main(int argc, char **argv)
{
    const char *path;
    int nc, dx, v, w, u, z, nf, fv = 7, fv2 = 9, two[2] = {1, 2};
    short sv = 3;

    tu_init(&argc, &argv);
    if ((path = tu_main_path(argc, argv)) == NULL)
        return tu_finish("t_latefill");
    CHECK_ERR(ncmpi_create(MPI_COMM_WORLD, path, NC_CLOBBER, MPI_INFO_NULL, &nc));
    CHECK_ERR(ncmpi_def_dim(nc, "x", NX, &dx));
    CHECK_ERR(ncmpi_def_var(nc, "v", NC_INT, 1, &dx, &v));
    CHECK_ERR(ncmpi_def_var(nc, "w", NC_INT, 1, &dx, &w));
    /* first define mode: anything goes, repeatedly */
    CHECK_ERR(ncmpi_def_var_fill(nc, v, 0, &fv));
    CHECK_ERR(ncmpi_put_att_int(nc, v, "_FillValue", NC_INT, 1, &fv2));
    CHECK_ERR(ncmpi_put_att_int(nc, w, "_FillValue", NC_INT, 1, &fv));
    CHECK_ERR(ncmpi_put_att_int(nc, w, "other", NC_INT, 1, &fv));
    CHECK_ERR(ncmpi_enddef(nc));

    /* data mode: an in-place overwrite of _FillValue is allowed */
    CHECK_ERR(ncmpi_put_att_int(nc, w, "_FillValue", NC_INT, 1, &fv2));
    EXPECT_ERR(ncmpi_def_var_fill(nc, v, 0, &fv), NC_ENOTINDEFINE);

    CHECK_ERR(ncmpi_redef(nc));
    EXPECT_ERR(ncmpi_put_att_short(nc, v, "_FillValue", NC_SHORT, 1, &sv),
               NC_EBADTYPE);
    EXPECT_ERR(ncmpi_put_att_int(nc, v, "_FillValue", NC_INT, 2, two),
               NC_EINVAL);
    EXPECT_ERR(ncmpi_put_att_int(nc, v, "_FillValue", NC_INT, 1, &fv),
               NC_ELATEFILL);
    EXPECT_ERR(ncmpi_def_var_fill(nc, v, 0, &fv), NC_ELATEFILL);
    CHECK(fill_of(nc, v, &nf) == fv2 && nf == 0);
    /* no value, or fill off: the value is not touched */
    CHECK_ERR(ncmpi_def_var_fill(nc, v, 1, &fv));
    CHECK(fill_of(nc, v, &nf) == fv2 && nf == 1);
    CHECK_ERR(ncmpi_def_var_fill(nc, v, 0, NULL));
    CHECK(fill_of(nc, v, &nf) == fv2 && nf == 0);
    /* deleting, copying and renaming are not refused */
    CHECK_ERR(ncmpi_del_att(nc, w, "_FillValue"));
    EXPECT_ERR(ncmpi_put_att_int(nc, w, "_FillValue", NC_INT, 1, &fv),
               NC_ELATEFILL);
    CHECK_ERR(ncmpi_rename_att(nc, w, "other", "_FillValue"));
    CHECK_ERR(ncmpi_put_att_int(nc, NC_GLOBAL, "_FillValue", NC_INT, 1, &fv));
    /* a variable new in this redef is free */
    CHECK_ERR(ncmpi_def_var(nc, "u", NC_INT, 1, &dx, &u));
    CHECK_ERR(ncmpi_put_att_int(nc, u, "_FillValue", NC_INT, 1, &fv));
    CHECK_ERR(ncmpi_def_var_fill(nc, u, 0, &fv2));
    CHECK_ERR(ncmpi_copy_att(nc, u, "_FillValue", nc, v));
    CHECK(fill_of(nc, v, &nf) == fv2);
    CHECK_ERR(ncmpi_enddef(nc));

    /* a later redef: u is old now */
    CHECK_ERR(ncmpi_redef(nc));
    EXPECT_ERR(ncmpi_def_var_fill(nc, u, 0, &fv), NC_ELATEFILL);
    CHECK_ERR(ncmpi_enddef(nc));
    CHECK_ERR(ncmpi_close(nc));

    /* after reopening every variable is old */
    CHECK_ERR(ncmpi_open(MPI_COMM_WORLD, path, NC_WRITE, MPI_INFO_NULL, &nc));
    CHECK_ERR(ncmpi_redef(nc));
    EXPECT_ERR(ncmpi_put_att_int(nc, v, "_FillValue", NC_INT, 1, &fv),
               NC_ELATEFILL);
    EXPECT_ERR(ncmpi_def_var_fill(nc, u, 0, &fv), NC_ELATEFILL);
    CHECK_ERR(ncmpi_def_var(nc, "z", NC_INT, 1, &dx, &z));
    CHECK_ERR(ncmpi_def_var_fill(nc, z, 0, &fv));
    CHECK_ERR(ncmpi_enddef(nc));
    CHECK(fill_of(nc, z, &nf) == fv && nf == 0);
    CHECK_ERR(ncmpi_close(nc));
    return tu_finish("t_latefill");
}
