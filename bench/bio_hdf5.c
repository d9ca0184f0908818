/*
 * bio_hdf5.c -- the parallel HDF5 backend of bio.h: <stem>.h5, one
 * dataset per variable, named by the variable and stored in the native
 * type, all ranks sharing the file through HDF5's MPI-IO driver.
 *
 * Layout:
 *  - a fixed variable is a contiguous dataset, its space allocated when
 *    it is created and never filled;
 *  - a record variable is a chunked dataset of schema->nrecs records
 *    that may grow without limit along its first dimension. One chunk
 *    holds one record slab: a record is the unit a time-stepping code
 *    writes, so each write of a record touches whole chunks and never
 *    shares one with another record, and the chunk index grows by one
 *    entry per record, like netCDF's record count. (A slab larger than
 *    HDF5's 4 GiB chunk limit fails at create with BIO_EIO.)
 *  - each dataset with dimensions carries a string attribute
 *    "dimension_names" with the schema's dimension names (plain HDF5 has
 *    no named dimensions; dimension scales would need the high-level
 *    library).
 *
 * A request's file side is a hyperslab (with HDF5's stride when it has
 * one); its memory type is the H5Dwrite/H5Dread memory type, so HDF5
 * converts when it differs from the dataset's (and, by its documented
 * H5D_MPIO_DATATYPE_CONVERSION cause, then does a collective call's
 * transfer independently).
 *
 * Methods: BIO_PERVAR is one collective H5Dwrite/H5Dread per request,
 * BIO_INDEP one independent call per non-empty request. HDF5 1.10 has no
 * call that moves data of several datasets at once, so BIO_COMBINED is
 * not supported.
 *
 * Errors: HDF5's automatic printing of its error stack is turned off;
 * the innermost message of the stack goes to bio_last_error and the call
 * returns BIO_EIO. In the collective paths every rank agrees on the worst
 * code (MPI_Allreduce MIN) before the next collective HDF5 call, so a
 * rank that failed never leaves the others waiting inside HDF5 (what
 * HDF5 or MPI-IO do when one rank fails inside a collective call is
 * theirs to handle).
 */
#include "bio.h"

#include <hdf5.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct bio_file {
    MPI_Comm comm;             /* the caller's; must outlive the file */
    struct bio_schema schema;  /* a copy, with vars pointing at ... */
    struct bio_var *vars;      /* ... this copy of the caller's array */
    int writable;
    hid_t file;
    hid_t xfer_coll;           /* transfer plists: collective I/O, */
    hid_t xfer_indep;          /* independent I/O */
    hid_t *dset;               /* per variable */
    hid_t *fspace;             /* per variable: its dataspace, reselected
                                  for each request */
    int64_t *extent;           /* per record variable: its records now */
    int64_t *plan;             /* scratch of one call's agreement */
};

/* The head of f->plan; the records each record variable needs follow. */
enum {
    PLAN_NEG_CODE,   /* -code, so that MAX finds the worst */
    PLAN_NREQS,
    PLAN_NEG_NREQS,  /* max(x) == -max(-x) == min(x): all ranks agree */
    PLAN_SIG,        /* a hash of the request list's variables */
    PLAN_NEG_SIG,
    PLAN_HEAD
};

enum { DESC_LEN = 160 };

static char last_error[256] = "no error";

const char *bio_last_error(void)
{
    return last_error;
}

const char *bio_backend_name(void)
{
    return "hdf5";
}

int bio_supports(enum bio_method m)
{
    return m == BIO_PERVAR || m == BIO_INDEP;
}

void bio_path(const char *stem, int rank, char *out, size_t outsz)
{
    (void)rank;
    snprintf(out, outsz, "%s.h5", stem);
}

/* ------------------------------------------------------------ errors */

/* Keeps the first (innermost) entry of HDF5's error stack: the place the
 * failure was found says more than the API call that reported it. */
static herr_t keep_innermost(unsigned n, const H5E_error2_t *e, void *data)
{
    char *desc = data;

    if (n == 0 && e->desc != NULL)
        snprintf(desc, DESC_LEN, "%s (%s)", e->desc,
                 e->func_name != NULL ? e->func_name : "?");
    return 0;
}

