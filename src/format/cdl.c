/*
 * cdl.c -- the header part of CDL text read into an ncp_header
 * (ncp_cdl.h): a recursive-descent reader over the text, no copy of it
 * made, no MPI, no I/O.
 *
 * The grammar read, in the notation of the netCDF Users Guide's CDL
 * chapter (braces: repeated; brackets: optional; quoted: literal):
 *
 *   cdl       = "netcdf" NAME-TEXT "{" [dims] [vars | gatts] [data] "}"
 *   dims      = "dimensions:" { dim { "," dim } ";" }
 *   dim       = name "=" ( UINT | "UNLIMITED" )
 *   vars      = "variables:" { vardecl | att }
 *   gatts     = { att }                  (global attributes only)
 *   vardecl   = type var { "," var } ";"
 *   var       = name [ "(" name { "," name } ")" ]
 *   att       = [type] [name] ":" name "=" value { "," value } ";"
 *   value     = STRING | CHAR | NUMBER
 *   data      = "data:" ...              (skipped up to the closing brace)
 *
 * Keywords are lower or upper case ("dimensions:" and the like are one
 * token, the colon included, as ncgen reads them), the type words are
 * ncgen's and ncmpigen's (int = integer = long, float = real, and the
 * CDF-5 ones), `//` starts a comment to the end of the line anywhere
 * outside a string.  Names are netCDF names with ncdump's backslash
 * escapes; a leading digit needs none (ncmpidump prints it bare).  A
 * number's suffix gives its type as ncdump prints it and ncgen reads it
 * (b, s, ub, us, u, ll, ull, f, d, any case; an unsuffixed integer is the
 * first of int, uint, int64, uint64 that holds it, an unsuffixed real a
 * double; a leading 0 makes an integer octal); NaN and infinity appear as
 * ncdump prints them (NaN, Infinity, NaNf, Infinityf) and as ncmpidump
 * does (nan, inf, nanf, inff), with a sign.  'c' is a byte, as in ncgen.
 * An attribute without a type takes the widest type among its values, as
 * ncgen does: double over float over the integers, an integer by size,
 * the later one between two of one size.  A value out of its type's range
 * is an error; a real too large for its type becomes infinity, as in
 * ncgen.
 *
 * Invariants:
 *  1. Every loop consumes at least one byte or returns, and every read of
 *     the text is bounded by its end: truncated or hostile text gives
 *     NC_ENOTNC, never a read past it.
 *  2. A truncated text fails on the missing token, before any check of
 *     what it declares: a name is looked up or added only once the token
 *     after it has been read.
 *  3. What is added goes through the builders of ncp_header_build.h, so
 *     the result keeps the header model's invariants (one unlimited
 *     dimension, only first in a variable, unique names).
 *  4. Scratch buffers grow with what was read, so memory stays a small
 *     multiple of the text's length.
 */
#include <locale.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <pnetcdf.h>

#include "ncp_cdl.h"
#include "ncp_header_build.h"
#include "ncp_name.h"
#include "ncp_xconv.h"

/* One value of an attribute as written: its type by its form, and its
 * number (strings keep their bytes in the parser's chars buffer). */
typedef struct cdl_lit {
    int xtype;    /* NC_CHAR for a string; the type its form gives */
    int neg;      /* integers: the sign */
    uint64_t mag; /* integers: the magnitude */
    double d;     /* reals: the value (a float one already rounded) */
} cdl_lit;

typedef struct cdl {
    const char *p;   /* next unread byte */
    const char *end; /* one past the last byte */
    ncp_header *h;
    int preamble;    /* 1 until the first section: the format comment's place */
    int fmt_comment; /* 0, or N of "// file format: CDF-N" */
    int fmt_attr;    /* 0, or the format `_Format` names */
    char w1[NC_MAX_NAME + 1]; /* names being read */
    char w2[NC_MAX_NAME + 1];
    cdl_lit *lits; /* the values of the attribute being read */
    size_t nlits, lits_cap;
    char *chars; /* its string bytes */
    size_t nchars, chars_cap;
    int *dimids; /* the dimensions of the variable being read */
    size_t ndimids, dimids_cap;
    unsigned char *native, *xvalue; /* its values, native then external */
    size_t native_cap, xvalue_cap;
} cdl;

enum { KW_NONE, KW_DIMENSIONS, KW_VARIABLES, KW_DATA };

/* The type words; upper case is accepted for each as well. */
static const struct {
    const char *word;
    int xtype;
} cdl_types[] = {
    {"char", NC_CHAR},   {"byte", NC_BYTE},     {"short", NC_SHORT},
    {"int", NC_INT},     {"integer", NC_INT},   {"long", NC_INT},
    {"float", NC_FLOAT}, {"real", NC_FLOAT},    {"double", NC_DOUBLE},
    {"ubyte", NC_UBYTE}, {"ushort", NC_USHORT}, {"uint", NC_UINT},
    {"int64", NC_INT64}, {"uint64", NC_UINT64},
};

/* The values of `_Format` ncdump -s prints, and ncgen's other names for
 * the three classic formats. */
