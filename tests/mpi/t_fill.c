/* ncp-test: RANKS 1 2 4 */
/* t_fill -- fill modes and fill values.
 *
 * PnetCDF's default is NC_NOFILL.  ncmpi_set_fill(NC_FILL) before enddef
 * makes enddef write each fixed-size variable's fill value: the
 * _FillValue attribute when there is one (def_var_fill sets it), else the
 * type's default.  def_var_fill(no_fill=1) exempts one variable.  Record
 * variables are filled record by record with fill_var_rec.  <main>.nc is
 * CDF-1 in fill mode; <main>_cdf5.nc holds the CDF-5 types; <main>_nofill.nc
 * shows that, by default, nothing is filled.
 */
#include "testutil.h"

#define N 8

static const nc_type all_types[] = {NC_BYTE, NC_CHAR, NC_SHORT, NC_INT,
                                    NC_FLOAT, NC_DOUBLE, NC_UBYTE, NC_USHORT,
                                    NC_UINT, NC_INT64, NC_UINT64};

/* The native bytes of a fill value of type t: the type's default fill
 * (which == 0) or the test's own value, 42 or its look-alike (which == 1). */
static void fill_bytes(nc_type t, int which, void *out)
{
    memset(out, 0, 8);
    switch (t) {
    case NC_BYTE: *(signed char *)out = which ? 42 : NC_FILL_BYTE; break;
    case NC_CHAR: *(char *)out = which ? 'F' : NC_FILL_CHAR; break;
    case NC_SHORT: *(short *)out = which ? 42 : NC_FILL_SHORT; break;
    case NC_INT: *(int *)out = which ? 42 : NC_FILL_INT; break;
    case NC_FLOAT: *(float *)out = which ? 42.5f : NC_FILL_FLOAT; break;
    case NC_DOUBLE: *(double *)out = which ? 42.25 : NC_FILL_DOUBLE; break;
    case NC_UBYTE: *(unsigned char *)out = which ? 42 : NC_FILL_UBYTE; break;
    case NC_USHORT: *(unsigned short *)out = which ? 42 : NC_FILL_USHORT; break;
    case NC_UINT: *(unsigned int *)out = which ? 42 : NC_FILL_UINT; break;
    case NC_INT64: *(long long *)out = which ? 42 : NC_FILL_INT64; break;
    case NC_UINT64: *(unsigned long long *)out = which ? 42 : NC_FILL_UINT64; break;
    }
}

static MPI_Datatype mpi_of(nc_type t)
{
    switch (t) {
    case NC_BYTE: return MPI_SIGNED_CHAR;
    case NC_CHAR: return MPI_CHAR;
    case NC_SHORT: return MPI_SHORT;
    case NC_INT: return MPI_INT;
    case NC_FLOAT: return MPI_FLOAT;
    case NC_DOUBLE: return MPI_DOUBLE;
    case NC_UBYTE: return MPI_UNSIGNED_CHAR;
    case NC_USHORT: return MPI_UNSIGNED_SHORT;
    case NC_UINT: return MPI_UNSIGNED;
    case NC_INT64: return MPI_LONG_LONG;
    default: return MPI_UNSIGNED_LONG_LONG;
    }
}

/* Every element of a fixed variable must hold the given native value. */
static void expect_filled(int nc, int v, nc_type t, int which, const char *what)
{
    long long raw[N], w;
    int i, sz = tu_xsize(t);
    fill_bytes(t, which, &w);
    CHECK_ERR(ncmpi_get_var_all(nc, v, raw, N, mpi_of(t)));
    for (i = 0; i < N; i++)
        CHECKF(memcmp((char *)raw + i * sz, &w, sz) == 0, "%s %s[%d]", what, tu_tname(t), i);
}

/* One variable per type with the default fill, one with a _FillValue set
 * through def_var_fill, and one exempt; enddef fills. */
