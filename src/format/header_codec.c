/*
 * header_codec.c -- the byte codec of the netCDF classic header: encoded
 * size, encoder and a decoder hardened against hostile bytes.
 *
 * Owns: the on-disk grammar of the header for CDF-1, CDF-2 and CDF-5.  In
 * the form we work from (all integers big-endian; "NN" is a non-negative
 * count whose width depends on the format, see field widths below):
 *
 *   header   := 'C' 'D' 'F' version numrecs dim_list gatt_list var_list
 *   version  := 1 | 2 | 5                      (one byte)
 *   list     := ZERO(4) ZERO(NN)               (the list is absent)
 *             | tag(4) count(NN, > 0) entry*count
 *   tag      := 0x0A dimensions | 0x0C attributes | 0x0B variables
 *   name     := length(NN, 1..256) bytes, zero-padded to a multiple of 4
 *   dim      := name length(NN)                (length 0 = unlimited)
 *   att      := name type(4) nelems(NN) values, zero-padded to 4
 *   var      := name ndims(NN) dimid(NN)*ndims vatt_list type(4)
 *               vsize(NN) begin(BEGIN)
 *
 * Field widths: NN is 4 bytes in CDF-1/2 and 8 in CDF-5; numrecs is 4
 * bytes in CDF-1/2 (0xFFFFFFFF means "streaming") and 8 in CDF-5; BEGIN is
 * 4 bytes in CDF-1 and 8 in CDF-2/5.  4-byte fields are read unsigned, as
 * the reference libraries do (CDF-2 allows dimensions up to 2^32-4).
 *
 * Invariants:
 *  1. Decoding never reads outside [0, min(len, file_size)) and never
 *     allocates for a count before checking that the bytes that count
 *     implies (count x the smallest possible entry) fit in the file and in
 *     the buffer; so memory use is a small multiple of len.
 *  2. Every field a decoded header holds is re-encodable to the very same
 *     bytes: anything the encoder could not reproduce (a tag with a zero
 *     count, non-zero padding, a "streaming" numrecs) is refused.
 *  3. A decoded header satisfies the invariants of ncp_header.h, has
 *     unique, legal names and variables whose data regions neither overlap
 *     the header nor each other, with all offset sums inside int64.
 *  4. The encoder writes exactly ncp_header_encoded_size() bytes, from the
 *     same walk, so the two cannot disagree.
 *
 * Choices: a "streaming" numrecs (CDF-1/2 0xFFFFFFFF) is refused with
 * NC_ENOTNC, since this library never writes it and cannot re-encode it.
 * A variable whose data starts beyond the end of the file is accepted: a
 * no-fill dataset whose data was never written is that short.  The header's
 * vsize field is kept as read and not checked (CDF-1/2 clamp it for large
 * variables); sizes used for the checks come from the shapes.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include <pnetcdf.h>

#include "ncp_header.h"
#include "ncp_xconv.h"

enum { TAG_DIMENSION = 0x0A, TAG_VARIABLE = 0x0B, TAG_ATTRIBUTE = 0x0C };

/* Widths in bytes of the fields whose size depends on the format. */
typedef struct widths {
    int nn;      /* counts, lengths, dimids, vsize */
    int begin;   /* a variable's begin offset */
    int numrecs;
} widths;

static int widths_of(int format, widths *w)
{
    int err = NC_NOERR;
    switch (format) {
    case NCP_CDF1: *w = (widths){4, 4, 4}; break;
    case NCP_CDF2: *w = (widths){4, 8, 4}; break;
    case NCP_CDF5: *w = (widths){8, 8, 8}; break;
    default: err = NC_EINVAL; break;
    }
    return err;
}

static int64_t pad4(int64_t n) { return (4 - (n & 3)) & 3; }

/* ===================================================================== */
/* Encoder                                                               */
/* ===================================================================== */

/*
 * One walk serves both the size and the bytes: with buf NULL it only
 * counts.  The first error sticks and later puts do nothing, which keeps
 * the walk free of per-call error plumbing.
 */
typedef struct writer {
    unsigned char *buf;
    int64_t cap;
    int64_t pos;
    int err;
    widths w;
} writer;

