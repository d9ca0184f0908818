/*
 * fill.c -- fill mode (NC_FILL / NC_NOFILL, NC_NOFILL being PnetCDF's
 * default), per-variable fill settings, and writing fill values.
 *
 * Filling is collective: each variable's bytes are split evenly over the
 * ranks and written in rounds of at most NCP_FILL_CHUNK bytes per rank, so
 * memory stays bounded whatever the variable's size.
 */
#include <stdlib.h>
#include <string.h>

#include "ncp_dataset.h"
#include "pnetcdf.h"

#define NCP_FILL_CHUNK ((int64_t)8 << 20)

void ncp_var_fill_value(const ncp_var *v, void *out)
{
    int idx = ncp_find_att(&v->atts, "_FillValue");
    if (idx >= 0 && v->atts.a[idx].xtype == v->xtype &&
        v->atts.a[idx].nelems == 1)
        memcpy(out, v->atts.a[idx].xvalue, (size_t)ncp_xtype_size(v->xtype));
    else
        ncp_x_default_fill(v->xtype, out);
}

static int var_fill_on(const ncp_dataset *ds, const ncp_var *v)
{
    if (v->fill_mode == NCP_VFILL_ON) return 1;
    if (v->fill_mode == NCP_VFILL_OFF) return 0;
    return (ds->flags & NCP_F_FILL) != 0;
}

/* Write the fill value over [start, start+nbytes) of the file, with every
 * rank taking an even share, collectively. */
static int fill_range(ncp_dataset *ds, const ncp_var *v, int64_t start,
                      int64_t nbytes)
{
    int err = NC_NOERR, xsz = ncp_xtype_size(v->xtype);
    int64_t nel = nbytes / xsz, share, lo, hi, pos, rounds, r, i;
    unsigned char fill[8];
    unsigned char *buf = NULL;

    share = (nel + ds->nprocs - 1) / ds->nprocs;
    lo = share * ds->rank < nel ? share * ds->rank : nel;
    hi = lo + share < nel ? lo + share : nel;
    rounds = (share * xsz + NCP_FILL_CHUNK - 1) / NCP_FILL_CHUNK;
    ncp_var_fill_value(v, fill);
    if (hi > lo) {
        int64_t cap = (hi - lo) * xsz < NCP_FILL_CHUNK ? (hi - lo) * xsz
                                                       : NCP_FILL_CHUNK;
        buf = malloc((size_t)cap);
        if (!buf) err = NC_ENOMEM;
        for (i = 0; buf && i < cap / xsz; i++)
            memcpy(buf + i * xsz, fill, (size_t)xsz);
    }
    err = ncp_agree(ds->comm, err);
    for (r = 0, pos = lo; r < rounds && err == NC_NOERR; r++) {
        ncp_extents e;
        int64_t n = (hi - pos) * xsz;
        if (n > NCP_FILL_CHUNK) n = NCP_FILL_CHUNK;
        ncp_extents_init(&e);
        err = ncp_extents_add(&e, start + pos * xsz, n > 0 ? n : 0);
        if (err == NC_NOERR) err = ncp_io_xfer_all(&ds->file, 1, &e, buf);
        ncp_extents_free(&e);
        pos += n > 0 ? n / xsz : 0;
        err = ncp_agree(ds->comm, err);
    }
    free(buf);
    return err;
}

/* Fill one record variable in records [0, nrecs), one record at a time. */
static int fill_existing_records(ncp_dataset *ds, const ncp_var *v,
                                 int64_t nrecs)
{
    int err = NC_NOERR;
    int64_t r, bytes = v->nelems_per_rec * ncp_xtype_size(v->xtype);
    for (r = 0; r < nrecs && err == NC_NOERR; r++)
        err = fill_range(ds, v, v->begin + r * ds->hdr.recsize, bytes);
    return err;
}

int ncp_fill_new_vars(ncp_dataset *ds, int from_var)
{
    int err = NC_NOERR, i;
    for (i = from_var; i < ds->hdr.nvars && err == NC_NOERR; i++) {
        const ncp_var *v = &ds->hdr.vars[i];
        if (!var_fill_on(ds, v)) continue;
        if (v->is_record)
            err = fill_existing_records(ds, v, ds->hdr.numrecs);
        else
            err = fill_range(ds, v, v->begin,
                             v->nelems_per_rec * ncp_xtype_size(v->xtype));
    }
    return err;
}

