/*
 * diff.c -- `ncpario diff`: compares two files, header and data, as
 * PnetCDF's ncmpidiff and cdfdiff do.  The headers are compared entry by
 * entry through the public API (dimensions, attributes, variables); then
 * every variable the two files hold with the same type and shape is read
 * in rounds of rows along its first dimension, every rank comparing its
 * own rows, and the ranks' counts and first differences are reduced, so
 * the report is the same at any rank count.
 *
 * Two values are equal when their bytes are, when both are NaN, or when
 * |a - b| <= atol + rtol * max(|a|, |b|) (compared as long double).
 */
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include <pnetcdf.h>

#include "ncpario_tool.h"

#define ROUND_ELEMS ((int64_t)1 << 20)

typedef struct diffopt {
    double atol, rtol;
    int quiet, header_only;
    const char *vars; /* NULL: every variable */
    int ndiff;        /* differences reported so far (rank 0) */
} diffopt;

static void report(diffopt *o, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

static void report(diffopt *o, const char *fmt, ...)
{
    va_list ap;
    o->ndiff++;
    if (!o->quiet && nt_rank() == 0) {
        printf("DIFFER: ");
        va_start(ap, fmt);
        vprintf(fmt, ap);
        va_end(ap);
        putchar('\n');
    }
}

static long double value_at(int xt, const void *buf, int64_t i)
{
    switch (xt) {
    case NC_BYTE: return ((const signed char *)buf)[i];
    case NC_CHAR: case NC_UBYTE: return ((const unsigned char *)buf)[i];
    case NC_SHORT: return ((const short *)buf)[i];
    case NC_USHORT: return ((const unsigned short *)buf)[i];
    case NC_INT: return ((const int *)buf)[i];
    case NC_UINT: return ((const unsigned *)buf)[i];
    case NC_FLOAT: return ((const float *)buf)[i];
    case NC_DOUBLE: return ((const double *)buf)[i];
    case NC_INT64: return ((const long long *)buf)[i];
    default: return ((const unsigned long long *)buf)[i];
    }
}

static int same_value(const diffopt *o, int xt, const void *a, const void *b,
                      int64_t i)
{
    int xs = nt_xsize(xt);
    long double x = value_at(xt, a, i), y = value_at(xt, b, i);
    long double m = fabsl(x) > fabsl(y) ? fabsl(x) : fabsl(y);
    return memcmp((const char *)a + i * xs, (const char *)b + i * xs,
                  (size_t)xs) == 0 ||
           (isnan(x) && isnan(y)) ||
           fabsl(x - y) <= (long double)o->atol + (long double)o->rtol * m;
}

/* Attributes of varid (NC_GLOBAL too) compared by name, type, values. */
static void diff_atts(diffopt *o, int nc1, int v1, int nc2, int v2,
                      const char *what)
{
    int n1 = 0, n2 = 0, i, j;
    char name[NC_MAX_NAME + 1];
    ncmpi_inq_varnatts(nc1, v1, &n1);
    ncmpi_inq_varnatts(nc2, v2, &n2);
    for (i = 0; i < n1; i++) {
        nc_type t1, t2;
        MPI_Offset l1, l2;
        void *b1, *b2;
        ncmpi_inq_attname(nc1, v1, i, name);
        ncmpi_inq_att(nc1, v1, name, &t1, &l1);
        if (ncmpi_inq_att(nc2, v2, name, &t2, &l2) != NC_NOERR) {
            report(o, "%s: attribute '%s' only in the first file", what, name);
            continue;
        }
        if (t1 != t2 || l1 != l2) {
            report(o, "%s: attribute '%s': %s[%lld] vs %s[%lld]", what, name,
                   nt_type_name(t1), (long long)l1, nt_type_name(t2),
                   (long long)l2);
            continue;
        }
        b1 = calloc((size_t)l1 + 1, 8);
        b2 = calloc((size_t)l1 + 1, 8);
        if (b1 && b2 && ncmpi_get_att(nc1, v1, name, b1) == NC_NOERR &&
            ncmpi_get_att(nc2, v2, name, b2) == NC_NOERR) {
            for (j = 0; j < l1 && same_value(o, t1, b1, b2, j); j++) continue;
            if (j < l1)
                report(o, "%s: attribute '%s': values differ at [%d]", what,
                       name, j);
        }
        free(b1);
        free(b2);
    }
    for (i = 0; i < n2; i++) {
        ncmpi_inq_attname(nc2, v2, i, name);
        if (ncmpi_inq_attid(nc1, v1, name, &j) != NC_NOERR)
            report(o, "%s: attribute '%s' only in the second file", what, name);
    }
}

/* The shape of varid as dimension names and lengths, in text. */
static void shape_of(int nc, int varid, char *out, size_t cap)
{
    int nd = 0, dimids[NT_MAX_DIMS], d;
    size_t k = 0;
    char name[NC_MAX_NAME + 1];
    MPI_Offset len;
    nc_type xt;
    ncmpi_inq_vartype(nc, varid, &xt);
    ncmpi_inq_varndims(nc, varid, &nd);
    if (nd > NT_MAX_DIMS) nd = 0; /* refused by diff_vars */
    if (nd > 0) ncmpi_inq_vardimid(nc, varid, dimids);
    k += (size_t)snprintf(out + k, cap - k, "%s(", nt_type_name(xt));
    for (d = 0; d < nd && k < cap; d++) {
        ncmpi_inq_dim(nc, dimids[d], name, &len);
        k += (size_t)snprintf(out + k, cap - k, "%s%s=%lld", d ? "," : "",
                              name, (long long)len);
    }
    if (k < cap) snprintf(out + k, cap - k, ")");
}

/* The CDF version (1, 2 or 5) of ncmpi_inq_format's answer. */
static int cdf_of(int format)
{
    return format == NC_FORMAT_CDF2 ? 2 : format == NC_FORMAT_CDF5 ? 5 : 1;
}

static void diff_header(diffopt *o, int nc1, int nc2)
{
    int nd1, nd2, nv1, nv2, i, id, f1 = 0, f2 = 0;
    char name[NC_MAX_NAME + 1], s1[1024], s2[1024];
    MPI_Offset l1, l2;

    ncmpi_inq_format(nc1, &f1);
    ncmpi_inq_format(nc2, &f2);
    if (f1 != f2)
        report(o, "format: CDF-%d vs CDF-%d", cdf_of(f1), cdf_of(f2));
    ncmpi_inq_ndims(nc1, &nd1);
    ncmpi_inq_ndims(nc2, &nd2);
    for (i = 0; i < nd1; i++) {
        ncmpi_inq_dim(nc1, i, name, &l1);
        if (ncmpi_inq_dimid(nc2, name, &id) != NC_NOERR)
            report(o, "dimension '%s' only in the first file", name);
        else if (ncmpi_inq_dimlen(nc2, id, &l2) == NC_NOERR && l1 != l2)
            report(o, "dimension '%s': length %lld vs %lld", name,
                   (long long)l1, (long long)l2);
    }
    for (i = 0; i < nd2; i++) {
        ncmpi_inq_dimname(nc2, i, name);
        if (ncmpi_inq_dimid(nc1, name, &id) != NC_NOERR)
            report(o, "dimension '%s' only in the second file", name);
    }
    diff_atts(o, nc1, NC_GLOBAL, nc2, NC_GLOBAL, "global");
    ncmpi_inq_nvars(nc1, &nv1);
    ncmpi_inq_nvars(nc2, &nv2);
    for (i = 0; i < nv1; i++) {
        ncmpi_inq_varname(nc1, i, name);
        if (ncmpi_inq_varid(nc2, name, &id) != NC_NOERR) {
            report(o, "variable '%s' only in the first file", name);
            continue;
        }
        shape_of(nc1, i, s1, sizeof s1);
        shape_of(nc2, id, s2, sizeof s2);
        if (strcmp(s1, s2) != 0)
            report(o, "variable '%s': %s vs %s", name, s1, s2);
        snprintf(s1, sizeof s1, "variable '%s'", name);
        diff_atts(o, nc1, i, nc2, id, s1);
    }
    for (i = 0; i < nv2; i++) {
        ncmpi_inq_varname(nc2, i, name);
        if (ncmpi_inq_varid(nc1, name, &id) != NC_NOERR)
            report(o, "variable '%s' only in the second file", name);
    }
}

/* Text of element lin of a variable of shape ct: "[i, j, k]". */
static void index_text(int64_t lin, int nd, const MPI_Offset *ct, char *out,
                       size_t cap)
{
    int64_t idx[NT_MAX_DIMS];
    int d;
    size_t k = 0;
    for (d = nd - 1; d >= 0; d--) {
        idx[d] = ct[d] > 0 ? lin % ct[d] : 0;
        lin = ct[d] > 0 ? lin / ct[d] : 0;
    }
    k += (size_t)snprintf(out, cap, "[");
    for (d = 0; d < nd && k < cap; d++)
        k += (size_t)snprintf(out + k, cap - k, "%s%" PRId64, d ? ", " : "",
                              idx[d]);
    if (k < cap) snprintf(out + k, cap - k, "]");
}

typedef struct vdiff {
    int64_t first;     /* linear index of the first difference, or INT64_MAX */
    int64_t count;     /* differing elements */
    char values[160];  /* "a vs b" at first, on the rank that found it */
} vdiff;

/* Compare n elements of a and b, the first at linear index lin0. */
static void compare_block(const diffopt *o, int xt, const void *a,
                          const void *b, int64_t n, int64_t lin0, vdiff *r)
{
    int64_t i;
    for (i = 0; i < n; i++) {
        if (same_value(o, xt, a, b, i)) continue;
        if (r->count++ == 0 || lin0 + i < r->first) {
            r->first = lin0 + i;
            int prec = xt == NC_FLOAT ? 7 : xt == NC_DOUBLE ? 15 : 20;
            snprintf(r->values, sizeof r->values, "%.*Lg vs %.*Lg", prec,
                     value_at(xt, a, i), prec, value_at(xt, b, i));
        }
    }
}

/* Is name in the comma-separated list (NULL: every name is)? */
static int listed(const char *list, const char *name)
{
    char item[NC_MAX_NAME + 1];
    int hit = list == NULL;
    while (!hit && nt_next_item(&list, item, sizeof item))
        hit = strcmp(item, name) == 0;
    return hit;
}

/* Compare variable v1 of nc1 with v2 of nc2 (same type and shape). */
static int diff_data(diffopt *o, int nc1, int v1, int nc2, int v2,
                     const char *name)
{
    MPI_Offset ct[NT_MAX_DIMS], st[NT_MAX_DIMS], len;
    int nd, dimids[NT_MAX_DIMS], d, nprocs, rank = nt_rank(), err = 0;
    int64_t rows, per_row = 1, q, base, first = INT64_MAX, count = 0, n;
    nc_type xt;
    void *a = NULL, *b = NULL;
    vdiff r = {INT64_MAX, 0, ""};
    char idx[256];

    MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
    ncmpi_inq_varndims(nc1, v1, &nd);
    if (nd > NT_MAX_DIMS) {
        err = NC_EMAXDIMS;
        goto done;
    }
    ncmpi_inq_var(nc1, v1, NULL, &xt, &nd, dimids, NULL);
    for (d = 0; d < nd; d++) {
        ncmpi_inq_dimlen(nc1, dimids[d], &len);
        ct[d] = len;
        if (d > 0) per_row *= len;
    }
    rows = nd > 0 ? ct[0] : 1;
    if (rows * per_row == 0) goto done;
    q = per_row < ROUND_ELEMS ? ROUND_ELEMS / per_row : 1;
    if (q > (rows + nprocs - 1) / nprocs) q = (rows + nprocs - 1) / nprocs;
    a = malloc((size_t)(q * per_row * nt_xsize(xt)));
    b = malloc((size_t)(q * per_row * nt_xsize(xt)));
    if (nt_agree(a == NULL || b == NULL) != 0) {
        err = NC_ENOMEM;
        goto done;
    }
    for (base = 0; base < rows && err == NC_NOERR; base += q * nprocs) {
        int64_t r0 = base + (int64_t)rank * q, nr = rows - r0;
        if (nr > q) nr = q;
        if (nr < 0) nr = 0;
        for (d = 0; d < nd; d++) st[d] = 0;
        if (nd > 0) {
            st[0] = r0 < rows ? r0 : rows;
            ct[0] = nr;
        }
        /* a scalar has no rows to share: every rank reads, rank 0 compares */
        n = nd == 0 ? 1 : nr * per_row;
        err = ncmpi_get_vara_all(nc1, v1, st, ct, a, (MPI_Offset)n,
                                 nt_mpi_type(xt));
        if (err == NC_NOERR)
            err = ncmpi_get_vara_all(nc2, v2, st, ct, b, (MPI_Offset)n,
                                     nt_mpi_type(xt));
        if (nt_agree(err != NC_NOERR ? 1 : 0) != 0) {
            if (err == NC_NOERR) err = NC_EFILE;
            break;
        }
        compare_block(o, xt, a, b, nr * per_row, r0 * per_row, &r);
    }
    if (nd > 0) ct[0] = rows;
    MPI_Allreduce(&r.first, &first, 1, MPI_INT64_T, MPI_MIN, MPI_COMM_WORLD);
    MPI_Allreduce(&r.count, &count, 1, MPI_INT64_T, MPI_SUM, MPI_COMM_WORLD);
    if (err == NC_NOERR && count > 0) {
        int owner = r.count > 0 && r.first == first ? rank : -1, who = -1;
        MPI_Allreduce(&owner, &who, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
        if (who > 0 && rank == who)
            MPI_Send(r.values, (int)sizeof r.values, MPI_CHAR, 0, 1,
                     MPI_COMM_WORLD);
        if (who > 0 && rank == 0)
            MPI_Recv(r.values, (int)sizeof r.values, MPI_CHAR, who, 1,
                     MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        index_text(first, nd, ct, idx, sizeof idx);
        report(o, "variable '%s': %" PRId64 " of %" PRId64 " elements "
                  "differ, first at %s: %s", name, count, rows * per_row,
               idx, r.values);
    }
done:
    free(a);
    free(b);
    return err;
}

static int diff_vars(diffopt *o, int nc1, int nc2)
{
    int nv, i, id, err = NC_NOERR;
    char name[NC_MAX_NAME + 1], s1[1024], s2[1024];
    const char *s = o->vars;
    ncmpi_inq_nvars(nc1, &nv);
    for (i = 0; err == NC_NOERR && i < nv; i++) {
        ncmpi_inq_varname(nc1, i, name);
        if (!listed(o->vars, name) ||
            ncmpi_inq_varid(nc2, name, &id) != NC_NOERR)
            continue;
        shape_of(nc1, i, s1, sizeof s1);
        shape_of(nc2, id, s2, sizeof s2);
        if (strcmp(s1, s2) == 0) err = diff_data(o, nc1, i, nc2, id, name);
    }
    /* a named variable that is in neither file is a usage error */
    while (s != NULL && nt_next_item(&s, name, sizeof name))
        if (ncmpi_inq_varid(nc1, name, &id) != NC_NOERR &&
            ncmpi_inq_varid(nc2, name, &id) != NC_NOERR)
            err = NC_ENOTVAR;
    return err;
}

static void diff_usage(FILE *out)
{
    fprintf(out,
        "usage: ncpario diff [-h] [-q] [-v VAR,...] [--atol A] [--rtol R] "
        "FILE1 FILE2\n"
        "Compare two netCDF files: header, then the data of every variable "
        "both hold\nwith the same type and shape.  Values a, b are equal when "
        "|a-b| <= A + R*max(|a|,|b|)\n(both default 0: bitwise), or both NaN.\n"
        "  -h        compare the headers only\n"
        "  -v LIST   compare the data of these variables only\n"
        "  -q        print nothing, only set the exit status\n"
        "Under mpirun every rank compares a share of the data.\n"
        "Exit: 0 identical, 1 different, 2 usage error, 3 a file cannot be "
        "read.\n");
}

int nt_diff(int argc, char **argv)
{
    diffopt o = {0, 0, 0, 0, NULL, 0};
    const char *path[2] = {NULL, NULL}, *val;
    int i, np = 0, rc = NT_OK, nc[2] = {-1, -1}, err, help = 0;

    for (i = 1; i < argc && rc == NT_OK; i++) {
        val = "";
        if (nt_is_help(argv[i])) {
            help = 1;
        } else if (strcmp(argv[i], "-h") == 0) {
            o.header_only = 1;
        } else if (strcmp(argv[i], "-q") == 0) {
            o.quiet = 1;
        } else if (nt_opt(argc, argv, &i, "--vars", "-v", &val)) {
            o.vars = val;
        } else if (nt_opt(argc, argv, &i, "--atol", NULL, &val)) {
            if (nt_parse_double(val, &o.atol) != 0) rc = NT_USAGE;
        } else if (nt_opt(argc, argv, &i, "--rtol", NULL, &val)) {
            if (nt_parse_double(val, &o.rtol) != 0) rc = NT_USAGE;
        } else if (argv[i][0] != '-' && np < 2) {
            path[np++] = argv[i];
        } else {
            rc = NT_USAGE;
        }
        if (val == NULL) rc = NT_USAGE;
    }
    if (help) {
        if (nt_rank() == 0) diff_usage(stdout);
        rc = NT_OK;
        goto done;
    }
    if (rc != NT_OK || np != 2) {
        nt_err("diff", "bad arguments (see 'ncpario diff --help')");
        rc = NT_USAGE;
        goto done;
    }
    for (i = 0; i < 2 && rc == NT_OK; i++) {
        err = ncmpi_open(MPI_COMM_WORLD, path[i], NC_NOWRITE, MPI_INFO_NULL,
                         &nc[i]);
        if (err != NC_NOERR) {
            nt_err("diff", "%s: %s", path[i], ncmpi_strerror(err));
            rc = NT_FAIL;
        }
    }
    if (rc == NT_OK) {
        diff_header(&o, nc[0], nc[1]);
        if (!o.header_only) err = diff_vars(&o, nc[0], nc[1]);
        if (!o.header_only && err != NC_NOERR) {
            nt_err("diff", "%s", ncmpi_strerror(err));
            rc = err == NC_ENOTVAR ? NT_USAGE : NT_FAIL;
        } else {
            rc = o.ndiff > 0 ? NT_FOUND : NT_OK;
        }
        if (rc == NT_OK && !o.quiet && nt_rank() == 0)
            printf("files are identical%s\n",
                   o.atol > 0 || o.rtol > 0 ? " within the tolerances" : "");
    }
    for (i = 0; i < 2; i++)
        if (nc[i] >= 0) ncmpi_close(nc[i]);
    fflush(stdout);
    rc = nt_agree(rc);
done:
    return rc;
}
