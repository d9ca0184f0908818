/* ncp-test: RANKS 1 2 4 NO_CDL */
/* t_inq_misc -- the small inquiries PnetCDF 1.12.3 answers, answered the
 * same: ncmpi_inq_libvers starts with PNETCDF_VERSION; ncmpi_inq_version
 * names the format by its create flag; ncmpi_inq_files_opened counts the
 * open datasets and lists their ids; the allocation inquiries of a
 * non-debug build say NC_ENOTENABLED; ncmpi_inq_file_info accepts NULL
 * and reports every hint PnetCDF reports; in define mode before the
 * first enddef the alignments are the ones asked for (0 if none), after
 * it the ones in effect.  Also that hints other
 * libraries set are accepted: nc_num_aggrs_per_node (PnetCDF 1.14's
 * intra-node aggregation, 0 = off) and nc_driver values of other
 * libraries ("gio", PnetCDF 1.15).
 */
#define _POSIX_C_SOURCE 200809L
#include "hintutil.h"
#include "testutil.h"
#include <stdlib.h>

static const char *const pnetcdf_keys[] = {
    "nc_header_align_size", "nc_var_align_size", "nc_record_align_size",
    "nc_header_read_chunk_size", "nc_in_place_swap", "nc_ibuf_size",
    "pnetcdf_subfiling", "nc_num_subfiles",
};

static void check_info(int nc, const char *swap)
{
    MPI_Info info = MPI_INFO_NULL;
    char val[MPI_MAX_INFO_VAL + 1];
    int i, flag;
    EXPECT_ERR(ncmpi_inq_file_info(nc, NULL), NC_NOERR);
    CHECK_ERR(ncmpi_inq_file_info(nc, &info));
    if (info == MPI_INFO_NULL) return;
    for (i = 0; i < (int)(sizeof pnetcdf_keys / sizeof pnetcdf_keys[0]);
         i++) {
        flag = 0;
        MPI_Info_get(info, pnetcdf_keys[i], MPI_MAX_INFO_VAL, val, &flag);
        CHECKF(flag, "info lacks %s", pnetcdf_keys[i]);
    }
    flag = 0;
    MPI_Info_get(info, "nc_in_place_swap", MPI_MAX_INFO_VAL, val, &flag);
    CHECKF(flag && strcmp(val, swap) == 0, "nc_in_place_swap=%s, want %s",
           flag ? val : "(none)", swap);
    flag = 0;
    MPI_Info_get(info, "nc_header_read_chunk_size", MPI_MAX_INFO_VAL, val,
                 &flag);
    CHECKF(flag && strcmp(val, "262144") == 0,
           "nc_header_read_chunk_size=%s", flag ? val : "(none)");
    flag = 0;
    MPI_Info_get(info, "pnetcdf_subfiling", MPI_MAX_INFO_VAL, val, &flag);
    CHECKF(flag && strcmp(val, "disable") == 0, "pnetcdf_subfiling=%s",
           flag ? val : "(none)");
    MPI_Info_free(&info);
}

static void check_version(const char *path, int cmode, int want)
{
    int nc = -1, v = -1;
    CHECK_ERR(ncmpi_create(MPI_COMM_WORLD, path, cmode | NC_CLOBBER,
                           MPI_INFO_NULL, &nc));
    CHECK_ERR(ncmpi_inq_version(nc, &v));
    CHECKF(v == want, "inq_version %d want %d (cmode %d)", v, want, cmode);
    CHECK_ERR(ncmpi_inq_version(nc, NULL));
    CHECK_ERR(ncmpi_enddef(nc));
    CHECK_ERR(ncmpi_close(nc));
    CHECK_ERR(ncmpi_open(MPI_COMM_WORLD, path, NC_NOWRITE, MPI_INFO_NULL,
                         &nc));
    v = -1;
    CHECK_ERR(ncmpi_inq_version(nc, &v));
    CHECKF(v == want, "inq_version after open %d want %d", v, want);
    CHECK_ERR(ncmpi_close(nc));
}

static void check_files_opened(const char *path_a, const char *path_b)
{
    int a = -1, b = -1, n = -1, ids[4] = {-1, -1, -1, -1};
    CHECK_ERR(ncmpi_inq_files_opened(&n, NULL));
    CHECKF(n == 0, "%d datasets open at start", n);
    EXPECT_ERR(ncmpi_inq_files_opened(NULL, NULL), NC_EINVAL);
    CHECK_ERR(ncmpi_create(MPI_COMM_WORLD, path_a, NC_CLOBBER, MPI_INFO_NULL,
                           &a));
    CHECK_ERR(ncmpi_create(MPI_COMM_WORLD, path_b, NC_CLOBBER, MPI_INFO_NULL,
                           &b));
    CHECK_ERR(ncmpi_inq_files_opened(&n, ids));
    CHECKF(n == 2 && ((ids[0] == a && ids[1] == b) ||
                      (ids[0] == b && ids[1] == a)),
           "files_opened %d [%d %d], want 2 [%d %d]", n, ids[0], ids[1], a,
           b);
    CHECK_ERR(ncmpi_close(a));
    CHECK_ERR(ncmpi_inq_files_opened(&n, ids));
    CHECKF(n == 1 && ids[0] == b, "files_opened %d [%d] want 1 [%d]", n,
           ids[0], b);
    CHECK_ERR(ncmpi_close(b));
    CHECK_ERR(ncmpi_inq_files_opened(&n, NULL));
    CHECKF(n == 0, "%d datasets open at the end", n);
}

