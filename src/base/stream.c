/*
 * stream.c -- a rank's transfer as a byte stream (ncp_stream.h).
 */
#include "ncp_stream.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../format/ncp_xconv.h"
#include "pnetcdf.h"

static MPI_Offset *prefix_sums(const ncp_extents *e)
{
    MPI_Offset *at = malloc((size_t)(e->n + 1) * sizeof(*at));
    int64_t i;
    if (!at) return NULL;
    at[0] = 0;
    for (i = 0; i < e->n; i++) at[i + 1] = at[i] + e->len[i];
    return at;
}

int ncp_stream_init(ncp_stream *s, const ncp_extents *ext,
                    const ncp_extents *mem)
{
    s->ext = ext;
    s->mem = mem;
    s->ext_at = prefix_sums(ext);
    s->mem_at = prefix_sums(mem);
    return s->ext_at && s->mem_at ? NC_NOERR : NC_ENOMEM;
}

void ncp_stream_free(ncp_stream *s)
{
    free(s->ext_at);
    free(s->mem_at);
    s->ext_at = s->mem_at = NULL;
}

/* The last index i in at[0..n) with at[i] <= x (at ascending, at[0] <= x). */
static int64_t last_at_or_below(const MPI_Offset *at, int64_t n,
                                MPI_Offset x)
{
    int64_t lo = 0, hi = n - 1;
    while (lo < hi) {
        int64_t mid = lo + (hi - lo + 1) / 2;
        if (at[mid] <= x) lo = mid;
        else hi = mid - 1;
    }
    return lo;
}

