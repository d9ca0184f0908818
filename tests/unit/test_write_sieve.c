/*
 * test_write_sieve.c -- unit test of ncp_posix_write_sieved
 * (src/io/transport/posix_move.c): a write of many small extents with
 * small holes between them, which the transport reads, patches and
 * writes back as one span.  Every extent byte comes from its memory
 * piece (elements reversed in pieces with swap widths 2, 4, 8 or mixed),
 * every hole byte keeps what the file held, the bytes around the call
 * are untouched, and holes past the old end of the file read back as
 * zeros, the file ending with the last extent.  Both with and without
 * the range lock; and a call whose pieces are large (not sieved) and one
 * that ends exactly at the end of the file.
 *
 * Prints "N passed, M failed"; exit status 0 only when M is 0.
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <pnetcdf.h>

#include "io/transport/ncp_posix_move.h"
#include "unit_check.h"

enum { FILE_LEN = 1 << 20 };

static unsigned char file_byte(int64_t off)
{
    return (unsigned char)(off * 7 + off / 251 + 1);
}

static unsigned char mem_byte(int64_t pos)
{
    return (unsigned char)(pos * 13 + 5);
}

static int make_file(char *path)
{
    unsigned char *b = malloc(FILE_LEN);
    int fd = mkstemp(path);
    if (fd < 0 || b == NULL) {
        free(b);
        return -1;
    }
    for (int64_t i = 0; i < FILE_LEN; i++) b[i] = file_byte(i);
    if (write(fd, b, FILE_LEN) != FILE_LEN) {
        close(fd);
        fd = -1;
    }
    free(b);
    return fd;
}

/* One case: n extents of len bytes, hole bytes apart, from first; the
 * memory one piece per extent, with swap width w (0: none). */
typedef struct wcase {
    const char *name;
    int64_t first, n, len, hole;
    int w; /* 0, 2, 4, 8, or -1: widths 8, 0, 4, 2 in turn */
} wcase;

static int width_of(const wcase *c, int64_t k)
{
    static const int mixed[] = {8, 0, 4, 2};
    return c->w >= 0 ? c->w : mixed[k % 4];
}

/* What file byte off must hold after the write: an extent's byte from
 * memory (mirrored in its element where swapped), a hole's or an
 * outside byte as it was, zero past the old end. */
static int want_at(const wcase *c, int64_t off)
{
    int64_t rel = off - c->first, k = rel / (c->len + c->hole);
    int64_t in = rel - k * (c->len + c->hole);
    int w;
    if (rel < 0 || k >= c->n || in >= c->len)
        return off < FILE_LEN ? file_byte(off) : 0;
    w = width_of(c, k);
    if (w > 1) in = in - in % w + (w - 1 - in % w);
    return mem_byte(k * c->len + in);
}

static int build(const wcase *c, ncp_extents *ext, ncp_extents *mem,
                 unsigned char *src)
{
    int err = NC_NOERR;
    ncp_extents_init(ext);
    ncp_extents_init(mem);
    for (int64_t k = 0; k < c->n && err == NC_NOERR; k++) {
        err = ncp_extents_add(ext, c->first + k * (c->len + c->hole), c->len);
        if (err == NC_NOERR)
            err = ncp_extents_add_swapped(
                mem, (MPI_Offset)(intptr_t)(src + k * c->len), c->len,
                width_of(c, k));
    }
    return err;
}

static void run_case(const wcase *c, int shared)
{
    char path[] = "/tmp/ncp_write_sieve_XXXXXX", what[160];
    int64_t total = c->n * c->len, end, bad = 0;
    unsigned char *src = malloc((size_t)total), *back;
    ncp_extents ext, mem;
    struct stat st;
    int fd = make_file(path), err;
    check(fd >= 0 && src != NULL, "scratch file");
    if (fd < 0 || !src) {
        free(src);
        return;
    }
    for (int64_t i = 0; i < total; i++) src[i] = mem_byte(i);
    err = build(c, &ext, &mem, src);
    if (err == NC_NOERR) err = ncp_posix_write_sieved(fd, &ext, &mem, shared);
    snprintf(what, sizeof what, "%s (lock %d): the write returns NC_NOERR",
             c->name, shared);
    check(err == NC_NOERR, what);
    end = c->first + (c->n - 1) * (c->len + c->hole) + c->len;
    if (end < FILE_LEN) end = FILE_LEN;
    snprintf(what, sizeof what, "%s (lock %d): the file ends at %lld",
             c->name, shared, (long long)end);
    check(fstat(fd, &st) == 0 && st.st_size == end, what);
    back = malloc((size_t)end);
    if (back && pread(fd, back, (size_t)end, 0) == end)
        for (int64_t off = 0; off < end; off++)
            bad += back[off] != want_at(c, off);
    else
        bad = -1;
    snprintf(what, sizeof what, "%s (lock %d): %lld bytes wrong", c->name,
             shared, (long long)bad);
    check(bad == 0, what);
    for (int64_t i = 0; i < total && bad == 0; i++)
        bad += src[i] != mem_byte(i);
    snprintf(what, sizeof what, "%s (lock %d): memory left as it was",
             c->name, shared);
    check(bad == 0, what);
    ncp_extents_free(&ext);
    ncp_extents_free(&mem);
    free(back);
    free(src);
    close(fd);
    unlink(path);
}

int main(void)
{
    static const wcase cases[] = {
        {"rows of 480 bytes, holes of 1440", 4096, 600, 480, 1440, 0},
        {"swapped doubles", 1000, 500, 240, 720, 8},
        {"swapped ints", 8, 300, 40, 8, 4},
        {"swapped shorts, no holes", 64, 100, 64, 0, 2},
        {"mixed widths", 777 * 8, 400, 96, 32, -1},
        {"past the end of the file", FILE_LEN - 4000, 60, 200, 100, 8},
        {"ending at the end of the file", FILE_LEN - 1000, 5, 100, 125, 0},
        {"large pieces, not sieved", 0, 6, 40000, 100, 4},
        {"holes over 4 KiB, not sieved", 50, 20, 100, 5000, 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        run_case(&cases[i], 0);
        run_case(&cases[i], 1);
    }
    printf("%ld passed, %ld failed\n", passed, failed);
    return failed != 0;
}