static const struct {
    const char *name;
    int format;
} cdl_formats[] = {
    {"classic", NCP_CDF1},
    {"1", NCP_CDF1},
    {"64-bit offset", NCP_CDF2},
    {"64-bit-offset", NCP_CDF2},
    {"2", NCP_CDF2},
    {"cdf5", NCP_CDF5},
    {"cdf-5", NCP_CDF5},
    {"64-bit data", NCP_CDF5},
    {"64-bit-data", NCP_CDF5},
    {"5", NCP_CDF5},
};

/* An integer suffix (lower-cased) and the type it gives. */
static const struct {
    const char *suffix;
    int xtype;
} cdl_int_suffixes[] = {
    {"b", NC_BYTE},    {"s", NC_SHORT},  {"l", NC_INT},
    {"u", NC_UINT},    {"ul", NC_UINT},  {"ub", NC_UBYTE},
    {"us", NC_USHORT}, {"ll", NC_INT64}, {"ull", NC_UINT64},
};

/* The words of NaN and infinity (lower-cased), and their types. */
static const struct {
    const char *word;
    int xtype;
    int is_nan;
} cdl_specials[] = {
    {"nan", NC_DOUBLE, 1},      {"nanf", NC_FLOAT, 1},
    {"inf", NC_DOUBLE, 0},      {"inff", NC_FLOAT, 0},
    {"infinity", NC_DOUBLE, 0}, {"infinityf", NC_FLOAT, 0},
};

#define NELEMS(a) (sizeof(a) / sizeof((a)[0]))

/* ---------------------------------------------------------------- bytes */

static int is_space(int ch)
{
    return ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r' || ch == '\f' ||
           ch == '\v';
}

static int is_digit(int ch)
{
    return ch >= '0' && ch <= '9';
}

static int is_alpha(int ch)
{
    return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z');
}

static int to_lower(int ch)
{
    return ch >= 'A' && ch <= 'Z' ? ch - 'A' + 'a' : ch;
}

/* A byte that may begin a name unescaped: a letter, a digit, '_' or a
 * byte of a non-ASCII character. */
static int name_start(int ch)
{
    return is_alpha(ch) || is_digit(ch) || ch == '_' || ch >= 0x80;
}

/* A byte that may continue a name unescaped (ncdump escapes the rest). */
static int name_char(int ch)
{
    return name_start(ch) || ch == '.' || ch == '+' || ch == '-' || ch == '@' ||
           ch == '#';
}

/* s (n bytes) is word, or word in upper case. */
static int same_word(const char *s, size_t n, const char *word)
{
    size_t i;
    int lower = 1, upper = 1;
    if (strlen(word) != n) return 0;
    for (i = 0; i < n; i++) {
        int w = (unsigned char)word[i];
        int u = w >= 'a' && w <= 'z' ? w - 'a' + 'A' : w;
        if ((unsigned char)s[i] != w) lower = 0;
        if ((unsigned char)s[i] != u) upper = 0;
    }
    return lower || upper;
}

/* Grow *buf (elements of elsize bytes) to hold at least need. */
static int grow(void **buf, size_t *cap, size_t need, size_t elsize)
{
    size_t ncap;
    void *nb;
    if (need <= *cap) return NC_NOERR;
    ncap = *cap < 16 ? 16 : *cap;
    while (ncap < need) {
        if (ncap > SIZE_MAX / 2 / elsize) return NC_ENOMEM;
        ncap *= 2;
    }
    nb = realloc(*buf, ncap * elsize);
    if (nb == NULL) return NC_ENOMEM;
    *buf = nb;
    *cap = ncap;
    return NC_NOERR;
}

/* ------------------------------------------------------------- comments */

/* The comment text q..eol, read in the preamble: "file format: CDF-N"
 * sets the format when N is 1, 2 or 5 and is an error for any other N,
 * as in PnetCDF's reader; any other comment says nothing. */
static int format_comment(cdl *c, const char *q, const char *eol)
{
    static const char lead[] = "file format:";
    static const char cdf[] = "CDF-";
    while (q < eol && (*q == ' ' || *q == '\t'))
        q++;
    if ((size_t)(eol - q) < sizeof lead - 1 ||
        memcmp(q, lead, sizeof lead - 1) != 0)
        return NC_NOERR;
    q += sizeof lead - 1;
    while (q < eol && (*q == ' ' || *q == '\t'))
        q++;
    if ((size_t)(eol - q) < sizeof cdf - 1 ||
        memcmp(q, cdf, sizeof cdf - 1) != 0)
        return NC_NOERR;
    q += sizeof cdf - 1;
    if (q == eol || (*q != '1' && *q != '2' && *q != '5')) return NC_ENOTNC;
    if (c->fmt_comment == 0) c->fmt_comment = *q - '0';
    return NC_NOERR;
}

/* Skip white space and comments. */
static int skip(cdl *c)
{
    int err;
    for (;;) {
        while (c->p < c->end && is_space((unsigned char)*c->p))
            c->p++;
        if (c->end - c->p >= 2 && c->p[0] == '/' && c->p[1] == '/') {
            const char *q = c->p + 2;
            const char *eol = memchr(q, '\n', (size_t)(c->end - q));
            if (eol == NULL) eol = c->end;
            if (c->preamble && (err = format_comment(c, q, eol)) != NC_NOERR)
                return err;
            c->p = eol;
            continue;
        }
        return NC_NOERR;
    }
}

