/* ncp-test: RANKS 1 2 4 */
/* t_records -- the number of records as the ranks see it.
 *
 * Collective writes in which most ranks send zero-length requests must not
 * hang and must leave every rank with the same, grown, record count.
 * Independent writes grow the count on the writer only; end_indep_data and
 * sync_numrecs make the ranks agree again.  After every step every rank asks
 * ncmpi_inq_dimlen and the answers are compared with the expected count and
 * with each other.  Which rank writes what depends on the rank count, but
 * the set of records written does not, so the file is the same for np 1, 2
 * and 4.
 */
#include "testutil.h"

#define NX 8

static void expect_numrecs(int nc, int dt, MPI_Offset want, const char *step)
{
    MPI_Offset n = -1, lo, hi;
    CHECK_ERR(ncmpi_inq_dimlen(nc, dt, &n));
    CHECKF(n == want, "%s: numrecs %lld want %lld", step, (long long)n, (long long)want);
    MPI_Allreduce(&n, &lo, 1, MPI_OFFSET, MPI_MIN, MPI_COMM_WORLD);
    MPI_Allreduce(&n, &hi, 1, MPI_OFFSET, MPI_MAX, MPI_COMM_WORLD);
    CHECKF(lo == hi, "%s: ranks disagree %lld..%lld", step, (long long)lo, (long long)hi);
}

static double dval(MPI_Offset r, int x) { return (double)r + x / 10.0; }

/* Writes zeros over records [from, to) of v, elements [x0, x0 + nx), the
 * records split among the ranks.  Under NC_NOFILL the bytes nobody wrote
 * are undefined (some MPI-IO layers do leave garbage there), so every gap
 * the steps above leave is closed before the file is compared. */
static void zero_records(int nc, int v, MPI_Offset from, MPI_Offset to,
                         MPI_Offset x0, MPI_Offset nx, MPI_Datatype t)
{
    static double zeros[32 * 8];
    MPI_Offset s, c, st[2], ct[2];
    tu_part(to - from, tu_myrank, tu_nranks, &s, &c);
    st[0] = from + s; st[1] = x0; ct[0] = c; ct[1] = nx;
    CHECK_ERR(ncmpi_put_vara_all(nc, v, st, ct, zeros, c * (nx ? nx : 1), t));
}

