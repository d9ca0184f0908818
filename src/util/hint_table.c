/*
 * hint_table.c -- the hint table (hint_table.def) at work: parse, validate and
 * report ncpario's hints, from MPI_Info and PNETCDF_HINTS.
 *
 * PNETCDF_HINTS entries override the same keys in the user's MPI_Info; all
 * keys, interpreted or not, are passed on to MPI_File_open so MPI-IO hints
 * (cb_nodes, cb_buffer_size, striping_factor, striping_unit, romio_*) reach
 * the MPI-IO layer unchanged.  Every layer then reads its own rows from
 * that one merged info, so a key means the same wherever it is read.
 */
#include "ncp_hints.h"

#include <ctype.h>
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pnetcdf.h"

/* One row of the table; off is the field's offset in ncp_hints, or
 * NO_FIELD for a string row. */
typedef struct row {
    const char *key;
    int type;
    int64_t lo, hi, dflt;
    const char *words; /* "a|b", or NULL */
    unsigned owner;
    int bad;
    size_t off;
} row;

#define NO_FIELD ((size_t)-1)

static const row rows[NCP_HINT_COUNT] = {
#define NCP_HINT(field, key, type, lo, hi, dflt, words, owner, aud, bad, doc) \
    {key, type, lo, hi, dflt, words, owner, bad, offsetof(ncp_hints, field)},
#define NCP_HINT_STR(field, key, owner, aud, dflt, doc)                       \
    {key, NCP_HT_STRING, 0, 0, 0, NULL, owner, NCP_HB_FALLBACK, NO_FIELD},
#include "hint_table.def"
#undef NCP_HINT
#undef NCP_HINT_STR
};

static int64_t *field_of(ncp_hints *h, const row *r)
{
    return (int64_t *)(void *)((char *)h + r->off);
}

const char *ncp_hints_key(ncp_hint_id id) { return rows[id].key; }

void ncp_hints_defaults(ncp_hints *h)
{
    int i;
    memset(h, 0, sizeof(*h));
    for (i = 0; i < NCP_HINT_COUNT; i++)
        if (rows[i].off != NO_FIELD) *field_of(h, &rows[i]) = rows[i].dflt;
}

/* The index of val among words ("a|b|c"), or -1. */
static int word_index(const char *words, const char *val)
{
    size_t n = strlen(val);
    int i = 0;
    while (words) {
        const char *bar = strchr(words, '|');
        size_t len = bar ? (size_t)(bar - words) : strlen(words);
        if (len == n && strncmp(words, val, n) == 0) return i;
        words = bar ? bar + 1 : NULL;
        i++;
    }
    return -1;
}

/* The i-th word into buf; 0 when there is none. */
static int word_at(const char *words, int64_t i, char *buf, size_t size)
{
    while (words && i > 0) {
        words = strchr(words, '|');
        if (words) words++;
        i--;
    }
    if (!words || i < 0) return 0;
    snprintf(buf, size, "%.*s", (int)strcspn(words, "|"), words);
    return 1;
}

/* val as row r reads it into *out; 0 when it is no value of r's. */
static int parse_value(const row *r, const char *val, int64_t *out)
{
    char *end = NULL;
    long long v;
    int w = word_index(r->words, val);
    if (w >= 0) {
        *out = r->type == NCP_HT_ENUM ? w : -w;
        return 1;
    }
    if (r->type == NCP_HT_ENUM) return 0;
    errno = 0;
    v = strtoll(val, &end, 10);
    if (errno || end == val || *end != '\0' || v < r->lo || v > r->hi)
        return 0;
    *out = (int64_t)v;
    return 1;
}

static void complain(const row *r, const char *val)
{
    char w[MPI_MAX_INFO_VAL + 1];
    int i;
    fprintf(stderr, "ncpario: hint %s=%s: want ", r->key, val);
    if (r->type != NCP_HT_ENUM)
        fprintf(stderr, "an integer in %lld..%lld%s", (long long)r->lo,
                (long long)r->hi, r->words ? " or" : "");
    if (r->words)
        fprintf(stderr, "%sone of", r->type == NCP_HT_ENUM ? "" : " ");
    for (i = 0; word_at(r->words, i, w, sizeof w); i++)
        fprintf(stderr, " %s", w);
    fputc('\n', stderr);
}

