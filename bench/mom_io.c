/*
 * mom_io.c -- the I/O of an ocean model's restart and history files as
 * seed 003 measures it in MOM (mpp_open, mpp_write, mpp_close, mpp_read),
 * written over bench/bio.h so that every backend runs it.
 *
 * The global grid is NX x NY x NZ (-g), cut into lon x lat subdomains over
 * a px x py process layout (MPI_Dims_create(P, 2), px >= py; rank r sits at
 * column r % px of row r / px). The file holds four 3-D record fields
 * temp, salt, u, v (time, zt, yt, xt) and one 2-D record field eta (time,
 * yt, xt), all double; -t records are written, one step per record.
 *
 * The I/O layout -L n makes n I/O groups of consecutive ranks whose
 * subdomains form a rectangle: for n <= py, groups of consecutive rows of
 * the layout (full x extent); for n a multiple of py, each row cut into
 * n / py runs of consecutive columns. Per record each group's first rank
 * gathers its members' subdomains (MPI_Gatherv on a group communicator),
 * rearranges them into the group's rectangle and only these roots write,
 * through bio_* on a communicator of the roots; the other ranks never open
 * the file. -L P (the default) is MOM's parallel I/O, every rank writing
 * its own subdomain; -L 1 the single writer.
 *
 * Reading does not use the layout (in MOM mpp_read does not): every rank
 * opens the file and reads its own subdomain. The exception is the file
 * per process backend with n < P: the roots' files hold their groups'
 * data, which no other rank can open through bio, so there the roots read
 * their rectangles back and scatter them (the reverse of the write).
 *
 * What it promises:
 *  - every value read back is checked by every rank against the value
 *    written, a pure function of field, record and global index, by every
 *    method in every repetition (warm-ups too); a wrong value makes the
 *    exit status 1;
 *  - every phase (open_w, write, close_w, open_r, read, close_r) starts
 *    after a barrier of all ranks and is the slowest rank's time over all
 *    ranks, writers or not; write includes the gathers, read the scatters;
 *  - the methods take turns within a repetition, the first one rotating
 *    from one repetition to the next, each method on its own file.
 */
#define _POSIX_C_SOURCE 200809L

#include <inttypes.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_common.h"
#include "bio.h"

enum {
    EXIT_USAGE = 2,
    NFIELDS = 5,        /* temp, salt, u, v (3-D), eta (2-D) */
    N3D = 4,            /* the 3-D ones come first */
    MAX_RECS = 1000,
    MAX_REPORTS = 5,
    PATH_LEN = 4096,            /* of <dir>/mom_io.<lib>.<pid> */
    STEM_LEN = PATH_LEN + 16    /* .<method> */
};

/* Bounds of the grid: per axis, and of its points (so that byte counts
 * of all records stay far from int64_t's range). */
static const int64_t MAX_HORIZ = (int64_t)1 << 24, MAX_DEPTH = 1 << 16;
static const int64_t MAX_POINTS = (int64_t)1 << 40;

static const char *const prog = "mom_io";
static const char *const field_names[NFIELDS] = {"temp", "salt", "u", "v",
                                                 "eta"};

struct options {
    int64_t nx, ny, nz;
    int nrecs;
    int layout;         /* -L n; 0 (-L P, the default): one group per
                         * rank */
    int nmethods;       /* 0 until -m: every supported method */
    enum bio_method methods[BIO_NMETHODS];
    struct bench_opts run;
};

/* A horizontal rectangle of the global grid. */
struct box {
    int64_t x0, nx, y0, ny;
};

struct setup {
    const struct options *o;
    int rank, nprocs;
    int shared_file;            /* one file for all ranks (not fpp) */
    int px, py;                 /* process layout */
    int ngroups;
    struct box mine;            /* this rank's subdomain */
    struct box gbox;            /* its group's rectangle */
    int gsize, groot;           /* its group's size and first rank */
    MPI_Comm gcomm;             /* its group, the root first */
    MPI_Comm iocomm;            /* the roots; MPI_COMM_NULL elsewhere */
    int grouped_read;           /* fpp with n < P: roots read, scatter */
    int64_t rec_elems;          /* one record of every field of mine */
    double *wdata, *rdata;      /* [nrecs][rec_elems] */
    double *packed, *rect;      /* roots of groups > 1: a group record */
    int *counts, *displs;       /* roots of groups > 1: per member */
    struct bio_var vars[NFIELDS];
    struct bio_schema schema;
    int64_t bytes;              /* payload of all ranks per repetition */
    MPI_Info info;
    char casename[96];
    char base[PATH_LEN];        /* bio_file_base */
};

