/*
 * test_eof.c -- unit test of src/io/eof.c, the clipping of a read to the
 * end of the file.  For random sorted extents, random memory pieces of
 * whole elements (some with swap widths) and every file size around
 * them, a pretend driver reads the clipped lists from a byte array (and
 * byte-reverses the pieces with widths, as the posix driver does), then
 * ncp_eof_clip_finish runs.  The memory must equal the transfer read
 * from the array extended with zeros past the end and then swapped, and
 * the clipped extents must lie inside the file; the sentinel the memory
 * started with must be gone everywhere.
 *
 * Prints "N passed, M failed"; exit status 0 only when M is 0.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <pnetcdf.h>

#include "io/ncp_eof.h"
#include "unit_check.h"

enum { NSETS = 400, FILE_MAX = 600, MEM_MAX = 512 };

static uint64_t rng_state = 0x9e3779b97f4a7c15u;
static int64_t rnd(int64_t n)
{
    rng_state = rng_state * 6364136223846793005u + 1442695040888963407u;
    return (int64_t)((rng_state >> 33) % (uint64_t)n);
}

static void reverse(unsigned char *p, int w)
{
    int i;
    for (i = 0; i < w / 2; i++) {
        unsigned char t = p[i];
        p[i] = p[w - 1 - i];
        p[w - 1 - i] = t;
    }
}

/* What a driver does: stream bytes from the file array into the pieces,
 * then each piece with a width reversed element by element. */
static void pretend_read(const unsigned char *file, const ncp_extents *ext,
                         const ncp_extents *mem)
{
    int64_t e = 0, m = 0;
    MPI_Offset eo = 0, mo = 0;
    while (e < ext->n && m < mem->n) {
        MPI_Offset k = ext->len[e] - eo;
        if (mem->len[m] - mo < k) k = mem->len[m] - mo;
        memcpy((unsigned char *)(intptr_t)mem->off[m] + mo,
               file + ext->off[e] + eo, (size_t)k);
        eo += k, mo += k;
        if (eo == ext->len[e]) e++, eo = 0;
        if (mo == mem->len[m]) m++, mo = 0;
    }
    for (m = 0; mem->swap && m < mem->n; m++) {
        MPI_Offset i;
        int w = mem->swap[m];
        for (i = 0; w > 1 && i + w <= mem->len[m]; i += w)
            reverse((unsigned char *)(intptr_t)mem->off[m] + i, w);
    }
}

static void one_set(int set, const unsigned char *file)
{
    unsigned char mem_buf[MEM_MAX + 64], want[MEM_MAX + 64];
    ncp_extents ext, mem;
    MPI_Offset total = 0, at, size, s;
    int64_t i;
    char what[160];
    int use_swap = (int)rnd(2);
    ncp_extents_init(&ext);
    ncp_extents_init(&mem);
    /* memory: pieces of whole elements, a few bytes apart */
    at = 0;
    while (at < MEM_MAX - 80 && rnd(8) != 0) {
        static const int widths[] = {0, 2, 4, 8};
        int w = use_swap ? widths[rnd(4)] : 0, n = 1 + (int)rnd(6);
        MPI_Offset len = (MPI_Offset)n * (w ? w : 1 + rnd(5));
        ncp_extents_add_swapped(&mem, (MPI_Offset)(intptr_t)(mem_buf + at),
                                len, w);
        at += len + 1 + rnd(3);
        total += len;
    }
    /* file: extents holding the same bytes, ascending, with gaps */
    at = rnd(20);
    for (s = 0; s < total;) {
        MPI_Offset len = 1 + rnd(30);
        if (len > total - s) len = total - s;
        ncp_extents_add(&ext, at, len);
        s += len;
        at += len + 1 + rnd(10);
    }
    for (size = 0; size <= at + 1; size += 1 + rnd(3)) {
        ncp_eof_clip c;
        int rc;
        memset(mem_buf, 0xA5, sizeof mem_buf);
        memcpy(want, mem_buf, sizeof want);
        /* the reference: file bytes, zeros past size, then swapped */
        {
            int64_t e = 0, m = 0;
            MPI_Offset eo = 0, mo = 0;
            while (e < ext.n && m < mem.n) {
                MPI_Offset fo = ext.off[e] + eo;
                unsigned char *p = want + ((unsigned char *)(intptr_t)
                                           mem.off[m] - mem_buf) + mo;
                *p = fo < size ? file[fo] : 0;
                if (++eo == ext.len[e]) e++, eo = 0;
                if (++mo == mem.len[m]) m++, mo = 0;
            }
            for (m = 0; mem.swap && m < mem.n; m++) {
                MPI_Offset k;
                int w = mem.swap[m];
                unsigned char *p = want + ((unsigned char *)(intptr_t)
                                           mem.off[m] - mem_buf);
                for (k = 0; w > 1 && k + w <= mem.len[m]; k += w)
                    reverse(p + k, w);
            }
        }
        rc = ncp_eof_clip_read(&ext, &mem, size, &c);
        snprintf(what, sizeof what, "set %d size %lld: clip returns %d",
                 set, (long long)size, rc);
        check(rc == NC_NOERR, what);
        if (rc == NC_NOERR) {
            const ncp_extents *e2 = c.clipped ? &c.ext : &ext;
            const ncp_extents *m2 = c.clipped ? &c.mem : &mem;
            MPI_Offset sum = 0;
            for (i = 0; i < e2->n; i++) sum += e2->len[i];
            snprintf(what, sizeof what, "set %d size %lld: extents past "
                     "the end or lists disagree", set, (long long)size);
            check((e2->n == 0 ||
                   e2->off[e2->n - 1] + e2->len[e2->n - 1] <= size) &&
                  sum == e2->nbytes && m2->nbytes == e2->nbytes, what);
            pretend_read(file, e2, m2);
            if (c.clipped) ncp_eof_clip_finish(&c);
            snprintf(what, sizeof what, "set %d size %lld: memory differs",
                     set, (long long)size);
            check(memcmp(mem_buf, want, sizeof want) == 0, what);
        }
        ncp_eof_clip_free(&c);
    }
    ncp_extents_free(&ext);
    ncp_extents_free(&mem);
}

int main(void)
{
    static unsigned char file[FILE_MAX * 4];
    int i;
    for (i = 0; i < (int)sizeof file; i++) file[i] = (unsigned char)(1 + i % 251);
    for (i = 0; i < NSETS; i++) one_set(i, file);
    printf("%ld passed, %ld failed\n", passed, failed);
    return failed == 0 ? 0 : 1;
}
