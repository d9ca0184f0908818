/*
 * xconv.c -- the external representation of netCDF data: type sizes, the
 * default fill values, and conversion between the API's in-memory C types
 * and the big-endian types stored in the file, with range checking.
 *
 * Owns: the table of external types (size, C type, range, default fill,
 * which formats allow it) and the table of memory types; every per-type
 * fact below comes from those two X-macro tables.  The 11 x 10 matrix of
 * numeric conversion loops is expanded from them, so adding a type means
 * adding one row, never writing a loop.
 *
 * Invariants:
 *  1. A conversion never stops early: every element is converted, the ones
 *     that do not fit the target get the fill value, and the status says
 *     NC_ERANGE if any did.  Callers therefore always get a fully defined
 *     buffer.
 *  2. "Fits" means the exact mathematical value lies in the target's
 *     [min, max]; a float is truncated toward zero only after it passed
 *     that test, so no C conversion here has undefined behaviour.  NaN fits
 *     no integer type.  Between the two floating types only a finite double
 *     beyond FLT_MAX fails; infinities and NaN pass through.
 *  3. Fill values are copied bit for bit (a select on integer bits, never a
 *     floating-point move), so a NaN fill keeps its payload.
 *  4. src and dst may be the same pointer when the memory element and the
 *     external element have the same size (in-place conversion of a
 *     staging or user buffer); any other overlap is not allowed.
 *
 * Why the layout: pairs whose memory and external types have the same kind
 * and width (double <-> NC_DOUBLE, int <-> NC_INT, ...) dominate real
 * traffic, so they skip the matrix and run a blocked byte-swap loop that
 * the compiler vectorizes; on x86-64 with GCC or Clang that loop is cloned
 * for SSSE3 and AVX2 (byte shuffles) and picked at load time.
 *
 * The netCDF-3 rule that NC_BYTE and unsigned char exchange bytes without
 * a range check in CDF-1/CDF-2 (but not in CDF-5) follows the observable
 * behaviour of PnetCDF 1.12.
 */
#include "ncp_xconv.h"
#include "ncp_header.h"

#include <float.h>
#include <limits.h>
#include <math.h>
#include <string.h>

#include <pnetcdf.h>

#if !defined(__BYTE_ORDER__) || !defined(__ORDER_BIG_ENDIAN__)
#error "xconv.c needs __BYTE_ORDER__ (GCC or Clang) to know the host byte order"
#endif
enum { HOST_IS_BIG = (__BYTE_ORDER__ == __ORDER_BIG_ENDIAN__) };

_Static_assert(sizeof(float) == 4 && FLT_MANT_DIG == 24, "IEEE float needed");
_Static_assert(sizeof(double) == 8 && DBL_MANT_DIG == 53, "IEEE double needed");
_Static_assert(sizeof(long long) == 8, "64-bit long long needed");
_Static_assert(sizeof(long) == 4 || sizeof(long) == 8, "long of 4 or 8 bytes");

/* The swap kernels are cloned per instruction set where the toolchain can
 * dispatch at load time (ifunc); elsewhere they are plain portable C. */
#if defined(__x86_64__) && defined(__ELF__) && defined(__has_attribute) && \
    !defined(NCP_NO_TARGET_CLONES)
#if __has_attribute(target_clones)
#define NCP_SWAP_CLONES __attribute__((target_clones("default", "ssse3", "avx2")))
#endif
#endif
#ifndef NCP_SWAP_CLONES
#define NCP_SWAP_CLONES
#endif

/* ------------------------------------------------------------------------
 * The type tables.
 *
 * External numeric types:
 *   X(name, C type, bits, source kind, target kind, min, max, default fill,
 *     CDF-5 only)
 * Memory types (not text):
 *   X(name, C type, source kind, target kind, min, max, default fill)
 *
 * A source kind (I signed, U unsigned, F floating) says how a value of the
 * type is widened before it is tested; a target kind (INT, F32, F64) says
 * which test decides whether a value fits the type.  min and max matter
 * only for target kind INT.  NC_CHAR is not in the numeric table: it pairs
 * only with text and is handled on its own.
 * ------------------------------------------------------------------------ */
