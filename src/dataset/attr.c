/*
 * attr.c -- attributes: values are kept in external (file) form, so the
 * header encoder copies them as they are and a get converts on the way
 * out.  In data mode an attribute may be overwritten or renamed only when
 * the header does not grow (the netCDF classic rule); the header is then
 * rewritten at once by rank 0.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "../format/ncp_header_build.h"
#include "ncp_dataset.h"
#include "pnetcdf.h"

/* Bytes a value of nelems elements takes in the header, padded to 4. */
static int64_t padded_size(int xtype, int64_t nelems)
{
    int64_t n = nelems * ncp_xtype_size(xtype);
    return (n + 3) & ~(int64_t)3;
}

/* _FillValue must match its variable: same type, one element. */
static int check_fill_att(ncp_dataset *ds, int varid, const char *name,
                          int xtype, MPI_Offset nelems)
{
    if (varid == NC_GLOBAL || strcmp(name, "_FillValue") != 0)
        return NC_NOERR;
    if (ds->hdr.vars[varid].xtype != xtype) return NC_EBADTYPE;
    if (nelems != 1) return NC_EINVAL;
    return NC_NOERR;
}

/* Text goes to NC_CHAR only and numbers never do; the flexible API takes
 * its memory type from xtype. */
static int check_char_match(int xtype, int mtype)
{
    if (mtype == NCP_M_TEXT && xtype != NC_CHAR) return NC_ECHAR;
    if (mtype != NCP_M_TEXT && mtype != NCP_M_FLEX && xtype == NC_CHAR)
        return NC_ECHAR;
    return NC_NOERR;
}

/* Bytes of one element of the caller's buffer. */
static int mem_size(int xtype, int mtype)
{
    if (mtype == NCP_M_FLEX) return ncp_xtype_size(xtype);
    return (int)ncp_mtype_size((ncp_mtype)mtype);
}

/* In PnetCDF's order: the name, the type and the text/number match come
 * before the length and the buffer, so a numeric put to NC_CHAR is
 * NC_ECHAR whatever its length.  On success *nfc is the name to store
 * (the caller frees it). */
static int check_put_args(ncp_dataset *ds, int varid, const char *name,
                          int xtype, MPI_Offset nelems, const void *buf,
                          int mtype, ncp_attlist **l, char **nfc)
{
    int err = ncp_require_write(ds);
    *nfc = NULL;
    if (err == NC_NOERR) err = ncp_attlist_of(ds, varid, l);
    if (err == NC_NOERR) err = ncp_name_for_define(name, nfc);
    if (err == NC_NOERR) name = *nfc;
    if (err == NC_NOERR) err = ncp_type_check(xtype, ds->hdr.format);
    if (err == NC_NOERR) err = check_char_match(xtype, mtype);
    if (err == NC_NOERR && nelems < 0) err = NC_EINVAL;
    if (err == NC_NOERR && nelems > 0 && !buf) err = NC_EINVAL;
    if (err == NC_NOERR &&
        nelems > (ds->hdr.format == NCP_CDF5 ? INT64_MAX / 8 : INT_MAX))
        err = NC_EINVAL;
    if (err == NC_NOERR)
        err = check_fill_att(ds, varid, name, xtype, nelems);
    if (err != NC_NOERR) {
        free(*nfc);
        *nfc = NULL;
    }
    return err;
}

/* Convert the user's values into a freshly allocated external buffer. */
static int make_xvalue(ncp_dataset *ds, int xtype, MPI_Offset nelems,
                       const void *buf, int mtype, void **xvalue)
{
    int xsz = ncp_xtype_size(xtype);
    void *x = malloc((size_t)(nelems * xsz) + 1);
    int err;
    if (!x) return NC_ENOMEM;
    if (mtype == NCP_M_FLEX) mtype = (int)ncp_mtype_of_xtype(xtype);
    err = ncp_x_put(xtype, x, (ncp_mtype)mtype, buf, nelems, NULL,
                    ds->hdr.format);
    if (err != NC_NOERR && err != NC_ERANGE) {
        free(x);
        return err;
    }
    *xvalue = x;
    return err;
}

/*
 * Install an attribute whose external value is ready (xvalue is taken over,
 * freed on failure).  Checks the data-mode rule and writes the header when
 * not in define mode.
 */
