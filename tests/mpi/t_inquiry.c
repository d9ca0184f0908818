/* ncp-test: RANKS 1 2 4 */
/* t_inquiry -- every inquiry function of the foundation, on one small
 * dataset per format, with the values PnetCDF 1.12.3 gives.
 *
 * Layout values (offsets, header size and extent, record size) are the
 * defaults (no hints): header extent 512, variables 4-byte aligned.  The
 * put/get byte counters are per rank: rank 0 alone writes the header, and
 * each rank counts the data bytes it moved itself.  Files: <main>.nc
 * (CDF-1), <main>_cdf2.nc, <main>_cdf5.nc, and <main>_dflt.nc created with
 * cmode 0 after ncmpi_set_default_format(NC_FORMAT_CDF5).
 */
#include "testutil.h"

#define NY 3
#define NX 5

static void check_info(int nc)
{
    MPI_Info info = MPI_INFO_NULL;
    int nkeys = -1, flag = 0;
    char val[MPI_MAX_INFO_VAL + 1];
    CHECK_ERR(ncmpi_inq_file_info(nc, &info));
    CHECK(info != MPI_INFO_NULL);
    if (info != MPI_INFO_NULL) {
        CHECK(MPI_Info_get_nkeys(info, &nkeys) == MPI_SUCCESS && nkeys >= 0);
        MPI_Info_get(info, "nc_header_align_size", MPI_MAX_INFO_VAL, val, &flag);
        CHECK(flag);
        MPI_Info_free(&info);
    }
    CHECK_ERR(ncmpi_get_file_info(nc, &info));
    CHECK(info != MPI_INFO_NULL);
    if (info != MPI_INFO_NULL)
        MPI_Info_free(&info);
}

