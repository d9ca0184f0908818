/*
 * msg.c -- the rounds of an aggregated write by message, wherever
 * the shared staging is not set up (plan.c plans the rounds).  In
 * each round every rank sends each aggregator its extents clipped to the
 * aggregator's window and the bytes they hold, all in one MPI_Alltoallw,
 * and the aggregator hands them to the sink in a few large runs.
 *
 * No packing on either side: a message is one datatype on absolute
 * addresses, its first block the sender's pairs, the others its memory
 * pieces; the receiver's type puts the pairs in its pair list and the
 * bytes in its staging buffer, into which the sink's pieces then point.
 *
 * A read runs the rounds the other way, with two: each rank sends each
 * aggregator its clipped extents alone, the aggregator reads them into
 * its staging buffer where the bytes would have arrived (each file byte
 * once, inbox_read), and the second exchange sends each rank its bytes,
 * received straight into its memory.
 *
 * Why one collective a round: a receiver must know what each rank sends
 * it before the round.  Asking in the round (the counts, an agreement
 * that every buffer was allocated, the pairs, the bytes) took four
 * collectives a round.  But every rank can count its pairs and bytes of
 * each round from the plan, so one MPI_Alltoallv carries the counts of a
 * batch of rounds, one allreduce agrees on the batch's buffers (sized for
 * its largest round), and each round is a single MPI_Alltoallw.  A batch
 * holds at most MSG_COUNT_BYTES of counts per aggregator: 1024 rounds at
 * 4 ranks, one round a batch from 4096 ranks on.
 */
#include "ncp_agg_msg.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "pnetcdf.h"
#include "../../base/ncp_agree.h"

/* What an aggregator receives in one count exchange, at most: two
 * int64s per rank per round. */
#define MSG_COUNT_BYTES ((int64_t)64 << 10)

/* The aggregator's receive side: buffers for a batch's largest round,
 * laid out anew each round. */
typedef struct msg_inbox {
    MPI_Offset *pairs;     /* every rank's pairs, rank by rank */
    char *stage;           /* every rank's bytes, rank by rank */
    int64_t *pairs_at;     /* per rank, and one past: its first pair */
    int64_t *stage_at;     /* per rank, and one past: its first byte */
} msg_inbox;

/* One call's traffic, from a sender's side and (on an aggregator) a
 * receiver's. */
typedef struct msg_call {
    int np, me, naggr;
    int writing;           /* 1 write, 0 read */
    int64_t room;          /* rounds a batch holds */
    int64_t n;             /* rounds in the current batch */
    MPI_Offset *win;       /* per round of the batch, per aggregator:
                              its window, lo and hi */
    int64_t *out;          /* per aggregator, per round: my pairs and
                              bytes in its window */
    int64_t *in;           /* aggregator: per rank, per round: its pairs
                              and bytes */
    int *scnt, *sdsp, *rcnt, *rdsp; /* the count exchange */
    int64_t most_blocks;   /* memory blocks of my largest message */
    int64_t most_packed;   /* my swapped bytes for the other aggregators
                              in one round, at most */
    /* the current round */
    MPI_Offset *pairs;     /* my clipped extents, aggregator by
                              aggregator */
    int64_t *pairs_at;     /* per aggregator, and one past: its first */
    MPI_Offset *s0, *s1;   /* per aggregator: my stream range for it */
    int *blen;             /* a send type's blocks: lengths, addresses, */
    MPI_Aint *disp;        /* types (pairs first, then bytes) */
    MPI_Datatype *btype;
    char *packed;          /* swapped bytes for the other aggregators */
    MPI_Datatype *stype, *rtype;
    MPI_Datatype empty;    /* zero bytes: Alltoallw wants a type anyway */
    int *ones, *zeros;
    msg_inbox inbox;       /* an aggregator's */
    int ready;             /* every array allocated and filled */
} msg_call;

/* Set every type of t[0..n) to empty, freeing the round's own ones. */
static void types_reset(MPI_Datatype *t, int n, MPI_Datatype empty)
{
    int i;
    for (i = 0; i < n; i++) {
        if (t[i] != empty && t[i] != MPI_DATATYPE_NULL) MPI_Type_free(&t[i]);
        t[i] = empty;
    }
}