static void put_raw(writer *o, const void *src, int64_t n)
{
    if (o->err != NC_NOERR) return;
    if (n > INT64_MAX - o->pos) {
        o->err = NC_EINVAL;
        return;
    }
    if (o->buf != NULL) {
        if (o->pos + n > o->cap) {
            o->err = NC_EINVAL;
            return;
        }
        if (src != NULL) memcpy(o->buf + o->pos, src, (size_t)n);
        else memset(o->buf + o->pos, 0, (size_t)n);
    }
    o->pos += n;
}

/* Unsigned big-endian field of width bytes; rangeerr when v does not fit. */
static void put_uint(writer *o, int width, int64_t v, int rangeerr)
{
    unsigned char b[8];
    int i;
    if (o->err != NC_NOERR) return;
    if (v < 0 || (width == 4 && v > (int64_t)UINT32_MAX)) {
        o->err = rangeerr;
        return;
    }
    for (i = 0; i < width; i++)
        b[i] = (unsigned char)((uint64_t)v >> (8 * (width - 1 - i)));
    put_raw(o, b, width);
}

static void put_padded(writer *o, const void *src, int64_t n)
{
    put_raw(o, src, n);
    put_raw(o, NULL, pad4(n));
}

static void put_name(writer *o, const char *name)
{
    size_t n = name ? strlen(name) : 0;
    if (o->err == NC_NOERR && n == 0) o->err = NC_EBADNAME;
    if (o->err == NC_NOERR && n > NC_MAX_NAME) o->err = NC_EMAXNAME;
    put_uint(o, o->w.nn, (int64_t)n, NC_EMAXNAME);
    put_padded(o, name, (int64_t)n);
}

static void put_list_head(writer *o, int tag, int64_t count)
{
    put_uint(o, 4, count > 0 ? tag : 0, NC_EINVAL);
    put_uint(o, o->w.nn, count, NC_EINVAL);
}

static void put_atts(writer *o, const ncp_attlist *l, int format)
{
    int i;
    put_list_head(o, TAG_ATTRIBUTE, l->n);
    for (i = 0; i < l->n && o->err == NC_NOERR; i++) {
        const ncp_att *a = &l->a[i];
        int64_t xs = ncp_xtype_size(a->xtype);
        put_name(o, a->name);
        if (o->err == NC_NOERR) o->err = ncp_xtype_check(a->xtype, format);
        put_uint(o, 4, a->xtype, NC_EBADTYPE);
        put_uint(o, o->w.nn, a->nelems, NC_EINVAL);
        if (o->err == NC_NOERR &&
            (a->nelems > INT64_MAX / 8 || (a->nelems > 0 && !a->xvalue)))
            o->err = NC_EINVAL;
        if (o->err == NC_NOERR) put_padded(o, a->xvalue, a->nelems * xs);
    }
}

static void put_var(writer *o, const ncp_var *v, int format)
{
    int i;
    put_name(o, v->name);
    put_uint(o, o->w.nn, v->ndims, NC_EINVAL);
    for (i = 0; i < v->ndims && o->err == NC_NOERR; i++)
        put_uint(o, o->w.nn, v->dimids[i], NC_EBADDIM);
    put_atts(o, &v->atts, format);
    if (o->err == NC_NOERR) o->err = ncp_xtype_check(v->xtype, format);
    put_uint(o, 4, v->xtype, NC_EBADTYPE);
    put_uint(o, o->w.nn, v->vsize, NC_EVARSIZE);
    put_uint(o, o->w.begin, v->begin, NC_EINTOVERFLOW);
}

static int walk_encode(const ncp_header *h, unsigned char *buf, int64_t cap,
                       int64_t *size)
{
    static const unsigned char magic[3] = {'C', 'D', 'F'};
    unsigned char version = (unsigned char)h->format;
    writer o = {buf, cap, 0, NC_NOERR, {0, 0, 0}};
    int i;

    o.err = widths_of(h->format, &o.w);
    put_raw(&o, magic, 3);
    put_raw(&o, &version, 1);
    if (o.err == NC_NOERR && o.w.numrecs == 4 && h->numrecs >= (int64_t)UINT32_MAX)
        o.err = NC_EINVAL; /* would read back as "streaming" */
    put_uint(&o, o.w.numrecs, h->numrecs, NC_EINVAL);

    put_list_head(&o, TAG_DIMENSION, h->ndims);
    for (i = 0; i < h->ndims && o.err == NC_NOERR; i++) {
        put_name(&o, h->dims[i].name);
        put_uint(&o, o.w.nn, h->dims[i].len, NC_EDIMSIZE);
    }
    put_atts(&o, &h->gatts, h->format);
    put_list_head(&o, TAG_VARIABLE, h->nvars);
    for (i = 0; i < h->nvars && o.err == NC_NOERR; i++)
        put_var(&o, &h->vars[i], h->format);
    if (o.err == NC_NOERR && size != NULL) *size = o.pos;
    return o.err;
}

