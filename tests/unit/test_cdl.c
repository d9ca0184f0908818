/*
 * test_cdl.c -- unit tests of the CDL header reader (src/format/cdl.c)
 * and of the cdl_hdr_* API over it (src/api/cdl_hdr.c).  No MPI call is made.
 *
 * The reader: every type word, every literal form ncdump, ncmpidump and
 * ncgen write (suffixes, octal, NaN and infinity, character constants,
 * string escapes), the type an untyped list takes, typed attributes, the
 * sections and where global attributes may stand, name escapes, the
 * format (comment, _Format, inferred), and each error.  Then hostile
 * text: every prefix of valid texts must be NC_ENOTNC, and random
 * mutations and garbage must return a defined code without reading past
 * the text (each parse gets a heap copy of exactly its length, so a
 * sanitizer build catches an overread).
 * The API: ids, NULL outputs, NC_EBADID for every bad id, files that are
 * missing, unreadable or not CDL, native values with a NUL after text,
 * id reuse and NC_ENFILE.
 *
 * Prints "N passed, M failed"; exit status 0 only when M is 0 and
 * something was checked.
 */
#define _POSIX_C_SOURCE 200809L /* mkdtemp */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <pnetcdf.h>

#include "format/ncp_cdl.h"
#include "format/ncp_header.h"
#include "format/ncp_xconv.h"

static long passed, failed;

static void ok(int cond, const char *what)
{
    if (cond) {
        passed++;
        return;
    }
    failed++;
    if (failed < 60) printf("FAIL %s\n", what);
}

static void eq(long long got, long long want, const char *what)
{
    if (got == want) {
        passed++;
        return;
    }
    failed++;
    if (failed < 60) printf("FAIL %s: got %lld, want %lld\n", what, got, want);
}

/* Parse a heap copy of exactly strlen(text) bytes. */
static int parse(const char *text, ncp_header *h)
{
    size_t n = strlen(text);
    char *copy = malloc(n ? n : 1);
    int err;
    if (copy == NULL) return NC_ENOMEM;
    memcpy(copy, text, n);
    err = ncp_cdl_parse(copy, n, h);
    free(copy);
    return err;
}

static int parse_code(const char *text)
{
    ncp_header h;
    int err = parse(text, &h);
    ncp_header_free(&h);
    return err;
}

/* The attribute text `:a = <values> ;` parsed alone; *h holds the result
 * (freed by the caller). */
static int parse_gatt(const char *values, ncp_header *h)
{
    char buf[4096];
    snprintf(buf, sizeof buf,
             "netcdf x {\n// global attributes:\n"
             "\t\t:a = %s ;\n}\n",
             values);
    return parse(buf, h);
}

/* Element i of attribute a as a double. */
static double att_double(const ncp_att *a, int64_t i)
{
    unsigned char v[8];
    int xs = ncp_xtype_size(a->xtype);
    ncp_x_swap_copy(v, (const unsigned char *)a->xvalue + i * xs, 1, xs);
    switch (a->xtype) {
    case NC_BYTE:
        return *(signed char *)v;
    case NC_SHORT:
        return *(short *)v;
    case NC_INT:
        return *(int *)v;
    case NC_FLOAT:
        return *(float *)v;
    case NC_DOUBLE:
        return *(double *)v;
    case NC_UBYTE:
        return *(unsigned char *)v;
    case NC_USHORT:
        return *(unsigned short *)v;
    case NC_UINT:
        return *(unsigned int *)v;
    case NC_INT64:
        return (double)*(long long *)v;
    case NC_UINT64:
        return (double)*(unsigned long long *)v;
    default:
        return NAN;
    }
}

static long long att_int64(const ncp_att *a, int64_t i)
{
    long long v;
    ncp_x_swap_copy(&v, (const unsigned char *)a->xvalue + i * 8, 1, 8);
    return v;
}

static unsigned long long att_uint64(const ncp_att *a, int64_t i)
{
    unsigned long long v;
    ncp_x_swap_copy(&v, (const unsigned char *)a->xvalue + i * 8, 1, 8);
    return v;
}

/* ------------------------------------------------------------- literals */

static const struct {
    const char *lit;
    int xtype;
    double value; /* NAN: a NaN is wanted */
} literal_cases[] = {
    {"1b", NC_BYTE, 1},
    {"-128b", NC_BYTE, -128},
    {"127B", NC_BYTE, 127},
    {"-3s", NC_SHORT, -3},
    {"32767S", NC_SHORT, 32767},
    {"7", NC_INT, 7},
    {"+5", NC_INT, 5},
    {"-0", NC_INT, 0},
    {"-2147483648", NC_INT, -2147483648.0},
    {"2147483648", NC_UINT, 2147483648.0},
    {"4294967296", NC_INT64, 4294967296.0},
    {"1l", NC_INT, 1},
    {"1L", NC_INT, 1},
    {"017", NC_INT, 15},
    {"00", NC_INT, 0},
    {"255ub", NC_UBYTE, 255},
    {"255UB", NC_UBYTE, 255},
    {"65535us", NC_USHORT, 65535},
    {"65535US", NC_USHORT, 65535},
    {"4294967295u", NC_UINT, 4294967295.0},
    {"4294967295U", NC_UINT, 4294967295.0},
    {"7ul", NC_UINT, 7},
    {"7UL", NC_UINT, 7},
    {"-5ll", NC_INT64, -5},
    {"5LL", NC_INT64, 5},
    {"5ull", NC_UINT64, 5},
    {"5ULL", NC_UINT64, 5},
    {"1.5", NC_DOUBLE, 1.5},
    {"1.5d", NC_DOUBLE, 1.5},
    {"1.5D", NC_DOUBLE, 1.5},
    {"1.5f", NC_FLOAT, 1.5},
    {"1.5F", NC_FLOAT, 1.5},
    {"1e3", NC_DOUBLE, 1000},
    {"1e3f", NC_FLOAT, 1000},
    {".5", NC_DOUBLE, 0.5},
    {"5.", NC_DOUBLE, 5},
    {"-.5e-3", NC_DOUBLE, -0.0005},
    {"1.E5", NC_DOUBLE, 1e5},
    {"1.e+30f", NC_FLOAT, (float)1e30},
    {"0.1f", NC_FLOAT, (float)0.1},
    {"0.1", NC_DOUBLE, 0.1},
    {"-1.e-300", NC_DOUBLE, -1e-300},
    {"4.94065645841247e-324", NC_DOUBLE, 4.94065645841247e-324},
    {"1.401298e-45f", NC_FLOAT, (float)1.401298e-45},
    {"3.402823e+38f", NC_FLOAT, (float)3.402823e+38},
    {"NaN", NC_DOUBLE, NAN},
    {"nan", NC_DOUBLE, NAN},
    {"-nan", NC_DOUBLE, NAN},
    {"NaNf", NC_FLOAT, NAN},
    {"nanf", NC_FLOAT, NAN},
    {"Infinity", NC_DOUBLE, INFINITY},
    {"-Infinity", NC_DOUBLE, -INFINITY},
    {"inf", NC_DOUBLE, INFINITY},
    {"-inf", NC_DOUBLE, -INFINITY},
    {"Infinityf", NC_FLOAT, INFINITY},
    {"-Infinityf", NC_FLOAT, -INFINITY},
    {"inff", NC_FLOAT, INFINITY},
    {"-inff", NC_FLOAT, -INFINITY},
    {"1e400", NC_DOUBLE, INFINITY},
    {"1e39f", NC_FLOAT, INFINITY},
    {"1e-400", NC_DOUBLE, 0},
    {"'a'", NC_BYTE, 97},
    {"'\\n'", NC_BYTE, 10},
    {"'\\377'", NC_BYTE, -1},
    {"'\\x41'", NC_BYTE, 65},
    {"'\\''", NC_BYTE, 39},
};