/* How many of t[0..n) carry a message. */
static int64_t types_set(const MPI_Datatype *t, int n, MPI_Datatype empty)
{
    int64_t k = 0;
    int i;
    for (i = 0; i < n; i++) k += t[i] != empty;
    return k;
}

/* The buffers one batch sized; the next batch sizes its own. */
static void batch_free(msg_call *c, msg_inbox *in)
{
    free(c->blen);
    free(c->disp);
    free(c->btype);
    free(c->packed);
    free(in->pairs);
    free(in->stage);
    c->blen = NULL;
    c->disp = NULL;
    c->btype = NULL;
    c->packed = NULL;
    in->pairs = NULL;
    in->stage = NULL;
}

static void call_free(msg_call *c)
{
    if (!c) return;
    batch_free(c, &c->inbox);
    free(c->inbox.pairs_at);
    free(c->inbox.stage_at);
    free(c->win);
    free(c->out);
    free(c->in);
    free(c->scnt);
    free(c->sdsp);
    free(c->rcnt);
    free(c->rdsp);
    free(c->pairs);
    free(c->pairs_at);
    free(c->s0);
    free(c->s1);
    if (c->ready) {
        types_reset(c->stype, c->np, c->empty);
        types_reset(c->rtype, c->np, c->empty);
    }
    free(c->stype);
    free(c->rtype);
    free(c->ones);
    free(c->zeros);
    if (c->empty != MPI_DATATYPE_NULL) MPI_Type_free(&c->empty);
    free(c);
}

/* The arrays of every batch, sized for the most rounds a batch holds. */
static int call_alloc(msg_call *c, const ncp_agg *agg, int np)
{
    size_t nw = (size_t)(c->room * c->naggr);
    c->win = malloc(2 * nw * sizeof(MPI_Offset));
    c->out = malloc(2 * nw * sizeof(int64_t));
    if (agg->my_aggr >= 0) {
        c->in = malloc(2 * (size_t)(c->room * np) * sizeof(int64_t));
        c->inbox.pairs_at = malloc((size_t)(np + 1) * sizeof(int64_t));
        c->inbox.stage_at = malloc((size_t)(np + 1) * sizeof(int64_t));
        if (!c->in || !c->inbox.pairs_at || !c->inbox.stage_at)
            return NC_ENOMEM;
    }
    c->scnt = calloc((size_t)np, sizeof(int));
    c->sdsp = calloc((size_t)np, sizeof(int));
    c->rcnt = calloc((size_t)np, sizeof(int));
    c->rdsp = calloc((size_t)np, sizeof(int));
    return c->win && c->out && c->scnt && c->sdsp && c->rcnt && c->rdsp
               ? NC_NOERR
               : NC_ENOMEM;
}

/* The arrays of every round; next bounds my pairs in one. */
static int round_alloc(msg_call *c, int np, int64_t next)
{
    int i;
    /* the windows of one round are disjoint and ordered, so an extent
     * yields one pair per window it touches: at most next + naggr */
    c->pairs = malloc((size_t)(2 * (next + c->naggr) + 2) * sizeof(MPI_Offset));
    c->pairs_at = malloc((size_t)(c->naggr + 1) * sizeof(int64_t));
    c->s0 = malloc((size_t)c->naggr * sizeof(MPI_Offset));
    c->s1 = malloc((size_t)c->naggr * sizeof(MPI_Offset));
    c->stype = malloc((size_t)np * sizeof(MPI_Datatype));
    c->rtype = malloc((size_t)np * sizeof(MPI_Datatype));
    c->ones = malloc((size_t)np * sizeof(int));
    c->zeros = calloc((size_t)np, sizeof(int));
    if (!c->pairs || !c->pairs_at || !c->s0 || !c->s1 || !c->stype ||
        !c->rtype || !c->ones || !c->zeros)
        return NC_ENOMEM;
    for (i = 0; i < np; i++) {
        c->ones[i] = 1;
        c->stype[i] = c->rtype[i] = c->empty;
    }
    c->ready = 1;
    return NC_NOERR;
}

/* The call's buffers (NULL when out of memory): for batches of up to
 * nrounds rounds, in each of which I have at most next pairs. */
