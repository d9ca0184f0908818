/*
 * header.c -- lifetime of the in-memory header model (init, free, deep
 * copy), the small builders of ncp_header_build.h, and finding and
 * renaming entries by name through the header's name indexes.
 *
 * Owns: every allocation hanging off an ncp_header.  All of it comes from
 * malloc/realloc and is released with free, so the dataset layer may grow
 * the arrays with realloc in place.  A zero-length array may be NULL.
 *
 * Invariants:
 *  1. After ncp_header_init or ncp_header_free the header is empty and
 *     freeing it again is harmless.
 *  2. ncp_header_copy builds the copy aside and publishes it only when every
 *     allocation succeeded, so a failed copy leaves dst as it was.
 *  3. The builders append at the end and never reorder, because ids are
 *     positions.
 *  4. A name index is owned by the header or list it indexes: freed with
 *     it, never copied.  Appends need not touch it (it catches up); only
 *     the renames and the removal here change names in place, and they
 *     keep it in step.
 */
#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <pnetcdf.h>

#include "ncp_header.h"
#include "ncp_header_build.h"
#include "ncp_xconv.h"

void ncp_header_init(ncp_header *h, int format)
{
    memset(h, 0, sizeof *h);
    h->format = format;
    h->unlimdimid = -1;
}

void ncp_hdr_attlist_free(ncp_attlist *l)
{
    int i;
    for (i = 0; i < l->n; i++) {
        free(l->a[i].name);
        free(l->a[i].xvalue);
    }
    free(l->a);
    ncp_index_forget(&l->index);
    memset(l, 0, sizeof *l);
}

static void var_free(ncp_var *v)
{
    free(v->name);
    free(v->dimids);
    free(v->shape);
    ncp_hdr_attlist_free(&v->atts);
}

void ncp_header_free(ncp_header *h)
{
    int i, format = h->format;
    for (i = 0; i < h->ndims; i++) free(h->dims[i].name);
    free(h->dims);
    ncp_hdr_attlist_free(&h->gatts);
    for (i = 0; i < h->nvars; i++) var_free(&h->vars[i]);
    free(h->vars);
    ncp_index_forget(&h->dim_index);
    ncp_index_forget(&h->var_index);
    ncp_header_init(h, format);
}

/* malloc that treats a zero-byte request as "no array" rather than as a
 * failure, so empty lists copy as NULL. */
static int dup_bytes(void **dst, const void *src, size_t n)
{
    int err = NC_NOERR;
    *dst = NULL;
    if (n == 0 || src == NULL) goto done;
    *dst = malloc(n);
    if (*dst == NULL) {
        err = NC_ENOMEM;
        goto done;
    }
    memcpy(*dst, src, n);
done:
    return err;
}

static int dup_name(char **dst, const char *src)
{
    int err = NC_NOERR;
    size_t n;
    *dst = NULL;
    if (src == NULL) goto done;
    n = strlen(src) + 1;
    *dst = malloc(n);
    if (*dst == NULL) err = NC_ENOMEM;
    else memcpy(*dst, src, n);
done:
    return err;
}

static int attlist_copy(ncp_attlist *dst, const ncp_attlist *src)
{
    int err = NC_NOERR, i;
    ncp_attlist t;
    memset(&t, 0, sizeof t);
    if (src->n <= 0) goto done;
    t.a = calloc((size_t)src->n, sizeof *t.a);
    if (t.a == NULL) {
        err = NC_ENOMEM;
        goto done;
    }
    t.cap = src->n;
    for (i = 0; i < src->n && err == NC_NOERR; i++) {
        const ncp_att *s = &src->a[i];
        int xs = ncp_xtype_size(s->xtype);
        t.a[i] = *s;
        t.a[i].name = NULL;
        t.a[i].xvalue = NULL;
        t.n = i + 1;
        err = dup_name(&t.a[i].name, s->name);
        if (err == NC_NOERR && s->nelems > 0 && xs > 0) {
            if ((uint64_t)s->nelems > SIZE_MAX / (size_t)xs)
                err = NC_ENOMEM;
            else
                err = dup_bytes(&t.a[i].xvalue, s->xvalue,
                                (size_t)s->nelems * (size_t)xs);
        }
    }
done:
    if (err != NC_NOERR) ncp_hdr_attlist_free(&t);
    *dst = t;
    return err;
}

static int var_copy(ncp_var *dst, const ncp_var *src)
{
    int err;
    size_t nd = src->ndims > 0 ? (size_t)src->ndims : 0;
    ncp_var t = *src;
    t.name = NULL;
    t.dimids = NULL;
    t.shape = NULL;
    memset(&t.atts, 0, sizeof t.atts);
    err = dup_name(&t.name, src->name);
    if (err == NC_NOERR)
        err = dup_bytes((void **)&t.dimids, src->dimids, nd * sizeof(int));
    if (err == NC_NOERR)
        err = dup_bytes((void **)&t.shape, src->shape, nd * sizeof(int64_t));
    if (err == NC_NOERR) err = attlist_copy(&t.atts, &src->atts);
    if (err != NC_NOERR) var_free(&t);
    *dst = t;
    return err;
}

