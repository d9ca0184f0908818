/*
 * plan.c -- `ncpario plan`: how a collective write on the posix driver
 * will be carried out, worked out by the library's own aggregator code
 * (src/io/agg/sim.c over plan.c) for any number of ranks, with no MPI
 * traffic and no data: the aggregators, their windows and rounds, the
 * messages, the pieces and the write calls.  A run of the same write
 * reports the same numbers in ncpario_inq_profile.
 */
#include <inttypes.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <pnetcdf.h>

#include "ncpario_tool.h"
#include "plan_pattern.h"
#include "format/ncp_cdl.h"
#include "io/agg/ncp_agg_sim.h"

typedef struct plan_opts {
    int64_t nprocs, per_node, records, max_pieces, show;
    const char *file, *vars, *pattern, *grid, *format, *svg;
    const char *decomp[NT_PLAN_MAXDECOMP]; /* FILE[@var,...] */
    int ndecomp;
    char dims[4096], defs[4096]; /* --var definitions as CDL */
    MPI_Info info;    /* --hint */
} plan_opts;

static void plan_usage(FILE *out)
{
    fprintf(out,
        "usage: ncpario plan --ranks N [--ranks-per-node R]\n"
        "         (--file FILE.nc|FILE.cdl [--vars a,b] | --var NAME:TYPE:D1xD2..)\n"
        "         [--pattern P] [--grid PxQ..] [--decomp FILE[@var,..]]...\n"
        "         [--records R]\n"
        "         [--hint key=value]... [--format text|json] [--plot FILE.svg]\n"
        "         [--show N] [--max-pieces N]\n"
        "How a collective write of the variables by N ranks, each its part\n"
        "of the pattern, is carried out on the posix driver: aggregators,\n"
        "windows, rounds, messages, pieces and write calls, worked out by\n"
        "the library's own planner.  Patterns per dimension: *, block,\n"
        "cyclic, bc<B>; or irregular:<C>.  See ncpario-plan(1).\n");
}

/* "NAME:TYPE:D1xD2.." as CDL dimensions and a variable, appended. */
static int var_def(plan_opts *o, const char *spec, int nth)
{
    char name[NC_MAX_NAME + 1], type[32], dims[512], vl[1024];
    char *p;
    int d = 0;
    if (sscanf(spec, "%256[^:]:%31[^:]:%511s", name, type, dims) != 3)
        return -1;
    snprintf(vl, sizeof vl, "%s %s(", type, name);
    for (p = strtok(dims, "x"); p; p = strtok(NULL, "x"), d++) {
        long long n = strcmp(p, "UNLIMITED") == 0 ? 0 : strtoll(p, NULL, 10);
        if (n < 0 || (n == 0 && strcmp(p, "UNLIMITED") != 0)) return -1;
        nt_append(o->dims, sizeof o->dims, "d%d_%d = %s ; ", nth, d,
                  n ? p : "UNLIMITED");
        nt_append(vl, sizeof vl, "%sd%d_%d", d ? ", " : "", nth, d);
    }
    nt_append(o->defs, sizeof o->defs, "%s) ; ", vl);
    return 0;
}

static int read_text(const char *path, char **text, size_t *len)
{
    FILE *f = fopen(path, "rb");
    long n;
    if (!f) return -1;
    fseek(f, 0, SEEK_END);
    n = ftell(f);
    fseek(f, 0, SEEK_SET);
    *text = malloc((size_t)n + 1);
    *len = *text ? fread(*text, 1, (size_t)n, f) : 0;
    fclose(f);
    if (*text) (*text)[*len] = '\0';
    return *text ? 0 : -1;
}

/* The layout from CDL text, as enddef lays a new file out. */
static int cdl_layout(const char *text, size_t len, ncp_header *h)
{
    ncp_layout_params lp = {0, 512, 4, 0, 4};
    int err = ncp_cdl_parse(text, len, h);
    return err == NC_NOERR ? ncp_layout_compute(h, NULL, &lp) : err;
}

static int load_header(const plan_opts *o, ncp_header *h)
{
    size_t n = strlen(o->file ? o->file : "");
    int64_t fsize;
    ncp_hdr_defect d;
    char *text = NULL, *cdl;
    int err;
    if (!o->file) {
        size_t cap = strlen(o->dims) + strlen(o->defs) + 64;
        if (!(cdl = malloc(cap))) return NC_ENOMEM;
        snprintf(cdl, cap, "netcdf plan { dimensions: %s variables: %s}",
                 o->dims, o->defs);
        err = cdl_layout(cdl, strlen(cdl), h);
        free(cdl);
        return err;
    }
    if (n > 4 && strcmp(o->file + n - 4, ".cdl") == 0) {
        if (read_text(o->file, &text, &n) != 0) return NC_ENOENT;
        err = cdl_layout(text, n, h);
        free(text);
        return err;
    }
    return nt_read_header(o->file, h, &fsize, &d);
}