static msg_call *call_new(const ncp_agg *agg, int64_t nrounds, int64_t next)
{
    msg_call *c = calloc(1, sizeof(*c));
    int np;
    if (!c) return NULL;
    MPI_Comm_size(agg->comm, &np);
    MPI_Comm_rank(agg->comm, &c->me);
    c->np = np;
    c->naggr = agg->naggr;
    c->room = ncp_agg_msg_batch(np, nrounds);
    MPI_Type_contiguous(0, MPI_BYTE, &c->empty);
    MPI_Type_commit(&c->empty);
    if (call_alloc(c, agg, np) != NC_NOERR ||
        round_alloc(c, np, next) != NC_NOERR) {
        call_free(c);
        return NULL;
    }
    return c;
}

int64_t ncp_agg_msg_batch(int64_t nprocs, int64_t nrounds)
{
    int64_t room = MSG_COUNT_BYTES / (16 * nprocs);
    if (room > nrounds) room = nrounds;
    return room < 1 ? 1 : room;
}

/* My pairs and bytes in aggregator a's window in round k of the batch. */
static int64_t *out_at(const msg_call *c, int a, int64_t k)
{
    return c->out + 2 * (a * c->n + k);
}

/* Rank q's pairs and bytes for me in round k of the batch. */
static const int64_t *in_at(const msg_call *c, int q, int64_t k)
{
    return c->in + 2 * (q * c->n + k);
}

/* Aggregator a's window in round k of the batch. */
static MPI_Offset *win_at(const msg_call *c, int a, int64_t k)
{
    return c->win + 2 * (k * c->naggr + a);
}

/* The batch's windows, from the plan (which moves past them), and my
 * counts in each; with the largest message and packing they need. */
static void batch_count(ncp_agg *agg, ncp_agg_plan *p, const ncp_stream *s,
                        msg_call *c)
{
    int64_t k;
    int a;
    c->most_blocks = c->most_packed = 0;
    for (k = 0; k < c->n; k++) {
        int64_t packed = 0;
        for (a = 0; a < c->naggr; a++) {
            MPI_Offset *w = win_at(c, a, k), s0 = 0, s1 = 0;
            int64_t *cnt = out_at(c, a, k), nblk;
            ncp_plan_window(p, a, &w[0], &w[1]);
            cnt[0] = cnt[1] = 0;
            if (w[0] < w[1]) {
                cnt[0] = ncp_extents_touching(s->ext, w[0], w[1]);
                ncp_stream_window(s, w[0], w[1], &s0, &s1);
                cnt[1] = s1 - s0;
            }
            if (agg->aggr[a] == c->me || s1 == s0) continue;
            packed += s1 - s0;
            nblk = s->mem->swap ? 1 : ncp_stream_blocks(s, s0, s1, NULL, NULL);
            if (nblk > c->most_blocks) c->most_blocks = nblk;
        }
        if (packed > c->most_packed) c->most_packed = packed;
        ncp_plan_advance(p);
    }
}

/* Collective: each aggregator learns every rank's counts of the batch. */
static void batch_exchange(const ncp_agg *agg, msg_call *c)
{
    int a, q, per = (int)(2 * c->n);
    for (a = 0; a < c->naggr; a++) {
        c->scnt[agg->aggr[a]] = per;
        c->sdsp[agg->aggr[a]] = a * per;
    }
    for (q = 0; q < c->np && agg->my_aggr >= 0; q++) {
        c->rcnt[q] = per;
        c->rdsp[q] = q * per;
    }
    MPI_Alltoallv(c->out, c->scnt, c->sdsp, MPI_INT64_T, c->in, c->rcnt,
                  c->rdsp, MPI_INT64_T, agg->comm);
}

/* The batch's buffers: a type's blocks (a receive type has two) and the
 * packing for my sends, the pairs and bytes of its largest round for an
 * aggregator's receives. */
static int batch_alloc(const ncp_agg *agg, const ncp_stream *s, msg_call *c,
                       msg_inbox *in)
{
    int64_t k, most_pairs = 0, most_bytes = 0, nb = c->most_blocks + 1;
    int q;
    if (nb < 2) nb = 2;
    c->blen = malloc((size_t)nb * sizeof(int));
    c->disp = malloc((size_t)nb * sizeof(MPI_Aint));
    c->btype = malloc((size_t)nb * sizeof(MPI_Datatype));
    if (!c->blen || !c->disp || !c->btype) return NC_ENOMEM;
    if (s->mem->swap && c->most_packed > 0 &&
        !(c->packed = malloc((size_t)c->most_packed)))
        return NC_ENOMEM;
    if (agg->my_aggr < 0) return NC_NOERR;
    for (k = 0; k < c->n; k++) {
        int64_t np_k = 0, nb_k = 0;
        for (q = 0; q < c->np; q++) {
            np_k += in_at(c, q, k)[0];
            nb_k += in_at(c, q, k)[1];
        }
        if (np_k > most_pairs) most_pairs = np_k;
        if (nb_k > most_bytes) most_bytes = nb_k;
    }
    in->pairs = malloc((size_t)(2 * most_pairs + 2) * sizeof(MPI_Offset));
    in->stage = malloc((size_t)(most_bytes ? most_bytes : 1));
    return in->pairs && in->stage ? NC_NOERR : NC_ENOMEM;
}