/* Skip, then the next byte must be there. */
static int skip_more(cdl *c)
{
    int err = skip(c);
    if (err == NC_NOERR && c->p == c->end) err = NC_ENOTNC;
    return err;
}

/* ---------------------------------------------------------------- names */

/* Read a name into out (NUL-terminated), undoing backslash escapes. */
static int read_name(cdl *c, char *out)
{
    size_t n = 0;
    if (c->p == c->end || !(name_start((unsigned char)*c->p) || *c->p == '\\'))
        return NC_ENOTNC;
    while (c->p < c->end) {
        unsigned char b = (unsigned char)*c->p;
        if (b == '\\') {
            if (c->end - c->p < 2) return NC_ENOTNC;
            b = (unsigned char)c->p[1];
            c->p += 2;
        } else if (name_char(b)) {
            c->p++;
        } else {
            break;
        }
        if (n == NC_MAX_NAME) return NC_ENOTNC;
        out[n++] = (char)b;
    }
    out[n] = '\0';
    return NC_NOERR;
}

/* The stored (NFC) form of a name to add: NC_ENOTNC for one no classic
 * file can hold. */
static int define_name(const char *name, char **nfc)
{
    int err = ncp_name_for_define(name, nfc);
    return err == NC_ENOMEM ? err : (err != NC_NOERR ? NC_ENOTNC : err);
}

/* The variable named name, or -1. */
static int find_var(cdl *c, const char *name, int *varid)
{
    char *owned = NULL;
    const char *key;
    int err = ncp_name_for_lookup(name, &owned, &key);
    *varid = -1;
    if (err == NC_NOERR) *varid = ncp_hdr_find_var(c->h, key);
    free(owned);
    return err == NC_ENOMEM ? err : NC_NOERR;
}

static int type_of(const char *word)
{
    size_t i, n = strlen(word);
    for (i = 0; i < NELEMS(cdl_types); i++)
        if (same_word(word, n, cdl_types[i].word)) return cdl_types[i].xtype;
    return NC_NAT;
}

/* A section keyword at c->p (the word and its colon, no space between). */
static int keyword(cdl *c)
{
    static const char *const words[] = {"dimensions", "variables", "data"};
    static const int kws[] = {KW_DIMENSIONS, KW_VARIABLES, KW_DATA};
    size_t i;
    for (i = 0; i < NELEMS(words); i++) {
        size_t n = strlen(words[i]);
        if ((size_t)(c->end - c->p) > n && c->p[n] == ':' &&
            same_word(c->p, n, words[i])) {
            c->p += n + 1;
            return kws[i];
        }
    }
    return KW_NONE;
}

/* -------------------------------------------------------------- values */

/* C's named escapes: the letter, and the byte at the same place. */
static const char cdl_escapes[] = "abfnrtv";
static const char cdl_escaped[] = "\a\b\f\n\r\t\v";

/* The byte an escape stands for; c->p is at the backslash.  C's escapes,
 * octal \ooo and hex \xhh; any other character stands for itself. */
static int unescape(cdl *c, unsigned char *out)
{
    int e, v = 0, k;
    const char *named;
    if (c->end - c->p < 2) return NC_ENOTNC;
    e = (unsigned char)c->p[1];
    c->p += 2;
    named = strchr(cdl_escapes, e);
    if (e != '\0' && named != NULL) {
        *out = (unsigned char)cdl_escaped[named - cdl_escapes];
        return NC_NOERR;
    }
    if (e == 'x' || e == 'X') {
        for (k = 0; k < 2 && c->p < c->end; k++, c->p++) {
            int h = to_lower((unsigned char)*c->p);
            if (is_digit(h))
                v = v * 16 + (h - '0');
            else if (h >= 'a' && h <= 'f')
                v = v * 16 + (h - 'a' + 10);
            else
                break;
        }
        if (k == 0) return NC_ENOTNC;
        *out = (unsigned char)v;
        return NC_NOERR;
    }
    if (e >= '0' && e <= '7') {
        v = e - '0';
        for (k = 1; k < 3 && c->p < c->end && *c->p >= '0' && *c->p <= '7';
             k++, c->p++)
            v = v * 8 + (*c->p - '0');
        if (v > 0xff) return NC_ENOTNC;
        *out = (unsigned char)v;
        return NC_NOERR;
    }
    *out = (unsigned char)e;
    return NC_NOERR;
}

static int push_lit(cdl *c, const cdl_lit *l)
{
    int err =
        grow((void **)&c->lits, &c->lits_cap, c->nlits + 1, sizeof *c->lits);
    if (err == NC_NOERR) c->lits[c->nlits++] = *l;
    return err;
}