static void usage(FILE *to)
{
    fprintf(to,
        "usage: mom_io [-g NX,NY,NZ] [-t recs] [-L n|P] [-m methods]\n"
        "              [-d dir] [-r reps] [-w warmup] [-f 1|2|5] [-k] [-q]\n"
        "              [-c] [-h]\n"
        "  -g NX,NY,NZ global grid (default 120,80,10)\n"
        "  -t recs     records of every field, one per step (default 2)\n"
        "  -L n|P      I/O layout: n groups of ranks, each writing through "
        "its\n"
        "              first rank; 1..P, n <= py or a multiple of py; P "
        "(default):\n"
        "              every rank writes its own subdomain\n");
    bio_usage_common(to, prog, 0, NULL);
}

/* "NX,NY,NZ", each positive and within bounds. */
static int parse_grid(const char *arg, struct options *o)
{
    char buf[96], *save = NULL, *p[3];

    if (strlen(arg) >= sizeof buf)
        return 0;
    strcpy(buf, arg);
    p[0] = strtok_r(buf, ",", &save);
    p[1] = p[0] ? strtok_r(NULL, ",", &save) : NULL;
    p[2] = p[1] ? strtok_r(NULL, ",", &save) : NULL;
    return p[2] != NULL && strtok_r(NULL, ",", &save) == NULL &&
           bench_parse_int64(p[0], 1, MAX_HORIZ, &o->nx) &&
           bench_parse_int64(p[1], 1, MAX_HORIZ, &o->ny) &&
           bench_parse_int64(p[2], 1, MAX_DEPTH, &o->nz) &&
           o->nx * o->ny <= MAX_POINTS / o->nz;
}

static int apply_option(int c, const char *arg, void *own)
{
    struct options *o = own;
    int64_t v = 0;
    int ok = 1;

    switch (c) {
    case 'g':
        ok = parse_grid(arg, o);
        break;
    case 't':
        ok = bench_parse_int64(arg, 1, MAX_RECS, &v);
        o->nrecs = (int)v;
        break;
    case 'L': /* "P" (or no -L): one group per rank */
        ok = strcmp(arg, "P") == 0 || bench_parse_int64(arg, 1, INT_MAX, &v);
        o->layout = (int)v;
        break;
    case 'm':
        ok = bio_parse_methods(arg, o->methods, &o->nmethods);
        break;
    default:
        ok = 0;
    }
    return ok;
}

/* 1 when the options are usable (or only -h was asked for). */
static int parse_options(int argc, char **argv, int rank, struct options *o)
{
    memset(o, 0, sizeof *o);
    o->nx = 120;
    o->ny = 80;
    o->nz = 10;
    o->nrecs = 2;
    if (!bench_parse_options(prog, argc, argv, "g:t:L:m:", rank, usage,
                             apply_option, o, &o->run))
        return 0;
    return o->run.help ||
           bio_choose_methods(prog, o->methods, &o->nmethods, rank);
}

/* ------------------------------------------------------------ geometry */

/* Index of the piece of [0, n) cut into `parts` <= n pieces
 * (bench_split_axis) that holds i; its start and count. */
static int piece_of(int64_t n, int parts, int64_t i, int64_t *start,
                    int64_t *count)
{
    int64_t q = n / parts, r = n % parts; /* the first r have q + 1 */
    int64_t k = i < r * (q + 1) ? i / (q + 1) : r + (i - r * (q + 1)) / q;
    MPI_Offset st, ct;

    bench_split_axis(n, parts, (int)k, &st, &ct);
    *start = st;
    *count = ct;
    return (int)k;
}

