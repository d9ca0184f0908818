/*
 * flush.c -- many ops, one MPI-IO call per direction (a batch of ops a
 * call where a rank's ops hold very many extents, FLUSH_BATCH_EXTENTS).
 *
 * Each op's extents come out of the access layer in ascending file order,
 * so the ops form sorted runs; one k-way merge (base/runmerge.c: O(n log
 * k) for n extents in k runs at worst, a stretch at a time where runs
 * interleave in long stretches, never a full re-sort) walks them in file
 * order, which is what a file view must be, without copying them into one
 * list.  Overlaps within a rank are rare but legal: overlapping extents
 * form a cluster whose union is contiguous; a write cluster is painted
 * into a staging buffer in posting order (the later request wins, as with
 * sequential calls), a read cluster is read once and copied out to every
 * member.  File-contiguous extents and memory-contiguous pieces are
 * coalesced separately as the walk goes, and the whole list
 * moves in one call with an hindexed file view and an hindexed memory type
 * on absolute addresses, so no user data is packed for the I/O.  Puts
 * that only need a byte swap are swapped in the caller's buffer and back
 * afterwards, gets that only need one are swapped in it after the read,
 * unless the driver takes the swap widths with the memory pieces
 * (ncp_io_swaps) and swaps while it copies anyway, or as the bytes
 * arrive.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../base/ncp_grow.h"
#include "../base/ncp_runmerge.h"
#include "../dataset/ncp_dataset.h"
#include "ncp_engine.h"
#include "pnetcdf.h"

typedef struct seg {
    int64_t off, len; /* file bytes */
    char *mem;        /* where they are (put) or go (get) */
    int op;           /* index in posting order */
    int swap;         /* element width the driver byte-swaps, or 0 */
} seg;

/* One op's extents, a sorted run, and the memory of its next one. */
typedef struct run {
    ncp_extents e;
    char *mem;
    int op, swap;
} run;

/* Read clusters: bytes read into staging, copied out after the I/O,
 * elements of `swap` bytes reversed (0: none) where the driver would have
 * swapped them. */
typedef struct copy_out {
    char *dst;
    const char *src;
    int64_t len;
    int swap;
} copy_out;

typedef struct flush_state {
    seg *cluster; /* the overlapping segments being gathered */
    int64_t ncluster, clustercap;
    int64_t cluster_end; /* one past the cluster's last file byte */
    void **staging; /* cluster buffers to free */
    int64_t nstaging;
    copy_out *copies;
    int64_t ncopies, copycap;
    ncp_extents fext, mext;
} flush_state;

/* One op's extents, each paired with the next bytes of its buffer.
 * deferred: the driver swaps the bytes of NCP_OPBUF_SWAP ops. */
static int op_run(ncp_dataset *ds, ncp_op *op, int index, int deferred,
                  run *r)
{
    op->req.var = &ds->hdr.vars[op->varid]; /* redef may have moved it */
    r->mem = op->xbuf;
    r->op = index;
    r->swap = deferred && op->buf == NCP_OPBUF_SWAP ? op->xsz : 0;
    if (deferred && op->raw > 2) r->swap = op->raw - 1;
    return ncp_req_extents(&ds->hdr, &op->req, &r->e);
}

static int by_op(const void *x, const void *y)
{
    const seg *a = x, *b = y;
    return (a->op > b->op) - (a->op < b->op);
}

static int add_copy(flush_state *st, char *dst, const char *src, int64_t len,
                    int swap)
{
    copy_out *nc = ncp_grow(st->copies, st->ncopies, &st->copycap,
                            sizeof(*nc), 16);
    if (!nc) return NC_ENOMEM;
    st->copies = nc;
    st->copies[st->ncopies].dst = dst;
    st->copies[st->ncopies].src = src;
    st->copies[st->ncopies].len = len;
    st->copies[st->ncopies].swap = swap;
    st->ncopies++;
    return NC_NOERR;
}

/*
 * Replace the overlapping members s[0..n) (sorted by offset, union
 * [lo, hi)) by one segment on a staging buffer.
 */
