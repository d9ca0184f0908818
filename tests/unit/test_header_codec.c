/*
 * test_header_codec.c -- the classic header codec (src/format/header*.c):
 * round trips in CDF-1, CDF-2 and CDF-5 with every type, byte-exact
 * agreement with files that ncgen wrote, and one hand-made byte buffer per
 * decoding error class, plus truncation at every offset and byte flips.
 *
 * Usage: test_header_codec [file.nc ...]   (files are headers to check;
 * CMake passes the ncgen fixtures and the fuzz seed corpus).  Plain C, no
 * MPI.  Exit status 0 means every check passed.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <pnetcdf.h>

#include "format/ncp_header.h"
#include "format/ncp_header_build.h"
#include "format/ncp_xconv.h"

static int n_pass, n_fail;

/* Counts, and names the failing line; never leaves the caller. */
#define CHECK(cond, ...)                                                      \
    do {                                                                      \
        if (cond) {                                                           \
            n_pass++;                                                         \
        } else {                                                              \
            n_fail++;                                                         \
            fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__);              \
            fprintf(stderr, __VA_ARGS__);                                     \
            fputc('\n', stderr);                                              \
        }                                                                     \
    } while (0)

/* ------------------------------------------------------------------ */
/* helpers                                                              */

static int encode_alloc(const ncp_header *h, unsigned char **buf, int64_t *n)
{
    int err = ncp_header_encoded_size(h, n);
    *buf = NULL;
    if (err != NC_NOERR) return err;
    *buf = malloc((size_t)*n + 1);
    if (*buf == NULL) return NC_ENOMEM;
    return ncp_header_encode(h, *buf, *n);
}

/* Decode, re-encode and demand the very same bytes back. */
static int decode_reencodes(const unsigned char *buf, int64_t len,
                            int64_t fsize, ncp_header *out)
{
    ncp_header h;
    unsigned char *again = NULL;
    int64_t n = 0, need = 0;
    int err;

    ncp_header_init(&h, NCP_CDF1);
    err = ncp_header_decode(buf, len, fsize, &h, &need);
    if (err != NC_NOERR) return err;
    if (encode_alloc(&h, &again, &n) != NC_NOERR || n != h.xsz ||
        n > len || memcmp(again, buf, (size_t)n) != 0)
        err = -9999;
    free(again);
    if (out != NULL && err == NC_NOERR) *out = h;
    else ncp_header_free(&h);
    return err;
}

/* Big-endian value of xtype from a double, for attribute payloads. */
static void put_be(unsigned char *dst, int xtype, double v)
{
    int size = ncp_xtype_size(xtype), i;
    uint64_t bits = 0;
    if (xtype == NC_FLOAT) {
        float f = (float)v;
        uint32_t u;
        memcpy(&u, &f, 4);
        bits = u;
    } else if (xtype == NC_DOUBLE) {
        memcpy(&bits, &v, 8);
    } else if (v < 0) {
        bits = (uint64_t)(int64_t)v;
    } else {
        bits = (uint64_t)v;
    }
    for (i = 0; i < size; i++)
        dst[i] = (unsigned char)(bits >> (8 * (size - 1 - i)));
}

/*
 * A plain layout good enough for round trips: fixed variables after the
 * header in definition order, then the record variables; vsize padded to
 * 4, begins 4-aligned.  (The real rules live in layout.c.)
 */
static void simple_layout(ncp_header *h)
{
    int64_t xsz = 0, off;
    int i, pass;
    ncp_header_encoded_size(h, &xsz);
    off = xsz;
    for (pass = 0; pass < 2; pass++) {
        for (i = 0; i < h->nvars; i++) {
            ncp_var *v = &h->vars[i];
            int64_t bytes = v->nelems_per_rec * ncp_xtype_size(v->xtype);
            if (v->is_record != pass) continue;
            v->vsize = (bytes + 3) & ~(int64_t)3;
            v->begin = off;
            off += v->vsize;
        }
    }
}

/* ------------------------------------------------------------------ */
/* round trips of headers built in memory                              */

static const int all_types[] = {NC_BYTE,   NC_CHAR,  NC_SHORT,  NC_INT,
                                NC_FLOAT,  NC_DOUBLE, NC_UBYTE, NC_USHORT,
                                NC_UINT,   NC_INT64, NC_UINT64};

