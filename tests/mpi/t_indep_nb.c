/* ncp-test: RANKS 1 2 4 NO_CDL */
/* t_indep_nb -- nonblocking puts completed by an independent ncmpi_wait,
 * as netCDF defines them, whether or not the library holds them back
 * (ncpario: nc_indep_buffer_size):
 *  - after the wait the caller may reuse (iput) or detach (bput) its
 *    buffer, and its values are left as they were;
 *  - a rank reads what it wrote, with a blocking get and with iget+wait;
 *  - another rank sees the puts after ncmpi_sync (plus a barrier), after
 *    ncmpi_end_indep_data, and in the file after close;
 *  - blocking and nonblocking puts to the same place: the later wins;
 *  - a rank's refused iput loses nothing of the others' nor its own;
 *  - with ncpario on the posix driver the waited puts are held like
 *    blocking ones: nothing is written before the limit or
 *    end_indep_data (the profile's write calls).
 */
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "have_ncpario.h"
#include "heldutil.h"

/* x: each rank's part is XROWS rows of XCOLS doubles, 128 KiB in all
 * (large enough to swap in place) in 8 KiB pieces (small enough to be
 * held; puts of large pieces are written at once). */
#define XROWS 16
#define XCOLS 1024
#define NX (XROWS * XCOLS)
#define NR 256   /* ints a rank and record: 1 KiB */

static void x_part(int rank, MPI_Offset s[2], MPI_Offset c[2])
{
    s[0] = 0, s[1] = (MPI_Offset)rank * XCOLS;
    c[0] = XROWS, c[1] = XCOLS;
}

static double xval(int rank, int i, int gen)
{
    return rank * 1e6 + i + gen * 0.5;
}

static int rval(int rank, int rec, int i)
{
    return rank * 100000 + rec * 1000 + i;
}

/* One iput (or bput) of this rank's x, waited for alone. */
static void iput_x(int nc, int v, int gen, int bput, double *a)
{
    MPI_Offset s[2], c[2];
    int i, bad = 0, req = NC_REQ_NULL, st = -1;
    x_part(tu_myrank, s, c);
    for (i = 0; i < NX; i++) a[i] = xval(tu_myrank, i, gen);
    if (bput) {
        CHECK_ERR(ncmpi_buffer_attach(nc, (MPI_Offset)NX * sizeof *a));
        CHECK_ERR(ncmpi_bput_vara_double(nc, v, s, c, a, &req));
        for (i = 0; i < NX; i++) a[i] = -2; /* a bput's buffer is free now */
    } else {
        CHECK_ERR(ncmpi_iput_vara_double(nc, v, s, c, a, &req));
    }
    CHECK_ERR(ncmpi_wait(nc, 1, &req, &st));
    CHECK_ERR(st);
    CHECK(req == NC_REQ_NULL);
    if (bput) {
        CHECK_ERR(ncmpi_buffer_detach(nc));
    } else {
        for (i = 0; i < NX; i++) bad += a[i] != xval(tu_myrank, i, gen);
        CHECKF(bad == 0, "iput changed %d values of the caller's buffer",
               bad);
    }
    for (i = 0; i < NX; i++) a[i] = -1; /* reused at once */
}

static void put_x(int nc, int v, int gen, double *a)
{
    MPI_Offset s[2], c[2];
    int i;
    x_part(tu_myrank, s, c);
    for (i = 0; i < NX; i++) a[i] = xval(tu_myrank, i, gen);
    CHECK_ERR(ncmpi_put_vara_double(nc, v, s, c, a));
    for (i = 0; i < NX; i++) a[i] = -1;
}

/* how: 0 blocking get, 1 iget+wait, 2 collective get */
static void check_x(int nc, int v, int rank, int gen, int how,
                    const char *when)
{
    MPI_Offset s[2], c[2];
    double *a = malloc(NX * sizeof *a);
    int i, bad = 0, req, st = -1;
    x_part(rank, s, c);
    if (how == 2) {
        CHECK_ERR(ncmpi_get_vara_double_all(nc, v, s, c, a));
    } else if (how == 1) {
        CHECK_ERR(ncmpi_iget_vara_double(nc, v, s, c, a, &req));
        CHECK_ERR(ncmpi_wait(nc, 1, &req, &st));
        CHECK_ERR(st);
    } else {
        CHECK_ERR(ncmpi_get_vara_double(nc, v, s, c, a));
    }
    for (i = 0; i < NX; i++) bad += a[i] != xval(rank, i, gen);
    CHECKF(bad == 0, "%s: %d values of rank %d's x wrong (%g want %g)", when, bad, rank, a[5], xval(rank, 5, gen));
    free(a);
}