static void typed_fill(const char *path, int cmode, int ntypes)
{
    int nc, d, t, old = -1, no_fill = -1;
    int vdef[11], vset[11], vnone[11];
    long long fv, got, zero[N] = {0};
    char name[32];

    CHECK_ERR(ncmpi_create(MPI_COMM_WORLD, path, cmode | NC_CLOBBER, MPI_INFO_NULL, &nc));
    CHECK_ERR(ncmpi_set_fill(nc, NC_FILL, &old));
    CHECK(old == NC_NOFILL);
    CHECK_ERR(ncmpi_def_dim(nc, "n", N, &d));
    for (t = 0; t < ntypes; t++) {
        nc_type xt = all_types[t];
        snprintf(name, sizeof name, "dflt_%s", tu_tname(xt));
        CHECK_ERR(ncmpi_def_var(nc, name, xt, 1, &d, &vdef[t]));
        snprintf(name, sizeof name, "set_%s", tu_tname(xt));
        CHECK_ERR(ncmpi_def_var(nc, name, xt, 1, &d, &vset[t]));
        fill_bytes(xt, 1, &fv);
        CHECK_ERR(ncmpi_def_var_fill(nc, vset[t], 0, &fv));
        snprintf(name, sizeof name, "none_%s", tu_tname(xt));
        CHECK_ERR(ncmpi_def_var(nc, name, xt, 1, &d, &vnone[t]));
        CHECK_ERR(ncmpi_def_var_fill(nc, vnone[t], 1, NULL));
    }
    CHECK_ERR(ncmpi_enddef(nc));
    CHECK_ERR(tu_sync(nc));
    for (t = 0; t < ntypes; t++) {
        nc_type xt = all_types[t];
        int sz = tu_xsize(xt);
        expect_filled(nc, vdef[t], xt, 0, "default");
        expect_filled(nc, vset[t], xt, 1, "_FillValue");
        got = 0;
        CHECK_ERR(ncmpi_inq_var_fill(nc, vdef[t], &no_fill, &got));
        fill_bytes(xt, 0, &fv);
        CHECK(no_fill == 0 && memcmp(&got, &fv, sz) == 0);
        CHECK_ERR(ncmpi_inq_var_fill(nc, vnone[t], &no_fill, NULL));
        CHECK(no_fill == 1);
        got = 0;
        CHECK_ERR(ncmpi_inq_var_fill(nc, vset[t], &no_fill, &got));
        fill_bytes(xt, 1, &fv);
        CHECK(no_fill == 0 && memcmp(&got, &fv, sz) == 0);
        CHECK_ERR(ncmpi_inq_attlen(nc, vset[t], "_FillValue", &(MPI_Offset){0}));
        /* the exempt variable is written so the file content is known */
        CHECK_ERR(ncmpi_put_var_all(nc, vnone[t], zero, N, mpi_of(xt)));
    }
    EXPECT_ERR(ncmpi_set_fill(nc, NC_NOFILL, &old), NC_ENOTINDEFINE);
    CHECK_ERR(ncmpi_close(nc));
}

/* Reopened, in redef: new variables are filled at enddef (one through a
 * _FillValue attribute put directly), the old ones are left alone. */
static void redef_fill(const char *path)
{
    int nc, d, vl, va, vold, old = -1, buf[N], i;
    CHECK_ERR(ncmpi_open(MPI_COMM_WORLD, path, NC_WRITE, MPI_INFO_NULL, &nc));
    CHECK_ERR(ncmpi_inq_dimid(nc, "n", &d));
    CHECK_ERR(ncmpi_inq_varid(nc, "set_int", &vold));
    CHECK_ERR(ncmpi_put_var_int_all(nc, vold, (int[N]){1, 2, 3, 4, 5, 6, 7, 8}));
    CHECK_ERR(tu_sync(nc));
    CHECK_ERR(ncmpi_redef(nc));
    CHECK_ERR(ncmpi_set_fill(nc, NC_FILL, &old));
    CHECK(old == NC_NOFILL);
    CHECK_ERR(ncmpi_def_var(nc, "late", NC_INT, 1, &d, &vl));
    CHECK_ERR(ncmpi_def_var(nc, "att_short", NC_SHORT, 1, &d, &va));
    EXPECT_ERR(ncmpi_put_att_int(nc, va, "_FillValue", NC_INT, 1, &(int){99}), NC_EBADTYPE);
    EXPECT_ERR(ncmpi_put_att_short(nc, va, "_FillValue", NC_SHORT, 2, (short[2]){9, 9}), NC_EINVAL);
    CHECK_ERR(ncmpi_put_att_short(nc, va, "_FillValue", NC_SHORT, 1, &(short){99}));
    CHECK_ERR(ncmpi_enddef(nc));
    CHECK_ERR(tu_sync(nc));
    expect_filled(nc, vl, NC_INT, 0, "late");
    CHECK_ERR(ncmpi_get_var_int_all(nc, va, buf));
    for (i = 0; i < N; i++)
        CHECKF(buf[i] == 99, "att_short[%d]=%d", i, buf[i]);
    CHECK_ERR(ncmpi_get_var_int_all(nc, vold, buf));
    for (i = 0; i < N; i++)
        CHECKF(buf[i] == i + 1, "old data [%d]=%d", i, buf[i]);
    CHECK_ERR(ncmpi_close(nc));
}