static const char *const bad_literals[] = {
    "300b",
    "128b",
    "-129b",
    "32768s",
    "2147483648l",
    "-1u",
    "-1ub",
    "256ub",
    "65536us",
    "4294967296u",
    "9223372036854775808ll",
    "18446744073709551616",
    "18446744073709551616ull",
    "-9223372036854775809",
    "1.5s",
    "1e5s",
    "1.5u",
    "0x10",
    "08",
    "1ubb",
    "1.5fd",
    "1e",
    "1.5e+",
    "1f",
    "1d",
    "abc",
    "-",
    ".",
    "+",
    "e5",
    "'ab'",
    "'",
    "'a",
    "\"unterminated",
    "\"\\x\"",
    "\"\\400\"",
    "1 2",
    "1,",
    ",1",
    "",
    "_",
    "infinit",
    "NaNd",
    "1.5ll",
    "'\\'",
};

static void test_literals(void)
{
    size_t i;
    char what[160];
    ncp_header h;

    for (i = 0; i < sizeof literal_cases / sizeof literal_cases[0]; i++) {
        int err = parse_gatt(literal_cases[i].lit, &h);
        snprintf(what, sizeof what, "literal %s", literal_cases[i].lit);
        eq(err, NC_NOERR, what);
        if (err == NC_NOERR && h.gatts.n == 1) {
            const ncp_att *a = &h.gatts.a[0];
            double v = att_double(a, 0), want = literal_cases[i].value;
            snprintf(what, sizeof what, "type of %s", literal_cases[i].lit);
            eq(a->xtype, literal_cases[i].xtype, what);
            eq(a->nelems, 1, what);
            snprintf(what, sizeof what, "value of %s", literal_cases[i].lit);
            ok(isnan(want) ? isnan(v) : v == want, what);
        }
        ncp_header_free(&h);
    }
    /* Negative zero keeps its sign. */
    if (parse_gatt("-0., -0.f", &h) == NC_NOERR && h.gatts.n == 1) {
        ok(signbit(att_double(&h.gatts.a[0], 0)) &&
               signbit(att_double(&h.gatts.a[0], 1)),
           "-0. keeps its sign");
        eq(h.gatts.a[0].xtype, NC_DOUBLE, "-0., -0.f is double");
    } else {
        ok(0, "-0., -0.f parses");
    }
    ncp_header_free(&h);
    /* The 64-bit extremes, exactly. */
    if (parse_gatt("-9223372036854775808LL, 9223372036854775807LL", &h) ==
            NC_NOERR &&
        h.gatts.n == 1) {
        ok(att_int64(&h.gatts.a[0], 0) == INT64_MIN, "INT64_MIN");
        ok(att_int64(&h.gatts.a[0], 1) == INT64_MAX, "INT64_MAX");
    } else {
        ok(0, "int64 extremes parse");
    }
    ncp_header_free(&h);
    if (parse_gatt("18446744073709551615ULL, 9223372036854775808", &h) ==
            NC_NOERR &&
        h.gatts.n == 1) {
        eq(h.gatts.a[0].xtype, NC_UINT64, "uint64 extremes type");
        ok(att_uint64(&h.gatts.a[0], 0) == UINT64_MAX, "UINT64_MAX");
        ok(att_uint64(&h.gatts.a[0], 1) == 9223372036854775808ULL, "2^63");
    } else {
        ok(0, "uint64 extremes parse");
    }
    ncp_header_free(&h);
    for (i = 0; i < sizeof bad_literals / sizeof bad_literals[0]; i++) {
        snprintf(what, sizeof what, "bad literal [%s]", bad_literals[i]);
        eq(parse_gatt(bad_literals[i], &h), NC_ENOTNC, what);
        ncp_header_free(&h);
    }
}

/* ------------------------------------------------------ lists and types */

static const struct {
    const char *values;
    int xtype;
    int n;
    double v[3];
} list_cases[] = {
    {"1b, 2s", NC_SHORT, 2, {1, 2}},
    {"1, 2.5", NC_DOUBLE, 2, {1, 2.5}},
    {"1.5, 2", NC_DOUBLE, 2, {1.5, 2}},
    {"1.5f, 2", NC_FLOAT, 2, {1.5, 2}},
    {"1.5f, 2.5", NC_DOUBLE, 2, {1.5, 2.5}},
    {"1b, 1.5f", NC_FLOAT, 2, {1, 1.5}},
    {"1LL, 2.5f", NC_FLOAT, 2, {1, 2.5}},
    {"1b, 2ub", NC_UBYTE, 2, {1, 2}},
    {"1ub, 2b", NC_BYTE, 2, {1, 2}},
    {"1ub, 2s", NC_SHORT, 2, {1, 2}},
    {"1us, 2", NC_INT, 2, {1, 2}},
    {"1s, 2u", NC_UINT, 2, {1, 2}},
    {"1u, 2ll", NC_INT64, 2, {1, 2}},
    {"1ll, 2ull", NC_UINT64, 2, {1, 2}},
    {"1, 3000000000", NC_UINT, 2, {1, 3000000000.0}},
    {"1, 2, 3", NC_INT, 3, {1, 2, 3}},
    {"'a', 2b", NC_BYTE, 2, {97, 2}},
    {"1,2 ,\n\t\t\t3", NC_INT, 3, {1, 2, 3}},
    {"1, // a comment\n 2", NC_INT, 2, {1, 2}},
};