#define NCP_XNUM(X, ...)                                                       \
    X(__VA_ARGS__, BYTE, int8_t, 8, I, INT, INT8_MIN, INT8_MAX, NC_FILL_BYTE, 0) \
    X(__VA_ARGS__, SHORT, int16_t, 16, I, INT, INT16_MIN, INT16_MAX,           \
      NC_FILL_SHORT, 0)                                                        \
    X(__VA_ARGS__, INT, int32_t, 32, I, INT, INT32_MIN, INT32_MAX,             \
      NC_FILL_INT, 0)                                                          \
    X(__VA_ARGS__, FLOAT, float, 32, F, F32, 0, 0, NC_FILL_FLOAT, 0)           \
    X(__VA_ARGS__, DOUBLE, double, 64, F, F64, 0, 0, NC_FILL_DOUBLE, 0)        \
    X(__VA_ARGS__, UBYTE, uint8_t, 8, U, INT, 0, UINT8_MAX, NC_FILL_UBYTE, 1)  \
    X(__VA_ARGS__, USHORT, uint16_t, 16, U, INT, 0, UINT16_MAX,                \
      NC_FILL_USHORT, 1)                                                       \
    X(__VA_ARGS__, UINT, uint32_t, 32, U, INT, 0, UINT32_MAX, NC_FILL_UINT, 1) \
    X(__VA_ARGS__, INT64, int64_t, 64, I, INT, INT64_MIN, INT64_MAX,           \
      NC_FILL_INT64, 1)                                                        \
    X(__VA_ARGS__, UINT64, uint64_t, 64, U, INT, 0, UINT64_MAX,                \
      NC_FILL_UINT64, 1)

/* `long` takes NC_FILL_INT64 where it is 64 bits wide and NC_FILL_INT where
 * it is 32, like the external type it matches. */
#define NCP_LONG_FILL (sizeof(long) == 8 ? (long)NC_FILL_INT64 : (long)NC_FILL_INT)

#define NCP_MNUM(X)                                                           \
    X(SCHAR, signed char, I, INT, SCHAR_MIN, SCHAR_MAX, NC_FILL_BYTE)         \
    X(UCHAR, unsigned char, U, INT, 0, UCHAR_MAX, NC_FILL_UBYTE)              \
    X(SHORT, short, I, INT, SHRT_MIN, SHRT_MAX, NC_FILL_SHORT)                \
    X(USHORT, unsigned short, U, INT, 0, USHRT_MAX, NC_FILL_USHORT)           \
    X(INT, int, I, INT, INT_MIN, INT_MAX, NC_FILL_INT)                        \
    X(UINT, unsigned int, U, INT, 0, UINT_MAX, NC_FILL_UINT)                  \
    X(LONG, long, I, INT, LONG_MIN, LONG_MAX, NCP_LONG_FILL)                  \
    X(FLOAT, float, F, F32, 0, 0, NC_FILL_FLOAT)                              \
    X(DOUBLE, double, F, F64, 0, 0, NC_FILL_DOUBLE)                           \
    X(LONGLONG, long long, I, INT, LLONG_MIN, LLONG_MAX, NC_FILL_INT64)       \
    X(ULONGLONG, unsigned long long, U, INT, 0, ULLONG_MAX, NC_FILL_UINT64)

enum { XTYPE_MAX = NC_UINT64 }; /* highest external type of the formats */

/* ------------------------------------------------------------------------
 * Byte order.
 * ------------------------------------------------------------------------ */
static inline uint8_t bswap8(uint8_t v) { return v; }
static inline uint16_t bswap16(uint16_t v) { return __builtin_bswap16(v); }
static inline uint32_t bswap32(uint32_t v) { return __builtin_bswap32(v); }
static inline uint64_t bswap64(uint64_t v) { return __builtin_bswap64(v); }

/* Host <-> big-endian; the same operation in both directions. */
#define NCP_BE_FN(B)                                                          \
    static inline uint##B##_t be##B(uint##B##_t v)                            \
    {                                                                         \
        return HOST_IS_BIG ? v : bswap##B(v);                                 \
    }
NCP_BE_FN(8)
NCP_BE_FN(16)
NCP_BE_FN(32)
NCP_BE_FN(64)