/*
 * nc_num_aggrs_per_node=N is nc_io_group_per_node=N: each node's ranks
 * in N groups, one aggregator each.  Given with a different grouping it
 * is refused, as two grouping hints at once are.
 */
static int settle_groups(ncp_hints *h, int strict)
{
    int64_t n = h->num_aggrs_per_node;
    if (n > 0 && h->io_group_size == 0 &&
        (h->io_group_per_node == 0 || h->io_group_per_node == n)) {
        h->io_group_per_node = n;
        n = 0;
    }
    if (!strict) return NC_NOERR;
    if (n > 0) {
        fprintf(stderr, "ncpario: hint nc_num_aggrs_per_node=%lld and "
                        "nc_io_group_size or nc_io_group_per_node set "
                        "otherwise: choose one\n", (long long)n);
        return NC_EINVAL;
    }
    if (h->io_group_size != 0 && h->io_group_per_node != 0) {
        fprintf(stderr, "ncpario: hints nc_io_group_size and "
                        "nc_io_group_per_node both set: choose one\n");
        return NC_EINVAL;
    }
    return NC_NOERR;
}

int ncp_hints_read(MPI_Info info, unsigned owners, int strict, ncp_hints *h)
{
    char val[MPI_MAX_INFO_VAL + 1];
    int i, flag, err = NC_NOERR;
    int64_t v;
    for (i = 0; i < NCP_HINT_COUNT && err == NC_NOERR; i++) {
        const row *r = &rows[i];
        if (!(r->owner & owners) || r->off == NO_FIELD) continue;
        if (info == MPI_INFO_NULL) break;
        flag = 0;
        MPI_Info_get(info, r->key, MPI_MAX_INFO_VAL, val, &flag);
        if (!flag) continue;
        if (parse_value(r, val, &v)) *field_of(h, r) = v;
        else if (strict && r->bad == NCP_HB_EINVAL) {
            complain(r, val);
            err = NC_EINVAL;
        }
    }
    if (err == NC_NOERR && (owners & NCP_HO_GROUP))
        err = settle_groups(h, strict);
    return err;
}

int ncp_hints_get_string(MPI_Info info, ncp_hint_id id, char *val)
{
    int flag = 0;
    if (info == MPI_INFO_NULL) return 0;
    MPI_Info_get(info, rows[id].key, MPI_MAX_INFO_VAL, val, &flag);
    return flag;
}

