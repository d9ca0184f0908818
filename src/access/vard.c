/*
 * vard.c -- the coordinates of a vard request: an MPI datatype that lays
 * out the request's bytes in the file, relative to the variable's begin.
 *
 * The file type's type map becomes the request's extents (dtype_flat.c).
 * As with a file view, the map must only move forward: the extents may
 * touch but not overlap or run backwards, and none may precede the
 * variable's begin.  It must be built from the one MPI type that matches
 * the variable's external type, so that its size counts elements.  The
 * extents are not bounded by the variable (a type may reach into the
 * variables that follow, or, for a record variable, into later records:
 * records are recsize bytes apart and the caller strides over them).
 */
#include <stdlib.h>
#include <string.h>

#include "ncp_access.h"
#include "pnetcdf.h"

/* The external type a predefined MPI type stands for in a file type;
 * NC_NAT for the ones that match none, -1 for the ones vard rejects. */
static int xtype_of_mpi(MPI_Datatype t)
{
    if (t == MPI_SIGNED_CHAR) return NC_BYTE;
    if (t == MPI_CHAR) return NC_CHAR;
    if (t == MPI_UNSIGNED_CHAR) return NC_UBYTE;
    if (t == MPI_SHORT) return NC_SHORT;
    if (t == MPI_UNSIGNED_SHORT) return NC_USHORT;
    if (t == MPI_INT) return NC_INT;
    if (t == MPI_UNSIGNED) return NC_UINT;
    if (t == MPI_FLOAT) return NC_FLOAT;
    if (t == MPI_DOUBLE) return NC_DOUBLE;
    if (t == MPI_LONG_LONG_INT) return NC_INT64;
    if (t == MPI_UNSIGNED_LONG_LONG) return NC_UINT64;
    /* Known to the flexible API, but never an external type's match. */
    if (t == MPI_BYTE || t == MPI_LONG || t == MPI_UNSIGNED_LONG)
        return NC_NAT;
    return -1;
}

/* Forward only, from the variable's begin on. */
static int check_order(const ncp_extents *e)
{
    int64_t i;
    for (i = 0; i < e->n; i++) {
        if (e->off[i] < 0) return NC_EFILE;
        if (i > 0 && e->off[i] < e->off[i - 1] + e->len[i - 1])
            return NC_EFILE;
    }
    return NC_NOERR;
}

int ncp_req_build_vard(const ncp_header *h, const ncp_var *v,
                       const ncp_data_args *a, ncp_req *r)
{
    MPI_Datatype base = MPI_DATATYPE_NULL;
    ncp_extents *e = NULL;
    int err = NC_NOERR, x;
    /* A zero count of a real buftype moves nothing, as in PnetCDF; a null
     * buftype means the filetype's worth of the variable's own type. */
    int empty = a->bufcount == 0 && a->buftype != MPI_DATATYPE_NULL;

    memset(r, 0, sizeof(*r));
    r->var = v;
    if (a->filetype == MPI_DATATYPE_NULL) return NC_NOERR; /* moves nothing */
    if (!(e = malloc(sizeof(*e)))) return NC_ENOMEM;
    if ((err = ncp_dtype_flatten(a->filetype, e, &base)) != NC_NOERR) {
        free(e);
        return err;
    }
    r->given = e;
    /* A type that selects nothing has no element type to disagree. */
    x = e->n == 0 ? v->xtype : xtype_of_mpi(base);
    if (x < 0) err = NC_EUNSPTETYPE;
    else if (x != v->xtype) err = NC_ETYPE_MISMATCH;
    /* Unlike the other flexible calls, bufcount is always a count here. */
    else if (a->bufcount < 0 && a->buftype != MPI_DATATYPE_NULL)
        err = NC_EIOMISMATCH;
    else if (!empty) err = check_order(e);
    if (err != NC_NOERR) return err;
    /* The records the type reaches count even when nothing is moved. */
    if (v->is_record && e->n > 0) {
        int64_t i, end = 0;
        for (i = 0; i < e->n; i++)
            if (e->off[i] + e->len[i] > end) end = e->off[i] + e->len[i];
        r->end_rec = (end + h->recsize - 1) / h->recsize;
    }
    /* CDF-1/2 hold numrecs in 32 bits, as for the other puts. */
    if (a->is_put && v->is_record && h->format != NCP_CDF5 &&
        r->end_rec > INT32_MAX)
        return NC_EINTOVERFLOW;
    r->nelems = empty ? 0 : e->nbytes / ncp_xtype_size(v->xtype);
    return NC_NOERR;
}
