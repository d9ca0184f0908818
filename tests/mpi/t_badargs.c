/* ncp-test: RANKS 1 2 4 */
/* t_badargs -- argument checking: the exact code PnetCDF 1.12.3 returns
 * for each bad argument, and that a refused call changes nothing.
 *
 * Every rank passes the same bad arguments, so collective calls fail on
 * all ranks together.  The file ends with known content (checked by the
 * .cdl), proving no refused write touched it.  <main>_varsize.nc is a
 * CDF-1 dataset whose variable is too big; it is aborted, never written.
 */
#include "testutil.h"
#include <unistd.h>

#define NX 4
#define NY 3

static void expect_shape(int nc, int ndims, int nvars, int natts)
{
    int nd = -1, nv = -1, na = -1;
    CHECK_ERR(ncmpi_inq(nc, &nd, &nv, &na, NULL));
    CHECKF(nd == ndims && nv == nvars && na == natts,
           "shape %d/%d/%d want %d/%d/%d", nd, nv, na, ndims, nvars, natts);
}

static void define_errors(int nc, int dx, int dr, int vi)
{
    char longname[NC_MAX_NAME + 2];
    int id, dims[2], i = 7;

    memset(longname, 'a', sizeof longname - 1);
    longname[sizeof longname - 1] = '\0';
    EXPECT_ERR(ncmpi_def_dim(nc, "x", 5, &id), NC_ENAMEINUSE);
    EXPECT_ERR(ncmpi_def_dim(nc, "t2", NC_UNLIMITED, &id), NC_EUNLIMIT);
    EXPECT_ERR(ncmpi_def_dim(nc, "bad/name", 5, &id), NC_EBADNAME);
    EXPECT_ERR(ncmpi_def_dim(nc, "", 5, &id), NC_EBADNAME);
    EXPECT_ERR(ncmpi_def_dim(nc, " lead", 5, &id), NC_EBADNAME);
    EXPECT_ERR(ncmpi_def_dim(nc, "trail ", 5, &id), NC_EBADNAME);
    EXPECT_ERR(ncmpi_def_dim(nc, longname, 5, &id), NC_EMAXNAME);
    EXPECT_ERR(ncmpi_def_dim(nc, NULL, 5, &id), NC_EBADNAME);
    EXPECT_ERR(ncmpi_def_dim(nc, "neg", -1, &id), NC_EDIMSIZE);
    /* CDF-1 dimensions stop below 2^31 */
    EXPECT_ERR(ncmpi_def_dim(nc, "huge", 1LL << 31, &id), NC_EDIMSIZE);

    dims[0] = dx;
    EXPECT_ERR(ncmpi_def_var(nc, "vi", NC_INT, 1, dims, &id), NC_ENAMEINUSE);
    EXPECT_ERR(ncmpi_def_var(nc, "w", (nc_type)0, 1, dims, &id), NC_EBADTYPE);
    EXPECT_ERR(ncmpi_def_var(nc, "w", (nc_type)13, 1, dims, &id), NC_EBADTYPE);
    EXPECT_ERR(ncmpi_def_var(nc, "w", NC_STRING, 1, dims, &id), NC_EBADTYPE);
    /* the CDF-5 types are refused by a classic file */
    EXPECT_ERR(ncmpi_def_var(nc, "w", NC_UBYTE, 1, dims, &id), NC_ESTRICTCDF2);
    EXPECT_ERR(ncmpi_def_var(nc, "w", NC_INT64, 1, dims, &id), NC_ESTRICTCDF2);
    EXPECT_ERR(ncmpi_def_var(nc, "w", NC_INT, -1, dims, &id), NC_EINVAL);
    EXPECT_ERR(ncmpi_def_var(nc, "w", NC_INT, 1, NULL, &id), NC_EINVAL);
    dims[0] = 99;
    EXPECT_ERR(ncmpi_def_var(nc, "w", NC_INT, 1, dims, &id), NC_EBADDIM);
    dims[0] = -1;
    EXPECT_ERR(ncmpi_def_var(nc, "w", NC_INT, 1, dims, &id), NC_EBADDIM);
    dims[0] = dx; dims[1] = dr;
    EXPECT_ERR(ncmpi_def_var(nc, "w", NC_INT, 2, dims, &id), NC_EUNLIMPOS);
    /* inner blanks and punctuation are legal, control characters are not */
    EXPECT_ERR(ncmpi_def_var(nc, "bad\001name", NC_INT, 1, dims, &id), NC_EBADNAME);
    EXPECT_ERR(ncmpi_def_var(nc, "bad\x7fname", NC_INT, 1, dims, &id), NC_EBADNAME);
    EXPECT_ERR(ncmpi_def_var(nc, longname, NC_INT, 1, dims, &id), NC_EMAXNAME);

    EXPECT_ERR(ncmpi_put_att_int(nc, vi, "a", (nc_type)0, 1, &i), NC_EBADTYPE);
    EXPECT_ERR(ncmpi_put_att_int(nc, vi, "a", NC_CHAR, 1, &i), NC_ECHAR);
    EXPECT_ERR(ncmpi_put_att_int(nc, vi, "a", NC_UINT, 1, &i), NC_ESTRICTCDF2);
    EXPECT_ERR(ncmpi_put_att_int(nc, vi, "a", NC_INT, -1, &i), NC_EINVAL);
    EXPECT_ERR(ncmpi_put_att_int(nc, 99, "a", NC_INT, 1, &i), NC_ENOTVAR);
    EXPECT_ERR(ncmpi_put_att_int(nc, vi, "bad/att", NC_INT, 1, &i), NC_EBADNAME);
    EXPECT_ERR(ncmpi_put_att_float(nc, vi, "r", NC_SHORT, 1, &(float){1e10f}), NC_ERANGE);

    EXPECT_ERR(ncmpi_rename_dim(nc, dx, "y"), NC_ENAMEINUSE);
    EXPECT_ERR(ncmpi_rename_dim(nc, 99, "z"), NC_EBADDIM);
    EXPECT_ERR(ncmpi_rename_var(nc, vi, "vc"), NC_ENAMEINUSE);
    EXPECT_ERR(ncmpi_rename_var(nc, 99, "z"), NC_ENOTVAR);
    EXPECT_ERR(ncmpi_rename_var(nc, vi, "bad/x"), NC_EBADNAME);
    EXPECT_ERR(ncmpi_rename_att(nc, NC_GLOBAL, "title", "units"), NC_ENAMEINUSE);
    EXPECT_ERR(ncmpi_rename_att(nc, NC_GLOBAL, "nosuch", "z"), NC_ENOTATT);
    EXPECT_ERR(ncmpi_del_att(nc, NC_GLOBAL, "nosuch"), NC_ENOTATT);
    EXPECT_ERR(ncmpi_set_fill(nc, 5, &i), NC_EINVAL);
    EXPECT_ERR(ncmpi_def_var_fill(nc, 99, 0, NULL), NC_ENOTVAR);
    EXPECT_ERR(ncmpi_def_var_fill(nc, NC_GLOBAL, 0, NULL), NC_EGLOBAL);
}

