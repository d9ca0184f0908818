/*
 * profile.c -- the per-dataset counters (ncpario.h): ncpario_inq_profile's,
 * and the NCPARIO_PROFILE=1 report at close: every rank's counters summed,
 * and the slowest rank's times, printed by rank 0 on stderr so that it
 * never mixes with a program's own output.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ncp_dataset.h"

/* The engine's counters and the I/O groups' (kept by the I/O layer). */
static void profile_collect(const ncp_dataset *ds, ncpario_profile *p)
{
    const ncp_group_stats *g = &ds->file.gstats;
    const ncp_agg_counts *d = ncp_io_driver_counts(&ds->file);
    ncp_wb_stats w;
    ncp_io_behind_stats(&ds->file, &w);
    *p = ds->prof;
    p->behind_jobs = w.jobs;
    p->behind_bytes = w.bytes;
    p->behind_peak_staged = w.peak_staged;
    p->behind_waits_for_room = w.waits_for_room;
    p->behind_bytes_logged = w.bytes_logged;
    p->group_rounds_write = g->rounds[1];
    p->group_rounds_read = g->rounds[0];
    p->group_bytes_shipped_write = g->bytes_shipped[1];
    p->group_bytes_shipped_read = g->bytes_shipped[0];
    p->time_group_comm_write = g->time_comm[1];
    p->time_group_io_write = g->time_io[1];
    p->time_group_comm_read = g->time_comm[0];
    p->time_group_io_read = g->time_io[0];
    p->driver_rounds_write = d->rounds;
    p->driver_shm_rounds_write = d->shm_rounds;
    p->driver_messages_sent = d->msgs_sent;
    p->driver_messages_received = d->msgs_recv;
    p->driver_pieces_write = d->pieces;
    p->driver_write_calls = d->sink_writes;
    p->driver_bytes_aggregated = d->sink_bytes;
}

int ncp_ds_inq_profile(ncp_dataset *ds, ncpario_profile *prof)
{
    if (!prof) return NC_EINVAL;
    profile_collect(ds, prof);
    return NC_NOERR;
}

#define NCOUNTS 15
#define NTIMES 9

/* Called after close (to include its time); ds->file keeps its group
 * counters until the dataset is freed. */
void ncp_profile_report(ncp_dataset *ds, const char *path)
{
    ncpario_profile p;
    long long c[NCOUNTS], cs[NCOUNTS];
    double t[NTIMES], tm[NTIMES];
    if (!ds->hints.profile) return;
    profile_collect(ds, &p);
    c[0] = p.mpiio_write_calls, c[1] = p.mpiio_read_calls;
    c[2] = p.extents_posted, c[3] = p.extents_issued;
    c[4] = p.bytes_written, c[5] = p.bytes_read;
    c[6] = p.group_rounds_write, c[7] = p.group_rounds_read;
    c[8] = p.group_bytes_shipped_write, c[9] = p.group_bytes_shipped_read;
    c[10] = p.driver_rounds_write, c[11] = p.driver_shm_rounds_write;
    c[12] = p.driver_messages_sent, c[13] = p.driver_pieces_write;
    c[14] = p.driver_write_calls;
    t[0] = p.time_open, t[1] = p.time_define, t[2] = p.time_post;
    t[3] = p.time_wait, t[4] = p.time_close;
    t[5] = p.time_group_comm_write, t[6] = p.time_group_io_write;
    t[7] = p.time_group_comm_read, t[8] = p.time_group_io_read;
    MPI_Reduce(c, cs, NCOUNTS, MPI_LONG_LONG, MPI_SUM, 0, ds->comm);
    MPI_Reduce(t, tm, NTIMES, MPI_DOUBLE, MPI_MAX, 0, ds->comm);
    if (ds->rank != 0) return;
    fprintf(stderr,
            "ncpario profile: %s (%d ranks; counts summed, times max)\n"
            "  MPI-IO data calls: %lld write, %lld read\n"
            "  extents: %lld posted, %lld issued after merging\n"
            "  bytes: %lld written, %lld read\n"
            "  seconds: open %.6f define %.6f post %.6f wait %.6f "
            "close %.6f\n",
            path ? path : "?", ds->nprocs, cs[0], cs[1], cs[2], cs[3], cs[4],
            cs[5], tm[0], tm[1], tm[2], tm[3], tm[4]);
    if (cs[6] + cs[7] > 0)
        fprintf(stderr,
                "  I/O groups: write %lld rounds, %lld bytes shipped, "
                "comm %.6f s, io %.6f s; read %lld rounds, %lld bytes "
                "shipped, comm %.6f s, io %.6f s\n",
                cs[6], cs[8], tm[5], tm[6], cs[7], cs[9], tm[7], tm[8]);
    if (cs[10] > 0)
        fprintf(stderr,
                "  posix write aggregation: %lld rounds, %lld in shared "
                "memory; %lld messages; %lld extents merged into %lld "
                "write calls\n",
                cs[10], cs[11], cs[12], cs[13], cs[14]);
}
