/*
 * ncp_posix.h -- the POSIX driver's per-file state, read by every file
 * of the driver.  The files, top to bottom (each calls only those below
 * it; each declares what it offers in an ncp_*.h of its name):
 *
 *   posix.c        the driver's table: open, close, transfers, hints
 *   posix_agg.c    an aggregated write: the plan, then one of two paths
 *   posix_msg.c    path 1: rounds by message (MPI_Alltoallw)
 *   posix_shm.c    path 2: rounds through the shared staging
 *   shm_keep.c     stagings kept between files
 *   shm_stage.c    a staging's window and layout
 *   shm_counter.c  the counters the shared rounds hand over by
 *   posix_plan.c   the plan, pure arithmetic (no MPI)
 *   posix_move.c   one rank's bytes to and from the file (no MPI)
 */
#ifndef NCP_POSIX_H
#define NCP_POSIX_H

#include "ncp_io_driver.h"

struct ncp_shm_stage;

/* Shared staging: not for this file, possible once an aggregated write
 * comes, or set up (posix_shm.c draws the states). */
enum { NCP_SHM_NO, NCP_SHM_LATER, NCP_SHM_ON };

/* The largest nc_posix_buffer_size staged in shared memory; a larger
 * hint keeps the message path. */
#define NCP_SHM_MAX_CAP ((int64_t)256 << 20)

/*
 * nc_posix_shm=auto sets the shared staging up once the file's
 * aggregated writes reach this many busy windows of round_cap bytes
 * (this call's included): making the window and faulting its pages in
 * costs more than a file of a few windows saves by it.  Counting
 * windows, not bytes, keeps the rule for any nc_posix_buffer_size: both
 * costs scale with it.  A file that took a kept staging over (shm_keep.c)
 * has nothing to set up and stages in it from the first round.
 */
#define NCP_SHM_AFTER_WINDOWS 8

typedef struct ncp_posix {
    int naggr;          /* number of aggregators */
    int *aggr;          /* their ranks in f->comm, ascending */
    int my_aggr;        /* this rank's index in aggr, or -1 */
    int64_t round_cap;  /* bytes an aggregator stages per round: the
                           nc_posix_buffer_size hint, or half of it when
                           two rounds share it (shm) */
    int full_windows;   /* nc_posix_window=full: windows of round_cap
                           bytes, not sized to the call */
    int shm;            /* NCP_SHM_* */
    int direct_ok;      /* nc_posix_shm=auto: a collective write of large
                           extents may skip the aggregators (posix_agg.c);
                           a chosen staging pins the aggregated path */
    int64_t shm_after;  /* NCP_SHM_LATER: set up once `windows` reaches
                           this (0: at the first aggregated write) */
    int64_t windows;    /* busy windows of round_cap bytes of the
                           aggregated writes so far, the same on every
                           rank */
    int keep_stage;     /* nc_posix_shm_keep: hand the staging to the
                           next file at close */
    int64_t per_node;   /* nc_posix_aggrs_per_node, part of a kept
                           staging's key */
    struct ncp_shm_stage *stage; /* the shared staging, when NCP_SHM_ON */
} ncp_posix;

#endif