/* The variables written: those named, else every one in the header. */
static int pick_vars(const plan_opts *o, ncp_header *h, plan_pattern *pp)
{
    char item[NC_MAX_NAME + 1];
    const char *s = o->vars;
    int i;
    pp->nvars = 0;
    if (!s && h->nvars > NT_PLAN_MAXVARS) {
        nt_err("plan", "more than %d variables: name some (--vars)",
               NT_PLAN_MAXVARS);
        return -1;
    }
    for (i = 0; !s && i < h->nvars; i++) pp->vars[pp->nvars++] = i;
    while (s && nt_next_item(&s, item, sizeof item)) {
        if ((i = ncp_hdr_find_var(h, item)) < 0) {
            nt_err("plan", "no variable '%s'", item);
            return -1;
        }
        if (pp->nvars == NT_PLAN_MAXVARS) {
            nt_err("plan", "more than %d variables", NT_PLAN_MAXVARS);
            return -1;
        }
        pp->vars[pp->nvars++] = i;
    }
    pp->ndims = pp->nvars ? h->vars[pp->vars[0]].ndims : 0;
    for (i = 1; i < pp->nvars; i++)
        if (h->vars[pp->vars[i]].ndims != pp->ndims && pp->kind == PAT_GRID) {
            nt_err("plan", "a grid pattern needs variables of one rank");
            return -1;
        }
    if (pp->nvars == 0) nt_err("plan", "no variable to write");
    return pp->nvars ? 0 : -1;
}

/* ------------------------------------------------------------ summary */

typedef struct plan_stats {
    int64_t msgs, pieces, runs, writes, max_sent, max_in;
    int64_t max_bytes, sum_bytes, busy_aggr;
} plan_stats;

static void stats_of(const ncp_sim *s, int64_t nprocs, plan_stats *t)
{
    int64_t a, r;
    memset(t, 0, sizeof(*t));
    for (a = 0; a < s->naggr; a++) {
        const ncp_sim_aggr *g = &s->aggr[a];
        t->msgs += g->msgs_in;
        t->pieces += g->pieces;
        t->runs += g->runs;
        t->writes += g->writes;
        t->sum_bytes += g->bytes;
        t->busy_aggr += g->bytes > 0;
        if (g->msgs_in > t->max_in) t->max_in = g->msgs_in;
        if (g->bytes > t->max_bytes) t->max_bytes = g->bytes;
    }
    for (r = 0; s->sent && r < nprocs; r++)
        if (s->sent[r] > t->max_sent) t->max_sent = s->sent[r];
}

static const char *path_name(int path)
{
    return path == NCP_SIM_OWN      ? "own"
           : path == NCP_SIM_DIRECT ? "direct"
                                    : "rounds";
}

/* Max over the mean of the aggregators' bytes: 1 is even. */
static double imbalance(const ncp_sim *s, const plan_stats *t)
{
    return t->sum_bytes > 0 ? (double)t->max_bytes * (double)s->naggr /
                                  (double)t->sum_bytes
                            : 0.0;
}

