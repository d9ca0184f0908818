/*
 * test_layout.c -- unit tests of src/format/layout.c (no MPI).
 *
 * Every expectation below was measured from Debian's PnetCDF 1.12.3
 * (ncmpi_inq_header_size, _header_extent, _varoffset, _recsize after
 * enddef) for the same schema and alignment settings; the probes are
 * described in docs/notes/pnetcdf-compat.md.  The schemas:
 *   S1: dims t=UNLIMITED, x=3, y=5; vars a(x) short, b(x,y) double,
 *       r(t,x) short, s(t,x) byte
 *   S2: dims t=UNLIMITED, x=3; vars a(x) short, r(t,x) short, s(t) byte
 * Prints "N passed, M failed"; exit status 0 only when M is 0.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <pnetcdf.h>

#include "format/ncp_header.h"
#include "format/ncp_header_build.h"

static long passed, failed;

static void expect(int64_t got, int64_t want, const char *what)
{
    if (got == want) {
        passed++;
        return;
    }
    failed++;
    printf("FAIL %s: got %lld want %lld\n", what, (long long)got,
           (long long)want);
}

static void build_s1(ncp_header *h, int format)
{
    int d[3], v;
    ncp_header_init(h, format);
    ncp_hdr_add_dim(h, "t", 0, &d[0]);
    ncp_hdr_add_dim(h, "x", 3, &d[1]);
    ncp_hdr_add_dim(h, "y", 5, &d[2]);
    ncp_hdr_add_var(h, "a", NC_SHORT, 1, &d[1], &v);
    ncp_hdr_add_var(h, "b", NC_DOUBLE, 2, &d[1], &v);
    ncp_hdr_add_var(h, "r", NC_SHORT, 2, d, &v);
    ncp_hdr_add_var(h, "s", NC_BYTE, 2, d, &v);
}

static void build_s2(ncp_header *h)
{
    int d[2], v;
    ncp_header_init(h, NCP_CDF1);
    ncp_hdr_add_dim(h, "t", 0, &d[0]);
    ncp_hdr_add_dim(h, "x", 3, &d[1]);
    ncp_hdr_add_var(h, "a", NC_SHORT, 1, &d[1], &v);
    ncp_hdr_add_var(h, "r", NC_SHORT, 2, d, &v);
    ncp_hdr_add_var(h, "s", NC_BYTE, 1, d, &v);
}

static ncp_layout_params params(int64_t h_align, int64_t v_align,
                                int64_t r_align, int64_t h_minfree,
                                int64_t v_minfree)
{
    ncp_layout_params p;
    p.h_minfree = h_minfree;
    p.h_align = h_align;
    p.v_align = v_align;
    p.v_minfree = v_minfree;
    p.r_align = r_align;
    return p;
}

/* Defaults: header extent 512, 4-byte alignment elsewhere, all formats. */
static void test_defaults(void)
{
    static const struct {
        int format;
        int64_t hsize;
    } cases[] = {{NCP_CDF1, 224}, {NCP_CDF2, 240}, {NCP_CDF5, 372}};
    size_t k;
    for (k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        ncp_header h;
        ncp_layout_params p = params(512, 4, 4, 0, 0);
        build_s1(&h, cases[k].format);
        expect(ncp_layout_compute(&h, NULL, &p), NC_NOERR, "S1 compute");
        expect(h.xsz, cases[k].hsize, "S1 header size");
        expect(h.begin_var, 512, "S1 extent");
        expect(h.vars[0].begin, 512, "S1 a");
        expect(h.vars[1].begin, 520, "S1 b");
        expect(h.vars[2].begin, 640, "S1 r");
        expect(h.vars[3].begin, 648, "S1 s");
        expect(h.recsize, 12, "S1 recsize");
        ncp_header_free(&h);
    }
}

/* nc_var_align_size=1024 aligns every fixed var and the record section. */
static void test_var_align_hint(void)
{
    ncp_header h;
    ncp_layout_params p = params(512, 1024, 1024, 0, 0);
    build_s1(&h, NCP_CDF1);
    expect(ncp_layout_compute(&h, NULL, &p), NC_NOERR, "V compute");
    expect(h.begin_var, 1024, "V extent");
    expect(h.vars[1].begin, 2048, "V b");
    expect(h.vars[2].begin, 3072, "V r");
    expect(h.vars[3].begin, 3080, "V s");
    ncp_header_free(&h);
}

/* _enddef(1000, 256, 100, 128) on S2: extent roundup(168 + 1000, 256). */
static void test_enddef_args(void)
{
    ncp_header h;
    ncp_layout_params p = params(256, 4, 128, 1000, 100);
    build_s2(&h);
    expect(ncp_layout_compute(&h, NULL, &p), NC_NOERR, "E compute");
    expect(h.xsz, 168, "E header size");
    expect(h.begin_var, 1280, "E extent");
    expect(h.vars[1].begin, 1408, "E r"); /* roundup(1288 + 100, 128) */
    expect(h.vars[2].begin, 1416, "E s");
    expect(h.recsize, 12, "E recsize");
    ncp_header_free(&h);
}

