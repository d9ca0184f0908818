/*
 * dump.c -- `ncpario dump`: a file as CDL, laid out as netCDF's `ncdump`
 * lays it out, so that the two can be compared byte for byte: the header
 * (-h), and the data of all or chosen variables, whole or a subarray.
 *
 * Everything goes through the public API.  Every rank opens the file; a
 * variable's data is read in rounds of whole rows along its first
 * dimension, each rank reading its own rows collectively, and rank 0
 * prints its rows, then each other rank's in rank order, so the output is
 * the same at any rank count and no rank holds more than a round.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <pnetcdf.h>

#include "ncpario_tool.h"

#define ROUND_ELEMS ((int64_t)1 << 20)

typedef struct column {
    FILE *out;
    int col; /* characters on the current line */
} column;

typedef struct selection {
    int varid;
    int nd;                      /* the variable's rank */
    int clipped;                 /* records past the file's end left out */
    char label[NC_MAX_NAME + 64];/* the name, escaped, with the subarray */
    MPI_Offset start[NT_MAX_DIMS];
    MPI_Offset count[NT_MAX_DIMS];
} selection;

static void put(column *c, const char *s)
{
    const char *nl = strrchr(s, '\n');
    fputs(s, c->out);
    c->col = nl ? (int)strlen(nl + 1) : c->col + (int)strlen(s);
}

/* A name as CDL writes it: CDL's special characters and a leading digit
 * escaped with a backslash; other bytes (UTF-8 included) as they are. */
static void put_name(column *c, const char *name)
{
    static const char special[] = " !\"#$&'()*,:;<=>?[\\]^`{|}~";
    char buf[2 * NC_MAX_NAME + 2];
    size_t k = 0;
    const char *p;
    for (p = name; *p != '\0' && k + 2 < sizeof buf; p++) {
        int digit = p == name && *p >= '0' && *p <= '9';
        if (strchr(special, *p) != NULL || digit) buf[k++] = '\\';
        buf[k++] = *p;
    }
    buf[k] = '\0';
    put(c, buf);
}

/* One character of a CDL string: escapes for quotes, backslashes and
 * control bytes; bytes of 0x80 and up (UTF-8) as they are. */
static void char_cdl(unsigned char ch, char *out)
{
    switch (ch) {
    case '\b': strcpy(out, "\\b"); break;
    case '\f': strcpy(out, "\\f"); break;
    case '\n': strcpy(out, "\\n"); break;
    case '\r': strcpy(out, "\\r"); break;
    case '\t': strcpy(out, "\\t"); break;
    case '\v': strcpy(out, "\\v"); break;
    case '\\': strcpy(out, "\\\\"); break;
    case '\'': strcpy(out, "\\'"); break;
    case '"': strcpy(out, "\\\""); break;
    default:
        if (ch < 0x20 || ch == 0x7f) snprintf(out, 8, "\\%03o", ch);
        else out[0] = (char)ch, out[1] = '\0';
    }
}

/* A char array as CDL strings: trailing NULs dropped, a new string begun
 * after each newline, each continuation on a line led by cont. */
static void put_text(column *c, const char *s, size_t n, const char *cont)
{
    char e[8];
    size_t i;
    while (n > 0 && s[n - 1] == '\0') n--;
    put(c, "\"");
    for (i = 0; i < n; i++) {
        char_cdl((unsigned char)s[i], e);
        put(c, e);
        if (s[i] == '\n') {
            put(c, "\",\n");
            put(c, cont);
            put(c, "\"");
        }
    }
    put(c, "\"");
}

/* A real as CDL: printf's %g at the type's precision, the special values
 * by name (a float's with its suffix, data or not); in an attribute, a
 * decimal point and the suffix are added, so the value reads back as its
 * type. */
