/*
 * profile.c -- the NCPARIO_PROFILE=1 report at close: every rank's
 * counters summed, and the slowest rank's times, printed by rank 0 on
 * stderr so that it never mixes with a program's own output.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ncp_dataset.h"

static int profile_wanted(void)
{
    const char *v = getenv("NCPARIO_PROFILE");
    return v && strcmp(v, "1") == 0;
}

void ncp_profile_report(ncp_dataset *ds, const char *path)
{
    const ncpario_profile *p = &ds->prof;
    long long c[6], csum[6];
    double t[5], tmax[5];
    if (!profile_wanted()) return;
    c[0] = p->mpiio_write_calls;
    c[1] = p->mpiio_read_calls;
    c[2] = p->extents_posted;
    c[3] = p->extents_issued;
    c[4] = p->bytes_written;
    c[5] = p->bytes_read;
    t[0] = p->time_open;
    t[1] = p->time_define;
    t[2] = p->time_post;
    t[3] = p->time_wait;
    t[4] = p->time_close;
    MPI_Reduce(c, csum, 6, MPI_LONG_LONG, MPI_SUM, 0, ds->comm);
    MPI_Reduce(t, tmax, 5, MPI_DOUBLE, MPI_MAX, 0, ds->comm);
    if (ds->rank != 0) return;
    fprintf(stderr,
            "ncpario profile: %s (%d ranks; counts summed, times max)\n"
            "  MPI-IO data calls: %lld write, %lld read\n"
            "  extents: %lld posted, %lld issued after merging\n"
            "  bytes: %lld written, %lld read\n"
            "  seconds: open %.6f define %.6f post %.6f wait %.6f "
            "close %.6f\n",
            path ? path : "?", ds->nprocs, csum[0],
            csum[1], csum[2], csum[3], csum[4], csum[5], tmax[0], tmax[1],
            tmax[2], tmax[3], tmax[4]);
}
