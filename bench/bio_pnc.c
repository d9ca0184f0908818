/*
 * bio_pnc.c -- the bio.h backend over the PnetCDF C API (ncmpi_*). The
 * same source is built against ncpario (with -I to its pnetcdf.h and
 * -DBIO_LIB_NAME='"ncpario"') and against PnetCDF
 * (-DBIO_LIB_NAME='"pnetcdf"'); the backend's name is BIO_LIB_NAME.
 *
 * A file is <stem>.nc in the netCDF format given at create (1: CDF-1,
 * 2: CDF-2, 5: CDF-5). Create defines every dimension once by name (the
 * record variables' first dimension is the one unlimited dimension) and
 * every variable, then leaves define mode.
 *
 * Each request becomes one data call: a vars call (ncmpi_put_vars_*)
 * when the file side has a stride, else a vara call. A request whose
 * memory side is the whole dense array (or that is empty) uses the typed
 * call of the memory's type (ncmpi_put_vara_int_all, ..._float_,
 * ..._double_), so no MPI datatype is involved and the library converts
 * to the variable's type; any other uses the flexible call with one
 * element of the memory subarray type from bio_req_memtype.
 *
 *   BIO_PERVAR    one ncmpi_put_vara*_all / get_vara*_all per request;
 *   BIO_COMBINED  one ncmpi_iput_vara* / iget_vara* per request, then one
 *                 ncmpi_wait_all over their ids, each status checked (the
 *                 explicit id list rather than NC_REQ_ALL, which would
 *                 give no statuses; nothing else is ever pending);
 *   BIO_INDEP     ncmpi_begin_indep_data, one independent call per
 *                 request, ncmpi_end_indep_data.
 *
 * No rank is left waiting in a collective call: the requests are checked
 * (and their datatypes built) before any data call and the ranks agree on
 * the result, so a bad request on one rank fails the call on all of them;
 * after a library error a rank still makes the remaining collective calls
 * of the list (PnetCDF lets a rank whose request failed take part with
 * nothing), and returns the first error. Library errors are BIO_EIO with
 * ncmpi_strerror's text in bio_last_error.
 *
 * The communicator given at create/open must stay valid until close.
 */
#include "bio.h"

#include <pnetcdf.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef BIO_LIB_NAME
#error "define BIO_LIB_NAME as \"ncpario\" or \"pnetcdf\""
#endif

struct bio_file {
    int ncid;
    MPI_Comm comm;
    const struct bio_schema *schema;
    int *varid;         /* [schema->nvars] */
};

static char last_error[512] = "no error";

static void set_error(const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(last_error, sizeof last_error, fmt, ap);
    va_end(ap);
}

/* BIO_OK for NC_NOERR, else BIO_EIO with the library's text. */
static int nc_check(int err, const char *what)
{
    if (err == NC_NOERR)
        return BIO_OK;
    set_error("%s: %s", what, ncmpi_strerror(err));
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
    return BIO_LIB_NAME;
}

int bio_supports(enum bio_method m)
{
    return m == BIO_PERVAR || m == BIO_COMBINED || m == BIO_INDEP;
}

void bio_path(const char *stem, int rank, char *out, size_t outsz)
{
    (void)rank;
    snprintf(out, outsz, "%s.nc", stem);
}

const char *bio_last_error(void)
{
    return last_error;
}

/* ------------------------------------------------------------ define */

static nc_type nc_type_of(enum bio_type t)
{
    return t == BIO_INT ? NC_INT : t == BIO_FLOAT ? NC_FLOAT : NC_DOUBLE;
}

static int create_mode(int format, int *cmode)
{
    switch (format) {
    case 1:
        *cmode = NC_CLOBBER;
        return BIO_OK;
    case 2:
        *cmode = NC_CLOBBER | NC_64BIT_OFFSET;
        return BIO_OK;
    case 5:
        *cmode = NC_CLOBBER | NC_64BIT_DATA;
        return BIO_OK;
    default:
        return BIO_EINVAL;
    }
}

static int schema_ok(const struct bio_schema *s)
{
    if (s == NULL || s->nvars < 0 || (s->nvars > 0 && s->vars == NULL))
        return 0;
    for (int v = 0; v < s->nvars; v++) {
        const struct bio_var *var = &s->vars[v];

        if (var->ndims < 1 || var->ndims > BIO_MAX_DIMS ||
            var->type < BIO_INT || var->type > BIO_DOUBLE ||
            var->shape[0] < 0 ||
            memchr(var->name, '\0', BIO_NAME_LEN) == NULL)
            return 0;
        for (int d = 0; d < var->ndims; d++)
            if ((d > 0 && var->shape[d] <= 0) ||
                memchr(var->dim[d], '\0', BIO_NAME_LEN) == NULL)
                return 0;
    }
    return 1;
}