int main(int argc, char **argv)
{
    int nc, dt, dx, dims[2], vr, vf, vq, old = -1, no_fill = -1, i;
    int buf[N];
    MPI_Offset st[2], ct[2], n;
    char p[4096];
    const char *path;

    tu_init(&argc, &argv);
    path = tu_main_path(argc, argv);
    CHECK(path != NULL);
    if (!path)
        return tu_finish("t_fill");
    typed_fill(path, 0, 6);
    redef_fill(path);
    tu_sibling(p, sizeof p, path, "_cdf5.nc");
    typed_fill(p, NC_64BIT_DATA, 11);

    /* default NC_NOFILL; record fill by fill_var_rec; set_fill's old mode */
    tu_sibling(p, sizeof p, path, "_nofill.nc");
    CHECK_ERR(ncmpi_create(MPI_COMM_WORLD, p, NC_CLOBBER, MPI_INFO_NULL, &nc));
    CHECK_ERR(ncmpi_def_dim(nc, "time", NC_UNLIMITED, &dt));
    CHECK_ERR(ncmpi_def_dim(nc, "x", N, &dx));
    dims[0] = dt; dims[1] = dx;
    CHECK_ERR(ncmpi_def_var(nc, "fix", NC_INT, 1, &dx, &vf));
    CHECK_ERR(ncmpi_def_var(nc, "rec", NC_INT, 2, dims, &vr));
    CHECK_ERR(ncmpi_def_var(nc, "rec_fv", NC_INT, 2, dims, &vq));
    CHECK_ERR(ncmpi_put_att_int(nc, vq, "_FillValue", NC_INT, 1, &(int){-5}));
    CHECK_ERR(ncmpi_inq_var_fill(nc, vf, &no_fill, &i));
    CHECK(no_fill == 1 && i == NC_FILL_INT);
    CHECK_ERR(ncmpi_def_var_fill(nc, vr, 0, NULL));
    CHECK_ERR(ncmpi_set_fill(nc, NC_NOFILL, &old));
    CHECK(old == NC_NOFILL);
    CHECK_ERR(ncmpi_set_fill(nc, NC_FILL, &old));
    CHECK(old == NC_NOFILL);
    CHECK_ERR(ncmpi_set_fill(nc, NC_NOFILL, &old));
    CHECK(old == NC_FILL);
    /* set_fill resets every variable defined so far: vr's setting is gone */
    CHECK_ERR(ncmpi_inq_var_fill(nc, vr, &no_fill, NULL));
    CHECK(no_fill == 1);
    CHECK_ERR(ncmpi_def_var_fill(nc, vr, 0, NULL));
    CHECK_ERR(ncmpi_def_var_fill(nc, vq, 0, NULL));
    CHECK_ERR(ncmpi_inq_var_fill(nc, vq, &no_fill, &i));
    CHECK(no_fill == 0 && i == -5);
    CHECK_ERR(ncmpi_enddef(nc));
    /* not filled: the fixed variable reads as whatever the disk holds */
    CHECK_ERR(ncmpi_put_var_int_all(nc, vf, (int[N]){1, 2, 3, 4, 5, 6, 7, 8}));

    /* fill record 0 of both record variables, then write part of it */
    CHECK_ERR(ncmpi_fill_var_rec(nc, vr, 0));
    CHECK_ERR(ncmpi_fill_var_rec(nc, vq, 0));
    CHECK_ERR(ncmpi_inq_dimlen(nc, dt, &n));
    CHECK(n == 1);
    CHECK_ERR(tu_sync(nc));
    st[0] = 0; st[1] = 2; ct[0] = tu_myrank == 0; ct[1] = 2;
    CHECK_ERR(ncmpi_put_vara_int_all(nc, vr, st, ct, (int[2]){7, 8}));
    CHECK_ERR(ncmpi_put_vara_int_all(nc, vq, st, ct, (int[2]){7, 8}));
    CHECK_ERR(tu_sync(nc));
    CHECK_ERR(ncmpi_get_var_int_all(nc, vr, buf));
    for (i = 0; i < N; i++)
        CHECKF(buf[i] == (i == 2 ? 7 : i == 3 ? 8 : NC_FILL_INT), "rec[%d]=%d", i, buf[i]);
    CHECK_ERR(ncmpi_get_var_int_all(nc, vq, buf));
    for (i = 0; i < N; i++)
        CHECKF(buf[i] == (i == 2 ? 7 : i == 3 ? 8 : -5), "rec_fv[%d]=%d", i, buf[i]);
    /* record 1: filling past the end grows the record count */
    CHECK_ERR(ncmpi_fill_var_rec(nc, vr, 1));
    CHECK_ERR(ncmpi_fill_var_rec(nc, vq, 1));
    CHECK_ERR(ncmpi_inq_dimlen(nc, dt, &n));
    CHECK(n == 2);
    EXPECT_ERR(ncmpi_fill_var_rec(nc, vf, 0), NC_ENOTRECVAR);
    CHECK_ERR(ncmpi_close(nc));
    return tu_finish("t_fill");
}
