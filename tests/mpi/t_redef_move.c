/* ncp-test: NO_CDL RANKS 1 2 4 */
/* t_redef_move -- what redef leaves in the file, byte for byte.
 *
 * Each scenario writes data, re-enters define mode, changes the schema so
 * that data must move (or must be filled), and closes.  The program checks
 * every value through the API; the harness then cmp's each file against the
 * one the same program writes through PnetCDF, which pins down what the API
 * cannot see: the file's length when its tail was never written, the stale
 * bytes left in padding and gaps, and which new variables get filled.
 *
 *   <main>.nc        short tail: the last record is half written (NOFILL)
 *   <main>_addrec.nc a record variable added: every record moves
 *   <main>_valign.nc fixed variables 64-byte aligned, header outgrows 512
 *   <main>_fill.nc   NC_FILL: new fixed and record variables get filled,
 *                    one new variable opts out with def_var_fill
 *   <main>_varfill.nc NOFILL file, one new variable opts in
 *   <main>_lone.nc   one 3-byte record variable, records packed unpadded
 *   <main>_shrink.nc CDF-5 header shrinks: the old tail stays in the file
 */
#include <sys/stat.h>

#include "testutil.h"

#define NX 4
#define NREC 3

static int ival(int r, int x) { return 100 * r + x + 1; }

/* Rank's share [s, s+c) of NX. */
static void my_x(MPI_Offset *s, MPI_Offset *c)
{
    tu_part(NX, tu_myrank, tu_nranks, s, c);
}

/* Write records [0, nrec) of an int (t, x) variable, each rank its x block. */
static void put_int_recs(int nc, int v, int nrec)
{
    MPI_Offset s, c, st[2], ct[2];
    int buf[NREC * NX], r, i;
    my_x(&s, &c);
    for (r = 0; r < nrec; r++)
        for (i = 0; i < c; i++)
            buf[r * c + i] = ival(r, (int)s + i);
    st[0] = 0, st[1] = s, ct[0] = nrec, ct[1] = c;
    CHECK_ERR(ncmpi_put_vara_int_all(nc, v, st, ct, buf));
}

/* Check records [0, nrec) of an int (t, x) variable against ival + base. */
static void check_int_recs(int nc, int v, int nrec, const char *what)
{
    MPI_Offset st[2] = {0, 0}, ct[2] = {nrec, NX};
    int buf[NREC * NX], r, x;
    CHECK_ERR(ncmpi_get_vara_int_all(nc, v, st, ct, buf));
    for (r = 0; r < nrec; r++)
        for (x = 0; x < NX; x++)
            CHECKF(buf[r * NX + x] == ival(r, x), "%s[%d][%d] = %d", what, r,
                   x, buf[r * NX + x]);
}

/* Record rec of an (t, x) variable of any type, each rank its x block. */
static void put_one_rec(int nc, int v, int rec)
{
    MPI_Offset s, c, st[2], ct[2];
    int buf[NX], i;
    my_x(&s, &c);
    for (i = 0; i < c; i++)
        buf[i] = ival(rec, (int)s + i);
    st[0] = rec, st[1] = s, ct[0] = 1, ct[1] = c;
    CHECK_ERR(ncmpi_put_vara_int_all(nc, v, st, ct, buf));
}

/* The file's size in bytes, after every rank's writes are in. */
static long long file_size(int nc, const char *path)
{
    struct stat sb;
    CHECK_ERR(tu_sync(nc));
    if (!CHECK(stat(path, &sb) == 0)) return -1;
    return (long long)sb.st_size;
}

/* A global text attribute of n bytes: enough of them grows the header. */
static void put_long_att(int nc, const char *name, int n)
{
    char text[2048];
    memset(text, 'h', sizeof text);
    CHECK_ERR(ncmpi_put_att_text(nc, NC_GLOBAL, name, n, text));
}

/* NOFILL; record 2 holds r1 only, so the file ends inside the last record.
 * The move must copy what exists and not extend the file with zeros. */
