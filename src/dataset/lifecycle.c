/*
 * lifecycle.c -- create, open, close, abort, delete, sync and the
 * independent-mode switches: the transitions of the state machine drawn in
 * ncp_dataset.h.  Every function here is collective over the dataset's
 * communicator and agrees on its return code before it branches.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ncp_dataset.h"
#include "../util/ncp_errors.h"
#include "../io/ncp_journal.h"
#include "pnetcdf.h"

/* ncmpi_set_default_format's process-wide setting; like the open-dataset
 * table it is state the API itself defines as global. */
static int default_format = NC_FORMAT_CLASSIC;

int ncp_ds_set_default_format(int format, int *old_formatp)
{
    if (old_formatp) *old_formatp = default_format;
    if (format != NC_FORMAT_CLASSIC && format != NC_FORMAT_CDF2 &&
        format != NC_FORMAT_CDF5)
        return NC_EINVAL;
    default_format = format;
    return NC_NOERR;
}

int ncp_ds_inq_default_format(int *formatp)
{
    if (!formatp) return NC_EINVAL;
    *formatp = default_format;
    return NC_NOERR;
}

static int format_of_cmode(int cmode)
{
    if (cmode & NC_64BIT_DATA) return NCP_CDF5;
    if (cmode & NC_64BIT_OFFSET) return NCP_CDF2;
    if (default_format == NC_FORMAT_CDF5) return NCP_CDF5;
    if (default_format == NC_FORMAT_CDF2) return NCP_CDF2;
    return NCP_CDF1;
}

void ncp_flush_keep_free(ncp_flush_keep *k)
{
    int i;
    ncp_extents_free(&k->fext);
    ncp_extents_free(&k->mext);
    for (i = 0; i < k->nruns; i++) ncp_extents_free(&k->runs[i]);
    free(k->runs);
    k->runs = NULL;
    k->nruns = 0;
}

static void dataset_free(ncp_dataset *ds)
{
    if (!ds) return;
    ncp_dataset_remove(ds);
    free(ds->queue.ops); /* its ops were dropped by the engine at close */
    free(ds->indep.ops); /* ... and these written or dropped */
    free(ds->indep.arena);
    ncp_bufcache_clear(&ds->bufs);
    ncp_flush_keep_free(&ds->flush_keep);
    ncp_header_free(&ds->hdr);
    if (ds->on_disk) {
        ncp_header_free(ds->on_disk);
        free(ds->on_disk);
    }
    if (ds->comm != MPI_COMM_NULL) MPI_Comm_free(&ds->comm);
    free(ds);
}

/* Allocate a dataset on a private duplicate of comm. */
static int dataset_new(MPI_Comm comm, int cmode, ncp_dataset **out)
{
    ncp_dataset *ds = calloc(1, sizeof(*ds));
    if (!ds) return NC_ENOMEM;
    ds->ncid = -1;
    ds->cmode = cmode;
    MPI_Comm_dup(comm, &ds->comm);
    MPI_Comm_rank(ds->comm, &ds->rank);
    MPI_Comm_size(ds->comm, &ds->nprocs);
    ncp_header_init(&ds->hdr, NCP_CDF1);
    ds->queue.bput_size = -1; /* no bput buffer attached */
    ncp_bufcache_init(&ds->bufs);
    ds->define_since = MPI_Wtime();
    *out = ds;
    return NC_NOERR;
}

/*
 * Every rank should pass the same mode flags.  As in PnetCDF, rank 0's
 * flags are used everywhere, and only a rank whose flags differed reports
 * `code` (the dataset is still opened on it).
 */
static int adopt_root_mode(MPI_Comm comm, int *mode, int code)
{
    int root = *mode, err;
    MPI_Bcast(&root, 1, MPI_INT, 0, comm);
    err = root != *mode ? code : NC_NOERR;
    *mode = root;
    return err;
}

/* The hints whose value shapes collective calls (how many broadcasts,
 * whether to compare): rank 0's, on every rank. */
static void root_hints(ncp_dataset *ds)
{
    int64_t v[3] = {ds->hints.safe_mode, ds->hints.bcast_chunk,
                    ds->hints.data_move_chunk};
    MPI_Bcast(v, 3, MPI_INT64_T, 0, ds->comm);
    ds->hints.safe_mode = v[0];
    ds->hints.bcast_chunk = v[1];
    ds->hints.data_move_chunk = v[2];
}

