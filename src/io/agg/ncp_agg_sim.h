/*
 * ncp_agg_sim.h -- an aggregated write worked out instead of run (sim.c):
 * for nprocs ranks that need not exist, the aggregators ncp_agg_open
 * would choose, the plan plan.c makes (its reductions done as loops over
 * the ranks), and what the message rounds of msg.c do in it: the
 * messages each rank sends and each aggregator receives, the pieces each
 * aggregator hands its sink and the write calls they merge into.  A real
 * run's counters (ncp_agg_counts, in ncpario_inq_profile) come out the
 * same; `ncpario plan` prints the numbers.
 *
 * Each rank's extents come from a callback, asked again on every pass
 * (four, and one more per batch of domains whose pieces exceed
 * max_pieces), so that no more than one rank's extents and one batch's
 * pieces are held at once.
 */
#ifndef NCP_AGG_SIM_H
#define NCP_AGG_SIM_H

#include <stdint.h>

#include "ncp_agg.h"
#include "ncp_agg_plan.h"

/* Rank `rank`'s extents into *out (cleared first by the callee),
 * ascending, disjoint, adjacent ones merged as the engine hands them to
 * the driver.  Returns an NC_* code. */
typedef int (*ncp_sim_extents_fn)(void *arg, int64_t rank, ncp_extents *out);

typedef struct ncp_sim_conf {
    int64_t nprocs;
    int64_t ranks_per_node; /* consecutive ranks share a node */
    ncp_agg_conf agg;       /* the nc_posix_* hints; writable set */
    int64_t max_pieces;     /* pieces held at once to count the runs */
} ncp_sim_conf;

/* How the write goes: each rank its own bytes (as many aggregators as
 * ranks), each rank its own because every extent is large
 * (ncp_plan_direct), or in the plan's rounds. */
enum { NCP_SIM_OWN, NCP_SIM_DIRECT, NCP_SIM_ROUNDS };

typedef struct ncp_sim_aggr {
    int64_t rank;
    MPI_Offset lo, hi;  /* its domain, cut to the data */
    int64_t rounds;     /* rounds with a window of its own */
    int64_t msgs_in;    /* messages received (not its own bytes) */
    int64_t pieces;     /* extents clipped to its windows, handed on */
    int64_t runs;       /* contiguous runs they form in each window */
    int64_t writes;     /* sink calls: runs cut at NCP_AGG_IOV pieces */
    int64_t bytes;
} ncp_sim_aggr;

typedef struct ncp_sim {
    int path;             /* NCP_SIM_* */
    int shm_possible;     /* one node: the rounds may run in shared
                             memory instead (no messages) */
    int64_t naggr;
    ncp_sim_aggr *aggr;   /* naggr */
    int64_t *sent;        /* per rank: the messages it sends */
    int64_t extents;      /* every rank's, before the rounds */
    int64_t bytes;
    MPI_Offset round_cap;
    MPI_Offset domain_size, window_size, domains_start, data_end;
    int64_t nrounds, busy_windows;
    int64_t count_exchanges; /* msg.c's count batches (MPI_Alltoallv) */
    int64_t plan_bytes;   /* memory of one rank's plan */
    double plan_seconds;  /* the planner's steps, for every rank */
    double seconds;       /* the whole of ncp_sim_run */
} ncp_sim;

/* Work out the write; ncp_sim_free after either outcome.  Returns an
 * NC_* code: the callback's, or NC_ENOMEM. */
int ncp_sim_run(const ncp_sim_conf *c, ncp_sim_extents_fn fn, void *arg,
                ncp_sim *s);
void ncp_sim_free(ncp_sim *s);

#endif