/* Records the failure of HDF5 call `what` on `name`; returns BIO_EIO. */
static int h5_fail(const char *what, const char *name)
{
    char desc[DESC_LEN] = "no HDF5 error message";

    H5Ewalk2(H5E_DEFAULT, H5E_WALK_UPWARD, keep_innermost, desc);
    H5Eclear2(H5E_DEFAULT);
    snprintf(last_error, sizeof last_error, "hdf5: %s '%.100s': %.120s", what, name,
             desc);
    return BIO_EIO;
}

/* A bad schema or request found here (not by HDF5): a message, though
 * bio.h only promises one for BIO_EIO, helps whoever reads it. name may
 * be a variable's unterminated name, so at most BIO_NAME_LEN of it. */
static int invalid(const char *why, const char *name)
{
    if (name[0] != '\0')
        snprintf(last_error, sizeof last_error, "hdf5: %s '%.*s'", why,
                 (int)BIO_NAME_LEN, name);
    else
        snprintf(last_error, sizeof last_error, "hdf5: %s", why);
    return BIO_EINVAL;
}

/* The worst code over the ranks: codes are <= 0, so the minimum. */
static int agree(MPI_Comm comm, int code)
{
    int worst = code;

    if (MPI_Allreduce(&code, &worst, 1, MPI_INT, MPI_MIN, comm) !=
        MPI_SUCCESS)
        return BIO_EIO;
    return worst;
}

/* HDF5 prints its whole error stack to stderr on every failed call by
 * default, which here would be one trace per rank for a failure the
 * caller reports itself. The setting is process-wide; this backend is
 * the only HDF5 user of a benchmark program. */
static void quiet_hdf5(void)
{
    H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
}

/* ------------------------------------------------------------ schema */

static int is_record(const struct bio_var *v)
{
    return v->ndims > 0 && v->shape[0] == 0;
}

static hid_t native_type(enum bio_type t)
{
    switch (t) {
    case BIO_INT:
        return H5T_NATIVE_INT;
    case BIO_FLOAT:
        return H5T_NATIVE_FLOAT;
    default:
        return H5T_NATIVE_DOUBLE;
    }
}

/* A name HDF5 takes as one link in the root group: terminated, not
 * empty, no path separator, not ".". */
static int name_ok(const char *name)
{
    if (memchr(name, '\0', BIO_NAME_LEN) == NULL)
        return 0;
    return name[0] != '\0' && strchr(name, '/') == NULL &&
           strcmp(name, ".") != 0;
}

static int var_ok(const struct bio_var *v)
{
    if (!name_ok(v->name) || v->ndims < 0 || v->ndims > BIO_MAX_DIMS)
        return 0;
    if (v->type != BIO_INT && v->type != BIO_FLOAT && v->type != BIO_DOUBLE)
        return 0;
    for (int d = 0; d < v->ndims; d++) {
        if (memchr(v->dim[d], '\0', BIO_NAME_LEN) == NULL)
            return 0;
        if (v->shape[d] < 0 || (v->shape[d] == 0 && d > 0))
            return 0;
    }
    return 1;
}

static int schema_check(const struct bio_schema *s)
{
    if (s == NULL || s->nvars < 0 || s->nrecs < 0 ||
        (s->nvars > 0 && s->vars == NULL))
        return invalid("bad schema", "");
    for (int v = 0; v < s->nvars; v++) {
        if (!var_ok(&s->vars[v]))
            return invalid("bad variable", s->vars[v].name);
        for (int w = 0; w < v; w++)
            if (strcmp(s->vars[w].name, s->vars[v].name) == 0)
                return invalid("duplicate variable", s->vars[v].name);
    }
    return BIO_OK;
}

/* ------------------------------------------------------------ handle */

static void free_handle(struct bio_file *f)
{
    free(f->vars);
    free(f->dset);
    free(f->fspace);
    free(f->extent);
    free(f->plan);
    free(f);
}

