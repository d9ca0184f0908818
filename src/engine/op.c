/*
 * op.c -- one data call turned into ops: validated coordinates, the user's
 * buffer described, and for a put the external bytes made ready.
 *
 * The buffer choice (ncp_op_buf) is where copies are avoided: a contiguous
 * buffer of the variable's own type is used as the I/O buffer directly
 * (byte types), or byte-swapped in place around the I/O (larger types, when
 * nc_in_place_swap allows; gets always read in place and swap after).
 * Everything else is converted into a buffer of our own at post time, so
 * that conversion errors are known when the request is posted.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../dataset/ncp_dataset.h"
#include "ncp_engine.h"
#include "pnetcdf.h"

/* Smallest put whose buffer is byte-swapped in place under "auto". */
#define NCP_SWAP_IN_PLACE_MIN ((int64_t)64 << 10)

/* Shared by the ops of a varn get into a noncontiguous flexible buffer:
 * they read into one packed image, unpacked once the last op is done. */
typedef struct varn_group {
    int refs;
    int failed;
    void *image;
    int64_t nbytes;
    ncp_membuf mem; /* the caller's buffer as described */
} varn_group;

void *ncp_op_mem(ncp_dataset *ds, int64_t nbytes)
{
    if (ds->bufs.peak == 0) ncp_kept_bufs_adopt(&ds->bufs); /* first use */
    return ncp_bufcache_take(&ds->bufs, nbytes);
}

void ncp_op_mem_free(ncp_dataset *ds, void *p)
{
    ncp_bufcache_give(&ds->bufs, p, ds->hints.kept_buffer_size);
}

static int host_is_little_endian(void)
{
    const uint16_t one = 1;
    return *(const unsigned char *)&one == 1;
}

/* The buffer holds the variable's external type, byte order aside. */
static int same_type(int mtype, int xtype)
{
    if (mtype == (int)ncp_mtype_of_xtype(xtype)) return 1;
    return mtype == NCP_M_LONG && xtype == NC_INT64 && sizeof(long) == 8;
}

static ncp_op_buf choose_buf(const ncp_dataset *ds, const ncp_op *op,
                             ncp_post_kind kind)
{
    int needs_swap = op->xsz > 1 && host_is_little_endian();
    if (!op->mem.contiguous || op->req.imap ||
        !same_type(op->mem.mtype, op->req.var->xtype))
        return NCP_OPBUF_OWN;
    if (!op->is_put) return needs_swap ? NCP_OPBUF_SWAP : NCP_OPBUF_DIRECT;
    if (kind == NCP_POST_BPUT) return NCP_OPBUF_OWN; /* caller may reuse */
    if (!needs_swap) return NCP_OPBUF_DIRECT;
    switch (ds->hints.in_place_swap) {
    case NCP_SWAP_ENABLE: return NCP_OPBUF_SWAP;
    case NCP_SWAP_DISABLE: return NCP_OPBUF_OWN;
    default:
        return op->xbytes >= NCP_SWAP_IN_PLACE_MIN ? NCP_OPBUF_SWAP
                                                   : NCP_OPBUF_OWN;
    }
}

/* The user's elements of a put as one contiguous memory-type buffer. */
static int gather_user(ncp_dataset *ds, ncp_op *op, const void **src,
                       void **scratch)
{
    int err = NC_NOERR;
    size_t msz = ncp_mtype_size((ncp_mtype)op->mem.mtype);
    int64_t nbytes = op->req.nelems * (int64_t)msz;
    const void *packed = op->mem.user;
    void *pk = NULL;
    *scratch = NULL;
    if (!op->mem.contiguous) {
        if (!(pk = ncp_op_mem(ds, nbytes))) return NC_ENOMEM;
        err = ncp_membuf_pack(&op->mem, ds->comm, pk, nbytes);
        packed = pk;
    }
    if (err == NC_NOERR && op->req.imap) {
        void *ordered = ncp_op_mem(ds, nbytes);
        if (!ordered) err = NC_ENOMEM;
        else
            err = ncp_req_imap_copy(&op->req, msz, (void *)packed, ordered, 1);
        ncp_op_mem_free(ds, pk);
        pk = ordered;
        packed = ordered;
    }
    if (err != NC_NOERR) {
        ncp_op_mem_free(ds, pk);
        return err;
    }
    *src = packed;
    *scratch = pk;
    return NC_NOERR;
}

