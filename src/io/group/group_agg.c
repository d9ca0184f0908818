/*
 * group_agg.c -- a collective transfer through the I/O groups: the
 * library's one aggregator (io/agg) runs on the group's communicator,
 * the group's lowest rank its only aggregator.  The members' bytes reach
 * it by message or, writing on one node, through the shared staging; it
 * reads and writes the merged runs through the aggregators' file, which
 * is the sink below.
 *
 * Over a driver that moves each rank's bytes alone (posix) the sink
 * moves each run at once.  Over MPI-IO the aggregators move a round's
 * runs in one collective call among them, and a group's rounds are its
 * own, so before each call the aggregators agree whether any of them
 * still has one (an allreduce): an aggregator whose group is done, or
 * failed, joins the others' calls empty until none has a round left.
 * Where members' writes overlap (undefined in MPI), such a call keeps
 * the bytes merged first (lower offset, then lower rank).
 */
#include "ncp_group.h"

#include <stdint.h>

#include "../agg/ncp_agg.h"
#include "pnetcdf.h"

/* The aggregators' file moves ext and mem, on its own or together; its
 * round counters go to the dataset's profile. */
static int afile_xferv(ncp_file *f, int together, int is_write,
                       const ncp_extents *ext, const ncp_extents *mem)
{
    ncp_file *af = f->group->afile;
    ncp_agg_counts before = af->driver;
    double t0 = MPI_Wtime();
    int err = af->drv->xferv(af, together, is_write, ext, mem);
    f->gstats.time_io[is_write] += MPI_Wtime() - t0;
    ncp_agg_counts_add(&f->driver, &af->driver, &before);
    return err;
}

/* The run lists moved, then emptied. */
static int afile_move(ncp_file *f, int together, int is_write)
{
    ncp_group *g = f->group;
    int err = afile_xferv(f, together, is_write, &g->run_ext, &g->run_mem);
    ncp_extents_clear(&g->run_ext);
    ncp_extents_clear(&g->run_mem);
    return err;
}

/* Append the run of file bytes [off, ...) held by iov[0..n) to the run
 * lists, leaving out its bytes below the end of what they hold. */
static int runs_take(ncp_group *g, struct iovec *iov, int n, MPI_Offset off)
{
    const ncp_extents *e = &g->run_ext;
    MPI_Offset end = e->n ? e->off[e->n - 1] + e->len[e->n - 1] : off;
    MPI_Offset skip = end > off ? end - off : 0, len;
    int i, err = NC_NOERR;
    for (i = 0; i < n && err == NC_NOERR; i++, off += len) {
        MPI_Offset cut = skip < (MPI_Offset)iov[i].iov_len
                             ? skip
                             : (MPI_Offset)iov[i].iov_len;
        len = (MPI_Offset)iov[i].iov_len;
        skip -= cut;
        if (cut == len) continue;
        err = ncp_extents_add(&g->run_mem,
                              (MPI_Offset)(intptr_t)iov[i].iov_base + cut,
                              len - cut);
        if (err == NC_NOERR)
            err = ncp_extents_add(&g->run_ext, off + cut, len - cut);
    }
    return err;
}

/* The sink: a run moved now (alone), or held for the round's call. */
static int sink_move(ncp_file *f, int is_write, struct iovec *iov, int n,
                     MPI_Offset off)
{
    ncp_group *g = f->group;
    int err = runs_take(g, iov, n, off);
    if (!g->inner->moves_alone) return err;
    if (err != NC_NOERR) {
        ncp_extents_clear(&g->run_ext);
        ncp_extents_clear(&g->run_mem);
        return err;
    }
    return afile_move(f, 0, is_write);
}

static int sink_write(void *arg, struct iovec *iov, int n, MPI_Offset off)
{
    return sink_move(arg, 1, iov, n, off);
}

static int sink_read(void *arg, struct iovec *iov, int n, MPI_Offset off)
{
    return sink_move(arg, 0, iov, n, off);
}

/* Collective over the aggregators: does any of them move a round now?
 * mine: 1 for a round of its own. */