/*
 * Swap kernels.  The copy form works in blocks of a fixed count so that
 * the vectorizer needs neither a runtime trip-count test nor an alias
 * check (restrict), which GCC's -O2 cost model demands; the tail runs
 * element by element.  The in-place form cannot use restrict, so it swaps
 * through a stack buffer of SWAP_STAGE bytes with the copy form: the
 * extra copy stays in L1 and costs less than scalar swapping, which ran
 * at a third of the read bandwidth of a page-cached file.
 */
enum { SWAP_BLOCK = 32, SWAP_STAGE = 4096 };

#define NCP_SWAP_FNS(B)                                                       \
    NCP_SWAP_CLONES static void swapcopy##B(unsigned char *restrict d,        \
                                            const unsigned char *restrict s,  \
                                            int64_t n)                        \
    {                                                                         \
        int64_t i = 0;                                                        \
        for (; i + SWAP_BLOCK <= n; i += SWAP_BLOCK) {                        \
            for (int k = 0; k < SWAP_BLOCK; k++) {                            \
                uint##B##_t v;                                                \
                memcpy(&v, s + (i + k) * (B / 8), B / 8);                     \
                v = bswap##B(v);                                              \
                memcpy(d + (i + k) * (B / 8), &v, B / 8);                     \
            }                                                                 \
        }                                                                     \
        for (; i < n; i++) {                                                  \
            uint##B##_t v;                                                    \
            memcpy(&v, s + i * (B / 8), B / 8);                               \
            v = bswap##B(v);                                                  \
            memcpy(d + i * (B / 8), &v, B / 8);                               \
        }                                                                     \
    }                                                                         \
    static void swapself##B(unsigned char *p, int64_t n)                      \
    {                                                                         \
        unsigned char tmp[SWAP_STAGE];                                        \
        const int64_t per = SWAP_STAGE / (B / 8);                             \
        for (int64_t i = 0; i < n; i += per) {                                \
            int64_t k = n - i < per ? n - i : per;                            \
            swapcopy##B(tmp, p + i * (B / 8), k);                             \
            memcpy(p + i * (B / 8), tmp, (size_t)k * (B / 8));                \
        }                                                                     \
    }
NCP_SWAP_FNS(16)
NCP_SWAP_FNS(32)
NCP_SWAP_FNS(64)

/* Move n elements of esize bytes from s to d, reversing each element's
 * bytes on a little-endian host.  d == s is allowed; partial overlap not. */
static void swap_move(void *d, const void *s, int64_t n, int esize)
{
    if (HOST_IS_BIG || esize == 1) {
        if (d != s)
            memcpy(d, s, (size_t)n * (size_t)esize);
    } else if (d == s) {
        ncp_x_swap_inplace(d, n, esize);
    } else if (esize == 2) {
        swapcopy16(d, s, n);
    } else if (esize == 4) {
        swapcopy32(d, s, n);
    } else {
        swapcopy64(d, s, n);
    }
}

void ncp_x_swap_copy(void *d, const void *s, int64_t n, int esize)
{
    if (n > 0) swap_move(d, s, n, esize);
}

void ncp_x_swap_inplace(void *buf, int64_t n, int esize)
{
    if (HOST_IS_BIG || buf == NULL || n <= 0)
        return;
    if (esize == 2)
        swapself16(buf, n);
    else if (esize == 4)
        swapself32(buf, n);
    else if (esize == 8)
        swapself64(buf, n);
}

/* ------------------------------------------------------------------------
 * Range tests: fit_<source kind>_<target kind>(value, target min, target
 * max).  Every value is first widened losslessly (int64_t, uint64_t or
 * double), so one test per kind pair covers all types.
 * ------------------------------------------------------------------------ */
static inline int fit_I_INT(int64_t v, int64_t lo, uint64_t hi)
{
    return v >= lo && (v < 0 || (uint64_t)v <= hi);
}

static inline int fit_U_INT(uint64_t v, int64_t lo, uint64_t hi)
{
    (void)lo;
    return v <= hi;
}

/* The integer bounds are exact doubles up to 2^53; above that (the 64-bit
 * types) max rounds up to the next power of two, which is itself out of
 * range, so the comparison becomes strict.  NaN fails both comparisons. */
static inline int fit_F_INT(double v, int64_t lo, uint64_t hi)
{
    double dhi = (double)hi;
    int under_max = hi < ((uint64_t)1 << 53) ? v <= dhi : v < dhi;
    return v >= (double)lo && under_max;
}