static void access_errors(int nc, int vi, int vr, int vc)
{
    MPI_Offset st[2] = {0, 0}, ct[2] = {1, 1}, sd[2] = {1, 1};
    int buf[NY * NX] = {0};
    char txt[NX] = "abc";

    st[0] = NY + 1;
    EXPECT_ERR(ncmpi_put_vara_int_all(nc, vi, st, ct, buf), NC_EINVALCOORDS);
    EXPECT_ERR(ncmpi_put_var1_int_all(nc, vi, st, buf), NC_EINVALCOORDS);
    /* start == length is allowed with a zero count only */
    st[0] = NY; ct[0] = 0;
    CHECK_ERR(ncmpi_put_vara_int_all(nc, vi, st, ct, buf));
    ct[0] = 1;
    EXPECT_ERR(ncmpi_put_vara_int_all(nc, vi, st, ct, buf), NC_EINVALCOORDS);
    EXPECT_ERR(ncmpi_put_var1_int_all(nc, vi, st, buf), NC_EINVALCOORDS);
    st[0] = -1;
    EXPECT_ERR(ncmpi_put_vara_int_all(nc, vi, st, ct, buf), NC_EINVALCOORDS);
    st[0] = 1; ct[0] = NY;
    EXPECT_ERR(ncmpi_put_vara_int_all(nc, vi, st, ct, buf), NC_EEDGE);
    EXPECT_ERR(ncmpi_get_vara_int_all(nc, vi, st, ct, buf), NC_EEDGE);
    ct[0] = -1;
    EXPECT_ERR(ncmpi_put_vara_int_all(nc, vi, st, ct, buf), NC_ENEGATIVECNT);
    st[0] = 0; ct[0] = 2; sd[0] = 0;
    EXPECT_ERR(ncmpi_put_vars_int_all(nc, vi, st, ct, sd, buf), NC_ESTRIDE);
    sd[0] = -1;
    EXPECT_ERR(ncmpi_put_vars_int_all(nc, vi, st, ct, sd, buf), NC_ESTRIDE);
    /* stride 2 from 0 with count 2 ends at 2 < 3: fine; count 3 reaches 4 */
    sd[0] = 2; ct[0] = 3;
    EXPECT_ERR(ncmpi_put_vars_int_all(nc, vi, st, ct, sd, buf), NC_EEDGE);
    /* PnetCDF 1.12.3 reports NULL start/count as bad coordinates/edges */
    EXPECT_ERR(ncmpi_put_vara_int_all(nc, vi, NULL, ct, buf), NC_EINVALCOORDS);
    EXPECT_ERR(ncmpi_put_vara_int_all(nc, vi, st, NULL, buf), NC_EEDGE);
    EXPECT_ERR(ncmpi_put_var1_int_all(nc, vi, NULL, buf), NC_EINVALCOORDS);

    /* records: writing past numrecs is fine, reading is not */
    st[0] = 5; ct[0] = 1; ct[1] = NX;
    EXPECT_ERR(ncmpi_get_vara_int_all(nc, vr, st, ct, buf), NC_EINVALCOORDS);
    st[0] = 0; st[1] = NX + 1; ct[1] = 0;
    EXPECT_ERR(ncmpi_put_vara_int_all(nc, vr, st, ct, buf), NC_EINVALCOORDS);

    /* text and numbers do not mix */
    st[0] = 0; ct[0] = NX;
    EXPECT_ERR(ncmpi_put_vara_int_all(nc, vc, st, ct, buf), NC_ECHAR);
    EXPECT_ERR(ncmpi_get_vara_int_all(nc, vc, st, ct, buf), NC_ECHAR);
    EXPECT_ERR(ncmpi_put_var_text_all(nc, vi, txt), NC_ECHAR);
    EXPECT_ERR(ncmpi_get_att_int(nc, NC_GLOBAL, "title", buf), NC_ECHAR);
    EXPECT_ERR(ncmpi_get_att_text(nc, NC_GLOBAL, "units", txt), NC_ECHAR);

    EXPECT_ERR(ncmpi_put_var_int_all(nc, 99, buf), NC_ENOTVAR);
    EXPECT_ERR(ncmpi_put_var_int_all(nc, NC_GLOBAL, buf), NC_EGLOBAL);
    EXPECT_ERR(ncmpi_get_var_int_all(nc, NC_GLOBAL, buf), NC_EGLOBAL);
    EXPECT_ERR(ncmpi_put_var_int_all(nc, -5, buf), NC_ENOTVAR);
    EXPECT_ERR(ncmpi_put_var_int_all(12345, vi, buf), NC_EBADID);
}

