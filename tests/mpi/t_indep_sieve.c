/* ncp-test: RANKS 1 2 4 NO_CDL */
/* t_indep_sieve -- independent writes of many small rows that interleave
 * with the other ranks' rows, all ranks at once, written at the call
 * (nc_indep_buffer_size=0; ncpario's posix driver sieves such writes:
 * it reads the span, patches its rows in, writes the span back):
 *  - no rank's rows are lost to another rank's write-back of the same
 *    span: every rank writes each of NV variables once, starting at a
 *    different variable, so that the ranks' writes of one variable
 *    overlap in time, and every value is checked after end_indep_data;
 *  - the other rows (fill values, or the first pass's values) survive a
 *    rank's patching around them;
 *  - the values cross the byte swap (doubles, ints) both ways.
 * The file must also equal the one PnetCDF writes.
 */
#define _POSIX_C_SOURCE 200809L /* strtok_r */
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "hintutil.h"

#define NV 24   /* variables */
#define NY 400  /* rows */
#define NX 60   /* doubles a rank and row: 480 bytes, holes under 4 KiB */

static double dval(int v, int rank, int y, int x, int pass)
{
    return pass * 1e7 + v * 1e5 + rank * 1e4 + y * 10 + x % 10;
}

/* Rank `rank`'s block of variable v: all rows, its NX columns. */
static void block_of(int rank, MPI_Offset st[2], MPI_Offset ct[2])
{
    st[0] = 0, st[1] = (MPI_Offset)rank * NX;
    ct[0] = NY, ct[1] = NX;
}

static void put_block(int nc, int var, int v, int pass, double *a)
{
    MPI_Offset st[2], ct[2];
    int y, x;
    block_of(tu_myrank, st, ct);
    for (y = 0; y < NY; y++)
        for (x = 0; x < NX; x++)
            a[y * NX + x] = dval(v, tu_myrank, y, x, pass);
    CHECK_ERR(ncmpi_put_vara_double(nc, var, st, ct, a));
}

/* Every rank's block of every variable, as pass `pass` left it; rank r
 * wrote pass 1 only where r is odd and v even (the rest keeps pass 0). */
static void check_all(int nc, const int *vars, double *a)
{
    int v, r, y, x, bad = 0;
    for (v = 0; v < NV; v++)
        for (r = 0; r < tu_nranks; r++) {
            MPI_Offset st[2], ct[2];
            int pass = r % 2 == 1 && v % 2 == 0;
            block_of(r, st, ct);
            CHECK_ERR(ncmpi_get_vara_double_all(nc, vars[v], st, ct, a));
            for (y = 0; y < NY; y++)
                for (x = 0; x < NX; x++)
                    bad += a[y * NX + x] != dval(v, r, y, x, pass);
        }
    CHECKF(bad == 0, "%d values lost or wrong", bad);
}

/* An int variable whose every other row is left to fill: the rows in
 * between are written by the ranks, the fill rows must stay. */
static void put_ints(int nc, int var)
{
    MPI_Offset st[2] = {0, (MPI_Offset)tu_myrank * NX}, ct[2] = {1, NX};
    int a[NX], y, x;
    for (y = 0; y < NY; y += 2) {
        for (x = 0; x < NX; x++) a[x] = tu_myrank * 100000 + y * 100 + x;
        st[0] = y;
        CHECK_ERR(ncmpi_put_vara_int(nc, var, st, ct, a));
    }
}

static void check_ints(int nc, int var)
{
    MPI_Offset st[2] = {0, 0}, ct[2] = {NY, (MPI_Offset)NX * tu_nranks};
    int *a = malloc((size_t)NY * NX * tu_nranks * sizeof(int));
    int y, x, bad = 0;
    CHECK_ERR(ncmpi_get_vara_int_all(nc, var, st, ct, a));
    for (y = 0; y < NY; y++)
        for (x = 0; x < NX * tu_nranks; x++) {
            int want = y % 2 ? NC_FILL_INT
                             : (x / NX) * 100000 + y * 100 + x % NX;
            bad += a[y * NX * tu_nranks + x] != want;
        }
    CHECKF(bad == 0, "%d ints wrong (written rows or fill rows between)",
           bad);
    free(a);
}

int main(int argc, char **argv)
{
    const char *path;
    MPI_Info info;
    double *a;
    int nc, dims[2], vars[NV], ivar, v, k;
    tu_init(&argc, &argv);
    path = tu_main_path(argc, argv);
    CHECK(path != NULL);
    if (!path) return tu_finish("t_indep_sieve");
    a = malloc((size_t)NY * NX * sizeof(double));
    info = tu_info_of("nc_indep_buffer_size=0");
    CHECK_ERR(ncmpi_create(MPI_COMM_WORLD, path, NC_CLOBBER, info, &nc));
    CHECK_ERR(ncmpi_def_dim(nc, "y", NY, &dims[0]));
    CHECK_ERR(ncmpi_def_dim(nc, "x", (MPI_Offset)NX * tu_nranks, &dims[1]));
    for (v = 0; v < NV; v++) {
        char name[16];
        snprintf(name, sizeof name, "v%d", v);
        CHECK_ERR(ncmpi_def_var(nc, name, NC_DOUBLE, 2, dims, &vars[v]));
    }
    CHECK_ERR(ncmpi_def_var(nc, "fillrows", NC_INT, 2, dims, &ivar));
    CHECK_ERR(ncmpi_set_fill(nc, NC_FILL, NULL));
    CHECK_ERR(ncmpi_enddef(nc));
    CHECK_ERR(ncmpi_begin_indep_data(nc));
    /* each rank starts at its own variable, so the ranks' writes of one
     * variable run at the same time */
    for (k = 0; k < NV; k++) {
        v = (k + tu_myrank * NV / tu_nranks) % NV;
        put_block(nc, vars[v], v, 0, a);
    }
    /* a second pass by the odd ranks over the even variables, around the
     * even ranks' rows written before */
    for (v = 0; tu_myrank % 2 == 1 && v < NV; v += 2)
        put_block(nc, vars[v], v, 1, a);
    put_ints(nc, ivar);
    CHECK_ERR(ncmpi_end_indep_data(nc));
    check_all(nc, vars, a);
    check_ints(nc, ivar);
    CHECK_ERR(ncmpi_close(nc));
    MPI_Info_free(&info);
    free(a);
    return tu_finish("t_indep_sieve");
}
