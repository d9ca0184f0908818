/*
 * test_runmerge.c -- unit test of the merge of sorted runs
 * (src/base/runmerge.c), the step where a flush puts every request's
 * extents into file order.  On random runs (short and long, with equal
 * keys within and across runs, interleaved element by element or in long
 * stretches) the stretches handed out must give the same sequence as a
 * stable sort by (key, run, place).  The comparisons counted must stay
 * within O(n log k) for n keys in k runs, and within a few per stretch
 * where runs interleave in long stretches, so a quadratic merge or one
 * that compares every key fails here without a timing.  Pair lists (an
 * aggregator's: (offset, length) pairs, each rank's a range of one
 * array, ranges apart or abutting) must pop one pair at a time in the
 * same order.
 *
 * Prints "N passed, M failed"; exit status 0 only when M is 0.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <pnetcdf.h>

#include "base/ncp_runmerge.h"
#include "unit_check.h"

static uint64_t rng_state = 0x243f6a8885a308d3u;
static int64_t rnd(int64_t n)
{
    rng_state = rng_state * 6364136223846793005u + 1442695040888963407u;
    return (int64_t)((rng_state >> 33) % (uint64_t)n);
}

typedef struct item {
    MPI_Offset key;
    int64_t run, place;
} item;

static int by_key_run_place(const void *x, const void *y)
{
    const item *a = x, *b = y;
    if (a->key != b->key) return a->key < b->key ? -1 : 1;
    if (a->run != b->run) return a->run < b->run ? -1 : 1;
    return (a->place > b->place) - (a->place < b->place);
}

/* Merge the runs; compare with the reference; return the comparisons. */
static int64_t merge_and_check(int64_t k, MPI_Offset **keys,
                               const int64_t *count, const char *what)
{
    int64_t n = 0, r, i, at = 0, run, from, to, last_run = -1;
    item *ref;
    ncp_runmerge m;
    int ok = 1;
    for (r = 0; r < k; r++) n += count[r];
    ref = malloc((size_t)(n ? n : 1) * sizeof(*ref));
    for (r = 0; r < k; r++)
        for (i = 0; i < count[r]; i++) {
            ref[at].key = keys[r][i];
            ref[at].run = r;
            ref[at++].place = i;
        }
    qsort(ref, (size_t)n, sizeof(*ref), by_key_run_place);
    check(ncp_runmerge_init(&m, k, (const MPI_Offset *const *)keys,
                            count) == NC_NOERR,
          what);
    at = 0;
    while (ok && ncp_runmerge_next(&m, &run, &from, &to)) {
        /* non-empty stretches, each taken up where its run left off */
        ok = from < to && run >= 0 && run < k && run != last_run;
        for (i = from; ok && i < to; i++, at++)
            ok = at < n && ref[at].run == run && ref[at].place == i;
        last_run = run;
    }
    check(ok && at == n, what);
    if (!ok || at != n) printf("  (%s: k=%lld n=%lld at=%lld)\n", what,
                               (long long)k, (long long)n, (long long)at);
    ncp_runmerge_free(&m);
    free(ref);
    return m.compares;
}

/* Random runs: keys from [0, span), each run sorted. */
static void random_case(int64_t k, int64_t most, MPI_Offset span)
{
    MPI_Offset **keys = malloc((size_t)k * sizeof(*keys));
    int64_t *count = malloc((size_t)k * sizeof(*count)), r, i, n = 0, cmp;
    for (r = 0; r < k; r++) {
        MPI_Offset v = 0;
        count[r] = rnd(most + 1);
        keys[r] = malloc((size_t)(count[r] + 1) * sizeof(MPI_Offset));
        for (i = 0; i < count[r]; i++) {
            v += rnd(2 * span / (most + 1) + 1); /* steps of 0 repeat a key */
            keys[r][i] = v;
        }
        n += count[r];
    }
    cmp = merge_and_check(k, keys, count, "random runs merge stably");
    /* the heap and the galloping: a few log k and log n per key at most */
    check(cmp <= 4 * n * (int64_t)(log2((double)k + 1) + 2) + 4 * k,
          "random runs: O(n log k) comparisons");
    for (r = 0; r < k; r++) free(keys[r]);
    free(keys);
    free(count);
}

