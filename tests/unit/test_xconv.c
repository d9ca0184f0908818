/*
 * test_xconv.c -- unit tests of src/format/xconv.c (no MPI).
 *
 * The oracle is independent of the code under test: values are held as
 * long double (64-bit significand on x86-64, so every int64, uint64, float
 * and double is exact), external bytes are built and read by shifting, and
 * "fits" is decided by comparing with the type's bounds in long double.
 * Every (memory type, external type, format) triple is run over a list of
 * awkward values -- bounds, one past them, fractions just outside them,
 * NaN, infinities, huge finite values -- first one element at a time (to
 * see each status) and then all at once (to see the loop mix good and bad
 * elements).
 *
 * Prints "N passed, M failed"; exit status 0 only when M is 0.
 */
#define _POSIX_C_SOURCE 199309L

#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <pnetcdf.h>

#include "format/ncp_header.h"
#include "format/ncp_xconv.h"

_Static_assert(LDBL_MANT_DIG >= 64, "the oracle needs a 64-bit significand");

static long passed;
static long failed;

static void check(int cond, const char *what, const char *detail)
{
    if (cond) {
        passed++;
        return;
    }
    failed++;
    if (failed <= 60)
        fprintf(stderr, "FAIL: %s %s\n", what, detail ? detail : "");
}

/* ---- the oracle's view of the types -------------------------------------- */

typedef enum { K_INT, K_FLT, K_DBL } kind;

typedef struct tinfo {
    const char *name;
    int size;
    kind k;
    long double lo, hi; /* K_INT only */
} tinfo;

/* External types, indexed by nc_type; NC_CHAR is left out (text). */
static tinfo xt_info(int xt)
{
    tinfo t = {"?", 0, K_INT, 0, 0};
    switch (xt) {
    case NC_BYTE:   t = (tinfo){"NC_BYTE", 1, K_INT, -128.0L, 127.0L}; break;
    case NC_SHORT:  t = (tinfo){"NC_SHORT", 2, K_INT, -32768.0L, 32767.0L}; break;
    case NC_INT:    t = (tinfo){"NC_INT", 4, K_INT, -2147483648.0L, 2147483647.0L}; break;
    case NC_FLOAT:  t = (tinfo){"NC_FLOAT", 4, K_FLT, 0, 0}; break;
    case NC_DOUBLE: t = (tinfo){"NC_DOUBLE", 8, K_DBL, 0, 0}; break;
    case NC_UBYTE:  t = (tinfo){"NC_UBYTE", 1, K_INT, 0, 255.0L}; break;
    case NC_USHORT: t = (tinfo){"NC_USHORT", 2, K_INT, 0, 65535.0L}; break;
    case NC_UINT:   t = (tinfo){"NC_UINT", 4, K_INT, 0, 4294967295.0L}; break;
    case NC_INT64:
        t = (tinfo){"NC_INT64", 8, K_INT, -9223372036854775808.0L,
                    9223372036854775807.0L};
        break;
    case NC_UINT64:
        t = (tinfo){"NC_UINT64", 8, K_INT, 0, 18446744073709551615.0L};
        break;
    default: break;
    }
    return t;
}

/* Memory types: the same facts, from the C types themselves. */
#define TMTYPES(X)                                                         \
    X(SCHAR, signed char, K_INT, SCHAR_MIN, SCHAR_MAX)                     \
    X(UCHAR, unsigned char, K_INT, 0, UCHAR_MAX)                           \
    X(SHORT, short, K_INT, SHRT_MIN, SHRT_MAX)                             \
    X(USHORT, unsigned short, K_INT, 0, USHRT_MAX)                         \
    X(INT, int, K_INT, INT_MIN, INT_MAX)                                   \
    X(UINT, unsigned int, K_INT, 0, UINT_MAX)                              \
    X(LONG, long, K_INT, LONG_MIN, LONG_MAX)                               \
    X(FLOAT, float, K_FLT, 0, 0)                                           \
    X(DOUBLE, double, K_DBL, 0, 0)                                         \
    X(LONGLONG, long long, K_INT, LLONG_MIN, LLONG_MAX)                    \
    X(ULONGLONG, unsigned long long, K_INT, 0, ULLONG_MAX)

static tinfo mt_info(int mt)
{
    tinfo t = {"TEXT", 1, K_INT, 0, 0};
    switch (mt) {
#define TM_INFO(N, C, K, LO, HI)                                           \
    case NCP_M_##N:                                                        \
        t = (tinfo){#N, (int)sizeof(C), K, (long double)(LO),              \
                    (long double)(HI)};                                    \
        break;
        TMTYPES(TM_INFO)
    default: break;
    }
    return t;
}

/* Does v exist exactly in a type described by t? */
static int representable(tinfo t, long double v)
{
    if (t.k == K_FLT)
        return isnan(v) || (long double)(float)v == v;
    if (t.k == K_DBL)
        return isnan(v) || (long double)(double)v == v;
    return !isnan(v) && !isinf(v) && v == truncl(v) && v >= t.lo && v <= t.hi;
}

/* Store v (representable) as memory type mt at p. */
static void m_store(int mt, long double v, void *p)
{
    switch (mt) {
#define TM_STORE(N, C, K, LO, HI)                                          \
    case NCP_M_##N: {                                                      \
        C c = (C)v;                                                        \
        memcpy(p, &c, sizeof c);                                           \
        break;                                                             \
    }
        TMTYPES(TM_STORE)
    default: break;
    }
}

