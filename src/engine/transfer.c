/*
 * transfer.c -- a blocking put or get, end to end: validate, describe the
 * memory side, convert to (from) the external representation, move the
 * bytes in one MPI-IO call, then agree on numrecs.
 *
 * Collective calls never leave a rank behind: a rank whose arguments are
 * bad still joins the collective I/O with an empty request, and returns its
 * own error code afterwards (PnetCDF's behaviour).
 *
 * Copies are avoided where they can be: when the buffer is contiguous and
 * holds the variable's own type, a put byte-swaps the user's buffer in
 * place and swaps it back after the write, and a get reads straight into
 * the user's buffer and swaps there.
 */
#include <stdlib.h>
#include <string.h>

#include "../access/ncp_access.h"
#include "../dataset/ncp_dataset.h"
#include "ncp_engine.h"
#include "pnetcdf.h"

/* Smallest put whose buffer is byte-swapped in place (see plan_build). */
#define NCP_SWAP_IN_PLACE_MIN ((int64_t)64 << 10)

typedef struct xfer_plan {
    ncp_req req;
    ncp_membuf mem;
    ncp_extents ext;
    int xtype;
    int xsz;
    int in_place; /* the user's buffer is the I/O buffer */
    void *xbuf;   /* external-form bytes, ext.nbytes long */
    void *tmp;    /* contiguous memory-type staging (pack/imap) */
} xfer_plan;

static void plan_free(xfer_plan *p)
{
    ncp_req_free(&p->req);
    ncp_extents_free(&p->ext);
    if (!p->in_place) free(p->xbuf);
    free(p->tmp);
}

/* The buffer's elements are the variable's external type, byte order
 * aside, so conversion is at most a byte swap. */
static int same_type(int mtype, int xtype)
{
    if (mtype == (int)ncp_mtype_of_xtype(xtype)) return 1;
    return mtype == NCP_M_LONG && xtype == NC_INT64 && sizeof(long) == 8;
}

/* Mode errors: the same on every rank, so they need no collective. */
static int check_mode(const ncp_dataset *ds, const ncp_data_args *a)
{
    int err = NC_NOERR;
    if (a->is_put) err = ncp_require_write(ds);
    if (err == NC_NOERR) err = ncp_require_data(ds, a->collective);
    return err;
}

/* Everything that can fail before I/O; on error nothing is queued. */
static int plan_build(ncp_dataset *ds, const ncp_data_args *a, ncp_var *v,
                      xfer_plan *p)
{
    int err;
    size_t msz;
    p->xtype = v->xtype;
    p->xsz = ncp_xtype_size(v->xtype);
    err = ncp_req_build(&ds->hdr, v, a, &p->req);
    if (err == NC_NOERR)
        err = ncp_membuf_describe(a, v->xtype, p->req.nelems, &p->mem);
    if (err != NC_NOERR) return err;
    if ((p->mem.mtype == NCP_M_TEXT) != (v->xtype == NC_CHAR)) return NC_ECHAR;
    if (p->req.nelems > 0 && !a->buf) return NC_ENULLBUF;
    if ((err = ncp_req_extents(&ds->hdr, &p->req, &p->ext)) != NC_NOERR)
        return err;
    msz = ncp_mtype_size((ncp_mtype)p->mem.mtype);
    p->in_place = p->mem.contiguous && !p->req.imap &&
                  same_type(p->mem.mtype, v->xtype);
    /* A put swaps the caller's (const) buffer in place only when it is
       large: small constant arrays may live in read-only memory. */
    if (a->is_put && p->xsz > 1 && p->ext.nbytes < NCP_SWAP_IN_PLACE_MIN)
        p->in_place = 0;
    if (!p->mem.contiguous || p->req.imap) {
        p->tmp = malloc((size_t)p->req.nelems * msz + 1);
        if (!p->tmp) return NC_ENOMEM;
    }
    if (p->in_place) {
        p->xbuf = a->buf;
    } else if (!(p->xbuf = malloc((size_t)p->ext.nbytes + 1))) {
        return NC_ENOMEM;
    }
    return NC_NOERR;
}

/* The user's elements as one contiguous memory-type buffer. */
static int gather_user(ncp_dataset *ds, xfer_plan *p, const void **src)
{
    int err = NC_NOERR;
    size_t msz = ncp_mtype_size((ncp_mtype)p->mem.mtype);
    void *packed = p->mem.user;
    if (!p->mem.contiguous) {
        err = ncp_membuf_pack(&p->mem, ds->comm, p->tmp,
                              p->req.nelems * (int64_t)msz);
        packed = p->tmp;
    }
    if (err == NC_NOERR && p->req.imap) {
        /* imap addresses the (packed) user elements; gather in order. */
        void *scratch = malloc((size_t)p->req.nelems * msz + 1);
        if (!scratch) return NC_ENOMEM;
        if (packed == p->tmp) memcpy(scratch, p->tmp, p->req.nelems * msz);
        err = ncp_req_imap_copy(&p->req, msz,
                                packed == p->tmp ? scratch : packed, p->tmp,
                                1);
        free(scratch);
        packed = p->tmp;
    }
    *src = packed;
    return err;
}

/* Fill xbuf for a put; returns NC_ERANGE (data still converted) or
 * another error. */
