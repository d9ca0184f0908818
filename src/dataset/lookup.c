/*
 * lookup.c -- finding dimensions, variables and attributes by id or by
 * name.  Names are looked up in their NFC form through the header's hash
 * indexes (src/format/name_index.c), so a lookup costs O(1), not O(n).
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "ncp_dataset.h"
#include "pnetcdf.h"

int ncp_var_get(ncp_dataset *ds, int varid, ncp_var **v)
{
    if (varid == NC_GLOBAL) return NC_EGLOBAL;
    if (varid < 0 || varid >= ds->hdr.nvars) return NC_ENOTVAR;
    *v = &ds->hdr.vars[varid];
    return NC_NOERR;
}

int ncp_find_att(const ncp_attlist *l, const char *key)
{
    /* The index is a cache the lookup fills in; the list itself is not
       changed, and no attribute list is ever defined const. */
    return ncp_hdr_find_att((ncp_attlist *)l, key);
}

int ncp_attlist_of(ncp_dataset *ds, int varid, ncp_attlist **l)
{
    if (varid == NC_GLOBAL) {
        *l = &ds->hdr.gatts;
        return NC_NOERR;
    }
    if (varid < 0 || varid >= ds->hdr.nvars) return NC_ENOTVAR;
    *l = &ds->hdr.vars[varid].atts;
    return NC_NOERR;
}

int ncp_type_check(int xtype, int format)
{
    if (ncp_xtype_check(xtype, NCP_CDF5) != NC_NOERR) return NC_EBADTYPE;
    if (ncp_xtype_check(xtype, format) != NC_NOERR) return NC_ESTRICTCDF2;
    return NC_NOERR;
}

int ncp_name_check(const char *name)
{
    char *nfc = NULL;
    int err = ncp_name_for_define(name, &nfc);
    free(nfc);
    return err;
}

/*
 * Every lookup by name goes through here: the name is checked (NC_EBADNAME,
 * NC_EMAXNAME) and normalized as a define call would have stored it, then
 * found through the list's index.  *pos is -1 when no entry has it.
 */
static int find_named(const char *name, ncp_name_index *x, ncp_names_view v,
                      int *pos)
{
    char *owned = NULL;
    const char *key = NULL;
    int err = ncp_name_for_lookup(name, &owned, &key);
    *pos = -1;
    if (err == NC_NOERR) *pos = ncp_index_find(x, v, key);
    free(owned);
    return err;
}

int ncp_find_dim_named(ncp_dataset *ds, const char *name, int *pos)
{
    ncp_names_view v = {ds->hdr.dims, sizeof(ncp_dim), offsetof(ncp_dim, name),
                        ds->hdr.ndims};
    return find_named(name, &ds->hdr.dim_index, v, pos);
}

int ncp_find_var_named(ncp_dataset *ds, const char *name, int *pos)
{
    ncp_names_view v = {ds->hdr.vars, sizeof(ncp_var), offsetof(ncp_var, name),
                        ds->hdr.nvars};
    return find_named(name, &ds->hdr.var_index, v, pos);
}

int ncp_find_att_named(ncp_attlist *l, const char *name, int *pos)
{
    ncp_names_view v = {l->a, sizeof(ncp_att), offsetof(ncp_att, name), l->n};
    return find_named(name, &l->index, v, pos);
}
