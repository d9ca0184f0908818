/* ncp-test: RANKS 1 2 4 NO_CDL */
/* t_indep_buffer -- independent puts as netCDF defines them, whether or
 * not the library holds them back (ncpario: nc_indep_buffer_size).
 *  - the caller's buffer is left as it was and may be reused at once;
 *  - a rank reads what it wrote, record count included, before any sync;
 *  - another rank sees them after ncmpi_sync (plus a barrier), after
 *    ncmpi_end_indep_data, and in the file after close;
 *  - of two overlapping puts the later wins;
 *  - a rank's refused put loses nothing of the others' nor its own;
 *  - with ncpario on the posix driver the held bytes are written when the
 *    next put would pass the limit, and once more at end_indep_data
 *    (the profile's write calls);
 *  - a put of large pieces is written at once, after the held ones, and
 *    posting order still decides between it and small puts around it;
 *  - a fixed-size put with no room left is written at once, the held
 *    ones still held, when it is clear of them, else after them.
 */
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "have_ncpario.h"
#include "heldutil.h"

#define NX 16384 /* doubles a rank: 128 KiB, large enough to swap in place */
#define NR 256   /* ints a rank and record: 1 KiB */

static double xval(int rank, int i, int gen)
{
    return rank * 1e6 + i + gen * 0.5;
}

static int rval(int rank, int rec, int i) { return rank * 100000 + rec * 1000 + i; }

static void put_x(int nc, int v, int gen, double *a)
{
    MPI_Offset s = (MPI_Offset)tu_myrank * NX, c = NX;
    int i, bad = 0;
    for (i = 0; i < NX; i++) a[i] = xval(tu_myrank, i, gen);
    CHECK_ERR(ncmpi_put_vara_double(nc, v, &s, &c, a));
    for (i = 0; i < NX; i++) bad += a[i] != xval(tu_myrank, i, gen);
    CHECKF(bad == 0, "put changed %d values of the caller's buffer", bad);
    for (i = 0; i < NX; i++) a[i] = -1; /* reused at once */
}

static void check_x(int nc, int v, int rank, int gen, int collective,
                    const char *when)
{
    MPI_Offset s = (MPI_Offset)rank * NX, c = NX;
    double *a = malloc(NX * sizeof *a);
    int i, bad = 0;
    if (collective) CHECK_ERR(ncmpi_get_vara_double_all(nc, v, &s, &c, a));
    else CHECK_ERR(ncmpi_get_vara_double(nc, v, &s, &c, a));
    for (i = 0; i < NX; i++) bad += a[i] != xval(rank, i, gen);
    CHECKF(bad == 0, "%s: %d values of rank %d's x wrong", when, bad, rank);
    free(a);
}

static void put_r(int nc, int v, int rec)
{
    MPI_Offset s[2] = {rec, (MPI_Offset)tu_myrank * NR}, c[2] = {1, NR};
    int a[NR], i;
    for (i = 0; i < NR; i++) a[i] = rval(tu_myrank, rec, i);
    CHECK_ERR(ncmpi_put_vara_int(nc, v, s, c, a));
    memset(a, 0, sizeof a);
}

