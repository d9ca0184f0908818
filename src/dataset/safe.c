/*
 * safe.c -- safe mode's checks (ncp_safe.h): every collective define call
 * compares its arguments with rank 0's, and collective data calls agree on
 * their error before any data moves.
 *
 * A check describes its arguments as a list of fields, each a run of
 * bytes and the NC_EMULTIDEFINE_* code a difference in it gives.  Rank 0
 * packs its fields (a length, then the bytes, for each) and broadcasts
 * them; every other rank compares its own fields in order and takes the
 * code of the first that differs; one allreduce spreads the lowest code.
 * So a check costs one allreduce of the local verdicts, two broadcasts
 * and one allreduce: safe mode is for finding bugs, not for speed.
 */
#include "ncp_safe.h"

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ncp_dataset.h"
#include "pnetcdf.h"

typedef struct safe_field {
    const void *p; /* NULL or n bytes */
    int64_t n;
    int code; /* what a difference in this field gives */
} safe_field;

static int64_t packed_size(const safe_field *f, int nf)
{
    int64_t total = 0;
    int i;
    for (i = 0; i < nf; i++) total += (int64_t)sizeof(int64_t) + f[i].n;
    return total;
}

static void pack(const safe_field *f, int nf, unsigned char *out)
{
    int i;
    for (i = 0; i < nf; i++) {
        memcpy(out, &f[i].n, sizeof(int64_t));
        out += sizeof(int64_t);
        if (f[i].n > 0) memcpy(out, f[i].p, (size_t)f[i].n);
        out += f[i].n;
    }
}

/* The code of the first of my fields that differs from rank 0's. */
static int compare(const safe_field *f, int nf, const unsigned char *root,
                   int64_t root_size)
{
    const unsigned char *end = root + root_size;
    int64_t n;
    int i;
    for (i = 0; i < nf; i++) {
        if (end - root < (ptrdiff_t)sizeof(int64_t)) return f[i].code;
        memcpy(&n, root, sizeof(int64_t));
        root += sizeof(int64_t);
        if (n != f[i].n || end - root < n) return f[i].code;
        if (n > 0 && memcmp(root, f[i].p, (size_t)n) != 0) return f[i].code;
        root += n;
    }
    return NC_NOERR;
}

/* Rank 0's packed fields on every rank: *buf (caller frees) or an
 * error agreed by all. */
static int bcast_root(ncp_dataset *ds, const safe_field *f, int nf,
                      unsigned char **buf, int64_t *size)
{
    int64_t n = packed_size(f, nf);
    int err = NC_NOERR;
    *buf = malloc((size_t)n + 1);
    if (ds->rank == 0 && *buf) pack(f, nf, *buf);
    if (ds->rank == 0 && !*buf) n = -1;
    MPI_Bcast(&n, 1, MPI_INT64_T, 0, ds->comm);
    if (n >= 0 && ds->rank != 0) {
        free(*buf);
        *buf = malloc((size_t)n + 1);
    }
    err = ncp_agree(ds->comm, (n < 0 || !*buf) ? NC_ENOMEM : NC_NOERR);
    if (err == NC_NOERR)
        ncp_bcast_bytes(*buf, n, ds->hints.bcast_chunk, 0, ds->comm);
    *size = n;
    return err;
}

/* The check every public one runs; see ncp_safe.h. */
static int check_fields(ncp_dataset *ds, int local, const safe_field *f,
                        int nf)
{
    unsigned char *root = NULL;
    int64_t size = 0;
    int err;
    if (!ncp_safe_on(ds)) return local;
    err = ncp_agree(ds->comm, local);
    if (err != NC_NOERR) return err;
    err = bcast_root(ds, f, nf, &root, &size);
    if (err == NC_NOERR) {
        if (ds->rank != 0) err = compare(f, nf, root, size);
        err = ncp_agree(ds->comm, err);
    }
    free(root);
    return err;
}

static int64_t name_len(const char *name)
{
    return name ? (int64_t)strlen(name) + 1 : 0;
}

int ncp_safe_on(const ncp_dataset *ds) { return ds->hints.safe_mode != 0; }

int ncp_safe_agree(ncp_dataset *ds, int code)
{
    return ncp_safe_on(ds) ? ncp_agree(ds->comm, code) : code;
}

int ncp_safe_def_dim(ncp_dataset *ds, const char *name, MPI_Offset len)
{
    int64_t len64 = len;
    safe_field f[2] = {{name, name_len(name), NC_EMULTIDEFINE_DIM_NAME},
                       {&len64, sizeof len64, NC_EMULTIDEFINE_DIM_SIZE}};
    if (!ncp_safe_on(ds)) return NC_NOERR;
    return check_fields(ds, ncp_name_check(name), f, 2);
}

