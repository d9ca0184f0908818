/*
 * dtype_flat.c -- an MPI datatype's type map as byte extents.
 *
 * The vard calls describe the file side of a request with an MPI
 * datatype; the engine wants (offset, length) extents.  This walks the
 * type's constructor tree (MPI_Type_get_envelope / get_contents): each
 * child is flattened once, at displacement 0, and then copied to every
 * place the parent puts it, so a vector of a million elements decodes its
 * element once.  The extents come out in type-map order (the order in
 * which a buffer's bytes meet the file), with adjacent ones merged; no
 * sorting happens here, so the caller can tell a type map that runs
 * backwards.
 *
 * Constructors without a rule here (darray, the deprecated *_INTEGER
 * forms, anything newer) are flattened by probing: MPI_Pack of a buffer
 * whose bytes spell their own position shows where each packed byte came
 * from.  That costs memory in the type's true extent, which for darray is
 * the global array the type describes.
 */
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ncp_access.h"
#include "pnetcdf.h"

/* What get_contents returned for one constructor; types[] are freed. */
typedef struct contents {
    int comb, ni, na, nd;
    int *ints;
    MPI_Aint *aints;
    MPI_Datatype *types;
} contents;

static int flat(MPI_Datatype t, ncp_extents *out, MPI_Datatype *base);

static void contents_free(contents *c)
{
    int i;
    for (i = 0; c->types && i < c->nd; i++) {
        int ni, na, nd, comb;
        MPI_Type_get_envelope(c->types[i], &ni, &na, &nd, &comb);
        if (comb != MPI_COMBINER_NAMED) MPI_Type_free(&c->types[i]);
    }
    free(c->ints);
    free(c->aints);
    free(c->types);
    memset(c, 0, sizeof(*c));
}

static int contents_get(MPI_Datatype t, contents *c)
{
    memset(c, 0, sizeof(*c));
    MPI_Type_get_envelope(t, &c->ni, &c->na, &c->nd, &c->comb);
    if (c->comb == MPI_COMBINER_NAMED) return NC_NOERR;
    c->ints = malloc((size_t)(c->ni + 1) * sizeof(int));
    c->aints = malloc((size_t)(c->na + 1) * sizeof(MPI_Aint));
    c->types = malloc((size_t)(c->nd + 1) * sizeof(MPI_Datatype));
    if (!c->ints || !c->aints || !c->types) {
        free(c->ints);
        free(c->aints);
        free(c->types);
        memset(c, 0, sizeof(*c));
        return NC_ENOMEM;
    }
    MPI_Type_get_contents(t, c->ni, c->na, c->nd, c->ints, c->aints,
                          c->types);
    return NC_NOERR;
}

/* Append `reps` copies of the child's extents, copy k at disp + k * step. */
static int place(ncp_extents *out, const ncp_extents *child, MPI_Offset disp,
                 int64_t reps, MPI_Offset step)
{
    int64_t k, i;
    int err = NC_NOERR;
    for (k = 0; k < reps && err == NC_NOERR; k++)
        for (i = 0; i < child->n && err == NC_NOERR; i++)
            err = ncp_extents_add(out, disp + k * step + child->off[i],
                                  child->len[i]);
    return err;
}

/* The child's extents and its extent (the step between its copies). */
static int child_flat(MPI_Datatype t, ncp_extents *e, MPI_Offset *ext,
                      MPI_Datatype *base)
{
    MPI_Count lb, extent;
    MPI_Type_get_extent_x(t, &lb, &extent);
    *ext = (MPI_Offset)extent;
    ncp_extents_init(e);
    return flat(t, e, base);
}

/* count blocks of blen children at displacements disp[i] (bytes; or
 * elements of the child when idisp is given instead), one block length
 * for all when blens is NULL. */