static long double m_load(int mt, const void *p)
{
    long double v = 0;
    switch (mt) {
#define TM_LOAD(N, C, K, LO, HI)                                           \
    case NCP_M_##N: {                                                      \
        C c;                                                               \
        memcpy(&c, p, sizeof c);                                           \
        v = (long double)c;                                                \
        break;                                                             \
    }
        TMTYPES(TM_LOAD)
    default: break;
    }
    return v;
}

/* Big-endian bytes of v as external type xt (v representable in xt). */
static void x_encode(int xt, long double v, unsigned char *p)
{
    tinfo t = xt_info(xt);
    uint64_t bits = 0;
    if (t.k == K_FLT) {
        float f = (float)v;
        uint32_t u;
        memcpy(&u, &f, 4);
        bits = u;
    } else if (t.k == K_DBL) {
        double d = (double)v;
        memcpy(&bits, &d, 8);
    } else if (v < 0) {
        bits = (uint64_t)(int64_t)v; /* two's complement, truncated below */
    } else {
        bits = (uint64_t)v;
    }
    for (int i = 0; i < t.size; i++)
        p[i] = (unsigned char)(bits >> (8 * (t.size - 1 - i)));
}

static long double x_decode(int xt, const unsigned char *p)
{
    tinfo t = xt_info(xt);
    uint64_t bits = 0;
    for (int i = 0; i < t.size; i++)
        bits = (bits << 8) | p[i];
    if (t.k == K_FLT) {
        uint32_t u = (uint32_t)bits;
        float f;
        memcpy(&f, &u, 4);
        return f;
    }
    if (t.k == K_DBL) {
        double d;
        memcpy(&d, &bits, 8);
        return d;
    }
    if (t.lo < 0 && (bits >> (8 * t.size - 1)) & 1) {
        /* sign-extend */
        if (t.size < 8)
            bits |= ~(uint64_t)0 << (8 * t.size);
        return (long double)(int64_t)bits;
    }
    return (long double)bits;
}

static int same(long double a, long double b)
{
    return (isnan(a) && isnan(b)) || a == b;
}

/* The memory default fill of the brief, as a value. */
static long double m_fill(int mt)
{
    switch (mt) {
    case NCP_M_SCHAR: return NC_FILL_BYTE;
    case NCP_M_UCHAR: return NC_FILL_UBYTE;
    case NCP_M_SHORT: return NC_FILL_SHORT;
    case NCP_M_USHORT: return NC_FILL_USHORT;
    case NCP_M_INT: return NC_FILL_INT;
    case NCP_M_UINT: return NC_FILL_UINT;
    case NCP_M_LONG:
        return sizeof(long) == 8 ? (long double)NC_FILL_INT64 : NC_FILL_INT;
    case NCP_M_FLOAT: return NC_FILL_FLOAT;
    case NCP_M_DOUBLE: return NC_FILL_DOUBLE;
    case NCP_M_LONGLONG: return NC_FILL_INT64;
    case NCP_M_ULONGLONG: return NC_FILL_UINT64;
    default: return 0;
    }
}

/* The external default fill of the brief, as big-endian bytes. */
static const char *x_fill_hex(int xt)
{
    switch (xt) {
    case NC_BYTE: return "81";
    case NC_CHAR: return "00";
    case NC_SHORT: return "8001";
    case NC_INT: return "80000001";
    case NC_FLOAT: return "7cf00000";
    case NC_DOUBLE: return "479e000000000000";
    case NC_UBYTE: return "ff";
    case NC_USHORT: return "ffff";
    case NC_UINT: return "ffffffff";
    case NC_INT64: return "8000000000000002";
    case NC_UINT64: return "fffffffffffffffe";
    default: return "";
    }
}

static void hex_bytes(const char *hex, unsigned char *out)
{
    for (size_t i = 0; hex[2 * i]; i++) {
        unsigned v;
        sscanf(hex + 2 * i, "%2x", &v);
        out[i] = (unsigned char)v;
    }
}

/* ---- the oracle's verdicts ----------------------------------------------- */

static int classic(int format) { return format != NCP_CDF5; }

/* Put: does memory value v of mt fit external type xt?  *want gets the
 * external value when it does. */
static int put_fits(int mt, int xt, int format, long double v,
                    long double *want)
{
    tinfo x = xt_info(xt);
    if (classic(format) && mt == NCP_M_UCHAR && xt == NC_BYTE) {
        *want = v > 127 ? v - 256 : v;
        return 1;
    }
    if (x.k == K_INT) {
        if (isnan(v) || v < x.lo || v > x.hi)
            return 0;
        *want = truncl(v);
        return 1;
    }
    if (x.k == K_FLT) {
        if (isfinite(v) && fabsl(v) > FLT_MAX)
            return 0;
        *want = (float)v;
        return 1;
    }
    *want = (double)v;
    return 1;
}

