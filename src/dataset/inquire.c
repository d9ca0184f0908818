/*
 * inquire.c -- read-only questions about a dataset's header model.  None of
 * these calls is collective; every output pointer may be NULL.
 */
#include <stdlib.h>
#include <string.h>

#include "ncp_dataset.h"
#include "pnetcdf.h"

static int count_rec_vars(const ncp_header *h)
{
    int i, n = 0;
    for (i = 0; i < h->nvars; i++) n += h->vars[i].is_record;
    return n;
}

int ncp_ds_inq(ncp_dataset *ds, int *ndimsp, int *nvarsp, int *nattsp,
               int *unlimp)
{
    if (ndimsp) *ndimsp = ds->hdr.ndims;
    if (nvarsp) *nvarsp = ds->hdr.nvars;
    if (nattsp) *nattsp = ds->hdr.gatts.n;
    if (unlimp) *unlimp = ds->hdr.unlimdimid;
    return NC_NOERR;
}


int ncp_ds_inq_dimid(ncp_dataset *ds, const char *name, int *idp)
{
    int err, i = -1;
    if ((err = ncp_find_dim_named(ds, name, &i)) != NC_NOERR) return err;
    if (i < 0) return NC_EBADDIM;
    if (idp) *idp = i;
    return NC_NOERR;
}

int ncp_ds_inq_dim(ncp_dataset *ds, int dimid, char *name, MPI_Offset *lenp)
{
    if (dimid < 0 || dimid >= ds->hdr.ndims) return NC_EBADDIM;
    if (name) strcpy(name, ds->hdr.dims[dimid].name);
    if (lenp)
        *lenp = dimid == ds->hdr.unlimdimid ? ds->hdr.numrecs
                                            : ds->hdr.dims[dimid].len;
    return NC_NOERR;
}

int ncp_ds_inq_varid(ncp_dataset *ds, const char *name, int *varidp)
{
    int err, i = -1;
    if ((err = ncp_find_var_named(ds, name, &i)) != NC_NOERR) return err;
    if (i < 0) return NC_ENOTVAR;
    if (varidp) *varidp = i;
    return NC_NOERR;
}

int ncp_ds_inq_var(ncp_dataset *ds, int varid, char *name, nc_type *xtypep,
                   int *ndimsp, int *dimids, int *nattsp)
{
    int err;
    ncp_var *v;
    if ((err = ncp_var_get(ds, varid, &v)) != NC_NOERR) return err;
    if (name) strcpy(name, v->name);
    if (xtypep) *xtypep = v->xtype;
    if (ndimsp) *ndimsp = v->ndims;
    if (dimids && v->ndims)
        memcpy(dimids, v->dimids, (size_t)v->ndims * sizeof(int));
    if (nattsp) *nattsp = v->atts.n;
    return NC_NOERR;
}

int ncp_ds_inq_num_rec_vars(ncp_dataset *ds, int *nvarsp)
{
    if (nvarsp) *nvarsp = count_rec_vars(&ds->hdr);
    return NC_NOERR;
}

int ncp_ds_inq_num_fix_vars(ncp_dataset *ds, int *nvarsp)
{
    if (nvarsp) *nvarsp = ds->hdr.nvars - count_rec_vars(&ds->hdr);
    return NC_NOERR;
}

/* Layout answers (recsize, a variable's offset, the header's size and
 * extent) reflect the last enddef; before the first one they are zero,
 * as PnetCDF reports them in define mode. */

int ncp_ds_inq_recsize(ncp_dataset *ds, MPI_Offset *recsize)
{
    if (recsize) *recsize = ds->hdr.recsize;
    return NC_NOERR;
}

int ncp_ds_inq_varoffset(ncp_dataset *ds, int varid, MPI_Offset *offset)
{
    int err;
    ncp_var *v;
    if ((err = ncp_var_get(ds, varid, &v)) != NC_NOERR) return err;
    if (offset) *offset = v->begin;
    return NC_NOERR;
}

int ncp_ds_inq_header_size(ncp_dataset *ds, MPI_Offset *size)
{
    if (size) *size = ds->hdr.xsz;
    return NC_NOERR;
}

int ncp_ds_inq_header_extent(ncp_dataset *ds, MPI_Offset *extent)
{
    if (extent) *extent = ds->hdr.begin_var;
    return NC_NOERR;
}

