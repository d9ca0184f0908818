/*
 * tool_util.c -- helpers every ncpario subcommand uses: messages from
 * rank 0, exit codes agreed over the ranks, option and list parsing, and
 * the header read through the library's own codec, so that the tools and
 * the library judge a file the same way.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include <pnetcdf.h>

#include "ncpario_tool.h"

int nt_rank(void)
{
    int rank = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    return rank;
}

void nt_err(const char *cmd, const char *fmt, ...)
{
    va_list ap;
    if (nt_rank() != 0) return;
    fprintf(stderr, "ncpario %s: ", cmd);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
}

int nt_agree(int rc)
{
    int all = rc;
    MPI_Allreduce(&rc, &all, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    return all;
}

int nt_is_help(const char *arg)
{
    return strcmp(arg, "--help") == 0 || strcmp(arg, "-?") == 0;
}

int nt_opt(int argc, char **argv, int *i, const char *lname,
           const char *sname, const char **val)
{
    const char *a = argv[*i];
    size_t n = strlen(lname);
    int hit = 0;
    if (strncmp(a, lname, n) == 0 && a[n] == '=') {
        *val = a + n + 1;
        hit = 1;
    } else if (strcmp(a, lname) == 0 || (sname && strcmp(a, sname) == 0)) {
        *val = *i + 1 < argc ? argv[*i + 1] : NULL;
        if (*val != NULL) (*i)++;
        hit = 1;
    }
    return hit;
}

int nt_parse_i64s(const char *s, int64_t *v, int max, int *n)
{
    int rc = 0;
    *n = 0;
    while (rc == 0 && s != NULL && *s != '\0') {
        char *end = NULL;
        long long x;
        errno = 0;
        x = strtoll(s, &end, 10);
        if (end == s || errno != 0 || *n >= max || x < 0) {
            rc = -1;
        } else {
            v[(*n)++] = (int64_t)x;
            s = *end == ',' ? end + 1 : end;
            if (*end != ',' && *end != '\0') rc = -1;
        }
    }
    return rc;
}

int nt_parse_double(const char *s, double *v)
{
    char *end = NULL;
    errno = 0;
    *v = s ? strtod(s, &end) : -1.0;
    return (s == NULL || end == s || *end != '\0' || errno != 0 || *v < 0)
               ? -1 : 0;
}

/* One "s:c" piece of a subarray (either side may be empty). */
static int parse_range(const char *s, const char *e, int64_t *st, int64_t *ct)
{
    char buf[64];
    char *colon, *end = NULL;
    int rc = 0;
    if (e - s <= 0 || (size_t)(e - s) >= sizeof buf) {
        rc = -1;
        goto done;
    }
    memcpy(buf, s, (size_t)(e - s));
    buf[e - s] = '\0';
    *st = *ct = -1;
    colon = strchr(buf, ':');
    if (colon != NULL) *colon = '\0';
    if (buf[0] != '\0') {
        *st = strtoll(buf, &end, 10);
        if (*end != '\0' || *st < 0) rc = -1;
    }
    if (rc == 0 && colon != NULL && colon[1] != '\0') {
        *ct = strtoll(colon + 1, &end, 10);
        if (*end != '\0' || *ct < 0) rc = -1;
    }
    if (colon == NULL && *st >= 0) *ct = 1; /* a single index */
done:
    return rc;
}

int nt_parse_subarray(const char *spec, char *name, size_t namecap,
                      int64_t *start, int64_t *count, int max, int *n)
{
    const char *br = strchr(spec, '['), *p, *q;
    size_t len = br ? (size_t)(br - spec) : strlen(spec);
    int rc = 0;
    *n = 0;
    if (len == 0 || len >= namecap) {
        rc = -1;
        goto done;
    }
    memcpy(name, spec, len);
    name[len] = '\0';
    if (br == NULL) goto done;
    q = strchr(br, ']');
    if (q == NULL || q[1] != '\0') rc = -1;
    for (p = br + 1; rc == 0 && p < q;) {
        const char *c = memchr(p, ',', (size_t)(q - p));
        const char *e = c ? c : q;
        if (*n >= max) rc = -1;
        else rc = parse_range(p, e, &start[*n], &count[*n]);
        (*n)++;
        p = e + 1;
    }
done:
    return rc;
}

int nt_next_item(const char **s, char *item, size_t cap)
{
    const char *p = *s;
    size_t k = 0;
    int depth = 0, found;
    while (*p == ',') p++;
    found = *p != '\0';
    for (; *p != '\0' && (depth > 0 || *p != ','); p++) {
        if (*p == '[') depth++;
        if (*p == ']') depth--;
        if (k + 1 < cap) item[k++] = *p;
    }
    item[k] = '\0';
    *s = p;
    return found;
}

