/*
 * bio_mpiio.c -- the raw MPI-IO backend of bio.h. A file <stem>.mpiio
 * holds exactly the data section of a netCDF file of the schema as laid
 * out by bio_raw_layout (fixed variables back to back, then the records,
 * each holding every record variable's slab), in native byte order, with
 * no header and no alignment padding.
 *
 *   BIO_PERVAR    per request, one MPI_File_set_view whose filetype is
 *                 the request's file subarray (for a record variable, the
 *                 slab subarray repeated at the record size; nested
 *                 hvectors when the file side has a stride) and one
 *                 MPI_File_write_at_all / read_at_all with the memory
 *                 datatype (the element type when the memory side is
 *                 dense, else bio_req_memtype's subarray; a memory type
 *                 other than the variable's is first converted into a
 *                 staging buffer, as MPI-IO's "native" cannot convert);
 *   BIO_COMBINED  every request flattened into runs (file offset, memory
 *                 address, length): the innermost contiguous runs of the
 *                 file subarray, with the trailing whole dimensions merged.
 *                 A strided memory side, or one of another type, is
 *                 first packed (converted) into a staging buffer in the
 *                 variable's type, so each run is contiguous in memory
 *                 too. The
 *                 runs of all requests are sorted by file offset (MPI
 *                 wants a non-decreasing file view) and become one
 *                 hindexed filetype and one hindexed memory type of
 *                 absolute addresses (used with MPI_BOTTOM), moved by one
 *                 MPI_File_write_at_all / read_at_all;
 *   BIO_INDEP     per request, one MPI_File_write_at / read_at with the
 *                 same view as BIO_PERVAR. Views are set collectively, so
 *                 the independent calls go through a second handle of the
 *                 file opened on MPI_COMM_SELF at the first BIO_INDEP call.
 *
 * Overlapping requests in one BIO_COMBINED call: a byte covered by more
 * than one request of the list is moved once, for the request that comes
 * LAST in the list. So a write leaves the last request's bytes in the
 * file, as separate calls in list order would; a read fills the other
 * requests' copies of that byte from the last one's after the read.
 *
 * One call moves at most INT_MAX bytes per rank (MPI counts are ints);
 * more is BIO_EINVAL. MPI errors are BIO_EIO with MPI_Error_string's text
 * in bio_last_error; a read that gets fewer bytes than asked (past the end
 * of the file) is BIO_EIO too.
 *
 * No rank is left waiting in a collective call: requests are checked and
 * their datatypes built before the first collective data call, and the
 * ranks agree on the outcome; after an MPI error a rank still makes the
 * remaining collective calls of the list, moving nothing, and returns the
 * first error. The communicator given at create/open must stay valid
 * until close.
 */
#include "bio.h"

#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct bio_file {
    MPI_File fh;
    MPI_File self;      /* MPI_COMM_SELF handle for BIO_INDEP */
    int have_self;
    int writable;
    char path[4096];
    MPI_Info info;      /* a copy of the caller's, for the MPI_COMM_SELF
                         * open */
    MPI_Comm comm;
    const struct bio_schema *schema;
    int64_t *off;       /* [nvars], from bio_raw_layout */
    int64_t fixed;      /* bytes of the fixed variables */
    int64_t recsize;    /* bytes of one record */
};

static char last_error[512] = "no error";

static void set_error(const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(last_error, sizeof last_error, fmt, ap);
    va_end(ap);
}

/* BIO_OK for MPI_SUCCESS, else BIO_EIO with MPI's text. */
static int mpi_check(int code, const char *what)
{
    char text[MPI_MAX_ERROR_STRING];
    int len = 0;

    if (code == MPI_SUCCESS)
        return BIO_OK;
    if (MPI_Error_string(code, text, &len) != MPI_SUCCESS)
        snprintf(text, sizeof text, "MPI error %d", code);
    set_error("%s: %s", what, text);
    return BIO_EIO;
}

/* The worst code over the ranks (codes are <= 0). */
static int agree(MPI_Comm comm, int code)
{
    int worst = code;

    MPI_Allreduce(&code, &worst, 1, MPI_INT, MPI_MIN, comm);
    if (worst != BIO_OK && code == BIO_OK)
        set_error("another rank failed");
    return worst;
}

const char *bio_backend_name(void)
{
    return "mpiio";
}

int bio_supports(enum bio_method m)
{
    return m == BIO_PERVAR || m == BIO_COMBINED || m == BIO_INDEP;
}

