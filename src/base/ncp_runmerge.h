/*
 * ncp_runmerge.h -- one merge of many sorted runs of keys: the engine's
 * flush merges one run of file offsets per request, in posting order; an
 * aggregator (the posix driver's rounds, the I/O groups') merges the
 * sorted (offset, length) pair lists its ranks sent, one run per rank.
 * A min-heap over the runs picks the run with the lowest head; the whole
 * stretch of that run which still comes before every other run's head is
 * found by galloping and handed out in one piece.  Runs that interleave in
 * long stretches (the records of several record variables) then cost a
 * few comparisons a stretch, fully interleaved runs O(n log k) for n keys
 * in k runs.  Nothing is copied: the caller walks each stretch.
 */
#ifndef NCP_RUNMERGE_H
#define NCP_RUNMERGE_H

#include <mpi.h>
#include <stdint.h>

typedef struct ncp_runmerge {
    const MPI_Offset *const *key; /* per run: its keys, ascending */
    int64_t stride;               /* key i of a run is key[run][i * stride] */
    int64_t *next, *end;          /* per run: its next key, its count */
    int64_t *heap;                /* runs still holding keys, a min-heap */
    int64_t n;                    /* runs in the heap */
    int64_t compares;             /* key comparisons so far */
    /* pair lists only (ncp_runmerge_init_pairs) */
    const MPI_Offset **pair_keys; /* per run: its first pair, owned */
    const int64_t *first;         /* per run: its first pair's index */
    int64_t run, at, to;          /* the stretch ncp_runmerge_pop hands out */
} ncp_runmerge;

/* Run r holds keys key[r][0..count[r]); the arrays must outlive the
 * merge.  Returns NC_NOERR or NC_ENOMEM (then ncp_runmerge_free still). */
int ncp_runmerge_init(ncp_runmerge *m, int64_t nruns,
                      const MPI_Offset *const *key, const int64_t *count);

/* The next stretch in key order: keys [*from, *to) of run *run.  Equal
 * keys come in the order of their runs, then of their places in a run.
 * Returns 0 when every key has been handed out, else 1. */
int ncp_runmerge_next(ncp_runmerge *m, int64_t *run, int64_t *from,
                      int64_t *to);

/* Pair lists, as aggregators get them: run q is the pairs (offset,
 * length) from index first[q] to end[q] of pairs, ascending by offset;
 * the arrays must outlive the merge.  Then ncp_runmerge_pop hands them
 * out one at a time, in the order ncp_runmerge_next would. */
int ncp_runmerge_init_pairs(ncp_runmerge *m, int nruns,
                            const MPI_Offset *pairs, const int64_t *first,
                            const int64_t *end);

/* The next pair in file order (ties to the lower run): its run, or -1
 * when none is left, and in *i its index in pairs. */
int ncp_runmerge_pop(ncp_runmerge *m, int64_t *i);

void ncp_runmerge_free(ncp_runmerge *m);

#endif
