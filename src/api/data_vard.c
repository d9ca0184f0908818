/*
 * data_vard.c -- ncmpi_{put,get}_vard[_all]: the file side of the request
 * is an MPI datatype (filetype) whose type map, relative to the
 * variable's begin, places the bytes; the memory side is the flexible
 * (buf, bufcount, buftype) triple.  They go the way of every blocking
 * call (ncp_data_access); the filetype is read in src/access/vard.c.
 */
#include "ncp_api.h"

/* A null filetype is a request for nothing: the buffer is not looked at,
 * whatever bufcount and buftype say. */
static int vard(int ncid, int varid, MPI_Datatype filetype, const void *buf,
                MPI_Offset bufcount, MPI_Datatype buftype, int is_put,
                int collective)
{
    ncp_data_args a;
    if (filetype == MPI_DATATYPE_NULL) {
        bufcount = 0;
        buftype = MPI_DATATYPE_NULL;
    }
    a = ncp_api_args(ncid, varid, NCP_SHAPE_VARD, NULL, NULL, NULL, NULL,
                     buf, bufcount, buftype, NCP_M_FLEX, is_put, collective);
    a.filetype = filetype;
    return ncp_data_access(&a);
}

int ncmpi_put_vard(int ncid, int varid, MPI_Datatype filetype,
                   const void *buf, MPI_Offset bufcount, MPI_Datatype buftype)
{
    return vard(ncid, varid, filetype, buf, bufcount, buftype, 1, 0);
}

int ncmpi_put_vard_all(int ncid, int varid, MPI_Datatype filetype,
                       const void *buf, MPI_Offset bufcount,
                       MPI_Datatype buftype)
{
    return vard(ncid, varid, filetype, buf, bufcount, buftype, 1, 1);
}

int ncmpi_get_vard(int ncid, int varid, MPI_Datatype filetype, void *buf,
                   MPI_Offset bufcount, MPI_Datatype buftype)
{
    return vard(ncid, varid, filetype, buf, bufcount, buftype, 0, 0);
}

int ncmpi_get_vard_all(int ncid, int varid, MPI_Datatype filetype, void *buf,
                       MPI_Offset bufcount, MPI_Datatype buftype)
{
    return vard(ncid, varid, filetype, buf, bufcount, buftype, 0, 1);
}
