/* ncp-test: RANKS 2 4 */
/* t_safe_mode -- PNETCDF_SAFE_MODE=1: collective calls compare their
 * arguments across ranks and every rank returns the same code, as from
 * PnetCDF 1.12.3 (codes measured there): a create or open mode that
 * differs (NC_EMULTIDEFINE_CMODE / _OMODE, the dataset opened with rank
 * 0's mode), def_dim, def_var, put_att, the renames, del_att, set_fill and
 * def_var_fill with arguments that differ (the NC_EMULTIDEFINE_* code of
 * the first field that differs; nothing is defined), a local error on one
 * rank (its code everywhere), and a collective put or get whose request
 * is bad on one rank (its code everywhere, and no rank moves data; where
 * ranks fail differently, the lowest code).  Independent calls are not
 * compared.  Rank 1 and up deviate, so the test runs at 2 and 4 ranks.
 *
 * The variable is set before MPI_Init, as a job script would, and read at
 * create and open.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>

#include "testutil.h"

#define NX 8

static void expect_counts(int nc, int ndims, int nvars, int natts)
{
    int nd = -1, nv = -1, na = -1;
    CHECK_ERR(ncmpi_inq(nc, &nd, &nv, &na, NULL));
    CHECKF(nd == ndims && nv == nvars && na == natts,
           "counts %d/%d/%d want %d/%d/%d", nd, nv, na, ndims, nvars, natts);
}

static void cmode_differs(const char *path)
{
    int nc = -1, cmode = NC_CLOBBER | (tu_myrank ? NC_64BIT_DATA : 0), v = 0;
    EXPECT_ERR(ncmpi_create(MPI_COMM_WORLD, path, cmode, MPI_INFO_NULL, &nc),
               NC_EMULTIDEFINE_CMODE);
    /* opened anyway, with rank 0's mode */
    CHECK_ERR(ncmpi_inq_version(nc, &v));
    CHECK(v == NC_CLASSIC_MODEL);
    CHECK_ERR(ncmpi_enddef(nc));
    CHECK_ERR(ncmpi_close(nc));
    EXPECT_ERR(ncmpi_open(MPI_COMM_WORLD, path,
                          tu_myrank ? NC_WRITE : NC_NOWRITE, MPI_INFO_NULL,
                          &nc),
               NC_EMULTIDEFINE_OMODE);
    CHECK_ERR(ncmpi_close(nc));
}

static void dims(int nc, int *x, int *t)
{
    int d = -1;
    int r = tu_myrank;
    EXPECT_ERR(ncmpi_def_dim(nc, "x", r ? 5 : NX, &d),
               NC_EMULTIDEFINE_DIM_SIZE);
    EXPECT_ERR(ncmpi_def_dim(nc, r ? "x1" : "x", NX, &d),
               NC_EMULTIDEFINE_DIM_NAME);
    EXPECT_ERR(ncmpi_def_dim(nc, "t", r ? NC_UNLIMITED : 3, &d),
               NC_EMULTIDEFINE_DIM_SIZE);
    /* a bad name on one rank is that name's error everywhere */
    EXPECT_ERR(ncmpi_def_dim(nc, r ? "bad/name" : "ok", 3, &d),
               NC_EBADNAME);
    expect_counts(nc, 0, 0, 0);
    CHECK_ERR(ncmpi_def_dim(nc, "x", NX, x));
    CHECK_ERR(ncmpi_def_dim(nc, "t", NC_UNLIMITED, t));
}