void bio_path(const char *stem, int rank, char *out, size_t outsz)
{
    (void)rank;
    snprintf(out, outsz, "%s.mpiio", stem);
}

const char *bio_last_error(void)
{
    return last_error;
}

/* ------------------------------------------------------- open/close */

static int schema_ok(const struct bio_schema *s)
{
    if (s == NULL || s->nvars < 0 || (s->nvars > 0 && s->vars == NULL))
        return 0;
    for (int v = 0; v < s->nvars; v++) {
        const struct bio_var *var = &s->vars[v];

        if (var->ndims < 1 || var->ndims > BIO_MAX_DIMS ||
            var->type < BIO_INT || var->type > BIO_DOUBLE ||
            var->shape[0] < 0)
            return 0;
        for (int d = 1; d < var->ndims; d++)
            if (var->shape[d] <= 0)
                return 0;
    }
    return 1;
}

static struct bio_file *new_file(MPI_Comm comm, const char *stem,
                                 const struct bio_schema *s, MPI_Info info,
                                 int writable)
{
    struct bio_file *f = calloc(1, sizeof *f);

    if (f == NULL)
        return NULL;
    f->off = calloc((size_t)(s->nvars > 0 ? s->nvars : 1), sizeof *f->off);
    if (f->off == NULL) {
        free(f);
        return NULL;
    }
    f->fh = MPI_FILE_NULL;
    f->self = MPI_FILE_NULL;
    f->writable = writable;
    f->info = MPI_INFO_NULL;
    if (info != MPI_INFO_NULL && MPI_Info_dup(info, &f->info) != MPI_SUCCESS) {
        free(f->off);
        free(f);
        return NULL;
    }
    f->comm = comm;
    f->schema = s;
    f->fixed = bio_raw_layout(s, f->off, &f->recsize);
    bio_path(stem, 0, f->path, sizeof f->path);
    return f;
}

static void free_file(struct bio_file *f)
{
    if (f->info != MPI_INFO_NULL)
        MPI_Info_free(&f->info);
    free(f->off);
    free(f);
}

/* Opens (creating and truncating when writable) on every rank or none. */
static int start_file(MPI_Comm comm, const char *stem,
                      const struct bio_schema *s, MPI_Info info,
                      int writable, struct bio_file **out)
{
    struct bio_file *f;
    int amode = writable ? MPI_MODE_CREATE | MPI_MODE_RDWR : MPI_MODE_RDONLY;
    int err, opened;

    *out = NULL;
    if (!schema_ok(s))
        return BIO_EINVAL; /* the same schema everywhere: all refuse */
    f = new_file(comm, stem, s, info, writable);
    err = agree(comm, f == NULL ? BIO_ENOMEM : BIO_OK);
    if (err != BIO_OK) {
        if (f != NULL)
            free_file(f);
        return err;
    }
    err = mpi_check(MPI_File_open(comm, f->path, amode, info, &f->fh),
                    writable ? "MPI_File_open (create)" : "MPI_File_open");
    opened = err == BIO_OK;
    err = agree(comm, err);
    if (err == BIO_OK && writable)
        err = agree(comm, mpi_check(MPI_File_set_size(f->fh, 0),
                                    "MPI_File_set_size"));
    if (err != BIO_OK) {
        /* Close only when every rank has the handle: a collective close
         * on part of the ranks would hang (a handle is leaked then). */
        if (agree(comm, opened ? BIO_OK : BIO_EIO) == BIO_OK)
            MPI_File_close(&f->fh);
        free_file(f);
        return err;
    }
    *out = f;
    return BIO_OK;
}

int bio_create(MPI_Comm comm, const char *stem, const struct bio_schema *s,
               int format, MPI_Info info, struct bio_file **out)
{
    (void)format;
    return start_file(comm, stem, s, info, 1, out);
}

int bio_open(MPI_Comm comm, const char *stem, const struct bio_schema *s,
             MPI_Info info, struct bio_file **out)
{
    return start_file(comm, stem, s, info, 0, out);
}

int bio_close(struct bio_file *f)
{
    int err = BIO_OK, cerr;

    if (f == NULL)
        return BIO_OK;
    if (f->have_self)
        err = mpi_check(MPI_File_close(&f->self), "MPI_File_close (self)");
    cerr = mpi_check(MPI_File_close(&f->fh), "MPI_File_close");
    free_file(f);
    return err != BIO_OK ? err : cerr;
}

/* -------------------------------------------------- file-side layout */