/* A handle with a copy of schema s and no HDF5 objects yet. */
static int new_handle(MPI_Comm comm, const struct bio_schema *s,
                      int writable, struct bio_file **out)
{
    struct bio_file *f;
    size_t n;

    *out = NULL;
    if (schema_check(s) != BIO_OK)
        return BIO_EINVAL;
    n = (size_t)s->nvars;
    f = calloc(1, sizeof *f);
    if (f == NULL)
        return BIO_ENOMEM;
    f->vars = malloc((n > 0 ? n : 1) * sizeof *f->vars);
    f->dset = malloc((n > 0 ? n : 1) * sizeof *f->dset);
    f->fspace = malloc((n > 0 ? n : 1) * sizeof *f->fspace);
    f->extent = calloc(n > 0 ? n : 1, sizeof *f->extent);
    f->plan = malloc((PLAN_HEAD + n) * sizeof *f->plan);
    if (!f->vars || !f->dset || !f->fspace || !f->extent || !f->plan) {
        free_handle(f);
        return BIO_ENOMEM;
    }
    if (n > 0)
        memcpy(f->vars, s->vars, n * sizeof *f->vars);
    for (size_t v = 0; v < n; v++)
        f->dset[v] = f->fspace[v] = H5I_INVALID_HID;
    f->comm = comm;
    f->schema = *s;
    f->schema.vars = f->vars;
    f->writable = writable;
    f->file = f->xfer_coll = f->xfer_indep = H5I_INVALID_HID;
    *out = f;
    return BIO_OK;
}

/* ----------------------------------------------------- file and plists */

/* The MPI-IO driver over comm and info, with collective metadata I/O:
 * every rank opens the same objects in the same order here, so one rank
 * can read each object header or index node and broadcast it instead of
 * every rank reading it from the file, and the metadata cache is flushed
 * with one collective write spread over the ranks instead of many small
 * independent ones. */
static int make_fapl(MPI_Comm comm, MPI_Info info, hid_t *fapl)
{
    *fapl = H5Pcreate(H5P_FILE_ACCESS);
    if (*fapl < 0)
        return h5_fail("H5Pcreate", "file access");
    if (H5Pset_fapl_mpio(*fapl, comm, info) < 0 ||
        H5Pset_all_coll_metadata_ops(*fapl, 1) < 0 ||
        H5Pset_coll_metadata_write(*fapl, 1) < 0)
        return h5_fail("file access plist", "MPI-IO");
    return BIO_OK;
}

static int make_xfer(H5FD_mpio_xfer_t mode, hid_t *dxpl)
{
    *dxpl = H5Pcreate(H5P_DATASET_XFER);
    if (*dxpl < 0 || H5Pset_dxpl_mpio(*dxpl, mode) < 0)
        return h5_fail("transfer plist",
                       mode == H5FD_MPIO_COLLECTIVE ? "collective"
                                                    : "independent");
    return BIO_OK;
}

/* Creates (truncating) or opens read-only the file of stem; collective.
 * (Each failure is recorded before the cleanup: any successful HDF5 call
 * empties the error stack.) */
static int open_file(struct bio_file *f, const char *stem, MPI_Info info,
                     int creating)
{
    char path[4096];
    hid_t fapl = H5I_INVALID_HID;
    int err;

    bio_path(stem, 0, path, sizeof path);
    err = make_fapl(f->comm, info, &fapl);
    if (err == BIO_OK) {
        if (creating)
            f->file = H5Fcreate(path, H5F_ACC_TRUNC, H5P_DEFAULT, fapl);
        else
            f->file = H5Fopen(path, H5F_ACC_RDONLY, fapl);
        if (f->file < 0)
            err = h5_fail(creating ? "H5Fcreate" : "H5Fopen", path);
    }
    if (fapl >= 0)
        H5Pclose(fapl);
    if (err == BIO_OK)
        err = make_xfer(H5FD_MPIO_COLLECTIVE, &f->xfer_coll);
    if (err == BIO_OK)
        err = make_xfer(H5FD_MPIO_INDEPENDENT, &f->xfer_indep);
    return err;
}

/* ----------------------------------------------------------- create */

/* The dataset's dataspace at creation: nrecs records for a record
 * variable, growing without limit; a scalar for ndims 0. */
