/*
 * att.c -- the attribute value functions: ncmpi_put_att / ncmpi_get_att
 * (untyped), ncmpi_{put,get}_att_text, and ncmpi_{put,get}_att_<type> for
 * the types of NCP_API_ATT_TYPES (ncp_api.h).
 *
 * Each only names the memory type of the caller's buffer and forwards to
 * ncp_att_put / ncp_att_get (src/dataset/), which own validation,
 * conversion and the header change.  The untyped forms pass NCP_M_FLEX:
 * their buffer holds the C type that matches the attribute's external type.
 * Text attributes are NC_CHAR by definition, hence no xtype argument.
 */
#include "ncp_api.h"

int ncmpi_put_att(int ncid, int varid, const char *name, nc_type xtype,
                  MPI_Offset nelems, const void *value)
{
    return ncp_att_put(ncid, varid, name, xtype, nelems, value, NCP_M_FLEX);
}

int ncmpi_get_att(int ncid, int varid, const char *name, void *value)
{
    return ncp_att_get(ncid, varid, name, value, NCP_M_FLEX);
}

int ncmpi_put_att_text(int ncid, int varid, const char *name, MPI_Offset len,
                       const char *op)
{
    return ncp_att_put(ncid, varid, name, NC_CHAR, len, op, NCP_M_TEXT);
}

int ncmpi_get_att_text(int ncid, int varid, const char *name, char *ip)
{
    return ncp_att_get(ncid, varid, name, ip, NCP_M_TEXT);
}

/* The MPI datatype column of the table is not needed for attributes. */
#define NCP_GEN_ATT(t, T, mt, mpit)                                         \
    int ncmpi_put_att_##t(int ncid, int varid, const char *name,            \
                          nc_type xtype, MPI_Offset len, const T *op)       \
    {                                                                       \
        return ncp_att_put(ncid, varid, name, xtype, len, op, mt);          \
    }                                                                       \
    int ncmpi_get_att_##t(int ncid, int varid, const char *name, T *ip)     \
    {                                                                       \
        return ncp_att_get(ncid, varid, name, ip, mt);                      \
    }

NCP_API_ATT_TYPES(NCP_GEN_ATT)