static void print_text(const plan_opts *o, const ncp_sim *s)
{
    plan_stats t;
    int64_t a, nshow = o->show < s->naggr ? o->show : s->naggr;
    stats_of(s, o->nprocs, &t);
    printf("ranks: %" PRId64 ", %" PRId64 " a node; extents %" PRId64
           ", bytes %" PRId64 "\n", o->nprocs, o->per_node, s->extents,
           s->bytes);
    if (s->path == NCP_SIM_OWN) {
        printf("path: each rank writes its own extents (as many "
               "aggregators as ranks)\n");
        return;
    }
    if (s->path == NCP_SIM_DIRECT) {
        printf("path: each rank writes its own extents (every rank's "
               "average extent is large: no aggregation)\n");
        return;
    }
    printf("path: aggregated rounds by message%s\n",
           s->shm_possible ? " (one node: nc_posix_shm may stage them in "
                             "shared memory instead)" : "");
    printf("aggregators: %" PRId64 " (%" PRId64 " with bytes); round cap %"
           PRId64 "\n", s->naggr, t.busy_aggr, (int64_t)s->round_cap);
    printf("domains: from %" PRId64 ", %" PRId64 " bytes each; windows of %"
           PRId64 " bytes\n", (int64_t)s->domains_start,
           (int64_t)s->domain_size, (int64_t)s->window_size);
    printf("rounds: %" PRId64 " (%" PRId64 " busy windows), %" PRId64
           " count exchanges\n", s->nrounds, s->busy_windows,
           s->count_exchanges);
    printf("messages: %" PRId64 "; a rank sends at most %" PRId64
           ", an aggregator receives at most %" PRId64 "\n", t.msgs,
           t.max_sent, t.max_in);
    printf("extents: %" PRId64 " pieces in the windows, merged into %"
           PRId64 " runs, %" PRId64 " write calls\n", t.pieces, t.runs,
           t.writes);
    printf("aggregator bytes: max %" PRId64 ", mean %.0f, imbalance %.3f\n",
           t.max_bytes, s->naggr ? (double)t.sum_bytes / (double)s->naggr : 0.0,
           imbalance(s, &t));
    printf("planner: %.6f s for all ranks, %" PRId64 " bytes of plan a "
           "rank; worked out in %.3f s\n", s->plan_seconds, s->plan_bytes,
           s->seconds);
    if (nshow > 0)
        printf("%8s %10s %14s %14s %7s %8s %9s %8s %8s %12s\n", "aggr",
               "rank", "domain_lo", "domain_hi", "rounds", "msgs_in",
               "pieces", "runs", "writes", "bytes");
    for (a = 0; a < nshow; a++) {
        const ncp_sim_aggr *g = &s->aggr[a];
        printf("%8" PRId64 " %10" PRId64 " %14" PRId64 " %14" PRId64
               " %7" PRId64 " %8" PRId64 " %9" PRId64 " %8" PRId64
               " %8" PRId64 " %12" PRId64 "\n", a, g->rank, (int64_t)g->lo,
               (int64_t)g->hi, g->rounds, g->msgs_in, g->pieces, g->runs,
               g->writes, g->bytes);
    }
}

/* Aggregator i's int64_t field at byte offset off of ncp_sim_aggr. */
static int64_t aggr_field(const ncp_sim *s, int64_t i, size_t off)
{
    return *(const int64_t *)((const char *)&s->aggr[i] + off);
}

/* One int64_t column of the first n aggregators, at byte offset off of
 * ncp_sim_aggr. */
static void json_column(const char *name, const ncp_sim *s, size_t off,
                        int64_t n)
{
    int64_t i;
    printf("  \"%s\": [", name);
    for (i = 0; i < n; i++)
        printf("%s%" PRId64, i ? ", " : "",
               aggr_field(s, i, off));
    printf("],\n");
}

/* The aggregators' columns, and per rank the messages sent (up to
 * --show ranks and aggregators: JSON for a million is of no use). */