static int is_record(const struct bio_var *v)
{
    return v->shape[0] == 0;
}

/* Byte offset in the file of element coords of variable var. */
static int64_t elem_offset(const struct bio_file *f, int var,
                           const int64_t *coords)
{
    const struct bio_var *v = &f->schema->vars[var];
    int first = is_record(v) ? 1 : 0;
    int64_t lin = 0, base;

    for (int d = first; d < v->ndims; d++)
        lin = lin * v->shape[d] + coords[d];
    base = first ? f->fixed + coords[0] * f->recsize + f->off[var]
                 : f->off[var];
    return base + lin * (int64_t)bio_type_size(v->type);
}

/* Bytes of a request, or -1 when a count is negative or the bytes are
 * over INT_MAX (MPI counts and block lengths are ints); computed so that
 * nothing overflows. */
static int64_t req_bytes(const struct bio_var *v, const struct bio_req *r)
{
    int64_t n = (int64_t)bio_type_size(v->type);

    for (int d = 0; d < v->ndims; d++)
        if (r->count[d] < 0)
            return -1;
    for (int d = 0; d < v->ndims; d++)
        if (r->count[d] == 0)
            return 0;
    for (int d = 0; d < v->ndims; d++) {
        if (r->count[d] > INT_MAX / n)
            return -1;
        n *= r->count[d];
    }
    return n;
}

/* bio_req_check, after making sure that the request's size can be
 * computed without overflow and fits one MPI call. */
static int check_req(const struct bio_file *f, const struct bio_req *r)
{
    if (r->var < 0 || r->var >= f->schema->nvars ||
        req_bytes(&f->schema->vars[r->var], r) < 0)
        return BIO_EINVAL;
    return bio_req_check(f->schema, r);
}

/* The filetype of a non-empty request with a stride, relative to *disp
 * (its first element): one hvector per dimension from the innermost out,
 * each stepping by its stride times the bytes between neighbours of that
 * dimension (a record for the record dimension). Increasing offsets, as
 * file views need: a step is never shorter than what it repeats. */
static int strided_view(const struct bio_file *f, const struct bio_req *r,
                        MPI_Offset *disp, MPI_Datatype *ftype)
{
    const struct bio_var *v = &f->schema->vars[r->var];
    MPI_Datatype t = bio_mpi_type(v->type), outer;
    MPI_Aint between = (MPI_Aint)bio_type_size(v->type);
    int own = 0;

    *disp = (MPI_Offset)elem_offset(f, r->var, r->start);
    for (int d = v->ndims - 1; d >= 0; d--) {
        if (d == 0 && is_record(v))
            between = (MPI_Aint)f->recsize;
        MPI_Type_create_hvector((int)r->count[d], 1,
                                between * (MPI_Aint)bio_req_stride(r, d), t,
                                &outer);
        if (own)
            MPI_Type_free(&t);
        t = outer;
        own = 1;
        between *= (MPI_Aint)v->shape[d];
    }
    *ftype = t;
    MPI_Type_commit(ftype);
    return BIO_OK;
}

/* The filetype of a non-empty request's file box, relative to *disp: the
 * subarray of the variable (of one record's slab for a record variable,
 * repeated count[0] times at the record size). */
static int file_view(const struct bio_file *f, const struct bio_req *r,
                     MPI_Offset *disp, MPI_Datatype *ftype)
{
    const struct bio_var *v = &f->schema->vars[r->var];
    MPI_Datatype et = bio_mpi_type(v->type), slab, one;
    int first = is_record(v) ? 1 : 0, n = v->ndims - first;
    int sizes[BIO_MAX_DIMS], subs[BIO_MAX_DIMS], starts[BIO_MAX_DIMS];
    int64_t zero[BIO_MAX_DIMS] = {0};

    for (int d = 0; d < v->ndims; d++)
        if (r->count[d] > INT_MAX || r->start[d] > INT_MAX ||
            v->shape[d] > INT_MAX)
            return BIO_EINVAL;
    if (bio_req_strided(v, r))
        return strided_view(f, r, disp, ftype);
    for (int d = 0; d < n; d++) {
        sizes[d] = (int)v->shape[first + d];
        subs[d] = (int)r->count[first + d];
        starts[d] = (int)r->start[first + d];
    }
    if (n == 0)
        MPI_Type_contiguous(1, et, &slab);
    else
        MPI_Type_create_subarray(n, sizes, subs, starts, MPI_ORDER_C, et,
                                 &slab);
    if (!first) {
        *disp = (MPI_Offset)elem_offset(f, r->var, zero);
        *ftype = slab;
    } else {
        zero[0] = r->start[0];
        *disp = (MPI_Offset)elem_offset(f, r->var, zero);
        MPI_Type_create_resized(slab, 0, (MPI_Aint)f->recsize, &one);
        MPI_Type_free(&slab);
        MPI_Type_contiguous((int)r->count[0], one, ftype);
        MPI_Type_free(&one);
    }
    MPI_Type_commit(ftype);
    return BIO_OK;
}

