/*
 * errors.c -- the entry points that name a status code or the library:
 * PnetCDF's (ncmpi_strerror, ncmpi_strerrno, ncmpi_inq_libvers) and
 * ncpario's own (ncpario_strerror_detail, ncpario_version), over the
 * error table of util/errors.c.  A file of its own so that the tools'
 * validator fuzzer links it with the table alone.
 */
#include "ncpario.h"
#include "pnetcdf.h"
#include "../util/ncp_errors.h"

const char *ncmpi_strerror(int err) { return ncp_strerror(err); }
const char *ncmpi_strerrno(int err) { return ncp_strerrno(err); }
const char *ncmpi_inq_libvers(void) { return ncp_libvers(); }

const char *ncpario_strerror_detail(int err)
{
    return ncp_strerror_detail(err);
}

const char *ncpario_version(void) { return ncp_version(); }
