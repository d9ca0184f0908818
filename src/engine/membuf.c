/*
 * membuf.c -- the memory side of a request: which element type the user's
 * buffer holds (a typed form's C type, or the single predefined type a
 * flexible MPI datatype is built from), and whether its elements can be
 * used in place or must be packed to (unpacked from) a contiguous buffer.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "ncp_engine.h"
#include "pnetcdf.h"

/* Map a predefined MPI type to the API's memory type.  MPI handles are
 * not constant expressions in every MPI, hence the chain of ifs. */
static int mtype_of_mpi(MPI_Datatype t, int *mt)
{
    if (t == MPI_CHAR) *mt = NCP_M_TEXT;
    else if (t == MPI_SIGNED_CHAR || t == MPI_BYTE) *mt = NCP_M_SCHAR;
    else if (t == MPI_UNSIGNED_CHAR) *mt = NCP_M_UCHAR;
    else if (t == MPI_SHORT) *mt = NCP_M_SHORT;
    else if (t == MPI_UNSIGNED_SHORT) *mt = NCP_M_USHORT;
    else if (t == MPI_INT) *mt = NCP_M_INT;
    else if (t == MPI_UNSIGNED) *mt = NCP_M_UINT;
    else if (t == MPI_LONG) *mt = NCP_M_LONG;
    else if (t == MPI_FLOAT) *mt = NCP_M_FLOAT;
    else if (t == MPI_DOUBLE) *mt = NCP_M_DOUBLE;
    else if (t == MPI_LONG_LONG_INT) *mt = NCP_M_LONGLONG;
    else if (t == MPI_UNSIGNED_LONG_LONG) *mt = NCP_M_ULONGLONG;
    else return NC_EUNSPTETYPE;
    return NC_NOERR;
}

/*
 * The one predefined type t is built from; NC_EMULTITYPES when a derived
 * type mixes several.  Depth-first over MPI_Type_get_contents.
 */
static int base_type(MPI_Datatype t, MPI_Datatype *base)
{
    int ni, na, nd, comb, i, err = NC_NOERR;
    int *ints = NULL;
    MPI_Aint *aints = NULL;
    MPI_Datatype *types = NULL;

    MPI_Type_get_envelope(t, &ni, &na, &nd, &comb);
    if (comb == MPI_COMBINER_NAMED) {
        t = ncp_mpi_named_as_c(t);
        if (*base != MPI_DATATYPE_NULL && *base != t) return NC_EMULTITYPES;
        *base = t;
        return NC_NOERR;
    }
    ints = malloc((size_t)(ni + 1) * sizeof(int));
    aints = malloc((size_t)(na + 1) * sizeof(MPI_Aint));
    types = malloc((size_t)(nd + 1) * sizeof(MPI_Datatype));
    if (!ints || !aints || !types) {
        err = NC_ENOMEM;
        goto done;
    }
    MPI_Type_get_contents(t, ni, na, nd, ints, aints, types);
    for (i = 0; i < nd; i++) {
        int c2, x1, x2, x3;
        if (err == NC_NOERR) err = base_type(types[i], base);
        MPI_Type_get_envelope(types[i], &x1, &x2, &x3, &c2);
        if (c2 != MPI_COMBINER_NAMED) MPI_Type_free(&types[i]);
    }
done:
    free(ints);
    free(aints);
    free(types);
    return err;
}

/* A predefined (named) type, Fortran's included. */
static int is_named(MPI_Datatype t)
{
    int ni, na, nd, comb;
    MPI_Type_get_envelope(t, &ni, &na, &nd, &comb);
    return comb == MPI_COMBINER_NAMED;
}

/* A predefined type, or MPI_Type_contiguous of one. */
static int is_plain_run(MPI_Datatype t)
{
    int ni, na, nd, comb, ints[1];
    MPI_Aint aints[1];
    MPI_Datatype inner;
    if (is_named(t)) return 1;
    MPI_Type_get_envelope(t, &ni, &na, &nd, &comb);
    if (comb != MPI_COMBINER_CONTIGUOUS) return 0;
    MPI_Type_get_contents(t, 1, 0, 1, ints, aints, &inner);
    MPI_Type_get_envelope(inner, &ni, &na, &nd, &comb);
    if (comb == MPI_COMBINER_NAMED) return 1;
    MPI_Type_free(&inner);
    return 0;
}

int ncp_membuf_describe(const ncp_data_args *a, int var_xtype,
                        int64_t nelems, ncp_membuf *m)
{
    int err, tsize = 0, bsize = 0;
    MPI_Aint lb = 0, extent = 0;
    MPI_Datatype base = MPI_DATATYPE_NULL;

    memset(m, 0, sizeof(*m));
    m->user = a->buf;
    m->contiguous = 1;
    if (a->mtype != NCP_M_FLEX) {
        m->mtype = a->mtype;
        return NC_NOERR;
    }
    if (a->buftype == MPI_DATATYPE_NULL) {
        /* The buffer holds the variable's own type, natively. */
        m->mtype = (int)ncp_mtype_of_xtype(var_xtype);
        return NC_NOERR;
    }
    if ((err = base_type(a->buftype, &base)) != NC_NOERR) return err;
    if ((err = mtype_of_mpi(base, &m->mtype)) != NC_NOERR) return err;
    MPI_Type_size(a->buftype, &tsize);
    MPI_Type_size(base, &bsize);
    MPI_Type_get_extent(a->buftype, &lb, &extent);
    if (a->bufcount == NC_COUNT_IGNORE) {
        /* buf holds as many elements of buftype as the request selects,
           back to back, as in the typed call of that C type; so buftype
           must be a predefined type (NC_EINVAL otherwise, as in PnetCDF
           1.13 and later). */
        if (!is_named(a->buftype)) return NC_EINVAL;
        m->count = nelems;
    } else if (a->bufcount < 0) {
        return NC_EIOMISMATCH; /* no count of elements, as in PnetCDF */
    } else {
        if (tsize == 0 || a->bufcount * (tsize / bsize) != nelems)
            return NC_EIOMISMATCH;
        m->count = a->bufcount;
    }
    m->buftype = a->buftype;
    /* Size equal to extent is not enough: a permuting indexed type has
       both; only a predefined type or a contiguous run of one keeps the
       elements in order back to back. */
    m->contiguous = lb == 0 && extent == tsize && is_plain_run(a->buftype);
    if (!m->contiguous && m->count > INT_MAX) return NC_EINTOVERFLOW;
    return NC_NOERR;
}

int ncp_membuf_pack(const ncp_membuf *m, MPI_Comm comm, void *contig,
                    int64_t nbytes)
{
    int pos = 0;
    if (nbytes > INT_MAX) return NC_EINTOVERFLOW;
    MPI_Pack(m->user, (int)m->count, m->buftype, contig, (int)nbytes, &pos,
             comm);
    return NC_NOERR;
}

int ncp_membuf_unpack(const ncp_membuf *m, MPI_Comm comm, const void *contig,
                      int64_t nbytes)
{
    int pos = 0;
    if (nbytes > INT_MAX) return NC_EINTOVERFLOW;
    MPI_Unpack(contig, (int)nbytes, &pos, m->user, (int)m->count, m->buftype,
               comm);
    return NC_NOERR;
}