static int fold_cluster(flush_state *st, seg *s, int64_t n, int64_t lo,
                        int64_t hi, int is_write, seg *out)
{
    char *stage = malloc((size_t)(hi - lo) + 1);
    void **ns;
    int64_t i;
    int err = NC_NOERR;
    if (!stage) return NC_ENOMEM;
    ns = realloc(st->staging, (size_t)(st->nstaging + 1) * sizeof(*ns));
    if (!ns) {
        free(stage);
        return NC_ENOMEM;
    }
    st->staging = ns;
    st->staging[st->nstaging++] = stage;
    if (is_write) {
        qsort(s, (size_t)n, sizeof(*s), by_op); /* later posts win */
        for (i = 0; i < n; i++) /* the stage holds file bytes */
            ncp_x_swap_copy(stage + (s[i].off - lo), s[i].mem,
                            s[i].swap ? s[i].len / s[i].swap : s[i].len,
                            s[i].swap ? s[i].swap : 1);
    } else {
        for (i = 0; i < n && err == NC_NOERR; i++)
            err = add_copy(st, s[i].mem, stage + (s[i].off - lo), s[i].len,
                           s[i].swap);
    }
    out->off = lo;
    out->len = hi - lo;
    out->mem = stage;
    out->op = s[0].op;
    out->swap = 0;
    return err;
}

/* One segment into the file extents and memory pieces, each coalesced
 * on its own. */
static int emit(flush_state *st, const seg *s)
{
    int err;
    if (s->len == 0) return NC_NOERR;
    err = ncp_extents_add(&st->fext, s->off, s->len);
    if (err == NC_NOERR)
        err = ncp_extents_add_swapped(&st->mext, (MPI_Offset)(intptr_t)s->mem,
                                      s->len, s->swap);
    return err;
}

/* The cluster gathered so far out: a lone segment as it is, overlapping
 * ones folded into one. */
static int close_cluster(flush_state *st, int is_write)
{
    seg folded;
    int err;
    if (st->ncluster == 0) return NC_NOERR;
    if (st->ncluster == 1) {
        err = emit(st, &st->cluster[0]);
    } else {
        err = fold_cluster(st, st->cluster, st->ncluster, st->cluster[0].off,
                           st->cluster_end, is_write, &folded);
        if (err == NC_NOERR) err = emit(st, &folded);
    }
    st->ncluster = 0;
    return err;
}

/* The next segment in file order: it joins the cluster it overlaps, or
 * closes it and starts the next. */
static int sweep(flush_state *st, const seg *s, int is_write)
{
    int err = NC_NOERR;
    if (st->ncluster == 0 || s->off >= st->cluster_end) {
        err = close_cluster(st, is_write);
        st->cluster_end = s->off + s->len;
    } else if (s->off + s->len > st->cluster_end) {
        st->cluster_end = s->off + s->len;
    }
    if (err == NC_NOERR) {
        seg *nc = ncp_grow(st->cluster, st->ncluster, &st->clustercap,
                           sizeof(*nc), 16);
        if (!nc) return NC_ENOMEM;
        st->cluster = nc;
    }
    if (err == NC_NOERR) st->cluster[st->ncluster++] = *s;
    return err;
}

/* Every run's segments in file order (ties in posting order) through the
 * sweep; the merge hands out whole stretches of a run at a time. */
static int merge_runs(flush_state *st, run *runs, int n, int is_write)
{
    const MPI_Offset **keys = malloc((size_t)(n > 0 ? n : 1) * sizeof(*keys));
    int64_t *count = malloc((size_t)(n > 0 ? n : 1) * sizeof(*count));
    int64_t r, a, b, i;
    ncp_runmerge m = {0};
    int err = keys && count ? NC_NOERR : NC_ENOMEM;
    for (r = 0; r < n && err == NC_NOERR; r++) {
        keys[r] = runs[r].e.off;
        count[r] = runs[r].e.n;
    }
    if (err == NC_NOERR) err = ncp_runmerge_init(&m, n, keys, count);
    while (err == NC_NOERR && ncp_runmerge_next(&m, &r, &a, &b)) {
        run *u = &runs[r];
        for (i = a; i < b && err == NC_NOERR; i++) {
            seg s = {u->e.off[i], u->e.len[i], u->mem, u->op, u->swap};
            u->mem += s.len;
            err = sweep(st, &s, is_write);
        }
    }
    if (err == NC_NOERR) err = close_cluster(st, is_write);
    ncp_runmerge_free(&m);
    free(keys);
    free(count);
    return err;
}

/* The dataset's kept lists (ncp_flush_keep) become st's, emptied. */
static void lists_take(ncp_dataset *ds, flush_state *st)
{
    ncp_flush_keep *k = &ds->flush_keep;
    ncp_kept_lists_adopt(k);
    st->fext = k->fext;
    st->mext = k->mext;
    ncp_extents_init(&k->fext);
    ncp_extents_init(&k->mext);
    ncp_extents_clear(&st->fext);
    ncp_extents_clear(&st->mext);
}

