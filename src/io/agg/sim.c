/*
 * sim.c -- an aggregated write worked out for virtual ranks
 * (ncp_agg_sim.h): setup.c's rules choose the aggregators, plan.c's
 * steps make the plan with the ranks' reductions as loops, and each
 * rank's extents are then clipped to the windows as msg.c clips them.
 * Pure: no MPI call, no file.
 *
 * Passes over the ranks: (1) ncp_plan_local, reduced with MAX; (2)
 * ncp_plan_mark, reduced with OR; (3) each rank's pieces per window:
 * messages, pieces, bytes; (4) per batch of domains, every rank's pieces
 * in them sorted as the aggregator's k-way merge takes them (offset,
 * then rank), to count the runs and sink calls msg.c's runs_add makes.
 */
#include "ncp_agg_sim.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ncp_agg_msg.h"
#include "pnetcdf.h"

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* A window of the plan: file bytes [lo, hi). */
typedef struct sim_window {
    MPI_Offset lo, hi;
} sim_window;

/* The windows of the plan in file order, which is domain by domain and,
 * within a domain, round by round. */
typedef struct sim_windows {
    int64_t *first;  /* per domain, and one past: its first window */
    sim_window *win;
} sim_windows;

typedef struct sim_ctx {
    const ncp_sim_conf *c;
    ncp_sim_extents_fn fn;
    void *arg;
    ncp_extents e;       /* the current rank's */
    ncp_agg_plan p;
    sim_windows w;
    double gen_seconds;  /* spent in the callback */
} sim_ctx;

static int rank_extents(sim_ctx *x, int64_t r)
{
    double t0 = now();
    int err;
    ncp_extents_clear(&x->e);
    err = x->fn(x->arg, r, &x->e);
    x->gen_seconds += now() - t0;
    return err;
}

/* The aggregators, in rank order, as ncp_agg_open picks them. */
static int aggregators(const ncp_sim_conf *c, ncp_sim *s)
{
    int64_t r, n = 0, per = c->ranks_per_node;
    for (r = 0; r < c->nprocs; r++)
        n += ncp_agg_is_aggregator(&c->agg, (int)(r % per), (int)r);
    s->aggr = calloc((size_t)(n ? n : 1), sizeof(*s->aggr));
    s->sent = calloc((size_t)c->nprocs, sizeof(int64_t));
    if (!s->aggr || !s->sent) return NC_ENOMEM;
    for (r = 0; r < c->nprocs; r++)
        if (ncp_agg_is_aggregator(&c->agg, (int)(r % per), (int)r))
            s->aggr[s->naggr++].rank = r;
    return NC_NOERR;
}

/* Pass 1: the MAX of every rank's ncp_plan_local. */
static int reduce_local(sim_ctx *x, ncp_sim *s, MPI_Offset all[])
{
    MPI_Offset mine[NCP_PLAN_NLOCAL];
    int64_t r;
    int i, err = NC_NOERR;
    for (i = 0; i < NCP_PLAN_NLOCAL; i++) all[i] = INT64_MIN;
    for (r = 0; r < x->c->nprocs && err == NC_NOERR; r++) {
        if ((err = rank_extents(x, r)) != NC_NOERR) break;
        ncp_plan_local(&x->e, mine);
        for (i = 0; i < NCP_PLAN_NLOCAL; i++)
            if (mine[i] > all[i]) all[i] = mine[i];
        s->extents += x->e.n;
        s->bytes += x->e.nbytes;
    }
    return err;
}

/* Pass 2: the OR of every rank's busy bits, then the plan's start.  The
 * plan keeps no rank's extents: its walk checks count one rank's bytes. */