int ncp_ds_inq_put_size(ncp_dataset *ds, MPI_Offset *size)
{
    if (size) *size = ds->put_bytes;
    return NC_NOERR;
}

int ncp_ds_inq_get_size(ncp_dataset *ds, MPI_Offset *size)
{
    if (size) *size = ds->get_bytes;
    return NC_NOERR;
}

/* Striping as the MPI-IO layer reports it; 0 when it does not know. */
static int info_int(MPI_Info info, const char *key)
{
    char val[MPI_MAX_INFO_VAL + 1];
    int flag = 0;
    MPI_Info_get(info, key, MPI_MAX_INFO_VAL, val, &flag);
    return flag ? atoi(val) : 0;
}

int ncp_ds_inq_striping(ncp_dataset *ds, int *striping_size,
                        int *striping_count)
{
    int err;
    MPI_Info info;
    if ((err = ncp_io_get_info(&ds->file, &info)) != NC_NOERR) return err;
    if (striping_size) *striping_size = info_int(info, "striping_unit");
    if (striping_count) *striping_count = info_int(info, "striping_factor");
    MPI_Info_free(&info);
    return NC_NOERR;
}

static int format_code(int cdf)
{
    if (cdf == NCP_CDF5) return NC_FORMAT_CDF5;
    if (cdf == NCP_CDF2) return NC_FORMAT_CDF2;
    return NC_FORMAT_CLASSIC;
}

int ncp_ds_inq_format(ncp_dataset *ds, int *formatp)
{
    if (formatp) *formatp = format_code(ds->hdr.format);
    return NC_NOERR;
}

/* Reads the 8-byte signature alone (and, for HDF5, the signatures after
 * a user block); does not validate the header.  A file too short for a
 * signature is NC_EFILE, as in PnetCDF. */
int ncp_ds_inq_file_format(const char *filename, int *formatp)
{
    unsigned char sig[8] = {0};
    MPI_File fh;
    MPI_Offset size = 0, off;
    int mpierr;

    if (!filename) return NC_EINVAL;
    mpierr = MPI_File_open(MPI_COMM_SELF, filename, MPI_MODE_RDONLY,
                           MPI_INFO_NULL, &fh);
    if (mpierr != MPI_SUCCESS) return ncp_mpi_err(mpierr, NC_ENOENT);
    mpierr = MPI_File_get_size(fh, &size);
    if (mpierr == MPI_SUCCESS && size < 8) {
        MPI_File_close(&fh);
        return NC_EFILE;
    }
    if (formatp) *formatp = NC_FORMAT_UNKNOWN;
    for (off = 0; mpierr == MPI_SUCCESS && off + 8 <= size;
         off = ncp_hdf5_next_offset(off)) {
        mpierr = MPI_File_read_at(fh, off, sig, 8, MPI_BYTE, MPI_STATUS_IGNORE);
        if (mpierr == MPI_SUCCESS && off == 0 && memcmp(sig, "CDF", 3) == 0) {
            if (formatp && sig[3] == 1) *formatp = NC_FORMAT_CLASSIC;
            if (formatp && sig[3] == 2) *formatp = NC_FORMAT_CDF2;
            if (formatp && sig[3] == 5) *formatp = NC_FORMAT_CDF5;
            break;
        }
        if (mpierr == MPI_SUCCESS && ncp_is_hdf5_signature(sig)) {
            if (formatp) *formatp = NC_FORMAT_NETCDF4;
            break;
        }
    }
    MPI_File_close(&fh);
    return mpierr == MPI_SUCCESS ? NC_NOERR : NC_EREAD;
}

/* The file's format as the create-mode flag that selects it. */
int ncp_ds_inq_version(ncp_dataset *ds, int *nc_mode)
{
    if (!nc_mode) return NC_NOERR;
    switch (ds->hdr.format) {
    case NCP_CDF5: *nc_mode = NC_64BIT_DATA; break;
    case NCP_CDF2: *nc_mode = NC_64BIT_OFFSET; break;
    default: *nc_mode = NC_CLASSIC_MODEL; break;
    }
    return NC_NOERR;
}

int ncp_ds_inq_files_opened(int *num, int *ncids)
{
    if (!num) return NC_EINVAL;
    return ncp_dataset_ids(num, ncids);
}