static void fmt_real(double v, int is_float, int attr, char *out, size_t cap)
{
    const char *sfx = is_float ? "f" : "";
    if (isnan(v)) {
        snprintf(out, cap, "NaN%s", sfx);
    } else if (isinf(v)) {
        snprintf(out, cap, "%sInfinity%s", v < 0 ? "-" : "", sfx);
    } else {
        char num[48], *e;
        snprintf(num, sizeof num, "%.*g", is_float ? 7 : 15, v);
        if (attr && strchr(num, '.') == NULL) {
            e = strchr(num, 'e');
            if (e != NULL) {
                memmove(e + 1, e, strlen(e) + 1);
                *e = '.';
            } else {
                strcat(num, ".");
            }
        }
        snprintf(out, cap, "%s%s", num, attr ? sfx : "");
    }
}

/* CDL's suffix for an attribute value of type xtype ("" for int, double
 * and char). */
static const char *suffix(int xtype)
{
    switch (xtype) {
    case NC_BYTE: return "b";
    case NC_SHORT: return "s";
    case NC_FLOAT: return "f";
    case NC_UBYTE: return "UB";
    case NC_USHORT: return "US";
    case NC_UINT: return "U";
    case NC_INT64: return "LL";
    case NC_UINT64: return "ULL";
    default: return "";
    }
}

/* Element i of a buffer of type xtype as CDL; attr adds the type suffix. */
static void fmt_value(int xtype, const void *buf, int64_t i, int attr,
                      char *out, size_t cap)
{
    const char *sfx = attr ? suffix(xtype) : "";
    long long v = 0;
    unsigned long long u = 0;
    switch (xtype) {
    case NC_BYTE: v = ((const signed char *)buf)[i]; break;
    case NC_SHORT: v = ((const short *)buf)[i]; break;
    case NC_INT: v = ((const int *)buf)[i]; break;
    case NC_INT64: v = ((const long long *)buf)[i]; break;
    case NC_UBYTE: u = ((const unsigned char *)buf)[i]; break;
    case NC_USHORT: u = ((const unsigned short *)buf)[i]; break;
    case NC_UINT: u = ((const unsigned *)buf)[i]; break;
    case NC_UINT64: u = ((const unsigned long long *)buf)[i]; break;
    default: break;
    }
    switch (xtype) {
    case NC_BYTE: case NC_SHORT: case NC_INT: case NC_INT64:
        snprintf(out, cap, "%lld%s", v, sfx);
        break;
    case NC_UBYTE: case NC_USHORT: case NC_UINT: case NC_UINT64:
        snprintf(out, cap, "%llu%s", u, sfx);
        break;
    case NC_FLOAT:
        fmt_real(((const float *)buf)[i], 1, attr, out, cap);
        break;
    case NC_DOUBLE:
        fmt_real(((const double *)buf)[i], 0, attr, out, cap);
        break;
    default:
        snprintf(out, cap, "?");
    }
}

/* Print one attribute line: "\t\tvar:name = values ;". */
static int put_att(column *c, int ncid, int varid, const char *vname, int a)
{
    char name[NC_MAX_NAME + 1], v[64];
    nc_type xt;
    MPI_Offset len, i;
    void *buf = NULL;
    int err = ncmpi_inq_attname(ncid, varid, a, name);
    if (err == NC_NOERR) err = ncmpi_inq_att(ncid, varid, name, &xt, &len);
    if (err == NC_NOERR) {
        buf = malloc((size_t)(len > 0 ? len : 1) * 8);
        if (buf == NULL) err = NC_ENOMEM;
    }
    if (err == NC_NOERR) err = ncmpi_get_att(ncid, varid, name, buf);
    if (err != NC_NOERR) goto done;
    put(c, "\t\t");
    if (vname != NULL) put_name(c, vname);
    put(c, ":");
    put_name(c, name);
    put(c, " = ");
    /* an empty attribute of any type reads back as an empty string */
    if (xt == NC_CHAR || len == 0) put_text(c, buf, (size_t)len, "\t\t\t");
    for (i = 0; xt != NC_CHAR && i < len; i++) {
        fmt_value(xt, buf, i, 1, v, sizeof v);
        put(c, v);
        if (i + 1 < len) put(c, ", ");
    }
    put(c, " ;\n");
done:
    free(buf);
    return err;
}

