/*
 * group_xfer.c -- one collective transfer through the I/O groups
 * (ncp_group.h), in rounds.
 *
 * Per call, the members' (offset, length) lists are gathered on the
 * aggregator, which cuts the group's file range into windows, each
 * holding at most cap bytes of the union of the members' extents, and
 * broadcasts the cuts; round k moves window k.  Windows in file order
 * keep every round's extents from all members together, so they coalesce
 * into long runs, where cutting member after member would leave each
 * round with one member's short rows.
 *
 * Write round: the members' bytes in the window are gathered into the
 * staging buffer (their memory described by datatypes; the aggregator's
 * own bytes are never copied); the aggregator merges the members' sorted
 * lists (k-way, O(n log k)) and writes them through the aggregators'
 * file: on its own where the inner driver moves each rank's bytes alone
 * (posix), else with one collective call among the aggregators (MPI-IO).
 * Where members' extents overlap (undefined in MPI), the bytes merged
 * first (lower offset, then lower rank) win.
 * Read round: the aggregator reads the union of the window's extents
 * into the staging buffer, then sends each member its bytes, described
 * by datatypes on both sides (no packing).
 *
 * Errors: the aggregator allocates before each exchange and the group
 * agrees on the code, so nobody waits on a message that is never sent.
 * Where the aggregators move bytes collectively, one whose group has
 * failed or finished still joins every round's call among them, with
 * nothing to move.
 */
#include "ncp_group.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../base/ncp_stream.h"
#include "pnetcdf.h"

#define TAG_SCATTER 1

typedef struct grp_call {
    ncp_file *f;
    ncp_group *g;        /* also holds the aggregator's workspace */
    int dir;             /* 1 write, 0 read: the index of the stats */
    ncp_stream s;        /* my bytes */
    int64_t rounds;      /* this group's rounds */
    int64_t all_rounds;  /* aggregators: the rounds they run, the most of
                            any group where they move bytes together */
    int alone;           /* the inner driver moves each rank's bytes alone */
    int gerr;            /* the group's agreed code so far */
    MPI_Offset *cuts;    /* window k is [cuts[k], cuts[k + 1]) */
    MPI_Offset *pairs;   /* my pairs; on the aggregator every member's */
    /* the aggregator's, per round */
    MPI_Offset *inpairs; /* the window's pairs, member by member */
    int64_t *taken;      /* per member: bytes of the window merged so far */
    char *stage;
    ncp_extents rext, rmem; /* what the aggregators' call moves */
} grp_call;

/* The group's staging buffer with room for n bytes, or NULL. */
static char *stage_get(ncp_group *g, int64_t n)
{
    if (n < 1) n = 1;
    if (n <= g->stage_size) return g->stage;
    free(g->stage);
    g->stage = malloc((size_t)n);
    g->stage_size = g->stage ? n : 0;
    return g->stage;
}

/* ---- per call: the members' lists and the windows ---------------------- */

/* My extents as (offset, length) pairs. */
static MPI_Offset *pairs_of(const ncp_extents *e)
{
    MPI_Offset *p = malloc((size_t)(2 * e->n + 2) * sizeof(MPI_Offset));
    int64_t i;
    for (i = 0; p && i < e->n; i++) {
        p[2 * i] = e->off[i];
        p[2 * i + 1] = e->len[i];
    }
    return p;
}

/*
 * The aggregator: every member's pairs into c->pairs (g->afirst indexes
 * them); *total their bytes.  Each member sends its count first, -1 when
 * it could not allocate.
 */
