/*
 * ncp_posix_msg.h -- an aggregated write's rounds by message
 * (posix_msg.c), run by posix_agg.c wherever no shared staging is set up.
 */
#ifndef NCP_POSIX_MSG_H
#define NCP_POSIX_MSG_H

#include "ncp_posix.h"
#include "ncp_posix_plan.h"
#include "../base/ncp_stream.h"

/* Collective: the plan's rounds by message, from its current round on.
 * Returns the agreed code of a failed allocation, else this aggregator's
 * own write error. */
int ncp_posix_write_by_message(ncp_file *f, ncp_agg_plan *p,
                               const ncp_stream *s);

#endif