/* netcdf's dataset name: the file's base name without its extension. */
static void dataset_name(const char *path, char *out, size_t cap)
{
    const char *b = strrchr(path, '/');
    char *dot;
    snprintf(out, cap, "%s", b ? b + 1 : path);
    dot = strrchr(out, '.');
    if (dot != NULL && dot != out) *dot = '\0';
}

static int put_header(column *c, int ncid, const char *path)
{
    char name[NC_MAX_NAME + 1], dname[NC_MAX_NAME + 1], buf[64];
    int ndims, nvars, ngatts, unlim, i, j, err;
    MPI_Offset len;

    err = ncmpi_inq(ncid, &ndims, &nvars, &ngatts, &unlim);
    if (err != NC_NOERR) goto done;
    dataset_name(path, buf, sizeof buf);
    put(c, "netcdf ");
    put_name(c, buf);
    put(c, " {\n");
    if (ndims > 0) put(c, "dimensions:\n");
    for (i = 0; i < ndims && err == NC_NOERR; i++) {
        err = ncmpi_inq_dim(ncid, i, name, &len);
        put(c, "\t");
        put_name(c, name);
        if (i == unlim)
            snprintf(buf, sizeof buf, " = UNLIMITED ; // (%lld currently)\n",
                     (long long)len);
        else
            snprintf(buf, sizeof buf, " = %lld ;\n", (long long)len);
        put(c, buf);
    }
    if (nvars > 0) put(c, "variables:\n");
    for (i = 0; i < nvars && err == NC_NOERR; i++) {
        int dimids[NT_MAX_DIMS], nd, natts;
        nc_type xt;
        err = ncmpi_inq_varndims(ncid, i, &nd);
        if (err == NC_NOERR && nd > NT_MAX_DIMS) err = NC_EMAXDIMS;
        if (err == NC_NOERR)
            err = ncmpi_inq_var(ncid, i, name, &xt, &nd, dimids, &natts);
        if (err != NC_NOERR) break;
        put(c, "\t");
        put(c, nt_type_name(xt));
        put(c, " ");
        put_name(c, name);
        for (j = 0; j < nd && err == NC_NOERR; j++) {
            err = ncmpi_inq_dimname(ncid, dimids[j], dname);
            put(c, j == 0 ? "(" : ", ");
            put_name(c, dname);
        }
        put(c, nd > 0 ? ") ;\n" : " ;\n");
        for (j = 0; j < natts && err == NC_NOERR; j++)
            err = put_att(c, ncid, i, name, j);
    }
    if (ngatts > 0) put(c, "\n// global attributes:\n");
    for (j = 0; j < ngatts && err == NC_NOERR; j++)
        err = put_att(c, ncid, NC_GLOBAL, NULL, j);
done:
    return err;
}

/* The fill value data equal to print as "_": the variable's _FillValue,
 * else the type's default except for the byte types, as ncdump does. */
static int fill_of(int ncid, int varid, int xt, unsigned char *fill)
{
    nc_type at;
    MPI_Offset n;
    int have = ncmpi_inq_att(ncid, varid, "_FillValue", &at, &n) == NC_NOERR &&
               at == xt && n == 1 &&
               ncmpi_get_att(ncid, varid, "_FillValue", fill) == NC_NOERR;
    if (have || xt == NC_BYTE || xt == NC_UBYTE || xt == NC_CHAR) goto done;
    have = 1;
    switch (xt) {
    case NC_SHORT: *(short *)(void *)fill = NC_FILL_SHORT; break;
    case NC_INT: *(int *)(void *)fill = NC_FILL_INT; break;
    case NC_FLOAT: *(float *)(void *)fill = NC_FILL_FLOAT; break;
    case NC_DOUBLE: *(double *)(void *)fill = NC_FILL_DOUBLE; break;
    case NC_USHORT: *(unsigned short *)(void *)fill = NC_FILL_USHORT; break;
    case NC_UINT: *(unsigned *)(void *)fill = NC_FILL_UINT; break;
    case NC_INT64: *(long long *)(void *)fill = NC_FILL_INT64; break;
    default: *(unsigned long long *)(void *)fill = NC_FILL_UINT64; break;
    }
done:
    return have;
}

