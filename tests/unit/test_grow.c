/*
 * test_grow.c -- ncp_grow (src/base/grow.c): an array grows only when
 * full, from its first size and then by doubling, keeping its contents;
 * a size past SIZE_MAX is refused with the array and capacity unchanged.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "base/ncp_grow.h"

static int failures;

static void expect(int cond, const char *what)
{
    if (!cond) {
        printf("FAIL: %s\n", what);
        failures++;
    }
}

int main(void)
{
    int64_t n = 0, cap = 0, i, caps[8], seen = 0;
    int *a = NULL, *na;
    char big;

    for (i = 0; i < 40; i++) {
        na = ncp_grow(a, n, &cap, sizeof(*na), 16);
        expect(na != NULL, "grow");
        if ((seen == 0 || caps[seen - 1] != cap) && seen < 8)
            caps[seen++] = cap;
        a = na;
        a[n++] = (int)i * 3;
    }
    expect(seen == 3 && caps[0] == 16 && caps[1] == 32 && caps[2] == 64,
           "16, then doubled to 32 and 64");
    for (i = 0; i < n; i++) expect(a[i] == (int)i * 3, "contents kept");
    expect(ncp_grow(a, n - 1, &cap, sizeof(*a), 16) == a,
           "not full: the same array");
    cap = INT64_MAX / 2 + 1;
    expect(ncp_grow(&big, cap, &cap, 4, 16) == NULL &&
           cap == INT64_MAX / 2 + 1, "past SIZE_MAX: refused, cap kept");
    free(a);
    if (failures == 0) printf("test_grow: all passed\n");
    return failures != 0;
}