static int make_var_space(const struct bio_var *v, int64_t nrecs,
                          hid_t *space)
{
    hsize_t dims[BIO_MAX_DIMS], maxdims[BIO_MAX_DIMS];

    for (int d = 0; d < v->ndims; d++)
        dims[d] = maxdims[d] = (hsize_t)v->shape[d];
    if (is_record(v)) {
        dims[0] = (hsize_t)nrecs;
        maxdims[0] = H5S_UNLIMITED;
    }
    *space = v->ndims == 0 ? H5Screate(H5S_SCALAR)
                           : H5Screate_simple(v->ndims, dims, maxdims);
    return *space < 0 ? h5_fail("dataspace of", v->name) : BIO_OK;
}

/* Storage allocated at creation and never filled: PnetCDF's default is
 * NC_NOFILL, so the netCDF backends write no fill values either, and a
 * fill here would be extra bytes that only HDF5 pays for. Parallel HDF5
 * wants early allocation anyway, as no rank may allocate space alone. */
static int make_dcpl(const struct bio_var *v, hid_t *dcpl)
{
    hsize_t chunk[BIO_MAX_DIMS];
    herr_t e;

    *dcpl = H5Pcreate(H5P_DATASET_CREATE);
    if (*dcpl < 0)
        return h5_fail("H5Pcreate", v->name);
    if (is_record(v)) {
        chunk[0] = 1; /* one record slab per chunk: see the top */
        for (int d = 1; d < v->ndims; d++)
            chunk[d] = (hsize_t)v->shape[d];
        e = H5Pset_chunk(*dcpl, v->ndims, chunk);
    } else {
        e = H5Pset_layout(*dcpl, H5D_CONTIGUOUS);
    }
    if (e < 0 || H5Pset_alloc_time(*dcpl, H5D_ALLOC_TIME_EARLY) < 0 ||
        H5Pset_fill_time(*dcpl, H5D_FILL_TIME_NEVER) < 0)
        return h5_fail("creation plist of", v->name);
    return BIO_OK;
}

/* The attribute "dimension_names": ndims strings of BIO_NAME_LEN. */
static int write_dim_names(hid_t dset, const struct bio_var *v)
{
    hsize_t n = (hsize_t)v->ndims;
    hid_t str, space = H5I_INVALID_HID, attr = H5I_INVALID_HID;
    int ok;

    str = H5Tcopy(H5T_C_S1);
    ok = str >= 0 && H5Tset_size(str, BIO_NAME_LEN) >= 0 &&
         H5Tset_strpad(str, H5T_STR_NULLTERM) >= 0 &&
         (space = H5Screate_simple(1, &n, NULL)) >= 0 &&
         (attr = H5Acreate2(dset, "dimension_names", str, space, H5P_DEFAULT,
                            H5P_DEFAULT)) >= 0 &&
         H5Awrite(attr, str, v->dim) >= 0;
    if (!ok)
        h5_fail("dimension names of", v->name);
    if (attr >= 0 && H5Aclose(attr) < 0 && ok)
        ok = h5_fail("H5Aclose", v->name) == BIO_OK;
    if (space >= 0)
        H5Sclose(space);
    if (str >= 0)
        H5Tclose(str);
    return ok ? BIO_OK : BIO_EIO;
}

static int create_dataset(struct bio_file *f, int v)
{
    const struct bio_var *var = &f->vars[v];
    hid_t space = H5I_INVALID_HID, dcpl = H5I_INVALID_HID;
    int err = make_var_space(var, f->schema.nrecs, &space);

    if (err == BIO_OK)
        err = make_dcpl(var, &dcpl);
    if (err == BIO_OK) {
        f->dset[v] = H5Dcreate2(f->file, var->name, native_type(var->type),
                                space, H5P_DEFAULT, dcpl, H5P_DEFAULT);
        if (f->dset[v] < 0)
            err = h5_fail("H5Dcreate", var->name);
    }
    if (dcpl >= 0)
        H5Pclose(dcpl);
    if (space >= 0)
        H5Sclose(space);
    if (err == BIO_OK && var->ndims > 0)
        err = write_dim_names(f->dset[v], var);
    if (err != BIO_OK)
        return err;
    f->fspace[v] = H5Dget_space(f->dset[v]);
    if (f->fspace[v] < 0)
        return h5_fail("H5Dget_space", var->name);
    f->extent[v] = is_record(var) ? f->schema.nrecs : 0;
    return BIO_OK;
}