/*
 * The journal an enddef killed midway left beside path (move.c): at open,
 * rank 0 rolls a sealed one back into the file, so the file holds its old
 * header and data again, and removes an unsealed one; at create
 * (remove_only), a stale one goes, lest a later open roll it into the new
 * file.  Collective; a failure is reported on standard error and the open
 * goes on, since the file is still a valid one.
 */
static void settle_journal(MPI_Comm comm, const char *path, int remove_only)
{
    int rank, rolled = 0, err = NC_NOERR;
    MPI_Comm_rank(comm, &rank);
    if (rank == 0 && remove_only) {
        ncp_journal_remove(path);
    } else if (rank == 0) {
        err = ncp_journal_recover(path, &rolled);
        if (err != NC_NOERR)
            fprintf(stderr, "ncpario: %s: an interrupted enddef's journal "
                    "could not be rolled back (%s)\n", path,
                    ncp_strerror_detail(err));
        else if (rolled)
            fprintf(stderr, "ncpario: %s: an interrupted enddef was rolled "
                    "back\n", path);
    }
    MPI_Barrier(comm);
}

static int check_cmode(int cmode)
{
    if ((cmode & NC_64BIT_OFFSET) && (cmode & NC_64BIT_DATA))
        return NC_EINVAL_CMODE;
    if (cmode & NC_NETCDF4) return NC_ENOTBUILT;
    return NC_NOERR;
}

int ncp_ds_create(MPI_Comm comm, const char *path, int cmode, MPI_Info info,
                  int *ncidp)
{
    int err, mode_err;
    ncp_dataset *ds = NULL;
    MPI_Info mpi_info = MPI_INFO_NULL;
    double t0 = MPI_Wtime();

    err = (!path || !ncidp) ? NC_EINVAL : NC_NOERR;
    err = ncp_agree(comm, err);
    if (err != NC_NOERR) return err;
    mode_err = adopt_root_mode(comm, &cmode, NC_EMULTIDEFINE_CMODE);
    if ((err = check_cmode(cmode)) != NC_NOERR) return err;
    err = dataset_new(comm, cmode, &ds);
    if (err == NC_NOERR) err = ncp_hints_parse(info, &ds->hints, &mpi_info);
    err = ncp_agree(comm, err);
    if (err != NC_NOERR) goto done;
    root_hints(ds);
    mode_err = ncp_safe_agree(ds, mode_err);
    if (!(cmode & NC_NOCLOBBER)) settle_journal(ds->comm, path, 1);
    err = ncp_io_open(&ds->file, ds->comm, path, 1, !(cmode & NC_NOCLOBBER),
                      1, mpi_info);
    if (err != NC_NOERR) goto done;
    if (cmode & NC_NOCLOBBER) settle_journal(ds->comm, path, 1);
    ncp_hints_settle(&ds->hints, mpi_info, ds->comm);
    ds->hdr.format = format_of_cmode(cmode);
    ds->flags = NCP_F_DEFINE | NCP_F_CREATED | NCP_F_WRITE;
    err = ncp_header_write_empty(ds);
    if (err == NC_NOERR) err = ncp_dataset_add(ds);
    err = ncp_agree(ds->comm, err);
    if (err != NC_NOERR) ncp_io_close(&ds->file);
done:
    if (mpi_info != MPI_INFO_NULL) MPI_Info_free(&mpi_info);
    if (err != NC_NOERR) {
        dataset_free(ds);
        return err;
    }
    *ncidp = ds->ncid;
    ds->prof.time_open = MPI_Wtime() - t0;
    ds->define_since = MPI_Wtime();
    return mode_err;
}