static void vars(int nc, int x, int t, int *v, int *w)
{
    int r = tu_myrank, id = -1, dd[2] = {t, x};
    EXPECT_ERR(ncmpi_def_var(nc, "v", r ? NC_FLOAT : NC_INT, 1, &x, &id),
               NC_EMULTIDEFINE_VAR_TYPE);
    EXPECT_ERR(ncmpi_def_var(nc, r ? "v1" : "v", NC_INT, 1, &x, &id),
               NC_EMULTIDEFINE_VAR_NAME);
    EXPECT_ERR(ncmpi_def_var(nc, "n", NC_INT, r ? 1 : 2, dd, &id),
               NC_EMULTIDEFINE_VAR_NDIMS);
    EXPECT_ERR(ncmpi_def_var(nc, "m", NC_INT, 1, r ? &x : &t, &id),
               NC_EMULTIDEFINE_VAR_DIMIDS);
    expect_counts(nc, 2, 0, 0);
    CHECK_ERR(ncmpi_def_var(nc, "good", NC_INT, 1, &x, v));
    CHECK_ERR(ncmpi_def_var(nc, "rec", NC_INT, 2, dd, w));
}

static void atts(int nc, int v, int w)
{
    int r = tu_myrank, iv = r, one = 1, na;
    EXPECT_ERR(ncmpi_put_att_int(nc, NC_GLOBAL, "a", NC_INT, 1, &iv),
               NC_EMULTIDEFINE_ATTR_VAL);
    EXPECT_ERR(ncmpi_put_att_int(nc, NC_GLOBAL, "b", r ? NC_SHORT : NC_INT,
                                 1, &one),
               NC_EMULTIDEFINE_ATTR_TYPE);
    EXPECT_ERR(ncmpi_put_att_int(nc, NC_GLOBAL, "c", NC_INT, r ? 1 : 0, &one),
               NC_EMULTIDEFINE_ATTR_LEN);
    EXPECT_ERR(ncmpi_put_att_int(nc, NC_GLOBAL, r ? "d1" : "d", NC_INT, 1,
                                 &one),
               NC_EMULTIDEFINE_ATTR_NAME);
    EXPECT_ERR(ncmpi_put_att_text(nc, NC_GLOBAL, "t", r ? 2 : 1, "ab"),
               NC_EMULTIDEFINE_ATTR_LEN);
    EXPECT_ERR(ncmpi_put_att_text(nc, NC_GLOBAL, "s", 2, r ? "ab" : "ac"),
               NC_EMULTIDEFINE_ATTR_VAL);
    EXPECT_ERR(ncmpi_put_att_int(nc, r ? v : w, "e", NC_INT, 1, &one),
               NC_EMULTIDEFINE_FNC_ARGS);
    CHECK_ERR(ncmpi_inq_natts(nc, &na));
    CHECKF(na == 0, "%d global attributes after refused puts", na);
    CHECK_ERR(ncmpi_put_att_text(nc, NC_GLOBAL, "title", 4, "safe"));
    CHECK_ERR(ncmpi_put_att_int(nc, NC_GLOBAL, "r", NC_INT, 1, &one));
}

static void renames(int nc, int x, int v)
{
    int fill;
    int r = tu_myrank;
    char name[NC_MAX_NAME + 1];
    EXPECT_ERR(ncmpi_rename_dim(nc, x, r ? "x1" : "x2"),
               NC_EMULTIDEFINE_DIM_NAME);
    EXPECT_ERR(ncmpi_rename_var(nc, v, r ? "g1" : "g2"),
               NC_EMULTIDEFINE_VAR_NAME);
    EXPECT_ERR(ncmpi_rename_att(nc, NC_GLOBAL, "r", r ? "r1" : "r2"),
               NC_EMULTIDEFINE_ATTR_NAME);
    EXPECT_ERR(ncmpi_del_att(nc, NC_GLOBAL, r ? "r" : "title"),
               NC_EMULTIDEFINE_ATTR_NAME);
    CHECK_ERR(ncmpi_del_att(nc, NC_GLOBAL, "r"));
    CHECK_ERR(ncmpi_inq_dimname(nc, x, name));
    CHECK(strcmp(name, "x") == 0);
    CHECK_ERR(ncmpi_inq_varname(nc, v, name));
    CHECK(strcmp(name, "good") == 0);
    EXPECT_ERR(ncmpi_set_fill(nc, r ? NC_NOFILL : NC_FILL, NULL),
               NC_EMULTIDEFINE_FILL_MODE);
    EXPECT_ERR(ncmpi_def_var_fill(nc, v, r ? 1 : 0, NULL),
               NC_EMULTIDEFINE_FNC_ARGS);
    fill = r ? 6 : 5; /* the same mode, a different value */
    EXPECT_ERR(ncmpi_def_var_fill(nc, v, 0, &fill),
               NC_EMULTIDEFINE_VAR_FILL_VALUE);
    CHECK_ERR(ncmpi_set_fill(nc, NC_FILL, NULL));
}

