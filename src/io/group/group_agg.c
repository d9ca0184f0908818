/*
 * group_agg.c -- an I/O group's collective writes through the library's
 * one aggregator (io/agg), over an inner driver that moves each rank's
 * bytes alone (posix).  The group's communicator is the aggregator's,
 * its lowest rank the only aggregator; the members' bytes reach it by
 * message or, when the group shares a node, through the shared staging,
 * and its merged runs go to the aggregators' file (group_sink_write),
 * each aggregator on its own.
 *
 * Why: shipping the members' bytes by message costs a copy more than
 * the shared staging, which the ungrouped posix path already had.  Over
 * MPI-IO the aggregators must call together every round, so the group's
 * own rounds (group_xfer.c) stay; reads use them on every driver.
 */
#include "ncp_group.h"

#include <stdint.h>

#include "../agg/ncp_agg.h"
#include "pnetcdf.h"

/* The aggregator's sink: one merged run, written by the aggregators'
 * file without a collective. */
static int group_sink_write(void *arg, struct iovec *iov, int n,
                            MPI_Offset off)
{
    ncp_file *f = arg;
    ncp_group *g = f->group;
    ncp_file *af = g->afile;
    double t0 = MPI_Wtime();
    MPI_Offset len = 0;
    int i, err = NC_NOERR;
    ncp_extents_clear(&g->run_ext);
    ncp_extents_clear(&g->run_mem);
    for (i = 0; i < n && err == NC_NOERR; i++) {
        err = ncp_extents_add(&g->run_mem,
                              (MPI_Offset)(intptr_t)iov[i].iov_base,
                              (MPI_Offset)iov[i].iov_len);
        len += (MPI_Offset)iov[i].iov_len;
    }
    if (err == NC_NOERR) err = ncp_extents_add(&g->run_ext, off, len);
    if (err == NC_NOERR) err = af->drv->xferv(af, 0, 1, &g->run_ext,
                                              &g->run_mem);
    f->gstats.time_io[1] += MPI_Wtime() - t0;
    return err;
}

int ncp_group_agg_open(ncp_file *f)
{
    ncp_group *g = f->group;
    ncp_agg_conf c;
    ncp_agg_sink sink = {group_sink_write, f};
    int err;
    ncp_extents_init(&g->run_ext);
    ncp_extents_init(&g->run_mem);
    if (!g->inner->moves_alone || !f->writable || g->size < 2)
        return NC_NOERR;
    err = ncp_agg_conf_read(g->comm, f->info, &c);
    if (err != NC_NOERR) return err;
    c.per_node = 0; /* the group's rank 0 alone */
    c.buffer_size = g->cap;
    c.writable = 1;
    err = ncp_agg_open(g->comm, &c, sink, &g->agg);
    /* members never write the file themselves, however large their
     * extents */
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

int ncp_group_write_agg(ncp_file *f, const ncp_extents *ext,
                        const ncp_extents *mem)
{
    ncp_group *g = f->group;
    int64_t r0 = g->agg->rounds;
    double t0 = MPI_Wtime(), io0 = f->gstats.time_io[1];
    int direct, err = ncp_agg_write(g->agg, ext, mem, &direct);
    f->gstats.rounds[1] += g->agg->rounds - r0;
    if (g->rank != 0) f->gstats.bytes_shipped[1] += ext->nbytes;
    f->gstats.time_comm[1] +=
        MPI_Wtime() - t0 - (f->gstats.time_io[1] - io0);
    return ncp_agree(f->comm, err);
}