/* Rank r's subdomain. */
static struct box box_of(const struct setup *s, int r)
{
    MPI_Offset x0, nx, y0, ny;

    bench_split_axis(s->o->nx, s->px, r % s->px, &x0, &nx);
    bench_split_axis(s->o->ny, s->py, r / s->px, &y0, &ny);
    return (struct box){x0, nx, y0, ny};
}

/* Rank r's I/O group: its index, first and last rank. */
static int group_of(const struct setup *s, int r, int *first, int *last)
{
    int64_t st, ct;
    int col = r % s->px, row = r / s->px, g;

    if (s->ngroups <= s->py) {
        g = piece_of(s->py, s->ngroups, row, &st, &ct);
        *first = (int)st * s->px;
        *last = (int)(st + ct) * s->px - 1;
    } else {
        int runs = s->ngroups / s->py;

        g = row * runs + piece_of(s->px, runs, col, &st, &ct);
        *first = row * s->px + (int)st;
        *last = row * s->px + (int)(st + ct) - 1;
    }
    return g;
}

/* Elements of field f in a record of box b, and where it starts in a
 * record buffer of b (fields in order, each (z,) y, x). */
static int64_t field_elems(const struct setup *s, const struct box *b, int f)
{
    return (f < N3D ? s->o->nz : 1) * b->ny * b->nx;
}

static int64_t field_offset(const struct setup *s, const struct box *b,
                            int f)
{
    return (int64_t)f * s->o->nz * b->ny * b->nx; /* fields before f: 3-D */
}

static int64_t record_elems(const struct setup *s, const struct box *b)
{
    return field_offset(s, b, NFIELDS - 1) + field_elems(s, b, N3D);
}

/* The layout's checks: 0 after a message (rank 0). */
static int layout_ok(const struct setup *s)
{
    const struct options *o = s->o;
    const char *why = NULL;

    if (s->ngroups < 1 || s->ngroups > s->nprocs)
        why = "-L must be between 1 and the number of ranks";
    else if (s->ngroups > s->py && s->ngroups % s->py != 0)
        why = "-L must be at most py or a multiple of py";
    else if (o->nx < s->px || o->ny < s->py)
        why = "the grid has fewer points than the layout has ranks along "
              "x or y";
    if (why != NULL && s->rank == 0)
        fprintf(stderr, "%s: %s (-L %d, layout %dx%d, grid %" PRId64 "x%"
                PRId64 ")\n", prog, why, s->ngroups, s->px, s->py, o->nx,
                o->ny);
    return why == NULL;
}

/* Whether every group's record fits MPI's int counts (Gatherv); 0 after a
 * message. */
static int counts_fit(const struct setup *s)
{
    int too_big = record_elems(s, &s->gbox) > INT_MAX;

    MPI_Allreduce(MPI_IN_PLACE, &too_big, 1, MPI_INT, MPI_MAX,
                  MPI_COMM_WORLD);
    if (too_big && s->rank == 0)
        fprintf(stderr, "%s: a group's record exceeds MPI's int counts; "
                "use a larger -L\n", prog);
    return !too_big;
}

/* Layout, groups, communicators; 0 after a message. */
static int decompose(struct setup *s)
{
    int dims[2] = {0, 0}, last, g, is_root;
    struct box a, b;

    MPI_Dims_create(s->nprocs, 2, dims);
    s->px = dims[0];
    s->py = dims[1];
    s->ngroups = s->o->layout > 0 ? s->o->layout : s->nprocs;
    if (!layout_ok(s))
        return 0;
    s->mine = box_of(s, s->rank);
    g = group_of(s, s->rank, &s->groot, &last);
    s->gsize = last - s->groot + 1;
    a = box_of(s, s->groot);
    b = box_of(s, last);
    s->gbox = (struct box){a.x0, b.x0 + b.nx - a.x0, a.y0,
                           b.y0 + b.ny - a.y0};
    if (!counts_fit(s))
        return 0;
    is_root = s->rank == s->groot;
    MPI_Comm_split(MPI_COMM_WORLD, g, s->rank, &s->gcomm);
    MPI_Comm_split(MPI_COMM_WORLD, is_root ? 0 : MPI_UNDEFINED, s->rank,
                   &s->iocomm);
    s->grouped_read = !s->shared_file && s->ngroups < s->nprocs;
    s->rec_elems = record_elems(s, &s->mine);
    s->bytes = (int64_t)s->o->nrecs * (N3D * s->o->nz + 1) * s->o->ny *
               s->o->nx * (int64_t)sizeof(double);
    /* "LP" for one group per rank at any rank count, so that a case keeps
     * its name across rank counts. */
    if (s->o->layout > 0)
        snprintf(s->casename, sizeof s->casename, "L%d", s->o->layout);
    else
        snprintf(s->casename, sizeof s->casename, "LP");
    snprintf(s->casename + strlen(s->casename),
             sizeof s->casename - strlen(s->casename),
             "_g%" PRId64 "x%" PRId64 "x%" PRId64, s->o->nx, s->o->ny,
             s->o->nz);
    return 1;
}

