/*
 * bench_pnc.c -- the helpers of bench_common.h that need the PnetCDF API;
 * linked only into programs built against ncpario or PnetCDF.
 */
#include "bench_common.h"

#include <pnetcdf.h>
#include <stdio.h>

int bench_create_mode(int format)
{
    switch (format) {
    case 2:
        return NC_CLOBBER | NC_64BIT_OFFSET;
    case 5:
        return NC_CLOBBER | NC_64BIT_DATA;
    default:
        return NC_CLOBBER;
    }
}

void bench_require(const char *prog, int err, const char *what, int rank,
                   MPI_Comm comm)
{
    if (err != NC_NOERR) {
        fprintf(stderr, "%s: rank %d: %s failed: %s\n", prog, rank, what,
                ncmpi_strerror(err));
        MPI_Abort(comm, 1);
    }
}