int ncp_header_copy(ncp_header *dst, const ncp_header *src)
{
    int err = NC_NOERR, i;
    ncp_header t = *src;
    t.ndims = 0;
    t.dims = NULL;
    t.nvars = 0;
    t.vars = NULL;
    t.dims_cap = src->ndims;
    t.vars_cap = src->nvars;
    memset(&t.gatts, 0, sizeof t.gatts);
    memset(&t.dim_index, 0, sizeof t.dim_index);
    memset(&t.var_index, 0, sizeof t.var_index);

    if (src->ndims > 0) {
        t.dims = calloc((size_t)src->ndims, sizeof *t.dims);
        if (t.dims == NULL) err = NC_ENOMEM;
        for (i = 0; i < src->ndims && err == NC_NOERR; i++) {
            t.ndims = i + 1;
            t.dims[i].len = src->dims[i].len;
            err = dup_name(&t.dims[i].name, src->dims[i].name);
        }
    }
    if (err == NC_NOERR) err = attlist_copy(&t.gatts, &src->gatts);
    if (err == NC_NOERR && src->nvars > 0) {
        t.vars = calloc((size_t)src->nvars, sizeof *t.vars);
        if (t.vars == NULL) err = NC_ENOMEM;
        for (i = 0; i < src->nvars && err == NC_NOERR; i++) {
            err = var_copy(&t.vars[i], &src->vars[i]);
            if (err == NC_NOERR) t.nvars = i + 1;
        }
    }
    if (err != NC_NOERR) ncp_header_free(&t);
    else *dst = t;
    return err;
}

/* Room for entry n of an array with *cap entries allocated (a cap below n
 * means exactly n): doubling, so n appends cost O(n) in all. */
static int grow(void **arr, int *cap, int n, size_t size)
{
    int err = NC_NOERR, ncap;
    void *p;
    if (n < *cap) goto done;
    ncap = n < 4 ? 4 : (n > INT_MAX / 2 ? INT_MAX : 2 * n);
    if ((size_t)ncap > SIZE_MAX / size) {
        err = NC_ENOMEM;
        goto done;
    }
    p = realloc(*arr, (size_t)ncap * size);
    if (p == NULL) {
        err = NC_ENOMEM;
        goto done;
    }
    *arr = p;
    *cap = ncap;
done:
    return err;
}

int64_t ncp_dim_max_len(int format)
{
    return format == NCP_CDF5   ? INT64_MAX
           : format == NCP_CDF2 ? (int64_t)UINT32_MAX - 3
                                : (int64_t)INT_MAX - 3;
}

int ncp_hdr_add_dim(ncp_header *h, const char *name, int64_t len, int *dimidp)
{
    int err = NC_NOERR;
    char *copy = NULL;
    ncp_dim *dims;

    if (name == NULL || len < 0) {
        err = name == NULL ? NC_EBADNAME : NC_EDIMSIZE;
        goto done;
    }
    if (len == 0 && h->unlimdimid >= 0) {
        err = NC_EUNLIMIT;
        goto done;
    }
    if (h->ndims >= NC_MAX_DIMS) {
        err = NC_EMAXDIMS;
        goto done;
    }
    if ((err = dup_name(&copy, name)) != NC_NOERR) goto done;
    if ((err = grow((void **)&h->dims, &h->dims_cap, h->ndims,
                    sizeof *dims)) != NC_NOERR)
        goto done;
    dims = h->dims;
    dims[h->ndims].name = copy;
    dims[h->ndims].len = len;
    copy = NULL;
    if (len == 0) h->unlimdimid = h->ndims;
    if (dimidp) *dimidp = h->ndims;
    h->ndims++;
done:
    free(copy);
    return err;
}

int ncp_hdr_add_var(ncp_header *h, const char *name, int xtype, int ndims,
                    const int *dimids, int *varidp)
{
    int err = NC_NOERR, i;
    ncp_var v;
    ncp_var *vars;

    memset(&v, 0, sizeof v);
    if (name == NULL) {
        err = NC_EBADNAME;
        goto done;
    }
    if ((err = ncp_xtype_check(xtype, h->format)) != NC_NOERR) goto done;
    if (ndims < 0 || (ndims > 0 && dimids == NULL)) {
        err = NC_EINVAL;
        goto done;
    }
    if (h->nvars >= NC_MAX_VARS) {
        err = NC_EMAXVARS;
        goto done;
    }
    for (i = 0; i < ndims; i++) {
        if (dimids[i] < 0 || dimids[i] >= h->ndims) err = NC_EBADDIM;
        else if (i > 0 && dimids[i] == h->unlimdimid) err = NC_EUNLIMPOS;
        if (err != NC_NOERR) goto done;
    }
    v.xtype = xtype;
    v.ndims = ndims;
    v.nelems_per_rec = 1;
    err = dup_name(&v.name, name);
    if (err == NC_NOERR)
        err = dup_bytes((void **)&v.dimids, dimids, (size_t)ndims * sizeof(int));
    if (err == NC_NOERR && ndims > 0) {
        v.shape = malloc((size_t)ndims * sizeof(int64_t));
        if (v.shape == NULL) err = NC_ENOMEM;
    }
    if (err != NC_NOERR) goto done;
    v.is_record = ndims > 0 && dimids[0] == h->unlimdimid;
    for (i = 0; i < ndims; i++) {
        int64_t len = h->dims[dimids[i]].len;
        v.shape[i] = len;
        if (i == 0 && v.is_record) continue;
        if (len > 0 && v.nelems_per_rec > INT64_MAX / len) {
            err = NC_EVARSIZE;
            goto done;
        }
        v.nelems_per_rec *= len;
    }
    /* Its bytes, padded to 4, must fit in int64 in every format. */
    if (v.nelems_per_rec > (INT64_MAX - 3) / ncp_xtype_size(xtype)) {
        err = NC_EVARSIZE;
        goto done;
    }
    if ((err = grow((void **)&h->vars, &h->vars_cap, h->nvars,
                    sizeof *vars)) != NC_NOERR)
        goto done;
    vars = h->vars;
    vars[h->nvars] = v;
    memset(&v, 0, sizeof v);
    if (varidp) *varidp = h->nvars;
    h->nvars++;
done:
    var_free(&v);
    return err;
}

