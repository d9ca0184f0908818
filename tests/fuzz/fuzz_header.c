/*
 * fuzz_header.c -- libFuzzer target for the classic header decoder.
 *
 * Each input is a whole file (len == file_size).  Properties checked:
 * decoding never crashes, reads out of bounds or leaks (ASan/UBSan catch
 * those); a header that decodes re-encodes to exactly the bytes it came
 * from, and those bytes decode again to a header that encodes the same;
 * the deep copy encodes the same too.  A broken property aborts, which is
 * how a fuzzer reports a finding.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <pnetcdf.h>

#include "format/ncp_header.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static unsigned char *encode_or_die(const ncp_header *h, int64_t *n)
{
    unsigned char *buf;
    if (ncp_header_encoded_size(h, n) != NC_NOERR || *n != h->xsz) abort();
    buf = malloc((size_t)*n + 1);
    if (buf == NULL) abort();
    if (ncp_header_encode(h, buf, *n) != NC_NOERR) abort();
    return buf;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    ncp_header h, again, copy;
    unsigned char *enc = NULL, *enc2 = NULL, *enc3 = NULL;
    int64_t n = 0, n2 = 0, n3 = 0, need = 0;
    int err;

    ncp_header_init(&h, NCP_CDF1);
    err = ncp_header_decode(data, (int64_t)size, (int64_t)size, &h, &need);
    if (err == NCP_HDR_NEED_MORE) abort(); /* impossible: len == file_size */
    if (err != NC_NOERR) return 0;

    enc = encode_or_die(&h, &n);
    if (n > (int64_t)size || memcmp(enc, data, (size_t)n) != 0) abort();

    ncp_header_init(&again, NCP_CDF1);
    if (ncp_header_decode(enc, n, n, &again, &need) != NC_NOERR) abort();
    enc2 = encode_or_die(&again, &n2);
    if (n2 != n || memcmp(enc2, enc, (size_t)n) != 0) abort();
    if (again.recsize != h.recsize || again.begin_var != h.begin_var ||
        again.begin_rec != h.begin_rec || again.num_rec_vars != h.num_rec_vars)
        abort();

    if (ncp_header_copy(&copy, &h) != NC_NOERR) abort();
    enc3 = encode_or_die(&copy, &n3);
    if (n3 != n || memcmp(enc3, enc, (size_t)n) != 0) abort();

    ncp_header_free(&copy);
    ncp_header_free(&again);
    ncp_header_free(&h);
    free(enc);
    free(enc2);
    free(enc3);
    return 0;
}