static inline int fit_F_F32(double v, int64_t lo, uint64_t hi)
{
    (void)lo;
    (void)hi;
    return !(v > FLT_MAX || v < -FLT_MAX) || isinf(v);
}

/* Every integer and every float value fits a float or a double. */
static inline int fit_always(int64_t lo, uint64_t hi)
{
    (void)lo;
    (void)hi;
    return 1;
}
#define fit_I_F32(v, lo, hi) fit_always(lo, hi)
#define fit_U_F32(v, lo, hi) fit_always(lo, hi)
#define fit_I_F64(v, lo, hi) fit_always(lo, hi)
#define fit_U_F64(v, lo, hi) fit_always(lo, hi)
#define fit_F_F64(v, lo, hi) fit_always(lo, hi)

/* ------------------------------------------------------------------------
 * The conversion matrix: one put and one get loop per (memory type,
 * external type) pair.  Each loop is branch-free: the value is tested, a
 * harmless stand-in (zero) is converted when it does not fit, and the
 * result is chosen between the converted bits and the fill bits.
 * ------------------------------------------------------------------------ */
typedef int (*put_fn)(unsigned char *xdst, const void *src, int64_t n,
                      uint64_t fillbits);
typedef int (*get_fn)(const unsigned char *xsrc, void *dst, int64_t n);

#define NCP_PAIR(MN, MT, MSK, MTK, MLO, MHI, MFILL, XN, XT, XB, XSK, XTK,    \
                 XLO, XHI, XFILL, X5)                                         \
    static int put_##MN##_##XN(unsigned char *xdst, const void *src,          \
                               int64_t n, uint64_t fillbits)                  \
    {                                                                         \
        const MT *s = src;                                                    \
        uint##XB##_t fb = (uint##XB##_t)fillbits;                             \
        int bad = 0;                                                          \
        for (int64_t i = 0; i < n; i++) {                                     \
            MT v = s[i];                                                      \
            int ok = fit_##MSK##_##XTK(v, XLO, XHI);                          \
            XT t = (XT)(ok ? v : (MT)0);                                      \
            uint##XB##_t u;                                                   \
            memcpy(&u, &t, sizeof u);                                         \
            u = be##XB(ok ? u : fb);                                          \
            memcpy(xdst + i * (XB / 8), &u, sizeof u);                        \
            bad |= !ok;                                                       \
        }                                                                     \
        return bad ? NC_ERANGE : NC_NOERR;                                    \
    }                                                                         \
    static int get_##MN##_##XN(const unsigned char *xsrc, void *dst,          \
                               int64_t n)                                     \
    {                                                                         \
        MT *d = dst;                                                          \
        int bad = 0;                                                          \
        for (int64_t i = 0; i < n; i++) {                                     \
            uint##XB##_t u;                                                   \
            XT t;                                                             \
            memcpy(&u, xsrc + i * (XB / 8), sizeof u);                        \
            u = be##XB(u);                                                    \
            memcpy(&t, &u, sizeof t);                                         \
            int ok = fit_##XSK##_##MTK(t, MLO, MHI);                          \
            MT v = (MT)(ok ? t : (XT)0);                                      \
            d[i] = ok ? v : (MT)(MFILL);                                      \
            bad |= !ok;                                                       \
        }                                                                     \
        return bad ? NC_ERANGE : NC_NOERR;                                    \
    }

#define NCP_ROW(MN, MT, MSK, MTK, MLO, MHI, MFILL)                            \
    NCP_XNUM(NCP_PAIR, MN, MT, MSK, MTK, MLO, MHI, MFILL)
NCP_MNUM(NCP_ROW)