static void build_everything(ncp_header *h, int format)
{
    int ntypes = format == NCP_CDF5 ? 11 : 6, t, unl, y, x, d2[2], d3[3];
    unsigned char val[3 * 8];
    char name[64];

    ncp_header_init(h, format);
    h->numrecs = 7;
    ncp_hdr_add_dim(h, "time", 0, &unl);
    ncp_hdr_add_dim(h, "y", 3, &y);
    ncp_hdr_add_dim(h, "x", 5, &x);
    ncp_hdr_add_att(&h->gatts, "title", NC_CHAR, 5, "hello");
    ncp_hdr_add_att(&h->gatts, "empty", NC_CHAR, 0, NULL);
    for (t = 0; t < ntypes; t++) {
        int xt = all_types[t], sz = ncp_xtype_size(xt), k, vid;
        for (k = 0; k < 3; k++)
            put_be(val + k * sz, xt, xt == NC_CHAR ? 'a' + k : (k + 1) * 3);
        snprintf(name, sizeof name, "g_%d", xt);
        ncp_hdr_add_att(&h->gatts, name, xt, 1 + t % 3, val);

        d2[0] = y;
        d2[1] = x;
        snprintf(name, sizeof name, "fixed_%d", xt);
        ncp_hdr_add_var(h, name, xt, 2, d2, &vid);
        ncp_hdr_add_att(&h->vars[vid].atts, "a", xt, 3, val);
        ncp_hdr_add_att(&h->vars[vid].atts, "units", NC_CHAR, 1, "m");

        snprintf(name, sizeof name, "scalar_%d", xt);
        ncp_hdr_add_var(h, name, xt, 0, NULL, NULL);

        d3[0] = unl;
        d3[1] = y;
        d3[2] = x;
        snprintf(name, sizeof name, "rec_%d", xt);
        ncp_hdr_add_var(h, name, xt, 1 + t % 3, d3, &vid);
        ncp_hdr_add_att(&h->vars[vid].atts, "one", xt, 1, val);
    }
    simple_layout(h);
}

static int same_header(const ncp_header *a, const ncp_header *b)
{
    int i, j;
    if (a->format != b->format || a->numrecs != b->numrecs ||
        a->ndims != b->ndims || a->nvars != b->nvars ||
        a->unlimdimid != b->unlimdimid || a->gatts.n != b->gatts.n)
        return 0;
    for (i = 0; i < a->ndims; i++)
        if (strcmp(a->dims[i].name, b->dims[i].name) ||
            a->dims[i].len != b->dims[i].len)
            return 0;
    for (i = 0; i < a->nvars; i++) {
        const ncp_var *u = &a->vars[i], *v = &b->vars[i];
        if (strcmp(u->name, v->name) || u->xtype != v->xtype ||
            u->ndims != v->ndims || u->vsize != v->vsize ||
            u->begin != v->begin || u->is_record != v->is_record ||
            u->nelems_per_rec != v->nelems_per_rec || u->atts.n != v->atts.n)
            return 0;
        for (j = 0; j < u->ndims; j++)
            if (u->dimids[j] != v->dimids[j] || u->shape[j] != v->shape[j])
                return 0;
        for (j = 0; j < u->atts.n; j++)
            if (strcmp(u->atts.a[j].name, v->atts.a[j].name) ||
                u->atts.a[j].nelems != v->atts.a[j].nelems)
                return 0;
    }
    for (i = 0; i < a->gatts.n; i++) {
        const ncp_att *p = &a->gatts.a[i], *q = &b->gatts.a[i];
        int64_t n = p->nelems * ncp_xtype_size(p->xtype);
        if (strcmp(p->name, q->name) || p->xtype != q->xtype ||
            p->nelems != q->nelems || (n && memcmp(p->xvalue, q->xvalue, (size_t)n)))
            return 0;
    }
    return 1;
}

static void test_roundtrip_built(void)
{
    static const int formats[] = {NCP_CDF1, NCP_CDF2, NCP_CDF5};
    int f;
    for (f = 0; f < 3; f++) {
        ncp_header h, d, c;
        unsigned char *buf = NULL;
        int64_t n = 0, need = 0;
        int err;
        build_everything(&h, formats[f]);
        err = encode_alloc(&h, &buf, &n);
        CHECK(err == NC_NOERR, "encode CDF-%d: %d", formats[f], err);
        ncp_header_init(&d, NCP_CDF1);
        err = ncp_header_decode(buf, n, n + 100000, &d, &need);
        CHECK(err == NC_NOERR, "decode CDF-%d: %d", formats[f], err);
        if (err == NC_NOERR) {
            int rec = 0, fix = 0, i;
            int64_t recsize = 0;
            CHECK(same_header(&h, &d), "CDF-%d decoded differs", formats[f]);
            CHECK(d.xsz == n, "xsz %lld != %lld", (long long)d.xsz, (long long)n);
            for (i = 0; i < h.nvars; i++) {
                if (h.vars[i].is_record) {
                    rec++;
                    recsize += h.vars[i].vsize;
                } else {
                    fix++;
                }
            }
            CHECK(d.num_rec_vars == rec && d.num_fix_vars == fix, "counts");
            CHECK(d.recsize == recsize, "recsize %lld", (long long)d.recsize);
            CHECK(d.begin_var == n, "begin_var %lld", (long long)d.begin_var);
            CHECK(d.unlimdimid == 0, "unlimdimid");
            CHECK(decode_reencodes(buf, n, n, NULL) == NC_NOERR, "re-encode");
            err = ncp_header_copy(&c, &d);
            CHECK(err == NC_NOERR && same_header(&c, &d), "copy");
            if (err == NC_NOERR) ncp_header_free(&c);
            ncp_header_free(&d);
            ncp_header_free(&d); /* a second free must be harmless */
        }
        free(buf);
        ncp_header_free(&h);
    }
}

