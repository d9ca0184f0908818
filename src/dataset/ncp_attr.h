/*
 * ncp_attr.h -- the entry points every attribute function of src/api/
 * funnels into (attr.c), which own validation, conversion and the
 * collective checks.
 */
#ifndef NCP_ATTR_H
#define NCP_ATTR_H

#include <mpi.h>

#include "../format/ncp_xconv.h"

/*
 * Attribute values.  mtype is the memory type of buf; NCP_M_FLEX here means
 * the untyped ncmpi_put_att/ncmpi_get_att: buf holds the C type that matches
 * the attribute's external type.
 */
int ncp_att_put(int ncid, int varid, const char *name, int xtype,
                MPI_Offset nelems, const void *buf, int mtype);
int ncp_att_get(int ncid, int varid, const char *name, void *buf, int mtype);

#endif
