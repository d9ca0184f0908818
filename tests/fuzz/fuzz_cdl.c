/*
 * fuzz_cdl.c -- libFuzzer target for the CDL header reader
 * (src/format/cdl.c).
 *
 * Each input is a whole CDL text.  Properties checked: reading never
 * crashes, reads out of bounds or leaks (ASan/UBSan catch those), and
 * returns one of its documented codes; a header it accepts is one a
 * classic file can hold: it lays out (or is too large for its format:
 * NC_EVARSIZE), encodes, and decodes back to the same dimensions,
 * variables and attributes.  A broken property aborts, which is how a
 * fuzzer reports a finding.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <pnetcdf.h>

#include "format/ncp_cdl.h"
#include "format/ncp_header.h"
#include "format/ncp_xconv.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void same_atts(const ncp_attlist *a, const ncp_attlist *b)
{
    int i;
    if (a->n != b->n) abort();
    for (i = 0; i < a->n; i++) {
        const ncp_att *x = &a->a[i], *y = &b->a[i];
        if (strcmp(x->name, y->name) != 0 || x->xtype != y->xtype ||
            x->nelems != y->nelems)
            abort();
        if (x->nelems > 0 &&
            memcmp(x->xvalue, y->xvalue,
                   (size_t)x->nelems * (size_t)ncp_xtype_size(x->xtype)) != 0)
            abort();
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    ncp_header h, back;
    ncp_layout_params p = {0, 4, 4, 0, 4};
    unsigned char *enc;
    int64_t n = 0, need = 0;
    int err, i;

    err = ncp_cdl_parse((const char *)data, size, &h);
    if (err != NC_NOERR) {
        if (err != NC_ENOTNC && err != NC_EBADDIM && err != NC_ENOMEM)
            abort();
        ncp_header_free(&h);
        return 0;
    }
    err = ncp_layout_compute(&h, NULL, &p);
    if (err == NC_EVARSIZE) {
        ncp_header_free(&h);
        return 0;
    }
    if (err != NC_NOERR || ncp_header_encoded_size(&h, &n) != NC_NOERR)
        abort();
    if ((enc = malloc((size_t)n + 1)) == NULL) abort();
    if (ncp_header_encode(&h, enc, n) != NC_NOERR) abort();
    ncp_header_init(&back, NCP_CDF1);
    if (ncp_header_decode(enc, n, n, &back, &need) != NC_NOERR) abort();
    if (back.format != h.format || back.ndims != h.ndims ||
        back.nvars != h.nvars || back.unlimdimid != h.unlimdimid)
        abort();
    for (i = 0; i < h.ndims; i++)
        if (strcmp(back.dims[i].name, h.dims[i].name) != 0 ||
            back.dims[i].len != h.dims[i].len)
            abort();
    for (i = 0; i < h.nvars; i++) {
        if (strcmp(back.vars[i].name, h.vars[i].name) != 0 ||
            back.vars[i].xtype != h.vars[i].xtype ||
            back.vars[i].ndims != h.vars[i].ndims ||
            (h.vars[i].ndims > 0 &&
             memcmp(back.vars[i].dimids, h.vars[i].dimids,
                    (size_t)h.vars[i].ndims * sizeof(int)) != 0))
            abort();
        same_atts(&h.vars[i].atts, &back.vars[i].atts);
    }
    same_atts(&h.gatts, &back.gatts);
    ncp_header_free(&back);
    ncp_header_free(&h);
    free(enc);
    return 0;
}
