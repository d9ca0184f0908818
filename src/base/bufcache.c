/*
 * bufcache.c -- kept request buffers (ncp_bufcache.h).
 */
#include <stdlib.h>

#include "ncp_bufcache.h"

/* Room before each block for its size, keeping malloc's alignment. */
#define HEADER 16

static int64_t size_of(const void *block)
{
    return *(const int64_t *)block;
}

void ncp_bufcache_init(ncp_bufcache *c)
{
    c->n = 0;
    c->kept = c->live = c->peak = c->reused = 0;
}

/* The smallest kept block that holds nbytes without wasting more than
 * half of itself; -1 when none. */
static int best_fit(const ncp_bufcache *c, int64_t nbytes)
{
    int i, best = -1;
    for (i = 0; i < c->n; i++) {
        int64_t sz = size_of(c->slot[i]);
        if (sz < nbytes || sz / 2 > nbytes) continue;
        if (best < 0 || sz < size_of(c->slot[best])) best = i;
    }
    return best;
}

static void *unslot(ncp_bufcache *c, int i)
{
    void *block = c->slot[i];
    c->slot[i] = c->slot[--c->n];
    c->kept -= size_of(block);
    return block;
}

void *ncp_bufcache_take(ncp_bufcache *c, int64_t nbytes)
{
    int i = best_fit(c, nbytes);
    char *block;
    if (i >= 0) {
        block = unslot(c, i);
        c->reused++;
    } else {
        if (!(block = malloc((size_t)nbytes + HEADER))) return NULL;
        *(int64_t *)block = nbytes;
    }
    c->live += size_of(block);
    if (c->live > c->peak) c->peak = c->live;
    return block + HEADER;
}

static int smallest(const ncp_bufcache *c)
{
    int i, s = 0;
    for (i = 1; i < c->n; i++)
        if (size_of(c->slot[i]) < size_of(c->slot[s])) s = i;
    return s;
}

static int full(int n, int64_t kept, int64_t cap)
{
    return n == NCP_BUFCACHE_SLOTS || kept > cap;
}

/* Keep block, making room by dropping smaller kept ones; 0 when even
 * dropping all of those would not make room. */
static int keep(ncp_bufcache *c, void *block, int64_t limit)
{
    int64_t sz = size_of(block), cap = limit < c->peak ? limit : c->peak;
    int64_t larger = 0;
    int i, nlarger = 0;
    if (sz < NCP_BUFCACHE_MIN) return 0;
    for (i = 0; i < c->n; i++)
        if (size_of(c->slot[i]) >= sz) {
            larger += size_of(c->slot[i]);
            nlarger++;
        }
    if (full(nlarger, larger + sz, cap)) return 0;
    while (full(c->n, c->kept + sz, cap)) free(unslot(c, smallest(c)));
    c->slot[c->n++] = block;
    c->kept += sz;
    return 1;
}

void ncp_bufcache_give(ncp_bufcache *c, void *p, int64_t limit)
{
    char *block;
    if (!p) return;
    block = (char *)p - HEADER;
    c->live -= size_of(block);
    if (!keep(c, block, limit)) free(block);
}

void ncp_bufcache_move(ncp_bufcache *dst, ncp_bufcache *src)
{
    while (src->n > 0 && dst->n < NCP_BUFCACHE_SLOTS) {
        void *block = unslot(src, src->n - 1);
        dst->slot[dst->n++] = block;
        dst->kept += size_of(block);
    }
    if (src->peak > dst->peak) dst->peak = src->peak;
    ncp_bufcache_clear(src);
    src->peak = 0;
}

void ncp_bufcache_clear(ncp_bufcache *c)
{
    while (c->n > 0) free(unslot(c, c->n - 1));
}
