/*
 * ncp_runmerge.h -- one merge of many sorted runs of keys, as the engine's
 * flush gets them: one run of file offsets per request, in posting order.
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
    int64_t *next, *end;          /* per run: its next key, its count */
    int64_t *heap;                /* runs still holding keys, a min-heap */
    int64_t n;                    /* runs in the heap */
    int64_t compares;             /* key comparisons so far */
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

void ncp_runmerge_free(ncp_runmerge *m);

#endif