int ncp_header_encoded_size(const ncp_header *h, int64_t *size)
{
    int err = NC_EINVAL;
    if (h != NULL && size != NULL) err = walk_encode(h, NULL, 0, size);
    return err;
}

int ncp_header_encode(const ncp_header *h, void *buf, int64_t bufsize)
{
    int err = NC_EINVAL;
    if (h != NULL && buf != NULL && bufsize >= 0)
        err = walk_encode(h, buf, bufsize, NULL);
    return err;
}

/* ===================================================================== */
/* Decoder                                                               */
/* ===================================================================== */

/*
 * The cursor.  avail = min(len, file_size) bytes may be read.  A request
 * that runs past file_size means a corrupt or truncated file (NC_ENOTNC);
 * one that runs past avail but not past file_size asks the caller for more
 * bytes (NCP_HDR_NEED_MORE, with need = the smallest sufficient length).
 */
typedef struct reader {
    const unsigned char *p;
    int64_t avail;
    int64_t fsize;
    int64_t pos;
    int64_t need;
    widths w;
    int format;
    ncp_hdr_defect at;  /* the field being read: where a defect is blamed */
    int diagnose;       /* the caller wants placement defects located */
    int64_t *begin_at;  /* then: each variable's begin field offset */
} reader;

/* Name the field that starts at the cursor; costs two stores per field, so
 * that a defect can be reported by field and byte offset. */
static void mark(reader *r, const char *field, int64_t entry)
{
    r->at.offset = r->pos;
    r->at.field = field;
    r->at.entry = entry;
}

static int take(reader *r, int64_t n, const unsigned char **out)
{
    int err = NC_NOERR;
    if (n < 0 || n > r->fsize - r->pos) {
        err = NC_ENOTNC;
    } else if (n > r->avail - r->pos) {
        r->need = r->pos + n;
        err = NCP_HDR_NEED_MORE;
    } else {
        *out = r->p + r->pos;
        r->pos += n;
    }
    return err;
}

/* Promise that count entries of at least each bytes follow; checked before
 * anything is allocated for them. */
static int reserve(reader *r, int64_t count, int64_t each)
{
    int err = NC_NOERR;
    if (count > (r->fsize - r->pos) / each) {
        err = NC_ENOTNC;
    } else if (count > (r->avail - r->pos) / each) {
        r->need = r->pos + count * each;
        err = NCP_HDR_NEED_MORE;
    }
    return err;
}

static int get_uint(reader *r, int width, uint64_t *v)
{
    const unsigned char *b = NULL;
    int err = take(r, width, &b), i;
    if (err == NC_NOERR) {
        *v = 0;
        for (i = 0; i < width; i++) *v = (*v << 8) | b[i];
    }
    return err;
}

/* An NN field that must fit int64 (a count or an offset); a value with the
 * top bit set cannot come from any writer, so the file is not netCDF. */
static int get_nn(reader *r, int width, int64_t *v)
{
    uint64_t u = 0;
    int err = get_uint(r, width, &u);
    if (err == NC_NOERR && u > (uint64_t)INT64_MAX) err = NC_ENOTNC;
    if (err == NC_NOERR) *v = (int64_t)u;
    return err;
}

static int skip_padding(reader *r, int64_t n)
{
    const unsigned char *b = NULL;
    int64_t k = pad4(n), i;
    int err = take(r, k, &b);
    for (i = 0; err == NC_NOERR && i < k; i++)
        if (b[i] != 0) err = NC_ENULLPAD;
    return err;
}

static int get_name(reader *r, char **out)
{
    const unsigned char *b = NULL;
    int64_t n = 0;
    int err = get_nn(r, r->w.nn, &n);
    if (err == NC_NOERR && n == 0) err = NC_EBADNAME;
    if (err == NC_NOERR && n > NC_MAX_NAME) err = NC_EMAXNAME;
    if (err == NC_NOERR) err = take(r, n, &b);
    if (err == NC_NOERR) err = skip_padding(r, n);
    if (err == NC_NOERR && !ncp_name_legal_stored(b, n)) err = NC_EBADNAME;
    if (err == NC_NOERR) {
        *out = malloc((size_t)n + 1);
        if (*out == NULL) {
            err = NC_ENOMEM;
        } else {
            memcpy(*out, b, (size_t)n);
            (*out)[n] = '\0';
        }
    }
    return err;
}