int bio_create(MPI_Comm comm, const char *stem, const struct bio_schema *s,
               int format, MPI_Info info, struct bio_file **out)
{
    struct bio_file *f = NULL;
    int err;

    (void)format;
    if (out == NULL || stem == NULL)
        return BIO_EINVAL;
    quiet_hdf5();
    err = agree(comm, new_handle(comm, s, 1, &f));
    if (err != BIO_OK) {
        if (f != NULL)
            free_handle(f);
        return err;
    }
    err = agree(comm, open_file(f, stem, info, 1));
    for (int v = 0; v < f->schema.nvars && err == BIO_OK; v++)
        err = agree(comm, create_dataset(f, v));
    if (err != BIO_OK) {
        bio_close(f);
        return err;
    }
    *out = f;
    return BIO_OK;
}

/* ------------------------------------------------------------- open */

/* The dataset's type and shape against the schema; for a record
 * variable, its records now. */
static int check_dataset(struct bio_file *f, int v)
{
    const struct bio_var *var = &f->vars[v];
    hsize_t dims[BIO_MAX_DIMS];
    hid_t type = H5Dget_type(f->dset[v]);
    htri_t same = type >= 0 ? H5Tequal(type, native_type(var->type)) : -1;
    int nd, err = same < 0 ? h5_fail("type of", var->name) : BIO_OK;

    if (type >= 0)
        H5Tclose(type);
    if (err != BIO_OK)
        return err;
    if (!same)
        return invalid("type differs from the schema in", var->name);
    nd = H5Sget_simple_extent_ndims(f->fspace[v]);
    if (nd != var->ndims)
        return invalid("rank differs from the schema in", var->name);
    if (nd > 0 && H5Sget_simple_extent_dims(f->fspace[v], dims, NULL) < 0)
        return h5_fail("dimensions of", var->name);
    for (int d = is_record(var) ? 1 : 0; d < nd; d++)
        if (dims[d] != (hsize_t)var->shape[d])
            return invalid("shape differs from the schema in", var->name);
    f->extent[v] = is_record(var) ? (int64_t)dims[0] : 0;
    return BIO_OK;
}

static int open_dataset(struct bio_file *f, int v)
{
    const char *name = f->vars[v].name;

    f->dset[v] = H5Dopen2(f->file, name, H5P_DEFAULT);
    if (f->dset[v] < 0)
        return h5_fail("H5Dopen", name);
    f->fspace[v] = H5Dget_space(f->dset[v]);
    if (f->fspace[v] < 0)
        return h5_fail("H5Dget_space", name);
    return check_dataset(f, v);
}

int bio_open(MPI_Comm comm, const char *stem, const struct bio_schema *s,
             MPI_Info info, struct bio_file **out)
{
    struct bio_file *f = NULL;
    int err;

    if (out == NULL || stem == NULL)
        return BIO_EINVAL;
    quiet_hdf5();
    err = agree(comm, new_handle(comm, s, 0, &f));
    if (err != BIO_OK) {
        if (f != NULL)
            free_handle(f);
        return err;
    }
    err = agree(comm, open_file(f, stem, info, 0));
    for (int v = 0; v < f->schema.nvars && err == BIO_OK; v++)
        err = agree(comm, open_dataset(f, v));
    if (err != BIO_OK) {
        bio_close(f);
        return err;
    }
    *out = f;
    return BIO_OK;
}

/* ---------------------------------------------------------- requests */

static int req_empty(const struct bio_file *f, const struct bio_req *r)
{
    return bio_req_elems(&f->vars[r->var], r) == 0;
}

/* Checks request r and notes in need[] the records it reaches. Reads,
 * and writes of independent calls, must stay inside the records there
 * are: growing a dataset is collective in HDF5. */
