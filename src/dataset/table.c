/*
 * table.c -- the open-dataset table: the one piece of global mutable state
 * the library keeps.  ncids are small non-negative ints, reused after
 * close, as applications (and Fortran wrappers) expect.
 */
#include <stdlib.h>

#include "ncp_dataset.h"
#include "pnetcdf.h"

#define NCP_MAX_OPEN 1024

static ncp_dataset *open_table[NCP_MAX_OPEN];

int ncp_dataset_get(int ncid, ncp_dataset **ds)
{
    if (ncid < 0 || ncid >= NCP_MAX_OPEN || !open_table[ncid]) return NC_EBADID;
    *ds = open_table[ncid];
    NCP_DATASET_CHECK(*ds);
    return NC_NOERR;
}

int ncp_dataset_add(ncp_dataset *ds)
{
    int i;
    for (i = 0; i < NCP_MAX_OPEN; i++) {
        if (!open_table[i]) {
            open_table[i] = ds;
            ds->ncid = i;
            return NC_NOERR;
        }
    }
    return NC_ENFILE;
}

void ncp_dataset_remove(ncp_dataset *ds)
{
    if (ds->ncid >= 0 && ds->ncid < NCP_MAX_OPEN && open_table[ds->ncid] == ds)
        open_table[ds->ncid] = NULL;
}

int ncp_dataset_ids(int *num, int *ids)
{
    int i, n = 0;
    for (i = 0; i < NCP_MAX_OPEN; i++) {
        if (!open_table[i]) continue;
        if (ids) ids[n] = i;
        n++;
    }
    *num = n;
    return NC_NOERR;
}
