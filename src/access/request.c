/*
 * request.c -- coordinates of one request: validation against the
 * variable's shape, the file extents they cover, and the imap walk.
 *
 * Extents come out in ascending file order because the walk is row-major
 * with positive strides and a record variable's records are laid out in
 * record order.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ncp_access.h"
#include "pnetcdf.h"

void ncp_req_free(ncp_req *r)
{
    if (r->given) ncp_extents_free(r->given);
    free(r->given);
    free(r->start);
    memset(r, 0, sizeof(*r));
}

/* Fill r's arrays from the call's form (var, var1, vara, vars, varm). */
static int take_coords(const ncp_header *h, const ncp_var *v,
                       const ncp_data_args *a, ncp_req *r)
{
    int i, n = v->ndims;
    for (i = 0; i < n; i++) {
        int64_t len = v->shape[i];
        if (i == 0 && v->is_record) len = h->numrecs;
        r->start[i] = a->kind == NCP_SHAPE_VAR ? 0 : a->start[i];
        switch (a->kind) {
        case NCP_SHAPE_VAR: r->count[i] = len; break;
        case NCP_SHAPE_VAR1: r->count[i] = 1; break;
        default: r->count[i] = a->count[i]; break;
        }
        r->stride[i] = (a->kind >= NCP_SHAPE_VARS && a->stride)
                           ? a->stride[i] : 1;
    }
    if (a->kind == NCP_SHAPE_VARM && a->imap) {
        r->imap = r->start + 3 * n;
        memcpy(r->imap, a->imap, (size_t)n * sizeof(MPI_Offset));
    }
    return NC_NOERR;
}

/*
 * CDF-1 and CDF-2 store numrecs in 32 bits, and PnetCDF 1.12 keeps it
 * below 2^31: a record index of 2^32 or more is a bad coordinate, and a
 * request that would take numrecs past INT32_MAX overflows.  Checked
 * before anything is written, so a refused request changes nothing.
 */
static int check_rec_limit(MPI_Offset st, MPI_Offset ct, MPI_Offset sd,
                           int64_t numrecs, int is_put)
{
    if (st > (MPI_Offset)UINT32_MAX) return NC_EINVALCOORDS;
    if (st < 0 || ct < 0 || sd <= 0) return NC_NOERR; /* check_dim's */
    if (!is_put && st >= numrecs) return NC_NOERR;    /* a bad start first */
    if (ct == 0) return is_put && st > INT32_MAX ? NC_EINTOVERFLOW : NC_NOERR;
    if (st > INT32_MAX - 1 || (ct - 1) > (INT32_MAX - 1 - st) / sd)
        return NC_EINTOVERFLOW;
    return NC_NOERR;
}

/* Bounds of one dimension.  The record dimension of a put is unbounded. */
static int check_dim(const ncp_req *r, int i, int64_t len, int unbounded,
                     int single)
{
    MPI_Offset st = r->start[i], ct = r->count[i], sd = r->stride[i];
    /* start == len is allowed only with a zero count (PnetCDF's relaxed
       coordinate bound); a single element must exist. */
    if (st < 0) return NC_EINVALCOORDS;
    if (!unbounded && (st > len || (st == len && (single || ct > 0))))
        return NC_EINVALCOORDS;
    if (ct < 0) return NC_ENEGATIVECNT;
    if (sd <= 0) return NC_ESTRIDE;
    if (ct > 0 && !unbounded && (ct - 1) > (len - 1 - st) / sd)
        return NC_EEDGE;
    if (ct > 0 && unbounded && (ct - 1) > (INT64_MAX - 1 - st) / sd)
        return NC_EEDGE;
    return NC_NOERR;
}

/* A call with no count: its start is judged first, as a single
 * element's (a record put's record is unbounded), then the count. */
static int starts_only(const ncp_header *h, const ncp_var *v,
                       const ncp_data_args *a)
{
    int i;
    for (i = 0; i < v->ndims; i++) {
        int rec = i == 0 && v->is_record;
        int64_t len = rec ? h->numrecs : v->shape[i];
        MPI_Offset st = a->start[i];
        if (st < 0 || (!(rec && a->is_put) && st >= len))
            return NC_EINVALCOORDS;
        if (rec && h->format != NCP_CDF5 && st > (MPI_Offset)UINT32_MAX)
            return NC_EINVALCOORDS;
    }
    return NC_EEDGE;
}

int ncp_req_build(const ncp_header *h, const ncp_var *v,
                  const ncp_data_args *a, ncp_req *r)
{
    int err = NC_NOERR, i, n = v->ndims;
    if (a->kind == NCP_SHAPE_VARD) {
        if ((err = ncp_req_build_vard(h, v, a, r)) != NC_NOERR) ncp_req_free(r);
        return err;
    }
    memset(r, 0, sizeof(*r));
    r->var = v;
    r->ndims = n;
    /* PnetCDF 1.12 reports a NULL start or count as bad coordinates. */
    if (a->kind != NCP_SHAPE_VAR && n > 0 && !a->start) return NC_EINVALCOORDS;
    if (a->kind >= NCP_SHAPE_VARA && n > 0 && !a->count)
        return starts_only(h, v, a);
    r->start = malloc((size_t)(4 * (n ? n : 1)) * sizeof(MPI_Offset));
    if (!r->start) return NC_ENOMEM;
    r->count = r->start + n;
    r->stride = r->start + 2 * n;
    take_coords(h, v, a, r);
    r->nelems = 1;
    for (i = 0; i < n && err == NC_NOERR; i++) {
        int rec = i == 0 && v->is_record;
        int64_t len = rec ? h->numrecs : v->shape[i];
        if (rec && h->format != NCP_CDF5)
            err = check_rec_limit(r->start[0], r->count[0], r->stride[0],
                                  len, a->is_put);
        if (err == NC_NOERR)
            err = check_dim(r, i, len, rec && a->is_put,
                            a->kind == NCP_SHAPE_VAR1);
        if (err == NC_NOERR && r->count[i] > 0 &&
            r->nelems > INT64_MAX / r->count[i])
            err = NC_EINTOVERFLOW;
        r->nelems *= r->count[i];
    }
    /* the request's bytes must be countable too */
    if (err == NC_NOERR && r->nelems > INT64_MAX / 8) err = NC_EINTOVERFLOW;
    if (err == NC_NOERR && v->is_record)
        r->end_rec = r->count[0] > 0
                         ? r->start[0] + (r->count[0] - 1) * r->stride[0] + 1
                         : r->start[0];
    if (err != NC_NOERR) ncp_req_free(r);
    return err;
}

