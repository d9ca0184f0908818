/* ncp-test: RANKS 1 2 4 NO_CDL */
/* t_fortran_mpitypes -- flexible calls and vard with MPI datatypes built on
 * the predefined Fortran types (MPI_DOUBLE_PRECISION, MPI_REAL8, MPI_REAL,
 * MPI_INTEGER, MPI_INTEGER2, MPI_INTEGER8, MPI_CHARACTER), as a Fortran
 * program passes them: each stands for the C type of its kind and size.
 *
 * Each rank writes its row of every variable from a buffer with a halo,
 * through a subarray buffer type of the Fortran type, and once more through
 * the named type itself; a vard call writes a double variable through a
 * subarray file type of MPI_DOUBLE_PRECISION.  Everything is read back the
 * same ways.
 */
#include "have_ncpario.h"
#include "testutil.h"

#define N 6
#define SENT -99

typedef struct fcase {
    const char *name;
    nc_type xtype;
    MPI_Datatype ftype; /* the Fortran type the buffer type is built on */
} fcase;

/* Element i of rank r, as a double; every type holds it exactly. */
static double val(int r, int i) { return 10 * r + i + 1; }

static void set_elem(nc_type x, void *buf, int i, double v)
{
    switch (x) {
    case NC_CHAR: ((char *)buf)[i] = (char)('a' + (int)v % 26); break;
    case NC_SHORT: ((short *)buf)[i] = (short)v; break;
    case NC_INT: ((int *)buf)[i] = (int)v; break;
    case NC_FLOAT: ((float *)buf)[i] = (float)v; break;
    case NC_DOUBLE: ((double *)buf)[i] = v; break;
    case NC_INT64: ((long long *)buf)[i] = (long long)v; break;
    }
}

/* A halo of N + 2 elements with the row in the middle. */
static MPI_Datatype halo_type(MPI_Datatype elem)
{
    int size = N + 2, sub = N, start = 1;
    MPI_Datatype t;
    MPI_Type_create_subarray(1, &size, &sub, &start, MPI_ORDER_FORTRAN, elem,
                             &t);
    MPI_Type_commit(&t);
    return t;
}

static void fill(const fcase *c, void *buf, int halo)
{
    int i, esize = tu_xsize(c->xtype);
    memset(buf, 0, (size_t)(N + 2) * (size_t)esize);
    for (i = 0; i < N; i++)
        set_elem(c->xtype, buf, i + halo, val(tu_myrank, i));
}

/* Write row rank of variable v twice (halo type, named type) into rows
 * 2*rank and 2*rank + 1. */
static void put_case(int nc, int v, const fcase *c)
{
    MPI_Offset start[2] = {2 * tu_myrank, 0}, count[2] = {1, N};
    MPI_Datatype halo = halo_type(c->ftype);
    long long buf[N + 2];

    fill(c, buf, 1);
    CHECK_ERR(ncmpi_put_vara_all(nc, v, start, count, buf, 1, halo));
    fill(c, buf, 0);
    start[0]++;
    CHECK_ERR(ncmpi_put_vara_all(nc, v, start, count, buf, N, c->ftype));
    MPI_Type_free(&halo);
}

static void get_case(int nc, int v, const fcase *c)
{
    MPI_Offset start[2] = {2 * tu_myrank, 0}, count[2] = {1, N};
    MPI_Datatype halo = halo_type(c->ftype);
    long long got[N + 2], want[N + 2];
    int esize = tu_xsize(c->xtype);

    fill(c, want, 1);
    memset(got, 0, sizeof got);
    CHECK_ERR(ncmpi_get_vara(nc, v, start, count, got, 1, halo));
    CHECKF(memcmp(got, want, (size_t)(N + 2) * (size_t)esize) == 0,
           "%s: halo read", c->name);
    fill(c, want, 0);
    memset(got, 0, sizeof got);
    start[0]++;
    CHECK_ERR(ncmpi_get_vara(nc, v, start, count, got, N, c->ftype));
    CHECKF(memcmp(got, want, (size_t)N * (size_t)esize) == 0,
           "%s: named read", c->name);
    MPI_Type_free(&halo);
}