void ncp_fill_mark_opened(ncp_dataset *ds)
{
    int i;
    for (i = 0; i < ds->hdr.nvars; i++)
        ds->hdr.vars[i].fill_mode = NCP_VFILL_ON;
}

int ncp_ds_set_fill(ncp_dataset *ds, int fillmode, int *old_modep)
{
    int err, i;
    if ((err = ncp_require_write(ds)) != NC_NOERR) return err;
    if ((err = ncp_require_define(ds)) != NC_NOERR) return err;
    if ((err = ncp_safe_set_fill(ds, fillmode)) != NC_NOERR) return err;
    if (fillmode != NC_FILL && fillmode != NC_NOFILL) return NC_EINVAL;
    if (old_modep) *old_modep = (ds->flags & NCP_F_FILL) ? NC_FILL : NC_NOFILL;
    if (fillmode == NC_FILL)
        ds->flags |= NCP_F_FILL;
    else
        ds->flags &= ~NCP_F_FILL;
    /* As in PnetCDF, the new mode overrides every per-variable setting
       made so far. */
    for (i = 0; i < ds->hdr.nvars; i++)
        ds->hdr.vars[i].fill_mode = NCP_VFILL_DEFAULT;
    return NC_NOERR;
}

int ncp_ds_def_var_fill(ncp_dataset *ds, int varid, int no_fill,
                        const void *fill_value)
{
    int err;
    ncp_var *v;
    if ((err = ncp_require_define(ds)) != NC_NOERR) return err;
    if ((err = ncp_require_write(ds)) != NC_NOERR) return err;
    err = ncp_safe_def_var_fill(ds, varid, no_fill, fill_value);
    if (err != NC_NOERR) return err;
    if ((err = ncp_var_get(ds, varid, &v)) != NC_NOERR) return err;
    /* As in PnetCDF, turning fill off ignores the value: no attribute is
       written, so none can come too late either. */
    if (!no_fill && fill_value) {
        err = ncp_att_put(ds->ncid, varid, "_FillValue", v->xtype, 1,
                          fill_value, NCP_M_FLEX);
        if (err != NC_NOERR) return err;
        v = &ds->hdr.vars[varid];
    }
    v->fill_mode = no_fill ? NCP_VFILL_OFF : NCP_VFILL_ON;
    return NC_NOERR;
}

int ncp_ds_inq_var_fill(ncp_dataset *ds, int varid, int *no_fill,
                        void *fill_value)
{
    int err;
    ncp_var *v;
    unsigned char x[8];
    if ((err = ncp_var_get(ds, varid, &v)) != NC_NOERR) return err;
    if (no_fill) *no_fill = !var_fill_on(ds, v);
    if (fill_value) {
        ncp_var_fill_value(v, x);
        err = ncp_x_get(v->xtype, x, ncp_mtype_of_xtype(v->xtype), fill_value,
                        1, ds->hdr.format);
    }
    return err;
}

int ncp_ds_fill_var_rec(ncp_dataset *ds, int varid, MPI_Offset recno)
{
    int err;
    ncp_var *v;
    if ((err = ncp_var_get(ds, varid, &v)) != NC_NOERR) return err;
    if (!v->is_record) return NC_ENOTRECVAR;
    if ((err = ncp_require_write(ds)) != NC_NOERR) return err;
    /* A _FillValue attribute asks for filling even where fill is off. */
    if (!var_fill_on(ds, v) && ncp_find_att(&v->atts, "_FillValue") < 0)
        return NC_ENOTFILL;
    /* PnetCDF accepts the call in define mode and does nothing. */
    if (ds->flags & NCP_F_DEFINE) return NC_NOERR;
    if ((err = ncp_require_data(ds, 1)) != NC_NOERR) return err;
    if (recno < 0) return NC_EINVALCOORDS;
    err = fill_range(ds, v, v->begin + recno * ds->hdr.recsize,
                     v->nelems_per_rec * ncp_xtype_size(v->xtype));
    if (err == NC_NOERR) ncp_numrecs_raise(ds, recno + 1);
    if (err == NC_NOERR) err = ncp_numrecs_agree(ds);
    return err;
}