/* The id of dimension `name` of length len (0: the unlimited one),
 * defining it on first use; BIO_EINVAL when the name is already used
 * with another length. */
static int dim_id(int ncid, const char *name, int64_t len, int *id)
{
    MPI_Offset have = 0;
    int unlim = -1, err = ncmpi_inq_dimid(ncid, name, id);

    if (err != NC_NOERR)
        return nc_check(ncmpi_def_dim(ncid, name,
                                      len == 0 ? NC_UNLIMITED
                                               : (MPI_Offset)len, id),
                        "ncmpi_def_dim");
    if ((err = nc_check(ncmpi_inq_unlimdim(ncid, &unlim),
                        "ncmpi_inq_unlimdim")) != BIO_OK ||
        (err = nc_check(ncmpi_inq_dimlen(ncid, *id, &have),
                        "ncmpi_inq_dimlen")) != BIO_OK)
        return err;
    if ((len == 0) != (*id == unlim) || (len > 0 && have != len)) {
        set_error("dimension %s used with two lengths", name);
        return BIO_EINVAL;
    }
    return BIO_OK;
}

static int define_var(struct bio_file *f, int v)
{
    const struct bio_var *var = &f->schema->vars[v];
    int dims[BIO_MAX_DIMS], err = BIO_OK;

    for (int d = 0; d < var->ndims && err == BIO_OK; d++) {
        int64_t len = var->shape[d];

        if (len == 0 && d > 0)
            return BIO_EINVAL;
        err = dim_id(f->ncid, var->dim[d], len, &dims[d]);
    }
    if (err != BIO_OK)
        return err;
    return nc_check(ncmpi_def_var(f->ncid, var->name,
                                  nc_type_of(var->type), var->ndims, dims,
                                  &f->varid[v]),
                    "ncmpi_def_var");
}

static int define_all(struct bio_file *f)
{
    int err = BIO_OK;

    for (int v = 0; v < f->schema->nvars && err == BIO_OK; v++)
        err = define_var(f, v);
    if (err == BIO_OK)
        err = nc_check(ncmpi_enddef(f->ncid), "ncmpi_enddef");
    return err;
}

/* Finds every variable of the schema in an opened file, with its type
 * and rank. */
static int find_vars(struct bio_file *f)
{
    for (int v = 0; v < f->schema->nvars; v++) {
        const struct bio_var *var = &f->schema->vars[v];
        nc_type type = 0;
        int ndims = 0, err;

        err = nc_check(ncmpi_inq_varid(f->ncid, var->name, &f->varid[v]),
                       var->name);
        if (err == BIO_OK)
            err = nc_check(ncmpi_inq_vartype(f->ncid, f->varid[v], &type),
                           "ncmpi_inq_vartype");
        if (err == BIO_OK)
            err = nc_check(ncmpi_inq_varndims(f->ncid, f->varid[v], &ndims),
                           "ncmpi_inq_varndims");
        if (err != BIO_OK)
            return err;
        if (type != nc_type_of(var->type) || ndims != var->ndims) {
            set_error("variable %s: type or rank differs from the schema",
                      var->name);
            return BIO_EINVAL;
        }
    }
    return BIO_OK;
}

static struct bio_file *new_file(MPI_Comm comm, const struct bio_schema *s)
{
    struct bio_file *f = calloc(1, sizeof *f);

    if (f == NULL)
        return NULL;
    f->varid = calloc((size_t)(s->nvars > 0 ? s->nvars : 1),
                      sizeof *f->varid);
    if (f->varid == NULL) {
        free(f);
        return NULL;
    }
    f->ncid = -1;
    f->comm = comm;
    f->schema = s;
    return f;
}

static void free_file(struct bio_file *f)
{
    free(f->varid);
    free(f);
}

/* Create or open, then define or look up; every rank gets a file or none
 * does. */