static void print_json(const plan_opts *o, const ncp_sim *s)
{
    plan_stats t;
    int64_t nshow = o->show < s->naggr ? o->show : s->naggr;
    stats_of(s, o->nprocs, &t);
    printf("{\n  \"ranks\": %" PRId64 ",\n  \"ranks_per_node\": %" PRId64
           ",\n  \"path\": \"%s\",\n  \"shm_possible\": %d,\n"
           "  \"extents\": %" PRId64 ",\n  \"bytes\": %" PRId64 ",\n"
           "  \"aggregators\": %" PRId64 ",\n"
           "  \"aggregators_with_bytes\": %" PRId64 ",\n"
           "  \"round_cap\": %" PRId64 ",\n"
           "  \"domain_size\": %" PRId64 ",\n  \"window_size\": %" PRId64
           ",\n  \"rounds\": %" PRId64 ",\n  \"busy_windows\": %" PRId64
           ",\n  \"count_exchanges\": %" PRId64 ",\n  \"messages\": %" PRId64
           ",\n  \"pieces\": %" PRId64 ",\n  \"runs\": %" PRId64 ",\n"
           "  \"write_calls\": %" PRId64 ",\n  \"max_sent\": %" PRId64 ",\n"
           "  \"max_received\": %" PRId64 ",\n  \"max_aggr_bytes\": %" PRId64
           ",\n  \"imbalance\": %.6f,\n  \"plan_seconds\": %.6f,\n"
           "  \"plan_bytes\": %" PRId64 ",\n  \"seconds\": %.6f,\n",
           o->nprocs, o->per_node, path_name(s->path), s->shm_possible,
           s->extents, s->bytes, s->naggr, t.busy_aggr, (int64_t)s->round_cap,
           (int64_t)s->domain_size, (int64_t)s->window_size, s->nrounds,
           s->busy_windows, s->count_exchanges, t.msgs, t.pieces, t.runs,
           t.writes, t.max_sent, t.max_in, t.max_bytes, imbalance(s, &t),
           s->plan_seconds, s->plan_bytes, s->seconds);
    json_column("aggr_rank", s, offsetof(ncp_sim_aggr, rank), nshow);
    json_column("aggr_rounds", s, offsetof(ncp_sim_aggr, rounds), nshow);
    json_column("aggr_msgs_in", s, offsetof(ncp_sim_aggr, msgs_in), nshow);
    json_column("aggr_pieces", s, offsetof(ncp_sim_aggr, pieces), nshow);
    json_column("aggr_runs", s, offsetof(ncp_sim_aggr, runs), nshow);
    json_column("aggr_writes", s, offsetof(ncp_sim_aggr, writes), nshow);
    json_column("aggr_bytes", s, offsetof(ncp_sim_aggr, bytes), nshow);
    printf("  \"sent\": [");
    {
        int64_t r, n = o->show < o->nprocs ? o->show : o->nprocs;
        for (r = 0; s->sent && r < n; r++)
            printf("%s%" PRId64, r ? ", " : "", s->sent[r]);
    }
    printf("]\n}\n");
}

/* ---------------------------------------------------------------- svg */

/* One panel of bars, value v[i] of n aggregators, at height y. */
static void svg_panel(FILE *f, const char *title, const ncp_sim *s,
                      size_t off, int64_t n, int y)
{
    int64_t i, most = 1;
    double w = 760.0 / (double)(n ? n : 1);
    for (i = 0; i < n; i++) {
        int64_t v = aggr_field(s, i, off);
        if (v > most) most = v;
    }
    fprintf(f, "<text x='20' y='%d' font-size='14'>%s (max %" PRId64
            ")</text>\n", y - 185, title, most);
    for (i = 0; i < n; i++) {
        int64_t v = aggr_field(s, i, off);
        double h = 160.0 * (double)v / (double)most;
        fprintf(f, "<rect x='%.2f' y='%.2f' width='%.2f' height='%.2f' "
                "fill='#4477aa'/>\n", 20 + w * (double)i, y - h,
                w > 1.5 ? w - 0.5 : w, h);
    }
    fprintf(f, "<line x1='20' y1='%d' x2='780' y2='%d' stroke='black'/>\n",
            y, y);
}

/* Per aggregator bytes and messages received, as two bar charts. */
static int write_svg(const char *path, const ncp_sim *s, int64_t n)
{
    FILE *f = fopen(path, "w");
    if (!f) return -1;
    fprintf(f, "<svg xmlns='http://www.w3.org/2000/svg' width='800' "
            "height='460' font-family='sans-serif'>\n"
            "<rect width='800' height='460' fill='white'/>\n");
    svg_panel(f, "bytes per aggregator", s, offsetof(ncp_sim_aggr, bytes), n,
              210);
    svg_panel(f, "messages received per aggregator", s,
              offsetof(ncp_sim_aggr, msgs_in), n, 430);
    fprintf(f, "<text x='20' y='452' font-size='11'>aggregators 0..%" PRId64
            " (ncpario plan)</text>\n</svg>\n", n - 1);
    return fclose(f) == 0 ? 0 : -1;
}

/* ------------------------------------------------------------- options */

/* The options whose value is a string; 1 when argv[*i] was one (a
 * missing value leaves its field NULL, which the caller refuses). */
static int string_opt(int argc, char **argv, int *i, plan_opts *o, int *bad)
{
    struct { const char *l, *s; const char **field; } t[] = {
        {"--file", "-f", &o->file},         {"--vars", NULL, &o->vars},
        {"--pattern", "-p", &o->pattern},   {"--grid", "-g", &o->grid},
        {"--format", NULL, &o->format},     {"--plot", NULL, &o->svg}};
    size_t k;
    for (k = 0; k < sizeof t / sizeof t[0]; k++)
        if (nt_opt(argc, argv, i, t[k].l, t[k].s, t[k].field)) {
            *bad = *t[k].field == NULL;
            return 1;
        }
    return 0;
}

