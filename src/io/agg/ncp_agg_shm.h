/*
 * ncp_agg_shm.h -- an aggregated write's rounds through the shared
 * staging (shm.c), and the staging's life with its file: set up by agg.c,
 * freed or kept at close by the driver that made the aggregator.
 */
#ifndef NCP_AGG_SHM_H
#define NCP_AGG_SHM_H

#include "ncp_agg.h"
#include "ncp_agg_plan.h"
#include "../../base/ncp_stream.h"

/* When shm is NCP_SHM_ON: the plan's rounds through the shared staging,
 * every rank in the same order, with no collective.  Returns this
 * aggregator's own write error. */
int ncp_agg_write_by_shm(ncp_agg *a, ncp_agg_plan *p, const ncp_stream *s);

/* Pairs a rank's list may hold in one half of the file's staging: the
 * planner cuts windows so that no rank touches more extents in one. */
int64_t ncp_agg_shm_slot(const ncp_agg *a, int np);

/* Collective, at an aggregated write of a file whose shm is
 * NCP_SHM_LATER: the shared staging window.  Every rank agrees on the
 * outcome; on failure shm becomes NCP_SHM_NO (the message path). */
int ncp_agg_shm_setup(ncp_agg *a);

/* Collective when the file made its staging (close): the staging is
 * kept for a later file where nc_posix_shm_keep and every rank's kept
 * list allow, else freed.  A kept staging the file took over goes back
 * to the list, with no collective. */
void ncp_agg_shm_free(ncp_agg *a);

/* The file's staging state as shm.c draws it: NULL when it holds
 * (a known state; a staging exactly when ON, with its rounds, ranks and
 * pool slot in range), else the broken promise.  NCP_AGG_SHM_CHECK
 * aborts on a broken one where assertions are on, at every transition
 * (open, setup, each call's rounds, close). */
const char *ncp_agg_shm_broken(const ncp_agg *a);
void ncp_agg_shm_check(const ncp_agg *a, const char *file, int line);
#ifdef NDEBUG
#define NCP_AGG_SHM_CHECK(a) ((void)0)
#else
#define NCP_AGG_SHM_CHECK(a) ncp_agg_shm_check((a), __FILE__, __LINE__)
#endif

#endif