int ncp_ds_open(MPI_Comm comm, const char *path, int omode, MPI_Info info,
                int *ncidp)
{
    int err, mode_err;
    ncp_dataset *ds = NULL;
    MPI_Info mpi_info = MPI_INFO_NULL;
    double t0 = MPI_Wtime();

    err = (!path || !ncidp) ? NC_EINVAL : NC_NOERR;
    err = ncp_agree(comm, err);
    if (err != NC_NOERR) return err;
    mode_err = adopt_root_mode(comm, &omode, NC_EMULTIDEFINE_OMODE);
    if (omode & NC_NETCDF4) return NC_ENOTBUILT;
    err = dataset_new(comm, omode, &ds);
    if (err == NC_NOERR) err = ncp_hints_parse(info, &ds->hints, &mpi_info);
    err = ncp_agree(comm, err);
    if (err != NC_NOERR) goto done;
    root_hints(ds);
    mode_err = ncp_safe_agree(ds, mode_err);
    settle_journal(ds->comm, path, 0);
    err = ncp_io_open(&ds->file, ds->comm, path, 0, 0,
                      (omode & NC_WRITE) != 0, mpi_info);
    if (err != NC_NOERR) goto done;
    ncp_hints_settle(&ds->hints, mpi_info, ds->comm);
    ds->flags = (omode & NC_WRITE) ? NCP_F_WRITE : 0;
    err = ncp_header_read(ds);
    if (err == NC_NOERR) ncp_fill_mark_opened(ds);
    if (err == NC_NOERR) err = ncp_dataset_add(ds);
    err = ncp_agree(ds->comm, err);
    if (err != NC_NOERR) ncp_io_close(&ds->file);
done:
    if (mpi_info != MPI_INFO_NULL) MPI_Info_free(&mpi_info);
    if (err != NC_NOERR) {
        dataset_free(ds);
        return err;
    }
    *ncidp = ds->ncid;
    ds->prof.time_open = MPI_Wtime() - t0;
    ds->define_since = MPI_Wtime();
    return mode_err;
}

/* Agree on numrecs after independent writes, staying in the current data
 * mode: shared by sync, end_indep_data, close and abort.  was_indep: the
 * call ends (or is made in) independent data mode. */
static int settle_numrecs(ncp_dataset *ds, int was_indep)
{
    if (ds->flags & NCP_F_DEFINE) return NC_NOERR;
    if (!(ds->flags & NCP_F_WRITE)) return NC_NOERR;
    return was_indep ? ncp_numrecs_end_indep(ds) : ncp_numrecs_agree(ds);
}

int ncp_dataset_close(int ncid, int pending)
{
    int err, err2;
    ncp_dataset *ds;
    char *path;
    double t0 = MPI_Wtime();
    if ((err = ncp_dataset_get(ncid, &ds)) != NC_NOERR) return err;
    path = ds->file.path ? strdup(ds->file.path) : NULL; /* for the report */
    /* Close from define mode is enddef then a data-mode close, so it
       makes the same collective calls as an enddef and a close. */
    err = ncp_close_define(ds);
    err2 = settle_numrecs(ds, (ds->flags & NCP_F_INDEP) != 0);
    if (err == NC_NOERR) err = err2;
    err2 = ncp_behind_settle(ds);
    if (err == NC_NOERR) err = err2;
    err2 = ncp_io_close(&ds->file);
    if (err == NC_NOERR) err = err2;
    err = ncp_agree(ds->comm, err);
    if (err == NC_NOERR && pending > 0) err = NC_EPENDING;
    ds->prof.time_close = MPI_Wtime() - t0;
    ncp_profile_report(ds, path);
    free(path);
    dataset_free(ds);
    return err;
}

int ncp_dataset_abort(int ncid)
{
    int err;
    ncp_dataset *ds;
    char *path = NULL;
    if ((err = ncp_dataset_get(ncid, &ds)) != NC_NOERR) return err;
    /* A file that never reached enddef holds nothing of the caller's:
       remove it.  Otherwise the header of the last enddef stays, and with
       it every byte written since (invariant 4). */
    if ((ds->flags & NCP_F_CREATED) && ds->file.path)
        path = strdup(ds->file.path);
    else
        err = settle_numrecs(ds, (ds->flags & NCP_F_INDEP) != 0);
    if (!path && err == NC_NOERR) err = ncp_behind_settle(ds);
    ncp_io_close(&ds->file);
    if (path) {
        MPI_Barrier(ds->comm);
        if (ds->rank == 0) MPI_File_delete(path, MPI_INFO_NULL);
        MPI_Barrier(ds->comm);
        free(path);
    }
    ncp_dataset_remove(ds);
    dataset_free(ds);
    return err;
}

