/*
 * flash_io.c -- the I/O pattern of the FLASH astrophysics code (seeds 000
 * and 001): every rank holds a list of 3-D blocks of a block-structured
 * adaptive mesh and writes them, appended after the previous rank's
 * blocks, to three files per output step:
 *
 *   <stem>_chk      the checkpoint: 24 double variables unk_<name>(blocks,
 *                   nzb, nyb, nxb) plus small per-block metadata (refine
 *                   level, node type, the 15 neighbour/parent/child ids,
 *                   centre, size and bounding box of every block);
 *   <stem>_plt_cnt  a plot file of four of the variables at the cell
 *                   centres, as float;
 *   <stem>_plt_crn  the same four variables averaged to the cell corners,
 *                   (blocks, nzb+1, nyb+1, nxb+1) float.
 *
 * Memory is kept as FLASH keeps its solution array: unk[block][z][y][x]
 * [var] with 4 guard cells on every side of the block interior and the 24
 * variables interleaved innermost, so a variable's interior is a strided
 * subarray that is written (and read back) without a copy. The guard cells
 * are never written. The plot files are written from contiguous float
 * buffers; converting the doubles to float and averaging them to the
 * corners happen before the timed phases, as the point is the I/O.
 *
 * The program uses only bench/bio.h and is linked with each backend
 * (ncpario, pnetcdf, hdf5, mpiio, fpp). What it promises:
 *  - every value read back, in every file, by every method, in every
 *    repetition, is compared with a pure function of variable, global
 *    index and file; guard cells of the read buffer must stay untouched;
 *    a wrong value makes the exit status 1;
 *  - a phase's time is the slowest rank's (bio_run_job): open_w (create +
 *    define), write, close_w, open_r, read, close_r, per file;
 *  - the methods take turns within a repetition, the first one rotating
 *    from one repetition to the next.
 */
#define _POSIX_C_SOURCE 200809L

#include <inttypes.h>
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_common.h"
#include "bio.h"

enum {
    EXIT_USAGE = 2,
    NUNK = 24,          /* FLASH's unknowns per cell */
    NPLOT = 4,          /* of them in the plot files */
    NGUARD = 4,         /* guard cells on each side of a block */
    NGID = 15,          /* 6 neighbours + parent + 8 children (3-D) */
    NDIM = 3,
    NMETA = 6,          /* metadata variables of the checkpoint */
    NCHK = NUNK + NMETA,
    MAX_BLOCKS = 100000,
    MAX_EDGE = 64,
    MAX_REPORTS = 5     /* wrong values reported per rank and file */
};

/* Guard cells of the write buffer, and everything of the read buffer
 * before reading: never a value of the data, which are positive. */
#define WRITE_GUARD (-7777.0)
#define READ_FILL (-9999.0)

enum flash_file { F_CHK, F_CNT, F_CRN, F_COUNT };
static const char *const file_names[F_COUNT] = {"chk", "plt_cnt",
                                                "plt_crn"};

static const char *const unk_names[NUNK] = {
    "dens", "velx", "vely", "velz", "pres", "ener", "temp", "gamc",
    "game", "enuc", "gpot", "eint", "divv", "vort", "mach", "shok",
    "cool", "heat", "flam", "fuel", "ash_", "sumy", "yeel", "abar"};
/* The plot files' variables, as indices into unk_names. */
static const int plot_vars[NPLOT] = {0, 4, 6, 5};

enum meta_var { M_LREFINE, M_NODETYPE, M_GID, M_COORD, M_BSIZE, M_BNDBOX };

struct options {
    int64_t base_blocks;
    int edge;
    int nmethods;           /* 0 until -m: every supported method */
    enum bio_method methods[BIO_NMETHODS];  /* in enum order */
    struct bench_opts run;
};

/* The per-block metadata of the checkpoint, one array per variable. */
struct meta {
    int *lrefine, *nodetype, *gid;
    double *coord, *bsize, *bndbox;
};

struct setup {
    const struct options *o;
    MPI_Comm comm;
    int rank, nprocs;
    int n;                  /* block interior edge */
    int64_t nb;             /* blocks of this rank */
    int64_t first;          /* its first global block */
    int64_t tot;            /* blocks of all ranks */
    int64_t nb_min, nb_max; /* over the ranks */
    int nmeth;
    enum bio_method meth[BIO_NMETHODS];
    MPI_Info info;
    double *unk, *unk_r;    /* [nb][n+2g][n+2g][n+2g][NUNK] */
    struct meta mw, mr;
    float *cnt, *cnt_r;     /* [NPLOT][nb][n][n][n] */
    float *crn, *crn_r;     /* [NPLOT][nb][n+1][n+1][n+1] */
    struct bio_var vars[F_COUNT][NCHK];
    struct bio_schema schema[F_COUNT];
    struct bio_req wreq[F_COUNT][NCHK], rreq[F_COUNT][NCHK];
    struct bio_step step[F_COUNT];
    int64_t bytes[F_COUNT]; /* payload of all ranks */
};