typedef struct printer {
    column *c;
    int xt, xs, multi, has_fill;
    unsigned char fill[8];
    int64_t row;   /* elements per row (the last dimension's count) */
    int64_t total; /* elements selected */
    int64_t next;  /* index of the next element to print */
} printer;

/* Print n elements of buf, continuing where the last call stopped. */
static void print_elems(printer *p, const void *buf, int64_t n)
{
    char v[64];
    int64_t i;
    for (i = 0; i < n; i++, p->next++) {
        int64_t g = p->next;
        int last = g + 1 == p->total;
        int rowend = p->multi && (g + 1) % p->row == 0;
        const char *sep = last ? " ;" : rowend ? "," : ", ";
        if (p->xt == NC_CHAR) {
            if (g % p->row != 0) continue;
            put_text(p->c, (const char *)buf + i, (size_t)p->row, "    ");
            i += p->row - 1;
            p->next += p->row - 1;
            put(p->c, g + p->row >= p->total ? " ;" : ",\n  ");
            continue;
        }
        if (p->has_fill &&
            memcmp((const char *)buf + i * p->xs, p->fill, (size_t)p->xs) == 0)
            strcpy(v, "_");
        else
            fmt_value(p->xt, buf, i, 0, v, sizeof v);
        /* ncdump's wrap: the value and its comma (none after the last)
           must end by column 77 */
        if (p->c->col + (int)strlen(v) + (last ? 0 : 1) > 77 && p->c->col > 4)
            put(p->c, "\n    ");
        put(p->c, v);
        put(p->c, sep);
        if (rowend && !last) put(p->c, "\n  ");
    }
}

/* Read sel's rows in rounds (every rank its share) and print them on
 * rank 0 in order. */