/* A noncontiguous buffer of the variable's own type, in file order, is
 * packed straight into the op's buffer and swapped there in place: one
 * fresh buffer a put, not a packed copy and then a swapped one. */
static int packs_into_xbuf(const ncp_op *op)
{
    return !op->mem.contiguous && !op->req.imap &&
           same_type(op->mem.mtype, op->req.var->xtype);
}

/* A put's external bytes, converted now; NC_ERANGE is kept as the op's
 * status (the data is still written, out-of-range values as fill). */
static int encode_now(ncp_dataset *ds, ncp_op *op)
{
    unsigned char fill[8];
    const void *src = NULL;
    void *scratch = NULL;
    int err;
    if (!(op->xbuf = ncp_op_mem(ds, op->xbytes))) return NC_ENOMEM;
    if (packs_into_xbuf(op)) {
        err = ncp_membuf_pack(&op->mem, ds->comm, op->xbuf, op->xbytes);
        src = op->xbuf;
    } else {
        err = gather_user(ds, op, &src, &scratch);
    }
    if (err != NC_NOERR) return err;
    ncp_var_fill_value(op->req.var, fill);
    err = ncp_x_put(op->req.var->xtype, op->xbuf, (ncp_mtype)op->mem.mtype,
                    src, op->req.nelems, fill, ds->hdr.format);
    ncp_op_mem_free(ds, scratch);
    if (err == NC_ERANGE) {
        op->status = NC_ERANGE;
        err = NC_NOERR;
    }
    return err;
}

static int charge_bput(ncp_dataset *ds, ncp_op *op)
{
    ncp_queue *q = &ds->queue;
    if (q->bput_size < 0) return NC_ENULLABUF;
    if (q->bput_used + op->xbytes > q->bput_size) return NC_EINSUFFBUF;
    q->bput_used += op->xbytes;
    op->is_bput = 1;
    return NC_NOERR;
}

/* The first half of an op: its validated coordinates. */
static int op_coords(ncp_dataset *ds, const ncp_data_args *a, ncp_var *v,
                     ncp_op *op)
{
    memset(op, 0, sizeof(*op));
    op->is_put = a->is_put;
    op->varid = a->varid;
    op->xsz = ncp_xtype_size(v->xtype);
    return ncp_req_build(&ds->hdr, v, a, &op->req);
}

/* The second half: the buffer side, described from a (or given: a slice
 * of a varn buffer), and a put's external bytes. */
static int op_buffer(ncp_dataset *ds, const ncp_data_args *a, ncp_var *v,
                     ncp_post_kind kind, const ncp_membuf *given, ncp_op *op)
{
    int err;
    if (given) {
        op->mem = *given;
    } else if ((err = ncp_membuf_describe(a, v->xtype, op->req.nelems,
                                          &op->mem)) != NC_NOERR) {
        return err;
    }
    if ((op->mem.mtype == NCP_M_TEXT) != (v->xtype == NC_CHAR))
        return NC_ECHAR;
    if (op->req.nelems > 0 && !op->mem.user) return NC_ENULLBUF;
    op->xbytes = op->req.nelems * op->xsz;
    op->buf = choose_buf(ds, op, kind);
    if (!op->is_put && op->buf == NCP_OPBUF_OWN && !op->mem.contiguous &&
        !op->req.imap && same_type(op->mem.mtype, v->xtype))
        op->raw = 1 + (op->xsz > 1 && host_is_little_endian() ? op->xsz : 0);
    if (kind == NCP_POST_BPUT && (err = charge_bput(ds, op)) != NC_NOERR)
        return err;
    if (op->buf != NCP_OPBUF_OWN) {
        op->xbuf = op->mem.user;
        return NC_NOERR;
    }
    if (op->is_put) return encode_now(ds, op);
    return NC_NOERR; /* a get's own buffers are made at flush */
}