/* My extents clipped to each aggregator's window in round k, and the
 * stream range holding their bytes.  batch_count counted them already;
 * clipping again here, a round at a time, keeps one round's pairs in
 * memory instead of a batch's. */
static void round_clip(const msg_call *c, const ncp_stream *s, int64_t k)
{
    int64_t used = 0;
    int a;
    for (a = 0; a < c->naggr; a++) {
        const MPI_Offset *w = win_at(c, a, k);
        c->pairs_at[a] = used;
        c->s0[a] = c->s1[a] = 0;
        if (w[0] < w[1])
            used += ncp_stream_clip(s, w[0], w[1], c->pairs + 2 * used,
                                    &c->s0[a], &c->s1[a]);
    }
    c->pairs_at[c->naggr] = used;
}

/* A committed type of nb blocks from c->blen/disp/btype, on absolute
 * addresses. */
static void blocks_type(msg_call *c, int nb, MPI_Datatype *t)
{
    MPI_Type_create_struct(nb, c->blen, c->disp, c->btype, t);
    MPI_Type_commit(t);
}

/* Block 0 of a message: n pairs at addr. */
static void pairs_block(msg_call *c, const MPI_Offset *addr, int64_t n)
{
    c->blen[0] = (int)(2 * n);
    c->disp[0] = (MPI_Aint)(intptr_t)addr;
    c->btype[0] = MPI_OFFSET;
}

/*
 * My message to each other aggregator: my pairs, then (writing) the
 * memory holding my bytes for it.  When my pieces carry swap widths, the
 * bytes are first copied swapped into c->packed, the caller's buffer
 * holding them unswapped.
 */
static void send_types(const ncp_agg *agg, const ncp_stream *s, msg_call *c)
{
    int64_t at = 0, n, nb, i;
    int a;
    for (a = 0; a < c->naggr; a++) {
        int peer = agg->aggr[a];
        n = c->pairs_at[a + 1] - c->pairs_at[a];
        if (peer == c->me || n == 0) continue;
        pairs_block(c, c->pairs + 2 * c->pairs_at[a], n);
        if (!c->writing) {
            nb = 0; /* a read asks with its pairs alone */
        } else if (s->mem->swap) {
            ncp_stream_copy(s, c->s0[a], c->s1[a], c->packed + at);
            c->blen[1] = (int)(c->s1[a] - c->s0[a]);
            c->disp[1] = (MPI_Aint)(intptr_t)(c->packed + at);
            at += c->s1[a] - c->s0[a];
            nb = 1;
        } else {
            nb = ncp_stream_blocks(s, c->s0[a], c->s1[a], c->blen + 1,
                                   c->disp + 1);
        }
        for (i = 1; i <= nb; i++) c->btype[i] = MPI_BYTE;
        blocks_type(c, (int)nb + 1, &c->stype[peer]);
    }
}

/* Where each rank's pairs and bytes of round k go, and the types that
 * put them there (an aggregator's own stay out of the exchange); a read
 * receives the pairs alone, the bytes' places kept for its answer. */
static void recv_types(msg_call *c, msg_inbox *in, int64_t k)
{
    int64_t npair = 0, nbyte = 0;
    int q;
    for (q = 0; q < c->np; q++) {
        const int64_t *cnt = in_at(c, q, k);
        in->pairs_at[q] = npair;
        in->stage_at[q] = nbyte;
        npair += cnt[0];
        nbyte += cnt[1];
        if (q == c->me || cnt[0] == 0) continue;
        pairs_block(c, in->pairs + 2 * in->pairs_at[q], cnt[0]);
        c->blen[1] = (int)cnt[1];
        c->disp[1] = (MPI_Aint)(intptr_t)(in->stage + in->stage_at[q]);
        c->btype[1] = MPI_BYTE;
        blocks_type(c, c->writing ? 2 : 1, &c->rtype[q]);
    }
    in->pairs_at[c->np] = npair;
    in->stage_at[c->np] = nbyte;
}