static void inquiry_errors(int nc, int vi)
{
    int id, i;
    char name[NC_MAX_NAME + 1];
    MPI_Offset len;
    nc_type t;

    EXPECT_ERR(ncmpi_inq_varid(nc, "nosuch", &id), NC_ENOTVAR);
    EXPECT_ERR(ncmpi_inq_var(nc, 99, name, &t, &i, NULL, NULL), NC_ENOTVAR);
    EXPECT_ERR(ncmpi_inq_varname(nc, NC_GLOBAL, name), NC_EGLOBAL);
    EXPECT_ERR(ncmpi_inq_dimid(nc, "nosuch", &id), NC_EBADDIM);
    EXPECT_ERR(ncmpi_inq_dim(nc, 99, name, &len), NC_EBADDIM);
    EXPECT_ERR(ncmpi_inq_dimlen(nc, -1, &len), NC_EBADDIM);
    EXPECT_ERR(ncmpi_inq_att(nc, vi, "nosuch", &t, &len), NC_ENOTATT);
    EXPECT_ERR(ncmpi_inq_attname(nc, NC_GLOBAL, 99, name), NC_ENOTATT);
    EXPECT_ERR(ncmpi_inq_attname(nc, NC_GLOBAL, -1, name), NC_ENOTATT);
    EXPECT_ERR(ncmpi_inq_attid(nc, 99, "title", &id), NC_ENOTVAR);
    EXPECT_ERR(ncmpi_get_att_int(nc, vi, "nosuch", &i), NC_ENOTATT);
    EXPECT_ERR(ncmpi_inq(12345, &i, NULL, NULL, NULL), NC_EBADID);
    EXPECT_ERR(ncmpi_inq_ndims(-1, &i), NC_EBADID);
    EXPECT_ERR(ncmpi_close(12345), NC_EBADID);
    EXPECT_ERR(ncmpi_redef(12345), NC_EBADID);
    /* NULL outputs are simply not filled in */
    CHECK_ERR(ncmpi_inq(nc, NULL, NULL, NULL, NULL));
    CHECK_ERR(ncmpi_inq_var(nc, vi, NULL, NULL, NULL, NULL, NULL));
    CHECK_ERR(ncmpi_inq_dim(nc, 0, NULL, NULL));
    EXPECT_ERR(ncmpi_inq_varid(nc, NULL, &id), NC_EBADNAME);
}

