/* ncp-test: NO_CDL RANKS 1 2 TIMEOUT 300 */
/* t_large -- 64-bit sizes and offsets, written sparsely.
 *
 * <main>.nc is CDF-5: a 5 GiB double variable, a byte variable whose one
 * dimension is longer than 2^32, then a small fixed and a record variable
 * that start beyond 4 GiB.  <main>_cdf2.nc is CDF-2: two 3 GiB variables
 * (each under the 4 GiB CDF-2 limit) so the rest start beyond 6 GiB.
 * <main>_cdf1.nc is CDF-1 with 512-byte alignments: a byte variable that
 * ends 4 bytes short of 2^31, so the next, aligned, begins at 2^31
 * exactly, which the format's unsigned field holds and PnetCDF allows.  Only
 * a few elements at the start, middle and end of each variable are written,
 * the last byte of each file included, so the files are sparse but
 * complete.  Offsets are the ones PnetCDF 1.12.3 gives.  ncdump output would
 * be gigabytes, so there is no .cdl.
 */
#include "testutil.h"

#define BIGA 1048576LL          /* 2^20 */
#define BIGB 640LL              /* x 2^20 doubles = 5 GiB */
#define NBYTES 5000000000LL     /* > 2^32 */
#define N3G (3LL << 28)         /* ints = 3 GiB */
#define N1B ((1LL << 31) - 516) /* bytes from 512 to 2^31 - 4 */

/* Positions written in a variable of n elements: the ends and the middle. */
static MPI_Offset pos(MPI_Offset n, int i)
{
    const MPI_Offset p[6] = {0, 1, n / 2, n / 2 + 1, n - 2, n - 1};
    return p[i];
}

static double dv(MPI_Offset i) { return (double)i * 0.5; }

static void check_offset(int nc, int v, MPI_Offset want, const char *what)
{
    MPI_Offset off = -1;
    CHECK_ERR(ncmpi_inq_varoffset(nc, v, &off));
    CHECKF(off == want, "%s offset %lld want %lld", what, (long long)off, (long long)want);
}

