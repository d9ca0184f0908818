/* ncp-test: RANKS 1 2 4 NO_CDL */
/* t_varsize -- size limits, as PnetCDF 1.12.3 applies them.
 *
 * def_dim: a CDF-1 length stops at 2^31 - 4, CDF-2 at 2^32 - 4, CDF-5 at
 * 2^63 - 1.  def_var: a variable whose bytes, padded to 4, leave int64 is
 * refused with NC_EVARSIZE and not added.  enddef: a CDF-1 variable may
 * begin at 2^31 - 4 but not at 2^31.  When an enddef fails, the variables
 * placed before the failing one keep their new offsets and the rest their
 * old ones; the free space asked of _enddef is forgotten (a plain enddef
 * or close then succeeds), but the alignment and a record section already
 * placed stay, so those failures repeat at close.
 *
 * No file here holds data near 2 GiB: those offsets cost nothing.  Every
 * file but <main>.nc is deleted: where close fails PnetCDF leaves an empty
 * file and ncpario a valid empty header, and the file whose variable
 * begins at 2^31 - 4 would be incomplete without 2 GiB of data.
 */
#include "testutil.h"
#include "have_ncpario.h"

#define G ((MPI_Offset)1 << 31)

/* Abort in the first define mode: PnetCDF 1.12.3 deletes the file on
 * every rank, so all but the fastest may report NC_ENOENT. */
static void abort_new(int nc)
{
    int err = ncmpi_abort(nc);
#ifdef HAVE_NCPARIO
    CHECK_ERR(err);
#else
    CHECK(err == NC_NOERR || err == NC_ENOENT);
#endif
}

/* ncmpi_delete is not collective: one rank removes the file. */
static void remove_file(const char *path)
{
    MPI_Barrier(MPI_COMM_WORLD);
    if (tu_myrank == 0) CHECK_ERR(ncmpi_delete(path, MPI_INFO_NULL));
    MPI_Barrier(MPI_COMM_WORLD);
}

static void expect_offsets(int nc, int n, const MPI_Offset *want,
                           const char *when)
{
    int i;
    for (i = 0; i < n; i++) {
        MPI_Offset off = -1;
        CHECK_ERR(ncmpi_inq_varoffset(nc, i, &off));
        CHECKF(off == want[i], "%s: offset of var %d = %lld want %lld",
               when, i, (long long)off, (long long)want[i]);
    }
}

static void dims_and_vars(const char *path)
{
    int nc, id, d, v, nv = -1, dims[3];
    const MPI_Offset M = NC_MAX_INT64;

    CHECK_ERR(ncmpi_create(MPI_COMM_WORLD, path, NC_CLOBBER, MPI_INFO_NULL, &nc));
    CHECK_ERR(ncmpi_def_dim(nc, "c1", G - 4, &id));
    EXPECT_ERR(ncmpi_def_dim(nc, "c1b", G - 3, &id), NC_EDIMSIZE);
    abort_new(nc);
    CHECK_ERR(ncmpi_create(MPI_COMM_WORLD, path, NC_CLOBBER | NC_64BIT_OFFSET,
                           MPI_INFO_NULL, &nc));
    CHECK_ERR(ncmpi_def_dim(nc, "c2", 2 * G - 4, &id));
    EXPECT_ERR(ncmpi_def_dim(nc, "c2b", 2 * G - 3, &id), NC_EDIMSIZE);
    CHECK_ERR(ncmpi_def_dim(nc, "a", 1 << 30, &dims[0]));
    dims[1] = dims[2] = dims[0];
    EXPECT_ERR(ncmpi_def_var(nc, "v", NC_BYTE, 3, dims, &v), NC_EVARSIZE);
    abort_new(nc);

    CHECK_ERR(ncmpi_create(MPI_COMM_WORLD, path, NC_CLOBBER | NC_64BIT_DATA,
                           MPI_INFO_NULL, &nc));
    CHECK_ERR(ncmpi_def_dim(nc, "max", M, &d));
    EXPECT_ERR(ncmpi_def_var(nc, "u", NC_UINT, 1, &d, &v), NC_EVARSIZE);
    EXPECT_ERR(ncmpi_def_var(nc, "b", NC_BYTE, 1, &d, &v), NC_EVARSIZE);
    CHECK_ERR(ncmpi_def_dim(nc, "q", (M - 3) / 4, &d));
    CHECK_ERR(ncmpi_def_var(nc, "u", NC_UINT, 1, &d, &v));
    CHECK_ERR(ncmpi_def_dim(nc, "q1", (M - 3) / 4 + 1, &d));
    EXPECT_ERR(ncmpi_def_var(nc, "u1", NC_UINT, 1, &d, &v), NC_EVARSIZE);
    CHECK_ERR(ncmpi_def_dim(nc, "e", M / 8 + 1, &d));
    EXPECT_ERR(ncmpi_def_var(nc, "d", NC_DOUBLE, 1, &d, &v), NC_EVARSIZE);
    CHECK_ERR(ncmpi_inq_nvars(nc, &nv));
    CHECK(nv == 1);
    /* the name of a refused variable is free */
    CHECK_ERR(ncmpi_def_var(nc, "d", NC_DOUBLE, 0, NULL, &v));
    abort_new(nc);
}