static void short_tail(const char *path)
{
    int nc, dt, dx, a, r1, r2, dims[2];
    MPI_Offset s, c, st[2], ct[2], old_a = 0, new_a = 0;
    long long old_size, new_size;
    short sb[NREC * NX];
    int i, r;
    CHECK_ERR(ncmpi_create(MPI_COMM_WORLD, path, NC_CLOBBER, MPI_INFO_NULL, &nc));
    CHECK_ERR(ncmpi_def_dim(nc, "t", NC_UNLIMITED, &dt));
    CHECK_ERR(ncmpi_def_dim(nc, "x", NX, &dx));
    dims[0] = dt, dims[1] = dx;
    CHECK_ERR(ncmpi_def_var(nc, "a", NC_INT, 1, &dx, &a));
    CHECK_ERR(ncmpi_def_var(nc, "r1", NC_INT, 2, dims, &r1));
    CHECK_ERR(ncmpi_def_var(nc, "r2", NC_SHORT, 2, dims, &r2));
    CHECK_ERR(ncmpi_enddef(nc));
    put_int_recs(nc, r1, NREC);
    my_x(&s, &c);
    for (r = 0; r < NREC - 1; r++)
        for (i = 0; i < c; i++)
            sb[r * c + i] = (short)ival(r, (int)s + i);
    st[0] = 0, st[1] = s, ct[0] = NREC - 1, ct[1] = c;
    CHECK_ERR(ncmpi_put_vara_short_all(nc, r2, st, ct, sb));
    old_size = file_size(nc, path);
    CHECK_ERR(ncmpi_inq_varoffset(nc, a, &old_a));
    CHECK_ERR(ncmpi_redef(nc));
    put_long_att(nc, "history", 600);
    CHECK_ERR(ncmpi_enddef(nc));
    CHECK_ERR(ncmpi_inq_varoffset(nc, a, &new_a));
    new_size = file_size(nc, path);
    /* moved as far as it existed, not zero-extended to the record's end */
    CHECKF(new_size == old_size + (new_a - old_a), "short_tail: %lld -> %lld",
           old_size, new_size);
    check_int_recs(nc, r1, NREC, "short_tail r1");
    /* complete the file, so that it is whole for ncvalidator */
    put_one_rec(nc, r2, NREC - 1);
    CHECK_ERR(tu_sync(nc));
    check_int_recs(nc, r2, NREC, "short_tail r2");
    CHECK_ERR(ncmpi_close(nc));
}

/* Adding a record variable changes recsize: each old record moves whole,
 * and the new variable's slots keep whatever bytes were there. */
