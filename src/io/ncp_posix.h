/*
 * ncp_posix.h -- the POSIX driver's per-file state, shared by posix.c
 * (open, direct transfers) and posix_agg.c (aggregated writes).
 */
#ifndef NCP_POSIX_H
#define NCP_POSIX_H

#include <sys/uio.h>

#include "ncp_io_driver.h"
#include "../base/ncp_stream.h"

/* iovec entries handed to one preadv/pwritev (POSIX guarantees 16; Linux
 * takes 1024). */
#define NCP_POSIX_IOV 1024

/* Shared staging (posix_shm.c): not for this file, possible once an
 * aggregated write comes, or set up. */
enum { NCP_SHM_NO, NCP_SHM_LATER, NCP_SHM_ON };

/* The largest nc_posix_buffer_size staged in shared memory; a larger
 * hint keeps the message path. */
#define NCP_SHM_MAX_CAP ((int64_t)256 << 20)

/*
 * nc_posix_shm=auto sets the shared staging up once the file's
 * aggregated writes reach this many busy windows (this call's included).
 * Making the window and faulting its pages into every rank took 1.8-3.5
 * ms here: a file of one 2.5 MiB call (5 windows) was written 2x faster
 * by message, while at 10 windows a call went either way (1.3x faster by
 * message in coll_perf, 1.12x slower in coll_io's four calls) and from
 * about 20 on shared staging was 1.04-1.5x faster (docs/BENCHMARKS.md).
 * 8 keeps the clear win and the old behaviour elsewhere.  Counting
 * windows, not bytes, keeps the rule for any nc_posix_buffer_size: both
 * costs scale with it.  A file that took a kept staging over (shm_keep.c)
 * has nothing to set up and stages in it from the first round.
 */
#define NCP_SHM_AFTER_WINDOWS 8

/* The smallest window a call's staging shrinks to (when round_cap
 * allows), shared and message path alike: smaller ones paid more in
 * rounds than they saved (a 1.25 MiB call at 4 ranks: 16 KiB windows
 * 1.4x slower than 64 KiB for per-variable writes).  48 KiB lets a call
 * of 1.25 MiB per rank keep both shared halves within 7.5% of it.  Sized
 * windows are whole steps, so their edges, multiples of the window size
 * from a 1 MiB boundary, fall on page boundaries. */
#define NCP_SHM_MIN_CAP ((MPI_Offset)48 << 10)
#define NCP_SHM_CAP_STEP ((MPI_Offset)16 << 10)

/*
 * The shared staging (posix_shm.c): an MPI shared-memory window with
 * each aggregator's two halves and lists, and where its rounds stand.
 * It outlives the file that made it when kept (shm_keep.c): a later file
 * on a congruent communicator with the same staging hints takes it over,
 * round count and all, as if its calls were that file's next ones.
 */
typedef struct ncp_shm_stage {
    MPI_Win win;        /* the window, in one MPI_Win_lock_all epoch */
    MPI_Comm comm;      /* the window's ranks: files congruent to it may
                           use it */
    int64_t round_cap;  /* the key of a kept staging: round_cap and */
    int64_t per_node;   /* nc_posix_aggrs_per_node */
    char **sbuf;        /* per aggregator: its two halves in win */
    int np, me;         /* ranks in comm and mine */
    int64_t round;      /* rounds staged through the window so far, the
                           same on every rank */
    int64_t *first;     /* the aggregator's merge: per rank, where its
                           pairs start in a half's pool, then where they
                           end */
    int64_t slot;       /* pairs a rank's extent list holds, per half */
    MPI_Aint list_bytes; /* one half's lists: two counters, a head per
                            rank, a pool of slot pairs per rank */
    MPI_Aint lists_at;  /* where, in an aggregator's part, a cache line
                           of its written rounds and then the lists
                           start */
    int kept;           /* on the kept list (shm_keep.c) */
    int busy;           /* kept: a file holds it */
    struct ncp_shm_stage *next; /* the kept list */
} ncp_shm_stage;

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

/* Collective: the bytes of ext (memory side mem) shipped to the
 * aggregators of their file domains, which write them in rounds of at
 * most round_cap bytes each.  Returns this rank's own code; the caller
 * agrees. */
int ncp_posix_write_aggregated(ncp_file *f, const ncp_extents *ext,
                               const ncp_extents *mem);

/* Collective, at the first aggregated write of a file whose shm is
 * NCP_SHM_LATER: the shared staging window.  Every rank agrees on the
 * outcome; on failure shm becomes NCP_SHM_NO (the message path). */
int ncp_posix_shm_setup(ncp_file *f);
/* Collective when the file made its staging (close): the staging is
 * kept for a later file where nc_posix_shm_keep and every rank's kept
 * list allow, else freed.  A kept staging the file took over goes back
 * to the list, with no collective. */
void ncp_posix_shm_free(ncp_file *f);
/* Collective over st->comm: the window and st itself. */
void ncp_shm_stage_free(ncp_shm_stage *st);

/*
 * The kept list (shm_keep.c), a process's stagings between files, freed
 * at MPI_Finalize.  None of these is collective; the callers agree.
 * find: an idle kept staging of a communicator congruent to comm with
 * the same key, or NULL.  room: whether the list may take one more (and
 * its MPI_Finalize hook is in place).  add: onto the list, idle.
 */
ncp_shm_stage *ncp_shm_keep_find(MPI_Comm comm, int64_t round_cap,
                                 int64_t per_node);
int ncp_shm_keep_room(void);
void ncp_shm_keep_add(ncp_shm_stage *st);

/* When shm is NCP_SHM_ON, one round of an aggregated write, run by
 * every rank in the same order and with no collective: each puts its
 * bytes of stream s in aggregator a's window [lo, hi) (lo == hi: none)
 * into a's current half, for every a, then each aggregator drains its
 * half (writes what the ranks put there, its window starting at lo),
 * and every rank calls ncp_posix_shm_next.  Returns this aggregator's
 * write error. */
void ncp_posix_shm_put(ncp_file *f, const ncp_stream *s, int a,
                       MPI_Offset lo, MPI_Offset hi);
int ncp_posix_shm_drain(ncp_file *f, MPI_Offset lo);
void ncp_posix_shm_next(ncp_file *f);

/* Pairs a rank's list may hold in one half when np ranks share the
 * window: no rank may touch more extents in one window (posix_agg.c
 * cuts the windows to that). */
int64_t ncp_posix_shm_slot(const ncp_posix *x, int np);

/* Move every extent of ext with pwritev/preadv against mem; this rank
 * only.  A read reverses the elements of pieces with swap widths as they
 * arrive; a write's pieces carry none (posix_swaps: ncp_io_xferv refuses
 * them). */
int ncp_posix_move(int fd, int is_write, const ncp_extents *ext,
                   const ncp_extents *mem);

/* Write the pieces iov[0..n) at off, continuing after partial writes. */
int ncp_posix_pwritev(int fd, struct iovec *iov, int n, MPI_Offset off);

#endif