static int reduce_busy(sim_ctx *x)
{
    int64_t r, i, nwords = x->p.nwords;
    uint64_t *acc = calloc((size_t)(nwords ? nwords : 1), sizeof(uint64_t));
    int err = acc ? NC_NOERR : NC_ENOMEM;
    for (r = 0; r < x->c->nprocs && err == NC_NOERR; r++) {
        if ((err = rank_extents(x, r)) != NC_NOERR) break;
        ncp_plan_mark(&x->p, &x->e, 0);
        for (i = 0; i < nwords; i++) acc[i] |= x->p.busy_bits[i];
    }
    if (err == NC_NOERR) {
        memcpy(x->p.busy_bits, acc, (size_t)nwords * sizeof(uint64_t));
        x->p.seen_ext = NULL;
        ncp_plan_start(&x->p);
    }
    free(acc);
    return err;
}

static int window_order(const void *pa, const void *pb)
{
    const sim_window *a = pa, *b = pb;
    return (a->lo > b->lo) - (a->lo < b->lo);
}

/* The plan's windows, walked round by round as msg.c walks them, then put
 * in file order: the domains are disjoint and each one's windows ascend,
 * so sorting by offset groups them by domain. */
static int collect_windows(sim_ctx *x, ncp_sim *s)
{
    int64_t k, a, total = 0;
    MPI_Offset lo, hi;
    sim_windows *w = &x->w;
    w->first = calloc((size_t)s->naggr + 1, sizeof(int64_t));
    w->win = malloc((size_t)(s->busy_windows + 1) * x->p.parts_per_window *
                    sizeof(sim_window));
    if (!w->first || !w->win) return NC_ENOMEM;
    for (k = 0; k < x->p.nrounds; k++) {
        for (a = 0; a < s->naggr; a++) {
            ncp_plan_window(&x->p, (int)a, &lo, &hi);
            if (lo < hi) {
                w->win[total].lo = lo;
                w->win[total++].hi = hi;
                s->aggr[a].rounds++;
            }
        }
        ncp_plan_advance(&x->p);
    }
    qsort(w->win, (size_t)total, sizeof(sim_window), window_order);
    for (a = 0; a < s->naggr; a++)
        w->first[a + 1] = w->first[a] + s->aggr[a].rounds;
    return NC_NOERR;
}

/* Domain a's window holding off, or -1 (binary search). */
static int64_t window_at(const sim_ctx *x, int64_t a, MPI_Offset off)
{
    int64_t lo = x->w.first[a], hi = x->w.first[a + 1];
    while (lo < hi) {
        int64_t mid = lo + (hi - lo) / 2;
        if (x->w.win[mid].hi <= off) lo = mid + 1;
        else hi = mid;
    }
    return lo < x->w.first[a + 1] && x->w.win[lo].lo <= off ? lo : -1;
}

/* What a piece of a rank's extent in window j of domain a feeds. */
typedef void (*piece_fn)(void *arg, int64_t a, int64_t j, MPI_Offset off,
                         MPI_Offset len);

/* The current rank's extents cut at the windows, in file order.  Every
 * byte lies in a window (the plan's promise 3). */
static void walk_pieces(const sim_ctx *x, piece_fn f, void *arg)
{
    const ncp_agg_plan *p = &x->p;
    int64_t i;
    for (i = 0; i < x->e.n; i++) {
        MPI_Offset o = x->e.off[i], end = o + x->e.len[i];
        while (o < end) {
            int64_t a = (o - p->domains_start) / p->domain_size, j;
            if (a >= p->naggr) a = p->naggr - 1;
            j = window_at(x, a, o);
            if (j < 0) break; /* not planned: cannot happen */
            {
                MPI_Offset stop = end < x->w.win[j].hi ? end : x->w.win[j].hi;
                f(arg, a, j, o, stop - o);
                o = stop;
            }
        }
    }
}

/* Pass 3's state for one rank. */
typedef struct count_state {
    ncp_sim *s;
    int64_t rank, last; /* the last window it had a piece in */
} count_state;

