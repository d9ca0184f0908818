/*
 * setup.c -- an aggregator's life with its file: which ranks aggregate
 * (the first per_node ranks of every node, in rank order, or rank 0
 * alone), its limits, and the state its shared staging starts in
 * (shm.c draws the states); at close the staging is kept or freed.
 *
 * Every rank sees the same: one node holds all ranks or not, the hints
 * are rank 0's, and the flags are gathered.  Shared staging needs all
 * ranks on one node, fewer aggregators than ranks there, a writable file
 * and a buffer of at most NCP_SHM_MAX_CAP.  Under it, a kept staging is
 * taken over when every rank holds one, and stages from the first
 * aggregated write.
 */
#include "ncp_agg.h"

#include <stdlib.h>

#include "ncp_agg_shm.h"
#include "ncp_shm_stage.h"
#include "pnetcdf.h"
#include "../../base/ncp_agree.h"
#include "../../util/ncp_hints.h"

enum { KEEP_ENABLE, KEEP_DISABLE }; /* nc_posix_shm_keep's words */

int ncp_agg_conf_read(MPI_Comm comm, MPI_Info info, ncp_agg_conf *c)
{
    ncp_hints v;
    int rank, err = NC_NOERR;
    MPI_Comm_rank(comm, &rank);
    ncp_hints_defaults(&v);
    if (rank == 0) err = ncp_hints_read(info, NCP_HO_POSIX, 1, &v);
    if (err != NC_NOERR) v.posix_aggrs_per_node = -1;
    MPI_Bcast(&v, (int)sizeof(v), MPI_BYTE, 0, comm);
    c->per_node = v.posix_aggrs_per_node;
    c->buffer_size = v.posix_buffer_size;
    c->full_windows = (int)v.posix_window;
    c->shm = (int)v.posix_shm;
    c->keep = v.posix_shm_keep == KEEP_ENABLE;
    return c->per_node < 0 ? NC_EINVAL : NC_NOERR;
}

/* The staging's bytes a round: two rounds share the hint's buffer. */
static int64_t shm_round_cap(int64_t buffer_size)
{
    return buffer_size > 1 ? buffer_size / 2 : 1;
}

int ncp_agg_is_aggregator(const ncp_agg_conf *c, int local, int rank)
{
    return c->per_node > 0 ? local < c->per_node : rank == 0;
}

int ncp_agg_shm_possible(const ncp_agg_conf *c, int nlocal, int nprocs)
{
    int64_t k = c->per_node > 0 ? c->per_node : 1;
    return c->shm != NCP_AGG_SHM_DISABLE && nlocal == nprocs && k < nlocal &&
           c->writable && c->buffer_size <= NCP_SHM_MAX_CAP;
}

int64_t ncp_agg_round_cap(const ncp_agg_conf *c, int shm_ok)
{
    return shm_ok ? shm_round_cap(c->buffer_size) : c->buffer_size;
}

/* The limits, and the staging's first state: NO, LATER, or ON with the
 * kept staging `found` when every rank holds one (all_kept). */
static void limits_set(ncp_agg *a, const ncp_agg_conf *c, int shm_ok,
                       ncp_shm_stage *found, int all_kept)
{
    a->round_cap = ncp_agg_round_cap(c, shm_ok);
    a->full_windows = c->full_windows;
    a->per_node = c->per_node;
    a->keep_stage = c->keep;
    a->direct_ok = c->shm == NCP_AGG_SHM_AUTO;
    if (!shm_ok) return;
    a->shm = NCP_SHM_LATER;
    a->shm_after = c->shm == NCP_AGG_SHM_AUTO ? NCP_SHM_AFTER_WINDOWS : 0;
    if (!all_kept) return;
    ncp_shm_keep_take(found);
    a->stage = found;
    a->shm = NCP_SHM_ON;
    NCP_AGG_SHM_CHECK(a);
}

/* The aggregators from every rank's flags (bit 0: I aggregate; bit 1: I
 * hold a kept staging); returns whether every rank holds one. */
static int aggregators_set(ncp_agg *a, const int *flags, int nprocs,
                           int rank)
{
    int i, all_kept = 1;
    a->my_aggr = -1;
    a->naggr = 0;
    for (i = 0; i < nprocs; i++) {
        if (flags[i] & 1 && i == rank) a->my_aggr = a->naggr;
        if (flags[i] & 1) a->aggr[a->naggr++] = i;
        all_kept &= flags[i] >> 1;
    }
    return all_kept;
}

/* Collective: this rank's place on its node. */
static void node_place(MPI_Comm comm, int rank, int *local, int *nlocal)
{
    MPI_Comm node;
    MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL,
                        &node);
    MPI_Comm_rank(node, local);
    MPI_Comm_size(node, nlocal);
    MPI_Comm_free(&node);
}

static void agg_free(ncp_agg *a)
{
    if (a) free(a->aggr);
    free(a);
}

int ncp_agg_open(MPI_Comm comm, const ncp_agg_conf *c, ncp_agg_sink sink,
                 ncp_agg **out)
{
    int rank, nprocs, local, nlocal, mine, shm_ok, all_kept, *flags;
    ncp_shm_stage *found = NULL;
    ncp_agg *a = calloc(1, sizeof(*a));
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &nprocs);
    flags = malloc((size_t)nprocs * sizeof(int));
    if (a) a->aggr = malloc((size_t)nprocs * sizeof(int));
    *out = NULL;
    if (ncp_agree(comm, a && flags && a->aggr ? NC_NOERR : NC_ENOMEM) !=
        NC_NOERR) {
        agg_free(a);
        free(flags);
        return NC_ENOMEM;
    }
    node_place(comm, rank, &local, &nlocal);
    shm_ok = ncp_agg_shm_possible(c, nlocal, nprocs);
    if (shm_ok && c->keep)
        found = ncp_shm_keep_find(comm, shm_round_cap(c->buffer_size),
                                  c->per_node);
    mine = ncp_agg_is_aggregator(c, local, rank) | (found ? 2 : 0);
    MPI_Allgather(&mine, 1, MPI_INT, flags, 1, MPI_INT, comm);
    a->comm = comm;
    a->sink = sink;
    all_kept = aggregators_set(a, flags, nprocs, rank);
    limits_set(a, c, shm_ok, found, all_kept);
    free(flags);
    *out = a;
    return NC_NOERR;
}

void ncp_agg_close(ncp_agg *a)
{
    if (!a) return;
    ncp_agg_shm_free(a);
    agg_free(a);
}
