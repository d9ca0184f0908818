/*
 * close.c -- ncmpi_close and ncmpi_abort: the engine drops the requests
 * never waited for and writes the independent puts it held, then the
 * dataset ends.  Both layers are below the
 * API, so neither has to call up into the other.
 */
#include "ncp_api.h"

#include "../engine/ncp_engine.h"

/* Requests never waited for are cancelled, and said so (NC_EPENDING);
 * held independent puts are written, so what close reports is in the
 * file. */
int ncmpi_close(int ncid)
{
    int pending = ncp_queue_discard(ncid);
    int err = ncp_indep_settle(ncid), err2;
    ncp_keep_for_next(ncid);
    err2 = ncp_dataset_close(ncid, pending);
    return err != NC_NOERR ? err : err2;
}

int ncmpi_abort(int ncid)
{
    int err, err2;
    (void)ncp_queue_discard(ncid);
    err = ncp_indep_settle(ncid);
    ncp_keep_for_next(ncid);
    err2 = ncp_dataset_abort(ncid);
    return err != NC_NOERR ? err : err2;
}
