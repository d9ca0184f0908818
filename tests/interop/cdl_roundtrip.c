/*
 * cdl_roundtrip.c -- the CDL header API against files it did not make:
 * ncpario writes netCDF files, netCDF's ncdump and PnetCDF's ncmpidump
 * print their headers as CDL, cdl_hdr_* reads that text back, and every
 * dimension, variable and attribute must be what ncmpi_inq_* says of the
 * file.  cdl_roundtrip_check.sh drives it (ctest interop.cdl_roundtrip).
 *
 *   cdl_roundtrip write DIR
 *       writes DIR/all.nc (CDF-5: every type, the extreme values of each,
 *       NaN, infinities, negative zero, text with escapes, UTF-8 and NUL
 *       bytes, an empty attribute, names ncdump must escape) and
 *       DIR/plain{1,2,5}.nc (CDF-1, CDF-2 with a dimension longer than
 *       CDF-1 holds, CDF-5; plain names and values ncmpidump prints
 *       faithfully).
 *   cdl_roundtrip check FILE.nc FILE.cdl FORMAT VALUES
 *       FORMAT  file: the CDL states the format (ncmpidump's comment,
 *               ncdump -s's _Format); types: it does not, so the format
 *               is the first of 1, 2, 5 that holds the types and the
 *               dimension lengths.
 *       VALUES  exact: reals printed in full (ncdump -p 9,17); printed:
 *               as ncdump prints by default (7 and 15 significant
 *               digits), so a real may differ by that rounding.
 *       An attribute of no element is printed as "" whatever its type, so
 *       only its length is compared; ncdump leaves out the NULs that end
 *       a text, so those are not compared either.
 * Exit status 0 only when everything matched and something was compared.
 */
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mpi.h>
#include <pnetcdf.h>

static int failures;
static long compared;

/* Bytes of one element of a classic type. */
static size_t xsize(nc_type xtype)
{
    static const size_t sizes[] = {0, 1, 1, 2, 4, 4, 8, 1, 2, 4, 8, 8};
    return xtype > 0 && xtype <= NC_UINT64 ? sizes[xtype] : 0;
}

static void fail(const char *fmt, const char *a, long long got, long long want)
{
    failures++;
    printf("FAIL ");
    printf(fmt, a);
    printf(": CDL %lld, file %lld\n", got, want);
}

static int check_call(int err, const char *what)
{
    if (err != NC_NOERR) {
        failures++;
        printf("FAIL %s: %s\n", what, ncmpi_strerror(err));
    }
    return err;
}

/* ---------------------------------------------------------------- write */

typedef struct writer {
    int nc;
    int err;
} writer;

static void w_call(writer *w, int err, const char *what)
{
    if (err != NC_NOERR && w->err == NC_NOERR) {
        w->err = err;
        printf("write: %s: %s\n", what, ncmpi_strerror(err));
    }
}

/* One attribute of each numeric type on varid, with its extremes; plain
 * keeps to what ncmpidump prints right (no 64-bit integer past 2^53). */
