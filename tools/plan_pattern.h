/*
 * plan_pattern.h -- the access patterns `ncpario plan` works a write out
 * for (plan_pattern.c): which bytes of the file each of nprocs ranks
 * writes, generated one rank at a time on demand, so that a million
 * ranks cost one rank's extents of memory.
 *
 * Per dimension of each variable: `*` (whole), block, cyclic, or
 * block-cyclic with blocks of b (bcB), over a grid of ranks (row-major,
 * the last dimension fastest).  Or per record: `irregular:C` (chunks of
 * C elements dealt to the ranks in a fixed pseudo-random order, as an
 * unstructured climate grid's decomposition looks), or decomposition
 * files (plan_decomp_read) listing each rank's elements, one for each
 * variable or one for all.
 */
#ifndef NT_PLAN_PATTERN_H
#define NT_PLAN_PATTERN_H

#include <stdint.h>

#include "format/ncp_header.h"
#include "base/ncp_extents.h"

#define NT_PLAN_MAXVARS 4096
#define NT_PLAN_MAXDIMS 16
#define NT_PLAN_MAXDECOMP 16

enum { PD_ALL, PD_BLOCK, PD_CYCLIC, PD_BCYCLIC };
enum { PAT_GRID, PAT_IRREGULAR, PAT_DECOMP };

typedef struct plan_decomp {
    int64_t nranks;
    int64_t *first; /* per rank, and one past: its first range */
    int64_t *lo, *hi; /* element ranges [lo, hi) within one record */
} plan_decomp;

typedef struct plan_pattern {
    int kind;                   /* PAT_* */
    int ndims;                  /* of the grid: the variables' rank */
    int how[NT_PLAN_MAXDIMS];   /* PD_* per dimension */
    int64_t block[NT_PLAN_MAXDIMS]; /* PD_BCYCLIC's block */
    int64_t grid[NT_PLAN_MAXDIMS];
    int64_t chunk;              /* PAT_IRREGULAR's */
    plan_decomp decomp[NT_PLAN_MAXDECOMP]; /* PAT_DECOMP's files */
    int ndecomp;
    int var_decomp[NT_PLAN_MAXVARS]; /* per variable: its file */
    int64_t nprocs;
    int64_t records;            /* record variables' records written */
    const ncp_header *h;
    int nvars;
    int vars[NT_PLAN_MAXVARS];  /* in the header */
    /* one rank's pieces before sorting */
    int64_t npieces, cap;
    MPI_Offset (*pieces)[2];
} plan_pattern;

/* "block", "cyclic,*", "bc4,block", "irregular:64" into pp (ndims from
 * pp->ndims, set before); -1 and a message in err when malformed. */
int plan_pattern_parse(plan_pattern *pp, const char *spec, char *err,
                       size_t cap);
/* The grid: from "PxQx.." or, when NULL, nprocs along the first
 * dimension that is not `*`.  -1 when it does not hold nprocs ranks. */
int plan_grid_parse(plan_pattern *pp, const char *spec, char *err,
                    size_t cap);
/* A decomposition file (the format is in ncpario-plan.1). */
int plan_decomp_read(plan_decomp *d, const char *path, char *err, size_t cap);
void plan_pattern_free(plan_pattern *pp);

/* ncp_sim_extents_fn over a plan_pattern. */
int plan_rank_extents(void *arg, int64_t rank, ncp_extents *out);

#endif
