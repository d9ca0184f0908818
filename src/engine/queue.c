/*
 * queue.c -- the nonblocking interface: posting iput/iget/bput (and the
 * blocking, mput and varn calls that share their ops), the per-dataset
 * queue of posted ops, wait/wait_all/cancel, and the bput buffer.
 *
 * Request ids are small non-negative integers, unique per dataset; the ops
 * of one varn call share one id.  A posted op keeps its place in posting
 * order, which decides which of two overlapping puts wins.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../dataset/ncp_dataset.h"
#include "ncp_engine.h"
#include "pnetcdf.h"

static int queue_push(ncp_queue *q, ncp_op *op)
{
    if (q->n == q->cap) {
        int cap = q->cap ? 2 * q->cap : 64;
        ncp_op **no = realloc(q->ops, (size_t)cap * sizeof(*no));
        if (!no) return NC_ENOMEM;
        q->ops = no;
        q->cap = cap;
    }
    q->ops[q->n++] = op;
    return NC_NOERR;
}

/* Each queued op is its own allocation, so the queue can drop any. */
static int enqueue(ncp_dataset *ds, ncp_op *ops, int n, int *reqid)
{
    ncp_queue *q = &ds->queue;
    int i, id = q->next_id, err = NC_NOERR, pushed = 0;
    for (i = 0; i < n && err == NC_NOERR; i++) {
        ncp_op *one = malloc(sizeof(*one));
        if (!one) {
            err = NC_ENOMEM;
            break;
        }
        *one = ops[i];
        one->id = id;
        if ((err = queue_push(q, one)) != NC_NOERR) free(one);
        else pushed++;
    }
    if (err != NC_NOERR) {
        q->n -= pushed; /* take back this call's ops */
        for (i = 0; i < n; i++) ncp_op_free(ds, &ops[i]);
        return err;
    }
    q->next_id = id == 0x7fffffff ? 0 : id + 1;
    if (reqid) *reqid = id;
    return NC_NOERR;
}

int ncp_data_post(const ncp_data_args *a, int is_bput, int *reqid)
{
    ncp_dataset *ds;
    ncp_op *ops = NULL;
    int n = 0, err, k, range = 0;
    double t0 = MPI_Wtime();
    if (reqid) *reqid = NC_REQ_NULL;
    if ((err = ncp_dataset_get(a->ncid, &ds)) != NC_NOERR) return err;
    if (is_bput && !a->is_put) return NC_EINVAL;
    err = ncp_ops_build(ds, a, is_bput ? NCP_POST_BPUT : NCP_POST_NB, &ops,
                        &n);
    if (err == NC_NOERR) {
        int64_t nelems = 0;
        for (k = 0; k < n; k++) nelems += ops[k].req.nelems;
        /* As PnetCDF: a put's out-of-range values are reported now, and
           the request, fill values in their place, stays posted; its
           status at the wait is clean. */
        for (k = 0; k < n; k++) {
            if (ops[k].status != NC_ERANGE) continue;
            ops[k].status = NC_NOERR;
            range = 1;
        }
        if (nelems == 0) { /* nothing to move: no request at all */
            for (k = 0; k < n; k++) ncp_op_free(ds, &ops[k]);
            range = 0;
        } else {
            err = enqueue(ds, ops, n, reqid);
        }
    }
    free(ops);
    ds->prof.time_post += MPI_Wtime() - t0;
    return err == NC_NOERR && range ? NC_ERANGE : err;
}

/* Worst status among the ops carrying id (any id: NC_REQ_NULL): an error
 * first, NC_ERANGE only if nothing worse. */
static int worst_status(ncp_op **ops, int n, int id)
{
    int k, st = NC_NOERR;
    for (k = 0; k < n; k++) {
        if (id != NC_REQ_NULL && ops[k]->id != id) continue;
        if (ops[k]->status != NC_NOERR && ops[k]->status != NC_ERANGE)
            return ops[k]->status;
        if (ops[k]->status == NC_ERANGE) st = NC_ERANGE;
    }
    return st;
}

/*
 * Flush the n ops of one call (blocking, mput) and free them; *status gets
 * their worst status.  Independent puts may be held instead (indep.c).  Without memory for the list, the ops are dropped
 * but a collective call still joins the others' I/O, empty.
 */