static void define_schema(struct setup *s)
{
    const struct options *o = s->o;

    for (int f = 0; f < NFIELDS; f++) {
        struct bio_var *v = &s->vars[f];
        int d = 0;

        snprintf(v->name, sizeof v->name, "%s", field_names[f]);
        v->type = BIO_DOUBLE;
        v->shape[d] = 0;
        snprintf(v->dim[d++], BIO_NAME_LEN, "time");
        if (f < N3D) {
            v->shape[d] = o->nz;
            snprintf(v->dim[d++], BIO_NAME_LEN, "zt");
        }
        v->shape[d] = o->ny;
        snprintf(v->dim[d++], BIO_NAME_LEN, "yt");
        v->shape[d] = o->nx;
        snprintf(v->dim[d++], BIO_NAME_LEN, "xt");
        v->ndims = d;
    }
    s->schema = (struct bio_schema){NFIELDS, s->vars, o->nrecs};
}

/* ------------------------------------------------------------ values */

/* Field f at record rec, global (z, y, x): a hash of the linear index
 * that differs between fields at one place, plus one half, so that
 * neither zeros nor the NaN the read buffers start as pass. */
static double value_at(const struct setup *s, int f, int64_t rec, int64_t z,
                       int64_t y, int64_t x)
{
    const struct options *o = s->o;
    uint64_t lin = (uint64_t)(((rec * o->nz + z) * o->ny + y) * o->nx + x);

    return (double)((lin * 2654435761u + (uint64_t)f * 7919u) &
                    0x7fffffffu) + 0.5;
}

static void report_wrong(const struct setup *s, int rep, int f, int rec,
                         int64_t z, int64_t y, int64_t x, double got,
                         double want)
{
    fprintf(stderr, "%s: rank %d rep %d: %s(%d,%" PRId64 ",%" PRId64 ",%"
            PRId64 ") = %.17g, expected %.17g\n", prog, s->rank, rep,
            field_names[f], rec, z, y, x, got, want);
}

/* Fills (check == 0) or checks this rank's records in buf ([nrecs]
 * [rec_elems]); returns the wrong values, the first few reported (eta's
 * with z = 0). */
static int64_t walk_records(const struct setup *s, double *buf, int check,
                            int rep)
{
    const struct box *b = &s->mine;
    int64_t bad = 0, i = 0;

    for (int rec = 0; rec < s->o->nrecs; rec++)
        for (int f = 0; f < NFIELDS; f++)
            for (int64_t z = 0; z < (f < N3D ? s->o->nz : 1); z++)
                for (int64_t y = b->y0; y < b->y0 + b->ny; y++)
                    for (int64_t x = b->x0; x < b->x0 + b->nx; x++, i++) {
                        double want = value_at(s, f, rec, z, y, x);

                        if (!check)
                            buf[i] = want;
                        else if (buf[i] != want && bad++ < MAX_REPORTS)
                            report_wrong(s, rep, f, rec, z, y, x, buf[i],
                                         want);
                    }
    return bad;
}

/* --------------------------------------------------------------- memory */

