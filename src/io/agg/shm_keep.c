/*
 * shm_keep.c -- the shared stagings a process keeps between files.
 *
 * Why: making a file's shared staging (MPI_Win_allocate_shared, then
 * every rank faulting its pages in) costs enough that a file starts it
 * only after a few windows of aggregated writes, and its pages are most
 * of a file's first write's extra memory.  A program that writes a file
 * per step or per checkpoint would pay both every time.  A kept staging
 * carries over to the next file on a congruent communicator with the
 * same staging hints.  The price: a kept window's touched pages stay
 * resident until MPI_Finalize (nc_posix_shm_keep=disable frees it at
 * close).
 *
 * The list lives until MPI_Finalize, which frees it through a delete
 * callback on MPI_COMM_SELF: the standard runs those first thing in
 * MPI_Finalize, with MPI still usable.  At most NCP_SHM_KEEP_MAX are
 * kept; a file that cannot keep its staging frees it at close.  Like the
 * rest of the library, the list is not safe for threads calling it at
 * once.
 *
 * A STAGING'S LIFE (st->kept, st->busy)
 *
 *   OWNED ..... made by the open file that holds it (kept 0)
 *   IDLE ...... on the kept list, no file holds it (kept 1, busy 0)
 *   BUSY ...... on the kept list, an open file holds it (kept 1, busy 1)
 *   FREED ..... window and struct gone
 *
 *   (write)  -> OWNED   ncp_posix_shm_setup (shm.c) at an
 *                       aggregated write of a file in state LATER
 *   OWNED    -> IDLE    ncp_posix_shm_free -> ncp_shm_keep_add: at close,
 *                       every rank has room and nc_posix_shm_keep allows
 *   OWNED    -> FREED   ncp_posix_shm_free -> ncp_shm_stage_free: at
 *                       close otherwise
 *   IDLE     -> BUSY    posix_shm_state (posix.c) -> ncp_shm_keep_take:
 *                       at open, when every rank found one
 *                       (ncp_shm_keep_find)
 *   BUSY     -> IDLE    ncp_posix_shm_free -> ncp_shm_keep_release: at
 *                       close, no collective
 *   IDLE     -> FREED   free_kept, at MPI_Finalize (a BUSY one too)
 *
 * Invariants:
 *  1. A kept staging's round count goes on from file to file, so its
 *     counters stay meaningful without being cleared again.
 *  2. Stagings join every rank's list at collective closes, so any two
 *     that some ranks both hold lie in the same order in all their lists
 *     and free_kept reaches each window's MPI_Win_free together.
 *  3. A BUSY staging belongs to one file at a time (find skips busy ones).
 */
#include "ncp_shm_stage.h"

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

void ncp_shm_keep_take(ncp_shm_stage *st)
{
    st->busy = 1;
}

void ncp_shm_keep_release(ncp_shm_stage *st)
{
    st->busy = 0;
}
