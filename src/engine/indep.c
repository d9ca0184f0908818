/*
 * indep.c -- a rank's blocking independent puts, held back.
 *
 * netCDF makes independent writes visible to other ranks only at
 * ncmpi_sync, ncmpi_flush, ncmpi_end_indep_data, redef and close, so until
 * then a rank may hold them.  Each put is validated and converted at its
 * call as before, then its external bytes are copied (the caller may reuse
 * its buffer at once) and the op is held.  At one of those collective
 * points every rank hands its held ops to one collective flush, which
 * merges them with the other ranks' through the aggregated path instead
 * of one small write per extent.  Puts that an independent ncmpi_wait
 * completes are held the same way, at the wait.  A rank writes its own
 * held ops at once, alone, when the next put would overflow
 * nc_indep_buffer_size (unless that put is a fixed-size variable's, clear
 * of every held put's bytes: it is written at once instead, and the held
 * ones wait) and before any of its independent gets or waits,
 * so that it reads what it wrote and posting order still decides between
 * overlapping puts.  Puts whose pieces are large are not held: they are
 * written at once, after the held ones.
 */
#include <stdlib.h>
#include <string.h>

#include "../dataset/ncp_dataset.h"
#include "ncp_engine.h"
#include "../io/agg/ncp_agg_plan.h"
#include "pnetcdf.h"

/* A held copy of op; bytes the caller owns are copied into the arena (in
 * file byte order), whose pages stay mapped from one drain to the next. */
static int copy_op(ncp_indep_buf *b, const ncp_op *op, ncp_op **out)
{
    ncp_op *c = malloc(sizeof(*c));
    char *x = b->arena + b->arena_used;
    if (!c) return NC_ENOMEM;
    *c = *op;
    if (op->buf != NCP_OPBUF_OWN) {
        if (op->buf == NCP_OPBUF_SWAP)
            ncp_x_swap_copy(x, op->xbuf, op->xbytes / op->xsz, op->xsz);
        else
            memcpy(x, op->xbuf, (size_t)op->xbytes);
        b->arena_used += op->xbytes;
        c->xbuf = x;
        c->buf = NCP_OPBUF_DIRECT; /* the arena's, not freed with the op */
    }
    c->held = 1;
    *out = c;
    return NC_NOERR;
}

static int room_for(ncp_indep_buf *b, int n)
{
    if (b->n + n > b->cap) {
        int cap = b->cap ? b->cap : 16;
        ncp_op **no;
        while (cap < b->n + n) cap *= 2;
        if (!(no = realloc(b->ops, (size_t)cap * sizeof(*no))))
            return NC_ENOMEM;
        b->ops = no;
        b->cap = cap;
    }
    return NC_NOERR;
}

/* Copy every op that moves bytes; all or none (the caller then writes
 * them itself). */
static int copy_all(ncp_indep_buf *b, ncp_op **ops, int n, ncp_op **copies)
{
    int64_t used = b->arena_used;
    int k, err = NC_NOERR;
    for (k = 0; k < n && err == NC_NOERR; k++) {
        copies[k] = NULL;
        if (ops[k]->xbytes > 0) err = copy_op(b, ops[k], &copies[k]);
    }
    while (err != NC_NOERR && k-- > 0) free(copies[k]);
    if (err != NC_NOERR) b->arena_used = used;
    return err;
}

/* The file bytes op's request spans, [*lo, *hi) (empty: lo == hi). */
static int op_range(ncp_dataset *ds, const ncp_op *op, MPI_Offset *lo,
                    MPI_Offset *hi)
{
    ncp_extents e;
    int err;
    ncp_extents_init(&e);
    err = ncp_req_extents(&ds->hdr, &op->req, &e);
    *lo = *hi = 0;
    if (err == NC_NOERR && e.n > 0) {
        *lo = e.off[0];
        *hi = e.off[e.n - 1] + e.len[e.n - 1];
    }
    ncp_extents_free(&e);
    return err;
}

/* Widen the held puts' span by op's bytes. */
static int span_add(ncp_dataset *ds, const ncp_op *op)
{
    ncp_indep_buf *b = &ds->indep;
    MPI_Offset lo, hi;
    int err = op_range(ds, op, &lo, &hi), empty = b->span_lo == b->span_hi;
    if (err != NC_NOERR || lo == hi) return err;
    if (empty || lo < b->span_lo) b->span_lo = lo;
    if (empty || hi > b->span_hi) b->span_hi = hi;
    return NC_NOERR;
}

/* The held ops now own what the caller's did: its ops keep only their
 * request id and status (NC_ERANGE is still reported by this call).  A
 * waited bput's bytes leave the attached buffer, which the caller may
 * reuse or detach once the wait returns. */
static void hold(ncp_dataset *ds, ncp_op **ops, int n, ncp_op **copies)
{
    ncp_indep_buf *b = &ds->indep;
    int k;
    if (b->n == 0) b->numrecs_floor = ds->hdr.numrecs;
    for (k = 0; k < n; k++) {
        ncp_op *c = copies[k];
        int status = ops[k]->status, id = ops[k]->id;
        if (!c) continue;
        if (c->is_bput) ds->queue.bput_used -= c->xbytes;
        c->is_bput = 0;
        /* numrecs grows at the call, so this rank sees its records now */
        if (c->req.var->is_record && c->req.nelems > 0)
            ncp_numrecs_raise(ds, c->req.end_rec);
        ds->put_bytes += c->xbytes;
        b->bytes += c->xbytes;
        b->ops[b->n++] = c;
        if (b->span_known && span_add(ds, c) != NC_NOERR) b->span_known = 0;
        memset(ops[k], 0, sizeof(*ops[k]));
        ops[k]->id = id;
        ops[k]->status = status;
    }
}

