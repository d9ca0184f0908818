/* ncp-test: RANKS 1 2 4 */
/* t_hints -- layout hints: nc_header_align_size, nc_var_align_size and
 * nc_record_align_size given through MPI_Info at create, and the
 * h_minfree / v_align / v_minfree / r_align arguments of ncmpi__enddef.
 *
 * Each case lays out the same four variables (two fixed, two record) and
 * checks the header extent, the variable offsets and the record size
 * against the values PnetCDF 1.12.3 produces, then writes every variable
 * so the file is complete.  The cases differ only in layout, so the files
 * differ only in where the bytes are.  Files: <main>.nc is the default
 * layout, the others are <main>_<case>.nc.
 */
#include "testutil.h"

#define NX 5

struct layout {
    const char *suffix;
    const char *hdr, *var, *rec;          /* info hints, NULL = not set */
    int use_enddef_args;                  /* call ncmpi__enddef instead */
    MPI_Offset h_minfree, v_align, v_minfree, r_align;
    MPI_Offset extent, off[4];            /* expected: fix1 fix2 rec1 rec2 */
};

static const struct layout cases[] = {
    {".nc", NULL, NULL, NULL, 0, 0, 0, 0, 0, 512, {512, 532, 556, 576}},
    {"_hdr1k.nc", "1024", NULL, NULL, 0, 0, 0, 0, 0, 1024, {1024, 1044, 1068, 1088}},
    {"_var256.nc", NULL, "256", NULL, 0, 0, 0, 0, 0, 512, {512, 768, 1024, 1044}},
    {"_rec1k.nc", NULL, NULL, "1024", 0, 0, 0, 0, 0, 512, {512, 532, 1024, 1044}},
    {"_all.nc", "2048", "512", "4096", 0, 0, 0, 0, 0, 2048, {2048, 2560, 4096, 4116}},
    {"_enddef.nc", NULL, NULL, NULL, 1, 1000, 4096, 500, 1024, 4096, {4096, 4116, 5120, 5140}},
    {"_bad.nc", "abc", "-8", "0", 0, 0, 0, 0, 0, 512, {512, 532, 556, 576}},
};

static void one_case(const char *main_path, const struct layout *L)
{
    char path[4096];
    MPI_Info info = MPI_INFO_NULL, used = MPI_INFO_NULL;
    int nc, dt, dx, dy, dz, dims[2], v[4], i, flag = 0;
    MPI_Offset off, ext, rs, s, c, st[2], ct[2];
    char val[MPI_MAX_INFO_VAL + 1];
    int ib[NX] = {1, 2, 3, 4, 5};
    double db[3] = {0.5, 1.5, 2.5};
    short sb[4] = {7, 8, 9, 10};

    tu_sibling(path, sizeof path, main_path, L->suffix);
    if (L->hdr || L->var || L->rec) {
        MPI_Info_create(&info);
        if (L->hdr) MPI_Info_set(info, "nc_header_align_size", L->hdr);
        if (L->var) MPI_Info_set(info, "nc_var_align_size", L->var);
        if (L->rec) MPI_Info_set(info, "nc_record_align_size", L->rec);
    }
    CHECK_ERR(ncmpi_create(MPI_COMM_WORLD, path, NC_CLOBBER, info, &nc));
    if (info != MPI_INFO_NULL)
        MPI_Info_free(&info);
    CHECK_ERR(ncmpi_def_dim(nc, "time", NC_UNLIMITED, &dt));
    CHECK_ERR(ncmpi_def_dim(nc, "x", NX, &dx));
    CHECK_ERR(ncmpi_def_dim(nc, "y", 3, &dy));
    CHECK_ERR(ncmpi_def_dim(nc, "z", 4, &dz));
    CHECK_ERR(ncmpi_def_var(nc, "fix1", NC_INT, 1, &dx, &v[0]));
    CHECK_ERR(ncmpi_def_var(nc, "fix2", NC_DOUBLE, 1, &dy, &v[1]));
    dims[0] = dt; dims[1] = dx;
    CHECK_ERR(ncmpi_def_var(nc, "rec1", NC_INT, 2, dims, &v[2]));
    dims[1] = dz;
    CHECK_ERR(ncmpi_def_var(nc, "rec2", NC_SHORT, 2, dims, &v[3]));
    if (L->use_enddef_args)
        CHECK_ERR(ncmpi__enddef(nc, L->h_minfree, L->v_align, L->v_minfree, L->r_align));
    else
        CHECK_ERR(ncmpi_enddef(nc));

    CHECK_ERR(ncmpi_inq_header_extent(nc, &ext));
    CHECKF(ext == L->extent, "%s: extent %lld", L->suffix, (long long)ext);
    for (i = 0; i < 4; i++) {
        CHECK_ERR(ncmpi_inq_varoffset(nc, v[i], &off));
        CHECKF(off == L->off[i], "%s: offset[%d] %lld want %lld", L->suffix, i,
               (long long)off, (long long)L->off[i]);
    }
    CHECK_ERR(ncmpi_inq_recsize(nc, &rs));
    CHECKF(rs == NX * 4 + 8, "%s: recsize %lld", L->suffix, (long long)rs);

    /* the hints in force are reported back */
    CHECK_ERR(ncmpi_inq_file_info(nc, &used));
    if (used != MPI_INFO_NULL) {
        MPI_Info_get(used, "nc_header_align_size", MPI_MAX_INFO_VAL, val, &flag);
        CHECKF(flag, "%s: nc_header_align_size reported", L->suffix);
        if (flag && L->hdr && strcmp(L->hdr, "abc") != 0)
            CHECKF(strcmp(val, L->hdr) == 0, "%s: header hint %s", L->suffix, val);
        MPI_Info_free(&used);
    }

    /* write everything: rank blocks of the fixed ones, two records */
    tu_part(NX, tu_myrank, tu_nranks, &s, &c);
    CHECK_ERR(ncmpi_put_vara_int_all(nc, v[0], &s, &c, ib + s));
    CHECK_ERR(ncmpi_put_var_double_all(nc, v[1], db));
    for (i = 0; i < 2; i++) {
        st[0] = i; st[1] = s; ct[0] = 1; ct[1] = c;
        CHECK_ERR(ncmpi_put_vara_int_all(nc, v[2], st, ct, ib + s));
        st[1] = 0; ct[1] = 4;
        CHECK_ERR(ncmpi_put_vara_short_all(nc, v[3], st, ct, sb));
    }
    CHECK_ERR(ncmpi_close(nc));

    /* the layout survives a reopen */
    CHECK_ERR(ncmpi_open(MPI_COMM_WORLD, path, NC_NOWRITE, MPI_INFO_NULL, &nc));
    for (i = 0; i < 4; i++) {
        CHECK_ERR(ncmpi_inq_varoffset(nc, v[i], &off));
        CHECKF(off == L->off[i], "%s reopen: offset[%d] %lld", L->suffix, i, (long long)off);
    }
    CHECK_ERR(ncmpi_close(nc));
}

int main(int argc, char **argv)
{
    const char *path;
    size_t k;
    tu_init(&argc, &argv);
    path = tu_main_path(argc, argv);
    CHECK(path != NULL);
    if (!path)
        return tu_finish("t_hints");
    for (k = 0; k < sizeof cases / sizeof cases[0]; k++)
        one_case(path, &cases[k]);
    return tu_finish("t_hints");
}
