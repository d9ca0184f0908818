/*
 * hints.c -- parse ncpario's nc_* hints from MPI_Info and PNETCDF_HINTS.
 *
 * PNETCDF_HINTS entries override the same keys in the user's MPI_Info; all
 * keys, interpreted or not, are passed on to MPI_File_open so MPI-IO hints
 * (cb_nodes, cb_buffer_size, striping_factor, striping_unit, romio_*) reach
 * the MPI-IO layer unchanged.
 */
#include "ncp_hints.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pnetcdf.h"

/* A decimal integer in 1..max into *out; 0 (and *out untouched) when s is
 * anything else. */
static int parse_positive(const char *s, int64_t max, int64_t *out)
{
    char *end = NULL;
    long long v;
    errno = 0;
    v = strtoll(s, &end, 10);
    if (errno || end == s || *end != '\0' || v <= 0 || v > max) return 0;
    *out = (int64_t)v;
    return 1;
}

/*
 * A positive decimal size.  Like PnetCDF, a malformed or non-positive value
 * is ignored (the hint stays unset) rather than failing the open.
 */
static int parse_size(const char *s, int64_t *out)
{
    (void)parse_positive(s, INT64_MAX, out);
    return NC_NOERR;
}

int ncp_hints_get_int(MPI_Info info, const char *key, int64_t max,
                      int64_t *out)
{
    char val[MPI_MAX_INFO_VAL + 1];
    int flag = 0;
    if (info == MPI_INFO_NULL) return NC_NOERR;
    MPI_Info_get(info, key, MPI_MAX_INFO_VAL, val, &flag);
    if (!flag || parse_positive(val, max, out)) return NC_NOERR;
    fprintf(stderr, "ncpario: hint %s=%s: want an integer in 1..%lld\n", key,
            val, (long long)max);
    return NC_EINVAL;
}

/* The index of val in names[] (NULL-terminated), or -1. */
static int choice_index(const char *val, const char *const *names)
{
    int i;
    for (i = 0; names[i]; i++)
        if (strcmp(val, names[i]) == 0) return i;
    return -1;
}

int ncp_hints_get_choice(MPI_Info info, const char *key,
                         const char *const *names, int *out)
{
    char val[MPI_MAX_INFO_VAL + 1];
    int flag = 0, i;
    if (info == MPI_INFO_NULL) return NC_NOERR;
    MPI_Info_get(info, key, MPI_MAX_INFO_VAL, val, &flag);
    if (!flag) return NC_NOERR;
    if ((i = choice_index(val, names)) >= 0) {
        *out = i;
        return NC_NOERR;
    }
    fprintf(stderr, "ncpario: hint %s=%s: want one of", key, val);
    for (i = 0; names[i]; i++) fprintf(stderr, " %s", names[i]);
    fputc('\n', stderr);
    return NC_EINVAL;
}

static int apply_key(ncp_hints *h, const char *key, const char *val)
{
    if (strcmp(key, "nc_ibuf_size") == 0)
        return parse_size(val, &h->ibuf_size);
    if (strcmp(key, "nc_header_align_size") == 0)
        return parse_size(val, &h->header_align);
    if (strcmp(key, "nc_var_align_size") == 0)
        return parse_size(val, &h->var_align);
    if (strcmp(key, "nc_record_align_size") == 0)
        return parse_size(val, &h->record_align);
    if (strcmp(key, "nc_in_place_swap") == 0) {
        /* indexed by NCP_SWAP_*; an unknown value keeps the default, as
         * for the sizes */
        static const char *const swap_names[] = {"auto", "enable", "disable",
                                                 NULL};
        _Static_assert(NCP_SWAP_AUTO == 0 && NCP_SWAP_ENABLE == 1 &&
                           NCP_SWAP_DISABLE == 2,
                       "swap_names follows NCP_SWAP_*");
        int i = choice_index(val, swap_names);
        if (i >= 0) h->in_place_swap = i;
    }
    return NC_NOERR;
}

/* Copy every key of user into info and interpret the nc_* ones. */
static int take_user_info(MPI_Info user, ncp_hints *h, MPI_Info info)
{
    int err = NC_NOERR, nkeys = 0, i, flag;
    char key[MPI_MAX_INFO_KEY + 1], val[MPI_MAX_INFO_VAL + 1];
    if (user == MPI_INFO_NULL) return NC_NOERR;
    MPI_Info_get_nkeys(user, &nkeys);
    for (i = 0; i < nkeys && err == NC_NOERR; i++) {
        MPI_Info_get_nthkey(user, i, key);
        MPI_Info_get(user, key, MPI_MAX_INFO_VAL, val, &flag);
        if (!flag) continue;
        MPI_Info_set(info, key, val);
        err = apply_key(h, key, val);
    }
    return err;
}