static void count_piece(void *arg, int64_t a, int64_t j, MPI_Offset off,
                        MPI_Offset len)
{
    count_state *k = arg;
    ncp_sim_aggr *g = &k->s->aggr[a];
    (void)off;
    g->pieces++;
    g->bytes += len;
    if (j == k->last) return;
    k->last = j;
    if (g->rank == k->rank) return; /* its own bytes: no message */
    g->msgs_in++;
    k->s->sent[k->rank]++;
}

static int count_messages(sim_ctx *x, ncp_sim *s)
{
    count_state k = {s, 0, -1};
    int err = NC_NOERR;
    for (k.rank = 0; k.rank < x->c->nprocs; k.rank++) {
        if ((err = rank_extents(x, k.rank)) != NC_NOERR) break;
        k.last = -1;
        walk_pieces(x, count_piece, &k);
    }
    return err;
}

/* Pass 4: a batch of domains' pieces, sorted as the inbox merge takes
 * them. */
typedef struct sim_piece {
    MPI_Offset off, len;
    int64_t rank, win;
} sim_piece;

typedef struct gather_state {
    sim_piece *v;
    int64_t n, rank, a0, a1;
} gather_state;

static void gather_piece(void *arg, int64_t a, int64_t j, MPI_Offset off,
                         MPI_Offset len)
{
    gather_state *g = arg;
    if (a < g->a0 || a >= g->a1) return;
    g->v[g->n].off = off;
    g->v[g->n].len = len;
    g->v[g->n].rank = g->rank;
    g->v[g->n++].win = j;
}

static int piece_order(const void *pa, const void *pb)
{
    const sim_piece *a = pa, *b = pb;
    if (a->off != b->off) return a->off < b->off ? -1 : 1;
    return (a->rank > b->rank) - (a->rank < b->rank);
}

/* msg.c's runs_add over each window's sorted pieces: a run goes on
 * while pieces continue it in the file, a sink call ends with its run or
 * at NCP_AGG_IOV pieces, and each window's inbox is written alone. */
static void count_runs(const sim_ctx *x, ncp_sim *s, const sim_piece *v,
                       int64_t nv)
{
    int64_t i, n = 0;
    MPI_Offset end = 0;
    for (i = 0; i < nv; i++) {
        int64_t a = (v[i].off - x->p.domains_start) / x->p.domain_size;
        ncp_sim_aggr *g = &s->aggr[a < s->naggr ? a : s->naggr - 1];
        if (i == 0 || v[i - 1].win != v[i].win) {
            n = 0;
        } else if (v[i].off != end) {
            g->runs++, g->writes++, n = 0;
        } else if (n == NCP_AGG_IOV) {
            g->writes++, n = 0;
        }
        n++;
        end = v[i].off + v[i].len;
        if (i + 1 == nv || v[i + 1].win != v[i].win) g->runs++, g->writes++;
    }
}

static int count_sink_calls(sim_ctx *x, ncp_sim *s)
{
    int64_t a0 = 0, a1, most = x->c->max_pieces > 0 ? x->c->max_pieces : 1;
    int err = NC_NOERR;
    while (a0 < s->naggr && err == NC_NOERR) {
        int64_t sum = s->aggr[a0].pieces;
        gather_state g = {NULL, 0, 0, a0, a0 + 1};
        for (a1 = a0 + 1; a1 < s->naggr && sum + s->aggr[a1].pieces <= most;
             a1++)
            sum += s->aggr[a1].pieces;
        g.a1 = a1;
        g.v = malloc((size_t)(sum ? sum : 1) * sizeof(sim_piece));
        if (!g.v) return NC_ENOMEM;
        for (g.rank = 0; g.rank < x->c->nprocs && sum > 0; g.rank++) {
            if ((err = rank_extents(x, g.rank)) != NC_NOERR) break;
            walk_pieces(x, gather_piece, &g);
        }
        qsort(g.v, (size_t)g.n, sizeof(sim_piece), piece_order);
        count_runs(x, s, g.v, g.n);
        free(g.v);
        a0 = a1;
    }
    return err;
}