static void usage(FILE *to)
{
    fprintf(to,
        "usage: flash_io [-n blocks] [-b edge] [-m methods] [-d dir]\n"
        "                [-r reps] [-w warmup] [-f 1|2|5] [-k] [-q] [-c]\n"
        "  -n blocks   base blocks per rank (default 80); rank r has\n"
        "              blocks + (r+1)%%3 - 1 of them\n"
        "  -b edge     block interior edge nxb = nyb = nzb, 1..64 "
        "(default 8)\n");
    bio_usage_common(to, "flash_io", 1, "case chk, plt_cnt, plt_crn");
}

static int apply_option(int c, const char *arg, void *own)
{
    struct options *o = own;
    int64_t v = 0;
    int ok = 1;

    switch (c) {
    case 'n':
        ok = bench_parse_int64(arg, 1, MAX_BLOCKS, &v);
        o->base_blocks = v;
        break;
    case 'b':
        ok = bench_parse_int64(arg, 1, MAX_EDGE, &v);
        o->edge = (int)v;
        break;
    case 'm':
        ok = bio_parse_method_set(arg, o->methods, &o->nmethods);
        break;
    default:
        ok = 0;
    }
    return ok;
}

static int parse_options(int argc, char **argv, int rank, struct options *o)
{
    memset(o, 0, sizeof *o);
    o->base_blocks = 80;
    o->edge = 8;
    return bench_parse_options("flash_io", argc, argv, "n:b:m:", rank,
                               usage, apply_option, o, &o->run);
}

/* The methods to run, in enum order: those asked for, or every one the
 * backend has. 0 after a message when one asked for is not supported. */
static int choose_methods(struct setup *s)
{
    s->nmeth = s->o->nmethods;
    memcpy(s->meth, s->o->methods, sizeof s->meth);
    return bio_choose_methods("flash_io", s->meth, &s->nmeth, s->rank);
}

/* Blocks per rank vary by one around the base, as FLASH's load balance
 * leaves them; rank 0 has the base, so there is at least one block. */
static void decompose(struct setup *s)
{
    int64_t before = 0;

    s->n = s->o->edge;
    s->nb = s->o->base_blocks + (s->rank + 1) % 3 - 1;
    MPI_Exscan(&s->nb, &before, 1, MPI_INT64_T, MPI_SUM, s->comm);
    s->first = s->rank == 0 ? 0 : before;
    MPI_Allreduce(&s->nb, &s->tot, 1, MPI_INT64_T, MPI_SUM, s->comm);
    MPI_Allreduce(&s->nb, &s->nb_min, 1, MPI_INT64_T, MPI_MIN, s->comm);
    MPI_Allreduce(&s->nb, &s->nb_max, 1, MPI_INT64_T, MPI_MAX, s->comm);
}

/* ------------------------------------------------------------ values */

/* Variable v of global block gb at interior cell (z, y, x): distinct
 * between variables (steps of 10^4) and between cells, never negative. */
static double unk_value(const struct setup *s, int v, int64_t gb, int z,
                        int y, int x)
{
    int64_t n = s->n, lin = ((gb * n + z) * n + y) * n + x;

    return (double)(v + 1) * 1.0e4 + (double)lin * 0.5;
}

static int lrefine_of(int64_t gb)
{
    return 1 + (int)(gb % 6);
}

static int nodetype_of(int64_t gb)
{
    return gb % 4 == 0 ? 2 : 1;
}

/* FLASH writes -1 for a missing neighbour or child. */
static int gid_of(int64_t gb, int k)
{
    return (int)(((gb * NGID + k) * 7919) % 65536) - 1;
}

static double coord_of(int64_t gb, int d)
{
    return 0.5 + (double)gb * 0.25 + (double)d * 0.125;
}

/* Powers of two, so that the bounding box is exact. */
static double bsize_of(int64_t gb)
{
    return 1.0 / (double)(1 << (lrefine_of(gb) - 1));
}

static double bndbox_of(int64_t gb, int d, int side)
{
    double half = 0.5 * bsize_of(gb);

    return side == 0 ? coord_of(gb, d) - half : coord_of(gb, d) + half;
}

/* ------------------------------------------------ corner interpolation */

/* A cell of one variable of one (local) block, from wherever it is. */
typedef double (*cell_fn)(const struct setup *s, const void *src, int v,
                          int64_t b, int z, int y, int x);

/* The mean of the up to eight interior cells touching corner (k, j, i);
 * on a block face only the cells inside count, so the guard cells never
 * enter. The write side reads the cells from unk, the check from
 * unk_value: the same values summed in the same order give the same
 * result bit for bit. */
