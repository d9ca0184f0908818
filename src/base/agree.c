/*
 * agree.c -- the error agreement of ncp_agree.h: one MPI_MIN allreduce,
 * since every NC_* error is negative and NC_NOERR is 0.
 */
#include "ncp_agree.h"

int ncp_agree(MPI_Comm comm, int err)
{
    int all = err;
    MPI_Allreduce(&err, &all, 1, MPI_INT, MPI_MIN, comm);
    return all;
}
