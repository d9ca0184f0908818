/*
 * shared_limit.c -- the ceiling of one shared file against one file per
 * process, with no library in between: every rank writes (then reads)
 * BYTES of its own in CHUNK-sized pwrite/pread calls, either into its own
 * file or into its own contiguous slice of one file all ranks share.
 * This is the easiest pattern a shared-file library can hope for (each
 * rank one contiguous run, large calls, no exchange), so the shared/own
 * ratio it prints bounds what any shared-file writer reaches on this
 * file system.  On Linux a buffered write takes the file's inode lock,
 * so writers of one file queue where writers of many files do not;
 * reads take no such lock.
 *
 * The two layouts alternate round by round (the machine's noise hits
 * both alike); each round's time is the slowest rank's, from a barrier
 * before the first call to a barrier after the last (files are created
 * before and removed after, untimed).  Result lines, like the bio
 * programs' csv:
 *   csv,shared_limit,<own|shared>,b<BYTES>,-,<ranks>,<write|read>,
 *   <total bytes>,<median_s>,<min_s>,<max_s>,<MiB/s at the median>
 * Every byte read is checked.  Exit 1 on a failed call or a wrong byte,
 * 2 on a usage error.
 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <fcntl.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { CHUNK = 1 << 20, MAX_ROUNDS = 1000 };
enum { OWN, SHARED, NLAYOUTS };
enum { WRITE, READ, NPHASES };
static const char *layout_name[NLAYOUTS] = {"own", "shared"};
static const char *phase_name[NPHASES] = {"write", "read"};

struct opts {
    const char *dir;
    long long bytes; /* per rank */
    int rounds;
    int csv;
};

static int rank, nprocs;

static unsigned char pattern_at(int r, long long i)
{
    return (unsigned char)((i * 131 + r * 7 + 1) % 251);
}

static void file_of(const struct opts *o, int layout, char *path, size_t n)
{
    if (layout == OWN)
        snprintf(path, n, "%s/shared_limit.own.%d", o->dir, rank);
    else
        snprintf(path, n, "%s/shared_limit.shared", o->dir);
}

/* pwrite or pread all n bytes at off, in CHUNK calls. */
static int move(int fd, int is_write, char *buf, long long n, off_t off)
{
    long long at = 0;
    while (at < n) {
        size_t want = (size_t)(n - at < CHUNK ? n - at : CHUNK);
        ssize_t k = is_write ? pwrite(fd, buf + at, want, off + at)
                             : pread(fd, buf + at, want, off + at);
        if (k < 0 && errno == EINTR) continue;
        if (k <= 0) return 1;
        at += k;
    }
    return 0;
}

