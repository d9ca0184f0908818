/* ncp-test: RANKS 1 2 4 */
/* t_types -- every external type against every typed put/get form.
 *
 * Three files, one per format (argv[1] CDF-1, _cdf2.nc, _cdf5.nc).  Each
 * external type T has a fixed variable fix_T[mt][form][x], a record variable
 * rec_T[rec][form][x] and a whole-variable target whole_T[x].  Slab m of
 * fix_T and record m of rec_T are written through memory type m; the form
 * rows are 0 vara, 1 vars (stride 2), 2 var1, 3..4 varm (transposed memory).
 * Fixed slabs with even m and record slabs with odd m are written
 * collectively, the others independently, so each form meets both modes on
 * both kinds of variable.  Values fit every type they pass through, except
 * the deliberate .25 fractions on float-to-float pairs, which check that
 * narrowing reads truncate toward zero.
 */
#include "testutil.h"

#define NX 12
#define NROW 11 /* numeric memory types */
#define NFORM 5

#define MEMTYPES(X)                                                        \
    X(text, char) X(schar, signed char) X(uchar, unsigned char)            \
    X(short, short) X(ushort, unsigned short) X(int, int)                  \
    X(uint, unsigned int) X(long, long) X(float, float) X(double, double)  \
    X(longlong, long long) X(ulonglong, unsigned long long)

enum {
#define X(n, c) M_##n,
    MEMTYPES(X)
#undef X
    NMEM
};
enum { F_VAR, F_VARA, F_VARS, F_VAR1, F_VARM };

static void mem_set(int mt, void *b, MPI_Offset i, double v)
{
    switch (mt) {
#define X(n, c) case M_##n: ((c *)b)[i] = (c)v; break;
        MEMTYPES(X)
#undef X
    }
}

static double mem_get(int mt, const void *b, MPI_Offset i)
{
    switch (mt) {
#define X(n, c) case M_##n: return (double)((const c *)b)[i];
        MEMTYPES(X)
#undef X
    }
    return -1e300;
}

/* One switch per direction covers 12 memory types x 5 forms x 2 modes. */
static int put_form(int mt, int form, int coll, int nc, int v,
                    const MPI_Offset *st, const MPI_Offset *ct,
                    const MPI_Offset *sd, const MPI_Offset *im, const void *b)
{
    int err = NC_EINVAL;
    switch (mt) {
#define X(n, c)                                                              \
    case M_##n:                                                              \
        switch (form) {                                                      \
        case F_VAR: err = coll ? ncmpi_put_var_##n##_all(nc, v, b)           \
                               : ncmpi_put_var_##n(nc, v, b); break;         \
        case F_VARA: err = coll ? ncmpi_put_vara_##n##_all(nc, v, st, ct, b) \
                                : ncmpi_put_vara_##n(nc, v, st, ct, b); break; \
        case F_VARS: err = coll ? ncmpi_put_vars_##n##_all(nc, v, st, ct, sd, b) \
                                : ncmpi_put_vars_##n(nc, v, st, ct, sd, b); break; \
        case F_VAR1: err = coll ? ncmpi_put_var1_##n##_all(nc, v, st, b)     \
                                : ncmpi_put_var1_##n(nc, v, st, b); break;   \
        case F_VARM: err = coll ? ncmpi_put_varm_##n##_all(nc, v, st, ct, sd, im, b) \
                                : ncmpi_put_varm_##n(nc, v, st, ct, sd, im, b); break; \
        }                                                                    \
        break;
        MEMTYPES(X)
#undef X
    }
    return err;
}