static void put_numeric_atts(writer *w, int varid, int cdf5, int plain)
{
    static const signed char b[] = {-128, 127, 0, -1};
    static const short s[] = {-32768, 32767, 0};
    static const int i[] = {INT_MIN, INT_MAX, 0, -7};
    static const unsigned char ub[] = {0, 255, 7};
    static const unsigned short us[] = {0, 65535};
    static const unsigned int ui[] = {0, UINT_MAX};
    static const long long ll[] = {LLONG_MIN, LLONG_MAX, -1};
    static const long long ll_plain[] = {-(1LL << 53), 1LL << 53, -1};
    static const unsigned long long ull[] = {0, ULLONG_MAX, 1ULL << 63};
    static const unsigned long long ull_plain[] = {0, 1ULL << 53, 5};
    float f[] = {FLT_MAX, -FLT_MAX, FLT_MIN,   1.4e-45f, 0.1f,       -0.0f,
                 NAN,     INFINITY, -INFINITY, 1e30f,    1.0f / 3.0f};
    double d[] = {1e308, -1e308,   DBL_MIN,   4.9e-324,  0.1,          -0.0,
                  NAN,   INFINITY, -INFINITY, 1.0 / 3.0, 123456789.125};
    int many[200], k;

    for (k = 0; k < 200; k++)
        many[k] = k * k - 5000;
    w_call(w, ncmpi_put_att_schar(w->nc, varid, "a_byte", NC_BYTE, 4, b),
           "a_byte");
    w_call(w, ncmpi_put_att_short(w->nc, varid, "a_short", NC_SHORT, 3, s),
           "a_short");
    w_call(w, ncmpi_put_att_int(w->nc, varid, "a_int", NC_INT, 4, i), "a_int");
    w_call(w, ncmpi_put_att_int(w->nc, varid, "a_many", NC_INT, 200, many),
           "a_many");
    w_call(w, ncmpi_put_att_float(w->nc, varid, "a_float", NC_FLOAT, 11, f),
           "a_float");
    w_call(w, ncmpi_put_att_double(w->nc, varid, "a_double", NC_DOUBLE, 11, d),
           "a_double");
    if (!cdf5) return;
    w_call(w, ncmpi_put_att_uchar(w->nc, varid, "a_ubyte", NC_UBYTE, 3, ub),
           "a_ubyte");
    w_call(w, ncmpi_put_att_ushort(w->nc, varid, "a_ushort", NC_USHORT, 2, us),
           "a_ushort");
    w_call(w, ncmpi_put_att_uint(w->nc, varid, "a_uint", NC_UINT, 2, ui),
           "a_uint");
    w_call(w,
           ncmpi_put_att_longlong(w->nc, varid, "a_int64", NC_INT64, 3,
                                  plain ? ll_plain : ll),
           "a_int64");
    w_call(w,
           ncmpi_put_att_ulonglong(w->nc, varid, "a_uint64", NC_UINT64, 3,
                                   plain ? ull_plain : ull),
           "a_uint64");
}

static void put_text_atts(writer *w, int varid, int plain)
{
    static const char esc[] = "tab\there \"quoted\" back\\slash\nline 2\n";
    static const char utf8[] = "\xc3\xa9t\xc3\xa9 \xe2\x82\xac";
    static const char ctl[] = "bell\a del\x7f soh\x01 nul\0end\0";
    w_call(w, ncmpi_put_att_text(w->nc, varid, "title", 5, "hello"), "title");
    w_call(w, ncmpi_put_att_text(w->nc, varid, "escapes", sizeof esc - 1, esc),
           "escapes");
    w_call(w, ncmpi_put_att_text(w->nc, varid, "empty", 0, ""), "empty");
    w_call(w, ncmpi_put_att_text(w->nc, varid, "utf8", sizeof utf8 - 1, utf8),
           "utf8");
    if (plain) return;
    w_call(w, ncmpi_put_att_text(w->nc, varid, "control", sizeof ctl - 1, ctl),
           "control");
    w_call(w, ncmpi_put_att_int(w->nc, varid, "no_ints", NC_INT, 0, NULL),
           "no_ints");
    w_call(w, ncmpi_put_att_text(w->nc, varid, "a:b", 1, "x"), "a:b");
    w_call(w, ncmpi_put_att_text(w->nc, varid, "with space", 1, "y"),
           "with space");
    w_call(w, ncmpi_put_att_text(w->nc, varid, "\xc3\xa9", 1, "z"),
           "utf8 name");
}

