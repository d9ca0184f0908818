/*
 * group_xfer.c -- one collective transfer through the I/O groups
 * (ncp_group.h), in rounds.
 *
 * The group's bytes, member after member in rank order, form one stream;
 * round k takes its bytes [k * cap, (k + 1) * cap), so the aggregator
 * never stages more than cap bytes and a group takes as few rounds as its
 * size allows.  Every member knows every member's byte count (one
 * allgather per call), so each computes its own share of a round without
 * being told.
 *
 * Write round: members' (offset, length) pairs and bytes are gathered on
 * the aggregator, which merges the sorted lists (k-way, O(n log k)) into
 * one sorted list and writes it with one collective call of the
 * aggregators' file.  Its own bytes are never copied: the merged memory
 * list points into its caller's memory for them.  Where two members'
 * extents overlap (undefined in MPI), the lower rank's bytes are kept.
 * Read round: the aggregator reads the union of the members' extents
 * into its staging buffer, then sends each member its bytes, described
 * by datatypes on both sides (no packing).
 *
 * Errors: a member that cannot allocate says so in the gather; the
 * aggregator broadcasts the group's code before any data moves, so nobody
 * waits on a message that is never sent.  An aggregator whose group has
 * failed or finished still joins every round's collective call among the
 * aggregators, with nothing to move.
 */
#include "ncp_group.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ncp_stream.h"
#include "pnetcdf.h"

#define TAG_SCATTER 1

typedef struct grp_call {
    ncp_file *f;
    ncp_group *g;        /* also holds the per-member workspace */
    int dir;             /* 1 write, 0 read: the index of the stats */
    ncp_stream s;        /* my bytes */
    int64_t rounds;      /* this group's rounds */
    int64_t all_rounds;  /* aggregators: the most rounds of any group */
    int gerr;            /* the group's agreed code so far */
    MPI_Offset *pairs;   /* my pairs of the current round */
    /* the aggregator's, per round */
    MPI_Offset *inpairs; /* every member's pairs, member by member */
    int64_t *taken;      /* per member: bytes of its share merged so far */
    char *stage;
    ncp_extents rext, rmem; /* what the aggregators' call moves */
} grp_call;

/* Member q's share [*s0, *s1) of round k, in q's own stream. */
static void share(const grp_call *c, int q, int64_t k, MPI_Offset *s0,
                  MPI_Offset *s1)
{
    const ncp_group *g = c->g;
    int64_t lo = k * g->cap, hi = lo + g->cap;
    int64_t a = g->pre[q], b = a + g->tot[q];
    *s0 = (lo > a ? lo : a) - a;
    *s1 = (hi < b ? hi : b) - a;
    if (*s1 < *s0) *s1 = *s0;
}

static void round_reset(grp_call *c)
{
    free(c->inpairs);
    free(c->stage);
    c->inpairs = NULL;
    c->stage = NULL;
    c->rext.n = c->rext.nbytes = 0;
    c->rmem.n = c->rmem.nbytes = 0;
}

/*
 * Every member's byte count (-1 from one that could not allocate), the
 * group's rounds and, among the aggregators, the most rounds of any
 * group.  A group of one ships nothing: its only round hands the whole
 * transfer to the aggregators' call.
 */
static int call_begin(grp_call *c, ncp_file *f, int is_write,
                      const ncp_extents *ext, const ncp_extents *mem)
{
    ncp_group *g = f->group;
    int64_t mine, total = 0;
    int q;
    memset(c, 0, sizeof(*c));
    c->f = f;
    c->g = g;
    c->dir = is_write ? 1 : 0;
    ncp_extents_init(&c->rext);
    ncp_extents_init(&c->rmem);
    c->pairs = malloc((size_t)(2 * ext->n + 2) * sizeof(MPI_Offset));
    if (g->rank == 0) c->taken = malloc((size_t)g->size * sizeof(int64_t));
    mine = ncp_stream_init(&c->s, ext, mem) == NC_NOERR && c->pairs &&
                   (g->rank != 0 || c->taken)
               ? ext->nbytes
               : -1;
    MPI_Allgather(&mine, 1, MPI_INT64_T, g->tot, 1, MPI_INT64_T, g->comm);
    for (q = 0; q < g->size; q++) {
        if (g->tot[q] < 0) c->gerr = NC_ENOMEM;
        g->pre[q] = total;
        total += g->tot[q];
    }
    if (c->gerr == NC_NOERR && total > 0)
        c->rounds = g->size == 1 ? 1 : (total + g->cap - 1) / g->cap;
    if (g->acomm != MPI_COMM_NULL)
        MPI_Allreduce(&c->rounds, &c->all_rounds, 1, MPI_INT64_T, MPI_MAX,
                      g->acomm);
    return c->gerr;
}

