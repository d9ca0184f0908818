/* ncp-test: NO_CDL RANKS 1 2 4 */
/* t_truncated -- reads of a file cut short.  The main file (fixed and
 * record variables of five types, three records) is written and closed;
 * rank 0 copies it beside it (not named *.nc, so the harness leaves it
 * alone) and cuts the copy with truncate(): once inside a fixed variable,
 * once in the middle of the second record, both times through an
 * element.  Every rank then reads every variable of the copy through
 * vara, vars, varm, varn and iget+wait_all, collective and independent,
 * into the variable's own type (byte-swapped) and into a wider one
 * (converted), through the posix and the mpiio driver, into buffers
 * pre-filled with a sentinel.  Every byte past the end of the file must
 * read as zero: an element wholly past it is 0, the element the cut goes
 * through keeps the bytes before the cut.  The call succeeds.
 *
 * PnetCDF 1.12.3 differs (the checks skip it there): it leaves the bytes
 * past the end as the caller's buffer held them, converted reads hand
 * back uninitialised memory, and varn reads of record variables fail.
 *
 * The nc_driver hint is ncpario's; PnetCDF runs the same reads through
 * its one driver.
 */
#define _POSIX_C_SOURCE 200809L /* truncate */
#include <stdint.h>
#include <unistd.h>

#include "testutil.h"

#include "have_ncpario.h"

#define NX 16
#define NREC 3
#define NVARS 8

typedef struct var_desc {
    const char *name;
    nc_type type;
    int is_rec;
} var_desc;

static const var_desc vars[NVARS] = {
    {"fb", NC_BYTE, 0},  {"fs", NC_SHORT, 0}, {"fi", NC_INT, 0},
    {"ff", NC_FLOAT, 0}, {"fd", NC_DOUBLE, 0}, {"rs", NC_SHORT, 1},
    {"ri", NC_INT, 1},   {"rf", NC_FLOAT, 1},
};

enum { M_VARA, M_VARS, M_VARM, M_VARN, M_IGET, M_COUNT };
static const char *method_name[M_COUNT] = {"vara", "vars", "varm", "varn",
                                           "iget"};

static int xsize(nc_type t)
{
    switch (t) {
    case NC_BYTE: return 1;
    case NC_SHORT: return 2;
    case NC_INT: case NC_FLOAT: return 4;
    default: return 8;
    }
}

/* The value written at element e (file order) of variable v. */
static double written(int v, int e)
{
    switch (vars[v].type) {
    case NC_BYTE: return 1 + e;
    case NC_SHORT: return 1000 + 257 * e;
    case NC_INT: return 16843009 + 1000003 * e;
    case NC_FLOAT: return 1.5 + 1024.25 * e;
    default: return 3.25 + 100000.5 * e;
    }
}

static int nelems(int v) { return vars[v].is_rec ? NREC * NX : NX; }

/* Big-endian external bytes of x as type t, and back. */
static void encode(nc_type t, double x, unsigned char *b)
{
    unsigned char n[8];
    int i, w = xsize(t);
    signed char c = (signed char)x;
    short s = (short)x;
    int k = (int)x;
    float f = (float)x;
    switch (t) {
    case NC_BYTE: memcpy(n, &c, 1); break;
    case NC_SHORT: memcpy(n, &s, 2); break;
    case NC_INT: memcpy(n, &k, 4); break;
    case NC_FLOAT: memcpy(n, &f, 4); break;
    default: memcpy(n, &x, 8); break;
    }
    for (i = 0; i < w; i++) b[i] = n[w - 1 - i]; /* x86: little-endian */
}

static double decode(nc_type t, const unsigned char *b)
{
    unsigned char n[8];
    int i, w = xsize(t);
    signed char c;
    short s;
    int k;
    float f;
    double d;
    for (i = 0; i < w; i++) n[i] = b[w - 1 - i];
    switch (t) {
    case NC_BYTE: memcpy(&c, n, 1); return c;
    case NC_SHORT: memcpy(&s, n, 2); return s;
    case NC_INT: memcpy(&k, n, 4); return k;
    case NC_FLOAT: memcpy(&f, n, 4); return f;
    default: memcpy(&d, n, 8); return d;
    }
}