/*
 * A posted get unpacks into the caller's noncontiguous buffer when it
 * completes, but the caller may free its datatype right after posting
 * (MPI allows it): the op keeps a duplicate of its own.  Puts were packed
 * at post and need nothing.
 */
static int retain_type(ncp_membuf *m)
{
    int ni, na, nd, comb;
    if (m->contiguous || m->buftype == MPI_DATATYPE_NULL || m->owns_type)
        return NC_NOERR;
    MPI_Type_get_envelope(m->buftype, &ni, &na, &nd, &comb);
    if (comb == MPI_COMBINER_NAMED) return NC_NOERR;
    if (MPI_Type_dup(m->buftype, &m->buftype) != MPI_SUCCESS)
        return NC_ENOMEM;
    m->owns_type = 1;
    return NC_NOERR;
}

static void release_type(ncp_membuf *m)
{
    if (m->owns_type) MPI_Type_free(&m->buftype);
    m->owns_type = 0;
}

void ncp_op_free(ncp_dataset *ds, ncp_op *op)
{
    if (op->is_bput) ds->queue.bput_used -= op->xbytes;
    if (op->buf == NCP_OPBUF_OWN) ncp_op_mem_free(ds, op->xbuf);
    ncp_op_mem_free(ds, op->tmp);
    if (op->group) {
        varn_group *g = op->group;
        if (op->status != NC_NOERR && op->status != NC_ERANGE) g->failed = 1;
        if (--g->refs == 0) {
            /* last of a varn get: the image holds every element now */
            if (!g->failed && g->mem.user)
                ncp_membuf_unpack(&g->mem, ds->comm, g->image, g->nbytes);
            release_type(&g->mem);
            free(g->image);
            free(g);
        }
    }
    release_type(&op->mem);
    ncp_req_free(&op->req);
}

/* Subarray i of a varn call, as a call of its own: without a count (no
 * counts, or a NULL one) it is one element, as in PnetCDF. */
static ncp_data_args varn_sub(const ncp_data_args *a, int i)
{
    ncp_data_args s = *a;
    s.count = a->counts ? a->counts[i] : NULL;
    s.kind = s.count ? NCP_SHAPE_VARA : NCP_SHAPE_VAR1;
    s.start = a->starts[i];
    return s;
}

/* Free ops[0..n) of a failed varn call; none of them unpacks. */
static void varn_unwind(ncp_dataset *ds, ncp_op *ops, int n, varn_group *g,
                        int err)
{
    int i, orphan = g && g->refs == 0; /* else the last op frees it */
    for (i = 0; i < n; i++) {
        ops[i].status = err;
        ncp_op_free(ds, &ops[i]);
    }
    if (orphan) {
        free(g->image);
        free(g);
    }
}

/*
 * A varn call: one op per subarray, each on its slice of the buffer.  The
 * coordinates come first (their sum sizes the buffer); a noncontiguous
 * flexible buffer is packed once (put) or read into one image and unpacked
 * at the end (get), so every op sees a contiguous slice.
 */
static int build_varn(ncp_dataset *ds, const ncp_data_args *a, ncp_var *v,
                      ncp_post_kind kind, int num, ncp_op *ops)
{
    int64_t total = 0, done = 0;
    ncp_membuf whole, slice;
    varn_group *g = NULL;
    size_t msz;
    int i, err = NC_NOERR;

    if (num > 0 && !a->starts) return NC_ENULLSTART;
    for (i = 0; i < num; i++) {
        ncp_data_args s = varn_sub(a, i);
        err = s.start ? op_coords(ds, &s, v, &ops[i]) : NC_ENULLSTART;
        if (err != NC_NOERR) {
            varn_unwind(ds, ops, i + 1, NULL, err);
            return err;
        }
        total += ops[i].req.nelems;
    }
    if ((err = ncp_membuf_describe(a, v->xtype, total, &whole)) != NC_NOERR) {
        varn_unwind(ds, ops, num, NULL, err);
        return err;
    }
    msz = ncp_mtype_size((ncp_mtype)whole.mtype);
    slice = whole;
    if (!whole.contiguous && total > 0) {
        if (!(g = calloc(1, sizeof(*g)))) err = NC_ENOMEM;
        else if (!(g->image = malloc((size_t)total * msz + 1))) err = NC_ENOMEM;
        if (err == NC_NOERR) {
            g->nbytes = total * (int64_t)msz;
            g->mem = whole;
            if (a->is_put) {
                err = ncp_membuf_pack(&whole, ds->comm, g->image, g->nbytes);
                g->mem.user = NULL; /* nothing to unpack */
            }
            slice.contiguous = 1;
        }
    }
    for (i = 0; i < num && err == NC_NOERR; i++) {
        ncp_data_args s = varn_sub(a, i);
        char *base = g ? g->image : whole.user;
        slice.user = base ? base + done * (int64_t)msz : NULL;
        err = op_buffer(ds, &s, v, kind, &slice, &ops[i]);
        done += ops[i].req.nelems;
        if (g) {
            ops[i].group = g;
            g->refs++;
        }
    }
    if (err != NC_NOERR) varn_unwind(ds, ops, num, g, err);
    return err;
}

