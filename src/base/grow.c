/*
 * grow.c -- the doubling append of ncp_grow.h.
 */
#include "ncp_grow.h"

#include <stdlib.h>

void *ncp_grow(void *p, int64_t n, int64_t *cap, size_t elem, int64_t first)
{
    int64_t want;
    void *np;

    if (n < *cap) return p;
    if (*cap > INT64_MAX / 2) return NULL;
    want = *cap ? 2 * *cap : first;
    if ((uint64_t)want > SIZE_MAX / elem) return NULL;
    np = realloc(p, (size_t)want * elem);
    if (np) *cap = want;
    return np;
}
