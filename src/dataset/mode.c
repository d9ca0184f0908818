/*
 * mode.c -- checks of the mode state machine drawn in ncp_dataset.h, its
 * invariants as code (ncp_dataset_broken), and the numrecs agreement that
 * ends independent data mode.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ncp_dataset.h"
#include "pnetcdf.h"

const char *ncp_dataset_broken(const ncp_dataset *ds)
{
    int f = ds->flags;
    int define = (f & NCP_F_DEFINE) != 0, created = (f & NCP_F_CREATED) != 0;

    if (define && (f & NCP_F_INDEP))
        return "independent data mode inside define mode";
    if ((define || created) && !(f & NCP_F_WRITE))
        return "define mode or a new file on a read-only open";
    if (!define && ds->on_disk)
        return "data mode keeps define mode's snapshot of the file";
    if (define && !created && !ds->on_disk)
        return "redef without a snapshot of what the file holds";
    if (define && created && ds->on_disk)
        return "a snapshot of a file that has no header yet";
    if (ds->hdr.numrecs < 0) return "a negative record count";
    return NULL;
}

void ncp_dataset_check(const ncp_dataset *ds, const char *file, int line)
{
    const char *broken = ncp_dataset_broken(ds);

    if (broken) {
        fprintf(stderr, "ncpario: %s:%d: dataset %d: %s\n", file, line,
                ds->ncid, broken);
        abort();
    }
}

int ncp_require_define(const ncp_dataset *ds)
{
    return (ds->flags & NCP_F_DEFINE) ? NC_NOERR : NC_ENOTINDEFINE;
}

int ncp_require_write(const ncp_dataset *ds)
{
    return (ds->flags & NCP_F_WRITE) ? NC_NOERR : NC_EPERM;
}

int ncp_require_data(const ncp_dataset *ds, int collective)
{
    if (ds->flags & NCP_F_DEFINE) return NC_EINDEFINE;
    if (collective && (ds->flags & NCP_F_INDEP)) return NC_EINDEP;
    if (!collective && !(ds->flags & NCP_F_INDEP)) return NC_ENOTINDEP;
    return NC_NOERR;
}

/* numrecs sits right after the 4-byte magic; 4 bytes (CDF-1/2) or 8. */
int ncp_numrecs_write(ncp_dataset *ds)
{
    unsigned char b[8];
    int n = ds->hdr.format == NCP_CDF5 ? 8 : 4, i, err = NC_NOERR;
    uint64_t v = (uint64_t)ds->hdr.numrecs;
    for (i = n - 1; i >= 0; i--) {
        b[i] = (unsigned char)(v & 0xff);
        v >>= 8;
    }
    if (ds->rank == 0) err = ncp_io_write_at(&ds->file, 4, b, n);
    if (ds->rank == 0 && err == NC_NOERR) ds->put_bytes += n; /* as PnetCDF */
    return err;
}

void ncp_numrecs_raise(ncp_dataset *ds, int64_t n)
{
    if (n <= ds->hdr.numrecs) return;
    ds->hdr.numrecs = n;
    ds->flags |= NCP_F_NUMRECS;
}

/*
 * One allreduce in the common case: every collective put and every close
 * comes here, and on an oversubscribed node each collective round costs a
 * scheduler slice.  Only when the count changed, or when force is set on
 * some rank, does rank 0 write it, and only then do the ranks agree on
 * that write's outcome.
 */
static int numrecs_agree(ncp_dataset *ds, int force)
{
    /* max numrecs, -min numrecs, whether any rank grew it: one MPI_MAX */
    long long mine[3], all[3];
    int err = NC_NOERR;
    mine[0] = (long long)ds->hdr.numrecs;
    mine[1] = -mine[0];
    mine[2] = (force || (ds->flags & NCP_F_NUMRECS)) ? 1 : 0;
    MPI_Allreduce(mine, all, 3, MPI_LONG_LONG, MPI_MAX, ds->comm);
    ds->flags &= ~NCP_F_NUMRECS;
    if (all[0] == -all[1] && all[2] == 0) return NC_NOERR; /* no change */
    ds->hdr.numrecs = all[0];
    /* Under write-behind the records' data may still be on its way: the
       count waits for it (ncp_behind_settle). */
    if ((ds->flags & NCP_F_WRITE) && ncp_io_behind_on(&ds->file)) {
        ds->flags |= NCP_F_NUMRECS_LATE;
        return NC_NOERR;
    }
    /* With nc_sync_durable, the records reach the device before the count
       that makes them part of the file. */
    if ((ds->flags & NCP_F_WRITE) && ds->hints.sync_durable)
        err = ncp_io_sync(&ds->file);
    if (err == NC_NOERR && (ds->flags & NCP_F_WRITE))
        err = ncp_numrecs_write(ds);
    return ncp_agree(ds->comm, err);
}

int ncp_behind_settle(ncp_dataset *ds)
{
    int err, e = NC_NOERR;
    if (!ncp_io_behind_on(&ds->file)) return NC_NOERR;
    err = ncp_io_behind_settle(&ds->file);
    /* After a failed write the count stays held back: its records may
       not all be in the file. */
    if (err != NC_NOERR || !(ds->flags & NCP_F_NUMRECS_LATE)) return err;
    ds->flags &= ~NCP_F_NUMRECS_LATE;
    if (ds->hints.sync_durable) e = ncp_io_sync(&ds->file);
    if (e == NC_NOERR) e = ncp_numrecs_write(ds);
    return ncp_agree(ds->comm, e);
}

int ncp_behind_drain(ncp_dataset *ds)
{
    if (!ncp_io_behind_on(&ds->file)) return NC_NOERR;
    return ncp_io_behind_drain(&ds->file);
}

int ncp_numrecs_agree(ncp_dataset *ds)
{
    return numrecs_agree(ds, 0);
}

/* PnetCDF writes numrecs whenever independent mode ends on a writable
 * dataset with record variables, changed or not; inq_put_size counts it,
 * so ncpario writes it too. */
int ncp_numrecs_end_indep(ncp_dataset *ds)
{
    return numrecs_agree(ds, (ds->flags & NCP_F_WRITE) &&
                                 ds->hdr.num_rec_vars > 0);
}
