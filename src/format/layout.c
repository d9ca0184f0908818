/*
 * layout.c -- where the header ends and each variable's data begins.
 *
 * A classic file is: the header, free space up to the header extent, the
 * fixed-size variables in definition order, then the record section, whose
 * records each hold one slice of every record variable in definition
 * order.  This file owns the arithmetic that places them; it is a pure
 * function of the header and the alignment parameters.
 *
 * The rules reproduce Debian's PnetCDF 1.12.3 byte for byte; they were
 * measured with tests/interop/layout_probe.c and are written up, with the
 * numbers, in docs/notes/pnetcdf-compat.md.  In short (H, V, R, h_minfree,
 * v_minfree are the fields of ncp_layout_params; "up(x, a)" rounds x up to
 * a multiple of a):
 *
 *  1. Every variable takes mem = up(elements * element size, 4) bytes per
 *     record (all of it for a fixed-size one).
 *  2. The header end: pos = up(header size + h_minfree, H) when there is at
 *     least one variable; with no variable at all, pos = header size (H
 *     and h_minfree play no part).  After a redef, pos = max(pos, the old
 *     begin_var).
 *  3. Fixed-size variable i, in definition order: pos = max(pos, its old
 *     begin) when it existed before the redef; begin = up(pos, V); then
 *     pos = begin + mem.  begin_var is the first such begin.
 *  4. The record section: pos = up(pos + v_minfree, V); then pos =
 *     max(pos, the begin_rec the header holds) -- the old one after a
 *     redef, and also one left by an enddef that failed later on, so a
 *     failure inside the record section repeats until define mode ends;
 *     begin_rec = up(pos, R).  Note that V applies before the old value is
 *     taken into account and R after.  Record variables follow one another
 *     from begin_rec with no further alignment.  With no fixed-size
 *     variable begin_var = begin_rec.
 *  5. recsize is the sum of the record variables' mem, except that a lone
 *     record variable is not padded (3 shorts: recsize 6, vsize field 8).
 *  6. Size limits (CDF-1 and CDF-2): a variable whose mem exceeds 2^32 - 4
 *     is allowed only as the last fixed-size variable when there is no
 *     record variable, or as the last record variable; its vsize field
 *     then reads 2^32 - 1.  CDF-1 bounds where each variable is placed
 *     from, as PnetCDF does: pos <= 2^31 - 1 before a fixed-size
 *     variable's alignment (so its begin may be 2^31 exactly), and each
 *     record variable's begin <= 2^31 - 1; a begin must still fit the
 *     field's 32 bits (NC_EINTOVERFLOW).  Anything else is NC_EVARSIZE.
 *     CDF-5 has no limit but int64 range.
 *  7. Placement stops at the first variable that breaks a limit, and that
 *     variable and the ones after it keep the begin they had; the header
 *     extent and begin_rec found so far stay.  So a begin in the header
 *     model is always one the format can hold, and a failed enddef leaves
 *     what PnetCDF leaves (ncmpi_inq_varoffset tells).
 *
 * Rules 2-4 together mean that no variable and no section ever moves
 * toward the start of the file in a redef, so the caller can move data by
 * copying from the end of the file backward.
 */
#include <stdint.h>

#include "ncp_header.h"
#include "ncp_xconv.h"
#include "pnetcdf.h"

/* The largest mem a variable may have when it is not the last of its kind
 * in a CDF-1/2 file, and the vsize field written for a larger last one. */
#define NCP_VSIZE_MAX_32 ((int64_t)UINT32_MAX - 3)
#define NCP_VSIZE_HUGE ((int64_t)UINT32_MAX)

/* Round x up to a multiple of a (a <= 1 leaves x alone). */
static int roundup(int64_t x, int64_t a, int64_t *out)
{
    int err = NC_NOERR;
    int64_t r;
    if (a <= 1) {
        *out = x;
        goto done;
    }
    r = x % a;
    if (r == 0) {
        *out = x;
        goto done;
    }
    if (x > INT64_MAX - (a - r)) {
        err = NC_EVARSIZE;
        goto done;
    }
    *out = x + (a - r);
done:
    return err;
}

static int add(int64_t x, int64_t y, int64_t *out)
{
    if (y > 0 && x > INT64_MAX - y) return NC_EVARSIZE;
    *out = x + y;
    return NC_NOERR;
}

static int64_t max64(int64_t a, int64_t b)
{
    return a > b ? a : b;
}

/* Unpadded bytes of one variable (one record of a record variable). */
static int var_bytes(const ncp_var *v, int64_t *bytes)
{
    int64_t xs = ncp_xtype_size(v->xtype);
    if (xs <= 0) return NC_EBADTYPE;
    if (v->nelems_per_rec < 0 || v->nelems_per_rec > (INT64_MAX - 3) / xs)
        return NC_EVARSIZE;
    *bytes = v->nelems_per_rec * xs;
    return NC_NOERR;
}

/* Rule 1 for var i: its padded in-memory size. */
static int var_mem(const ncp_var *v, int64_t *mem)
{
    int64_t bytes = 0;
    int err = var_bytes(v, &bytes);
    if (err == NC_NOERR) err = roundup(bytes, 4, mem);
    return err;
}

