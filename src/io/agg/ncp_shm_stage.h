/*
 * ncp_shm_stage.h -- the shared staging of aggregated writes: an MPI
 * shared-memory window holding each aggregator's two halves and their
 * extent lists (shm_stage.c: layout, making and freeing), and the list of
 * stagings a process keeps between files (shm_keep.c).  The rounds that
 * run through a staging are shm.c's.
 */
#ifndef NCP_SHM_STAGE_H
#define NCP_SHM_STAGE_H

#include <mpi.h>
#include <stdint.h>

#include "ncp_shm_counter.h"

/* A half's extent lists take about this share of its data bytes: one
 * 16-byte pair per 64 data bytes over all ranks.  Smaller extents only
 * shorten the windows (plan.c's parts). */
#define NCP_SHM_LIST_SHARE 4
#define NCP_SHM_MIN_SLOT 16
/* Pairs per cache line: each rank reserves whole lines, so no two ranks
 * write pairs into one line while they copy. */
#define NCP_SHM_POOL_ALIGN 4
/* A head: where a rank's pairs start in the pool, and how many. */
#define NCP_SHM_HEAD_WORDS 2

/*
 * A staging.  It outlives the file that made it when kept: a later file
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

/*
 * Aggregator a's part of the window: data bytes first, both halves of
 * round_cap bytes, then a cache line holding the rounds it has written,
 * then the two halves' lists.  A half's lists are its fill counter, its
 * arrivals, a head per rank and, from the next cache line, the pool of
 * np * slot pairs plus padding.  Each rank reserves its pairs, in whole
 * cache lines, with an atomic add on the fill counter, so the lists lie
 * packed at the pool's start: the pages the aggregator touches follow
 * the pairs sent, not the number of ranks.
 */
static inline char *ncp_shm_half_data(const ncp_shm_stage *x, int a, int h)
{
    return x->sbuf[a] + h * x->round_cap;
}

static inline int64_t *ncp_shm_half_fill(const ncp_shm_stage *x, int a,
                                         int h)
{
    return (int64_t *)(x->sbuf[a] + x->lists_at + 64 + h * x->list_bytes);
}

/* the ranks that have put their part of the half's current round */
static inline ncp_shm_counter *ncp_shm_half_arrived(const ncp_shm_stage *x,
                                                    int a, int h)
{
    return (ncp_shm_counter *)(ncp_shm_half_fill(x, a, h) + 1);
}

static inline int64_t *ncp_shm_half_heads(const ncp_shm_stage *x, int a,
                                          int h)
{
    return ncp_shm_half_fill(x, a, h) + 2;
}

/* int64s before a half's pool: the two counters and the heads, up to
 * the next cache line */
static inline int64_t ncp_shm_pool_at(int np)
{
    return (2 + NCP_SHM_HEAD_WORDS * (int64_t)np + 7) / 8 * 8;
}

static inline MPI_Offset *ncp_shm_half_pool(const ncp_shm_stage *x, int a,
                                            int h)
{
    return (MPI_Offset *)(ncp_shm_half_fill(x, a, h) + ncp_shm_pool_at(x->np));
}

/* the rounds aggregator a has written */
static inline ncp_shm_counter *ncp_shm_written(const ncp_shm_stage *x, int a)
{
    return (ncp_shm_counter *)(x->sbuf[a] + x->lists_at);
}

/* Pairs a rank's list may hold in one half when np ranks share a staging
 * of round_cap bytes a half. */
int64_t ncp_shm_slot(int64_t round_cap, int np);

/* A staging's key, geometry and arrays for naggr aggregators on comm,
 * before its window; NULL when out of memory.  Not collective. */
ncp_shm_stage *ncp_shm_stage_new(MPI_Comm comm, int64_t round_cap,
                                 int64_t per_node, int naggr);
/* Collective over comm: st's window (an aggregator's part only where
 * is_aggr), on a duplicate of comm that returns errors, so a failed
 * allocation comes back instead of aborting the job.  Returns whether
 * this rank made it; the caller agrees. */
int ncp_shm_stage_window(ncp_shm_stage *st, MPI_Comm comm, const int *aggr,
                         int naggr, int is_aggr);
/* Zero aggregator a's counters; before any rank uses them. */
void ncp_shm_stage_clear(ncp_shm_stage *st, int a);
/* Free st whose window was never made (st->comm may be set). */
void ncp_shm_stage_drop(ncp_shm_stage *st);
/* Collective over st->comm: the window, its epoch and st itself. */
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
/* take: a file holds the kept st (found above, agreed by every rank);
 * release: the file closed, st is idle on the list again. */
void ncp_shm_keep_take(ncp_shm_stage *st);
void ncp_shm_keep_release(ncp_shm_stage *st);

#endif