static void call_end(grp_call *c)
{
    round_reset(c);
    ncp_extents_free(&c->rext);
    ncp_extents_free(&c->rmem);
    ncp_stream_free(&c->s);
    free(c->pairs);
    free(c->taken);
}

/*
 * The first step of a round on every member: my pairs of the round and a
 * datatype over their memory (*t, MPI_DATATYPE_NULL when I have none),
 * the pair counts gathered on the aggregator, which prepares its receive
 * side (prepare) and broadcasts the group's code.
 */
static int64_t my_pairs(grp_call *c, int64_t k, MPI_Datatype *t)
{
    MPI_Offset s0, s1;
    int64_t np;
    *t = MPI_DATATYPE_NULL;
    share(c, c->g->rank, k, &s0, &s1);
    np = ncp_stream_clip(&c->s, s0, s1, c->pairs);
    if (np > 0 && ncp_stream_type(&c->s, s0, s1, t) != NC_NOERR) np = -1;
    return np;
}

/* The aggregator: where each member's pairs (and, writing, bytes) land. */
static int prepare(grp_call *c, int64_t k, int stage_bytes)
{
    ncp_group *g = c->g;
    int64_t npair = 0, nbyte = 0;
    int q;
    for (q = 0; q < g->size; q++) {
        MPI_Offset s0, s1;
        if (g->first[q] < 0) return NC_ENOMEM; /* that member's report */
        share(c, q, k, &s0, &s1);
        g->pdsp[q] = (int)npair;
        g->pcnt[q] = (int)g->first[q];
        g->bdsp[q] = (int)nbyte;
        g->bcnt[q] = stage_bytes && q > 0 ? (int)(s1 - s0) : 0;
        npair += g->first[q];
        nbyte += g->bcnt[q];
    }
    for (q = 0; q < g->size; q++) g->first[q] = g->pdsp[q];
    g->first[g->size] = npair;
    c->inpairs = malloc((size_t)(2 * npair + 2) * sizeof(MPI_Offset));
    if (stage_bytes) c->stage = malloc((size_t)(nbyte ? nbyte : 1));
    return !c->inpairs || (stage_bytes && !c->stage) ? NC_ENOMEM : NC_NOERR;
}

static int gather_pairs(grp_call *c, int64_t k, int64_t np, int writing)
{
    ncp_group *g = c->g;
    int err = NC_NOERR;
    MPI_Gather(&np, 1, MPI_INT64_T, g->first, 1, MPI_INT64_T, 0, g->comm);
    if (g->rank == 0) err = prepare(c, k, writing);
    MPI_Bcast(&err, 1, MPI_INT, 0, g->comm);
    if (err == NC_NOERR)
        MPI_Gatherv(c->pairs, (int)np, g->pair, c->inpairs, g->pcnt, g->pdsp,
                    g->pair, 0, g->comm);
    return err;
}

/* Bytes this member ships to or from its aggregator in round k: the
 * traffic is counted once, on the members' side. */
static int64_t shipped(const grp_call *c, int64_t k)
{
    MPI_Offset s0, s1;
    if (c->g->rank == 0) return 0;
    share(c, c->g->rank, k, &s0, &s1);
    return s1 - s0;
}

/*
 * The aggregators' I/O phase of a round: one collective call among them.
 * use 0: this group has nothing (more) to move in it, and joins empty.
 */
static int aggregators_io(grp_call *c, int use, int is_write)
{
    ncp_file *af = c->g->afile;
    const ncp_extents *e = &c->rext, *m = &c->rmem;
    ncp_extents none;
    double t0 = MPI_Wtime();
    int err;
    ncp_extents_init(&none);
    if (!use) e = m = &none;
    else if (c->g->size == 1) e = c->s.ext, m = c->s.mem;
    err = af->drv->xferv(af, 1, is_write, e, m);
    c->f->gstats.time_io[is_write] += MPI_Wtime() - t0;
    return err;
}

/* The aggregator, writing: the members' sorted lists merged into one
 * (rext, and rmem over its own memory and the staging buffer). */
static int merge_writes(grp_call *c, int64_t k)
{
    ncp_group *g = c->g;
    ncp_kmerge m;
    MPI_Offset end = -1, own0, own1;
    int64_t i;
    int q, err = ncp_kmerge_init(&m, g->size, c->inpairs, g->first);
    share(c, 0, k, &own0, &own1);
    memset(c->taken, 0, (size_t)g->size * sizeof(int64_t));
    while (err == NC_NOERR && (q = ncp_kmerge_pop(&m, &i)) >= 0) {
        MPI_Offset off = c->inpairs[2 * i], len = c->inpairs[2 * i + 1];
        MPI_Offset at = c->taken[q], skip = end > off ? end - off : 0;
        c->taken[q] += len;
        if (skip >= len) continue; /* another rank's extent covers it */
        if (off + len > end) end = off + len;
        err = ncp_extents_add(&c->rext, off + skip, len - skip);
        if (err != NC_NOERR) break;
        if (q == 0)
            err = ncp_stream_mem_add(&c->s, own0 + at + skip, own0 + at + len,
                                     &c->rmem);
        else
            err = ncp_extents_add(
                &c->rmem,
                (MPI_Offset)(intptr_t)(c->stage + g->bdsp[q] + at + skip),
                len - skip);
    }
    ncp_kmerge_free(&m);
    return err;
}

