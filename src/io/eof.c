/*
 * eof.c -- reads that reach past the end of the file.
 *
 * A file cut short (a crash, truncate()) still has a header promising
 * more bytes than it holds.  Every byte of a read past the end of the file
 * reads as zero, whatever the driver or I/O group path, as a sparse
 * file's hole would: the read is clipped to the file's size before any
 * driver sees it, and the memory of the bytes cut off is zeroed here.  No
 * path then depends on how a driver or an MPI-IO implementation reports
 * a short read, and no byte of the caller's (or the engine's conversion)
 * memory is left unwritten.
 *
 * Invariants:
 *  1. Extents ascend, so the bytes inside the file are a prefix of the
 *     transfer's byte stream; the clipped lists describe that prefix.
 *  2. A memory piece with a swap width holds whole elements.  An element
 *     the end of the file cuts goes to the driver as a piece of width 0
 *     (its bytes as they are); its missing bytes are zeroed and the whole
 *     element is reversed here after the read, as if the file had held
 *     zeros there.
 */
#include "ncp_eof.h"

#include <stdlib.h>
#include <string.h>

#include "pnetcdf.h"

void ncp_eof_clip_free(ncp_eof_clip *c)
{
    free(c->ext_len);
    free(c->mem_off);
    free(c->mem_len);
    free(c->mem_swap);
    memset(c, 0, sizeof(*c));
}

/* Bytes of ext inside a file of size bytes, and how many extents hold
 * them. */
static MPI_Offset inside(const ncp_extents *ext, MPI_Offset size,
                         int64_t *n)
{
    MPI_Offset k = 0;
    int64_t i;
    for (i = 0; i < ext->n && ext->off[i] < size; i++) {
        MPI_Offset end = ext->off[i] + ext->len[i];
        k += (end <= size ? ext->len[i] : size - ext->off[i]);
    }
    *n = i;
    return k;
}

/* Zero the memory of stream bytes [k, end) of mem; return the piece
 * holding stream byte k (mem->n when k is the end) and its start. */
static int64_t zero_tail(const ncp_extents *mem, MPI_Offset k,
                         MPI_Offset *piece_at)
{
    MPI_Offset at = 0;
    int64_t i, first = mem->n;
    for (i = 0; i < mem->n; i++) {
        MPI_Offset a = at > k ? at : k;
        MPI_Offset b = at + mem->len[i];
        if (b > a) {
            char *p = (char *)(intptr_t)mem->off[i];
            memset(p + (a - at), 0, (size_t)(b - a));
            if (first == mem->n) {
                first = i;
                *piece_at = at;
            }
        }
        at = b;
    }
    return first;
}

static int clip_ext(ncp_eof_clip *c, const ncp_extents *ext, int64_t n,
                    MPI_Offset size, MPI_Offset k)
{
    if (n == 0) return NC_NOERR;
    c->ext_len = malloc((size_t)n * sizeof(*c->ext_len));
    if (!c->ext_len) return NC_ENOMEM;
    memcpy(c->ext_len, ext->len, (size_t)n * sizeof(*c->ext_len));
    if (ext->off[n - 1] + ext->len[n - 1] > size)
        c->ext_len[n - 1] = size - ext->off[n - 1];
    c->ext.n = c->ext.cap = n;
    c->ext.off = ext->off;
    c->ext.len = c->ext_len;
    c->ext.nbytes = k;
    return NC_NOERR;
}

/* The memory prefix of k bytes: the pieces before cut whole, piece cut
 * (starting at stream byte cut_at) up to k.  An element cut at k goes
 * as a piece of its own without a swap width (invariant 2). */
static int clip_mem(ncp_eof_clip *c, const ncp_extents *mem, int64_t cut,
                    MPI_Offset cut_at, MPI_Offset k)
{
    MPI_Offset part = k - cut_at, whole = part;
    int w = (part > 0 && mem->swap) ? mem->swap[cut] : 0;
    int64_t m = cut;
    if (w > 1 && part % w != 0) {
        whole = part - part % w;
        c->fix_addr = mem->off[cut] + whole;
        c->fix_width = w;
    }
    m += (whole > 0) + (c->fix_width > 0);
    if (m == 0) return NC_NOERR;
    c->mem_off = malloc((size_t)m * sizeof(*c->mem_off));
    c->mem_len = malloc((size_t)m * sizeof(*c->mem_len));
    if (mem->swap) c->mem_swap = malloc((size_t)m);
    if (!c->mem_off || !c->mem_len || (mem->swap && !c->mem_swap))
        return NC_ENOMEM;
    memcpy(c->mem_off, mem->off, (size_t)cut * sizeof(*c->mem_off));
    memcpy(c->mem_len, mem->len, (size_t)cut * sizeof(*c->mem_len));
    if (mem->swap) memcpy(c->mem_swap, mem->swap, (size_t)cut);
    if (whole > 0) {
        c->mem_off[cut] = mem->off[cut];
        c->mem_len[cut] = whole;
        if (mem->swap) c->mem_swap[cut] = mem->swap[cut];
    }
    if (c->fix_width) {
        c->mem_off[m - 1] = c->fix_addr;
        c->mem_len[m - 1] = part - whole;
        c->mem_swap[m - 1] = 0;
    }
    c->mem.n = c->mem.cap = m;
    c->mem.off = c->mem_off;
    c->mem.len = c->mem_len;
    c->mem.swap = c->mem_swap;
    c->mem.nbytes = k;
    return NC_NOERR;
}

int ncp_eof_clip_read(const ncp_extents *ext, const ncp_extents *mem,
                      MPI_Offset size, ncp_eof_clip *c)
{
    MPI_Offset k, cut_at = 0;
    int64_t n, cut;
    int rc = NC_NOERR;
    memset(c, 0, sizeof(*c));
    if (ext->n == 0 ||
        ext->off[ext->n - 1] + ext->len[ext->n - 1] <= size)
        goto done;
    c->clipped = 1;
    k = inside(ext, size, &n);
    cut = zero_tail(mem, k, &cut_at);
    if (cut == mem->n) cut_at = k;
    rc = clip_ext(c, ext, n, size, k);
    if (rc == NC_NOERR) rc = clip_mem(c, mem, cut, cut_at, k);
done:
    return rc;
}

void ncp_eof_clip_finish(const ncp_eof_clip *c)
{
    unsigned char *p = (unsigned char *)(intptr_t)c->fix_addr;
    int i, w = c->fix_width;
    for (i = 0; i < w / 2; i++) {
        unsigned char t = p[i];
        p[i] = p[w - 1 - i];
        p[w - 1 - i] = t;
    }
}