static int gather_lists(grp_call *c, const ncp_extents *ext, int mine_ok,
                        int64_t *total)
{
    ncp_group *g = c->g;
    int64_t n = mine_ok ? ext->n : -1, all = 0;
    MPI_Offset *mine = c->pairs;
    int q, err = NC_NOERR;
    MPI_Gather(&n, 1, MPI_INT64_T, g->cur, 1, MPI_INT64_T, 0, g->comm);
    for (q = 0; g->rank == 0 && q < g->size; q++) {
        if (g->cur[q] < 0 || all + g->cur[q] > INT32_MAX) err = NC_ENOMEM;
        g->afirst[q] = all;
        g->pcnt[q] = (int)g->cur[q];
        g->pdsp[q] = (int)all;
        all += g->cur[q] > 0 ? g->cur[q] : 0;
    }
    if (g->rank == 0) {
        g->afirst[g->size] = all;
        c->pairs = malloc((size_t)(2 * all + 2) * sizeof(MPI_Offset));
        if (!c->pairs) err = NC_ENOMEM;
    }
    MPI_Bcast(&err, 1, MPI_INT, 0, g->comm);
    if (err == NC_NOERR)
        MPI_Gatherv(mine, (int)n, g->pair, c->pairs, g->pcnt, g->pdsp,
                    g->pair, 0, g->comm);
    *total = 0;
    for (all = 0; err == NC_NOERR && g->rank == 0 && all < g->afirst[g->size];
         all++)
        *total += c->pairs[2 * all + 1];
    if (g->rank == 0) free(mine);
    return err;
}

/*
 * The aggregator: cut the union of the members' extents, in file order,
 * into windows of at most cap bytes.  Returns their number (-1: out of
 * memory).  A cut falls after every cap bytes of the union, so there are
 * at most total / cap + 1 windows.
 */
static int64_t cut_windows(grp_call *c, int64_t total)
{
    ncp_group *g = c->g;
    ncp_runmerge m;
    MPI_Offset end = 0, acc = 0, lo;
    int64_t n = 0, i, most = total / g->cap + 2;
    int err;
    if (total == 0) return 0;
    c->cuts = malloc((size_t)(most + 1) * sizeof(MPI_Offset));
    err = ncp_runmerge_init_pairs(&m, g->size, c->pairs, g->afirst,
                                  g->afirst + 1);
    while (c->cuts && err == NC_NOERR && ncp_runmerge_pop(&m, &i) >= 0) {
        MPI_Offset o = c->pairs[2 * i], e = o + c->pairs[2 * i + 1];
        if (n == 0) c->cuts[n++] = end = o;
        lo = o > end ? o : end;
        if (e <= lo) continue; /* inside the union already */
        while (acc + (e - lo) > g->cap) {
            lo += g->cap - acc;
            c->cuts[n++] = lo;
            acc = 0;
        }
        acc += e - lo;
        end = e;
    }
    ncp_runmerge_free(&m);
    if (!c->cuts || err != NC_NOERR) return -1;
    c->cuts[n] = end;
    return n;
}

/* Every member learns the windows: their number (or the group's error,
 * negative), then the cuts. */
static int share_windows(grp_call *c, int err, int64_t total)
{
    ncp_group *g = c->g;
    int64_t n = 0;
    if (g->rank == 0 && err == NC_NOERR) {
        n = cut_windows(c, total);
        if (n < 0) err = NC_ENOMEM;
    }
    if (err != NC_NOERR) n = err; /* NC_* codes are negative */
    MPI_Bcast(&n, 1, MPI_INT64_T, 0, g->comm);
    if (n < 0) return (int)n;
    if (g->rank != 0 && n > 0)
        c->cuts = malloc((size_t)(n + 1) * sizeof(MPI_Offset));
    err = n > 0 && !c->cuts ? NC_ENOMEM : NC_NOERR;
    err = ncp_agree(g->comm, err);
    if (err == NC_NOERR && n > 0)
        MPI_Bcast(c->cuts, (int)(n + 1), MPI_OFFSET, 0, g->comm);
    c->rounds = err == NC_NOERR ? n : 0;
    return err;
}

/*
 * The group's windows and, among the aggregators, the most rounds of any
 * group.  A group of one ships nothing: its only round hands the whole
 * transfer to the aggregators' call.
 */