/* An aggregator's own pairs and bytes into its inbox, as the file is to
 * hold them: cheaper than sending them to itself through MPI, and the
 * swap of deferred puts rides along with the copy. */
static void keep_own(const ncp_agg *agg, const ncp_stream *s,
                     const msg_call *c, msg_inbox *in)
{
    int a = agg->my_aggr;
    int64_t n = c->pairs_at[a + 1] - c->pairs_at[a];
    memcpy(in->pairs + 2 * in->pairs_at[c->me], c->pairs + 2 * c->pairs_at[a],
           (size_t)(2 * n) * sizeof(MPI_Offset));
    if (c->writing)
        ncp_stream_copy(s, c->s0[a], c->s1[a],
                        in->stage + in->stage_at[c->me]);
}

/* The sink's runs: pieces join the current run while they continue it
 * in the file. */
typedef struct msg_runs {
    int (*move)(void *arg, struct iovec *iov, int n, MPI_Offset off);
    void *arg;
    int n, err;
    MPI_Offset start, end;
    int64_t pieces, calls, bytes; /* handed to the sink so far */
    struct iovec iov[NCP_AGG_IOV];
} msg_runs;

static void runs_flush(msg_runs *w)
{
    if (w->n > 0 && w->err == NC_NOERR) {
        w->err = w->move(w->arg, w->iov, w->n, w->start);
        w->calls++;
        w->bytes += w->end - w->start;
    }
    w->n = 0;
}

static void runs_add(msg_runs *w, MPI_Offset off, MPI_Offset len, char *addr)
{
    if (len == 0) return;
    if (w->n > 0 && (off != w->end || w->n == NCP_AGG_IOV)) runs_flush(w);
    if (w->n == 0) w->start = w->end = off;
    w->iov[w->n].iov_base = addr;
    w->iov[w->n].iov_len = (size_t)len;
    w->n++;
    w->end += len;
    w->pieces++;
}

/* The inbox's pieces in file order: a k-way merge of the ranks' sorted
 * pair lists, O(n log k), each piece's bytes where its rank's arrived
 * in the staging buffer. */
typedef struct msg_walk {
    const msg_inbox *in;
    int64_t *taken; /* per rank: its bytes walked so far */
    ncp_runmerge m;
} msg_walk;

/* walk_close after either outcome. */
static int walk_open(msg_walk *k, int np, const msg_inbox *in)
{
    int err = ncp_runmerge_init_pairs(&k->m, np, in->pairs, in->pairs_at,
                                      in->pairs_at + 1);
    k->in = in;
    k->taken = calloc((size_t)np, sizeof(int64_t));
    return k->taken ? err : NC_ENOMEM;
}

/* The next piece: its file bytes [*off, *off + *len) at *addr; 0 when
 * none is left. */
static int walk_next(msg_walk *k, MPI_Offset *off, MPI_Offset *len,
                     char **addr)
{
    const msg_inbox *in = k->in;
    int64_t i;
    int q = ncp_runmerge_pop(&k->m, &i);
    if (q < 0) return 0;
    *off = in->pairs[2 * i];
    *len = in->pairs[2 * i + 1];
    *addr = in->stage + in->stage_at[q] + k->taken[q];
    k->taken[q] += *len;
    return 1;
}

static void walk_close(msg_walk *k)
{
    ncp_runmerge_free(&k->m);
    free(k->taken);
}

/* Write what the ranks sent, in file order, with no copy beyond the
 * staging buffer; the sink's work goes to the counts. */
static int inbox_write(ncp_agg *agg, int np, msg_inbox *in)
{
    const ncp_agg_sink *sink = &agg->sink;
    msg_runs *w = calloc(1, sizeof(*w));
    MPI_Offset off, len;
    char *addr;
    msg_walk k;
    int err = walk_open(&k, np, in);
    if (!w) err = NC_ENOMEM;
    if (err == NC_NOERR) {
        w->move = sink->write;
        w->arg = sink->arg;
        while (walk_next(&k, &off, &len, &addr)) runs_add(w, off, len, addr);
        runs_flush(w);
        err = w->err;
        agg->count.pieces += w->pieces;
        agg->count.sink_writes += w->calls;
        agg->count.sink_bytes += w->bytes;
    }
    walk_close(&k);
    free(w);
    return err;
}