/* Exactly one record variable: its records are packed unpadded. */
static void test_one_record_var(void)
{
    ncp_header h, d;
    unsigned char *buf = NULL;
    int64_t n = 0, need = 0;
    int t, k, dims[2];

    ncp_header_init(&h, NCP_CDF2);
    ncp_hdr_add_dim(&h, "t", 0, &t);
    ncp_hdr_add_dim(&h, "k", 3, &k);
    dims[0] = t;
    dims[1] = k;
    ncp_hdr_add_var(&h, "only", NC_SHORT, 2, dims, NULL);
    simple_layout(&h);
    encode_alloc(&h, &buf, &n);
    ncp_header_init(&d, NCP_CDF1);
    CHECK(ncp_header_decode(buf, n, n, &d, &need) == NC_NOERR, "decode one rec");
    CHECK(d.recsize == 6 && d.vars[0].vsize == 8, "recsize %lld vsize %lld",
          (long long)d.recsize, (long long)d.vars[0].vsize);
    CHECK(d.begin_rec == n && d.begin_var == n, "one rec begins");
    ncp_header_free(&d);
    ncp_header_free(&h);
    free(buf);
}

static void test_encode_errors(void)
{
    ncp_header h;
    unsigned char buf[256];
    int64_t n = 0;
    ncp_header_init(&h, NCP_CDF1);
    CHECK(ncp_header_encoded_size(&h, &n) == NC_NOERR && n == 32, "empty %lld",
          (long long)n);
    CHECK(ncp_header_encode(&h, buf, 31) == NC_EINVAL, "short buffer");
    h.numrecs = 0xFFFFFFFFLL;
    CHECK(ncp_header_encode(&h, buf, sizeof buf) == NC_EINVAL, "streaming");
    h.numrecs = 0;
    h.format = 3;
    CHECK(ncp_header_encoded_size(&h, &n) == NC_EINVAL, "bad format");
    h.format = NCP_CDF1;
    ncp_hdr_add_dim(&h, "x", 2, NULL);
    CHECK(ncp_hdr_add_var(&h, "u", NC_UBYTE, 0, NULL, NULL) == NC_EBADTYPE,
          "ubyte in CDF-1");
    CHECK(ncp_hdr_add_dim(&h, "t", 0, NULL) == NC_NOERR, "unlimited");
    CHECK(ncp_hdr_add_dim(&h, "t2", 0, NULL) == NC_EUNLIMIT, "second unlimited");
    ncp_hdr_add_var(&h, "v", NC_INT, 0, NULL, NULL);
    h.vars[0].begin = 0x80000000LL; /* a CDF-1 begin, read unsigned */
    CHECK(ncp_header_encoded_size(&h, &n) == NC_NOERR, "CDF-1 begin 2^31");
    h.vars[0].begin = 0x100000000LL; /* not a CDF-1 offset */
    CHECK(ncp_header_encoded_size(&h, &n) == NC_EINTOVERFLOW,
          "CDF-1 begin 2^32");
    h.vars[0].xtype = NC_UINT64;
    h.vars[0].begin = 100;
    CHECK(ncp_header_encoded_size(&h, &n) == NC_EBADTYPE, "encode bad type");
    ncp_header_free(&h);
    CHECK(ncp_header_encoded_size(NULL, &n) == NC_EINVAL, "NULL header");
}

/* ------------------------------------------------------------------ */
/* hand-made byte buffers, one per error class                          */

typedef struct raw {
    unsigned char b[8192];
    int64_t n;
    int nn;    /* width of counts and lengths */
    int bw;    /* width of begin */
} raw;