static int write_file(const char *path, int cmode, int cdf5, int plain)
{
    static const char *const tnames[] = {"byte",  "char",   "short", "int",
                                         "float", "double", "ubyte", "ushort",
                                         "uint",  "int64",  "uint64"};
    writer w = {-1, NC_NOERR};
    int x, d2, t, big = -1, v, k, dims[3];
    char name[64];

    w_call(&w,
           ncmpi_create(MPI_COMM_SELF, path, cmode | NC_CLOBBER, MPI_INFO_NULL,
                        &w.nc),
           "create");
    if (w.err != NC_NOERR) return 1;
    w_call(&w, ncmpi_set_fill(w.nc, NC_NOFILL, NULL), "set_fill");
    w_call(&w, ncmpi_def_dim(w.nc, "x", 3, &x), "x");
    w_call(&w, ncmpi_def_dim(w.nc, plain ? "d2" : "1st dim", 2, &d2), "d2");
    w_call(&w, ncmpi_def_dim(w.nc, "time", NC_UNLIMITED, &t), "time");
    if (cdf5 && !plain)
        w_call(&w, ncmpi_def_dim(w.nc, "big", 5000000000LL, &big), "big");
    /* Longer than CDF-1 holds: ncdump's text must read back as CDF-2. */
    if (cmode & NC_64BIT_OFFSET)
        w_call(&w, ncmpi_def_dim(w.nc, "long", 3000000000LL, &big), "long");
    put_numeric_atts(&w, NC_GLOBAL, cdf5, plain);
    put_text_atts(&w, NC_GLOBAL, plain);
    for (k = 0; k < (cdf5 ? 11 : 6); k++) {
        int nd = k % 4;
        nc_type xtype = (nc_type)(k + 1);
        dims[0] = t;
        dims[1] = x;
        dims[2] = d2;
        if (nd == 3) { /* a fixed one over (d2, x) */
            dims[0] = d2;
            nd = 2;
        }
        snprintf(name, sizeof name, "v_%s", tnames[k]);
        w_call(&w, ncmpi_def_var(w.nc, name, xtype, nd, dims, &v), name);
        put_numeric_atts(&w, v, cdf5, plain);
        if (k % 2 == 0) put_text_atts(&w, v, plain);
    }
    /* A _FillValue of the variable's type. */
    {
        double fill = -999.0;
        w_call(&w, ncmpi_def_var(w.nc, "with_fill", NC_DOUBLE, 1, &x, &v),
               "with_fill");
        w_call(&w,
               ncmpi_put_att_double(w.nc, v, "_FillValue", NC_DOUBLE, 1, &fill),
               "_FillValue");
    }
    if (!plain) {
        /* Names ncdump escapes or prints in full: like a type, like a
         * keyword, a leading digit, punctuation, UTF-8. */
        static const char *const odd[] = {
            "float",    "data",  "dimensions", "variables",       "2d",
            "x.y+z-@#", "a var", "colon:name", "\xc3\xa7\xc3\xa0"};
        for (k = 0; k < (int)(sizeof odd / sizeof odd[0]); k++) {
            w_call(&w, ncmpi_def_var(w.nc, odd[k], NC_INT, 1, &d2, &v), odd[k]);
            w_call(&w, ncmpi_put_att_text(w.nc, v, "units", 1, "m"), "units");
        }
        if (big >= 0)
            w_call(&w, ncmpi_def_var(w.nc, "over_big", NC_BYTE, 1, &big, &v),
                   "over_big");
    }
    w_call(&w, ncmpi_close(w.nc), "close");
    return w.err != NC_NOERR;
}

static int write_all(const char *dir)
{
    char path[4096];
    int bad = 0;
    snprintf(path, sizeof path, "%s/all.nc", dir);
    bad |= write_file(path, NC_64BIT_DATA, 1, 0);
    snprintf(path, sizeof path, "%s/plain1.nc", dir);
    bad |= write_file(path, 0, 0, 1);
    snprintf(path, sizeof path, "%s/plain2.nc", dir);
    bad |= write_file(path, NC_64BIT_OFFSET, 0, 1);
    snprintf(path, sizeof path, "%s/plain5.nc", dir);
    bad |= write_file(path, NC_64BIT_DATA, 1, 1);
    return bad;
}

/* ---------------------------------------------------------------- check */

/* Reals: equal, both NaN, or (printed) within the rounding of their
 * printing; a zero keeps its sign. */
static int same_real(double got, double want, int exact, double tol)
{
    if (isnan(want)) return isnan(got);
    if (isnan(got)) return 0;
    if (got == want) return signbit(got) == signbit(want);
    if (exact || isinf(want) || isinf(got)) return 0;
    return fabs(got - want) <= tol * fabs(want);
}

