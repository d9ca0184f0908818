/*
 * close.c -- ncmpi_close and ncmpi_abort: the engine drops the requests
 * never waited for, then the dataset ends.  Both layers are below the
 * API, so neither has to call up into the other.
 */
#include "ncp_api.h"

#include "../engine/ncp_engine.h"

/* Requests never waited for are cancelled, and said so (NC_EPENDING). */
int ncmpi_close(int ncid)
{
    int pending = ncp_queue_discard(ncid);
    return ncp_dataset_close(ncid, pending);
}

int ncmpi_abort(int ncid)
{
    (void)ncp_queue_discard(ncid);
    return ncp_dataset_abort(ncid);
}
