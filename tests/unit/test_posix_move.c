/*
 * test_posix_move.c -- unit test of ncp_posix_move (src/io/transport/posix_move.c), the
 * POSIX driver's own-extents transfer, for reads that go through the
 * sieve (many small extents with small holes, read as one window) and
 * reads that do not: every byte lands in the right memory piece, memory
 * pieces that split extents anywhere are filled in order, and a read past
 * the end of the file stops there and leaves the rest of memory alone.
 * Pieces with swap widths (2, 4, 8, mixed with unswapped ones) get their
 * elements byte-reversed on both paths; an element the end of the file
 * cuts keeps the bytes that were read as they are.
 *
 * Prints "N passed, M failed"; exit status 0 only when M is 0.
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <pnetcdf.h>

#include "io/transport/ncp_posix_move.h"
#include "unit_check.h"

enum { FILE_LEN = 5 << 20, SENTINEL = 0xA5 };

static unsigned char file_byte(int64_t off)
{
    return (unsigned char)(off * 7 + off / 251);
}

static int make_file(char *path)
{
    unsigned char *b = malloc(FILE_LEN);
    int fd = mkstemp(path);
    if (fd < 0 || b == NULL) {
        free(b);
        return -1;
    }
    for (int64_t i = 0; i < FILE_LEN; i++)
        b[i] = file_byte(i);
    if (write(fd, b, FILE_LEN) != FILE_LEN) {
        close(fd);
        fd = -1;
    }
    free(b);
    return fd;
}

/* Where data byte pos lives: memory pieces of `piece` bytes, one unused
 * byte between neighbours so that they stay distinct pieces. */
static int64_t mem_at(int64_t pos, int64_t piece)
{
    return pos / piece * (piece + 1) + pos % piece;
}

/* Swap widths of memory pieces, cycled over the pieces; 0 ends. */
static const int no_swap[] = {0};
static const int swap2[] = {2, 0};
static const int swap4[] = {4, 0};
static const int swap8[] = {8, 0};
static const int swap_mixed[] = {8, 1, 4, 2, 8, 0};

static int width_of(const int *widths, int64_t piece_index)
{
    int n = 0;
    while (widths[n]) n++;
    return n ? widths[piece_index % n] : 0;
}

/* File offset of data byte pos: extents of len bytes, hole apart. */
static int64_t file_at(int64_t pos, int64_t first, int64_t len, int64_t hole)
{
    return first + pos / len * (len + hole) + pos % len;
}

/* What data byte pos should hold: the file's byte, or the byte mirrored
 * within its element when the element lies wholly before the end of the
 * file; the sentinel past the end. */
static int want_byte(int64_t pos, int64_t first, int64_t len, int64_t hole,
                     int64_t piece, const int *widths)
{
    int w = width_of(widths, pos / piece);
    int64_t off = file_at(pos, first, len, hole);
    if (w > 1) {
        int64_t e = pos - pos % piece % w; /* the element's first byte */
        if (file_at(e, first, len, hole) + w <= FILE_LEN)
            off = file_at(e + (w - 1 - (pos - e)), first, len, hole);
    }
    return off < FILE_LEN ? file_byte(off) : SENTINEL;
}

/*
 * Read n extents of len bytes, hole bytes apart, from first, into memory
 * pieces of `piece` bytes with swap widths cycled from `widths` (piece
 * and len whole elements of every width); then check that the bytes
 * before the end of the file are the file's, reversed within swapped
 * elements, and that the bytes after it and the unused bytes between
 * pieces are untouched.
 */
static void read_case_swapped(int fd, const char *name, int64_t first,
                              int64_t n, int64_t len, int64_t hole,
                              int64_t piece, const int *widths)
{
    ncp_extents ext, mem;
    int64_t total = n * len, room = mem_at(total, piece) + 1, bad = 0;
    unsigned char *buf = malloc((size_t)room);
    int err = NC_NOERR;

    if (buf == NULL) {
        check(0, name);
        return;
    }
    ncp_extents_init(&ext);
    ncp_extents_init(&mem);
    memset(buf, SENTINEL, (size_t)room);
    for (int64_t i = 0; i < n && err == NC_NOERR; i++)
        err = ncp_extents_add(&ext, first + i * (len + hole), len);
    for (int64_t at = 0; at < total && err == NC_NOERR; at += piece) {
        int64_t k = total - at < piece ? total - at : piece;
        err = ncp_extents_add_swapped(
            &mem, (MPI_Offset)(intptr_t)(buf + mem_at(at, piece)), k,
            width_of(widths, at / piece));
    }
    if (err == NC_NOERR)
        err = ncp_posix_move(fd, 0, &ext, &mem);
    check(err == NC_NOERR, name);
    for (int64_t pos = 0; pos < total; pos++)
        bad += buf[mem_at(pos, piece)] !=
               want_byte(pos, first, len, hole, piece, widths);
    for (int64_t at = piece; at < total; at += piece)
        bad += buf[mem_at(at, piece) - 1] != SENTINEL;
    if (bad)
        printf("  %s: %lld wrong bytes\n", name, (long long)bad);
    check(bad == 0, name);
    ncp_extents_free(&ext);
    ncp_extents_free(&mem);
    free(buf);
}

