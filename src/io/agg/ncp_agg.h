/*
 * ncp_agg.h -- the aggregator: two-phase collective writes that ncpario
 * does itself.  The ranks agree on a plan, then move the bytes of every
 * planned window to its aggregator, which merges them and hands each run
 * of file bytes to a sink.  The files, top to bottom (each calls only
 * those below it; each declares what it offers in an ncp_*.h):
 *
 *   setup.c        an aggregator's life with its file: who aggregates,
 *                  its limits, its staging's first state; close
 *   agg.c          one aggregated write (the plan, then one of two
 *                  paths) or read (the plan, then msg.c)
 *   msg.c          path 1: rounds by message (MPI_Alltoallw); reads
 *   shm.c          path 2: rounds through the shared staging
 *   shm_keep.c     stagings kept between files
 *   shm_stage.c    a staging's window and layout
 *   shm_counter.c  the counters the shared rounds hand over by
 *   plan.c         the plan, pure arithmetic (no MPI)
 *
 * Nothing here makes a system call on the file: the sink does (the posix
 * driver's is a pwritev, io/transport).  Reads (I/O groups') run the
 * message rounds the other way: msg.c.
 */
#ifndef NCP_AGG_H
#define NCP_AGG_H

#include <sys/uio.h>

#include "ncp_agg_counts.h"
#include "../../base/ncp_extents.h"

/* Pieces handed to the sink at once (Linux takes 1024 in a pwritev). */
#define NCP_AGG_IOV 1024

struct ncp_shm_stage;

/* Shared staging: not for this file, possible once an aggregated write
 * comes, or set up (shm.c draws the states). */
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

/* Where an aggregator's merged bytes go, and where it reads from.
 * write: the file bytes [off, off + the pieces' total) from iov[0..n)
 * (iov may be advanced); read: those bytes into iov's pieces, which the
 * aggregator uses only after round_end.  round_end, when set, ends each
 * round on every aggregator: a sink that moves a round's runs together
 * (one collective call among the aggregators) does it there.  Each
 * returns an NC_* code. */
typedef struct ncp_agg_sink {
    int (*write)(void *arg, struct iovec *iov, int n, MPI_Offset off);
    int (*read)(void *arg, struct iovec *iov, int n, MPI_Offset off);
    int (*round_end)(void *arg, int is_write);
    void *arg;
} ncp_agg_sink;

typedef struct ncp_agg {
    MPI_Comm comm;      /* the writing ranks (not owned) */
    ncp_agg_sink sink;  /* where the aggregators' merged bytes go */
    int naggr;          /* number of aggregators */
    int *aggr;          /* their ranks in comm, ascending */
    int my_aggr;        /* this rank's index in aggr, or -1 */
    int64_t round_cap;  /* bytes an aggregator stages per round: the
                           nc_posix_buffer_size hint, or half of it when
                           two rounds share it (shm) */
    int full_windows;   /* nc_posix_window=full: windows of round_cap
                           bytes, not sized to the call */
    int shm;            /* NCP_SHM_* */
    int direct_ok;      /* nc_posix_shm=auto: a collective write of large
                           extents may skip the aggregators (agg.c);
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
    ncp_agg_counts count; /* what its writes did so far */
} ncp_agg;

/* What an aggregator is made from: the posix hints (nc_posix_*), which
 * the I/O groups' aggregators read too, and the file's access. */
typedef struct ncp_agg_conf {
    int64_t per_node;    /* the first per_node ranks of each node
                            aggregate; 0: rank 0 alone */
    int64_t buffer_size; /* bytes an aggregator stages a round */
    int full_windows;    /* nc_posix_window=full */
    int shm;             /* NCP_AGG_SHM_* */
    int keep;            /* nc_posix_shm_keep=enable */
    int writable;
} ncp_agg_conf;

/* nc_posix_shm's words, in the hint table's order. */
enum { NCP_AGG_SHM_AUTO, NCP_AGG_SHM_ENABLE, NCP_AGG_SHM_DISABLE };

/* Collective over comm: rank 0's nc_posix_* hints of info into c
 * (writable is left to the caller).  NC_EINVAL on every rank when rank 0
 * met a bad one. */
int ncp_agg_conf_read(MPI_Comm comm, MPI_Info info, ncp_agg_conf *c);

/* ncp_agg_open's rules, pure, so that a plan can be made for ranks that
 * are not there (sim.c): does the rank that is `local` on its node
 * aggregate; can the rounds be staged in shared memory (all nprocs ranks
 * on one node of nlocal); the bytes an aggregator stages a round. */
int ncp_agg_is_aggregator(const ncp_agg_conf *c, int local, int rank);
int ncp_agg_shm_possible(const ncp_agg_conf *c, int nlocal, int nprocs);
int64_t ncp_agg_round_cap(const ncp_agg_conf *c, int shm_ok);

/* Collective over comm: an aggregator for a file opened over comm, its
 * merged runs going to sink; NULL and the agreed code on failure.  A
 * staging kept from an earlier file over a congruent communicator is
 * taken over when every rank holds one. */
int ncp_agg_open(MPI_Comm comm, const ncp_agg_conf *c, ncp_agg_sink sink,
                 ncp_agg **out);

/* Collective over a->comm when a made its staging: the staging is kept
 * for a later file or freed (ncp_agg_shm_free), then a.  NULL: nothing. */
void ncp_agg_close(ncp_agg *a);

/* Whether this rank's bytes of an aggregated write may come with swap
 * widths: where it copies them anyway (into the shared staging, or as an
 * aggregator into its own inbox) the swap rides on the copy.  Elsewhere
 * (a sender by message) the caller's in-place swap of all its bytes at
 * once keeps the aggregator from waiting on packed, swapped sends. */
int ncp_agg_takes_swaps(const ncp_agg *a);

/* Collective: the bytes of ext (memory side mem) shipped to the
 * aggregators of their file domains, which hand them to the sink in
 * rounds of at most round_cap bytes each.  *direct = 1 instead when every
 * rank's extents are large and direct_ok is set: nothing moved, each rank
 * is to write its own.  Returns this rank's own code; the caller agrees. */
int ncp_agg_write(ncp_agg *a, const ncp_extents *ext,
                  const ncp_extents *mem, int *direct);

/* Collective: the bytes of ext read into memory mem (no swap widths), in
 * rounds by message: each aggregator reads the union of the ranks'
 * extents in its window through the sink, once however many ranks ask
 * for a byte, and sends each rank its own.  Returns this rank's own
 * code (an aggregator's read error, or an allocation's agreed one); the
 * caller agrees. */
int ncp_agg_read(ncp_agg *a, const ncp_extents *ext, const ncp_extents *mem);

#endif
