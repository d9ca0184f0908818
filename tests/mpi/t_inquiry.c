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

#include "have_ncpario.h"

#define NY 3
#define NX 5

/* The hints PnetCDF 1.12.3 reports after enddef when the program gave
 * none, with its values; ncpario reports the same. */
static const char *const pnetcdf_keys[][2] = {
    {"nc_header_align_size", "512"}, {"nc_var_align_size", "4"},
    {"nc_record_align_size", "4"}, {"nc_header_read_chunk_size", "262144"},
    {"nc_in_place_swap", "auto"}, {"nc_ibuf_size", "16777216"},
    {"pnetcdf_subfiling", "disable"}, {"nc_num_subfiles", "0"},
};

#ifdef HAVE_NCPARIO
/* ncpario's other rows of src/util/hint_table.def, at their defaults.  A
 * NULL value is one the test matrix's PNETCDF_HINTS changes per cell
 * (driver, I/O groups), so only its presence is checked. */
static const char *const ncpario_keys[][2] = {
    {"nc_driver", NULL}, {"nc_sync_durable", "disable"},
    {"nc_indep_buffer_size", "67108864"}, {"nc_kept_buffer_size", "67108864"},
    {"nc_data_move_chunk_size", "1048576"},
    {"nc_bcast_chunk_size", "1073741824"}, {"nc_num_aggrs_per_node", "0"},
    {"nc_io_group_size", NULL}, {"nc_io_group_per_node", "off"},
    {"nc_io_group_buffer_size", NULL}, {"nc_posix_aggrs_per_node", "1"},
    {"nc_posix_buffer_size", "1048576"}, {"nc_posix_shm", "auto"},
    {"nc_posix_window", "sized"}, {"nc_posix_shm_keep", "enable"},
    {"nc_write_behind", "disable"}, {"nc_write_behind_size", NULL},
    {"nc_burst_buf", "disable"}, {"nc_burst_buf_flush_buffer_size", NULL},
};
#endif

#define NKEYS(t) ((int)(sizeof(t) / sizeof((t)[0])))

/* Counts the keys of table found in info, checking each one's value. */
static int count_keys(MPI_Info info, const char *const table[][2], int n,
                      const char *which)
{
    char val[MPI_MAX_INFO_VAL + 1];
    int i, flag, found = 0;
    for (i = 0; i < n; i++) {
        flag = 0;
        MPI_Info_get(info, table[i][0], MPI_MAX_INFO_VAL, val, &flag);
        CHECKF(flag, "%s: no %s", which, table[i][0]);
        if (!flag) continue;
        found++;
        CHECKF(!table[i][1] || strcmp(val, table[i][1]) == 0,
               "%s: %s=%s, want %s", which, table[i][0], val, table[i][1]);
    }
    return found;
}

static void check_info_keys(MPI_Info info, const char *which)
{
    int nkeys = -1, known;
    CHECK(MPI_Info_get_nkeys(info, &nkeys) == MPI_SUCCESS);
    known = count_keys(info, pnetcdf_keys, NKEYS(pnetcdf_keys), which);
#ifdef HAVE_NCPARIO
    {
        char drv[MPI_MAX_INFO_VAL + 1] = "";
        int flag = 0;
        known += count_keys(info, ncpario_keys, NKEYS(ncpario_keys), which);
        MPI_Info_get(info, "nc_driver", MPI_MAX_INFO_VAL, drv, &flag);
        CHECKF(strcmp(drv, "posix") == 0 || strcmp(drv, "mpiio") == 0,
               "%s: nc_driver=%s", which, drv);
        /* The posix driver reports the table and the program's own
         * hints (none here), having no MPI-IO layer to add keys; under
         * mpiio the MPI library may add its hints (OpenMPI 4.1 echoes
         * only the keys it was given, all the table's here). */
        if (strcmp(drv, "posix") == 0)
            CHECKF(nkeys == known && known == NKEYS(pnetcdf_keys) +
                                                  NKEYS(ncpario_keys),
                   "%s: %d keys, %d of them ncpario's", which, nkeys, known);
    }
#else
    /* PnetCDF adds what MPI_File_get_info returns, which under OpenMPI
     * echoes the cell's PNETCDF_HINTS, so only its own keys are exact. */
    CHECKF(known == NKEYS(pnetcdf_keys) && nkeys >= known,
           "%s: %d keys, %d of them PnetCDF's", which, nkeys, known);
#endif
}

static void check_info(int nc)
{
    MPI_Info info = MPI_INFO_NULL;
    CHECK_ERR(ncmpi_inq_file_info(nc, &info));
    CHECK(info != MPI_INFO_NULL);
    if (info != MPI_INFO_NULL) {
        check_info_keys(info, "inq_file_info");
        MPI_Info_free(&info);
    }
    CHECK_ERR(ncmpi_get_file_info(nc, &info));
    CHECK(info != MPI_INFO_NULL);
    if (info != MPI_INFO_NULL) {
        check_info_keys(info, "get_file_info");
        MPI_Info_free(&info);
    }
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
