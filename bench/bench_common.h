/*
 * bench_common.h -- small helpers shared by the benchmark programs in
 * bench/. Each program is one PnetCDF-API source built against ncpario and
 * against PnetCDF, so nothing here may use anything but MPI, the PnetCDF
 * API and libc.
 */
#ifndef NCPARIO_BENCH_COMMON_H
#define NCPARIO_BENCH_COMMON_H

#include <mpi.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

enum { BENCH_MAX_REPS = 100000 };

/* The options every benchmark takes: -d dir, -r reps, -w warmup,
 * -f 1|2|5, -k, -q, -c, -h. */
struct bench_opts {
    const char *dir;    /* directory of the files (default /tmp) */
    int reps;           /* timed repetitions (default 3) */
    int warmup;         /* untimed repetitions before them (default 0) */
    int format;         /* 1, 2 (default) or 5 */
    int keep;           /* keep the files of the last repetition */
    int quiet;          /* no human-readable report */
    int csv;            /* CSV lines */
    int help;           /* -h: usage printed, nothing to run */
};

/* Applies one of the program's own options to its option struct; 1 when
 * the value is usable. */
typedef int (*bench_apply_fn)(int c, const char *arg, void *own);

/* getopt over the common options and the program's own ones (own_optstring,
 * handed to apply). Sets the common defaults first. 1 when the options are
 * usable (or only -h was asked for); otherwise 0 after a message and the
 * usage on stderr (rank 0 only). */
int bench_parse_options(const char *prog, int argc, char **argv,
                        const char *own_optstring, int rank,
                        void (*usage)(FILE *), bench_apply_fn apply,
                        void *own, struct bench_opts *common);

/* A whole decimal number in [lo, hi], nothing before or after it: 1 and
 * *out set, or 0. */
int bench_parse_int64(const char *s, int64_t lo, int64_t hi, int64_t *out);

/* Median of v[0..n) (sorts v); 0 for n == 0. */
double bench_median(double *v, int n);

/* bytes / seconds in MiB/s; 0 when seconds is not positive. */
double bench_mibs(int64_t bytes, double seconds);

/* The directory part of path; "." when it has none. */
void bench_dir_of(const char *path, char *out, size_t outsz);

/* ncmpi_create mode for format 1, 2 or 5 (NC_CLOBBER always set); in
 * bench_pnc.c, with bench_require, for PnetCDF-API programs only. */
int bench_create_mode(int format);
const char *bench_format_name(int format);

/* Length n cut into `parts` near-equal pieces; the first n % parts pieces
 * get one more element. Piece idx starts at *start and has *count. */
void bench_split_axis(int64_t n, int parts, int idx, MPI_Offset *start,
                      MPI_Offset *count);

/* Peak resident memory of this process. bench_rss_reset_peak() restarts
 * the kernel's high-water mark at the current size (Linux 4.0 and later,
 * /proc/self/clear_refs) and returns 1 when it could; bench_rss_kib reads
 * "VmRSS" or "VmHWM" from /proc/self/status, -1 when unavailable. */
int bench_rss_reset_peak(void);
long long bench_rss_kib(const char *field);

/* Ends the job with a message when a library call failed: other ranks may
 * be inside a collective call that will never complete. */
void bench_require(const char *prog, int err, const char *what, int rank,
                   MPI_Comm comm);

#endif
