/*
 * test_layout.c -- unit tests of src/format/layout.c (no MPI).
 *
 * Every expected number below was measured from Debian's PnetCDF 1.12.3
 * with tests/interop/layout_probe.c (ncmpi_inq_header_size, _extent,
 * _recsize, _varoffset after each enddef); the case names are the probe's,
 * so `layout_probe | grep NAME` shows the measurement.  vsize fields of
 * the L_* cases were read from the header bytes of the probe's files.
 * docs/notes/pnetcdf-compat.md explains the rules.
 *
 * The tests pass ncp_layout_params as the dataset layer must resolve them
 * (see that note, "Resolving the parameters"): the comment on each case
 * names the hints and ncmpi__enddef arguments PnetCDF was given.
 *
 * Prints "N passed, M failed"; exit status 0 only when M is 0.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <pnetcdf.h>

#include "format/ncp_header.h"
#include "format/ncp_header_build.h"

static long passed, failed;

static void expect(const char *name, const char *what, int64_t got,
                   int64_t want)
{
    if (got == want) {
        passed++;
        return;
    }
    failed++;
    printf("FAIL %s %s: got %lld want %lld\n", name, what, (long long)got,
           (long long)want);
}

static ncp_layout_params P(int64_t h_align, int64_t v_align, int64_t r_align,
                           int64_t h_minfree, int64_t v_minfree)
{
    ncp_layout_params p;
    p.h_align = h_align;
    p.v_align = v_align;
    p.r_align = r_align;
    p.h_minfree = h_minfree;
    p.v_minfree = v_minfree;
    return p;
}

/* Small builders; ids are looked up by name so cases read like the probe. */
static int dimid(const ncp_header *h, const char *name)
{
    int i;
    for (i = 0; i < h->ndims; i++)
        if (strcmp(h->dims[i].name, name) == 0) return i;
    return -1;
}

static void dim(ncp_header *h, const char *name, int64_t len)
{
    int id;
    if (ncp_hdr_add_dim(h, name, len, &id) != NC_NOERR)
        printf("setup: dim %s failed\n", name);
}

static void var(ncp_header *h, const char *name, int xtype, const char *d0,
                const char *d1, const char *d2)
{
    int ids[3], n = 0, id;
    if (d0) ids[n++] = dimid(h, d0);
    if (d1) ids[n++] = dimid(h, d1);
    if (d2) ids[n++] = dimid(h, d2);
    if (ncp_hdr_add_var(h, name, xtype, n, ids, &id) != NC_NOERR)
        printf("setup: var %s failed\n", name);
}

/* A global text attribute of n bytes, as the probe's "gatt NAME n". */
static void gatt(ncp_header *h, const char *name, int64_t n)
{
    static char text[4096];
    memset(text, 'g', sizeof text);
    if (ncp_hdr_add_att(&h->gatts, name, NC_CHAR, n, text) != NC_NOERR)
        printf("setup: gatt %s failed\n", name);
}

/* The probe's schema A. */
static void schema_a(ncp_header *h, int format)
{
    ncp_header_init(h, format);
    dim(h, "t", 0);
    dim(h, "x", 3);
    var(h, "a", NC_BYTE, "x", NULL, NULL);
    var(h, "b", NC_DOUBLE, "x", NULL, NULL);
    var(h, "c", NC_SHORT, "x", NULL, NULL);
    var(h, "r1", NC_BYTE, "t", "x", NULL);
    var(h, "r2", NC_INT, "t", NULL, NULL);
}

/* Compare with one probe line: hsize, extent, recsize, then each var's
 * offset in definition order. */
static void check(const char *name, const ncp_header *h, int64_t hsize,
                  int64_t ext, int64_t recsize, const int64_t *begins)
{
    int i;
    char what[64];
    expect(name, "hsize", h->xsz, hsize);
    expect(name, "extent", h->begin_var, ext);
    expect(name, "recsize", h->recsize, recsize);
    for (i = 0; i < h->nvars; i++) {
        snprintf(what, sizeof what, "begin of %s", h->vars[i].name);
        expect(name, what, h->vars[i].begin, begins[i]);
    }
}

