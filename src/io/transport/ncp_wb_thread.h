/*
 * ncp_wb_thread.h -- the write-behind thread (wb_thread.c): one rank's
 * staged bytes reach its file descriptor from a thread of its own while
 * the program goes on.  The caller reserves a job (waiting while the
 * staging budget is full), packs bytes and their file segments into it
 * and submits it; the thread writes jobs in submission order, so a later
 * job over the same bytes wins.  No MPI: the thread makes only
 * pwritev calls (through ncp_posix_move_iov and its crash points).
 */
#ifndef NCP_WB_THREAD_H
#define NCP_WB_THREAD_H

#include <mpi.h>
#include <stdint.h>

#include "ncp_posix_move.h"

typedef struct ncp_wbt ncp_wbt;

/* One job: nseg file segments (ascending), their bytes packed in data;
 * the thread reverses the elements of its swap runs before writing. */
typedef struct ncp_wbt_job {
    struct ncp_wbt_job *next;
    char *data;
    int64_t data_cap;
    MPI_Offset *seg_off, *seg_len;
    int nseg, seg_cap;
    ncp_swap_runs swaps;
    int64_t log_off;  /* where the bytes wait in the log (data NULL) */
    int64_t bytes;    /* staged bytes the budget counts */
    int fail;         /* NC_* code the write is to fail with (tests), or 0 */
} ncp_wbt_job;

/* What the thread did, for the profile. */
typedef struct ncp_wbt_stats {
    int64_t jobs, bytes, peak_staged, waits_for_room, bytes_logged;
} ncp_wbt_stats;

/* Start the thread for fd with a budget of `budget` staged bytes; at
 * stop, up to `keep` bytes of its buffers pass to the next writer of the
 * process (they stay mapped; nothing to fault in again).  log_fd >= 0: a
 * file (the caller's, removed from its folder) where staging that finds
 * the budget spent goes instead of waiting; it costs one more buffer on
 * each side, the caller's spill and the thread's replay. */
int ncp_wbt_start(int fd, int64_t budget, int64_t keep, int log_fd,
                  ncp_wbt **out);
/* Wait for what is queued, stop the thread and free it (NULL: nothing);
 * returns the first write error the thread met (NC_NOERR when none). */
int ncp_wbt_stop(ncp_wbt *t);

/* The bytes of one job's buffer: the budget, or 4 MiB where it is more
 * (budget / cap buffers at most are allocated, kept until stop). */
int64_t ncp_wbt_job_cap(const ncp_wbt *t);
/* A job with room for `bytes` (at most ncp_wbt_job_cap) and nseg
 * segments, waiting for a free buffer. */
int ncp_wbt_reserve(ncp_wbt *t, int64_t bytes, int nseg, ncp_wbt_job **job);
/* Queue a filled job (nseg, seg_*, data set); the thread owns it now. */
void ncp_wbt_submit(ncp_wbt *t, ncp_wbt_job *job);
/* Give back a reserved job that is not to be written. */
void ncp_wbt_cancel(ncp_wbt *t, ncp_wbt_job *job);

/* hold 1: start no job until released (or until a reservation or a wait
 * needs the thread), while the caller's call runs; 0: release. */
void ncp_wbt_hold(ncp_wbt *t, int hold);
/* Wait until every submitted job is written; the first error so far. */
int ncp_wbt_wait(ncp_wbt *t);
/* The first error so far and whether jobs are queued, without waiting. */
int ncp_wbt_error(ncp_wbt *t);
int ncp_wbt_busy(ncp_wbt *t);
void ncp_wbt_stats_get(ncp_wbt *t, ncp_wbt_stats *s);

#endif
