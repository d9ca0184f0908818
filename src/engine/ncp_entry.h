/*
 * ncp_entry.h -- the few internal entry points that every data function
 * of src/api/ funnels into (queue.c).  The public families (12 typed forms
 * x var/var1/vara/vars/varm x put/get x collective/independent, plus the
 * flexible form) are thin expansions of one X-macro table; all behaviour
 * lives behind these calls.  The attribute families funnel into
 * dataset/ncp_attr.h.
 */
#ifndef NCP_ENTRY_H
#define NCP_ENTRY_H

#include "../access/ncp_data_args.h"

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

#endif