static void compute(const char *name, ncp_header *h, const ncp_header *old,
                    ncp_layout_params p, int want_err)
{
    expect(name, "status", ncp_layout_compute(h, old, &p), want_err);
}

/* 1. Defaults: extent up(hsize, 512), 4-byte steps, all formats. */
static void test_defaults(void)
{
    static const struct {
        const char *name;
        int format;
        int64_t hsize;
    } f[] = {{"A_cdf1", NCP_CDF1, 240},
             {"A_cdf2", NCP_CDF2, 260},
             {"A_cdf5", NCP_CDF5, 396}};
    static const int64_t begins[] = {512, 516, 540, 548, 552};
    size_t k;
    for (k = 0; k < sizeof f / sizeof f[0]; k++) {
        ncp_header h;
        schema_a(&h, f[k].format);
        compute(f[k].name, &h, NULL, P(512, 4, 4, 0, 0), NC_NOERR);
        check(f[k].name, &h, f[k].hsize, 512, 8, begins);
        expect(f[k].name, "num_fix_vars", h.num_fix_vars, 3);
        expect(f[k].name, "num_rec_vars", h.num_rec_vars, 2);
        expect(f[k].name, "begin_rec", h.begin_rec, 548);
        expect(f[k].name, "vsize a", h.vars[0].vsize, 4);
        expect(f[k].name, "vsize r1", h.vars[3].vsize, 4);
        ncp_header_free(&h);
    }
}

/* 1. Small schemas: no variables, records only, header at 512 exactly. */
static void test_small_schemas(void)
{
    ncp_header h;
    static const int64_t none[1] = {0};
    static const int64_t b512[] = {512}, b512_516[] = {512, 516};
    static const int64_t b1024[] = {1024, 1028}, cdf5[] = {512, 516, 540};

    ncp_header_init(&h, NCP_CDF1);
    compute("empty", &h, NULL, P(512, 4, 4, 0, 0), NC_NOERR);
    check("empty", &h, 32, 32, 0, none);
    dim(&h, "x", 3);
    compute("dims_only", &h, NULL, P(512, 4, 4, 0, 0), NC_NOERR);
    check("dims_only", &h, 44, 44, 0, none);
    ncp_header_free(&h);

    ncp_header_init(&h, NCP_CDF1);
    dim(&h, "t", 0);
    var(&h, "r", NC_INT, "t", NULL, NULL);
    compute("rec_only", &h, NULL, P(512, 4, 4, 0, 0), NC_NOERR);
    check("rec_only", &h, 80, 512, 4, b512);
    ncp_header_free(&h);

    ncp_header_init(&h, NCP_CDF1);
    gatt(&h, "g", 380);
    dim(&h, "x", 3);
    var(&h, "a", NC_BYTE, "x", NULL, NULL);
    var(&h, "d", NC_DOUBLE, "x", NULL, NULL);
    compute("hdr_512", &h, NULL, P(512, 4, 4, 0, 0), NC_NOERR);
    check("hdr_512", &h, 512, 512, 0, b512_516);
    ncp_header_free(&h);

    ncp_header_init(&h, NCP_CDF1);
    gatt(&h, "g", 381);
    dim(&h, "x", 3);
    var(&h, "a", NC_BYTE, "x", NULL, NULL);
    var(&h, "d", NC_DOUBLE, "x", NULL, NULL);
    compute("hdr_516", &h, NULL, P(512, 4, 4, 0, 0), NC_NOERR);
    check("hdr_516", &h, 516, 1024, 0, b1024);
    ncp_header_free(&h);

    /* CDF-5 still steps by 4: a double may start at a 4-byte boundary */
    ncp_header_init(&h, NCP_CDF5);
    dim(&h, "x", 3);
    var(&h, "a", NC_BYTE, "x", NULL, NULL);
    var(&h, "d", NC_DOUBLE, "x", NULL, NULL);
    var(&h, "e", NC_SHORT, "x", NULL, NULL);
    compute("cdf5_no_8align", &h, NULL, P(512, 4, 4, 0, 0), NC_NOERR);
    check("cdf5_no_8align", &h, 248, 512, 0, cdf5);
    ncp_header_free(&h);
}