static void check_values(const char *where, nc_type xtype, MPI_Offset n,
                         const void *got, const void *want, int exact)
{
    MPI_Offset k;
    for (k = 0; k < n; k++) {
        int same;
        switch (xtype) {
        case NC_FLOAT:
            same = same_real(((const float *)got)[k], ((const float *)want)[k],
                             exact, 1e-6);
            break;
        case NC_DOUBLE:
            same = same_real(((const double *)got)[k],
                             ((const double *)want)[k], exact, 1e-14);
            break;
        default:
            same = memcmp((const char *)got + k * xsize(xtype),
                          (const char *)want + k * xsize(xtype),
                          xsize(xtype)) == 0;
        }
        if (!same) {
            failures++;
            printf("FAIL %s: element %lld differs\n", where, (long long)k);
            return;
        }
    }
    compared++;
}

static void check_atts(int nc, int hid, int varid, const char *owner, int exact)
{
    int natts = 0, cnatts = 0, a;
    char where[600];
    check_call(ncmpi_inq_varnatts(nc, varid, &natts), "inq_varnatts");
    check_call(cdl_hdr_inq_nattrs(hid, varid, &cnatts), "cdl_hdr_inq_nattrs");
    if (natts != cnatts) {
        fail("%s: number of attributes", owner, cnatts, natts);
        return;
    }
    for (a = 0; a < natts; a++) {
        char name[NC_MAX_NAME + 1], *cname = NULL;
        nc_type xtype, cxtype;
        MPI_Offset len, clen;
        void *cvalue = NULL, *value;
        if (check_call(ncmpi_inq_attname(nc, varid, a, name), "inq_attname") ||
            check_call(ncmpi_inq_att(nc, varid, name, &xtype, &len),
                       "inq_att") ||
            check_call(cdl_hdr_inq_attr(hid, varid, a, &cname, &cxtype, &clen,
                                        &cvalue),
                       "cdl_hdr_inq_attr"))
            continue;
        snprintf(where, sizeof where, "%s:%s", owner, name);
        if (strcmp(name, cname) != 0) {
            failures++;
            printf("FAIL %s: CDL names it [%s]\n", where, cname);
            continue;
        }
        value = malloc((size_t)len * xsize(xtype) + 1);
        if (value == NULL) continue;
        check_call(ncmpi_get_att(nc, varid, name, value), "get_att");
        /* ncdump leaves out a text's trailing NULs. */
        if (xtype == NC_CHAR && cxtype == NC_CHAR)
            while (len > clen && ((char *)value)[len - 1] == '\0')
                len--;
        if (clen != len) {
            fail("%s: length", where, clen, len);
        } else if (len == 0) {
            compared++;
        } else if (cxtype != xtype) {
            fail("%s: type", where, cxtype, xtype);
        } else {
            check_values(where, xtype, len, cvalue, value, exact);
            if (xtype == NC_CHAR && ((char *)cvalue)[len] != '\0')
                fail("%s: text not NUL-terminated", where, 1, 0);
        }
        free(value);
    }
}