/* Get: does external value v of xt fit memory type mt? */
static int get_fits(int xt, int mt, int format, long double v,
                    long double *want)
{
    tinfo m = mt_info(mt);
    if (classic(format) && mt == NCP_M_UCHAR && xt == NC_BYTE) {
        *want = v < 0 ? v + 256 : v;
        return 1;
    }
    if (m.k == K_INT) {
        if (isnan(v) || v < m.lo || v > m.hi)
            return 0;
        *want = truncl(v);
        return 1;
    }
    if (m.k == K_FLT) {
        if (isfinite(v) && fabsl(v) > FLT_MAX)
            return 0;
        *want = (float)v;
        return 1;
    }
    *want = (double)v;
    return 1;
}

/* ---- the value list ------------------------------------------------------ */

/* Every value is exact as a long double; each memory and external type
 * sees the ones it can hold exactly.  Hex literals name powers of two. */
static const long double cand[] = {
    0.0L, -0.0L, 1, -1, 0.5L, -0.5L, 2.75L, -2.75L, 42.75L, -42.75L, 100,
    126, 127, 127.5L, 128, -127, -128, -128.5L, -129, 200, 254, 255, 255.5L,
    256, -255, -256, -32767, 32767, 32767.5L, 32768, -32768, -32768.5L,
    -32769, 65535, 65535.5L, 65536, 2147483647.0L, 2147483647.5L,
    2147483648.0L, -2147483648.0L, -2147483648.5L, -2147483649.0L,
    4294967295.0L, 4294967295.5L, 4294967296.0L, 0x1p53L, 0x1p53L + 1,
    0x1p62L, 0x1p63L - 1, 0x1p63L, -0x1p63L, -0x1p63L - 1, 0x1p64L - 1,
    0x1p64L, -0x1p64L,
    0x1p63L - 1024, /* the largest double below 2^63 */
    0x1p64L - 2048, /* the largest double below 2^64 */
    1e20, -1e20, 3e38, FLT_MAX, -FLT_MAX,
    (double)FLT_MAX * (1 + 0x1p-29), /* a double just above FLT_MAX */
    -(double)FLT_MAX * (1 + 0x1p-29), 1e39, -1e39, DBL_MAX, -DBL_MAX,
    INFINITY, -INFINITY, NAN, FLT_MIN / 4, 1e-310,
};
static const int ncand = (int)(sizeof cand / sizeof cand[0]);

static const int formats[] = {NCP_CDF1, NCP_CDF2, NCP_CDF5};
static const int xnum[] = {NC_BYTE,  NC_SHORT,  NC_INT,   NC_FLOAT,
                           NC_DOUBLE, NC_UBYTE, NC_USHORT, NC_UINT,
                           NC_INT64, NC_UINT64};

/* ---- the matrix ---------------------------------------------------------- */

static void matrix_put(int mt, int xt, int format)
{
    tinfo m = mt_info(mt), x = xt_info(xt);
    unsigned char src[128 * 8], dst[128 * 8], one[8];
    unsigned char myfill[8], dfill[8];
    long double vals[128];
    int nv = 0;
    char d[256];

    for (int i = 0; i < ncand; i++)
        if (representable(m, cand[i])) {
            m_store(mt, cand[i], src + nv * m.size);
            vals[nv] = m_load(mt, src + nv * m.size);
            nv++;
        }
    memset(myfill, 0x5A, sizeof myfill);
    hex_bytes(x_fill_hex(xt), dfill);

    if (format != NCP_CDF5 && xt >= NC_UBYTE) {
        int rc = ncp_x_put(xt, dst, mt, src, nv, NULL, format);
        snprintf(d, sizeof d, "%s->%s cdf%d rc=%d", m.name, x.name, format, rc);
        check(rc == NC_EBADTYPE, "put CDF-5 type in classic", d);
        return;
    }

    int any_bad = 0;
    for (int i = 0; i < nv; i++) {
        long double want = 0;
        int fits = put_fits(mt, xt, format, vals[i], &want);
        int rc = ncp_x_put(xt, one, mt, src + i * m.size, 1, NULL, format);
        long double got = x_decode(xt, one);
        snprintf(d, sizeof d, "%s->%s cdf%d v=%.21Lg rc=%d got=%.21Lg", m.name,
                 x.name, format, vals[i], rc, got);
        if (fits) {
            check(rc == NC_NOERR && same(got, want), "put in range", d);
        } else {
            any_bad = 1;
            check(rc == NC_ERANGE && memcmp(one, dfill, (size_t)x.size) == 0,
                  "put out of range -> default fill", d);
        }
    }

    /* All at once with a custom fill. */
    int rc = ncp_x_put(xt, dst, mt, src, nv, myfill, format);
    snprintf(d, sizeof d, "%s->%s cdf%d batch rc=%d", m.name, x.name, format,
             rc);
    check(rc == (any_bad ? NC_ERANGE : NC_NOERR), "put batch status", d);
    int ok = 1;
    for (int i = 0; i < nv; i++) {
        long double want = 0;
        if (put_fits(mt, xt, format, vals[i], &want))
            ok &= same(x_decode(xt, dst + i * x.size), want);
        else
            ok &= memcmp(dst + i * x.size, myfill, (size_t)x.size) == 0;
    }
    check(ok, "put batch values / custom fill", d);
}

