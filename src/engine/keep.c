/*
 * keep.c -- the memory a closing dataset keeps for the next one: the
 * arena its held independent puts were copied into (indep.c), the
 * request buffers it kept (ncp_bufcache.h) and its flush lists
 * (flush.c).
 *
 * Why: fresh pages are zeroed by the kernel at first touch, a fault per
 * page that every dataset would pay again for buffers the last one had
 * already touched; a program writing a file per step reuses them
 * instead.  The price: after its dataset closes, one arena (at most
 * nc_indep_buffer_size) and the kept buffers and lists (each at most
 * nc_kept_buffer_size) stay resident until the next dataset takes them
 * or MPI_Finalize frees them, through a delete callback on MPI_COMM_SELF
 * as shm_keep.c does.  Only the kept memory is freed there: what an open
 * dataset holds is not among them.  Not safe for threads calling at
 * once, like the rest of the library.
 */
#define _DEFAULT_SOURCE /* madvise, posix_memalign */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "ncp_engine.h"
#include "pnetcdf.h"

static char *kept_arena;
static int64_t kept_arena_size;
static ncp_bufcache kept_bufs;
static ncp_flush_keep kept_lists;
static int finalize_key = MPI_KEYVAL_INVALID;

static int free_kept(MPI_Comm comm, int key, void *val, void *extra)
{
    (void)comm;
    (void)key;
    (void)val;
    (void)extra;
    free(kept_arena);
    kept_arena = NULL;
    kept_arena_size = 0;
    ncp_bufcache_clear(&kept_bufs);
    ncp_flush_keep_free(&kept_lists);
    MPI_Comm_free_keyval(&finalize_key); /* MPI frees it after this call */
    return MPI_SUCCESS;
}

/* Whether MPI_Finalize will free the kept memory; set up once. */
static int finalize_frees(void)
{
    if (finalize_key != MPI_KEYVAL_INVALID) return 1;
    if (MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, free_kept,
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
    if (kept_arena && kept_arena_size == size) {
        p = kept_arena;
        kept_arena = NULL;
        return p;
    }
    if (posix_memalign(&p, (size_t)2 << 20, (size_t)size) != 0) return NULL;
#ifdef MADV_HUGEPAGE
    (void)madvise(p, (size_t)size, MADV_HUGEPAGE);
#endif
    return p;
}

static void arena_put(char *arena, int64_t size)
{
    if (!arena) return;
    if (!finalize_frees()) {
        free(arena);
        return;
    }
    free(kept_arena); /* the newest is kept: likely the size asked next */
    kept_arena = arena;
    kept_arena_size = size;
}

void ncp_kept_bufs_adopt(ncp_bufcache *bufs)
{
    ncp_bufcache_move(bufs, &kept_bufs);
}

static int lists_empty(const ncp_flush_keep *lists)
{
    return lists->fext.cap == 0 && lists->mext.cap == 0 && lists->nruns == 0;
}

void ncp_kept_lists_adopt(ncp_flush_keep *lists)
{
    if (!lists_empty(lists)) return;
    *lists = kept_lists;
    memset(&kept_lists, 0, sizeof(kept_lists));
}

void ncp_keep_for_next(int ncid)
{
    ncp_dataset *ds;
    if (ncp_dataset_get(ncid, &ds) != NC_NOERR) return;
    arena_put(ds->indep.arena, ds->hints.indep_buffer_size);
    ds->indep.arena = NULL;
    if (ds->bufs.n == 0 && lists_empty(&ds->flush_keep))
        return; /* nothing kept: no keyval made for nothing */
    if (!finalize_frees()) return; /* the dataset's end frees them */
    ncp_bufcache_clear(&kept_bufs); /* the newest are kept, as above */
    ncp_bufcache_move(&kept_bufs, &ds->bufs);
    ncp_flush_keep_free(&kept_lists);
    kept_lists = ds->flush_keep;
    memset(&ds->flush_keep, 0, sizeof(ds->flush_keep));
}
