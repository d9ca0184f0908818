/*
 * ncp_engine.h -- from a validated request to one MPI-IO call.  Today a
 * blocking call is a queue of one, flushed at once; the nonblocking queue
 * (iput/iget/bput, mput, varn) extends the same path.
 */
#ifndef NCP_ENGINE_H
#define NCP_ENGINE_H

#include <mpi.h>
#include <stdint.h>

#include "../dataset/ncp_entry.h"

/* The user's buffer as the engine sees it. */
typedef struct ncp_membuf {
    void *user;
    int mtype;            /* ncp_mtype of each element */
    int contiguous;       /* elements lie back to back from user */
    MPI_Datatype buftype; /* flexible noncontiguous: pack with this */
    int64_t count;        /* ... this many times */
} ncp_membuf;

int ncp_membuf_describe(const ncp_data_args *a, int var_xtype,
                        int64_t nelems, ncp_membuf *m);
int ncp_membuf_pack(const ncp_membuf *m, MPI_Comm comm, void *contig,
                    int64_t nbytes);
int ncp_membuf_unpack(const ncp_membuf *m, MPI_Comm comm, const void *contig,
                      int64_t nbytes);

#endif
