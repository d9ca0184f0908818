/*
 * calls.c -- the entry points no table lists (entry.c expands those):
 * the ones that are a narrower question of another
 * (ncmpi_inq_ndims is ncmpi_inq's second answer), those on no dataset
 * (create, open, formats), ncpario_inq_profile, and the ones PnetCDF's
 * ordinary builds answer NC_ENOTENABLED.  The error texts are in
 * errors.c.
 */
#include "ncpario.h"
#include "pnetcdf.h"
#include "../dataset/ncp_dataset.h"

int ncmpi_inq_ndims(int ncid, int *p)
{
    return ncmpi_inq(ncid, p, NULL, NULL, NULL);
}

int ncmpi_inq_nvars(int ncid, int *p)
{
    return ncmpi_inq(ncid, NULL, p, NULL, NULL);
}

int ncmpi_inq_natts(int ncid, int *p)
{
    return ncmpi_inq(ncid, NULL, NULL, p, NULL);
}

int ncmpi_inq_unlimdim(int ncid, int *p)
{
    return ncmpi_inq(ncid, NULL, NULL, NULL, p);
}

int ncmpi_inq_dimname(int ncid, int dimid, char *name)
{
    return ncmpi_inq_dim(ncid, dimid, name, NULL);
}

int ncmpi_inq_dimlen(int ncid, int dimid, MPI_Offset *lenp)
{
    return ncmpi_inq_dim(ncid, dimid, NULL, lenp);
}

int ncmpi_inq_varname(int ncid, int varid, char *name)
{
    return ncmpi_inq_var(ncid, varid, name, NULL, NULL, NULL, NULL);
}

int ncmpi_inq_vartype(int ncid, int varid, nc_type *xtypep)
{
    return ncmpi_inq_var(ncid, varid, NULL, xtypep, NULL, NULL, NULL);
}

int ncmpi_inq_varndims(int ncid, int varid, int *ndimsp)
{
    return ncmpi_inq_var(ncid, varid, NULL, NULL, ndimsp, NULL, NULL);
}

int ncmpi_inq_vardimid(int ncid, int varid, int *dimids)
{
    return ncmpi_inq_var(ncid, varid, NULL, NULL, NULL, dimids, NULL);
}

int ncmpi_inq_varnatts(int ncid, int varid, int *nattsp)
{
    if (varid == NC_GLOBAL) return ncmpi_inq_natts(ncid, nattsp);
    return ncmpi_inq_var(ncid, varid, NULL, NULL, NULL, NULL, nattsp);
}

int ncmpi_inq_atttype(int ncid, int varid, const char *name, nc_type *xtypep)
{
    return ncmpi_inq_att(ncid, varid, name, xtypep, NULL);
}

int ncmpi_inq_attlen(int ncid, int varid, const char *name, MPI_Offset *lenp)
{
    return ncmpi_inq_att(ncid, varid, name, NULL, lenp);
}

int ncmpi_get_file_info(int ncid, MPI_Info *info_used)
{
    return ncmpi_inq_file_info(ncid, info_used);
}

/* ------------------------------------------------------- no dataset yet */

int ncmpi_create(MPI_Comm comm, const char *path, int cmode, MPI_Info info,
                 int *ncidp)
{
    return ncp_ds_create(comm, path, cmode, info, ncidp);
}

int ncmpi_open(MPI_Comm comm, const char *path, int omode, MPI_Info info,
               int *ncidp)
{
    return ncp_ds_open(comm, path, omode, info, ncidp);
}

int ncmpi_delete(const char *filename, MPI_Info info)
{
    return ncp_ds_delete(filename, info);
}

int ncmpi_set_default_format(int format, int *old_formatp)
{
    return ncp_ds_set_default_format(format, old_formatp);
}

int ncmpi_inq_default_format(int *formatp)
{
    return ncp_ds_inq_default_format(formatp);
}

int ncmpi_inq_file_format(const char *filename, int *formatp)
{
    return ncp_ds_inq_file_format(filename, formatp);
}

int ncmpi_inq_files_opened(int *num, int *ncids)
{
    return ncp_ds_inq_files_opened(num, ncids);
}


int ncpario_inq_profile(int ncid, ncpario_profile *prof)
{
    ncp_dataset *ds;
    int err = ncp_dataset_get(ncid, &ds);
    return err != NC_NOERR ? err : ncp_ds_inq_profile(ds, prof);
}

/* PnetCDF tracks its allocations only when built for debugging; like its
 * ordinary builds, ncpario does not. */
int ncmpi_inq_malloc_size(MPI_Offset *size)
{
    (void)size;
    return NC_ENOTENABLED;
}

int ncmpi_inq_malloc_max_size(MPI_Offset *size)
{
    (void)size;
    return NC_ENOTENABLED;
}

int ncmpi_inq_malloc_list(void) { return NC_ENOTENABLED; }
