/*
 * runmerge.c -- the merge of sorted runs (ncp_runmerge.h).
 */
#include "ncp_runmerge.h"

#include <stdlib.h>

#include "pnetcdf.h"

/* Does key i of run a come before key j of run b? */
static int before(ncp_runmerge *m, int64_t a, int64_t i, int64_t b,
                  int64_t j)
{
    MPI_Offset ki = m->key[a][i * m->stride], kj = m->key[b][j * m->stride];
    m->compares++;
    return ki < kj || (ki == kj && a < b);
}

static int head_before(ncp_runmerge *m, int64_t a, int64_t b)
{
    return before(m, a, m->next[a], b, m->next[b]);
}

static void sift_down(ncp_runmerge *m, int64_t i)
{
    for (;;) {
        int64_t c = 2 * i + 1, t;
        if (c >= m->n) return;
        if (c + 1 < m->n && head_before(m, m->heap[c + 1], m->heap[c])) c++;
        if (!head_before(m, m->heap[c], m->heap[i])) return;
        t = m->heap[i];
        m->heap[i] = m->heap[c];
        m->heap[c] = t;
        i = c;
    }
}

/* One past the last key of run q, from its head on, that comes before
 * the head of run b: galloping, O(log) of the stretch's length. */
static int64_t stretch_end(ncp_runmerge *m, int64_t q, int64_t b)
{
    int64_t lo = m->next[q], step = 1, hi, bound = m->next[b];
    for (;;) { /* key lo comes before */
        hi = lo + step;
        if (hi >= m->end[q]) {
            hi = m->end[q];
            break;
        }
        if (!before(m, q, hi, b, bound)) break;
        lo = hi;
        step *= 2;
    }
    while (hi - lo > 1) { /* lo comes before, hi does not or is the end */
        int64_t mid = lo + (hi - lo) / 2;
        if (before(m, q, mid, b, bound)) lo = mid;
        else hi = mid;
    }
    return hi;
}

int ncp_runmerge_init(ncp_runmerge *m, int64_t nruns,
                      const MPI_Offset *const *key, const int64_t *count)
{
    int64_t r;
    m->key = key;
    m->stride = 1;
    m->pair_keys = NULL;
    m->first = NULL;
    m->run = -1;
    m->at = m->to = 0;
    m->n = m->compares = 0;
    m->next = malloc((size_t)(nruns > 0 ? nruns : 1) * 3 * sizeof(int64_t));
    if (!m->next) return NC_ENOMEM;
    m->end = m->next + nruns;
    m->heap = m->end + nruns;
    for (r = 0; r < nruns; r++) {
        m->next[r] = 0;
        m->end[r] = count[r];
        if (count[r] > 0) m->heap[m->n++] = r;
    }
    for (r = m->n / 2 - 1; r >= 0; r--) sift_down(m, r);
    return NC_NOERR;
}

int ncp_runmerge_next(ncp_runmerge *m, int64_t *run, int64_t *from,
                      int64_t *to)
{
    int64_t q, stop;
    if (m->n == 0) return 0;
    q = m->heap[0];
    stop = m->end[q];
    if (m->n > 1) { /* the next best head is a child of the root */
        int64_t b = m->heap[1];
        if (m->n > 2 && head_before(m, m->heap[2], b)) b = m->heap[2];
        stop = stretch_end(m, q, b);
    }
    *run = q;
    *from = m->next[q];
    *to = stop;
    m->next[q] = stop;
    if (stop == m->end[q]) m->heap[0] = m->heap[--m->n];
    sift_down(m, 0);
    return 1;
}

int ncp_runmerge_init_pairs(ncp_runmerge *m, int nruns,
                            const MPI_Offset *pairs, const int64_t *first,
                            const int64_t *end)
{
    const MPI_Offset **keys =
        malloc((size_t)(nruns > 0 ? nruns : 1) * sizeof(*keys));
    int64_t *count = malloc((size_t)(nruns > 0 ? nruns : 1) * sizeof(*count));
    int err = NC_ENOMEM, q;
    m->next = NULL;
    if (keys && count) {
        for (q = 0; q < nruns; q++) {
            keys[q] = pairs + 2 * first[q];
            count[q] = end[q] - first[q];
        }
        err = ncp_runmerge_init(m, nruns, (const MPI_Offset *const *)keys,
                                count);
    }
    free(count);
    m->stride = 2;
    m->pair_keys = keys;
    m->first = first;
    return err;
}

int ncp_runmerge_pop(ncp_runmerge *m, int64_t *i)
{
    if (m->at == m->to && !ncp_runmerge_next(m, &m->run, &m->at, &m->to))
        return -1;
    *i = m->first[m->run] + m->at++;
    return (int)m->run;
}

void ncp_runmerge_free(ncp_runmerge *m)
{
    free(m->next);
    free(m->pair_keys);
    m->next = m->end = m->heap = NULL;
    m->pair_keys = NULL;
    m->n = 0;
}
