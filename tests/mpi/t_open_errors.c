/* ncp-test: NO_PNETCDF_CMP RANKS 1 2 4 */
/* t_open_errors -- create/open/delete/abort failures.
 *
 * Codes are those of PnetCDF 1.12.3.  Rank 0 makes the scratch files (a
 * text file, truncated copies of a valid file) with plain stdio, then every
 * rank opens them together.  Every scratch file is removed at the end, so
 * only argv[1], a valid dataset, is left.  Truncated headers: PnetCDF
 * reads the missing bytes as zeros, so some cuts open as an empty dataset
 * and others fail; this test only demands that all ranks agree and that a
 * dataset which does open claims no variables it cannot have.
 */
#include "testutil.h"
#include <unistd.h>

#define NX 100

static void make_valid(const char *path)
{
    int nc, d, v, buf[NX], i;
    for (i = 0; i < NX; i++)
        buf[i] = i;
    CHECK_ERR(ncmpi_create(MPI_COMM_WORLD, path, NC_CLOBBER, MPI_INFO_NULL, &nc));
    CHECK_ERR(ncmpi_def_dim(nc, "x", NX, &d));
    CHECK_ERR(ncmpi_def_var(nc, "v", NC_INT, 1, &d, &v));
    CHECK_ERR(ncmpi_put_att_text(nc, NC_GLOBAL, "title", 20, "abcdefghijklmnopqrst"));
    CHECK_ERR(ncmpi_enddef(nc));
    CHECK_ERR(ncmpi_put_var_int_all(nc, v, buf));
    CHECK_ERR(ncmpi_close(nc));
}

/* Rank 0 copies the first n bytes of src to dst once every rank is done
 * with dst; everyone waits. */
static void truncated_copy(const char *src, const char *dst, long n)
{
    MPI_Barrier(MPI_COMM_WORLD);
    if (tu_myrank == 0) {
        FILE *in = fopen(src, "rb"), *out = fopen(dst, "wb");
        char buf[1024];
        size_t got = 0;
        CHECK(in != NULL && out != NULL);
        if (in && out && n > 0) {
            got = fread(buf, 1, (size_t)n, in);
            CHECK(fwrite(buf, 1, got, out) == got);
        }
        if (in) fclose(in);
        if (out) fclose(out);
    }
    MPI_Barrier(MPI_COMM_WORLD);
}

/* Rank 0 writes an HDF5 signature at offset at (after a user block of
 * zeros when at > 0) and some bytes after it, once every rank is done
 * with dst; everyone waits. */
static void fake_hdf5(const char *dst, long at)
{
    static const unsigned char sig[8] = {0x89, 'H', 'D', 'F',
                                         '\r', '\n', 0x1a, '\n'};
    MPI_Barrier(MPI_COMM_WORLD);
    if (tu_myrank == 0) {
        FILE *out = fopen(dst, "wb");
        unsigned char zero[64] = {0};
        long k;
        CHECK(out != NULL);
        if (out) {
            for (k = 0; k < at; k++)
                fputc(0, out);
            CHECK(fwrite(sig, 1, 8, out) == 8);
            CHECK(fwrite(zero, 1, sizeof zero, out) == sizeof zero);
            fclose(out);
        }
    }
    MPI_Barrier(MPI_COMM_WORLD);
}

/* netCDF-4 (HDF5) files, at offset 0 or after a user block: this build
 * of the classic formats says NC_ENOTBUILT, as PnetCDF without netCDF-4
 * support does, and inq_file_format names the format. */
static void hdf5_files(const char *scratch)
{
    static const long at[] = {0, 512, 1024};
    int nc, fmt;
    size_t k;

    for (k = 0; k < sizeof at / sizeof at[0]; k++) {
        fake_hdf5(scratch, at[k]);
        EXPECT_ERR(ncmpi_open(MPI_COMM_WORLD, scratch, NC_NOWRITE,
                              MPI_INFO_NULL, &nc), NC_ENOTBUILT);
        fmt = -5;
        CHECK_ERR(ncmpi_inq_file_format(scratch, &fmt));
        CHECKF(fmt == NC_FORMAT_NETCDF4, "HDF5 at %ld: format %d", at[k], fmt);
    }
    /* a signature past the doubling offsets is not one */
    fake_hdf5(scratch, 700);
    EXPECT_ERR(ncmpi_open(MPI_COMM_WORLD, scratch, NC_NOWRITE, MPI_INFO_NULL,
                          &nc), NC_ENOTNC);
}