/*
 * Round k of a write.  Returns the group's agreed code; the aggregator's
 * own failures (merging, writing) go to *ioerr and do not stop the
 * rounds, so the other groups still write theirs.
 */
static int write_round(grp_call *c, int64_t k, int *ioerr)
{
    ncp_group *g = c->g;
    MPI_Datatype t;
    double t0 = MPI_Wtime();
    int64_t np = my_pairs(c, k, &t);
    int send = t != MPI_DATATYPE_NULL && g->rank != 0, err, e;
    err = gather_pairs(c, k, np, 1);
    if (err == NC_NOERR)
        MPI_Gatherv(MPI_BOTTOM, send, send ? t : MPI_BYTE, c->stage, g->bcnt,
                    g->bdsp, MPI_BYTE, 0, g->comm);
    if (t != MPI_DATATYPE_NULL) MPI_Type_free(&t);
    c->f->gstats.time_comm[1] += MPI_Wtime() - t0;
    if (err == NC_NOERR) c->f->gstats.bytes_shipped[1] += shipped(c, k);
    if (g->rank != 0) return err;
    e = err == NC_NOERR ? merge_writes(c, k) : NC_NOERR;
    if (e != NC_NOERR && *ioerr == NC_NOERR) *ioerr = e;
    e = aggregators_io(c, err == NC_NOERR && e == NC_NOERR, 1);
    if (e != NC_NOERR && *ioerr == NC_NOERR) *ioerr = e;
    round_reset(c);
    return err;
}

/* The aggregator, reading: the union of the members' extents, and one
 * staging buffer for its bytes. */
static int merge_reads(grp_call *c)
{
    ncp_kmerge m;
    MPI_Offset end = -1;
    int64_t i;
    int err = ncp_kmerge_init(&m, c->g->size, c->inpairs, c->g->first);
    while (err == NC_NOERR && ncp_kmerge_pop(&m, &i) >= 0) {
        MPI_Offset off = c->inpairs[2 * i], hi = off + c->inpairs[2 * i + 1];
        if (hi <= end) continue;
        if (off < end) off = end;
        err = ncp_extents_add(&c->rext, off, hi - off);
        end = hi;
    }
    ncp_kmerge_free(&m);
    if (err != NC_NOERR) return err;
    c->stage = malloc((size_t)(c->rext.nbytes ? c->rext.nbytes : 1));
    if (!c->stage) return NC_ENOMEM;
    return ncp_extents_add(&c->rmem, (MPI_Offset)(intptr_t)c->stage,
                           c->rext.nbytes);
}

/* A datatype over the staging buffer for member q's pairs: each lies
 * inside one extent of the union, and both lists ascend. */
static int member_type(grp_call *c, int q, MPI_Datatype *t)
{
    const ncp_extents *u = &c->rext;
    int64_t a = c->g->first[q], n = c->g->first[q + 1] - a, i, j = 0;
    MPI_Offset upos = 0;
    int *blen = malloc((size_t)n * sizeof(int));
    MPI_Aint *disp = malloc((size_t)n * sizeof(MPI_Aint));
    if (!blen || !disp) {
        free(blen);
        free(disp);
        return NC_ENOMEM;
    }
    for (i = 0; i < n; i++) {
        MPI_Offset off = c->inpairs[2 * (a + i)];
        while (u->off[j] + u->len[j] <= off) upos += u->len[j++];
        disp[i] = (MPI_Aint)(intptr_t)(c->stage + upos + (off - u->off[j]));
        blen[i] = (int)c->inpairs[2 * (a + i) + 1];
    }
    MPI_Type_create_hindexed((int)n, blen, disp, MPI_BYTE, t);
    MPI_Type_commit(t);
    free(blen);
    free(disp);
    return NC_NOERR;
}

/* The aggregator's sends of a read round: a type per member with pairs
 * (MPI_DATATYPE_NULL for none) and room for every request. */
typedef struct grp_sends {
    MPI_Datatype *type;
    MPI_Request *req;
    int n;
} grp_sends;

static void sends_free(grp_sends *s)
{
    int q;
    for (q = 0; s->type && q < s->n; q++)
        if (s->type[q] != MPI_DATATYPE_NULL) MPI_Type_free(&s->type[q]);
    free(s->type);
    free(s->req);
}