static const char *const bad_lists[] = {
    "-1, 2u",      "\"a\", 1", "1, \"a\"", "300b, 1",    "1.5, 2ll, \"x\"",
    "\"a\" \"b\"", "1 ;",      "1;;",      "NaN, \"x\"", "1, 2.5, -1ull",
};

static void test_lists(void)
{
    size_t i;
    int k;
    char what[160];
    ncp_header h;

    for (i = 0; i < sizeof list_cases / sizeof list_cases[0]; i++) {
        int err = parse_gatt(list_cases[i].values, &h);
        snprintf(what, sizeof what, "list [%s]", list_cases[i].values);
        eq(err, NC_NOERR, what);
        if (err == NC_NOERR && h.gatts.n == 1) {
            eq(h.gatts.a[0].xtype, list_cases[i].xtype, what);
            eq(h.gatts.a[0].nelems, list_cases[i].n, what);
            for (k = 0; k < list_cases[i].n && k < h.gatts.a[0].nelems; k++)
                ok(att_double(&h.gatts.a[0], k) == list_cases[i].v[k], what);
        }
        ncp_header_free(&h);
    }
    for (i = 0; i < sizeof bad_lists / sizeof bad_lists[0]; i++) {
        snprintf(what, sizeof what, "bad list [%s]", bad_lists[i]);
        /* "1 ;" and "1;;" leave a stray token in the text around them. */
        ok(parse_gatt(bad_lists[i], &h) == NC_ENOTNC, what);
        ncp_header_free(&h);
    }
}

/* -------------------------------------------------------------- strings */

static void test_strings(void)
{
    ncp_header h;
    static const char want[] = "\a\b\f\n\r\t\v\\\"'?AA\0z\x7f\xc3\xa9";
    const ncp_att *a;

    if (parse_gatt("\"\\a\\b\\f\\n\\r\\t\\v\\\\\\\"\\'\\?\\101\\x41\\0z"
                   "\\177\xc3\xa9\"",
                   &h) == NC_NOERR &&
        h.gatts.n == 1) {
        a = &h.gatts.a[0];
        eq(a->xtype, NC_CHAR, "escapes: text");
        eq(a->nelems, (long long)sizeof want - 1, "escapes: length");
        ok(a->nelems == (int64_t)sizeof want - 1 &&
               memcmp(a->xvalue, want, sizeof want - 1) == 0,
           "escapes: bytes");
    } else {
        ok(0, "escapes parse");
    }
    ncp_header_free(&h);
    /* ncdump breaks a string after each \n; the pieces are one value. */
    if (parse_gatt("\"line1\\n\",\n\t\t\t\"line2\" ,\n    \"3\"", &h) ==
            NC_NOERR &&
        h.gatts.n == 1) {
        a = &h.gatts.a[0];
        ok(a->nelems == 12 && memcmp(a->xvalue, "line1\nline23", 12) == 0,
           "continued string");
    } else {
        ok(0, "continued string parses");
    }
    ncp_header_free(&h);
    if (parse_gatt("\"\"", &h) == NC_NOERR && h.gatts.n == 1) {
        eq(h.gatts.a[0].xtype, NC_CHAR, "empty string: text");
        eq(h.gatts.a[0].nelems, 0, "empty string: no element");
    } else {
        ok(0, "empty string parses");
    }
    ncp_header_free(&h);
    /* A raw newline and a brace inside a string are its bytes. */
    if (parse_gatt("\"a\n}b\"", &h) == NC_NOERR && h.gatts.n == 1)
        ok(h.gatts.a[0].nelems == 4 &&
               memcmp(h.gatts.a[0].xvalue, "a\n}b", 4) == 0,
           "raw newline and brace");
    else
        ok(0, "raw newline parses");
    ncp_header_free(&h);
}

/* ------------------------------------------------------------ structure */

static const struct {
    const char *word;
    int xtype;
} type_words[] = {
    {"char", NC_CHAR},     {"CHAR", NC_CHAR},     {"byte", NC_BYTE},
    {"BYTE", NC_BYTE},     {"short", NC_SHORT},   {"SHORT", NC_SHORT},
    {"int", NC_INT},       {"INT", NC_INT},       {"integer", NC_INT},
    {"INTEGER", NC_INT},   {"long", NC_INT},      {"LONG", NC_INT},
    {"float", NC_FLOAT},   {"FLOAT", NC_FLOAT},   {"real", NC_FLOAT},
    {"REAL", NC_FLOAT},    {"double", NC_DOUBLE}, {"DOUBLE", NC_DOUBLE},
    {"ubyte", NC_UBYTE},   {"UBYTE", NC_UBYTE},   {"ushort", NC_USHORT},
    {"USHORT", NC_USHORT}, {"uint", NC_UINT},     {"UINT", NC_UINT},
    {"int64", NC_INT64},   {"INT64", NC_INT64},   {"uint64", NC_UINT64},
    {"UINT64", NC_UINT64},
};

static void test_types(void)
{
    size_t i;
    char buf[256], what[96];
    ncp_header h;
    for (i = 0; i < sizeof type_words / sizeof type_words[0]; i++) {
        int err;
        snprintf(buf, sizeof buf, "netcdf t {\nvariables:\n\t%s v ;\n}\n",
                 type_words[i].word);
        err = parse(buf, &h);
        snprintf(what, sizeof what, "type word %s", type_words[i].word);
        eq(err, NC_NOERR, what);
        if (err == NC_NOERR && h.nvars == 1) {
            eq(h.vars[0].xtype, type_words[i].xtype, what);
            eq(h.vars[0].ndims, 0, what);
            eq(h.format, type_words[i].xtype > NC_DOUBLE ? 5 : 1,
               "format from the types");
        }
        ncp_header_free(&h);
    }
    eq(parse_code("netcdf t {\nvariables:\n\tstring v ;\n}\n"), NC_ENOTNC,
       "string is no classic type");
    eq(parse_code("netcdf t {\nvariables:\n\tInt v ;\n}\n"), NC_ENOTNC,
       "mixed-case type word");
}

