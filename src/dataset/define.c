/*
 * define.c -- define-mode calls that add or rename dimensions and
 * variables.  A call that fails leaves the header model exactly as it was:
 * every check runs before the first change.  Names are stored in NFC
 * (src/format/name.c) and found through the header's name indexes.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "../format/ncp_header_build.h"
#include "ncp_dataset.h"
#include "pnetcdf.h"

/* Common prologue: a writable dataset in define mode. */
static int ready_for_define(const ncp_dataset *ds)
{
    int err = ncp_require_define(ds);
    if (err == NC_NOERR) err = ncp_require_write(ds);
    return err;
}

int ncp_ds_def_dim(ncp_dataset *ds, const char *name, MPI_Offset len, int *idp)
{
    int err;
    int64_t maxlen;
    char *nfc = NULL;

    if ((err = ready_for_define(ds)) != NC_NOERR) goto done;
    if ((err = ncp_safe_def_dim(ds, name, len)) != NC_NOERR) goto done;
    if ((err = ncp_name_for_define(name, &nfc)) != NC_NOERR) goto done;
    if (ncp_hdr_find_dim(&ds->hdr, nfc) >= 0) {
        err = NC_ENAMEINUSE;
        goto done;
    }
    maxlen = ncp_dim_max_len(ds->hdr.format);
    if (len < 0 || len > maxlen) {
        err = NC_EDIMSIZE;
        goto done;
    }
    err = ncp_hdr_add_dim(&ds->hdr, nfc, len, idp);
done:
    free(nfc);
    return err;
}

int ncp_ds_def_var(ncp_dataset *ds, const char *name, nc_type xtype,
                   int ndims, const int *dimids, int *varidp)
{
    int err;
    char *nfc = NULL;

    if ((err = ready_for_define(ds)) != NC_NOERR) goto done;
    err = ncp_safe_def_var(ds, name, xtype, ndims, dimids);
    if (err != NC_NOERR) goto done;
    if ((err = ncp_name_for_define(name, &nfc)) != NC_NOERR) goto done;
    if (ncp_hdr_find_var(&ds->hdr, nfc) >= 0) {
        err = NC_ENAMEINUSE;
        goto done;
    }
    if ((err = ncp_type_check(xtype, ds->hdr.format)) != NC_NOERR) goto done;
    err = ncp_hdr_add_var(&ds->hdr, nfc, xtype, ndims, dimids, varidp);
done:
    free(nfc);
    return err;
}

/*
 * Renames are allowed in data mode when the stored name does not grow,
 * because the header then keeps its size; the new header is written at
 * once.  On success *nfc is the name to store.
 */
static int rename_prologue(ncp_dataset *ds, const char *oldname,
                           const char *newname, char **nfc)
{
    int err = ncp_require_write(ds);
    if (err == NC_NOERR) err = ncp_name_for_define(newname, nfc);
    if (err == NC_NOERR && !(ds->flags & NCP_F_DEFINE) &&
        strlen(*nfc) > strlen(oldname))
        err = NC_ENOTINDEFINE;
    return err;
}

/* After a rename in data mode the header goes to the file at once. */
static int rename_done(ncp_dataset *ds)
{
    if (ds->flags & NCP_F_DEFINE) return NC_NOERR;
    return ncp_header_write(ds);
}

int ncp_ds_rename_dim(ncp_dataset *ds, int dimid, const char *newname)
{
    int err;
    char *nfc = NULL;
    if ((err = ncp_safe_rename_dim(ds, dimid, newname))) goto done;
    if (dimid < 0 || dimid >= ds->hdr.ndims) {
        err = NC_EBADDIM;
        goto done;
    }
    err = rename_prologue(ds, ds->hdr.dims[dimid].name, newname, &nfc);
    if (err != NC_NOERR) goto done;
    if (ncp_hdr_find_dim(&ds->hdr, nfc) >= 0) {
        err = NC_ENAMEINUSE;
        goto done;
    }
    ncp_hdr_rename_dim(&ds->hdr, dimid, nfc);
    nfc = NULL;
    err = rename_done(ds);
done:
    free(nfc);
    return err;
}

int ncp_ds_rename_var(ncp_dataset *ds, int varid, const char *newname)
{
    int err;
    ncp_var *v;
    char *nfc = NULL;
    if ((err = ncp_safe_rename_var(ds, varid, newname))) goto done;
    if ((err = ncp_var_get(ds, varid, &v)) != NC_NOERR) goto done;
    err = rename_prologue(ds, v->name, newname, &nfc);
    if (err != NC_NOERR) goto done;
    if (ncp_hdr_find_var(&ds->hdr, nfc) >= 0) {
        err = NC_ENAMEINUSE;
        goto done;
    }
    ncp_hdr_rename_var(&ds->hdr, varid, nfc);
    nfc = NULL;
    err = rename_done(ds);
done:
    free(nfc);
    return err;
}
