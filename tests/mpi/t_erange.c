/* ncp-test: RANKS 1 2 4 */
/* t_erange -- NC_ERANGE on put and get.
 *
 * A put whose memory values do not fit the external type writes every
 * element anyway: the ones that fit are converted, the ones that do not are
 * stored as the variable's fill value (its _FillValue attribute when it has
 * one, else the type's default), and the call returns NC_ERANGE.  A get
 * whose file values do not fit the memory type also returns NC_ERANGE and
 * still delivers the in-range elements.  Only rank 0 sends out-of-range
 * values, so the other ranks of the same collective call see NC_NOERR.
 * Main file CDF-1, <main>_cdf5.nc for the CDF-5 types.
 */
#include "testutil.h"
#include <float.h>

#define N 8

/* Each rank writes its share of a length-N variable; rank 0's share holds
 * the out-of-range values, so rank 0 alone gets NC_ERANGE. */
static int share(MPI_Offset *s, MPI_Offset *c)
{
    if (tu_myrank == 0) {
        *s = 0;
        *c = tu_nranks == 1 ? N : N / 2;
    } else {
        tu_part(N / 2, tu_myrank - 1, tu_nranks - 1, s, c);
        *s += N / 2;
    }
    return tu_myrank == 0 ? NC_ERANGE : NC_NOERR;
}