/* CDF-1 limits a fixed-size variable to under 2 GiB unless it is the last
 * one in the file.  Neither dataset is kept: the first is aborted in define
 * mode, the second deleted. */
static void varsize(const char *path)
{
    int nc, d[2], v, w, last;
    for (last = 0; last < 2; last++) {
        CHECK_ERR(ncmpi_create(MPI_COMM_WORLD, path, NC_CLOBBER, MPI_INFO_NULL, &nc));
        CHECK_ERR(ncmpi_def_dim(nc, "a", 1 << 19, &d[0]));
        CHECK_ERR(ncmpi_def_dim(nc, "b", 1 << 10, &d[1]));
        if (last)
            CHECK_ERR(ncmpi_def_var(nc, "before", NC_INT, 1, d, &w));
        CHECK_ERR(ncmpi_def_var(nc, "big", NC_INT, 2, d, &v));
        if (!last)
            CHECK_ERR(ncmpi_def_var(nc, "after", NC_INT, 1, d, &w));
        if (last) {
            CHECK_ERR(ncmpi_enddef(nc));
            CHECK_ERR(ncmpi_close(nc));
            MPI_Barrier(MPI_COMM_WORLD);
            if (tu_myrank == 0)
                CHECK_ERR(ncmpi_delete(path, MPI_INFO_NULL));
        } else {
            EXPECT_ERR(ncmpi_enddef(nc), NC_EVARSIZE);
            /* with several ranks PnetCDF's abort may report NC_ENOENT on a
             * rank that lost the race to remove the file, so only the
             * outcome is checked */
            ncmpi_abort(nc);
        }
        MPI_Barrier(MPI_COMM_WORLD);
        CHECK(access(path, F_OK) != 0);
        MPI_Barrier(MPI_COMM_WORLD);
    }
}