static int get_form(int mt, int form, int coll, int nc, int v,
                    const MPI_Offset *st, const MPI_Offset *ct,
                    const MPI_Offset *sd, const MPI_Offset *im, void *b)
{
    int err = NC_EINVAL;
    switch (mt) {
#define X(n, c)                                                              \
    case M_##n:                                                              \
        switch (form) {                                                      \
        case F_VAR: err = coll ? ncmpi_get_var_##n##_all(nc, v, b)           \
                               : ncmpi_get_var_##n(nc, v, b); break;         \
        case F_VARA: err = coll ? ncmpi_get_vara_##n##_all(nc, v, st, ct, b) \
                                : ncmpi_get_vara_##n(nc, v, st, ct, b); break; \
        case F_VARS: err = coll ? ncmpi_get_vars_##n##_all(nc, v, st, ct, sd, b) \
                                : ncmpi_get_vars_##n(nc, v, st, ct, sd, b); break; \
        case F_VAR1: err = coll ? ncmpi_get_var1_##n##_all(nc, v, st, b)     \
                                : ncmpi_get_var1_##n(nc, v, st, b); break;   \
        case F_VARM: err = coll ? ncmpi_get_varm_##n##_all(nc, v, st, ct, sd, im, b) \
                                : ncmpi_get_varm_##n(nc, v, st, ct, sd, im, b); break; \
        }                                                                    \
        break;
        MEMTYPES(X)
#undef X
    }
    return err;
}

static int x_signed(nc_type t)
{
    return t == NC_BYTE || t == NC_SHORT || t == NC_INT || t == NC_INT64 ||
           t == NC_FLOAT || t == NC_DOUBLE;
}
static int m_signed(int mt)
{
    return mt == M_schar || mt == M_short || mt == M_int || mt == M_long ||
           mt == M_longlong || mt == M_float || mt == M_double;
}
static int mem_of(nc_type xt, int m) { return xt == NC_CHAR ? M_text : m + 1; }

/* The value stored at (slab m, form row, column) of a variable of type xt. */
static double value(nc_type xt, int m, int row, MPI_Offset col)
{
    int mt = mem_of(xt, m), k = (m * 7 + row * 13 + (int)col * 5 + xt) % 100;
    if (xt == NC_CHAR)
        return 'a' + k % 26;
    if (x_signed(xt) && m_signed(mt))
        k -= 50;
    if ((xt == NC_FLOAT || xt == NC_DOUBLE) && (mt == M_float || mt == M_double))
        return k + 0.25;
    return k;
}

/* Writes (put) or checks (get) the part of slab m that rank `who` owns. */
static void slab_io(int put, int nc, int v, nc_type xt, int m, int coll, int who)
{
    int mt = mem_of(xt, m), p, r;
    MPI_Offset s, c, i, maxc = (NX + tu_nranks - 1) / tu_nranks;
    MPI_Offset st[3], ct[3], sd[3] = {1, 1, 2}, im[3];
    long long buf[2 * NX]; /* large enough and aligned for any type */

    /* row 0: vara */
    tu_part(NX, who, tu_nranks, &s, &c);
    st[0] = m; st[1] = 0; st[2] = s; ct[0] = 1; ct[1] = 1; ct[2] = c;
    for (i = 0; i < c; i++)
        mem_set(mt, buf, i, put ? value(xt, m, 0, s + i) : -1);
    if (put) {
        CHECK_ERR(put_form(mt, F_VARA, coll, nc, v, st, ct, NULL, NULL, buf));
    } else {
        CHECK_ERR(get_form(mt, F_VARA, coll, nc, v, st, ct, NULL, NULL, buf));
        for (i = 0; i < c; i++)
            CHECKF(mem_get(mt, buf, i) == value(xt, m, 0, s + i),
                   "vara %s m=%d i=%lld", tu_tname(xt), m, (long long)i);
    }
    /* row 1: vars, evens then odds */
    for (p = 0; p < 2; p++) {
        tu_part(NX / 2, who, tu_nranks, &s, &c);
        st[1] = 1; st[2] = 2 * s + p; ct[2] = c;
        for (i = 0; i < c; i++)
            mem_set(mt, buf, i, put ? value(xt, m, 1, 2 * (s + i) + p) : -1);
        if (put) {
            CHECK_ERR(put_form(mt, F_VARS, coll, nc, v, st, ct, sd, NULL, buf));
        } else {
            CHECK_ERR(get_form(mt, F_VARS, coll, nc, v, st, ct, sd, NULL, buf));
            for (i = 0; i < c; i++)
                CHECKF(mem_get(mt, buf, i) == value(xt, m, 1, 2 * (s + i) + p),
                       "vars %s m=%d i=%lld", tu_tname(xt), m, (long long)i);
        }
    }
    /* row 2: var1; collective padding calls use a zero-count vara */
    tu_part(NX, who, tu_nranks, &s, &c);
    for (i = 0; i < (coll ? maxc : c); i++) {
        st[1] = 2; st[2] = i < c ? s + i : 0; ct[2] = 0;
        mem_set(mt, buf, 0, put ? value(xt, m, 2, s + i) : -1);
        if (i >= c)
            CHECK_ERR(put ? put_form(mt, F_VARA, coll, nc, v, st, ct, NULL, NULL, buf)
                          : get_form(mt, F_VARA, coll, nc, v, st, ct, NULL, NULL, buf));
        else if (put)
            CHECK_ERR(put_form(mt, F_VAR1, coll, nc, v, st, NULL, NULL, NULL, buf));
        else {
            CHECK_ERR(get_form(mt, F_VAR1, coll, nc, v, st, NULL, NULL, NULL, buf));
            CHECKF(mem_get(mt, buf, 0) == value(xt, m, 2, s + i),
                   "var1 %s m=%d i=%lld", tu_tname(xt), m, (long long)i);
        }
    }
    /* rows 3..4: varm, memory holds the 2 x c block transposed */
    st[1] = 3; st[2] = s; ct[1] = 2; ct[2] = c;
    im[0] = 2 * NX; im[1] = 1; im[2] = 2;
    for (r = 0; r < 2; r++)
        for (i = 0; i < c; i++)
            mem_set(mt, buf, r + 2 * i, put ? value(xt, m, 3 + r, s + i) : -1);
    if (put) {
        CHECK_ERR(put_form(mt, F_VARM, coll, nc, v, st, ct, NULL, im, buf));
    } else {
        CHECK_ERR(get_form(mt, F_VARM, coll, nc, v, st, ct, NULL, im, buf));
        for (r = 0; r < 2; r++)
            for (i = 0; i < c; i++)
                CHECKF(mem_get(mt, buf, r + 2 * i) == value(xt, m, 3 + r, s + i),
                       "varm %s m=%d r=%d i=%lld", tu_tname(xt), m, r, (long long)i);
    }
}