static int64_t kept_storage(const ncp_flush_keep *k)
{
    int64_t bytes = ncp_extents_storage(&k->fext) +
                    ncp_extents_storage(&k->mext) +
                    k->nruns * (int64_t)sizeof(*k->runs);
    int i;
    for (i = 0; i < k->nruns; i++) bytes += ncp_extents_storage(&k->runs[i]);
    return bytes;
}

/* st's lists back to the dataset, all of them freed instead when they
 * hold more than nc_kept_buffer_size. */
static void lists_keep(ncp_dataset *ds, flush_state *st)
{
    ncp_flush_keep *k = &ds->flush_keep;
    k->fext = st->fext;
    k->mext = st->mext;
    ncp_extents_init(&st->fext);
    ncp_extents_init(&st->mext);
    if (kept_storage(k) > ds->hints.kept_buffer_size) ncp_flush_keep_free(k);
}

/* Each op's extent list starts from the kept one at its place. */
static void runs_take(ncp_dataset *ds, run *runs, int n)
{
    ncp_flush_keep *k = &ds->flush_keep;
    int i;
    for (i = 0; i < n; i++) {
        ncp_extents_init(&runs[i].e);
        if (i >= k->nruns) continue;
        runs[i].e = k->runs[i];
        ncp_extents_init(&k->runs[i]);
        ncp_extents_clear(&runs[i].e);
    }
}

static void runs_keep(ncp_dataset *ds, run *runs, int n)
{
    ncp_flush_keep *k = &ds->flush_keep;
    int i;
    if (n > k->nruns) {
        ncp_extents *more = realloc(k->runs, (size_t)n * sizeof(*more));
        if (more) {
            for (i = k->nruns; i < n; i++) ncp_extents_init(&more[i]);
            k->runs = more;
            k->nruns = n;
        }
    }
    for (i = 0; i < n; i++) {
        if (i < k->nruns) k->runs[i] = runs[i].e;
        else ncp_extents_free(&runs[i].e);
    }
}

static void state_free(ncp_dataset *ds, flush_state *st)
{
    int64_t i;
    for (i = 0; i < st->nstaging; i++) free(st->staging[i]);
    free(st->staging);
    free(st->copies);
    free(st->cluster);
    lists_keep(ds, st);
}

/* Before I/O: shared user memory sorted out and the in-place swaps
 * (swapset.c), done for puts; own gets get their buffer. */
static int prepare(ncp_dataset *ds, ncp_op **ops, int n, int is_write,
                   int deferred, ncp_swapset *swaps)
{
    int k, err = ncp_swapset_build(ds, ops, n, is_write, deferred, swaps);
    if (err == NC_NOERR && is_write) ncp_swapset_apply(swaps);
    for (k = 0; k < n && err == NC_NOERR; k++) {
        ncp_op *op = ops[k];
        if (!op->is_put && op->buf == NCP_OPBUF_OWN && !op->xbuf &&
            !(op->xbuf = ncp_op_mem(ds, op->xbytes)))
            err = NC_ENOMEM;
    }
    return err;
}

/* Plan the single call for ops (all puts or all gets). */
static int plan(ncp_dataset *ds, ncp_op **ops, int n, int is_write,
                int deferred, flush_state *st)
{
    run *runs = calloc((size_t)(n > 0 ? n : 1), sizeof(*runs));
    int64_t total = 0;
    int k, err = runs ? NC_NOERR : NC_ENOMEM;
    if (runs) runs_take(ds, runs, n);
    for (k = 0; k < n && err == NC_NOERR; k++) {
        err = op_run(ds, ops[k], k, deferred, &runs[k]);
        total += runs[k].e.n;
    }
    /* the merged list is at most as long as all runs together */
    if (err == NC_NOERR)
        err = ncp_extents_reserve(&st->fext, total);
    if (err == NC_NOERR)
        err = ncp_extents_reserve(&st->mext, total);
    if (err == NC_NOERR) err = merge_runs(st, runs, n, is_write);
    ds->prof.extents_posted += total;
    ds->prof.extents_issued += st->fext.n;
    if (runs) runs_keep(ds, runs, n);
    free(runs);
    return err;
}

/* After a get and its swaps: external bytes to the caller's elements.
 * A raw op's bytes need no conversion, so they are swapped where they
 * lie (unless the driver did, deferred) and unpacked from there: no
 * staging of the memory type, no second copy. */