/* CDF-1: a fixed variable b behind a of 2^31 - 512 - 4 + shift bytes. */
static void begin_limit(const char *path, MPI_Offset shift, int want)
{
    int nc, da, db, v, err;
    CHECK_ERR(ncmpi_create(MPI_COMM_WORLD, path, NC_CLOBBER, MPI_INFO_NULL, &nc));
    CHECK_ERR(ncmpi_def_dim(nc, "a", G - 516 + shift, &da));
    CHECK_ERR(ncmpi_def_dim(nc, "b", 10, &db));
    CHECK_ERR(ncmpi_def_var(nc, "A", NC_BYTE, 1, &da, &v));
    CHECK_ERR(ncmpi_def_var(nc, "B", NC_BYTE, 1, &db, &v));
    EXPECT_ERR(ncmpi_enddef(nc), want);
    if (want == NC_NOERR) {
        MPI_Offset off = -1;
        CHECK_ERR(ncmpi_inq_varoffset(nc, v, &off));
        CHECK(off == G - 4);
    }
    err = ncmpi_close(nc);
    EXPECT_ERR(err, want);
    if (err == NC_NOERR) {
        /* the header reads back; the 2 GiB of data are never written */
        MPI_Offset off = -1;
        CHECK_ERR(ncmpi_open(MPI_COMM_WORLD, path, NC_NOWRITE, MPI_INFO_NULL,
                             &nc));
        CHECK_ERR(ncmpi_inq_varoffset(nc, 1, &off));
        CHECK(off == G - 4);
        CHECK_ERR(ncmpi_close(nc));
    }
    remove_file(path);
}

/* f0 fixed, r0 and r1 record variables; an _enddef asking for h_minfree
 * fails, and the plain enddef after it succeeds. */