static void call_begin(grp_call *c, ncp_file *f, int is_write,
                       const ncp_extents *ext, const ncp_extents *mem)
{
    ncp_group *g = f->group;
    int64_t total = 0;
    int ok;
    memset(c, 0, sizeof(*c));
    c->f = f;
    c->g = g;
    c->dir = is_write ? 1 : 0;
    c->alone = g->inner->moves_alone;
    ncp_extents_init(&c->rext);
    ncp_extents_init(&c->rmem);
    if (g->size == 1) {
        c->s.ext = ext; /* handed on whole: no prefix sums needed */
        c->s.mem = mem;
        c->rounds = ext->n > 0;
    } else {
        c->pairs = pairs_of(ext);
        if (g->rank == 0)
            c->taken = malloc((size_t)g->size * sizeof(int64_t));
        ok = ncp_stream_init(&c->s, ext, mem) == NC_NOERR && c->pairs &&
             (g->rank != 0 || c->taken);
        c->gerr = gather_lists(c, ext, ok, &total);
        c->gerr = share_windows(c, c->gerr, total);
    }
    c->all_rounds = c->rounds;
    if (g->acomm != MPI_COMM_NULL && !c->alone)
        MPI_Allreduce(&c->rounds, &c->all_rounds, 1, MPI_INT64_T, MPI_MAX,
                      g->acomm);
}

static void round_reset(grp_call *c)
{
    free(c->inpairs);
    c->inpairs = NULL;
    c->stage = NULL;
    c->rext.n = c->rext.nbytes = 0;
    c->rmem.n = c->rmem.nbytes = 0;
}

static void call_end(grp_call *c)
{
    round_reset(c);
    ncp_extents_free(&c->rext);
    ncp_extents_free(&c->rmem);
    ncp_stream_free(&c->s);
    free(c->pairs);
    free(c->cuts);
    free(c->taken);
}

/* ---- per round ---------------------------------------------------------- */

/* The aggregator: member q's pairs clipped to [lo, hi), appended at
 * out[2 * *n...]; its cursor moves past the pairs this window finishes.
 * Returns their bytes. */
static int64_t clip_member(grp_call *c, int q, MPI_Offset lo, MPI_Offset hi,
                           MPI_Offset *out, int64_t *n)
{
    ncp_group *g = c->g;
    int64_t i, bytes = 0;
    for (i = g->cur[q]; i < g->afirst[q + 1]; i++) {
        MPI_Offset o = c->pairs[2 * i], e = o + c->pairs[2 * i + 1];
        MPI_Offset a = o < lo ? lo : o, b = e > hi ? hi : e;
        if (o >= hi) break;
        out[2 * *n] = a;
        out[2 * *n + 1] = b - a;
        (*n)++;
        bytes += b - a;
        if (e > hi) break; /* it goes on in the next window */
        g->cur[q] = i + 1;
    }
    return bytes;
}

/*
 * The aggregator, before round k's exchange: the window's pairs of every
 * member (g->first indexes them), the bytes each sends (writing: every
 * member but itself) and the staging buffer.  Reading, the buffer is
 * sized in merge_reads.
 */
static int prepare(grp_call *c, int64_t k, int writing)
{
    ncp_group *g = c->g;
    int64_t n = 0, nbyte = 0, cap = g->afirst[g->size] + g->size;
    int q;
    if (k == 0)
        for (q = 0; q < g->size; q++) g->cur[q] = g->afirst[q];
    c->inpairs = malloc((size_t)(2 * cap) * sizeof(MPI_Offset));
    if (!c->inpairs) return NC_ENOMEM;
    for (q = 0; q < g->size; q++) {
        int64_t b;
        g->first[q] = n;
        b = clip_member(c, q, c->cuts[k], c->cuts[k + 1], c->inpairs, &n);
        g->bdsp[q] = (int)nbyte;
        g->bcnt[q] = writing && q > 0 ? (int)b : 0;
        nbyte += g->bcnt[q];
    }
    g->first[g->size] = n;
    if (writing && !(c->stage = stage_get(g, nbyte))) return NC_ENOMEM;
    return NC_NOERR;
}

/* My bytes of window k: their stream range, and a datatype over their
 * memory (MPI_DATATYPE_NULL when I have none or it cannot be made). */