typedef struct layout {
    MPI_Offset begin[NVARS];
    MPI_Offset recsize;
} layout;

static MPI_Offset elem_offset(const layout *L, int v, int e)
{
    int w = xsize(vars[v].type);
    if (vars[v].is_rec)
        return L->begin[v] + (e / NX) * L->recsize + (e % NX) * w;
    return L->begin[v] + (MPI_Offset)e * w;
}

/* Whether the value element e of v reads as is checked.  PnetCDF 1.12.3
 * leaves the caller's memory as it was for the bytes past the end (or
 * hands back uninitialised bytes where it converts), so only elements
 * wholly inside the file are checked against it. */
static int checked(const layout *L, int v, int e, MPI_Offset cut)
{
#ifdef HAVE_NCPARIO
    (void)L, (void)v, (void)e, (void)cut;
    return 1;
#else
    return elem_offset(L, v, e) + xsize(vars[v].type) <= cut;
#endif
}

/* What element e of v reads as from a file cut at byte cut. */
static double expected(const layout *L, int v, int e, MPI_Offset cut)
{
    unsigned char b[8];
    int i, w = xsize(vars[v].type);
    MPI_Offset off = elem_offset(L, v, e);
    encode(vars[v].type, written(v, e), b);
    for (i = 0; i < w; i++)
        if (off + i >= cut) b[i] = 0;
    return decode(vars[v].type, b);
}

static void write_main(const char *path, layout *L)
{
    int ncid, dims[2], varid[NVARS], v, e;
    double buf[NREC * NX];
    MPI_Offset start[2] = {0, 0}, count[2] = {NREC, NX};
    CHECK_ERR(ncmpi_create(MPI_COMM_WORLD, path, NC_CLOBBER, MPI_INFO_NULL,
                           &ncid));
    CHECK_ERR(ncmpi_def_dim(ncid, "rec", NC_UNLIMITED, &dims[0]));
    CHECK_ERR(ncmpi_def_dim(ncid, "x", NX, &dims[1]));
    for (v = 0; v < NVARS; v++)
        CHECK_ERR(ncmpi_def_var(ncid, vars[v].name, vars[v].type,
                                vars[v].is_rec ? 2 : 1,
                                vars[v].is_rec ? dims : dims + 1,
                                &varid[v]));
    CHECK_ERR(ncmpi_enddef(ncid));
    for (v = 0; v < NVARS; v++) {
        MPI_Offset *st = vars[v].is_rec ? start : start + 1;
        MPI_Offset *ct = vars[v].is_rec ? count : count + 1;
        MPI_Offset c0 = ct[0];
        for (e = 0; e < nelems(v); e++) buf[e] = written(v, e);
        if (tu_myrank != 0) ct[0] = 0;
        CHECK_ERR(ncmpi_put_vara_double_all(ncid, varid[v], st, ct, buf));
        ct[0] = c0;
        CHECK_ERR(ncmpi_inq_varoffset(ncid, varid[v], &L->begin[v]));
    }
    CHECK_ERR(ncmpi_inq_recsize(ncid, &L->recsize));
    CHECK_ERR(ncmpi_close(ncid));
}

/* Rank 0 copies src to dst and cuts the copy at byte cut. */
static void cut_copy(const char *src, const char *dst, MPI_Offset cut)
{
    if (tu_myrank == 0) {
        FILE *in = fopen(src, "rb"), *out = fopen(dst, "wb");
        char b[4096];
        size_t n;
        CHECK(in != NULL && out != NULL);
        while (in && out && (n = fread(b, 1, sizeof b, in)) > 0)
            CHECK(fwrite(b, 1, n, out) == n);
        if (in) fclose(in);
        if (out) fclose(out);
        CHECK(truncate(dst, (off_t)cut) == 0);
    }
    MPI_Barrier(MPI_COMM_WORLD);
}

