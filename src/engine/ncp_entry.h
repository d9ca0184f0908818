/*
 * ncp_entry.h -- the few internal entry points that every generated API
 * function of src/api/ funnels into.  The public families (12 typed forms x
 * var/var1/vara/vars/varm x put/get x collective/independent, plus the
 * flexible form and the attribute families) are thin expansions of one
 * X-macro table; all behaviour lives behind these calls.
 */
#ifndef NCP_ENTRY_H
#define NCP_ENTRY_H

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

/* mtype value for the flexible form: the element type comes from buftype. */
#define NCP_M_FLEX (-1)

typedef struct ncp_data_args {
    int ncid;
    int varid;
    ncp_shape_kind kind;
    const MPI_Offset *start;  /* NULL for NCP_SHAPE_VAR */
    const MPI_Offset *count;  /* NULL for VAR and VAR1 */
    const MPI_Offset *stride; /* may be NULL (all ones) */
    const MPI_Offset *imap;   /* may be NULL (natural order) */
    void *buf;                /* const for puts; the API casts */
    MPI_Offset bufcount;      /* flexible form only; -1 means "as counted" */
    MPI_Datatype buftype;     /* flexible form only */
    int mtype;                /* ncp_mtype, or NCP_M_FLEX */
    int is_put;
    int collective;
    int num;                  /* NCP_SHAPE_VARN only */
    MPI_Offset *const *starts;
    MPI_Offset *const *counts;
    MPI_Datatype filetype;    /* NCP_SHAPE_VARD only */
} ncp_data_args;

/* One blocking put or get (any shape, varn included); the whole blocking
 * data family funnels here. */
int ncp_data_access(const ncp_data_args *a);

/* iput/iget (bput: is_bput) of one call; *reqid gets the request id. */
int ncp_data_post(const ncp_data_args *a, int is_bput, int *reqid);

/* mput/mget: n calls on dataset ncid (every a[i] with the same ncid,
 * is_put and collective), flushed together in one MPI-IO call.  A
 * collective call with n == 0 still joins the others' I/O. */
int ncp_data_multi(int ncid, int is_put, int collective,
                   const ncp_data_args *a, int n);

/*
 * Attribute values.  mtype is the memory type of buf; NCP_M_FLEX here means
 * the untyped ncmpi_put_att/ncmpi_get_att: buf holds the C type that matches
 * the attribute's external type.
 */
int ncp_att_put(int ncid, int varid, const char *name, int xtype,
                MPI_Offset nelems, const void *buf, int mtype);
int ncp_att_get(int ncid, int varid, const char *name, void *buf, int mtype);

#endif
