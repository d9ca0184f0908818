/* ncp-test: NO_PNETCDF_CMP NO_CDL RANKS 1 2 4 */
/* t_write_fail -- a write that the file system refuses half-way, where
 * the caller's buffers are byte-swapped in place around it.
 *
 * Each rank lowers its file size limit (RLIMIT_FSIZE, SIGXFSZ ignored)
 * to the middle of its own part of the second variable, then writes an
 * int and a double variable in one independent wait (each rank writes
 * its own bytes, so the posix driver swaps the caller's buffers chunk by
 * chunk: 1.2 and 2.4 MB, more than one chunk each), and once collective
 * through the mpiio driver.  ncpario holds an independent wait's small
 * puts by default (nc_indep_buffer_size) but writes pieces this large at
 * the wait: with the default buffer too, the wait itself fails (the
 * error of held puts is t_write_fail_rec's and t_faults_meta's).
 * Every write must:
 *   - return an error (NC_EWRITE: EFBIG has no code of its own), on
 *     every rank that passed the limit;
 *   - leave both buffers holding the caller's values, swapped back;
 * and with the limit raised again the same calls write the file, whose
 * values all read back.
 */
#define _DEFAULT_SOURCE /* unsetenv */
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "testutil.h"
#include "hintutil.h"

#define N 300000 /* elements per rank and variable */

static int int_val(int i) { return 0x01020304 + i * 7 + tu_myrank * 1000003; }
static double dbl_val(int i) { return 1.0 / (i + 3) + tu_myrank * 1e6; }

static void fill(int *a, double *b)
{
    for (int i = 0; i < N; i++) a[i] = int_val(i);
    for (int i = 0; i < N; i++) b[i] = dbl_val(i);
}

static int wrong_values(const int *a, const double *b)
{
    int bad = 0;
    for (int i = 0; i < N; i++) bad += a[i] != int_val(i);
    for (int i = 0; i < N; i++) bad += b[i] != dbl_val(i);
    return bad;
}

static void set_fsize_limit(rlim_t limit)
{
    struct rlimit r;
    CHECK(getrlimit(RLIMIT_FSIZE, &r) == 0);
    r.rlim_cur = limit;
    CHECK(setrlimit(RLIMIT_FSIZE, &r) == 0);
}

/* Both variables from this rank's buffers: one wait in independent mode,
 * or one wait_all. */
static int put_both(int nc, const int *v, int *a, double *b, int collective)
{
    MPI_Offset st = (MPI_Offset)tu_myrank * N, ct = N;
    int req[2], stat[2] = {NC_NOERR, NC_NOERR}, err;
    CHECK_ERR(ncmpi_iput_vara_int(nc, v[0], &st, &ct, a, &req[0]));
    CHECK_ERR(ncmpi_iput_vara_double(nc, v[1], &st, &ct, b, &req[1]));
    err = collective ? ncmpi_wait_all(nc, 2, req, stat)
                     : ncmpi_wait(nc, 2, req, stat);
    if (err == NC_NOERR) err = stat[0] != NC_NOERR ? stat[0] : stat[1];
    return err;
}

static void check_file(const char *path)
{
    MPI_Offset st = (MPI_Offset)tu_myrank * N, ct = N;
    int *a = malloc(N * sizeof *a), nc, v[2], bad;
    double *b = malloc(N * sizeof *b);
    CHECK_ERR(ncmpi_open(MPI_COMM_WORLD, path, NC_NOWRITE, MPI_INFO_NULL,
                         &nc));
    CHECK_ERR(ncmpi_inq_varid(nc, "a", &v[0]));
    CHECK_ERR(ncmpi_inq_varid(nc, "b", &v[1]));
    CHECK_ERR(ncmpi_get_vara_int_all(nc, v[0], &st, &ct, a));
    CHECK_ERR(ncmpi_get_vara_double_all(nc, v[1], &st, &ct, b));
    bad = wrong_values(a, b);
    CHECKF(bad == 0, "%s: %d values read back wrong", path, bad);
    CHECK_ERR(ncmpi_close(nc));
    free(a);
    free(b);
}

static void run(const char *path, const char *hints, int collective)
{
    MPI_Info info = tu_info_of(hints);
    int *a = malloc(N * sizeof *a), nc, v[2], dim, bad;
    double *b = malloc(N * sizeof *b);
    MPI_Offset b_at;
    fill(a, b);
    CHECK_ERR(ncmpi_create(MPI_COMM_WORLD, path, NC_CLOBBER, info, &nc));
    CHECK_ERR(ncmpi_def_dim(nc, "n", (MPI_Offset)N * tu_nranks, &dim));
    CHECK_ERR(ncmpi_def_var(nc, "a", NC_INT, 1, &dim, &v[0]));
    CHECK_ERR(ncmpi_def_var(nc, "b", NC_DOUBLE, 1, &dim, &v[1]));
    CHECK_ERR(ncmpi_enddef(nc));
    CHECK_ERR(ncmpi_inq_varoffset(nc, v[1], &b_at));
    if (!collective) CHECK_ERR(ncmpi_begin_indep_data(nc));

    /* the middle of this rank's part of b */
    set_fsize_limit((rlim_t)(b_at + (MPI_Offset)tu_myrank * N * 8 + N * 4));
    EXPECT_ERR(put_both(nc, v, a, b, collective), NC_EWRITE);
    set_fsize_limit(RLIM_INFINITY);
    bad = wrong_values(a, b);
    CHECKF(bad == 0,
           "%s: %d of the caller's values changed by the failed write",
           hints, bad);

    CHECK_ERR(put_both(nc, v, a, b, collective));
    bad = wrong_values(a, b);
    CHECKF(bad == 0, "%s: %d of the caller's values changed by the write",
           hints, bad);
    if (!collective) CHECK_ERR(ncmpi_end_indep_data(nc));
    CHECK_ERR(ncmpi_close(nc));
    MPI_Info_free(&info);
    free(a);
    free(b);
    check_file(path);
}

int main(int argc, char **argv)
{
    const char *path;
    tu_init(&argc, &argv);
    path = tu_main_path(argc, argv);
    CHECK(path != NULL);
    if (!path) return tu_finish("t_write_fail");
    /* the runs name their drivers; the suite's PNETCDF_HINTS would
     * override them */
    unsetenv("PNETCDF_HINTS");
    /* a write past the limit fails with EFBIG instead of killing us */
    signal(SIGXFSZ, SIG_IGN);
    run(path, "nc_driver=posix;nc_in_place_swap=enable;nc_indep_buffer_size=0",
        0);
    run(path, "nc_driver=posix;nc_in_place_swap=enable", 0);
    run(path, "nc_driver=mpiio;nc_in_place_swap=enable", 0);
    run(path, "nc_driver=posix;nc_in_place_swap=enable", 1);
    return tu_finish("t_write_fail");
}
