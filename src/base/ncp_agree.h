/*
 * ncp_agree.h -- the one agreement every collective call ends with: each
 * rank brings its own NC_* code and all leave with the worst of them, so
 * no rank branches where another does not.
 */
#ifndef NCP_AGREE_H
#define NCP_AGREE_H

#include <mpi.h>

/* Collective over comm: every rank returns the most negative code given
 * (NC_NOERR only when every rank gave NC_NOERR). */
int ncp_agree(MPI_Comm comm, int err);

#endif