/* A number option: 1 when argv[*i] was it, *bad when its value is not
 * at least lo. */
static int number_opt(int argc, char **argv, int *i, const char *l,
                      const char *sh, int64_t lo, int64_t *field, int *bad)
{
    const char *v;
    char *end;
    if (!nt_opt(argc, argv, i, l, sh, &v)) return 0;
    *field = v ? strtoll(v, &end, 10) : lo - 1;
    *bad = !v || *end != '\0' || *field < lo;
    return 1;
}

static int hint_opt(plan_opts *o, const char *v)
{
    char key[256];
    const char *eq = v ? strchr(v, '=') : NULL;
    if (!eq || eq == v || (size_t)(eq - v) >= sizeof key) return -1;
    snprintf(key, sizeof key, "%.*s", (int)(eq - v), v);
    MPI_Info_set(o->info, key, eq + 1);
    return 0;
}

/* 0 ok, 1 --help, -1 a usage error. */
static int parse_opts(int argc, char **argv, plan_opts *o)
{
    const char *v;
    int i, nvar = 0, bad = 0;
    o->show = 16;
    o->records = -1;
    o->max_pieces = (int64_t)1 << 24;
    MPI_Info_create(&o->info);
    for (i = 1; i < argc && !bad; i++) {
        if (nt_is_help(argv[i])) return 1;
        if (number_opt(argc, argv, &i, "--ranks", "-n", 1, &o->nprocs, &bad) ||
            number_opt(argc, argv, &i, "--ranks-per-node", NULL, 1,
                       &o->per_node, &bad) ||
            number_opt(argc, argv, &i, "--records", NULL, 0, &o->records,
                       &bad) ||
            number_opt(argc, argv, &i, "--show", NULL, 0, &o->show, &bad) ||
            number_opt(argc, argv, &i, "--max-pieces", NULL, 1,
                       &o->max_pieces, &bad) ||
            string_opt(argc, argv, &i, o, &bad))
            continue;
        if (nt_opt(argc, argv, &i, "--var", NULL, &v))
            bad = !v || var_def(o, v, nvar++) != 0;
        else if (nt_opt(argc, argv, &i, "--hint", NULL, &v))
            bad = hint_opt(o, v) != 0;
        else if (nt_opt(argc, argv, &i, "--decomp", NULL, &v))
            bad = !v || o->ndecomp == NT_PLAN_MAXDECOMP ||
                  !(o->decomp[o->ndecomp++] = v);
        else
            bad = 1;
    }
    if (o->per_node == 0) o->per_node = o->nprocs;
    if (!o->pattern) o->pattern = "block";
    if (!o->format) o->format = "text";
    return !bad && o->nprocs > 0 && (o->file != NULL) != (nvar > 0) &&
                   (strcmp(o->format, "text") == 0 ||
                    strcmp(o->format, "json") == 0)
               ? 0
               : -1;
}

/* ---------------------------------------------------------------- run */

/* Decomposition k from "FILE[@var,...]": read, and given to the variables
 * named (or, without names, to every one still without).  -1 after a
 * message. */
static int decomp_set(const plan_opts *o, plan_pattern *pp, int k)
{
    char path[4096], err[256], item[NC_MAX_NAME + 1];
    const char *at = strchr(o->decomp[k], '@'), *s;
    int i, named = 0;
    snprintf(path, sizeof path, "%.*s",
             (int)(at ? at - o->decomp[k] : (long)strlen(o->decomp[k])),
             o->decomp[k]);
    if (plan_decomp_read(&pp->decomp[k], path, err, sizeof err) != 0) {
        nt_err("plan", "%s", err);
        return -1;
    }
    pp->ndecomp = k + 1;
    if (pp->decomp[k].nranks != o->nprocs) {
        nt_err("plan", "%s: for %lld ranks, not %lld", path,
               (long long)pp->decomp[k].nranks, (long long)o->nprocs);
        return -1;
    }
    for (s = at ? at + 1 : NULL; s && nt_next_item(&s, item, sizeof item);) {
        for (i = 0; i < pp->nvars; i++)
            if (strcmp(pp->h->vars[pp->vars[i]].name, item) == 0) break;
        if (i == pp->nvars) {
            nt_err("plan", "%s: '%s' is not a variable written", path, item);
            return -1;
        }
        pp->var_decomp[i] = k, named++;
    }
    for (i = 0; !at && i < pp->nvars; i++)
        if (pp->var_decomp[i] < 0) pp->var_decomp[i] = k;
    return 0;
}

