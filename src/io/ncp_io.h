/*
 * ncp_io.h -- the I/O layer under the engine: the only code that touches
 * the file.  The engine hands it a list of file extents (sorted by offset,
 * non-overlapping) and the memory holding their bytes, in order.
 *
 * Two drivers sit behind these calls, chosen per file at open by the hint
 * nc_driver (rank 0's value is used everywhere):
 *  - "mpiio" (mpiio.c): one MPI-IO call per transfer.  A dataset holds two
 *    handles, as MPI-IO semantics require: a collective one on the
 *    dataset's communicator, and (lazily) one on MPI_COMM_SELF for
 *    independent data mode, where a rank sets its own file view alone.
 *  - "posix" (posix.c): every rank opens the file itself and moves its own
 *    extents with pwritev/preadv; a collective transfer ends by agreeing on
 *    the error code, which also orders every rank's writes before any rank
 *    returns.  For file systems that keep POSIX semantics across processes
 *    (local file systems, tmpfs, Lustre, GPFS); not for NFS.
 */
#ifndef NCP_IO_H
#define NCP_IO_H

#include <mpi.h>
#include <stdint.h>

#include "agg/ncp_agg_counts.h"
#include "../base/ncp_extents.h"

typedef struct ncp_io_driver ncp_io_driver;
struct ncp_agg;
struct ncp_group;

/* What the I/O groups (group.c) did for this rank, per direction: rounds
 * taken, bytes it shipped to or received from other ranks of its group
 * (its own excluded), and seconds in the exchange and in the file I/O. */
typedef struct ncp_group_stats {
    int64_t rounds[2];        /* [0] read, [1] write */
    int64_t bytes_shipped[2];
    double time_comm[2];
    double time_io[2];
} ncp_group_stats;

/* What a file's write-behind did (wb.c), summed over its handles. */
typedef struct ncp_wb_stats {
    int64_t jobs;           /* staged buffers written */
    int64_t bytes;          /* their bytes that reached the file */
    int64_t peak_staged;    /* the most bytes one handle staged at once */
    int64_t waits_for_room; /* staging that waited for the budget */
    int64_t bytes_logged;   /* bytes that went through the spill log */
} ncp_wb_stats;

typedef struct ncp_file {
    MPI_Comm comm;      /* the dataset's communicator (not owned) */
    char *path;
    int writable;
    MPI_Info info;      /* every hint, passed to MPI_File_open (owned) */
    const ncp_io_driver *drv;   /* the driver io.c calls: the top of the stack */
    const ncp_io_driver *mover; /* the one that moves the bytes: mpiio or posix */
    MPI_File fh;        /* mpiio: collective handle */
    MPI_File fh_self;   /* mpiio: independent handle, MPI_FILE_NULL until used */
    int fd;             /* posix: this rank's descriptor */
    struct ncp_agg *agg;  /* posix: the aggregators and their limits */
    struct ncp_group *group; /* the I/O groups' state, NULL when not grouped */
    void *fault;        /* the fault-injecting wrapper's state (tests), or NULL */
    ncp_group_stats gstats;
    ncp_agg_counts driver; /* posix: its aggregated writes on this handle */
    struct ncp_wb *wb;  /* write-behind on this handle (ncp_wb.h), or NULL */
    ncp_wb_stats wb_done; /* what it did, once closed */
} ncp_file;

/* Collective over comm.  create: 1 to create (clobber chooses truncate vs
 * NC_EEXIST); returns NC_* codes translated from MPI or errno values.  A
 * bad I/O group hint gives NC_EINVAL before anything is created; an
 * nc_driver hint naming no driver of ours falls back to the default. */
int ncp_io_open(ncp_file *f, MPI_Comm comm, const char *path, int create,
                int clobber, int writable, MPI_Info info);
int ncp_io_close(ncp_file *f);

/* Collective: data movement over the list of extents.  buf holds
 * ext->nbytes bytes.  All ranks of comm must call, with any (or no)
 * extents. */
int ncp_io_xfer_all(ncp_file *f, int is_write, const ncp_extents *ext,
                    void *buf);
/* The same with the memory side in pieces: mem lists (address, length)
 * pairs, address cast to MPI_Offset, in the order of ext's bytes, with
 * mem->nbytes == ext->nbytes.  collective 0 uses the independent handle.
 * A collective transfer on a grouped file goes through the groups'
 * aggregators. */
int ncp_io_xferv(ncp_file *f, int collective, int is_write,
                 const ncp_extents *ext, const ncp_extents *mem);

/* Whether a transfer on f may hand over memory pieces with swap widths
 * (ncp_extents_add_swapped): the driver then reverses the bytes as it
 * copies them to the file, or right after they arrive in memory, while
 * they are still in cache.  A write's caller buffer is then never swapped
 * in place.  The posix driver: every read not routed through I/O groups,
 * and an aggregated write wherever this rank's bytes are copied anyway
 * (it stages them in shared memory, or is an aggregator).  A mem
 * list with widths given to any other transfer is refused with
 * NC_EINTERNAL. */
int ncp_io_swaps(const ncp_file *f, int collective, int is_write);

/* Independent contiguous access at an absolute offset through the
 * collective handle (used by rank 0 for header bytes). */
int ncp_io_write_at(ncp_file *f, MPI_Offset off, const void *buf,
                    int64_t n);
int ncp_io_read_at(ncp_file *f, MPI_Offset off, void *buf, int64_t n,
                   int64_t *got);

/*
 * Write-behind (hint nc_write_behind, ncp_wb.h): data writes return once
 * staged.  A collective write first checks, over every rank, that it
 * meets no pending bytes (else all wait); a collective read, and
 * ncp_io_sync, wait for what is pending.  A background error is
 * returned by the next transfer or sync of the rank that met it (agreed
 * over every rank where the call is collective), then by close.
 */
int ncp_io_behind_on(const ncp_file *f);
/* Collective: every rank's pending writes are in the file when this
 * returns; the code, agreed, of any background error not yet reported. */
int ncp_io_behind_settle(ncp_file *f);
/* hold 1: the background writes of f wait (unless staging needs room)
 * while the caller's call runs, its collectives included, so the call
 * has the cores to itself; 0, when the call returns: they go on. */
void ncp_io_behind_hold(ncp_file *f, int hold);
/* This rank's pending writes are in the file; its background error not
 * yet reported. */
int ncp_io_behind_drain(ncp_file *f);
void ncp_io_behind_stats(const ncp_file *f, ncp_wb_stats *s);

int ncp_io_get_size(ncp_file *f, MPI_Offset *size);
/* Collective. */
int ncp_io_set_size(ncp_file *f, MPI_Offset size);
int ncp_io_sync(ncp_file *f);
/* The hints in use (caller frees): the MPI-IO layer's for mpiio, the
 * user's for posix, and nc_driver. */
int ncp_io_get_info(ncp_file *f, MPI_Info *info);

/* The name of the driver serving f ("mpiio" or "posix"). */
const char *ncp_io_driver_name(const ncp_file *f);

/* What the posix driver's aggregated writes on f did so far, the I/O
 * groups' aggregators' file included. */
const ncp_agg_counts *ncp_io_driver_counts(const ncp_file *f);

#endif