/* n records from rec0 on, each its own iput (or bput), one wait for all
 * of them (NC_PUT_REQ_ALL). */
static void iput_r(int nc, int v, int rec0, int n, int bput)
{
    int *a = malloc((size_t)n * NR * sizeof *a), k, i;
    if (bput)
        CHECK_ERR(ncmpi_buffer_attach(nc, (MPI_Offset)n * NR * sizeof *a));
    for (k = 0; k < n; k++) {
        MPI_Offset s[2] = {rec0 + k, (MPI_Offset)tu_myrank * NR};
        MPI_Offset c[2] = {1, NR};
        int *p = a + (size_t)k * NR;
        for (i = 0; i < NR; i++) p[i] = rval(tu_myrank, rec0 + k, i);
        if (bput) CHECK_ERR(ncmpi_bput_vara_int(nc, v, s, c, p, NULL));
        else CHECK_ERR(ncmpi_iput_vara_int(nc, v, s, c, p, NULL));
    }
    CHECK_ERR(ncmpi_wait(nc, NC_PUT_REQ_ALL, NULL, NULL));
    if (bput) CHECK_ERR(ncmpi_buffer_detach(nc));
    memset(a, 0, (size_t)n * NR * sizeof *a);
    free(a);
}

static void check_r(int nc, int v, int rank, int rec, int how,
                    const char *when)
{
    MPI_Offset s[2] = {rec, (MPI_Offset)rank * NR}, c[2] = {1, NR};
    int a[NR], i, bad = 0, req, st = -1;
    if (how == 2) {
        CHECK_ERR(ncmpi_get_vara_int_all(nc, v, s, c, a));
    } else if (how == 1) {
        CHECK_ERR(ncmpi_iget_vara_int(nc, v, s, c, a, &req));
        CHECK_ERR(ncmpi_wait(nc, 1, &req, &st));
        CHECK_ERR(st);
    } else {
        CHECK_ERR(ncmpi_get_vara_int(nc, v, s, c, a));
    }
    for (i = 0; i < NR; i++) bad += a[i] != rval(rank, rec, i);
    CHECKF(bad == 0, "%s: %d values of rank %d record %d wrong", when, bad,
           rank, rec);
}

static void expect_numrecs(int nc, MPI_Offset want, const char *when)
{
    MPI_Offset n = -1;
    CHECK_ERR(ncmpi_inq_dimlen(nc, 0, &n));
    CHECKF(n == want, "%s: numrecs %lld, want %lld", when, (long long)n,
           (long long)want);
}

static int create(const char *path, const char *hint, int *x, int *r)
{
    MPI_Info info;
    int nc, d[4];
    MPI_Info_create(&info);
    if (hint) MPI_Info_set(info, "nc_indep_buffer_size", hint);
    CHECK_ERR(ncmpi_create(MPI_COMM_WORLD, path, NC_CLOBBER, info, &nc));
    MPI_Info_free(&info);
    CHECK_ERR(ncmpi_def_dim(nc, "t", NC_UNLIMITED, &d[0]));
    CHECK_ERR(ncmpi_def_dim(nc, "n", (MPI_Offset)NR * tu_nranks, &d[1]));
    CHECK_ERR(ncmpi_def_dim(nc, "xr", XROWS, &d[2]));
    /* a column to spare, so that no rank's part is whole rows; filled,
     * since a sieving MPI-IO leaves what it likes in unwritten holes */
    CHECK_ERR(ncmpi_def_dim(nc, "m", (MPI_Offset)XCOLS * tu_nranks + 1,
                            &d[3]));
    CHECK_ERR(ncmpi_def_var(nc, "r", NC_INT, 2, d, r));
    CHECK_ERR(ncmpi_def_var(nc, "x", NC_DOUBLE, 2, &d[2], x));
    CHECK_ERR(ncmpi_def_var_fill(nc, *x, 0, NULL));
    CHECK_ERR(ncmpi_enddef(nc));
    return nc;
}

