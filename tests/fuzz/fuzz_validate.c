/*
 * fuzz_validate.c -- libFuzzer target for `ncpario validate`.
 *
 * Each input is a whole file.  It is decoded as the tool reads a file, a
 * prefix at a time growing to what the decoder asks for, and judged by the
 * tool's own verdict function.  Properties checked: nothing crashes, reads
 * out of bounds or leaks (ASan/UBSan); the prefix-wise decode reaches the
 * same verdict and blames the same field and byte as decoding the whole
 * input at once; a blamed byte lies inside the input; a refused input
 * always names a field.  A broken property aborts.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <pnetcdf.h>

#include "format/ncp_header.h"
#include "ncpario_tool.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    ncp_header h, whole;
    ncp_hdr_defect d, dw;
    int64_t fsize = (int64_t)size, len = fsize < 16 ? fsize : 16, need = 0;
    int err, errw;
    char line[1024];

    do {
        ncp_header_init(&h, NCP_CDF1);
        err = ncp_header_decode_diag(data, len, fsize, &h, &need, &d);
        if (err == NCP_HDR_NEED_MORE) {
            if (need <= len || need > fsize) abort();
            len = need;
        }
    } while (err == NCP_HDR_NEED_MORE);

    ncp_header_init(&whole, NCP_CDF1);
    errw = ncp_header_decode_diag(data, fsize, fsize, &whole, &need, &dw);
    if (errw != err) abort();
    if (err != NC_NOERR) {
        if (d.field == NULL || d.offset < -1 || d.offset > fsize) abort();
        if (d.offset != dw.offset || strcmp(d.field, dw.field) != 0 ||
            d.var != dw.var || d.entry != dw.entry)
            abort();
    }
    if (nt_judge("fuzz", err, &h, &d, fsize, line, sizeof line) == NT_OK &&
        err != NC_NOERR)
        abort();
    if (err == NC_NOERR) {
        ncp_header_free(&h);
        ncp_header_free(&whole);
    }
    return 0;
}