static void r_u(raw *r, int width, uint64_t v)
{
    int i;
    for (i = 0; i < width; i++)
        r->b[r->n++] = (unsigned char)(v >> (8 * (width - 1 - i)));
}

static void r_init(raw *r, int version, uint64_t numrecs)
{
    memset(r, 0, sizeof *r);
    r->nn = version == 5 ? 8 : 4;
    r->bw = version == 1 ? 4 : 8;
    memcpy(r->b, "CDF", 3);
    r->b[3] = (unsigned char)version;
    r->n = 4;
    r_u(r, r->nn, numrecs);
}

static void r_bytes(raw *r, const void *p, int64_t n, unsigned char padc)
{
    memcpy(r->b + r->n, p, (size_t)n);
    r->n += n;
    while (r->n % 4) r->b[r->n++] = padc;
}

static void r_name(raw *r, const char *s)
{
    r_u(r, r->nn, strlen(s));
    r_bytes(r, s, (int64_t)strlen(s), 0);
}

static void r_absent(raw *r)
{
    r_u(r, 4, 0);
    r_u(r, r->nn, 0);
}

static void r_head(raw *r, int tag, uint64_t n)
{
    r_u(r, 4, (uint64_t)tag);
    r_u(r, r->nn, n);
}

/* A variable without attributes; returns where its begin field is. */
static int64_t r_var(raw *r, const char *name, int ndims, const uint64_t *ids,
                     int xtype, uint64_t vsize, uint64_t begin)
{
    int i;
    int64_t at;
    r_name(r, name);
    r_u(r, r->nn, (uint64_t)ndims);
    for (i = 0; i < ndims; i++) r_u(r, r->nn, ids[i]);
    r_absent(r);
    r_u(r, 4, (uint64_t)xtype);
    r_u(r, r->nn, vsize);
    at = r->n;
    r_u(r, r->bw, begin);
    return at;
}

static void r_patch(raw *r, int64_t at, int width, uint64_t v)
{
    int64_t keep = r->n;
    r->n = at;
    r_u(r, width, v);
    r->n = keep;
}

static int dec(const raw *r, int64_t fsize)
{
    ncp_header h;
    int64_t need = 0;
    int err;
    ncp_header_init(&h, NCP_CDF1);
    err = ncp_header_decode(r->b, r->n, fsize < 0 ? r->n : fsize, &h, &need);
    ncp_header_free(&h);
    return err;
}

/* dims "x"=4 and "t"=unlimited, then a caller-supplied rest */
static void r_two_dims(raw *r, int version)
{
    r_init(r, version, 0);
    r_head(r, 0x0A, 2);
    r_name(r, "x");
    r_u(r, r->nn, 4);
    r_name(r, "t");
    r_u(r, r->nn, 0);
    r_absent(r);
}

