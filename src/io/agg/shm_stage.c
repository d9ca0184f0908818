/*
 * shm_stage.c -- a shared staging's memory: its layout (ncp_shm_stage.h
 * draws it), making its window and freeing it.  What runs through it is
 * shm.c's; which file holds it, shm_keep.c's.
 *
 * The window is allocated noncontiguous, so each aggregator's part may
 * start on its own pages, and lives in one passive epoch (opened by the
 * caller after the window is agreed) in which the ranks order their
 * accesses with atomics.
 */
#include "ncp_shm_stage.h"

#include <stdlib.h>

int64_t ncp_shm_slot(int64_t round_cap, int np)
{
    int64_t slot = round_cap / NCP_SHM_LIST_SHARE / (16 * (int64_t)np);
    return slot < NCP_SHM_MIN_SLOT ? NCP_SHM_MIN_SLOT : slot;
}

void ncp_shm_stage_drop(ncp_shm_stage *st)
{
    if (!st) return;
    free(st->sbuf);
    free(st->first);
    free(st);
}

ncp_shm_stage *ncp_shm_stage_new(MPI_Comm comm, int64_t round_cap,
                                 int64_t per_node, int naggr)
{
    ncp_shm_stage *st = calloc(1, sizeof(*st));
    if (!st) return NULL;
    MPI_Comm_size(comm, &st->np);
    MPI_Comm_rank(comm, &st->me);
    st->comm = MPI_COMM_NULL;
    st->round_cap = round_cap;
    st->per_node = per_node;
    st->slot = ncp_shm_slot(st->round_cap, st->np);
    /* the counters, a head per rank, then from a cache line on the pool
     * with room for each rank's padding; a multiple of 64 bytes, so both
     * halves' counters start cache lines */
    st->list_bytes =
        ((MPI_Aint)(ncp_shm_pool_at(st->np) +
                    2 * st->np * (st->slot + NCP_SHM_POOL_ALIGN)) *
             8 +
         63) /
        64 * 64;
    /* the written rounds and the lists on cache lines of their own */
    st->lists_at = (2 * (MPI_Aint)st->round_cap + 63) / 64 * 64;
    st->sbuf = malloc((size_t)naggr * sizeof(char *));
    st->first = malloc(2 * (size_t)st->np * sizeof(int64_t));
    if (st->sbuf && st->first) return st;
    ncp_shm_stage_drop(st);
    return NULL;
}

int ncp_shm_stage_window(ncp_shm_stage *st, MPI_Comm comm, const int *aggr,
                         int naggr, int is_aggr)
{
    MPI_Aint size = 0, got;
    MPI_Info info;
    char *base;
    int a, unit, made;
    if (is_aggr) size = st->lists_at + 64 + 2 * st->list_bytes;
    MPI_Comm_dup(comm, &st->comm);
    MPI_Comm_set_errhandler(st->comm, MPI_ERRORS_RETURN);
    MPI_Info_create(&info);
    MPI_Info_set(info, "alloc_shared_noncontig", "true");
    made = MPI_Win_allocate_shared(size, 1, info, st->comm, &base,
                                   &st->win) == MPI_SUCCESS;
    MPI_Info_free(&info);
    for (a = 0; made && a < naggr; a++)
        MPI_Win_shared_query(st->win, aggr[a], &got, &unit, &st->sbuf[a]);
    return made;
}

void ncp_shm_stage_clear(ncp_shm_stage *st, int a)
{
    int h;
    ncp_shm_counter_clear(ncp_shm_written(st, a));
    for (h = 0; h < 2; h++) {
        *ncp_shm_half_fill(st, a, h) = 0;
        ncp_shm_counter_clear(ncp_shm_half_arrived(st, a, h));
    }
}

void ncp_shm_stage_free(ncp_shm_stage *st)
{
    MPI_Win_unlock_all(st->win);
    MPI_Win_free(&st->win);
    MPI_Comm_free(&st->comm);
    ncp_shm_stage_drop(st);
}