static double corner_mean(const struct setup *s, cell_fn cell,
                          const void *src, int v, int64_t b, int k, int j,
                          int i)
{
    double sum = 0.0;
    int cnt = 0, n = s->n;

    for (int z = k - 1; z <= k; z++)
        for (int y = j - 1; y <= j; y++)
            for (int x = i - 1; x <= i; x++) {
                if (z < 0 || z >= n || y < 0 || y >= n || x < 0 || x >= n)
                    continue;
                sum += cell(s, src, v, b, z, y, x);
                cnt++;
            }
    return sum / cnt;
}

static size_t unk_index(const struct setup *s, int64_t b, int z, int y,
                        int x, int v)
{
    size_t w = (size_t)s->n + 2 * NGUARD;

    return ((((size_t)b * w + (size_t)(z + NGUARD)) * w +
             (size_t)(y + NGUARD)) * w + (size_t)(x + NGUARD)) * NUNK +
           (size_t)v;
}

static double cell_from_unk(const struct setup *s, const void *src, int v,
                            int64_t b, int z, int y, int x)
{
    return ((const double *)src)[unk_index(s, b, z, y, x, v)];
}

static double cell_from_value(const struct setup *s, const void *src, int v,
                              int64_t b, int z, int y, int x)
{
    (void)src;
    return unk_value(s, v, s->first + b, z, y, x);
}

/* ------------------------------------------------------------ buffers */

static size_t unk_elems(const struct setup *s)
{
    size_t w = (size_t)s->n + 2 * NGUARD;

    return (size_t)s->nb * w * w * w * NUNK;
}

static size_t cells(const struct setup *s, int edge)
{
    return (size_t)s->nb * (size_t)edge * (size_t)edge * (size_t)edge;
}

/* malloc of at least one element, so that NULL always means failure. */
static void *alloc(size_t n, size_t size, int *fail)
{
    void *p = malloc((n > 0 ? n : 1) * size);

    if (p == NULL)
        *fail = 1;
    return p;
}

static void alloc_meta(const struct setup *s, struct meta *m, int *fail)
{
    size_t nb = (size_t)s->nb;

    m->lrefine = alloc(nb, sizeof(int), fail);
    m->nodetype = alloc(nb, sizeof(int), fail);
    m->gid = alloc(nb * NGID, sizeof(int), fail);
    m->coord = alloc(nb * NDIM, sizeof(double), fail);
    m->bsize = alloc(nb * NDIM, sizeof(double), fail);
    m->bndbox = alloc(nb * NDIM * 2, sizeof(double), fail);
}

static void free_meta(struct meta *m)
{
    free(m->lrefine);
    free(m->nodetype);
    free(m->gid);
    free(m->coord);
    free(m->bsize);
    free(m->bndbox);
}

/* 1 when every rank got all its buffers. */
static int allocate(struct setup *s)
{
    int fail = 0;

    s->unk = alloc(unk_elems(s), sizeof(double), &fail);
    s->unk_r = alloc(unk_elems(s), sizeof(double), &fail);
    alloc_meta(s, &s->mw, &fail);
    alloc_meta(s, &s->mr, &fail);
    s->cnt = alloc(NPLOT * cells(s, s->n), sizeof(float), &fail);
    s->cnt_r = alloc(NPLOT * cells(s, s->n), sizeof(float), &fail);
    s->crn = alloc(NPLOT * cells(s, s->n + 1), sizeof(float), &fail);
    s->crn_r = alloc(NPLOT * cells(s, s->n + 1), sizeof(float), &fail);
    MPI_Allreduce(MPI_IN_PLACE, &fail, 1, MPI_INT, MPI_MAX, s->comm);
    return !fail;
}

static void release(struct setup *s)
{
    free(s->unk);
    free(s->unk_r);
    free_meta(&s->mw);
    free_meta(&s->mr);
    free(s->cnt);
    free(s->cnt_r);
    free(s->crn);
    free(s->crn_r);
}

/* The solution array: guard cells WRITE_GUARD, interiors their values. */
static void fill_unk(const struct setup *s)
{
    size_t total = unk_elems(s);
    int n = s->n;

    for (size_t i = 0; i < total; i++)
        s->unk[i] = WRITE_GUARD;
    for (int64_t b = 0; b < s->nb; b++)
        for (int z = 0; z < n; z++)
            for (int y = 0; y < n; y++)
                for (int x = 0; x < n; x++)
                    for (int v = 0; v < NUNK; v++)
                        s->unk[unk_index(s, b, z, y, x, v)] =
                            unk_value(s, v, s->first + b, z, y, x);
}

static void fill_meta(const struct setup *s)
{
    for (int64_t b = 0; b < s->nb; b++) {
        int64_t gb = s->first + b;

        s->mw.lrefine[b] = lrefine_of(gb);
        s->mw.nodetype[b] = nodetype_of(gb);
        for (int k = 0; k < NGID; k++)
            s->mw.gid[b * NGID + k] = gid_of(gb, k);
        for (int d = 0; d < NDIM; d++) {
            s->mw.coord[b * NDIM + d] = coord_of(gb, d);
            s->mw.bsize[b * NDIM + d] = bsize_of(gb);
            for (int side = 0; side < 2; side++)
                s->mw.bndbox[(b * NDIM + d) * 2 + side] =
                    bndbox_of(gb, d, side);
        }
    }
}