static void classic(const char *path)
{
    int nc, d, vb, vbf, vs, vi, vf, vd, vbu;
    const int ivals[N] = {1, 200, -3, -200, 127, -128, 5, 6};
    const double dvals[N] = {1.5, 1e39, -1e39, 3e9, 1e-50, 2.0, 3.0, -4.5};
    const unsigned char uvals[N] = {0, 127, 128, 255, 1, 2, 3, 4};
    signed char bfill = 77, b[N];
    short sh[N];
    int in[N];
    float f[N];
    double dd[N];
    MPI_Offset s, c;
    int want, i;

    CHECK_ERR(ncmpi_create(MPI_COMM_WORLD, path, NC_CLOBBER, MPI_INFO_NULL, &nc));
    CHECK_ERR(ncmpi_def_dim(nc, "n", N, &d));
    CHECK_ERR(ncmpi_def_var(nc, "b_default", NC_BYTE, 1, &d, &vb));
    CHECK_ERR(ncmpi_def_var(nc, "b_fillvalue", NC_BYTE, 1, &d, &vbf));
    CHECK_ERR(ncmpi_put_att_schar(nc, vbf, "_FillValue", NC_BYTE, 1, &bfill));
    CHECK_ERR(ncmpi_def_var(nc, "s", NC_SHORT, 1, &d, &vs));
    CHECK_ERR(ncmpi_def_var(nc, "i", NC_INT, 1, &d, &vi));
    CHECK_ERR(ncmpi_def_var(nc, "f", NC_FLOAT, 1, &d, &vf));
    CHECK_ERR(ncmpi_def_var(nc, "d", NC_DOUBLE, 1, &d, &vd));
    CHECK_ERR(ncmpi_def_var(nc, "b_uchar", NC_BYTE, 1, &d, &vbu));
    CHECK_ERR(ncmpi_enddef(nc));

    want = share(&s, &c);
    EXPECT_ERR(ncmpi_put_vara_int_all(nc, vb, &s, &c, ivals + s), want);
    EXPECT_ERR(ncmpi_put_vara_int_all(nc, vbf, &s, &c, ivals + s), want);
    /* short from int: only the byte-range values are in range here */
    CHECK_ERR(ncmpi_put_vara_int_all(nc, vs, &s, &c, ivals + s));
    EXPECT_ERR(ncmpi_put_vara_double_all(nc, vi, &s, &c, dvals + s), want);
    EXPECT_ERR(ncmpi_put_vara_double_all(nc, vf, &s, &c, dvals + s), want);
    CHECK_ERR(ncmpi_put_vara_double_all(nc, vd, &s, &c, dvals + s));
    /* uchar into a CDF-1 byte variable is a bit copy, never out of range */
    CHECK_ERR(ncmpi_put_vara_uchar_all(nc, vbu, &s, &c, uvals + s));
    CHECK_ERR(tu_sync(nc));

    CHECK_ERR(ncmpi_get_var_schar_all(nc, vb, b));
    {
        const signed char w[N] = {1, NC_FILL_BYTE, -3, NC_FILL_BYTE, 127, -128, 5, 6};
        CHECK(memcmp(b, w, N) == 0);
    }
    CHECK_ERR(ncmpi_get_var_schar_all(nc, vbf, b));
    {
        const signed char w[N] = {1, 77, -3, 77, 127, -128, 5, 6};
        CHECK(memcmp(b, w, N) == 0);
    }
    CHECK_ERR(ncmpi_get_var_float_all(nc, vf, f));
    CHECK(f[0] == 1.5f && f[1] == NC_FILL_FLOAT && f[2] == NC_FILL_FLOAT);
    CHECK(f[3] == 3e9f && f[4] == 0.0f && f[5] == 2.0f && f[7] == -4.5f);
    CHECK_ERR(ncmpi_get_var_int_all(nc, vi, in));
    CHECK(in[0] == 1 && in[1] == NC_FILL_INT && in[2] == NC_FILL_INT);
    CHECK(in[3] == NC_FILL_INT && in[4] == 0 && in[6] == 3 && in[7] == -4);
    CHECK_ERR(ncmpi_get_var_schar_all(nc, vbu, b));
    CHECK(b[0] == 0 && b[1] == 127 && b[2] == -128 && b[3] == -1 && b[7] == 4);

    /* get side: out-of-range file values */
    EXPECT_ERR(ncmpi_get_var_schar_all(nc, vs, b), NC_ERANGE);
    for (i = 0; i < N; i++)
        if (ivals[i] >= -128 && ivals[i] <= 127)
            CHECKF(b[i] == ivals[i], "schar from short i=%d", i);
    /* an element that does not fit gets the memory type's default fill */
    CHECK(b[1] == NC_FILL_BYTE && b[3] == NC_FILL_BYTE);
    EXPECT_ERR(ncmpi_get_var_short_all(nc, vd, sh), NC_ERANGE);
    CHECK(sh[0] == 1 && sh[4] == 0 && sh[5] == 2 && sh[7] == -4);
    CHECK(sh[1] == NC_FILL_SHORT && sh[2] == NC_FILL_SHORT && sh[3] == NC_FILL_SHORT);
    EXPECT_ERR(ncmpi_get_var_float_all(nc, vd, f), NC_ERANGE);
    CHECK(f[0] == 1.5f && f[3] == 3e9f && f[7] == -4.5f);
    CHECK(f[1] == NC_FILL_FLOAT && f[2] == NC_FILL_FLOAT);
    EXPECT_ERR(ncmpi_get_var_uchar_all(nc, vs, (unsigned char *)b), NC_ERANGE);
    CHECK((unsigned char)b[1] == 200 && (unsigned char)b[2] == NC_FILL_UBYTE);
    CHECK((unsigned char)b[3] == NC_FILL_UBYTE && (unsigned char)b[5] == NC_FILL_UBYTE);
    /* CDF-1 byte read as uchar is a bit copy too; as ushort it is checked,
     * and the variable's own _FillValue plays no part on the get side */
    CHECK_ERR(ncmpi_get_var_uchar_all(nc, vbf, (unsigned char *)b));
    CHECK((unsigned char)b[1] == 77 && (unsigned char)b[2] == 253);
    {
        unsigned short us[N];
        EXPECT_ERR(ncmpi_get_var_ushort_all(nc, vbf, us), NC_ERANGE);
        CHECK(us[0] == 1 && us[1] == 77 && us[2] == NC_FILL_USHORT && us[4] == 127);
    }
    /* the double variable reads back exactly */
    CHECK_ERR(ncmpi_get_var_double_all(nc, vd, dd));
    CHECK(memcmp(dd, dvals, sizeof dd) == 0);
    /* independent single element, once every rank has finished reading */
    CHECK_ERR(tu_sync(nc));
    CHECK_ERR(ncmpi_begin_indep_data(nc));
    s = 1;
    EXPECT_ERR(ncmpi_get_var1_schar(nc, vs, &s, b), NC_ERANGE);
    if (tu_myrank == 0) {
        i = 100000;
        EXPECT_ERR(ncmpi_put_var1_int(nc, vs, &s, &i), NC_ERANGE);
        EXPECT_ERR(ncmpi_get_var1_int(nc, vs, &s, &i), NC_NOERR);
        CHECK(i == NC_FILL_SHORT);
    }
    CHECK_ERR(ncmpi_end_indep_data(nc));
    CHECK_ERR(ncmpi_close(nc));
}