static int my_type(grp_call *c, int64_t k, MPI_Datatype *t,
                   MPI_Offset *bytes)
{
    MPI_Offset s0, s1;
    *t = MPI_DATATYPE_NULL;
    ncp_stream_window(&c->s, c->cuts[k], c->cuts[k + 1], &s0, &s1);
    *bytes = s1 - s0;
    return s1 > s0 ? ncp_stream_type(&c->s, s0, s1, t) : NC_NOERR;
}

/*
 * The aggregators' I/O phase of a round: this aggregator's own transfer
 * where the inner driver moves bytes alone, else one collective call
 * among them.  use 0: this group has nothing (more) to move in it, and
 * joins empty.
 */
static int aggregators_io(grp_call *c, int use, int is_write)
{
    ncp_file *af = c->g->afile;
    const ncp_extents *e = &c->rext, *m = &c->rmem;
    ncp_extents none;
    double t0 = MPI_Wtime();
    int64_t r0, shm0;
    int err;
    ncp_extents_init(&none);
    if (!use) e = m = &none;
    else if (c->g->size == 1) e = c->s.ext, m = c->s.mem;
    r0 = af->driver_rounds, shm0 = af->driver_shm_rounds;
    err = af->drv->xferv(af, !c->alone, is_write, e, m);
    c->f->gstats.time_io[is_write] += MPI_Wtime() - t0;
    /* the dataset's profile reads its own file's counters */
    c->f->driver_rounds += af->driver_rounds - r0;
    c->f->driver_shm_rounds += af->driver_shm_rounds - shm0;
    return err;
}

/* The aggregator's own memory for its file bytes [off, off + len): its
 * extents ascend, so its stream position is found by search. */
static int own_memory(grp_call *c, MPI_Offset off, MPI_Offset len)
{
    const ncp_extents *e = c->s.ext;
    int64_t i = ncp_first_ending_after(e, off);
    MPI_Offset at = c->s.ext_at[i] + (off - e->off[i]);
    return ncp_stream_mem_add(&c->s, at, at + len, &c->rmem);
}

/* The aggregator, writing: the members' sorted lists merged into one
 * (rext, and rmem over its own memory and the staging buffer). */
static int merge_writes(grp_call *c)
{
    ncp_group *g = c->g;
    ncp_runmerge m;
    MPI_Offset end = -1;
    int64_t i;
    int q, err = ncp_runmerge_init_pairs(&m, g->size, c->inpairs, g->first,
                                         g->first + 1);
    memset(c->taken, 0, (size_t)g->size * sizeof(int64_t));
    while (err == NC_NOERR && (q = ncp_runmerge_pop(&m, &i)) >= 0) {
        MPI_Offset off = c->inpairs[2 * i], len = c->inpairs[2 * i + 1];
        MPI_Offset at = c->taken[q], skip = end > off ? end - off : 0;
        c->taken[q] += len;
        if (skip >= len) continue; /* another rank's extent covers it */
        if (off + len > end) end = off + len;
        err = ncp_extents_add(&c->rext, off + skip, len - skip);
        if (err != NC_NOERR) break;
        if (q == 0)
            err = own_memory(c, off + skip, len - skip);
        else
            err = ncp_extents_add(
                &c->rmem,
                (MPI_Offset)(intptr_t)(c->stage + g->bdsp[q] + at + skip),
                len - skip);
    }
    ncp_runmerge_free(&m);
    return err;
}

/*
 * The first step of every round: the aggregator prepares, each member
 * finds its bytes of the window, and the group agrees on the code (an
 * allocation failure anywhere stops the group before any data moves).
 */