/* The plot buffers from unk: a copy to float, and the corner means. */
static void fill_plots(const struct setup *s)
{
    int n = s->n, c = n + 1;
    size_t i = 0, j = 0;

    for (int p = 0; p < NPLOT; p++)
        for (int64_t b = 0; b < s->nb; b++) {
            for (int z = 0; z < n; z++)
                for (int y = 0; y < n; y++)
                    for (int x = 0; x < n; x++)
                        s->cnt[i++] = (float)s->unk[unk_index(
                            s, b, z, y, x, plot_vars[p])];
            for (int k = 0; k < c; k++)
                for (int jj = 0; jj < c; jj++)
                    for (int ii = 0; ii < c; ii++)
                        s->crn[j++] = (float)corner_mean(
                            s, cell_from_unk, s->unk, plot_vars[p], b, k,
                            jj, ii);
        }
}

/* ------------------------------------------------------------ schemas */

static void set_var(struct bio_var *v, const char *name, enum bio_type t,
                    int ndims, const int64_t *shape,
                    const char *const *dims)
{
    memset(v, 0, sizeof *v);
    snprintf(v->name, sizeof v->name, "%s", name);
    v->type = t;
    v->ndims = ndims;
    for (int d = 0; d < ndims; d++) {
        v->shape[d] = shape[d];
        snprintf(v->dim[d], sizeof v->dim[d], "%s", dims[d]);
    }
}

static void define_chk(struct setup *s)
{
    static const char *const grid[4] = {"blocks", "nzb", "nyb", "nxb"};
    static const char *const gid[2] = {"blocks", "gid_len"};
    static const char *const vec[2] = {"blocks", "ndim"};
    static const char *const box[3] = {"blocks", "ndim", "two"};
    int64_t n = s->n, t = s->tot;
    int64_t gshape[4] = {t, n, n, n}, mshape[3] = {t, NGID, 0};
    struct bio_var *v = s->vars[F_CHK];
    char name[BIO_NAME_LEN];

    for (int k = 0; k < NUNK; k++) {
        snprintf(name, sizeof name, "unk_%s", unk_names[k]);
        set_var(&v[k], name, BIO_DOUBLE, 4, gshape, grid);
    }
    set_var(&v[NUNK + M_LREFINE], "lrefine", BIO_INT, 1, gshape, grid);
    set_var(&v[NUNK + M_NODETYPE], "nodetype", BIO_INT, 1, gshape, grid);
    set_var(&v[NUNK + M_GID], "gid", BIO_INT, 2, mshape, gid);
    mshape[1] = NDIM;
    set_var(&v[NUNK + M_COORD], "coordinates", BIO_DOUBLE, 2, mshape, vec);
    set_var(&v[NUNK + M_BSIZE], "blocksize", BIO_DOUBLE, 2, mshape, vec);
    mshape[2] = 2;
    set_var(&v[NUNK + M_BNDBOX], "bndbox", BIO_DOUBLE, 3, mshape, box);
    s->schema[F_CHK].nvars = NCHK;
}

static void define_plot(struct setup *s, enum flash_file f)
{
    static const char *const cdims[4] = {"blocks", "nzb", "nyb", "nxb"};
    static const char *const kdims[4] = {"blocks", "nzc", "nyc", "nxc"};
    int64_t e = f == F_CNT ? s->n : s->n + 1;
    int64_t shape[4] = {s->tot, e, e, e};

    for (int p = 0; p < NPLOT; p++)
        set_var(&s->vars[f][p], unk_names[plot_vars[p]], BIO_FLOAT, 4,
                shape, f == F_CNT ? cdims : kdims);
    s->schema[f].nvars = NPLOT;
}

/* ----------------------------------------------------------- requests */

/* Variable v's interior in all of this rank's blocks: a strided subarray
 * of unk (or unk_r). */
static void unk_request(const struct setup *s, struct bio_req *r, int v,
                        double *buf)
{
    int64_t n = s->n, w = n + 2 * NGUARD;

    memset(r, 0, sizeof *r);
    r->var = v;
    r->buf = buf;
    r->start[0] = s->first;
    r->count[0] = s->nb;
    for (int d = 1; d < 4; d++)
        r->count[d] = n;
    r->mndims = 5;
    r->mshape[0] = s->nb;
    r->mcount[0] = s->nb;
    for (int d = 1; d < 4; d++) {
        r->mshape[d] = w;
        r->mstart[d] = NGUARD;
        r->mcount[d] = n;
    }
    r->mshape[4] = NUNK;
    r->mstart[4] = v;
    r->mcount[4] = 1;
}