static int dump_var(column *c, int ncid, const selection *s)
{
    MPI_Offset st[NT_MAX_DIMS], ct[NT_MAX_DIMS];
    int64_t rows = s->nd > 0 ? s->count[0] : 1, per_row = 1, q, base;
    int nprocs, rank = nt_rank(), err = NC_NOERR, k, d;
    nc_type xt;
    printer p;
    void *buf = NULL;

    MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
    memset(&p, 0, sizeof p);
    ncmpi_inq_vartype(ncid, s->varid, &xt);
    for (d = 1; d < s->nd; d++) per_row *= s->count[d];
    p.c = c;
    p.xt = xt;
    p.xs = nt_xsize(xt);
    p.multi = s->nd >= 2;
    p.row = s->nd > 0 ? s->count[s->nd - 1] : 1;
    p.total = rows * per_row;
    p.has_fill = fill_of(ncid, s->varid, xt, p.fill);
    if (p.total == 0) goto done;
    /* a char variable's rows are whole strings: rounds keep them whole */
    q = per_row > 0 && per_row < ROUND_ELEMS ? ROUND_ELEMS / per_row : 1;
    if (q > (rows + nprocs - 1) / nprocs) q = (rows + nprocs - 1) / nprocs;
    /* a 1-D char variable is one string, printed whole: rank 0 reads it */
    if (xt == NC_CHAR && s->nd == 1) q = rows;
    buf = malloc((size_t)(q * per_row * p.xs));
    if (nt_agree(buf == NULL) != 0) {
        err = NC_ENOMEM;
        goto done;
    }
    if (rank == 0) {
        put(c, "\n ");
        put(c, s->label);
        put(c, p.multi ? " =\n  " : " = ");
    }
    for (base = 0; base < rows && err == NC_NOERR; base += q * nprocs) {
        int64_t r0 = base + (int64_t)rank * q, nr = rows - r0;
        if (nr > q) nr = q;
        if (nr < 0) nr = 0;
        for (d = 0; d < s->nd; d++) {
            st[d] = s->start[d];
            ct[d] = s->count[d];
        }
        if (s->nd > 0) {
            st[0] = s->start[0] + (r0 < rows ? r0 : rows);
            ct[0] = nr;
        }
        /* a scalar has no rows to share: every rank reads it */
        err = ncmpi_get_vara_all(ncid, s->varid, st, ct, buf,
                                 (MPI_Offset)(s->nd == 0 ? 1 : nr * per_row),
                                 nt_mpi_type(xt));
        err = nt_agree(err != NC_NOERR ? -err : 0);
        if (err != 0) {
            err = -err;
            break;
        }
        if (rank == 0) {
            print_elems(&p, buf, nr * per_row);
            for (k = 1; k < nprocs; k++) {
                int64_t rk = base + (int64_t)k * q, nk = rows - rk;
                if (nk > q) nk = q;
                if (nk <= 0) break;
                MPI_Recv(buf, (int)(nk * per_row * p.xs), MPI_BYTE, k, 0,
                         MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                print_elems(&p, buf, nk * per_row);
            }
        } else if (nr > 0) {
            MPI_Send(buf, (int)(nr * per_row * p.xs), MPI_BYTE, 0, 0,
                     MPI_COMM_WORLD);
        }
    }
    if (rank == 0 && err == NC_NOERR) put(c, "\n");
done:
    free(buf);
    return err;
}

/* A record variable's rows stop at the records the file holds (held;
 * -1: unknown), so a header that claims far more records than the file
 * has does not print zeros without end. */
static void clip_records(int ncid, const int *dimids, int64_t held,
                         selection *sel)
{
    int unlim = -1;
    ncmpi_inq_unlimdim(ncid, &unlim);
    sel->clipped = 0;
    if (held < 0 || sel->nd == 0 || dimids[0] != unlim) return;
    if (sel->start[0] + sel->count[0] <= held) return;
    sel->count[0] = held > sel->start[0] ? held - sel->start[0] : 0;
    sel->clipped = 1;
}

/* Resolve one -v item against the file into sel. */
static int select_var(int ncid, const char *item, const char *gstart,
                      const char *gcount, int64_t held, selection *sel)
{
    char name[NC_MAX_NAME + 1];
    int64_t st[NT_MAX_DIMS], ct[NT_MAX_DIMS];
    int nsub = 0, dimids[NT_MAX_DIMS], d, rc = NT_OK, n2 = 0;
    column lab;
    char *txt = NULL;
    size_t tlen = 0;

    if (nt_parse_subarray(item, name, sizeof name, st, ct, NT_MAX_DIMS,
                          &nsub) != 0) {
        nt_err("dump", "bad variable or subarray '%s'", item);
        rc = NT_USAGE;
        goto done;
    }
    if (ncmpi_inq_varid(ncid, name, &sel->varid) != NC_NOERR ||
        ncmpi_inq_varndims(ncid, sel->varid, &sel->nd) != NC_NOERR ||
        sel->nd > NT_MAX_DIMS ||
        ncmpi_inq_vardimid(ncid, sel->varid, dimids) != NC_NOERR) {
        nt_err("dump", "no variable '%s'", name);
        rc = NT_USAGE;
        goto done;
    }
    if (nsub == 0 && gstart != NULL) {
        for (d = 0; d < NT_MAX_DIMS; d++) ct[d] = -1;
        if (nt_parse_i64s(gstart, st, NT_MAX_DIMS, &nsub) != 0 ||
            (gcount && nt_parse_i64s(gcount, ct, NT_MAX_DIMS, &n2) != 0))
            rc = NT_USAGE;
    }
    if (rc == NT_OK && nsub != 0 && nsub != sel->nd) rc = NT_USAGE;
    for (d = 0; rc == NT_OK && d < sel->nd; d++) {
        MPI_Offset len;
        ncmpi_inq_dimlen(ncid, dimids[d], &len);
        sel->start[d] = nsub && st[d] >= 0 ? st[d] : 0;
        sel->count[d] = nsub && ct[d] >= 0 ? ct[d] : len - sel->start[d];
        if (sel->start[d] > len || sel->count[d] > len - sel->start[d]) {
            nt_err("dump", "subarray of '%s' outside its shape", name);
            rc = NT_USAGE;
        }
    }
    if (rc == NT_USAGE && nsub != 0 && nsub != sel->nd)
        nt_err("dump", "'%s' has %d dimensions", name, sel->nd);
    if (rc == NT_OK) clip_records(ncid, dimids, held, sel);
    lab.out = open_memstream(&txt, &tlen);
    lab.col = 0;
    put_name(&lab, name);
    for (d = 0; nsub != 0 && rc == NT_OK && d < sel->nd; d++)
        fprintf(lab.out, "%s%lld:%lld%s", d == 0 ? "[" : ",",
                (long long)sel->start[d], (long long)sel->count[d],
                d + 1 == sel->nd ? "]" : "");
    fclose(lab.out);
    snprintf(sel->label, sizeof sel->label, "%s", txt ? txt : name);
    free(txt);
done:
    return rc;
}

/* Each variable the -v list names (vars), or every variable (vars NULL),
 * in turn: resolved, and with print set also dumped, "data:" first.
 * *clipped: some record variable's rows stopped at the file's end. */
static int each_selection(column *c, int ncid, const char *vars,
                          const char *gstart, const char *gcount,
                          int64_t held, int print, int *clipped)
{
    selection *sel = malloc(sizeof *sel);
    char item[NC_MAX_NAME + 512];
    const char *s = vars;
    int rc = sel != NULL ? NT_OK : NT_FAIL, n = 0, nvars = 0, err;

    if (vars == NULL) ncmpi_inq_nvars(ncid, &nvars);
    while (rc == NT_OK) {
        if (vars != NULL && !nt_next_item(&s, item, sizeof item)) break;
        if (vars == NULL && n >= nvars) break;
        if (vars == NULL) ncmpi_inq_varname(ncid, n, item);
        rc = select_var(ncid, item, gstart, gcount, held, sel);
        if (rc == NT_OK && sel->clipped) *clipped = 1;
        if (rc == NT_OK && print && n == 0 && nt_rank() == 0)
            put(c, "data:\n");
        n++;
        err = rc == NT_OK && print ? dump_var(c, ncid, sel) : NC_NOERR;
        if (err != NC_NOERR) {
            nt_err("dump", "reading '%s': %s", item, ncmpi_strerror(err));
            rc = NT_FAIL;
        }
    }
    if (rc == NT_OK && gstart != NULL && n != 1) {
        nt_err("dump", "--start needs exactly one variable");
        rc = NT_USAGE;
    }
    free(sel);
    return rc;
}

static void dump_usage(FILE *out)
{
    fprintf(out,
        "usage: ncpario dump [-h] [-v VAR[,VAR...]] [--start S,... "
        "--count C,...] FILE\n"
        "Print FILE as CDL, as ncdump does: the header, then the data.\n"
        "  -h              the header only\n"
        "  -v LIST         data of these variables only; VAR[s:c,s:c] "
        "selects a subarray\n"
        "                  (start:count per dimension; ':' alone is the "
        "whole dimension)\n"
        "  --start, --count  the subarray of the one variable named by -v\n"
        "Under mpirun every rank reads a share of the data; rank 0 prints.\n"
        "Record data stops at the last record the file holds whole.\n"
        "Exit: 0 ok, 1 the file holds fewer records than its header says "
        "(the ones\n"
        "it holds are printed), 2 usage error, 3 the file cannot be read.\n");
}

/* How many records the file holds whole, by its length, and how many its
 * header claims; rank 0 reads the header and tells the others (-1 when
 * it cannot: then nothing is clipped). */
static void records_held(const char *path, int64_t *held, int64_t *claimed)
{
    int64_t v[2] = {-1, -1}, fsize = 0;
    ncp_header h;
    ncp_hdr_defect d;
    if (nt_rank() == 0 && nt_read_header(path, &h, &fsize, &d) == NC_NOERR) {
        v[0] = nt_records_held(&h, fsize);
        v[1] = h.numrecs;
        ncp_header_free(&h);
    }
    MPI_Bcast(v, 2, MPI_INT64_T, 0, MPI_COMM_WORLD);
    *held = v[0];
    *claimed = v[1];
}

int nt_dump(int argc, char **argv)
{
    const char *path = NULL, *vars = NULL, *gstart = NULL, *gcount = NULL;
    const char *val;
    int header_only = 0, ncid = -1, rc = NT_OK, err, i, help = 0;
    int clipped = 0;
    int64_t held = -1, claimed = -1;
    column c = {stdout, 0};

    for (i = 1; i < argc && rc == NT_OK; i++) {
        val = "";
        if (nt_is_help(argv[i])) {
            help = 1;
        } else if (strcmp(argv[i], "-h") == 0) {
            header_only = 1;
        } else if (nt_opt(argc, argv, &i, "--vars", "-v", &val)) {
            vars = val;
        } else if (nt_opt(argc, argv, &i, "--start", NULL, &val)) {
            gstart = val;
        } else if (nt_opt(argc, argv, &i, "--count", NULL, &val)) {
            gcount = val;
        } else if (argv[i][0] != '-' && path == NULL) {
            path = argv[i];
            continue;
        } else {
            rc = NT_USAGE;
        }
        if (val == NULL) rc = NT_USAGE;
    }
    if (help) {
        if (nt_rank() == 0) dump_usage(stdout);
        rc = NT_OK;
        goto done;
    }
    if (rc != NT_OK || path == NULL || (gstart && !vars) ||
        (gcount && !gstart)) {
        nt_err("dump", "bad arguments (see 'ncpario dump --help')");
        rc = NT_USAGE;
        goto done;
    }
    err = ncmpi_open(MPI_COMM_WORLD, path, NC_NOWRITE, MPI_INFO_NULL, &ncid);
    if (err != NC_NOERR) {
        nt_err("dump", "%s: %s", path, ncmpi_strerror(err));
        rc = NT_FAIL;
        goto done;
    }
    records_held(path, &held, &claimed);
    /* resolve every selection first, so a bad one fails before output */
    if (!header_only || vars != NULL)
        rc = each_selection(&c, ncid, vars, gstart, gcount, held, 0,
                            &clipped);
    if (rc == NT_OK && nt_rank() == 0 && put_header(&c, ncid, path) != NC_NOERR)
        rc = NT_FAIL;
    rc = nt_agree(rc);
    clipped = 0;
    if (rc == NT_OK && !header_only)
        rc = each_selection(&c, ncid, vars, gstart, gcount, held, 1,
                            &clipped);
    if (rc == NT_OK && nt_rank() == 0) put(&c, "}\n");
    if (rc == NT_OK && clipped) {
        fflush(stdout);
        nt_err("dump", "%s: the header claims %lld records, the file holds "
               "%lld whole; record data stops there", path,
               (long long)claimed, (long long)held);
        rc = NT_FOUND;
    }
    ncmpi_close(ncid);
    rc = nt_agree(rc);
done:
    return rc;
}
