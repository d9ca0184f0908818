/*
 * ncp_agg_msg.h -- an aggregated write's rounds by message (msg.c), run
 * by agg.c wherever no shared staging is set up, and a read's.
 */
#ifndef NCP_AGG_MSG_H
#define NCP_AGG_MSG_H

#include "ncp_agg.h"
#include "ncp_agg_plan.h"
#include "../../base/ncp_stream.h"

/* Rounds whose counts one exchange carries, for nprocs ranks and a plan
 * of nrounds rounds (one MPI_Alltoallv a batch). */
int64_t ncp_agg_msg_batch(int64_t nprocs, int64_t nrounds);

/* Collective over a->comm: the plan's rounds by message, from its current
 * round on.  Returns the agreed code of a failed allocation, else this
 * aggregator's own write error. */
int ncp_agg_write_by_message(ncp_agg *a, ncp_agg_plan *p,
                             const ncp_stream *s);

/* Collective over a->comm: the plan's rounds of a read by message.
 * Returns the agreed code of a failed allocation, else this rank's own
 * code (an aggregator's read error). */
int ncp_agg_read_by_message(ncp_agg *a, ncp_agg_plan *p,
                            const ncp_stream *s);

#endif
