/*
 * ncp_agg_plan.h -- the plan of an aggregated write (plan.c): the
 * call's file range cut into one domain per aggregator, each domain into
 * windows, and a round for every window where some rank has bytes.  The
 * bytes of a round move by message (msg.c) or through the shared
 * staging (shm.c); both walk the same plan.
 *
 * The planner is pure: no MPI call.  Every rank computes the same plan
 * from numbers the ranks reduce between its steps; agg.c runs the
 * steps with the reductions in between (plan_collective):
 *
 *   ncp_plan_local     this rank's range, bytes, mean -> MAX over ranks
 *   ncp_plan_direct    (every rank's extents large) each rank writes its
 *                      own bytes, no plan
 *   ncp_plan_shape     domains, windows, granules
 *   ncp_plan_part_fit  (shared staging) a part size   -> MIN over ranks
 *   ncp_plan_set_part
 *   ncp_plan_mark      this rank's busy/dense bits    -> OR over ranks
 *   ncp_plan_start     the first round, the round count
 *
 * then every round: ncp_plan_window for each aggregator, ncp_plan_advance.
 *
 * What a finished plan promises (tests/unit/test_agg_plan.c checks it):
 *  1. Domain a is [domains_start + a*domain_size, +domain_size) cut at
 *     data_end; the domains are disjoint, ordered and together cover
 *     [domains_start, data_end), which holds every rank's bytes; their
 *     size is at most an eighth over the even share, or on a page.
 *  2. Aggregator a's windows lie in its domain, each on the grid of
 *     window_size from the domain's start (a dense one's parts on the grid
 *     of part_size from the window's start), ascending round by round.
 *  3. Every byte of every rank's extents lies in exactly one window of one
 *     round; after nrounds rounds every domain is done.
 *  4. No window holds more than window_size <= round_cap bytes, nor a part
 *     more than part_size.
 *  5. Only windows in busy granules get a round; with one window per
 *     granule, only windows holding bytes.
 */
#ifndef NCP_AGG_PLAN_H
#define NCP_AGG_PLAN_H

#include <stdint.h>

#include "../../base/ncp_extents.h"

/* Extents of at least this many bytes on average are written by the rank
 * that holds them, not gathered to other ranks: a collective write on the
 * posix driver whose ranks all write such extents skips the aggregators,
 * and the engine writes independent puts of such pieces at once.  Each
 * rank's few large pwritev calls cost less than copying every byte once
 * more, and few calls a rank contend little for the file's lock. */
#define NCP_AGG_DIRECT_MIN ((int64_t)64 << 10)

/* Domain boundaries fall on multiples of this (a common file system block
 * and stripe size), so two aggregators never share a block: the domains
 * start on it, and their size is a multiple of it unless rounding up to
 * it would grow a domain by more than an eighth (small domains: 1 MiB +
 * a header's few bytes would double to 2 MiB and leave half the
 * aggregators idle).  Then the size is a multiple of the largest power
 * of two down to NCP_AGG_MIN_ALIGN (a page) that does not. */
#define NCP_AGG_ALIGN ((MPI_Offset)1 << 20)
#define NCP_AGG_MIN_ALIGN ((MPI_Offset)4096)

/* Occupancy is agreed as a bitmap of at most this many granules (or one
 * per domain, if there are more domains), so one reduction of at most
 * 8 KiB serves any span. */
#define NCP_AGG_MAXBITS 65536

/* The smallest window a call's staging shrinks to (when round_cap
 * allows), and the step sized windows grow by: smaller windows cost more
 * in rounds than they save in memory.  Sized windows are whole steps, so
 * their edges, multiples of the window size from a 1 MiB boundary, fall
 * on page boundaries. */
#define NCP_AGG_MIN_WINDOW ((MPI_Offset)48 << 10)
#define NCP_AGG_WINDOW_STEP ((MPI_Offset)16 << 10)

/* The numbers ncp_plan_local gives, each reduced with MAX. */
#define NCP_PLAN_NLOCAL 4

/* What a plan is made from besides the extents, the same on every rank. */
typedef struct ncp_plan_limits {
    int naggr;              /* aggregators, one domain each */
    MPI_Offset round_cap;   /* the most bytes one window may hold */
    int full_windows;       /* 1: windows of round_cap bytes; 0: sized to
                               the call */
    int nbuf;               /* windows staged at once on an aggregator
                               (1 by message, 2 in the shared halves) */
} ncp_plan_limits;

/*
 * Identical on every rank.  Only windows where some rank has bytes get a
 * round: a call whose extents lie far apart (I/O groups' aggregators,
 * sparse subarrays of a large variable) would otherwise run one round per
 * window of span, nearly all of them empty.  Busy windows are agreed as
 * granules, each windows_per_granule windows, so the bitmap stays small
 * over any span.
 */