static int flush_array(ncp_dataset *ds, ncp_op *ops, int n, int collective,
                       int dirs, int *status)
{
    ncp_op **ptrs = malloc((size_t)(n > 0 ? n : 1) * sizeof(*ptrs));
    double t0 = MPI_Wtime();
    int err = NC_NOERR, ioerr = NC_NOERR, k, taken = 0;
    *status = NC_NOERR;
    if (!ptrs) {
        for (k = 0; k < n; k++) ncp_op_free(ds, &ops[k]);
        n = 0;
        err = NC_ENOMEM;
    }
    for (k = 0; k < n; k++) ptrs[k] = &ops[k];
    if (ptrs && !collective && dirs == NCP_FLUSH_PUTS)
        ioerr = ncp_indep_take(ds, ptrs, n, &taken);
    else if (ptrs && !collective) /* a get reads this rank's puts */
        ioerr = ncp_indep_drain(ds, 0);
    if (!taken && (ptrs || collective)) {
        int e = ncp_ops_flush(ds, ptrs, n, collective, dirs);
        if (ioerr == NC_NOERR) ioerr = e;
    }
    if (n > 0) *status = worst_status(ptrs, n, NC_REQ_NULL);
    for (k = 0; k < n; k++) ncp_op_free(ds, &ops[k]);
    free(ptrs);
    ds->prof.time_wait += MPI_Wtime() - t0;
    return err != NC_NOERR ? err : ioerr;
}

/* In safe mode a collective data call agrees on its error first: when
 * any rank's request is bad, every rank returns the lowest code and no
 * rank moves data. */
static int safe_mode_agree(ncp_dataset *ds, int local, ncp_op *ops, int *n)
{
    int err = ncp_safe_agree(ds, local), k;
    if (err == NC_NOERR) return err;
    for (k = 0; k < *n; k++) ncp_op_free(ds, &ops[k]);
    *n = 0;
    return err;
}

int ncp_data_access(const ncp_data_args *a)
{
    ncp_dataset *ds;
    ncp_op *ops = NULL;
    int n = 0, err, ioerr, status;
    double t0 = MPI_Wtime();
    if ((err = ncp_dataset_get(a->ncid, &ds)) != NC_NOERR) return err;
    err = ncp_ops_build(ds, a, NCP_POST_BLOCKING, &ops, &n);
    ds->prof.time_post += MPI_Wtime() - t0;
    /* Mode errors are the same on every rank: nobody joins the I/O. */
    if (err == NC_EINDEFINE || err == NC_EINDEP || err == NC_ENOTINDEP ||
        err == NC_EPERM || (err != NC_NOERR && !a->collective))
        return err;
    if (a->collective) err = safe_mode_agree(ds, err, ops, &n);
    if (err != NC_NOERR) n = 0; /* join the collective with nothing */
    ioerr = flush_array(ds, ops, n, a->collective,
                        a->is_put ? NCP_FLUSH_PUTS : NCP_FLUSH_GETS, &status);
    free(ops);
    if (err != NC_NOERR) return err;
    if (ioerr != NC_NOERR) return ioerr;
    return status;
}

/* Append one call's ops to *all (growing it). */
static int append_ops(ncp_dataset *ds, ncp_op **all, int *total,
                      ncp_op *ops, int m)
{
    ncp_op *grown = realloc(*all, (size_t)(*total + m) * sizeof(*grown));
    int k;
    if (!grown) {
        for (k = 0; k < m; k++) ncp_op_free(ds, &ops[k]);
        return NC_ENOMEM;
    }
    memcpy(grown + *total, ops, (size_t)m * sizeof(*ops));
    *all = grown;
    *total += m;
    return NC_NOERR;
}

/* mput/mget: every call's ops flushed together.  A bad request is
 * skipped (its code returned) and the others still move. */
int ncp_data_multi(int ncid, int is_put, int collective,
                   const ncp_data_args *a, int n)
{
    ncp_dataset *ds;
    ncp_op *all = NULL;
    int i, k, total = 0, err = NC_NOERR, first = NC_NOERR, ioerr, status;
    if ((err = ncp_dataset_get(ncid, &ds)) != NC_NOERR) return err;
    if (is_put && (err = ncp_require_write(ds)) != NC_NOERR) return err;
    if ((err = ncp_require_data(ds, collective)) != NC_NOERR) return err;
    if (n < 0) err = NC_EINVAL;
    for (i = 0; i < n && err == NC_NOERR; i++) {
        ncp_op *ops = NULL;
        int m = 0, e = ncp_ops_build(ds, &a[i], NCP_POST_BLOCKING, &ops, &m);
        if (e != NC_NOERR && first == NC_NOERR) first = e;
        if (e == NC_NOERR) err = append_ops(ds, &all, &total, ops, m);
        free(ops);
    }
    if (err != NC_NOERR) {
        for (k = 0; k < total; k++) ncp_op_free(ds, &all[k]);
        total = 0;
    }
    if (collective) first = safe_mode_agree(ds, first, all, &total);
    ioerr = flush_array(ds, all, total, collective,
                        is_put ? NCP_FLUSH_PUTS : NCP_FLUSH_GETS, &status);
    free(all);
    if (err != NC_NOERR) return err;
    if (first != NC_NOERR) return first;
    if (ioerr != NC_NOERR) return ioerr;
    return status;
}

