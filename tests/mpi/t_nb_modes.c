/* ncp-test: NO_CDL RANKS 1 2 4 */
/* t_nb_modes -- nonblocking requests across define mode and the two data
 * modes, with the return codes PnetCDF 1.12 gives (this program passes
 * against it too, and both files must be byte-identical):
 *   - iput, iget and bput may be posted in define mode; wait and wait_all
 *     may not be called there (NC_EINDEFINE); the requests stay queued;
 *   - ncmpi_wait is refused in collective data mode (NC_ENOTINDEP), and
 *     ncmpi_wait_all in independent data mode (NC_EINDEP), the requests
 *     again staying queued and completing at a later, allowed wait;
 *   - begin/end_indep_data and redef/enddef keep pending requests;
 *   - a second buffer_attach is NC_EPREVATTACHBUF, a detach with bputs
 *     pending NC_EPENDINGBPUT, and close with requests pending returns
 *     NC_EPENDING after cancelling them: their data never reaches the file;
 *   - an iput on a read-only dataset is NC_EPERM at posting.
 * Each rank works on its own row v(rank, x).
 */
#include "testutil.h"

#define NX 4

static int nreqs(int nc)
{
    int n = -1;

    CHECK_ERR(ncmpi_inq_nreqs(nc, &n));
    return n;
}

/* Posts in define mode; only enddef makes them waitable. */
static void define_mode_posts(int nc, int v, int rank, int *got)
{
    MPI_Offset s[2] = {rank, 0}, c[2] = {1, 1};
    int x = 100 + rank, req[3];

    CHECK_ERR(ncmpi_iput_vara_int(nc, v, s, c, &x, &req[0]));
    CHECK_ERR(ncmpi_iget_vara_int(nc, v, s, c, got, &req[1]));
    CHECKF(nreqs(nc) == 2, "%d requests after two posts", nreqs(nc));
    EXPECT_ERR(ncmpi_wait_all(nc, NC_REQ_ALL, NULL, NULL), NC_EINDEFINE);
    EXPECT_ERR(ncmpi_wait(nc, NC_REQ_ALL, NULL, NULL), NC_EINDEFINE);
    CHECK_ERR(ncmpi_buffer_attach(nc, 64));
    s[1] = 1;
    CHECK_ERR(ncmpi_bput_vara_int(nc, v, s, c, &x, &req[2]));
    CHECKF(nreqs(nc) == 3, "%d requests after bput", nreqs(nc));
}

/* The wrong wait for each data mode is refused and leaves the requests. */
static void wrong_waits(int nc, int v, int rank)
{
    MPI_Offset s[2] = {rank, 2}, c[2] = {1, 1};
    int x = 300 + rank, req, st = -1;

    EXPECT_ERR(ncmpi_wait(nc, NC_REQ_ALL, NULL, NULL), NC_ENOTINDEP);
    CHECKF(nreqs(nc) == 3, "%d requests after a refused wait", nreqs(nc));
    CHECK_ERR(ncmpi_iput_vara_int(nc, v, s, c, &x, &req));
    CHECK_ERR(ncmpi_begin_indep_data(nc));
    EXPECT_ERR(ncmpi_wait_all(nc, 1, &req, &st), NC_EINDEP);
    CHECKF(nreqs(nc) == 4, "%d requests after a refused wait_all",
           nreqs(nc));
    CHECK_ERR(ncmpi_wait(nc, 1, &req, &st));
    CHECK_ERR(st);
    CHECK_ERR(ncmpi_end_indep_data(nc));
}

/* Everything posted so far, and one more bput, completes in one wait_all
 * in collective mode once redef/enddef and the buffer checks are done. */
static void complete_all(int nc, int v, int rank, const int *got)
{
    MPI_Offset s[2] = {rank, 3}, c[2] = {1, 1}, usage = -1;
    int x = 400 + rank, req;

    CHECK_ERR(ncmpi_bput_vara_int(nc, v, s, c, &x, &req));
    EXPECT_ERR(ncmpi_buffer_attach(nc, 64), NC_EPREVATTACHBUF);
    EXPECT_ERR(ncmpi_buffer_detach(nc), NC_EPENDINGBPUT);
    CHECK_ERR(ncmpi_inq_buffer_usage(nc, &usage));
    CHECKF(usage == 8, "buffer usage %lld, expected 2 ints", (long long)usage);
    CHECK_ERR(ncmpi_redef(nc));
    CHECK_ERR(ncmpi_enddef(nc));
    CHECKF(nreqs(nc) == 4, "%d requests after redef/enddef", nreqs(nc));
    CHECK_ERR(ncmpi_wait_all(nc, NC_REQ_ALL, NULL, NULL));
    CHECKF(nreqs(nc) == 0, "%d requests after wait_all", nreqs(nc));
    /* The iget was posted after the iput of the same element. */
    CHECKF(*got == 100 + rank, "iget read %d", *got);
    CHECK_ERR(ncmpi_buffer_detach(nc));
}

/* Requests left at close are cancelled: only what was waited for lands. */
static void close_with_pending(int nc, int v, int rank)
{
    MPI_Offset s[2] = {rank, 0}, c[2] = {1, 1};
    int x = -5, req;

    CHECK_ERR(ncmpi_iput_vara_int(nc, v, s, c, &x, &req));
    EXPECT_ERR(ncmpi_close(nc), NC_EPENDING);
}

static void check_file(const char *path, int rank)
{
    MPI_Offset s[2] = {rank, 0}, c[2] = {1, NX};
    int nc, v, row[NX], req, x = 1;
    const int want[NX] = {100 + rank, 100 + rank, 300 + rank, 400 + rank};

    CHECK_ERR(ncmpi_open(MPI_COMM_WORLD, path, NC_NOWRITE, MPI_INFO_NULL,
                         &nc));
    CHECK_ERR(ncmpi_inq_varid(nc, "v", &v));
    CHECK_ERR(ncmpi_get_vara_int_all(nc, v, s, c, row));
    for (int i = 0; i < NX; i++)
        CHECKF(row[i] == want[i], "v(%d,%d) = %d, expected %d", rank, i,
               row[i], want[i]);
    EXPECT_ERR(ncmpi_iput_vara_int(nc, v, s, c, &x, &req), NC_EPERM);
    CHECK_ERR(ncmpi_close(nc));
}

int main(int argc, char **argv)
{
    int nc, dims[2], v, rank, nprocs, got = 0;
    const char *path;

    tu_init(&argc, &argv);
    path = tu_main_path(argc, argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nprocs);

    CHECK_ERR(ncmpi_create(MPI_COMM_WORLD, path, NC_CLOBBER, MPI_INFO_NULL,
                           &nc));
    CHECK_ERR(ncmpi_def_dim(nc, "r", nprocs, &dims[0]));
    CHECK_ERR(ncmpi_def_dim(nc, "x", NX, &dims[1]));
    CHECK_ERR(ncmpi_def_var(nc, "v", NC_INT, 2, dims, &v));
    define_mode_posts(nc, v, rank, &got);
    CHECK_ERR(ncmpi_enddef(nc));
    wrong_waits(nc, v, rank);
    complete_all(nc, v, rank, &got);
    close_with_pending(nc, v, rank);
    check_file(path, rank);
    return tu_finish("t_nb_modes");
}