int64_t ncp_first_ending_after(const ncp_extents *e, MPI_Offset x)
{
    int64_t lo = 0, hi = e->n;
    while (lo < hi) {
        int64_t mid = lo + (hi - lo) / 2;
        if (e->off[mid] + e->len[mid] <= x) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

int64_t ncp_extents_touching(const ncp_extents *e, MPI_Offset lo,
                             MPI_Offset hi)
{
    int64_t i = ncp_first_ending_after(e, lo);
    int64_t j = ncp_first_ending_after(e, hi); /* those before end <= hi */
    return j - i + (j < e->n && e->off[j] < hi);
}

void ncp_stream_window(const ncp_stream *s, MPI_Offset lo, MPI_Offset hi,
                       MPI_Offset *s0, MPI_Offset *s1)
{
    const ncp_extents *e = s->ext;
    int64_t i = ncp_first_ending_after(e, lo), j;
    *s0 = *s1 = 0;
    if (i == e->n || e->off[i] >= hi) return;
    j = ncp_first_ending_after(e, hi) - 1; /* last extent ending <= hi */
    if (j + 1 < e->n && e->off[j + 1] < hi) j++; /* one straddling hi */
    *s0 = s->ext_at[i] + (lo > e->off[i] ? lo - e->off[i] : 0);
    *s1 = s->ext_at[j] + (hi < e->off[j] + e->len[j] ? hi - e->off[j]
                                                      : e->len[j]);
}

int64_t ncp_stream_clip(const ncp_stream *s, MPI_Offset lo, MPI_Offset hi,
                        MPI_Offset *pairs, MPI_Offset *s0, MPI_Offset *s1)
{
    const ncp_extents *e = s->ext;
    int64_t i = ncp_first_ending_after(e, lo), n = 0;
    *s0 = *s1 = 0;
    for (; i < e->n && e->off[i] < hi; i++) {
        MPI_Offset a = e->off[i] > lo ? e->off[i] : lo;
        MPI_Offset b = e->off[i] + e->len[i];
        if (b > hi) b = hi;
        if (n == 0) *s0 = s->ext_at[i] + (a - e->off[i]);
        *s1 = s->ext_at[i] + (b - e->off[i]);
        pairs[2 * n] = a;
        pairs[2 * n + 1] = b - a;
        n++;
    }
    return n;
}

/* The part of stream range [s0, s1) that memory piece i holds:
 * [*a, *b), stream positions. */
static void piece_clip(const ncp_stream *s, int64_t i, MPI_Offset s0,
                       MPI_Offset s1, MPI_Offset *a, MPI_Offset *b)
{
    *a = s0 > s->mem_at[i] ? s0 : s->mem_at[i];
    *b = s1 < s->mem_at[i + 1] ? s1 : s->mem_at[i + 1];
}

int ncp_stream_mem_add(const ncp_stream *s, MPI_Offset s0, MPI_Offset s1,
                       ncp_extents *out)
{
    const ncp_extents *m = s->mem;
    int64_t i;
    int err = NC_NOERR;
    if (s0 >= s1) return NC_NOERR;
    for (i = last_at_or_below(s->mem_at, m->n, s0);
         i < m->n && s->mem_at[i] < s1 && err == NC_NOERR; i++) {
        MPI_Offset a, b;
        piece_clip(s, i, s0, s1, &a, &b);
        err = ncp_extents_add(out, m->off[i] + (a - s->mem_at[i]), b - a);
    }
    return err;
}

int64_t ncp_stream_blocks(const ncp_stream *s, MPI_Offset s0, MPI_Offset s1,
                          int *blen, MPI_Aint *disp)
{
    const ncp_extents *m = s->mem;
    int64_t first = last_at_or_below(s->mem_at, m->n, s0), i, k = 0;
    int64_t nblk = last_at_or_below(s->mem_at, m->n, s1 - 1) - first + 1;
    for (i = first; blen && k < nblk; i++, k++) {
        MPI_Offset a, b;
        piece_clip(s, i, s0, s1, &a, &b);
        disp[k] = (MPI_Aint)(m->off[i] + (a - s->mem_at[i]));
        blen[k] = (int)(b - a);
    }
    return nblk;
}

int ncp_stream_type(const ncp_stream *s, MPI_Offset s0, MPI_Offset s1,
                    MPI_Datatype *t)
{
    int64_t nblk = ncp_stream_blocks(s, s0, s1, NULL, NULL);
    int *blen = malloc((size_t)nblk * sizeof(*blen));
    MPI_Aint *disp = malloc((size_t)nblk * sizeof(*disp));
    if (!blen || !disp) {
        free(blen);
        free(disp);
        return NC_ENOMEM;
    }
    ncp_stream_blocks(s, s0, s1, blen, disp);
    MPI_Type_create_hindexed((int)nblk, blen, disp, MPI_BYTE, t);
    MPI_Type_commit(t);
    free(blen);
    free(disp);
    return NC_NOERR;
}

/*
 * Bytes [at, at + n) of a piece of elements of w bytes, as the file wants
 * them, into dst.  A window or chunk boundary may cut an element (an
 * 8-byte double at a 4-byte aligned offset), so the partial elements at
 * either end go through one whole swapped element.
 */
static void piece_copy(char *dst, const char *piece, MPI_Offset at,
                       MPI_Offset n, int w)
{
    unsigned char one[16];
    MPI_Offset whole;
    if (w <= 1) {
        memcpy(dst, piece + at, (size_t)n);
        return;
    }
    if (at % w) { /* the tail of an element */
        MPI_Offset e = at - at % w, k = w - at % w < n ? w - at % w : n;
        ncp_x_swap_copy(one, piece + e, 1, w);
        memcpy(dst, one + at % w, (size_t)k);
        dst += k;
        at += k;
        n -= k;
    }
    whole = n / w;
    ncp_x_swap_copy(dst, piece + at, whole, w);
    dst += whole * w;
    at += whole * w;
    n -= whole * w;
    if (n > 0) { /* the head of an element */
        ncp_x_swap_copy(one, piece + at, 1, w);
        memcpy(dst, one, (size_t)n);
    }
}

void ncp_stream_copy(const ncp_stream *s, MPI_Offset s0, MPI_Offset s1,
                     char *dst)
{
    const ncp_extents *m = s->mem;
    int64_t i;
    if (s0 >= s1) return;
    for (i = last_at_or_below(s->mem_at, m->n, s0);
         i < m->n && s->mem_at[i] < s1; i++) {
        MPI_Offset a, b;
        piece_clip(s, i, s0, s1, &a, &b);
        piece_copy(dst, (const char *)(intptr_t)m->off[i], a - s->mem_at[i],
                   b - a, m->swap ? m->swap[i] : 0);
        dst += b - a;
    }
}

void ncp_stream_fill(const ncp_stream *s, MPI_Offset s0, MPI_Offset s1,
                     const char *src)
{
    const ncp_extents *m = s->mem;
    int64_t i;
    if (s0 >= s1) return;
    for (i = last_at_or_below(s->mem_at, m->n, s0);
         i < m->n && s->mem_at[i] < s1; i++) {
        MPI_Offset a, b;
        piece_clip(s, i, s0, s1, &a, &b);
        memcpy((char *)(intptr_t)m->off[i] + (a - s->mem_at[i]), src,
               (size_t)(b - a));
        src += b - a;
    }
}
