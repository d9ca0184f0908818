/* ncp-test: RANKS 1 2 4 NO_CDL */
/* t_abort -- what ncmpi_abort leaves on disk.
 *
 * A file that never reached enddef is deleted.  Once an enddef has
 * written a header, abort keeps the file as that enddef left it: the
 * definitions of an unfinished redef vanish, data written since stays,
 * and records written independently are counted.  The same holds after a
 * redef whose enddef failed, and for a file opened rather than created.
 * <main>.nc ends with what the aborts left; <main>_gone.nc must not exist.
 */
#include "testutil.h"
#include "have_ncpario.h"

#define NX 8

/* Abort of a file in its first define mode.  PnetCDF 1.12.3 has every rank
 * delete the file, so all but the fastest rank may report NC_ENOENT;
 * ncpario deletes it once and reports success everywhere. */
static void abort_new(int nc)
{
    int err = ncmpi_abort(nc);
#ifdef HAVE_NCPARIO
    CHECK_ERR(err);
#else
    CHECK(err == NC_NOERR || err == NC_ENOENT);
#endif
}

static void expect_gone(const char *path, const char *when)
{
    int nc, err = ncmpi_open(MPI_COMM_WORLD, path, NC_NOWRITE, MPI_INFO_NULL,
                             &nc);
    CHECKF(err == NC_ENOENT, "%s: open after abort gave %s", when,
           ncmpi_strerrno(err));
    if (err == NC_NOERR) ncmpi_close(nc);
}

/* Created, defined, aborted: nothing of the file remains, whether or not
 * an enddef was tried and failed. */
static void never_ended(const char *path)
{
    int nc, dx, v;
    CHECK_ERR(ncmpi_create(MPI_COMM_WORLD, path, NC_CLOBBER, MPI_INFO_NULL, &nc));
    CHECK_ERR(ncmpi_def_dim(nc, "x", NX, &dx));
    CHECK_ERR(ncmpi_def_var(nc, "v", NC_INT, 1, &dx, &v));
    abort_new(nc);
    expect_gone(path, "first define mode");

    CHECK_ERR(ncmpi_create(MPI_COMM_WORLD, path, NC_CLOBBER, MPI_INFO_NULL, &nc));
    CHECK_ERR(ncmpi_def_dim(nc, "x", NX, &dx));
    CHECK_ERR(ncmpi_def_var(nc, "v", NC_INT, 1, &dx, &v));
    EXPECT_ERR(ncmpi__enddef(nc, 1LL << 31, 0, 0, 0), NC_EVARSIZE);
    abort_new(nc);
    expect_gone(path, "after a failed first enddef");
}

/* Each rank writes its share of v (x) and record r of rec (x). */
static void write_share(int nc, int v, int rec, MPI_Offset r, int base)
{
    MPI_Offset s, c, st[2], ct[2];
    int buf[NX], i;
    tu_part(NX, tu_myrank, tu_nranks, &s, &c);
    for (i = 0; i < c; i++) buf[i] = base + (int)s + i;
    CHECK_ERR(ncmpi_put_vara_int_all(nc, v, &s, &c, buf));
    st[0] = r; st[1] = s; ct[0] = 1; ct[1] = c;
    CHECK_ERR(ncmpi_put_vara_int_all(nc, rec, st, ct, buf));
}

/* The file as the first enddef defined it: one fixed and one record
 * variable, no global attribute, nrec records, v = base + x. */
static void expect_state(const char *path, MPI_Offset nrec, int base,
                         const char *when)
{
    int nc, nd = -1, nv = -1, na = -1, buf[NX], x;
    MPI_Offset n = -1;
    CHECK_ERR(ncmpi_open(MPI_COMM_WORLD, path, NC_NOWRITE, MPI_INFO_NULL, &nc));
    CHECK_ERR(ncmpi_inq(nc, &nd, &nv, &na, NULL));
    CHECKF(nd == 2 && nv == 2 && na == 0, "%s: %d dims %d vars %d atts",
           when, nd, nv, na);
    CHECK_ERR(ncmpi_inq_dimlen(nc, 0, &n));
    CHECKF(n == nrec, "%s: %lld records, want %lld", when, (long long)n,
           (long long)nrec);
    CHECK_ERR(ncmpi_get_var_int_all(nc, 0, buf));
    for (x = 0; x < NX; x++)
        CHECKF(buf[x] == base + x, "%s: v[%d] = %d", when, x, buf[x]);
    CHECK_ERR(ncmpi_close(nc));
}