/* The end of a round on an aggregator, where the sink wants it. */
static int sink_round_end(const ncp_agg *agg, int is_write)
{
    const ncp_agg_sink *k = &agg->sink;
    return k->round_end ? k->round_end(k->arg, is_write) : NC_NOERR;
}

/* Round k of a write, every rank: one exchange, then the aggregators
 * hand their bytes to the sink.  Returns this aggregator's write error. */
static int write_round(ncp_agg *agg, const ncp_stream *s, msg_call *c,
                       msg_inbox *in, int64_t k)
{
    int err = NC_NOERR, e, mine = agg->my_aggr >= 0;
    round_clip(c, s, k);
    send_types(agg, s, c);
    if (mine) recv_types(c, in, k);
    agg->count.msgs_sent += types_set(c->stype, c->np, c->empty);
    agg->count.msgs_recv += types_set(c->rtype, c->np, c->empty);
    MPI_Alltoallw(MPI_BOTTOM, c->ones, c->zeros, c->stype, MPI_BOTTOM,
                  c->ones, c->zeros, c->rtype, agg->comm);
    if (mine) {
        keep_own(agg, s, c, in);
        err = inbox_write(agg, c->np, in);
        e = sink_round_end(agg, 1);
        if (err == NC_NOERR) err = e;
    }
    types_reset(c->stype, c->np, c->empty);
    types_reset(c->rtype, c->np, c->empty);
    return err;
}

/* A byte some rank asked for already read for another: copied from
 * there once the round's reads are done. */
typedef struct msg_copy {
    char *dst;
    const char *src;
    MPI_Offset len;
} msg_copy;

/*
 * Read what the ranks asked for into their places in the staging
 * buffer, each byte of the file once: the k-way merge hands the pieces
 * out by offset, so a piece that starts below the furthest end so far
 * lies in the piece that reached it up to there, and that part is
 * copied (*copies, *ncopy) instead of read again.
 */
static int inbox_read(const ncp_agg_sink *sink, int np, msg_inbox *in,
                      msg_copy *copies, int64_t *ncopy)
{
    msg_runs *w = calloc(1, sizeof(*w));
    MPI_Offset off, len, end = -1, hoff = 0;
    const char *haddr = NULL; /* the piece reaching end, from hoff on */
    char *addr;
    msg_walk k;
    int err = walk_open(&k, np, in);
    if (!w) err = NC_ENOMEM;
    *ncopy = 0;
    if (err == NC_NOERR) {
        w->move = sink->read;
        w->arg = sink->arg;
        while (walk_next(&k, &off, &len, &addr)) {
            MPI_Offset e = off + len, cov = end > off ? end - off : 0;
            if (cov > len) cov = len;
            if (cov > 0) {
                msg_copy *cp = &copies[(*ncopy)++];
                cp->dst = addr;
                cp->src = haddr + (off - hoff);
                cp->len = cov;
            }
            if (e <= end) continue;
            runs_add(w, off + cov, len - cov, addr + cov);
            end = e, hoff = off, haddr = addr;
        }
        runs_flush(w);
        err = w->err;
    }
    walk_close(&k);
    free(w);
    return err;
}

/* The aggregator's answers (the bytes each rank asked for, from the
 * staging buffer) and every rank's receives (straight into its memory);
 * an aggregator's own bytes are copied. */
static void answer_types(const ncp_agg *agg, const ncp_stream *s,
                         msg_call *c, msg_inbox *in)
{
    int64_t nb;
    int a, q;
    for (q = 0; agg->my_aggr >= 0 && q < c->np; q++) {
        int64_t n = in->stage_at[q + 1] - in->stage_at[q];
        if (q == c->me || n == 0) continue;
        c->blen[0] = (int)n;
        c->disp[0] = (MPI_Aint)(intptr_t)(in->stage + in->stage_at[q]);
        c->btype[0] = MPI_BYTE;
        blocks_type(c, 1, &c->stype[q]);
    }
    for (a = 0; a < c->naggr; a++) {
        int peer = agg->aggr[a];
        if (c->s1[a] == c->s0[a]) continue;
        if (peer == c->me) {
            ncp_stream_fill(s, c->s0[a], c->s1[a],
                            in->stage + in->stage_at[c->me]);
            continue;
        }
        nb = ncp_stream_blocks(s, c->s0[a], c->s1[a], c->blen, c->disp);
        for (q = 0; q < nb; q++) c->btype[q] = MPI_BYTE;
        blocks_type(c, (int)nb, &c->rtype[peer]);
    }
}