static void matrix_get(int mt, int xt, int format)
{
    tinfo m = mt_info(mt), x = xt_info(xt);
    unsigned char src[128 * 8], dst[128 * 8], one[8];
    long double vals[128];
    int nv = 0;
    char d[256];

    for (int i = 0; i < ncand; i++)
        if (representable(x, cand[i])) {
            x_encode(xt, cand[i], src + nv * x.size);
            vals[nv] = x_decode(xt, src + nv * x.size);
            nv++;
        }
    if (format != NCP_CDF5 && xt >= NC_UBYTE) {
        int rc = ncp_x_get(xt, src, mt, dst, nv, format);
        snprintf(d, sizeof d, "%s->%s cdf%d rc=%d", x.name, m.name, format, rc);
        check(rc == NC_EBADTYPE, "get CDF-5 type in classic", d);
        return;
    }

    int any_bad = 0;
    for (int i = 0; i < nv; i++) {
        long double want = 0;
        int fits = get_fits(xt, mt, format, vals[i], &want);
        int rc = ncp_x_get(xt, src + i * x.size, mt, one, 1, format);
        long double got = m_load(mt, one);
        snprintf(d, sizeof d, "%s->%s cdf%d v=%.21Lg rc=%d got=%.21Lg", x.name,
                 m.name, format, vals[i], rc, got);
        if (fits) {
            check(rc == NC_NOERR && same(got, want), "get in range", d);
        } else {
            any_bad = 1;
            check(rc == NC_ERANGE && got == m_fill(mt),
                  "get out of range -> memory fill", d);
        }
    }
    int rc = ncp_x_get(xt, src, mt, dst, nv, format);
    snprintf(d, sizeof d, "%s->%s cdf%d batch rc=%d", x.name, m.name, format,
             rc);
    check(rc == (any_bad ? NC_ERANGE : NC_NOERR), "get batch status", d);
    int ok = 1;
    for (int i = 0; i < nv; i++) {
        long double want = 0;
        long double got = m_load(mt, dst + i * m.size);
        if (get_fits(xt, mt, format, vals[i], &want))
            ok &= same(got, want);
        else
            ok &= got == m_fill(mt);
    }
    check(ok, "get batch values", d);
}

static void test_matrix(void)
{
    for (int f = 0; f < 3; f++)
        for (int mt = NCP_M_SCHAR; mt < NCP_M_COUNT; mt++)
            for (int j = 0; j < 10; j++) {
                matrix_put(mt, xnum[j], formats[f]);
                matrix_get(mt, xnum[j], formats[f]);
            }
}

/* Every candidate appears in some memory type, and the interesting ones
 * really are present in the lists the matrix used. */
static void test_candidates_cover(void)
{
    int have_nan = 0, have_big = 0;
    for (int i = 0; i < ncand; i++) {
        have_nan |= isnan(cand[i]);
        have_big |= representable(mt_info(NCP_M_DOUBLE), cand[i]) &&
                    isfinite(cand[i]) && fabsl(cand[i]) > FLT_MAX;
    }
    check(have_nan && have_big, "candidate list has NaN and >FLT_MAX", NULL);
}

/* ---- hand-picked cases from the brief ------------------------------------ */

static void test_named_cases(void)
{
    unsigned char x[8];
    int rc;
    double dv;
    float fv;
    int iv;
    unsigned char uc;
    signed char sc;

    dv = 1e40;
    rc = ncp_x_put(NC_FLOAT, x, NCP_M_DOUBLE, &dv, 1, NULL, NCP_CDF1);
    check(rc == NC_ERANGE && memcmp(x, "\x7c\xf0\x00\x00", 4) == 0,
          "double 1e40 -> NC_FLOAT is ERANGE + fill", NULL);
    dv = INFINITY;
    rc = ncp_x_put(NC_FLOAT, x, NCP_M_DOUBLE, &dv, 1, NULL, NCP_CDF1);
    check(rc == NC_NOERR && memcmp(x, "\x7f\x80\x00\x00", 4) == 0,
          "double inf -> NC_FLOAT passes", NULL);
    dv = NAN;
    rc = ncp_x_put(NC_FLOAT, x, NCP_M_DOUBLE, &dv, 1, NULL, NCP_CDF1);
    check(rc == NC_NOERR && isnan(x_decode(NC_FLOAT, x)),
          "double NaN -> NC_FLOAT passes", NULL);
    fv = NAN;
    rc = ncp_x_put(NC_INT, x, NCP_M_FLOAT, &fv, 1, NULL, NCP_CDF1);
    check(rc == NC_ERANGE && memcmp(x, "\x80\x00\x00\x01", 4) == 0,
          "float NaN -> NC_INT is ERANGE", NULL);
    dv = -2.9;
    rc = ncp_x_put(NC_INT, x, NCP_M_DOUBLE, &dv, 1, NULL, NCP_CDF1);
    check(rc == NC_NOERR && x_decode(NC_INT, x) == -2, "-2.9 -> -2", NULL);
    iv = -1;
    rc = ncp_x_put(NC_UINT, x, NCP_M_INT, &iv, 1, NULL, NCP_CDF5);
    check(rc == NC_ERANGE && memcmp(x, "\xff\xff\xff\xff", 4) == 0,
          "-1 -> NC_UINT is ERANGE", NULL);
    dv = 9223372036854775808.0;
    rc = ncp_x_put(NC_INT64, x, NCP_M_DOUBLE, &dv, 1, NULL, NCP_CDF5);
    check(rc == NC_ERANGE, "2^63 -> NC_INT64 is ERANGE", NULL);

    /* CDF-1/2 exemption of NC_BYTE <-> unsigned char, both directions. */
    uc = 200;
    for (int f = 0; f < 2; f++) {
        rc = ncp_x_put(NC_BYTE, x, NCP_M_UCHAR, &uc, 1, NULL, formats[f]);
        check(rc == NC_NOERR && x[0] == 200, "uchar 200 -> NC_BYTE classic",
              NULL);
        unsigned char got = 0;
        x[0] = 0xC8;
        rc = ncp_x_get(NC_BYTE, x, NCP_M_UCHAR, &got, 1, formats[f]);
        check(rc == NC_NOERR && got == 200, "NC_BYTE -56 -> uchar classic",
              NULL);
    }
    rc = ncp_x_put(NC_BYTE, x, NCP_M_UCHAR, &uc, 1, NULL, NCP_CDF5);
    check(rc == NC_ERANGE && x[0] == 0x81, "uchar 200 -> NC_BYTE CDF-5", NULL);
    x[0] = 0xC8;
    rc = ncp_x_get(NC_BYTE, x, NCP_M_UCHAR, &uc, 1, NCP_CDF5);
    check(rc == NC_ERANGE && uc == 255, "NC_BYTE -56 -> uchar CDF-5", NULL);
    /* schar is checked in every format */
    sc = -56;
    rc = ncp_x_put(NC_BYTE, x, NCP_M_SCHAR, &sc, 1, NULL, NCP_CDF1);
    check(rc == NC_NOERR && x[0] == 0xC8, "schar -56 -> NC_BYTE", NULL);
}