#define NCP_PUT_ENTRY(MN, MT, MSK, MTK, MLO, MHI, MFILL, XN, ...)              \
    [NCP_M_##MN][NC_##XN] = put_##MN##_##XN,
#define NCP_GET_ENTRY(MN, MT, MSK, MTK, MLO, MHI, MFILL, XN, ...)              \
    [NCP_M_##MN][NC_##XN] = get_##MN##_##XN,
#define NCP_PUT_ROW(MN, MT, MSK, MTK, MLO, MHI, MFILL)                        \
    NCP_XNUM(NCP_PUT_ENTRY, MN, MT, MSK, MTK, MLO, MHI, MFILL)
#define NCP_GET_ROW(MN, MT, MSK, MTK, MLO, MHI, MFILL)                        \
    NCP_XNUM(NCP_GET_ENTRY, MN, MT, MSK, MTK, MLO, MHI, MFILL)

static const put_fn put_table[NCP_M_COUNT][XTYPE_MAX + 1] = {
    NCP_MNUM(NCP_PUT_ROW)
};
static const get_fn get_table[NCP_M_COUNT][XTYPE_MAX + 1] = {
    NCP_MNUM(NCP_GET_ROW)
};

/* ------------------------------------------------------------------------
 * Per-type facts, read from the tables.
 * ------------------------------------------------------------------------ */
enum kind { KIND_TEXT, KIND_I, KIND_U, KIND_F };

typedef struct xinfo {
    int size;       /* 0: not an external type */
    enum kind kind;
    int cdf5_only;
} xinfo;

#define NCP_XINFO(unused, XN, XT, XB, XSK, XTK, XLO, XHI, XFILL, X5)          \
    [NC_##XN] = {XB / 8, KIND_##XSK, X5},
static const xinfo xinfo_table[XTYPE_MAX + 1] = {
    [NC_CHAR] = {1, KIND_TEXT, 0},
    NCP_XNUM(NCP_XINFO, unused)
};

typedef struct minfo {
    size_t size;
    enum kind kind;
} minfo;

#define NCP_MINFO(MN, MT, MSK, MTK, MLO, MHI, MFILL)                          \
    [NCP_M_##MN] = {sizeof(MT), KIND_##MSK},
static const minfo minfo_table[NCP_M_COUNT] = {
    [NCP_M_TEXT] = {sizeof(char), KIND_TEXT},
    NCP_MNUM(NCP_MINFO)
};

static const xinfo *xinfo_of(int xtype)
{
    if (xtype < 0 || xtype > XTYPE_MAX || xinfo_table[xtype].size == 0)
        return NULL;
    return &xinfo_table[xtype];
}

size_t ncp_mtype_size(ncp_mtype mt)
{
    if ((int)mt < 0 || mt >= NCP_M_COUNT)
        return 0;
    return minfo_table[mt].size;
}

/* The memory type of the same kind and width as xtype; for NC_INT64 that
 * is long long, never long, so the answer does not depend on the ABI. */
ncp_mtype ncp_mtype_of_xtype(int xtype)
{
    static const ncp_mtype map[XTYPE_MAX + 1] = {
        [0] = NCP_M_COUNT,
        [NC_BYTE] = NCP_M_SCHAR,     [NC_CHAR] = NCP_M_TEXT,
        [NC_SHORT] = NCP_M_SHORT,    [NC_INT] = NCP_M_INT,
        [NC_FLOAT] = NCP_M_FLOAT,    [NC_DOUBLE] = NCP_M_DOUBLE,
        [NC_UBYTE] = NCP_M_UCHAR,    [NC_USHORT] = NCP_M_USHORT,
        [NC_UINT] = NCP_M_UINT,      [NC_INT64] = NCP_M_LONGLONG,
        [NC_UINT64] = NCP_M_ULONGLONG,
    };
    if (xinfo_of(xtype) == NULL)
        return NCP_M_COUNT;
    return map[xtype];
}

int ncp_xtype_size(int xtype)
{
    const xinfo *xi = xinfo_of(xtype);
    return xi == NULL ? 0 : xi->size;
}

/* Only CDF-5 knows the unsigned and 64-bit types; any format value other
 * than NCP_CDF5 is held to the classic set. */
int ncp_xtype_check(int xtype, int format)
{
    const xinfo *xi = xinfo_of(xtype);
    if (xi == NULL || (xi->cdf5_only && format != NCP_CDF5))
        return NC_EBADTYPE;
    return NC_NOERR;
}

#define NCP_FILL_CASE(unused, XN, XT, XB, XSK, XTK, XLO, XHI, XFILL, X5)       \
    case NC_##XN: {                                                           \
        XT v = (XT)(XFILL);                                                   \
        uint##XB##_t u;                                                       \
        memcpy(&u, &v, sizeof u);                                             \
        u = be##XB(u);                                                        \
        memcpy(xdst, &u, sizeof u);                                           \
        break;                                                                \
    }

void ncp_x_default_fill(int xtype, void *xdst)
{
    if (xdst == NULL)
        return;
    switch (xtype) {
    case NC_CHAR:
        *(char *)xdst = NC_FILL_CHAR;
        break;
    NCP_XNUM(NCP_FILL_CASE, unused)
    default:
        break;
    }
}

/* ------------------------------------------------------------------------
 * Entry points.
 * ------------------------------------------------------------------------ */

/* How a (memory type, external type) pair is converted. */
enum route { ROUTE_COPY, ROUTE_SWAP, ROUTE_MATRIX };

/* Checks shared by put and get; on success *route and *xsize are set.
 * Type errors come before argument errors, and NC_ECHAR is reported even
 * for n == 0 because it is a property of the call, not of the data. */
static int plan(int xtype, ncp_mtype mt, int64_t n, const void *a,
                const void *b, int format, enum route *route, int *xsize)
{
    int rc = NC_NOERR;
    const xinfo *xi = xinfo_of(xtype);

    if (xi == NULL || (int)mt < 0 || mt >= NCP_M_COUNT) {
        rc = NC_EBADTYPE;
        goto done;
    }
    rc = ncp_xtype_check(xtype, format);
    if (rc != NC_NOERR)
        goto done;
    if ((xi->kind == KIND_TEXT) != (mt == NCP_M_TEXT)) {
        rc = NC_ECHAR;
        goto done;
    }
    if (n < 0 || (n > 0 && (a == NULL || b == NULL)) ||
        (uint64_t)n > SIZE_MAX / 8) {
        rc = NC_EINVAL;
        goto done;
    }
    *xsize = xi->size;
    if (xi->kind == KIND_TEXT ||
        (format != NCP_CDF5 && xtype == NC_BYTE && mt == NCP_M_UCHAR))
        *route = ROUTE_COPY;
    else if (minfo_table[mt].kind == xi->kind &&
             minfo_table[mt].size == (size_t)xi->size)
        *route = ROUTE_SWAP;
    else
        *route = ROUTE_MATRIX;
done:
    return rc;
}

int ncp_x_put(int xtype, void *xdst, ncp_mtype mt, const void *src,
              int64_t n, const void *xfill, int format)
{
    enum route route = ROUTE_MATRIX;
    int xsize = 0;
    int rc = plan(xtype, mt, n, xdst, src, format, &route, &xsize);

    if (rc != NC_NOERR || n == 0)
        goto done;
    if (route == ROUTE_COPY) {
        if (xdst != src)
            memcpy(xdst, src, (size_t)n);
    } else if (route == ROUTE_SWAP) {
        swap_move(xdst, src, n, xsize);
    } else {
        unsigned char fill[8];
        uint64_t fillbits = 0;
        if (xfill == NULL)
            ncp_x_default_fill(xtype, fill);
        else
            memcpy(fill, xfill, (size_t)xsize);
        /* Held in host order, like the converted values it replaces. */
        if (xsize == 1) {
            fillbits = fill[0];
        } else if (xsize == 2) {
            uint16_t u;
            memcpy(&u, fill, 2);
            fillbits = be16(u);
        } else if (xsize == 4) {
            uint32_t u;
            memcpy(&u, fill, 4);
            fillbits = be32(u);
        } else {
            uint64_t u;
            memcpy(&u, fill, 8);
            fillbits = be64(u);
        }
        rc = put_table[mt][xtype](xdst, src, n, fillbits);
    }
done:
    return rc;
}

int ncp_x_get(int xtype, const void *xsrc, ncp_mtype mt, void *dst,
              int64_t n, int format)
{
    enum route route = ROUTE_MATRIX;
    int xsize = 0;
    int rc = plan(xtype, mt, n, xsrc, dst, format, &route, &xsize);

    if (rc != NC_NOERR || n == 0)
        goto done;
    if (route == ROUTE_COPY) {
        if (dst != xsrc)
            memcpy(dst, xsrc, (size_t)n);
    } else if (route == ROUTE_SWAP) {
        swap_move(dst, xsrc, n, xsize);
    } else {
        rc = get_table[mt][xtype](xsrc, dst, n);
    }
done:
    return rc;
}