static void meta_requests(const struct setup *s, struct bio_req *r,
                          const struct meta *m)
{
    int64_t start[3] = {s->first, 0, 0};
    int64_t one[1] = {s->nb}, gid[2] = {s->nb, NGID};
    int64_t vec[2] = {s->nb, NDIM}, box[3] = {s->nb, NDIM, 2};

    bio_req_contig(&r[M_LREFINE], NUNK + M_LREFINE, 1, start, one,
                   m->lrefine);
    bio_req_contig(&r[M_NODETYPE], NUNK + M_NODETYPE, 1, start, one,
                   m->nodetype);
    bio_req_contig(&r[M_GID], NUNK + M_GID, 2, start, gid, m->gid);
    bio_req_contig(&r[M_COORD], NUNK + M_COORD, 2, start, vec, m->coord);
    bio_req_contig(&r[M_BSIZE], NUNK + M_BSIZE, 2, start, vec, m->bsize);
    bio_req_contig(&r[M_BNDBOX], NUNK + M_BNDBOX, 3, start, box,
                   m->bndbox);
}

static void plot_requests(const struct setup *s, struct bio_req *r,
                          int edge, float *buf)
{
    int64_t start[4] = {s->first, 0, 0, 0};
    int64_t count[4] = {s->nb, edge, edge, edge};
    size_t per_var = cells(s, edge);

    for (int p = 0; p < NPLOT; p++)
        bio_req_contig(&r[p], p, 4, start, count, buf + p * per_var);
}

static int64_t schema_bytes(const struct bio_schema *sc)
{
    int64_t total = 0;

    for (int v = 0; v < sc->nvars; v++) {
        int64_t b = (int64_t)bio_type_size(sc->vars[v].type);

        for (int d = 0; d < sc->vars[v].ndims; d++)
            b *= sc->vars[v].shape[d];
        total += b;
    }
    return total;
}

/* Schemas, requests and steps of the three files. */
static void build_files(struct setup *s)
{
    define_chk(s);
    define_plot(s, F_CNT);
    define_plot(s, F_CRN);
    for (int v = 0; v < NUNK; v++) {
        unk_request(s, &s->wreq[F_CHK][v], v, s->unk);
        unk_request(s, &s->rreq[F_CHK][v], v, s->unk_r);
    }
    meta_requests(s, &s->wreq[F_CHK][NUNK], &s->mw);
    meta_requests(s, &s->rreq[F_CHK][NUNK], &s->mr);
    plot_requests(s, s->wreq[F_CNT], s->n, s->cnt);
    plot_requests(s, s->rreq[F_CNT], s->n, s->cnt_r);
    plot_requests(s, s->wreq[F_CRN], s->n + 1, s->crn);
    plot_requests(s, s->rreq[F_CRN], s->n + 1, s->crn_r);
    for (int f = 0; f < F_COUNT; f++) {
        s->schema[f].vars = s->vars[f];
        s->schema[f].nrecs = 0;
        s->step[f].wreqs = s->wreq[f];
        s->step[f].rreqs = s->rreq[f];
        s->step[f].nwreqs = s->step[f].nrreqs = s->schema[f].nvars;
        s->bytes[f] = schema_bytes(&s->schema[f]);
    }
}

/* ------------------------------------------------------- verification */

struct check {
    const struct setup *s;
    const char *what;       /* "rep 2 pervar chk" */
    int64_t bad;
};

static void mismatch(struct check *c, const char *var, int64_t gb,
                     const char *where, double got, double want)
{
    if (c->bad++ < MAX_REPORTS)
        fprintf(stderr, "flash_io: rank %d: %s: %s block %" PRId64
                " %s = %.17g, expected %.17g\n", c->s->rank, c->what, var,
                gb, where, got, want);
}

static void check_unk(struct check *c)
{
    const struct setup *s = c->s;
    int w = s->n + 2 * NGUARD;

    for (int64_t b = 0; b < s->nb; b++)
        for (int z = -NGUARD; z < w - NGUARD; z++)
            for (int y = -NGUARD; y < w - NGUARD; y++)
                for (int x = -NGUARD; x < w - NGUARD; x++)
                    for (int v = 0; v < NUNK; v++) {
                        int inside = z >= 0 && z < s->n && y >= 0 &&
                                     y < s->n && x >= 0 && x < s->n;
                        double got = s->unk_r[unk_index(s, b, z, y, x, v)];
                        double want = inside ? unk_value(s, v, s->first + b,
                                                         z, y, x)
                                             : READ_FILL;
                        char where[64];

                        if (got == want)
                            continue;
                        snprintf(where, sizeof where, "%s(%d,%d,%d)",
                                 inside ? "cell" : "guard cell", z, y, x);
                        mismatch(c, unk_names[v], s->first + b, where, got,
                                 want);
                    }
}

