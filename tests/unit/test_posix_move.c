/*
 * test_posix_move.c -- unit test of ncp_posix_move (src/io/posix.c), the
 * POSIX driver's own-extents transfer, for reads that go through the
 * sieve (many small extents with small holes, read as one window) and
 * reads that do not: every byte lands in the right memory piece, memory
 * pieces that split extents anywhere are filled in order, and a read past
 * the end of the file stops there and leaves the rest of memory alone.
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

#include "io/ncp_posix.h"

enum { FILE_LEN = 5 << 20, SENTINEL = 0xA5 };

static long passed, failed;

static void check(int ok, const char *what)
{
    if (ok) {
        passed++;
    } else {
        failed++;
        printf("FAIL %s\n", what);
    }
}

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

/*
 * Read n extents of len bytes, hole bytes apart, from first, into memory
 * pieces of `piece` bytes; then check that the bytes before the end of
 * the file are the file's, and that the bytes after it and the unused
 * bytes between pieces are untouched.
 */
static void read_case(int fd, const char *name, int64_t first, int64_t n,
                      int64_t len, int64_t hole, int64_t piece)
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
        err = ncp_extents_add(
            &mem, (MPI_Offset)(intptr_t)(buf + mem_at(at, piece)), k);
    }
    if (err == NC_NOERR)
        err = ncp_posix_move(fd, 0, &ext, &mem);
    check(err == NC_NOERR, name);
    for (int64_t pos = 0; pos < total; pos++) {
        int64_t off = first + pos / len * (len + hole) + pos % len;
        int want = off < FILE_LEN ? file_byte(off) : SENTINEL;
        bad += buf[mem_at(pos, piece)] != want;
    }
    for (int64_t at = piece; at < total; at += piece)
        bad += buf[mem_at(at, piece) - 1] != SENTINEL;
    if (bad)
        printf("  %s: %lld wrong bytes\n", name, (long long)bad);
    check(bad == 0, name);
    ncp_extents_free(&ext);
    ncp_extents_free(&mem);
    free(buf);
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
    close(fd);
    printf("%ld passed, %ld failed\n", passed, failed);
    return failed == 0 ? 0 : 1;
}
