/*
 * group.c -- I/O groups (ncp_group.h): the hints, the groups'
 * communicators and the aggregators' own file handle.
 *
 * Groups are consecutive ranks (nc_io_group_size=N, or "all" for one
 * writer, MOM's single-threaded mode) or a node's ranks cut into K groups
 * (nc_io_group_per_node=K, the node found with MPI_Comm_split_type).  The
 * aggregators open the file a second time over a communicator of their
 * own, so that their I/O phase is one collective driver call among them
 * alone: members never enter the file system for collective data.
 */
#include "ncp_group.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../util/ncp_hints.h"
#include "pnetcdf.h"

/* The cap bounds the aggregator's staging buffer.  4 MiB, measured
 * (docs/IO_GROUPS.md): coll_perf at 8 ranks wrote 1.45x faster with 4 MiB
 * rounds than with one 64 MiB round, whose staging buffer is fresh
 * memory (a page fault per 4 KiB) and falls out of cache between the
 * gather and the write. */
#define NCP_GROUP_CAP_DEFAULT ((int64_t)4 << 20)
/* The staging buffer's byte counts travel as MPI ints. */
#define NCP_GROUP_CAP_MAX ((int64_t)1 << 30)

/* nc_io_group_size: a positive int, or "all" (one group of every rank). */
static int read_group_size(MPI_Info info, int64_t *size)
{
    char val[MPI_MAX_INFO_VAL + 1], *end = NULL;
    int flag = 0;
    long long v;
    if (info == MPI_INFO_NULL) return NC_NOERR;
    MPI_Info_get(info, "nc_io_group_size", MPI_MAX_INFO_VAL, val, &flag);
    if (!flag) return NC_NOERR;
    if (strcmp(val, "all") == 0) {
        *size = NCP_GROUP_ALL;
        return NC_NOERR;
    }
    errno = 0;
    v = strtoll(val, &end, 10);
    if (errno == 0 && end != val && *end == '\0' && v > 0 && v <= INT_MAX) {
        *size = v;
        return NC_NOERR;
    }
    fprintf(stderr, "ncpario: hint nc_io_group_size=%s: want an integer in "
                    "1..%d or \"all\"\n", val, INT_MAX);
    return NC_EINVAL;
}

static int read_own_hints(MPI_Info info, ncp_group_conf *c)
{
    int err = read_group_size(info, &c->size);
    if (err == NC_NOERR)
        err = ncp_hints_get_int(info, "nc_io_group_per_node", INT_MAX,
                                &c->per_node);
    if (err == NC_NOERR)
        err = ncp_hints_get_int(info, "nc_io_group_buffer_size",
                                NCP_GROUP_CAP_MAX, &c->cap);
    if (err == NC_NOERR && c->size != 0 && c->per_node != 0) {
        fprintf(stderr, "ncpario: hints nc_io_group_size and "
                        "nc_io_group_per_node both set: choose one\n");
        err = NC_EINVAL;
    }
    return err;
}

/* Every rank must form the same groups: one MAX over (bad, v, -v) tells
 * both a bad value anywhere and any difference between ranks. */
int ncp_group_conf_read(ncp_file *f, ncp_group_conf *c)
{
    int64_t v[7], all[7];
    int rank, i, differ = 0;
    c->size = 0;
    c->per_node = 0;
    c->cap = NCP_GROUP_CAP_DEFAULT;
    v[0] = read_own_hints(f->info, c) != NC_NOERR;
    v[1] = c->size, v[2] = c->per_node, v[3] = c->cap;
    for (i = 1; i < 4; i++) v[3 + i] = -v[i];
    MPI_Allreduce(v, all, 7, MPI_INT64_T, MPI_MAX, f->comm);
    if (all[0]) return NC_EINVAL;
    for (i = 1; i < 4; i++) differ |= all[i] != -all[3 + i];
    MPI_Comm_rank(f->comm, &rank);
    if (differ && rank == 0)
        fprintf(stderr, "ncpario: the I/O group hints (nc_io_group_size, "
                        "nc_io_group_per_node, nc_io_group_buffer_size) "
                        "differ between ranks\n");
    return differ ? NC_EINVAL : NC_NOERR;
}

/* My group's communicator, ordered by rank so that the lowest rank of a
 * group is its aggregator. */
static void split_groups(ncp_file *f, const ncp_group_conf *c, MPI_Comm *out)
{
    int rank, nprocs, local, nlocal;
    int64_t n, per_group;
    MPI_Comm node;
    MPI_Comm_rank(f->comm, &rank);
    MPI_Comm_size(f->comm, &nprocs);
    if (c->size != 0) {
        n = c->size == NCP_GROUP_ALL ? nprocs : c->size;
        MPI_Comm_split(f->comm, (int)(rank / n), rank, out);
        return;
    }
    MPI_Comm_split_type(f->comm, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL,
                        &node);
    MPI_Comm_rank(node, &local);
    MPI_Comm_size(node, &nlocal);
    per_group = (nlocal + c->per_node - 1) / c->per_node;
    MPI_Comm_split(node, (int)(local / per_group), local, out);
    MPI_Comm_free(&node);
}

