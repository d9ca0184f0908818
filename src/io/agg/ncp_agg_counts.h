/*
 * ncp_agg_counts.h -- what an aggregator's writes did, counted on each
 * rank as it runs them (msg.c, shm.c), so that a run can be checked
 * against the plan `ncpario plan` predicts for it (tools/plan.c) and
 * the profile (ncpario_inq_profile) can report it.
 */
#ifndef NCP_AGG_COUNTS_H
#define NCP_AGG_COUNTS_H

#include <stdint.h>

typedef struct ncp_agg_counts {
    int64_t rounds;      /* aggregated rounds this rank took part in */
    int64_t shm_rounds;  /* of them, staged in shared memory */
    int64_t msgs_sent;   /* data messages this rank sent an aggregator
                            (its own bytes, as an aggregator, excluded) */
    int64_t msgs_recv;   /* aggregator: data messages it received */
    int64_t pieces;      /* aggregator: extents it handed its sink */
    int64_t sink_writes; /* aggregator: its sink's write calls */
    int64_t sink_bytes;  /* aggregator: the bytes they wrote */
} ncp_agg_counts;

/* *sum += *now - *before, field by field. */
static inline void ncp_agg_counts_add(ncp_agg_counts *sum,
                                      const ncp_agg_counts *now,
                                      const ncp_agg_counts *before)
{
    sum->rounds += now->rounds - before->rounds;
    sum->shm_rounds += now->shm_rounds - before->shm_rounds;
    sum->msgs_sent += now->msgs_sent - before->msgs_sent;
    sum->msgs_recv += now->msgs_recv - before->msgs_recv;
    sum->pieces += now->pieces - before->pieces;
    sum->sink_writes += now->sink_writes - before->sink_writes;
    sum->sink_bytes += now->sink_bytes - before->sink_bytes;
}

#endif