static void check_meta(struct check *c)
{
    const struct setup *s = c->s;
    const struct meta *m = &s->mr;

    for (int64_t b = 0; b < s->nb; b++) {
        int64_t gb = s->first + b;

        if (m->lrefine[b] != lrefine_of(gb))
            mismatch(c, "lrefine", gb, "", m->lrefine[b], lrefine_of(gb));
        if (m->nodetype[b] != nodetype_of(gb))
            mismatch(c, "nodetype", gb, "", m->nodetype[b],
                     nodetype_of(gb));
        for (int k = 0; k < NGID; k++)
            if (m->gid[b * NGID + k] != gid_of(gb, k))
                mismatch(c, "gid", gb, "entry", m->gid[b * NGID + k],
                         gid_of(gb, k));
        for (int d = 0; d < NDIM; d++) {
            if (m->coord[b * NDIM + d] != coord_of(gb, d))
                mismatch(c, "coordinates", gb, "", m->coord[b * NDIM + d],
                         coord_of(gb, d));
            if (m->bsize[b * NDIM + d] != bsize_of(gb))
                mismatch(c, "blocksize", gb, "", m->bsize[b * NDIM + d],
                         bsize_of(gb));
            for (int side = 0; side < 2; side++)
                if (m->bndbox[(b * NDIM + d) * 2 + side] !=
                    bndbox_of(gb, d, side))
                    mismatch(c, "bndbox", gb, "",
                             m->bndbox[(b * NDIM + d) * 2 + side],
                             bndbox_of(gb, d, side));
        }
    }
}

/* A plot file's float buffer: centres (corner == 0) or corners. */
static void check_plot(struct check *c, const float *buf, int corner)
{
    const struct setup *s = c->s;
    int e = s->n + corner;
    size_t i = 0;

    for (int p = 0; p < NPLOT; p++)
        for (int64_t b = 0; b < s->nb; b++)
            for (int z = 0; z < e; z++)
                for (int y = 0; y < e; y++)
                    for (int x = 0; x < e; x++, i++) {
                        int v = plot_vars[p];
                        float want = corner
                            ? (float)corner_mean(s, cell_from_value, NULL,
                                                 v, b, z, y, x)
                            : (float)unk_value(s, v, s->first + b, z, y, x);
                        char where[48];

                        if (buf[i] == want)
                            continue;
                        snprintf(where, sizeof where, "%s(%d,%d,%d)",
                                 corner ? "corner" : "cell", z, y, x);
                        mismatch(c, unk_names[v], s->first + b, where,
                                 buf[i], want);
                    }
}

/* Wrong values of file f on this rank. */
static int64_t verify_file(const struct setup *s, enum flash_file f,
                           const char *what)
{
    struct check c = {s, what, 0};

    if (f == F_CHK) {
        check_unk(&c);
        check_meta(&c);
    } else {
        check_plot(&c, f == F_CNT ? s->cnt_r : s->crn_r, f == F_CRN);
    }
    return c.bad;
}

/* The read buffers of file f filled with what the data never hold. */
static void clear_read(const struct setup *s, enum flash_file f)
{
    size_t nb = (size_t)s->nb;

    if (f == F_CHK) {
        size_t total = unk_elems(s);

        for (size_t i = 0; i < total; i++)
            s->unk_r[i] = READ_FILL;
        memset(s->mr.lrefine, 0xff, nb * sizeof(int));
        memset(s->mr.nodetype, 0xff, nb * sizeof(int));
        memset(s->mr.gid, 0x7f, nb * NGID * sizeof(int));
        for (size_t i = 0; i < nb * NDIM; i++)
            s->mr.coord[i] = s->mr.bsize[i] = READ_FILL;
        for (size_t i = 0; i < nb * NDIM * 2; i++)
            s->mr.bndbox[i] = READ_FILL;
    } else {
        float *buf = f == F_CNT ? s->cnt_r : s->crn_r;
        size_t total = NPLOT * cells(s, f == F_CNT ? s->n : s->n + 1);

        for (size_t i = 0; i < total; i++)
            buf[i] = (float)READ_FILL;
    }
}

/* --------------------------------------------------------------- runs */

struct run {
    const struct setup *s;
    const char *base;           /* <dir>/flash_io.<lib>.<pid> */
    double (*times)[BIO_NPHASES]; /* [file][method][rep] */
};

/* The reps rows of file f by method m. */
static double (*times_of(const struct run *r, int f, int m))[BIO_NPHASES]
{
    int reps = r->s->o->run.reps;

    return &r->times[((size_t)f * BIO_NMETHODS + (size_t)m) * (size_t)reps];
}

static void file_stem(const struct run *r, enum bio_method m, int f,
                      char *out, size_t outsz)
{
    snprintf(out, outsz, "%s.%s_%s", r->base, bio_method_name(m),
             file_names[f]);
}

/* One file by one method: write, read back, verify, remove. Returns 0,
 * or the exit status (all ranks agree). */