static void same_everywhere(int err, const char *what)
{
    int lo, hi;
    MPI_Allreduce(&err, &lo, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    MPI_Allreduce(&err, &hi, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    CHECKF(lo == hi, "%s: ranks disagree (%d..%d)", what, lo, hi);
}

static int exists(const char *path)
{
    int yes;
    MPI_Barrier(MPI_COMM_WORLD);
    yes = access(path, F_OK) == 0;
    MPI_Barrier(MPI_COMM_WORLD);
    return yes;
}

int main(int argc, char **argv)
{
    char junk[4096], trunc[4096], missing[4096], scratch[4096], name[NC_MAX_NAME + 1];
    static const long cuts[] = {8, 20, 40, 60, 100};
    int nc, d, fmt, err, nvars, buf[NX], i;
    size_t k;
    const char *path;

    tu_init(&argc, &argv);
    path = tu_main_path(argc, argv);
    CHECK(path != NULL);
    if (!path)
        return tu_finish("t_open_errors");
    tu_sibling(junk, sizeof junk, path, "_junk.nc");
    tu_sibling(trunc, sizeof trunc, path, "_trunc.nc");
    tu_sibling(missing, sizeof missing, path, "_missing.nc");
    tu_sibling(scratch, sizeof scratch, path, "_scratch.nc");
    make_valid(path);

    /* not netCDF */
    if (tu_myrank == 0) {
        FILE *f = fopen(junk, "w");
        CHECK(f != NULL);
        if (f) {
            fputs("this is plain text and certainly not a netCDF header\n", f);
            fclose(f);
        }
    }
    MPI_Barrier(MPI_COMM_WORLD);
    EXPECT_ERR(ncmpi_open(MPI_COMM_WORLD, junk, NC_NOWRITE, MPI_INFO_NULL, &nc), NC_ENOTNC);
    EXPECT_ERR(ncmpi_open(MPI_COMM_WORLD, junk, NC_WRITE, MPI_INFO_NULL, &nc), NC_ENOTNC);
    fmt = -5;
    CHECK_ERR(ncmpi_inq_file_format(junk, &fmt));
    CHECK(fmt == NC_FORMAT_UNKNOWN);

    /* missing file, missing directory */
    EXPECT_ERR(ncmpi_open(MPI_COMM_WORLD, missing, NC_NOWRITE, MPI_INFO_NULL, &nc), NC_ENOENT);
    EXPECT_ERR(ncmpi_inq_file_format(missing, &fmt), NC_ENOENT);
    EXPECT_ERR(ncmpi_create(MPI_COMM_WORLD, "/nonexistent-dir-ncp/x.nc", NC_CLOBBER,
                            MPI_INFO_NULL, &nc), NC_ENOENT);
    EXPECT_ERR(ncmpi_delete(missing, MPI_INFO_NULL), NC_ENOENT);

    /* no clobber; conflicting format flags */
    EXPECT_ERR(ncmpi_create(MPI_COMM_WORLD, path, NC_NOCLOBBER, MPI_INFO_NULL, &nc), NC_EEXIST);
    EXPECT_ERR(ncmpi_create(MPI_COMM_WORLD, scratch, NC_64BIT_OFFSET | NC_64BIT_DATA,
                            MPI_INFO_NULL, &nc), NC_EINVAL_CMODE);
    CHECK(!exists(scratch));
    CHECK_ERR(ncmpi_open(MPI_COMM_WORLD, path, NC_NOWRITE, MPI_INFO_NULL, &nc));
    CHECK_ERR(ncmpi_get_var_int_all(nc, 0, buf));
    for (i = 0; i < NX; i++)
        CHECKF(buf[i] == i, "noclobber kept data [%d]", i);
    CHECK_ERR(ncmpi_close(nc));

    /* truncated copies: nothing (NC_EFILE), only the magic (NC_EFILE),
     * then cuts inside the header */
    truncated_copy(path, trunc, 0);
    EXPECT_ERR(ncmpi_open(MPI_COMM_WORLD, trunc, NC_NOWRITE, MPI_INFO_NULL, &nc), NC_EFILE);
    truncated_copy(path, trunc, 4);
    EXPECT_ERR(ncmpi_open(MPI_COMM_WORLD, trunc, NC_NOWRITE, MPI_INFO_NULL, &nc), NC_EFILE);
    EXPECT_ERR(ncmpi_inq_file_format(trunc, &fmt), NC_EFILE);
    for (k = 0; k < sizeof cuts / sizeof cuts[0]; k++) {
        truncated_copy(path, trunc, cuts[k]);
        err = ncmpi_open(MPI_COMM_WORLD, trunc, NC_NOWRITE, MPI_INFO_NULL, &nc);
        same_everywhere(err, "open truncated header");
        if (err == NC_NOERR) {
            CHECK_ERR(ncmpi_inq_nvars(nc, &nvars));
            CHECKF(nvars == 0, "cut %ld: %d variables", cuts[k], nvars);
            CHECK_ERR(ncmpi_close(nc));
        }
    }
    /* header complete, data cut short: the header opens; the bytes that
     * are there read back right */
    truncated_copy(path, trunc, 600);
    CHECK_ERR(ncmpi_open(MPI_COMM_WORLD, trunc, NC_NOWRITE, MPI_INFO_NULL, &nc));
    CHECK_ERR(ncmpi_inq_varname(nc, 0, name));
    CHECK(strcmp(name, "v") == 0);
    CHECK_ERR(ncmpi_get_vara_int_all(nc, 0, &(MPI_Offset){0}, &(MPI_Offset){20}, buf));
    for (i = 0; i < 20; i++)
        CHECKF(buf[i] == i, "truncated data [%d]", i);
    CHECK_ERR(ncmpi_close(nc));

    hdf5_files(scratch);

    /* abort: in define mode a new file disappears (with several ranks
     * PnetCDF reports NC_ENOENT on ranks that lose the race to remove it) */
    CHECK_ERR(ncmpi_create(MPI_COMM_WORLD, scratch, NC_CLOBBER, MPI_INFO_NULL, &nc));
    CHECK_ERR(ncmpi_def_dim(nc, "x", 3, &d));
    err = ncmpi_abort(nc);
    CHECKF(err == NC_NOERR || (tu_nranks > 1 && err == NC_ENOENT), "abort: %s", ncmpi_strerrno(err));
    CHECK(!exists(scratch));
    /* after enddef the file stays */
    CHECK_ERR(ncmpi_create(MPI_COMM_WORLD, scratch, NC_CLOBBER, MPI_INFO_NULL, &nc));
    CHECK_ERR(ncmpi_def_dim(nc, "x", 3, &d));
    CHECK_ERR(ncmpi_enddef(nc));
    CHECK_ERR(ncmpi_abort(nc));
    CHECK(exists(scratch));
    /* an opened file in redef: the changes are dropped, the file stays */
    CHECK_ERR(ncmpi_open(MPI_COMM_WORLD, path, NC_WRITE, MPI_INFO_NULL, &nc));
    CHECK_ERR(ncmpi_redef(nc));
    CHECK_ERR(ncmpi_def_dim(nc, "y", 3, &d));
    CHECK_ERR(ncmpi_rename_var(nc, 0, "renamed"));
    CHECK_ERR(ncmpi_abort(nc));
    CHECK(exists(path));
    CHECK_ERR(ncmpi_open(MPI_COMM_WORLD, path, NC_NOWRITE, MPI_INFO_NULL, &nc));
    CHECK_ERR(ncmpi_inq_ndims(nc, &d));
    CHECK(d == 1);
    CHECK_ERR(ncmpi_inq_varname(nc, 0, name));
    CHECK(strcmp(name, "v") == 0);
    CHECK_ERR(ncmpi_close(nc));
    EXPECT_ERR(ncmpi_abort(12345), NC_EBADID);

    /* delete (not collective: rank 0 alone) */
    MPI_Barrier(MPI_COMM_WORLD);
    if (tu_myrank == 0) {
        CHECK_ERR(ncmpi_delete(scratch, MPI_INFO_NULL));
        CHECK_ERR(ncmpi_delete(trunc, MPI_INFO_NULL));
        CHECK(unlink(junk) == 0);
    }
    CHECK(!exists(scratch));
    CHECK(!exists(trunc));
    return tu_finish("t_open_errors");
}
