/*
 * file.c -- the fields of an ncp_file that every driver shares, set before
 * a driver opens it and freed after it closes (ncp_io_driver.h).  The
 * front (io.c) and the I/O groups, which open the file a second time over
 * their aggregators, both start here.
 */
#include "ncp_io_driver.h"
#include "ncp_fault.h"

#include <stdlib.h>
#include <string.h>

#include "pnetcdf.h"

void ncp_file_release(ncp_file *f)
{
    ncp_fault_release(f);
    free(f->path);
    f->path = NULL;
    if (f->info != MPI_INFO_NULL) MPI_Info_free(&f->info);
}

int ncp_file_init(ncp_file *f, MPI_Comm comm, const char *path, int writable,
                  MPI_Info info)
{
    int err = NC_NOERR;
    memset(f, 0, sizeof(*f));
    f->comm = comm;
    f->fh = MPI_FILE_NULL;
    f->fh_self = MPI_FILE_NULL;
    f->fd = -1;
    f->info = MPI_INFO_NULL;
    f->writable = writable;
    f->path = strdup(path);
    if (!f->path) err = NC_ENOMEM;
    if (info != MPI_INFO_NULL && err == NC_NOERR) MPI_Info_dup(info, &f->info);
    return ncp_agree(comm, err);
}