/* A list head: absent (count 0) or the expected tag with count > 0. */
static int get_list_head(reader *r, uint32_t tag, int64_t limit,
                         int limiterr, int64_t min_entry, int64_t *count)
{
    uint64_t t = 0;
    int err;
    mark(r, tag == TAG_DIMENSION ? "dimension list"
            : tag == TAG_VARIABLE ? "variable list" : "attribute list", -1);
    err = get_uint(r, 4, &t);
    if (err == NC_NOERR) err = get_nn(r, r->w.nn, count);
    if (err == NC_NOERR && !(t == 0 && *count == 0) && !(t == tag && *count > 0))
        err = NC_ENOTNC;
    if (err == NC_NOERR && *count > limit) err = limiterr;
    if (err == NC_NOERR && *count > 0) err = reserve(r, *count, min_entry);
    return err;
}

static int get_xtype(reader *r, int *xtype)
{
    uint64_t t = 0;
    int err = get_uint(r, 4, &t);
    if (err == NC_NOERR && t > 255) err = NC_EBADTYPE;
    if (err == NC_NOERR) err = ncp_xtype_check((int)t, r->format);
    if (err == NC_NOERR) *xtype = (int)t;
    return err;
}

/* Names in one list must differ: entry i's name is looked up among the
 * i before it as soon as it is read, so the defect is blamed on the name
 * field.  The list's own index catches up one entry per call, so this is
 * O(n) against a header that declares millions of entries, and leaves the
 * index built for the lookups to come. */
static int name_taken(ncp_name_index *x, const void *base, size_t stride,
                      size_t name_off, int i)
{
    ncp_names_view v = {base, stride, name_off, i};
    const char *name;
    memcpy(&name, (const char *)base + (size_t)i * stride + name_off,
           sizeof name);
    return i > 0 && ncp_index_find(x, v, name) >= 0 ? NC_ENAMEINUSE
                                                     : NC_NOERR;
}

/* var: the variable the list belongs to, -1 for the global list. */
static int get_atts(reader *r, ncp_attlist *l, int64_t var)
{
    /* name (length + 4 bytes) + type + nelems, values possibly empty */
    int64_t min_entry = r->w.nn + 4 + 4 + r->w.nn, count = 0, i;
    int err;
    r->at.var = var;
    err = get_list_head(r, TAG_ATTRIBUTE, NC_MAX_ATTRS, NC_EMAXATTS,
                            min_entry, &count);
    if (err != NC_NOERR || count == 0) goto done;
    l->a = calloc((size_t)count, sizeof *l->a);
    if (l->a == NULL) {
        err = NC_ENOMEM;
        goto done;
    }
    l->cap = (int)count;
    for (i = 0; i < count && err == NC_NOERR; i++) {
        ncp_att *a = &l->a[i];
        const unsigned char *b = NULL;
        int64_t xs, nbytes;
        l->n = (int)i + 1;
        mark(r, "attribute name", i);
        err = get_name(r, &a->name);
        if (err == NC_NOERR)
            err = name_taken(&l->index, l->a, sizeof *l->a,
                             offsetof(ncp_att, name), (int)i);
        if (err == NC_NOERR) mark(r, "attribute type", i);
        if (err == NC_NOERR) err = get_xtype(r, &a->xtype);
        if (err == NC_NOERR) mark(r, "attribute length", i);
        if (err == NC_NOERR) err = get_nn(r, r->w.nn, &a->nelems);
        if (err != NC_NOERR) break;
        xs = ncp_xtype_size(a->xtype);
        if (a->nelems > (r->fsize - r->pos) / xs) {
            err = NC_ENOTNC;
            break;
        }
        nbytes = a->nelems * xs;
        mark(r, "attribute values", i);
        err = take(r, nbytes, &b);
        if (err == NC_NOERR) err = skip_padding(r, nbytes);
        if (err == NC_NOERR && nbytes > 0) {
            a->xvalue = malloc((size_t)nbytes);
            if (a->xvalue == NULL) err = NC_ENOMEM;
            else memcpy(a->xvalue, b, (size_t)nbytes);
        }
    }
done:
    return err;
}