/* ---- text ---------------------------------------------------------------- */

static void test_text(void)
{
    char s[6] = {'a', 'b', '\0', (char)0xE9, 'z', (char)0xFF};
    char x[6], back[6];
    int rc = ncp_x_put(NC_CHAR, x, NCP_M_TEXT, s, 6, NULL, NCP_CDF1);
    check(rc == NC_NOERR && memcmp(x, s, 6) == 0, "text -> NC_CHAR", NULL);
    rc = ncp_x_get(NC_CHAR, x, NCP_M_TEXT, back, 6, NCP_CDF5);
    check(rc == NC_NOERR && memcmp(back, s, 6) == 0, "NC_CHAR -> text", NULL);

    unsigned char buf[64];
    for (int f = 0; f < 3; f++) {
        for (int j = 0; j < 10; j++) {
            char d[64];
            snprintf(d, sizeof d, "xt=%d f=%d", xnum[j], formats[f]);
            int want = (formats[f] != NCP_CDF5 && xnum[j] >= NC_UBYTE)
                           ? NC_EBADTYPE
                           : NC_ECHAR;
            check(ncp_x_put(xnum[j], buf, NCP_M_TEXT, s, 1, NULL,
                            formats[f]) == want,
                  "text -> numeric", d);
            check(ncp_x_get(xnum[j], buf, NCP_M_TEXT, buf + 32, 1,
                            formats[f]) == want,
                  "numeric -> text", d);
            /* ECHAR is about types, so it holds for n = 0 too */
            check(ncp_x_put(xnum[j], NULL, NCP_M_TEXT, NULL, 0, NULL,
                            formats[f]) == want,
                  "text -> numeric n=0", d);
        }
        for (int mt = NCP_M_SCHAR; mt < NCP_M_COUNT; mt++) {
            memset(buf, 0, sizeof buf);
            check(ncp_x_put(NC_CHAR, buf + 32, mt, buf, 1, NULL, formats[f]) ==
                      NC_ECHAR,
                  "numeric -> NC_CHAR", mt_info(mt).name);
            check(ncp_x_get(NC_CHAR, buf, mt, buf + 32, 1, formats[f]) ==
                      NC_ECHAR,
                  "NC_CHAR -> numeric", mt_info(mt).name);
        }
    }
}

/* ---- argument errors and n = 0 ------------------------------------------- */

static void test_args(void)
{
    double v = 1;
    unsigned char x[8];
    int bad_x[] = {-1, 0, 12, 13, 100};
    for (size_t i = 0; i < sizeof bad_x / sizeof bad_x[0]; i++) {
        check(ncp_x_put(bad_x[i], x, NCP_M_DOUBLE, &v, 1, NULL, NCP_CDF5) ==
                  NC_EBADTYPE,
              "put bad xtype", NULL);
        check(ncp_x_get(bad_x[i], x, NCP_M_DOUBLE, &v, 1, NCP_CDF5) ==
                  NC_EBADTYPE,
              "get bad xtype", NULL);
    }
    check(ncp_x_put(NC_DOUBLE, x, NCP_M_COUNT, &v, 1, NULL, NCP_CDF1) ==
              NC_EBADTYPE,
          "put bad mtype", NULL);
    check(ncp_x_get(NC_DOUBLE, x, (ncp_mtype)-1, &v, 1, NCP_CDF1) ==
              NC_EBADTYPE,
          "get bad mtype", NULL);
    check(ncp_x_put(NC_DOUBLE, x, NCP_M_DOUBLE, &v, -1, NULL, NCP_CDF1) ==
              NC_EINVAL,
          "put n < 0", NULL);
    check(ncp_x_get(NC_DOUBLE, x, NCP_M_DOUBLE, &v, -5, NCP_CDF1) == NC_EINVAL,
          "get n < 0", NULL);
    check(ncp_x_put(NC_DOUBLE, NULL, NCP_M_DOUBLE, &v, 1, NULL, NCP_CDF1) ==
              NC_EINVAL,
          "put NULL dst", NULL);
    check(ncp_x_get(NC_DOUBLE, x, NCP_M_DOUBLE, NULL, 1, NCP_CDF1) ==
              NC_EINVAL,
          "get NULL dst", NULL);
    for (int mt = NCP_M_SCHAR; mt < NCP_M_COUNT; mt++)
        for (int j = 0; j < 10; j++) {
            check(ncp_x_put(xnum[j], NULL, mt, NULL, 0, NULL, NCP_CDF5) ==
                      NC_NOERR,
                  "put n = 0", NULL);
            check(ncp_x_get(xnum[j], NULL, mt, NULL, 0, NCP_CDF5) == NC_NOERR,
                  "get n = 0", NULL);
        }
    memset(x, 0x33, sizeof x);
    check(ncp_x_put(NC_DOUBLE, x, NCP_M_DOUBLE, &v, 0, NULL, NCP_CDF5) ==
                  NC_NOERR &&
              x[0] == 0x33,
          "n = 0 writes nothing", NULL);
}