/* Collective data calls with one bad rank: its code on every rank, and
 * nothing written by anyone. */
static void data(int nc, int v)
{
    int r = tu_myrank, buf[NX], back[NX], i, clean = 1;
    MPI_Offset st, ct;
    for (i = 0; i < NX; i++) buf[i] = 100 + i;
    st = r ? 100 : 0, ct = 1;
    EXPECT_ERR(ncmpi_put_vara_int_all(nc, v, &st, &ct, buf),
               NC_EINVALCOORDS);
    st = 0, ct = r ? NX + 1 : 1;
    EXPECT_ERR(ncmpi_put_vara_int_all(nc, v, &st, &ct, buf),
               NC_EEDGE);
    /* different errors: the lowest code */
    st = r ? 100 : 0, ct = r ? 1 : NX + 5;
    EXPECT_ERR(ncmpi_put_vara_int_all(nc, v, &st, &ct, buf), NC_EEDGE);
    st = 0, ct = 1;
    EXPECT_ERR(ncmpi_put_vara_int_all(nc, r ? v + 50 : v, &st, &ct, buf),
               NC_ENOTVAR);
    st = 0, ct = NX;
    CHECK_ERR(ncmpi_get_vara_int_all(nc, v, &st, &ct, back));
    for (i = 0; i < NX; i++) clean &= back[i] == NC_FILL_INT;
    CHECK(clean);
    st = r ? 100 : 0, ct = 1;
    EXPECT_ERR(ncmpi_get_vara_int_all(nc, v, &st, &ct, back),
               NC_EINVALCOORDS);
    /* independent calls are not compared */
    CHECK_ERR(ncmpi_begin_indep_data(nc));
    EXPECT_ERR(ncmpi_put_vara_int(nc, v, &st, &ct, buf),
               r ? NC_EINVALCOORDS : NC_NOERR);
    CHECK_ERR(ncmpi_end_indep_data(nc));
    /* every rank writes its share */
    st = 0, ct = 0;
    tu_part(NX, r, tu_nranks, &st, &ct);
    for (i = 0; i < NX; i++) buf[i] = 100 + i;
    CHECK_ERR(ncmpi_put_vara_int_all(nc, v, &st, &ct, buf + st));
}

int main(int argc, char **argv)
{
    const char *path;
    char other[1024];
    int nc = -1, x = -1, t = -1, v = -1, w = -1;
    setenv("PNETCDF_SAFE_MODE", "1", 1);
    tu_init(&argc, &argv);
    path = tu_main_path(argc, argv);
    CHECK(path != NULL);
    if (!path) return tu_finish("t_safe_mode");

    tu_sibling(other, sizeof other, path, "_cmode.nc");
    cmode_differs(other);

    CHECK_ERR(ncmpi_create(MPI_COMM_WORLD, path, NC_CLOBBER, MPI_INFO_NULL,
                           &nc));
    dims(nc, &x, &t);
    vars(nc, x, t, &v, &w);
    atts(nc, v, w);
    renames(nc, x, v);
    CHECK_ERR(ncmpi_enddef(nc));
    data(nc, v);
    CHECK_ERR(ncmpi_close(nc));
    return tu_finish("t_safe_mode");
}
