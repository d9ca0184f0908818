/*
 * ncp_api.h -- the one table of in-memory element types behind every typed
 * public function, and the request builder the data entry points share.
 *
 * Owns: the mapping name suffix -> C type -> ncp_mtype -> MPI datatype.
 * Every typed family in src/api/ is expanded from these lists, so adding or
 * correcting a type happens here and nowhere else.  The public prototypes in
 * pnetcdf.h (from include/pnetcdf.h.in) are included first, so the compiler
 * checks that each generated definition matches the declaration a program
 * sees.
 *
 * Invariant: the generated functions do no work of their own; they only
 * describe the call (ncp_data_args, or the attribute arguments) and hand it
 * to the engine's entry points (data) or the dataset's (attributes), which
 * validate everything.
 */
#ifndef NCP_API_H
#define NCP_API_H

#include <stddef.h>
#include <string.h>

#include "pnetcdf.h"
#include "../engine/ncp_entry.h"
#include "../dataset/ncp_attr.h"

/*
 * X(suffix, C type, ncp_mtype, MPI datatype) for the eleven numeric types.
 * NCP_API_DATA_TYPES adds text (the twelve forms of each data family);
 * NCP_API_ATT_TYPES adds ubyte, a second spelling of uchar that only the
 * attribute functions have (put_att_text is separate: it takes no xtype).
 */
#define NCP_API_NUMERIC_TYPES(X)                                           \
    X(schar, signed char, NCP_M_SCHAR, MPI_SIGNED_CHAR)                    \
    X(uchar, unsigned char, NCP_M_UCHAR, MPI_UNSIGNED_CHAR)                \
    X(short, short, NCP_M_SHORT, MPI_SHORT)                                \
    X(ushort, unsigned short, NCP_M_USHORT, MPI_UNSIGNED_SHORT)            \
    X(int, int, NCP_M_INT, MPI_INT)                                        \
    X(uint, unsigned int, NCP_M_UINT, MPI_UNSIGNED)                        \
    X(long, long, NCP_M_LONG, MPI_LONG)                                    \
    X(float, float, NCP_M_FLOAT, MPI_FLOAT)                                \
    X(double, double, NCP_M_DOUBLE, MPI_DOUBLE)                            \
    X(longlong, long long, NCP_M_LONGLONG, MPI_LONG_LONG_INT)              \
    X(ulonglong, unsigned long long, NCP_M_ULONGLONG, MPI_UNSIGNED_LONG_LONG)

#define NCP_API_DATA_TYPES(X)                \
    X(text, char, NCP_M_TEXT, MPI_CHAR)      \
    NCP_API_NUMERIC_TYPES(X)

#define NCP_API_ATT_TYPES(X)                 \
    NCP_API_NUMERIC_TYPES(X)                 \
    X(ubyte, unsigned char, NCP_M_UCHAR, MPI_UNSIGNED_CHAR)

/*
 * Describe one data call.  Unused subarray vectors are NULL; typed forms
 * pass bufcount -1 ("as many elements as the subarray selects") and the
 * MPI datatype of their C type; flexible forms pass the caller's
 * bufcount/buftype and NCP_M_FLEX.  buf loses its const here, once,
 * because ncp_data_args carries one pointer for puts and gets alike.
 */
static inline ncp_data_args ncp_api_args(int ncid, int varid,
                                         ncp_shape_kind kind,
                                         const MPI_Offset *start,
                                         const MPI_Offset *count,
                                         const MPI_Offset *stride,
                                         const MPI_Offset *imap,
                                         const void *buf, MPI_Offset bufcount,
                                         MPI_Datatype buftype, int mtype,
                                         int is_put, int collective)
{
    ncp_data_args a;
    memset(&a, 0, sizeof a);
    a.ncid = ncid;
    a.varid = varid;
    a.kind = kind;
    a.start = start;
    a.count = count;
    a.stride = stride;
    a.imap = imap;
    a.buf = (void *)buf;
    a.bufcount = bufcount;
    a.buftype = buftype;
    a.mtype = mtype;
    a.is_put = is_put;
    a.collective = collective;
    return a;
}

/* A blocking call of one subarray. */
static inline int ncp_api_data(int ncid, int varid, ncp_shape_kind kind,
                               const MPI_Offset *start,
                               const MPI_Offset *count,
                               const MPI_Offset *stride,
                               const MPI_Offset *imap, const void *buf,
                               MPI_Offset bufcount, MPI_Datatype buftype,
                               int mtype, int is_put, int collective)
{
    ncp_data_args a = ncp_api_args(ncid, varid, kind, start, count, stride,
                                   imap, buf, bufcount, buftype, mtype,
                                   is_put, collective);
    return ncp_data_access(&a);
}

/* A nonblocking post (iput, iget; bput when is_bput) of one subarray. */
static inline int ncp_api_post(int ncid, int varid, ncp_shape_kind kind,
                               const MPI_Offset *start,
                               const MPI_Offset *count,
                               const MPI_Offset *stride,
                               const MPI_Offset *imap, const void *buf,
                               MPI_Offset bufcount, MPI_Datatype buftype,
                               int mtype, int is_put, int is_bput, int *req)
{
    ncp_data_args a = ncp_api_args(ncid, varid, kind, start, count, stride,
                                   imap, buf, bufcount, buftype, mtype,
                                   is_put, 0);
    return ncp_data_post(&a, is_bput, req);
}

/* num subarrays of one variable and one buffer: blocking unless posted
 * (collective as given), else posted (bput when is_bput) with its id in
 * *req.  A posted call may pass req NULL, as E3SM does: the request is
 * still queued, and wait_all(NC_REQ_ALL) completes it. */
static inline int ncp_api_varn(int ncid, int varid, int num,
                               MPI_Offset *const *starts,
                               MPI_Offset *const *counts, const void *buf,
                               MPI_Offset bufcount, MPI_Datatype buftype,
                               int mtype, int is_put, int collective,
                               int posted, int is_bput, int *req)
{
    ncp_data_args a = ncp_api_args(ncid, varid, NCP_SHAPE_VARN, NULL, NULL,
                                   NULL, NULL, buf, bufcount, buftype, mtype,
                                   is_put, collective);
    a.num = num;
    a.starts = starts;
    a.counts = counts;
    return posted ? ncp_data_post(&a, is_bput, req) : ncp_data_access(&a);
}

#endif /* NCP_API_H */
