/*
 * extents.c -- the extent list (ncp_extents.h).  Adjacent extents merge
 * as they are added, so a list is as short as its bytes allow.
 */
#include "ncp_extents.h"

#include <stdlib.h>
#include <string.h>

#include "pnetcdf.h"

void ncp_extents_init(ncp_extents *e) { memset(e, 0, sizeof(*e)); }

void ncp_extents_free(ncp_extents *e)
{
    free(e->off);
    free(e->len);
    free(e->swap);
    ncp_extents_init(e);
}

/* The swap widths go: a list with them tells the driver that it swaps,
 * which the next list may not want. */
void ncp_extents_clear(ncp_extents *e)
{
    e->n = 0;
    e->nbytes = 0;
    free(e->swap);
    e->swap = NULL;
}

int64_t ncp_extents_storage(const ncp_extents *e)
{
    return e->cap * (int64_t)(2 * sizeof(MPI_Offset));
}

/* Room for cap entries; the swap widths grow along once they exist. */
static int extents_resize(ncp_extents *e, int64_t cap)
{
    MPI_Offset *off = realloc(e->off, (size_t)cap * sizeof(*off));
    if (!off) return NC_ENOMEM;
    e->off = off;
    MPI_Offset *len = realloc(e->len, (size_t)cap * sizeof(*len));
    if (!len) return NC_ENOMEM;
    e->len = len;
    if (e->swap) {
        unsigned char *w = realloc(e->swap, (size_t)cap);
        if (!w) return NC_ENOMEM;
        e->swap = w;
    }
    e->cap = cap;
    return NC_NOERR;
}

/* Room for one more entry. */
static int extents_grow(ncp_extents *e)
{
    return extents_resize(e, e->cap ? e->cap * 2 : 64);
}

int ncp_extents_reserve(ncp_extents *e, int64_t n)
{
    return n > e->cap ? extents_resize(e, n) : NC_NOERR;
}

int ncp_extents_add_swapped(ncp_extents *e, MPI_Offset off, MPI_Offset len,
                            int width)
{
    unsigned char w = (unsigned char)(width > 1 ? width : 0);
    int err;
    if (len <= 0) return NC_NOERR;
    if (w && !e->swap) { /* first swapped piece: earlier ones had none */
        if (!(e->swap = calloc((size_t)(e->cap ? e->cap : 1), 1)))
            return NC_ENOMEM;
    }
    e->nbytes += len;
    if (e->n > 0 && e->off[e->n - 1] + e->len[e->n - 1] == off &&
        (!e->swap || e->swap[e->n - 1] == w)) {
        e->len[e->n - 1] += len;
        return NC_NOERR;
    }
    if (e->n == e->cap && (err = extents_grow(e)) != NC_NOERR) {
        e->nbytes -= len;
        return err;
    }
    e->off[e->n] = off;
    e->len[e->n] = len;
    if (e->swap) e->swap[e->n] = w;
    e->n++;
    return NC_NOERR;
}

int ncp_extents_add(ncp_extents *e, MPI_Offset off, MPI_Offset len)
{
    return ncp_extents_add_swapped(e, off, len, 0);
}