/* Copy every key of user into info. */
static void take_user_info(MPI_Info user, MPI_Info info)
{
    int nkeys = 0, i, flag;
    char key[MPI_MAX_INFO_KEY + 1], val[MPI_MAX_INFO_VAL + 1];
    if (user == MPI_INFO_NULL) return;
    MPI_Info_get_nkeys(user, &nkeys);
    for (i = 0; i < nkeys; i++) {
        MPI_Info_get_nthkey(user, i, key);
        MPI_Info_get(user, key, MPI_MAX_INFO_VAL, val, &flag);
        if (flag) MPI_Info_set(info, key, val);
    }
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
static void take_entry(MPI_Info info, char *entry)
{
    char *eq = strchr(entry, '=');
    size_t klen = eq ? (size_t)(eq - entry) : 0;
    if (!*entry) return; /* ";;" or a trailing ';' */
    if (!eq || klen == 0 || isspace((unsigned char)entry[klen - 1]) ||
        isspace((unsigned char)eq[1]) || eq[1] == '\0') {
        fprintf(stderr, "ncpario: PNETCDF_HINTS entry '%s' ignored "
                        "(expected key=value, no blanks around '=')\n",
                entry);
        return;
    }
    *eq = '\0';
    MPI_Info_set(info, entry, eq + 1);
}

/* PNETCDF_HINTS="key=value;key=value", blanks allowed around entries. */
static int take_env(MPI_Info info)
{
    const char *env = getenv("PNETCDF_HINTS");
    char *copy, *save = NULL, *tok;
    if (!env || !*env) return NC_NOERR;
    copy = strdup(env);
    if (!copy) return NC_ENOMEM;
    for (tok = strtok_r(copy, ";", &save); tok;
         tok = strtok_r(NULL, ";", &save))
        take_entry(info, trim(tok));
    free(copy);
    return NC_NOERR;
}

/* As PnetCDF: PNETCDF_SAFE_MODE set to anything but a value starting with
 * '0' turns safe mode on.  Rank 0's setting is the file's (lifecycle.c). */
static int read_safe_mode(void)
{
    const char *env = getenv("PNETCDF_SAFE_MODE");
    return env && env[0] != '0';
}

/* NCPARIO_PROFILE=1: each rank's profile is summed and printed by rank 0
 * at close (profile.c). */
static int read_profile(void)
{
    const char *env = getenv("NCPARIO_PROFILE");
    return env && strcmp(env, "1") == 0;
}

int ncp_hints_parse(MPI_Info user, ncp_hints *h, MPI_Info *mpi_info)
{
    int err;
    ncp_hints_defaults(h);
    h->safe_mode = read_safe_mode();
    h->profile = read_profile();
    MPI_Info_create(mpi_info);
    take_user_info(user, *mpi_info);
    err = take_env(*mpi_info);
    if (err == NC_NOERR)
        err = ncp_hints_read(*mpi_info, NCP_HO_DATASET, 0, h);
    if (err != NC_NOERR) MPI_Info_free(mpi_info);
    return err;
}

int64_t ncp_hints_behind_size(const ncp_hints *h)
{
    if (h->write_behind_size > 0) return h->write_behind_size;
    if (h->burst_buf_flush_buffer_size > 0)
        return h->burst_buf_flush_buffer_size;
    return NCP_WRITE_BEHIND_SIZE;
}

void ncp_hints_settle(ncp_hints *h, MPI_Info mpi_info, MPI_Comm comm)
{
    const unsigned io = NCP_HO_GROUP | NCP_HO_POSIX | NCP_HO_IO;
    ncp_hints t = *h;
    int i;
    (void)ncp_hints_read(mpi_info, io, 0, &t);
    MPI_Bcast(&t, (int)sizeof t, MPI_BYTE, 0, comm);
    for (i = 0; i < NCP_HINT_COUNT; i++)
        if ((rows[i].owner & io) && rows[i].off != NO_FIELD)
            *field_of(h, &rows[i]) = *field_of(&t, &rows[i]);
}

static int64_t resolved_or_asked(int64_t resolved, int64_t asked)
{
    return resolved > 0 ? resolved : asked > 0 ? asked : 0;
}

int ncp_hints_report(const ncp_hints *h, int64_t header_align,
                     int64_t var_align, int64_t record_align, MPI_Info info)
{
    char buf[MPI_MAX_INFO_VAL + 1];
    ncp_hints now = *h;
    int i;
    /* Before the first enddef resolves the layout (0), the value the user
     * asked for is what will be used, and PnetCDF reports it. */
    now.header_align = resolved_or_asked(header_align, h->header_align);
    now.var_align = resolved_or_asked(var_align, h->var_align);
    now.record_align = resolved_or_asked(record_align, h->record_align);
    /* write-behind's budget, whichever key set it (or neither) */
    now.write_behind_size = ncp_hints_behind_size(h);
    now.burst_buf_flush_buffer_size = now.write_behind_size;
    for (i = 0; i < NCP_HINT_COUNT; i++) {
        const row *r = &rows[i];
        int64_t v;
        if (r->off == NO_FIELD) continue;
        v = *field_of(&now, r);
        if (!word_at(r->words, r->type == NCP_HT_ENUM ? v : -v, buf,
                     sizeof buf))
            snprintf(buf, sizeof buf, "%lld", (long long)v);
        MPI_Info_set(info, r->key, buf);
    }
    return NC_NOERR;
}