/* Gatherv's counts and displacements on a root of a group > 1. */
static int make_counts(struct setup *s)
{
    int64_t pos = 0;

    s->counts = malloc((size_t)s->gsize * sizeof *s->counts);
    s->displs = malloc((size_t)s->gsize * sizeof *s->displs);
    if (s->counts == NULL || s->displs == NULL)
        return 0;
    for (int k = 0; k < s->gsize; k++) {
        struct box b = box_of(s, s->groot + k);

        s->counts[k] = (int)record_elems(s, &b);
        s->displs[k] = (int)pos;
        pos += s->counts[k];
    }
    return 1;
}

/* Buffers; 1 when every rank got its memory, 0 after a message. */
static int allocate(struct setup *s)
{
    size_t n = (size_t)s->o->nrecs * (size_t)s->rec_elems;
    int64_t group = record_elems(s, &s->gbox);
    int fail;

    s->wdata = malloc(n * sizeof *s->wdata);
    s->rdata = malloc(n * sizeof *s->rdata);
    fail = s->wdata == NULL || s->rdata == NULL;
    if (!fail && s->rank == s->groot && s->gsize > 1) {
        s->packed = malloc((size_t)group * sizeof *s->packed);
        s->rect = malloc((size_t)group * sizeof *s->rect);
        fail = s->packed == NULL || s->rect == NULL || !make_counts(s);
    }
    MPI_Allreduce(MPI_IN_PLACE, &fail, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (fail && s->rank == 0)
        fprintf(stderr, "%s: out of memory for the buffers\n", prog);
    if (!fail)
        walk_records(s, s->wdata, 0, 0);
    return !fail;
}

static void release(struct setup *s)
{
    free(s->wdata);
    free(s->rdata);
    free(s->packed);
    free(s->rect);
    free(s->counts);
    free(s->displs);
    if (s->gcomm != MPI_COMM_NULL)
        MPI_Comm_free(&s->gcomm);
    if (s->iocomm != MPI_COMM_NULL)
        MPI_Comm_free(&s->iocomm);
    bio_env_info_free(&s->info);
}

/* ---------------------------------------------------------- moving data */

/* Copies between the members' packed records (in member order, as
 * Gatherv leaves them) and the record of the group's rectangle: after a
 * gather (to_rect) or before a scatter. */
static void rearrange(const struct setup *s, int to_rect)
{
    const struct box *g = &s->gbox;
    double *p = s->packed;

    for (int k = 0; k < s->gsize; k++) {
        struct box b = box_of(s, s->groot + k);

        for (int f = 0; f < NFIELDS; f++)
            for (int64_t z = 0; z < (f < N3D ? s->o->nz : 1); z++)
                for (int64_t y = 0; y < b.ny; y++, p += b.nx) {
                    double *r = s->rect + field_offset(s, g, f) +
                                (z * g->ny + b.y0 - g->y0 + y) * g->nx +
                                (b.x0 - g->x0);

                    memcpy(to_rect ? r : p, to_rect ? p : r,
                           (size_t)b.nx * sizeof *p);
                }
    }
}

/* Record rec's requests for box b from/into the record buffer buf. */
static void make_reqs(const struct setup *s, const struct box *b, int rec,
                      double *buf, struct bio_req reqs[NFIELDS])
{
    for (int f = 0; f < NFIELDS; f++) {
        int64_t start[4] = {rec, 0, b->y0, b->x0};
        int64_t count[4] = {1, s->o->nz, b->ny, b->nx};
        int three_d = f < N3D;

        if (!three_d) { /* (time, yt, xt): drop the z entries */
            start[1] = b->y0;
            start[2] = b->x0;
            count[1] = b->ny;
            count[2] = b->nx;
        }
        bio_req_contig(&reqs[f], f, three_d ? 4 : 3, start, count,
                       buf + field_offset(s, b, f));
    }
}

/* Record rec through the group: gathered to the root, which writes the
 * group's rectangle. f is NULL on the other members. */
static int write_record(struct setup *s, struct bio_file *f, int rec,
                        enum bio_method m)
{
    double *mine = s->wdata + (int64_t)rec * s->rec_elems;
    struct bio_req reqs[NFIELDS];

    if (s->gsize == 1) {
        make_reqs(s, &s->mine, rec, mine, reqs);
        return bio_write(f, reqs, NFIELDS, m);
    }
    MPI_Gatherv(mine, (int)s->rec_elems, MPI_DOUBLE, s->packed, s->counts,
                s->displs, MPI_DOUBLE, 0, s->gcomm);
    if (f == NULL)
        return BIO_OK;
    rearrange(s, 1);
    make_reqs(s, &s->gbox, rec, s->rect, reqs);
    return bio_write(f, reqs, NFIELDS, m);
}

/* Record rec into this rank's buffer: read directly, or (grouped_read)
 * read by the root and scattered. An error on a root still scatters, so
 * that no member waits; the values are then wrong but the code says so. */
static int read_record(struct setup *s, struct bio_file *f, int rec,
                       enum bio_method m)
{
    double *mine = s->rdata + (int64_t)rec * s->rec_elems;
    struct bio_req reqs[NFIELDS];
    int err = BIO_OK;

    if (!s->grouped_read || s->gsize == 1) {
        make_reqs(s, &s->mine, rec, mine, reqs);
        return bio_read(f, reqs, NFIELDS, m);
    }
    if (f != NULL) {
        make_reqs(s, &s->gbox, rec, s->rect, reqs);
        err = bio_read(f, reqs, NFIELDS, m);
        rearrange(s, 0);
    }
    MPI_Scatterv(s->packed, s->counts, s->displs, MPI_DOUBLE, mine,
                 (int)s->rec_elems, MPI_DOUBLE, 0, s->gcomm);
    return err;
}

/* One side of a repetition, timed over all ranks into t[0..2]: open (or
 * create), every record, close. Ranks outside the side's communicator
 * take part in the barriers, gathers and scatters only. Every rank
 * returns the same code. */
static int run_side(struct setup *s, const char *stem, enum bio_method m,
                    int reading, double t[3])
{
    MPI_Comm io = reading && !s->grouped_read ? MPI_COMM_WORLD : s->iocomm;
    struct bio_file *f = NULL;
    int err = BIO_OK, cerr = BIO_OK;
    double t0 = bio_phase_start(MPI_COMM_WORLD);

    if (io != MPI_COMM_NULL)
        err = reading ? bio_open(io, stem, &s->schema, s->info, &f)
                      : bio_create(io, stem, &s->schema, s->o->run.format,
                                   s->info, &f);
    t[0] = bio_phase_end(MPI_COMM_WORLD, t0);
    err = bio_agree(MPI_COMM_WORLD, err);
    if (err != BIO_OK) {
        if (f != NULL)
            bio_close(f);
        return err;
    }
    t0 = bio_phase_start(MPI_COMM_WORLD);
    for (int rec = 0; rec < s->o->nrecs && err == BIO_OK; rec++)
        err = bio_agree(MPI_COMM_WORLD, reading ? read_record(s, f, rec, m)
                                                : write_record(s, f, rec, m));
    t[1] = bio_phase_end(MPI_COMM_WORLD, t0);
    t0 = bio_phase_start(MPI_COMM_WORLD);
    if (f != NULL)
        cerr = bio_close(f);
    t[2] = bio_phase_end(MPI_COMM_WORLD, t0);
    cerr = bio_agree(MPI_COMM_WORLD, cerr);
    return err != BIO_OK ? err : cerr;
}

/* Removes the file(s) of stem: rank 0 the shared one, or each writer its
 * own, named by its rank among the writers. */
static void remove_files(const struct setup *s, const char *stem)
{
    int iorank = s->rank;

    if (!s->shared_file) {
        if (s->iocomm == MPI_COMM_NULL)
            return;
        MPI_Comm_rank(s->iocomm, &iorank);
    }
    bio_remove(stem, iorank);
}

/* One method, one repetition (rep <= 0: a warm-up): write, read, check,
 * remove. 0, or the exit status after a message. bio_bench's run. */
static int run_method(void *ctx, enum bio_method m, int rep,
                      double t[BIO_NPHASES])
{
    struct setup *s = ctx;
    char stem[STEM_LEN];
    size_t n = (size_t)s->o->nrecs * (size_t)s->rec_elems;
    int64_t bad = 0, total = 0;
    int err;

    snprintf(stem, sizeof stem, "%s.%s", s->base, bio_method_name(m));
    memset(s->rdata, 0xff, n * sizeof *s->rdata); /* NaN everywhere */
    memset(t, 0, BIO_NPHASES * sizeof *t);
    err = run_side(s, stem, m, 0, &t[BIO_OPEN_W]);
    if (err == BIO_OK)
        err = run_side(s, stem, m, 1, &t[BIO_OPEN_R]);
    if (err != BIO_OK) {
        if (s->rank == 0)
            fprintf(stderr, "%s: %s: %s failed: %s\n", prog, stem,
                    bio_method_name(m), bio_strerror(err));
        return 1;
    }
    bad = walk_records(s, s->rdata, 1, rep);
    MPI_Allreduce(&bad, &total, 1, MPI_INT64_T, MPI_SUM, MPI_COMM_WORLD);
    if (total != 0 && s->rank == 0)
        fprintf(stderr, "%s: FAILED: %" PRId64 " wrong value%s read back "
                "by method %s\n", prog, total, total == 1 ? "" : "s",
                bio_method_name(m));
    if (!(s->o->run.keep && (rep == s->o->run.reps || total != 0)))
        remove_files(s, stem);
    MPI_Barrier(MPI_COMM_WORLD);
    return total != 0;
}

/* ------------------------------------------------------------ reporting */

static void print_header(const struct setup *s)
{
    const struct options *o = s->o;
    int writers = s->ngroups;

    printf("%s: backend %s, %d rank%s, layout %dx%d (x by y)\n", prog,
           bio_backend_name(), s->nprocs, s->nprocs == 1 ? "" : "s", s->px,
           s->py);
    printf("  grid    %" PRId64 "x%" PRId64 "x%" PRId64 " (x,y,z); temp, "
           "salt, u, v (time,zt,yt,xt) and eta (time,yt,xt), double, %d "
           "record%s\n", o->nx, o->ny, o->nz, o->nrecs,
           o->nrecs == 1 ? "" : "s");
    printf("  layout  -L %d: %d writer%s%s; reads by %s\n", s->ngroups,
           writers, writers == 1 ? "" : "s",
           writers < s->nprocs ? " gathering their groups" : "",
           s->grouped_read ? "the writers, scattering (file per process)"
                           : "every rank, its own subdomain");
    printf("  data    %.3f MiB per method and rep\n",
           (double)s->bytes / 1048576.0);
    printf("  files   %s.<method> (%s)\n", s->base,
           o->run.keep ? "kept after the last rep" : "removed after each "
                                                     "rep");
}

int main(int argc, char **argv)
{
    struct options o;
    struct setup s;
    struct bio_bench b;
    int status = 0;

    MPI_Init(&argc, &argv);
    memset(&s, 0, sizeof s);
    s.o = &o;
    s.info = MPI_INFO_NULL;
    s.gcomm = s.iocomm = MPI_COMM_NULL;
    MPI_Comm_rank(MPI_COMM_WORLD, &s.rank);
    MPI_Comm_size(MPI_COMM_WORLD, &s.nprocs);
    if (!parse_options(argc, argv, s.rank, &o)) {
        status = EXIT_USAGE;
        goto done;
    }
    if (o.run.help)
        goto done;
    s.shared_file = bio_shared_file();
    if (!decompose(&s) ||
        !bio_file_base(prog, o.run.dir, s.base, sizeof s.base)) {
        status = EXIT_USAGE;
        goto done;
    }
    s.info = bio_env_info();
    define_schema(&s);
    if (!allocate(&s)) {
        status = 1;
        goto done;
    }
    if (s.rank == 0 && !o.run.quiet)
        print_header(&s);
    b = (struct bio_bench){.prog = prog, .casename = s.casename,
                           .rank = s.rank, .nprocs = s.nprocs,
                           .bytes = s.bytes, .methods = o.methods,
                           .nmethods = o.nmethods, .opts = &o.run,
                           .run = run_method, .ctx = &s};
    status = bio_bench_run(&b);

done:
    release(&s);
    MPI_Finalize();
    return status;
}