static int get_dims(reader *r, ncp_header *h)
{
    int64_t min_entry = r->w.nn + 4 + r->w.nn, count = 0, i;
    int err = get_list_head(r, TAG_DIMENSION, NC_MAX_DIMS, NC_EMAXDIMS,
                            min_entry, &count);
    if (err != NC_NOERR || count == 0) goto done;
    h->dims = calloc((size_t)count, sizeof *h->dims);
    if (h->dims == NULL) {
        err = NC_ENOMEM;
        goto done;
    }
    for (i = 0; i < count && err == NC_NOERR; i++) {
        uint64_t len = 0;
        h->ndims = (int)i + 1;
        mark(r, "dimension name", i);
        err = get_name(r, &h->dims[i].name);
        if (err == NC_NOERR)
            err = name_taken(&h->dim_index, h->dims, sizeof *h->dims,
                             offsetof(ncp_dim, name), (int)i);
        if (err == NC_NOERR) mark(r, "dimension length", i);
        if (err == NC_NOERR) err = get_uint(r, r->w.nn, &len);
        if (err == NC_NOERR && len > (uint64_t)INT64_MAX) err = NC_EBADDIM;
        if (err == NC_NOERR && len == 0 && h->unlimdimid >= 0) err = NC_EUNLIMIT;
        if (err != NC_NOERR) break;
        h->dims[i].len = (int64_t)len;
        if (len == 0) h->unlimdimid = (int)i;
    }
done:
    return err;
}

static int get_var(reader *r, ncp_header *h, int64_t k)
{
    ncp_var *v = &h->vars[k];
    int64_t nd = 0, i;
    int err;
    mark(r, "variable name", k);
    err = get_name(r, &v->name);
    if (err == NC_NOERR)
        err = name_taken(&h->var_index, h->vars, sizeof *h->vars,
                         offsetof(ncp_var, name), (int)k);
    if (err == NC_NOERR) mark(r, "variable rank", k);
    if (err == NC_NOERR) err = get_nn(r, r->w.nn, &nd);
    if (err == NC_NOERR && nd > NC_MAX_VAR_DIMS) err = NC_EMAXDIMS;
    if (err == NC_NOERR) err = reserve(r, nd, r->w.nn);
    if (err == NC_NOERR && nd > 0) {
        v->dimids = malloc((size_t)nd * sizeof *v->dimids);
        v->shape = malloc((size_t)nd * sizeof *v->shape);
        if (v->dimids == NULL || v->shape == NULL) err = NC_ENOMEM;
    }
    if (err != NC_NOERR) goto done;
    for (i = 0; i < nd && err == NC_NOERR; i++) {
        uint64_t id = 0;
        mark(r, "variable dimension id", k);
        err = get_uint(r, r->w.nn, &id);
        if (err == NC_NOERR && id >= (uint64_t)h->ndims) err = NC_EBADDIM;
        if (err == NC_NOERR && i > 0 && (int)id == h->unlimdimid)
            err = NC_EUNLIMPOS;
        if (err == NC_NOERR) {
            v->dimids[i] = (int)id;
            v->shape[i] = h->dims[id].len;
            v->ndims = (int)i + 1;
        }
    }
    if (err == NC_NOERR) err = get_atts(r, &v->atts, k);
    if (err == NC_NOERR) mark(r, "variable type", k);
    if (err == NC_NOERR) err = get_xtype(r, &v->xtype);
    if (err == NC_NOERR) mark(r, "variable size", k);
    if (err == NC_NOERR) err = get_nn(r, r->w.nn, &v->vsize);
    if (err == NC_NOERR) mark(r, "variable begin", k);
    if (err == NC_NOERR && r->begin_at != NULL) r->begin_at[k] = r->pos;
    /* A CDF-1 begin is read unsigned, as PnetCDF and netCDF read it: a
     * fixed-size variable may begin at 2^31 (format/layout.c, rule 6). */
    if (err == NC_NOERR) err = get_nn(r, r->w.begin, &v->begin);
done:
    return err;
}