/* ---- the small table functions ------------------------------------------- */

static void test_tables(void)
{
    static const int xsz[] = {0, 1, 1, 2, 4, 4, 8, 1, 2, 4, 8, 8, 0};
    for (int xt = 0; xt <= 12; xt++) {
        check(ncp_xtype_size(xt) == xsz[xt], "xtype size", x_fill_hex(xt));
        for (int f = 0; f < 3; f++) {
            int want = (xt >= NC_BYTE && xt <= NC_DOUBLE) ||
                               (xt >= NC_UBYTE && xt <= NC_UINT64 &&
                                formats[f] == NCP_CDF5)
                           ? NC_NOERR
                           : NC_EBADTYPE;
            check(ncp_xtype_check(xt, formats[f]) == want, "xtype check",
                  NULL);
        }
    }
    check(ncp_xtype_size(-1) == 0 && ncp_xtype_check(-1, NCP_CDF5) ==
                                        NC_EBADTYPE,
          "xtype -1", NULL);

    static const size_t msz[] = {
        sizeof(char),  sizeof(signed char), sizeof(unsigned char),
        sizeof(short), sizeof(unsigned short), sizeof(int),
        sizeof(unsigned), sizeof(long), sizeof(float), sizeof(double),
        sizeof(long long), sizeof(unsigned long long)};
    for (int mt = 0; mt < NCP_M_COUNT; mt++)
        check(ncp_mtype_size(mt) == msz[mt], "mtype size", mt_info(mt).name);
    check(ncp_mtype_size(NCP_M_COUNT) == 0, "mtype size out of range", NULL);

    static const ncp_mtype native[] = {
        NCP_M_COUNT, NCP_M_SCHAR, NCP_M_TEXT,  NCP_M_SHORT,
        NCP_M_INT,   NCP_M_FLOAT, NCP_M_DOUBLE, NCP_M_UCHAR,
        NCP_M_USHORT, NCP_M_UINT, NCP_M_LONGLONG, NCP_M_ULONGLONG};
    for (int xt = 1; xt <= 11; xt++)
        check(ncp_mtype_of_xtype(xt) == native[xt], "mtype of xtype", NULL);
    check(ncp_mtype_of_xtype(0) == NCP_M_COUNT &&
              ncp_mtype_of_xtype(12) == NCP_M_COUNT,
          "mtype of bad xtype", NULL);

    for (int xt = 1; xt <= 11; xt++) {
        unsigned char got[8], want[8];
        memset(got, 0xEE, sizeof got);
        hex_bytes(x_fill_hex(xt), want);
        ncp_x_default_fill(xt, got);
        int sz = xsz[xt];
        check(memcmp(got, want, (size_t)sz) == 0 &&
                  (sz == 8 || got[sz] == 0xEE),
              "default fill bytes", x_fill_hex(xt));
    }
    /* the fill bytes decode to the constants of pnetcdf.h */
    unsigned char f[8];
    ncp_x_default_fill(NC_FLOAT, f);
    check(x_decode(NC_FLOAT, f) == NC_FILL_FLOAT, "fill float value", NULL);
    ncp_x_default_fill(NC_DOUBLE, f);
    check(x_decode(NC_DOUBLE, f) == NC_FILL_DOUBLE, "fill double value", NULL);
    ncp_x_default_fill(NC_INT64, f);
    check(x_decode(NC_INT64, f) == NC_FILL_INT64, "fill int64 value", NULL);
    ncp_x_default_fill(NC_UINT64, f);
    check(x_decode(NC_UINT64, f) == NC_FILL_UINT64, "fill uint64 value", NULL);
}

/* ---- byte swapping, in place and the fast path's block/tail split --------- */

static uint64_t rng_state = 0x9E3779B97F4A7C15ULL;
static uint64_t rnd(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}

/* Lengths around the in-place form's 4096-byte staging chunks too. */
static int next_swap_len(int n)
{
    static const int big[] = {511, 512, 513, 1023, 1024, 1025, 2047, 2048,
                              2049, 4097, 0};
    if (n < 70)
        return n + 1;
    if (n < 128)
        return n + 29;
    for (int i = 0; big[i]; i++)
        if (big[i] > n)
            return big[i];
    return 1 << 30;
}