int ncp_hdr_add_att(ncp_attlist *l, const char *name, int xtype,
                    int64_t nelems, const void *xvalue)
{
    int err = NC_NOERR;
    int xs = ncp_xtype_size(xtype);
    ncp_att a;

    memset(&a, 0, sizeof a);
    if (name == NULL) {
        err = NC_EBADNAME;
        goto done;
    }
    if (xs == 0) {
        err = NC_EBADTYPE;
        goto done;
    }
    if (nelems < 0 || (nelems > 0 && xvalue == NULL) ||
        (uint64_t)nelems > SIZE_MAX / (size_t)xs) {
        err = NC_EINVAL;
        goto done;
    }
    if (l->n >= NC_MAX_ATTRS) {
        err = NC_EMAXATTS;
        goto done;
    }
    if (l->n >= l->cap) {
        int ncap = l->cap < 4 ? 4 : (l->cap > INT_MAX / 2 ? INT_MAX : l->cap * 2);
        ncp_att *na = realloc(l->a, (size_t)ncap * sizeof *na);
        if (na == NULL) {
            err = NC_ENOMEM;
            goto done;
        }
        l->a = na;
        l->cap = ncap;
    }
    a.xtype = xtype;
    a.nelems = nelems;
    err = dup_name(&a.name, name);
    if (err == NC_NOERR)
        err = dup_bytes(&a.xvalue, xvalue, (size_t)nelems * (size_t)xs);
    if (err != NC_NOERR) goto done;
    l->a[l->n++] = a;
    memset(&a, 0, sizeof a);
done:
    free(a.name);
    free(a.xvalue);
    return err;
}

static ncp_names_view dims_view(const ncp_header *h)
{
    ncp_names_view v = {h->dims, sizeof *h->dims, offsetof(ncp_dim, name),
                        h->ndims};
    return v;
}

static ncp_names_view vars_view(const ncp_header *h)
{
    ncp_names_view v = {h->vars, sizeof *h->vars, offsetof(ncp_var, name),
                        h->nvars};
    return v;
}

static ncp_names_view atts_view(const ncp_attlist *l)
{
    ncp_names_view v = {l->a, sizeof *l->a, offsetof(ncp_att, name), l->n};
    return v;
}

int ncp_hdr_find_dim(ncp_header *h, const char *key)
{
    return ncp_index_find(&h->dim_index, dims_view(h), key);
}

int ncp_hdr_find_var(ncp_header *h, const char *key)
{
    return ncp_index_find(&h->var_index, vars_view(h), key);
}

int ncp_hdr_find_att(ncp_attlist *l, const char *key)
{
    return ncp_index_find(&l->index, atts_view(l), key);
}

void ncp_hdr_rename_dim(ncp_header *h, int i, char *newname)
{
    char *old = h->dims[i].name;
    h->dims[i].name = newname;
    ncp_index_renamed(&h->dim_index, dims_view(h), i, old);
    free(old);
}

void ncp_hdr_rename_var(ncp_header *h, int i, char *newname)
{
    char *old = h->vars[i].name;
    h->vars[i].name = newname;
    ncp_index_renamed(&h->var_index, vars_view(h), i, old);
    free(old);
}

void ncp_hdr_rename_att(ncp_attlist *l, int i, char *newname)
{
    char *old = l->a[i].name;
    l->a[i].name = newname;
    ncp_index_renamed(&l->index, atts_view(l), i, old);
    free(old);
}

void ncp_hdr_del_att(ncp_attlist *l, int i)
{
    free(l->a[i].name);
    free(l->a[i].xvalue);
    memmove(&l->a[i], &l->a[i + 1], (size_t)(l->n - i - 1) * sizeof *l->a);
    l->n--;
    /* every later position moved */
    ncp_index_forget(&l->index);
}
