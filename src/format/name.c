/*
 * name.c -- the netCDF naming rule and Unicode normalization of names.
 *
 * Owns: which byte strings are names, and the one spelling each is kept
 * under.  netCDF-C and PnetCDF store and look up names in Normalization
 * Form C (Unicode Standard Annex #15), so "e" + U+0301 and U+00E9 are the
 * same name and the composed form is what reaches the file; the
 * normalization itself is libutf8proc's.  ASCII is its own NFC form, so an
 * ASCII name never reaches the library.
 */
#include <stdlib.h>
#include <string.h>

#include <pnetcdf.h>
#include <utf8proc.h>

#include "ncp_name.h"

int ncp_utf8_seq(const unsigned char *s, int64_t n)
{
    int len = 0, i;
    unsigned char lo = 0x80, hi = 0xBF;
    if (n <= 0) return 0;
    if (s[0] < 0x80) return 1;
    if (s[0] >= 0xC2 && s[0] <= 0xDF) len = 2;
    else if (s[0] >= 0xE0 && s[0] <= 0xEF) len = 3;
    else if (s[0] >= 0xF0 && s[0] <= 0xF4) len = 4;
    if (len == 0 || len > n) return 0;
    /* The second byte's range depends on the lead: this is what refuses
       overlong forms, surrogates and code points above U+10FFFF. */
    if (s[0] == 0xE0) lo = 0xA0;
    if (s[0] == 0xED) hi = 0x9F;
    if (s[0] == 0xF0) lo = 0x90;
    if (s[0] == 0xF4) hi = 0x8F;
    if (s[1] < lo || s[1] > hi) return 0;
    for (i = 2; i < len; i++)
        if (s[i] < 0x80 || s[i] > 0xBF) return 0;
    return len;
}

/* 1 when all n bytes are well-formed UTF-8; *ascii says whether all are
 * ASCII. */
static int utf8_valid(const unsigned char *s, int64_t n, int *ascii)
{
    int64_t i = 0;
    *ascii = 1;
    while (i < n) {
        int k = ncp_utf8_seq(s + i, n - i);
        if (k == 0) return 0;
        if (k > 1) *ascii = 0;
        i += k;
    }
    return 1;
}

/* The rule; stored names may also start with ';' or '`', which is what
   NFC makes of U+037E and U+1FEF, legal first characters as given. */
static int legal(const unsigned char *s, int64_t n, int stored)
{
    int64_t i = 0;
    unsigned char c;
    if (n <= 0) return 0;
    c = s[0];
    if (c < 0x80 && !(c == '_' || (c >= '0' && c <= '9') ||
                      (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')) &&
        !(stored && (c == ';' || c == '`')))
        return 0;
    while (i < n) {
        int k = ncp_utf8_seq(s + i, n - i);
        if (k == 0) return 0;
        if (k == 1 && (s[i] < 0x20 || s[i] == 0x7F || s[i] == '/')) return 0;
        i += k;
    }
    return s[n - 1] != ' ';
}

int ncp_name_legal(const unsigned char *s, int64_t n)
{
    return legal(s, n, 0);
}

int ncp_name_legal_stored(const unsigned char *s, int64_t n)
{
    return legal(s, n, 1);
}

/* NFC of a valid UTF-8 string into a fresh allocation. */
static int nfc_of(const char *name, char **out)
{
    int err = NC_NOERR;
    utf8proc_uint8_t *dst = NULL;
    utf8proc_ssize_t n = utf8proc_map((const utf8proc_uint8_t *)name, 0, &dst,
                                      UTF8PROC_NULLTERM | UTF8PROC_STABLE |
                                          UTF8PROC_COMPOSE);
    if (n < 0) err = n == UTF8PROC_ERROR_NOMEM ? NC_ENOMEM : NC_EBADNAME;
    *out = err == NC_NOERR ? (char *)dst : NULL;
    return err;
}

/* A name is present and at most NC_MAX_NAME bytes as given; *len is its
 * length. */
static int check_length(const char *name, size_t *len)
{
    if (name == NULL || name[0] == '\0') return NC_EBADNAME;
    *len = strlen(name);
    return *len > NC_MAX_NAME ? NC_EMAXNAME : NC_NOERR;
}

int ncp_name_for_define(const char *name, char **nfc)
{
    int err = NC_NOERR, ascii = 0;
    size_t len;
    *nfc = NULL;
    if ((err = check_length(name, &len)) != NC_NOERR) goto done;
    if (!ncp_name_legal((const unsigned char *)name, (int64_t)len)) {
        err = NC_EBADNAME;
        goto done;
    }
    (void)utf8_valid((const unsigned char *)name, (int64_t)len, &ascii);
    if (ascii) {
        *nfc = malloc(len + 1);
        if (*nfc == NULL) err = NC_ENOMEM;
        else memcpy(*nfc, name, len + 1);
        goto done;
    }
    /* The rule applies to the name as given, as in PnetCDF: its NFC form
       may start with ';' or '`' (see ncp_name_legal_stored). */
    err = nfc_of(name, nfc);
    /* Composition can lengthen a name (a composition exclusion decomposes
       for good), and the file cannot hold more than NC_MAX_NAME bytes. */
    if (err == NC_NOERR && strlen(*nfc) > NC_MAX_NAME) err = NC_EMAXNAME;
done:
    if (err != NC_NOERR) {
        free(*nfc);
        *nfc = NULL;
    }
    return err;
}

int ncp_name_for_lookup(const char *name, char **owned, const char **key)
{
    int err = NC_NOERR, ascii = 0;
    size_t len;
    *owned = NULL;
    *key = name;
    if ((err = check_length(name, &len)) != NC_NOERR) goto done;
    if (!utf8_valid((const unsigned char *)name, (int64_t)len, &ascii))
        err = NC_EBADNAME;
    else if (!ascii && (err = nfc_of(name, owned)) == NC_NOERR)
        *key = *owned;
done:
    return err;
}