static void test_swap(void)
{
    static unsigned char a[8 * 4200], b[8 * 4200];
    static const int sizes[] = {1, 2, 4, 8};
    for (int s = 0; s < 4; s++) {
        int es = sizes[s];
        for (int n = 0; n <= 4097; n = next_swap_len(n)) {
            for (int i = 0; i < 8 * 200; i++)
                a[i] = (unsigned char)rnd();
            memcpy(b, a, sizeof a);
            ncp_x_swap_inplace(b, n, es);
            int ok = 1;
            for (int i = 0; i < n; i++)
                for (int k = 0; k < es; k++)
                    ok &= b[i * es + k] == a[i * es + es - 1 - k];
            ok &= memcmp(b + n * es, a + n * es, (size_t)(sizeof a - (size_t)(n * es))) == 0;
            check(ok, "swap_inplace", NULL);
        }
    }
    memcpy(b, a, sizeof a);
    ncp_x_swap_inplace(b, 10, 3);
    ncp_x_swap_inplace(b, -4, 8);
    ncp_x_swap_inplace(NULL, 10, 8);
    check(memcmp(a, b, sizeof a) == 0, "swap_inplace odd sizes are no-ops",
          NULL);

    /* every native pair, every length around the block size */
    for (int mt = NCP_M_SCHAR; mt < NCP_M_COUNT; mt++) {
        int xt = 0;
        for (int j = 0; j < 10; j++)
            if ((int)ncp_mtype_of_xtype(xnum[j]) == mt)
                xt = xnum[j];
        if (mt == NCP_M_LONG)
            xt = sizeof(long) == 8 ? NC_INT64 : NC_INT;
        tinfo m = mt_info(mt);
        for (int n = 0; n <= 100; n++) {
            unsigned char src[8 * 100], x[8 * 100], back[8 * 100];
            long double vals[100];
            for (int i = 0; i < n; i++) {
                long double v;
                do {
                    uint64_t r = rnd();
                    if (m.k == K_FLT)
                        v = ((int64_t)r >> 20) / 1024.0L;
                    else if (m.k == K_DBL)
                        v = (long double)(int64_t)r / 3.0L;
                    else
                        v = m.lo + (long double)(r % 1000);
                    if (m.k == K_DBL)
                        v = (double)v;
                } while (!representable(m, v));
                m_store(mt, v, src + i * m.size);
                vals[i] = m_load(mt, src + i * m.size);
            }
            int rc = ncp_x_put(xt, x, mt, src, n, NULL, NCP_CDF5);
            int ok = rc == NC_NOERR;
            for (int i = 0; i < n; i++)
                ok &= same(x_decode(xt, x + i * m.size), vals[i]);
            rc = ncp_x_get(xt, x, mt, back, n, NCP_CDF5);
            ok &= rc == NC_NOERR && memcmp(back, src, (size_t)(n * m.size)) == 0;
            check(ok, "native pair round trip", m.name);
        }
    }
}

/* ---- in place (src == dst) ----------------------------------------------- */

static void test_inplace(void)
{
    double d[37];
    unsigned char want[37 * 8];
    for (int i = 0; i < 37; i++) {
        d[i] = i * 1.25 - 7;
        x_encode(NC_DOUBLE, d[i], want + 8 * i);
    }
    int rc = ncp_x_put(NC_DOUBLE, d, NCP_M_DOUBLE, d, 37, NULL, NCP_CDF1);
    check(rc == NC_NOERR && memcmp(d, want, sizeof want) == 0,
          "put double in place", NULL);
    rc = ncp_x_get(NC_DOUBLE, d, NCP_M_DOUBLE, d, 37, NCP_CDF1);
    int ok = rc == NC_NOERR;
    for (int i = 0; i < 37; i++)
        ok &= d[i] == i * 1.25 - 7;
    check(ok, "get double in place", NULL);

    /* same size, different kind: goes through the matrix */
    int iv[20];
    for (int i = 0; i < 20; i++)
        iv[i] = (i - 10) * 1000003;
    rc = ncp_x_put(NC_FLOAT, iv, NCP_M_INT, iv, 20, NULL, NCP_CDF1);
    ok = rc == NC_NOERR;
    for (int i = 0; i < 20; i++)
        ok &= x_decode(NC_FLOAT, (unsigned char *)iv + 4 * i) ==
              (float)((i - 10) * 1000003);
    check(ok, "put int -> NC_FLOAT in place", NULL);
    rc = ncp_x_get(NC_FLOAT, iv, NCP_M_INT, iv, 20, NCP_CDF1);
    ok = rc == NC_NOERR;
    for (int i = 0; i < 20; i++)
        ok &= iv[i] == (int)(float)((i - 10) * 1000003);
    check(ok, "get NC_FLOAT -> int in place", NULL);

    /* in place with out-of-range elements */
    double e[3] = {1.5, NAN, 1e300};
    rc = ncp_x_put(NC_INT64, e, NCP_M_DOUBLE, e, 3, NULL, NCP_CDF5);
    unsigned char *eb = (unsigned char *)e;
    check(rc == NC_ERANGE && x_decode(NC_INT64, eb) == 1 &&
              memcmp(eb + 8, "\x80\0\0\0\0\0\0\x02", 8) == 0 &&
              memcmp(eb + 16, "\x80\0\0\0\0\0\0\x02", 8) == 0,
          "put double -> NC_INT64 in place with ERANGE", NULL);
}