/* ------------------------------------------ per-request (pervar, indep) */

/* One request as a view and a memory description. An empty request has
 * no types (count 0 of the element type). */
struct prepared {
    MPI_Offset disp;
    MPI_Datatype etype;
    MPI_Datatype ftype;     /* MPI_DATATYPE_NULL when empty */
    MPI_Datatype mtype;     /* the element type when dense */
    int mcount;
    int own_mtype;          /* mtype is ours to free */
    int64_t elems;
    char *stage;            /* the elements in the variable's type, when
                             * the memory's differs; else NULL */
};

static void release(struct prepared *p, int n)
{
    for (int i = 0; i < n; i++) {
        if (p[i].ftype != MPI_DATATYPE_NULL)
            MPI_Type_free(&p[i].ftype);
        if (p[i].own_mtype)
            MPI_Type_free(&p[i].mtype);
        free(p[i].stage);
    }
    free(p);
}

static int prepare_one(const struct bio_file *f, const struct bio_req *r,
                       int writing, struct prepared *p)
{
    const struct bio_var *v;
    int err;

    p->ftype = MPI_DATATYPE_NULL;
    p->etype = p->mtype = MPI_INT;
    if ((err = check_req(f, r)) != BIO_OK)
        return err;
    v = &f->schema->vars[r->var];
    p->etype = p->mtype = bio_mpi_type(v->type);
    p->elems = bio_req_elems(v, r);
    if (p->elems == 0)
        return BIO_OK;
    if ((err = file_view(f, r, &p->disp, &p->ftype)) != BIO_OK)
        return err;
    if (bio_req_mtype(f->schema, r) != v->type) {
        p->stage = malloc((size_t)p->elems * bio_type_size(v->type));
        if (p->stage == NULL)
            return BIO_ENOMEM;
        if (writing)
            bio_req_pack_conv(f->schema, r, p->stage, 1);
        p->mcount = (int)p->elems;
        return BIO_OK;
    }
    if (bio_req_dense(r)) {
        p->mcount = (int)p->elems;
        return BIO_OK;
    }
    if ((err = bio_req_memtype(f->schema, r, &p->mtype)) != BIO_OK)
        return err;
    p->own_mtype = 1;
    p->mcount = 1;
    return BIO_OK;
}

static int prepare(const struct bio_file *f, const struct bio_req *reqs,
                   int nreqs, int writing, struct prepared **out)
{
    struct prepared *p;
    int err = BIO_OK, i;

    *out = NULL;
    if (nreqs < 0 || (nreqs > 0 && reqs == NULL))
        return BIO_EINVAL;
    p = calloc((size_t)(nreqs > 0 ? nreqs : 1), sizeof *p);
    if (p == NULL)
        return BIO_ENOMEM;
    for (i = 0; i < nreqs && err == BIO_OK; i++)
        err = prepare_one(f, &reqs[i], writing, &p[i]);
    if (err != BIO_OK) {
        release(p, i);
        return err;
    }
    *out = p;
    return BIO_OK;
}

/* A read that got fewer elements than asked ran past the end of file. */
static int check_got(const MPI_Status *st, MPI_Datatype t, int64_t want)
{
    MPI_Count got = 0;

    if (MPI_Get_elements_x(st, t, &got) != MPI_SUCCESS || got != want) {
        set_error("read %lld of %lld elements: past the end of the file",
                  (long long)got, (long long)want);
        return BIO_EIO;
    }
    return BIO_OK;
}

/* One request moved collectively. After an earlier error (ok false) the
 * rank still takes part, moving nothing. */
