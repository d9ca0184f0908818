/*
 * mpi_err.c -- the MPI error class to NC_* code table (ncp_mpi_err.h).
 */
#include "ncp_mpi_err.h"

#include <mpi.h>

#include "pnetcdf.h"

int ncp_mpi_err(int mpierr, int fallback)
{
    int cls = 0;
    if (mpierr == MPI_SUCCESS) return NC_NOERR;
    MPI_Error_class(mpierr, &cls);
    switch (cls) {
    case MPI_ERR_NO_SUCH_FILE: return NC_ENOENT;
    case MPI_ERR_FILE_EXISTS: return NC_EEXIST;
    case MPI_ERR_ACCESS: return NC_EACCESS;
    case MPI_ERR_READ_ONLY: return NC_EPERM;
    case MPI_ERR_NO_SPACE: return NC_ENO_SPACE;
    case MPI_ERR_QUOTA: return NC_EQUOTA;
    case MPI_ERR_BAD_FILE: return NC_EBAD_FILE;
    case MPI_ERR_AMODE: return NC_EINVAL_OMODE;
    default: return fallback;
    }
}
