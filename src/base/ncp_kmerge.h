/*
 * ncp_kmerge.h -- a k-way merge of sorted (offset, length) pair lists, the
 * step where an aggregator puts the lists its members sent into file
 * order.  A binary min-heap over the sources: O(n log k) for n pairs from
 * k sources.
 */
#ifndef NCP_KMERGE_H
#define NCP_KMERGE_H

#include <mpi.h>
#include <stdint.h>

/*
 * The lists of nsrc sources lie one after another in pairs, source q's from
 * index first[q] to first[q + 1].  Ties go to the lower source, so a
 * merge is the same on every run.
 */
typedef struct ncp_kmerge {
    int n;                   /* sources still holding pairs */
    int *heap;               /* those sources, a min-heap */
    const MPI_Offset *pairs;
    int64_t *next;           /* per source: its next pair */
    const int64_t *end;      /* per source: one past its last pair */
} ncp_kmerge;

int ncp_kmerge_init(ncp_kmerge *m, int nsrc, const MPI_Offset *pairs,
                    const int64_t *first);
/* The same over lists that need not abut: source q's from first[q] to
 * end[q]. */
int ncp_kmerge_init_ranges(ncp_kmerge *m, int nsrc, const MPI_Offset *pairs,
                           const int64_t *first, const int64_t *end);
/* The next pair in file order: its source (-1 when none is left) and,
 * in *i, its index in pairs. */
int ncp_kmerge_pop(ncp_kmerge *m, int64_t *i);
void ncp_kmerge_free(ncp_kmerge *m);

#endif
