/*
 * flush.c -- many ops, one MPI-IO call per direction.
 *
 * Each op's extents come out of the access layer in ascending file order,
 * so the ops form sorted runs; the runs are merged pairwise (O(n log k) for
 * n extents in k runs, never a full re-sort) into one list in file order,
 * which is what a file view must be.  Overlaps within a rank are rare but
 * legal: overlapping extents form a cluster whose union is contiguous; a
 * write cluster is painted into a staging buffer in posting order (the
 * later request wins, as with sequential calls), a read cluster is read
 * once and copied out to every member.  Then file-contiguous extents and
 * memory-contiguous pieces are coalesced separately, and the whole list
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

#include "../dataset/ncp_dataset.h"
#include "ncp_engine.h"
#include "pnetcdf.h"

typedef struct seg {
    int64_t off, len; /* file bytes */
    char *mem;        /* where they are (put) or go (get) */
    int op;           /* index in posting order */
    int swap;         /* element width the driver byte-swaps, or 0 */
} seg;

typedef struct seg_list {
    seg *s;
    int64_t n, cap;
    int64_t *run_start; /* sorted runs: run i is [run_start[i], run_start[i+1]) */
    int64_t nruns, runcap;
} seg_list;

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
    seg_list segs;
    void **staging; /* cluster buffers to free */
    int64_t nstaging;
    copy_out *copies;
    int64_t ncopies, copycap;
    ncp_extents fext, mext;
} flush_state;

static int segs_push(seg_list *l, int64_t off, int64_t len, char *mem, int op,
                     int swap)
{
    if (l->n == l->cap) {
        int64_t cap = l->cap ? 2 * l->cap : 256;
        seg *ns = realloc(l->s, (size_t)cap * sizeof(*ns));
        if (!ns) return NC_ENOMEM;
        l->s = ns;
        l->cap = cap;
    }
    l->s[l->n].off = off;
    l->s[l->n].len = len;
    l->s[l->n].mem = mem;
    l->s[l->n].op = op;
    l->s[l->n].swap = swap;
    l->n++;
    return NC_NOERR;
}

static int runs_mark(seg_list *l)
{
    if (l->nruns + 1 >= l->runcap) {
        int64_t cap = l->runcap ? 2 * l->runcap : 64;
        int64_t *nr = realloc(l->run_start, (size_t)cap * sizeof(*nr));
        if (!nr) return NC_ENOMEM;
        l->run_start = nr;
        l->runcap = cap;
    }
    l->run_start[l->nruns++] = l->n;
    return NC_NOERR;
}

/* One op's extents, each paired with the next bytes of its buffer.
 * deferred: the driver swaps the bytes of NCP_OPBUF_SWAP ops. */
static int op_segments(ncp_dataset *ds, ncp_op *op, int index, int deferred,
                       seg_list *l)
{
    ncp_extents e;
    char *mem = op->xbuf;
    int64_t i;
    int err, swap = deferred && op->buf == NCP_OPBUF_SWAP ? op->xsz : 0;
    if (deferred && op->raw > 2) swap = op->raw - 1;
    op->req.var = &ds->hdr.vars[op->varid]; /* redef may have moved it */
    ncp_extents_init(&e);
    err = ncp_req_extents(&ds->hdr, &op->req, &e);
    if (err == NC_NOERR && e.n > 0) err = runs_mark(l);
    for (i = 0; i < e.n && err == NC_NOERR; i++) {
        err = segs_push(l, e.off[i], e.len[i], mem, index, swap);
        mem += e.len[i];
    }
    ncp_extents_free(&e);
    return err;
}

/* Stable merge of two adjacent sorted ranges a[0..na) b[0..nb) into out. */
static void merge2(const seg *a, int64_t na, const seg *b, int64_t nb,
                   seg *out)
{
    int64_t i = 0, j = 0, k = 0;
    while (i < na && j < nb)
        out[k++] = b[j].off < a[i].off ? b[j++] : a[i++];
    while (i < na) out[k++] = a[i++];
    while (j < nb) out[k++] = b[j++];
}

