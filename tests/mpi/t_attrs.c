/* ncp-test: RANKS 1 2 4 */
/* t_attrs -- attributes: every type, put/get conversions, inquiry, copy
 * (within and across files), rename, delete, and changes made in redef.
 *
 * <main>.nc is CDF-1 and <main>_cdf5.nc is CDF-5 (for the CDF-5 types).
 * Attribute numbers are part of what is checked: overwriting keeps an
 * attribute's number, deleting shifts the later ones down, renaming keeps
 * the number.  Every rank puts the same values, as the API requires.
 */
#include "testutil.h"

#define N 5

static const double vals[N] = {1, -2, 3, 100, -100};

/* Puts one attribute of type xt through the memory type that matches it,
 * values from vals[] (unsigned types get their absolute values). */
static void put_typed(int nc, int v, const char *name, nc_type xt)
{
    signed char sc[N]; unsigned char uc[N]; short s[N]; unsigned short us[N];
    int i4[N]; unsigned int u4[N]; float f[N]; double d[N];
    long long ll[N]; unsigned long long ull[N];
    int i, err = NC_EBADTYPE;
    for (i = 0; i < N; i++) {
        double a = vals[i] < 0 ? -vals[i] : vals[i];
        sc[i] = (signed char)vals[i]; uc[i] = (unsigned char)a; s[i] = (short)vals[i];
        us[i] = (unsigned short)a; i4[i] = (int)vals[i]; u4[i] = (unsigned)a;
        f[i] = (float)vals[i] + 0.5f; d[i] = vals[i] + 0.25;
        ll[i] = (long long)vals[i] * 1000000000000LL; ull[i] = (unsigned long long)a << 40;
    }
    switch (xt) {
    case NC_BYTE: err = ncmpi_put_att_schar(nc, v, name, xt, N, sc); break;
    case NC_CHAR: err = ncmpi_put_att_text(nc, v, name, 11, "hello world"); break;
    case NC_SHORT: err = ncmpi_put_att_short(nc, v, name, xt, N, s); break;
    case NC_INT: err = ncmpi_put_att_int(nc, v, name, xt, N, i4); break;
    case NC_FLOAT: err = ncmpi_put_att_float(nc, v, name, xt, N, f); break;
    case NC_DOUBLE: err = ncmpi_put_att_double(nc, v, name, xt, N, d); break;
    case NC_UBYTE: err = ncmpi_put_att_uchar(nc, v, name, xt, N, uc); break;
    case NC_USHORT: err = ncmpi_put_att_ushort(nc, v, name, xt, N, us); break;
    case NC_UINT: err = ncmpi_put_att_uint(nc, v, name, xt, N, u4); break;
    case NC_INT64: err = ncmpi_put_att_longlong(nc, v, name, xt, N, ll); break;
    case NC_UINT64: err = ncmpi_put_att_ulonglong(nc, v, name, xt, N, ull); break;
    }
    CHECKF(err == NC_NOERR, "put %s: %s", name, ncmpi_strerror(err));
}