static void test_error_classes(void)
{
    raw r;
    int64_t at, at2;
    uint64_t ids[2];
    int v;

    /* magic and version */
    r_init(&r, 1, 0);
    r_absent(&r); r_absent(&r); r_absent(&r);
    CHECK(dec(&r, -1) == NC_NOERR, "minimal CDF-1");
    r.b[2] = 'G';
    CHECK(dec(&r, -1) == NC_ENOTNC, "bad magic");
    r.b[2] = 'F';
    for (v = 0; v < 256; v++) {
        int err;
        r.b[3] = (unsigned char)v;
        err = dec(&r, -1);
        if (v == 1 || v == 2)
            CHECK(err == NC_NOERR, "version %d: %d", v, err);
        else
            CHECK(err == NC_ENOTNC, "version %d: %d", v, err); /* 5 too short */
    }
    CHECK(ncp_header_decode("HDF", 3, 1000, NULL, NULL) == NC_EINVAL, "NULL h");

    /* numrecs */
    r_init(&r, 2, 0xFFFFFFFFu);
    r_absent(&r); r_absent(&r); r_absent(&r);
    CHECK(dec(&r, -1) == NC_ENOTNC, "streaming numrecs");
    r_init(&r, 5, 0x8000000000000000ull);
    r_absent(&r); r_absent(&r); r_absent(&r);
    CHECK(dec(&r, -1) == NC_ENOTNC, "negative CDF-5 numrecs");

    /* list heads */
    r_init(&r, 1, 0);
    r_head(&r, 0x0A, 0);
    r_absent(&r); r_absent(&r);
    CHECK(dec(&r, -1) == NC_ENOTNC, "tag with zero count");
    r_init(&r, 1, 0);
    r_head(&r, 0, 1);
    r_name(&r, "x");
    r_u(&r, 4, 1);
    r_absent(&r); r_absent(&r);
    CHECK(dec(&r, -1) == NC_ENOTNC, "zero tag with a count");
    r_init(&r, 1, 0);
    r_head(&r, 0x0B, 1);
    r_name(&r, "x");
    r_u(&r, 4, 1);
    r_absent(&r); r_absent(&r);
    CHECK(dec(&r, -1) == NC_ENOTNC, "wrong tag");

    /* huge counts: refused or asked for, never allocated */
    r_init(&r, 5, 0);
    r_head(&r, 0x0A, 0x7FFFFFFF);
    CHECK(dec(&r, -1) == NC_ENOTNC, "huge dim count, small file");
    {
        ncp_header h;
        int64_t need = 0;
        int err;
        ncp_header_init(&h, NCP_CDF1);
        err = ncp_header_decode(r.b, r.n, INT64_MAX / 2, &h, &need);
        CHECK(err == NCP_HDR_NEED_MORE && need >= r.n + 0x7FFFFFFFLL * 16,
              "huge count, large file: %d need %lld", err, (long long)need);
    }
    r_init(&r, 5, 0);
    r_head(&r, 0x0A, 0x80000000ull);
    CHECK(dec(&r, INT64_MAX) == NC_EMAXDIMS, "count above NC_MAX_DIMS");

    /* names */
    {
        static const struct { const char *name; int err; } cases[] = {
            {"9lives", NC_NOERR},      {"_x", NC_NOERR},
            {"a b", NC_NOERR},         {"\xc3\xb1" "ame", NC_NOERR},
            {"\xe2\x82\xac", NC_NOERR}, {"\xf0\x9f\x98\x80", NC_NOERR},
            {"a/b", NC_EBADNAME},      {"trail ", NC_EBADNAME},
            {"-x", NC_EBADNAME},       {" x", NC_EBADNAME},
            {"a\tb", NC_EBADNAME},     {"a\x7f", NC_EBADNAME},
            {"\xc0\xaf", NC_EBADNAME}, {"\xed\xa0\x80", NC_EBADNAME},
            {"\xe0\x80\xaf", NC_EBADNAME}, {"\xf4\x90\x80\x80", NC_EBADNAME},
            {"x\xc3", NC_EBADNAME},    {"\x80x", NC_EBADNAME},
        };
        size_t i;
        for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
            r_init(&r, 1, 0);
            r_head(&r, 0x0A, 1);
            r_name(&r, cases[i].name);
            r_u(&r, 4, 3);
            r_absent(&r); r_absent(&r);
            CHECK(dec(&r, -1) == cases[i].err, "name case %zu: %d", i, dec(&r, -1));
        }
    }
    r_init(&r, 1, 0);
    r_head(&r, 0x0A, 1);
    r_u(&r, 4, 0); /* empty name */
    r_u(&r, 4, 3);
    r_absent(&r); r_absent(&r);
    CHECK(dec(&r, -1) == NC_EBADNAME, "empty name");
    {
        char big[300];
        memset(big, 'a', sizeof big);
        big[257] = 0;
        r_init(&r, 1, 0);
        r_head(&r, 0x0A, 1);
        r_name(&r, big);
        r_u(&r, 4, 3);
        r_absent(&r); r_absent(&r);
        CHECK(dec(&r, -1) == NC_EMAXNAME, "name of 257 bytes");
        big[256] = 0;
        r_init(&r, 1, 0);
        r_head(&r, 0x0A, 1);
        r_name(&r, big);
        r_u(&r, 4, 3);
        r_absent(&r); r_absent(&r);
        CHECK(dec(&r, -1) == NC_NOERR, "name of 256 bytes");
    }
    r_init(&r, 1, 0);
    r_head(&r, 0x0A, 1);
    r_u(&r, 4, 1);
    r_bytes(&r, "x", 1, 'p'); /* padding not zero */
    r_u(&r, 4, 3);
    r_absent(&r); r_absent(&r);
    CHECK(dec(&r, -1) == NC_ENULLPAD, "name padding");
    r_init(&r, 1, 0);
    r_head(&r, 0x0A, 2);
    r_name(&r, "x");
    r_u(&r, 4, 3);
    r_name(&r, "x");
    r_u(&r, 4, 4);
    r_absent(&r); r_absent(&r);
    CHECK(dec(&r, -1) == NC_ENAMEINUSE, "duplicate dimension names");

    /* attributes */
    r_init(&r, 1, 0);
    r_absent(&r);
    r_head(&r, 0x0C, 1);
    r_name(&r, "a");
    r_u(&r, 4, NC_SHORT);
    r_u(&r, 4, 1);
    r_bytes(&r, "\x00\x07", 2, 1); /* value padding not zero */
    r_absent(&r);
    CHECK(dec(&r, -1) == NC_ENULLPAD, "attribute padding");
    r.b[r.n - 9] = 0;
    r.b[r.n - 10] = 0;
    CHECK(dec(&r, -1) == NC_NOERR, "attribute padding fixed");
    r_patch(&r, 32, 4, 99); /* the attribute's type */
    CHECK(dec(&r, -1) == NC_EBADTYPE, "attribute type 99");
    r_patch(&r, 32, 4, NC_UINT);
    CHECK(dec(&r, -1) == NC_EBADTYPE, "NC_UINT attribute in CDF-1");
    r_patch(&r, 32, 4, NC_SHORT);
    r_patch(&r, 36, 4, 0x7FFFFFFF); /* nelems far beyond the file */
    CHECK(dec(&r, -1) == NC_ENOTNC, "attribute longer than the file");
    r_init(&r, 1, 0);
    r_absent(&r);
    r_head(&r, 0x0C, 2);
    r_name(&r, "a");
    r_u(&r, 4, NC_CHAR);
    r_u(&r, 4, 0);
    r_name(&r, "a");
    r_u(&r, 4, NC_CHAR);
    r_u(&r, 4, 0);
    r_absent(&r);
    CHECK(dec(&r, -1) == NC_ENAMEINUSE, "duplicate attribute names");

    /* dimensions and variables */
    r_init(&r, 1, 0);
    r_head(&r, 0x0A, 2);
    r_name(&r, "a");
    r_u(&r, 4, 0);
    r_name(&r, "b");
    r_u(&r, 4, 0);
    r_absent(&r); r_absent(&r);
    CHECK(dec(&r, -1) == NC_EUNLIMIT, "two unlimited dimensions");
    r_init(&r, 5, 0);
    r_head(&r, 0x0A, 1);
    r_name(&r, "a");
    r_u(&r, 8, 0x8000000000000000ull);
    r_absent(&r); r_absent(&r);
    CHECK(dec(&r, -1) == NC_EBADDIM, "negative CDF-5 dimension");

    r_two_dims(&r, 1);
    r_head(&r, 0x0B, 1);
    ids[0] = 2;
    at = r_var(&r, "v", 1, ids, NC_INT, 16, 0);
    r_patch(&r, at, 4, (uint64_t)r.n);
    CHECK(dec(&r, -1) == NC_EBADDIM, "dimid out of range");
    r_two_dims(&r, 1);
    r_head(&r, 0x0B, 1);
    ids[0] = 0;
    ids[1] = 1;
    at = r_var(&r, "v", 2, ids, NC_INT, 0, 0);
    r_patch(&r, at, 4, (uint64_t)r.n);
    CHECK(dec(&r, -1) == NC_EUNLIMPOS, "unlimited not first");
    r_two_dims(&r, 1);
    r_head(&r, 0x0B, 1);
    ids[0] = 1;
    ids[1] = 0;
    at = r_var(&r, "v", 2, ids, NC_INT, 16, 0);
    r_patch(&r, at, 4, (uint64_t)r.n);
    CHECK(dec(&r, -1) == NC_NOERR, "record variable");
    r_patch(&r, at - 8, 4, 0);
    CHECK(dec(&r, -1) == NC_EBADTYPE, "variable type 0");
    r_patch(&r, at - 8, 4, NC_INT64);
    CHECK(dec(&r, -1) == NC_EBADTYPE, "NC_INT64 variable in CDF-1");
    r_patch(&r, at - 8, 4, NC_INT);
    r_patch(&r, at, 4, 0x80000000u);
    CHECK(dec(&r, -1) == NC_NOERR, "CDF-1 begin with the sign bit");
    r_patch(&r, at, 4, 8);
    CHECK(dec(&r, -1) == NC_ENOTNC, "begin inside the header");
    r_patch(&r, at, 4, 1u << 30);
    CHECK(dec(&r, -1) == NC_NOERR, "begin beyond the end of the file");
    r_patch(&r, 4, 4, 0xFFFFFFF0u);
    CHECK(dec(&r, -1) == NC_NOERR, "many records");

    /* placement of two fixed variables */
    r_two_dims(&r, 2);
    r_head(&r, 0x0B, 2);
    ids[0] = 0;
    at = r_var(&r, "v", 1, ids, NC_INT, 16, 0);
    at2 = r_var(&r, "w", 1, ids, NC_INT, 16, 0);
    r_patch(&r, at, 8, (uint64_t)r.n);
    r_patch(&r, at2, 8, (uint64_t)r.n + 16);
    CHECK(dec(&r, -1) == NC_NOERR, "two fixed variables");
    r_patch(&r, at2, 8, (uint64_t)r.n + 12);
    CHECK(dec(&r, -1) == NC_ENOTNC, "overlapping fixed variables");
    r_patch(&r, at2, 8, (uint64_t)r.n);
    r_patch(&r, at, 8, (uint64_t)r.n + 16);
    CHECK(dec(&r, -1) == NC_ENOTNC, "fixed variables out of order");
    r_patch(&r, at, 8, 0x7FFFFFFFFFFFFFF0ull);
    r_patch(&r, at2, 8, (uint64_t)r.n);
    CHECK(dec(&r, -1) != NC_NOERR, "begin + size past int64");
    CHECK(dec(&r, -1) == NC_EVARSIZE || dec(&r, -1) == NC_ENOTNC, "int64 end");

    /* record variables: after the fixed ones, contiguous */
    r_two_dims(&r, 2);
    r_head(&r, 0x0B, 3);
    ids[0] = 0;
    at = r_var(&r, "f", 1, ids, NC_INT, 16, 0);
    ids[0] = 1;
    at2 = r_var(&r, "r1", 1, ids, NC_SHORT, 4, 0);
    {
        int64_t at3 = r_var(&r, "r2", 1, ids, NC_DOUBLE, 8, 0);
        int64_t x = r.n;
        ncp_header h;
        int64_t need;
        r_patch(&r, at, 8, (uint64_t)x);
        r_patch(&r, at2, 8, (uint64_t)x + 16);
        r_patch(&r, at3, 8, (uint64_t)x + 20);
        ncp_header_init(&h, NCP_CDF1);
        CHECK(ncp_header_decode(r.b, r.n, r.n, &h, &need) == NC_NOERR,
              "fixed + 2 record vars");
        CHECK(h.recsize == 12 && h.begin_rec == x + 16 && h.begin_var == x &&
                  h.num_rec_vars == 2 && h.num_fix_vars == 1,
              "derived: recsize %lld begin_rec %lld", (long long)h.recsize,
              (long long)h.begin_rec);
        ncp_header_free(&h);
        r_patch(&r, at2, 8, (uint64_t)x + 12);
        CHECK(dec(&r, -1) == NC_ENOTNC, "record var inside the fixed section");
        r_patch(&r, at2, 8, (uint64_t)x + 16);
        r_patch(&r, at3, 8, (uint64_t)x + 40);
        CHECK(dec(&r, -1) == NC_ENOTNC, "gap between record variables");
        r_patch(&r, at3, 8, (uint64_t)x + 20);
        r_patch(&r, 4, 4, 0x10);
        CHECK(dec(&r, -1) == NC_NOERR, "16 records");
    }

    /* sizes beyond int64 */
    r_init(&r, 5, 0);
    r_head(&r, 0x0A, 2);
    r_name(&r, "a");
    r_u(&r, 8, 1ull << 40);
    r_name(&r, "b");
    r_u(&r, 8, 1ull << 40);
    r_absent(&r);
    r_head(&r, 0x0B, 1);
    ids[0] = 0;
    ids[1] = 1;
    at = r_var(&r, "v", 2, ids, NC_INT, 0, 0);
    r_patch(&r, at, 8, (uint64_t)r.n);
    CHECK(dec(&r, -1) == NC_EVARSIZE, "shape product overflows");
    r_init(&r, 5, 0x7FFFFFFFFFFFFFFFull);
    r_head(&r, 0x0A, 1);
    r_name(&r, "t");
    r_u(&r, 8, 0);
    r_absent(&r);
    r_head(&r, 0x0B, 1);
    ids[0] = 0;
    at = r_var(&r, "v", 1, ids, NC_DOUBLE, 8, 0);
    r_patch(&r, at, 8, (uint64_t)r.n);
    CHECK(dec(&r, -1) == NC_ENOTNC, "numrecs * recsize overflows");
    r_patch(&r, 4, 8, 1000);
    CHECK(dec(&r, -1) == NC_NOERR, "1000 records of a CDF-5 var");

    /* bad arguments */
    CHECK(dec(&r, r.n - 1) != NC_NOERR, "len > file_size uses file_size");
    {
        ncp_header h;
        int64_t need;
        ncp_header_init(&h, NCP_CDF1);
        CHECK(ncp_header_decode(NULL, 4, 10, &h, &need) == NC_EINVAL, "NULL buf");
        CHECK(ncp_header_decode(r.b, -1, 10, &h, &need) == NC_EINVAL, "len < 0");
        CHECK(ncp_header_decode(r.b, 0, 0, &h, &need) == NC_ENOTNC, "empty file");
        CHECK(ncp_header_decode(r.b, 0, 100, &h, &need) == NCP_HDR_NEED_MORE &&
                  need > 0,
              "nothing read yet");
    }
}