static int any_round(ncp_group *g, int mine)
{
    int any = 0;
    MPI_Allreduce(&mine, &any, 1, MPI_INT, MPI_MAX, g->acomm);
    return any;
}

/* The end of a round over MPI-IO: the round's runs in one call among
 * the aggregators. */
static int sink_round_end(void *arg, int is_write)
{
    ncp_file *f = arg;
    (void)any_round(f->group, 1);
    return afile_move(f, 1, is_write);
}

/* An aggregator done with its rounds joins the others' calls, empty,
 * until none has a round left.  Returns the first failed call's code. */
static int join_until_done(ncp_file *f, int is_write)
{
    ncp_group *g = f->group;
    int err = NC_NOERR, e;
    ncp_extents_clear(&g->run_ext);
    ncp_extents_clear(&g->run_mem);
    while (any_round(g, 0)) {
        e = afile_move(f, 1, is_write);
        if (err == NC_NOERR) err = e;
        f->gstats.rounds[is_write]++;
    }
    return err;
}

/* A group of one ships nothing: its aggregator moves its own extents,
 * in one round among the aggregators over MPI-IO. */
static int alone_in_group(ncp_file *f, int is_write, const ncp_extents *ext,
                          const ncp_extents *mem)
{
    int together = !f->group->inner->moves_alone, err;
    if (together) (void)any_round(f->group, 1);
    err = afile_xferv(f, together, is_write, ext, mem);
    f->gstats.rounds[is_write]++;
    return err;
}

int ncp_group_agg_open(ncp_file *f)
{
    ncp_group *g = f->group;
    ncp_agg_conf c;
    ncp_agg_sink sink = {sink_write, sink_read, NULL, f};
    int err;
    ncp_extents_init(&g->run_ext);
    ncp_extents_init(&g->run_mem);
    if (g->size < 2) return NC_NOERR;
    if (!g->inner->moves_alone) sink.round_end = sink_round_end;
    err = ncp_agg_conf_read(g->comm, f->info, &c);
    if (err != NC_NOERR) return err;
    c.per_node = 0; /* the group's rank 0 alone */
    c.buffer_size = g->cap;
    c.writable = f->writable;
    err = ncp_agg_open(g->comm, &c, sink, &g->agg);
    /* members never move the file's bytes themselves, however large
     * their extents */
    if (err == NC_NOERR) g->agg->direct_ok = 0;
    return err;
}

void ncp_group_agg_close(ncp_group *g)
{
    ncp_agg_close(g->agg);
    g->agg = NULL;
    ncp_extents_free(&g->run_ext);
    ncp_extents_free(&g->run_mem);
}

/* The group's rounds through its aggregator. */
static int through_aggregator(ncp_file *f, int is_write,
                              const ncp_extents *ext, const ncp_extents *mem)
{
    ncp_group *g = f->group;
    int64_t r0 = g->agg->count.rounds;
    double t0 = MPI_Wtime(), io0 = f->gstats.time_io[is_write];
    int direct, err = is_write ? ncp_agg_write(g->agg, ext, mem, &direct)
                               : ncp_agg_read(g->agg, ext, mem);
    f->gstats.rounds[is_write] += g->agg->count.rounds - r0;
    if (g->rank != 0) f->gstats.bytes_shipped[is_write] += ext->nbytes;
    f->gstats.time_comm[is_write] +=
        MPI_Wtime() - t0 - (f->gstats.time_io[is_write] - io0);
    return err;
}

int ncp_group_xferv(ncp_file *f, int is_write, const ncp_extents *ext,
                    const ncp_extents *mem)
{
    ncp_group *g = f->group;
    int err, e;
    if (g->size == 1)
        err = alone_in_group(f, is_write, ext, mem);
    else
        err = through_aggregator(f, is_write, ext, mem);
    if (g->rank == 0 && !g->inner->moves_alone) {
        e = join_until_done(f, is_write);
        if (err == NC_NOERR) err = e;
    }
    return ncp_agree(f->comm, err);
}