/* What ncdump -h prints for a file with every kind of declaration. */
static const char full_text[] = "netcdf full {\n"
                                "dimensions:\n"
                                "\tx = 3 ;\n"
                                "\t\\1st\\ dim = 2, y = 4 ;\n"
                                "\ttime = UNLIMITED ; // (7 currently)\n"
                                "variables:\n"
                                "\tdouble time(time) ;\n"
                                "\t\ttime:units = \"days since 2000-01-01\" ;\n"
                                "\tfloat float(time, \\1st\\ dim, x), s ;\n"
                                "\t\tfloat:units = \"K\" ;\n"
                                "\t\tfloat:valid_range = 0.f, 400.f ;\n"
                                "\t\ts:_FillValue = -1.f ;\n"
                                "\tint data(y) ;\n"
                                "\t\tdata :a\\:b = \"m\" ;\n"
                                "\tshort dimensions ;\n"
                                "\t\tdimensions :u = 1s ;\n"
                                "\tint 2d ;\n"
                                "\tbyte \xc3\xa9t\xc3\xa9 ;\n"
                                "\t\t\xc3\xa9t\xc3\xa9:flag_values = 0b, 1b ;\n"
                                "\tchar x.y+z-@\\# ;\n"
                                "\t\tdouble data:typed = 1 ;\n"
                                "\n"
                                "// global attributes:\n"
                                "\t\t:title = \"all of it\" ;\n"
                                "\t\t:history = \"a\\n\",\n"
                                "\t\t\t\"b\" ;\n"
                                "\t\tshort :typed_global = 3 ;\n"
                                "\t\t:_Format = \"64-bit offset\" ;\n"
                                "data:\n"
                                "\n"
                                " time = 1, 2, 3 ;\n"
                                " x.y+z-@\\# = \"}\" ;\n"
                                " 2d = '}' ; // }\n"
                                "}\n";

static void test_structure(void)
{
    ncp_header h;
    int err = parse(full_text, &h), i;
    static const char *const dims[] = {"x", "1st dim", "y", "time"};
    static const long long lens[] = {3, 2, 4, 0};
    static const char *const vars[] = {"time",
                                       "float",
                                       "s",
                                       "data",
                                       "dimensions",
                                       "2d",
                                       "\xc3\xa9t\xc3\xa9",
                                       "x.y+z-@#"};
    static const int types[] = {NC_DOUBLE, NC_FLOAT, NC_FLOAT, NC_INT,
                                NC_SHORT,  NC_INT,   NC_BYTE,  NC_CHAR};
    static const int ndims[] = {1, 3, 0, 1, 0, 0, 0, 0};
    static const int natts[] = {1, 2, 1, 2, 1, 0, 1, 0};

    eq(err, NC_NOERR, "full text parses");
    if (err != NC_NOERR) return;
    eq(h.format, 2, "_Format 64-bit offset");
    eq(h.ndims, 4, "ndims");
    for (i = 0; i < h.ndims && i < 4; i++) {
        ok(strcmp(h.dims[i].name, dims[i]) == 0, dims[i]);
        eq(h.dims[i].len, lens[i], dims[i]);
    }
    eq(h.unlimdimid, 3, "unlimited dimension");
    eq(h.nvars, 8, "nvars");
    for (i = 0; i < h.nvars && i < 8; i++) {
        ok(strcmp(h.vars[i].name, vars[i]) == 0, vars[i]);
        eq(h.vars[i].xtype, types[i], vars[i]);
        eq(h.vars[i].ndims, ndims[i], vars[i]);
        eq(h.vars[i].atts.n, natts[i], vars[i]);
    }
    if (h.nvars == 8) {
        eq(h.vars[1].dimids[0], 3, "float(time, ...)");
        eq(h.vars[1].dimids[1], 1, "float(..., 1st dim, ...)");
        eq(h.vars[1].dimids[2], 0, "float(..., x)");
        ok(strcmp(h.vars[1].atts.a[1].name, "valid_range") == 0 &&
               h.vars[1].atts.a[1].nelems == 2 &&
               att_double(&h.vars[1].atts.a[1], 1) == 400.0,
           "float:valid_range");
        ok(strcmp(h.vars[3].atts.a[0].name, "a:b") == 0, "escaped colon");
        ok(strcmp(h.vars[3].atts.a[1].name, "typed") == 0 &&
               h.vars[3].atts.a[1].xtype == NC_DOUBLE,
           "typed variable attribute");
        eq(h.vars[4].atts.a[0].xtype, NC_SHORT, "dimensions :u");
    }
    eq(h.gatts.n, 3, "global attributes, _Format not among them");
    if (h.gatts.n == 3) {
        ok(h.gatts.a[1].nelems == 3 &&
               memcmp(h.gatts.a[1].xvalue, "a\nb", 3) == 0,
           "history");
        ok(strcmp(h.gatts.a[2].name, "typed_global") == 0 &&
               h.gatts.a[2].xtype == NC_SHORT,
           "typed global attribute");
    }
    ncp_header_free(&h);

    /* Sections may be absent; global attributes may stand without a
     * variables section; keywords in upper case. */
    eq(parse_code("netcdf e {\n}\n"), NC_NOERR, "empty");
    eq(parse_code("NETCDF e {}"), NC_NOERR, "upper case, one line");
    eq(parse_code("netCDF e {DIMENSIONS: d = 1 ; VARIABLES: int v(d) ;}"),
       NC_NOERR, "upper case keywords");
    eq(parse_code("netcdf e {\ndimensions:\n\td = 2 ;\n\n"
                  "// global attributes:\n\t\t:a = 1 ;\n}\n"),
       NC_NOERR, "global attributes after dimensions");
    eq(parse_code("netcdf e {\n:a = 1 ;\n:b = \"x\" ;\n}"), NC_NOERR,
       "global attributes alone");
    eq(parse_code("netcdf e {\nvariables:\n:a = 1 ;\n int v ;\n"
                  "v:b = 2 ;\n:c = 3 ;\n}"),
       NC_NOERR, "global attributes anywhere among the variables");
    eq(parse_code("// leading comment\nnetcdf e { // here\n} // trailing\n"),
       NC_NOERR, "comments around");
    eq(parse_code("netcdf e {\ndimensions:\n d = unlimited ;\n"
                  " e = NC_UNLIMITED ;\n}"),
       NC_ENOTNC, "two unlimited dimensions");
    if (parse("netcdf e {\ndimensions:\n d = NC_UNLIMITED ;\n"
              " z = 0 ;\n}",
              &h) == NC_ENOTNC)
        ok(1, "a length of 0 is the unlimited one too");
    else
        ok(0, "a length of 0 is the unlimited one too");
    ncp_header_free(&h);
    if (parse("netcdf e {\ndimensions:\n big = 9223372036854775807 ;\n}", &h) ==
            NC_NOERR &&
        h.ndims == 1)
        ok(h.dims[0].len == INT64_MAX, "largest dimension");
    else
        ok(0, "largest dimension parses");
    ncp_header_free(&h);
}