/* 1. A lone record variable: recsize unpadded, the vsize field padded. */
static void test_single_record_var(void)
{
    ncp_header h;
    static const int64_t b512[] = {512};
    ncp_header_init(&h, NCP_CDF1);
    dim(&h, "t", 0);
    dim(&h, "x", 3);
    var(&h, "r", NC_SHORT, "t", "x", NULL);
    compute("one_rec_short", &h, NULL, P(512, 4, 4, 0, 0), NC_NOERR);
    check("one_rec_short", &h, 96, 512, 6, b512);
    expect("one_rec_short", "vsize", h.vars[0].vsize, 8);
    ncp_header_free(&h);

    ncp_header_init(&h, NCP_CDF5);
    dim(&h, "t", 0);
    dim(&h, "x", 3);
    var(&h, "r", NC_BYTE, "t", "x", NULL);
    compute("one_rec_byte", &h, NULL, P(512, 4, 4, 0, 0), NC_NOERR);
    check("one_rec_byte", &h, 156, 512, 3, b512);
    expect("one_rec_byte", "vsize", h.vars[0].vsize, 4);
    ncp_header_free(&h);
}

/* 2 and 3. Hints and ncmpi__enddef arguments on schema A. */
static void test_alignment(void)
{
    static const struct {
        const char *name; /* probe case: hints; _enddef arguments */
        int64_t h_align, v_align, r_align, h_minfree, v_minfree;
        int64_t ext, begins[5];
    } c[] = {
        /* nc_header_align_size=1024 */
        {"H1024", 1024, 4, 4, 0, 0, 1024, {1024, 1028, 1052, 1060, 1064}},
        /* nc_header_align_size=100 */
        {"H100", 100, 4, 4, 0, 0, 300, {300, 304, 328, 336, 340}},
        /* nc_var_align_size=1024 */
        {"V1024", 512, 1024, 4, 0, 0, 1024, {1024, 2048, 3072, 4096, 4100}},
        /* nc_var_align_size=100 */
        {"V100", 512, 100, 4, 0, 0, 600, {600, 700, 800, 900, 904}},
        /* nc_var_align_size=6, rounded up to 8 */
        {"V6", 512, 8, 4, 0, 0, 512, {512, 520, 544, 552, 556}},
        /* nc_record_align_size=1024 */
        {"R1024", 512, 4, 1024, 0, 0, 512, {512, 516, 540, 1024, 1028}},
        /* V=100 then R=64 on the record section: up(up(808,100),64) */
        {"V100_R64", 512, 100, 64, 0, 0, 600, {600, 700, 800, 960, 964}},
        {"V64_R100", 512, 64, 100, 0, 0, 512, {512, 576, 640, 800, 804}},
        {"H1000_V64", 1000, 64, 4, 0, 0, 1024,
         {1024, 1088, 1152, 1216, 1220}},
        /* nc_header_align_size=0 is ignored */
        {"H0_bad", 512, 4, 4, 0, 0, 512, {512, 516, 540, 548, 552}},
        /* _enddef(0,4,0,4) */
        {"E_4_4", 4, 4, 4, 0, 0, 240, {240, 244, 268, 276, 280}},
        /* _enddef(101,4,101,4) */
        {"E_hmin101", 4, 4, 4, 101, 101, 344, {344, 348, 372, 484, 488}},
        /* _enddef(1000,0,0,0) */
        {"E_hmin1000", 512, 4, 4, 1000, 0, 1536,
         {1536, 1540, 1564, 1572, 1576}},
        /* _enddef(0,100,0,4) */
        {"E_valign100", 100, 4, 4, 0, 0, 300, {300, 304, 328, 336, 340}},
        /* _enddef(0,4,0,100) */
        {"E_ralign100", 4, 4, 100, 0, 0, 240, {240, 244, 268, 300, 304}},
        /* _enddef(0,4,1000,4) */
        {"E_vmin1000", 4, 4, 4, 0, 1000, 240, {240, 244, 268, 1276, 1280}},
        /* _enddef(0,0,0,100): a zero v_align takes r_align */
        {"E_ralign_only", 100, 4, 100, 0, 0, 300, {300, 304, 328, 400, 404}},
        /* _enddef(0,6,0,6): both rounded up to 8 */
        {"E_6_6", 8, 4, 8, 0, 0, 240, {240, 244, 268, 280, 284}},
        /* nc_header_align_size=1024 and _enddef(0,100,0,0): hint wins */
        {"E_H1024_hint", 1024, 4, 4, 0, 0, 1024,
         {1024, 1028, 1052, 1060, 1064}},
        /* nc_var_align_size=64 and _enddef(0,4,50,0) */
        {"E_V64_vmin50", 4, 64, 4, 0, 50, 256, {256, 320, 384, 448, 452}},
        /* nc_var_align_size=64 nc_record_align_size=100, _enddef(0,4,50,0) */
        {"E_V64_R100_vmin50", 4, 64, 100, 0, 50, 256,
         {256, 320, 384, 500, 504}},
    };
    size_t k;
    for (k = 0; k < sizeof c / sizeof c[0]; k++) {
        ncp_header h;
        schema_a(&h, NCP_CDF1);
        compute(c[k].name, &h, NULL,
                P(c[k].h_align, c[k].v_align, c[k].r_align, c[k].h_minfree,
                  c[k].v_minfree),
                NC_NOERR);
        check(c[k].name, &h, 240, c[k].ext, 8, c[k].begins);
        ncp_header_free(&h);
    }
}

