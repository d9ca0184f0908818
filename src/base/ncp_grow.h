/*
 * ncp_grow.h -- room for one more element in a growing array: the one
 * doubling every append-only list of the library uses.
 */
#ifndef NCP_GROW_H
#define NCP_GROW_H

#include <stddef.h>
#include <stdint.h>

/* With *n == *cap, the array p of elements of elem bytes reallocated to
 * twice *cap (first when empty): returns the new array and sets *cap, or
 * returns NULL (out of memory, or a size past INT64_MAX or SIZE_MAX) and leaves p and
 * *cap as they were.  With *n < *cap it returns p. */
void *ncp_grow(void *p, int64_t n, int64_t *cap, size_t elem,
               int64_t first);

#endif