/*
 * k runs of s stretches of len keys each, stretch j of run r covering
 * [(j * k + r) * len, +len): the runs interleave stretch by stretch, as
 * the records of record variables do.  Comparisons must grow with the
 * stretches, not with the keys.
 */
static int64_t stretch_case(int64_t k, int64_t s, int64_t len)
{
    MPI_Offset **keys = malloc((size_t)k * sizeof(*keys));
    int64_t *count = malloc((size_t)k * sizeof(*count)), r, j, i, cmp;
    for (r = 0; r < k; r++) {
        count[r] = s * len;
        keys[r] = malloc((size_t)count[r] * sizeof(MPI_Offset));
        for (j = 0; j < s; j++)
            for (i = 0; i < len; i++)
                keys[r][j * len + i] = (j * k + r) * len + i;
    }
    cmp = merge_and_check(k, keys, count, "stretches merge in order");
    for (r = 0; r < k; r++) free(keys[r]);
    free(keys);
    free(count);
    return cmp;
}

/* k ranks' pair lists in one array, rank q's at [first[q], end[q]), a
 * gap of unused pairs between some; popped in (offset, rank, place)
 * order, each pair once. */
static void pairs_case(int k, int64_t most)
{
    int64_t *first = malloc((size_t)(k + 1) * sizeof(int64_t));
    int64_t *end = malloc((size_t)(k + 1) * sizeof(int64_t));
    int64_t n = 0, at = 0, i, q, got;
    MPI_Offset *pairs;
    item *ref;
    ncp_runmerge m;
    int ok = 1, r;
    for (q = 0; q < k; q++) {
        first[q] = at + rnd(2); /* sometimes a gap before the list */
        end[q] = first[q] + rnd(most + 1);
        at = end[q];
    }
    pairs = malloc((size_t)(2 * at + 2) * sizeof(MPI_Offset));
    ref = malloc((size_t)(at + 1) * sizeof(*ref));
    for (q = 0; q < k; q++) {
        MPI_Offset off = rnd(50);
        for (i = first[q]; i < end[q]; i++) {
            off += rnd(30); /* equal offsets within and across ranks */
            pairs[2 * i] = off;
            pairs[2 * i + 1] = 1 + rnd(9);
            ref[n].key = off;
            ref[n].run = q;
            ref[n++].place = i;
        }
    }
    qsort(ref, (size_t)n, sizeof(*ref), by_key_run_place);
    check(ncp_runmerge_init_pairs(&m, k, pairs, first, end) == NC_NOERR,
          "pair lists: init");
    for (got = 0; ok && (r = ncp_runmerge_pop(&m, &i)) >= 0; got++)
        ok = got < n && r == ref[got].run && i == ref[got].place;
    check(ok && got == n, "pair lists pop in (offset, rank, place) order");
    check(ncp_runmerge_pop(&m, &i) < 0, "pair lists: nothing after the end");
    ncp_runmerge_free(&m);
    free(first);
    free(end);
    free(pairs);
    free(ref);
}

int main(void)
{
    int p;
    for (p = 0; p < 500; p++) pairs_case(1 + (int)rnd(12), rnd(4) ? 30 : 2);
    pairs_case(0, 0);
    int64_t c, c1, c2;
    int t;
    for (t = 0; t < 3000; t++) {
        int64_t k = 1 + rnd(t % 3 == 0 ? 3 : 40);
        random_case(k, rnd(3) == 0 ? 3 : 200, 1 + rnd(5000));
    }
    random_case(0, 0, 1);
    /* runs with nothing in them among runs with keys */
    random_case(50, 1, 10);
    /* 10 runs of 4 stretches of 65536 keys: about 2 log2(65536) + a heap
     * step a stretch, never near a comparison a key */
    c = stretch_case(10, 4, 65536);
    check(c < 40 * (2 * 17 + 10), "long stretches: comparisons a stretch");
    /* doubling the keys a stretch adds a comparison or two a stretch */
    c1 = stretch_case(10, 4, 1 << 12);
    c2 = stretch_case(10, 4, 1 << 13);
    check(c2 - c1 <= 40 * 3, "long stretches: O(log) in their length");
    /* element by element: O(n log k) */
    c = stretch_case(16, 4096, 1);
    check(c <= 4 * 16 * 4096 * (4 + 2), "interleaved keys: O(n log k)");
    printf("%ld passed, %ld failed\n", passed, failed);
    return failed != 0;
}