static int encode_put(ncp_dataset *ds, ncp_var *v, xfer_plan *p)
{
    unsigned char fill[8];
    const void *src;
    int err;
    if (p->in_place) {
        ncp_x_swap_inplace(p->xbuf, p->req.nelems, p->xsz);
        return NC_NOERR;
    }
    if ((err = gather_user(ds, p, &src)) != NC_NOERR) return err;
    ncp_var_fill_value(v, fill);
    return ncp_x_put(p->xtype, p->xbuf, (ncp_mtype)p->mem.mtype, src,
                     p->req.nelems, fill, ds->hdr.format);
}

/* After a get: external bytes in xbuf to the user's elements. */
static int decode_get(ncp_dataset *ds, xfer_plan *p)
{
    int err, conv;
    size_t msz = ncp_mtype_size((ncp_mtype)p->mem.mtype);
    void *dst = (p->mem.contiguous && !p->req.imap) ? p->mem.user : p->tmp;
    if (p->in_place) {
        ncp_x_swap_inplace(p->xbuf, p->req.nelems, p->xsz);
        return NC_NOERR;
    }
    conv = ncp_x_get(p->xtype, p->xbuf, (ncp_mtype)p->mem.mtype, dst,
                     p->req.nelems, ds->hdr.format);
    if (conv != NC_NOERR && conv != NC_ERANGE) return conv;
    err = NC_NOERR;
    if (p->req.imap) {
        if (p->mem.contiguous) {
            err = ncp_req_imap_copy(&p->req, msz, p->mem.user, p->tmp, 0);
        } else {
            /* Unpacked order is the packed user order: scatter via imap
               into a packed image, then unpack. */
            void *img = malloc((size_t)p->req.nelems * msz + 1);
            if (!img) return NC_ENOMEM;
            err = ncp_membuf_pack(&p->mem, ds->comm, img,
                                  p->req.nelems * (int64_t)msz);
            if (err == NC_NOERR)
                err = ncp_req_imap_copy(&p->req, msz, img, p->tmp, 0);
            if (err == NC_NOERR)
                err = ncp_membuf_unpack(&p->mem, ds->comm, img,
                                        p->req.nelems * (int64_t)msz);
            free(img);
        }
    } else if (!p->mem.contiguous) {
        err = ncp_membuf_unpack(&p->mem, ds->comm, p->tmp,
                                p->req.nelems * (int64_t)msz);
    }
    return err != NC_NOERR ? err : conv;
}

/*
 * After a put, record growth: collective calls agree at once.  As in
 * PnetCDF 1.12, an empty collective request still counts its start (a
 * rank may extend the file without data), an empty independent one not.
 */
static int grow_numrecs(ncp_dataset *ds, const xfer_plan *p, int planned,
                        int collective)
{
    if (planned && p->req.var && p->req.var->is_record &&
        (collective || p->req.nelems > 0) &&
        p->req.end_rec > ds->hdr.numrecs) {
        ds->hdr.numrecs = p->req.end_rec;
        ds->flags |= NCP_F_NUMRECS;
    }
    return collective ? ncp_numrecs_agree(ds) : NC_NOERR;
}

int ncp_data_access(const ncp_data_args *a)
{
    int err, conv = NC_NOERR, ioerr = NC_NOERR, planned = 0;
    ncp_dataset *ds;
    ncp_var *v = NULL;
    xfer_plan p;
    ncp_extents none;

    memset(&p, 0, sizeof p);
    ncp_extents_init(&none);
    if ((err = ncp_dataset_get(a->ncid, &ds)) != NC_NOERR) return err;
    if ((err = check_mode(ds, a)) != NC_NOERR) return err;
    err = ncp_var_get(ds, a->varid, &v);
    if (err == NC_NOERR) err = plan_build(ds, a, v, &p);
    if (err != NC_NOERR && !a->collective) return err;
    planned = err == NC_NOERR;
    if (planned && a->is_put) {
        conv = encode_put(ds, v, &p);
        if (conv != NC_NOERR && conv != NC_ERANGE) {
            err = conv;
            planned = 0;
        }
    }
    if (a->collective)
        ioerr = ncp_io_xfer_all(&ds->file, a->is_put, planned ? &p.ext : &none,
                                p.xbuf);
    else if (planned)
        ioerr = ncp_io_xfer_self(&ds->file, a->is_put, &p.ext, p.xbuf);
    if (planned && a->is_put && p.in_place)
        ncp_x_swap_inplace(p.xbuf, p.req.nelems, p.xsz); /* restore */
    if (planned && ioerr == NC_NOERR && !a->is_put) conv = decode_get(ds, &p);
    if (a->is_put) {
        int nerr = grow_numrecs(ds, &p, planned && ioerr == NC_NOERR,
                                a->collective);
        if (ioerr == NC_NOERR) ioerr = nerr;
    }
    if (planned && ioerr == NC_NOERR) {
        if (a->is_put) ds->put_bytes += p.ext.nbytes;
        else ds->get_bytes += p.ext.nbytes;
    }
    plan_free(&p);
    if (err != NC_NOERR) return err;
    if (ioerr != NC_NOERR) return ioerr;
    return conv;
}
