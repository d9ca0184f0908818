/*
 * test_bufcache.c -- unit test of the kept request buffers
 * (src/base/bufcache.c).  A record's worth of buffers given back must be
 * handed out again for the next record (the same blocks, not fresh
 * ones); what is kept must stay within the limit given, within the most
 * bytes ever taken at once and within the slots; small blocks, and any
 * block when the limit is 0, go straight back to malloc; a block much
 * larger than asked is not handed out; move and clear leave taken blocks
 * alone.  Every block handed out is written end to end, so that ASan
 * (the ASan CI stage) catches a block shorter than asked.
 *
 * Prints "N passed, M failed"; exit status 0 only when M is 0.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "base/ncp_bufcache.h"
#include "unit_check.h"

#define KIB ((int64_t)1 << 10)
#define MIB ((int64_t)1 << 20)

static void *take_filled(ncp_bufcache *c, int64_t n)
{
    void *p = ncp_bufcache_take(c, n);
    if (p) memset(p, 0xa5, (size_t)n);
    return p;
}

/* Ten buffers a record for three records: the second and third take the
 * first's blocks again. */
static void records_reuse(void)
{
    ncp_bufcache c;
    void *first[10], *p[10];
    int r, k, same = 1;
    ncp_bufcache_init(&c);
    for (k = 0; k < 10; k++) first[k] = take_filled(&c, 256 * KIB);
    for (k = 0; k < 10; k++) ncp_bufcache_give(&c, first[k], 64 * MIB);
    check(c.n == 10 && c.kept == 10 * 256 * KIB, "a record's blocks kept");
    check(c.live == 0 && c.peak == 10 * 256 * KIB, "live and peak counted");
    for (r = 0; r < 2; r++) {
        for (k = 0; k < 10; k++) {
            int j, found = 0;
            p[k] = take_filled(&c, 256 * KIB);
            for (j = 0; j < 10; j++) found |= p[k] == first[j];
            same &= found;
        }
        for (k = 0; k < 10; k++) ncp_bufcache_give(&c, p[k], 64 * MIB);
    }
    check(same, "later records take the kept blocks");
    check(c.reused == 20, "every later take served from the slots");
    check(c.peak == 10 * 256 * KIB, "reuse does not raise the peak");
    ncp_bufcache_clear(&c);
    check(c.n == 0 && c.kept == 0, "clear empties the slots");
}

static void limit_honoured(void)
{
    ncp_bufcache c;
    void *p[8];
    int k;
    ncp_bufcache_init(&c);
    for (k = 0; k < 8; k++) p[k] = take_filled(&c, MIB);
    for (k = 0; k < 8; k++) ncp_bufcache_give(&c, p[k], 3 * MIB);
    check(c.kept == 3 * MIB && c.n == 3, "kept stops at the limit");
    ncp_bufcache_clear(&c);
    for (k = 0; k < 2; k++) p[k] = take_filled(&c, MIB);
    for (k = 0; k < 2; k++) ncp_bufcache_give(&c, p[k], 0);
    check(c.n == 0 && c.kept == 0, "limit 0 keeps nothing");
    p[0] = take_filled(&c, NCP_BUFCACHE_MIN - 1);
    ncp_bufcache_give(&c, p[0], 64 * MIB);
    check(c.n == 0, "a block under the minimum is freed");
    ncp_bufcache_give(&c, NULL, 64 * MIB);
    check(c.n == 0 && c.live == 0, "giving NULL changes nothing");
    ncp_bufcache_clear(&c);
}

/* Blocks taken one at a time, never two at once: the peak is one block,
 * so one is kept, not all of them. */
static void peak_bounds_kept(void)
{
    ncp_bufcache c;
    int64_t sz;
    ncp_bufcache_init(&c);
    for (sz = 64 * KIB; sz <= 512 * KIB; sz *= 2)
        ncp_bufcache_give(&c, take_filled(&c, sz), 64 * MIB);
    check(c.peak == 512 * KIB, "peak is the largest single block");
    check(c.kept <= c.peak, "kept within the peak");
    check(c.n == 1 && c.kept == 512 * KIB, "the larger block replaces");
    ncp_bufcache_clear(&c);
}

static void slots_bounded(void)
{
    ncp_bufcache c;
    void *p[NCP_BUFCACHE_SLOTS + 8];
    int k, n = NCP_BUFCACHE_SLOTS + 8;
    ncp_bufcache_init(&c);
    for (k = 0; k < n; k++) p[k] = take_filled(&c, 32 * KIB + k * KIB);
    for (k = 0; k < n; k++) ncp_bufcache_give(&c, p[k], 64 * MIB);
    check(c.n == NCP_BUFCACHE_SLOTS, "never more blocks than slots");
    /* the smallest gave way: the largest is among those kept */
    p[0] = ncp_bufcache_take(&c, 32 * KIB + (n - 1) * KIB);
    check(c.reused == 1, "the largest block was kept");
    ncp_bufcache_give(&c, p[0], 64 * MIB);
    ncp_bufcache_clear(&c);
}

static void fit_rules(void)
{
    ncp_bufcache c;
    void *big, *small, *p;
    ncp_bufcache_init(&c);
    big = take_filled(&c, 4 * MIB);
    small = take_filled(&c, 64 * KIB);
    ncp_bufcache_give(&c, big, 64 * MIB);
    ncp_bufcache_give(&c, small, 64 * MIB);
    p = take_filled(&c, 48 * KIB);
    check(p == small, "best fit: the smallest block that holds it");
    ncp_bufcache_give(&c, p, 64 * MIB);
    p = take_filled(&c, 1 * MIB);
    check(p != big && c.reused == 1, "a block over twice the ask is not used");
    ncp_bufcache_give(&c, p, 64 * MIB);
    p = take_filled(&c, 3 * MIB);
    check(p == big, "a block under twice the ask is used");
    ncp_bufcache_give(&c, p, 64 * MIB);
    p = take_filled(&c, 0);
    check(p != NULL, "a zero-byte take gives a pointer");
    ncp_bufcache_give(&c, p, 64 * MIB);
    ncp_bufcache_clear(&c);
}

static void move_between(void)
{
    ncp_bufcache a, b;
    void *p[3], *held, *q;
    int k;
    ncp_bufcache_init(&a);
    ncp_bufcache_init(&b);
    for (k = 0; k < 3; k++) p[k] = take_filled(&a, 128 * KIB);
    held = take_filled(&a, 128 * KIB);
    for (k = 0; k < 3; k++) ncp_bufcache_give(&a, p[k], 64 * MIB);
    ncp_bufcache_move(&b, &a);
    check(a.n == 0 && a.kept == 0 && a.peak == 0, "move empties the source");
    check(b.n == 3 && b.peak == 4 * 128 * KIB, "move hands blocks and peak");
    q = take_filled(&b, 128 * KIB);
    check(q == p[0] || q == p[1] || q == p[2], "the new owner reuses them");
    ncp_bufcache_give(&b, q, 64 * MIB);
    memset(held, 0x5a, 128 * KIB); /* still ours after move */
    ncp_bufcache_give(&a, held, 64 * MIB);
    ncp_bufcache_clear(&a);
    ncp_bufcache_clear(&b);
    check(b.n == 0, "clear after move");
}

int main(void)
{
    records_reuse();
    limit_honoured();
    peak_bounds_kept();
    slots_bounded();
    fit_rules();
    move_between();
    printf("%ld passed, %ld failed\n", passed, failed);
    return failed != 0;
}