static void cdf5(const char *path)
{
    int nc, da, db, dn, dt, dx, dims[2], vh, vb, vs, vr, i;
    MPI_Offset st[2], ct[2], s, c, len;
    double d;
    signed char b;
    int ib[4] = {11, 22, 33, 44};

    CHECK_ERR(ncmpi_create(MPI_COMM_WORLD, path, NC_CLOBBER | NC_64BIT_DATA, MPI_INFO_NULL, &nc));
    CHECK_ERR(ncmpi_def_dim(nc, "time", NC_UNLIMITED, &dt));
    CHECK_ERR(ncmpi_def_dim(nc, "a", BIGA, &da));
    CHECK_ERR(ncmpi_def_dim(nc, "b", BIGB, &db));
    CHECK_ERR(ncmpi_def_dim(nc, "n", NBYTES, &dn));
    CHECK_ERR(ncmpi_def_dim(nc, "x", 4, &dx));
    dims[0] = da; dims[1] = db;
    CHECK_ERR(ncmpi_def_var(nc, "huge", NC_DOUBLE, 2, dims, &vh));
    CHECK_ERR(ncmpi_def_var(nc, "bytes", NC_BYTE, 1, &dn, &vb));
    CHECK_ERR(ncmpi_def_var(nc, "small", NC_INT, 1, &dx, &vs));
    dims[0] = dt; dims[1] = dx;
    CHECK_ERR(ncmpi_def_var(nc, "rec", NC_INT, 2, dims, &vr));
    CHECK_ERR(ncmpi_enddef(nc));
    CHECK_ERR(ncmpi_inq_dimlen(nc, dn, &len));
    CHECK(len == NBYTES);
    check_offset(nc, vh, 512, "huge");
    check_offset(nc, vb, 512 + BIGA * BIGB * 8, "bytes");
    check_offset(nc, vs, 512 + BIGA * BIGB * 8 + NBYTES, "small");
    check_offset(nc, vr, 512 + BIGA * BIGB * 8 + NBYTES + 16, "rec");

    /* collective: the six positions of each big variable split among ranks */
    tu_part(6, tu_myrank, tu_nranks, &s, &c);
    for (i = 0; i < 6; i++) {
        int mine = i >= s && i < s + c;
        MPI_Offset e = pos(BIGA * BIGB, i);
        st[0] = e / BIGB; st[1] = e % BIGB; ct[0] = mine; ct[1] = mine;
        d = dv(e);
        CHECK_ERR(ncmpi_put_vara_double_all(nc, vh, st, ct, &d));
        st[0] = pos(NBYTES, i); ct[0] = mine;
        b = (signed char)(i + 1);
        CHECK_ERR(ncmpi_put_vara_schar_all(nc, vb, st, ct, &b));
    }
    CHECK_ERR(ncmpi_put_var_int_all(nc, vs, ib));
    /* independent: records 0 and 1 of the record variable, rank 0 only */
    CHECK_ERR(ncmpi_begin_indep_data(nc));
    if (tu_myrank == 0) {
        st[0] = 0; st[1] = 0; ct[0] = 1; ct[1] = 4;
        CHECK_ERR(ncmpi_put_vara_int(nc, vr, st, ct, ib));
        st[0] = 1;
        CHECK_ERR(ncmpi_put_vara_int(nc, vr, st, ct, ib));
    }
    CHECK_ERR(ncmpi_end_indep_data(nc));
    CHECK_ERR(ncmpi_close(nc));

    CHECK_ERR(ncmpi_open(MPI_COMM_WORLD, path, NC_NOWRITE, MPI_INFO_NULL, &nc));
    for (i = 0; i < 6; i++) {
        MPI_Offset e = pos(BIGA * BIGB, i);
        st[0] = e / BIGB; st[1] = e % BIGB;
        d = -1;
        CHECK_ERR(ncmpi_get_var1_double_all(nc, vh, st, &d));
        CHECKF(d == dv(e), "huge[%lld]=%g", (long long)e, d);
        st[0] = pos(NBYTES, i);
        b = 0;
        CHECK_ERR(ncmpi_get_var1_schar_all(nc, vb, st, &b));
        CHECKF(b == i + 1, "bytes[%lld]=%d", (long long)st[0], b);
    }
    /* an unwritten element in the middle of the hole reads as zero */
    st[0] = BIGA / 4; st[1] = 3;
    CHECK_ERR(ncmpi_get_var1_double_all(nc, vh, st, &d));
    CHECK(d == 0.0);
    CHECK_ERR(ncmpi_get_var_int_all(nc, vs, ib));
    CHECK(ib[0] == 11 && ib[3] == 44);
    CHECK_ERR(ncmpi_inq_dimlen(nc, dt, &len));
    CHECK(len == 2);
    CHECK_ERR(ncmpi_close(nc));
}

static void cdf2(const char *path)
{
    int nc, dn, dt, dx, dims[2], v1, v2, vt, vr, i, k, x;
    MPI_Offset st[2], ct[2], s, c, len, base = 512 + 2 * N3G * 4;
    int ib[4] = {5, 6, 7, 8};

    CHECK_ERR(ncmpi_create(MPI_COMM_WORLD, path, NC_CLOBBER | NC_64BIT_OFFSET, MPI_INFO_NULL, &nc));
    CHECK_ERR(ncmpi_def_dim(nc, "time", NC_UNLIMITED, &dt));
    CHECK_ERR(ncmpi_def_dim(nc, "n", N3G, &dn));
    CHECK_ERR(ncmpi_def_dim(nc, "x", 4, &dx));
    CHECK_ERR(ncmpi_def_var(nc, "v1", NC_INT, 1, &dn, &v1));
    CHECK_ERR(ncmpi_def_var(nc, "v2", NC_INT, 1, &dn, &v2));
    CHECK_ERR(ncmpi_def_var(nc, "tail", NC_INT, 1, &dx, &vt));
    dims[0] = dt; dims[1] = dx;
    CHECK_ERR(ncmpi_def_var(nc, "rec", NC_INT, 2, dims, &vr));
    CHECK_ERR(ncmpi_enddef(nc));
    check_offset(nc, v1, 512, "v1");
    check_offset(nc, v2, 512 + N3G * 4, "v2");
    check_offset(nc, vt, base, "tail");
    check_offset(nc, vr, base + 16, "rec");

    tu_part(6, tu_myrank, tu_nranks, &s, &c);
    for (k = 0; k < 2; k++)
        for (i = 0; i < 6; i++) {
            st[0] = pos(N3G, i); ct[0] = i >= s && i < s + c;
            x = (k + 1) * 100 + i;
            CHECK_ERR(ncmpi_put_vara_int_all(nc, k ? v2 : v1, st, ct, &x));
        }
    CHECK_ERR(ncmpi_put_var_int_all(nc, vt, ib));
    st[0] = 0; st[1] = 0; ct[0] = 1; ct[1] = 4;
    CHECK_ERR(ncmpi_put_vara_int_all(nc, vr, st, ct, ib));
    CHECK_ERR(ncmpi_close(nc));

    CHECK_ERR(ncmpi_open(MPI_COMM_WORLD, path, NC_NOWRITE, MPI_INFO_NULL, &nc));
    CHECK_ERR(ncmpi_begin_indep_data(nc));
    for (k = 0; k < 2; k++)
        for (i = 0; i < 6; i++) {
            st[0] = pos(N3G, i);
            x = -1;
            CHECK_ERR(ncmpi_get_var1_int(nc, k ? v2 : v1, st, &x));
            CHECKF(x == (k + 1) * 100 + i, "v%d[%lld]=%d", k + 1, (long long)st[0], x);
        }
    CHECK_ERR(ncmpi_end_indep_data(nc));
    st[0] = 0; st[1] = 0;
    CHECK_ERR(ncmpi_get_vara_int_all(nc, vr, st, ct, ib));
    CHECK(ib[0] == 5 && ib[3] == 8);
    CHECK_ERR(ncmpi_inq_dimlen(nc, dt, &len));
    CHECK(len == 1);
    CHECK_ERR(ncmpi_close(nc));
}