/* Merge the sorted runs pairwise until one is left: O(n log runs). */
static int merge_runs(seg_list *l)
{
    seg *tmp;
    int64_t r, w;
    if (l->nruns <= 1) return NC_NOERR;
    if (!(tmp = malloc((size_t)l->n * sizeof(*tmp)))) return NC_ENOMEM;
    l->run_start[l->nruns] = l->n; /* sentinel (runcap leaves room) */
    while (l->nruns > 1) {
        for (r = 0, w = 0; r < l->nruns; r += 2, w++) {
            int64_t a = l->run_start[r], b = l->run_start[r + 1];
            int64_t c = r + 2 <= l->nruns ? l->run_start[r + 2] : b;
            if (r + 1 < l->nruns)
                merge2(l->s + a, b - a, l->s + b, c - b, tmp + a);
            else
                memcpy(tmp + a, l->s + a, (size_t)(b - a) * sizeof(*tmp));
            l->run_start[w] = a;
        }
        l->nruns = w;
        l->run_start[w] = l->n;
        memcpy(l->s, tmp, (size_t)l->n * sizeof(*tmp));
    }
    free(tmp);
    return NC_NOERR;
}

static int by_op(const void *x, const void *y)
{
    const seg *a = x, *b = y;
    return (a->op > b->op) - (a->op < b->op);
}