static void add_rec_var(const char *path)
{
    int nc, dt, d2, r1, r2, r3, dims[2], i;
    MPI_Offset s, c, st[2], ct[2], recsz = 0;
    short b[NREC * 2];
    CHECK_ERR(ncmpi_create(MPI_COMM_WORLD, path, NC_CLOBBER, MPI_INFO_NULL, &nc));
    CHECK_ERR(ncmpi_def_dim(nc, "t", NC_UNLIMITED, &dt));
    /* 4 bytes a record: no padding, which OpenMPI's OMPIO would fill with
       stale buffer bytes in a collective write (see pnetcdf-compat.md) */
    CHECK_ERR(ncmpi_def_dim(nc, "two", 2, &d2));
    dims[0] = dt, dims[1] = d2;
    CHECK_ERR(ncmpi_def_var(nc, "r1", NC_SHORT, 2, dims, &r1));
    CHECK_ERR(ncmpi_def_var(nc, "r2", NC_INT, 1, &dt, &r2));
    CHECK_ERR(ncmpi_enddef(nc));
    /* records are split among ranks here, not x */
    tu_part(NREC, tu_myrank, tu_nranks, &s, &c);
    for (i = 0; i < c * 2; i++)
        b[i] = (short)(s * 2 + i + 1);
    st[0] = s, st[1] = 0, ct[0] = c, ct[1] = 2;
    CHECK_ERR(ncmpi_put_vara_short_all(nc, r1, st, ct, b));
    {
        int iv[NREC];
        for (i = 0; i < c; i++)
            iv[i] = (int)(s + i + 1) << 24 | 3;
        CHECK_ERR(ncmpi_put_vara_int_all(nc, r2, &s, &c, iv));
    }
    CHECK_ERR(tu_sync(nc));
    CHECK_ERR(ncmpi_redef(nc));
    CHECK_ERR(ncmpi_def_var(nc, "r3", NC_INT, 1, &dt, &r3));
    CHECK_ERR(ncmpi_enddef(nc));
    CHECK_ERR(ncmpi_inq_recsize(nc, &recsz));
    CHECKF(recsz == 12, "recsize after adding r3: %lld", (long long)recsz);
    CHECK_ERR(tu_sync(nc));
    st[0] = 0, ct[0] = NREC;
    CHECK_ERR(ncmpi_get_vara_short_all(nc, r1, st, ct, b));
    for (i = 0; i < NREC * 2; i++)
        CHECKF(b[i] == i + 1, "add_rec r1 elem %d = %d", i, b[i]);
    /* the last record's r3 completes the file; the others stay stale */
    {
        MPI_Offset last = NREC - 1, n = tu_myrank == 0;
        int v = -1;
        CHECK_ERR(ncmpi_put_vara_int_all(nc, r3, &last, &n, &v));
    }
    CHECK_ERR(ncmpi_close(nc));
}

/* Fixed variables at 64-byte boundaries with stale bytes in between. */
static void aligned_gaps(const char *path)
{
    int nc, dx, a, b, cc, i;
    MPI_Info info;
    MPI_Offset s, c, off = 0;
    int ib[NX];
    double db[NX];
    short sb[NX];
    MPI_Info_create(&info);
    MPI_Info_set(info, "nc_var_align_size", "64");
    CHECK_ERR(ncmpi_create(MPI_COMM_WORLD, path, NC_CLOBBER, info, &nc));
    MPI_Info_free(&info);
    CHECK_ERR(ncmpi_def_dim(nc, "x", NX, &dx));
    CHECK_ERR(ncmpi_def_var(nc, "a", NC_INT, 1, &dx, &a));
    CHECK_ERR(ncmpi_def_var(nc, "b", NC_DOUBLE, 1, &dx, &b));
    CHECK_ERR(ncmpi_def_var(nc, "c", NC_SHORT, 1, &dx, &cc));
    CHECK_ERR(ncmpi_enddef(nc));
    my_x(&s, &c);
    for (i = 0; i < c; i++) {
        ib[i] = ival(0, (int)s + i);
        db[i] = ival(1, (int)s + i) + 0.25;
        sb[i] = (short)ival(2, (int)s + i);
    }
    CHECK_ERR(ncmpi_put_vara_int_all(nc, a, &s, &c, ib));
    CHECK_ERR(ncmpi_put_vara_double_all(nc, b, &s, &c, db));
    CHECK_ERR(ncmpi_put_vara_short_all(nc, cc, &s, &c, sb));
    CHECK_ERR(tu_sync(nc));
    CHECK_ERR(ncmpi_redef(nc));
    put_long_att(nc, "history", 700);
    CHECK_ERR(ncmpi_enddef(nc));
    CHECK_ERR(ncmpi_inq_varoffset(nc, b, &off));
    CHECKF(off % 64 == 0 && off >= 1024, "b moved to %lld", (long long)off);
    CHECK_ERR(tu_sync(nc));
    CHECK_ERR(ncmpi_get_vara_double_all(nc, b, &s, &c, db));
    for (i = 0; i < c; i++)
        CHECKF(db[i] == ival(1, (int)s + i) + 0.25, "aligned b[%d]", i);
    CHECK_ERR(ncmpi_close(nc));
}