static int decode(ncp_dataset *ds, ncp_op *op, int deferred)
{
    size_t msz = ncp_mtype_size((ncp_mtype)op->mem.mtype);
    int64_t mbytes = op->req.nelems * (int64_t)msz;
    void *dst;
    int err = NC_NOERR, conv;
    if (op->buf != NCP_OPBUF_OWN) return NC_NOERR;
    if (op->raw) {
        if (!deferred && op->raw > 2)
            ncp_x_swap_inplace(op->xbuf, op->req.nelems, op->raw - 1);
        return ncp_membuf_unpack(&op->mem, ds->comm, op->xbuf, mbytes);
    }
    dst = op->mem.user;
    if (!op->mem.contiguous || op->req.imap) {
        if (!op->tmp && !(op->tmp = ncp_op_mem(ds, mbytes)))
            return NC_ENOMEM;
        dst = op->tmp;
    }
    conv = ncp_x_get(op->req.var->xtype, op->xbuf, (ncp_mtype)op->mem.mtype,
                     dst, op->req.nelems, ds->hdr.format);
    if (conv != NC_NOERR && conv != NC_ERANGE) return conv;
    if (op->req.imap) {
        void *img =
            op->mem.contiguous ? op->mem.user : ncp_op_mem(ds, mbytes);
        if (!img) return NC_ENOMEM;
        if (!op->mem.contiguous)
            err = ncp_membuf_pack(&op->mem, ds->comm, img, mbytes);
        if (err == NC_NOERR) err = ncp_req_imap_copy(&op->req, msz, img, op->tmp, 0);
        if (err == NC_NOERR && !op->mem.contiguous)
            err = ncp_membuf_unpack(&op->mem, ds->comm, img, mbytes);
        if (!op->mem.contiguous) ncp_op_mem_free(ds, img);
    } else if (!op->mem.contiguous) {
        err = ncp_membuf_unpack(&op->mem, ds->comm, op->tmp, mbytes);
    }
    return err != NC_NOERR ? err : conv;
}

/* Record puts extend numrecs (an empty collective request counts its
 * start, as in PnetCDF 1.12; an empty independent one does not).  A put
 * whose write failed stored nothing, so it extends nothing. */
static void grow_numrecs(ncp_dataset *ds, ncp_op **ops, int n, int collective)
{
    int k;
    for (k = 0; k < n; k++) {
        const ncp_op *op = ops[k];
        if (!op->is_put || !op->req.var->is_record) continue;
        if (op->status != NC_NOERR && op->status != NC_ERANGE) continue;
        if (!collective && op->req.nelems == 0) continue;
        ncp_numrecs_raise(ds, op->req.end_rec);
    }
}

/* Extents a rank moves in one driver call of a flush, at most (unless
 * one op alone has more): a flush of very many small pieces is planned,
 * merged and moved in batches of ops whose lists stay in cache, where
 * one call over all of them ran slower than a call per op. */
#define FLUSH_BATCH_EXTENTS ((int64_t)1 << 16)

/* One past the last op of the batch starting at op k: ops join while
 * their extents fit FLUSH_BATCH_EXTENTS, one op at least.  Batches are
 * consecutive in posting order, so a later post still wins. */
static int batch_end(ncp_dataset *ds, ncp_op **ops, int n, int k)
{
    int64_t sum = 0, e;
    int j;
    for (j = k; j < n; j++) {
        ops[j]->req.var = &ds->hdr.vars[ops[j]->varid];
        e = ncp_req_nextents(&ops[j]->req);
        if (j > k && sum + e > FLUSH_BATCH_EXTENTS) break;
        sum += e;
    }
    return j;
}

/* How many batches this rank's ops take (0 for none). */
static int batches_of(ncp_dataset *ds, ncp_op **ops, int n)
{
    int k = 0, nb = 0;
    while (k < n) {
        k = batch_end(ds, ops, n, k);
        nb++;
    }
    return nb;
}

/* The driver call of one batch's lists, which it leaves empty. */
static int call_driver(ncp_dataset *ds, flush_state *st, int collective,
                       int is_write)
{
    int ioerr = NC_NOERR;
    if (collective || st->fext.n > 0) {
        ioerr = ncp_io_xferv(&ds->file, collective, is_write, &st->fext,
                             &st->mext);
        if (is_write) {
            ds->prof.mpiio_write_calls++;
            ds->prof.bytes_written +=
                ioerr == NC_NOERR ? st->fext.nbytes : 0;
        } else {
            ds->prof.mpiio_read_calls++;
            ds->prof.bytes_read += ioerr == NC_NOERR ? st->fext.nbytes : 0;
        }
    }
    ncp_extents_clear(&st->fext);
    ncp_extents_clear(&st->mext);
    return ioerr;
}