static int start_file(MPI_Comm comm, const char *stem,
                      const struct bio_schema *s, int creating, int cmode,
                      MPI_Info info, struct bio_file **out)
{
    char path[4096];
    struct bio_file *f;
    int err;

    *out = NULL;
    bio_path(stem, 0, path, sizeof path);
    f = new_file(comm, s);
    err = agree(comm, f == NULL ? BIO_ENOMEM : BIO_OK);
    if (err != BIO_OK) {
        if (f != NULL)
            free_file(f);
        return err;
    }
    err = creating ? ncmpi_create(comm, path, cmode, info, &f->ncid)
                   : ncmpi_open(comm, path, NC_NOWRITE, info, &f->ncid);
    err = nc_check(err, creating ? "ncmpi_create" : "ncmpi_open");
    if (err == BIO_OK)
        err = creating ? define_all(f) : find_vars(f);
    err = agree(comm, err);
    if (err != BIO_OK) {
        /* abort drops a file still in define mode; both are collective,
         * and the agreement above brings every rank here together. */
        if (f->ncid >= 0 && creating)
            ncmpi_abort(f->ncid);
        else if (f->ncid >= 0)
            ncmpi_close(f->ncid);
        free_file(f);
        return err;
    }
    *out = f;
    return BIO_OK;
}

int bio_create(MPI_Comm comm, const char *stem, const struct bio_schema *s,
               int format, MPI_Info info, struct bio_file **out)
{
    int cmode = 0;

    *out = NULL;
    /* Same arguments on every rank, so every rank refuses alike. */
    if (!schema_ok(s) || create_mode(format, &cmode) != BIO_OK)
        return BIO_EINVAL;
    return start_file(comm, stem, s, 1, cmode, info, out);
}

int bio_open(MPI_Comm comm, const char *stem, const struct bio_schema *s,
             MPI_Info info, struct bio_file **out)
{
    *out = NULL;
    if (!schema_ok(s))
        return BIO_EINVAL;
    return start_file(comm, stem, s, 0, 0, info, out);
}

int bio_close(struct bio_file *f)
{
    int err;

    if (f == NULL)
        return BIO_OK;
    err = nc_check(ncmpi_close(f->ncid), "ncmpi_close");
    free_file(f);
    return err;
}

/* --------------------------------------------------------- requests */

/* How one request is called: the file box as MPI_Offset and, for a
 * strided memory side, the memory datatype (else MPI_DATATYPE_NULL and
 * the typed call). */
struct prepared {
    MPI_Offset start[BIO_MAX_DIMS];
    MPI_Offset count[BIO_MAX_DIMS];
    MPI_Offset stride[BIO_MAX_DIMS];
    int strided;        /* the vars calls with stride, else the vara */
    MPI_Datatype memtype;
};

/* bio_req_check, after making sure that the request's size can be
 * computed without overflow (every count non-negative, the product
 * within int64_t). */
static int check_req(const struct bio_schema *s, const struct bio_req *r)
{
    const struct bio_var *v;
    int64_t n = 1;

    if (r->var < 0 || r->var >= s->nvars)
        return BIO_EINVAL;
    v = &s->vars[r->var];
    for (int d = 0; d < v->ndims; d++)
        if (r->count[d] < 0)
            return BIO_EINVAL;
    for (int d = 0; d < v->ndims && n > 0; d++) {
        if (r->count[d] > 0 && n > INT64_MAX / 8 / r->count[d])
            return BIO_EINVAL;
        n *= r->count[d];
    }
    return bio_req_check(s, r);
}

static int needs_memtype(const struct bio_var *v, const struct bio_req *r)
{
    return bio_req_elems(v, r) != 0 && !bio_req_dense(r);
}

static void release(struct prepared *p, int n)
{
    for (int i = 0; i < n; i++)
        if (p[i].memtype != MPI_DATATYPE_NULL)
            MPI_Type_free(&p[i].memtype);
    free(p);
}

/* Checks every request and prepares its call; BIO_OK or the first
 * problem (with *out NULL). */
static int prepare(const struct bio_file *f, const struct bio_req *reqs,
                   int nreqs, struct prepared **out)
{
    struct prepared *p;
    int err = BIO_OK, i;

    *out = NULL;
    if (f == NULL || nreqs < 0 || (nreqs > 0 && reqs == NULL))
        return BIO_EINVAL;
    p = calloc((size_t)(nreqs > 0 ? nreqs : 1), sizeof *p);
    if (p == NULL)
        return BIO_ENOMEM;
    for (i = 0; i < nreqs && err == BIO_OK; i++) {
        const struct bio_req *r = &reqs[i];

        p[i].memtype = MPI_DATATYPE_NULL;
        err = check_req(f->schema, r);
        if (err != BIO_OK)
            break;
        for (int d = 0; d < f->schema->vars[r->var].ndims; d++) {
            p[i].start[d] = (MPI_Offset)r->start[d];
            p[i].count[d] = (MPI_Offset)r->count[d];
            p[i].stride[d] = (MPI_Offset)bio_req_stride(r, d);
        }
        p[i].strided = bio_req_strided(&f->schema->vars[r->var], r);
        if (needs_memtype(&f->schema->vars[r->var], r))
            err = bio_req_memtype(f->schema, r, &p[i].memtype);
    }
    if (err != BIO_OK) {
        release(p, i);
        return err;
    }
    *out = p;
    return BIO_OK;
}