static int get_vars(reader *r, ncp_header *h)
{
    /* name + ndims + absent vatt_list + type + vsize + begin */
    int64_t min_entry = (r->w.nn + 4) + r->w.nn + (4 + r->w.nn) + 4 +
                        r->w.nn + r->w.begin;
    int64_t count = 0, i;
    int err = get_list_head(r, TAG_VARIABLE, NC_MAX_VARS, NC_EMAXVARS,
                            min_entry, &count);
    if (err != NC_NOERR || count == 0) goto done;
    h->vars = calloc((size_t)count, sizeof *h->vars);
    if (h->vars == NULL) {
        err = NC_ENOMEM;
        goto done;
    }
    if (r->diagnose) {
        r->begin_at = calloc((size_t)count, sizeof *r->begin_at);
        if (r->begin_at == NULL) err = NC_ENOMEM;
    }
    for (i = 0; i < count && err == NC_NOERR; i++) {
        h->nvars = (int)i + 1;
        r->at.var = i;
        err = get_var(r, h, i);
    }
done:
    return err;
}

/* Per-variable sizes from the shape; NC_EVARSIZE when they leave int64. */
static int var_sizes(ncp_var *v, int unlimdimid, int64_t *bytes)
{
    int err = NC_NOERR, i;
    int64_t n = 1, xs = ncp_xtype_size(v->xtype);
    v->is_record = v->ndims > 0 && v->dimids[0] == unlimdimid;
    for (i = v->is_record ? 1 : 0; i < v->ndims; i++) {
        if (v->shape[i] > 0 && n > INT64_MAX / v->shape[i]) {
            err = NC_EVARSIZE;
            goto done;
        }
        n *= v->shape[i];
    }
    if (n > (INT64_MAX - 3) / xs) {
        err = NC_EVARSIZE;
        goto done;
    }
    v->nelems_per_rec = n;
    *bytes = n * xs;
    if (*bytes > INT64_MAX - 3 - v->begin) err = NC_EVARSIZE;
done:
    return err;
}

/* Blame variable i's begin field for a placement defect. */
static void blame_begin(reader *r, int i, const char *field)
{
    r->at.offset = r->begin_at != NULL ? r->begin_at[i] : -1;
    r->at.field = field;
    r->at.var = i;
    r->at.entry = i;
}

/*
 * Everything the bytes imply beyond themselves: shapes, record flags, the
 * section offsets and the record size, and the placement checks.  Each
 * class of variables (fixed, record) must appear in ascending file order
 * in definition order without overlap, starting after the header; record
 * variables start after the fixed ones and fit in one record.
 */
static int derive(reader *r, ncp_header *h, int64_t xsz)
{
    int err = NC_NOERR, pass, i;
    int64_t fix_end = xsz, rec_first = -1, rec_end = 0;
    int64_t fix_first = -1, recsize = 0, last_bytes = 0;

    h->xsz = xsz;
    h->num_rec_vars = 0;
    h->num_fix_vars = 0;
    for (pass = 0; pass < 2 && err == NC_NOERR; pass++) {
        int64_t prev_end = pass == 0 ? xsz : fix_end;
        for (i = 0; i < h->nvars && err == NC_NOERR; i++) {
            ncp_var *v = &h->vars[i];
            int64_t bytes = 0;
            err = var_sizes(v, h->unlimdimid, &bytes);
            if (err != NC_NOERR)
                blame_begin(r, i, "variable shape: its size is beyond a "
                                  "file offset");
            if (err != NC_NOERR || v->is_record != pass) continue;
            if (v->begin < prev_end) {
                err = NC_ENOTNC;
                blame_begin(r, i, "variable begin: overlaps the header or "
                                  "the variable before it");
                continue;
            }
            prev_end = v->begin + bytes;
            if (pass == 0) {
                if (fix_first < 0) fix_first = v->begin;
                h->num_fix_vars++;
                /* the fixed section ends at the padded end of its last var */
                fix_end = v->begin + bytes + pad4(bytes);
            } else {
                if (rec_first < 0) rec_first = v->begin;
                h->num_rec_vars++;
                last_bytes = bytes;
                if (recsize > INT64_MAX - bytes - 3) {
                    err = NC_EVARSIZE;
                    blame_begin(r, i, "record size: beyond a file offset");
                }
                else recsize += bytes + pad4(bytes);
            }
        }
        if (pass == 1) rec_end = prev_end;
    }
    if (err != NC_NOERR) goto done;
    /* A lone record variable's records are packed without padding. */
    if (h->num_rec_vars == 1) recsize = last_bytes;
    if (h->num_rec_vars > 0 && rec_end - rec_first > recsize) {
        err = NC_ENOTNC; /* record variables would overlap the next record */
        mark(r, "record variables: one record overlaps the next", -1);
        r->at.offset = -1;
        r->at.var = -1;
        goto done;
    }
    h->recsize = recsize;
    h->begin_rec = rec_first >= 0 ? rec_first : fix_end;
    h->begin_var = fix_first >= 0 ? fix_first : h->begin_rec;
    /* No variable: nothing places the extent, and PnetCDF 1.12 reports 0
       (a later redef lays the file out afresh from the header size). */
    if (h->nvars == 0) h->begin_var = h->begin_rec = 0;
    if (recsize > 0 && h->numrecs > (INT64_MAX - h->begin_rec) / recsize) {
        err = NC_ENOTNC; /* the records' end would not fit a file offset */
        r->at = (ncp_hdr_defect){4, "numrecs: the records end beyond a "
                                    "file offset", -1, -1};
    }
done:
    return err;
}