static void keeps_last_enddef(const char *path)
{
    int nc, dt, dx, dy, v, rec, w, dims[2];
    static const char title[600] = "a title long enough to move the data";

    CHECK_ERR(ncmpi_create(MPI_COMM_WORLD, path, NC_CLOBBER, MPI_INFO_NULL, &nc));
    CHECK_ERR(ncmpi_def_dim(nc, "t", NC_UNLIMITED, &dt));
    CHECK_ERR(ncmpi_def_dim(nc, "x", NX, &dx));
    CHECK_ERR(ncmpi_def_var(nc, "v", NC_INT, 1, &dx, &v));
    dims[0] = dt; dims[1] = dx;
    CHECK_ERR(ncmpi_def_var(nc, "rec", NC_INT, 2, dims, &rec));
    CHECK_ERR(ncmpi_enddef(nc));
    write_share(nc, v, rec, 0, 100);
    /* abort during a redef that would grow the header and add things */
    CHECK_ERR(ncmpi_redef(nc));
    CHECK_ERR(ncmpi_def_dim(nc, "y", 5, &dy));
    CHECK_ERR(ncmpi_def_var(nc, "w", NC_INT, 1, &dy, &w));
    CHECK_ERR(ncmpi_put_att_text(nc, NC_GLOBAL, "title", sizeof title, title));
    CHECK_ERR(ncmpi_abort(nc));
    expect_state(path, 1, 100, "abort in redef");

    /* opened, written, redef whose enddef fails, abort */
    CHECK_ERR(ncmpi_open(MPI_COMM_WORLD, path, NC_WRITE, MPI_INFO_NULL, &nc));
    write_share(nc, v, rec, 1, 200);
    CHECK_ERR(ncmpi_redef(nc));
    CHECK_ERR(ncmpi_def_var(nc, "w", NC_INT, 1, &dx, &w));
    EXPECT_ERR(ncmpi__enddef(nc, 1LL << 31, 0, 0, 0), NC_EVARSIZE);
    CHECK_ERR(ncmpi_abort(nc));
    expect_state(path, 2, 200, "abort after a failed enddef");

    /* abort in independent data mode: each rank's record is counted */
    CHECK_ERR(ncmpi_open(MPI_COMM_WORLD, path, NC_WRITE, MPI_INFO_NULL, &nc));
    CHECK_ERR(ncmpi_begin_indep_data(nc));
    {
        int val[NX] = {0};
        MPI_Offset st[2] = {2 + tu_myrank, 0}, ct[2] = {1, NX};
        CHECK_ERR(ncmpi_put_vara_int(nc, rec, st, ct, val));
    }
    CHECK_ERR(ncmpi_abort(nc));
    expect_state(path, 2 + tu_nranks, 200, "abort in independent mode");

    /* abort of a read-only open changes nothing */
    CHECK_ERR(ncmpi_open(MPI_COMM_WORLD, path, NC_NOWRITE, MPI_INFO_NULL, &nc));
    CHECK_ERR(ncmpi_abort(nc));
    expect_state(path, 2 + tu_nranks, 200, "abort read-only");
}

int main(int argc, char **argv)
{
    char gone[1024];
    const char *path;
    tu_init(&argc, &argv);
    if ((path = tu_main_path(argc, argv)) == NULL) return tu_finish("t_abort");
    tu_sibling(gone, sizeof gone, path, "_gone.nc");
    never_ended(gone);
    keeps_last_enddef(path);
    return tu_finish("t_abort");
}