int ncp_ds_delete(const char *filename, MPI_Info info)
{
    int mpierr;
    if (!filename) return NC_EINVAL;
    mpierr = MPI_File_delete(filename, info);
    if (mpierr == MPI_SUCCESS)
        ncp_journal_remove(filename); /* an interrupted enddef's, if any */
    return ncp_mpi_err(mpierr, NC_EFILE);
}

int ncp_dataset_sync(int ncid)
{
    int err;
    ncp_dataset *ds;
    if ((err = ncp_dataset_get(ncid, &ds)) != NC_NOERR) return err;
    if (ds->flags & NCP_F_DEFINE) return NC_EINDEFINE;
    if (!(ds->flags & NCP_F_WRITE)) return NC_NOERR; /* nothing to flush */
    err = settle_numrecs(ds, (ds->flags & NCP_F_INDEP) != 0);
    if (err == NC_NOERR) err = ncp_behind_settle(ds);
    if (err != NC_NOERR) return err;
    return ncp_agree(ds->comm, ncp_io_sync(&ds->file));
}

int ncp_dataset_sync_numrecs(int ncid)
{
    int err;
    ncp_dataset *ds;
    if ((err = ncp_dataset_get(ncid, &ds)) != NC_NOERR) return err;
    if (ds->flags & NCP_F_DEFINE) return NC_EINDEFINE;
    if (!(ds->flags & NCP_F_WRITE)) return NC_EPERM;
    err = (ds->flags & NCP_F_INDEP) ? ncp_numrecs_end_indep(ds)
                                    : ncp_numrecs_agree(ds);
    if (err != NC_NOERR) return err;
    return ncp_behind_settle(ds);
}

int ncp_dataset_flush(int ncid)
{
    int err;
    ncp_dataset *ds;
    if ((err = ncp_dataset_get(ncid, &ds)) != NC_NOERR) return err;
    /* In define mode nothing is pending; PnetCDF returns success there. */
    if (ds->flags & NCP_F_DEFINE) return NC_NOERR;
    if (!(ds->flags & NCP_F_WRITE)) return NC_NOERR;
    /* The engine wrote its held puts first; flush reaches the file. */
    if ((err = ncp_behind_settle(ds)) != NC_NOERR) return err;
    return ncp_agree(ds->comm, ncp_io_sync(&ds->file));
}

int ncp_dataset_flush_wait(int ncid)
{
    int err;
    ncp_dataset *ds;
    if ((err = ncp_dataset_get(ncid, &ds)) != NC_NOERR) return err;
    if (ds->flags & NCP_F_DEFINE) return NC_NOERR;
    return ncp_behind_settle(ds);
}

/* Under write-behind, the collective writes before reach the file first,
 * so that independent reads by any rank see them. */
int ncp_ds_begin_indep_data(ncp_dataset *ds)
{
    int err;
    if (ds->flags & NCP_F_DEFINE) return NC_EINDEFINE;
    if (ds->flags & NCP_F_INDEP) return NC_NOERR; /* a no-op */
    if ((err = ncp_behind_settle(ds)) != NC_NOERR) return err;
    ds->flags |= NCP_F_INDEP;
    return NC_NOERR;
}

int ncp_dataset_end_indep(int ncid)
{
    int err;
    ncp_dataset *ds;
    if ((err = ncp_dataset_get(ncid, &ds)) != NC_NOERR) return err;
    if (ds->flags & NCP_F_DEFINE) return NC_EINDEFINE;
    if (!(ds->flags & NCP_F_INDEP)) return NC_NOERR; /* a no-op, as in PnetCDF */
    ds->flags &= ~NCP_F_INDEP;
    err = settle_numrecs(ds, 1);
    if (err != NC_NOERR) return err;
    return ncp_behind_settle(ds);
}

int ncp_ds_inq_path(ncp_dataset *ds, int *pathlen, char *path)
{
    if (pathlen) *pathlen = (int)strlen(ds->file.path);
    if (path) strcpy(path, ds->file.path);
    return NC_NOERR;
}

int ncp_ds_inq_file_info(ncp_dataset *ds, MPI_Info *info_used)
{
    int err;
    if (!info_used) return NC_NOERR; /* nothing asked, as in PnetCDF */
    err = ncp_io_get_info(&ds->file, info_used);
    if (err == NC_NOERR)
        err = ncp_hints_report(&ds->hints, ds->layout.h_align,
                               ds->layout.v_align, ds->layout.r_align,
                               *info_used);
    return err;
}