/* Mode rules: a put needs a writable file; blocking calls need the data
 * mode that matches their collectiveness; posting is allowed in define
 * mode and either data mode, as in PnetCDF. */
static int check_mode(const ncp_dataset *ds, const ncp_data_args *a,
                      ncp_post_kind kind)
{
    int err = NC_NOERR;
    if (a->is_put) err = ncp_require_write(ds);
    if (err == NC_NOERR && kind == NCP_POST_BLOCKING)
        err = ncp_require_data(ds, a->collective);
    return err;
}

/*
 * The checks PnetCDF 1.12 makes before it looks at coordinates: text
 * against a numeric variable (or the reverse) in a typed call, and a bput
 * with no buffer attached.
 */
static int check_early(const ncp_dataset *ds, const ncp_data_args *a,
                       const ncp_var *v, ncp_post_kind kind)
{
    if (a->mtype != NCP_M_FLEX &&
        (a->mtype == NCP_M_TEXT) != (v->xtype == NC_CHAR))
        return NC_ECHAR;
    if (kind == NCP_POST_BPUT && ds->queue.bput_size < 0) return NC_ENULLABUF;
    return NC_NOERR;
}

static int retain_types(ncp_op *ops, int n)
{
    int k, err = NC_NOERR;
    for (k = 0; k < n && err == NC_NOERR; k++) {
        if (ops[k].is_put) continue;
        err = ops[k].group ? retain_type(&((varn_group *)ops[k].group)->mem)
                           : retain_type(&ops[k].mem);
    }
    return err;
}

int ncp_ops_build(ncp_dataset *ds, const ncp_data_args *a,
                  ncp_post_kind kind, ncp_op **out, int *nout)
{
    int err, k, n = a->kind == NCP_SHAPE_VARN ? a->num : 1;
    ncp_var *v = NULL;
    ncp_op *ops;
    *out = NULL;
    *nout = 0;
    if ((err = check_mode(ds, a, kind)) != NC_NOERR) return err;
    if ((err = ncp_var_get(ds, a->varid, &v)) != NC_NOERR) return err;
    if ((err = check_early(ds, a, v, kind)) != NC_NOERR) return err;
    if (n < 0) n = 0; /* as PnetCDF: a negative num asks for nothing */
    if (!(ops = calloc((size_t)(n > 0 ? n : 1), sizeof(*ops))))
        return NC_ENOMEM;
    if (a->kind == NCP_SHAPE_VARN) {
        err = build_varn(ds, a, v, kind, n, ops);
    } else {
        err = op_coords(ds, a, v, ops);
        if (err == NC_NOERR) err = op_buffer(ds, a, v, kind, NULL, ops);
        if (err != NC_NOERR) {
            ops[0].status = err;
            ncp_op_free(ds, ops);
        }
    }
    if (err == NC_NOERR && kind != NCP_POST_BLOCKING &&
        (err = retain_types(ops, n)) != NC_NOERR) {
        for (k = 0; k < n; k++) {
            ops[k].status = err;
            ncp_op_free(ds, &ops[k]);
        }
    }
    if (err != NC_NOERR) {
        free(ops);
        return err;
    }
    *out = ops;
    *nout = n;
    return NC_NOERR;
}