/* The memory types a variable is read into: its own, and a wider one. */
static MPI_Datatype mem_type(nc_type t, int wide)
{
    switch (t) {
    case NC_BYTE: return wide ? MPI_INT : MPI_SIGNED_CHAR;
    case NC_SHORT: return wide ? MPI_INT : MPI_SHORT;
    case NC_INT: return wide ? MPI_DOUBLE : MPI_INT;
    case NC_FLOAT: return wide ? MPI_DOUBLE : MPI_FLOAT;
    default: return MPI_DOUBLE;
    }
}

static double mem_value(MPI_Datatype t, const void *buf, int i)
{
    if (t == MPI_SIGNED_CHAR) return ((const signed char *)buf)[i];
    if (t == MPI_SHORT) return ((const short *)buf)[i];
    if (t == MPI_INT) return ((const int *)buf)[i];
    if (t == MPI_FLOAT) return ((const float *)buf)[i];
    return ((const double *)buf)[i];
}

/*
 * Reads variable v by method m into buf (memory type t); map[i] is the
 * file element memory element i receives (-1: none).  Returns the count
 * of memory elements.
 */
static int read_var(int ncid, int v, int m, int coll, MPI_Datatype t,
                    void *buf, int *map)
{
    int varid, nd = vars[v].is_rec ? 2 : 1, n = nelems(v), i, err, req;
    int st, stat;
    MPI_Offset start[2] = {0, 0}, count[2] = {NREC, NX};
    MPI_Offset stride[2] = {1, 2}, imap[2] = {1, NREC};
    MPI_Offset *s = start + 2 - nd, *c = count + 2 - nd;
    CHECK_ERR(ncmpi_inq_varid(ncid, vars[v].name, &varid));
    for (i = 0; i < n; i++) map[i] = i;
    switch (m) {
    case M_VARA:
        err = coll ? ncmpi_get_vara_all(ncid, varid, s, c, buf, n, t)
                   : ncmpi_get_vara(ncid, varid, s, c, buf, n, t);
        break;
    case M_VARS: {
        MPI_Offset cs[2] = {NREC, NX / 2};
        MPI_Offset *c2 = cs + 2 - nd, *sd = stride + 2 - nd;
        n /= 2;
        for (i = 0; i < n; i++) map[i] = 2 * i;
        err = coll ? ncmpi_get_vars_all(ncid, varid, s, c2, sd, buf, n, t)
                   : ncmpi_get_vars(ncid, varid, s, c2, sd, buf, n, t);
        break;
    }
    case M_VARM:
        /* record variables land transposed: memory [x][rec] */
        if (nd == 2)
            for (i = 0; i < n; i++) map[(i % NX) * NREC + i / NX] = i;
        else imap[1] = 1;
        err = coll ? ncmpi_get_varm_all(ncid, varid, s, c, NULL,
                                        imap + 2 - nd, buf, n, t)
                   : ncmpi_get_varm(ncid, varid, s, c, NULL, imap + 2 - nd,
                                    buf, n, t);
        break;
    case M_VARN: {
        /* the second half first, then the first */
        MPI_Offset s0[2], s1[2], c0[2], c1[2];
        MPI_Offset *ss[2] = {s0, s1}, *cc[2] = {c0, c1};
        int half = NX / 2;
        s0[0] = 0, s0[nd - 1] = half, s1[0] = 0, s1[nd - 1] = 0;
        c0[0] = c1[0] = NREC, c0[nd - 1] = c1[nd - 1] = half;
        if (nd == 1) c0[0] = c1[0] = half;
        for (i = 0; i < n; i++) {
            int h = i / (n / 2), j = i % (n / 2);
            int row = j / half, col = j % half;
            map[i] = row * NX + col + (h == 0 ? half : 0);
        }
        err = coll ? ncmpi_get_varn_all(ncid, varid, 2, ss, cc, buf, n, t)
                   : ncmpi_get_varn(ncid, varid, 2, ss, cc, buf, n, t);
        break;
    }
    default:
        err = ncmpi_iget_vara(ncid, varid, s, c, buf, n, t, &req);
        CHECK_ERR(err);
        err = coll ? ncmpi_wait_all(ncid, 1, &req, &stat)
                   : ncmpi_wait(ncid, 1, &req, &stat);
        st = err == NC_NOERR ? stat : NC_NOERR;
        CHECK_ERR(st);
        break;
    }
#ifndef HAVE_NCPARIO
    /* PnetCDF 1.12.3 fails some varn reads past the end of the file
     * (ROMIO: NC_EFILE) and reads nothing then. */
    if (m == M_VARN && err != NC_NOERR) return 0;
#endif
    CHECKF(err == NC_NOERR, "%s %s %s: %s", vars[v].name, method_name[m],
           coll ? "collective" : "independent", ncmpi_strerror(err));
    return n;
}