static void one_file(const char *path, int cmode, int want_format, MPI_Offset hsize)
{
    int nc, dt, dy, dx, vi, vd, vs, vc, vf, dims[2], i, n, ids[4], fmt;
    int ss = -1, sc = -1, len;
    MPI_Offset off, v, rs, ps0, ps1, gs0, gs1, s, c, st[2], ct[2];
    nc_type t;
    char name[NC_MAX_NAME + 1], p[4096];
    int buf[NY * NX] = {0};
    double dbuf[NX] = {0};

    CHECK_ERR(ncmpi_create(MPI_COMM_WORLD, path, cmode | NC_CLOBBER, MPI_INFO_NULL, &nc));
    CHECK_ERR(ncmpi_def_dim(nc, "time", NC_UNLIMITED, &dt));
    CHECK_ERR(ncmpi_def_dim(nc, "y", NY, &dy));
    CHECK_ERR(ncmpi_def_dim(nc, "x", NX, &dx));
    dims[0] = dy; dims[1] = dx;
    CHECK_ERR(ncmpi_def_var(nc, "fix_i", NC_INT, 2, dims, &vi));
    dims[0] = dt;
    CHECK_ERR(ncmpi_def_var(nc, "rec_d", NC_DOUBLE, 2, dims, &vd));
    CHECK_ERR(ncmpi_def_var(nc, "rec_i", NC_INT, 1, dims, &vs));
    CHECK_ERR(ncmpi_def_var(nc, "fix_c", NC_CHAR, 1, &dx, &vc));
    CHECK_ERR(ncmpi_def_var(nc, "sc", NC_FLOAT, 0, NULL, &vf));
    CHECK_ERR(ncmpi_put_att_text(nc, NC_GLOBAL, "title", 4, "test"));
    CHECK_ERR(ncmpi_put_att_text(nc, vd, "units", 1, "m"));
    /* before the first enddef nothing is laid out yet */
    CHECK_ERR(ncmpi_inq_varoffset(nc, vi, &off));
    CHECK(off == 0);
    CHECK_ERR(ncmpi_inq_recsize(nc, &rs));
    CHECK(rs == 0);
    CHECK_ERR(ncmpi_inq_header_size(nc, &v));
    CHECK(v == 0);
    CHECK_ERR(ncmpi_enddef(nc));

    CHECK_ERR(ncmpi_inq(nc, &i, &n, &len, &fmt));
    CHECK(i == 3 && n == 5 && len == 1 && fmt == dt);
    CHECK_ERR(ncmpi_inq_ndims(nc, &n)); CHECK(n == 3);
    CHECK_ERR(ncmpi_inq_nvars(nc, &n)); CHECK(n == 5);
    CHECK_ERR(ncmpi_inq_natts(nc, &n)); CHECK(n == 1);
    CHECK_ERR(ncmpi_inq_unlimdim(nc, &n)); CHECK(n == dt);
    CHECK_ERR(ncmpi_inq_dimid(nc, "x", &n)); CHECK(n == dx);
    CHECK_ERR(ncmpi_inq_dim(nc, dy, name, &v));
    CHECK(strcmp(name, "y") == 0 && v == NY);
    CHECK_ERR(ncmpi_inq_dimname(nc, dt, name)); CHECK(strcmp(name, "time") == 0);
    CHECK_ERR(ncmpi_inq_dimlen(nc, dt, &v)); CHECK(v == 0);
    CHECK_ERR(ncmpi_inq_varid(nc, "rec_i", &n)); CHECK(n == vs);
    CHECK_ERR(ncmpi_inq_var(nc, vd, name, &t, &n, ids, &i));
    CHECK(strcmp(name, "rec_d") == 0 && t == NC_DOUBLE && n == 2 && ids[0] == dt && ids[1] == dx && i == 1);
    CHECK_ERR(ncmpi_inq_varname(nc, vc, name)); CHECK(strcmp(name, "fix_c") == 0);
    CHECK_ERR(ncmpi_inq_vartype(nc, vs, &t)); CHECK(t == NC_INT);
    CHECK_ERR(ncmpi_inq_varndims(nc, vf, &n)); CHECK(n == 0);
    CHECK_ERR(ncmpi_inq_vardimid(nc, vi, ids)); CHECK(ids[0] == dy && ids[1] == dx);
    CHECK_ERR(ncmpi_inq_varnatts(nc, vi, &n)); CHECK(n == 0);
    CHECK_ERR(ncmpi_inq_num_rec_vars(nc, &n)); CHECK(n == 2);
    CHECK_ERR(ncmpi_inq_num_fix_vars(nc, &n)); CHECK(n == 3);

    /* layout: fixed variables in definition order from the header extent,
     * each start rounded up to 4 bytes; then the record variables */
    CHECK_ERR(ncmpi_inq_recsize(nc, &rs)); CHECK(rs == NX * 8 + 4);
    CHECK_ERR(ncmpi_inq_header_size(nc, &v)); CHECKF(v == hsize, "header size %lld", (long long)v);
    CHECK_ERR(ncmpi_inq_header_extent(nc, &v)); CHECK(v == 512);
    CHECK_ERR(ncmpi_inq_varoffset(nc, vi, &off)); CHECK(off == 512);
    CHECK_ERR(ncmpi_inq_varoffset(nc, vc, &off)); CHECK(off == 572);
    CHECK_ERR(ncmpi_inq_varoffset(nc, vf, &off)); CHECK(off == 580);
    CHECK_ERR(ncmpi_inq_varoffset(nc, vd, &off)); CHECK(off == 584);
    CHECK_ERR(ncmpi_inq_varoffset(nc, vs, &off)); CHECK(off == 624);

    CHECK_ERR(ncmpi_inq_striping(nc, &ss, &sc));
    CHECK(ss == 0 && sc == 0); /* not a striped file system */
    CHECK_ERR(ncmpi_inq_format(nc, &fmt)); CHECK(fmt == want_format);
    CHECK_ERR(ncmpi_inq_path(nc, &len, NULL)); CHECK(len == (int)strlen(path));
    CHECK_ERR(ncmpi_inq_path(nc, &len, p)); CHECK(strcmp(p, path) == 0);
    check_info(nc);

    /* byte counters: rank 0 wrote the header; then each rank's own data */
    CHECK_ERR(ncmpi_inq_put_size(nc, &ps0));
    CHECK_ERR(ncmpi_inq_get_size(nc, &gs0));
    CHECK(ps0 == (tu_myrank == 0 ? hsize : 0) && gs0 == 0);
    tu_part(NY, tu_myrank, tu_nranks, &s, &c);
    st[0] = s; st[1] = 0; ct[0] = c; ct[1] = NX;
    for (i = 0; i < NY * NX; i++)
        buf[i] = i;
    CHECK_ERR(ncmpi_put_vara_int_all(nc, vi, st, ct, buf + s * NX));
    CHECK_ERR(ncmpi_inq_put_size(nc, &ps1));
    CHECK(ps1 - ps0 == c * NX * 4);
    CHECK_ERR(tu_sync(nc));
    CHECK_ERR(ncmpi_get_var_int_all(nc, vi, buf));
    CHECK_ERR(ncmpi_inq_get_size(nc, &gs1));
    CHECK(gs1 - gs0 == NY * NX * 4);
    for (i = 0; i < NY * NX; i++)
        CHECKF(buf[i] == i, "fix_i[%d]", i);
    CHECK_ERR(ncmpi_put_var_text_all(nc, vc, "abcde"));
    CHECK_ERR(ncmpi_put_var_float_all(nc, vf, &(float){2.5f}));
    st[0] = 0; ct[0] = 1;
    CHECK_ERR(ncmpi_put_vara_double_all(nc, vd, st, ct, dbuf));
    CHECK_ERR(ncmpi_put_vara_short_all(nc, vs, st, ct, &(short){7}));
    CHECK_ERR(ncmpi_inq_dimlen(nc, dt, &v)); CHECK(v == 1);
    CHECK_ERR(ncmpi_close(nc));

    CHECK_ERR(ncmpi_inq_file_format(path, &fmt));
    CHECK(fmt == want_format);
}