/* A string: its bytes go to c->chars. */
static int read_string(cdl *c)
{
    int err;
    cdl_lit l = {NC_CHAR, 0, 0, 0.0};
    c->p++; /* the opening quote */
    while (c->p < c->end && *c->p != '"') {
        unsigned char b = (unsigned char)*c->p;
        if (b == '\\') {
            if ((err = unescape(c, &b)) != NC_NOERR) return err;
        } else {
            c->p++;
        }
        if ((err = grow((void **)&c->chars, &c->chars_cap, c->nchars + 1, 1)) !=
            NC_NOERR)
            return err;
        c->chars[c->nchars++] = (char)b;
    }
    if (c->p == c->end) return NC_ENOTNC;
    c->p++;
    return push_lit(c, &l);
}

/* 'c': a byte, as ncgen reads it. */
static int read_char(cdl *c)
{
    int err;
    unsigned char b;
    signed char s;
    cdl_lit l = {NC_BYTE, 0, 0, 0.0};
    c->p++;
    if (c->p == c->end) return NC_ENOTNC;
    if (*c->p == '\\') {
        if ((err = unescape(c, &b)) != NC_NOERR) return err;
    } else {
        b = (unsigned char)*c->p++;
    }
    if (c->p == c->end || *c->p != '\'') return NC_ENOTNC;
    c->p++;
    s = (signed char)b;
    l.neg = s < 0;
    l.mag = (uint64_t)(s < 0 ? -(int)s : s);
    return push_lit(c, &l);
}

/* Integer l as an int64 in [lo, hi]. */
static int int_fits(const cdl_lit *l, int64_t lo, int64_t hi, int64_t *v)
{
    if (l->neg) {
        if (l->mag > (uint64_t)INT64_MAX + 1) return 0;
        *v = l->mag == (uint64_t)INT64_MAX + 1 ? INT64_MIN : -(int64_t)l->mag;
    } else {
        if (l->mag > (uint64_t)INT64_MAX) return 0;
        *v = (int64_t)l->mag;
    }
    return *v >= lo && *v <= hi;
}

/* Integer l as a uint64 in [0, hi]. */
static int uint_fits(const cdl_lit *l, uint64_t hi, uint64_t *v)
{
    if (l->neg && l->mag != 0) return 0;
    *v = l->mag;
    return *v <= hi;
}

static int is_real(int xtype)
{
    return xtype == NC_FLOAT || xtype == NC_DOUBLE;
}

/*
 * Store literal l as one element of xtype, native, at dst.  An integer
 * type takes integers in its range; a real type takes any number, a real
 * too large for it becoming infinity.  NC_ENOTNC otherwise.
 */
static int lit_store(const cdl_lit *l, int xtype, void *dst)
{
    int64_t s = 0;
    uint64_t u = 0;
    int ok = !is_real(l->xtype) && l->xtype != NC_CHAR;
    switch (xtype) {
    case NC_BYTE:
        if (!(ok && int_fits(l, INT8_MIN, INT8_MAX, &s))) return NC_ENOTNC;
        *(signed char *)dst = (signed char)s;
        break;
    case NC_SHORT:
        if (!(ok && int_fits(l, INT16_MIN, INT16_MAX, &s))) return NC_ENOTNC;
        *(short *)dst = (short)s;
        break;
    case NC_INT:
        if (!(ok && int_fits(l, INT32_MIN, INT32_MAX, &s))) return NC_ENOTNC;
        *(int *)dst = (int)s;
        break;
    case NC_INT64:
        if (!(ok && int_fits(l, INT64_MIN, INT64_MAX, &s))) return NC_ENOTNC;
        *(long long *)dst = (long long)s;
        break;
    case NC_UBYTE:
        if (!(ok && uint_fits(l, UINT8_MAX, &u))) return NC_ENOTNC;
        *(unsigned char *)dst = (unsigned char)u;
        break;
    case NC_USHORT:
        if (!(ok && uint_fits(l, UINT16_MAX, &u))) return NC_ENOTNC;
        *(unsigned short *)dst = (unsigned short)u;
        break;
    case NC_UINT:
        if (!(ok && uint_fits(l, UINT32_MAX, &u))) return NC_ENOTNC;
        *(unsigned int *)dst = (unsigned int)u;
        break;
    case NC_UINT64:
        if (!(ok && uint_fits(l, UINT64_MAX, &u))) return NC_ENOTNC;
        *(unsigned long long *)dst = (unsigned long long)u;
        break;
    case NC_FLOAT:
        if (l->xtype == NC_CHAR) return NC_ENOTNC;
        if (ok)
            *(float *)dst = l->neg ? -(float)l->mag : (float)l->mag;
        else
            *(float *)dst = (float)l->d;
        break;
    case NC_DOUBLE:
        if (l->xtype == NC_CHAR) return NC_ENOTNC;
        if (ok)
            *(double *)dst = l->neg ? -(double)l->mag : (double)l->mag;
        else
            *(double *)dst = l->d;
        break;
    default:
        return NC_ENOTNC;
    }
    return NC_NOERR;
}

/* The n bytes at s as a real, whatever the C library's locale calls the
 * decimal point. */