/* The new variables of a redef, filled (or not) by the enddef. */
static void fill_new(const char *path, int fillmode)
{
    int nc, dt, dx, a, r1, f, r2, r3, dims[2], i;
    short sfill = -7, sb[NREC * NX];
    double db[NX];
    MPI_Offset st[2] = {0, 0}, ct[2] = {NREC - 1, NX}, zero = 0, nx = NX;
    CHECK_ERR(ncmpi_create(MPI_COMM_WORLD, path, NC_CLOBBER, MPI_INFO_NULL, &nc));
    CHECK_ERR(ncmpi_set_fill(nc, fillmode, NULL));
    CHECK_ERR(ncmpi_def_dim(nc, "t", NC_UNLIMITED, &dt));
    CHECK_ERR(ncmpi_def_dim(nc, "x", NX, &dx));
    dims[0] = dt, dims[1] = dx;
    CHECK_ERR(ncmpi_def_var(nc, "a", NC_INT, 1, &dx, &a));
    CHECK_ERR(ncmpi_def_var(nc, "r1", NC_INT, 2, dims, &r1));
    CHECK_ERR(ncmpi_enddef(nc));
    put_int_recs(nc, r1, NREC - 1);
    CHECK_ERR(tu_sync(nc));
    CHECK_ERR(ncmpi_redef(nc));
    CHECK_ERR(ncmpi_def_var(nc, "f", NC_DOUBLE, 1, &dx, &f));
    CHECK_ERR(ncmpi_def_var(nc, "r2", NC_SHORT, 2, dims, &r2));
    CHECK_ERR(ncmpi_put_att_short(nc, r2, "_FillValue", NC_SHORT, 1, &sfill));
    CHECK_ERR(ncmpi_def_var(nc, "r3", NC_INT, 2, dims, &r3));
    if (fillmode == NC_FILL) /* the opposite of the file's mode */
        CHECK_ERR(ncmpi_def_var_fill(nc, r3, 1, NULL));
    else
        CHECK_ERR(ncmpi_def_var_fill(nc, f, 0, NULL));
    CHECK_ERR(ncmpi_enddef(nc));
    CHECK_ERR(tu_sync(nc));
    check_int_recs(nc, r1, NREC - 1, "fill_new r1");
    CHECK_ERR(ncmpi_get_vara_double_all(nc, f, &zero, &nx, db));
    for (i = 0; i < NX; i++)
        CHECKF(db[i] == NC_FILL_DOUBLE, "fill_new f[%d] = %g", i, db[i]);
    if (fillmode == NC_FILL) {
        CHECK_ERR(ncmpi_get_vara_short_all(nc, r2, st, ct, sb));
        for (i = 0; i < (NREC - 1) * NX; i++)
            CHECKF(sb[i] == sfill, "fill_new r2 elem %d = %d", i, sb[i]);
    } else {
        put_one_rec(nc, r2, NREC - 2); /* the last record, made whole */
    }
    put_one_rec(nc, r3, NREC - 2);
    CHECK_ERR(ncmpi_close(nc));
}

