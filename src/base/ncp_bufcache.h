/*
 * ncp_bufcache.h -- buffers a dataset's finished requests gave back, kept
 * for its next ones.
 *
 * A converted or packed request needs a buffer of its own, freed when the
 * request completes.  A wait frees a record's worth of them at once, and
 * malloc then returns those pages to the kernel (munmap of large blocks,
 * trimming the heap's top); the next record's buffers come back zeroed, a
 * page fault per page touched, every record.  The cache keeps freed blocks
 * of at least NCP_BUFCACHE_MIN bytes and hands them out again, best fit.
 * It holds at most `limit` bytes (the caller's bound, given at each give)
 * and never more than were ever in use at once, so a program's peak memory
 * at most doubles and only while the dataset is open.  Blocks carry their
 * size in a small header: only pointers from ncp_bufcache_take may be
 * given back.  Not for threads calling at once.
 */
#ifndef NCP_BUFCACHE_H
#define NCP_BUFCACHE_H

#include <stdint.h>

#define NCP_BUFCACHE_SLOTS 32
#define NCP_BUFCACHE_MIN ((int64_t)16 << 10)

typedef struct ncp_bufcache {
    void *slot[NCP_BUFCACHE_SLOTS]; /* kept blocks, headers included */
    int n;                          /* slots in use */
    int64_t kept;                   /* bytes in the slots */
    int64_t live;                   /* bytes taken and not yet given back */
    int64_t peak;                   /* most bytes ever live at once */
    int64_t reused;                 /* takes served from the slots */
} ncp_bufcache;

/* A zeroed cache is empty and ready. */
void ncp_bufcache_init(ncp_bufcache *c);
/* At least nbytes (0 allowed), 16-byte aligned; NULL when out of memory. */
void *ncp_bufcache_take(ncp_bufcache *c, int64_t nbytes);
/* Back into the cache, or freed when it would hold more than limit bytes
 * (0: keep nothing).  NULL is ignored. */
void ncp_bufcache_give(ncp_bufcache *c, void *p, int64_t limit);
/* dst, holding no kept blocks, takes src's (src's peak with them, so
 * that dst may keep as much); src is left empty. */
void ncp_bufcache_move(ncp_bufcache *dst, ncp_bufcache *src);
/* Free every kept block; blocks still taken stay valid. */
void ncp_bufcache_clear(ncp_bufcache *c);

#endif