static int round_open(grp_call *c, int64_t k, int writing, MPI_Datatype *t,
                      MPI_Offset *bytes)
{
    ncp_group *g = c->g;
    int err = my_type(c, k, t, bytes), agg = NC_NOERR;
    if (g->rank == 0) agg = prepare(c, k, writing);
    if (err == NC_NOERR) err = agg;
    return ncp_agree(g->comm, err);
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
    MPI_Offset bytes;
    double t0 = MPI_Wtime();
    int err = round_open(c, k, 1, &t, &bytes), e;
    int send = t != MPI_DATATYPE_NULL && g->rank != 0;
    if (err == NC_NOERR)
        MPI_Gatherv(MPI_BOTTOM, send, send ? t : MPI_BYTE, c->stage, g->bcnt,
                    g->bdsp, MPI_BYTE, 0, g->comm);
    if (t != MPI_DATATYPE_NULL) MPI_Type_free(&t);
    c->f->gstats.time_comm[1] += MPI_Wtime() - t0;
    if (err == NC_NOERR && g->rank != 0) c->f->gstats.bytes_shipped[1] += bytes;
    if (g->rank != 0) return err;
    e = err == NC_NOERR ? merge_writes(c) : NC_NOERR;
    if (e != NC_NOERR && *ioerr == NC_NOERR) *ioerr = e;
    e = aggregators_io(c, err == NC_NOERR && e == NC_NOERR, 1);
    if (e != NC_NOERR && *ioerr == NC_NOERR) *ioerr = e;
    round_reset(c);
    return err;
}

/* The aggregator, reading: the union of the window's extents, and the
 * staging buffer for its bytes (at most cap: the windows are cut so). */
static int merge_reads(grp_call *c)
{
    ncp_runmerge m;
    MPI_Offset end = -1;
    int64_t i;
    int err = ncp_runmerge_init_pairs(&m, c->g->size, c->inpairs,
                                      c->g->first, c->g->first + 1);
    while (err == NC_NOERR && ncp_runmerge_pop(&m, &i) >= 0) {
        MPI_Offset off = c->inpairs[2 * i], hi = off + c->inpairs[2 * i + 1];
        if (hi <= end) continue;
        if (off < end) off = end;
        err = ncp_extents_add(&c->rext, off, hi - off);
        end = hi;
    }
    ncp_runmerge_free(&m);
    if (err != NC_NOERR) return err;
    if (!(c->stage = stage_get(c->g, c->rext.nbytes))) return NC_ENOMEM;
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

/* The aggregator's sends of a read round: a type per member with bytes
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

/* The aggregator's part of a read round: merge, read (always joining the
 * aggregators' call), build the sends. */
static int aggregator_read(grp_call *c, int ready, grp_sends *s)
{
    int err = ready ? merge_reads(c) : NC_NOERR, e;
    e = aggregators_io(c, ready && err == NC_NOERR, 0);
    if (err == NC_NOERR) err = e;
    if (ready && err == NC_NOERR) err = sends_make(c, s);
    return err;
}

/* Round k of a read.  Returns the group's agreed code: a failed read
 * anywhere in the group fails it for every member. */
static int read_round(grp_call *c, int64_t k)
{
    ncp_group *g = c->g;
    grp_sends s = {NULL, NULL, 0};
    MPI_Datatype mine;
    MPI_Offset bytes;
    double t0 = MPI_Wtime();
    int err = round_open(c, k, 0, &mine, &bytes), ready = err == NC_NOERR;
    c->f->gstats.time_comm[0] += MPI_Wtime() - t0;
    if (g->rank == 0) {
        int e = aggregator_read(c, ready, &s);
        if (err == NC_NOERR) err = e;
    }
    t0 = MPI_Wtime();
    if (ready) MPI_Bcast(&err, 1, MPI_INT, 0, g->comm);
    if (ready && err == NC_NOERR) {
        scatter(g, mine, &s);
        if (g->rank != 0) c->f->gstats.bytes_shipped[0] += bytes;
    }
    c->f->gstats.time_comm[0] += MPI_Wtime() - t0;
    if (mine != MPI_DATATYPE_NULL) MPI_Type_free(&mine);
    sends_free(&s);
    round_reset(c);
    return err;
}

/* Round k on this rank: its group's exchange while the group still moves
 * bytes, and on an aggregator always one call among them. */
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
    return ncp_agree(f->comm, e);
}
