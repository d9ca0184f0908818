/*
 * bench_common.c -- helpers shared by the benchmark programs; see
 * bench_common.h.
 */
#define _POSIX_C_SOURCE 200809L

#include "bench_common.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int bench_parse_int64(const char *s, int64_t lo, int64_t hi, int64_t *out)
{
    char *end = NULL;
    long long v;
    int ok;

    errno = 0;
    v = strtoll(s, &end, 10);
    ok = errno == 0 && end != s && *end == '\0' && v >= lo && v <= hi;
    if (ok)
        *out = (int64_t)v;
    return ok;
}

/* 1 when c is a common option (*ok then says whether its value is
 * usable), 0 when it is not. */
static int common_option(int c, const char *arg, struct bench_opts *o,
                         int *ok)
{
    int64_t v = 0;

    switch (c) {
    case 'd':
        o->dir = arg;
        return 1;
    case 'r':
        *ok = bench_parse_int64(arg, 1, BENCH_MAX_REPS, &v);
        o->reps = (int)v;
        return 1;
    case 'w':
        *ok = bench_parse_int64(arg, 0, BENCH_MAX_REPS, &v);
        o->warmup = (int)v;
        return 1;
    case 'f':
        *ok = bench_parse_int64(arg, 1, 5, &v) && v != 3 && v != 4;
        o->format = (int)v;
        return 1;
    case 'k':
        o->keep = 1;
        return 1;
    case 'q':
        o->quiet = 1;
        return 1;
    case 'c':
        o->csv = 1;
        return 1;
    default:
        return 0;
    }
}

int bench_parse_options(const char *prog, int argc, char **argv,
                        const char *own_optstring, int rank,
                        void (*usage)(FILE *), bench_apply_fn apply,
                        void *own, struct bench_opts *common)
{
    char optstring[128];
    int c, ok = 1;

    memset(common, 0, sizeof *common);
    common->dir = "/tmp";
    common->reps = 3;
    common->format = 2;
    snprintf(optstring, sizeof optstring, "%sd:r:w:f:kqch", own_optstring);
    opterr = 0;
    while (ok && !common->help &&
           (c = getopt(argc, argv, optstring)) != -1) {
        if (c == 'h') {
            if (rank == 0)
                usage(stdout);
            common->help = 1;
        } else if (c == '?' || c == ':') {
            ok = 0;
        } else if (!common_option(c, optarg, common, &ok)) {
            ok = apply(c, optarg, own);
        }
        if (!ok && rank == 0) {
            if (c == '?' || c == ':')
                fprintf(stderr, "%s: bad option -%c\n", prog, optopt);
            else
                fprintf(stderr, "%s: bad value for -%c: '%s'\n", prog, c,
                        optarg);
            usage(stderr);
        }
    }
    if (ok && !common->help && optind < argc) {
        if (rank == 0) {
            fprintf(stderr, "%s: unexpected argument '%s'\n", prog,
                    argv[optind]);
            usage(stderr);
        }
        ok = 0;
    }
    return ok;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;

    return (x > y) - (x < y);
}

double bench_median(double *v, int n)
{
    if (n <= 0)
        return 0.0;
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

double bench_mibs(int64_t bytes, double seconds)
{
    return seconds > 0.0 ? (double)bytes / 1048576.0 / seconds : 0.0;
}

void bench_dir_of(const char *path, char *out, size_t outsz)
{
    const char *slash = strrchr(path, '/');

    if (slash == NULL)
        snprintf(out, outsz, ".");
    else
        snprintf(out, outsz, "%.*s",
                 slash == path ? 1 : (int)(slash - path), path);
}

const char *bench_format_name(int format)
{
    return format == 5 ? "CDF-5" : format == 2 ? "CDF-2" : "CDF-1";
}

void bench_split_axis(int64_t n, int parts, int idx, MPI_Offset *start,
                      MPI_Offset *count)
{
    int64_t q = n / parts, r = n % parts;

    *start = (MPI_Offset)(idx * q + (idx < r ? idx : r));
    *count = (MPI_Offset)(q + (idx < r ? 1 : 0));
}

int bench_rss_reset_peak(void)
{
    FILE *f = fopen("/proc/self/clear_refs", "w");
    int ok;

    if (f == NULL)
        return 0;
    ok = fputs("5", f) >= 0;
    return fclose(f) == 0 && ok;
}

long long bench_rss_kib(const char *field)
{
    FILE *f = fopen("/proc/self/status", "r");
    char line[256];
    size_t len = strlen(field);
    long long kib = -1;

    if (f == NULL)
        return -1;
    while (kib < 0 && fgets(line, sizeof line, f) != NULL)
        if (strncmp(line, field, len) == 0 && line[len] == ':')
            kib = strtoll(line + len + 1, NULL, 10);
    fclose(f);
    return kib;
}