/* Reads a whole 3-D variable with three memory types and checks each. */
static void check_whole(int nc, int v, nc_type xt, int coll)
{
    static double d[NROW * NFORM * NX];
    static long long ll[NROW * NFORM * NX];
    static signed char sc[NROW * NFORM * NX];
    static char tx[NROW * NFORM * NX];
    int m, row, x, k;
    if (xt == NC_CHAR) {
        CHECK_ERR(coll ? ncmpi_get_var_text_all(nc, v, tx) : ncmpi_get_var_text(nc, v, tx));
    } else {
        CHECK_ERR(coll ? ncmpi_get_var_double_all(nc, v, d) : ncmpi_get_var_double(nc, v, d));
        CHECK_ERR(coll ? ncmpi_get_var_longlong_all(nc, v, ll) : ncmpi_get_var_longlong(nc, v, ll));
        CHECK_ERR(coll ? ncmpi_get_var_schar_all(nc, v, sc) : ncmpi_get_var_schar(nc, v, sc));
    }
    for (m = 0; m < NROW; m++)
        for (row = 0; row < NFORM; row++)
            for (x = 0; x < NX; x++) {
                double want = value(xt, m, row, x);
                k = (m * NFORM + row) * NX + x;
                if (xt == NC_CHAR) {
                    CHECKF(tx[k] == (char)want, "text %d", k);
                    continue;
                }
                CHECKF(d[k] == want, "%s double[%d]=%g want %g", tu_tname(xt), k, d[k], want);
                CHECKF(ll[k] == (long long)want, "%s longlong[%d]", tu_tname(xt), k);
                CHECKF(sc[k] == (signed char)(long long)want, "%s schar[%d]", tu_tname(xt), k);
            }
}