static int to_real(const char *s, size_t n, int is_float, double *d)
{
    char buf[512];
    const char *dp = localeconv()->decimal_point;
    size_t dpl = dp && *dp ? strlen(dp) : 1, i, k = 0;
    char *endp;
    for (i = 0; i < n; i++) {
        if (s[i] == '.' && dp && *dp && strcmp(dp, ".") != 0) {
            if (k + dpl >= sizeof buf) return NC_ENOTNC;
            memcpy(buf + k, dp, dpl);
            k += dpl;
        } else {
            if (k + 1 >= sizeof buf) return NC_ENOTNC;
            buf[k++] = s[i];
        }
    }
    buf[k] = '\0';
    if (is_float)
        *d = (double)strtof(buf, &endp);
    else
        *d = strtod(buf, &endp);
    return *endp == '\0' ? NC_NOERR : NC_ENOTNC;
}

/* A number (or NaN, infinity) at c->p. */
static int read_number(cdl *c)
{
    const char *q = c->p, *num, *sfx;
    char word[12];
    size_t n, i;
    int real = 0, err;
    cdl_lit l = {NC_NAT, 0, 0, 0.0};
    unsigned char scratch[8];

    if (q < c->end && (*q == '+' || *q == '-')) l.neg = *q++ == '-';
    num = q;
    if (q < c->end && is_alpha((unsigned char)*q)) {
        for (n = 0; q < c->end && is_alpha((unsigned char)*q); q++, n++)
            if (n < sizeof word - 1) word[n] = (char)to_lower(*q);
        if (n >= sizeof word) return NC_ENOTNC;
        word[n] = '\0';
        for (i = 0; i < NELEMS(cdl_specials); i++)
            if (strcmp(word, cdl_specials[i].word) == 0) break;
        if (i == NELEMS(cdl_specials)) return NC_ENOTNC;
        l.xtype = cdl_specials[i].xtype;
        l.d = cdl_specials[i].is_nan ? (double)NAN : (double)INFINITY;
        if (l.neg) l.d = -l.d;
        l.neg = 0;
        c->p = q;
        return push_lit(c, &l);
    }
    for (n = 0; q < c->end && is_digit((unsigned char)*q); q++)
        n++;
    if (q < c->end && *q == '.') {
        real = 1;
        for (q++; q < c->end && is_digit((unsigned char)*q); q++)
            n++;
    }
    if (n == 0) return NC_ENOTNC;
    if (q < c->end && (*q == 'e' || *q == 'E')) {
        real = 1;
        q++;
        if (q < c->end && (*q == '+' || *q == '-')) q++;
        if (q == c->end || !is_digit((unsigned char)*q)) return NC_ENOTNC;
        while (q < c->end && is_digit((unsigned char)*q))
            q++;
    }
    sfx = q;
    for (n = 0; q < c->end && is_alpha((unsigned char)*q); q++, n++)
        if (n < sizeof word - 1) word[n] = (char)to_lower(*q);
    if (n >= 4) return NC_ENOTNC;
    word[n] = '\0';

    if (real) {
        if (n == 0 || strcmp(word, "d") == 0)
            l.xtype = NC_DOUBLE;
        else if (strcmp(word, "f") == 0)
            l.xtype = NC_FLOAT;
        else
            return NC_ENOTNC;
        if ((err = to_real(c->p, (size_t)(sfx - c->p), l.xtype == NC_FLOAT,
                           &l.d)) != NC_NOERR)
            return err;
        l.neg = 0;
    } else {
        const char *d;
        uint64_t base = (sfx - num > 1 && *num == '0') ? 8 : 10;
        for (d = num; d < sfx; d++) {
            uint64_t digit = (uint64_t)(*d - '0');
            if (digit >= base) return NC_ENOTNC;
            if (l.mag > (UINT64_MAX - digit) / base) return NC_ENOTNC;
            l.mag = l.mag * base + digit;
        }
        if (n == 0) {
            int64_t s;
            uint64_t u;
            if (int_fits(&l, INT32_MIN, INT32_MAX, &s))
                l.xtype = NC_INT;
            else if (uint_fits(&l, UINT32_MAX, &u))
                l.xtype = NC_UINT;
            else if (int_fits(&l, INT64_MIN, INT64_MAX, &s))
                l.xtype = NC_INT64;
            else
                l.xtype = NC_UINT64;
        } else {
            for (i = 0; i < NELEMS(cdl_int_suffixes); i++)
                if (strcmp(word, cdl_int_suffixes[i].suffix) == 0) break;
            if (i == NELEMS(cdl_int_suffixes)) return NC_ENOTNC;
            l.xtype = cdl_int_suffixes[i].xtype;
        }
        /* The value must fit the type its own form gives. */
        if ((err = lit_store(&l, l.xtype, scratch)) != NC_NOERR) return err;
    }
    c->p = q;
    return push_lit(c, &l);
}

/* The type of an attribute written without one: strings are text; else
 * the widest of the numbers' types. */