static void cdf5(const char *path)
{
    int nc, d, vub, vu, v64, vu64, vbu, vus;
    const signed char sc[N] = {1, -1, 2, -128, 3, 4, 5, 6};
    const int iv[N] = {1, -1, 70000, -5, 3, 4, 60000, 6};
    const unsigned long long big[N] = {1, 1ULL << 63, 2, NC_MAX_UINT64, 3, 4, 5, 6};
    const long long neg[N] = {1, -1, -9, NC_MAX_INT64, 3, 4, 5, 6};
    const unsigned char uc[N] = {1, 200, 2, 255, 3, 4, 5, 6};
    unsigned char ub[N];
    unsigned short us[N];
    unsigned int ui[N];
    long long ll[N];
    unsigned long long ull[N];
    MPI_Offset s, c;
    int want;

    CHECK_ERR(ncmpi_create(MPI_COMM_WORLD, path, NC_CLOBBER | NC_64BIT_DATA,
                           MPI_INFO_NULL, &nc));
    CHECK_ERR(ncmpi_def_dim(nc, "n", N, &d));
    CHECK_ERR(ncmpi_def_var(nc, "ub", NC_UBYTE, 1, &d, &vub));
    CHECK_ERR(ncmpi_def_var(nc, "u", NC_UINT, 1, &d, &vu));
    CHECK_ERR(ncmpi_def_var(nc, "i64", NC_INT64, 1, &d, &v64));
    CHECK_ERR(ncmpi_def_var(nc, "u64", NC_UINT64, 1, &d, &vu64));
    CHECK_ERR(ncmpi_def_var(nc, "b_uchar", NC_BYTE, 1, &d, &vbu));
    CHECK_ERR(ncmpi_def_var(nc, "us", NC_USHORT, 1, &d, &vus));
    CHECK_ERR(ncmpi_enddef(nc));

    want = share(&s, &c);
    CHECK_ERR(ncmpi_begin_indep_data(nc));
    EXPECT_ERR(ncmpi_put_vara_schar(nc, vub, &s, &c, sc + s), want);
    EXPECT_ERR(ncmpi_put_vara_int(nc, vu, &s, &c, iv + s), want);
    EXPECT_ERR(ncmpi_put_vara_ulonglong(nc, v64, &s, &c, big + s), want);
    EXPECT_ERR(ncmpi_put_vara_longlong(nc, vu64, &s, &c, neg + s), want);
    /* in CDF-5, uchar into byte is range-checked like any other pair */
    EXPECT_ERR(ncmpi_put_vara_uchar(nc, vbu, &s, &c, uc + s), want);
    EXPECT_ERR(ncmpi_put_vara_int(nc, vus, &s, &c, iv + s), want);
    CHECK_ERR(ncmpi_end_indep_data(nc));
    CHECK_ERR(tu_sync(nc));

    CHECK_ERR(ncmpi_get_var_uchar_all(nc, vub, ub));
    CHECK(ub[0] == 1 && ub[1] == NC_FILL_UBYTE && ub[2] == 2 && ub[3] == NC_FILL_UBYTE && ub[7] == 6);
    CHECK_ERR(ncmpi_get_var_uint_all(nc, vu, ui));
    CHECK(ui[0] == 1 && ui[1] == NC_FILL_UINT && ui[3] == NC_FILL_UINT && ui[2] == 70000);
    CHECK_ERR(ncmpi_get_var_longlong_all(nc, v64, ll));
    CHECK(ll[0] == 1 && ll[1] == NC_FILL_INT64 && ll[3] == NC_FILL_INT64 && ll[7] == 6);
    CHECK_ERR(ncmpi_get_var_ulonglong_all(nc, vu64, ull));
    CHECK(ull[0] == 1 && ull[1] == NC_FILL_UINT64 && ull[3] == (unsigned long long)NC_MAX_INT64);
    CHECK(ull[2] == NC_FILL_UINT64 && ull[7] == 6);
    CHECK_ERR(ncmpi_get_var_schar_all(nc, vbu, (signed char *)ub));
    CHECK(ub[0] == 1 && (signed char)ub[1] == NC_FILL_BYTE && (signed char)ub[3] == NC_FILL_BYTE);
    CHECK_ERR(ncmpi_get_var_ushort_all(nc, vus, us));
    CHECK(us[0] == 1 && us[1] == NC_FILL_USHORT && us[2] == NC_FILL_USHORT && us[6] == 60000);

    /* get side with unsigned file values too big for signed memory */
    EXPECT_ERR(ncmpi_get_var_longlong_all(nc, vu64, ll), NC_ERANGE);
    CHECK(ll[0] == 1 && ll[3] == NC_MAX_INT64 && ll[7] == 6 && ll[1] == NC_FILL_INT64);
    EXPECT_ERR(ncmpi_get_var_schar_all(nc, vub, (signed char *)ub), NC_ERANGE);
    CHECK(ub[0] == 1 && ub[7] == 6 && (signed char)ub[1] == NC_FILL_BYTE);
    EXPECT_ERR(ncmpi_get_var_int_all(nc, vu, (int *)ui), NC_ERANGE);
    CHECK(ui[0] == 1 && ui[2] == 70000 && ui[6] == 60000);
    CHECK_ERR(ncmpi_close(nc));
}

int main(int argc, char **argv)
{
    char p5[4096];
    const char *path;
    tu_init(&argc, &argv);
    path = tu_main_path(argc, argv);
    CHECK(path != NULL);
    if (path) {
        tu_sibling(p5, sizeof p5, path, "_cdf5.nc");
        classic(path);
        cdf5(p5);
    }
    return tu_finish("t_erange");
}