/* --- choosing queued ops -------------------------------------------------- */

/* The queued ops a wait/cancel names: all, all puts, all gets, or the ids
 * in reqs[0..num).  codes[i] becomes NC_EINVAL_REQUEST for an unknown id. */
static int select_ops(ncp_queue *q, int num, const int *reqs, int *codes,
                      char *pick)
{
    int i, k;
    memset(pick, 0, (size_t)(q->n > 0 ? q->n : 1));
    if (num == NC_REQ_ALL || num == NC_PUT_REQ_ALL || num == NC_GET_REQ_ALL) {
        for (k = 0; k < q->n; k++)
            pick[k] = num == NC_REQ_ALL ||
                      (num == NC_PUT_REQ_ALL) == (q->ops[k]->is_put != 0);
        return NC_NOERR;
    }
    if (num < 0) return NC_EINVAL;
    if (num > 0 && !reqs) return NC_EINVAL;
    for (i = 0; i < num; i++) {
        int found = reqs[i] == NC_REQ_NULL;
        for (k = 0; k < q->n && reqs[i] != NC_REQ_NULL; k++)
            if (q->ops[k]->id == reqs[i]) pick[k] = 1, found = 1;
        if (codes) codes[i] = found ? NC_NOERR : NC_EINVAL_REQUEST;
    }
    return NC_NOERR;
}

/* Take the ops that num/reqs name (see select_ops) out of the queue,
 * keeping posting order: *ops (malloc'ed) gets *n of them. */
static int take_named(ncp_queue *q, int num, const int *reqs, int *codes,
                      ncp_op ***ops, int *n)
{
    char *pick = malloc((size_t)(q->n > 0 ? q->n : 1));
    ncp_op **out = malloc((size_t)(q->n > 0 ? q->n : 1) * sizeof(*out));
    int k, w = 0, err = pick && out ? NC_NOERR : NC_ENOMEM;
    *n = 0;
    if (err == NC_NOERR) err = select_ops(q, num, reqs, codes, pick);
    for (k = 0; err == NC_NOERR && k < q->n; k++) {
        if (pick[k]) out[(*n)++] = q->ops[k];
        else q->ops[w++] = q->ops[k];
    }
    if (err == NC_NOERR) q->n = w;
    free(pick);
    if (err != NC_NOERR) {
        free(out);
        out = NULL;
    }
    *ops = out;
    return err;
}

/* Free ops taken out of the queue; status says why, for varn groups. */
static void drop_ops(ncp_dataset *ds, ncp_op **ops, int n)
{
    int k;
    for (k = 0; k < n; k++) {
        ncp_op_free(ds, ops[k]);
        free(ops[k]);
    }
}

/* How many requests ops[0..n) hold: the ops of one varn share an id and
 * sit together. */
static int count_ids(ncp_op **ops, int n)
{
    int k, ids = 0;
    for (k = 0; k < n; k++)
        if (k == 0 || ops[k]->id != ops[k - 1]->id) ids++;
    return ids;
}

/* An independent wait's puts are held like blocking ones (indep.c) when
 * it completes nothing but puts; otherwise the held puts reach the file
 * first, since they were posted before these ops and a get must read
 * them.  *taken: the ops were held, the caller writes nothing. */
static int indep_wait(ncp_dataset *ds, ncp_op **ops, int n, int *taken)
{
    int err = n > 0 ? ncp_indep_take(ds, ops, n, taken) : NC_NOERR;
    if (err == NC_NOERR && !*taken) err = ncp_indep_drain(ds, 0);
    return err;
}

