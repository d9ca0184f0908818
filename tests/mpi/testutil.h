/* testutil.h -- checks and small helpers shared by the MPI test programs.
 *
 * Every check records its verdict and lets the program carry on, so all
 * ranks keep making the same sequence of collective calls whatever fails;
 * a test never branches on a result in a way that could split the ranks.
 * tu_finish() sums the verdicts over the communicator so every rank exits
 * with the same status, a failing one when no rank ran a check.  Only the
 * public PnetCDF API is used, so the same programs build against PnetCDF
 * and against ncpario.
 */
#ifndef NCP_TESTUTIL_H
#define NCP_TESTUTIL_H

#include <mpi.h>
#include <pnetcdf.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A long loop that goes wrong would bury the first, useful, message. */
#define TU_MAX_PRINTED 40

static long long tu_nchecks;
static long long tu_nfailed;
static int tu_myrank;
static int tu_nranks = 1;

static inline const char *tu_base(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

static inline void tu_fail(const char *file, int line, const char *fmt, ...)
{
    va_list ap;
    tu_nfailed++;
    if (tu_nfailed > TU_MAX_PRINTED)
        return;
    printf("FAIL %s:%d [rank %d] ", tu_base(file), line, tu_myrank);
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    printf("\n");
    fflush(stdout);
}

static inline int tu_check(int ok, const char *file, int line, const char *what)
{
    tu_nchecks++;
    if (!ok)
        tu_fail(file, line, "%s", what);
    return ok;
}

static inline int tu_expect(int err, int want, const char *file, int line,
                            const char *what)
{
    tu_nchecks++;
    if (err != want)
        tu_fail(file, line, "%s: expected %s (%d), got %s (%d): %s", what,
                ncmpi_strerrno(want), want, ncmpi_strerrno(err), err,
                ncmpi_strerror(err));
    return err == want;
}

#define CHECK(cond) tu_check((cond) != 0, __FILE__, __LINE__, #cond)
#define CHECK_ERR(err) tu_expect((err), NC_NOERR, __FILE__, __LINE__, #err)
#define EXPECT_ERR(err, code) tu_expect((err), (code), __FILE__, __LINE__, #err)
/* CHECK with a printf-style explanation, for checks inside loops. */
#define CHECKF(cond, ...) \
    tu_checkf((cond) != 0, __FILE__, __LINE__, __VA_ARGS__)

static inline int tu_checkf(int ok, const char *file, int line,
                            const char *fmt, ...)
{
    va_list ap;
    char msg[512];
    tu_nchecks++;
    if (!ok) {
        va_start(ap, fmt);
        vsnprintf(msg, sizeof msg, fmt, ap);
        va_end(ap);
        tu_fail(file, line, "%s", msg);
    }
    return ok;
}

static inline void tu_init(int *argc, char ***argv)
{
    MPI_Init(argc, argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &tu_myrank);
    MPI_Comm_size(MPI_COMM_WORLD, &tu_nranks);
}

/* Returns the exit status: 0 when some rank ran a check and none saw a
 * failure, 1 otherwise; a program that checked nothing proved nothing. */
static inline int tu_finish(const char *name)
{
    long long local[2] = {tu_nchecks, tu_nfailed}, total[2] = {0, 0};
    MPI_Allreduce(local, total, 2, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
    if (tu_myrank == 0) {
        printf("%s: %lld checks, %lld failed\n", name, total[0], total[1]);
        if (total[0] == 0)
            printf("FAIL %s: no check ran\n", name);
        fflush(stdout);
    }
    MPI_Finalize();
    return total[1] == 0 && total[0] > 0 ? 0 : 1;
}

/* The main output file is argv[1]; a missing argument is a failed run, not a
 * crash, so the harness still sees one line per test. */
static inline const char *tu_main_path(int argc, char **argv)
{
    if (argc < 2) {
        if (tu_myrank == 0)
            printf("usage: %s <output.nc>\n", argv[0]);
        return NULL;
    }
    return argv[1];
}

/* Builds a sibling file name: "<dir>/t_x.nc" + "_cdf2.nc" -> "<dir>/t_x_cdf2.nc". */
static inline void tu_sibling(char *out, size_t outlen, const char *main_path,
                              const char *suffix)
{
    size_t n = strlen(main_path);
    if (n >= 3 && strcmp(main_path + n - 3, ".nc") == 0)
        n -= 3;
    snprintf(out, outlen, "%.*s%s", (int)n, main_path, suffix);
}

/* Block partition of n items: rank r gets [*start, *start + *count). */
static inline void tu_part(MPI_Offset n, int rank, int nranks,
                           MPI_Offset *start, MPI_Offset *count)
{
    MPI_Offset q = n / nranks, r = n % nranks;
    *start = rank * q + (rank < r ? rank : r);
    *count = q + (rank < r ? 1 : 0);
}

/* Bytes per element of an external type, 0 for anything else. */
static inline int tu_xsize(nc_type t)
{
    switch (t) {
    case NC_BYTE: case NC_CHAR: case NC_UBYTE: return 1;
    case NC_SHORT: case NC_USHORT: return 2;
    case NC_INT: case NC_UINT: case NC_FLOAT: return 4;
    case NC_DOUBLE: case NC_INT64: case NC_UINT64: return 8;
    default: return 0;
    }
}

static inline const char *tu_tname(nc_type t)
{
    switch (t) {
    case NC_BYTE: return "byte";
    case NC_CHAR: return "char";
    case NC_SHORT: return "short";
    case NC_INT: return "int";
    case NC_FLOAT: return "float";
    case NC_DOUBLE: return "double";
    case NC_UBYTE: return "ubyte";
    case NC_USHORT: return "ushort";
    case NC_UINT: return "uint";
    case NC_INT64: return "int64";
    case NC_UINT64: return "uint64";
    default: return "?";
    }
}

/* MPI-IO only promises that one rank sees another's writes after
 * sync-barrier-sync, so a test that reads back data written by other ranks
 * (or by several ranks at once) calls this first.  Collective. */
static inline int tu_sync(int ncid)
{
    int err = ncmpi_sync(ncid);
    MPI_Barrier(MPI_COMM_WORLD);
    if (err == NC_NOERR)
        err = ncmpi_sync(ncid);
    return err;
}

/* Same verdict on every rank: true when any rank passes a nonzero flag. */
static inline int tu_any(int flag)
{
    int any = 0;
    MPI_Allreduce(&flag, &any, 1, MPI_INT, MPI_LOR, MPI_COMM_WORLD);
    return any;
}

#endif