static void cdf1(const char *path)
{
    int nc, dn, dx, vb, va, i, got[3], put[3] = {-1, 2, 3};
    MPI_Offset st = (MPI_Offset)N1B - 1, one = 1, len;
    signed char b = 7;
    MPI_Info info;

    MPI_Info_create(&info);
    MPI_Info_set(info, "nc_header_align_size", "512");
    MPI_Info_set(info, "nc_var_align_size", "512");
    CHECK_ERR(ncmpi_create(MPI_COMM_WORLD, path, NC_CLOBBER, info, &nc));
    MPI_Info_free(&info);
    CHECK_ERR(ncmpi_def_dim(nc, "n", N1B, &dn));
    CHECK_ERR(ncmpi_def_dim(nc, "x", 3, &dx));
    CHECK_ERR(ncmpi_def_var(nc, "bytes", NC_BYTE, 1, &dn, &vb));
    CHECK_ERR(ncmpi_def_var(nc, "at2g", NC_INT, 1, &dx, &va));
    CHECK_ERR(ncmpi_enddef(nc));
    check_offset(nc, vb, 512, "bytes");
    check_offset(nc, va, 1LL << 31, "at2g");
    CHECK_ERR(ncmpi_put_vara_schar_all(nc, vb, &st, &one, &b));
    CHECK_ERR(ncmpi_put_var_int_all(nc, va, put));
    CHECK_ERR(ncmpi_close(nc));

    CHECK_ERR(ncmpi_open(MPI_COMM_WORLD, path, NC_NOWRITE, MPI_INFO_NULL, &nc));
    check_offset(nc, va, 1LL << 31, "at2g, reopened");
    CHECK_ERR(ncmpi_inq_dimlen(nc, dn, &len));
    CHECK(len == N1B);
    b = 0;
    CHECK_ERR(ncmpi_get_var1_schar_all(nc, vb, &st, &b));
    CHECK(b == 7);
    CHECK_ERR(ncmpi_get_var_int_all(nc, va, got));
    for (i = 0; i < 3; i++)
        CHECKF(got[i] == put[i], "at2g[%d]=%d", i, got[i]);
    CHECK_ERR(ncmpi_close(nc));
}

int main(int argc, char **argv)
{
    char p2[4096];
    const char *path;
    tu_init(&argc, &argv);
    path = tu_main_path(argc, argv);
    CHECK(path != NULL);
    if (!path)
        return tu_finish("t_large");
    cdf5(path);
    tu_sibling(p2, sizeof p2, path, "_cdf2.nc");
    cdf2(p2);
    tu_sibling(p2, sizeof p2, path, "_cdf1.nc");
    cdf1(p2);
    return tu_finish("t_large");
}
