/*
 * ncp_stream.h -- one rank's transfer seen as a byte stream: the bytes of
 * its sorted file extents, in file order, held by its memory pieces in
 * the same order.  The exchanges of the aggregated paths (the posix
 * driver's, the I/O groups') cut this stream into ranges, each shipped to or from another
 * rank as one message; the helpers here map a stream range to file
 * extents and to a datatype over the memory that needs no packing.
 */
#ifndef NCP_STREAM_H
#define NCP_STREAM_H

#include "ncp_extents.h"
#include "ncp_runmerge.h"

typedef struct ncp_stream {
    const ncp_extents *ext, *mem;
    MPI_Offset *ext_at; /* stream position of each extent's first byte, n+1 */
    MPI_Offset *mem_at; /* stream position of each memory piece, n+1 */
} ncp_stream;

/* NC_ENOMEM when the prefix sums cannot be allocated; ncp_stream_free
 * is safe after either outcome. */
int ncp_stream_init(ncp_stream *s, const ncp_extents *ext,
                    const ncp_extents *mem);
void ncp_stream_free(ncp_stream *s);

/* The first extent of e ending after file offset x (e->n if none). */
int64_t ncp_first_ending_after(const ncp_extents *e, MPI_Offset x);

/* How many extents of e touch the file window [lo, hi) (lo < hi): the
 * pairs ncp_stream_clip yields for it. */
int64_t ncp_extents_touching(const ncp_extents *e, MPI_Offset lo,
                             MPI_Offset hi);

/* The stream range [*s0, *s1) holding the bytes in file window [lo, hi)
 * (empty: *s0 == *s1); extents ascend, so the range is contiguous. */
void ncp_stream_window(const ncp_stream *s, MPI_Offset lo, MPI_Offset hi,
                       MPI_Offset *s0, MPI_Offset *s1);

/* This rank's bytes in the file window [lo, hi): the extents clipped to
 * it, stored in pairs as (offset, length) and counted in the return
 * value, and the stream range [*s0, *s1) holding their bytes (contiguous,
 * since extents ascend).  pairs needs room for every extent touching the
 * window. */
int64_t ncp_stream_clip(const ncp_stream *s, MPI_Offset lo, MPI_Offset hi,
                        MPI_Offset *pairs, MPI_Offset *s0, MPI_Offset *s1);

/* Append the memory pieces of stream range [s0, s1) to out (addresses
 * as MPI_Offset, as in an ncp_extents memory list). */
int ncp_stream_mem_add(const ncp_stream *s, MPI_Offset s0, MPI_Offset s1,
                       ncp_extents *out);

/* The memory blocks holding stream range [s0, s1) (s0 < s1): how many,
 * and, unless blen is NULL, their lengths and absolute addresses in
 * blen[] and disp[]. */
int64_t ncp_stream_blocks(const ncp_stream *s, MPI_Offset s0, MPI_Offset s1,
                          int *blen, MPI_Aint *disp);

/* A committed datatype over the memory of stream range [s0, s1) (s0 < s1):
 * hindexed bytes at absolute addresses, used from MPI_BOTTOM. */
int ncp_stream_type(const ncp_stream *s, MPI_Offset s0, MPI_Offset s1,
                    MPI_Datatype *t);

/* Copy the bytes of stream range [s0, s1) into dst (s1 - s0 bytes) as
 * the file is to hold them: the elements of pieces with a swap width
 * byte-reversed, every other byte as it is. */
void ncp_stream_copy(const ncp_stream *s, MPI_Offset s0, MPI_Offset s1,
                     char *dst);

/* The other way, for memory without swap widths: the s1 - s0 bytes at
 * src into the memory of stream range [s0, s1). */
void ncp_stream_fill(const ncp_stream *s, MPI_Offset s0, MPI_Offset s1,
                     const char *src);

#endif