/* One timed phase: the slowest rank's seconds from barrier to barrier. */
static double timed(const struct opts *o, int layout, int phase, char *buf,
                    int *err)
{
    char path[4096];
    off_t off = layout == SHARED ? (off_t)o->bytes * rank : 0;
    double t0, t, tmax;
    int fd, bad;
    file_of(o, layout, path, sizeof path);
    fd = open(path, phase == WRITE ? O_WRONLY : O_RDONLY);
    bad = fd < 0;
    MPI_Barrier(MPI_COMM_WORLD);
    t0 = MPI_Wtime();
    if (!bad) bad = move(fd, phase == WRITE, buf, o->bytes, off);
    if (fd >= 0 && close(fd) != 0) bad = 1;
    t = MPI_Wtime() - t0;
    if (bad) fprintf(stderr, "shared_limit: %s: %s\n", path, strerror(errno));
    MPI_Allreduce(&t, &tmax, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    *err |= bad;
    return tmax;
}

/* Create (truncate) the layout's files; rank 0 alone for the shared one. */
static int prepare(const struct opts *o, int layout)
{
    char path[4096];
    int fd = 0, bad = 0;
    file_of(o, layout, path, sizeof path);
    if (layout == OWN || rank == 0) {
        fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        bad = fd < 0 || close(fd) != 0;
    }
    if (bad) fprintf(stderr, "shared_limit: %s: %s\n", path, strerror(errno));
    MPI_Allreduce(MPI_IN_PLACE, &bad, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    return bad;
}

static void cleanup(const struct opts *o, int layout)
{
    char path[4096];
    file_of(o, layout, path, sizeof path);
    MPI_Barrier(MPI_COMM_WORLD);
    if (layout == OWN || rank == 0) unlink(path);
}

static long long wrong_bytes(const char *buf, long long n)
{
    long long i, bad = 0;
    for (i = 0; i < n; i++) bad += (unsigned char)buf[i] != pattern_at(rank, i);
    return bad;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *t, int n)
{
    qsort(t, (size_t)n, sizeof *t, cmp_double);
    return n % 2 ? t[n / 2] : 0.5 * (t[n / 2 - 1] + t[n / 2]);
}

static void report(const struct opts *o, double t[NLAYOUTS][NPHASES][MAX_ROUNDS])
{
    double total = (double)o->bytes * nprocs, med[NLAYOUTS][NPHASES];
    int l, p;
    for (l = 0; l < NLAYOUTS; l++)
        for (p = 0; p < NPHASES; p++) {
            med[l][p] = median(t[l][p], o->rounds);
            if (o->csv)
                printf("csv,shared_limit,%s,b%lld,-,%d,%s,%.0f,%.6f,%.6f,"
                       "%.6f,%.1f\n",
                       layout_name[l], o->bytes, nprocs, phase_name[p], total,
                       med[l][p], t[l][p][0], t[l][p][o->rounds - 1],
                       total / 1048576.0 / med[l][p]);
            else
                printf("  %-6s %-5s %10.6f s %10.1f MiB/s\n", layout_name[l],
                       phase_name[p], med[l][p],
                       total / 1048576.0 / med[l][p]);
        }
    if (!o->csv)
        printf("  shared/own: write %.2f, read %.2f (bandwidth ratio of "
               "medians)\n",
               med[OWN][WRITE] / med[SHARED][WRITE],
               med[OWN][READ] / med[SHARED][READ]);
}

/* Alternate the layouts, write then read, o->rounds times. */
static int run(const struct opts *o, char *buf)
{
    static double t[NLAYOUTS][NPHASES][MAX_ROUNDS];
    long long i, bad = 0;
    int r, l, err = 0;
    if (o->bytes < 1) return 1; /* parse refuses it; tells the compiler */
    for (r = 0; r < o->rounds && !err; r++)
        for (l = 0; l < NLAYOUTS && !err; l++) {
            if ((err = prepare(o, l)) != 0) break;
            for (i = 0; i < o->bytes; i++) buf[i] = (char)pattern_at(rank, i);
            t[l][WRITE][r] = timed(o, l, WRITE, buf, &err);
            memset(buf, 0, (size_t)o->bytes);
            t[l][READ][r] = timed(o, l, READ, buf, &err);
            bad = err ? 0 : wrong_bytes(buf, o->bytes);
            if (bad)
                fprintf(stderr, "shared_limit: rank %d: %lld wrong bytes (%s)\n",
                        rank, bad, layout_name[l]);
            err |= bad != 0;
            MPI_Allreduce(MPI_IN_PLACE, &err, 1, MPI_INT, MPI_MAX,
                          MPI_COMM_WORLD);
            cleanup(o, l);
        }
    if (!err && rank == 0) report(o, t);
    return err;
}

static void usage(FILE *to)
{
    fprintf(to,
            "usage: shared_limit [-d dir] [-s bytes] [-r rounds] [-c] [-h]\n"
            "  -d dir     directory of the files (default /tmp)\n"
            "  -s bytes   bytes per rank (default 64 MiB)\n"
            "  -r rounds  alternating rounds, median reported (default 5)\n"
            "  -c         csv lines instead of the table\n");
}

/* 0: run; 1: -h; 2: usage error. */
static int parse(int argc, char **argv, struct opts *o)
{
    int c;
    char *end;
    o->dir = "/tmp", o->bytes = 64LL << 20, o->rounds = 5, o->csv = 0;
    while ((c = getopt(argc, argv, "d:s:r:ch")) != -1) {
        if (c == 'd') {
            o->dir = optarg;
        } else if (c == 's') {
            o->bytes = strtoll(optarg, &end, 10);
            if (*end || o->bytes < 1) return 2;
        } else if (c == 'r') {
            o->rounds = (int)strtol(optarg, &end, 10);
            if (*end || o->rounds < 1 || o->rounds > MAX_ROUNDS) return 2;
        } else if (c == 'c') {
            o->csv = 1;
        } else {
            return c == 'h' ? 1 : 2;
        }
    }
    return optind < argc ? 2 : 0;
}

int main(int argc, char **argv)
{
    struct opts o;
    char *buf = NULL;
    int how, err = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
    how = parse(argc, argv, &o);
    if (how != 0) {
        if (rank == 0) usage(how == 1 ? stdout : stderr);
        MPI_Finalize();
        return how == 1 ? 0 : 2;
    }
    if (!(buf = malloc((size_t)o.bytes))) err = 1;
    MPI_Allreduce(MPI_IN_PLACE, &err, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (!err && rank == 0 && !o.csv)
        printf("shared_limit: %d ranks, %lld bytes each, %d rounds, dir %s\n",
               nprocs, o.bytes, o.rounds, o.dir);
    if (!err) err = run(&o, buf);
    free(buf);
    MPI_Finalize();
    return err ? 1 : 0;
}