static int move_all_one(struct bio_file *f, const struct bio_req *r,
                        const struct prepared *p, int ok, int writing)
{
    int live = ok && p->ftype != MPI_DATATYPE_NULL;
    int err, derr, count;
    void *buf = p->stage != NULL ? p->stage : r->buf;
    MPI_Status st;

    /* The etype is the variable's on every rank (the same variable in
     * the same place of every rank's list), as MPI requires. */
    err = mpi_check(MPI_File_set_view(f->fh, live ? p->disp : 0, p->etype,
                                      live ? p->ftype : p->etype, "native",
                                      MPI_INFO_NULL),
                    "MPI_File_set_view");
    count = live && err == BIO_OK ? p->mcount : 0;
    if (writing)
        derr = mpi_check(MPI_File_write_at_all(f->fh, 0, buf, count,
                                               p->mtype, &st),
                         "MPI_File_write_at_all");
    else
        derr = mpi_check(MPI_File_read_at_all(f->fh, 0, buf, count,
                                              p->mtype, &st),
                         "MPI_File_read_at_all");
    if (err == BIO_OK)
        err = derr;
    if (err == BIO_OK && !writing && count > 0)
        err = check_got(&st, p->mtype, p->elems);
    if (err == BIO_OK && !writing && count > 0 && p->stage != NULL)
        bio_req_pack_conv(f->schema, r, p->stage, 0);
    return err;
}

static int pervar(struct bio_file *f, const struct bio_req *reqs,
                  const struct prepared *p, int nreqs, int writing)
{
    int first = BIO_OK;

    for (int i = 0; i < nreqs; i++) {
        int err = move_all_one(f, &reqs[i], &p[i], first == BIO_OK,
                               writing);

        if (first == BIO_OK)
            first = err;
    }
    return first;
}

static int open_self(struct bio_file *f)
{
    int amode = f->writable ? MPI_MODE_RDWR : MPI_MODE_RDONLY;
    int err;

    if (f->have_self)
        return BIO_OK;
    err = mpi_check(MPI_File_open(MPI_COMM_SELF, f->path, amode, f->info,
                                  &f->self),
                    "MPI_File_open (MPI_COMM_SELF)");
    f->have_self = err == BIO_OK;
    return err;
}

static int indep(struct bio_file *f, const struct bio_req *reqs,
                 const struct prepared *p, int nreqs, int writing)
{
    int err = nreqs > 0 ? open_self(f) : BIO_OK;

    for (int i = 0; i < nreqs && err == BIO_OK; i++) {
        void *buf = p[i].stage != NULL ? p[i].stage : reqs[i].buf;
        MPI_Status st;

        if (p[i].ftype == MPI_DATATYPE_NULL)
            continue;
        err = mpi_check(MPI_File_set_view(f->self, p[i].disp, p[i].etype,
                                          p[i].ftype, "native",
                                          MPI_INFO_NULL),
                        "MPI_File_set_view (MPI_COMM_SELF)");
        if (err != BIO_OK)
            break;
        if (writing)
            err = mpi_check(MPI_File_write_at(f->self, 0, buf,
                                              p[i].mcount, p[i].mtype, &st),
                            "MPI_File_write_at");
        else if ((err = mpi_check(MPI_File_read_at(f->self, 0, buf,
                                                   p[i].mcount, p[i].mtype,
                                                   &st),
                                  "MPI_File_read_at")) == BIO_OK &&
                 (err = check_got(&st, p[i].mtype, p[i].elems)) == BIO_OK &&
                 p[i].stage != NULL)
            bio_req_pack_conv(f->schema, &reqs[i], p[i].stage, 0);
    }
    return err;
}

/* ------------------------------------------------- combined: runs */

/* A stretch of bytes contiguous both in the file and in memory; req is
 * the index of its request in the call's list. */
struct run {
    int64_t off;
    int64_t len;
    char *mem;
    int req;
};

/* A copy to make after a combined read: bytes another request's run got
 * for a file region two requests share. */
struct dup {
    char *dst;
    const char *src;
    int64_t len;
};

/* Everything one combined call builds and frees. */
struct flat {
    char **stage;       /* [nreqs] packed copies of strided requests */
    struct run *runs;
    int64_t nruns;
    struct dup *dups;
    int64_t ndups;
    int64_t bytes;
};

static void free_flat(struct flat *fl, int nreqs)
{
    for (int i = 0; fl->stage != NULL && i < nreqs; i++)
        free(fl->stage[i]);
    free(fl->stage);
    free(fl->runs);
    free(fl->dups);
    memset(fl, 0, sizeof *fl);
}

/* Elements of one innermost file run of r, and the first dimension it
 * spans (*k): the last dimension, merged outwards while the dimensions
 * inside are covered whole and none steps by more than one (a stride in
 * the last dimension makes every element a run of its own, *k = ndims).
 * Never the record dimension: records are not
 * adjacent (a 1-D record variable has runs of one element, *k = 1). */