static int check(const char *ncpath, const char *cdlpath, int file_format,
                 int exact)
{
    int nc, hid, err, fmt = 0, cfmt = 0, ndims, cndims, nvars, cnvars;
    int unlim = -1, i, j, want_fmt, cdf5_types = 0, long_dims = 1;

    if (check_call(
            ncmpi_open(MPI_COMM_SELF, ncpath, NC_NOWRITE, MPI_INFO_NULL, &nc),
            ncpath))
        return 1;
    err = cdl_hdr_open(cdlpath, &hid);
    if (check_call(err, cdlpath)) {
        ncmpi_close(nc);
        return 1;
    }
    check_call(ncmpi_inq(nc, &ndims, &nvars, NULL, &unlim), "inq");
    check_call(ncmpi_inq_format(nc, &fmt), "inq_format");
    check_call(cdl_hdr_inq_format(hid, &cfmt), "cdl_hdr_inq_format");
    check_call(cdl_hdr_inq_ndims(hid, &cndims), "cdl_hdr_inq_ndims");
    check_call(cdl_hdr_inq_nvars(hid, &cnvars), "cdl_hdr_inq_nvars");

    if (cndims != ndims) fail("%s: ndims", cdlpath, cndims, ndims);
    for (i = 0; i < ndims && i < cndims; i++) {
        char name[NC_MAX_NAME + 1], *cname;
        MPI_Offset len, clen;
        check_call(ncmpi_inq_dim(nc, i, name, &len), "inq_dim");
        check_call(cdl_hdr_inq_dim(hid, i, &cname, &clen), "cdl_hdr_inq_dim");
        if (i == unlim) len = NC_UNLIMITED;
        /* What each format holds, as PnetCDF's def_dim allows. */
        if (len > 4294967292LL)
            long_dims = 5;
        else if (len > 2147483644LL && long_dims == 1)
            long_dims = 2;
        if (strcmp(name, cname) != 0) {
            failures++;
            printf("FAIL dimension %d: file [%s], CDL [%s]\n", i, name, cname);
        }
        if (clen != len) fail("dimension %s: length", name, clen, len);
        compared++;
    }

    if (cnvars != nvars) fail("%s: nvars", cdlpath, cnvars, nvars);
    for (i = 0; i < nvars && i < cnvars; i++) {
        char name[NC_MAX_NAME + 1], *cname;
        nc_type xtype, cxtype;
        int nd, cnd, dimids[NC_MAX_VAR_DIMS > 64 ? 64 : NC_MAX_VAR_DIMS];
        int *cdimids;
        check_call(ncmpi_inq_varndims(nc, i, &nd), "inq_varndims");
        if (nd > 64) continue;
        check_call(ncmpi_inq_var(nc, i, name, &xtype, &nd, dimids, NULL),
                   "inq_var");
        check_call(cdl_hdr_inq_var(hid, i, &cname, &cxtype, &cnd, &cdimids),
                   "cdl_hdr_inq_var");
        if (xtype > NC_DOUBLE) cdf5_types = 1;
        if (strcmp(name, cname) != 0) {
            failures++;
            printf("FAIL variable %d: file [%s], CDL [%s]\n", i, name, cname);
            continue;
        }
        if (cxtype != xtype) fail("variable %s: type", name, cxtype, xtype);
        if (cnd != nd) {
            fail("variable %s: ndims", name, cnd, nd);
            continue;
        }
        for (j = 0; j < nd; j++)
            if (cdimids[j] != dimids[j])
                fail("variable %s: a dimid", name, cdimids[j], dimids[j]);
        compared++;
        check_atts(nc, hid, i, name, exact);
    }
    check_atts(nc, hid, NC_GLOBAL, "(global)", exact);
    {
        int natts = 0, a;
        check_call(ncmpi_inq_natts(nc, &natts), "inq_natts");
        for (a = 0; a < natts; a++) {
            char name[NC_MAX_NAME + 1];
            nc_type xtype;
            ncmpi_inq_attname(nc, NC_GLOBAL, a, name);
            ncmpi_inq_atttype(nc, NC_GLOBAL, name, &xtype);
            if (xtype > NC_DOUBLE) cdf5_types = 1;
        }
    }

    want_fmt = fmt == NC_FORMAT_CDF5 ? 5 : fmt == NC_FORMAT_CDF2 ? 2 : 1;
    if (!file_format) want_fmt = cdf5_types ? 5 : long_dims;
    if (cfmt != want_fmt) fail("%s: format", cdlpath, cfmt, want_fmt);

    check_call(cdl_hdr_close(hid), "cdl_hdr_close");
    check_call(ncmpi_close(nc), "close");
    return failures != 0;
}

int main(int argc, char **argv)
{
    int rc = 2;
    MPI_Init(&argc, &argv);
    if (argc == 3 && strcmp(argv[1], "write") == 0) {
        rc = write_all(argv[2]);
    } else if (argc == 6 && strcmp(argv[1], "check") == 0) {
        check(argv[2], argv[3], strcmp(argv[4], "file") == 0,
              strcmp(argv[5], "exact") == 0);
        if (failures == 0 && compared == 0) {
            printf("FAIL %s: nothing compared\n", argv[3]);
            failures++;
        }
        if (failures == 0)
            printf("OK %s: %ld items match %s\n", argv[3], compared, argv[2]);
        rc = failures != 0;
    } else {
        fprintf(stderr,
                "usage: %s write DIR | check FILE.nc FILE.cdl "
                "file|types exact|printed\n",
                argv[0]);
    }
    MPI_Finalize();
    return rc;
}