/* Visibility: to the rank itself at once, to the others at each point. */
static void visibility(const char *path)
{
    double *a = malloc(NX * sizeof *a);
    int nc, x, r, next = (tu_myrank + 1) % tu_nranks, req = 5;
    MPI_Offset bad[2] = {0, (MPI_Offset)NR * tu_nranks}, one[2] = {1, 1};
    int junk = 7;
#ifdef HAVE_NCPARIO
    long long w0;
    int counted;
#endif
    nc = create(path, NULL, &x, &r);
    CHECK_ERR(ncmpi_begin_indep_data(nc));
#ifdef HAVE_NCPARIO
    counted = tu_holds(nc);
    w0 = tu_write_calls(nc);
#endif
    iput_x(nc, x, 0, 0, a);
    check_x(nc, x, tu_myrank, 0, 1, "own x by iget before sync");
    iput_r(nc, r, 0, 3, 0);
    expect_numrecs(nc, 3, "own records before sync");
    check_r(nc, r, tu_myrank, 2, 1, "own record by iget before sync");
#ifdef HAVE_NCPARIO
    w0 = tu_write_calls(nc); /* the igets wrote what was held */
#endif
    /* the last rank's refused iput costs nobody anything */
    if (tu_myrank == tu_nranks - 1) {
        EXPECT_ERR(ncmpi_iput_vara_int(nc, r, bad, one, &junk, &req),
                   NC_EINVALCOORDS);
        CHECK(req == NC_REQ_NULL);
    }
    put_x(nc, x, 1, a);     /* blocking, over the iput's generation 0 */
    iput_x(nc, x, 2, 1, a); /* a bput over the blocking put */
    iput_r(nc, r, 3, 2, 1); /* records 3 and 4 by bput */
#ifdef HAVE_NCPARIO
    if (counted)
        CHECKF(tu_write_calls(nc) == w0,
               "waited puts: %lld writes before sync",
               tu_write_calls(nc) - w0);
#endif
    check_x(nc, x, tu_myrank, 2, 0, "own x after bput");
    CHECK_ERR(ncmpi_sync(nc));
    MPI_Barrier(MPI_COMM_WORLD);
    check_x(nc, x, next, 2, 1, "next rank's x after sync");
    check_r(nc, r, next, 4, 0, "next rank's record after sync");
    expect_numrecs(nc, 5, "after sync");
    MPI_Barrier(MPI_COMM_WORLD); /* read before the next rank writes on */
    iput_x(nc, x, 3, 0, a);
    put_x(nc, x, 4, a); /* blocking, over the iput */
    iput_r(nc, r, 5, 1, 0);
    CHECK_ERR(ncmpi_end_indep_data(nc));
    expect_numrecs(nc, 6, "after end_indep_data");
    check_x(nc, x, next, 4, 2, "next rank's x after end_indep_data");
    check_r(nc, r, next, 5, 2, "next rank's record after end_indep_data");
    CHECK_ERR(ncmpi_begin_indep_data(nc));
    iput_r(nc, r, 6, 1, 1);
    CHECK_ERR(ncmpi_close(nc));

    CHECK_ERR(ncmpi_open(MPI_COMM_WORLD, path, NC_NOWRITE, MPI_INFO_NULL,
                         &nc));
    expect_numrecs(nc, 7, "reopened");
    check_x(nc, x, next, 4, 2, "reopened x");
    {
        int k;
        for (k = 0; k < 7; k++) check_r(nc, r, next, k, 2, "reopened record");
    }
    CHECK_ERR(ncmpi_close(nc));
    free(a);
}

/* Ten 1 KiB iputs, each waited for alone, through a 4 KiB buffer: held
 * four at a time; the held bytes never pass the limit. */
static void limit(const char *path)
{
    int nc, x, r, k, next = (tu_myrank + 1) % tu_nranks;
#ifdef HAVE_NCPARIO
    long long w0;
    int counted;
#endif
    nc = create(path, "4096", &x, &r);
    CHECK_ERR(ncmpi_begin_indep_data(nc));
#ifdef HAVE_NCPARIO
    counted = tu_holds(nc);
    w0 = tu_write_calls(nc);
#endif
    for (k = 0; k < 10; k++) iput_r(nc, r, k, 1, k % 2);
#ifdef HAVE_NCPARIO
    if (counted)
        CHECKF(tu_write_calls(nc) - w0 == 2,
               "10 waits through 4 KiB: %lld writes",
               tu_write_calls(nc) - w0);
#endif
    CHECK_ERR(ncmpi_end_indep_data(nc));
#ifdef HAVE_NCPARIO
    if (counted)
        CHECKF(tu_write_calls(nc) - w0 == 3,
               "end_indep_data: %lld writes in all", tu_write_calls(nc) - w0);
#endif
    for (k = 0; k < 10; k++) check_r(nc, r, next, k, 2, "limited");
    CHECK_ERR(ncmpi_close(nc));
}

int main(int argc, char **argv)
{
    const char *path;
    char second[4096];
    tu_init(&argc, &argv);
    path = tu_main_path(argc, argv);
    CHECK(path != NULL);
    if (!path) return tu_finish("t_indep_nb");
    visibility(path);
    tu_sibling(second, sizeof second, path, "_limit.nc");
    limit(second);
    return tu_finish("t_indep_nb");
}
