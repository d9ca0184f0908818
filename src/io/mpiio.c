/*
 * mpiio.c -- the MPI-IO driver: file open/close, and data movement of a
 * sorted extent list through one file view and one MPI call.
 *
 * Invariants:
 *  1. Outside a data call both handles carry the default view (disp 0,
 *     MPI_BYTE), so header reads/writes use absolute offsets.
 *  2. Counts handed to MPI are ints; byte totals above INT_MAX are described
 *     with a derived datatype, never truncated.
 *  3. Extents are ascending and disjoint, as MPI requires of a file type's
 *     displacements.
 *  4. A write that moved fewer bytes than asked fails (NC_EWRITE).
 */
#include "ncp_io_driver.h"
#include "ncp_wb.h"
#include "../base/ncp_mpi_err.h"

#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "pnetcdf.h"

/* Largest single block we hand MPI; keeps every int count in range. */
#define NCP_IO_BLOCK ((MPI_Offset)1 << 30)

/*
 * The code of a write call that returned mpierr with status st, having
 * been asked for want bytes of type t.  OMPIO (OpenMPI 4.1) answers a
 * write cut short by the file system (EFBIG past RLIMIT_FSIZE, a full
 * disk) with MPI_SUCCESS and a short count; unchecked, the lost bytes
 * went unreported.  (Its collective writes through a file view report
 * the full count even then: only ROMIO's can be trusted to fail.)
 */
static int write_code(int mpierr, const MPI_Status *st, MPI_Datatype t,
                      MPI_Offset want)
{
    MPI_Count got = 0;
    if (mpierr != MPI_SUCCESS) return ncp_mpi_err(mpierr, NC_EWRITE);
    if (want == 0) return NC_NOERR;
    MPI_Get_elements_x(st, t, &got);
    return got == (MPI_Count)want ? NC_NOERR : NC_EWRITE;
}

static int open_self(ncp_file *f);

static int mpiio_open(ncp_file *f, int create, int clobber)
{
    int err, mpierr, amode;
    amode = f->writable ? MPI_MODE_RDWR : MPI_MODE_RDONLY;
    if (create) amode |= MPI_MODE_CREATE | (clobber ? 0 : MPI_MODE_EXCL);
    mpierr = MPI_File_open(f->comm, f->path, amode, f->info, &f->fh);
    err = ncp_mpi_err(mpierr, create ? NC_EFILE : NC_ENOENT);
    err = ncp_agree(f->comm, err);
    if (err == NC_NOERR && create && clobber) {
        /* MPI_MODE_CREATE keeps old bytes.  Truncating the open file,
         * rather than deleting the path first, writes through a symbolic
         * link instead of replacing it, as the posix driver's O_TRUNC. */
        mpierr = MPI_File_set_size(f->fh, 0);
        err = ncp_agree(f->comm, ncp_mpi_err(mpierr, NC_EFILE));
    }
    if (err == NC_NOERR) MPI_File_set_errhandler(f->fh, MPI_ERRORS_RETURN);
    if (err == NC_NOERR) err = ncp_agree(f->comm, ncp_wb_open(f, open_self));
    if (err != NC_NOERR) (void)ncp_wb_close(f);
    if (err != NC_NOERR && f->fh_self != MPI_FILE_NULL)
        MPI_File_close(&f->fh_self);
    if (err != NC_NOERR && f->fh != MPI_FILE_NULL) MPI_File_close(&f->fh);
    return err;
}

static int mpiio_close(ncp_file *f)
{
    int err = ncp_wb_close(f), mpierr;
    if (f->fh_self != MPI_FILE_NULL) {
        mpierr = MPI_File_close(&f->fh_self);
        if (mpierr != MPI_SUCCESS) err = NC_EFILE;
    }
    if (f->fh != MPI_FILE_NULL) {
        mpierr = MPI_File_close(&f->fh);
        if (mpierr != MPI_SUCCESS && err == NC_NOERR) err = NC_EFILE;
    }
    return err;
}

static int open_self(ncp_file *f)
{
    int mpierr, amode;
    if (f->fh_self != MPI_FILE_NULL) return NC_NOERR;
    amode = f->writable ? MPI_MODE_RDWR : MPI_MODE_RDONLY;
    mpierr = MPI_File_open(MPI_COMM_SELF, f->path, amode, f->info,
                           &f->fh_self);
    if (mpierr != MPI_SUCCESS) return ncp_mpi_err(mpierr, NC_EFILE);
    MPI_File_set_errhandler(f->fh_self, MPI_ERRORS_RETURN);
    return NC_NOERR;
}

/*
 * A datatype of exactly nbytes bytes, used with count 1, for buffers whose
 * size may exceed INT_MAX.
 */