static const struct {
    const char *text;
    int err;
    const char *what;
} error_cases[] = {
    {"", NC_ENOTNC, "empty text"},
    {"netcdf {}", NC_ENOTNC, "no name"},
    {"netcdf x", NC_ENOTNC, "no brace"},
    {"netcdfx {}", NC_ENOTNC, "no space after netcdf"},
    {"CDF\x01", NC_ENOTNC, "a netCDF file, not CDL"},
    {"netcdf x {", NC_ENOTNC, "no closing brace"},
    {"netcdf x {} junk", NC_ENOTNC, "text after the closing brace"},
    {"netcdf x {}}", NC_ENOTNC, "two closing braces"},
    {"netcdf x {\ndimensions:\n d = 2 ;\n}\n\0", NC_NOERR,
     "(a NUL past the given length is not read)"},
    {"netcdf x {\nvariables:\n int v(d) ;\n}", NC_EBADDIM,
     "undeclared dimension"},
    {"netcdf x {\ndimensions:\n d = 1 ;\n d = 2 ;\n}", NC_ENOTNC,
     "duplicate dimension"},
    {"netcdf x {\nvariables:\n int v ;\n float v ;\n}", NC_ENOTNC,
     "duplicate variable"},
    {"netcdf x {\nvariables:\n int v, v ;\n}", NC_ENOTNC,
     "duplicate variable in one statement"},
    {"netcdf x {\n:a = 1 ;\n:a = 2 ;\n}", NC_ENOTNC, "duplicate attribute"},
    {"netcdf x {\nvariables:\n v:a = 1 ;\n}", NC_ENOTNC,
     "attribute of an undeclared variable"},
    {"netcdf x {\nvariables:\n double v:a = 1 ;\n}", NC_ENOTNC,
     "typed attribute of an undeclared variable"},
    {"netcdf x {\ndimensions:\n d = 1, t = UNLIMITED ;\nvariables:\n"
     " int v(d, t) ;\n}",
     NC_ENOTNC, "unlimited dimension not first"},
    {"netcdf x {\ndimensions:\n d = -1 ;\n}", NC_ENOTNC, "negative length"},
    {"netcdf x {\ndimensions:\n d = 9223372036854775808 ;\n}", NC_ENOTNC,
     "length past int64"},
    {"netcdf x {\ndimensions:\n d = 2L ;\n}", NC_ENOTNC, "length suffix"},
    {"netcdf x {\ndimensions:\n d = many ;\n}", NC_ENOTNC, "length word"},
    {"netcdf x {\ndimensions:\n d = 1\n}", NC_ENOTNC, "missing semicolon"},
    {"netcdf x {\nvariables:\n int v() ;\n}", NC_ENOTNC, "empty parentheses"},
    {"netcdf x {\ndimensions:\n d = 1 ;\nvariables:\n int v(d ;\n}", NC_ENOTNC,
     "unclosed parenthesis"},
    {"netcdf x {\nvariables:\n int ;\n}", NC_ENOTNC, "type without a name"},
    {"netcdf x {\nvariables:\n v ;\n}", NC_ENOTNC, "name without a type"},
    {"netcdf x {\nvariables:\n int v\n}", NC_ENOTNC, "declaration unended"},
    {"netcdf x {\ndimensions:\n int v ;\n}", NC_ENOTNC,
     "a variable among the dimensions"},
    {"netcdf x {\n:a = 1 ;\nvariables:\n}", NC_ENOTNC,
     "variables after a list of global attributes"},
    {"netcdf x {\nvariables:\ndimensions:\n}", NC_ENOTNC,
     "dimensions after variables"},
    {"netcdf x {\ndimensions:\ndimensions:\n}", NC_ENOTNC, "dimensions twice"},
    {"netcdf x {\ntypes:\n int(*) vlen ;\n}", NC_ENOTNC, "netCDF-4 types"},
    {"netcdf x {\ngroup: g {\n}\n}", NC_ENOTNC, "netCDF-4 groups"},
    {"netcdf x {\n:a = ;\n}", NC_ENOTNC, "attribute without a value"},
    {"netcdf x {\n:a 1 ;\n}", NC_ENOTNC, "attribute without ="},
    {"netcdf x {\n: = 1 ;\n}", NC_ENOTNC, "attribute without a name"},
    {"netcdf x {\nint :a = \"x\" ;\n}", NC_ENOTNC, "int attribute of text"},
    {"netcdf x {\nchar :a = 1 ;\n}", NC_ENOTNC, "char attribute of a number"},
    {"netcdf x {\nshort :a = 1.5 ;\n}", NC_ENOTNC, "short attribute of a real"},
    {"netcdf x {\nbyte :a = 200 ;\n}", NC_ENOTNC,
     "typed attribute out of range"},
    {"netcdf x {\nvariables:\n int \\\n}", NC_ENOTNC, "escape at the end"},
    {"netcdf x {\nvariables:\n int a/b ;\n}", NC_ENOTNC, "slash in a name"},
    {"netcdf x {\nvariables:\n int \\/ ;\n}", NC_ENOTNC,
     "escaped slash still illegal"},
    {"netcdf x {\nvariables:\n int \\  ;\n}", NC_ENOTNC, "a name of one space"},
    {"netcdf x {\ndata:\n v = \"abc ;\n}", NC_ENOTNC,
     "unterminated string in data"},
    {"netcdf x {\ndata:\n v = 1 ;\n", NC_ENOTNC, "data without the brace"},
    {"netcdf x {\n:_Format = \"netCDF-4\" ;\n}", NC_ENOTNC, "_Format netCDF-4"},
    {"netcdf x {\n:_Format = \"netCDF-4 classic model\" ;\n}", NC_ENOTNC,
     "_Format netCDF-4 classic model"},
    {"netcdf x {\n:_Format = \"CDF5\" ;\n}", NC_ENOTNC, "_Format unknown"},
    {"netcdf x {\n:_Format = 1 ;\n}", NC_ENOTNC, "_Format a number"},
    {"netcdf x {\n:_Format = \"classic\" ;\n:_Format = \"classic\" ;\n}",
     NC_ENOTNC, "_Format twice"},
    {"netcdf x {\n// file format: CDF-3\n}", NC_ENOTNC, "CDF-3"},
    {"netcdf x {\n// file format: CDF-\n}", NC_ENOTNC, "CDF- alone"},
    {"netcdf x {\n// file format: CDF-1\nvariables:\n ubyte v ;\n}", NC_ENOTNC,
     "CDF-1 holding a CDF-5 type"},
    {"netcdf x {\n:_Format = \"64-bit offset\" ;\n:a = 1UB ;\n}", NC_ENOTNC,
     "CDF-2 holding a CDF-5 attribute type"},
    {"netcdf x {\n// file format: CDF-1\ndimensions:\n d = 2147483645 ;\n}",
     NC_ENOTNC, "CDF-1 holding a CDF-2 length"},
    {"netcdf x {\ndimensions:\n d = 4294967293 ;\n"
     "// global attributes:\n:_Format = \"64-bit offset\" ;\n}",
     NC_ENOTNC, "CDF-2 holding a CDF-5 length"},
    {"netcdf x {\n:a = 1 ;\ndimensions:\n d = 1 ;\n}", NC_ENOTNC,
     "dimensions after global attributes"},
};