/* Pieces averaging NCP_AGG_DIRECT_MIN bytes or more gain nothing from
 * being merged with other ranks' and would only pay for the copy. */
static int large_pieces(ncp_op **ops, int n)
{
    int64_t bytes = 0, runs = 0;
    int k;
    for (k = 0; k < n; k++) {
        bytes += ops[k]->xbytes;
        runs += ncp_req_nextents(&ops[k]->req);
    }
    return runs > 0 && bytes / runs >= NCP_AGG_DIRECT_MIN;
}

/* The span of every held put, worked out once for the held set. */
static int span_know(ncp_dataset *ds)
{
    ncp_indep_buf *b = &ds->indep;
    int j, err = NC_NOERR;
    if (b->span_known) return NC_NOERR;
    b->span_lo = b->span_hi = 0;
    for (j = 0; j < b->n && err == NC_NOERR; j++)
        err = span_add(ds, b->ops[j]);
    b->span_known = err == NC_NOERR;
    return err;
}

/* Whether ops, which the buffer has no room for, may be written now while
 * the held puts wait: each a fixed-size variable's (no record count to
 * settle between them) and clear of the span of the held puts' bytes, so
 * that the order in which they reach the file cannot matter.  Then the
 * held puts still meet the other ranks' at the next collective point,
 * instead of all being written alone. */
static int clear_of_held(ncp_dataset *ds, ncp_op **ops, int n)
{
    const ncp_indep_buf *b = &ds->indep;
    MPI_Offset lo, hi;
    int k;
    if (span_know(ds) != NC_NOERR) return 0;
    for (k = 0; k < n; k++) {
        if (ops[k]->req.var->is_record ||
            op_range(ds, ops[k], &lo, &hi) != NC_NOERR)
            return 0;
        if (lo < b->span_hi && b->span_lo < hi) return 0;
    }
    return 1;
}

/* Only the posix driver: its collective write agrees on every rank's
 * error, where an MPI-IO collective write may report a short write as
 * complete, and an error held until then would be lost. */
static int may_hold(ncp_dataset *ds)
{
    return ds->hints.indep_buffer_size > 0 &&
           strcmp(ncp_io_driver_name(&ds->file), "posix") == 0;
}

int ncp_indep_take(ncp_dataset *ds, ncp_op **ops, int n, int *taken)
{
    int64_t limit = ds->hints.indep_buffer_size, need = 0;
    ncp_op **copies = NULL;
    int k, err = NC_NOERR;
    *taken = 0;
    for (k = 0; k < n; k++) {
        if (!ops[k]->is_put) return NC_NOERR; /* a get reads them: drain */
        need += ops[k]->xbytes;
    }
    if (!may_hold(ds)) return NC_NOERR;
    if (large_pieces(ops, n)) return ncp_indep_drain(ds, 0);
    if (ds->indep.bytes + need > limit) {
        if (clear_of_held(ds, ops, n)) return NC_NOERR; /* written now */
        err = ncp_indep_drain(ds, 0);
    }
    if (err != NC_NOERR || need > limit || need == 0) goto done;
    if (!ds->indep.arena && !(ds->indep.arena = ncp_arena_get(limit)))
        goto done;
    if (!(copies = malloc((size_t)n * sizeof(*copies)))) goto done;
    if (room_for(&ds->indep, n) != NC_NOERR) goto done;
    if (copy_all(&ds->indep, ops, n, copies) != NC_NOERR) goto done;
    hold(ds, ops, n, copies);
    *taken = 1;
done:
    free(copies);
    return err; /* without memory to hold them, the caller writes them */
}

int ncp_indep_drain(ncp_dataset *ds, int collective)
{
    ncp_indep_buf *b = &ds->indep;
    ncp_op **ops = b->ops;
    int n = b->n, k, err;
    if (!collective && n == 0) return NC_NOERR;
    b->ops = NULL;
    b->n = b->cap = 0;
    b->bytes = 0;
    b->span_known = 0;
    b->arena_used = 0; /* reused only after this flush */
    /* The flush raises numrecs again for the puts it stores; one the
       file system refuses extends nothing.  The call that drains them
       (sync, end_indep_data, redef, close) agrees numrecs after. */
    if (n > 0) ds->hdr.numrecs = b->numrecs_floor;
    err = ncp_ops_flush(ds, ops, n, collective,
                        collective ? NCP_FLUSH_NUMRECS_LATER : 0);
    for (k = 0; k < n; k++) {
        int st = ops[k]->status;
        if (err == NC_NOERR && st != NC_NOERR && st != NC_ERANGE) err = st;
        ncp_op_free(ds, ops[k]);
        free(ops[k]);
    }
    free(ops);
    return err;
}

int ncp_indep_settle(int ncid)
{
    ncp_dataset *ds;
    int f;
    if (ncp_dataset_get(ncid, &ds) != NC_NOERR) return NC_NOERR;
    f = ds->flags;
    /* Only independent data mode holds puts; the flags agree across
       ranks, so every rank joins the flush or none does. */
    if (!(f & NCP_F_INDEP) || (f & NCP_F_DEFINE) || !(f & NCP_F_WRITE))
        return NC_NOERR;
    return ncp_indep_drain(ds, 1);
}
