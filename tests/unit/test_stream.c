/*
 * test_stream.c -- unit test of the window helpers of src/base/stream.c
 * that the aggregated writes cut their rounds with.  For random sorted,
 * disjoint extents and random file windows [lo, hi): ncp_extents_touching
 * counts the extents touching the window (the shared staging reserves
 * exactly that many list pairs before clipping), ncp_stream_clip yields
 * that many pairs, equal to each extent cut to the window, with the
 * stream range of their bytes, and ncp_stream_window finds the same
 * range.  The reference walks every extent.
 *
 * Prints "N passed, M failed"; exit status 0 only when M is 0.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <pnetcdf.h>

#include "base/ncp_stream.h"

enum { NSETS = 300, NWINDOWS = 60, MAXEXT = 40 };

static long passed, failed;

/* A small deterministic generator, so a failure reproduces. */
static uint64_t rng_state = 0x2545f4914f6cdd1du;
static int64_t rnd(int64_t n)
{
    rng_state = rng_state * 6364136223846793005u + 1442695040888963407u;
    return (int64_t)((rng_state >> 33) % (uint64_t)n);
}

static void check(int ok, const char *what, int set, int win)
{
    if (ok) {
        passed++;
    } else {
        failed++;
        printf("FAIL set %d window %d: %s\n", set, win, what);
    }
}

/* Sorted extents with gaps of 1..20 bytes (0 would merge them) and the
 * memory as one piece holding their bytes in order. */
static int random_extents(ncp_extents *e, ncp_extents *mem, char *buf)
{
    MPI_Offset at = rnd(50);
    int64_t i, n = rnd(MAXEXT);
    int err = NC_NOERR;
    for (i = 0; i < n && err == NC_NOERR; i++) {
        MPI_Offset len = 1 + rnd(30);
        err = ncp_extents_add(e, at, len);
        at += len + 1 + rnd(20);
    }
    if (err == NC_NOERR && e->nbytes > 0)
        err = ncp_extents_add(mem, (MPI_Offset)(intptr_t)buf, e->nbytes);
    return err;
}

/* The reference: every extent cut to [lo, hi), and the stream range of
 * the cut bytes (0, 0 when none). */
static int64_t reference(const ncp_extents *e, MPI_Offset lo, MPI_Offset hi,
                         MPI_Offset *pairs, MPI_Offset *s0, MPI_Offset *s1)
{
    MPI_Offset pos = 0;
    int64_t i, n = 0;
    *s0 = *s1 = 0;
    for (i = 0; i < e->n; pos += e->len[i], i++) {
        MPI_Offset a = e->off[i] > lo ? e->off[i] : lo;
        MPI_Offset b = e->off[i] + e->len[i] < hi ? e->off[i] + e->len[i] : hi;
        if (a >= b) continue;
        if (n == 0) *s0 = pos + (a - e->off[i]);
        *s1 = pos + (b - e->off[i]);
        pairs[2 * n] = a;
        pairs[2 * n + 1] = b - a;
        n++;
    }
    return n;
}

static void window_case(const ncp_stream *s, int set, int win,
                        MPI_Offset lo, MPI_Offset hi)
{
    MPI_Offset want[2 * MAXEXT], got[2 * MAXEXT], r0, r1, c0, c1, w0, w1;
    int64_t n = reference(s->ext, lo, hi, want, &r0, &r1), k, i;
    int same = 1;
    check(ncp_extents_touching(s->ext, lo, hi) == n, "touching count", set,
          win);
    k = ncp_stream_clip(s, lo, hi, got, &c0, &c1);
    for (i = 0; i < 2 * n && k == n; i++) same &= got[i] == want[i];
    check(k == n && same, "clipped pairs", set, win);
    check(c0 == r0 && c1 == r1, "clip's stream range", set, win);
    ncp_stream_window(s, lo, hi, &w0, &w1);
    check(w0 == r0 && w1 == r1, "window's stream range", set, win);
}

int main(void)
{
    static char buf[MAXEXT * 30];
    int set, win;
    for (set = 0; set < NSETS; set++) {
        ncp_extents e, mem;
        ncp_stream s;
        MPI_Offset end;
        ncp_extents_init(&e);
        ncp_extents_init(&mem);
        if (random_extents(&e, &mem, buf) != NC_NOERR ||
            ncp_stream_init(&s, &e, &mem) != NC_NOERR) {
            printf("FAIL set %d: out of memory\n", set);
            return 1;
        }
        end = e.n ? e.off[e.n - 1] + e.len[e.n - 1] + 40 : 100;
        for (win = 0; win < NWINDOWS; win++) {
            MPI_Offset lo = rnd(end), hi = lo + 1 + rnd(end - lo + 20);
            window_case(&s, set, win, lo, hi);
        }
        ncp_stream_free(&s);
        ncp_extents_free(&e);
        ncp_extents_free(&mem);
    }
    printf("%ld passed, %ld failed\n", passed, failed);
    return failed != 0;
}