static int wait_common(ncp_dataset *ds, int num, int *reqs, int *statuses,
                       int collective)
{
    ncp_op **ops = NULL;
    int *codes = statuses, n = 0, err, i, taken = 0;
    if ((err = ncp_require_data(ds, collective)) != NC_NOERR) return err;
    /* as PnetCDF: a negative num other than the NC_*REQ_ALL ones waits
       for nothing (cancel refuses it) */
    if (num < 0 && num != NC_REQ_ALL && num != NC_PUT_REQ_ALL &&
        num != NC_GET_REQ_ALL)
        num = 0;
    if (!codes && num > 0 && !(codes = calloc((size_t)num, sizeof(*codes))))
        err = NC_ENOMEM;
    if (err == NC_NOERR)
        err = take_named(&ds->queue, num, reqs, codes, &ops, &n);
    if (err == NC_NOERR || collective) { /* a collective wait still joins */
        double t0 = MPI_Wtime();
        int ioerr = collective ? NC_NOERR : indep_wait(ds, ops, n, &taken);
        if (!taken) {
            int e = ncp_ops_flush(ds, ops, n, collective, 0);
            if (ioerr == NC_NOERR) ioerr = e;
        }
        ds->prof.time_wait += MPI_Wtime() - t0;
        if (err == NC_NOERR) err = ioerr;
    }
    for (i = 0; codes && num > 0 && reqs && i < num; i++) {
        int known = codes[i] != NC_EINVAL_REQUEST;
        /* as PnetCDF: an unknown id fails the call as well */
        if (!known && err == NC_NOERR) err = NC_EINVAL_REQUEST;
        if (known && reqs[i] != NC_REQ_NULL)
            codes[i] = worst_status(ops, n, reqs[i]);
        if (known) reqs[i] = NC_REQ_NULL;
        /* as PnetCDF: the first request that failed fails the call */
        if (err == NC_NOERR) err = codes[i];
    }
    if (err == NC_NOERR && (num < 0 || !reqs))
        err = worst_status(ops, n, NC_REQ_NULL);
    if (codes != statuses) free(codes);
    drop_ops(ds, ops, n);
    free(ops);
    return err;
}

int ncp_eng_wait_all(ncp_dataset *ds, int num, int *reqs, int *statuses)
{
    return wait_common(ds, num, reqs, statuses, 1);
}

int ncp_eng_wait(ncp_dataset *ds, int num, int *reqs, int *statuses)
{
    return wait_common(ds, num, reqs, statuses, 0);
}

int ncp_eng_cancel(ncp_dataset *ds, int num, int *reqs, int *statuses)
{
    ncp_op **ops = NULL;
    int n = 0, err, i, k;
    err = take_named(&ds->queue, num, reqs, statuses, &ops, &n);
    for (k = 0; k < n; k++)
        ops[k]->status = NC_EINVAL_REQUEST; /* nothing moved, nothing unpacked */
    drop_ops(ds, ops, n);
    for (i = 0; err == NC_NOERR && num > 0 && reqs && i < num; i++)
        if (!statuses || statuses[i] != NC_EINVAL_REQUEST)
            reqs[i] = NC_REQ_NULL;
    /* as PnetCDF: an unknown id fails the call */
    for (i = 0; err == NC_NOERR && statuses && num > 0 && reqs && i < num; i++)
        if (statuses[i] == NC_EINVAL_REQUEST) err = NC_EINVAL_REQUEST;
    free(ops);
    return err;
}

int ncp_queue_discard(int ncid)
{
    ncp_dataset *ds;
    ncp_queue *q;
    int k, ids;
    if (ncp_dataset_get(ncid, &ds) != NC_NOERR) return 0;
    q = &ds->queue;
    ids = count_ids(q->ops, q->n);
    for (k = 0; k < q->n; k++) q->ops[k]->status = NC_EINVAL_REQUEST;
    drop_ops(ds, q->ops, q->n);
    free(q->ops);
    q->ops = NULL;
    q->n = q->cap = 0;
    return ids;
}

int ncp_eng_inq_nreqs(ncp_dataset *ds, int *nreqs)
{
    if (nreqs) *nreqs = count_ids(ds->queue.ops, ds->queue.n);
    return NC_NOERR;
}

/* --- the bput buffer ------------------------------------------------------ */

int ncp_eng_buffer_attach(ncp_dataset *ds, MPI_Offset bufsize)
{
    if (ds->queue.bput_size >= 0) return NC_EPREVATTACHBUF;
    if (bufsize <= 0) return NC_ENULLBUF;
    ds->queue.bput_size = bufsize;
    ds->queue.bput_used = 0;
    return NC_NOERR;
}

int ncp_eng_buffer_detach(ncp_dataset *ds)
{
    int k;
    if (ds->queue.bput_size < 0) return NC_ENULLABUF;
    for (k = 0; k < ds->queue.n; k++)
        if (ds->queue.ops[k]->is_bput) return NC_EPENDINGBPUT;
    ds->queue.bput_size = -1;
    ds->queue.bput_used = 0;
    return NC_NOERR;
}

int ncp_eng_inq_buffer_usage(ncp_dataset *ds, MPI_Offset *usage)
{
    if (ds->queue.bput_size < 0) return NC_ENULLABUF;
    if (usage) *usage = ds->queue.bput_used;
    return NC_NOERR;
}

int ncp_eng_inq_buffer_size(ncp_dataset *ds, MPI_Offset *buf_size)
{
    if (ds->queue.bput_size < 0) return NC_ENULLABUF;
    if (buf_size) *buf_size = ds->queue.bput_size;
    return NC_NOERR;
}
