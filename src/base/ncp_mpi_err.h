/*
 * ncp_mpi_err.h -- MPI error codes as NC_* codes, for every caller of an
 * MPI-IO function (the mpiio driver, file deletion and info queries).
 */
#ifndef NCP_MPI_ERR_H
#define NCP_MPI_ERR_H

/* The NC_* code closest to MPI error mpierr's class; fallback for a
 * class with no netCDF counterpart, NC_NOERR for MPI_SUCCESS. */
int ncp_mpi_err(int mpierr, int fallback);

#endif