/* ------------------------------------------------------- data calls */

enum call { PUT_ALL, GET_ALL, PUT, GET, IPUT, IGET };

/* The typed calls of one C type, the vars form when st is not NULL;
 * req is used by IPUT/IGET only. */
#define TYPED_CALLS(T, CT)                                                  \
    static int call_##T(int ncid, int varid, enum call c,                   \
                        const MPI_Offset *s, const MPI_Offset *n,           \
                        const MPI_Offset *st, CT *buf, int *req)            \
    {                                                                       \
        switch (c) {                                                        \
        case PUT_ALL:                                                       \
            return st ? ncmpi_put_vars_##T##_all(ncid, varid, s, n, st, buf)\
                      : ncmpi_put_vara_##T##_all(ncid, varid, s, n, buf);   \
        case GET_ALL:                                                       \
            return st ? ncmpi_get_vars_##T##_all(ncid, varid, s, n, st, buf)\
                      : ncmpi_get_vara_##T##_all(ncid, varid, s, n, buf);   \
        case PUT:                                                           \
            return st ? ncmpi_put_vars_##T(ncid, varid, s, n, st, buf)      \
                      : ncmpi_put_vara_##T(ncid, varid, s, n, buf);         \
        case GET:                                                           \
            return st ? ncmpi_get_vars_##T(ncid, varid, s, n, st, buf)      \
                      : ncmpi_get_vara_##T(ncid, varid, s, n, buf);         \
        case IPUT:                                                          \
            return st ? ncmpi_iput_vars_##T(ncid, varid, s, n, st, buf, req)\
                      : ncmpi_iput_vara_##T(ncid, varid, s, n, buf, req);   \
        default:                                                            \
            return st ? ncmpi_iget_vars_##T(ncid, varid, s, n, st, buf, req)\
                      : ncmpi_iget_vara_##T(ncid, varid, s, n, buf, req);   \
        }                                                                   \
    }

TYPED_CALLS(int, int)
TYPED_CALLS(float, float)
TYPED_CALLS(double, double)

static int call_flexible(int ncid, int varid, enum call c,
                         const MPI_Offset *s, const MPI_Offset *n,
                         const MPI_Offset *st, void *buf, MPI_Datatype mt,
                         int *req)
{
    switch (c) {
    case PUT_ALL:
        return st ? ncmpi_put_vars_all(ncid, varid, s, n, st, buf, 1, mt)
                  : ncmpi_put_vara_all(ncid, varid, s, n, buf, 1, mt);
    case GET_ALL:
        return st ? ncmpi_get_vars_all(ncid, varid, s, n, st, buf, 1, mt)
                  : ncmpi_get_vara_all(ncid, varid, s, n, buf, 1, mt);
    case PUT:
        return st ? ncmpi_put_vars(ncid, varid, s, n, st, buf, 1, mt)
                  : ncmpi_put_vara(ncid, varid, s, n, buf, 1, mt);
    case GET:
        return st ? ncmpi_get_vars(ncid, varid, s, n, st, buf, 1, mt)
                  : ncmpi_get_vara(ncid, varid, s, n, buf, 1, mt);
    case IPUT:
        return st ? ncmpi_iput_vars(ncid, varid, s, n, st, buf, 1, mt, req)
                  : ncmpi_iput_vara(ncid, varid, s, n, buf, 1, mt, req);
    default:
        return st ? ncmpi_iget_vars(ncid, varid, s, n, st, buf, 1, mt, req)
                  : ncmpi_iget_vara(ncid, varid, s, n, buf, 1, mt, req);
    }
}

static const char *const call_names[] = {
    "ncmpi_put_vara_all", "ncmpi_get_vara_all", "ncmpi_put_vara",
    "ncmpi_get_vara", "ncmpi_iput_vara", "ncmpi_iget_vara"};

