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

/* What ncp_agree returns on a rank that gave `mine` when the reduction
 * gave `all`: `all`, unless it cannot be an agreement of NC_* codes
 * (above `mine`, or no code at all): then another rank was in another
 * collective call, NC_EMULTIDEFINE_FNC_ARGS. */
int ncp_agree_verdict(int mine, int all);

#endif