static int64_t run_elems(const struct bio_var *v, const struct bio_req *r,
                         int *k)
{
    int first = is_record(v) ? 1 : 0, d = v->ndims;
    int64_t len = 1;

    while (d > first && bio_req_stride(r, d - 1) == 1) {
        d--;
        len *= r->count[d];
        if (r->count[d] != v->shape[d])
            break;
    }
    *k = d;
    return len;
}

/* Appends the runs of request ri (memory at mem, packed) to fl->runs. */
static void add_runs(const struct bio_file *f, const struct bio_req *r,
                     int ri, char *mem, struct flat *fl)
{
    const struct bio_var *v = &f->schema->vars[r->var];
    int64_t es = (int64_t)bio_type_size(v->type);
    int64_t idx[BIO_MAX_DIMS] = {0}, coords[BIO_MAX_DIMS];
    int k;
    int64_t len = run_elems(v, r, &k);
    int64_t n = bio_req_elems(v, r) / len;

    for (int64_t i = 0; i < n; i++) {
        struct run *out = &fl->runs[fl->nruns++];

        for (int d = 0; d < v->ndims; d++)
            coords[d] = r->start[d] +
                        (d < k ? idx[d] * bio_req_stride(r, d) : 0);
        out->off = elem_offset(f, r->var, coords);
        out->len = len * es;
        out->mem = mem + i * len * es;
        out->req = ri;
        for (int d = k - 1; d >= 0; d--) {
            if (++idx[d] < r->count[d])
                break;
            idx[d] = 0;
        }
    }
}

/* Checks the requests, stages strided ones (packing them for a write)
 * and lists every run. */
static int flatten(const struct bio_file *f, const struct bio_req *reqs,
                   int nreqs, int writing, struct flat *fl)
{
    int64_t nruns = 0;

    memset(fl, 0, sizeof *fl);
    if (nreqs < 0 || (nreqs > 0 && reqs == NULL))
        return BIO_EINVAL;
    for (int i = 0; i < nreqs; i++) {
        const struct bio_var *v;
        int k;

        if (check_req(f, &reqs[i]) != BIO_OK)
            return BIO_EINVAL;
        v = &f->schema->vars[reqs[i].var];
        fl->bytes += req_bytes(v, &reqs[i]);
        if (fl->bytes > INT_MAX)
            return BIO_EINVAL;
        if (bio_req_elems(v, &reqs[i]) > 0)
            nruns += bio_req_elems(v, &reqs[i]) / run_elems(v, &reqs[i], &k);
    }
    fl->stage = calloc((size_t)(nreqs > 0 ? nreqs : 1), sizeof *fl->stage);
    fl->runs = malloc((size_t)(nruns > 0 ? nruns : 1) * sizeof *fl->runs);
    if (fl->stage == NULL || fl->runs == NULL)
        return BIO_ENOMEM;
    for (int i = 0; i < nreqs; i++) {
        const struct bio_req *r = &reqs[i];
        const struct bio_var *v = &f->schema->vars[r->var];
        size_t es = bio_type_size(v->type);
        int64_t elems = bio_req_elems(v, r);
        char *mem = r->buf;

        if (elems == 0)
            continue;
        if (bio_req_needs_stage(f->schema, r)) {
            if ((fl->stage[i] = malloc((size_t)elems * es)) == NULL)
                return BIO_ENOMEM;
            if (writing)
                bio_req_pack_conv(f->schema, r, fl->stage[i], 1);
            mem = fl->stage[i];
        }
        add_runs(f, r, i, mem, fl);
    }
    return BIO_OK;
}

static int run_order(const void *a, const void *b)
{
    const struct run *x = a, *y = b;

    if (x->off != y->off)
        return x->off < y->off ? -1 : 1;
    return (x->req > y->req) - (x->req < y->req);
}

static int has_overlap(const struct run *r, int64_t n)
{
    int64_t end = 0;

    for (int64_t i = 0; i < n; i++) {
        if (i > 0 && r[i].off < end)
            return 1;
        if (r[i].off + r[i].len > end)
            end = r[i].off + r[i].len;
    }
    return 0;
}

static int cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

    return (x > y) - (x < y);
}

/* Rewrites sorted, overlapping runs into disjoint ones: every stretch
 * between two neighbouring run boundaries (at most 2n - 1 of them) goes
 * to the covering run of the latest request, and the other covering runs
 * get a dup entry (used by reads). Rare, so work quadratic in the depth
 * of the overlap is fine. */