/* Reads back what put_typed stored, natively and as double. */
static void check_typed(int nc, int v, const char *name, nc_type xt)
{
    nc_type t = 0;
    MPI_Offset len = -1;
    double d[N], want;
    long long ll[N];
    unsigned long long ull[N];
    char txt[16];
    int i;
    CHECK_ERR(ncmpi_inq_att(nc, v, name, &t, &len));
    CHECKF(t == xt && len == (xt == NC_CHAR ? 11 : N), "inq_att %s", name);
    if (xt == NC_CHAR) {
        CHECK_ERR(ncmpi_get_att_text(nc, v, name, txt));
        CHECK(memcmp(txt, "hello world", 11) == 0);
        CHECK_ERR(ncmpi_get_att(nc, v, name, txt));
        CHECK(memcmp(txt, "hello world", 11) == 0);
        return;
    }
    CHECK_ERR(ncmpi_get_att_double(nc, v, name, d));
    for (i = 0; i < N; i++) {
        double a = vals[i] < 0 ? -vals[i] : vals[i];
        switch (xt) {
        case NC_FLOAT: want = vals[i] + 0.5; break;
        case NC_DOUBLE: want = vals[i] + 0.25; break;
        case NC_UBYTE: case NC_USHORT: case NC_UINT: want = a; break;
        case NC_INT64: want = vals[i] * 1e12; break;
        case NC_UINT64: want = a * 1099511627776.0; break;
        default: want = vals[i];
        }
        CHECKF(d[i] == want, "%s[%d] = %g want %g", name, i, d[i], want);
    }
    if (xt == NC_INT64) {
        CHECK_ERR(ncmpi_get_att(nc, v, name, ll));
        CHECK(ll[3] == 100000000000000LL);
    }
    if (xt == NC_UINT64) {
        CHECK_ERR(ncmpi_get_att_ulonglong(nc, v, name, ull));
        CHECK(ull[4] == 100ULL << 40);
    }
}

static int attnum(int nc, int v, const char *name)
{
    int id = -1;
    CHECK_ERR(ncmpi_inq_attid(nc, v, name, &id));
    return id;
}

static void one_file(const char *path, int cmode, int ntypes, int *ncp)
{
    static const nc_type types[] = {NC_BYTE, NC_CHAR, NC_SHORT, NC_INT,
                                    NC_FLOAT, NC_DOUBLE, NC_UBYTE, NC_USHORT,
                                    NC_UINT, NC_INT64, NC_UINT64};
    int nc, d, v, w, t, n = -1;
    char name[32];

    CHECK_ERR(ncmpi_create(MPI_COMM_WORLD, path, cmode | NC_CLOBBER, MPI_INFO_NULL, &nc));
    CHECK_ERR(ncmpi_def_dim(nc, "n", N, &d));
    CHECK_ERR(ncmpi_def_var(nc, "v", NC_INT, 1, &d, &v));
    CHECK_ERR(ncmpi_def_var(nc, "w", NC_DOUBLE, 1, &d, &w));
    for (t = 0; t < ntypes; t++) {
        snprintf(name, sizeof name, "g_%s", tu_tname(types[t]));
        put_typed(nc, NC_GLOBAL, name, types[t]);
        snprintf(name, sizeof name, "a_%s", tu_tname(types[t]));
        put_typed(nc, v, name, types[t]);
    }
    for (t = 0; t < ntypes; t++) {
        snprintf(name, sizeof name, "g_%s", tu_tname(types[t]));
        check_typed(nc, NC_GLOBAL, name, types[t]);
        CHECK(attnum(nc, NC_GLOBAL, name) == t);
        snprintf(name, sizeof name, "a_%s", tu_tname(types[t]));
        check_typed(nc, v, name, types[t]);
    }
    CHECK_ERR(ncmpi_inq_varnatts(nc, v, &n));
    CHECK(n == ntypes);
    CHECK_ERR(ncmpi_enddef(nc));
    *ncp = nc;
}

