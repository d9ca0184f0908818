/*
 * ncp_header_build.h -- small helpers that grow an ncp_header one
 * dimension, variable or attribute at a time (src/format/header.c).
 *
 * They keep the invariants listed in ncp_header.h: a dimension of length 0
 * becomes the unlimited one (a second is refused), a variable's dimids must
 * name existing dimensions with the unlimited one only first, and every
 * derived per-variable field that follows from the dimensions alone (shape,
 * is_record, nelems_per_rec) is filled at once.  Layout fields (vsize,
 * begin) are left at 0 for ncp_layout_compute().  Names are copied as given;
 * checking them against the netCDF naming rule is the caller's business.
 * On failure nothing is changed.
 */
#ifndef NCP_HEADER_BUILD_H
#define NCP_HEADER_BUILD_H

#include <stdint.h>

#include "ncp_header.h"

/* Append a dimension; len 0 makes it the unlimited dimension. */
int ncp_hdr_add_dim(ncp_header *h, const char *name, int64_t len, int *dimidp);

/* Append a variable over existing dimensions. */
int ncp_hdr_add_var(ncp_header *h, const char *name, int xtype, int ndims,
                    const int *dimids, int *varidp);

/* Append an attribute whose value is already in external (big-endian)
 * form: nelems * ncp_xtype_size(xtype) bytes at xvalue (may be NULL when
 * nelems is 0). */
int ncp_hdr_add_att(ncp_attlist *l, const char *name, int xtype,
                    int64_t nelems, const void *xvalue);

/* Free the contents of an attribute list and leave it empty. */
void ncp_hdr_attlist_free(ncp_attlist *l);

#endif