static int store_att(ncp_dataset *ds, ncp_attlist *l, const char *name,
                     int xtype, MPI_Offset nelems, void *xvalue)
{
    int err = NC_NOERR, idx = ncp_find_att(l, name);
    if (!(ds->flags & NCP_F_DEFINE)) {
        /* Data mode: only an in-place overwrite that does not grow. */
        if (idx < 0 || padded_size(xtype, nelems) >
                           padded_size(l->a[idx].xtype, l->a[idx].nelems))
            err = NC_ENOTINDEFINE;
    } else if (idx < 0 && l->n >= NC_MAX_ATTRS) {
        err = NC_EMAXATTS;
    }
    if (err != NC_NOERR) goto fail;
    if (idx >= 0) {
        free(l->a[idx].xvalue);
        l->a[idx].xvalue = xvalue;
        l->a[idx].xtype = xtype;
        l->a[idx].nelems = nelems;
    } else {
        err = ncp_hdr_add_att(l, name, xtype, nelems, xvalue);
        free(xvalue);
        if (err != NC_NOERR) return err;
    }
    if (!(ds->flags & NCP_F_DEFINE)) err = ncp_header_write(ds);
    return err;
fail:
    free(xvalue);
    return err;
}

/* NC_ELATEFILL when varid was defined before this redef: its fill value
 * can no longer change (its bytes may already be on disk). */
static int fill_too_late(const ncp_dataset *ds, int varid)
{
    if (ds->on_disk && varid >= 0 && varid < ds->on_disk->nvars)
        return NC_ELATEFILL;
    return NC_NOERR;
}

int ncp_att_put(int ncid, int varid, const char *name, int xtype,
                MPI_Offset nelems, const void *buf, int mtype)
{
    int err, conv = NC_NOERR;
    ncp_dataset *ds;
    ncp_attlist *l;
    void *xvalue = NULL;
    char *nfc = NULL;

    if ((err = ncp_dataset_get(ncid, &ds)) != NC_NOERR) goto done;
    err = check_put_args(ds, varid, name, xtype, nelems, buf, mtype, &l,
                         &nfc);
    err = ncp_safe_put_att(ds, err, varid, name, xtype, nelems, buf,
                           err == NC_NOERR ? mem_size(xtype, mtype) : 0);
    if (err != NC_NOERR) goto done;
    if (!(ds->flags & NCP_F_DEFINE) && ncp_find_att(l, nfc) < 0) {
        err = NC_ENOTINDEFINE;
        goto done;
    }
    /* Only a put is refused: PnetCDF lets copy_att and rename_att through. */
    if (varid != NC_GLOBAL && strcmp(nfc, "_FillValue") == 0 &&
        (err = fill_too_late(ds, varid)) != NC_NOERR)
        goto done;
    conv = make_xvalue(ds, xtype, nelems, buf, mtype, &xvalue);
    if (conv != NC_NOERR && conv != NC_ERANGE) {
        err = conv;
        goto done;
    }
    err = store_att(ds, l, nfc, xtype, nelems, xvalue);
done:
    free(nfc);
    return err != NC_NOERR ? err : conv;
}

static int lookup_att(ncp_dataset *ds, int varid, const char *name,
                      ncp_attlist **l, ncp_att **a)
{
    int err, idx = -1;
    if ((err = ncp_attlist_of(ds, varid, l)) != NC_NOERR) return err;
    if ((err = ncp_find_att_named(*l, name, &idx)) != NC_NOERR) return err;
    if (idx < 0) return NC_ENOTATT;
    *a = &(*l)->a[idx];
    return NC_NOERR;
}

int ncp_att_get(int ncid, int varid, const char *name, void *buf, int mtype)
{
    int err;
    ncp_dataset *ds;
    ncp_attlist *l;
    ncp_att *a;
    if ((err = ncp_dataset_get(ncid, &ds)) != NC_NOERR) return err;
    if ((err = lookup_att(ds, varid, name, &l, &a)) != NC_NOERR) return err;
    /* Nothing to convert: as in PnetCDF, even a numeric read of an empty
     * NC_CHAR attribute succeeds. */
    if (a->nelems == 0) return NC_NOERR;
    if (mtype == NCP_M_FLEX) mtype = (int)ncp_mtype_of_xtype(a->xtype);
    if ((mtype == NCP_M_TEXT) != (a->xtype == NC_CHAR)) return NC_ECHAR;
    if (!buf) return NC_EINVAL;
    return ncp_x_get(a->xtype, a->xvalue, (ncp_mtype)mtype, buf, a->nelems,
                     ds->hdr.format);
}