/* 2. Without fixed-size variables, and without any variable. */
static void test_alignment_no_fixed(void)
{
    ncp_header h;
    static const int64_t b192[] = {192, 196};
    static const int64_t none[1] = {0};

    /* nc_var_align_size=64, _enddef(0,4,10,4): up(132 + 10, 64) */
    ncp_header_init(&h, NCP_CDF1);
    dim(&h, "t", 0);
    dim(&h, "x", 3);
    var(&h, "r1", NC_BYTE, "t", "x", NULL);
    var(&h, "r2", NC_INT, "t", NULL, NULL);
    compute("E_rec_only_V64", &h, NULL, P(4, 64, 4, 0, 10), NC_NOERR);
    check("E_rec_only_V64", &h, 132, 192, 8, b192);
    ncp_header_free(&h);

    /* _enddef(100,1024,100,4) with no variable: only v_minfree counts */
    ncp_header_init(&h, NCP_CDF1);
    dim(&h, "x", 3);
    compute("E_none_vmin100", &h, NULL, P(1024, 4, 4, 100, 100), NC_NOERR);
    check("E_none_vmin100", &h, 44, 144, 0, none);
    ncp_header_free(&h);
}

/* One redef case: `old` laid out with `po`, then `change` applied to a
 * copy laid out with `pn`. */
typedef void (*change_fn)(ncp_header *h);

static void add_att5(ncp_header *h) { gatt(h, "g", 5); }
static void add_att360(ncp_header *h) { gatt(h, "g", 360); }
static void add_att400(ncp_header *h) { gatt(h, "g", 400); }
static void add_att1400(ncp_header *h) { gatt(h, "g", 1400); }
static void add_att1850(ncp_header *h) { gatt(h, "g", 1850); }
static void add_fixed_d(ncp_header *h) { var(h, "d", NC_INT, "x", 0, 0); }
static void add_fixed_f(ncp_header *h) { var(h, "f", NC_INT, "x", 0, 0); }
static void add_rec_r3(ncp_header *h) { var(h, "r3", NC_SHORT, "t", 0, 0); }
static void no_change(ncp_header *h) { (void)h; }

