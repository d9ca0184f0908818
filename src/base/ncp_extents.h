/*
 * ncp_extents.h -- a list of byte extents: file extents (offset, length),
 * ascending and disjoint, or memory pieces (address cast to MPI_Offset,
 * length) in the order of a transfer's bytes.  Access builds them, the
 * engine merges them, the I/O layer moves their bytes.
 */
#ifndef NCP_EXTENTS_H
#define NCP_EXTENTS_H

#include <mpi.h>
#include <stdint.h>

typedef struct ncp_extents {
    int64_t n;      /* number of extents */
    int64_t cap;
    MPI_Offset *off; /* file offsets, ascending */
    MPI_Offset *len; /* byte lengths, > 0 */
    int64_t nbytes;  /* sum of len */
    /* Memory lists only, NULL when unused: per piece, the width of the
     * elements whose bytes the driver reverses on their way to the file
     * (write) or into memory (read); 0: bytes as they are.  A piece with
     * width w starts on an element and holds whole elements. */
    unsigned char *swap;
} ncp_extents;

void ncp_extents_init(ncp_extents *e);
void ncp_extents_free(ncp_extents *e);
/* Empty, keeping the offsets' and lengths' storage for the next list. */
void ncp_extents_clear(ncp_extents *e);
/* The bytes of storage e holds. */
int64_t ncp_extents_storage(const ncp_extents *e);
/* Append (off, len); merges with the previous extent when adjacent. */
int ncp_extents_add(ncp_extents *e, MPI_Offset off, MPI_Offset len);
/* Room for n entries at once (an upper bound known beforehand), so a long
 * list is not copied as it grows; pages never written cost nothing. */
int ncp_extents_reserve(ncp_extents *e, int64_t n);
/* The same for a memory piece whose elements of `width` bytes are to be
 * byte-reversed on the way out (width <= 1: none); merges only with a
 * piece of the same width. */
int ncp_extents_add_swapped(ncp_extents *e, MPI_Offset off, MPI_Offset len,
                            int width);

#endif