static int sends_make(grp_call *c, grp_sends *s)
{
    int q, err = NC_NOERR;
    s->n = c->g->size;
    s->type = malloc((size_t)s->n * sizeof(MPI_Datatype));
    s->req = malloc((size_t)(s->n + 1) * sizeof(MPI_Request));
    if (!s->type || !s->req) return NC_ENOMEM;
    for (q = 0; q < s->n; q++) s->type[q] = MPI_DATATYPE_NULL;
    for (q = 0; q < s->n && err == NC_NOERR; q++)
        if (c->g->first[q + 1] > c->g->first[q])
            err = member_type(c, q, &s->type[q]);
    return err;
}

/* Every member receives its bytes into its own memory (mine), the
 * aggregator too, from itself. */
static void scatter(ncp_group *g, MPI_Datatype mine, grp_sends *s)
{
    MPI_Request one, *req = g->rank == 0 ? s->req : &one;
    int n = 0, q;
    if (mine != MPI_DATATYPE_NULL)
        MPI_Irecv(MPI_BOTTOM, 1, mine, 0, TAG_SCATTER, g->comm, &req[n++]);
    for (q = 0; g->rank == 0 && q < g->size; q++)
        if (s->type[q] != MPI_DATATYPE_NULL)
            MPI_Isend(MPI_BOTTOM, 1, s->type[q], q, TAG_SCATTER, g->comm,
                      &req[n++]);
    MPI_Waitall(n, req, MPI_STATUSES_IGNORE);
}

/* The aggregator's part of a read round after the pairs are in: merge,
 * read (always joining the aggregators' call), build the sends. */
static int aggregator_read(grp_call *c, int gathered, grp_sends *s)
{
    int err = gathered ? merge_reads(c) : NC_NOERR, e;
    e = aggregators_io(c, gathered && err == NC_NOERR, 0);
    if (err == NC_NOERR) err = e;
    if (gathered && err == NC_NOERR) err = sends_make(c, s);
    return err;
}

/* Round k of a read.  Returns the group's agreed code: a failed read
 * anywhere in the group fails it for every member. */
static int read_round(grp_call *c, int64_t k)
{
    ncp_group *g = c->g;
    grp_sends s = {NULL, NULL, 0};
    MPI_Datatype mine;
    double t0 = MPI_Wtime();
    int64_t np = my_pairs(c, k, &mine);
    int err = gather_pairs(c, k, np, 0), gathered = err == NC_NOERR, e;
    c->f->gstats.time_comm[0] += MPI_Wtime() - t0;
    if (g->rank == 0) {
        e = aggregator_read(c, gathered, &s);
        if (err == NC_NOERR) err = e;
    }
    t0 = MPI_Wtime();
    if (gathered) MPI_Bcast(&err, 1, MPI_INT, 0, g->comm);
    if (gathered && err == NC_NOERR) {
        scatter(g, mine, &s);
        c->f->gstats.bytes_shipped[0] += shipped(c, k);
    }
    c->f->gstats.time_comm[0] += MPI_Wtime() - t0;
    if (mine != MPI_DATATYPE_NULL) MPI_Type_free(&mine);
    sends_free(&s);
    round_reset(c);
    return err;
}

/* Round k on this rank: its group's exchange when the group is still
 * moving bytes, and on an aggregator always one call among them. */
static int run_round(grp_call *c, int64_t k, int is_write, int *ioerr)
{
    int active = k < c->rounds && c->gerr == NC_NOERR, e;
    if (active && c->g->size > 1)
        return is_write ? write_round(c, k, ioerr) : read_round(c, k);
    if (c->g->rank != 0) return NC_NOERR;
    e = aggregators_io(c, active, is_write);
    if (e != NC_NOERR && is_write && *ioerr == NC_NOERR) *ioerr = e;
    return is_write ? NC_NOERR : e;
}

int ncp_group_xferv(ncp_file *f, int is_write, const ncp_extents *ext,
                    const ncp_extents *mem)
{
    grp_call c;
    int ioerr = NC_NOERR, e;
    int64_t k, n;
    call_begin(&c, f, is_write, ext, mem);
    n = c.g->rank == 0 ? c.all_rounds : c.rounds;
    for (k = 0; k < n; k++) {
        e = run_round(&c, k, is_write, &ioerr);
        f->gstats.rounds[c.dir]++;
        if (e != NC_NOERR && c.gerr == NC_NOERR) c.gerr = e;
        if (c.gerr != NC_NOERR && c.g->rank != 0) break;
    }
    e = c.gerr != NC_NOERR ? c.gerr : ioerr;
    call_end(&c);
    return ncp_io_agree(f->comm, e);
}