/* Exact 64-bit integers, truncation toward zero, double rounding. */
static void conversions(int nc, int vi, int v64, int vu64)
{
    const double dv[4] = {2.7, -2.7, 2.5, -0.5};
    const long long lv[4] = {(1LL << 53) + 1, NC_MAX_INT64, -NC_MAX_INT64 - 1, -1};
    const unsigned long long uv[4] = {NC_MAX_UINT64, 1ULL << 63, 1, 0};
    long long lr[4];
    unsigned long long ur[4];
    double dr[4];
    int ir[4];
    CHECK_ERR(ncmpi_put_var_double_all(nc, vi, dv));
    CHECK_ERR(tu_sync(nc));
    CHECK_ERR(ncmpi_get_var_int_all(nc, vi, ir));
    CHECK(ir[0] == 2 && ir[1] == -2 && ir[2] == 2 && ir[3] == 0);
    if (v64 < 0)
        return;
    CHECK_ERR(ncmpi_put_var_longlong_all(nc, v64, lv));
    CHECK_ERR(ncmpi_put_var_ulonglong_all(nc, vu64, uv));
    CHECK_ERR(tu_sync(nc));
    CHECK_ERR(ncmpi_get_var_longlong_all(nc, v64, lr));
    CHECK(memcmp(lr, lv, sizeof lr) == 0);
    CHECK_ERR(ncmpi_get_var_double_all(nc, v64, dr));
    CHECK(dr[0] == 9007199254740992.0 && dr[2] == -9223372036854775808.0 && dr[3] == -1);
    CHECK_ERR(ncmpi_get_var_ulonglong_all(nc, vu64, ur));
    CHECK(memcmp(ur, uv, sizeof ur) == 0);
}