/* The plan and the rounds, once the write is known to aggregate. */
static int plan_rounds(sim_ctx *x, ncp_sim *s, const MPI_Offset all[])
{
    ncp_plan_limits lim = {(int)s->naggr, s->round_cap,
                           x->c->agg.full_windows, 1};
    double t0 = now(), g0 = x->gen_seconds;
    int err;
    if (ncp_plan_alloc(&x->p, (int)s->naggr) != NC_NOERR) return NC_ENOMEM;
    if (!ncp_plan_shape(&x->p, &lim, all)) return NC_NOERR;
    err = reduce_busy(x);
    s->plan_seconds += now() - t0 - (x->gen_seconds - g0);
    if (err != NC_NOERR) return err;
    s->domain_size = x->p.domain_size;
    s->window_size = x->p.window_size;
    s->domains_start = x->p.domains_start;
    s->data_end = x->p.data_end;
    s->nrounds = x->p.nrounds;
    s->busy_windows = x->p.busy_windows;
    s->count_exchanges =
        (s->nrounds + ncp_agg_msg_batch(x->c->nprocs, s->nrounds) - 1) /
        ncp_agg_msg_batch(x->c->nprocs, s->nrounds);
    if ((err = collect_windows(x, s)) != NC_NOERR) return err;
    if ((err = count_messages(x, s)) != NC_NOERR) return err;
    return count_sink_calls(x, s);
}

/* Each domain's file range, cut to the data. */
static void domains_set(const sim_ctx *x, ncp_sim *s)
{
    int64_t a;
    for (a = 0; a < s->naggr; a++) {
        MPI_Offset lo = x->p.domains_start + a * x->p.domain_size;
        MPI_Offset hi = lo + x->p.domain_size;
        s->aggr[a].lo = lo < x->p.data_end ? lo : x->p.data_end;
        s->aggr[a].hi = hi < x->p.data_end ? hi : x->p.data_end;
    }
}

int ncp_sim_run(const ncp_sim_conf *c, ncp_sim_extents_fn fn, void *arg,
                ncp_sim *s)
{
    sim_ctx x;
    MPI_Offset all[NCP_PLAN_NLOCAL];
    int64_t per = c->ranks_per_node < c->nprocs ? c->ranks_per_node
                                                 : c->nprocs;
    double t0 = now(), g0;
    int err;
    memset(s, 0, sizeof(*s));
    memset(&x, 0, sizeof(x));
    x.c = c, x.fn = fn, x.arg = arg;
    ncp_extents_init(&x.e);
    s->shm_possible = ncp_agg_shm_possible(&c->agg, (int)per, (int)c->nprocs);
    s->round_cap = ncp_agg_round_cap(&c->agg, s->shm_possible);
    err = aggregators(c, s);
    g0 = x.gen_seconds;
    if (err == NC_NOERR) err = reduce_local(&x, s, all);
    s->plan_seconds = now() - t0 - (x.gen_seconds - g0);
    s->path = s->naggr >= c->nprocs ? NCP_SIM_OWN
              : c->agg.shm == NCP_AGG_SHM_AUTO && ncp_plan_direct(all)
                  ? NCP_SIM_DIRECT
                  : NCP_SIM_ROUNDS;
    if (err == NC_NOERR && s->path == NCP_SIM_ROUNDS) {
        err = plan_rounds(&x, s, all);
        domains_set(&x, s);
    }
    s->plan_bytes = ncp_plan_storage((int)s->naggr);
    ncp_plan_free(&x.p);
    free(x.w.first), free(x.w.win);
    ncp_extents_free(&x.e);
    s->seconds = now() - t0;
    return err;
}

void ncp_sim_free(ncp_sim *s)
{
    free(s->aggr);
    free(s->sent);
    s->aggr = NULL;
    s->sent = NULL;
}