static void check_r(int nc, int v, int rank, int rec, int collective,
                    const char *when)
{
    MPI_Offset s[2] = {rec, (MPI_Offset)rank * NR}, c[2] = {1, NR};
    int a[NR], i, bad = 0;
    if (collective) CHECK_ERR(ncmpi_get_vara_int_all(nc, v, s, c, a));
    else CHECK_ERR(ncmpi_get_vara_int(nc, v, s, c, a));
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

static int create(const char *path, const char *hints, int *x, int *r)
{
    MPI_Info info;
    int nc, d[3];
    MPI_Info_create(&info);
    if (hints) MPI_Info_set(info, "nc_indep_buffer_size", hints);
    CHECK_ERR(ncmpi_create(MPI_COMM_WORLD, path, NC_CLOBBER, info, &nc));
    MPI_Info_free(&info);
    CHECK_ERR(ncmpi_def_dim(nc, "t", NC_UNLIMITED, &d[0]));
    CHECK_ERR(ncmpi_def_dim(nc, "n", (MPI_Offset)NR * tu_nranks, &d[1]));
    CHECK_ERR(ncmpi_def_dim(nc, "m", (MPI_Offset)NX * tu_nranks, &d[2]));
    CHECK_ERR(ncmpi_def_var(nc, "r", NC_INT, 2, d, r));
    CHECK_ERR(ncmpi_def_var(nc, "x", NC_DOUBLE, 1, &d[2], x));
    CHECK_ERR(ncmpi_enddef(nc));
    return nc;
}

/* Visibility: to the rank itself at once, to the others at each point. */
static void visibility(const char *path)
{
    double *a = malloc(NX * sizeof *a);
    int nc, x, r, next = (tu_myrank + 1) % tu_nranks, k;
    MPI_Offset bad[2] = {0, (MPI_Offset)NR * tu_nranks}, one[2] = {1, 1};
    int junk = 7;
    nc = create(path, NULL, &x, &r);
    CHECK_ERR(ncmpi_begin_indep_data(nc));
    put_x(nc, x, 0, a);
    check_x(nc, x, tu_myrank, 0, 0, "own x before sync");
    for (k = 0; k < 3; k++) put_r(nc, r, k);
    expect_numrecs(nc, 3, "own records before sync");
    check_r(nc, r, tu_myrank, 2, 0, "own record before sync");
    /* the last rank's refused put costs nobody anything */
    if (tu_myrank == tu_nranks - 1)
        EXPECT_ERR(ncmpi_put_vara_int(nc, r, bad, one, &junk),
                   NC_EINVALCOORDS);
    put_x(nc, x, 1, a); /* overwrites generation 0 */
    CHECK_ERR(ncmpi_sync(nc));
    MPI_Barrier(MPI_COMM_WORLD);
    check_x(nc, x, next, 1, 0, "next rank's x after sync");
    check_r(nc, r, next, 1, 0, "next rank's record after sync");
    put_r(nc, r, 3);
    CHECK_ERR(ncmpi_end_indep_data(nc));
    expect_numrecs(nc, 4, "after end_indep_data");
    check_r(nc, r, next, 3, 1, "next rank's record after end_indep_data");
    CHECK_ERR(ncmpi_begin_indep_data(nc));
    put_r(nc, r, 4);
    CHECK_ERR(ncmpi_close(nc));

    CHECK_ERR(ncmpi_open(MPI_COMM_WORLD, path, NC_NOWRITE, MPI_INFO_NULL,
                         &nc));
    expect_numrecs(nc, 5, "reopened");
    check_x(nc, x, next, 1, 1, "reopened x");
    for (k = 0; k < 5; k++) check_r(nc, r, next, k, 1, "reopened record");
    CHECK_ERR(ncmpi_close(nc));
    free(a);
}

/* Ten 1 KiB puts through a 4 KiB buffer: held four at a time. */
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
    for (k = 0; k < 10; k++) put_r(nc, r, k);
#ifdef HAVE_NCPARIO
    if (counted)
        CHECKF(tu_write_calls(nc) - w0 == 2,
               "10 puts through 4 KiB: %lld writes", tu_write_calls(nc) - w0);
#endif
    CHECK_ERR(ncmpi_end_indep_data(nc));
#ifdef HAVE_NCPARIO
    if (counted)
        CHECKF(tu_write_calls(nc) - w0 == 3,
               "end_indep_data: %lld writes in all", tu_write_calls(nc) - w0);
#endif
    for (k = 0; k < 10; k++) check_r(nc, r, next, k, 1, "limited");
    CHECK_ERR(ncmpi_close(nc));
}

/* Four doubles at i of this rank's x, all equal to val. */
static void put_x4(int nc, int v, int i, double val)
{
    MPI_Offset s = (MPI_Offset)tu_myrank * NX + i, c = 4;
    double a[4] = {val, val, val, val};
    CHECK_ERR(ncmpi_put_vara_double(nc, v, &s, &c, a));
}

/* Values of a rank's x that differ from generation gen with two small
 * puts (4 doubles at i1 equal to v1, at i2 to v2; i2 < 0: none) over it. */
static int x_wrong(const double *a, int rank, int gen, int i1, double v1,
                   int i2, double v2)
{
    int i, bad = 0;
    for (i = 0; i < NX; i++) {
        double want = xval(rank, i, gen);
        if (i >= i1 && i < i1 + 4) want = v1;
        if (i2 >= 0 && i >= i2 && i < i2 + 4) want = v2;
        bad += a[i] != want;
    }
    return bad;
}

/* Small puts around large ones: written in posting order, the large ones
 * at their call. */