static void redef_case(const char *name, int rec_only, ncp_layout_params po,
                       change_fn change, ncp_layout_params pn, int64_t hsize,
                       int64_t ext, int64_t recsize, const int64_t *begins)
{
    ncp_header old, h;
    if (rec_only) {
        ncp_header_init(&old, NCP_CDF1);
        dim(&old, "t", 0);
        dim(&old, "x", 3);
        var(&old, "r1", NC_INT, "t", "x", NULL);
    } else {
        schema_a(&old, NCP_CDF1);
    }
    compute(name, &old, NULL, po, NC_NOERR);
    if (ncp_header_copy(&h, &old) != NC_NOERR) {
        failed++;
        printf("FAIL %s: copy\n", name);
        ncp_header_free(&old);
        return;
    }
    change(&h);
    compute(name, &h, &old, pn, NC_NOERR);
    check(name, &h, hsize, ext, recsize, begins);
    ncp_header_free(&h);
    ncp_header_free(&old);
}

/* 3. redef in one session (the session's alignments stay those of its
 * first enddef; only the minfree arguments of a later _enddef count) and
 * after reopening (the new session resolves its own alignments). */
static void test_redef(void)
{
    const ncp_layout_params dflt = P(512, 4, 4, 0, 0);
    {
        static const int64_t b[] = {512, 516, 540, 548, 552};
        redef_case("D_att_fits", 0, dflt, add_att5, dflt, 264, 512, 8, b);
    }
    {
        static const int64_t b[] = {1024, 1028, 1052, 1060, 1064};
        redef_case("D_att_grows", 0, dflt, add_att360, dflt, 616, 1024, 8,
                   b);
        /* _enddef(0,300,0,1024) in redef: alignments are the session's */
        redef_case("D_valign_ignored", 0, dflt, add_att400, dflt, 656, 1024,
                   8, b);
    }
    {
        static const int64_t b[] = {512, 516, 540, 560, 564, 548};
        redef_case("D_add_fixed", 0, dflt, add_fixed_d, dflt, 276, 512, 8,
                   b);
    }
    {
        static const int64_t b[] = {512, 516, 540, 548, 552, 556};
        redef_case("D_add_rec", 0, dflt, add_rec_r3, dflt, 276, 512, 12, b);
    }
    {
        static const int64_t b[] = {1536, 1540, 1564, 1572, 1576};
        redef_case("D_hmin1000", 0, dflt, no_change, P(512, 4, 4, 1000, 0),
                   240, 1536, 8, b);
    }
    {
        static const int64_t b[] = {512, 516, 540, 648, 652};
        redef_case("D_vmin100", 0, dflt, no_change, P(512, 4, 4, 0, 100),
                   240, 512, 8, b);
    }
    {
        /* first _enddef(1000,0,500,0): both gaps are kept */
        static const int64_t b[] = {1536, 1540, 1564, 2072, 2076, 1572};
        redef_case("D_keep_gap", 0, P(512, 4, 4, 1000, 500), add_fixed_d,
                   dflt, 276, 1536, 8, b);
    }
    {
        /* ... until the header outgrows them: fresh offsets, since they
           are beyond the old ones */
        static const int64_t b[] = {2048, 2052, 2076, 2084, 2088};
        redef_case("D_grow_past_gap", 0, P(512, 4, 4, 1000, 500),
                   add_att1400, dflt, 1656, 2048, 8, b);
    }
    {
        /* the record section stays although the fixed one moves */
        static const int64_t b[] = {1024, 1028, 1052, 5548, 5552};
        redef_case("D_keep_rec_gap", 0, P(512, 4, 4, 0, 5000), add_att400,
                   dflt, 656, 1024, 8, b);
    }
    {
        /* a first fixed variable takes the old extent */
        static const int64_t b[] = {5524, 5512};
        redef_case("D_rec_only_add_fixed", 1, P(512, 4, 4, 0, 5000),
                   add_fixed_f, dflt, 132, 5512, 12, b);
    }
    {
        /* created with _enddef(0,300,0,300), reopened with defaults */
        static const int64_t b[] = {512, 516, 540, 600, 604};
        redef_case("O_reopen_H300", 0, P(300, 4, 300, 0, 0), no_change, dflt,
                   240, 512, 8, b);
    }
    {
        /* created with nc_var_align_size=2048, reopened without: each
           variable keeps its old begin when that is further on */
        static const int64_t b[] = {2560, 4096, 6144, 8192, 8196};
        redef_case("O_reopen_V2048", 0, P(512, 2048, 4, 0, 0), add_att1850,
                   dflt, 2108, 2560, 8, b);
    }
    {
        static const int64_t b[] = {512, 576, 640, 704, 708, 648};
        redef_case("O_reopen_V64_hint", 0, P(512, 64, 4, 0, 0), add_fixed_d,
                   dflt, 276, 512, 8, b);
    }
    {
        /* created with _enddef(0,100,0,0); reopened with
           nc_var_align_size=64 and redef + _enddef(0,4,0,0) */
        static const int64_t b[] = {320, 384, 448, 512, 516};
        redef_case("O_reopen_H4_V64", 0, P(100, 4, 4, 0, 0), no_change,
                   P(4, 64, 4, 0, 0), 240, 320, 8, b);
    }
    {
        /* created with _enddef(0,0,5000,0); reopened with
           nc_record_align_size=64: R applies after the old begin_rec */
        static const int64_t b[] = {512, 516, 540, 5568, 5572};
        redef_case("O_reopen_R64", 0, P(512, 4, 4, 0, 5000), no_change,
                   P(512, 4, 64, 0, 0), 240, 512, 8, b);
    }
}

