/*
 * ncp_posix_plan.h -- the plan of an aggregated write (posix_agg.c): the
 * call's file range cut into one domain per aggregator, each domain into
 * windows, and a round for every window where some rank has bytes.  The
 * bytes of a round move by message (posix_msg.c) or through the shared
 * staging (posix_shm.c); both walk the same plan.
 */
#ifndef NCP_POSIX_PLAN_H
#define NCP_POSIX_PLAN_H

#include <stdint.h>

#include "ncp_posix.h"

/*
 * Identical on every rank.  Domain a is [base + a*dsz, +dsz) and its
 * window w is the cap bytes from w*cap on.  Only windows where some rank
 * has bytes get a round: a call whose extents lie far apart (I/O groups'
 * aggregators, sparse subarrays of a large variable) would otherwise run
 * one round per cap bytes of span, nearly all of them empty.  A granule
 * is m windows (m = 1 unless the span holds more than NCP_AGG_MAXBITS
 * windows).
 */
typedef struct ncp_agg_plan {
    MPI_Offset base, hi; /* domains start at base; bytes end before hi */
    MPI_Offset dsz;      /* domain size, a multiple of NCP_AGG_ALIGN */
    MPI_Offset cap;      /* window size */
    int64_t wpd, m, gpd; /* windows per domain, per granule; granules
                            per domain */
    uint64_t *busy;      /* bit a*gpd + g: granule g of domain a has bytes */
    uint64_t *dense;     /* the same bits, set where some rank's list
                            would overflow its shared pool (shared
                            staging only): such windows run in parts */
    MPI_Offset part;     /* a dense window's part (cap when none) */
    int64_t nparts;      /* parts of a dense window */
    int64_t *cur;        /* per domain: this round's window, wpd if none */
    int64_t *at;         /* per domain: this round's part of it */
    MPI_Offset most;     /* the most bytes one rank writes */
    int64_t nrounds;     /* the most rounds of one domain (a round per
                            busy window, or per part of a dense one) */
    int64_t nwindows;    /* busy windows of all domains */
} ncp_agg_plan;

/* Aggregator a's window (or part of one) this round: [*lo, *hi),
 * possibly empty. */
void ncp_agg_plan_window(const ncp_agg_plan *p, int a, MPI_Offset *lo,
                         MPI_Offset *hi);
/* On to the next round: every domain to the next part of a dense
 * window, or to its next busy window. */
void ncp_agg_plan_advance(ncp_file *f, ncp_agg_plan *p);

/* Collective: the plan's rounds by message, from its current round on
 * (posix_msg.c).  Returns the agreed code of a failed allocation, else
 * this aggregator's own write error. */
int ncp_posix_write_by_message(ncp_file *f, ncp_agg_plan *p,
                               const ncp_stream *s);

#endif
