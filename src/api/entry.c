/*
 * entry.c -- the ncmpi_* entry points that act on one open dataset, as a
 * table: each finds the dataset of its ncid once (NC_EBADID for none),
 * then calls the dataset's service of its name (ncp_ds_entries.def) or
 * the engine's (ncp_eng_entries.def), which checks the rest.
 */
#include "pnetcdf.h"
#include "../dataset/ncp_dataset.h"
#include "../engine/ncp_engine.h"

#define NCP_ON_DATASET(name, svc, params, args)                            \
    int ncmpi_##name(int ncid, NCP_UNPACK params)                          \
    {                                                                      \
        ncp_dataset *ds;                                                   \
        int err = ncp_dataset_get(ncid, &ds);                              \
        return err != NC_NOERR ? err : svc(ds, NCP_UNPACK args);           \
    }
#define NCP_ON_DATASET0(name, svc)                                         \
    int ncmpi_##name(int ncid)                                             \
    {                                                                      \
        ncp_dataset *ds;                                                   \
        int err = ncp_dataset_get(ncid, &ds);                              \
        return err != NC_NOERR ? err : svc(ds);                            \
    }

#define NCP_DS(name, params, args)                                         \
    NCP_ON_DATASET(name, ncp_ds_##name, params, args)
#define NCP_DS0(name) NCP_ON_DATASET0(name, ncp_ds_##name)
#include "../dataset/ncp_ds_entries.def"

#define NCP_ENG(name, params, args)                                        \
    NCP_ON_DATASET(name, ncp_eng_##name, params, args)
#define NCP_ENG0(name) NCP_ON_DATASET0(name, ncp_eng_##name)
#include "../engine/ncp_eng_entries.def"

int ncmpi_copy_att(int ncid_in, int varid_in, const char *name, int ncid_out,
                   int varid_out)
{
    ncp_dataset *src;
    int err = ncp_dataset_get(ncid_in, &src);
    if (err != NC_NOERR) return err;
    return ncp_ds_copy_att(src, varid_in, name, ncid_out, varid_out);
}