static void run_format(const char *path, int cmode, int ntypes)
{
    static const nc_type types[] = {NC_BYTE, NC_CHAR, NC_SHORT, NC_INT,
                                    NC_FLOAT, NC_DOUBLE, NC_UBYTE, NC_USHORT,
                                    NC_UINT, NC_INT64, NC_UINT64};
    int nc, t, m, pass, mt, dm, dfm, dx, dr, dims[3];
    int fix[11], rec[11], whole[11], dc, vc[3] = {-1, -1, -1};
    char name[32];
    MPI_Offset n;
    long long buf[NX];

    CHECK_ERR(ncmpi_create(MPI_COMM_WORLD, path, cmode | NC_CLOBBER, MPI_INFO_NULL, &nc));
    CHECK_ERR(ncmpi_def_dim(nc, "rec", NC_UNLIMITED, &dr));
    CHECK_ERR(ncmpi_def_dim(nc, "mt", NROW, &dm));
    CHECK_ERR(ncmpi_def_dim(nc, "form", NFORM, &dfm));
    CHECK_ERR(ncmpi_def_dim(nc, "x", NX, &dx));
    for (t = 0; t < ntypes; t++) {
        dims[0] = dm; dims[1] = dfm; dims[2] = dx;
        snprintf(name, sizeof name, "fix_%s", tu_tname(types[t]));
        CHECK_ERR(ncmpi_def_var(nc, name, types[t], 3, dims, &fix[t]));
        dims[0] = dr;
        snprintf(name, sizeof name, "rec_%s", tu_tname(types[t]));
        CHECK_ERR(ncmpi_def_var(nc, name, types[t], 3, dims, &rec[t]));
        snprintf(name, sizeof name, "whole_%s", tu_tname(types[t]));
        CHECK_ERR(ncmpi_def_var(nc, name, types[t], 1, &dx, &whole[t]));
    }
    CHECK_ERR(ncmpi_def_dim(nc, "four", 4, &dc));
    CHECK_ERR(ncmpi_def_var(nc, "conv_int", NC_INT, 1, &dc, &vc[0]));
    if (ntypes > 6) {
        CHECK_ERR(ncmpi_def_var(nc, "conv_int64", NC_INT64, 1, &dc, &vc[1]));
        CHECK_ERR(ncmpi_def_var(nc, "conv_uint64", NC_UINT64, 1, &dc, &vc[2]));
    }
    CHECK_ERR(ncmpi_enddef(nc));
    conversions(nc, vc[0], vc[1], vc[2]);

    /* pass 0 collective, pass 1 independent */
    for (pass = 0; pass < 2; pass++) {
        if (pass == 1)
            CHECK_ERR(ncmpi_begin_indep_data(nc));
        for (t = 0; t < ntypes; t++)
            for (m = 0; m < NROW; m++) {
                if (m % 2 == pass)
                    slab_io(1, nc, fix[t], types[t], m, pass == 0, tu_myrank);
                else
                    slab_io(1, nc, rec[t], types[t], m, pass == 0, tu_myrank);
            }
        if (pass == 1)
            CHECK_ERR(ncmpi_end_indep_data(nc));
    }
    CHECK_ERR(ncmpi_inq_dimlen(nc, dr, &n));
    CHECK(n == NROW);
    CHECK_ERR(tu_sync(nc));

    /* Read back a neighbour's part in the other mode. */
    for (pass = 0; pass < 2; pass++) {
        if (pass == 1)
            CHECK_ERR(ncmpi_begin_indep_data(nc));
        for (t = 0; t < ntypes; t++)
            for (m = 0; m < NROW; m++) {
                int who = (tu_myrank + 1) % tu_nranks;
                if (m % 2 != pass)
                    slab_io(0, nc, fix[t], types[t], m, pass == 0, who);
                else
                    slab_io(0, nc, rec[t], types[t], m, pass == 0, who);
            }
        if (pass == 1)
            CHECK_ERR(ncmpi_end_indep_data(nc));
    }

    /* Whole-variable forms: every memory type in turn overwrites whole_T,
     * collectively for even memory types, by rank 0 alone for odd ones. */
    for (t = 0; t < ntypes; t++)
        for (m = 0; m < NROW; m++) {
            int coll = m % 2 == 0, x;
            /* the previous round's reads and writes must be over first */
            CHECK_ERR(tu_sync(nc));
            mt = mem_of(types[t], m);
            for (x = 0; x < NX; x++)
                mem_set(mt, buf, x, value(types[t], m, 0, x));
            if (!coll)
                CHECK_ERR(ncmpi_begin_indep_data(nc));
            if (coll || tu_myrank == 0) {
                CHECK_ERR(put_form(mt, F_VAR, coll, nc, whole[t], NULL, NULL, NULL, NULL, buf));
                if (coll)
                    CHECK_ERR(tu_sync(nc));
                memset(buf, 0, sizeof buf);
                CHECK_ERR(get_form(mt, F_VAR, coll, nc, whole[t], NULL, NULL, NULL, NULL, buf));
                for (x = 0; x < NX; x++)
                    CHECKF(mem_get(mt, buf, x) == value(types[t], m, 0, x),
                           "whole_%s m=%d x=%d", tu_tname(types[t]), m, x);
            }
            if (!coll)
                CHECK_ERR(ncmpi_end_indep_data(nc));
        }
    CHECK_ERR(ncmpi_close(nc));

    /* Reopen read-only and check everything through other memory types. */
    CHECK_ERR(ncmpi_open(MPI_COMM_WORLD, path, NC_NOWRITE, MPI_INFO_NULL, &nc));
    CHECK_ERR(ncmpi_inq_dimlen(nc, dr, &n));
    CHECK(n == NROW);
    for (t = 0; t < ntypes; t++) {
        check_whole(nc, fix[t], types[t], 1);
        check_whole(nc, rec[t], types[t], 1);
    }
    CHECK_ERR(ncmpi_begin_indep_data(nc));
    for (t = 0; t < ntypes; t++)
        check_whole(nc, rec[t], types[t], 0);
    CHECK_ERR(ncmpi_end_indep_data(nc));
    CHECK_ERR(ncmpi_close(nc));
}

int main(int argc, char **argv)
{
    char p2[4096], p5[4096];
    const char *path;
    tu_init(&argc, &argv);
    path = tu_main_path(argc, argv);
    if (path) {
        tu_sibling(p2, sizeof p2, path, "_cdf2.nc");
        tu_sibling(p5, sizeof p5, path, "_cdf5.nc");
        run_format(path, 0, 6);
        run_format(p2, NC_64BIT_OFFSET, 6);
        run_format(p5, NC_64BIT_DATA, 11);
    } else {
        CHECK(path != NULL);
    }
    return tu_finish("t_types");
}