int ncp_safe_def_var(ncp_dataset *ds, const char *name, int xtype,
                     int ndims, const int *dimids)
{
    int local = ncp_name_check(name);
    int64_t nd = (ndims > 0 && dimids) ? ndims : 0;
    safe_field f[4] = {
        {name, name_len(name), NC_EMULTIDEFINE_VAR_NAME},
        {&xtype, sizeof xtype, NC_EMULTIDEFINE_VAR_TYPE},
        {&ndims, sizeof ndims, NC_EMULTIDEFINE_VAR_NDIMS},
        {dimids, nd * (int64_t)sizeof(int), NC_EMULTIDEFINE_VAR_DIMIDS}};
    if (!ncp_safe_on(ds)) return NC_NOERR;
    if (local == NC_NOERR && (ndims < 0 || (ndims > 0 && !dimids)))
        local = NC_EINVAL;
    return check_fields(ds, local, f, 4);
}

int ncp_safe_rename_dim(ncp_dataset *ds, int dimid, const char *newname)
{
    safe_field f[2] = {
        {&dimid, sizeof dimid, NC_EMULTIDEFINE_FNC_ARGS},
        {newname, name_len(newname), NC_EMULTIDEFINE_DIM_NAME}};
    if (!ncp_safe_on(ds)) return NC_NOERR;
    return check_fields(ds, ncp_name_check(newname), f, 2);
}

int ncp_safe_rename_var(ncp_dataset *ds, int varid, const char *newname)
{
    safe_field f[2] = {
        {&varid, sizeof varid, NC_EMULTIDEFINE_FNC_ARGS},
        {newname, name_len(newname), NC_EMULTIDEFINE_VAR_NAME}};
    if (!ncp_safe_on(ds)) return NC_NOERR;
    return check_fields(ds, ncp_name_check(newname), f, 2);
}

int ncp_safe_put_att(ncp_dataset *ds, int local, int varid, const char *name,
                     int xtype, MPI_Offset nelems, const void *buf, int msize)
{
    int64_t n = nelems;
    int64_t vbytes = (local == NC_NOERR && buf && n > 0) ? n * msize : 0;
    safe_field f[5] = {
        {&varid, sizeof varid, NC_EMULTIDEFINE_FNC_ARGS},
        {name, name_len(name), NC_EMULTIDEFINE_ATTR_NAME},
        {&xtype, sizeof xtype, NC_EMULTIDEFINE_ATTR_TYPE},
        {&n, sizeof n, NC_EMULTIDEFINE_ATTR_LEN},
        {buf, vbytes, NC_EMULTIDEFINE_ATTR_VAL}};
    return check_fields(ds, local, f, 5);
}

int ncp_safe_att_name(ncp_dataset *ds, int local, int varid,
                      const char *name, const char *newname)
{
    safe_field f[3] = {
        {&varid, sizeof varid, NC_EMULTIDEFINE_FNC_ARGS},
        {name, name_len(name), NC_EMULTIDEFINE_ATTR_NAME},
        {newname, name_len(newname), NC_EMULTIDEFINE_ATTR_NAME}};
    return check_fields(ds, local, f, 3);
}

int ncp_safe_set_fill(ncp_dataset *ds, int fillmode)
{
    safe_field f[1] = {
        {&fillmode, sizeof fillmode, NC_EMULTIDEFINE_FILL_MODE}};
    return check_fields(ds, NC_NOERR, f, 1);
}

int ncp_safe_def_var_fill(ncp_dataset *ds, int varid, int no_fill,
                          const void *fill_value)
{
    int has_value = fill_value != NULL, on = no_fill != 0;
    int64_t vsize = 0;
    if (!no_fill && fill_value && varid >= 0 && varid < ds->hdr.nvars)
        vsize = ncp_xtype_size(ds->hdr.vars[varid].xtype);
    safe_field f[4] = {{&varid, sizeof varid, NC_EMULTIDEFINE_FNC_ARGS},
                       {&on, sizeof on, NC_EMULTIDEFINE_FNC_ARGS},
                       {&has_value, sizeof has_value,
                        NC_EMULTIDEFINE_FNC_ARGS},
                       {vsize ? fill_value : NULL, vsize,
                        NC_EMULTIDEFINE_VAR_FILL_VALUE}};
    return check_fields(ds, NC_NOERR, f, 4);
}