/* ------------------------------------------------------------------ */
/* whole-buffer properties: truncation, incremental reads, flips        */

static void check_buffer(const char *what, const unsigned char *buf,
                         int64_t fsize, int whole_file)
{
    ncp_header h;
    int64_t need = 0, len, xsz;
    int err, bad = 0;
    unsigned char *m;

    ncp_header_init(&h, NCP_CDF1);
    err = decode_reencodes(buf, fsize, fsize, &h);
    CHECK(err == NC_NOERR, "%s: decode + re-encode: %d", what, err);
    if (err != NC_NOERR) return;
    xsz = h.xsz;
    if (whole_file && h.num_rec_vars > 0)
        CHECK(h.begin_rec + h.numrecs * h.recsize == fsize,
              "%s: begin_rec %lld + numrecs %lld * recsize %lld != size %lld",
              what, (long long)h.begin_rec, (long long)h.numrecs,
              (long long)h.recsize, (long long)fsize);
    ncp_header_free(&h);

    /* truncated file: an error, never success, never a request for more */
    for (len = 0; len < xsz; len++) {
        err = ncp_header_decode(buf, len, len, &h, &need);
        if (err == NC_NOERR) ncp_header_free(&h);
        if (err == NC_NOERR || err == NCP_HDR_NEED_MORE) bad++;
    }
    CHECK(bad == 0, "%s: %d truncations accepted", what, bad);

    /* short read of a whole file: asks for more, then succeeds */
    for (len = 0, bad = 0; len < xsz; len++) {
        err = ncp_header_decode(buf, len, fsize, &h, &need);
        if (err == NC_NOERR) ncp_header_free(&h);
        if (err != NCP_HDR_NEED_MORE || need <= len || need > fsize) bad++;
    }
    CHECK(bad == 0, "%s: %d short reads not answered with NEED_MORE", what, bad);
    for (len = 1, err = NCP_HDR_NEED_MORE; err == NCP_HDR_NEED_MORE; len = need)
        err = ncp_header_decode(buf, len, fsize, &h, &need);
    CHECK(err == NC_NOERR, "%s: incremental read: %d", what, err);
    if (err == NC_NOERR) ncp_header_free(&h);

    /* single-byte corruption: no crash; whatever decodes re-encodes */
    m = malloc((size_t)fsize);
    memcpy(m, buf, (size_t)fsize);
    bad = 0;
    for (len = 0; len < xsz; len++) {
        static const unsigned char masks[] = {0x01, 0x80, 0xFF, 0x20};
        size_t k;
        for (k = 0; k < sizeof masks; k++) {
            m[len] ^= masks[k];
            err = decode_reencodes(m, fsize, fsize, NULL);
            if (err == -9999) bad++;
            m[len] ^= masks[k];
        }
    }
    CHECK(bad == 0, "%s: %d flipped headers decoded but did not re-encode",
          what, bad);
    free(m);
}

