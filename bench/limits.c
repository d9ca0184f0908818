/*
 * limits.c -- what the machine itself can do, measured in the same run as
 * the benchmarks so that their bandwidths have a ceiling to be read
 * against:
 *
 *   memcpy   one memcpy of BYTES between two buffers already touched;
 *   seqw     one process writes BYTES to a fresh file in DIR in 8 MiB
 *            write() calls, then closes it (no fsync: the benchmarks do
 *            not sync either, so both measure the same page-cache path);
 *   seqr     the same process reads the file back.
 *
 * It is a plain single-process program (no MPI), run once per suite and
 * byte count. Result lines, as the bio programs print them:
 *   csv,limits,machine,<case>,-,1,<phase>,<bytes>,<median_s>,<min_s>,
 *   <max_s>,<MiB/s at the median>
 * with phases memcpy, seqw, seqr. Every byte read back is checked; exit
 * 1 when one differs or a call fails, 2 on a usage error.
 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

enum { CHUNK = 8 << 20, MAX_REPS = 1000 };

struct limits_opts {
    const char *dir;
    long long bytes;
    int reps;
    int csv;
};

static double now(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;

    return (x > y) - (x < y);
}

static void report(const struct limits_opts *o, const char *phase,
                   double *t)
{
    double med;
    int n = o->reps;

    qsort(t, (size_t)n, sizeof *t, cmp_double);
    med = n % 2 ? t[n / 2] : 0.5 * (t[n / 2 - 1] + t[n / 2]);
    if (o->csv)
        printf("csv,limits,machine,b%lld,-,1,%s,%lld,%.6f,%.6f,%.6f,%.1f\n",
               o->bytes, phase, o->bytes, med, t[0], t[n - 1],
               med > 0 ? (double)o->bytes / 1048576.0 / med : 0.0);
    else
        printf("  %-7s %10.6f s  %10.1f MiB/s\n", phase, med,
               med > 0 ? (double)o->bytes / 1048576.0 / med : 0.0);
}

/* write() all of buf, whatever the kernel takes per call. */
static int write_all(int fd, const char *buf, size_t n)
{
    while (n > 0) {
        ssize_t k = write(fd, buf, n);

        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            return -1;
        buf += k;
        n -= (size_t)k;
    }
    return 0;
}

static int read_all(int fd, char *buf, size_t n)
{
    while (n > 0) {
        ssize_t k = read(fd, buf, n);

        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            return -1;
        buf += k;
        n -= (size_t)k;
    }
    return 0;
}

static int seq_write(const char *path, const char *src, long long bytes)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    int err = fd < 0;

    for (long long at = 0; !err && at < bytes; at += CHUNK) {
        size_t n = (size_t)(bytes - at < CHUNK ? bytes - at : CHUNK);

        err = write_all(fd, src + at, n);
    }
    if (fd >= 0 && close(fd) != 0)
        err = 1;
    return err;
}

static int seq_read(const char *path, char *dst, long long bytes)
{
    int fd = open(path, O_RDONLY);
    int err = fd < 0;

    for (long long at = 0; !err && at < bytes; at += CHUNK) {
        size_t n = (size_t)(bytes - at < CHUNK ? bytes - at : CHUNK);

        err = read_all(fd, dst + at, n);
    }
    if (fd >= 0)
        close(fd);
    return err;
}

/* memcpy, then write + read of the file, o->reps times each. */
static int measure(const struct limits_opts *o, char *a, char *b)
{
    double tc[MAX_REPS], tw[MAX_REPS], tr[MAX_REPS];
    char path[4096];
    int err = 0;

    snprintf(path, sizeof path, "%s/ncpario-limits.%ld", o->dir,
             (long)getpid());
    for (int r = 0; r < o->reps && !err; r++) {
        double t0 = now();

        memcpy(b, a, (size_t)o->bytes);
        tc[r] = now() - t0;
        t0 = now();
        err = seq_write(path, a, o->bytes);
        tw[r] = now() - t0;
        memset(b, 0, (size_t)o->bytes);
        t0 = now();
        err = err || seq_read(path, b, o->bytes);
        tr[r] = now() - t0;
        if (!err && memcmp(a, b, (size_t)o->bytes) != 0) {
            fprintf(stderr, "limits: %s read back differs\n", path);
            err = 1;
        } else if (err) {
            fprintf(stderr, "limits: %s: %s\n", path, strerror(errno));
        }
    }
    unlink(path);
    if (!err) {
        report(o, "memcpy", tc);
        report(o, "seqw", tw);
        report(o, "seqr", tr);
    }
    return err;
}

static void usage(FILE *to)
{
    fprintf(to, "usage: limits [-d dir] [-s bytes] [-r reps] [-c] [-h]\n"
                "  -d dir    directory of the test file (default /tmp)\n"
                "  -s bytes  bytes to copy, write and read (default 64 MiB)\n"
                "  -r reps   repetitions, median reported (default 3)\n"
                "  -c        csv lines instead of the table\n");
}

static int parse(int argc, char **argv, struct limits_opts *o)
{
    char *end;
    int c;

    while ((c = getopt(argc, argv, "d:s:r:ch")) != -1) {
        switch (c) {
        case 'd':
            o->dir = optarg;
            break;
        case 's':
            o->bytes = strtoll(optarg, &end, 10);
            if (*end != '\0' || o->bytes < 1)
                return 2;
            break;
        case 'r':
            o->reps = (int)strtol(optarg, &end, 10);
            if (*end != '\0' || o->reps < 1 || o->reps > MAX_REPS)
                return 2;
            break;
        case 'c':
            o->csv = 1;
            break;
        case 'h':
            usage(stdout);
            return 1;
        default:
            return 2;
        }
    }
    return optind < argc ? 2 : 0;
}

int main(int argc, char **argv)
{
    struct limits_opts o = {"/tmp", 64LL << 20, 3, 0};
    char *a, *b;
    int rc = parse(argc, argv, &o);

    if (rc != 0) {
        if (rc == 2)
            usage(stderr);
        return rc == 1 ? 0 : 2;
    }
    a = malloc((size_t)o.bytes);
    b = malloc((size_t)o.bytes);
    if (a == NULL || b == NULL) {
        fprintf(stderr, "limits: no memory for 2 x %lld bytes\n", o.bytes);
        return 1;
    }
    /* Touch both buffers first: the first write into fresh pages costs a
     * page fault each and would be timed as copying. */
    for (long long i = 0; i < o.bytes; i++)
        a[i] = (char)(i * 131 + 7);
    memset(b, 0, (size_t)o.bytes);
    if (!o.csv)
        printf("limits: %lld bytes, %s, %d reps\n", o.bytes, o.dir, o.reps);
    rc = measure(&o, a, b);
    free(a);
    free(b);
    return rc;
}