static int resolve_overlaps(struct flat *fl)
{
    int64_t n = fl->nruns, nb = 0, nout = 0, next = 0, nact = 0;
    int64_t *bound = malloc((size_t)(2 * n) * sizeof *bound);
    int64_t *act = malloc((size_t)n * sizeof *act);
    struct run *out = NULL;
    struct dup *dups = NULL;
    int64_t ndups = 0, maxdups = n;

    out = malloc((size_t)(2 * n) * sizeof *out);
    dups = malloc((size_t)maxdups * sizeof *dups);
    if (bound == NULL || act == NULL || out == NULL || dups == NULL)
        goto nomem;
    for (int64_t i = 0; i < n; i++) {
        bound[nb++] = fl->runs[i].off;
        bound[nb++] = fl->runs[i].off + fl->runs[i].len;
    }
    qsort(bound, (size_t)nb, sizeof *bound, cmp_i64);
    for (int64_t j = 0; j + 1 < nb; j++) {
        int64_t lo = bound[j], hi = bound[j + 1], keep = 0, win = -1;

        if (lo == hi)
            continue;
        while (next < n && fl->runs[next].off <= lo)
            act[nact++] = next++;
        for (int64_t a = 0; a < nact; a++) { /* drop runs ended by lo */
            const struct run *r = &fl->runs[act[a]];

            if (r->off + r->len > lo)
                act[keep++] = act[a];
        }
        nact = keep;
        for (int64_t a = 0; a < nact; a++)
            if (win < 0 || fl->runs[act[a]].req > fl->runs[win].req)
                win = act[a];
        if (win < 0)
            continue;
        out[nout].off = lo;
        out[nout].len = hi - lo;
        out[nout].mem = fl->runs[win].mem + (lo - fl->runs[win].off);
        out[nout].req = fl->runs[win].req;
        for (int64_t a = 0; a < nact; a++) {
            const struct run *r = &fl->runs[act[a]];

            if (act[a] == win)
                continue;
            if (ndups == maxdups) {
                struct dup *more =
                    realloc(dups, (size_t)(2 * maxdups) * sizeof *dups);

                if (more == NULL)
                    goto nomem;
                dups = more;
                maxdups *= 2;
            }
            dups[ndups].dst = r->mem + (lo - r->off);
            dups[ndups].src = out[nout].mem;
            dups[ndups].len = hi - lo;
            ndups++;
        }
        nout++;
    }
    free(bound);
    free(act);
    free(fl->runs);
    fl->runs = out;
    fl->nruns = nout;
    fl->dups = dups;
    fl->ndups = ndups;
    return BIO_OK;
nomem:
    free(bound);
    free(act);
    free(out);
    free(dups);
    return BIO_ENOMEM;
}

/* An hindexed type of MPI_BYTE over the runs, by file offset (file) or
 * by absolute memory address (memory), merging neighbours that are
 * adjacent on that side. */
static int runs_type(const struct flat *fl, int memory, MPI_Datatype *out)
{
    int *lens = malloc((size_t)(fl->nruns > 0 ? fl->nruns : 1) *
                       sizeof *lens);
    MPI_Aint *at = malloc((size_t)(fl->nruns > 0 ? fl->nruns : 1) *
                          sizeof *at);
    int n = 0;

    if (lens == NULL || at == NULL) {
        free(lens);
        free(at);
        return BIO_ENOMEM;
    }
    for (int64_t i = 0; i < fl->nruns; i++) {
        const struct run *r = &fl->runs[i];
        MPI_Aint where;

        if (memory)
            MPI_Get_address(r->mem, &where);
        else
            where = (MPI_Aint)r->off;
        if (n > 0 && at[n - 1] + lens[n - 1] == where) {
            lens[n - 1] += (int)r->len;
        } else {
            at[n] = where;
            lens[n] = (int)r->len;
            n++;
        }
    }
    MPI_Type_create_hindexed(n, lens, at, MPI_BYTE, out);
    MPI_Type_commit(out);
    free(lens);
    free(at);
    return BIO_OK;
}

/* Bytes the (disjoint) runs move. */
static int64_t runs_bytes(const struct flat *fl)
{
    int64_t n = 0;

    for (int64_t i = 0; i < fl->nruns; i++)
        n += fl->runs[i].len;
    return n;
}

/* After a combined read: the shared bytes into the other requests'
 * copies, then the staged requests into the user's arrays. */
