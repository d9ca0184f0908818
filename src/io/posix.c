/*
 * posix.c -- the POSIX driver's table: every rank opens the file itself.
 * Reads and independent writes move each rank's own extents
 * (transport/posix_move.c); collective writes go through the aggregator
 * (agg/, ncp_agg.h maps its files) when a node has more than one rank,
 * whose merged runs come back here to be written (posix_sink_write).
 *
 * Why it exists: the engine has already merged each rank's requests into
 * few sorted extents, so a read needs no exchange at all (page-cache reads
 * of one file run in parallel), and a write needs one exchange to the
 * node's writer, not MPI-IO's general machinery.
 *
 * Invariants:
 *  1. A collective transfer ends with one allreduce of the error code:
 *     every rank returns the same code, and no rank returns before every
 *     rank's bytes are in the file (what a later read by another rank
 *     relies on, as it does on MPI-IO's collective write) -- or, under
 *     write-behind (ncp_wb.h), in the staging of the rank that writes
 *     them, which every read, header write and resize drains first.
 *  2. Reads past the end of the file stop there and leave the rest of the
 *     memory untouched, as an MPI-IO read does.
 *  3. Only rank 0 creates or truncates; the others open afterwards.
 */
#define _GNU_SOURCE
#include "ncp_io_driver.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

#include "agg/ncp_agg.h"
#include "ncp_wb.h"
#include "pnetcdf.h"
#include "transport/ncp_posix_move.h"

/* Does a write go through the aggregators (agg/agg.c)?  Only a
 * collective one, when a node has more ranks than aggregators. */
static int posix_write_aggregates(const ncp_file *f, int collective)
{
    int nprocs;
    MPI_Comm_size(f->comm, &nprocs);
    return collective && f->agg->naggr < nprocs;
}

/* A run's pieces staged for write-behind. */
static int sink_stage(ncp_file *f, const struct iovec *iov, int n,
                      MPI_Offset off)
{
    MPI_Offset moff[NCP_POSIX_IOV], mlen[NCP_POSIX_IOV], flen = 0;
    ncp_extents ext = {1, 1, &off, &flen, 0, NULL};
    ncp_extents mem = {n, n, moff, mlen, 0, NULL};
    int k;
    for (k = 0; k < n; k++) {
        moff[k] = (MPI_Offset)(intptr_t)iov[k].iov_base;
        mlen[k] = (MPI_Offset)iov[k].iov_len;
        flen += mlen[k];
    }
    ext.nbytes = mem.nbytes = flen;
    if (flen == 0) ext.n = 0;
    return ncp_wb_write(f, &ext, &mem);
}

/* The aggregators' sink: their merged runs go to the file with pwritev,
 * or to the write-behind staging. */
static int posix_sink_write(void *arg, struct iovec *iov, int n,
                            MPI_Offset off)
{
    ncp_file *f = arg;
    if (f->wb) return sink_stage(f, iov, n, off);
    return ncp_posix_pwritev(f->fd, iov, n, off);
}

/* An aggregated write, or each rank's own where the aggregator declines;
 * the file's counters take the rounds it ran. */
static int posix_write_aggregated(ncp_file *f, const ncp_extents *ext,
                                  const ncp_extents *mem)
{
    ncp_agg *a = f->agg;
    ncp_agg_counts before = a->count;
    int direct, err = ncp_agg_write(a, ext, mem, &direct);
    ncp_agg_counts_add(&f->driver, &a->count, &before);
    if (!direct) return err;
    if (f->wb) return ncp_wb_write(f, ext, mem);
    return ncp_posix_move(f->fd, 1, ext, mem);
}

/* An independent write: sieved, under a range lock where other ranks
 * may write at the same time.  (A collective write's ranks write
 * disjoint bytes and large pieces, so they neither sieve nor lock.) */
static int posix_write_own(ncp_file *f, const ncp_extents *ext,
                           const ncp_extents *mem)
{
    int nprocs;
    MPI_Comm_size(f->comm, &nprocs);
    return ncp_posix_write_sieved(f->fd, ext, mem, nprocs > 1);
}

static int posix_xferv(ncp_file *f, int collective, int is_write,
                       const ncp_extents *ext, const ncp_extents *mem)
{
    int err;
    if (!is_write) ncp_wb_drain(f);
    if (is_write && posix_write_aggregates(f, collective))
        err = posix_write_aggregated(f, ext, mem);
    else if (is_write && f->wb)
        err = ncp_wb_write(f, ext, mem);
    else if (is_write && !collective)
        err = posix_write_own(f, ext, mem);
    else
        err = ncp_posix_move(f->fd, is_write, ext, mem);
    return collective ? ncp_agree(f->comm, err) : err;
}

/*
 * Who swaps a byte-swapped buffer: the driver, wherever its bytes pass
 * through this rank's hands anyway (a read as the bytes arrive; a rank
 * writing its own bytes, a cache-sized chunk into a bounce buffer before
 * each pwritev; an aggregated write as ncp_agg_takes_swaps says), since
 * the bytes are then in cache.  Under nc_posix_shm=auto the ranks copy
 * swapped bytes even before the shared staging is due, because the call
 * that sets it up is not known before its rounds are planned.
 */