static int blocks(ncp_extents *out, MPI_Datatype child, int count,
                  const int *blens, int blen, const MPI_Aint *disp,
                  const int *idisp, MPI_Datatype *base)
{
    ncp_extents e;
    MPI_Offset ext;
    int i, err = child_flat(child, &e, &ext, base);
    for (i = 0; i < count && err == NC_NOERR; i++) {
        MPI_Offset d = idisp ? (MPI_Offset)idisp[i] * ext : (MPI_Offset)disp[i];
        err = place(out, &e, d, blens ? blens[i] : blen, ext);
    }
    ncp_extents_free(&e);
    return err;
}

/* count blocks of blen children, stride bytes apart. */
static int strided(ncp_extents *out, MPI_Datatype child, int count, int blen,
                   MPI_Offset stride, int stride_in_elems, MPI_Datatype *base)
{
    ncp_extents e;
    MPI_Offset ext;
    int i, err = child_flat(child, &e, &ext, base);
    if (stride_in_elems) stride *= ext;
    for (i = 0; i < count && err == NC_NOERR; i++)
        err = place(out, &e, (MPI_Offset)i * stride, blen, ext);
    ncp_extents_free(&e);
    return err;
}

static int structure(ncp_extents *out, const contents *c, MPI_Datatype *base)
{
    int i, n = c->ints[0], err = NC_NOERR;
    for (i = 0; i < n && err == NC_NOERR; i++)
        err = blocks(out, c->types[i], 1, &c->ints[1 + i], 0, &c->aints[i],
                     NULL, base);
    return err;
}

/* A subarray visits its elements in the array's storage order (C: last
 * dimension fastest; Fortran: first), at their place in the whole array. */
static int subarray(ncp_extents *out, const contents *c, MPI_Datatype *base)
{
    int n = c->ints[0], fortran = c->ints[1 + 3 * n] == MPI_ORDER_FORTRAN;
    const int *size = &c->ints[1], *sub = &c->ints[1 + n],
              *start = &c->ints[1 + 2 * n];
    int64_t idx[32], pitch[32];
    int perm[32];
    ncp_extents e;
    MPI_Offset ext;
    int i, err;
    if (n <= 0 || n > 32) return NC_EINVAL;
    for (i = 0; i < n; i++)
        if (sub[i] == 0) return NC_NOERR;
    if ((err = child_flat(c->types[0], &e, &ext, base)) != NC_NOERR)
        goto done;
    /* Dimension perm[i] is the i-th slowest in storage order. */
    for (i = n - 1; i >= 0; i--) {
        perm[i] = fortran ? n - 1 - i : i;
        pitch[i] = i == n - 1 ? 1 : pitch[i + 1] * size[perm[i + 1]];
        idx[i] = 0;
    }
    for (;;) {
        MPI_Offset off = 0;
        for (i = 0; i < n; i++) off += (start[perm[i]] + idx[i]) * pitch[i];
        if ((err = place(out, &e, off * ext, 1, 0)) != NC_NOERR) break;
        for (i = n - 1; i >= 0; i--) {
            if (++idx[i] < sub[perm[i]]) break;
            idx[i] = 0;
        }
        if (i < 0) break;
    }
done:
    ncp_extents_free(&e);
    return err;
}

/* Any constructor: pack a buffer whose bytes, one byte plane per pass,
 * spell their offset, and read each packed byte's origin back. */