static void test_errors(void)
{
    size_t i;
    char name[NC_MAX_NAME + 40];
    char buf[NC_MAX_NAME + 100];
    ncp_header h;
    for (i = 0; i < sizeof error_cases / sizeof error_cases[0]; i++) {
        eq(parse_code(error_cases[i].text), error_cases[i].err,
           error_cases[i].what);
    }
    /* A text with a NUL inside its length. */
    {
        static const char t[] = "netcdf x {\n:a = \"a\0b\" ;\n}\n";
        eq(ncp_cdl_parse(t, sizeof t - 1, &h), NC_ENOTNC, "NUL in the text");
        ncp_header_free(&h);
        eq(ncp_cdl_parse(NULL, 0, &h), NC_ENOTNC, "NULL text");
        ncp_header_free(&h);
    }
    /* Names of NC_MAX_NAME bytes, and one more. */
    memset(name, 'n', NC_MAX_NAME);
    name[NC_MAX_NAME] = '\0';
    snprintf(buf, sizeof buf, "netcdf x {\nvariables:\n int %s ;\n}", name);
    eq(parse_code(buf), NC_NOERR, "name of NC_MAX_NAME bytes");
    name[NC_MAX_NAME] = 'n';
    name[NC_MAX_NAME + 1] = '\0';
    snprintf(buf, sizeof buf, "netcdf x {\nvariables:\n int %s ;\n}", name);
    eq(parse_code(buf), NC_ENOTNC, "name over NC_MAX_NAME bytes");
    /* Invalid UTF-8 in a name. */
    eq(parse_code("netcdf x {\nvariables:\n int \xc3 ;\n}"), NC_ENOTNC,
       "malformed UTF-8 name");
}

static void test_format(void)
{
    static const struct {
        const char *text;
        int format;
    } cases[] = {
        {"netcdf x {\n}", 1},
        {"netcdf x {\n// file format: CDF-1\n}", 1},
        {"netcdf x {\n// file format: CDF-2 (large file)\n}", 2},
        {"netcdf x {\n// file format: CDF-5 (big variables)\n}", 5},
        {"netcdf x {\n//file format:CDF-2\n}", 2},
        {"// file format: CDF-2\nnetcdf x {\n}", 2},
        {"netcdf x {\n// an unrelated comment\n}", 1},
        /* Only before the first section, as ncmpidump places it. */
        {"netcdf x {\ndimensions:\n// file format: CDF-2\n d = 1 ;\n}", 1},
        {"netcdf x {\ndimensions:\n// file format: CDF-7\n d = 1 ;\n}", 1},
        {"netcdf x {\nvariables:\n uint64 v ;\n}", 5},
        {"netcdf x {\n:a = 1US ;\n}", 5},
        {"netcdf x {\n:_Format = \"classic\" ;\n}", 1},
        {"netcdf x {\n:_Format = \"64-bit offset\" ;\n}", 2},
        {"netcdf x {\n:_Format = \"64-bit-offset\" ;\n}", 2},
        {"netcdf x {\n:_Format = \"cdf5\" ;\n}", 5},
        {"netcdf x {\n:_Format = \"64-bit data\" ;\n}", 5},
        {"netcdf x {\n:_Format = \"cdf-5\" ;\n}", 5},
        /* The first format that holds the dimensions' lengths. */
        {"netcdf x {\ndimensions:\n d = 2147483644 ;\n}", 1},
        {"netcdf x {\ndimensions:\n d = 2147483645 ;\n}", 2},
        {"netcdf x {\ndimensions:\n d = 4294967292 ;\n}", 2},
        {"netcdf x {\ndimensions:\n d = 4294967293 ;\n}", 5},
        {"netcdf x {\n// file format: CDF-5\ndimensions:\n d = 3 ;\n}", 5},
        /* _Format wins over the comment. */
        {"netcdf x {\n// file format: CDF-1\n:_Format = \"cdf5\" ;\n}", 5},
    };
    size_t i;
    char what[128];
    ncp_header h;
    for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        int err = parse(cases[i].text, &h);
        snprintf(what, sizeof what, "format case %zu", i);
        eq(err, NC_NOERR, what);
        if (err == NC_NOERR) {
            eq(h.format, cases[i].format, what);
            eq(h.gatts.n, strstr(cases[i].text, ":a =") ? 1 : 0,
               "_Format is no attribute");
        }
        ncp_header_free(&h);
    }
    /* A variable's _Format is an attribute like any other. */
    if (parse("netcdf x {\nvariables:\n int v ;\n v:_Format = \"x\" ;\n}",
              &h) == NC_NOERR &&
        h.nvars == 1)
        eq(h.vars[0].atts.n, 1, "variable _Format kept");
    else
        ok(0, "variable _Format parses");
    ncp_header_free(&h);
}

/* ---------------------------------------------------------- hostile text */

static uint64_t rng_state = 0x9e3779b97f4a7c15ULL;

static uint64_t rng(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}

