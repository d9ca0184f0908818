/* ncp-test: NO_CDL RANKS 1 2 4 */
/* t_numrecs_limit -- CDF-1 and CDF-2 keep numrecs in 32 bits: a put at
 * a record index of 2^32 or more is refused with NC_EINVALCOORDS (as
 * PnetCDF 1.12.3 does, blocking or posted), and nothing changes: numrecs
 * in memory and in the header, and the records already written, which
 * still read back.  PnetCDF refuses records from 2^31 on only when it
 * writes numrecs (NC_EINTOVERFLOW, after the data), so that case is
 * checked on ncpario alone, where it is refused before anything moves.
 * The main file is CDF-1, <main>_cdf2.nc the same in CDF-2.
 */
#include "testutil.h"
#include "have_ncpario.h"

static void expect_numrecs(int nc, MPI_Offset want, const char *when)
{
    MPI_Offset n = -1;
    CHECK_ERR(ncmpi_inq_dimlen(nc, 0, &n));
    CHECKF(n == want, "%s: numrecs %lld, want %lld", when, (long long)n,
           (long long)want);
}

static void expect_records(int nc, int v)
{
    MPI_Offset s[1] = {0}, c[1] = {2};
    signed char got[2] = {0, 0};
    CHECK_ERR(ncmpi_get_vara_schar_all(nc, v, s, c, got));
    CHECKF(got[0] == 11 && got[1] == 22, "records hold %d %d", got[0], got[1]);
}

#ifdef HAVE_NCPARIO
/* vard reaches record 2^31 through its filetype (recsize is 1 byte here):
 * refused like the other puts, numrecs untouched. */
static void vard_past_limit(int nc, int v)
{
    MPI_Datatype ft;
    MPI_Aint disp = (MPI_Aint)1 << 31;
    int one = 1;
    signed char x = 5;
    MPI_Type_create_hindexed(1, &one, &disp, MPI_SIGNED_CHAR, &ft);
    MPI_Type_commit(&ft);
    EXPECT_ERR(ncmpi_put_vard_all(nc, v, ft, &x, 1, MPI_SIGNED_CHAR),
               NC_EINTOVERFLOW);
    MPI_Type_free(&ft);
    expect_numrecs(nc, 2, "after a vard past 2^31 records");
}
#endif

static void run(const char *path, int cmode)
{
    const MPI_Offset bad[] = {(MPI_Offset)1 << 32, ((MPI_Offset)1 << 32) + 1,
                              (MPI_Offset)1 << 40};
    signed char two[2] = {11, 22}, x = 5;
    MPI_Offset s[1] = {0}, c[1] = {tu_myrank == 0 ? 2 : 0};
    int nc, d, v, k, req;

    CHECK_ERR(ncmpi_create(MPI_COMM_WORLD, path, NC_CLOBBER | cmode,
                           MPI_INFO_NULL, &nc));
    CHECK_ERR(ncmpi_def_dim(nc, "t", NC_UNLIMITED, &d));
    CHECK_ERR(ncmpi_def_var(nc, "v", NC_BYTE, 1, &d, &v));
    CHECK_ERR(ncmpi_enddef(nc));
    CHECK_ERR(ncmpi_put_vara_schar_all(nc, v, s, c, two));
    expect_numrecs(nc, 2, "after two records");

    for (k = 0; k < 3; k++) {
        s[0] = bad[k];
        EXPECT_ERR(ncmpi_put_var1_schar_all(nc, v, s, &x), NC_EINVALCOORDS);
        req = 7;
        EXPECT_ERR(ncmpi_iput_var1_schar(nc, v, s, &x, &req),
                   NC_EINVALCOORDS);
        CHECK(req == NC_REQ_NULL);
        expect_numrecs(nc, 2, "after a refused put");
    }
    CHECK_ERR(ncmpi_begin_indep_data(nc));
    EXPECT_ERR(ncmpi_put_var1_schar(nc, v, s, &x), NC_EINVALCOORDS);
    CHECK_ERR(ncmpi_end_indep_data(nc));
#ifdef HAVE_NCPARIO
    {
        const MPI_Offset over[] = {((MPI_Offset)1 << 31) - 1,
                                   (MPI_Offset)1 << 31,
                                   ((MPI_Offset)1 << 32) - 1};
        for (k = 0; k < 3; k++) {
            s[0] = over[k];
            EXPECT_ERR(ncmpi_put_var1_schar_all(nc, v, s, &x),
                       NC_EINTOVERFLOW);
            EXPECT_ERR(ncmpi_iput_var1_schar(nc, v, s, &x, &req),
                       NC_EINTOVERFLOW);
        }
        s[0] = 0, c[0] = (MPI_Offset)1 << 31;
        EXPECT_ERR(ncmpi_put_vara_schar_all(nc, v, s, c, two),
                   NC_EINTOVERFLOW);
        expect_numrecs(nc, 2, "after a put past 2^31 records");
        vard_past_limit(nc, v);
    }
#endif
    CHECK_ERR(ncmpi_wait_all(nc, NC_REQ_ALL, NULL, NULL));
    expect_numrecs(nc, 2, "after the wait");
    expect_records(nc, v);
    CHECK_ERR(ncmpi_close(nc));

    CHECK_ERR(ncmpi_open(MPI_COMM_WORLD, path, NC_NOWRITE, MPI_INFO_NULL,
                         &nc));
    expect_numrecs(nc, 2, "reopened");
    expect_records(nc, v);
    CHECK_ERR(ncmpi_close(nc));
}

int main(int argc, char **argv)
{
    char cdf2[4096];
    const char *path;
    tu_init(&argc, &argv);
    path = tu_main_path(argc, argv);
    CHECK(path != NULL);
    if (!path) return tu_finish("t_numrecs_limit");
    run(path, 0);
    tu_sibling(cdf2, sizeof cdf2, path, "_cdf2.nc");
    run(cdf2, NC_64BIT_OFFSET);
    return tu_finish("t_numrecs_limit");
}