static int decode_all(reader *r, ncp_header *h)
{
    static const unsigned char magic[3] = {'C', 'D', 'F'};
    const unsigned char *b = NULL;
    int64_t have = r->avail < 3 ? r->avail : 3;
    uint64_t nrec = 0;
    int err = NC_NOERR;

    /* refuse foreign bytes at once rather than asking for more of them */
    r->at = (ncp_hdr_defect){0, "magic", -1, -1};
    if (have > 0 && memcmp(r->p, magic, (size_t)have) != 0) err = NC_ENOTNC;
    if (err == NC_NOERR) err = take(r, 4, &b);
    if (err == NC_NOERR && memcmp(b, magic, 3) != 0) err = NC_ENOTNC;
    if (err == NC_NOERR) {
        r->at.offset = 3;
        r->at.field = "format version";
        r->format = b[3];
        if (widths_of(r->format, &r->w) != NC_NOERR) err = NC_ENOTNC;
    }
    if (err != NC_NOERR) goto done;
    h->format = r->format;
    mark(r, "numrecs", -1);
    err = get_uint(r, r->w.numrecs, &nrec);
    if (err == NC_NOERR && r->w.numrecs == 4 && nrec == UINT32_MAX)
        err = NC_ENOTNC; /* "streaming": see the file comment */
    if (err == NC_NOERR && nrec > (uint64_t)INT64_MAX) err = NC_ENOTNC;
    if (err != NC_NOERR) goto done;
    h->numrecs = (int64_t)nrec;
    err = get_dims(r, h);
    if (err == NC_NOERR) err = get_atts(r, &h->gatts, -1);
    r->at.var = -1;
    if (err == NC_NOERR) err = get_vars(r, h);
    if (err == NC_NOERR) err = derive(r, h, r->pos);
done:
    return err;
}

int ncp_header_decode(const void *buf, int64_t len, int64_t file_size,
                      ncp_header *h, int64_t *need)
{
    return ncp_header_decode_diag(buf, len, file_size, h, need, NULL);
}

int ncp_header_decode_diag(const void *buf, int64_t len, int64_t file_size,
                           ncp_header *h, int64_t *need, ncp_hdr_defect *d)
{
    int err = NC_NOERR;
    reader r;
    ncp_header t;

    ncp_header_init(&t, NCP_CDF1);
    if (h == NULL || len < 0 || file_size < 0 || (buf == NULL && len > 0)) {
        err = NC_EINVAL;
        goto done;
    }
    memset(&r, 0, sizeof r);
    r.p = buf;
    r.avail = len < file_size ? len : file_size;
    r.fsize = file_size;
    r.diagnose = d != NULL;
    r.at = (ncp_hdr_defect){0, "magic", -1, -1};
    err = decode_all(&r, &t);
    free(r.begin_at);
    if (d != NULL) *d = r.at;
    if (err == NCP_HDR_NEED_MORE && need != NULL) {
        /* grow at least geometrically so a huge header costs few rounds */
        int64_t grow = len > file_size / 2 ? file_size : 2 * len;
        *need = r.need > grow ? r.need : grow;
    }
done:
    if (err == NC_NOERR) *h = t;
    else ncp_header_free(&t);
    return err;
}

int ncp_is_hdf5_signature(const unsigned char sig[8])
{
    static const unsigned char hdf5[8] = {0x89, 'H', 'D', 'F',
                                          '\r', '\n', 0x1a, '\n'};
    return memcmp(sig, hdf5, 8) == 0;
}
