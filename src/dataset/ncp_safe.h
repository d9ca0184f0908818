/*
 * ncp_safe.h -- safe mode (PNETCDF_SAFE_MODE=1, read with the hints at
 * create and open): collective calls compare their arguments across ranks
 * and agree on one error, so that a program whose ranks pass different
 * arguments gets the same NC_EMULTIDEFINE_* code on every rank, as from
 * PnetCDF, instead of ranks that diverge and later hang.
 *
 * Each check is collective over the dataset's communicator and a no-op
 * (NC_NOERR, no communication) when safe mode is off.  `local` is the
 * caller's own verdict on its arguments so far: local errors are agreed
 * first (the lowest code wins on every rank), and only when every rank's
 * arguments are valid are they compared with rank 0's.  A caller calls a
 * check before it changes anything, and returns its code when not
 * NC_NOERR; the checks that follow it then see identical arguments and an
 * identical header on every rank, so they agree by themselves.
 */
#ifndef NCP_SAFE_H
#define NCP_SAFE_H

#include <mpi.h>

struct ncp_dataset;

/* Whether safe mode is on for the dataset. */
int ncp_safe_on(const struct ncp_dataset *ds);

/* In safe mode, the lowest of every rank's code; else code. */
int ncp_safe_agree(struct ncp_dataset *ds, int code);

int ncp_safe_def_dim(struct ncp_dataset *ds, const char *name,
                     MPI_Offset len);
int ncp_safe_def_var(struct ncp_dataset *ds, const char *name, int xtype,
                     int ndims, const int *dimids);
int ncp_safe_rename_dim(struct ncp_dataset *ds, int dimid,
                        const char *newname);
int ncp_safe_rename_var(struct ncp_dataset *ds, int varid,
                        const char *newname);
/* msize: bytes of one element of buf in memory. */
int ncp_safe_put_att(struct ncp_dataset *ds, int local, int varid,
                     const char *name, int xtype, MPI_Offset nelems,
                     const void *buf, int msize);
int ncp_safe_att_name(struct ncp_dataset *ds, int local, int varid,
                      const char *name, const char *newname);
int ncp_safe_set_fill(struct ncp_dataset *ds, int fillmode);
int ncp_safe_def_var_fill(struct ncp_dataset *ds, int varid, int no_fill,
                          const void *fill_value);

#endif
