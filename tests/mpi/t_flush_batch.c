/* ncp-test: RANKS 1 2 4 NO_CDL */
/* t_flush_batch -- a wait_all over very many small pieces, which ncpario
 * moves in batches of requests (each batch one driver call), writes and
 * reads what one call would.
 *  - rank 0 posts three strided puts of M single-element pieces each,
 *    more than one batch holds, the other ranks one such put: every rank
 *    joins as many collective calls as rank 0 makes (the profile's write
 *    and read calls), and the file equals PnetCDF's;
 *  - the values read back through iget + wait_all are the ones written;
 *  - a blocking collective put of the same size stays one call;
 *  - of two puts of the same pieces in one wait_all, in different
 *    batches, the later wins (ncpario's promise; PnetCDF leaves
 *    overlapping requests of one wait_all undefined, and keeps the
 *    earlier).
 */
#include <stdlib.h>

#include "testutil.h"
#include "have_ncpario.h"

#define M 40000 /* pieces a put: two puts pass one batch of 2^16 */
#define NV 3

static double val(int v, int rank, int i) { return v * 1e7 + rank * 1e5 + i; }

/* This rank's pieces of a variable: every (2P)th element from its rank. */
static void pieces(MPI_Offset *s, MPI_Offset *c, MPI_Offset *st)
{
    *s = tu_myrank;
    *c = M;
    *st = 2 * (MPI_Offset)tu_nranks;
}

#ifdef HAVE_NCPARIO
static void calls(int nc, long long *w, long long *r)
{
    ncpario_profile p;
    CHECK_ERR(ncpario_inq_profile(nc, &p));
    *w = p.mpiio_write_calls;
    *r = p.mpiio_read_calls;
}
#endif

/* Rank 0 puts all NV variables, the others the first: NV batches on
 * rank 0, one elsewhere, NV calls everywhere. */
static void put_uneven(int nc, const int *vars, double *a)
{
    MPI_Offset s, c, st;
    int req[NV], status[NV], n = tu_myrank == 0 ? NV : 1, v, i;
    pieces(&s, &c, &st);
    for (v = 0; v < n; v++) {
        for (i = 0; i < M; i++) a[v * M + i] = val(v, tu_myrank, i);
        CHECK_ERR(ncmpi_iput_vars_double(nc, vars[v], &s, &c, &st,
                                         a + v * M, &req[v]));
    }
    CHECK_ERR(ncmpi_wait_all(nc, n, req, status));
    for (v = 0; v < n; v++) CHECK_ERR(status[v]);
}

static void get_uneven(int nc, const int *vars, double *a)
{
    MPI_Offset s, c, st;
    int req[NV], status[NV], n = tu_myrank == 0 ? NV : 1, v, i, bad = 0;
    pieces(&s, &c, &st);
    for (i = 0; i < NV * M; i++) a[i] = -1;
    for (v = 0; v < n; v++)
        CHECK_ERR(ncmpi_iget_vars_double(nc, vars[v], &s, &c, &st,
                                         a + v * M, &req[v]));
    CHECK_ERR(ncmpi_wait_all(nc, n, req, status));
    for (v = 0; v < n; v++) {
        CHECK_ERR(status[v]);
        for (i = 0; i < M; i++) bad += a[v * M + i] != val(v, tu_myrank, i);
    }
    CHECKF(bad == 0, "%d values read back wrong", bad);
}

static void check_calls(int nc, long long w0, long long r0, long long w,
                        long long r)
{
#ifdef HAVE_NCPARIO
    long long w1, r1;
    calls(nc, &w1, &r1);
    CHECKF(w1 - w0 == w && r1 - r0 == r,
           "%lld write and %lld read calls, want %lld and %lld", w1 - w0,
           r1 - r0, w, r);
#else
    (void)nc, (void)w0, (void)r0, (void)w, (void)r;
#endif
}

/* Two puts of the same pieces with a third between them: three batches,
 * the last put's values in the file. */