static int bytes_type(int64_t nbytes, MPI_Datatype *t)
{
    MPI_Datatype chunk, parts[2];
    int blens[2];
    MPI_Aint disps[2];
    int64_t nchunks = nbytes / NCP_IO_BLOCK;
    int64_t rest = nbytes % NCP_IO_BLOCK;

    if (nbytes <= INT_MAX) {
        MPI_Type_contiguous((int)nbytes, MPI_BYTE, t);
    } else {
        MPI_Type_contiguous((int)NCP_IO_BLOCK, MPI_BYTE, &chunk);
        parts[0] = chunk;
        parts[1] = MPI_BYTE;
        blens[0] = (int)nchunks;
        blens[1] = (int)rest;
        disps[0] = 0;
        disps[1] = (MPI_Aint)(nchunks * NCP_IO_BLOCK);
        MPI_Type_create_struct(2, blens, disps, parts, t);
        MPI_Type_free(&chunk);
    }
    MPI_Type_commit(t);
    return NC_NOERR;
}

/*
 * The file type covering every extent.  Extents longer than NCP_IO_BLOCK
 * are split so each block length fits an int.
 */
static int extents_type(const ncp_extents *e, MPI_Datatype *t)
{
    int err = NC_NOERR;
    int64_t nblocks = 0, i, k = 0;
    int *blens = NULL;
    MPI_Aint *disps = NULL;

    for (i = 0; i < e->n; i++)
        nblocks += (e->len[i] + NCP_IO_BLOCK - 1) / NCP_IO_BLOCK;
    if (nblocks > INT_MAX) return NC_EINTOVERFLOW;
    blens = malloc((size_t)(nblocks ? nblocks : 1) * sizeof(*blens));
    disps = malloc((size_t)(nblocks ? nblocks : 1) * sizeof(*disps));
    if (!blens || !disps) {
        err = NC_ENOMEM;
        goto done;
    }
    for (i = 0; i < e->n; i++) {
        MPI_Offset off = e->off[i], left = e->len[i];
        while (left > 0) {
            MPI_Offset piece = left < NCP_IO_BLOCK ? left : NCP_IO_BLOCK;
            blens[k] = (int)piece;
            disps[k] = (MPI_Aint)off;
            off += piece;
            left -= piece;
            k++;
        }
    }
    MPI_Type_create_hindexed((int)nblocks, blens, disps, MPI_BYTE, t);
    MPI_Type_commit(t);
done:
    free(blens);
    free(disps);
    return err;
}

/* The memory side: one piece from its own address, or several at absolute
 * addresses from MPI_BOTTOM. */
static int memory_type(const ncp_extents *mem, void **buf, MPI_Datatype *t)
{
    if (mem->n == 1) {
        *buf = (void *)(intptr_t)mem->off[0];
        return bytes_type(mem->nbytes, t);
    }
    *buf = MPI_BOTTOM;
    return extents_type(mem, t);
}

/*
 * Move the bytes of ext through handle fh.  collective selects _all calls
 * (every rank of the handle's communicator calls this).  The memory side
 * is mem's pieces in order.
 */
static int xfer(MPI_File fh, int collective, int is_write,
                const ncp_extents *ext, const ncp_extents *mem)
{
    int err = NC_NOERR, mpierr = MPI_SUCCESS, count = 0;
    MPI_Datatype ftype = MPI_DATATYPE_NULL, mtype = MPI_DATATYPE_NULL;
    MPI_Status st;
    void *buf = NULL;

    if (mem->n == 1) buf = (void *)(intptr_t)mem->off[0];
    /* One contiguous extent needs no view: an explicit offset does. */
    if (!collective && ext->n == 1 && ext->nbytes <= INT_MAX &&
        mem->n == 1) {
        if (is_write) {
            mpierr = MPI_File_write_at(fh, ext->off[0], buf,
                                       (int)ext->nbytes, MPI_BYTE, &st);
            return write_code(mpierr, &st, MPI_BYTE, ext->nbytes);
        }
        mpierr = MPI_File_read_at(fh, ext->off[0], buf, (int)ext->nbytes,
                                  MPI_BYTE, &st);
        return ncp_mpi_err(mpierr, NC_EREAD);
    }
    /* A rank with nothing to move joins with a plain byte view: ROMIO in
       OpenMPI 4.1 crashes in set_view on an hindexed type of zero blocks. */
    if (ext->n == 0) {
        ftype = MPI_BYTE;
    } else {
        err = extents_type(ext, &ftype);
        if (err == NC_NOERR) err = memory_type(mem, &buf, &mtype);
    }
    if (err != NC_NOERR) {
        /* Still take part in the collective with an empty request. */
        if (!collective) goto done;
        if (ftype != MPI_DATATYPE_NULL) MPI_Type_free(&ftype);
        ftype = MPI_BYTE;
        mtype = MPI_DATATYPE_NULL;
    }
    count = (ext->nbytes > 0 && mtype != MPI_DATATYPE_NULL) ? 1 : 0;
    mpierr = MPI_File_set_view(fh, 0, MPI_BYTE, ftype, "native",
                               MPI_INFO_NULL);
    if (mpierr == MPI_SUCCESS) {
        MPI_Datatype use = count ? mtype : MPI_BYTE;
        if (is_write && collective)
            mpierr = MPI_File_write_all(fh, buf, count, use, &st);
        else if (is_write)
            mpierr = MPI_File_write(fh, buf, count, use, &st);
        else if (collective)
            mpierr = MPI_File_read_all(fh, buf, count, use, &st);
        else
            mpierr = MPI_File_read(fh, buf, count, use, &st);
    }
    if (err == NC_NOERR && is_write)
        err = write_code(mpierr, &st, count ? mtype : MPI_BYTE,
                         count ? ext->nbytes : 0);
    else if (err == NC_NOERR)
        err = ncp_mpi_err(mpierr, NC_EREAD);
    mpierr = MPI_File_set_view(fh, 0, MPI_BYTE, MPI_BYTE, "native",
                               MPI_INFO_NULL);
    if (err == NC_NOERR && mpierr != MPI_SUCCESS) err = NC_EFILE;
done:
    if (ftype != MPI_DATATYPE_NULL && ftype != MPI_BYTE)
        MPI_Type_free(&ftype);
    if (mtype != MPI_DATATYPE_NULL) MPI_Type_free(&mtype);
    return err;
}