static void check_reads(const char *path, const layout *L, MPI_Offset cut,
                        const char *drv)
{
    MPI_Info info;
    int ncid, v, m, coll, wide, i;
    union { double d[NREC * NX]; unsigned char b[8 * NREC * NX]; } buf;
    int map[NREC * NX];
    MPI_Info_create(&info);
    MPI_Info_set(info, "nc_driver", drv);
    CHECK_ERR(ncmpi_open(MPI_COMM_WORLD, path, NC_NOWRITE, info, &ncid));
    MPI_Info_free(&info);
    for (coll = 0; coll < 2; coll++) {
        if (coll) CHECK_ERR(ncmpi_end_indep_data(ncid));
        else CHECK_ERR(ncmpi_begin_indep_data(ncid));
        for (v = 0; v < NVARS; v++)
            for (m = 0; m < M_COUNT; m++)
                for (wide = 0; wide < 2; wide++) {
                    MPI_Datatype t = mem_type(vars[v].type, wide);
                    int n;
                    memset(buf.b, 0xA5, sizeof buf.b);
                    n = read_var(ncid, v, m, coll, t, buf.b, map);
                    for (i = 0; i < n; i++) {
                        if (!checked(L, v, map[i], cut)) continue;
                        double got = mem_value(t, buf.b, i);
                        double want = expected(L, v, map[i], cut);
                        CHECKF(got == want,
                               "%s cut %lld %s %s %s %s: [%d] (element "
                               "%d) = %g, want %g",
                               drv, (long long)cut, vars[v].name,
                               method_name[m], coll ? "coll" : "indep",
                               wide ? "converted" : "own type", i, map[i],
                               got, want);
                    }
                }
    }
    CHECK_ERR(ncmpi_close(ncid));
}

int main(int argc, char **argv)
{
    static const char *drivers[] = {"posix", "mpiio"};
    const char *path;
    char copy[4096];
    layout L;
    MPI_Offset cuts[2];
    int c, d;

    tu_init(&argc, &argv);
    path = tu_main_path(argc, argv);
    if (path == NULL) return tu_finish("t_truncated");
    snprintf(copy, sizeof copy, "%s.cut", path);
    write_main(path, &L);
    /* through element 7 of fi; through element 5 of ri in record 1 */
    cuts[0] = L.begin[2] + 7 * 4 + 1;
    cuts[1] = L.begin[6] + L.recsize + 5 * 4 + 2;
    for (c = 0; c < 2; c++) {
        cut_copy(path, copy, cuts[c]);
        for (d = 0; d < 2; d++) check_reads(copy, &L, cuts[c], drivers[d]);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (tu_myrank == 0) unlink(copy);
    return tu_finish("t_truncated");
}
