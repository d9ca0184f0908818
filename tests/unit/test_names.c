/*
 * test_names.c -- unit tests of src/format/name.c and name_index.c (no
 * MPI): the UTF-8 and naming rules, NFC, and the name index checked
 * against a linear scan through random appends, renames and removals.
 *
 * Prints "N passed, M failed"; exit status 0 only when M is 0.
 */
#define _POSIX_C_SOURCE 200809L /* strdup */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <pnetcdf.h>

#include "format/ncp_header.h"
#include "format/ncp_header_build.h"
#include "format/ncp_name.h"

static long passed, failed;

static void expect(int ok, const char *what, long detail)
{
    if (ok) {
        passed++;
        return;
    }
    failed++;
    if (failed < 30) printf("FAIL %s (%ld)\n", what, detail);
}

static void rules(void)
{
    char *nfc = NULL, *owned = NULL;
    const char *key = NULL;
    char longname[NC_MAX_NAME + 2];

    expect(ncp_name_for_define("e\xCC\x81", &nfc) == NC_NOERR &&
               strcmp(nfc, "\xC3\xA9") == 0, "NFD stored composed", 0);
    free(nfc);
    expect(ncp_name_for_define("a\xED\xA0\x80", &nfc) == NC_EBADNAME &&
               nfc == NULL, "surrogate refused", 0);
    expect(ncp_name_for_define("a\xE0\x80\x80", &nfc) == NC_EBADNAME,
           "overlong refused", 0);
    expect(ncp_name_for_define("\xCD\xBE", &nfc) == NC_NOERR &&
               strcmp(nfc, ";") == 0, "U+037E stored as ';'", 0);
    free(nfc);
    expect(ncp_name_for_define(";", &nfc) == NC_EBADNAME, "';' as given", 0);
    memset(longname, 'a', sizeof longname - 1);
    longname[sizeof longname - 1] = '\0';
    expect(ncp_name_for_define(longname, &nfc) == NC_EMAXNAME, "too long", 0);
    memcpy(longname + NC_MAX_NAME - 3, "\xE0\xA5\x98", 4);
    expect(ncp_name_for_define(longname + 1, &nfc) == NC_EMAXNAME,
           "too long once composed", 0);
    expect(ncp_name_for_lookup("/x", &owned, &key) == NC_NOERR &&
               owned == NULL && strcmp(key, "/x") == 0,
           "lookup of an illegal ASCII name", 0);
    expect(ncp_name_for_lookup("A\xCC\x8A", &owned, &key) == NC_NOERR &&
               owned != NULL && strcmp(key, "\xC3\x85") == 0,
           "lookup composes", 0);
    free(owned);
    expect(ncp_name_for_lookup("a\xC0\x80", &owned, &key) == NC_EBADNAME,
           "lookup of malformed UTF-8", 0);
    expect(ncp_name_for_lookup("", &owned, &key) == NC_EBADNAME, "empty", 0);
    expect(ncp_name_legal_stored((const unsigned char *)";x", 2) &&
               !ncp_name_legal((const unsigned char *)";x", 2),
           "stored names may start with ';'", 0);
}

/* Random appends, renames and deletions of attributes; after each step
 * every name (and some absent ones) is found where a scan finds it. */
static void index_vs_scan(void)
{
    ncp_attlist l;
    char name[32];
    int step, i, j, v = 0;
    unsigned seed = 12345;

    memset(&l, 0, sizeof l);
    for (step = 0; step < 3000; step++) {
        seed = seed * 1103515245u + 12345u;
        int op = (int)((seed >> 16) % 10);
        if (op < 6 || l.n < 2) {
            snprintf(name, sizeof name, "n%u", (seed >> 8) % 5000);
            if (ncp_hdr_find_att(&l, name) < 0)
                ncp_hdr_add_att(&l, name, NC_INT, 1, "\0\0\0\1");
        } else if (op < 9) {
            i = (int)((seed >> 4) % (unsigned)l.n);
            snprintf(name, sizeof name, "r%u", (seed >> 8) % 5000);
            if (ncp_hdr_find_att(&l, name) < 0)
                ncp_hdr_rename_att(&l, i, strdup(name));
        } else {
            ncp_hdr_del_att(&l, (int)((seed >> 4) % (unsigned)l.n));
        }
        if (step % 50 != 0) continue;
        for (i = 0; i < l.n; i++)
            expect(ncp_hdr_find_att(&l, l.a[i].name) == i, "index finds", i);
        for (j = 0; j < 50; j++) {
            int want = -1;
            snprintf(name, sizeof name, "%c%d", j % 2 ? 'n' : 'r', j * 97);
            for (i = 0; i < l.n; i++)
                if (strcmp(l.a[i].name, name) == 0) want = i;
            expect(ncp_hdr_find_att(&l, name) == want, "index agrees", j);
        }
        v++;
    }
    expect(v > 0 && l.n > 100, "the list grew", l.n);
    ncp_hdr_attlist_free(&l);
}

/* A copied header has no index of its own until it looks, and finds the
 * same; renames in the copy do not disturb the original. */
static void copy_keeps_apart(void)
{
    ncp_header h, c;
    char name[32];
    int i;
    ncp_header_init(&h, NCP_CDF2);
    for (i = 0; i < 1000; i++) {
        snprintf(name, sizeof name, "d%d", i);
        ncp_hdr_add_dim(&h, name, 1, NULL);
    }
    expect(ncp_hdr_find_dim(&h, "d999") == 999, "find in original", 0);
    expect(ncp_header_copy(&c, &h) == NC_NOERR, "copy", 0);
    ncp_hdr_rename_dim(&c, 5, strdup("renamed"));
    expect(ncp_hdr_find_dim(&c, "renamed") == 5, "renamed in copy", 0);
    expect(ncp_hdr_find_dim(&h, "renamed") == -1, "not in original", 0);
    expect(ncp_hdr_find_dim(&h, "d5") == 5, "original keeps d5", 0);
    expect(ncp_hdr_find_dim(&c, "d5") == -1, "copy lost d5", 0);
    ncp_header_free(&c);
    ncp_header_free(&h);
}

int main(void)
{
    rules();
    index_vs_scan();
    copy_keeps_apart();
    printf("%ld passed, %ld failed\n", passed, failed);
    return failed ? 1 : 0;
}