/* Row rank of the NR x N double variable vd through a file type. */
static MPI_Datatype row_filetype(int nranks)
{
    int sizes[2] = {N, nranks}, sub[2] = {N, 1}, starts[2] = {0, tu_myrank};
    MPI_Datatype t;
    MPI_Type_create_subarray(2, sizes, sub, starts, MPI_ORDER_FORTRAN,
                             MPI_DOUBLE_PRECISION, &t);
    MPI_Type_commit(&t);
    return t;
}

static void vard_case(int nc, int vd)
{
    MPI_Datatype ft = row_filetype(tu_nranks);
    MPI_Datatype halo = halo_type(MPI_REAL8);
    double buf[N + 2], got[N], want[N];
    MPI_Offset start[2] = {tu_myrank, 0}, count[2] = {1, N};
    int i;

    for (i = 0; i < N + 2; i++) buf[i] = SENT;
    for (i = 0; i < N; i++) buf[i + 1] = want[i] = val(tu_myrank, i) + 0.5;
    CHECK_ERR(ncmpi_put_vard_all(nc, vd, ft, buf, 1, halo));
    CHECK_ERR(ncmpi_sync(nc));
    MPI_Barrier(MPI_COMM_WORLD);
    for (i = 0; i < N; i++) got[i] = SENT;
    CHECK_ERR(ncmpi_get_vara_double_all(nc, vd, start, count, got));
    CHECK(memcmp(got, want, sizeof got) == 0);
    for (i = 0; i < N; i++) got[i] = SENT;
    CHECK_ERR(ncmpi_get_vard_all(nc, vd, ft, got, N, MPI_DOUBLE_PRECISION));
    CHECK(memcmp(got, want, sizeof got) == 0);
    MPI_Type_free(&ft);
    MPI_Type_free(&halo);
}

int main(int argc, char **argv)
{
    const fcase cases[] = {
        {"dp", NC_DOUBLE, MPI_DOUBLE_PRECISION}, {"r8", NC_DOUBLE, MPI_REAL8},
        {"r", NC_FLOAT, MPI_REAL},               {"i", NC_INT, MPI_INTEGER},
        {"i2", NC_SHORT, MPI_INTEGER2},          {"i8", NC_INT64, MPI_INTEGER8},
        {"c", NC_CHAR, MPI_CHARACTER},
    };
    const int ncases = (int)(sizeof cases / sizeof cases[0]);
    const char *path;
    int nc, dims[2], vars[16], vd, k;

    tu_init(&argc, &argv);
    if (!(path = tu_main_path(argc, argv))) return tu_finish("t_fortran_mpitypes");
    CHECK_ERR(ncmpi_create(MPI_COMM_WORLD, path, NC_CLOBBER | NC_64BIT_DATA,
                           MPI_INFO_NULL, &nc));
    CHECK_ERR(ncmpi_def_dim(nc, "row", 2 * tu_nranks, &dims[0]));
    CHECK_ERR(ncmpi_def_dim(nc, "x", N, &dims[1]));
    for (k = 0; k < ncases; k++)
        CHECK_ERR(ncmpi_def_var(nc, cases[k].name, cases[k].xtype, 2, dims,
                                &vars[k]));
    CHECK_ERR(ncmpi_def_dim(nc, "rank", tu_nranks, &dims[0]));
    CHECK_ERR(ncmpi_def_var(nc, "vard", NC_DOUBLE, 2, dims, &vd));
    CHECK_ERR(ncmpi_enddef(nc));
    for (k = 0; k < ncases; k++)
        put_case(nc, vars[k], &cases[k]);
    vard_case(nc, vd);
    CHECK_ERR(ncmpi_sync(nc));
    MPI_Barrier(MPI_COMM_WORLD);
    CHECK_ERR(ncmpi_begin_indep_data(nc));
    for (k = 0; k < ncases; k++)
        get_case(nc, vars[k], &cases[k]);
    CHECK_ERR(ncmpi_end_indep_data(nc));
    CHECK_ERR(ncmpi_close(nc));
    return tu_finish("t_fortran_mpitypes");
}