static int run_file(const struct run *r, enum bio_method m, int f, int rep)
{
    const struct setup *s = r->s;
    struct bio_job job;
    char stem[4200], what[96];
    double t[BIO_NPHASES];
    int64_t bad = 0;
    int err, last = rep == s->o->run.reps;

    file_stem(r, m, f, stem, sizeof stem);
    snprintf(what, sizeof what, "rep %d %s %s", rep, bio_method_name(m),
             file_names[f]);
    job = (struct bio_job){.comm = s->comm, .stem = stem,
                           .schema = &s->schema[f],
                           .format = s->o->run.format, .info = s->info,
                           .nsteps = 1, .steps = &s->step[f]};
    clear_read(s, f);
    err = bio_run_job(&job, m, t);
    if (err != BIO_OK) {
        bio_report_failure("flash_io", s->rank, err, what);
        return 1;
    }
    bad = verify_file(s, f, what);
    MPI_Allreduce(MPI_IN_PLACE, &bad, 1, MPI_INT64_T, MPI_SUM, s->comm);
    if (!(s->o->run.keep && (last || bad != 0)))
        bio_remove(stem, s->rank);
    if (bad != 0) {
        if (s->rank == 0)
            fprintf(stderr, "flash_io: FAILED: %s: %" PRId64 " wrong "
                    "value%s read back\n", what, bad, bad == 1 ? "" : "s");
        return 1;
    }
    if (rep >= 1)
        memcpy(times_of(r, f, m)[rep - 1], t, sizeof t);
    return 0;
}

/* Every repetition (warm-ups first), every method in turn, the first one
 * rotating, each writing and reading the three files. */
static int run_all(const struct run *r)
{
    const struct setup *s = r->s;

    for (int rep = 1 - s->o->run.warmup; rep <= s->o->run.reps; rep++)
        for (int k = 0; k < s->nmeth; k++) {
            int idx = (k + rep + s->nmeth * BENCH_MAX_REPS) % s->nmeth;
            enum bio_method m = s->meth[idx];

            for (int f = 0; f < F_COUNT; f++) {
                int status = run_file(r, m, f, rep);

                if (status != 0)
                    return status;
            }
        }
    return 0;
}

/* ------------------------------------------------------------ reports */

static void report_header(const struct setup *s, const char *base)
{
    int64_t n = s->n;

    printf("flash_io: backend %s, %d rank%s, %s\n", bio_backend_name(),
           s->nprocs, s->nprocs == 1 ? "" : "s",
           bench_format_name(s->o->run.format));
    printf("  blocks   %" PRId64 "^3 interior + %d guard cells per side, "
           "%" PRId64 "..%" PRId64 " per rank (base %" PRId64 "), %"
           PRId64 " in all\n", n, NGUARD, s->nb_min, s->nb_max,
           s->o->base_blocks, s->tot);
    printf("  chk      %d double unk_*(%" PRId64 ", %" PRId64 ", %" PRId64
           ", %" PRId64 ") + block metadata: %.2f MiB\n", NUNK, s->tot, n,
           n, n, (double)s->bytes[F_CHK] / 1048576.0);
    printf("  plt_cnt  %d float (%" PRId64 ", %" PRId64 ", %" PRId64 ", %"
           PRId64 "): %.2f MiB\n", NPLOT, s->tot, n, n, n,
           (double)s->bytes[F_CNT] / 1048576.0);
    printf("  plt_crn  %d float corner means (%" PRId64 ", %" PRId64 ", %"
           PRId64 ", %" PRId64 "): %.2f MiB\n", NPLOT, s->tot, n + 1, n + 1,
           n + 1, (double)s->bytes[F_CRN] / 1048576.0);
    printf("           (float conversion and corner means are done before "
           "the timed phases)\n");
    printf("  files    %s.<method>_{chk,plt_cnt,plt_crn} + backend suffix "
           "(%s)\n", base, s->o->run.keep ? "last repetition kept"
                                         : "removed after each repetition");
    printf("  reps     %d timed after %d warm-up; methods", s->o->run.reps,
           s->o->run.warmup);
    for (int k = 0; k < s->nmeth; k++)
        printf("%s%s", k ? ", " : " ", bio_method_name(s->meth[k]));
    printf(" (first one rotating)\n");
}

/* One side's medians of file f by method m; v has room for reps. */
static void print_side(const struct run *r, int f, int m, int reading,
                       double *v)
{
    int reps = r->s->o->run.reps, p0 = reading ? BIO_OPEN_R : BIO_OPEN_W;
    double (*t)[BIO_NPHASES] = times_of(r, f, m);
    double open_s = bio_median(t, reps, p0, v);
    double data_s = bio_median(t, reps, p0 + 1, v);
    double close_s = bio_median(t, reps, p0 + 2, v);
    double total_s = bio_median(t, reps, reading ? BIO_TOTAL_R : BIO_TOTAL_W,
                                v);
    int64_t bytes = r->s->bytes[f];

    printf("  %-8s %-7s %-5s %9.6f %9.6f %9.6f %9.6f %10.1f %10.1f\n",
           bio_method_name(m), file_names[f], reading ? "read" : "write",
           open_s, data_s, close_s, total_s, bench_mibs(bytes, data_s),
           bench_mibs(bytes, total_s));
}