/* A hint another library defines opens the file; the file is ordinary. */
static void expect_info_val(int nc, const char *key, const char *want)
{
    MPI_Info info = MPI_INFO_NULL;
    char val[MPI_MAX_INFO_VAL + 1];
    int flag = 0;
    CHECK_ERR(ncmpi_inq_file_info(nc, &info));
    if (info == MPI_INFO_NULL) return;
    MPI_Info_get(info, key, MPI_MAX_INFO_VAL, val, &flag);
    CHECKF(flag && strcmp(val, want) == 0, "%s=%s, want %s", key,
           flag ? val : "(none)", want);
    MPI_Info_free(&info);
}

/* Alignments asked for show before enddef; unasked ones show 0 until
 * enddef settles them. */
static void check_define_mode_aligns(const char *path)
{
    MPI_Info info = tu_info_of("nc_header_align_size=2048;"
                               "nc_var_align_size=512");
    int nc = -1, d, v;
    CHECK_ERR(ncmpi_create(MPI_COMM_WORLD, path, NC_CLOBBER, info, &nc));
    expect_info_val(nc, "nc_header_align_size", "2048");
    expect_info_val(nc, "nc_var_align_size", "512");
    expect_info_val(nc, "nc_record_align_size", "0");
    CHECK_ERR(ncmpi_def_dim(nc, "x", 4, &d));
    CHECK_ERR(ncmpi_def_var(nc, "v", NC_INT, 1, &d, &v));
    CHECK_ERR(ncmpi_set_fill(nc, NC_FILL, NULL));
    CHECK_ERR(ncmpi_enddef(nc));
    expect_info_val(nc, "nc_header_align_size", "2048");
    expect_info_val(nc, "nc_var_align_size", "512");
    expect_info_val(nc, "nc_record_align_size", "4");
    CHECK_ERR(ncmpi_close(nc));
    MPI_Info_free(&info);
}

static void check_foreign_hints(const char *path, const char *hints)
{
    MPI_Info info = tu_info_of(hints);
    int nc = -1, d, v;
    CHECK_ERR(ncmpi_create(MPI_COMM_WORLD, path, NC_CLOBBER, info, &nc));
    CHECK_ERR(ncmpi_def_dim(nc, "x", 4, &d));
    CHECK_ERR(ncmpi_def_var(nc, "v", NC_INT, 1, &d, &v));
    CHECK_ERR(ncmpi_set_fill(nc, NC_FILL, NULL));
    CHECK_ERR(ncmpi_enddef(nc));
    CHECK_ERR(ncmpi_close(nc));
    CHECK_ERR(ncmpi_open(MPI_COMM_WORLD, path, NC_WRITE, info, &nc));
    CHECK_ERR(ncmpi_close(nc));
    MPI_Info_free(&info);
}

int main(int argc, char **argv)
{
    const char *path;
    char other[1024], ver[1024];
    MPI_Offset size = 0;
    int nc = -1;
    tu_init(&argc, &argv);
    path = tu_main_path(argc, argv);
    CHECK(path != NULL);
    if (!path) return tu_finish("t_inq_misc");
    unsetenv("PNETCDF_HINTS");

    CHECKF(strncmp(ncmpi_inq_libvers(), PNETCDF_VERSION,
                   strlen(PNETCDF_VERSION)) == 0,
           "libvers '%s' does not start with %s", ncmpi_inq_libvers(),
           PNETCDF_VERSION);

    EXPECT_ERR(ncmpi_inq_malloc_size(&size), NC_ENOTENABLED);
    EXPECT_ERR(ncmpi_inq_malloc_max_size(&size), NC_ENOTENABLED);
    EXPECT_ERR(ncmpi_inq_malloc_list(), NC_ENOTENABLED);

    tu_sibling(other, sizeof other, path, "_b.nc");
    check_files_opened(path, other);

    tu_sibling(ver, sizeof ver, path, "_ver.nc");
    check_version(ver, 0, NC_CLASSIC_MODEL);
    check_version(ver, NC_64BIT_OFFSET, NC_64BIT_OFFSET);
    check_version(ver, NC_64BIT_DATA, NC_64BIT_DATA);
    check_define_mode_aligns(ver);

    CHECK_ERR(ncmpi_open(MPI_COMM_WORLD, path, NC_NOWRITE, MPI_INFO_NULL,
                         &nc));
    check_info(nc, "auto");
    CHECK_ERR(ncmpi_close(nc));
    {
        MPI_Info info = tu_info_of("nc_in_place_swap=disable");
        CHECK_ERR(ncmpi_open(MPI_COMM_WORLD, path, NC_NOWRITE, info, &nc));
        check_info(nc, "disable");
        CHECK_ERR(ncmpi_close(nc));
        MPI_Info_free(&info);
    }

    tu_sibling(other, sizeof other, path, "_hints.nc");
    check_foreign_hints(other, "nc_num_aggrs_per_node=0");
    check_foreign_hints(other, "nc_num_aggrs_per_node=2");
    check_foreign_hints(other, "nc_driver=gio");
    check_foreign_hints(other, "nc_driver=gio;nc_num_aggrs_per_node=0");
    return tu_finish("t_inq_misc");
}
