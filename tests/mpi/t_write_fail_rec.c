/* ncp-test: NO_CDL RANKS 1 2 4 */
/* t_write_fail_rec -- a record put that the file system refuses does not
 * raise numrecs: not in memory on any rank, not in the header.
 *
 * One record is written, then every rank lowers its file size limit
 * (RLIMIT_FSIZE, SIGXFSZ ignored) to the end of that record, so that the
 * put of the next record fails on whichever rank writes it.  The put
 * must fail on every rank, numrecs must stay 1 (inq_dimlen on every
 * rank, and in the file once closed and reopened), and the record
 * written before must still read back.  Runs: posix collective, posix
 * independent (with ncpario's buffer of independent puts, whose write and
 * error come at end_indep_data, and without), mpiio independent (OMPIO's collective writes report a
 * file system's short write as complete: see t_write_fail).
 */
#define _DEFAULT_SOURCE /* unsetenv */
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "testutil.h"
#include "hintutil.h"
#include "have_ncpario.h"

#define N 1024 /* ints per rank and record */

static void set_fsize_limit(rlim_t limit)
{
    struct rlimit r;
    CHECK(getrlimit(RLIMIT_FSIZE, &r) == 0);
    r.rlim_cur = limit;
    CHECK(setrlimit(RLIMIT_FSIZE, &r) == 0);
}

static void expect_numrecs(int nc, MPI_Offset want, const char *what)
{
    MPI_Offset n = -1;
    CHECK_ERR(ncmpi_inq_dimlen(nc, 0, &n));
    CHECKF(n == want, "%s: numrecs %lld, want %lld", what, (long long)n,
           (long long)want);
}

static int put_record(int nc, int v, MPI_Offset rec, const int *a,
                      int collective)
{
    MPI_Offset s[2] = {rec, (MPI_Offset)tu_myrank * N}, c[2] = {1, N};
    return collective ? ncmpi_put_vara_int_all(nc, v, s, c, a)
                      : ncmpi_put_vara_int(nc, v, s, c, a);
}

/* Whether ncpario holds this run's put until end_indep_data (posix
 * driver, nc_indep_buffer_size): its error comes at that call. */
static int held(const char *hints, int collective)
{
#ifdef HAVE_NCPARIO
    return !collective && strstr(hints, "nc_driver=posix") &&
           !strstr(hints, "nc_indep_buffer_size=0");
#else
    (void)hints;
    (void)collective;
    return 0;
#endif
}

static void check_file(const char *path, const int *a)
{
    MPI_Offset s[2] = {0, (MPI_Offset)tu_myrank * N}, c[2] = {1, N};
    int *got = calloc(N, sizeof *got), nc, v, bad = 0, i;
    CHECK_ERR(ncmpi_open(MPI_COMM_WORLD, path, NC_NOWRITE, MPI_INFO_NULL,
                         &nc));
    expect_numrecs(nc, 1, "reopened");
    CHECK_ERR(ncmpi_inq_varid(nc, "r", &v));
    CHECK_ERR(ncmpi_get_vara_int_all(nc, v, s, c, got));
    for (i = 0; i < N; i++) bad += got[i] != a[i];
    CHECKF(bad == 0, "%d values of record 0 read back wrong", bad);
    CHECK_ERR(ncmpi_close(nc));
    free(got);
}

static void run(const char *path, const char *hints, int collective)
{
    MPI_Info info = tu_info_of(hints);
    int *a = malloc(N * sizeof *a), nc, v, dims[2], i, err;
    MPI_Offset r_at, recsize;
    for (i = 0; i < N; i++) a[i] = i + 1000 * tu_myrank;
    CHECK_ERR(ncmpi_create(MPI_COMM_WORLD, path, NC_CLOBBER, info, &nc));
    CHECK_ERR(ncmpi_def_dim(nc, "t", NC_UNLIMITED, &dims[0]));
    CHECK_ERR(ncmpi_def_dim(nc, "n", (MPI_Offset)N * tu_nranks, &dims[1]));
    CHECK_ERR(ncmpi_def_var(nc, "r", NC_INT, 2, dims, &v));
    CHECK_ERR(ncmpi_enddef(nc));
    CHECK_ERR(ncmpi_inq_varoffset(nc, v, &r_at));
    CHECK_ERR(ncmpi_inq_recsize(nc, &recsize));
    if (!collective) CHECK_ERR(ncmpi_begin_indep_data(nc));
    CHECK_ERR(put_record(nc, v, 0, a, collective));
    if (!collective) CHECK_ERR(ncmpi_end_indep_data(nc));
    CHECK_ERR(tu_sync(nc));
    expect_numrecs(nc, 1, hints);

    if (!collective) CHECK_ERR(ncmpi_begin_indep_data(nc));
    set_fsize_limit((rlim_t)(r_at + recsize));
    err = put_record(nc, v, 1, a, collective);
    if (held(hints, collective)) {
        /* ncpario holds the put: this rank sees its record until the
           write at end_indep_data fails, on every rank */
        CHECK_ERR(err);
        expect_numrecs(nc, 2, "after the held put");
        err = ncmpi_end_indep_data(nc);
    }
    set_fsize_limit(RLIM_INFINITY);
    CHECKF(err != NC_NOERR, "%s: the put past the limit succeeded", hints);
    if (!held(hints, collective)) {
        expect_numrecs(nc, 1, "after the failed put");
        if (!collective) CHECK_ERR(ncmpi_end_indep_data(nc));
    }
    expect_numrecs(nc, 1, "after the failed put, agreed");
    CHECK_ERR(ncmpi_close(nc));
    MPI_Info_free(&info);
    check_file(path, a);
    free(a);
}

int main(int argc, char **argv)
{
    const char *path;
    tu_init(&argc, &argv);
    path = tu_main_path(argc, argv);
    CHECK(path != NULL);
    if (!path) return tu_finish("t_write_fail_rec");
    /* the runs name their drivers; the suite's PNETCDF_HINTS would
     * override them */
    unsetenv("PNETCDF_HINTS");
    signal(SIGXFSZ, SIG_IGN);
    run(path, "nc_driver=posix", 1);
    run(path, "nc_driver=posix", 0);
    run(path, "nc_driver=posix;nc_indep_buffer_size=0", 0);
    run(path, "nc_driver=mpiio", 0);
    return tu_finish("t_write_fail_rec");
}