static int probe(MPI_Datatype t, const contents *c, ncp_extents *out,
                 MPI_Datatype *base)
{
    MPI_Count lb, extent, size;
    unsigned char *buf = NULL, *packed = NULL;
    MPI_Offset *from = NULL;
    int i, pass, passes = 1, err = NC_NOERR;
    for (i = 0; i < c->nd && err == NC_NOERR; i++) {
        ncp_extents e;
        MPI_Offset ext;
        err = child_flat(c->types[i], &e, &ext, base);
        ncp_extents_free(&e);
    }
    MPI_Type_get_true_extent_x(t, &lb, &extent);
    MPI_Type_size_x(t, &size);
    if (err != NC_NOERR || size == 0) return err;
    if (extent > INT_MAX || size > INT_MAX) return NC_EINTOVERFLOW;
    buf = malloc((size_t)extent);
    packed = malloc((size_t)size);
    from = calloc((size_t)size, sizeof(*from));
    if (!buf || !packed || !from) {
        err = NC_ENOMEM;
        goto done;
    }
    while (passes < 8 && (extent - 1) >> (8 * passes)) passes++;
    for (pass = 0; pass < passes; pass++) {
        int pos = 0;
        MPI_Count p;
        for (p = 0; p < extent; p++)
            buf[p] = (unsigned char)((uint64_t)p >> (8 * pass));
        MPI_Pack((char *)buf - lb, 1, t, packed, (int)size, &pos,
                 MPI_COMM_SELF);
        for (p = 0; p < size; p++)
            from[p] |= (MPI_Offset)packed[p] << (8 * pass);
    }
    for (i = 0; i < (int)size && err == NC_NOERR; i++)
        err = ncp_extents_add(out, (MPI_Offset)lb + from[i], 1);
done:
    free(buf);
    free(packed);
    free(from);
    return err;
}

static int named(MPI_Datatype t, ncp_extents *out, MPI_Datatype *base)
{
    int size = 0;
    MPI_Type_size(t, &size);
    if (size == 0) return NC_NOERR; /* a bound marker moves nothing */
    t = ncp_mpi_named_as_c(t);
    if (*base != MPI_DATATYPE_NULL && *base != t) return NC_EMULTITYPES;
    *base = t;
    return ncp_extents_add(out, 0, size);
}

static int flat(MPI_Datatype t, ncp_extents *out, MPI_Datatype *base)
{
    contents c;
    const int *in;
    int err = contents_get(t, &c);
    if (err != NC_NOERR) return err;
    in = c.ints;
    switch (c.comb) {
    case MPI_COMBINER_NAMED: err = named(t, out, base); break;
    case MPI_COMBINER_DUP:
    case MPI_COMBINER_RESIZED: err = flat(c.types[0], out, base); break;
    case MPI_COMBINER_CONTIGUOUS:
        err = strided(out, c.types[0], 1, in[0], 0, 0, base);
        break;
    case MPI_COMBINER_VECTOR:
        err = strided(out, c.types[0], in[0], in[1], in[2], 1, base);
        break;
    case MPI_COMBINER_HVECTOR:
        err = strided(out, c.types[0], in[0], in[1], c.aints[0], 0, base);
        break;
    case MPI_COMBINER_INDEXED:
        err = blocks(out, c.types[0], in[0], &in[1], 0, NULL, &in[1 + in[0]],
                     base);
        break;
    case MPI_COMBINER_HINDEXED:
        err = blocks(out, c.types[0], in[0], &in[1], 0, c.aints, NULL, base);
        break;
    case MPI_COMBINER_INDEXED_BLOCK:
        err = blocks(out, c.types[0], in[0], NULL, in[1], NULL, &in[2], base);
        break;
    case MPI_COMBINER_HINDEXED_BLOCK:
        err = blocks(out, c.types[0], in[0], NULL, in[1], c.aints, NULL, base);
        break;
    case MPI_COMBINER_STRUCT: err = structure(out, &c, base); break;
    case MPI_COMBINER_SUBARRAY: err = subarray(out, &c, base); break;
    default: err = probe(t, &c, out, base); break;
    }
    contents_free(&c);
    return err;
}

int ncp_dtype_flatten(MPI_Datatype t, ncp_extents *e, MPI_Datatype *base)
{
    int err;
    *base = MPI_DATATYPE_NULL;
    ncp_extents_init(e);
    err = flat(t, e, base);
    if (err != NC_NOERR) ncp_extents_free(e);
    return err;
}