static const char *const valid_texts[] = {
    full_text,
    "netcdf testfile {\n// file format: CDF-5 (big variables)\n"
    "dimensions:\n\tY = 4 ;\n\ttime = UNLIMITED ; // (1 currently)\n"
    "\tX = 10 ;\nvariables:\n\tint var_int(Y, X) ;\n"
    "\t\tvar_int:FieldType = 104 ;\n\t\tvar_int:MemoryOrder = \"XY \" ;\n"
    "\tuint64 u(time) ;\n\t\tu:v = 18446744073709551615ULL, 1ULL ;\n"
    "\tfloat f ;\n\t\tf:a = 1.5f, NaNf, -Infinityf, 1.e+30f ;\n"
    "\tdouble d ;\n\t\td:a = -0., 4.94065645841247e-324, nan, -inf ;\n"
    "\tubyte ub ;\n\t\tub:a = 'x', 255UB ;\n"
    "\n// global attributes:\n\t\t:TITLE = \"a\\tb\\\"c\\\\\" ;\n"
    "\t\t:EMPTY = \"\" ;\n\t\t:SOME = 1s, -2s ;\n}\n",
};

static int defined_code(int err)
{
    return err == NC_NOERR || err == NC_ENOTNC || err == NC_EBADDIM;
}

static void test_hostile(void)
{
    size_t t, k, last;
    long bad_prefix = 0, bad_code = 0, iter;
    ncp_header h;

    for (t = 0; t < sizeof valid_texts / sizeof valid_texts[0]; t++) {
        const char *text = valid_texts[t];
        size_t n = strlen(text);
        eq(ncp_cdl_parse(text, n, &h), NC_NOERR, "hostile: base text");
        ncp_header_free(&h);
        last = (size_t)(strrchr(text, '}') - text);
        for (k = 0; k < n; k++) {
            char *copy = malloc(k ? k : 1);
            int err, want = k <= last ? NC_ENOTNC : NC_NOERR;
            memcpy(copy, text, k);
            err = ncp_cdl_parse(copy, k, &h);
            ncp_header_free(&h);
            free(copy);
            if (err != want) {
                if (bad_prefix++ < 5)
                    printf("prefix %zu of text %zu: %d, want %d\n", k, t, err,
                           want);
            }
        }
    }
    eq(bad_prefix, 0, "every cut text is NC_ENOTNC");

    for (iter = 0; iter < 30000; iter++) {
        const char *base = valid_texts[rng() % 2];
        size_t n = strlen(base), m;
        int muts = 1 + (int)(rng() % 4), j, err;
        char *buf = malloc(n + 16);
        memcpy(buf, base, n);
        m = n;
        for (j = 0; j < muts; j++) {
            size_t at = m ? rng() % m : 0;
            switch (rng() % 4) {
            case 0: /* replace */
                if (m) buf[at] = (char)(rng() & 0xff);
                break;
            case 1: /* delete */
                if (m) {
                    memmove(buf + at, buf + at + 1, m - at - 1);
                    m--;
                }
                break;
            case 2: /* insert a byte the grammar cares about */
                if (m < n + 15) {
                    static const char pick[] = "\"'\\:;,=(){}/-.0e \n\xc3";
                    memmove(buf + at + 1, buf + at, m - at);
                    buf[at] = pick[rng() % (sizeof pick - 1)];
                    m++;
                }
                break;
            default: /* cut */
                m = at;
            }
        }
        {
            char *exact = malloc(m ? m : 1);
            memcpy(exact, buf, m);
            err = ncp_cdl_parse(exact, m, &h);
            ncp_header_free(&h);
            free(exact);
        }
        free(buf);
        if (!defined_code(err) && bad_code++ < 5)
            printf("mutation %ld: code %d\n", iter, err);
    }
    for (iter = 0; iter < 3000; iter++) {
        size_t m = rng() % 200, i;
        char *g = malloc(m ? m : 1);
        int err;
        for (i = 0; i < m; i++)
            g[i] = (char)(rng() & 0xff);
        if (m > 10 && (iter & 1)) memcpy(g, "netcdf x {", 10);
        err = ncp_cdl_parse(g, m, &h);
        ncp_header_free(&h);
        free(g);
        if (!defined_code(err) && bad_code++ < 5)
            printf("garbage %ld: code %d\n", iter, err);
    }
    eq(bad_code, 0, "mutated and random text gives a defined code");
}

/* ------------------------------------------------------------------ API */

static char tmpdir[256];

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    if (f == NULL) return;
    fputs(text, f);
    fclose(f);
}

