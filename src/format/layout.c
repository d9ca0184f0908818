/*
 * layout.c -- where each variable's data begins.
 *
 * The file is: header, free space up to the header extent, the fixed-size
 * variables in definition order, then the record section, in which each
 * record holds one slice of every record variable in definition order.
 *
 * The rules below reproduce what Debian's PnetCDF 1.12.3 does, measured
 * with tests/interop/layout_probe.c (docs/notes/pnetcdf-compat.md):
 *  1. With no variable at all, the header extent is the header size.
 *  2. Otherwise the first variable begins at roundup(roundup(header size +
 *     h_minfree, h_align), v_align); each later fixed-size variable at
 *     roundup(end of the previous, v_align).
 *  3. A variable's vsize is its byte size padded to 4; the record section
 *     begins at roundup(end of the fixed section + v_minfree, r_align).
 *  4. recsize is the sum of the record variables' vsizes, except that a
 *     single record variable is not padded (the classic format's rule).
 *  5. After redef the header extent and the record section never move
 *     toward the start of the file.
 * CDF-1 and CDF-2 hold vsize in 32 bits: a variable too large for that is
 * allowed only as the last fixed-size variable (when there are no record
 * variables) or the last record variable, and its vsize field saturates.
 */
#include <stdint.h>

#include "ncp_header.h"
#include "ncp_xconv.h"
#include "pnetcdf.h"

static int64_t roundup(int64_t x, int64_t a)
{
    if (a <= 1) return x;
    return (x + a - 1) / a * a;
}

/* The largest vsize a fixed-position variable may have in this format. */
static int64_t vsize_limit(int format)
{
    if (format == NCP_CDF5) return INT64_MAX;
    if (format == NCP_CDF2) return (int64_t)UINT32_MAX - 3;
    return (int64_t)INT32_MAX - 3;
}

/* Byte size of one variable (one record of it), checked for overflow. */
static int var_bytes(const ncp_var *v, int64_t *bytes)
{
    int64_t xsz = ncp_xtype_size(v->xtype);
    if (xsz == 0) return NC_EBADTYPE;
    if (v->nelems_per_rec > (INT64_MAX - 3) / xsz) return NC_EVARSIZE;
    *bytes = v->nelems_per_rec * xsz;
    return NC_NOERR;
}

/* Index of the last fixed-size and the last record variable, or -1. */
static void last_vars(const ncp_header *h, int *last_fix, int *last_rec)
{
    int i;
    *last_fix = *last_rec = -1;
    for (i = 0; i < h->nvars; i++) {
        if (h->vars[i].is_record) *last_rec = i;
        else *last_fix = i;
    }
}

/* Set every var's vsize; NC_EVARSIZE when one breaks the format limit. */
static int size_vars(ncp_header *h)
{
    int i, last_fix, last_rec, err;
    int64_t bytes, limit = vsize_limit(h->format);
    last_vars(h, &last_fix, &last_rec);
    h->num_rec_vars = h->num_fix_vars = 0;
    for (i = 0; i < h->nvars; i++) {
        ncp_var *v = &h->vars[i];
        int exempt = v->is_record ? i == last_rec
                                  : (i == last_fix && last_rec < 0);
        if ((err = var_bytes(v, &bytes)) != NC_NOERR) return err;
        v->vsize = roundup(bytes, 4);
        if (v->vsize > limit) {
            if (!exempt) return NC_EVARSIZE;
            v->vsize = UINT32_MAX; /* the format's "too large" marker */
        }
        if (v->is_record) h->num_rec_vars++;
        else h->num_fix_vars++;
    }
    return NC_NOERR;
}

static int place_fixed(ncp_header *h, const ncp_layout_params *p,
                       int64_t *end)
{
    int i, err;
    int64_t pos = h->begin_var, bytes;
    for (i = 0; i < h->nvars; i++) {
        ncp_var *v = &h->vars[i];
        if (v->is_record) continue;
        if ((err = var_bytes(v, &bytes)) != NC_NOERR) return err;
        v->begin = roundup(pos, p->v_align);
        if (v->begin > INT64_MAX - bytes - 3) return NC_EVARSIZE;
        pos = v->begin + roundup(bytes, 4);
    }
    *end = pos;
    return NC_NOERR;
}

static int place_records(ncp_header *h)
{
    int i, err;
    int64_t pos = h->begin_rec, bytes, one = 0;
    h->recsize = 0;
    for (i = 0; i < h->nvars; i++) {
        ncp_var *v = &h->vars[i];
        if (!v->is_record) continue;
        if ((err = var_bytes(v, &bytes)) != NC_NOERR) return err;
        v->begin = pos;
        pos += roundup(bytes, 4);
        h->recsize += roundup(bytes, 4);
        one = bytes;
    }
    if (h->num_rec_vars == 1) h->recsize = one;
    return NC_NOERR;
}

/* CDF-1 stores begins in 32 bits (signed, as the classic library reads
 * them). */
static int check_offsets(const ncp_header *h)
{
    int i;
    if (h->format != NCP_CDF1) return NC_NOERR;
    for (i = 0; i < h->nvars; i++)
        if (h->vars[i].begin > INT32_MAX) return NC_EVARSIZE;
    return NC_NOERR;
}

int ncp_layout_compute(ncp_header *h, const ncp_header *old,
                       const ncp_layout_params *p)
{
    int err;
    int64_t end_fixed = 0;

    if ((err = size_vars(h)) != NC_NOERR) return err;
    if ((err = ncp_header_encoded_size(h, &h->xsz)) != NC_NOERR) return err;
    if (h->nvars == 0) {
        h->begin_var = h->begin_rec = h->xsz;
        h->recsize = 0;
        return NC_NOERR;
    }
    h->begin_var = roundup(roundup(h->xsz + p->h_minfree, p->h_align),
                           p->v_align);
    if (old && old->begin_var > h->begin_var) h->begin_var = old->begin_var;
    if ((err = place_fixed(h, p, &end_fixed)) != NC_NOERR) return err;
    h->begin_rec = roundup(end_fixed + p->v_minfree, p->r_align);
    if (old && old->num_rec_vars > 0 && old->begin_rec > h->begin_rec)
        h->begin_rec = old->begin_rec;
    if ((err = place_records(h)) != NC_NOERR) return err;
    return check_offsets(h);
}
