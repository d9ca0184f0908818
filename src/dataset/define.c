/*
 * define.c -- define-mode calls that add or rename dimensions and
 * variables.  A call that fails leaves the header model exactly as it was:
 * every check runs before the first change.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "../format/ncp_header_build.h"
#include "ncp_dataset.h"
#include "pnetcdf.h"

static int find_dim(const ncp_header *h, const char *name)
{
    int i;
    for (i = 0; i < h->ndims; i++)
        if (strcmp(h->dims[i].name, name) == 0) return i;
    return -1;
}

static int find_var(const ncp_header *h, const char *name)
{
    int i;
    for (i = 0; i < h->nvars; i++)
        if (strcmp(h->vars[i].name, name) == 0) return i;
    return -1;
}

/* Common prologue: a writable dataset in define mode. */
static int open_for_define(int ncid, ncp_dataset **ds)
{
    int err = ncp_dataset_get(ncid, ds);
    if (err == NC_NOERR) err = ncp_require_define(*ds);
    if (err == NC_NOERR) err = ncp_require_write(*ds);
    return err;
}

int ncmpi_def_dim(int ncid, const char *name, MPI_Offset len, int *idp)
{
    int err;
    ncp_dataset *ds;
    int64_t maxlen;

    if ((err = open_for_define(ncid, &ds)) != NC_NOERR) return err;
    if ((err = ncp_name_check(name)) != NC_NOERR) return err;
    if (find_dim(&ds->hdr, name) >= 0) return NC_ENAMEINUSE;
    /* As PnetCDF: a CDF-1/2 length leaves room to pad a byte array to 4. */
    maxlen = ds->hdr.format == NCP_CDF5 ? INT64_MAX
             : ds->hdr.format == NCP_CDF2 ? (int64_t)UINT32_MAX - 3
                                          : (int64_t)INT_MAX - 3;
    if (len < 0 || len > maxlen) return NC_EDIMSIZE;
    return ncp_hdr_add_dim(&ds->hdr, name, len, idp);
}

int ncmpi_def_var(int ncid, const char *name, nc_type xtype, int ndims,
                  const int *dimids, int *varidp)
{
    int err;
    ncp_dataset *ds;

    if ((err = open_for_define(ncid, &ds)) != NC_NOERR) return err;
    if ((err = ncp_name_check(name)) != NC_NOERR) return err;
    if (find_var(&ds->hdr, name) >= 0) return NC_ENAMEINUSE;
    if ((err = ncp_type_check(xtype, ds->hdr.format)) != NC_NOERR) return err;
    return ncp_hdr_add_var(&ds->hdr, name, xtype, ndims, dimids, varidp);
}

/*
 * Renames are allowed in data mode when the name does not grow, because
 * the header then keeps its size; the new header is written at once.
 */
static int rename_prologue(int ncid, const char *oldname, const char *newname,
                           ncp_dataset **ds)
{
    int err = ncp_dataset_get(ncid, ds);
    if (err == NC_NOERR) err = ncp_require_write(*ds);
    if (err == NC_NOERR) err = ncp_name_check(newname);
    if (err == NC_NOERR && !((*ds)->flags & NCP_F_DEFINE) &&
        strlen(newname) > strlen(oldname))
        err = NC_ENOTINDEFINE;
    return err;
}

static int replace_name(ncp_dataset *ds, char **slot, const char *newname)
{
    char *copy = strdup(newname);
    if (!copy) return NC_ENOMEM;
    free(*slot);
    *slot = copy;
    if (ds->flags & NCP_F_DEFINE) return NC_NOERR;
    return ncp_header_write(ds);
}

int ncmpi_rename_dim(int ncid, int dimid, const char *newname)
{
    int err;
    ncp_dataset *ds;
    if ((err = ncp_dataset_get(ncid, &ds)) != NC_NOERR) return err;
    if (dimid < 0 || dimid >= ds->hdr.ndims) return NC_EBADDIM;
    err = rename_prologue(ncid, ds->hdr.dims[dimid].name, newname, &ds);
    if (err != NC_NOERR) return err;
    if (find_dim(&ds->hdr, newname) >= 0) return NC_ENAMEINUSE;
    return replace_name(ds, &ds->hdr.dims[dimid].name, newname);
}

int ncmpi_rename_var(int ncid, int varid, const char *newname)
{
    int err;
    ncp_dataset *ds;
    ncp_var *v;
    if ((err = ncp_dataset_get(ncid, &ds)) != NC_NOERR) return err;
    if ((err = ncp_var_get(ds, varid, &v)) != NC_NOERR) return err;
    err = rename_prologue(ncid, v->name, newname, &ds);
    if (err != NC_NOERR) return err;
    if (find_var(&ds->hdr, newname) >= 0) return NC_ENAMEINUSE;
    return replace_name(ds, &v->name, newname);
}
