/* ncp-test: RANKS 1 2 4 NO_CDL */
/* t_header_early -- the header on disk while a dataset is still open.
 *
 * Rank 0 looks at the file between calls, as a program that stopped there
 * would leave it: its first bytes with plain read(), and its header by a
 * second ncmpi_open on MPI_COMM_SELF.  After every enddef the file holds
 * that enddef's header (numrecs as the last collective put left it), and
 * during a redef it still does.  Right after create, and after a first
 * enddef that failed, ncpario has written an empty header, so a file that
 * exists is always a netCDF file; PnetCDF 1.12.3 has written nothing yet
 * (checked as such, to document the difference).
 */
#include "testutil.h"
#include "have_ncpario.h"
#include <fcntl.h>
#include <unistd.h>

#define NX 6

/* Rank 0 only: the file's size and first four bytes. */
static long long peek(const char *path, unsigned char magic[4])
{
    long long size = -1;
    int fd = open(path, O_RDONLY);
    memset(magic, 0, 4);
    if (fd >= 0) {
        size = (long long)lseek(fd, 0, SEEK_END);
        if (lseek(fd, 0, SEEK_SET) != 0 || read(fd, magic, 4) != 4)
            memset(magic, 0, 4);
        close(fd);
    }
    return size;
}

/* After every rank's calls so far, rank 0 opens the file on its own and
 * compares what it finds; the others wait. */
static void expect_on_disk(const char *path, int version, int ndims,
                           int nvars, MPI_Offset numrecs, const char *when)
{
    MPI_Barrier(MPI_COMM_WORLD);
    if (tu_myrank == 0) {
        unsigned char m[4];
        int nc, nd = -1, nv = -1, err;
        MPI_Offset nr = -1;
        long long size = peek(path, m);
        CHECKF(size >= 4 && m[0] == 'C' && m[1] == 'D' && m[2] == 'F' &&
                   m[3] == version,
               "%s: size %lld, magic %02x %02x %02x %02x", when, size, m[0],
               m[1], m[2], m[3]);
        err = ncmpi_open(MPI_COMM_SELF, path, NC_NOWRITE, MPI_INFO_NULL, &nc);
        CHECKF(err == NC_NOERR, "%s: second open: %s", when,
               ncmpi_strerrno(err));
        if (err == NC_NOERR) {
            CHECK_ERR(ncmpi_inq(nc, &nd, &nv, NULL, NULL));
            if (nd > 0) CHECK_ERR(ncmpi_inq_dimlen(nc, 0, &nr));
            CHECKF(nd == ndims && nv == nvars && (nd == 0 || nr == numrecs),
                   "%s: %d dims %d vars %lld records", when, nd, nv,
                   (long long)nr);
            CHECK_ERR(ncmpi_close(nc));
        }
    }
    MPI_Barrier(MPI_COMM_WORLD);
}

/* Right after create (and after a failed first enddef): ncpario's empty
 * header, PnetCDF's empty file. */
static void expect_new(const char *path, int version, const char *when)
{
#ifdef HAVE_NCPARIO
    expect_on_disk(path, version, 0, 0, 0, when);
#else
    MPI_Barrier(MPI_COMM_WORLD);
    if (tu_myrank == 0) {
        unsigned char m[4];
        CHECKF(peek(path, m) == 0, "%s: PnetCDF wrote bytes", when);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    (void)version;
#endif
}

static void lifetime(const char *path, int cmode, int version)
{
    int nc, dt, dx, v, r, w, dims[2], buf[NX], two[2 * NX], i;
    MPI_Offset s, c, st[2], ct[2];

    CHECK_ERR(ncmpi_create(MPI_COMM_WORLD, path, NC_CLOBBER | cmode,
                           MPI_INFO_NULL, &nc));
    expect_new(path, version, "after create");
    CHECK_ERR(ncmpi_def_dim(nc, "t", NC_UNLIMITED, &dt));
    CHECK_ERR(ncmpi_def_dim(nc, "x", NX, &dx));
    CHECK_ERR(ncmpi_def_var(nc, "v", NC_INT, 1, &dx, &v));
    dims[0] = dt; dims[1] = dx;
    CHECK_ERR(ncmpi_def_var(nc, "r", NC_INT, 2, dims, &r));
    expect_new(path, version, "define mode before the first enddef");
    CHECK_ERR(ncmpi_enddef(nc));
    expect_on_disk(path, version, 2, 2, 0, "after enddef");

    tu_part(NX, tu_myrank, tu_nranks, &s, &c);
    for (i = 0; i < c; i++) buf[i] = (int)s + i;
    CHECK_ERR(ncmpi_put_vara_int_all(nc, v, &s, &c, buf));
    st[0] = 0; st[1] = s; ct[0] = 2; ct[1] = c;
    for (i = 0; i < 2 * c; i++) two[i] = i;
    CHECK_ERR(ncmpi_put_vara_int_all(nc, r, st, ct, two));
    expect_on_disk(path, version, 2, 2, 2, "after collective puts");

    CHECK_ERR(ncmpi_redef(nc));
    CHECK_ERR(ncmpi_def_var(nc, "w", NC_INT, 1, &dx, &w));
    CHECK_ERR(ncmpi_put_att_text(nc, NC_GLOBAL, "note", 5, "redef"));
    expect_on_disk(path, version, 2, 2, 2, "during redef");
    CHECK_ERR(ncmpi_enddef(nc));
    expect_on_disk(path, version, 2, 3, 2, "after the second enddef");
    for (i = 0; i < NX; i++) buf[i] = 0;
    CHECK_ERR(ncmpi_put_var_int_all(nc, w, buf));
    CHECK_ERR(ncmpi_close(nc));
}

/* A first enddef that fails leaves the file as create left it. */
static void failed_first_enddef(const char *path)
{
    int nc, dx, v;
    CHECK_ERR(ncmpi_create(MPI_COMM_WORLD, path, NC_CLOBBER, MPI_INFO_NULL, &nc));
    CHECK_ERR(ncmpi_def_dim(nc, "x", NX, &dx));
    CHECK_ERR(ncmpi_def_var(nc, "v", NC_INT, 1, &dx, &v));
    EXPECT_ERR(ncmpi__enddef(nc, 0, (MPI_Offset)1 << 32, 0, 0), NC_EVARSIZE);
    expect_new(path, 1, "after a failed first enddef");
    EXPECT_ERR(ncmpi_close(nc), NC_EVARSIZE);
    expect_new(path, 1, "after a failed close");
    /* PnetCDF leaves an empty file here, ncpario an empty header: gone */
    MPI_Barrier(MPI_COMM_WORLD);
    if (tu_myrank == 0) CHECK_ERR(ncmpi_delete(path, MPI_INFO_NULL));
    MPI_Barrier(MPI_COMM_WORLD);
}

int main(int argc, char **argv)
{
    char cdf2[1024], cdf5[1024], bad[1024];
    const char *path;
    tu_init(&argc, &argv);
    if ((path = tu_main_path(argc, argv)) == NULL)
        return tu_finish("t_header_early");
    tu_sibling(cdf2, sizeof cdf2, path, "_cdf2.nc");
    tu_sibling(cdf5, sizeof cdf5, path, "_cdf5.nc");
    tu_sibling(bad, sizeof bad, path, "_bad.nc");
    lifetime(path, 0, 1);
    lifetime(cdf2, NC_64BIT_OFFSET, 2);
    lifetime(cdf5, NC_64BIT_DATA, 5);
    failed_first_enddef(bad);
    return tu_finish("t_header_early");
}