/* 1. Size limits of CDF-1 and CDF-2, and none in CDF-5. */
static void test_limits(void)
{
    const ncp_layout_params p = P(512, 4, 4, 0, 0);
    ncp_header h;

    {
        static const int64_t b[] = {512, 516};
        ncp_header_init(&h, NCP_CDF2);
        dim(&h, "x", 3);
        dim(&h, "y", 1073741824);
        var(&h, "a", NC_BYTE, "x", NULL, NULL);
        var(&h, "b", NC_INT, "y", NULL, NULL);
        compute("L_cdf2_last_4G", &h, NULL, p, NC_NOERR);
        check("L_cdf2_last_4G", &h, 136, 512, 0, b);
        expect("L_cdf2_last_4G", "vsize b", h.vars[1].vsize, 4294967295LL);
        ncp_header_free(&h);
    }
    {
        ncp_header_init(&h, NCP_CDF2);
        dim(&h, "x", 3);
        dim(&h, "y", 1073741824);
        var(&h, "b", NC_INT, "y", NULL, NULL);
        var(&h, "a", NC_BYTE, "x", NULL, NULL);
        compute("L_cdf2_notlast_4G", &h, NULL, p, NC_EVARSIZE);
        ncp_header_free(&h);
    }
    {
        static const int64_t b[] = {512, 4294967804LL};
        ncp_header_init(&h, NCP_CDF2);
        dim(&h, "x", 3);
        dim(&h, "y", 1073741823);
        var(&h, "b", NC_INT, "y", NULL, NULL);
        var(&h, "a", NC_BYTE, "x", NULL, NULL);
        compute("L_cdf2_notlast_max", &h, NULL, p, NC_NOERR);
        check("L_cdf2_notlast_max", &h, 136, 512, 0, b);
        expect("L_cdf2_notlast_max", "vsize b", h.vars[0].vsize,
               4294967292LL);
        ncp_header_free(&h);
    }
    {
        static const int64_t b[] = {512, 2147483644LL};
        ncp_header_init(&h, NCP_CDF1);
        dim(&h, "x", 3);
        dim(&h, "y", 2147483132LL);
        var(&h, "v", NC_BYTE, "y", NULL, NULL);
        var(&h, "a", NC_BYTE, "x", NULL, NULL);
        compute("L_cdf1_begin_max", &h, NULL, p, NC_NOERR);
        check("L_cdf1_begin_max", &h, 128, 512, 0, b);
        ncp_header_free(&h);
    }
    {
        ncp_header_init(&h, NCP_CDF1);
        dim(&h, "x", 3);
        dim(&h, "y", 2147483133LL);
        var(&h, "v", NC_BYTE, "y", NULL, NULL);
        var(&h, "a", NC_BYTE, "x", NULL, NULL);
        compute("L_cdf1_begin_over", &h, NULL, p, NC_EVARSIZE);
        ncp_header_free(&h);
    }
    {
        /* 3e9 bytes fit the 32-bit vsize field: no saturation */
        static const int64_t b[] = {512, 516};
        ncp_header_init(&h, NCP_CDF1);
        dim(&h, "x", 3);
        dim(&h, "y", 750000000);
        var(&h, "a", NC_BYTE, "x", NULL, NULL);
        var(&h, "b", NC_INT, "y", NULL, NULL);
        compute("L_cdf1_last_3G", &h, NULL, p, NC_NOERR);
        check("L_cdf1_last_3G", &h, 128, 512, 0, b);
        expect("L_cdf1_last_3G", "vsize b", h.vars[1].vsize, 3000000000LL);
        ncp_header_free(&h);
    }
    {
        ncp_header_init(&h, NCP_CDF2);
        dim(&h, "t", 0);
        dim(&h, "x", 3);
        dim(&h, "y", 1073741824);
        var(&h, "b", NC_INT, "y", NULL, NULL);
        var(&h, "a", NC_BYTE, "t", "x", NULL);
        compute("L_cdf2_fixed_4G_then_rec", &h, NULL, p, NC_EVARSIZE);
        ncp_header_free(&h);
    }
    {
        /* CDF-1, last record variable of 24e9 bytes per record */
        static const int64_t b[] = {512, 516};
        ncp_header_init(&h, NCP_CDF1);
        dim(&h, "t", 0);
        dim(&h, "x", 3);
        dim(&h, "y", 100000);
        dim(&h, "z", 30000);
        var(&h, "a", NC_BYTE, "t", "x", NULL);
        var(&h, "b", NC_DOUBLE, "t", "y", "z");
        compute("cdf1_big_rec_last", &h, NULL, p, NC_NOERR);
        check("cdf1_big_rec_last", &h, 164, 512, 24000000004LL, b);
        expect("cdf1_big_rec_last", "vsize b", h.vars[1].vsize,
               4294967295LL);
        ncp_header_free(&h);
    }
    {
        static const int64_t b[] = {512, 24000000512LL};
        ncp_header_init(&h, NCP_CDF5);
        dim(&h, "t", 0);
        dim(&h, "x", 3);
        dim(&h, "y", 100000);
        dim(&h, "z", 30000);
        var(&h, "b", NC_DOUBLE, "y", "z", NULL);
        var(&h, "a", NC_BYTE, "t", "x", NULL);
        compute("L_cdf5_big", &h, NULL, p, NC_NOERR);
        check("L_cdf5_big", &h, 264, 512, 3, b);
        expect("L_cdf5_big", "vsize b", h.vars[0].vsize, 24000000000LL);
        ncp_header_free(&h);
    }
    {
        /* a size that overflows int64 is refused when the variable is
           defined, not wrapped; one that just fits, padded, is taken */
        int y, z, id;
        ncp_header_init(&h, NCP_CDF5);
        ncp_hdr_add_dim(&h, "y", INT64_C(1) << 61, &y);
        ncp_hdr_add_dim(&h, "z", (INT64_MAX - 3) / 4, &z);
        expect("overflow", "add 2^61 doubles",
               ncp_hdr_add_var(&h, "b", NC_DOUBLE, 1, &y, &id), NC_EVARSIZE);
        expect("overflow", "nvars", h.nvars, 0);
        expect("overflow", "add (2^63-4)/4 ints",
               ncp_hdr_add_var(&h, "c", NC_INT, 1, &z, &id), NC_NOERR);
        /* ... but its end, after the header, lies beyond int64 */
        compute("overflow", &h, NULL, p, NC_EVARSIZE);
        ncp_header_free(&h);
    }
}

int main(void)
{
    test_defaults();
    test_small_schemas();
    test_single_record_var();
    test_alignment();
    test_alignment_no_fixed();
    test_redef();
    test_limits();
    printf("%ld passed, %ld failed\n", passed, failed);
    return failed ? 1 : 0;
}
