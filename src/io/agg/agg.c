/*
 * agg.c -- an aggregated write (two-phase I/O done by ncpario itself):
 * the ranks agree on a plan (plan.c: the call's file range cut into one
 * domain per aggregator, each domain into windows), then move the bytes
 * of every planned window to its aggregator, which hands them to the
 * sink in a few large runs (the posix driver's sink: pwritev):
 *
 *        ranks                    aggregators            file
 *   r0 r1 r2 r3 --round k-->  a0: window k of domain 0 --> sink
 *                             a1: window k of domain 1 --> sink
 *
 * Why: on one node, many ranks writing small extents of one file contend
 * for the file's inode lock; one writer per node issuing large writes does
 * not.  The bytes move one of two ways: through the shared staging when
 * every rank shares one node and the window could be made (shm.c,
 * no collective a round), else by one MPI_Alltoallw a round
 * (msg.c).
 *
 * A read (ncp_agg_read, the I/O groups') plans the same way and runs the
 * message rounds the other way: the aggregators read their windows
 * through the sink and send each rank its bytes.
 *
 * Invariant: every rank makes the same plan and takes the same path, as
 * both come from reduced numbers and from state that is the same on
 * every rank (a->shm, a->windows).
 */
#include "ncp_agg.h"

#include <stdint.h>

#include "ncp_agg_msg.h"
#include "ncp_agg_plan.h"
#include "ncp_agg_shm.h"
#include "pnetcdf.h"
#include "../../base/ncp_agree.h"

/* What a plan is for: a write's rounds by message or through the
 * shared staging, or a read's. */
enum { FOR_MESSAGE, FOR_SHM, FOR_READ };

/*
 * Collective: the plan of this call from the reduced numbers `all`, the
 * pure planner's steps with the reductions between them (an allreduce
 * of the busy bits, and one of the part size first when the shared
 * staging is on).  The shared staging's windows are cut into parts where
 * some rank's extent list would overflow its pool.  A read's windows are
 * round_cap bytes whatever the call: only the aggregator stages them,
 * and fewer rounds cost less.
 */
static void plan_collective(const ncp_agg *a, int use, const ncp_extents *ext,
                            const MPI_Offset all[NCP_PLAN_NLOCAL],
                            ncp_agg_plan *p)
{
    int np, shm = use == FOR_SHM;
    ncp_plan_limits lim = {a->naggr, a->round_cap,
                           a->full_windows || use == FOR_READ, shm ? 2 : 1};
    MPI_Offset part;
    int64_t slot = 0, nwords;
    if (!ncp_plan_shape(p, &lim, all)) return;
    if (shm) {
        MPI_Comm_size(a->comm, &np);
        slot = ncp_agg_shm_slot(a, np);
        part = ncp_plan_part_fit(p, ext, slot);
        MPI_Allreduce(MPI_IN_PLACE, &part, 1, MPI_OFFSET, MPI_MIN, a->comm);
        ncp_plan_set_part(p, part);
    }
    nwords = ncp_plan_mark(p, ext, slot);
    MPI_Allreduce(MPI_IN_PLACE, p->busy_bits, (int)nwords, MPI_UINT64_T,
                  MPI_BOR, a->comm);
    ncp_plan_start(p);
}

/* The call's busy windows counted in round_cap units, as the auto rule
 * counts them: the message path's smaller windows must not bring the
 * shared staging on sooner. */
static int64_t staging_windows(const ncp_agg *a, const ncp_agg_plan *p)
{
    return (p->busy_windows * p->window_size + a->round_cap - 1) /
           a->round_cap;
}

/* Is it time to set the shared staging up?  a->windows already counts
 * this call's; it and p are the same on every rank, so is the answer. */
static int shm_due(const ncp_agg *a, const ncp_agg_plan *p)
{
    return a->shm == NCP_SHM_LATER && p->nrounds > 0 &&
           a->windows >= a->shm_after;
}

/* The aggregated rounds of a call whose reduced numbers are `all`. */
static int write_rounds(ncp_agg *a, const ncp_extents *ext,
                        const ncp_extents *mem,
                        const MPI_Offset all[NCP_PLAN_NLOCAL])
{
    ncp_agg_plan p;
    ncp_stream s;
    int err = NC_NOERR;
    if (ncp_plan_alloc(&p, a->naggr) != NC_NOERR) err = NC_ENOMEM;
    if (ncp_stream_init(&s, ext, mem) != NC_NOERR) err = NC_ENOMEM;
    err = ncp_agree(a->comm, err);
    if (err == NC_NOERR) {
        plan_collective(a, a->shm == NCP_SHM_ON ? FOR_SHM : FOR_MESSAGE, ext,
                        all, &p);
        a->windows += staging_windows(a, &p);
    }
    /* all set up or none; a window that cannot be made leaves the
     * message path */
    if (err == NC_NOERR && shm_due(a, &p) && ncp_agg_shm_setup(a) == NC_NOERR)
        plan_collective(a, FOR_SHM, ext, all, &p); /* the staging's */
    if (err == NC_NOERR && a->shm == NCP_SHM_ON)
        err = ncp_agg_write_by_shm(a, &p, &s);
    else if (err == NC_NOERR)
        err = ncp_agg_write_by_message(a, &p, &s);
    ncp_plan_free(&p);
    ncp_stream_free(&s);
    return err;
}

/* Every rank's extents large (ncp_plan_direct) and the staging left to
 * the driver (a->direct_ok): each rank writes its own, as an
 * unaggregated write does.  Else the rounds. */
int ncp_agg_write(ncp_agg *a, const ncp_extents *ext, const ncp_extents *mem,
                  int *direct)
{
    MPI_Offset mine[NCP_PLAN_NLOCAL], all[NCP_PLAN_NLOCAL];
    ncp_plan_local(ext, mine);
    MPI_Allreduce(mine, all, NCP_PLAN_NLOCAL, MPI_OFFSET, MPI_MAX, a->comm);
    *direct = a->direct_ok && ncp_plan_direct(all);
    return *direct ? NC_NOERR : write_rounds(a, ext, mem, all);
}

int ncp_agg_read(ncp_agg *a, const ncp_extents *ext, const ncp_extents *mem)
{
    MPI_Offset mine[NCP_PLAN_NLOCAL], all[NCP_PLAN_NLOCAL];
    ncp_agg_plan p;
    ncp_stream s;
    int err = NC_NOERR;
    ncp_plan_local(ext, mine);
    MPI_Allreduce(mine, all, NCP_PLAN_NLOCAL, MPI_OFFSET, MPI_MAX, a->comm);
    if (ncp_plan_alloc(&p, a->naggr) != NC_NOERR) err = NC_ENOMEM;
    if (ncp_stream_init(&s, ext, mem) != NC_NOERR) err = NC_ENOMEM;
    err = ncp_agree(a->comm, err);
    if (err == NC_NOERR) {
        plan_collective(a, FOR_READ, ext, all, &p);
        err = ncp_agg_read_by_message(a, &p, &s);
    }
    ncp_plan_free(&p);
    ncp_stream_free(&s);
    return err;
}

int ncp_agg_takes_swaps(const ncp_agg *a)
{
    return a->my_aggr >= 0 || a->shm != NCP_SHM_NO;
}