int main(int argc, char **argv)
{
    int nc, dt, dx, dims[2], vi, vd, vs, vc, i, last;
    MPI_Offset st[2], ct[2], s, c, r;
    int ibuf[NX * 16];
    double dbuf[NX * 16];
    short sh[16];
    const char *path;

    tu_init(&argc, &argv);
    path = tu_main_path(argc, argv);
    CHECK(path != NULL);
    if (!path)
        return tu_finish("t_records");
    last = tu_nranks - 1;
    CHECK_ERR(ncmpi_create(MPI_COMM_WORLD, path, NC_CLOBBER, MPI_INFO_NULL, &nc));
    CHECK_ERR(ncmpi_def_dim(nc, "time", NC_UNLIMITED, &dt));
    CHECK_ERR(ncmpi_def_dim(nc, "x", NX, &dx));
    dims[0] = dt; dims[1] = dx;
    CHECK_ERR(ncmpi_def_var(nc, "r_int", NC_INT, 2, dims, &vi));
    CHECK_ERR(ncmpi_def_var(nc, "r_double", NC_DOUBLE, 2, dims, &vd));
    /* int on disk (a short would leave pad bytes), short in memory */
    CHECK_ERR(ncmpi_def_var(nc, "r_1d", NC_INT, 1, dims, &vs));
    CHECK_ERR(ncmpi_def_var(nc, "r_char", NC_CHAR, 2, dims, &vc));
    CHECK_ERR(ncmpi_enddef(nc));
    expect_numrecs(nc, dt, 0, "after enddef");

    /* 1: everybody sends nothing */
    st[0] = 0; st[1] = 0; ct[0] = 0; ct[1] = 0;
    CHECK_ERR(ncmpi_put_vara_int_all(nc, vi, st, ct, ibuf));
    expect_numrecs(nc, dt, 0, "all empty");

    /* 2: rank 0 writes record 0 of every variable, the rest send nothing */
    for (i = 0; i < NX; i++) {
        ibuf[i] = i;
        dbuf[i] = dval(0, i);
    }
    ct[0] = tu_myrank == 0; ct[1] = NX;
    CHECK_ERR(ncmpi_put_vara_int_all(nc, vi, st, ct, ibuf));
    CHECK_ERR(ncmpi_put_vara_double_all(nc, vd, st, ct, dbuf));
    sh[0] = 0;
    CHECK_ERR(ncmpi_put_vara_short_all(nc, vs, st, ct, sh));
    CHECK_ERR(ncmpi_put_vara_text_all(nc, vc, st, ct, "abcdefgh"));
    expect_numrecs(nc, dt, 1, "rank 0 only");

    /* 3: the last rank writes record 3 of r_int; a NULL buffer is fine for
     * an empty request */
    st[0] = 3; ct[0] = tu_myrank == last;
    for (i = 0; i < NX; i++)
        ibuf[i] = 300 + i;
    CHECK_ERR(ncmpi_put_vara_int_all(nc, vi, st, ct, tu_myrank == last ? ibuf : NULL));
    expect_numrecs(nc, dt, 4, "last rank record 3");

    /* 4: records 4..11 of r_double split among the ranks in one call each */
    tu_part(8, tu_myrank, tu_nranks, &s, &c);
    for (r = 0; r < c; r++)
        for (i = 0; i < NX; i++)
            dbuf[r * NX + i] = dval(4 + s + r, i);
    st[0] = 4 + s; ct[0] = c; ct[1] = NX;
    CHECK_ERR(ncmpi_put_vara_double_all(nc, vd, st, ct, dbuf));
    expect_numrecs(nc, dt, 12, "split records");

    /* 5: rank 0 writes record 12 while the others send empty requests;
     * then an all-empty collective call at start 14.  PnetCDF 1.12.3 counts
     * start + count of an empty collective request: numrecs becomes 14. */
    st[0] = tu_myrank == 0 ? 12 : 0; ct[0] = tu_myrank == 0;
    sh[0] = 12;
    CHECK_ERR(ncmpi_put_vara_short_all(nc, vs, st, ct, sh));
    expect_numrecs(nc, dt, 13, "rank 0 record 12");
    st[0] = 14; ct[0] = 0;
    CHECK_ERR(ncmpi_put_vara_short_all(nc, vs, st, ct, sh));
    expect_numrecs(nc, dt, 14, "empty at 14");

    /* 6: a collective read where some ranks read nothing */
    CHECK_ERR(tu_sync(nc));
    st[0] = 3; st[1] = 0; ct[0] = tu_myrank == 0; ct[1] = NX;
    memset(ibuf, 0, sizeof ibuf);
    CHECK_ERR(ncmpi_get_vara_int_all(nc, vi, st, ct, ibuf));
    for (i = 0; i < NX && tu_myrank == 0; i++)
        CHECKF(ibuf[i] == 300 + i, "read record 3 [%d]", i);

    /* 7: independent writes of records 13..20 of r_1d; each rank sees
     * at least its own growth before end_indep_data, all agree after */
    CHECK_ERR(ncmpi_begin_indep_data(nc));
    tu_part(8, tu_myrank, tu_nranks, &s, &c);
    for (r = 0; r < c; r++)
        sh[r] = (short)(13 + s + r);
    st[0] = 13 + s; ct[0] = c;
    CHECK_ERR(ncmpi_put_vara_short(nc, vs, st, ct, sh));
    /* an empty independent request does not count, unlike a collective one */
    st[0] = 30; ct[0] = 0;
    CHECK_ERR(ncmpi_put_vara_short(nc, vs, st, ct, sh));
    {
        MPI_Offset n = -1;
        CHECK_ERR(ncmpi_inq_dimlen(nc, dt, &n));
        CHECK(n >= 13 + s + c);
    }
    CHECK_ERR(ncmpi_end_indep_data(nc));
    expect_numrecs(nc, dt, 21, "after end_indep_data");

    /* 8: sync_numrecs is collective and works inside independent mode */
    CHECK_ERR(ncmpi_begin_indep_data(nc));
    if (tu_myrank == last) {
        st[0] = 23; st[1] = 0; ct[0] = 1; ct[1] = NX;
        CHECK_ERR(ncmpi_put_vara_text(nc, vc, st, ct, "zyxwvuts"));
    }
    CHECK_ERR(ncmpi_sync_numrecs(nc));
    expect_numrecs(nc, dt, 24, "sync_numrecs");
    CHECK_ERR(ncmpi_end_indep_data(nc));
    expect_numrecs(nc, dt, 24, "after second end_indep_data");

    /* 9: one element of a record beyond the end from rank 0 (the others
     * empty); the last variable's last element, so the file ends where the
     * format says */
    st[0] = 24; st[1] = NX - 1; ct[0] = ct[1] = tu_myrank == 0;
    CHECK_ERR(ncmpi_put_vara_text_all(nc, vc, st, ct, "Q"));
    expect_numrecs(nc, dt, 25, "one element at 24");

    /* 10: close the gaps; the record count stays */
    zero_records(nc, vi, 1, 3, 0, NX, MPI_INT);
    zero_records(nc, vi, 4, 25, 0, NX, MPI_INT);
    zero_records(nc, vd, 1, 4, 0, NX, MPI_DOUBLE);
    zero_records(nc, vd, 12, 25, 0, NX, MPI_DOUBLE);
    zero_records(nc, vs, 1, 12, 0, 0, MPI_INT);
    zero_records(nc, vs, 21, 25, 0, 0, MPI_INT);
    zero_records(nc, vc, 1, 23, 0, NX, MPI_CHAR);
    zero_records(nc, vc, 24, 25, 0, NX - 1, MPI_CHAR);
    expect_numrecs(nc, dt, 25, "gaps closed");
    CHECK_ERR(ncmpi_sync(nc));
    expect_numrecs(nc, dt, 25, "after sync");
    CHECK_ERR(ncmpi_close(nc));

    /* reopen: the count in the header is the agreed one */
    CHECK_ERR(ncmpi_open(MPI_COMM_WORLD, path, NC_NOWRITE, MPI_INFO_NULL, &nc));
    expect_numrecs(nc, dt, 25, "reopen");
    CHECK_ERR(ncmpi_get_vara_double_all(nc, vd, (MPI_Offset[]){4, 0},
                                        (MPI_Offset[]){8, NX}, dbuf));
    for (r = 0; r < 8; r++)
        for (i = 0; i < NX; i++)
            CHECKF(dbuf[r * NX + i] == dval(4 + r, i), "r_double[%lld][%d]", (long long)(4 + r), i);
    CHECK_ERR(ncmpi_get_vara_short_all(nc, vs, (MPI_Offset[]){12}, (MPI_Offset[]){9}, sh));
    for (r = 0; r < 9; r++)
        CHECKF(sh[r] == 12 + r, "r_1d[%lld]", (long long)(12 + r));
    {
        char q = 0;
        CHECK_ERR(ncmpi_get_var1_text_all(nc, vc, (MPI_Offset[]){24, NX - 1}, &q));
        CHECK(q == 'Q');
    }
    CHECK_ERR(ncmpi_get_var1_int_all(nc, vi, (MPI_Offset[]){3, 7}, &i));
    CHECK(i == 307);
    {
        char txt[NX];
        CHECK_ERR(ncmpi_get_vara_text_all(nc, vc, (MPI_Offset[]){23, 0},
                                          (MPI_Offset[]){1, NX}, txt));
        CHECK(memcmp(txt, "zyxwvuts", NX) == 0);
    }
    /* reading at numrecs is an empty request, past it an error */
    st[0] = 25; st[1] = 0; ct[0] = 0; ct[1] = NX;
    CHECK_ERR(ncmpi_get_vara_int_all(nc, vi, st, ct, ibuf));
    st[0] = 26;
    EXPECT_ERR(ncmpi_get_vara_int_all(nc, vi, st, ct, ibuf), NC_EINVALCOORDS);
    CHECK_ERR(ncmpi_close(nc));
    return tu_finish("t_records");
}