int ncp_ds_inq_att(ncp_dataset *ds, int varid, const char *name,
                   nc_type *xtypep, MPI_Offset *lenp)
{
    int err;
    ncp_attlist *l;
    ncp_att *a;
    if ((err = lookup_att(ds, varid, name, &l, &a)) != NC_NOERR) return err;
    if (xtypep) *xtypep = a->xtype;
    if (lenp) *lenp = a->nelems;
    return NC_NOERR;
}


int ncp_ds_inq_attid(ncp_dataset *ds, int varid, const char *name, int *idp)
{
    int err;
    ncp_attlist *l;
    ncp_att *a;
    if ((err = lookup_att(ds, varid, name, &l, &a)) != NC_NOERR) return err;
    if (idp) *idp = (int)(a - l->a);
    return NC_NOERR;
}

int ncp_ds_inq_attname(ncp_dataset *ds, int varid, int attnum, char *name)
{
    int err;
    ncp_attlist *l;
    if ((err = ncp_attlist_of(ds, varid, &l)) != NC_NOERR) return err;
    if (attnum < 0 || attnum >= l->n) return NC_ENOTATT;
    if (name) strcpy(name, l->a[attnum].name);
    return NC_NOERR;
}

/* The destination is found here, after the attribute: a missing
 * attribute is reported before a bad ncid_out. */
int ncp_ds_copy_att(ncp_dataset *src, int varid_in, const char *name,
                    int ncid_out, int varid_out)
{
    int err;
    ncp_dataset *dst;
    ncp_attlist *l, *dl;
    ncp_att *a;
    size_t nbytes;
    void *xvalue;
    char *nfc = NULL;
    if ((err = lookup_att(src, varid_in, name, &l, &a)) != NC_NOERR)
        goto done;
    if ((err = ncp_dataset_get(ncid_out, &dst)) != NC_NOERR) goto done;
    err = check_put_args(dst, varid_out, name, a->xtype, a->nelems, a->xvalue,
                         NCP_M_FLEX, &dl, &nfc);
    if (err != NC_NOERR) goto done;
    /* Copy the bytes first: the source may be the slot being replaced. */
    nbytes = (size_t)(a->nelems * ncp_xtype_size(a->xtype));
    if (!(xvalue = malloc(nbytes + 1))) {
        err = NC_ENOMEM;
        goto done;
    }
    memcpy(xvalue, a->xvalue, nbytes);
    err = store_att(dst, dl, nfc, a->xtype, a->nelems, xvalue);
done:
    free(nfc);
    return err;
}

int ncp_ds_rename_att(ncp_dataset *ds, int varid, const char *name,
                      const char *newname)
{
    int err;
    ncp_attlist *l;
    ncp_att *a;
    char *nfc = NULL;
    /* Permission is checked before the attribute is looked up. */
    if ((err = ncp_require_write(ds)) != NC_NOERR) goto done;
    err = ncp_safe_att_name(ds, ncp_name_check(newname), varid, name, newname);
    if (err != NC_NOERR) goto done;
    if ((err = lookup_att(ds, varid, name, &l, &a)) != NC_NOERR) goto done;
    if ((err = ncp_name_for_define(newname, &nfc)) != NC_NOERR) goto done;
    if (ncp_find_att(l, nfc) >= 0) {
        err = NC_ENAMEINUSE;
        goto done;
    }
    if (!(ds->flags & NCP_F_DEFINE) && strlen(nfc) > strlen(a->name)) {
        err = NC_ENOTINDEFINE;
        goto done;
    }
    ncp_hdr_rename_att(l, (int)(a - l->a), nfc);
    nfc = NULL;
    if (!(ds->flags & NCP_F_DEFINE)) err = ncp_header_write(ds);
done:
    free(nfc);
    return err;
}

int ncp_ds_del_att(ncp_dataset *ds, int varid, const char *name)
{
    int err;
    ncp_attlist *l;
    ncp_att *a;
    /* Permission is checked before the attribute is looked up. */
    if ((err = ncp_require_write(ds)) != NC_NOERR) return err;
    err = ncp_safe_att_name(ds, NC_NOERR, varid, name, NULL);
    if (err != NC_NOERR) return err;
    if ((err = lookup_att(ds, varid, name, &l, &a)) != NC_NOERR) return err;
    if ((err = ncp_require_define(ds)) != NC_NOERR) return err;
    ncp_hdr_del_att(l, (int)(a - l->a));
    return NC_NOERR;
}
