/*
 * shm_keep.c -- the shared stagings a process keeps between files.
 *
 * Why: making a file's shared staging (MPI_Win_allocate_shared, then
 * every rank faulting its pages in) took 1.8-3.5 ms, so a file started
 * it only after 8 windows of aggregated writes, and the pages it faulted
 * in were most of a file's first write's extra memory.  A program that
 * writes a file per step or per checkpoint paid both every time.  A kept
 * staging carries over to the next file on a congruent communicator
 * with the same staging hints: coll_perf's writes at 2 and 4 ranks ran
 * a median 1.09x (combined) and 1.07x (per variable) faster, its write's
 * extra memory at 32^3 and 50^3 fell from 7.4-13% of a rank's bytes to
 * under 4% (docs/BENCHMARKS.md).  The price: a kept window's touched
 * pages stay resident until MPI_Finalize (nc_posix_shm_keep=disable
 * frees it at close).
 *
 * The list lives until MPI_Finalize, which frees it through a delete
 * callback on MPI_COMM_SELF: the standard runs those first thing in
 * MPI_Finalize, with MPI still usable.  At most NCP_SHM_KEEP_MAX are
 * kept; a file that cannot keep its staging frees it at close as before.
 * Like the rest of the library, the list is not safe for threads calling
 * it at once.
 */
#include "ncp_posix.h"

#include <stdlib.h>

#include "pnetcdf.h"

/* Kept stagings a process holds at most: enough for a program that
 * keeps a few files open on one communicator, or writes through two. */
#define NCP_SHM_KEEP_MAX 4

static ncp_shm_stage *kept;
static int nkept;
static int finalize_key = MPI_KEYVAL_INVALID;

/* The MPI_COMM_SELF delete callback: every kept staging, newest first.
 * Stagings joined the list at collective closes, so any two that some
 * ranks both hold lie in the same order in all their lists, and each
 * window's ranks reach its MPI_Win_free together. */
static int free_kept(MPI_Comm comm, int key, void *val, void *extra)
{
    ncp_shm_stage *st;
    (void)comm;
    (void)key;
    (void)val;
    (void)extra;
    while ((st = kept) != NULL) {
        kept = st->next;
        ncp_shm_stage_free(st);
    }
    nkept = 0;
    return MPI_SUCCESS;
}

ncp_shm_stage *ncp_shm_keep_find(MPI_Comm comm, int64_t round_cap,
                                 int64_t per_node)
{
    ncp_shm_stage *st;
    int same;
    for (st = kept; st; st = st->next) {
        if (st->busy || st->round_cap != round_cap ||
            st->per_node != per_node)
            continue;
        MPI_Comm_compare(comm, st->comm, &same);
        if (same == MPI_IDENT || same == MPI_CONGRUENT) return st;
    }
    return NULL;
}

int ncp_shm_keep_room(void)
{
    if (nkept >= NCP_SHM_KEEP_MAX) return 0;
    if (finalize_key != MPI_KEYVAL_INVALID) return 1;
    if (MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, free_kept,
                               &finalize_key, NULL) != MPI_SUCCESS)
        return 0;
    if (MPI_Comm_set_attr(MPI_COMM_SELF, finalize_key, NULL) ==
        MPI_SUCCESS)
        return 1;
    MPI_Comm_free_keyval(&finalize_key);
    finalize_key = MPI_KEYVAL_INVALID;
    return 0;
}

void ncp_shm_keep_add(ncp_shm_stage *st)
{
    st->kept = 1;
    st->busy = 0;
    st->next = kept;
    kept = st;
    nkept++;
}