static int decomps_set(const plan_opts *o, plan_pattern *pp)
{
    int i, k;
    for (i = 0; i < pp->nvars; i++) pp->var_decomp[i] = -1;
    for (k = 0; k < o->ndecomp; k++) /* named ones first, then defaults */
        if (strchr(o->decomp[k], '@') && decomp_set(o, pp, k) != 0) return -1;
    for (k = 0; k < o->ndecomp; k++)
        if (!strchr(o->decomp[k], '@') && decomp_set(o, pp, k) != 0)
            return -1;
    for (i = 0; i < pp->nvars; i++)
        if (pp->var_decomp[i] < 0) {
            nt_err("plan", "variable '%s' has no --decomp",
                   pp->h->vars[pp->vars[i]].name);
            return -1;
        }
    return 0;
}

/* The pattern over the header's variables; -1 after a message. */
static int pattern_set(const plan_opts *o, ncp_header *h, plan_pattern *pp)
{
    char err[256];
    memset(pp, 0, sizeof(*pp));
    pp->h = h;
    pp->nprocs = o->nprocs;
    pp->records = o->records >= 0 ? o->records
                  : h->numrecs > 0 ? h->numrecs : 1;
    pp->kind = o->ndecomp ? PAT_DECOMP
               : strncmp(o->pattern, "irregular:", 10) == 0 ? PAT_IRREGULAR
                                                             : PAT_GRID;
    if (pick_vars(o, h, pp) != 0) return -1;
    if (pp->ndims > NT_PLAN_MAXDIMS) {
        nt_err("plan", "more than %d dimensions", NT_PLAN_MAXDIMS);
        return -1;
    }
    if (o->ndecomp) return decomps_set(o, pp);
    if (plan_pattern_parse(pp, o->pattern, err, sizeof err) != 0 ||
        plan_grid_parse(pp, o->grid, err, sizeof err) != 0) {
        nt_err("plan", "%s", err);
        return -1;
    }
    return 0;
}

static int plan_run(plan_opts *o)
{
    ncp_header h;
    plan_pattern pp;
    ncp_sim_conf c;
    ncp_sim s;
    int err, rc = NT_OK;
    memset(&c, 0, sizeof(c));
    memset(&s, 0, sizeof(s));
    ncp_header_init(&h, NCP_CDF5);
    if ((err = load_header(o, &h)) != NC_NOERR) {
        nt_err("plan", "%s: %s", o->file ? o->file : "--var",
               ncmpi_strerror(err));
        ncp_header_free(&h);
        return o->file ? NT_FAIL : NT_USAGE; /* --var: a bad definition */
    }
    if (pattern_set(o, &h, &pp) != 0 ||
        ncp_agg_conf_read(MPI_COMM_SELF, o->info, &c.agg) != NC_NOERR) {
        if (c.agg.per_node < 0) nt_err("plan", "a bad --hint value");
        rc = NT_USAGE;
    }
    c.nprocs = o->nprocs;
    c.ranks_per_node = o->per_node;
    c.agg.writable = 1;
    c.max_pieces = o->max_pieces;
    if (rc == NT_OK && (err = ncp_sim_run(&c, plan_rank_extents, &pp, &s)) !=
                           NC_NOERR) {
        nt_err("plan", "%s", ncmpi_strerror(err));
        rc = NT_FAIL;
    }
    if (rc == NT_OK) {
        if (strcmp(o->format, "json") == 0) print_json(o, &s);
        else print_text(o, &s);
        if (o->svg && write_svg(o->svg, &s, s.naggr) != 0) {
            nt_err("plan", "%s: cannot write", o->svg);
            rc = NT_FAIL;
        }
    }
    ncp_sim_free(&s);
    plan_pattern_free(&pp);
    ncp_header_free(&h);
    return rc;
}

int nt_plan(int argc, char **argv)
{
    plan_opts o;
    int rc;
    memset(&o, 0, sizeof(o));
    rc = parse_opts(argc, argv, &o);
    if (rc != 0) {
        if (nt_rank() == 0) plan_usage(rc > 0 ? stdout : stderr);
        MPI_Info_free(&o.info);
        return rc > 0 ? NT_OK : NT_USAGE;
    }
    rc = nt_rank() == 0 ? plan_run(&o) : NT_OK;
    MPI_Info_free(&o.info);
    return nt_agree(rc);
}