static void later_wins(const char *path)
{
    MPI_Offset s, c, st;
    double *a = malloc(3 * M * sizeof *a), *b = malloc(M * sizeof *b);
    int nc, dim, vars[2], req[3], status[3], i, bad = 0;
    pieces(&s, &c, &st);
    CHECK_ERR(ncmpi_create(MPI_COMM_WORLD, path, NC_CLOBBER, MPI_INFO_NULL,
                           &nc));
    CHECK_ERR(ncmpi_def_dim(nc, "x", 2 * (MPI_Offset)tu_nranks * M, &dim));
    CHECK_ERR(ncmpi_def_var(nc, "a", NC_DOUBLE, 1, &dim, &vars[0]));
    CHECK_ERR(ncmpi_def_var(nc, "b", NC_DOUBLE, 1, &dim, &vars[1]));
    CHECK_ERR(ncmpi_set_fill(nc, NC_FILL, NULL));
    CHECK_ERR(ncmpi_enddef(nc));
    for (i = 0; i < 3 * M; i++) a[i] = val(i / M, tu_myrank, i % M);
    CHECK_ERR(ncmpi_iput_vars_double(nc, vars[0], &s, &c, &st, a, &req[0]));
    CHECK_ERR(ncmpi_iput_vars_double(nc, vars[1], &s, &c, &st, a + M,
                                     &req[1]));
    CHECK_ERR(ncmpi_iput_vars_double(nc, vars[0], &s, &c, &st, a + 2 * M,
                                     &req[2]));
    CHECK_ERR(ncmpi_wait_all(nc, 3, req, status));
    CHECK_ERR(ncmpi_get_vars_double_all(nc, vars[0], &s, &c, &st, b));
    for (i = 0; i < M; i++) bad += b[i] != val(2, tu_myrank, i);
#ifdef HAVE_NCPARIO
    CHECKF(bad == 0, "%d values of the earlier put won", bad);
#endif
    CHECK_ERR(ncmpi_close(nc));
    /* the libraries differ here by design: no file to compare */
    MPI_Barrier(MPI_COMM_WORLD);
    if (tu_myrank == 0) CHECK_ERR(ncmpi_delete(path, MPI_INFO_NULL));
    free(a);
    free(b);
}

int main(int argc, char **argv)
{
    const char *path;
    char other[4096];
    MPI_Offset s, c, st;
    double *a;
    long long w0 = 0, r0 = 0;
    int nc, dim, vars[NV], v;
    tu_init(&argc, &argv);
    path = tu_main_path(argc, argv);
    CHECK(path != NULL);
    if (!path) return tu_finish("t_flush_batch");
    a = malloc(NV * M * sizeof *a);
    CHECK_ERR(ncmpi_create(MPI_COMM_WORLD, path, NC_CLOBBER, MPI_INFO_NULL,
                           &nc));
    CHECK_ERR(ncmpi_def_dim(nc, "x", 2 * (MPI_Offset)tu_nranks * M, &dim));
    for (v = 0; v < NV; v++) {
        char name[8];
        snprintf(name, sizeof name, "v%d", v);
        CHECK_ERR(ncmpi_def_var(nc, name, NC_DOUBLE, 1, &dim, &vars[v]));
    }
    CHECK_ERR(ncmpi_set_fill(nc, NC_FILL, NULL));
    CHECK_ERR(ncmpi_enddef(nc));
#ifdef HAVE_NCPARIO
    calls(nc, &w0, &r0);
#endif
    put_uneven(nc, vars, a);
    check_calls(nc, w0, r0, NV, 0);
    get_uneven(nc, vars, a);
    check_calls(nc, w0, r0, NV, NV);
    /* one blocking call, however many pieces: one op is one batch */
    pieces(&s, &c, &st);
    s += tu_nranks; /* the pieces between the others' */
    CHECK_ERR(ncmpi_put_vars_double_all(nc, vars[1], &s, &c, &st, a));
    check_calls(nc, w0, r0, NV + 1, NV);
    CHECK_ERR(ncmpi_close(nc));
    tu_sibling(other, sizeof other, path, "_later.nc");
    later_wins(other);
    free(a);
    return tu_finish("t_flush_batch");
}