/*
 * The dimension whose run each odometer step of ncp_req_extents emits.
 * Dimensions inside it are whole (start 0, full count, stride 1), so a
 * request for whole rows, planes or slabs yields one extent per step, not
 * one per row; the record dimension is never folded (records are
 * recsize apart, not one slab).
 */
static int run_dim(const ncp_var *v, const ncp_req *r)
{
    int d = r->ndims - 1;

    if (r->stride[d] != 1)
        return d;
    while (d > 0 && !(d == 1 && v->is_record) && r->stride[d - 1] == 1 &&
           r->start[d] == 0 && r->count[d] == v->shape[d])
        d--;
    return d;
}

/* A vard request's extents, moved to the variable's begin. */
static int given_extents(int64_t begin, const ncp_extents *g, ncp_extents *e)
{
    int64_t i;
    int err = NC_NOERR;
    for (i = 0; i < g->n && err == NC_NOERR; i++)
        err = ncp_extents_add(e, begin + g->off[i], g->len[i]);
    return err;
}

int64_t ncp_req_nextents(const ncp_req *r)
{
    const ncp_var *v = r->var;
    int64_t run = 1;
    int top, i;
    if (r->nelems == 0) return 0;
    if (r->given) return r->given->n;
    if (r->ndims == 0) return 1;
    top = run_dim(v, r);
    if ((r->ndims == 1 && v->is_record) || r->stride[top] != 1)
        return r->nelems;
    for (i = top; i < r->ndims; i++) run *= r->count[i];
    return r->nelems / run;
}

/*
 * Walk the dimensions outside run_dim as an odometer; each step emits
 * that dimension's run (one extent when its stride is 1, else one per
 * element).
 */
int ncp_req_extents(const ncp_header *h, const ncp_req *r, ncp_extents *e)
{
    const ncp_var *v = r->var;
    int n = r->ndims, last = n - 1, top, i, err = NC_NOERR;
    int64_t xsz = ncp_xtype_size(v->xtype);
    int64_t *idx, *pitch; /* odometer; elements per step of each dim */

    if (r->nelems == 0) return NC_NOERR;
    if (r->given) return given_extents(v->begin, r->given, e);
    if (n == 0) return ncp_extents_add(e, v->begin, xsz);
    idx = calloc((size_t)(2 * n), sizeof(int64_t));
    if (!idx) return NC_ENOMEM;
    pitch = idx + n;
    pitch[last] = 1;
    for (i = last - 1; i >= 0; i--)
        pitch[i] = pitch[i + 1] * v->shape[i + 1];
    top = run_dim(v, r);
    for (;;) {
        int64_t off = v->begin, k;
        for (i = 0; i < top; i++) {
            int64_t c = r->start[i] + idx[i] * r->stride[i];
            if (i == 0 && v->is_record)
                off += c * h->recsize;
            else
                off += c * pitch[i] * xsz;
        }
        if (last == 0 && v->is_record) {
            for (k = 0; k < r->count[0] && err == NC_NOERR; k++)
                err = ncp_extents_add(
                    e, off + (r->start[0] + k * r->stride[0]) * h->recsize,
                    xsz);
        } else if (r->stride[top] == 1) {
            err = ncp_extents_add(e, off + r->start[top] * pitch[top] * xsz,
                                  r->count[top] * pitch[top] * xsz);
        } else {
            for (k = 0; k < r->count[last] && err == NC_NOERR; k++)
                err = ncp_extents_add(
                    e, off + (r->start[last] + k * r->stride[last]) * xsz,
                    xsz);
        }
        if (err != NC_NOERR) break;
        for (i = top - 1; i >= 0; i--) {
            if (++idx[i] < r->count[i]) break;
            idx[i] = 0;
        }
        if (i < 0) break;
    }
    free(idx);
    return err;
}

int ncp_req_imap_copy(const ncp_req *r, size_t esize, void *user,
                      void *contig, int to_contig)
{
    int n = r->ndims, i;
    int64_t *idx = calloc((size_t)(n ? n : 1), sizeof(int64_t)), k;
    char *u = user, *c = contig;
    if (!idx) return NC_ENOMEM;
    for (k = 0; k < r->nelems; k++) {
        int64_t pos = 0;
        for (i = 0; i < n; i++) pos += idx[i] * r->imap[i];
        if (to_contig)
            memcpy(c + k * esize, u + pos * esize, esize);
        else
            memcpy(u + pos * esize, c + k * esize, esize);
        for (i = n - 1; i >= 0; i--) {
            if (++idx[i] < r->count[i]) break;
            idx[i] = 0;
        }
    }
    free(idx);
    return NC_NOERR;
}
