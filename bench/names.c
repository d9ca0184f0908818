/*
 * names.c -- how defining, finding and reopening many names scales.
 *
 * For each kind of name (dimensions, variables, global attributes, the
 * attributes of one variable) and each count N, one dataset is created,
 * N names of that kind are defined, then enddef, a lookup of every name
 * by its name (inq_dimid, inq_varid, inq_attid), close, open, and the
 * lookups again. A library whose name lookups are linear takes O(N^2)
 * for the defines (each checks that the name is new) and the lookups; a
 * hashed one grows near-linearly. Built against ncpario (names) and
 * PnetCDF (names_pnetcdf) from this one source.
 *
 * Options (beside the common -d dir, -f format, -r reps, -q, -c):
 *   -n N[,N...]  counts (default 10000,100000,1000000)
 *   -t kinds     any of d (dims), v (vars), g (global atts), a (atts of
 *                one variable); default dvga
 * Output, per kind and count: the seconds of each phase, the slowest
 * rank's, median over the repetitions.
 */
#define _POSIX_C_SOURCE 200809L /* strtok_r */
#include <mpi.h>
#include <pnetcdf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_common.h"

#define MAX_COUNTS 16
enum { PH_DEFINE, PH_ENDDEF, PH_LOOKUP, PH_CLOSE, PH_OPEN, PH_RELOOKUP,
       PH_COUNT };
static const char *const phase_names[PH_COUNT] = {
    "define", "enddef", "lookup", "close", "open", "lookup_reopened"};

struct options {
    struct bench_opts run;
    int64_t counts[MAX_COUNTS];
    int ncounts;
    char kinds[8];
};

static void usage(FILE *f)
{
    fprintf(f, "usage: names [-d dir] [-f 1|2|5] [-r reps] [-q] [-c] "
               "[-n N[,N...]] [-t dvga]\n");
}

static int apply_option(int c, const char *arg, void *own)
{
    struct options *o = own;
    char buf[256], *save = NULL, *t;
    int ok = 1;
    switch (c) {
    case 'n':
        if (strlen(arg) >= sizeof buf) return 0;
        strcpy(buf, arg);
        o->ncounts = 0;
        for (t = strtok_r(buf, ",", &save); t && ok; t = strtok_r(NULL, ",", &save))
            ok = o->ncounts < MAX_COUNTS &&
                 bench_parse_int64(t, 1, 100000000, &o->counts[o->ncounts++]);
        break;
    case 't':
        ok = strlen(arg) > 0 && strlen(arg) < sizeof o->kinds &&
             strspn(arg, "dvga") == strlen(arg);
        if (ok) strcpy(o->kinds, arg);
        break;
    default:
        ok = 0;
    }
    return ok;
}

static void name_of(char *out, size_t n, char kind, int64_t i)
{
    snprintf(out, n, "%c_%lld", kind, (long long)i);
}

static void must(int err, const char *what, int rank)
{
    bench_require("names", err, what, rank, MPI_COMM_WORLD);
}

static void define_all(int nc, char kind, int64_t n, int rank)
{
    char name[64];
    int id, v = 0;
    int64_t i;
    if (kind == 'a') must(ncmpi_def_var(nc, "holder", NC_INT, 0, NULL, &v),
                          "def_var holder", rank);
    for (i = 0; i < n; i++) {
        int one = 1;
        name_of(name, sizeof name, kind, i);
        switch (kind) {
        case 'd': must(ncmpi_def_dim(nc, name, 1, &id), "def_dim", rank); break;
        case 'v':
            must(ncmpi_def_var(nc, name, NC_INT, 0, NULL, &id), "def_var", rank);
            break;
        case 'g':
            must(ncmpi_put_att_int(nc, NC_GLOBAL, name, NC_INT, 1, &one),
                 "put_att global", rank);
            break;
        default:
            must(ncmpi_put_att_int(nc, v, name, NC_INT, 1, &one), "put_att",
                 rank);
        }
    }
}

static void lookup_all(int nc, char kind, int64_t n, int rank)
{
    char name[64];
    int id = -1, err = NC_NOERR;
    int64_t i;
    for (i = 0; i < n && err == NC_NOERR; i++) {
        name_of(name, sizeof name, kind, i);
        switch (kind) {
        case 'd': err = ncmpi_inq_dimid(nc, name, &id); break;
        case 'v': err = ncmpi_inq_varid(nc, name, &id); break;
        case 'g': err = ncmpi_inq_attid(nc, NC_GLOBAL, name, &id); break;
        default: err = ncmpi_inq_attid(nc, 0, name, &id);
        }
        /* the holder variable of kind 'a' takes no position */
        if (err == NC_NOERR && id != (int)i) err = NC_EINVAL;
    }
    must(err, "lookup by name", rank);
}

