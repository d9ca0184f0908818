/*
 * group.c -- I/O groups (ncp_group.h), a driver stacked over the file's
 * own: the hints, the groups' communicators, the aggregators' own file
 * handle, and the driver table that sends collective transfers through
 * the aggregators and everything else straight to the inner driver.
 *
 * Groups are consecutive ranks (nc_io_group_size=N, or "all" for one
 * writer, MOM's single-threaded mode) or a node's ranks cut into K groups
 * (nc_io_group_per_node=K, the node found with MPI_Comm_split_type).  The
 * aggregators open the file a second time over a communicator of their
 * own, so that their I/O phase is a driver call among them alone:
 * members never enter the file system for collective data.
 */
#include "ncp_group.h"

#include <stdio.h>
#include <stdlib.h>

#include "../agg/ncp_agg.h"
#include "../../util/ncp_hints.h"
#include "pnetcdf.h"

/* The group rows of the hint table (nc_num_aggrs_per_node settled into
 * nc_io_group_per_node): bad values and contradicting hints are
 * NC_EINVAL.  The table's word "all" is the value -1. */
_Static_assert(NCP_GROUP_ALL == -1, "nc_io_group_size=all in the table");
static int read_own_hints(MPI_Info info, ncp_group_conf *c)
{
    ncp_hints h;
    int err;
    ncp_hints_defaults(&h);
    err = ncp_hints_read(info, NCP_HO_GROUP, 1, &h);
    c->size = h.io_group_size;
    c->per_node = h.io_group_per_node;
    c->cap = h.io_group_buffer_size;
    return err;
}

/* Every rank must form the same groups: one MAX over (bad, v, -v) tells
 * both a bad value anywhere and any difference between ranks. */