static int infer_type(const cdl *c, int *xtype)
{
    size_t i, nstr = 0;
    int t = NC_NAT, reals = NC_NAT;
    for (i = 0; i < c->nlits; i++) {
        int x = c->lits[i].xtype;
        if (x == NC_CHAR)
            nstr++;
        else if (x == NC_DOUBLE)
            reals = NC_DOUBLE;
        else if (x == NC_FLOAT && reals != NC_DOUBLE)
            reals = NC_FLOAT;
        else if (!is_real(x) &&
                 (t == NC_NAT || ncp_xtype_size(x) >= ncp_xtype_size(t)))
            t = x;
    }
    if (nstr > 0) {
        *xtype = NC_CHAR;
        return nstr == c->nlits ? NC_NOERR : NC_ENOTNC;
    }
    *xtype = reals != NC_NAT ? reals : t;
    return NC_NOERR;
}

/* ----------------------------------------------------------- statements */

/* `_Format = "..."`: the format it names. */
static int set_format(cdl *c)
{
    size_t i;
    if (c->fmt_attr != 0) return NC_ENOTNC; /* said twice */
    for (i = 0; i < NELEMS(cdl_formats); i++)
        if (strlen(cdl_formats[i].name) == c->nchars &&
            memcmp(cdl_formats[i].name, c->chars, c->nchars) == 0) {
            c->fmt_attr = cdl_formats[i].format;
            return NC_NOERR;
        }
    return NC_ENOTNC;
}

/* The values read for attribute c->w1 of varid become an attribute of
 * type xtype (NC_NAT: as the values say). */
static int add_attribute(cdl *c, int varid, int xtype)
{
    ncp_attlist *list =
        varid == NC_GLOBAL ? &c->h->gatts : &c->h->vars[varid].atts;
    char *nfc = NULL;
    const void *xv = c->chars;
    int64_t nelems = (int64_t)c->nchars;
    size_t i, xs;
    int err = NC_NOERR;

    if (xtype == NC_NAT) {
        if ((err = infer_type(c, &xtype)) != NC_NOERR) goto done;
    } else {
        for (i = 0; i < c->nlits; i++)
            if ((c->lits[i].xtype == NC_CHAR) != (xtype == NC_CHAR)) {
                err = NC_ENOTNC;
                goto done;
            }
    }
    if (varid == NC_GLOBAL && strcmp(c->w1, "_Format") == 0) {
        err = xtype == NC_CHAR ? set_format(c) : NC_ENOTNC;
        goto done;
    }
    if (xtype != NC_CHAR) {
        xs = (size_t)ncp_xtype_size(xtype);
        nelems = (int64_t)c->nlits;
        if ((err = grow((void **)&c->native, &c->native_cap, c->nlits * xs,
                        1)) != NC_NOERR ||
            (err = grow((void **)&c->xvalue, &c->xvalue_cap, c->nlits * xs,
                        1)) != NC_NOERR)
            goto done;
        for (i = 0; i < c->nlits; i++)
            if ((err = lit_store(&c->lits[i], xtype, c->native + i * xs)) !=
                NC_NOERR)
                goto done;
        ncp_x_swap_copy(c->xvalue, c->native, nelems, (int)xs);
        xv = c->xvalue;
    }
    if ((err = define_name(c->w1, &nfc)) != NC_NOERR) goto done;
    if (ncp_hdr_find_att(list, nfc) >= 0) {
        err = NC_ENOTNC;
        goto done;
    }
    err = ncp_hdr_add_att(list, nfc, xtype, nelems, nelems > 0 ? xv : NULL);
    if (err != NC_NOERR && err != NC_ENOMEM) err = NC_ENOTNC;
done:
    free(nfc);
    return err;
}

/* `[type] [var]:name = value, ... ;` from the colon on; varid is the
 * variable's (NC_GLOBAL for none), xtype the type written (NC_NAT for
 * none). */
static int attribute(cdl *c, int varid, int xtype)
{
    int err;
    c->p++; /* the colon */
    c->nlits = c->nchars = 0;
    if ((err = skip_more(c)) != NC_NOERR ||
        (err = read_name(c, c->w1)) != NC_NOERR ||
        (err = skip_more(c)) != NC_NOERR)
        return err;
    if (*c->p != '=') return NC_ENOTNC;
    c->p++;
    for (;;) {
        if ((err = skip_more(c)) != NC_NOERR) return err;
        if (*c->p == '"')
            err = read_string(c);
        else if (*c->p == '\'')
            err = read_char(c);
        else
            err = read_number(c);
        if (err != NC_NOERR || (err = skip_more(c)) != NC_NOERR) return err;
        if (*c->p == ';') break;
        if (*c->p != ',') return NC_ENOTNC;
        c->p++;
    }
    c->p++;
    return add_attribute(c, varid, xtype);
}

