/*
 * ncp_access.h -- one request (a variable and a subarray) turned into
 * validated coordinates and then into file extents.  Knows the header
 * model and the I/O extent list; nothing here talks to MPI or the file.
 */
#ifndef NCP_ACCESS_H
#define NCP_ACCESS_H

#include <mpi.h>

#include "ncp_data_args.h"
#include "../format/ncp_header.h"
#include "../base/ncp_extents.h"

typedef struct ncp_req {
    const ncp_var *var;
    int ndims;
    MPI_Offset *start;  /* ndims entries each (one allocation) */
    MPI_Offset *count;
    MPI_Offset *stride;
    MPI_Offset *imap;   /* NULL when the memory layout is natural */
    int64_t nelems;     /* product of count */
    int64_t end_rec;    /* one past the last record touched (rec vars);
                           start[0] when count[0] is 0 */
    ncp_extents *given; /* vard: the extents, relative to the variable's
                           begin, in file order; NULL otherwise */
} ncp_req;

/*
 * Validate a.kind's coordinates against the variable's shape (numrecs for
 * the record dimension of a get) and fill r.  Returns NC_EINVALCOORDS,
 * NC_EEDGE, NC_ESTRIDE, NC_ENULLSTART, NC_ENULLCOUNT, NC_ENEGATIVECNT ...
 */
int ncp_req_build(const ncp_header *h, const ncp_var *v,
                  const ncp_data_args *a, ncp_req *r);
void ncp_req_free(ncp_req *r);

/* The vard form (vard.c), called by ncp_req_build: a.filetype flattened
 * into r->given.  NC_ETYPE_MISMATCH, NC_EUNSPTETYPE, NC_EMULTITYPES for a
 * file type not built from the variable's own MPI type; NC_EFILE for one
 * whose type map overlaps, runs backwards or starts before the variable;
 * NC_EIOMISMATCH for a negative bufcount.  On error the caller frees r. */
int ncp_req_build_vard(const ncp_header *h, const ncp_var *v,
                       const ncp_data_args *a, ncp_req *r);

/* The type map of t as byte extents in type-map order, adjacent ones
 * merged (dtype_flat.c); *base is the one predefined type t is built
 * from (MPI_DATATYPE_NULL when t is empty).  NC_EMULTITYPES when t mixes
 * predefined types. */
int ncp_dtype_flatten(MPI_Datatype t, ncp_extents *e, MPI_Datatype *base);

/* A predefined Fortran type (MPI_REAL, MPI_INTEGER8, MPI_CHARACTER, ...)
 * as the C type of the same kind and size (mpi_named.c), so that element
 * types are known by one name; any other type is returned unchanged. */
MPI_Datatype ncp_mpi_named_as_c(MPI_Datatype t);

/* Append r's file extents (ascending) to e. */
int ncp_req_extents(const ncp_header *h, const ncp_req *r, ncp_extents *e);
/* How many runs ncp_req_extents walks for r, counted without walking
 * them: at least as many as the extents it appends, which joins runs that
 * happen to touch (records with no gap between them). */
int64_t ncp_req_nextents(const ncp_req *r);

/* Gather (put) or scatter (get) elements of size esize between a user
 * buffer laid out by r->imap and a contiguous row-major buffer. */
int ncp_req_imap_copy(const ncp_req *r, size_t esize, void *user,
                      void *contig, int to_contig);

#endif
