/*
 * lookup.c -- finding variables and attributes by id or name, and the
 * netCDF rule for what a name may be.
 */
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

int ncp_find_att(const ncp_attlist *l, const char *name)
{
    int i;
    for (i = 0; i < l->n; i++)
        if (strcmp(l->a[i].name, name) == 0) return i;
    return -1;
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

/* Length of the UTF-8 sequence starting at s, or 0 when malformed. */
static int utf8_len(const unsigned char *s)
{
    int n, i;
    if (s[0] < 0x80) return 1;
    if ((s[0] & 0xE0) == 0xC0 && s[0] >= 0xC2) n = 2;
    else if ((s[0] & 0xF0) == 0xE0) n = 3;
    else if ((s[0] & 0xF8) == 0xF0 && s[0] <= 0xF4) n = 4;
    else return 0;
    for (i = 1; i < n; i++)
        if ((s[i] & 0xC0) != 0x80) return 0;
    return n;
}

/*
 * The classic-format rule: a letter, '_' or a multibyte UTF-8 character
 * first; then no control characters and no '/'; no trailing space.
 */
int ncp_name_check(const char *name)
{
    const unsigned char *p = (const unsigned char *)name;
    size_t len;
    if (!name || !*name) return NC_EBADNAME;
    len = strlen(name);
    if (len > NC_MAX_NAME) return NC_EMAXNAME;
    /* PnetCDF and ncgen accept a leading digit too. */
    if (!(p[0] >= 0x80 || p[0] == '_' || (p[0] >= 'a' && p[0] <= 'z') ||
          (p[0] >= 'A' && p[0] <= 'Z') || (p[0] >= '0' && p[0] <= '9')))
        return NC_EBADNAME;
    while (*p) {
        int n = utf8_len(p);
        if (n == 0) return NC_EBADNAME;
        if (n == 1 && (*p < 0x20 || *p == 0x7F || *p == '/'))
            return NC_EBADNAME;
        p += n;
    }
    if (name[len - 1] == ' ') return NC_EBADNAME;
    return NC_NOERR;
}
