/* ncp-test: RANKS 1 2 4 NO_CDL */
/* t_sync_mode -- ncmpi_sync, ncmpi_sync_numrecs and ncmpi_flush keep the
 * data mode they are called in: an independent put still works after each
 * of them, a collective one is still refused, and the other way round in
 * collective mode.  In independent mode they are collective all the same,
 * and sync and sync_numrecs agree on the record count.  In define mode
 * sync and sync_numrecs are refused and flush succeeds; a read-only file
 * syncs and flushes but has no record count to sync.
 */
#include "testutil.h"

#define NX 4

/* Rank r writes record rec + r, whole, independently. */
static void indep_put(int nc, int v, MPI_Offset rec, const char *after)
{
    int buf[NX] = {1, 2, 3, 4};
    MPI_Offset st[2] = {rec + tu_myrank, 0}, ct[2] = {1, NX};
    int err = ncmpi_put_vara_int(nc, v, st, ct, buf);
    CHECKF(err == NC_NOERR, "independent put after %s: %s", after,
           ncmpi_strerrno(err));
}

static void coll_put(int nc, int v, MPI_Offset rec, const char *after)
{
    int buf[NX] = {5, 6, 7, 8};
    MPI_Offset st[2] = {rec + tu_myrank, 0}, ct[2] = {1, NX};
    int err = ncmpi_put_vara_int_all(nc, v, st, ct, buf);
    CHECKF(err == NC_NOERR, "collective put after %s: %s", after,
           ncmpi_strerrno(err));
}

static void expect_numrecs(int nc, int dt, MPI_Offset want, const char *when)
{
    MPI_Offset n = -1;
    CHECK_ERR(ncmpi_inq_dimlen(nc, dt, &n));
    CHECKF(n == want, "%s: numrecs %lld want %lld", when, (long long)n,
           (long long)want);
}

static void independent_mode(int nc, int dt, int v)
{
    MPI_Offset nr = tu_nranks, st[2] = {0, 0}, ct[2] = {1, NX};
    int buf[NX] = {0};

    CHECK_ERR(ncmpi_begin_indep_data(nc));
    indep_put(nc, v, 0, "begin_indep_data");
    CHECK_ERR(ncmpi_sync(nc));
    expect_numrecs(nc, dt, nr, "sync in independent mode");
    indep_put(nc, v, nr, "sync");
    CHECK_ERR(ncmpi_sync_numrecs(nc));
    expect_numrecs(nc, dt, 2 * nr, "sync_numrecs in independent mode");
    indep_put(nc, v, 2 * nr, "sync_numrecs");
    CHECK_ERR(ncmpi_flush(nc));
    indep_put(nc, v, 3 * nr, "flush");
    EXPECT_ERR(ncmpi_put_vara_int_all(nc, v, st, ct, buf), NC_EINDEP);
    CHECK_ERR(ncmpi_end_indep_data(nc));
    expect_numrecs(nc, dt, 4 * nr, "end_indep_data");
}

static void collective_mode(int nc, int dt, int v)
{
    MPI_Offset nr = tu_nranks, st[2] = {0, 0}, ct[2] = {1, NX};
    int buf[NX] = {0};

    CHECK_ERR(ncmpi_sync(nc));
    coll_put(nc, v, 4 * nr, "sync");
    CHECK_ERR(ncmpi_sync_numrecs(nc));
    coll_put(nc, v, 5 * nr, "sync_numrecs");
    CHECK_ERR(ncmpi_flush(nc));
    coll_put(nc, v, 6 * nr, "flush");
    EXPECT_ERR(ncmpi_put_vara_int(nc, v, st, ct, buf), NC_ENOTINDEP);
    expect_numrecs(nc, dt, 7 * nr, "collective mode");
}

int main(int argc, char **argv)
{
    const char *path;
    int nc, dt, dx, v, dims[2], buf[NX];
    MPI_Offset st[2] = {0, 0}, ct[2] = {1, NX};

    tu_init(&argc, &argv);
    if ((path = tu_main_path(argc, argv)) == NULL)
        return tu_finish("t_sync_mode");
    CHECK_ERR(ncmpi_create(MPI_COMM_WORLD, path, NC_CLOBBER, MPI_INFO_NULL, &nc));
    CHECK_ERR(ncmpi_def_dim(nc, "t", NC_UNLIMITED, &dt));
    CHECK_ERR(ncmpi_def_dim(nc, "x", NX, &dx));
    dims[0] = dt; dims[1] = dx;
    CHECK_ERR(ncmpi_def_var(nc, "v", NC_INT, 2, dims, &v));
    EXPECT_ERR(ncmpi_sync(nc), NC_EINDEFINE);
    EXPECT_ERR(ncmpi_sync_numrecs(nc), NC_EINDEFINE);
    CHECK_ERR(ncmpi_flush(nc));
    CHECK_ERR(ncmpi_enddef(nc));
    independent_mode(nc, dt, v);
    collective_mode(nc, dt, v);
    CHECK_ERR(ncmpi_close(nc));

    CHECK_ERR(ncmpi_open(MPI_COMM_WORLD, path, NC_NOWRITE, MPI_INFO_NULL, &nc));
    CHECK_ERR(ncmpi_begin_indep_data(nc));
    CHECK_ERR(ncmpi_sync(nc));
    EXPECT_ERR(ncmpi_sync_numrecs(nc), NC_EPERM);
    CHECK_ERR(ncmpi_flush(nc));
    CHECK_ERR(ncmpi_get_vara_int(nc, v, st, ct, buf));
    CHECK(buf[0] == 1 && buf[NX - 1] == 4);
    CHECK_ERR(ncmpi_end_indep_data(nc));
    CHECK_ERR(ncmpi_close(nc));
    return tu_finish("t_sync_mode");
}