static int plan_request(struct bio_file *f, const struct bio_req *r,
                        int growable, int64_t *need)
{
    const struct bio_var *var;
    int64_t end;

    if (bio_req_check(&f->schema, r) != BIO_OK)
        return invalid("bad request for",
                       r->var >= 0 && r->var < f->schema.nvars
                           ? f->vars[r->var].name : "?");
    var = &f->vars[r->var];
    if (!is_record(var) || req_empty(f, r))
        return BIO_OK;
    /* bio_req_check made sure the last record index does not overflow. */
    end = r->start[0] + (r->count[0] - 1) * bio_req_stride(r, 0) + 1;
    if (end > f->extent[r->var] && !growable)
        return invalid("request beyond the last record of", var->name);
    if (end > need[r->var])
        need[r->var] = end;
    return BIO_OK;
}

/* Checks a whole request list on this rank; need[] gets the records each
 * variable must have. sig, when not NULL, gets a hash of the list's
 * variables in order. */
static int plan_local(struct bio_file *f, const struct bio_req *reqs,
                      int nreqs, int writing, int growable, int64_t *need,
                      int64_t *sig)
{
    uint64_t h = (uint64_t)nreqs;
    int err = BIO_OK;

    for (int v = 0; v < f->schema.nvars; v++)
        need[v] = 0;
    if (nreqs < 0 || (nreqs > 0 && reqs == NULL))
        err = invalid("bad request list", "");
    else if (writing && !f->writable)
        err = invalid("write to a file opened for reading", "");
    for (int i = 0; i < nreqs && err == BIO_OK; i++) {
        err = plan_request(f, &reqs[i], writing && growable, need);
        h = h * 1000003u + (uint64_t)reqs[i].var + 1u;
    }
    if (sig != NULL) /* 62 bits, so that its negation is an int64 too */
        *sig = (int64_t)(h & 0x3fffffffffffffffu);
    return err;
}

/* The checks of a collective call, made the same on every rank with one
 * MPI_Allreduce: the worst code, the same number of requests for the
 * same variables in the same order, and in f->plan[PLAN_HEAD + v] the
 * most records any rank needs in variable v. */
static int plan_collective(struct bio_file *f, const struct bio_req *reqs,
                           int nreqs, int writing)
{
    int64_t *p = f->plan, sig = 0;
    int err = plan_local(f, reqs, nreqs, writing, 1, p + PLAN_HEAD, &sig);

    p[PLAN_NEG_CODE] = -(int64_t)err;
    p[PLAN_NREQS] = nreqs;
    p[PLAN_NEG_NREQS] = -(int64_t)nreqs;
    p[PLAN_SIG] = sig;
    p[PLAN_NEG_SIG] = -sig;
    if (MPI_Allreduce(MPI_IN_PLACE, p, PLAN_HEAD + f->schema.nvars,
                      MPI_INT64_T, MPI_MAX, f->comm) != MPI_SUCCESS)
        return BIO_EIO;
    if (p[PLAN_NEG_CODE] != 0)
        return (int)-p[PLAN_NEG_CODE];
    if (p[PLAN_NREQS] != -p[PLAN_NEG_NREQS] || p[PLAN_SIG] != -p[PLAN_NEG_SIG])
        return invalid("ranks differ in their collective request lists", "");
    return BIO_OK;
}

/* Grows record variable v to nrecs records; collective, with the same
 * nrecs on every rank. */
static int set_extent(struct bio_file *f, int v, int64_t nrecs)
{
    const struct bio_var *var = &f->vars[v];
    hsize_t dims[BIO_MAX_DIMS];

    dims[0] = (hsize_t)nrecs;
    for (int d = 1; d < var->ndims; d++)
        dims[d] = (hsize_t)var->shape[d];
    if (H5Dset_extent(f->dset[v], dims) < 0)
        return h5_fail("H5Dset_extent", var->name);
    H5Sclose(f->fspace[v]);
    f->fspace[v] = H5Dget_space(f->dset[v]);
    if (f->fspace[v] < 0)
        return h5_fail("H5Dget_space", var->name);
    f->extent[v] = nrecs;
    return BIO_OK;
}

/* Grows every record variable the agreed plan needs to grow. */
static int grow_records(struct bio_file *f)
{
    int err = BIO_OK;

    for (int v = 0; v < f->schema.nvars && err == BIO_OK; v++) {
        int64_t need = f->plan[PLAN_HEAD + v];

        if (is_record(&f->vars[v]) && need > f->extent[v])
            err = agree(f->comm, set_extent(f, v, need));
    }
    return err;
}