/* The aggregator's part of a read round: read, copy the bytes read
 * once for several ranks, and end the round with the sink. */
static int aggregator_read(const ncp_agg *agg, const ncp_stream *s,
                           msg_call *c, msg_inbox *in)
{
    int64_t n = in->pairs_at[c->np], ncopy = 0, i;
    msg_copy *copies = malloc((size_t)(n ? n : 1) * sizeof(*copies));
    int err = copies ? NC_NOERR : NC_ENOMEM, e;
    keep_own(agg, s, c, in);
    if (err == NC_NOERR)
        err = inbox_read(&agg->sink, c->np, in, copies, &ncopy);
    e = sink_round_end(agg, 0);
    if (err == NC_NOERR) err = e;
    for (i = 0; err == NC_NOERR && i < ncopy; i++)
        memcpy(copies[i].dst, copies[i].src, (size_t)copies[i].len);
    free(copies);
    return err;
}

/* Round k of a read, every rank: the pairs to the aggregators, which
 * read their windows, then the bytes back.  Returns this rank's read
 * error (an aggregator's own). */
static int read_round(ncp_agg *agg, const ncp_stream *s, msg_call *c,
                      msg_inbox *in, int64_t k)
{
    int err = NC_NOERR, mine = agg->my_aggr >= 0;
    round_clip(c, s, k);
    send_types(agg, s, c);
    if (mine) recv_types(c, in, k);
    MPI_Alltoallw(MPI_BOTTOM, c->ones, c->zeros, c->stype, MPI_BOTTOM,
                  c->ones, c->zeros, c->rtype, agg->comm);
    types_reset(c->stype, c->np, c->empty);
    types_reset(c->rtype, c->np, c->empty);
    if (mine) err = aggregator_read(agg, s, c, in);
    answer_types(agg, s, c, in);
    MPI_Alltoallw(MPI_BOTTOM, c->ones, c->zeros, c->stype, MPI_BOTTOM,
                  c->ones, c->zeros, c->rtype, agg->comm);
    types_reset(c->stype, c->np, c->empty);
    types_reset(c->rtype, c->np, c->empty);
    return err;
}

/* Every round of the plan, a batch of count exchanges at a time. */
static int run_rounds(ncp_agg *agg, ncp_agg_plan *p, const ncp_stream *s,
                      int writing)
{
    msg_call *c;
    int64_t k, done;
    int err, e, werr = NC_NOERR;
    if (p->nrounds == 0) return NC_NOERR; /* the same on every rank */
    c = call_new(agg, p->nrounds, s->ext->n);
    err = ncp_agree(agg->comm, c ? NC_NOERR : NC_ENOMEM);
    if (c) c->writing = writing;
    /* a failed write on one aggregator does not stop the rounds: the
     * others still write theirs, and the caller agrees on the code */
    for (done = 0; err == NC_NOERR && done < p->nrounds; done += c->n) {
        c->n = p->nrounds - done < c->room ? p->nrounds - done : c->room;
        batch_count(agg, p, s, c);
        batch_exchange(agg, c);
        err = ncp_agree(agg->comm, batch_alloc(agg, s, c, &c->inbox));
        for (k = 0; err == NC_NOERR && k < c->n; k++) {
            e = writing ? write_round(agg, s, c, &c->inbox, k)
                        : read_round(agg, s, c, &c->inbox, k);
            if (e != NC_NOERR && werr == NC_NOERR) werr = e;
            agg->count.rounds++;
        }
        batch_free(c, &c->inbox);
    }
    if (c) call_free(c);
    return err != NC_NOERR ? err : werr;
}

int ncp_agg_write_by_message(ncp_agg *agg, ncp_agg_plan *p,
                             const ncp_stream *s)
{
    return run_rounds(agg, p, s, 1);
}

int ncp_agg_read_by_message(ncp_agg *agg, ncp_agg_plan *p,
                            const ncp_stream *s)
{
    return run_rounds(agg, p, s, 0);
}
