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
 * Two options bring the shared file closer to a real one, so that the
 * ratio bounds the reads of a layout, not only the easiest one:
 *   -p PIECE  a third layout, "pieces": the ranks' bytes interleave in
 *             PIECE-sized pieces (piece i of rank r at (i*N + r)*PIECE),
 *             as a decomposed array's rows do.  It is read two ways:
 *             "read", one pread per piece (CHUNK at most), and "sieve",
 *             CHUNK-sized preads of the rank's whole span, its own
 *             pieces copied out (the others' bytes read and dropped).
 *             Its write is one pwrite per piece.
 *   -w W      the shared layouts hold W-byte elements in the other byte
 *             order, as a big-endian format does on this host: their
 *             writes swap into a bounce buffer, their reads swap on
 *             arrival.  The own files keep native order, as a file per
 *             process does.
 *
 * The layouts alternate round by round (the machine's noise hits all
 * alike); each round's time is the slowest rank's, from a barrier before
 * the first call to a barrier after the last (files are created before
 * and removed after, untimed).  Result lines, like the bio programs' csv:
 *   csv,shared_limit,<own|shared|pieces>,b<BYTES>,<p<PIECE>w<W>|->,
 *   <ranks>,<write|read|sieve>,<total bytes>,<median_s>,<min_s>,<max_s>,
 *   <MiB/s at the median>
 * Every byte read is checked.  Exit 1 on a failed call or a wrong byte,
 * 2 on a usage error.
 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <fcntl.h>
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { CHUNK = 1 << 20, MAX_ROUNDS = 1000 };
enum { OWN, SHARED, PIECES, NLAYOUTS };
enum { WRITE, READ, SIEVE, NPHASES };
static const char *layout_name[NLAYOUTS] = {"own", "shared", "pieces"};
static const char *phase_name[NPHASES] = {"write", "read", "sieve"};

struct opts {
    const char *dir;
    long long bytes; /* per rank */
    long long piece; /* 0: no pieces layout */
    int width;       /* 0 or 1: no swap */
    int rounds;
    int csv;
};

/* One timed phase's file and buffers. */
struct xfer {
    int fd, width; /* width: 0 for the own files, which keep native order */
    char *buf, *bounce; /* bounce: CHUNK bytes */
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
        snprintf(path, n, "%s/shared_limit.%s", o->dir, layout_name[layout]);
}

/* n bytes of w-byte elements from src to dst, each element reversed;
 * dst may be src. */
static void swap_copy(char *dst, const char *src, long long n, int w)
{
    long long i;
    if (w == 8) {
        for (i = 0; i + 8 <= n; i += 8) {
            uint64_t v;
            memcpy(&v, src + i, 8);
            v = __builtin_bswap64(v);
            memcpy(dst + i, &v, 8);
        }
    } else if (w == 4) {
        for (i = 0; i + 4 <= n; i += 4) {
            uint32_t v;
            memcpy(&v, src + i, 4);
            v = __builtin_bswap32(v);
            memcpy(dst + i, &v, 4);
        }
    } else if (w == 2) {
        for (i = 0; i + 2 <= n; i += 2) {
            uint16_t v;
            memcpy(&v, src + i, 2);
            v = __builtin_bswap16(v);
            memcpy(dst + i, &v, 2);
        }
    } else if (dst != src) {
        memcpy(dst, src, (size_t)n);
    }
}

/* All n bytes at off, written from buf (swapped through the bounce
 * buffer when x->width says so) or read into buf (swapped after). */
static int move(const struct xfer *x, int is_write, char *buf, long long n,
                off_t off)
{
    long long at = 0;
    int w = x->width;
    while (at < n) {
        size_t want = (size_t)(n - at < CHUNK ? n - at : CHUNK);
        const char *from = buf + at;
        ssize_t k;
        if (is_write && w > 1) {
            swap_copy(x->bounce, from, (long long)want, w);
            from = x->bounce;
        }
        k = is_write ? pwrite(x->fd, from, want, off + at)
                     : pread(x->fd, buf + at, want, off + at);
        if (k < 0 && errno == EINTR) continue;
        if (k <= 0) return 1;
        if (!is_write && w > 1) swap_copy(buf + at, buf + at, k, w);
        at += k;
    }
    return 0;
}

static long long npieces(const struct opts *o)
{
    return (o->bytes + o->piece - 1) / o->piece;
}

static off_t piece_at(const struct opts *o, long long i)
{
    return (off_t)((i * nprocs + rank) * o->piece);
}

static long long piece_len(const struct opts *o, long long i)
{
    long long left = o->bytes - i * o->piece;
    return left < o->piece ? left : o->piece;
}

/* The pieces layout, one call per piece (per CHUNK of a larger one). */
static int move_pieces(const struct opts *o, const struct xfer *x,
                       int is_write)
{
    long long i;
    for (i = 0; i < npieces(o); i++)
        if (move(x, is_write, x->buf + i * o->piece, piece_len(o, i),
                 piece_at(o, i)))
            return 1;
    return 0;
}

/* The pieces layout read by sieving: CHUNK-sized preads of the rank's
 * span, starting at its next own byte, its own bytes copied out (and
 * swapped) from each. */
static int sieve_pieces(const struct opts *o, const struct xfer *x)
{
    long long i = 0, done = 0; /* piece, and bytes of it copied */
    off_t last = piece_at(o, npieces(o) - 1) + piece_len(o, npieces(o) - 1);
    while (i < npieces(o)) {
        off_t win = piece_at(o, i) + done, win_end, at;
        size_t want = (size_t)(last - win < CHUNK ? last - win : CHUNK);
        ssize_t k = pread(x->fd, x->bounce, want, win);
        if (k < 0 && errno == EINTR) continue;
        if (k <= 0) return 1;
        win_end = win + k;
        while (i < npieces(o) && (at = piece_at(o, i) + done) < win_end) {
            long long n = piece_len(o, i) - done;
            if (n > win_end - at) n = win_end - at;
            swap_copy(x->buf + i * o->piece + done, x->bounce + (at - win), n,
                      x->width);
            done += n;
            if (done == piece_len(o, i)) i++, done = 0;
        }
    }
    return 0;
}

/* One timed phase: the slowest rank's seconds from barrier to barrier. */
static double timed(const struct opts *o, int layout, int phase, char *buf,
                    char *bounce, int *err)
{
    char path[4096];
    struct xfer x = {-1, layout == OWN ? 0 : o->width, buf, bounce};
    off_t off = layout == SHARED ? (off_t)o->bytes * rank : 0;
    double t0, t, tmax;
    int bad;
    file_of(o, layout, path, sizeof path);
    x.fd = open(path, phase == WRITE ? O_WRONLY : O_RDONLY);
    bad = x.fd < 0;
    MPI_Barrier(MPI_COMM_WORLD);
    t0 = MPI_Wtime();
    if (!bad && phase == SIEVE) bad = sieve_pieces(o, &x);
    else if (!bad && layout == PIECES) bad = move_pieces(o, &x, phase == WRITE);
    else if (!bad) bad = move(&x, phase == WRITE, buf, o->bytes, off);
    if (x.fd >= 0 && close(x.fd) != 0) bad = 1;
    t = MPI_Wtime() - t0;
    if (bad) fprintf(stderr, "shared_limit: %s: %s\n", path, strerror(errno));
    MPI_Allreduce(&t, &tmax, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    *err |= bad;
    return tmax;
}

/* Create (truncate) the layout's files; rank 0 alone for a shared one. */
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

/* Layouts this run makes, and the phases each layout has. */
static int nlayouts(const struct opts *o) { return o->piece ? 3 : 2; }
static int nphases(int layout) { return layout == PIECES ? 3 : 2; }

typedef double times_t[NLAYOUTS][NPHASES][MAX_ROUNDS];

static void report(const struct opts *o, times_t t)
{
    double total = (double)o->bytes * nprocs, med[NLAYOUTS][NPHASES];
    char pattern[64] = "-";
    int l, p;
    if (o->piece || o->width > 1)
        snprintf(pattern, sizeof pattern, "p%lldw%d", o->piece, o->width);
    for (l = 0; l < nlayouts(o); l++)
        for (p = 0; p < nphases(l); p++) {
            med[l][p] = median(t[l][p], o->rounds);
            if (o->csv)
                printf("csv,shared_limit,%s,b%lld,%s,%d,%s,%.0f,%.6f,%.6f,"
                       "%.6f,%.1f\n",
                       layout_name[l], o->bytes, l == OWN ? "-" : pattern,
                       nprocs, phase_name[p], total, med[l][p], t[l][p][0],
                       t[l][p][o->rounds - 1], total / 1048576.0 / med[l][p]);
            else
                printf("  %-6s %-5s %10.6f s %10.1f MiB/s\n", layout_name[l],
                       phase_name[p], med[l][p],
                       total / 1048576.0 / med[l][p]);
        }
    if (o->csv) return;
    printf("  shared/own: write %.2f, read %.2f (bandwidth ratio of "
           "medians)\n",
           med[OWN][WRITE] / med[SHARED][WRITE],
           med[OWN][READ] / med[SHARED][READ]);
    if (o->piece)
        printf("  pieces/own: write %.2f, read %.2f, sieve %.2f\n",
               med[OWN][WRITE] / med[PIECES][WRITE],
               med[OWN][READ] / med[PIECES][READ],
               med[OWN][READ] / med[PIECES][SIEVE]);
}

/* One layout's round: write, then each read phase, every byte checked. */
static int round_of(const struct opts *o, int l, int r, char *buf,
                    char *bounce, times_t t)
{
    long long i, bad;
    int p, err;
    if ((err = prepare(o, l)) != 0) return err;
    for (i = 0; i < o->bytes; i++) buf[i] = (char)pattern_at(rank, i);
    t[l][WRITE][r] = timed(o, l, WRITE, buf, bounce, &err);
    for (p = READ; p < nphases(l) && !err; p++) {
        memset(buf, 0, (size_t)o->bytes);
        t[l][p][r] = timed(o, l, p, buf, bounce, &err);
        bad = err ? 0 : wrong_bytes(buf, o->bytes);
        if (bad)
            fprintf(stderr, "shared_limit: rank %d: %lld wrong bytes (%s %s)\n",
                    rank, bad, layout_name[l], phase_name[p]);
        err |= bad != 0;
        MPI_Allreduce(MPI_IN_PLACE, &err, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    }
    cleanup(o, l);
    return err;
}

/* Alternate the layouts, o->rounds times. */
static int run(const struct opts *o, char *buf, char *bounce)
{
    static times_t t;
    int r, l, err = 0;
    if (o->bytes < 1) return 1; /* parse refuses it; tells the compiler */
    for (r = 0; r < o->rounds && !err; r++)
        for (l = 0; l < nlayouts(o) && !err; l++)
            err = round_of(o, l, r, buf, bounce, t);
    if (!err && rank == 0) report(o, t);
    return err;
}

static void usage(FILE *to)
{
    fprintf(to,
            "usage: shared_limit [-d dir] [-s bytes] [-p piece] [-w width] "
            "[-r rounds] [-c] [-h]\n"
            "  -d dir     directory of the files (default /tmp)\n"
            "  -s bytes   bytes per rank (default 64 MiB)\n"
            "  -p piece   add the layout of interleaved pieces this large\n"
            "  -w width   the shared layouts' elements of 2, 4 or 8 bytes "
            "swapped\n"
            "  -r rounds  alternating rounds, median reported (default 5)\n"
            "  -c         csv lines instead of the table\n");
}

static int parse_size(const char *arg, long long *v)
{
    char *end;
    *v = strtoll(arg, &end, 10);
    return *end || *v < 1;
}

/* 0: run; 1: -h; 2: usage error. */
static int parse(int argc, char **argv, struct opts *o)
{
    long long v;
    int c, bad = 0;
    o->dir = "/tmp", o->bytes = 64LL << 20, o->piece = 0, o->width = 0;
    o->rounds = 5, o->csv = 0;
    while ((c = getopt(argc, argv, "d:s:p:w:r:ch")) != -1) {
        if (c == 'd') o->dir = optarg;
        else if (c == 's') bad |= parse_size(optarg, &o->bytes);
        else if (c == 'p') bad |= parse_size(optarg, &o->piece);
        else if (c == 'w') bad |= parse_size(optarg, &v) ||
                                  (v != 2 && v != 4 && v != 8),
                           o->width = (int)v;
        else if (c == 'r') bad |= parse_size(optarg, &v) || v > MAX_ROUNDS,
                           o->rounds = (int)v;
        else if (c == 'c') o->csv = 1;
        else return c == 'h' ? 1 : 2;
    }
    /* elements never straddle a piece or a call */
    if (o->width > 1)
        bad |= o->bytes % o->width != 0 || o->piece % o->width != 0;
    return bad || optind < argc ? 2 : 0;
}

int main(int argc, char **argv)
{
    struct opts o;
    char *buf = NULL, *bounce = NULL;
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
    buf = malloc((size_t)o.bytes);
    bounce = malloc(CHUNK);
    err = !buf || !bounce;
    MPI_Allreduce(MPI_IN_PLACE, &err, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (!err && rank == 0 && !o.csv)
        printf("shared_limit: %d ranks, %lld bytes each, %d rounds, dir %s\n",
               nprocs, o.bytes, o.rounds, o.dir);
    if (!err) err = run(&o, buf, bounce);
    free(buf);
    free(bounce);
    MPI_Finalize();
    return err ? 1 : 0;
}