/* Seconds of each phase, the slowest rank's. */
static void run_once(const struct options *o, char kind, int64_t n,
                     int rank, double *t)
{
    char path[4096];
    int nc;
    double t0;
    snprintf(path, sizeof path, "%s/names_%s_%c.nc", o->run.dir,
             BENCH_LIB_NAME, kind);
    must(ncmpi_create(MPI_COMM_WORLD, path, bench_create_mode(o->run.format),
                      MPI_INFO_NULL, &nc), "create", rank);
    MPI_Barrier(MPI_COMM_WORLD);
    t0 = MPI_Wtime();
    define_all(nc, kind, n, rank);
    t[PH_DEFINE] = MPI_Wtime() - t0;
    t0 = MPI_Wtime();
    must(ncmpi_enddef(nc), "enddef", rank);
    t[PH_ENDDEF] = MPI_Wtime() - t0;
    t0 = MPI_Wtime();
    lookup_all(nc, kind, n, rank);
    t[PH_LOOKUP] = MPI_Wtime() - t0;
    t0 = MPI_Wtime();
    must(ncmpi_close(nc), "close", rank);
    t[PH_CLOSE] = MPI_Wtime() - t0;
    t0 = MPI_Wtime();
    must(ncmpi_open(MPI_COMM_WORLD, path, NC_NOWRITE, MPI_INFO_NULL, &nc),
         "open", rank);
    t[PH_OPEN] = MPI_Wtime() - t0;
    t0 = MPI_Wtime();
    lookup_all(nc, kind, n, rank);
    t[PH_RELOOKUP] = MPI_Wtime() - t0;
    must(ncmpi_close(nc), "close", rank);
    MPI_Allreduce(MPI_IN_PLACE, t, PH_COUNT, MPI_DOUBLE, MPI_MAX,
                  MPI_COMM_WORLD);
    if (!o->run.keep && rank == 0) remove(path);
}

int main(int argc, char **argv)
{
    struct options o;
    int rank, nprocs, k, c, r, p, rc = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
    memset(&o, 0, sizeof o);
    o.counts[0] = 10000;
    o.counts[1] = 100000;
    o.counts[2] = 1000000;
    o.ncounts = 3;
    strcpy(o.kinds, "dvga");
    if (!bench_parse_options("names", argc, argv, "n:t:", rank, usage,
                             apply_option, &o, &o.run)) {
        rc = 1;
        goto done;
    }
    if (o.run.help) goto done;
    if (o.run.csv && rank == 0)
        printf("lib,ranks,kind,n,define,enddef,lookup,close,open,"
               "lookup_reopened,total\n");
    for (k = 0; o.kinds[k]; k++) {
        for (c = 0; c < o.ncounts; c++) {
            double t[PH_COUNT], all[PH_COUNT][64];
            double med[PH_COUNT], total = 0;
            int reps = o.run.reps > 64 ? 64 : o.run.reps;
            for (r = 0; r < o.run.warmup; r++)
                run_once(&o, o.kinds[k], o.counts[c], rank, t);
            for (r = 0; r < reps; r++) {
                run_once(&o, o.kinds[k], o.counts[c], rank, t);
                for (p = 0; p < PH_COUNT; p++) all[p][r] = t[p];
            }
            for (p = 0; p < PH_COUNT; p++) {
                med[p] = bench_median(all[p], reps);
                total += med[p];
            }
            if (rank != 0) continue;
            if (o.run.csv) {
                printf("%s,%d,%c,%lld", BENCH_LIB_NAME, nprocs, o.kinds[k],
                       (long long)o.counts[c]);
                for (p = 0; p < PH_COUNT; p++) printf(",%.6f", med[p]);
                printf(",%.6f\n", total);
            }
            if (!o.run.quiet) {
                printf("%-8s %d ranks  kind %c  n %8lld:", BENCH_LIB_NAME,
                       nprocs, o.kinds[k], (long long)o.counts[c]);
                for (p = 0; p < PH_COUNT; p++)
                    printf(" %s %.3f", phase_names[p], med[p]);
                printf("  total %.3f s\n", total);
            }
            fflush(stdout);
        }
    }
done:
    MPI_Finalize();
    return rc;
}