static void minfree_forgotten(const char *path)
{
    static const MPI_Offset fail[] = {0, 0, 0}, ok[] = {512, 524, 536};
    int nc, dt, dx, dy, v, dims[2];
    CHECK_ERR(ncmpi_create(MPI_COMM_WORLD, path, NC_CLOBBER, MPI_INFO_NULL, &nc));
    CHECK_ERR(ncmpi_def_dim(nc, "t", NC_UNLIMITED, &dt));
    CHECK_ERR(ncmpi_def_dim(nc, "x", 10, &dx));
    dims[0] = dt; dims[1] = dx;
    CHECK_ERR(ncmpi_def_var(nc, "f0", NC_BYTE, 1, &dx, &v));
    CHECK_ERR(ncmpi_def_var(nc, "r0", NC_BYTE, 2, dims, &v));
    CHECK_ERR(ncmpi_def_var(nc, "r1", NC_BYTE, 2, dims, &v));
    EXPECT_ERR(ncmpi__enddef(nc, G, 0, 0, 0), NC_EVARSIZE);
    expect_offsets(nc, 3, fail, "failed _enddef");
    CHECK_ERR(ncmpi_enddef(nc));
    expect_offsets(nc, 3, ok, "plain enddef");
    /* a failed enddef in a redef keeps the old offsets */
    CHECK_ERR(ncmpi_redef(nc));
    CHECK_ERR(ncmpi_def_dim(nc, "y", 12, &dy)); /* no padding at the end */
    CHECK_ERR(ncmpi_def_var(nc, "f1", NC_BYTE, 1, &dy, &v));
    EXPECT_ERR(ncmpi__enddef(nc, G, 0, 0, 0), NC_EVARSIZE);
    {
        static const MPI_Offset keep[] = {512, 524, 536, 0};
        expect_offsets(nc, 4, keep, "failed _enddef in redef");
    }
    CHECK_ERR(ncmpi_enddef(nc));
    {
        /* fill the fixed section, so that the file is whole */
        signed char x[12] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};
        CHECK_ERR(ncmpi_put_var_schar_all(nc, 0, x));
        CHECK_ERR(ncmpi_put_var_schar_all(nc, v, x));
    }
    CHECK_ERR(ncmpi_close(nc));
}

/* The record section, once placed beyond the limit, stays there. */
static void record_section_stays(const char *path)
{
    static const MPI_Offset fail[] = {512, 0};
    int nc, dt, dx, v, dims[2];
    CHECK_ERR(ncmpi_create(MPI_COMM_WORLD, path, NC_CLOBBER, MPI_INFO_NULL, &nc));
    CHECK_ERR(ncmpi_def_dim(nc, "t", NC_UNLIMITED, &dt));
    CHECK_ERR(ncmpi_def_dim(nc, "x", 10, &dx));
    dims[0] = dt; dims[1] = dx;
    CHECK_ERR(ncmpi_def_var(nc, "f0", NC_BYTE, 1, &dx, &v));
    CHECK_ERR(ncmpi_def_var(nc, "r0", NC_BYTE, 2, dims, &v));
    EXPECT_ERR(ncmpi__enddef(nc, 0, 0, G, 0), NC_EVARSIZE);
    expect_offsets(nc, 2, fail, "failed _enddef (v_minfree)");
    EXPECT_ERR(ncmpi_enddef(nc), NC_EVARSIZE);
    EXPECT_ERR(ncmpi_close(nc), NC_EVARSIZE);
    remove_file(path);

    /* an alignment from the failed _enddef stays as well */
    CHECK_ERR(ncmpi_create(MPI_COMM_WORLD, path, NC_CLOBBER, MPI_INFO_NULL, &nc));
    CHECK_ERR(ncmpi_def_dim(nc, "x", 10, &dx));
    CHECK_ERR(ncmpi_def_var(nc, "f0", NC_BYTE, 1, &dx, &v));
    EXPECT_ERR(ncmpi__enddef(nc, 0, G, 0, 0), NC_EVARSIZE);
    EXPECT_ERR(ncmpi_close(nc), NC_EVARSIZE);
    remove_file(path);
}

int main(int argc, char **argv)
{
    char other[1024], big[1024];
    const char *path;
    tu_init(&argc, &argv);
    if ((path = tu_main_path(argc, argv)) == NULL)
        return tu_finish("t_varsize");
    tu_sibling(other, sizeof other, path, "_tmp.nc");
    tu_sibling(big, sizeof big, path, "_2g.nc");
    dims_and_vars(other);
    begin_limit(big, 4, NC_EVARSIZE);
    begin_limit(big, 0, NC_NOERR);
    record_section_stays(other);
    minfree_forgotten(path);
    return tu_finish("t_varsize");
}