/*
 * The aggregators' file: their I/O phase is that driver's own collective
 * call among them, hints and all.  For posix that keeps its file-domain
 * aggregation (nc_posix_aggrs_per_node, default one writer per node):
 * measured on coll_perf at 8 ranks, groups of 2 wrote 0.82-0.91x as fast
 * as ungrouped that way, and 0.57-0.62x with every aggregator writing its
 * own interleaved runs (they contend for the file's lock).
 */
static int open_afile(ncp_file *f, ncp_group *g)
{
    ncp_file *af = calloc(1, sizeof(*af));
    int err = ncp_agree(g->acomm, af ? NC_NOERR : NC_ENOMEM);
    if (err != NC_NOERR) {
        free(af);
        return err;
    }
    err = ncp_io_open_plain(af, g->acomm, f->path, f->writable, f->info,
                            f->drv);
    if (err != NC_NOERR) free(af);
    else g->afile = af;
    return err;
}

static int alloc_workspace(ncp_group *g)
{
    size_t n = (size_t)g->size;
    if (g->rank != 0) return NC_NOERR;
    g->afirst = malloc((n + 1) * sizeof(int64_t));
    g->first = malloc((n + 1) * sizeof(int64_t));
    g->cur = malloc(n * sizeof(int64_t));
    g->pcnt = malloc(n * sizeof(int));
    g->pdsp = malloc(n * sizeof(int));
    g->bcnt = malloc(n * sizeof(int));
    g->bdsp = malloc(n * sizeof(int));
    if (!g->afirst || !g->first || !g->cur || !g->pcnt || !g->pdsp ||
        !g->bcnt || !g->bdsp)
        return NC_ENOMEM;
    return NC_NOERR;
}

static void free_workspace(ncp_group *g)
{
    free(g->afirst);
    free(g->first);
    free(g->cur);
    free(g->pcnt);
    free(g->pdsp);
    free(g->bcnt);
    free(g->bdsp);
    free(g->stage);
}

int ncp_group_open(ncp_file *f, const ncp_group_conf *c)
{
    int rank, err;
    ncp_group *g = calloc(1, sizeof(*g));
    err = ncp_agree(f->comm, g ? NC_NOERR : NC_ENOMEM);
    if (err != NC_NOERR) {
        free(g);
        return err;
    }
    f->group = g;
    g->comm = g->acomm = MPI_COMM_NULL;
    g->pair = MPI_DATATYPE_NULL;
    g->cap = c->cap;
    MPI_Comm_rank(f->comm, &rank);
    split_groups(f, c, &g->comm);
    MPI_Comm_size(g->comm, &g->size);
    MPI_Comm_rank(g->comm, &g->rank);
    MPI_Comm_split(f->comm, g->rank == 0 ? 0 : MPI_UNDEFINED, rank,
                   &g->acomm);
    MPI_Type_contiguous(2, MPI_OFFSET, &g->pair);
    MPI_Type_commit(&g->pair);
    err = ncp_agree(f->comm, alloc_workspace(g));
    if (err == NC_NOERR && g->acomm != MPI_COMM_NULL) err = open_afile(f, g);
    err = ncp_agree(f->comm, err);
    if (err != NC_NOERR) ncp_group_close(f);
    return err;
}

int ncp_group_sync(ncp_file *f)
{
    ncp_group *g = f->group;
    int err = NC_NOERR;
    if (g->afile) err = g->afile->drv->sync(g->afile);
    return ncp_agree(f->comm, err);
}

int ncp_group_close(ncp_file *f)
{
    ncp_group *g = f->group;
    int err = NC_NOERR;
    if (!g) return NC_NOERR;
    if (g->afile) {
        /* the dataset's profile outlives the groups: keep the rounds */
        f->driver_rounds += g->afile->driver_rounds;
        f->driver_shm_rounds += g->afile->driver_shm_rounds;
        err = ncp_io_close(g->afile);
        free(g->afile);
    }
    if (g->acomm != MPI_COMM_NULL) MPI_Comm_free(&g->acomm);
    if (g->comm != MPI_COMM_NULL) MPI_Comm_free(&g->comm);
    if (g->pair != MPI_DATATYPE_NULL) MPI_Type_free(&g->pair);
    free_workspace(g);
    free(g);
    f->group = NULL;
    return err;
}
