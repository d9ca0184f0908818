/*
 * ncp_data_args.h -- one data call as the API hands it down: the
 * variable, the subarray form and its coordinates, the user's buffer and
 * its memory type.  Access validates it (ncp_req_build), the engine turns
 * it into ops.
 */
#ifndef NCP_DATA_ARGS_H
#define NCP_DATA_ARGS_H

#include <mpi.h>

#include "../format/ncp_xconv.h"

/* Which subarray form a data call used. */
typedef enum ncp_shape_kind {
    NCP_SHAPE_VAR = 0, /* whole variable (all records for a record var) */
    NCP_SHAPE_VAR1,    /* one element: start */
    NCP_SHAPE_VARA,    /* start, count */
    NCP_SHAPE_VARS,    /* start, count, stride */
    NCP_SHAPE_VARM,    /* start, count, stride, imap */
    NCP_SHAPE_VARN,    /* num subarrays: starts[i], counts[i] (or single
                          elements when counts is NULL), one buffer */
    NCP_SHAPE_VARD     /* filetype: the bytes' layout from the variable's
                          begin (an MPI datatype) */
} ncp_shape_kind;

typedef struct ncp_data_args {
    int ncid;
    int varid;
    ncp_shape_kind kind;
    const MPI_Offset *start;  /* NULL for NCP_SHAPE_VAR */
    const MPI_Offset *count;  /* NULL for VAR and VAR1 */
    const MPI_Offset *stride; /* may be NULL (all ones) */
    const MPI_Offset *imap;   /* may be NULL (natural order) */
    void *buf;                /* const for puts; the API casts */
    MPI_Offset bufcount;      /* flexible form only; NC_COUNT_IGNORE (-1)
                                 means "as counted" */
    MPI_Datatype buftype;     /* flexible form only */
    int mtype;                /* ncp_mtype, or NCP_M_FLEX */
    int is_put;
    int collective;
    int num;                  /* NCP_SHAPE_VARN only */
    MPI_Offset *const *starts;
    MPI_Offset *const *counts;
    MPI_Datatype filetype;    /* NCP_SHAPE_VARD only */
} ncp_data_args;

#endif