static void finish_read(const struct flat *fl, const struct bio_req *reqs,
                        int nreqs, const struct bio_schema *s)
{
    for (int64_t i = 0; i < fl->ndups; i++)
        memmove(fl->dups[i].dst, fl->dups[i].src, (size_t)fl->dups[i].len);
    for (int i = 0; i < nreqs; i++)
        if (fl->stage[i] != NULL)
            bio_req_pack_conv(s, &reqs[i], fl->stage[i], 0);
}

/* Runs sorted, made disjoint, and turned into the two types. */
static int build_types(struct flat *fl, MPI_Datatype *ftype,
                       MPI_Datatype *mtype)
{
    int err = BIO_OK;

    *ftype = *mtype = MPI_DATATYPE_NULL;
    if (fl->nruns == 0)
        return BIO_OK;
    qsort(fl->runs, (size_t)fl->nruns, sizeof *fl->runs, run_order);
    if (has_overlap(fl->runs, fl->nruns))
        err = resolve_overlaps(fl);
    if (err == BIO_OK && fl->nruns > INT_MAX)
        err = BIO_EINVAL;
    if (err == BIO_OK)
        err = runs_type(fl, 0, ftype);
    if (err == BIO_OK && (err = runs_type(fl, 1, mtype)) != BIO_OK)
        MPI_Type_free(ftype);
    return err;
}

static int combined(struct bio_file *f, const struct bio_req *reqs,
                    int nreqs, int writing)
{
    struct flat fl;
    MPI_Datatype ftype = MPI_DATATYPE_NULL, mtype = MPI_DATATYPE_NULL;
    MPI_Status st;
    int err = flatten(f, reqs, nreqs, writing, &fl), live, count;

    if (err == BIO_OK)
        err = build_types(&fl, &ftype, &mtype);
    err = agree(f->comm, err);
    if (err == BIO_OK) {
        live = ftype != MPI_DATATYPE_NULL;
        count = live ? 1 : 0;
        err = mpi_check(MPI_File_set_view(f->fh, 0, MPI_BYTE,
                                          live ? ftype : MPI_BYTE, "native",
                                          MPI_INFO_NULL),
                        "MPI_File_set_view");
        if (err != BIO_OK)
            count = 0;
        if (writing) {
            int werr = mpi_check(
                MPI_File_write_at_all(f->fh, 0, MPI_BOTTOM, count,
                                      live ? mtype : MPI_BYTE, &st),
                "MPI_File_write_at_all");

            err = err != BIO_OK ? err : werr;
        } else {
            int rerr = mpi_check(
                MPI_File_read_at_all(f->fh, 0, MPI_BOTTOM, count,
                                     live ? mtype : MPI_BYTE, &st),
                "MPI_File_read_at_all");

            err = err != BIO_OK ? err : rerr;
            if (err == BIO_OK && count > 0)
                err = check_got(&st, MPI_BYTE, runs_bytes(&fl));
            if (err == BIO_OK)
                finish_read(&fl, reqs, nreqs, f->schema);
        }
    }
    if (ftype != MPI_DATATYPE_NULL)
        MPI_Type_free(&ftype);
    if (mtype != MPI_DATATYPE_NULL)
        MPI_Type_free(&mtype);
    free_flat(&fl, nreqs);
    return err;
}

/* ---------------------------------------------------------- methods */

static int move(struct bio_file *f, const struct bio_req *reqs, int nreqs,
                enum bio_method m, int writing)
{
    struct prepared *p = NULL;
    int err;

    if (!bio_supports(m))
        return BIO_ENOTSUP;
    if (f == NULL)
        return BIO_EINVAL;
    if (m == BIO_COMBINED)
        return combined(f, reqs, nreqs, writing);
    err = prepare(f, reqs, nreqs, writing, &p);
    if (m == BIO_PERVAR) {
        err = agree(f->comm, err);
        if (err == BIO_OK)
            err = pervar(f, reqs, p, nreqs, writing);
    } else if (err == BIO_OK) {
        err = indep(f, reqs, p, nreqs, writing);
    }
    if (p != NULL)
        release(p, nreqs);
    return err;
}

int bio_write(struct bio_file *f, const struct bio_req *reqs, int nreqs,
              enum bio_method m)
{
    return move(f, reqs, nreqs, m, 1);
}

int bio_read(struct bio_file *f, const struct bio_req *reqs, int nreqs,
             enum bio_method m)
{
    return move(f, reqs, nreqs, m, 0);
}
