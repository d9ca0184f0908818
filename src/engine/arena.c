/*
 * arena.c -- the memory that held independent puts are copied into
 * (indep.c), one spare kept for the next dataset.
 *
 * Why: a fresh arena's pages are zeroed by the kernel at first touch, a
 * pass over up to nc_indep_buffer_size bytes that every dataset writing
 * independently would pay again; a program writing a file per step
 * reuses the pages the last one touched instead.  The price: after its
 * dataset closes, one arena (the hint's size) stays resident until the
 * next dataset takes it or MPI_Finalize frees it, through a delete
 * callback on MPI_COMM_SELF as shm_keep.c does.  Only the spare is
 * freed there: an arena an open dataset holds is not on it.  Not safe
 * for threads calling at once, like the rest of the library.
 */
#define _DEFAULT_SOURCE /* madvise, posix_memalign */
#include <stdlib.h>
#include <sys/mman.h>

#include "ncp_engine.h"

static char *spare;
static int64_t spare_size;
static int finalize_key = MPI_KEYVAL_INVALID;

static int free_spare(MPI_Comm comm, int key, void *val, void *extra)
{
    (void)comm;
    (void)key;
    (void)val;
    (void)extra;
    free(spare);
    spare = NULL;
    spare_size = 0;
    return MPI_SUCCESS;
}

/* Whether MPI_Finalize will free a spare; set up once. */
static int finalize_frees(void)
{
    if (finalize_key != MPI_KEYVAL_INVALID) return 1;
    if (MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, free_spare,
                               &finalize_key, NULL) != MPI_SUCCESS)
        return 0;
    if (MPI_Comm_set_attr(MPI_COMM_SELF, finalize_key, NULL) == MPI_SUCCESS)
        return 1;
    MPI_Comm_free_keyval(&finalize_key);
    finalize_key = MPI_KEYVAL_INVALID;
    return 0;
}

/* On huge pages where the system gives them on request: the copies
 * fault in a page per 2 MiB instead of one per 4 KiB. */
char *ncp_arena_get(int64_t size)
{
    void *p = NULL;
    if (spare && spare_size == size) {
        p = spare;
        spare = NULL;
        return p;
    }
    if (posix_memalign(&p, (size_t)2 << 20, (size_t)size) != 0) return NULL;
#ifdef MADV_HUGEPAGE
    (void)madvise(p, (size_t)size, MADV_HUGEPAGE);
#endif
    return p;
}

void ncp_arena_put(char *arena, int64_t size)
{
    if (!arena) return;
    if (!finalize_frees()) {
        free(arena);
        return;
    }
    free(spare); /* the newest is kept: likely the size asked next */
    spare = arena;
    spare_size = size;
}