/* A single record variable is not padded: recsize is its raw size. */
static void test_single_record_var(void)
{
    ncp_header h;
    int d[2], v;
    ncp_layout_params p = params(512, 4, 4, 0, 0);
    ncp_header_init(&h, NCP_CDF1);
    ncp_hdr_add_dim(&h, "t", 0, &d[0]);
    ncp_hdr_add_dim(&h, "x", 3, &d[1]);
    ncp_hdr_add_var(&h, "a", NC_SHORT, 1, &d[1], &v);
    ncp_hdr_add_var(&h, "r", NC_SHORT, 2, d, &v);
    expect(ncp_layout_compute(&h, NULL, &p), NC_NOERR, "R compute");
    expect(h.vars[1].begin, 520, "R r");
    expect(h.recsize, 6, "R recsize");
    expect(h.vars[1].vsize, 8, "R vsize stays padded");
    ncp_header_free(&h);
}

/* After redef, adding a fixed variable pushes the records (measured:
 * begins 512, 532, new var 520), and the extent never shrinks. */
static void test_redef(void)
{
    ncp_header old, h;
    int d = 1, v;
    ncp_layout_params p = params(512, 4, 4, 0, 0);
    ncp_header_init(&old, NCP_CDF1);
    ncp_hdr_add_dim(&old, "t", 0, &v);
    ncp_hdr_add_dim(&old, "x", 3, &v);
    {
        int dims[2] = {0, 1};
        ncp_hdr_add_var(&old, "a", NC_SHORT, 1, &d, &v);
        ncp_hdr_add_var(&old, "r", NC_SHORT, 2, dims, &v);
    }
    expect(ncp_layout_compute(&old, NULL, &p), NC_NOERR, "D old");
    ncp_header_copy(&h, &old);
    ncp_hdr_add_var(&h, "f2", NC_INT, 1, &d, &v);
    expect(ncp_layout_compute(&h, &old, &p), NC_NOERR, "D new");
    expect(h.vars[0].begin, 512, "D a");
    expect(h.vars[1].begin, 532, "D r");
    expect(h.vars[2].begin, 520, "D f2");
    /* an old extent larger than needed is kept */
    old.begin_var = 4096;
    expect(ncp_layout_compute(&h, &old, &p), NC_NOERR, "D keep");
    expect(h.begin_var, 4096, "D extent kept");
    ncp_header_free(&h);
    ncp_header_free(&old);
}

/* No variables: the extent is the header itself. */
static void test_no_vars(void)
{
    ncp_header h;
    int d;
    ncp_layout_params p = params(512, 4, 4, 0, 0);
    ncp_header_init(&h, NCP_CDF1);
    ncp_hdr_add_dim(&h, "t", 0, &d);
    ncp_hdr_add_dim(&h, "x", 3, &d);
    expect(ncp_layout_compute(&h, NULL, &p), NC_NOERR, "N compute");
    expect(h.begin_var, h.xsz, "N extent");
    expect(h.xsz, 56, "N header size");
    ncp_header_free(&h);
}

/* CDF-1/2 size limits: a huge var is allowed only last. */
static void test_varsize(void)
{
    ncp_header h;
    int d, v;
    ncp_layout_params p = params(512, 4, 4, 0, 0);
    ncp_header_init(&h, NCP_CDF2);
    ncp_hdr_add_dim(&h, "big", (int64_t)1 << 31, &d);
    ncp_hdr_add_var(&h, "x", NC_INT, 1, &d, &v); /* 8 GiB */
    expect(ncp_layout_compute(&h, NULL, &p), NC_NOERR, "L last ok");
    expect(h.vars[0].vsize, UINT32_MAX, "L vsize saturates");
    ncp_hdr_add_var(&h, "y", NC_INT, 0, NULL, &v);
    expect(ncp_layout_compute(&h, NULL, &p), NC_EVARSIZE, "L not last");
    ncp_header_free(&h);
    ncp_header_init(&h, NCP_CDF5);
    ncp_hdr_add_dim(&h, "big", (int64_t)1 << 31, &d);
    ncp_hdr_add_var(&h, "x", NC_INT, 1, &d, &v);
    ncp_hdr_add_var(&h, "y", NC_INT, 0, NULL, &v);
    expect(ncp_layout_compute(&h, NULL, &p), NC_NOERR, "L CDF-5");
    expect(h.vars[1].begin, h.vars[0].begin + ((int64_t)1 << 33), "L y");
    ncp_header_free(&h);
}

int main(void)
{
    test_defaults();
    test_var_align_hint();
    test_enddef_args();
    test_single_record_var();
    test_redef();
    test_no_vars();
    test_varsize();
    printf("%ld passed, %ld failed\n", passed, failed);
    return failed ? 1 : 0;
}
