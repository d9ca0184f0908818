/*
 * name_index.c -- a hash index from names to positions in a list, so that
 * defining or looking up N names costs O(N), not O(N^2).
 *
 * Owns: the table of an ncp_name_index (see ncp_name.h for its contract).
 * Open addressing with linear probing, kept at most half full; a removal
 * shifts the entries after it back (Knuth, TAOCP vol. 3, 6.4, Algorithm R)
 * so that no tombstones accumulate through renames.  Slots hold positions
 * and hashes, never names: the names stay in the list, so a table holds 8
 * bytes per slot and follows the list through realloc, and a probe reads
 * a name only when the hashes match.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ncp_name.h"

/* Lists this short are scanned: a table would cost more than it saves. */
#define SCAN_MAX 8

static const char *name_at(ncp_names_view v, int i)
{
    const char *p;
    memcpy(&p, (const char *)v.base + (size_t)i * v.stride + v.name_off,
           sizeof p);
    return p;
}

/* FNV-1a, 32 bits, then MurmurHash3's finalizer: names that differ only
 * in their last digits must still spread over the table's low bits. */
static uint32_t hash_of(const char *s)
{
    uint32_t h = 2166136261u;
    for (; *s; s++) h = (h ^ (unsigned char)*s) * 16777619u;
    h ^= h >> 16;
    h *= 0x85ebca6bu;
    h ^= h >> 13;
    h *= 0xc2b2ae35u;
    h ^= h >> 16;
    return h;
}

static int scan(ncp_names_view v, const char *key)
{
    int i;
    for (i = 0; i < v.n; i++)
        if (strcmp(name_at(v, i), key) == 0) return i;
    return -1;
}

void ncp_index_forget(ncp_name_index *x)
{
    free(x->slot);
    memset(x, 0, sizeof *x);
}

static void put_hashed(ncp_name_index *x, uint32_t h, int pos)
{
    uint32_t m = (uint32_t)x->cap - 1, i = h & m;
    while (x->slot[i].pos != 0) i = (i + 1) & m;
    x->slot[i].hash = h;
    x->slot[i].pos = pos + 1;
}

static void put(ncp_name_index *x, ncp_names_view v, int pos)
{
    put_hashed(x, hash_of(name_at(v, pos)), pos);
}

/* A table of at least twice n slots holding positions 0..n-1, moving the
 * old table's entries by their hashes; on failure no table at all. */
static void rebuild(ncp_name_index *x, ncp_names_view v, int n)
{
    ncp_name_index old = *x;
    int cap = 16, i, reuse = x->built <= n;
    memset(x, 0, sizeof *x);
    while (cap / 2 < n && cap < (1 << 30)) cap *= 2;
    if (cap / 2 < n) goto done;
    x->slot = calloc((size_t)cap, sizeof *x->slot);
    if (x->slot == NULL) goto done;
    x->cap = cap;
    if (!reuse) old.built = 0;
    for (i = 0; i < old.cap && reuse; i++)
        if (old.slot[i].pos != 0)
            put_hashed(x, old.slot[i].hash, old.slot[i].pos - 1);
    for (i = old.built; i < n; i++) put(x, v, i);
    x->built = n;
done:
    free(old.slot);
}

/* Bring the table up to the list: append what was added since, and
 * rebuild at twice the size when it would pass half full, so growth costs
 * O(1) per name overall. */
static void catch_up(ncp_name_index *x, ncp_names_view v)
{
    if (x->built > v.n || 2 * (int64_t)v.n > x->cap) {
        rebuild(x, v, v.n);
        return;
    }
    for (; x->built < v.n; x->built++) put(x, v, x->built);
}

int ncp_index_find(ncp_name_index *x, ncp_names_view v, const char *key)
{
    uint32_t m, i, h;
    int pos = -1;
    if (v.n <= SCAN_MAX) {
        if (x->cap) ncp_index_forget(x);
        return scan(v, key);
    }
    catch_up(x, v);
    if (x->cap == 0) return scan(v, key);
    m = (uint32_t)x->cap - 1;
    h = hash_of(key);
    for (i = h & m; x->slot[i].pos != 0; i = (i + 1) & m) {
        if (x->slot[i].hash == h &&
            strcmp(name_at(v, x->slot[i].pos - 1), key) == 0) {
            pos = x->slot[i].pos - 1;
            break;
        }
    }
    return pos;
}

void ncp_index_renamed(ncp_name_index *x, ncp_names_view v, int pos,
                       const char *oldname)
{
    uint32_t m, i, j, home;
    if (x->cap == 0 || pos >= x->built) return;
    m = (uint32_t)x->cap - 1;
    for (i = hash_of(oldname) & m; x->slot[i].pos != pos + 1;
         i = (i + 1) & m)
        if (x->slot[i].pos == 0) { /* not where it should be: start afresh */
            ncp_index_forget(x);
            return;
        }
    /* Remove slot i: move back every later entry of the run whose home
       does not lie cyclically in (i, j]. */
    x->slot[i].pos = 0;
    for (j = (i + 1) & m; x->slot[j].pos != 0; j = (j + 1) & m) {
        home = x->slot[j].hash & m;
        if ((j > i && (home <= i || home > j)) ||
            (j < i && (home <= i && home > j))) {
            x->slot[i] = x->slot[j];
            x->slot[j].pos = 0;
            i = j;
        }
    }
    put(x, v, pos);
}