static int mpiio_xferv(ncp_file *f, int collective, int is_write,
                       const ncp_extents *ext, const ncp_extents *mem)
{
    int err;
    if (is_write && f->wb) return ncp_wb_write(f, ext, mem);
    ncp_wb_drain(f);
    if (collective) return xfer(f->fh, 1, is_write, ext, mem);
    if ((err = open_self(f)) != NC_NOERR) return err;
    if (ext->n == 0) return NC_NOERR;
    return xfer(f->fh_self, 0, is_write, ext, mem);
}

static int mpiio_write_at(ncp_file *f, MPI_Offset off, const void *buf,
                          int64_t n)
{
    MPI_Status st;
    int err = NC_NOERR;
    const char *p = buf;
    ncp_wb_drain(f);
    while (n > 0 && err == NC_NOERR) {
        int piece = n > NCP_IO_BLOCK ? (int)NCP_IO_BLOCK : (int)n;
        int mpierr = MPI_File_write_at(f->fh, off, p, piece, MPI_BYTE, &st);
        err = write_code(mpierr, &st, MPI_BYTE, piece);
        off += piece;
        p += piece;
        n -= piece;
    }
    return err;
}

static int mpiio_read_at(ncp_file *f, MPI_Offset off, void *buf, int64_t n,
                         int64_t *got)
{
    MPI_Status st;
    int mpierr = MPI_SUCCESS, cnt = 0;
    char *p = buf;
    *got = 0;
    ncp_wb_drain(f);
    while (n > 0) {
        int piece = n > NCP_IO_BLOCK ? (int)NCP_IO_BLOCK : (int)n;
        mpierr = MPI_File_read_at(f->fh, off, p, piece, MPI_BYTE, &st);
        if (mpierr != MPI_SUCCESS) break;
        MPI_Get_count(&st, MPI_BYTE, &cnt);
        *got += cnt;
        if (cnt < piece) break; /* end of file */
        off += piece;
        p += piece;
        n -= piece;
    }
    return ncp_mpi_err(mpierr, NC_EREAD);
}

static int mpiio_get_size(ncp_file *f, MPI_Offset *size)
{
    int mpierr;
    ncp_wb_drain(f);
    mpierr = MPI_File_get_size(f->fh, size);
    return ncp_mpi_err(mpierr, NC_EFILE);
}

static int mpiio_set_size(ncp_file *f, MPI_Offset size)
{
    int mpierr;
    ncp_wb_drain(f);
    mpierr = MPI_File_set_size(f->fh, size);
    return ncp_mpi_err(mpierr, NC_EFILE);
}

static int mpiio_sync(ncp_file *f)
{
    int mpierr = MPI_SUCCESS;
    ncp_wb_drain_mpi_all();
    if (f->fh_self != MPI_FILE_NULL) mpierr = MPI_File_sync(f->fh_self);
    if (mpierr == MPI_SUCCESS) mpierr = MPI_File_sync(f->fh);
    return ncp_mpi_err(mpierr, NC_EFILE);
}

static int mpiio_get_info(ncp_file *f, MPI_Info *info)
{
    int mpierr = MPI_File_get_info(f->fh, info);
    return ncp_mpi_err(mpierr, NC_EFILE);
}

const ncp_io_driver ncp_io_mpiio_driver = {
    .name = "mpiio",
    .codes_local = 1,
    .swaps = NULL,
    .open = mpiio_open,
    .close = mpiio_close,
    .xferv = mpiio_xferv,
    .write_at = mpiio_write_at,
    .read_at = mpiio_read_at,
    .get_size = mpiio_get_size,
    .set_size = mpiio_set_size,
    .sync = mpiio_sync,
    .get_info = mpiio_get_info,
};