/* One direction in nbatch driver calls (joined by every rank when
 * collective, empty where a rank has no ops left or its plan failed;
 * the last takes every op left), then finish each op. */
static int move(ncp_dataset *ds, ncp_op **ops, int n, int is_write,
                int collective, int nbatch)
{
    flush_state st;
    ncp_swapset swaps = {NULL, 0};
    int err, ioerr = NC_NOERR, k, b, j, e;
    int deferred = ncp_io_swaps(&ds->file, collective, is_write);
    int64_t i;
    memset(&st, 0, sizeof st);
    lists_take(ds, &st);
    err = prepare(ds, ops, n, is_write, deferred, &swaps);
    for (b = 0, k = 0; b < nbatch; b++, k = j) {
        j = b == nbatch - 1 ? n : batch_end(ds, ops, n, k);
        if (err == NC_NOERR && j > k)
            err = plan(ds, ops + k, j - k, is_write, deferred, &st);
        if (err != NC_NOERR) { /* still join the collective, empty */
            ncp_extents_clear(&st.fext);
            ncp_extents_clear(&st.mext);
        }
        e = call_driver(ds, &st, collective, is_write);
        if (ioerr == NC_NOERR) ioerr = e;
    }
    if (err == NC_NOERR) err = ioerr;
    for (i = 0; err == NC_NOERR && i < st.ncopies; i++) {
        const copy_out *c = &st.copies[i];
        ncp_x_swap_copy(c->dst, c->src, c->swap ? c->len / c->swap : c->len,
                        c->swap ? c->swap : 1);
    }
    if (is_write || err == NC_NOERR) /* a put's undone, a get's done */
        ncp_swapset_apply(&swaps);
    for (k = 0; k < n; k++) {
        ncp_op *op = ops[k];
        int e = err;
        if (!is_write && e == NC_NOERR) e = decode(ds, op, deferred);
        if (e != NC_NOERR) op->status = e;
        else if (!is_write) ds->get_bytes += op->xbytes;
        else if (!op->held) ds->put_bytes += op->xbytes;
    }
    ncp_swapset_free(&swaps);
    state_free(ds, &st);
    return err;
}

int ncp_ops_flush(ncp_dataset *ds, ncp_op **ops, int n, int collective,
                  int dirs)
{
    ncp_op **puts = malloc((size_t)(n > 0 ? n : 1) * sizeof(*puts));
    ncp_op **gets = malloc((size_t)(n > 0 ? n : 1) * sizeof(*gets));
    int np = 0, ng = 0, k, err = NC_NOERR, any[5], all[5];
    if (!puts || !gets) err = NC_ENOMEM;
    for (k = 0; k < n && err == NC_NOERR; k++) {
        if (ops[k]->is_put) puts[np++] = ops[k];
        else gets[ng++] = ops[k];
    }
    any[0] = np > 0 || (dirs & NCP_FLUSH_PUTS);
    any[1] = ng > 0 || (dirs & NCP_FLUSH_GETS);
    any[2] = err == NC_NOERR ? 0 : -err;
    any[3] = batches_of(ds, puts, np);
    any[4] = batches_of(ds, gets, ng);
    memcpy(all, any, sizeof all);
    /* Unless the caller knows, skip a direction no rank has, and agree on
       the batches: one allreduce decides for all.  Where the caller
       knows, a collective flush is one call per direction. */
    if (collective && !(dirs & (NCP_FLUSH_PUTS | NCP_FLUSH_GETS)))
        MPI_Allreduce(any, all, 5, MPI_INT, MPI_MAX, ds->comm);
    else if (collective)
        all[3] = all[4] = 1;
    if (all[2] != 0) err = -all[2];
    ncp_io_behind_hold(&ds->file, 1);
    if (all[0] && (err == NC_NOERR || collective)) {
        int perr = move(ds, puts, np, 1, collective,
                        all[3] > 1 ? all[3] : 1);
        if (err == NC_NOERR) err = perr;
        grow_numrecs(ds, puts, np, collective);
        if (collective && !(dirs & NCP_FLUSH_NUMRECS_LATER)) {
            int nerr = ncp_numrecs_agree(ds);
            if (err == NC_NOERR) err = nerr;
        }
    }
    if (all[1] && (err == NC_NOERR || collective)) {
        int gerr = move(ds, gets, ng, 0, collective,
                        all[4] > 1 ? all[4] : 1);
        if (err == NC_NOERR) err = gerr;
    }
    ncp_io_behind_hold(&ds->file, 0);
    free(puts);
    free(gets);
    return err;
}