static int posix_swaps(const ncp_file *f, int collective, int is_write)
{
    if (!is_write || !posix_write_aggregates(f, collective)) return 1;
    return ncp_agg_takes_swaps(f->agg);
}

static int open_fd(ncp_file *f, int flags, int fallback)
{
    f->fd = open(f->path, flags | O_CLOEXEC, 0666);
    return f->fd < 0 ? ncp_posix_errno(errno, fallback) : NC_NOERR;
}

/*
 * The aggregators of the file domains: the first nc_posix_aggrs_per_node
 * ranks (default 1) of every node, in rank order; rank 0's hints choose
 * for everyone (agg/setup.c).  The driver's collective writes go through
 * them; the I/O groups above the drivers make aggregators of their own.
 */
static int posix_state(ncp_file *f)
{
    ncp_agg_conf c;
    ncp_agg_sink sink = {posix_sink_write, NULL, NULL, f};
    int err = ncp_agg_conf_read(f->comm, f->info, &c);
    if (err != NC_NOERR) return err;
    c.writable = f->writable;
    return ncp_agg_open(f->comm, &c, sink, &f->agg);
}

static void posix_state_free(ncp_file *f)
{
    ncp_agg_close(f->agg);
    f->agg = NULL;
}

static int posix_open(ncp_file *f, int create, int clobber)
{
    int rank, err, flags = f->writable ? O_RDWR : O_RDONLY;
    MPI_Comm_rank(f->comm, &rank);
    if ((err = posix_state(f)) != NC_NOERR) {
        posix_state_free(f);
        return err;
    }
    if (create) {
        if (rank == 0)
            err = open_fd(f, flags | O_CREAT | (clobber ? O_TRUNC : O_EXCL),
                          NC_EFILE);
        MPI_Bcast(&err, 1, MPI_INT, 0, f->comm);
        if (err != NC_NOERR) {
            posix_state_free(f);
            return err;
        }
    }
    if (f->fd < 0) err = open_fd(f, flags, create ? NC_EFILE : NC_ENOENT);
    err = ncp_agree(f->comm, err);
    if (err == NC_NOERR) err = ncp_agree(f->comm, ncp_wb_open(f, NULL));
    if (err != NC_NOERR) (void)ncp_wb_close(f);
    if (err != NC_NOERR && f->fd >= 0) {
        close(f->fd);
        f->fd = -1;
    }
    if (err != NC_NOERR) posix_state_free(f);
    return err;
}

static int posix_close(ncp_file *f)
{
    int err = ncp_wb_close(f);
    if (f->fd >= 0 && close(f->fd) != 0 && err == NC_NOERR)
        err = ncp_posix_errno(errno, NC_EFILE);
    f->fd = -1;
    posix_state_free(f);
    return err;
}

static int posix_write_at(ncp_file *f, MPI_Offset off, const void *buf,
                          int64_t n)
{
    struct iovec one = {(void *)buf, (size_t)n};
    int64_t done;
    ncp_wb_drain(f);
    return n > 0 ? ncp_posix_move_iov(f->fd, 1, &one, 1, off, &done) : NC_NOERR;
}

static int posix_read_at(ncp_file *f, MPI_Offset off, void *buf, int64_t n,
                         int64_t *got)
{
    struct iovec one = {buf, (size_t)n};
    *got = 0;
    ncp_wb_drain(f);
    return n > 0 ? ncp_posix_move_iov(f->fd, 0, &one, 1, off, got) : NC_NOERR;
}

static int posix_get_size(ncp_file *f, MPI_Offset *size)
{
    struct stat st;
    ncp_wb_drain(f);
    if (fstat(f->fd, &st) != 0) return ncp_posix_errno(errno, NC_EFILE);
    *size = (MPI_Offset)st.st_size;
    return NC_NOERR;
}

/* Collective, like MPI_File_set_size. */
static int posix_set_size(ncp_file *f, MPI_Offset size)
{
    int rank, err = NC_NOERR;
    MPI_Comm_rank(f->comm, &rank);
    ncp_wb_drain(f);
    if (rank == 0 && ftruncate(f->fd, (off_t)size) != 0)
        err = ncp_posix_errno(errno, NC_EFILE);
    return ncp_agree(f->comm, err);
}

/* Collective, like MPI_File_sync: each rank's writes reach storage, and
 * the barrier makes them visible to every rank before any returns. */
static int posix_sync(ncp_file *f)
{
    int err = NC_NOERR;
    ncp_wb_drain(f);
    if (f->writable && fsync(f->fd) != 0)
        err = ncp_posix_errno(errno, NC_EFILE);
    return ncp_agree(f->comm, err);
}

/* No MPI-IO layer below: the hints in use are the user's. */
static int posix_get_info(ncp_file *f, MPI_Info *info)
{
    if (f->info != MPI_INFO_NULL) MPI_Info_dup(f->info, info);
    else MPI_Info_create(info);
    return NC_NOERR;
}

const ncp_io_driver ncp_io_posix_driver = {
    .name = "posix",
    .moves_alone = 1,
    .swaps = posix_swaps,
    .open = posix_open,
    .close = posix_close,
    .xferv = posix_xferv,
    .write_at = posix_write_at,
    .read_at = posix_read_at,
    .get_size = posix_get_size,
    .set_size = posix_set_size,
    .sync = posix_sync,
    .get_info = posix_get_info,
};