/* Count both kinds and set every vsize field (rule 6's sizes). */
static int size_vars(ncp_header *h)
{
    int err = NC_NOERR, i, last_fix = -1, last_rec = -1;
    int64_t mem = 0;
    h->num_rec_vars = h->num_fix_vars = 0;
    for (i = 0; i < h->nvars; i++) {
        if (h->vars[i].is_record) {
            last_rec = i;
            h->num_rec_vars++;
        } else {
            last_fix = i;
            h->num_fix_vars++;
        }
    }
    for (i = 0; i < h->nvars && err == NC_NOERR; i++) {
        ncp_var *v = &h->vars[i];
        int exempt = v->is_record ? i == last_rec
                                  : (i == last_fix && last_rec < 0);
        if ((err = var_mem(v, &mem)) != NC_NOERR) break;
        v->vsize = mem;
        if (h->format == NCP_CDF5 || mem <= NCP_VSIZE_MAX_32) continue;
        if (!exempt) err = NC_EVARSIZE;
        else v->vsize = NCP_VSIZE_HUGE;
    }
    return err;
}

/* Rule 6's CDF-1 part: pos, where the next variable is placed from, must
 * be a signed 32-bit offset, and the begin found from it an unsigned one. */
static int check_pos(const ncp_header *h, int64_t pos)
{
    return h->format == NCP_CDF1 && pos > INT32_MAX ? NC_EVARSIZE : NC_NOERR;
}

static int check_begin(const ncp_header *h, int64_t begin)
{
    return h->format == NCP_CDF1 && begin > UINT32_MAX ? NC_EINTOVERFLOW
                                                       : NC_NOERR;
}

/* The old begin of var i when it existed (same kind) before the redef. */
static int64_t old_begin(const ncp_header *old, int i, int is_record)
{
    if (!old || i >= old->nvars || old->vars[i].is_record != is_record)
        return 0;
    return old->vars[i].begin;
}

/* Rules 2 and 3: place the fixed-size variables; *end is where the fixed
 * section ends (the header end when there is none). */
static int place_fixed(ncp_header *h, const ncp_header *old,
                       const ncp_layout_params *p, int64_t *end)
{
    int err = NC_NOERR, i, first = 1;
    int64_t pos = h->xsz, mem = 0;
    if (h->nvars > 0) {
        err = add(h->xsz, p->h_minfree, &pos);
        if (err == NC_NOERR) err = roundup(pos, p->h_align, &pos);
    }
    if (old) pos = max64(pos, old->begin_var);
    for (i = 0; i < h->nvars && err == NC_NOERR; i++) {
        ncp_var *v = &h->vars[i];
        int64_t begin = 0;
        if (v->is_record) continue;
        if ((err = check_pos(h, pos)) != NC_NOERR) break;
        pos = max64(pos, old_begin(old, i, 0));
        if ((err = roundup(pos, p->v_align, &begin)) != NC_NOERR) break;
        if (first) h->begin_var = begin;
        first = 0;
        if ((err = check_begin(h, begin)) != NC_NOERR) break;
        if ((err = var_mem(v, &mem)) != NC_NOERR) break;
        if ((err = add(begin, mem, &pos)) != NC_NOERR) break;
        v->begin = begin;
    }
    *end = pos;
    return err;
}

/* Rules 4 and 5: the record section and recsize. */
static int place_records(ncp_header *h, const ncp_layout_params *p,
                         int64_t end_fixed)
{
    int err, i;
    int64_t pos = 0, mem = 0, bytes = 0;
    err = add(end_fixed, p->v_minfree, &pos);
    if (err == NC_NOERR) err = roundup(pos, p->v_align, &pos);
    if (err == NC_NOERR) pos = max64(pos, h->begin_rec);
    if (err == NC_NOERR) err = roundup(pos, p->r_align, &h->begin_rec);
    if (err != NC_NOERR) goto done;
    if (h->num_fix_vars == 0) h->begin_var = h->begin_rec;
    pos = h->begin_rec;
    h->recsize = 0;
    for (i = 0; i < h->nvars && err == NC_NOERR; i++) {
        ncp_var *v = &h->vars[i];
        if (!v->is_record) continue;
        if ((err = check_pos(h, pos)) != NC_NOERR) break;
        v->begin = pos;
        err = var_mem(v, &mem);
        if (err == NC_NOERR) err = add(pos, mem, &pos);
        if (err == NC_NOERR) err = add(h->recsize, mem, &h->recsize);
        if (err == NC_NOERR && h->num_rec_vars == 1)
            err = var_bytes(v, &bytes);
    }
    if (err == NC_NOERR && h->num_rec_vars == 1) h->recsize = bytes;
done:
    return err;
}

int ncp_layout_compute(ncp_header *h, const ncp_header *old,
                       const ncp_layout_params *p)
{
    int err;
    int64_t end_fixed = 0;

    err = size_vars(h);
    if (err == NC_NOERR) err = ncp_header_encoded_size(h, &h->xsz);
    if (err == NC_NOERR) err = place_fixed(h, old, p, &end_fixed);
    if (err == NC_NOERR) err = place_records(h, p, end_fixed);
    return err;
}