/* `type name[(dim, ...)], ... ;` from the first name, already in c->w2. */
static int var_decl(cdl *c, int xtype)
{
    int err, id;
    char *nfc = NULL;
    for (;;) {
        c->ndimids = 0;
        if (*c->p == '(') {
            c->p++;
            for (;;) {
                char *owned = NULL;
                const char *key;
                if ((err = skip_more(c)) != NC_NOERR ||
                    (err = read_name(c, c->w1)) != NC_NOERR ||
                    (err = skip_more(c)) != NC_NOERR)
                    return err;
                if (*c->p != ',' && *c->p != ')') return NC_ENOTNC;
                err = ncp_name_for_lookup(c->w1, &owned, &key);
                if (err == NC_ENOMEM) return err;
                id = err == NC_NOERR ? ncp_hdr_find_dim(c->h, key) : -1;
                free(owned);
                if (id < 0) return NC_EBADDIM;
                if ((err = grow((void **)&c->dimids, &c->dimids_cap,
                                c->ndimids + 1, sizeof(int))) != NC_NOERR)
                    return err;
                c->dimids[c->ndimids++] = id;
                if (*c->p++ == ')') break;
            }
            if ((err = skip_more(c)) != NC_NOERR) return err;
        }
        if (*c->p != ',' && *c->p != ';') return NC_ENOTNC;
        if ((err = define_name(c->w2, &nfc)) != NC_NOERR) return err;
        if (ncp_hdr_find_var(c->h, nfc) >= 0)
            err = NC_ENOTNC;
        else if (c->ndimids > (size_t)NC_MAX_VAR_DIMS)
            err = NC_ENOTNC;
        else
            err = ncp_hdr_add_var(c->h, nfc, xtype, (int)c->ndimids, c->dimids,
                                  NULL);
        free(nfc);
        nfc = NULL;
        if (err != NC_NOERR) return err == NC_ENOMEM ? err : NC_ENOTNC;
        if (*c->p++ == ';') return NC_NOERR;
        if ((err = skip_more(c)) != NC_NOERR ||
            (err = read_name(c, c->w2)) != NC_NOERR ||
            (err = skip_more(c)) != NC_NOERR)
            return err;
    }
}

/* `name = length | UNLIMITED, ... ;` */
static int dim_decl(cdl *c)
{
    int err;
    char *nfc = NULL;
    for (;;) {
        int64_t len = 0;
        if ((err = read_name(c, c->w1)) != NC_NOERR ||
            (err = skip_more(c)) != NC_NOERR)
            return err;
        if (*c->p != '=') return NC_ENOTNC;
        c->p++;
        if ((err = skip_more(c)) != NC_NOERR) return err;
        if (is_digit((unsigned char)*c->p)) {
            for (; c->p < c->end && is_digit((unsigned char)*c->p); c->p++) {
                int digit = *c->p - '0';
                if (len > (INT64_MAX - digit) / 10) return NC_ENOTNC;
                len = len * 10 + digit;
            }
        } else {
            const char *w = c->p;
            while (c->p < c->end &&
                   (is_alpha((unsigned char)*c->p) || *c->p == '_'))
                c->p++;
            if (!same_word(w, (size_t)(c->p - w), "unlimited") &&
                !same_word(w, (size_t)(c->p - w), "NC_UNLIMITED"))
                return NC_ENOTNC;
        }
        if ((err = skip_more(c)) != NC_NOERR) return err;
        if (*c->p != ',' && *c->p != ';') return NC_ENOTNC;
        if ((err = define_name(c->w1, &nfc)) != NC_NOERR) return err;
        if (ncp_hdr_find_dim(c->h, nfc) >= 0)
            err = NC_ENOTNC;
        else
            err = ncp_hdr_add_dim(c->h, nfc, len, NULL);
        free(nfc);
        nfc = NULL;
        if (err != NC_NOERR) return err == NC_ENOMEM ? err : NC_ENOTNC;
        if (*c->p++ == ';') return NC_NOERR;
        if ((err = skip_more(c)) != NC_NOERR) return err;
    }
}

/*
 * A declaration in the variables section (vars_allowed) or in a list of
 * global attributes.  A word followed by a colon is a variable's when
 * such a variable exists (ncdump does not escape a variable named like a
 * type), else a type's; a type and a name then are a declaration, or,
 * with a colon, that variable's typed attribute.
 */
static int statement(cdl *c, int vars_allowed)
{
    int err, xtype, varid;
    if (*c->p == ':') return attribute(c, NC_GLOBAL, NC_NAT);
    if ((err = read_name(c, c->w1)) != NC_NOERR ||
        (err = skip_more(c)) != NC_NOERR)
        return err;
    xtype = type_of(c->w1);
    if (*c->p == ':') {
        if ((err = find_var(c, c->w1, &varid)) != NC_NOERR) return err;
        if (varid >= 0) return attribute(c, varid, NC_NAT);
        return xtype != NC_NAT ? attribute(c, NC_GLOBAL, xtype) : NC_ENOTNC;
    }
    if (xtype == NC_NAT) return NC_ENOTNC;
    if ((err = read_name(c, c->w2)) != NC_NOERR ||
        (err = skip_more(c)) != NC_NOERR)
        return err;
    if (*c->p == ':') {
        if ((err = find_var(c, c->w2, &varid)) != NC_NOERR) return err;
        return varid >= 0 ? attribute(c, varid, xtype) : NC_ENOTNC;
    }
    return vars_allowed ? var_decl(c, xtype) : NC_ENOTNC;
}

/* The data section, up to (not past) the closing brace: strings and
 * character constants may hold a brace. */