int main(int argc, char **argv)
{
    char p[4096];
    int old = -1, fmt = -1;
    const char *path, *s;

    tu_init(&argc, &argv);
    path = tu_main_path(argc, argv);
    CHECK(path != NULL);
    if (!path)
        return tu_finish("t_inquiry");
    one_file(path, 0, NC_FORMAT_CLASSIC, 316);
    tu_sibling(p, sizeof p, path, "_cdf2.nc");
    one_file(p, NC_64BIT_OFFSET, NC_FORMAT_CDF2, 336);
    tu_sibling(p, sizeof p, path, "_cdf5.nc");
    one_file(p, NC_64BIT_DATA, NC_FORMAT_CDF5, 496);

    /* the default format applies to cmode 0 until it is set back */
    CHECK_ERR(ncmpi_inq_default_format(&fmt));
    CHECK(fmt == NC_FORMAT_CLASSIC);
    CHECK_ERR(ncmpi_set_default_format(NC_FORMAT_CDF5, &old));
    CHECK(old == NC_FORMAT_CLASSIC);
    CHECK_ERR(ncmpi_inq_default_format(&fmt));
    CHECK(fmt == NC_FORMAT_CDF5);
    tu_sibling(p, sizeof p, path, "_dflt.nc");
    one_file(p, 0, NC_FORMAT_CDF5, 496);
    EXPECT_ERR(ncmpi_set_default_format(99, &old), NC_EINVAL);
    CHECK_ERR(ncmpi_set_default_format(NC_FORMAT_CLASSIC, &old));
    CHECK(old == NC_FORMAT_CDF5);
    CHECK_ERR(ncmpi_set_default_format(NC_FORMAT_CLASSIC, NULL));

    /* version and error strings */
    s = ncmpi_inq_libvers();
    CHECK(s != NULL && s[0] != '\0');
    CHECK(strcmp(ncmpi_strerrno(NC_NOERR), "NC_NOERR") == 0);
    CHECK(strcmp(ncmpi_strerrno(NC_EINVAL), "NC_EINVAL") == 0);
    CHECK(strcmp(ncmpi_strerrno(NC_EINDEP), "NC_EINDEP") == 0);
    CHECK(strcmp(ncmpi_strerrno(NC_ENOTINDEP), "NC_ENOTINDEP") == 0);
    CHECK(strcmp(ncmpi_strerrno(NC_EMULTIDEFINE_DIM_SIZE), "NC_EMULTIDEFINE_DIM_SIZE") == 0);
    CHECK(strcmp(ncmpi_strerrno(NC_ERANGE), "NC_ERANGE") == 0);
    /* an unknown code gets some text that names no NC_ code */
    CHECK(ncmpi_strerrno(-999) && strncmp(ncmpi_strerrno(-999), "NC_", 3) != 0);
    s = ncmpi_strerror(NC_EINVAL);
    CHECK(s != NULL && s[0] != '\0');
    CHECK(strcmp(ncmpi_strerror(NC_EINVAL), ncmpi_strerror(NC_ENOTVAR)) != 0);
    s = ncmpi_strerror(-999);
    CHECK(s != NULL);
    s = ncmpi_strerror(NC_NOERR);
    CHECK(s != NULL && s[0] != '\0');
    return tu_finish("t_inquiry");
}
