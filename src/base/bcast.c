/*
 * bcast.c -- the broadcast of ncp_bcast.h, in pieces that fit an int.
 */
#include "ncp_bcast.h"

#include <limits.h>

void ncp_bcast_bytes(void *buf, int64_t n, int64_t chunk, int root,
                     MPI_Comm comm)
{
    int64_t off, piece;
    if (chunk <= 0 || chunk > INT_MAX) chunk = INT_MAX;
    for (off = 0; off < n; off += piece) {
        piece = n - off < chunk ? n - off : chunk;
        MPI_Bcast((char *)buf + off, (int)piece, MPI_BYTE, root, comm);
    }
}