/* ---- round trips through every pair -------------------------------------- */

static void test_roundtrip(void)
{
    for (int f = 0; f < 3; f++)
        for (int mt = NCP_M_SCHAR; mt < NCP_M_COUNT; mt++)
            for (int j = 0; j < 10; j++) {
                int xt = xnum[j];
                if (formats[f] != NCP_CDF5 && xt >= NC_UBYTE)
                    continue;
                tinfo m = mt_info(mt), x = xt_info(xt);
                unsigned char src[8 * 256], ext[8 * 256], back[8 * 256];
                int n = 256;
                for (int i = 0; i < n; i++) {
                    /* values every type holds: 0..100, and -100..-1 when
                     * both sides are signed */
                    long double v = (long double)(rnd() % 101);
                    int neg_ok = (m.k != K_INT || m.lo < 0) &&
                                 (x.k != K_INT || x.lo < 0) &&
                                 !(mt == NCP_M_UCHAR || xt == NC_UBYTE);
                    if (neg_ok && v != 0 && (rnd() & 1))
                        v = -v;
                    m_store(mt, v, src + i * m.size);
                }
                int rc1 = ncp_x_put(xt, ext, mt, src, n, NULL, formats[f]);
                int rc2 = ncp_x_get(xt, ext, mt, back, n, formats[f]);
                char d[64];
                snprintf(d, sizeof d, "%s %s cdf%d", m.name, x.name,
                         formats[f]);
                check(rc1 == NC_NOERR && rc2 == NC_NOERR &&
                          memcmp(src, back, (size_t)(n * m.size)) == 0,
                      "round trip", d);
            }
}

/* ---- large n and the bandwidth figure ------------------------------------ */

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static void test_large(void)
{
    int64_t n = 1000000;
    double *src = malloc((size_t)n * sizeof *src);
    double *back = malloc((size_t)n * sizeof *back);
    unsigned char *x = malloc((size_t)n * 8);
    if (src == NULL || back == NULL || x == NULL) {
        check(0, "large: malloc", NULL);
        goto done;
    }
    for (int64_t i = 0; i < n; i++)
        src[i] = (double)(int64_t)rnd() * 1e-7;
    int rc = ncp_x_put(NC_DOUBLE, x, NCP_M_DOUBLE, src, n, NULL, NCP_CDF2);
    int ok = rc == NC_NOERR;
    for (int64_t i = 0; i < n; i++) {
        unsigned char w[8];
        x_encode(NC_DOUBLE, src[i], w);
        ok &= memcmp(w, x + 8 * i, 8) == 0;
    }
    check(ok, "large put 1e6 doubles", NULL);
    rc = ncp_x_get(NC_DOUBLE, x, NCP_M_DOUBLE, back, n, NCP_CDF2);
    check(rc == NC_NOERR && memcmp(src, back, (size_t)n * 8) == 0,
          "large get 1e6 doubles", NULL);

    /* the same 1e6 elements through a converting pair (float -> NC_DOUBLE) */
    float *fs = (float *)back;
    for (int64_t i = 0; i < n; i++)
        fs[i] = (float)src[i];
    rc = ncp_x_put(NC_DOUBLE, x, NCP_M_FLOAT, fs, n, NULL, NCP_CDF2);
    ok = rc == NC_NOERR;
    for (int64_t i = 0; i < n; i++)
        ok &= x_decode(NC_DOUBLE, x + 8 * i) == fs[i];
    check(ok, "large put 1e6 floats -> NC_DOUBLE", NULL);

done:
    free(src);
    free(back);
    free(x);
}

static void report_bandwidth(void)
{
    size_t bytes = (size_t)64 << 20;
    int64_t n = (int64_t)(bytes / 8);
    double *src = malloc(bytes);
    unsigned char *x = malloc(bytes);
    if (src == NULL || x == NULL)
        goto done;
    for (int64_t i = 0; i < n; i++)
        src[i] = (double)i;
    memset(x, 0, bytes);
    double best = 1e30;
    for (int r = 0; r < 8; r++) {
        double t = now();
        (void)ncp_x_put(NC_DOUBLE, x, NCP_M_DOUBLE, src, n, NULL, NCP_CDF5);
        t = now() - t;
        if (t < best)
            best = t;
    }
    double best_cpy = 1e30;
    for (int r = 0; r < 8; r++) {
        double t = now();
        memcpy(x, src, bytes);
        t = now() - t;
        if (t < best_cpy)
            best_cpy = t;
    }
    printf("info: ncp_x_put double->NC_DOUBLE, 64 MiB: %.0f MB/s "
           "(memcpy: %.0f MB/s)\n",
           (double)bytes / best / 1e6, (double)bytes / best_cpy / 1e6);
done:
    free(src);
    free(x);
}

int main(void)
{
    test_candidates_cover();
    test_tables();
    test_named_cases();
    test_text();
    test_args();
    test_matrix();
    test_swap();
    test_inplace();
    test_roundtrip();
    test_large();
    report_bandwidth();
    printf("%ld passed, %ld failed\n", passed, failed);
    return failed == 0 ? 0 : 1;
}
