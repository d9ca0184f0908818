/*
 * sync.c -- the calls that make independent writes durable or visible
 * (ncmpi_sync, ncmpi_sync_numrecs, ncmpi_flush, ncpario_flush_wait) or
 * end independent data mode (ncmpi_end_indep_data, ncmpi_redef): the
 * engine writes the puts it held, collectively, then the dataset goes on
 * as before.  An error of that write is this call's.
 */
#include "ncp_api.h"

#include "../engine/ncp_engine.h"

static int first_error(int a, int b) { return a != NC_NOERR ? a : b; }

int ncmpi_sync(int ncid)
{
    int err = ncp_indep_settle(ncid);
    return first_error(err, ncp_dataset_sync(ncid));
}

/* The records a held put adds reach the header only with their data. */
int ncmpi_sync_numrecs(int ncid)
{
    int err = ncp_indep_settle(ncid);
    return first_error(err, ncp_dataset_sync_numrecs(ncid));
}

int ncmpi_flush(int ncid)
{
    int err = ncp_indep_settle(ncid);
    return first_error(err, ncp_dataset_flush(ncid));
}

int ncpario_flush_wait(int ncid)
{
    int err = ncp_indep_settle(ncid);
    return first_error(err, ncp_dataset_flush_wait(ncid));
}

int ncmpi_end_indep_data(int ncid)
{
    int err = ncp_indep_settle(ncid);
    return first_error(err, ncp_dataset_end_indep(ncid));
}

int ncmpi_redef(int ncid)
{
    int err = ncp_indep_settle(ncid);
    return first_error(err, ncp_dataset_redef(ncid));
}