int nt_read_header(const char *path, ncp_header *h, int64_t *fsize,
                   ncp_hdr_defect *d)
{
    FILE *f = fopen(path, "rb");
    unsigned char *buf = NULL;
    int64_t len = 0, want = 64 * 1024, need = 0;
    int err = NC_NOERR;

    *fsize = 0;
    if (f == NULL) {
        err = errno == ENOENT ? NC_ENOENT : NC_EFILE;
        goto done;
    }
    if (fseek(f, 0, SEEK_END) != 0 || (*fsize = ftell(f)) < 0 ||
        fseek(f, 0, SEEK_SET) != 0) {
        err = NC_EFILE;
        goto done;
    }
    do {
        unsigned char *nb;
        if (want > *fsize) want = *fsize;
        nb = realloc(buf, (size_t)want + 1);
        if (nb == NULL) {
            err = NC_ENOMEM;
            break;
        }
        buf = nb;
        if (fread(buf + len, 1, (size_t)(want - len), f) !=
            (size_t)(want - len)) {
            err = NC_EFILE;
            break;
        }
        len = want;
        ncp_header_init(h, NCP_CDF1);
        err = ncp_header_decode_diag(buf, len, *fsize, h, &need, d);
        want = need;
    } while (err == NCP_HDR_NEED_MORE);
done:
    if (f != NULL) fclose(f);
    free(buf);
    return err;
}

int64_t nt_record_end(const ncp_header *h)
{
    int64_t end = 0;
    int i;
    for (i = 0; i < h->nvars; i++) {
        const ncp_var *v = &h->vars[i];
        int64_t bytes = v->nelems_per_rec * nt_xsize(v->xtype);
        if (v->is_record && v->begin + bytes - h->begin_rec > end)
            end = v->begin + bytes - h->begin_rec;
    }
    return end;
}

int64_t nt_records_held(const ncp_header *h, int64_t fsize)
{
    int64_t last = nt_record_end(h), n;
    if (h->num_rec_vars == 0 || h->recsize <= 0) return h->numrecs;
    if (fsize < h->begin_rec + last) return 0;
    n = (fsize - h->begin_rec - last) / h->recsize + 1;
    return n < h->numrecs ? n : h->numrecs;
}

int nt_xsize(int xtype)
{
    switch (xtype) {
    case NC_BYTE: case NC_CHAR: case NC_UBYTE: return 1;
    case NC_SHORT: case NC_USHORT: return 2;
    case NC_INT: case NC_UINT: case NC_FLOAT: return 4;
    case NC_DOUBLE: case NC_INT64: case NC_UINT64: return 8;
    default: return 0;
    }
}

const char *nt_type_name(int xtype)
{
    static const char *const names[] = {
        "?", "byte", "char", "short", "int", "float", "double",
        "ubyte", "ushort", "uint", "int64", "uint64"};
    return xtype >= 1 && xtype <= 11 ? names[xtype] : "?";
}

MPI_Datatype nt_mpi_type(int xtype)
{
    switch (xtype) {
    case NC_BYTE: return MPI_SIGNED_CHAR;
    case NC_CHAR: return MPI_CHAR;
    case NC_SHORT: return MPI_SHORT;
    case NC_INT: return MPI_INT;
    case NC_FLOAT: return MPI_FLOAT;
    case NC_DOUBLE: return MPI_DOUBLE;
    case NC_UBYTE: return MPI_UNSIGNED_CHAR;
    case NC_USHORT: return MPI_UNSIGNED_SHORT;
    case NC_UINT: return MPI_UNSIGNED;
    case NC_INT64: return MPI_LONG_LONG;
    default: return MPI_UNSIGNED_LONG_LONG;
    }
}

int nt_each_file(int argc, char **argv, const char *cmd,
                 void (*usage)(FILE *), int (*one)(const char *, int))
{
    int i, quiet = 0, nfiles = 0, rc = NT_OK, r, help = 0;
    for (i = 1; i < argc; i++) {
        if (nt_is_help(argv[i])) help = 1;
        else if (strcmp(argv[i], "-q") == 0) quiet = 1;
        else if (argv[i][0] == '-') rc = NT_USAGE;
        else nfiles++;
    }
    if (help) {
        if (nt_rank() == 0) usage(stdout);
        return NT_OK;
    }
    if (rc != NT_OK || nfiles == 0) {
        nt_err(cmd, "bad arguments (see 'ncpario %s --help')", cmd);
        return NT_USAGE;
    }
    for (i = 1; i < argc && nt_rank() == 0; i++) {
        if (argv[i][0] == '-') continue;
        r = one(argv[i], quiet);
        if (r > rc) rc = r;
    }
    fflush(stdout);
    MPI_Bcast(&rc, 1, MPI_INT, 0, MPI_COMM_WORLD);
    return rc;
}
