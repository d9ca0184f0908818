/*
 * fbench.c -- what the Fortran benchmark programs (btio_f.F90,
 * flash_io_f.F90) borrow from C through bind(C): the csv lines of bio.h's
 * bio_report_job, so that bench/suite.py reads them exactly as it reads
 * the C programs'; the suite's hints from NCPARIO_BENCH_HINTS; the pid
 * that makes a run's file names unique; and removing a file.
 *
 * Nothing here calls a netCDF library: the same object goes into the
 * ncpario and the PnetCDF builds.
 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench_common.h"

enum { NPHASES = 6, NCOLUMNS = 8, MAX_HINTS_LEN = 4096 };

static const char *const columns[NCOLUMNS] = {
    "open_w", "write", "close_w", "open_r", "read", "close_r",
    "total_w", "total_r"};

/* Column c of repetition r of t[reps][NPHASES]: a phase, or a side's sum. */
static double column_value(const double *t, int r, int c)
{
    const double *row = t + (size_t)r * NPHASES;

    if (c < NPHASES)
        return row[c];
    c = (c - NPHASES) * 3;
    return row[c] + row[c + 1] + row[c + 2];
}

/* The lines bio_report_job prints for a write + read job: t holds reps
 * rows of the six phase times (Fortran t(6, reps)). 0, or -1 when memory
 * runs out (no line printed). */
int fbench_csv(const char *bench, const char *lib, const char *casename,
               const char *method, int nprocs, int64_t bytes,
               const double *t, int reps)
{
    double *v = malloc((size_t)(reps > 0 ? reps : 1) * sizeof *v);

    if (v == NULL)
        return -1;
    for (int c = 0; c < NCOLUMNS; c++) {
        int moved = c == 1 || c == 4 || c >= NPHASES;
        int64_t b = moved ? bytes : 0;
        double med;

        for (int r = 0; r < reps; r++)
            v[r] = column_value(t, r, c);
        med = bench_median(v, reps); /* sorts v */
        printf("csv,%s,%s,%s,%s,%d,%s,%lld,%.6f,%.6f,%.6f,%.1f\n", bench,
               lib, casename, method, nprocs, columns[c], (long long)b, med,
               reps > 0 ? v[0] : 0.0, reps > 0 ? v[reps - 1] : 0.0,
               bench_mibs(b, med));
    }
    fflush(stdout);
    free(v);
    return 0;
}

/* The "key=value;key=value" pairs of NCPARIO_BENCH_HINTS as a Fortran
 * MPI_Info handle (MPI_INFO_NULL's when unset or empty), as bio_env_info
 * builds it for the C programs. */
MPI_Fint fbench_env_info(void)
{
    const char *env = getenv("NCPARIO_BENCH_HINTS");
    char buf[MAX_HINTS_LEN], *save = NULL;
    MPI_Info info = MPI_INFO_NULL;

    if (env == NULL || *env == '\0' || strlen(env) >= sizeof buf)
        return MPI_Info_c2f(MPI_INFO_NULL);
    strcpy(buf, env);
    MPI_Info_create(&info);
    for (char *p = strtok_r(buf, ";", &save); p != NULL;
         p = strtok_r(NULL, ";", &save)) {
        char *eq = strchr(p, '=');

        if (eq == NULL) {
            fprintf(stderr, "NCPARIO_BENCH_HINTS: '%s' has no '=', "
                    "skipped\n", p);
            continue;
        }
        *eq = '\0';
        MPI_Info_set(info, p, eq + 1);
    }
    return MPI_Info_c2f(info);
}

int fbench_pid(void)
{
    return (int)getpid();
}

/* Removes path; a file that is not there is no error. */
void fbench_remove(const char *path)
{
    if (unlink(path) != 0 && errno != ENOENT)
        fprintf(stderr, "fbench: cannot remove %s: %s\n", path,
                strerror(errno));
}
