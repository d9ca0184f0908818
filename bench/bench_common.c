/*
 * bench_common.c -- helpers shared by the benchmark programs; see
 * bench_common.h.
 */
#define _POSIX_C_SOURCE 200809L

#include "bench_common.h"

#include <errno.h>
#include <pnetcdf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

int bench_create_mode(int format)
{
    switch (format) {
    case 2:
        return NC_CLOBBER | NC_64BIT_OFFSET;
    case 5:
        return NC_CLOBBER | NC_64BIT_DATA;
    default:
        return NC_CLOBBER;
    }
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

void bench_require(const char *prog, int err, const char *what, int rank,
                   MPI_Comm comm)
{
    if (err != NC_NOERR) {
        fprintf(stderr, "%s: rank %d: %s failed: %s\n", prog, rank, what,
                ncmpi_strerror(err));
        MPI_Abort(comm, 1);
    }
}