/* A lone 3-byte record variable: records are 3 bytes apart, unpadded. */
static void lone_record_var(const char *path)
{
    int nc, dt, d3, v, dims[2], i;
    MPI_Offset s, c, st[2], ct[2] = {NREC, 3}, recsz = 0;
    signed char b[NREC * 3];
    CHECK_ERR(ncmpi_create(MPI_COMM_WORLD, path, NC_CLOBBER, MPI_INFO_NULL, &nc));
    CHECK_ERR(ncmpi_def_dim(nc, "t", NC_UNLIMITED, &dt));
    CHECK_ERR(ncmpi_def_dim(nc, "three", 3, &d3));
    dims[0] = dt, dims[1] = d3;
    CHECK_ERR(ncmpi_def_var(nc, "v", NC_BYTE, 2, dims, &v));
    CHECK_ERR(ncmpi_enddef(nc));
    tu_part(NREC, tu_myrank, tu_nranks, &s, &c);
    for (i = 0; i < c * 3; i++)
        b[i] = (signed char)(-100 + s * 3 + i);
    st[0] = s, st[1] = 0, ct[0] = c;
    CHECK_ERR(ncmpi_put_vara_schar_all(nc, v, st, ct, b));
    CHECK_ERR(tu_sync(nc));
    CHECK_ERR(ncmpi_redef(nc));
    put_long_att(nc, "history", 500);
    CHECK_ERR(ncmpi_enddef(nc));
    CHECK_ERR(ncmpi_inq_recsize(nc, &recsz));
    CHECKF(recsz == 3, "lone recsize %lld", (long long)recsz);
    CHECK_ERR(tu_sync(nc));
    st[0] = 0, ct[0] = NREC;
    CHECK_ERR(ncmpi_get_vara_schar_all(nc, v, st, ct, b));
    for (i = 0; i < NREC * 3; i++)
        CHECKF(b[i] == -100 + i, "lone byte %d = %d", i, b[i]);
    CHECK_ERR(ncmpi_close(nc));
}

/* Deleting a long attribute shrinks the header; nothing moves back and the
 * old header's tail is left in the file. */
static void shrink_header(const char *path)
{
    int nc, dx, a;
    MPI_Offset hs = 0, ext = 0, off = 0, s, c;
    int ib[NX], i;
    CHECK_ERR(ncmpi_create(MPI_COMM_WORLD, path, NC_CLOBBER | NC_64BIT_DATA,
                           MPI_INFO_NULL, &nc));
    CHECK_ERR(ncmpi_def_dim(nc, "x", NX, &dx));
    CHECK_ERR(ncmpi_def_var(nc, "a", NC_INT, 1, &dx, &a));
    put_long_att(nc, "history", 300);
    CHECK_ERR(ncmpi_enddef(nc));
    my_x(&s, &c);
    for (i = 0; i < c; i++)
        ib[i] = ival(0, (int)s + i);
    CHECK_ERR(ncmpi_put_vara_int_all(nc, a, &s, &c, ib));
    CHECK_ERR(tu_sync(nc));
    CHECK_ERR(ncmpi_redef(nc));
    CHECK_ERR(ncmpi_del_att(nc, NC_GLOBAL, "history"));
    CHECK_ERR(ncmpi_enddef(nc));
    CHECK_ERR(ncmpi_inq_header_size(nc, &hs));
    CHECK_ERR(ncmpi_inq_header_extent(nc, &ext));
    CHECK_ERR(ncmpi_inq_varoffset(nc, a, &off));
    CHECKF(hs < 200 && ext == 512 && off == 512, "shrink: %lld %lld %lld",
           (long long)hs, (long long)ext, (long long)off);
    CHECK_ERR(tu_sync(nc));
    CHECK_ERR(ncmpi_get_vara_int_all(nc, a, &s, &c, ib));
    for (i = 0; i < c; i++)
        CHECKF(ib[i] == ival(0, (int)s + i), "shrink a[%d]", i);
    CHECK_ERR(ncmpi_close(nc));
}

int main(int argc, char **argv)
{
    char p[4096];
    const char *path;

    tu_init(&argc, &argv);
    path = tu_main_path(argc, argv);
    CHECK(path != NULL);
    if (!path)
        return tu_finish("t_redef_move");
    short_tail(path);
    tu_sibling(p, sizeof p, path, "_addrec.nc");
    add_rec_var(p);
    tu_sibling(p, sizeof p, path, "_valign.nc");
    aligned_gaps(p);
    tu_sibling(p, sizeof p, path, "_fill.nc");
    fill_new(p, NC_FILL);
    tu_sibling(p, sizeof p, path, "_varfill.nc");
    fill_new(p, NC_NOFILL);
    tu_sibling(p, sizeof p, path, "_lone.nc");
    lone_record_var(p);
    tu_sibling(p, sizeof p, path, "_shrink.nc");
    shrink_header(p);
    return tu_finish("t_redef_move");
}