/* Median over repetitions of the three files' write (or read) totals; v
 * has room for reps. */
static double median_all(const struct run *r, int m, int p0, double *v)
{
    int reps = r->s->o->run.reps;

    for (int k = 0; k < reps; k++) {
        v[k] = 0.0;
        for (int f = 0; f < F_COUNT; f++) {
            const double *t = times_of(r, f, m)[k];

            v[k] += t[p0] + t[p0 + 1] + t[p0 + 2];
        }
    }
    return bench_median(v, reps);
}

/* 0, or 1 after a message. */
static int report_medians(const struct run *r)
{
    const struct setup *s = r->s;
    int64_t all = s->bytes[F_CHK] + s->bytes[F_CNT] + s->bytes[F_CRN];
    double *v = malloc((size_t)s->o->run.reps * sizeof *v);

    if (v == NULL) {
        fprintf(stderr, "flash_io: out of memory for the medians\n");
        return 1;
    }
    printf("  medians over %d rep%s, slowest rank (open = create + define "
           "for writes):\n", s->o->run.reps, s->o->run.reps == 1 ? "" : "s");
    printf("  %-8s %-7s %-5s %9s %9s %9s %9s %10s %10s\n", "method", "file",
           "side", "open_s", "data_s", "close_s", "total_s", "data_MiB/s",
           "total_MiB/s");
    for (int k = 0; k < s->nmeth; k++) {
        enum bio_method m = s->meth[k];
        double tw = median_all(r, m, BIO_OPEN_W, v);
        double tr = median_all(r, m, BIO_OPEN_R, v);

        for (int f = 0; f < F_COUNT; f++) {
            print_side(r, f, m, 0, v);
            print_side(r, f, m, 1, v);
        }
        printf("  %-8s %-7s %-5s %9s %9s %9s %9.6f %10s %10.1f\n",
               bio_method_name(m), "all", "write", "", "", "", tw, "",
               bench_mibs(all, tw));
        printf("  %-8s %-7s %-5s %9s %9s %9s %9.6f %10s %10.1f\n",
               bio_method_name(m), "all", "read", "", "", "", tr, "",
               bench_mibs(all, tr));
    }
    free(v);
    printf("  verify   OK: every value read back as written, in every file, "
           "by every method in each of %d rep%s\n",
           s->o->run.reps + s->o->run.warmup,
           s->o->run.reps + s->o->run.warmup == 1 ? "" : "s");
    return 0;
}

/* 0, or 1 after a message. */
static int report_csv(const struct run *r)
{
    const struct setup *s = r->s;

    for (int k = 0; k < s->nmeth; k++)
        for (int f = 0; f < F_COUNT; f++)
            if (bio_report_job("flash_io", file_names[f],
                               bio_method_name(s->meth[k]), s->nprocs,
                               s->bytes[f], times_of(r, f, s->meth[k]),
                               s->o->run.reps, 0) != BIO_OK)
                return 1;
    return 0;
}

/* ---------------------------------------------------------------- main */

static int run_program(struct setup *s)
{
    struct run r;
    char base[4096];
    int status;

    if (!choose_methods(s))
        return EXIT_USAGE;
    if (!bio_file_base("flash_io", s->o->run.dir, base, sizeof base))
        return EXIT_USAGE;
    decompose(s);
    r.s = s;
    r.base = base;
    r.times = calloc((size_t)F_COUNT * BIO_NMETHODS * (size_t)s->o->run.reps,
                     sizeof *r.times);
    if (!allocate(s) || r.times == NULL) {
        if (s->rank == 0)
            fprintf(stderr, "flash_io: out of memory for the buffers\n");
        free(r.times);
        return 1;
    }
    fill_unk(s);
    fill_meta(s);
    fill_plots(s);
    build_files(s);
    if (s->rank == 0 && !s->o->run.quiet)
        report_header(s, base);
    fflush(stdout);
    status = run_all(&r);
    if (status == 0 && s->rank == 0 && !s->o->run.quiet)
        status = report_medians(&r);
    if (status == 0 && s->rank == 0 && s->o->run.csv)
        status = report_csv(&r);
    fflush(stdout);
    free(r.times);
    return status;
}

int main(int argc, char **argv)
{
    struct options o;
    struct setup s;
    int status = 0;

    MPI_Init(&argc, &argv);
    memset(&s, 0, sizeof s);
    s.comm = MPI_COMM_WORLD;
    s.o = &o;
    MPI_Comm_rank(s.comm, &s.rank);
    MPI_Comm_size(s.comm, &s.nprocs);
    if (!parse_options(argc, argv, s.rank, &o))
        status = EXIT_USAGE;
    else if (!o.run.help) {
        s.info = bio_env_info();
        status = run_program(&s);
        bio_env_info_free(&s.info);
    }
    release(&s);
    MPI_Finalize();
    return status;
}