int main(int argc, char **argv)
{
    int nc, dx, dy, dr, vi, vr, vc, dims[2], buf[NY * NX], i, units = 3;
    short sh = 0;
    MPI_Offset st[2], ct[2], s, c, n;
    char p[4096], txt[NX + 1];
    const char *path;

    tu_init(&argc, &argv);
    path = tu_main_path(argc, argv);
    CHECK(path != NULL);
    if (!path)
        return tu_finish("t_badargs");
    CHECK_ERR(ncmpi_create(MPI_COMM_WORLD, path, NC_CLOBBER, MPI_INFO_NULL, &nc));
    CHECK_ERR(ncmpi_def_dim(nc, "t", NC_UNLIMITED, &dr));
    CHECK_ERR(ncmpi_def_dim(nc, "y", NY, &dy));
    CHECK_ERR(ncmpi_def_dim(nc, "x", NX, &dx));
    dims[0] = dy; dims[1] = dx;
    CHECK_ERR(ncmpi_def_var(nc, "vi", NC_INT, 2, dims, &vi));
    dims[0] = dr;
    CHECK_ERR(ncmpi_def_var(nc, "vr", NC_INT, 2, dims, &vr));
    CHECK_ERR(ncmpi_def_var(nc, "vc", NC_CHAR, 1, &dx, &vc));
    CHECK_ERR(ncmpi_put_att_text(nc, NC_GLOBAL, "title", 5, "hello"));
    CHECK_ERR(ncmpi_put_att_int(nc, NC_GLOBAL, "units", NC_INT, 1, &units));
    define_errors(nc, dx, dr, vi);
    expect_shape(nc, 3, 3, 2);
    EXPECT_ERR(ncmpi_inq_attid(nc, vi, "a", &i), NC_ENOTATT);
    /* an out-of-range attribute value still creates the attribute */
    CHECK_ERR(ncmpi_inq_attid(nc, vi, "r", &i));
    CHECK_ERR(ncmpi_get_att_short(nc, vi, "r", &sh));
    CHECK(sh == NC_FILL_SHORT);
    CHECK_ERR(ncmpi_del_att(nc, vi, "r"));
    CHECK_ERR(ncmpi_enddef(nc));

    /* known content first, so the refused writes can be shown harmless */
    for (i = 0; i < NY * NX; i++)
        buf[i] = 10 * i;
    tu_part(NY, tu_myrank, tu_nranks, &s, &c);
    st[0] = s; st[1] = 0; ct[0] = c; ct[1] = NX;
    CHECK_ERR(ncmpi_put_vara_int_all(nc, vi, st, ct, buf + s * NX));
    CHECK_ERR(ncmpi_put_vara_int_all(nc, vr, st, ct, buf + s * NX));
    CHECK_ERR(ncmpi_put_var_text_all(nc, vc, "wxyz"));
    CHECK_ERR(tu_sync(nc));
    access_errors(nc, vi, vr, vc);
    inquiry_errors(nc, vi);

    CHECK_ERR(ncmpi_inq_dimlen(nc, dr, &n));
    CHECK(n == NY);
    for (i = 0; i < NY * NX; i++)
        buf[i] = -1;
    CHECK_ERR(ncmpi_get_var_int_all(nc, vi, buf));
    for (i = 0; i < NY * NX; i++)
        CHECKF(buf[i] == 10 * i, "vi[%d]=%d", i, buf[i]);
    CHECK_ERR(ncmpi_get_var_int_all(nc, vr, buf));
    for (i = 0; i < NY * NX; i++)
        CHECKF(buf[i] == 10 * i, "vr[%d]=%d", i, buf[i]);
    CHECK_ERR(ncmpi_get_var_text_all(nc, vc, txt));
    CHECK(memcmp(txt, "wxyz", NX) == 0);
    expect_shape(nc, 3, 3, 2);
    CHECK_ERR(ncmpi_close(nc));

    tu_sibling(p, sizeof p, path, "_varsize.nc");
    varsize(p);
    return tu_finish("t_badargs");
}