typedef struct ncp_agg_plan {
    int naggr;                   /* domains, one per aggregator */
    MPI_Offset domains_start;    /* domain 0 starts here: the lowest byte
                                    written, rounded down to NCP_AGG_ALIGN */
    MPI_Offset data_end;         /* one past the highest byte written */
    MPI_Offset domain_size;      /* bytes per domain: a multiple of
                                    NCP_AGG_ALIGN (or of a smaller power
                                    of two), or the whole span */
    MPI_Offset window_size;      /* bytes per window (a round's most) */
    int64_t windows_per_domain;  /* windows on a domain's grid */
    int64_t windows_per_granule; /* windows one busy bit stands for */
    int64_t granules_per_domain; /* busy bits per domain */
    int64_t nwords;              /* 64-bit words of the busy bitmap */
    uint64_t *busy_bits;         /* bit a*granules_per_domain + g: granule g
                                    of domain a holds some rank's bytes */
    uint64_t *dense_bits;        /* same indexing, right after busy_bits: some
                                    rank would overflow its shared list pool
                                    in a window of the granule, so such
                                    windows run in parts (shared only) */
    MPI_Offset part_size;        /* a dense window's part (window_size when
                                    no window is dense) */
    int64_t parts_per_window;    /* parts of a dense window */
    int64_t *cur_window;         /* per domain: this round's window,
                                    windows_per_domain when done */
    int64_t *cur_part;           /* per domain: this round's part of it */
    MPI_Offset most_bytes;       /* the most bytes one rank writes */
    int64_t nrounds;             /* the most rounds of one domain (one per
                                    busy window, or per part of a dense
                                    one) */
    int64_t busy_windows;        /* busy windows of all domains */
    /* What the walk has shown, for the checks below; kept in every build
     * so that the struct is the same whatever NDEBUG says. */
    const ncp_extents *seen_ext; /* this rank's extents (ncp_plan_mark) */
    MPI_Offset *seen_hi;         /* per domain: the end of its last window */
    MPI_Offset seen_bytes;       /* this rank's bytes in the windows walked */
    int64_t seen_rounds;         /* rounds walked */
} ncp_agg_plan;

/* The plan's arrays for naggr domains; ncp_plan_free after either
 * outcome. */
int ncp_plan_alloc(ncp_agg_plan *p, int naggr);
/* The bytes ncp_plan_alloc takes for naggr domains. */
int64_t ncp_plan_storage(int naggr);
void ncp_plan_free(ncp_agg_plan *p);

/* What this rank adds to the plan, each reduced with MAX over the ranks:
 * minus its first offset, its end, its byte count, minus its mean extent
 * length (-INT64_MAX for a rank with no bytes, which constrains
 * nothing). */
void ncp_plan_local(const ncp_extents *ext, MPI_Offset mine[NCP_PLAN_NLOCAL]);

/* From the reduced numbers: does every rank write its own bytes instead
 * (some rank has bytes, and every rank that has averages at least
 * NCP_AGG_DIRECT_MIN bytes an extent)?  The same on every rank. */
int ncp_plan_direct(const MPI_Offset all[NCP_PLAN_NLOCAL]);

/* From the reduced numbers: the range, the domains, the windows and the
 * granules, every window whole (part_size = window_size).  Returns 0 when
 * no rank has a byte: the plan then has no rounds and the other steps are
 * skipped. */
int ncp_plan_shape(ncp_agg_plan *p, const ncp_plan_limits *lim,
                   const MPI_Offset all[NCP_PLAN_NLOCAL]);

/* The largest part size, window_size halved (in whole pages while a page
 * or more), at which none of this rank's parts touches more than slot
 * extents; reduced with MIN over the ranks, it goes to ncp_plan_set_part. */
MPI_Offset ncp_plan_part_fit(const ncp_agg_plan *p, const ncp_extents *ext,
                             int64_t slot);
void ncp_plan_set_part(ncp_agg_plan *p, MPI_Offset part_size);

/* This rank's busy bits and, when part_size < window_size, its dense bits
 * (windows where it touches more than slot extents).  Returns the number
 * of words from busy_bits on to reduce with bitwise OR over the ranks. */
int64_t ncp_plan_mark(ncp_agg_plan *p, const ncp_extents *ext, int64_t slot);

/* From the reduced bits: every domain's first round, nrounds and
 * busy_windows. */
void ncp_plan_start(ncp_agg_plan *p);

/* Aggregator a's window (or part of one) this round: [*lo, *hi),
 * possibly empty. */
void ncp_plan_window(const ncp_agg_plan *p, int a, MPI_Offset *lo,
                     MPI_Offset *hi);
/* On to the next round: every domain to the next part of a dense
 * window, or to its next busy window. */
void ncp_plan_advance(ncp_agg_plan *p);

/*
 * The promises above as code, each NULL when kept, else the one broken.
 * Where assertions are on (no NDEBUG: the Debug and sanitizer builds),
 * ncp_plan_start checks the plan's shape, ncp_plan_advance each round
 * before it moves on, and the last advance the whole walk; a broken
 * promise aborts the process.
 *   ncp_plan_broken       promises 1 and 4 on the shape: the domains
 *                         cover the range, windows and parts fit them
 *   ncp_plan_round_broken promise 2 for this round's windows (in the
 *                         domain, on the grid, past the domain's last
 *                         window, within the window or part size), which
 *                         it then records, with this rank's bytes in them
 *   ncp_plan_done_broken  promise 3 after the last round: every domain
 *                         done, and this rank's bytes were in the
 *                         windows exactly once
 */
const char *ncp_plan_broken(const ncp_agg_plan *p);
const char *ncp_plan_round_broken(ncp_agg_plan *p);
const char *ncp_plan_done_broken(const ncp_agg_plan *p);

#endif