static void read_case(int fd, const char *name, int64_t first, int64_t n,
                      int64_t len, int64_t hole, int64_t piece)
{
    read_case_swapped(fd, name, first, n, len, hole, piece, no_swap);
}

/* Adjacent memory pieces merge only when their swap widths agree, and
 * the widths of pieces listed before the first swapped one read 0. */
static void width_merges(void)
{
    static const struct {
        int64_t at, len;
        int w;
    } add[] = {{0, 8, 0}, {8, 8, 0}, {16, 8, 4}, {24, 8, 4},
               {32, 8, 8}, {40, 8, 0}, {48, 8, 0}, {64, 8, 0}};
    static const int64_t want_off[] = {0, 16, 32, 40, 64};
    static const int64_t want_len[] = {16, 16, 8, 16, 8};
    static const unsigned char want_w[] = {0, 4, 8, 0, 0};
    ncp_extents mem;
    int ok = 1;
    ncp_extents_init(&mem);
    for (size_t i = 0; i < sizeof add / sizeof add[0] && ok; i++)
        ok = ncp_extents_add_swapped(&mem, add[i].at, add[i].len,
                                     add[i].w) == NC_NOERR;
    ok = ok && mem.n == 5 && mem.swap != NULL && mem.nbytes == 64;
    for (int64_t i = 0; ok && i < mem.n; i++)
        ok = mem.off[i] == want_off[i] && mem.len[i] == want_len[i] &&
             mem.swap[i] == want_w[i];
    check(ok, "swap widths split memory pieces");
    ncp_extents_free(&mem);
}

/* The cases above whose sizes hold whole elements, with swap widths. */
static void swapped_cases(int fd)
{
    read_case_swapped(fd, "swapped 4, sieved rows", 100, 64, 128, 128,
                      1 << 20, swap4);
    read_case_swapped(fd, "swapped 2, sieved, 96-byte pieces", 100, 64, 128,
                      128, 96, swap2);
    read_case_swapped(fd, "swapped mixed, sieved, 40-byte pieces", 3, 200,
                      48, 11, 40, swap_mixed);
    read_case_swapped(fd, "swapped 8, holes too large to sieve", 0, 10, 96,
                      5000, 8, swap8);
    read_case_swapped(fd, "swapped mixed, direct, 16-byte pieces", 0, 10,
                      96, 5000, 16, swap_mixed);
    read_case_swapped(fd, "swapped 4, below the sieve minimum", 52, 3, 12,
                      5, 4, swap4);
    /* the end of the file cuts an element (FILE_LEN - 1004 is not a
     * multiple of 8 away from the last whole one) */
    read_case_swapped(fd, "swapped 8, sieve across the end of the file",
                      FILE_LEN - 1004, 20, 96, 20, 64, swap8);
    read_case_swapped(fd, "swapped 8, direct across the end of the file",
                      FILE_LEN - 52, 2, 96, 8000, 1 << 20, swap8);
    read_case_swapped(fd, "swapped 4, windows split at the span limit", 0,
                      1100, 4000, 96, 3000, swap4);
    /* extents larger than one read-and-swap chunk */
    read_case_swapped(fd, "swapped mixed, direct, 600000-byte extents", 8,
                      3, 600000, 5000, 40000, swap_mixed);
    read_case_swapped(fd, "swapped 8, direct, large extent across the end",
                      FILE_LEN - 300004, 1, 400000, 0, 1 << 20, swap8);
}

int main(void)
{
    char path[] = "/tmp/test_posix_move.XXXXXX";
    int fd = make_file(path);

    if (fd < 0) {
        printf("FAIL cannot make a file in /tmp\n");
        return 1;
    }
    unlink(path);
    read_case(fd, "sieved rows", 100, 64, 128, 128, 1 << 20);
    read_case(fd, "sieved rows, memory in 100-byte pieces", 100, 64, 128,
              128, 100);
    read_case(fd, "sieved, odd sizes", 3, 200, 37, 11, 53);
    read_case(fd, "holes too large to sieve", 0, 10, 100, 5000, 7);
    read_case(fd, "three extents, below the sieve minimum", 50, 3, 10, 5,
              4);
    read_case(fd, "sieve across the end of the file", FILE_LEN - 1000, 20,
              100, 20, 64);
    read_case(fd, "sieve ending one byte past the end of the file",
              FILE_LEN - 699, 6, 100, 20, 64);
    read_case(fd, "no sieve across the end of the file", FILE_LEN - 50, 2,
              100, 8000, 1 << 20);
    read_case(fd, "windows split at the span limit", 0, 1100, 4000, 96,
              3000);
    swapped_cases(fd);
    width_merges();
    close(fd);
    printf("%ld passed, %ld failed\n", passed, failed);
    return failed == 0 ? 0 : 1;
}
