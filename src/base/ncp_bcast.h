/*
 * ncp_bcast.h -- a broadcast of any number of bytes.  MPI counts are ints,
 * so a header or an attribute of 2 GiB or more would not fit one call
 * (MPI_ERR_COUNT aborts the job); it goes in pieces of at most chunk bytes
 * instead.  Every rank must pass the same n and chunk.
 */
#ifndef NCP_BCAST_H
#define NCP_BCAST_H

#include <mpi.h>
#include <stdint.h>

/* Collective over comm: root's n bytes at buf reach every rank's buf, in
 * broadcasts of at most chunk bytes (chunk > 0; at most INT_MAX is used). */
void ncp_bcast_bytes(void *buf, int64_t n, int64_t chunk, int root,
                     MPI_Comm comm);

#endif
