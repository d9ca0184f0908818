/*
 * agree.c -- the error agreement of ncp_agree.h: one MPI_MIN allreduce,
 * since every NC_* error is negative and NC_NOERR is 0.
 */
#include "ncp_agree.h"

#include "pnetcdf.h"
#include "../util/ncp_errors.h"

/* A minimum above this rank's own code, or one no code has, means another
 * rank was in a different collective call (a program error MPI cannot
 * catch when the shapes happen to match); that is reported as an NC_*
 * code rather than passed on as whatever the other call reduced. */
int ncp_agree_verdict(int mine, int all)
{
    if (all > mine || !ncp_error_known(all)) return NC_EMULTIDEFINE_FNC_ARGS;
    return all;
}

int ncp_agree(MPI_Comm comm, int err)
{
    int all = err;
    MPI_Allreduce(&err, &all, 1, MPI_INT, MPI_MIN, comm);
    return all == err ? err : ncp_agree_verdict(err, all);
}