/* One request's data call; the library's code. */
static int call_one(const struct bio_file *f, const struct bio_req *r,
                    const struct prepared *p, enum call c, int *req)
{
    int varid = f->varid[r->var];
    const MPI_Offset *st = p->strided ? p->stride : NULL;

    if (p->memtype != MPI_DATATYPE_NULL)
        return call_flexible(f->ncid, varid, c, p->start, p->count, st,
                             r->buf, p->memtype, req);
    /* By the memory's type: the library converts to the variable's. */
    switch (bio_req_mtype(f->schema, r)) {
    case BIO_INT:
        return call_int(f->ncid, varid, c, p->start, p->count, st, r->buf,
                        req);
    case BIO_FLOAT:
        return call_float(f->ncid, varid, c, p->start, p->count, st, r->buf,
                          req);
    default:
        return call_double(f->ncid, varid, c, p->start, p->count, st,
                           r->buf, req);
    }
}

/* Every request in turn; after an error the rest are still called (in
 * collective mode the other ranks wait for them) and the first error is
 * returned. */
static int call_each(const struct bio_file *f, const struct bio_req *reqs,
                     const struct prepared *p, int nreqs, enum call c)
{
    int first = BIO_OK;

    for (int i = 0; i < nreqs; i++) {
        int err = nc_check(call_one(f, &reqs[i], &p[i], c, NULL),
                           call_names[c]);

        if (first == BIO_OK)
            first = err;
    }
    return first;
}

/* One nonblocking call per request, then one collective wait for them
 * all (also when posting failed here: the other ranks are in it). ids
 * has room for 2 * nreqs ints: the request ids, then their statuses. */
static int post_and_wait(const struct bio_file *f,
                         const struct bio_req *reqs,
                         const struct prepared *p, int nreqs, int writing,
                         int *ids)
{
    int *statuses = ids + nreqs, first = BIO_OK, err;
    enum call c = writing ? IPUT : IGET;

    for (int i = 0; i < nreqs; i++) {
        ids[i] = NC_REQ_NULL;
        err = nc_check(call_one(f, &reqs[i], &p[i], c, &ids[i]),
                       call_names[c]);
        if (first == BIO_OK)
            first = err;
    }
    err = nc_check(ncmpi_wait_all(f->ncid, nreqs, ids, statuses),
                   "ncmpi_wait_all");
    if (first == BIO_OK)
        first = err;
    for (int i = 0; i < nreqs && first == BIO_OK; i++)
        first = nc_check(statuses[i], "request status");
    return first;
}

static int indep(const struct bio_file *f, const struct bio_req *reqs,
                 const struct prepared *p, int nreqs, int ok, int writing)
{
    int err = nc_check(ncmpi_begin_indep_data(f->ncid),
                       "ncmpi_begin_indep_data");
    int eerr;

    if (err != BIO_OK)
        return err;
    err = ok;
    for (int i = 0; i < nreqs && err == BIO_OK; i++)
        err = nc_check(call_one(f, &reqs[i], &p[i], writing ? PUT : GET,
                                NULL),
                       call_names[writing ? PUT : GET]);
    eerr = nc_check(ncmpi_end_indep_data(f->ncid), "ncmpi_end_indep_data");
    return err != BIO_OK ? err : eerr;
}

static int move(struct bio_file *f, const struct bio_req *reqs, int nreqs,
                enum bio_method m, int writing)
{
    struct prepared *p = NULL;
    int err;

    if (!bio_supports(m))
        return BIO_ENOTSUP;
    err = prepare(f, reqs, nreqs, &p);
    if (f == NULL)
        return err;
    if (m == BIO_INDEP) {
        /* Mode switches are collective; the requests are not. */
        err = indep(f, reqs, p, p != NULL ? nreqs : 0, err, writing);
    } else {
        /* Everything that can fail locally happens before the agreement,
         * so that no rank is stranded in a collective call. */
        int *ids = NULL;

        if (m == BIO_COMBINED && err == BIO_OK) {
            ids = malloc(2 * (size_t)(nreqs > 0 ? nreqs : 1) * sizeof *ids);
            if (ids == NULL)
                err = BIO_ENOMEM;
        }
        err = agree(f->comm, err);
        if (err == BIO_OK)
            err = m == BIO_PERVAR
                      ? call_each(f, reqs, p, nreqs,
                                  writing ? PUT_ALL : GET_ALL)
                      : post_and_wait(f, reqs, p, nreqs, writing, ids);
        free(ids);
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
