/*
 * cdl_hdr.c -- the CDL header API of PnetCDF 1.14 (cdl_hdr_open, _close,
 * _inq_format, _inq_ndims, _inq_dim, _inq_nvars, _inq_var, _inq_nattrs,
 * _inq_attr): the header part of a CDL text file (what `ncdump -h` and
 * `ncmpidump -h` print), read once at open (io/text.c), parsed into the
 * header model (format/cdl.c) and answered from memory by id.
 *
 * Owns the table of open CDL headers: like the open-dataset table, ids
 * are small non-negative ints reused after close, at most NC_MAX_NFILES
 * at once (NC_ENFILE), but nothing is shared with a dataset and no call
 * is collective.  Each entry keeps every attribute's value a second time,
 * in native byte order with a NUL after its last byte, since the API
 * hands out pointers into it: names, dimension ids and values stay valid
 * until cdl_hdr_close.
 *
 * Errors, as PnetCDF's guide gives them: NC_EBADID for an id not open or
 * a dimension, variable or attribute id out of range; from open
 * NC_ENOENT, NC_EFILE, NC_ENOMEM, NC_ENOTNC (not CDL, or no classic
 * header), NC_EBADDIM (a variable names an undeclared dimension, as in
 * PnetCDF), NC_ENFILE.  A NULL output is ignored.
 */
#include <stdlib.h>
#include <string.h>

#include "pnetcdf.h"

#include "../format/ncp_cdl.h"
#include "../format/ncp_header.h"
#include "../format/ncp_xconv.h"
#include "../io/ncp_text.h"

typedef struct cdl_entry {
    ncp_header h;
    void **gvals;  /* h.gatts.n values, native */
    void ***vvals; /* h.nvars lists of h.vars[i].atts.n values, native */
} cdl_entry;

static cdl_entry *cdl_table[NC_MAX_NFILES];

static void free_values(void **vals, int n)
{
    int i;
    if (vals == NULL) return;
    for (i = 0; i < n; i++)
        free(vals[i]);
    free(vals);
}

static void entry_free(cdl_entry *e)
{
    int i;
    if (e == NULL) return;
    free_values(e->gvals, e->h.gatts.n);
    if (e->vvals != NULL)
        for (i = 0; i < e->h.nvars; i++)
            free_values(e->vvals[i], e->h.vars[i].atts.n);
    free(e->vvals);
    ncp_header_free(&e->h);
    free(e);
}

/* Native copies of a list's values, each with a NUL after it. */
static int native_values(const ncp_attlist *l, void ***out)
{
    int i;
    void **vals = calloc((size_t)l->n + 1, sizeof *vals);
    if (vals == NULL) return NC_ENOMEM;
    for (i = 0; i < l->n; i++) {
        const ncp_att *a = &l->a[i];
        int xs = ncp_xtype_size(a->xtype);
        size_t bytes = (size_t)a->nelems * (size_t)xs;
        char *v = malloc(bytes + 1);
        if (v == NULL) {
            free_values(vals, i);
            return NC_ENOMEM;
        }
        if (bytes > 0) ncp_x_swap_copy(v, a->xvalue, a->nelems, xs);
        v[bytes] = '\0';
        vals[i] = v;
    }
    *out = vals;
    return NC_NOERR;
}

static int entry_get(int hid, cdl_entry **e)
{
    if (hid < 0 || hid >= NC_MAX_NFILES || cdl_table[hid] == NULL)
        return NC_EBADID;
    *e = cdl_table[hid];
    return NC_NOERR;
}

/* The attribute list of varid (NC_GLOBAL or a variable), with its values. */
static int attlist_get(cdl_entry *e, int varid, const ncp_attlist **l,
                       void ***vals)
{
    if (varid == NC_GLOBAL) {
        *l = &e->h.gatts;
        *vals = e->gvals;
    } else if (varid >= 0 && varid < e->h.nvars) {
        *l = &e->h.vars[varid].atts;
        *vals = e->vvals[varid];
    } else {
        return NC_EBADID;
    }
    return NC_NOERR;
}

