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

/* A whole decimal number in [lo, hi], nothing before or after it: 1 and
 * *out set, or 0. */
int bench_parse_int64(const char *s, int64_t lo, int64_t hi, int64_t *out);

/* Median of v[0..n) (sorts v); 0 for n == 0. */
double bench_median(double *v, int n);

/* bytes / seconds in MiB/s; 0 when seconds is not positive. */
double bench_mibs(int64_t bytes, double seconds);

/* The directory part of path; "." when it has none. */
void bench_dir_of(const char *path, char *out, size_t outsz);

/* ncmpi_create mode for format 1, 2 or 5 (NC_CLOBBER always set). */
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