static void large(const char *path)
{
    double *a = malloc(NX * sizeof *a);
    MPI_Offset s, c = NX;
    int nc, x, r, bad, next = (tu_myrank + 1) % tu_nranks;
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
    put_x4(nc, x, 0, -3.0); /* held, then overwritten by gen 0 */
#ifdef HAVE_NCPARIO
    if (counted)
        CHECKF(tu_write_calls(nc) == w0,
               "a small put: %lld writes", tu_write_calls(nc) - w0);
#endif
    put_x(nc, x, 0, a);
#ifdef HAVE_NCPARIO
    if (counted)
        CHECKF(tu_write_calls(nc) - w0 == 2, "held + large put: %lld writes",
               tu_write_calls(nc) - w0);
#endif
    put_x4(nc, x, 100, -5.0); /* held, over gen 0, under gen 1 */
    put_x(nc, x, 1, a);
    put_x4(nc, x, 10, -7.0); /* held, over gen 1 */
#ifdef HAVE_NCPARIO
    if (counted)
        CHECKF(tu_write_calls(nc) - w0 == 4,
               "before end_indep_data: %lld writes", tu_write_calls(nc) - w0);
#endif
    s = (MPI_Offset)tu_myrank * NX;
    CHECK_ERR(ncmpi_get_vara_double(nc, x, &s, &c, a));
    bad = x_wrong(a, tu_myrank, 1, 10, -7.0, -1, 0);
    CHECKF(bad == 0, "own x, small over large over small: %d wrong", bad);
    put_x4(nc, x, 20, -9.0); /* held until end_indep_data */
    CHECK_ERR(ncmpi_end_indep_data(nc));
    s = (MPI_Offset)next * NX;
    CHECK_ERR(ncmpi_get_vara_double_all(nc, x, &s, &c, a));
    bad = x_wrong(a, next, 1, 10, -7.0, 20, -9.0);
    CHECKF(bad == 0, "next rank's x after end_indep_data: %d wrong", bad);
    CHECK_ERR(ncmpi_close(nc));
    free(a);
}

/* Through a 64-byte buffer (two puts of 4 doubles): a fixed-size put
 * with no room, clear of both held ones, is written at its call and the
 * held ones keep waiting; one that overlaps a held put writes the held
 * ones first, and the later put still wins. */
static void clear(const char *path)
{
    double *a = malloc(NX * sizeof *a);
    MPI_Offset s = (MPI_Offset)tu_myrank * NX, c = NX;
    int nc, x, r, bad, next = (tu_myrank + 1) % tu_nranks;
#ifdef HAVE_NCPARIO
    long long w0;
    int counted;
#endif
    nc = create(path, "64", &x, &r);
    CHECK_ERR(ncmpi_begin_indep_data(nc));
    put_x(nc, x, 0, a); /* large pieces: written at once */
#ifdef HAVE_NCPARIO
    counted = tu_holds(nc);
    w0 = tu_write_calls(nc);
#endif
    put_x4(nc, x, 0, -1.0);
    put_x4(nc, x, 100, -2.0); /* both held: 64 bytes */
    put_x4(nc, x, 200, -3.0); /* no room, clear: written now */
#ifdef HAVE_NCPARIO
    if (counted)
        CHECKF(tu_write_calls(nc) - w0 == 1,
               "a clear put past the limit: %lld writes",
               tu_write_calls(nc) - w0);
#endif
    put_x4(nc, x, 2, -4.0); /* no room, over the first: drains first */
#ifdef HAVE_NCPARIO
    if (counted)
        CHECKF(tu_write_calls(nc) - w0 == 2,
               "an overlapping put past the limit: %lld writes",
               tu_write_calls(nc) - w0);
#endif
    CHECK_ERR(ncmpi_end_indep_data(nc));
    s = (MPI_Offset)next * NX;
    CHECK_ERR(ncmpi_get_vara_double_all(nc, x, &s, &c, a));
    for (bad = 0, c = 0; c < NX; c++) {
        double want = xval(next, (int)c, 0);
        if (c < 2) want = -1.0;
        else if (c < 6) want = -4.0;
        else if (c >= 100 && c < 104) want = -2.0;
        else if (c >= 200 && c < 204) want = -3.0;
        bad += a[c] != want;
    }
    CHECKF(bad == 0, "next rank's x after end_indep_data: %d wrong", bad);
    CHECK_ERR(ncmpi_close(nc));
    free(a);
}

int main(int argc, char **argv)
{
    const char *path;
    char second[4096];
    tu_init(&argc, &argv);
    path = tu_main_path(argc, argv);
    CHECK(path != NULL);
    if (!path) return tu_finish("t_indep_buffer");
    visibility(path);
    tu_sibling(second, sizeof second, path, "_limit.nc");
    limit(second);
    tu_sibling(second, sizeof second, path, "_large.nc");
    large(second);
    tu_sibling(second, sizeof second, path, "_clear.nc");
    clear(second);
    return tu_finish("t_indep_buffer");
}