int cdl_hdr_open(const char *filename, int *hid)
{
    int err, i, slot;
    char *text = NULL;
    size_t len = 0;
    cdl_entry *e = NULL;

    if (filename == NULL || hid == NULL) return NC_EINVAL;
    for (slot = 0; slot < NC_MAX_NFILES && cdl_table[slot] != NULL; slot++)
        ;
    if (slot == NC_MAX_NFILES) return NC_ENFILE;
    if ((err = ncp_io_read_text(filename, &text, &len)) != NC_NOERR) goto done;
    if ((e = calloc(1, sizeof *e)) == NULL) {
        err = NC_ENOMEM;
        goto done;
    }
    if ((err = ncp_cdl_parse(text, len, &e->h)) != NC_NOERR) goto done;
    if ((err = native_values(&e->h.gatts, &e->gvals)) != NC_NOERR) goto done;
    if ((e->vvals = calloc((size_t)e->h.nvars + 1, sizeof *e->vvals)) == NULL) {
        err = NC_ENOMEM;
        goto done;
    }
    for (i = 0; i < e->h.nvars; i++)
        if ((err = native_values(&e->h.vars[i].atts, &e->vvals[i])) != NC_NOERR)
            goto done;
    cdl_table[slot] = e;
    e = NULL;
    *hid = slot;
done:
    entry_free(e);
    free(text);
    return err;
}

int cdl_hdr_close(int hid)
{
    cdl_entry *e;
    int err = entry_get(hid, &e);
    if (err != NC_NOERR) return err;
    cdl_table[hid] = NULL;
    entry_free(e);
    return NC_NOERR;
}

int cdl_hdr_inq_format(int hid, int *format)
{
    cdl_entry *e;
    int err = entry_get(hid, &e);
    if (err == NC_NOERR && format != NULL) *format = e->h.format;
    return err;
}

int cdl_hdr_inq_ndims(int hid, int *ndims)
{
    cdl_entry *e;
    int err = entry_get(hid, &e);
    if (err == NC_NOERR && ndims != NULL) *ndims = e->h.ndims;
    return err;
}

int cdl_hdr_inq_dim(int hid, int dimid, char **name, MPI_Offset *size)
{
    cdl_entry *e;
    int err = entry_get(hid, &e);
    if (err != NC_NOERR) return err;
    if (dimid < 0 || dimid >= e->h.ndims) return NC_EBADID;
    if (name != NULL) *name = e->h.dims[dimid].name;
    if (size != NULL) *size = (MPI_Offset)e->h.dims[dimid].len;
    return NC_NOERR;
}

int cdl_hdr_inq_nvars(int hid, int *nvars)
{
    cdl_entry *e;
    int err = entry_get(hid, &e);
    if (err == NC_NOERR && nvars != NULL) *nvars = e->h.nvars;
    return err;
}

int cdl_hdr_inq_var(int hid, int varid, char **name, nc_type *xtype, int *ndims,
                    int **dimids)
{
    cdl_entry *e;
    const ncp_var *v;
    int err = entry_get(hid, &e);
    if (err != NC_NOERR) return err;
    if (varid < 0 || varid >= e->h.nvars) return NC_EBADID;
    v = &e->h.vars[varid];
    if (name != NULL) *name = v->name;
    if (xtype != NULL) *xtype = v->xtype;
    if (ndims != NULL) *ndims = v->ndims;
    if (dimids != NULL) *dimids = v->dimids;
    return NC_NOERR;
}

int cdl_hdr_inq_nattrs(int hid, int varid, int *nattrs)
{
    cdl_entry *e;
    const ncp_attlist *l;
    void **vals;
    int err = entry_get(hid, &e);
    if (err == NC_NOERR) err = attlist_get(e, varid, &l, &vals);
    if (err == NC_NOERR && nattrs != NULL) *nattrs = l->n;
    return err;
}

int cdl_hdr_inq_attr(int hid, int varid, int attrid, char **name,
                     nc_type *xtype, MPI_Offset *nelems, void **value)
{
    cdl_entry *e;
    const ncp_attlist *l;
    void **vals;
    int err = entry_get(hid, &e);
    if (err == NC_NOERR) err = attlist_get(e, varid, &l, &vals);
    if (err != NC_NOERR) return err;
    if (attrid < 0 || attrid >= l->n) return NC_EBADID;
    if (name != NULL) *name = l->a[attrid].name;
    if (xtype != NULL) *xtype = l->a[attrid].xtype;
    if (nelems != NULL) *nelems = (MPI_Offset)l->a[attrid].nelems;
    if (value != NULL) *value = vals[attrid];
    return NC_NOERR;
}