/* Strip blanks at both ends of s, in place. */
static char *trim(char *s)
{
    char *end;
    while (isspace((unsigned char)*s)) s++;
    end = s + strlen(s);
    while (end > s && isspace((unsigned char)end[-1])) *--end = '\0';
    return s;
}

/*
 * One PNETCDF_HINTS entry, already trimmed: "key=value".  As in PnetCDF, an
 * entry with no '=', an empty key, or blanks next to the '=' is skipped
 * with a warning, so a typo never silently changes another hint.
 */
static int take_entry(ncp_hints *h, MPI_Info info, char *entry)
{
    char *eq = strchr(entry, '=');
    size_t klen = eq ? (size_t)(eq - entry) : 0;
    if (!*entry) return NC_NOERR; /* ";;" or a trailing ';' */
    if (!eq || klen == 0 || isspace((unsigned char)entry[klen - 1]) ||
        isspace((unsigned char)eq[1]) || eq[1] == '\0') {
        fprintf(stderr, "ncpario: PNETCDF_HINTS entry '%s' ignored "
                        "(expected key=value, no blanks around '=')\n",
                entry);
        return NC_NOERR;
    }
    *eq = '\0';
    MPI_Info_set(info, entry, eq + 1);
    return apply_key(h, entry, eq + 1);
}

/* PNETCDF_HINTS="key=value;key=value", blanks allowed around entries. */
static int take_env(ncp_hints *h, MPI_Info info)
{
    int err = NC_NOERR;
    const char *env = getenv("PNETCDF_HINTS");
    char *copy, *save = NULL, *tok;
    if (!env || !*env) return NC_NOERR;
    copy = strdup(env);
    if (!copy) return NC_ENOMEM;
    for (tok = strtok_r(copy, ";", &save); tok && err == NC_NOERR;
         tok = strtok_r(NULL, ";", &save))
        err = take_entry(h, info, trim(tok));
    free(copy);
    return err;
}

/* As PnetCDF: PNETCDF_SAFE_MODE set to anything but a value starting with
 * '0' turns safe mode on.  Rank 0's setting is the file's (lifecycle.c). */
static int read_safe_mode(void)
{
    const char *env = getenv("PNETCDF_SAFE_MODE");
    return env && env[0] != '0';
}

int ncp_hints_parse(MPI_Info user, ncp_hints *h, MPI_Info *mpi_info)
{
    int err;
    h->header_align = -1;
    h->var_align = -1;
    h->record_align = -1;
    h->in_place_swap = NCP_SWAP_AUTO;
    h->ibuf_size = NCP_IBUF_SIZE_DEFAULT;
    h->safe_mode = read_safe_mode();
    MPI_Info_create(mpi_info);
    err = take_user_info(user, h, *mpi_info);
    if (err == NC_NOERR) err = take_env(h, *mpi_info);
    if (err != NC_NOERR) MPI_Info_free(mpi_info);
    return err;
}

static void set_num(MPI_Info info, const char *key, int64_t v)
{
    char buf[32];
    snprintf(buf, sizeof buf, "%lld", (long long)v);
    MPI_Info_set(info, key, buf);
}

int ncp_hints_report(const ncp_hints *h, int64_t header_align,
                     int64_t var_align, int64_t record_align, MPI_Info info)
{
    static const char *const swap_names[] = {"auto", "enable", "disable"};
    set_num(info, "nc_header_align_size", header_align);
    set_num(info, "nc_var_align_size", var_align);
    set_num(info, "nc_record_align_size", record_align);
    set_num(info, "nc_header_read_chunk_size", NCP_HEADER_READ_CHUNK);
    MPI_Info_set(info, "nc_in_place_swap", swap_names[h->in_place_swap]);
    set_num(info, "nc_ibuf_size", h->ibuf_size);
    /* ncpario writes one file, never subfiles */
    MPI_Info_set(info, "pnetcdf_subfiling", "disable");
    set_num(info, "nc_num_subfiles", 0);
    return NC_NOERR;
}