static int skip_data(cdl *c)
{
    int err;
    unsigned char b;
    for (;;) {
        if ((err = skip_more(c)) != NC_NOERR) return err;
        switch (*c->p) {
        case '}':
            return NC_NOERR;
        case '"':
            for (c->p++; c->p < c->end && *c->p != '"';)
                if (*c->p == '\\') {
                    if ((err = unescape(c, &b)) != NC_NOERR) return err;
                } else {
                    c->p++;
                }
            if (c->p == c->end) return NC_ENOTNC;
            c->p++;
            break;
        case '\'':
            c->nlits = 0;
            if ((err = read_char(c)) != NC_NOERR) return err;
            break;
        default:
            c->p++;
        }
    }
}

/* "netcdf NAME {": the name is any text up to the brace. */
static int signature(cdl *c)
{
    static const char *const words[] = {"netcdf", "NETCDF", "netCDF"};
    const char *brace, *q;
    size_t i;
    int err;
    if ((err = skip_more(c)) != NC_NOERR) return err;
    for (i = 0; i < NELEMS(words); i++)
        if ((size_t)(c->end - c->p) > 6 && memcmp(c->p, words[i], 6) == 0)
            break;
    if (i == NELEMS(words) || !is_space((unsigned char)c->p[6]))
        return NC_ENOTNC;
    c->p += 6;
    brace = memchr(c->p, '{', (size_t)(c->end - c->p));
    if (brace == NULL) return NC_ENOTNC;
    for (q = c->p; q < brace && is_space((unsigned char)*q); q++)
        ;
    if (q == brace) return NC_ENOTNC;
    c->p = brace + 1;
    return NC_NOERR;
}

/* Which format: `_Format`, else the comment, else the first of CDF-1,
 * CDF-2, CDF-5 that holds the types and the dimensions' lengths, which
 * must fit the format chosen. */
static int settle_format(cdl *c)
{
    ncp_header *h = c->h;
    int i, j, need = NCP_CDF1, fmt;
    for (i = 0; i < h->gatts.n; i++)
        if (h->gatts.a[i].xtype > NC_DOUBLE) need = NCP_CDF5;
    for (i = 0; i < h->nvars; i++) {
        if (h->vars[i].xtype > NC_DOUBLE) need = NCP_CDF5;
        for (j = 0; j < h->vars[i].atts.n; j++)
            if (h->vars[i].atts.a[j].xtype > NC_DOUBLE) need = NCP_CDF5;
    }
    for (i = 0; i < h->ndims; i++) {
        if (h->dims[i].len > ncp_dim_max_len(NCP_CDF2))
            need = NCP_CDF5;
        else if (h->dims[i].len > ncp_dim_max_len(NCP_CDF1) && need == NCP_CDF1)
            need = NCP_CDF2;
    }
    fmt = c->fmt_attr ? c->fmt_attr : c->fmt_comment ? c->fmt_comment : need;
    /* NCP_CDF1 < NCP_CDF2 < NCP_CDF5, each holding what the last does. */
    if (fmt < need) return NC_ENOTNC;
    h->format = fmt;
    return NC_NOERR;
}

static int parse(cdl *c)
{
    enum { TOP, DIMS, VARS, GATTS } state = TOP;
    int err, kw;

    if (memchr(c->p, '\0', (size_t)(c->end - c->p)) != NULL) return NC_ENOTNC;
    if ((err = signature(c)) != NC_NOERR) return err;
    for (;;) {
        if ((err = skip_more(c)) != NC_NOERR) return err;
        if (*c->p == '}') break;
        kw = keyword(c);
        c->preamble = 0;
        if (kw == KW_DIMENSIONS) {
            if (state != TOP) return NC_ENOTNC;
            state = DIMS;
        } else if (kw == KW_VARIABLES) {
            if (state != TOP && state != DIMS) return NC_ENOTNC;
            state = VARS;
        } else if (kw == KW_DATA) {
            if ((err = skip_data(c)) != NC_NOERR) return err;
        } else if (state == VARS || state == GATTS) {
            if ((err = statement(c, state == VARS)) != NC_NOERR) return err;
        } else if (*c->p == ':') {
            state = GATTS;
            if ((err = statement(c, 0)) != NC_NOERR) return err;
        } else if (state == DIMS) {
            if ((err = dim_decl(c)) != NC_NOERR) return err;
        } else {
            return NC_ENOTNC;
        }
    }
    c->p++; /* the closing brace; only comments may follow */
    if ((err = skip(c)) != NC_NOERR) return err;
    if (c->p != c->end) return NC_ENOTNC;
    return settle_format(c);
}

int ncp_cdl_parse(const char *text, size_t len, ncp_header *h)
{
    cdl c;
    int err;

    memset(&c, 0, sizeof c);
    ncp_header_init(h, NCP_CDF5); /* every type allowed until the end */
    if (text == NULL) return NC_ENOTNC;
    c.p = text;
    c.end = text + len;
    c.h = h;
    c.preamble = 1;
    err = parse(&c);
    if (err != NC_NOERR) ncp_header_free(h);
    free(c.lits);
    free(c.chars);
    free(c.dimids);
    free(c.native);
    free(c.xvalue);
    return err;
}
