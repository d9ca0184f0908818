/* heldutil.h -- what the tests of held independent puts (t_indep_buffer,
 * t_indep_nb) ask ncpario: whether it holds puts on this file, and how
 * many MPI-IO writes it has made.  Include after testutil.h and
 * have_ncpario.h; the PnetCDF build has neither helper. */
#ifndef NCP_HELDUTIL_H
#define NCP_HELDUTIL_H

#ifdef HAVE_NCPARIO
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

/* Whether ncpario should hold puts here: the posix driver, and a suite
 * run's PNETCDF_HINTS not choosing another size. */
static inline int tu_holds(int nc)
{
    MPI_Info info;
    char drv[MPI_MAX_INFO_VAL + 1] = "";
    const char *env = getenv("PNETCDF_HINTS");
    int flag = 0;
    CHECK_ERR(ncmpi_inq_file_info(nc, &info));
    MPI_Info_get(info, "nc_driver", MPI_MAX_INFO_VAL, drv, &flag);
    MPI_Info_free(&info);
    return flag && strcmp(drv, "posix") == 0 &&
           !(env && strstr(env, "nc_indep_buffer_size"));
}

static inline long long tu_write_calls(int nc)
{
    ncpario_profile p;
    CHECK_ERR(ncpario_inq_profile(nc, &p));
    return p.mpiio_write_calls;
}
#endif

#endif
