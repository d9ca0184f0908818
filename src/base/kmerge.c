/*
 * kmerge.c -- the k-way merge of sorted pair lists (ncp_kmerge.h).  Ties
 * between sources go to the lower source, so every run merges alike.
 */
#include "ncp_kmerge.h"

#include <stdlib.h>

#include "pnetcdf.h"

/* Does source a's next pair come before source b's? */
static int kmerge_before(const ncp_kmerge *m, int a, int b)
{
    MPI_Offset oa = m->pairs[2 * m->next[a]], ob = m->pairs[2 * m->next[b]];
    return oa < ob || (oa == ob && a < b);
}

static void kmerge_down(ncp_kmerge *m, int i)
{
    for (;;) {
        int c = 2 * i + 1, t;
        if (c >= m->n) return;
        if (c + 1 < m->n && kmerge_before(m, m->heap[c + 1], m->heap[c])) c++;
        if (!kmerge_before(m, m->heap[c], m->heap[i])) return;
        t = m->heap[i];
        m->heap[i] = m->heap[c];
        m->heap[c] = t;
        i = c;
    }
}

int ncp_kmerge_init(ncp_kmerge *m, int nsrc, const MPI_Offset *pairs,
                    const int64_t *first)
{
    return ncp_kmerge_init_ranges(m, nsrc, pairs, first, first + 1);
}

int ncp_kmerge_init_ranges(ncp_kmerge *m, int nsrc, const MPI_Offset *pairs,
                           const int64_t *first, const int64_t *end)
{
    int q;
    m->n = 0;
    m->pairs = pairs;
    m->end = end;
    m->heap = malloc((size_t)(nsrc ? nsrc : 1) * sizeof(int));
    m->next = malloc((size_t)(nsrc ? nsrc : 1) * sizeof(int64_t));
    if (!m->heap || !m->next) return NC_ENOMEM;
    for (q = 0; q < nsrc; q++) {
        m->next[q] = first[q];
        if (first[q] < end[q]) m->heap[m->n++] = q;
    }
    for (q = m->n / 2 - 1; q >= 0; q--) kmerge_down(m, q);
    return NC_NOERR;
}

int ncp_kmerge_pop(ncp_kmerge *m, int64_t *i)
{
    int q;
    if (m->n == 0) return -1;
    q = m->heap[0];
    *i = m->next[q]++;
    if (m->next[q] == m->end[q]) m->heap[0] = m->heap[--m->n];
    kmerge_down(m, 0);
    return q;
}

void ncp_kmerge_free(ncp_kmerge *m)
{
    free(m->heap);
    free(m->next);
    m->heap = NULL;
    m->next = NULL;
}
