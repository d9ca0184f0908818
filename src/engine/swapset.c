/*
 * swapset.c -- the user buffers of one flush that share memory.
 *
 * Requests may share memory: one buffer written to several variables, or
 * read into twice.  Two things then go wrong unless the flush sees it:
 *  - a put buffer swapped in place (NCP_OPBUF_SWAP, the driver not
 *    swapping) would be swapped once per request, an even number of
 *    times for a buffer written twice, and reach the file in native
 *    order;
 *  - a read may not land twice in the same memory: MPI forbids
 *    overlapping locations in a receive datatype, and a driver that swaps
 *    as bytes arrive would swap the shared elements twice.
 * So the buffers are sorted by address and overlapping ones form
 * clusters.  A put cluster is swapped once, as one region, when its
 * requests agree on the element (width, and a common grid); otherwise its
 * requests take a buffer of their own, filled swapped from the user's
 * bytes before anything is swapped.  In a get cluster the first request
 * posted keeps the user's memory and the later ones read into buffers of
 * their own, decoded after the read in posting order, so the later
 * request wins, as with sequential calls.  Swapping is its own inverse,
 * so the same regions undo a put's swap.
 */
#include <stdint.h>
#include <stdlib.h>

#include "../format/ncp_xconv.h"
#include "ncp_engine.h"
#include "pnetcdf.h"

typedef struct swap_span {
    uintptr_t lo;
    int64_t len;
    int width;
    int posted; /* the op's place in posting order */
    ncp_op *op;
} swap_span;

static int span_order(const void *a, const void *b)
{
    const swap_span *x = a, *y = b;
    if (x->lo != y->lo) return x->lo < y->lo ? -1 : 1;
    return x->posted - y->posted;
}

/* Can the spans [i, j), overlapping into one region, be swapped at once? */
static int spans_agree(const swap_span *s, int64_t i, int64_t j)
{
    int64_t k;
    for (k = i + 1; k < j; k++)
        if (s[k].width != s[i].width ||
            (s[k].lo - s[i].lo) % (uintptr_t)s[i].width != 0)
            return 0;
    return 1;
}

/* The op no longer swaps the user's buffer: a put gets the swapped bytes
 * in a buffer of its own now, a get one to decode from at the flush. */
static int take_own_buffer(ncp_dataset *ds, ncp_op *op)
{
    void *copy = NULL;
    if (op->is_put) {
        if (!(copy = ncp_op_mem(ds, op->xbytes))) return NC_ENOMEM;
        ncp_x_swap_copy(copy, op->xbuf, op->req.nelems, op->xsz);
    }
    op->buf = NCP_OPBUF_OWN;
    op->xbuf = copy;
    return NC_NOERR;
}

static void add_region(ncp_swapset *set, uintptr_t lo, uintptr_t hi, int w)
{
    ncp_swap_region *r = &set->r[set->n++];
    r->at = (char *)lo;
    r->len = (int64_t)(hi - lo);
    r->width = w;
}

/* A put cluster [i, j) over [lo, hi): one region, or own buffers. */
static int put_cluster(ncp_dataset *ds, ncp_swapset *set,
                       const swap_span *s, int64_t i, int64_t j, uintptr_t hi)
{
    int64_t k;
    int err = NC_NOERR;
    if (spans_agree(s, i, j)) {
        add_region(set, s[i].lo, hi, s[i].width);
        return NC_NOERR;
    }
    for (k = i; k < j && err == NC_NOERR; k++)
        err = take_own_buffer(ds, s[k].op);
    return err;
}

/* A get cluster [i, j): the first posted keeps the user's memory (and
 * its swap, unless deferred), the others read into their own. */
static int get_cluster(ncp_dataset *ds, ncp_swapset *set,
                       const swap_span *s, int64_t i, int64_t j, int deferred)
{
    int64_t k, first = i;
    int err = NC_NOERR;
    for (k = i + 1; k < j; k++)
        if (s[k].posted < s[first].posted) first = k;
    for (k = i; k < j && err == NC_NOERR; k++)
        if (k != first) err = take_own_buffer(ds, s[k].op);
    if (s[first].op->buf == NCP_OPBUF_SWAP && !deferred)
        add_region(set, s[first].lo, s[first].lo + (uintptr_t)s[first].len,
                   s[first].width);
    return err;
}

/* The sorted spans in clusters of overlapping memory. */
static int join_spans(ncp_dataset *ds, ncp_swapset *set, const swap_span *s,
                      int64_t n, int is_write, int deferred)
{
    int64_t i = 0, j;
    int err = NC_NOERR;
    while (i < n && err == NC_NOERR) {
        uintptr_t hi = s[i].lo + (uintptr_t)s[i].len;
        for (j = i + 1; j < n && s[j].lo < hi; j++)
            if (s[j].lo + (uintptr_t)s[j].len > hi)
                hi = s[j].lo + (uintptr_t)s[j].len;
        err = is_write ? put_cluster(ds, set, s, i, j, hi)
                       : get_cluster(ds, set, s, i, j, deferred);
        i = j;
    }
    return err;
}

/* Does op's user memory take part: a put's when swapped in place, a
 * get's whenever the read lands in it. */
static int in_user_memory(const ncp_op *op, int is_write, int deferred)
{
    if (op->buf == NCP_OPBUF_OWN || op->xbytes == 0) return 0;
    return !is_write || (op->buf == NCP_OPBUF_SWAP && !deferred);
}

int ncp_swapset_build(ncp_dataset *ds, ncp_op **ops, int n, int is_write,
                      int deferred, ncp_swapset *set)
{
    swap_span *s = malloc((size_t)(n > 0 ? n : 1) * sizeof(*s));
    int64_t m = 0;
    int k, err = NC_NOERR;
    set->n = 0;
    set->r = malloc((size_t)(n > 0 ? n : 1) * sizeof(*set->r));
    if (!s || !set->r) err = NC_ENOMEM;
    for (k = 0; k < n && err == NC_NOERR; k++) {
        ncp_op *op = ops[k];
        if (!in_user_memory(op, is_write, deferred)) continue;
        s[m].lo = (uintptr_t)op->xbuf;
        s[m].len = op->xbytes;
        s[m].width = op->xsz;
        s[m].posted = k;
        s[m++].op = op;
    }
    if (err == NC_NOERR) {
        qsort(s, (size_t)m, sizeof(*s), span_order);
        err = join_spans(ds, set, s, m, is_write, deferred);
    }
    if (err != NC_NOERR) set->n = 0; /* nothing to swap, nor to undo */
    free(s);
    return err;
}

void ncp_swapset_apply(const ncp_swapset *set)
{
    int64_t i;
    for (i = 0; i < set->n; i++) {
        const ncp_swap_region *r = &set->r[i];
        ncp_x_swap_inplace(r->at, r->len / r->width, r->width);
    }
}

void ncp_swapset_free(ncp_swapset *set)
{
    free(set->r);
    set->r = NULL;
    set->n = 0;
}