static void test_api(void)
{
    char path[400], gpath[400], *name;
    int hid, hid2, err, format, ndims, nvars, nattrs, *dimids, i;
    nc_type xtype;
    MPI_Offset size, nelems;
    void *value;
    static int many[NC_MAX_NFILES];

    snprintf(tmpdir, sizeof tmpdir, "test_cdl_XXXXXX");
    if (mkdtemp(tmpdir) == NULL) {
        ok(0, "mkdtemp");
        return;
    }
    snprintf(path, sizeof path, "%s/full.cdl", tmpdir);
    write_file(path, full_text);
    snprintf(gpath, sizeof gpath, "%s/garbage.cdl", tmpdir);
    write_file(gpath, "netcdf x {\n dimensions:\n d = ;\n}\n");

    eq(cdl_hdr_open(NULL, &hid), NC_EINVAL, "open NULL path");
    eq(cdl_hdr_open(path, NULL), NC_EINVAL, "open NULL hid");
    eq(cdl_hdr_open("/nonexistent/dir/x.cdl", &hid), NC_ENOENT,
       "open missing file");
    eq(cdl_hdr_open(tmpdir, &hid), NC_EFILE, "open a directory");
    eq(cdl_hdr_open(gpath, &hid), NC_ENOTNC, "open a broken text");

    err = cdl_hdr_open(path, &hid);
    eq(err, NC_NOERR, "open");
    if (err != NC_NOERR) return;
    eq(cdl_hdr_inq_format(hid, &format), NC_NOERR, "inq_format");
    eq(format, 2, "format");
    eq(cdl_hdr_inq_format(hid, NULL), NC_NOERR, "inq_format NULL");
    eq(cdl_hdr_inq_ndims(hid, &ndims), NC_NOERR, "inq_ndims");
    eq(ndims, 4, "ndims");
    eq(cdl_hdr_inq_ndims(hid, NULL), NC_NOERR, "inq_ndims NULL");
    eq(cdl_hdr_inq_dim(hid, 1, &name, &size), NC_NOERR, "inq_dim");
    ok(strcmp(name, "1st dim") == 0, "dim name");
    eq(size, 2, "dim size");
    eq(cdl_hdr_inq_dim(hid, 3, NULL, &size), NC_NOERR, "inq_dim unlimited");
    eq(size, NC_UNLIMITED, "unlimited size");
    eq(cdl_hdr_inq_dim(hid, 3, NULL, NULL), NC_NOERR, "inq_dim NULLs");
    eq(cdl_hdr_inq_dim(hid, 4, &name, &size), NC_EBADID, "dimid too big");
    eq(cdl_hdr_inq_dim(hid, -1, &name, &size), NC_EBADID, "dimid negative");
    eq(cdl_hdr_inq_nvars(hid, &nvars), NC_NOERR, "inq_nvars");
    eq(nvars, 8, "nvars");
    eq(cdl_hdr_inq_var(hid, 1, &name, &xtype, &ndims, &dimids), NC_NOERR,
       "inq_var");
    ok(strcmp(name, "float") == 0, "var name");
    eq(xtype, NC_FLOAT, "var type");
    eq(ndims, 3, "var ndims");
    ok(dimids[0] == 3 && dimids[1] == 1 && dimids[2] == 0, "var dimids");
    eq(cdl_hdr_inq_var(hid, 1, NULL, NULL, NULL, NULL), NC_NOERR,
       "inq_var NULLs");
    eq(cdl_hdr_inq_var(hid, NC_GLOBAL, &name, &xtype, &ndims, &dimids),
       NC_EBADID, "inq_var NC_GLOBAL");
    eq(cdl_hdr_inq_var(hid, 8, &name, &xtype, &ndims, &dimids), NC_EBADID,
       "varid too big");
    eq(cdl_hdr_inq_nattrs(hid, NC_GLOBAL, &nattrs), NC_NOERR,
       "inq_nattrs global");
    eq(nattrs, 3, "global nattrs");
    eq(cdl_hdr_inq_nattrs(hid, 1, &nattrs), NC_NOERR, "inq_nattrs");
    eq(nattrs, 2, "nattrs");
    eq(cdl_hdr_inq_nattrs(hid, 1, NULL), NC_NOERR, "inq_nattrs NULL");
    eq(cdl_hdr_inq_nattrs(hid, -2, &nattrs), NC_EBADID, "nattrs varid -2");
    eq(cdl_hdr_inq_nattrs(hid, 8, &nattrs), NC_EBADID, "nattrs varid 8");
    eq(cdl_hdr_inq_attr(hid, 1, 1, &name, &xtype, &nelems, &value), NC_NOERR,
       "inq_attr");
    ok(strcmp(name, "valid_range") == 0, "attr name");
    eq(xtype, NC_FLOAT, "attr type");
    eq(nelems, 2, "attr nelems");
    ok(((float *)value)[0] == 0.0f && ((float *)value)[1] == 400.0f,
       "attr values native");
    eq(cdl_hdr_inq_attr(hid, NC_GLOBAL, 0, &name, &xtype, &nelems, &value),
       NC_NOERR, "inq_attr global");
    ok(strcmp(name, "title") == 0 && xtype == NC_CHAR && nelems == 9 &&
           strcmp((char *)value, "all of it") == 0,
       "text value NUL-terminated");
    eq(cdl_hdr_inq_attr(hid, NC_GLOBAL, 0, NULL, NULL, NULL, NULL), NC_NOERR,
       "inq_attr NULLs");
    eq(cdl_hdr_inq_attr(hid, NC_GLOBAL, 3, &name, &xtype, &nelems, &value),
       NC_EBADID, "attrid too big");
    eq(cdl_hdr_inq_attr(hid, 0, -1, &name, &xtype, &nelems, &value), NC_EBADID,
       "attrid negative");
    eq(cdl_hdr_inq_attr(hid, 99, 0, &name, &xtype, &nelems, &value), NC_EBADID,
       "attr varid bad");

    /* Bad ids everywhere. */
    {
        static const int bad[] = {-1, NC_MAX_NFILES, NC_MAX_NFILES + 5};
        size_t b;
        for (b = 0; b < sizeof bad / sizeof bad[0]; b++) {
            eq(cdl_hdr_inq_format(bad[b], &format), NC_EBADID, "bad hid");
            eq(cdl_hdr_inq_ndims(bad[b], &ndims), NC_EBADID, "bad hid");
            eq(cdl_hdr_inq_dim(bad[b], 0, &name, &size), NC_EBADID, "bad hid");
            eq(cdl_hdr_inq_nvars(bad[b], &nvars), NC_EBADID, "bad hid");
            eq(cdl_hdr_inq_var(bad[b], 0, &name, &xtype, &ndims, &dimids),
               NC_EBADID, "bad hid");
            eq(cdl_hdr_inq_nattrs(bad[b], 0, &nattrs), NC_EBADID, "bad hid");
            eq(cdl_hdr_inq_attr(bad[b], 0, 0, &name, &xtype, &nelems, &value),
               NC_EBADID, "bad hid");
            eq(cdl_hdr_close(bad[b]), NC_EBADID, "bad hid");
        }
    }

    /* A second open gets another id; a closed id is bad and reused. */
    eq(cdl_hdr_open(path, &hid2), NC_NOERR, "second open");
    ok(hid2 != hid, "second id differs");
    eq(cdl_hdr_close(hid), NC_NOERR, "close");
    eq(cdl_hdr_close(hid), NC_EBADID, "close twice");
    eq(cdl_hdr_inq_ndims(hid, &ndims), NC_EBADID, "closed id");
    eq(cdl_hdr_open(path, &i), NC_NOERR, "open again");
    eq(i, hid, "the freed id is reused");
    eq(cdl_hdr_close(i), NC_NOERR, "close again");
    eq(cdl_hdr_close(hid2), NC_NOERR, "close second");

    /* NC_MAX_NFILES at once, then NC_ENFILE. */
    for (i = 0; i < NC_MAX_NFILES; i++)
        if ((err = cdl_hdr_open(path, &many[i])) != NC_NOERR) break;
    eq(i, NC_MAX_NFILES, "NC_MAX_NFILES open at once");
    eq(cdl_hdr_open(path, &hid), NC_ENFILE, "one more is NC_ENFILE");
    while (i-- > 0)
        cdl_hdr_close(many[i]);

    unlink(path);
    unlink(gpath);
    rmdir(tmpdir);
}

int main(void)
{
    test_literals();
    test_lists();
    test_strings();
    test_types();
    test_structure();
    test_errors();
    test_format();
    test_hostile();
    test_api();
    printf("%ld passed, %ld failed\n", passed, failed);
    return failed != 0 || passed == 0;
}
