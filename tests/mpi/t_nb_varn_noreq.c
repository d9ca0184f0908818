/* ncp-test: NO_CDL RANKS 1 2 4 */
/* t_nb_varn_noreq -- nonblocking varn requests posted with a NULL request
 * id, as E3SM's I/O layer posts them: iput_varn, bput_varn and iget_varn
 * stay queued in collective data mode, ncmpi_inq_nreqs counts them, and
 * ncmpi_wait_all(NC_REQ_ALL) completes them; a posted put never turns into
 * a blocking one (which collective mode would refuse with NC_ENOTINDEP).
 * ncmpi_inq_nreqs with a NULL count is no error, as in PnetCDF.
 * Each rank writes two pieces of its own row of v(rank, x) with iput_varn
 * and one with bput_varn, then reads its row back with iget_varn.
 */
#include "testutil.h"

#define NX 6

static int nreqs(int nc)
{
    int n = -1;

    CHECK_ERR(ncmpi_inq_nreqs(nc, &n));
    CHECK_ERR(ncmpi_inq_nreqs(nc, NULL));
    return n;
}

/* Posts three puts with no request id and completes them together. */
static void put_row(int nc, int v, int rank)
{
    MPI_Offset s0[2] = {rank, 0}, c0[2] = {1, 2};
    MPI_Offset s1[2] = {rank, 4}, c1[2] = {1, 2};
    MPI_Offset s2[2] = {rank, 2}, c2[2] = {1, 2};
    MPI_Offset *starts[2] = {s0, s1}, *counts[2] = {c0, c1};
    MPI_Offset *bstart[1] = {s2}, *bcount[1] = {c2};
    int iput[4], bput[2], k;

    for (k = 0; k < 4; k++) iput[k] = 10 * rank + (k < 2 ? k : k + 2);
    for (k = 0; k < 2; k++) bput[k] = 10 * rank + 2 + k;
    CHECK_ERR(ncmpi_buffer_attach(nc, sizeof bput));
    CHECK_ERR(ncmpi_iput_varn_int(nc, v, 2, starts, counts, iput, NULL));
    CHECK_ERR(ncmpi_bput_varn(nc, v, 1, bstart, bcount, bput, 2, MPI_INT,
                              NULL));
    CHECKF(nreqs(nc) == 2, "%d requests pending, expected 2", nreqs(nc));
    CHECK_ERR(ncmpi_wait_all(nc, NC_REQ_ALL, NULL, NULL));
    CHECKF(nreqs(nc) == 0, "%d requests after wait_all", nreqs(nc));
    CHECK_ERR(ncmpi_buffer_detach(nc));
}

static void get_row(int nc, int v, int rank)
{
    MPI_Offset s[2] = {rank, 0}, c[2] = {1, NX};
    MPI_Offset *starts[1] = {s}, *counts[1] = {c};
    int got[NX], k;

    for (k = 0; k < NX; k++) got[k] = -1;
    CHECK_ERR(ncmpi_iget_varn_int(nc, v, 1, starts, counts, got, NULL));
    CHECKF(nreqs(nc) == 1, "%d requests pending, expected 1", nreqs(nc));
    CHECK_ERR(ncmpi_wait_all(nc, NC_REQ_ALL, NULL, NULL));
    for (k = 0; k < NX; k++)
        CHECKF(got[k] == 10 * rank + k, "v[%d][%d] = %d, expected %d", rank,
               k, got[k], 10 * rank + k);
}

int main(int argc, char **argv)
{
    int nc, v, dims[2], rank, size;

    tu_init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    CHECK_ERR(ncmpi_create(MPI_COMM_WORLD, tu_main_path(argc, argv),
                           NC_CLOBBER, MPI_INFO_NULL, &nc));
    CHECK_ERR(ncmpi_def_dim(nc, "y", size, &dims[0]));
    CHECK_ERR(ncmpi_def_dim(nc, "x", NX, &dims[1]));
    CHECK_ERR(ncmpi_def_var(nc, "v", NC_INT, 2, dims, &v));
    CHECK_ERR(ncmpi_enddef(nc));
    put_row(nc, v, rank);
    get_row(nc, v, rank);
    CHECK_ERR(ncmpi_close(nc));
    return tu_finish("t_nb_varn_noreq");
}