/* Selects the file side of r in its variable's dataspace. */
static herr_t select_file(struct bio_file *f, const struct bio_req *r)
{
    const struct bio_var *var = &f->vars[r->var];
    hsize_t start[BIO_MAX_DIMS], count[BIO_MAX_DIMS], step[BIO_MAX_DIMS];
    hid_t fs = f->fspace[r->var];

    if (req_empty(f, r))
        return H5Sselect_none(fs);
    if (var->ndims == 0)
        return H5Sselect_all(fs);
    for (int d = 0; d < var->ndims; d++) {
        start[d] = (hsize_t)r->start[d];
        count[d] = (hsize_t)r->count[d];
        step[d] = (hsize_t)bio_req_stride(r, d);
    }
    return H5Sselect_hyperslab(fs, H5S_SELECT_SET, start,
                               bio_req_strided(var, r) ? step : NULL, count,
                               NULL);
}

/* The memory array of r as a dataspace (all of it selected), or one
 * element for an empty request, whose selection select_mem empties. */
static hid_t make_mem_space(struct bio_file *f, const struct bio_req *r)
{
    hsize_t shape[BIO_MAX_DIMS + 1], one = 1;

    if (req_empty(f, r))
        return H5Screate_simple(1, &one, NULL);
    for (int d = 0; d < r->mndims; d++)
        shape[d] = (hsize_t)r->mshape[d];
    return H5Screate_simple(r->mndims, shape, NULL);
}

/* Selects the memory side of r in ms: none for an empty request, else
 * the box mstart/mcount (already so when it is the whole array). */
static herr_t select_mem(struct bio_file *f, const struct bio_req *r,
                         hid_t ms)
{
    hsize_t start[BIO_MAX_DIMS + 1], count[BIO_MAX_DIMS + 1];
    int whole = 1;

    if (req_empty(f, r))
        return H5Sselect_none(ms);
    for (int d = 0; d < r->mndims; d++) {
        start[d] = (hsize_t)r->mstart[d];
        count[d] = (hsize_t)r->mcount[d];
        whole = whole && r->mstart[d] == 0 && r->mcount[d] == r->mshape[d];
    }
    if (whole) /* a new dataspace has all of itself selected */
        return 0;
    return H5Sselect_hyperslab(ms, H5S_SELECT_SET, start, NULL, count, NULL);
}

/* Selects both sides of r; *ms gets the memory space to close. */
static int select_request(struct bio_file *f, const struct bio_req *r,
                          hid_t *ms)
{
    const char *name = f->vars[r->var].name;

    if (select_file(f, r) < 0)
        return h5_fail("file selection of", name);
    *ms = make_mem_space(f, r);
    if (*ms < 0 || select_mem(f, r, *ms) < 0)
        return h5_fail("memory selection of", name);
    return BIO_OK;
}

/* One H5Dwrite or H5Dread of r over memory space ms. */
static int move(struct bio_file *f, const struct bio_req *r, hid_t ms,
                hid_t xfer, int writing)
{
    static double nothing; /* a buffer for empty requests given none */
    const struct bio_var *var = &f->vars[r->var];
    hid_t t = native_type(bio_req_mtype(&f->schema, r)); /* HDF5 converts */
    void *buf = r->buf != NULL ? r->buf : &nothing;
    herr_t e;

    if (writing)
        e = H5Dwrite(f->dset[r->var], t, ms, f->fspace[r->var], xfer, buf);
    else
        e = H5Dread(f->dset[r->var], t, ms, f->fspace[r->var], xfer, buf);
    return e < 0 ? h5_fail(writing ? "H5Dwrite" : "H5Dread", var->name)
                 : BIO_OK;
}

/* One collective call per request. Every rank makes the same
 * MPI_Allreduce calls whatever fails where: the one before each transfer
 * covers the selection of this request and the transfer before it, so a
 * failure stops all ranks before the same transfer. */