int main(int argc, char **argv)
{
    int nc, nc5, v, w, i, n, id, ibuf[N];
    short sh[N];
    double d[N];
    MPI_Offset len, s, c;
    nc_type t;
    char p5[4096], name[NC_MAX_NAME + 1], txt[64];
    const char *path;

    tu_init(&argc, &argv);
    path = tu_main_path(argc, argv);
    CHECK(path != NULL);
    if (!path)
        return tu_finish("t_attrs");
    tu_sibling(p5, sizeof p5, path, "_cdf5.nc");
    one_file(path, 0, 6, &nc);
    one_file(p5, NC_64BIT_DATA, 11, &nc5);
    v = 0; w = 1;

    /* conversions on put and get */
    CHECK_ERR(ncmpi_get_att_short(nc, v, "a_int", sh));
    CHECK(sh[3] == 100 && sh[4] == -100);
    CHECK_ERR(ncmpi_get_att_int(nc, NC_GLOBAL, "g_double", ibuf));
    CHECK(ibuf[0] == 1 && ibuf[1] == -1); /* 1.25 -> 1, -1.75 -> -1 */
    EXPECT_ERR(ncmpi_get_att_uchar(nc, v, "a_short", (unsigned char *)txt), NC_ERANGE);
    EXPECT_ERR(ncmpi_get_att_int(nc5, NC_GLOBAL, "g_int64", ibuf), NC_ERANGE);
    CHECK(ibuf[0] == NC_FILL_INT && ibuf[2] == NC_FILL_INT);

    /* data, then attributes changed in redef; the data must survive */
    tu_part(N, tu_myrank, tu_nranks, &s, &c);
    for (i = 0; i < N; i++)
        ibuf[i] = 7 * i;
    for (i = 0; i < N; i++)
        d[i] = i / 8.0;
    CHECK_ERR(ncmpi_put_vara_int_all(nc, v, &s, &c, ibuf + s));
    CHECK_ERR(ncmpi_put_vara_int_all(nc5, v, &s, &c, ibuf + s));
    CHECK_ERR(ncmpi_put_vara_double_all(nc, w, &s, &c, d + s));
    CHECK_ERR(ncmpi_put_vara_double_all(nc5, w, &s, &c, d + s));
    CHECK_ERR(tu_sync(nc));
    CHECK_ERR(ncmpi_redef(nc));

    /* overwrite: same number, new type and length */
    id = attnum(nc, v, "a_short");
    CHECK_ERR(ncmpi_put_att_text(nc, v, "a_short", 17, "now it is a string"));
    CHECK(attnum(nc, v, "a_short") == id);
    CHECK_ERR(ncmpi_inq_atttype(nc, v, "a_short", &t));
    CHECK(t == NC_CHAR);
    CHECK_ERR(ncmpi_inq_attlen(nc, v, "a_short", &len));
    CHECK(len == 17);

    /* rename keeps the number; deleting shifts the later ones down */
    id = attnum(nc, NC_GLOBAL, "g_int");
    CHECK_ERR(ncmpi_rename_att(nc, NC_GLOBAL, "g_int", "renamed_int"));
    CHECK(attnum(nc, NC_GLOBAL, "renamed_int") == id);
    EXPECT_ERR(ncmpi_inq_attid(nc, NC_GLOBAL, "g_int", &i), NC_ENOTATT);
    CHECK_ERR(ncmpi_del_att(nc, NC_GLOBAL, "g_char"));
    CHECK_ERR(ncmpi_inq_attname(nc, NC_GLOBAL, 1, name));
    CHECK(strcmp(name, "g_short") == 0);
    CHECK(attnum(nc, NC_GLOBAL, "renamed_int") == id - 1);
    CHECK_ERR(ncmpi_inq_natts(nc, &n));
    CHECK(n == 5);

    /* copy within the file: to another variable, to global, over an
     * existing attribute (which keeps its number) */
    CHECK_ERR(ncmpi_put_att_text(nc, w, "a_int", 3, "old"));
    CHECK_ERR(ncmpi_put_att_text(nc, w, "after", 3, "yes"));
    CHECK_ERR(ncmpi_copy_att(nc, v, "a_float", nc, w));
    CHECK_ERR(ncmpi_copy_att(nc, v, "a_double", nc, NC_GLOBAL));
    CHECK_ERR(ncmpi_copy_att(nc, v, "a_int", nc, w));
    CHECK(attnum(nc, w, "a_int") == 0);
    CHECK(attnum(nc, w, "a_float") == 2);
    CHECK_ERR(ncmpi_inq_att(nc, w, "a_int", &t, &len));
    CHECK(t == NC_INT && len == N);
    CHECK_ERR(ncmpi_get_att_double(nc, w, "a_float", d));
    CHECK(d[0] == 1.5 && d[4] == -99.5);
    EXPECT_ERR(ncmpi_copy_att(nc, v, "nosuch", nc, w), NC_ENOTATT);
    EXPECT_ERR(ncmpi_copy_att(nc, v, "a_float", nc, 99), NC_ENOTVAR);

    /* copy across files.  (PnetCDF 1.12.3 also lets a CDF-5 type be copied
     * into a classic file, writing an invalid header, so that is not done.) */
    CHECK_ERR(ncmpi_redef(nc5));
    CHECK_ERR(ncmpi_copy_att(nc, NC_GLOBAL, "renamed_int", nc5, w));
    CHECK_ERR(ncmpi_copy_att(nc5, NC_GLOBAL, "g_double", nc, w));
    CHECK_ERR(ncmpi_enddef(nc5));
    /* a zero-length attribute and a long one */
    CHECK_ERR(ncmpi_put_att_int(nc, w, "empty", NC_INT, 0, ibuf));
    CHECK_ERR(ncmpi_put_att_text(nc, NC_GLOBAL, "empty_text", 0, ""));
    {
        static double big[2000];
        for (i = 0; i < 2000; i++)
            big[i] = i / 4.0;
        CHECK_ERR(ncmpi_put_att_double(nc, w, "long", NC_FLOAT, 2000, big));
    }
    CHECK_ERR(ncmpi_enddef(nc));
    CHECK_ERR(ncmpi_inq_attlen(nc, w, "empty", &len));
    CHECK(len == 0);
    CHECK_ERR(ncmpi_inq_attlen(nc, w, "long", &len));
    CHECK(len == 2000);

    /* in data mode an existing attribute may be rewritten in place when
     * it does not grow; new ones and bigger ones need define mode */
    CHECK_ERR(ncmpi_put_att_text(nc, v, "a_short", 17, "STILL A STRING!!!"));
    EXPECT_ERR(ncmpi_put_att_text(nc, v, "a_short", 30, "this one is too long for it.."), NC_ENOTINDEFINE);
    CHECK_ERR(ncmpi_get_att_text(nc, v, "a_short", txt));
    CHECK(memcmp(txt, "STILL A STRING!!!", 17) == 0);

    for (i = 0; i < N; i++)
        ibuf[i] = -1;
    CHECK_ERR(ncmpi_get_var_int_all(nc, v, ibuf));
    for (i = 0; i < N; i++)
        CHECKF(ibuf[i] == 7 * i, "data after redef [%d]", i);
    CHECK_ERR(ncmpi_close(nc));
    CHECK_ERR(ncmpi_close(nc5));

    /* reopen: everything persisted */
    CHECK_ERR(ncmpi_open(MPI_COMM_WORLD, path, NC_NOWRITE, MPI_INFO_NULL, &nc));
    CHECK_ERR(ncmpi_inq_natts(nc, &n));
    CHECK(n == 7);
    {
        static float f[2000];
        CHECK_ERR(ncmpi_get_att_float(nc, w, "long", f));
        CHECK(f[1] == 0.25f && f[1999] == 499.75f);
    }
    CHECK_ERR(ncmpi_get_att_double(nc, w, "g_double", d));
    CHECK(d[1] == -1.75);
    check_typed(nc, NC_GLOBAL, "g_float", NC_FLOAT);
    CHECK_ERR(ncmpi_close(nc));
    CHECK_ERR(ncmpi_open(MPI_COMM_WORLD, p5, NC_NOWRITE, MPI_INFO_NULL, &nc5));
    CHECK_ERR(ncmpi_get_att_int(nc5, w, "renamed_int", ibuf));
    CHECK(ibuf[1] == -2 && ibuf[3] == 100);
    check_typed(nc5, v, "a_uint64", NC_UINT64);
    CHECK_ERR(ncmpi_close(nc5));
    return tu_finish("t_attrs");
}