static int conf_read(ncp_file *f, ncp_group_conf *c)
{
    int64_t v[7], all[7];
    int rank, i, differ = 0;
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
 * The aggregators' file: their I/O phase is the inner driver's own call,
 * hints and all: collective among them over MPI-IO, each on its own over
 * posix (its moves_alone), where the group's aggregator has merged the
 * members' runs already.
 */
static int open_afile(ncp_file *f, ncp_group *g)
{
    ncp_file *af = calloc(1, sizeof(*af));
    int err = ncp_agree(g->acomm, af ? NC_NOERR : NC_ENOMEM);
    if (err != NC_NOERR) {
        free(af);
        return err;
    }
    err = ncp_file_init(af, g->acomm, f->path, f->writable, f->info);
    af->drv = af->mover = g->inner;
    if (err == NC_NOERR) err = af->drv->open(af, 0, 0);
    if (err != NC_NOERR) {
        ncp_file_release(af);
        free(af);
    } else {
        g->afile = af;
    }
    return err;
}

/* Collective, after the inner driver opened f: form the groups and open
 * the file over the aggregators. */
static int groups_form(ncp_file *f, ncp_group *g)
{
    int rank, err;
    MPI_Comm_rank(f->comm, &rank);
    split_groups(f, &g->conf, &g->comm);
    MPI_Comm_size(g->comm, &g->size);
    MPI_Comm_rank(g->comm, &g->rank);
    MPI_Comm_split(f->comm, g->rank == 0 ? 0 : MPI_UNDEFINED, rank,
                   &g->acomm);
    err = NC_NOERR;
    if (g->acomm != MPI_COMM_NULL) err = open_afile(f, g);
    err = ncp_agree(f->comm, err);
    if (err == NC_NOERR) err = ncp_agree(f->comm, ncp_group_agg_open(f));
    return err;
}

/* Collective: close the aggregators' file, free the groups. */
static int groups_free(ncp_file *f)
{
    ncp_group *g = f->group;
    int err = NC_NOERR;
    if (!g) return NC_NOERR;
    ncp_group_agg_close(g);
    if (g->afile) {
        err = g->inner->close(g->afile);
        ncp_file_release(g->afile);
        free(g->afile);
    }
    if (g->acomm != MPI_COMM_NULL) MPI_Comm_free(&g->acomm);
    if (g->comm != MPI_COMM_NULL) MPI_Comm_free(&g->comm);
    free(g);
    f->group = NULL;
    return err;
}

/* ---- the driver ------------------------------------------------------- */

/* The hints are read before anything is opened, so a bad one creates
 * nothing; the groups keep the inner driver they wrap. */
static int group_stack(ncp_file *f, int *on)
{
    ncp_group_conf c;
    ncp_group *g = NULL;
    int err = conf_read(f, &c);
    *on = err == NC_NOERR && (c.size || c.per_node);
    if (!*on) return err;
    g = calloc(1, sizeof(*g));
    err = ncp_agree(f->comm, g ? NC_NOERR : NC_ENOMEM);
    if (err != NC_NOERR) {
        free(g);
        *on = 0;
        return err;
    }
    g->conf = c;
    g->cap = c.cap;
    g->inner = f->drv;
    g->comm = g->acomm = MPI_COMM_NULL;
    f->group = g;
    return NC_NOERR;
}

static int group_open(ncp_file *f, int create, int clobber)
{
    ncp_group *g = f->group;
    int err = g->inner->open(f, create, clobber);
    if (err != NC_NOERR) {
        free(g);
        f->group = NULL;
        return err;
    }
    err = groups_form(f, g);
    if (err != NC_NOERR) {
        groups_free(f);
        (void)g->inner->close(f);
    }
    return err;
}

static int group_close(ncp_file *f)
{
    const ncp_io_driver *inner = f->group->inner;
    int err = groups_free(f), e = inner->close(f);
    return err != NC_NOERR ? err : e;
}

/* Independent transfers cannot be grouped: an aggregator would have to
 * take part in a call it does not make. */
static int group_xferv(ncp_file *f, int collective, int is_write,
                       const ncp_extents *ext, const ncp_extents *mem)
{
    if (collective) return ncp_group_xferv(f, is_write, ext, mem);
    return f->group->inner->xferv(f, 0, is_write, ext, mem);
}

/* A collective transfer's bytes travel between ranks first: a write
 * through the group's aggregator takes swap widths where io/agg copies
 * them anyway, the groups' own rounds never; independent transfers as
 * the inner driver says. */
static int group_swaps(const ncp_file *f, int collective, int is_write)
{
    const ncp_io_driver *inner = f->group->inner;
    if (collective && is_write && f->group->agg)
        return ncp_agg_takes_swaps(f->group->agg);
    if (collective || !inner->swaps) return 0;
    return inner->swaps(f, collective, is_write);
}

/* f's own handle is synced by the inner driver; the aggregators' file
 * reaches storage too. */
static int group_sync(ncp_file *f)
{
    ncp_group *g = f->group;
    int err = g->inner->sync(f), e = NC_NOERR;
    if (g->afile) e = g->inner->sync(g->afile);
    e = ncp_agree(f->comm, e);
    return err != NC_NOERR ? err : e;
}

static int group_write_at(ncp_file *f, MPI_Offset off, const void *buf,
                          int64_t n)
{
    return f->group->inner->write_at(f, off, buf, n);
}

static int group_read_at(ncp_file *f, MPI_Offset off, void *buf, int64_t n,
                         int64_t *got)
{
    return f->group->inner->read_at(f, off, buf, n, got);
}

static int group_get_size(ncp_file *f, MPI_Offset *size)
{
    return f->group->inner->get_size(f, size);
}

static int group_set_size(ncp_file *f, MPI_Offset size)
{
    return f->group->inner->set_size(f, size);
}

static int group_get_info(ncp_file *f, MPI_Info *info)
{
    return f->group->inner->get_info(f, info);
}

const ncp_io_driver ncp_io_group_driver = {
    .name = "group",
    .stack = group_stack,
    .swaps = group_swaps,
    .open = group_open,
    .close = group_close,
    .xferv = group_xferv,
    .write_at = group_write_at,
    .read_at = group_read_at,
    .get_size = group_get_size,
    .set_size = group_set_size,
    .sync = group_sync,
    .get_info = group_get_info,
};
