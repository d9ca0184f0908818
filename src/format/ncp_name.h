/*
 * ncp_name.h -- names in the header: the netCDF naming rule, the one
 * spelling (Unicode NFC) a name is stored and looked up under, and a hash
 * index from names to positions in a list of dimensions, variables or
 * attributes (src/format/name.c, src/format/name_index.c).
 *
 * Every name a define call stores goes through ncp_name_for_define and
 * every name a lookup is given through ncp_name_for_lookup, so two
 * spellings of one name (composed, decomposed) are one name, as in
 * PnetCDF and netCDF-C.  The decoder keeps names byte for byte: a file may
 * hold a name that is not NFC; such a name is then found by nobody.
 */
#ifndef NCP_NAME_H
#define NCP_NAME_H

#include <stddef.h>
#include <stdint.h>

/* Length of the well-formed UTF-8 sequence at s (at most n bytes), or 0
 * for an overlong form, a surrogate, a code point above U+10FFFF, a stray
 * or missing continuation byte. */
int ncp_utf8_seq(const unsigned char *s, int64_t n);

/* 1 when the n bytes at s follow the netCDF classic naming rule: valid
 * UTF-8; first a letter, digit, '_' or any non-ASCII character; no ASCII
 * control character, DEL or '/'; no trailing space. */
int ncp_name_legal(const unsigned char *s, int64_t n);
/* The rule a name read from a file must follow: as above, but a define
 * call may have stored ';' or '`' first (the NFC forms of U+037E and
 * U+1FEF). */
int ncp_name_legal_stored(const unsigned char *s, int64_t n);

/* A name a define call (def_dim, def_var, put_att, rename_*) is to store:
 * NC_EBADNAME for NULL, empty, or one that breaks the rule, NC_EMAXNAME
 * for more than NC_MAX_NAME bytes as given or after normalization.  On
 * success *nfc is a malloc'd NFC copy the caller owns. */
int ncp_name_for_define(const char *name, char **nfc);

/* A name a lookup is given: NC_EBADNAME for NULL, empty or invalid UTF-8,
 * NC_EMAXNAME for more than NC_MAX_NAME bytes.  On success *key is the
 * spelling to compare byte for byte: name itself, or *owned (malloc'd,
 * the caller frees it; NULL when name is already its own NFC form). */
int ncp_name_for_lookup(const char *name, char **owned, const char **key);

/*
 * The index: an open-addressing hash table (linear probing) of positions
 * into a list whose entries each hold a name pointer.  It is a cache over
 * the list: the list is the truth, and the index catches up lazily with
 * entries appended since it last looked (`built`), so builders that only
 * append need not know it exists.  What changes a name in place must call
 * ncp_index_renamed; what removes or reorders entries must call
 * ncp_index_forget.  Short lists are searched without a table.  A failed
 * allocation drops the table and the search falls back to a scan, so a
 * lookup never fails.
 */
typedef struct ncp_name_slot {
    uint32_t hash; /* of the name, so most mismatches need no strcmp */
    int pos;       /* 0 empty, else position + 1 */
} ncp_name_slot;

typedef struct ncp_name_index {
    ncp_name_slot *slot; /* cap entries */
    int cap;             /* a power of two, or 0 when there is no table */
    int built;           /* positions 0..built-1 are in the table */
} ncp_name_index;

/* Where the names are: n entries of stride bytes from base, each holding
 * a char * at byte offset name_off. */
typedef struct ncp_names_view {
    const void *base;
    size_t stride;
    size_t name_off;
    int n;
} ncp_names_view;

/* Position of the entry named key (compared byte for byte), or -1. */
int ncp_index_find(ncp_name_index *x, ncp_names_view v, const char *key);
/* Entry pos, already indexed under oldname, now holds its new name. */
void ncp_index_renamed(ncp_name_index *x, ncp_names_view v, int pos,
                       const char *oldname);
/* Drop the table; the next find rebuilds it. */
void ncp_index_forget(ncp_name_index *x);

#endif