static int add_copy(flush_state *st, char *dst, const char *src, int64_t len,
                    int swap)
{
    if (st->ncopies == st->copycap) {
        int64_t cap = st->copycap ? 2 * st->copycap : 16;
        copy_out *nc = realloc(st->copies, (size_t)cap * sizeof(*nc));
        if (!nc) return NC_ENOMEM;
        st->copies = nc;
        st->copycap = cap;
    }
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

/* Sweep the merged list; fold every group of overlapping segments. */
static int resolve_overlaps(flush_state *st, int is_write)
{
    seg_list *l = &st->segs;
    int64_t i = 0, w = 0;
    int err = NC_NOERR;
    while (i < l->n && err == NC_NOERR) {
        int64_t j = i + 1, hi = l->s[i].off + l->s[i].len;
        while (j < l->n && l->s[j].off < hi) {
            if (l->s[j].off + l->s[j].len > hi) hi = l->s[j].off + l->s[j].len;
            j++;
        }
        if (j - i == 1)
            l->s[w] = l->s[i];
        else
            err = fold_cluster(st, l->s + i, j - i, l->s[i].off, hi,
                               is_write, &l->s[w]);
        w++;
        i = j;
    }
    l->n = w;
    return err;
}

/* File extents and memory pieces, each coalesced on its own. */
static int coalesce(flush_state *st)
{
    const seg_list *l = &st->segs;
    int64_t i;
    int err = NC_NOERR;
    for (i = 0; i < l->n && err == NC_NOERR; i++) {
        const seg *s = &l->s[i];
        if (s->len == 0) continue;
        err = ncp_extents_add(&st->fext, s->off, s->len);
        if (err == NC_NOERR)
            err = ncp_extents_add_swapped(
                &st->mext, (MPI_Offset)(intptr_t)s->mem, s->len, s->swap);
    }
    return err;
}

static void state_free(flush_state *st)
{
    int64_t i;
    for (i = 0; i < st->nstaging; i++) free(st->staging[i]);
    free(st->staging);
    free(st->copies);
    free(st->segs.s);
    free(st->segs.run_start);
    ncp_extents_free(&st->fext);
    ncp_extents_free(&st->mext);
}

/* Before I/O: shared user memory sorted out and the in-place swaps
 * (swapset.c), done for puts; own gets get their buffer. */
static int prepare(ncp_op **ops, int n, int is_write, int deferred,
                   ncp_swapset *swaps)
{
    int k, err = ncp_swapset_build(ops, n, is_write, deferred, swaps);
    if (err == NC_NOERR && is_write) ncp_swapset_apply(swaps);
    for (k = 0; k < n && err == NC_NOERR; k++) {
        ncp_op *op = ops[k];
        if (!op->is_put && op->buf == NCP_OPBUF_OWN && !op->xbuf &&
            !(op->xbuf = malloc((size_t)op->xbytes + 1)))
            err = NC_ENOMEM;
    }
    return err;
}

/* Plan the single call for ops (all puts or all gets). */
static int plan(ncp_dataset *ds, ncp_op **ops, int n, int is_write,
                int deferred, flush_state *st)
{
    int k, err = NC_NOERR;
    for (k = 0; k < n && err == NC_NOERR; k++)
        err = op_segments(ds, ops[k], k, deferred, &st->segs);
    if (err == NC_NOERR) err = merge_runs(&st->segs);
    ds->prof.extents_posted += st->segs.n;
    if (err == NC_NOERR) err = resolve_overlaps(st, is_write);
    if (err == NC_NOERR) err = coalesce(st);
    ds->prof.extents_issued += st->fext.n;
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
        if (!op->tmp && !(op->tmp = malloc((size_t)mbytes + 1)))
            return NC_ENOMEM;
        dst = op->tmp;
    }
    conv = ncp_x_get(op->req.var->xtype, op->xbuf, (ncp_mtype)op->mem.mtype,
                     dst, op->req.nelems, ds->hdr.format);
    if (conv != NC_NOERR && conv != NC_ERANGE) return conv;
    if (op->req.imap) {
        void *img = op->mem.contiguous ? op->mem.user : malloc((size_t)mbytes + 1);
        if (!img) return NC_ENOMEM;
        if (!op->mem.contiguous)
            err = ncp_membuf_pack(&op->mem, ds->comm, img, mbytes);
        if (err == NC_NOERR) err = ncp_req_imap_copy(&op->req, msz, img, op->tmp, 0);
        if (err == NC_NOERR && !op->mem.contiguous)
            err = ncp_membuf_unpack(&op->mem, ds->comm, img, mbytes);
        if (!op->mem.contiguous) free(img);
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

/* One direction: plan, one MPI-IO call (joined by every rank when
 * collective), then finish each op. */
static int move(ncp_dataset *ds, ncp_op **ops, int n, int is_write,
                int collective)
{
    flush_state st;
    ncp_swapset swaps = {NULL, 0};
    int err, ioerr = NC_NOERR, k;
    int deferred = ncp_io_swaps(&ds->file, collective, is_write);
    int64_t i;
    memset(&st, 0, sizeof st);
    ncp_extents_init(&st.fext);
    ncp_extents_init(&st.mext);
    err = prepare(ops, n, is_write, deferred, &swaps);
    if (err == NC_NOERR) err = plan(ds, ops, n, is_write, deferred, &st);
    if (err != NC_NOERR) { /* still join the collective, empty */
        ncp_extents_free(&st.fext);
        ncp_extents_free(&st.mext);
        ncp_extents_init(&st.fext);
        ncp_extents_init(&st.mext);
    }
    if (collective || st.fext.n > 0) {
        ioerr = ncp_io_xferv(&ds->file, collective, is_write, &st.fext,
                             &st.mext);
        if (is_write) {
            ds->prof.mpiio_write_calls++;
            ds->prof.bytes_written += ioerr == NC_NOERR ? st.fext.nbytes : 0;
        } else {
            ds->prof.mpiio_read_calls++;
            ds->prof.bytes_read += ioerr == NC_NOERR ? st.fext.nbytes : 0;
        }
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
        else if (is_write && !op->buffered) ds->put_bytes += op->xbytes;
        else ds->get_bytes += op->xbytes;
    }
    ncp_swapset_free(&swaps);
    state_free(&st);
    return err;
}

int ncp_ops_flush(ncp_dataset *ds, ncp_op **ops, int n, int collective,
                  int dirs)
{
    ncp_op **puts = malloc((size_t)(n > 0 ? n : 1) * sizeof(*puts));
    ncp_op **gets = malloc((size_t)(n > 0 ? n : 1) * sizeof(*gets));
    int np = 0, ng = 0, k, err = NC_NOERR, any[3], all[3];
    if (!puts || !gets) err = NC_ENOMEM;
    for (k = 0; k < n && err == NC_NOERR; k++) {
        if (ops[k]->is_put) puts[np++] = ops[k];
        else gets[ng++] = ops[k];
    }
    any[0] = np > 0 || (dirs & NCP_FLUSH_PUTS);
    any[1] = ng > 0 || (dirs & NCP_FLUSH_GETS);
    any[2] = err == NC_NOERR ? 0 : -err;
    memcpy(all, any, sizeof all);
    /* Unless the caller knows, skip a direction no rank has: one
       allreduce decides for all. */
    if (collective && !dirs)
        MPI_Allreduce(any, all, 3, MPI_INT, MPI_MAX, ds->comm);
    if (all[2] != 0) err = -all[2];
    if (all[0] && (err == NC_NOERR || collective)) {
        int perr = move(ds, puts, np, 1, collective);
        if (err == NC_NOERR) err = perr;
        grow_numrecs(ds, puts, np, collective);
        if (collective) {
            int nerr = ncp_numrecs_agree(ds);
            if (err == NC_NOERR) err = nerr;
        }
    }
    if (all[1] && (err == NC_NOERR || collective)) {
        int gerr = move(ds, gets, ng, 0, collective);
        if (err == NC_NOERR) err = gerr;
    }
    free(puts);
    free(gets);
    return err;
}