static int run_collective(struct bio_file *f, const struct bio_req *reqs,
                          int nreqs, int writing)
{
    int err = BIO_OK;

    for (int i = 0; i < nreqs; i++) {
        hid_t ms = H5I_INVALID_HID;

        if (err == BIO_OK)
            err = select_request(f, &reqs[i], &ms);
        err = agree(f->comm, err);
        if (err != BIO_OK) { /* the same on every rank */
            if (ms >= 0)
                H5Sclose(ms);
            return err;
        }
        err = move(f, &reqs[i], ms, f->xfer_coll, writing);
        H5Sclose(ms);
    }
    return agree(f->comm, err);
}

static int transfer_collective(struct bio_file *f, const struct bio_req *reqs,
                               int nreqs, int writing)
{
    int err = plan_collective(f, reqs, nreqs, writing);

    if (err == BIO_OK && writing)
        err = grow_records(f);
    if (err != BIO_OK)
        return err;
    return run_collective(f, reqs, nreqs, writing);
}

/* One independent call per non-empty request; nothing to agree on. */
static int transfer_indep(struct bio_file *f, const struct bio_req *reqs,
                          int nreqs, int writing)
{
    int err = plan_local(f, reqs, nreqs, writing, 0, f->plan + PLAN_HEAD,
                         NULL);

    for (int i = 0; i < nreqs && err == BIO_OK; i++) {
        hid_t ms = H5I_INVALID_HID;

        if (req_empty(f, &reqs[i]))
            continue;
        err = select_request(f, &reqs[i], &ms);
        if (err == BIO_OK)
            err = move(f, &reqs[i], ms, f->xfer_indep, writing);
        if (ms >= 0)
            H5Sclose(ms);
    }
    return err;
}

static int transfer(struct bio_file *f, const struct bio_req *reqs,
                    int nreqs, enum bio_method m, int writing)
{
    if (f == NULL)
        return BIO_EINVAL;
    switch (m) {
    case BIO_PERVAR:
        return transfer_collective(f, reqs, nreqs, writing);
    case BIO_INDEP:
        return transfer_indep(f, reqs, nreqs, writing);
    default: /* BIO_COMBINED, or no method at all */
        return BIO_ENOTSUP;
    }
}

int bio_write(struct bio_file *f, const struct bio_req *reqs, int nreqs,
              enum bio_method m)
{
    return transfer(f, reqs, nreqs, m, 1);
}

int bio_read(struct bio_file *f, const struct bio_req *reqs, int nreqs,
             enum bio_method m)
{
    return transfer(f, reqs, nreqs, m, 0);
}

/* ------------------------------------------------------------ close */

/* Objects of the file other than the file itself still open: with the
 * MPI-IO driver H5Fclose refuses to close a file that has any, so a
 * leak would show up only as an obscure close failure. */
static int check_no_leaks(struct bio_file *f)
{
    ssize_t n = H5Fget_obj_count(f->file, H5F_OBJ_ALL | H5F_OBJ_LOCAL);

    if (n < 0)
        return h5_fail("H5Fget_obj_count", "file");
    if (n > 1) {
        snprintf(last_error, sizeof last_error,
                 "hdf5: %zd objects of the file left open at close", n - 1);
        return BIO_EIO;
    }
    return BIO_OK;
}

/* Closes everything f holds whatever fails on the way (every rank makes
 * the same collective HDF5 calls), then agrees on the worst code. */
int bio_close(struct bio_file *f)
{
    MPI_Comm comm;
    int err = BIO_OK;

    if (f == NULL)
        return BIO_EINVAL;
    for (int v = 0; v < f->schema.nvars; v++) {
        if (f->fspace[v] >= 0 && H5Sclose(f->fspace[v]) < 0 && !err)
            err = h5_fail("H5Sclose", f->vars[v].name);
        if (f->dset[v] >= 0 && H5Dclose(f->dset[v]) < 0 && !err)
            err = h5_fail("H5Dclose", f->vars[v].name);
    }
    if (f->xfer_coll >= 0)
        H5Pclose(f->xfer_coll);
    if (f->xfer_indep >= 0)
        H5Pclose(f->xfer_indep);
    if (f->file >= 0) {
        int leak = check_no_leaks(f);

        if (!err)
            err = leak;
        if (H5Fclose(f->file) < 0 && !err)
            err = h5_fail("H5Fclose", "file");
    }
    comm = f->comm;
    free_handle(f);
    return agree(comm, err);
}