static void test_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    unsigned char *buf = NULL;
    long n = -1;
    if (f != NULL && fseek(f, 0, SEEK_END) == 0) n = ftell(f);
    CHECK(n > 0, "%s: cannot read", path);
    if (n > 0 && fseek(f, 0, SEEK_SET) == 0 && (buf = malloc((size_t)n)) &&
        fread(buf, 1, (size_t)n, f) == (size_t)n)
        check_buffer(path, buf, n, 1);
    free(buf);
    if (f) fclose(f);
}

static void test_built_buffers(void)
{
    static const int formats[] = {NCP_CDF1, NCP_CDF2, NCP_CDF5};
    int f;
    for (f = 0; f < 3; f++) {
        ncp_header h;
        unsigned char *buf = NULL;
        int64_t n = 0;
        char what[32];
        build_everything(&h, formats[f]);
        h.numrecs = 0;
        if (encode_alloc(&h, &buf, &n) == NC_NOERR) {
            snprintf(what, sizeof what, "built CDF-%d", formats[f]);
            check_buffer(what, buf, n, 0);
        }
        free(buf);
        ncp_header_free(&h);
    }
}

int main(int argc, char **argv)
{
    int i;
    test_roundtrip_built();
    test_one_record_var();
    test_encode_errors();
    test_error_classes();
    test_built_buffers();
    for (i = 1; i < argc; i++) test_file(argv[i]);
    printf("test_header_codec: %d passed, %d failed (%d files)\n", n_pass,
           n_fail, argc - 1);
    return n_fail == 0 ? 0 : 1;
}
