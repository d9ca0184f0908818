/* ncp-test: RANKS 1 2 4 TIMEOUT 300 */
/* t_behind -- write-behind (nc_write_behind=enable, a staging budget of
 * 64 KiB, far below what one rank writes):
 *   - a collective get right after a put sees every rank's values while
 *     they may still be on their way (read-your-writes), and so does an
 *     independent get of the rank's own after begin_indep_data;
 *   - after ncmpi_sync, after ncmpi_redef (and a barrier) and after
 *     close, a second, independent open of the file (no write-behind)
 *     reads every rank's values from the file itself, and after sync
 *     its record count;
 *   - the budget holds: the profile's most bytes staged at once stays
 *     within it, and a 32 MiB put with a 1 MiB budget grows the
 *     process's peak memory by far less than 32 MiB;
 *   - with a log folder (nc_burst_buf_dirname), bytes past the budget go
 *     through the log (posix) and read back whole; a folder that does not
 *     exist fails the open (posix: the mpiio driver keeps no log);
 *   - a background write made to fail (NCPARIO_TEST_FAULT op=behind) on
 *     rank 0, a writer whatever the driver and groups, is reported once,
 *     as NC_EWRITE on every rank, by the put itself or by the next
 *     collective call (a sync; a put made after the failure happened),
 *     and again by close.
 * The main file is compared byte for byte with PnetCDF's, which ignores
 * the hint; the fault files are ncpario's alone and removed.
 */
#define _POSIX_C_SOURCE 200809L /* setenv */
#include <fcntl.h>
#include <stdint.h>
#include <time.h>
#include <unistd.h>

/* A pause of ms milliseconds. */
static inline void pause_ms(long ms)
{
    struct timespec t = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&t, NULL);
}

#include "have_ncpario.h"
#include "testutil.h"

#define NX 16384 /* doubles a rank per variable: 128 KiB */
#define BUDGET 65536

static MPI_Info behind_info(long long budget)
{
    MPI_Info info;
    char v[32];
    MPI_Info_create(&info);
    MPI_Info_set(info, "nc_write_behind", "enable");
    snprintf(v, sizeof v, "%lld", budget);
    MPI_Info_set(info, "nc_write_behind_size", v);
    return info;
}

static double val(int rank, int k, int salt)
{
    return rank * 1e6 + k + salt * 0.25;
}

static void fill(double *b, int rank, int salt)
{
    for (int k = 0; k < NX; k++) b[k] = val(rank, k, salt);
}

/* How many of rank's NX values in b differ from salt's. */
static int wrong(const double *b, int rank, int salt)
{
    int bad = 0;
    for (int k = 0; k < NX; k++) bad += b[k] != val(rank, k, salt);
    return bad;
}

/* Read rank `who`'s part of variable `name` (record rec, -1: fixed) from
 * a fresh read-only open on this rank alone, and how many records the
 * file's header counts. */
static void read_alone(const char *path, const char *name, int rec, int who,
                       double *b, MPI_Offset *nrecs)
{
    int ncid, vid, rdim;
    MPI_Offset st[2], ct[2];
    CHECK_ERR(ncmpi_open(MPI_COMM_SELF, path, NC_NOWRITE, MPI_INFO_NULL,
                         &ncid));
    CHECK_ERR(ncmpi_inq_varid(ncid, name, &vid));
    CHECK_ERR(ncmpi_inq_unlimdim(ncid, &rdim));
    CHECK_ERR(ncmpi_inq_dimlen(ncid, rdim, nrecs));
    st[0] = rec, st[1] = (MPI_Offset)who * NX, ct[0] = 1, ct[1] = NX;
    if (rec < 0) st[0] = (MPI_Offset)who * NX, ct[0] = NX;
    CHECK_ERR(ncmpi_get_vara_double_all(ncid, vid, st, ct, b));
    CHECK_ERR(ncmpi_close(ncid));
}

/* The bytes of rank `who`'s part of record rec of variable "r", read
 * with pread (the count of records in the header may not have reached
 * the file yet: redef leaves it to enddef). */
static void read_raw_record(const char *path, int rec, int who, double *b)
{
    MPI_Offset off, recsize;
    unsigned char *raw = malloc((size_t)NX * 8);
    int ncid, vid, fd;
    CHECK_ERR(ncmpi_open(MPI_COMM_SELF, path, NC_NOWRITE, MPI_INFO_NULL,
                         &ncid));
    CHECK_ERR(ncmpi_inq_varid(ncid, "r", &vid));
    CHECK_ERR(ncmpi_inq_varoffset(ncid, vid, &off));
    CHECK_ERR(ncmpi_inq_recsize(ncid, &recsize));
    CHECK_ERR(ncmpi_close(ncid));
    off += rec * recsize + (MPI_Offset)who * NX * 8;
    fd = open(path, O_RDONLY);
    CHECK(raw && fd >= 0 &&
          pread(fd, raw, (size_t)NX * 8, (off_t)off) == (ssize_t)NX * 8);
    for (int k = 0; raw && k < NX; k++) {
        uint64_t u = 0;
        for (int i = 0; i < 8; i++) u = u << 8 | raw[8 * k + i];
        memcpy(&b[k], &u, 8);
    }
    if (fd >= 0) close(fd);
    free(raw);
}

static int next_rank(void) { return (tu_myrank + 1) % tu_nranks; }

/* Puts, read-your-writes, and the reads after sync, redef and close. */
static void main_file(const char *path)
{
    static double b[NX], got[NX], c[NX];
    MPI_Info info = behind_info(BUDGET);
    MPI_Offset st[2], ct[2], nrecs = -1;
    int ncid, dx, dr, dims[2], va, vr, req[3], stat[3];
    CHECK_ERR(ncmpi_create(MPI_COMM_WORLD, path, NC_CLOBBER, info, &ncid));
    CHECK_ERR(ncmpi_def_dim(ncid, "rec", NC_UNLIMITED, &dr));
    CHECK_ERR(ncmpi_def_dim(ncid, "x", (MPI_Offset)NX * tu_nranks, &dx));
    CHECK_ERR(ncmpi_def_var(ncid, "a", NC_DOUBLE, 1, &dx, &va));
    dims[0] = dr, dims[1] = dx;
    CHECK_ERR(ncmpi_def_var(ncid, "r", NC_DOUBLE, 2, dims, &vr));
    CHECK_ERR(ncmpi_enddef(ncid));

    /* read-your-writes: the next rank's values, collectively */
    st[0] = (MPI_Offset)tu_myrank * NX, ct[0] = NX;
    fill(b, tu_myrank, 1);
    CHECK_ERR(ncmpi_put_vara_double_all(ncid, va, st, ct, b));
    st[0] = (MPI_Offset)next_rank() * NX;
    CHECK_ERR(ncmpi_get_vara_double_all(ncid, va, st, ct, got));
    CHECK(wrong(got, next_rank(), 1) == 0);

    /* independently, the rank's own, after a second put */
    st[0] = (MPI_Offset)tu_myrank * NX;
    fill(b, tu_myrank, 2);
    CHECK_ERR(ncmpi_put_vara_double_all(ncid, va, st, ct, b));
    CHECK_ERR(ncmpi_begin_indep_data(ncid));
    CHECK_ERR(ncmpi_get_vara_double(ncid, va, st, ct, got));
    CHECK(wrong(got, tu_myrank, 2) == 0);
    CHECK_ERR(ncmpi_end_indep_data(ncid));

    /* nonblocking records, then sync: in the file, counted */
    st[0] = 0, st[1] = (MPI_Offset)tu_myrank * NX, ct[0] = 1, ct[1] = NX;
    fill(b, tu_myrank, 3);
    CHECK_ERR(ncmpi_iput_vara_double(ncid, vr, st, ct, b, &req[0]));
    st[0] = 1;
    fill(c, tu_myrank, 3); /* pending requests share no buffer */
    CHECK_ERR(ncmpi_iput_vara_double(ncid, vr, st, ct, c, &req[1]));
    st[0] = (MPI_Offset)tu_myrank * NX, ct[0] = NX;
    fill(got, tu_myrank, 4);
    CHECK_ERR(ncmpi_iput_vara_double(ncid, va, st, ct, got, &req[2]));
    CHECK_ERR(ncmpi_wait_all(ncid, 3, req, stat));
    CHECK_ERR(stat[0] | stat[1] | stat[2]);
    memset(b, 0, sizeof b); /* the buffers are free once wait_all returns */
    memset(c, 0, sizeof c);
    memset(got, 0, sizeof got);
#ifdef HAVE_NCPARIO
    {
        ncpario_profile p;
        CHECK_ERR(ncpario_inq_profile(ncid, &p));
        CHECKF((tu_myrank != 0 || p.behind_peak_staged > 0) &&
                   p.behind_peak_staged <= BUDGET,
               "staged at most %lld bytes, budget %d",
               p.behind_peak_staged, BUDGET);
    }
#endif
    CHECK_ERR(ncmpi_sync(ncid));
    MPI_Barrier(MPI_COMM_WORLD);
    read_alone(path, "r", 1, next_rank(), b, &nrecs);
    CHECK(wrong(b, next_rank(), 3) == 0);
    CHECK(nrecs == 2);
    read_alone(path, "a", -1, next_rank(), b, &nrecs);
    CHECK(wrong(b, next_rank(), 4) == 0);

    /* a record, then redef: in the file */
    st[0] = 2, st[1] = (MPI_Offset)tu_myrank * NX, ct[0] = 1, ct[1] = NX;
    fill(b, tu_myrank, 5);
    CHECK_ERR(ncmpi_put_vara_double_all(ncid, vr, st, ct, b));
    CHECK_ERR(ncmpi_redef(ncid));
    MPI_Barrier(MPI_COMM_WORLD);
    read_raw_record(path, 2, next_rank(), got);
    CHECK(wrong(got, next_rank(), 5) == 0);
    CHECK_ERR(ncmpi_put_att_text(ncid, NC_GLOBAL, "note", 5, "after"));
    CHECK_ERR(ncmpi_enddef(ncid));

    /* a last put, then close: all of it in the file */
    st[0] = (MPI_Offset)tu_myrank * NX, ct[0] = NX;
    fill(b, tu_myrank, 6);
    CHECK_ERR(ncmpi_put_vara_double_all(ncid, va, st, ct, b));
    CHECK_ERR(ncmpi_close(ncid));
    MPI_Barrier(MPI_COMM_WORLD);
    read_alone(path, "a", -1, next_rank(), got, &nrecs);
    CHECK(wrong(got, next_rank(), 6) == 0);
    CHECK(nrecs == 3);
    MPI_Info_free(&info);
}

#ifdef HAVE_NCPARIO
/* The high-water mark of this process's resident memory, in bytes. */
static long long peak_rss(void)
{
    char line[256];
    long long kb = -1;
    FILE *f = fopen("/proc/self/status", "r");
    while (f && fgets(line, sizeof line, f))
        if (sscanf(line, "VmHWM: %lld kB", &kb) == 1) break;
    if (f) fclose(f);
    return kb * 1024;
}

/* 32 MiB a rank with a 1 MiB budget: the peak grows by little. */
static void budget_memory(const char *path)
{
    const MPI_Offset n = (MPI_Offset)4 << 20; /* doubles */
    double *b = malloc((size_t)n * sizeof(double));
    MPI_Info info = behind_info((long long)1 << 20);
    MPI_Offset st = n * tu_myrank;
    long long before, after;
    int ncid, dx, v;
    ncpario_profile p;
    CHECK(b != NULL);
    for (MPI_Offset k = 0; b && k < n; k++) b[k] = (double)k;
    CHECK_ERR(ncmpi_create(MPI_COMM_WORLD, path, NC_CLOBBER, info, &ncid));
    CHECK_ERR(ncmpi_def_dim(ncid, "x", n * tu_nranks, &dx));
    CHECK_ERR(ncmpi_def_var(ncid, "big", NC_DOUBLE, 1, &dx, &v));
    CHECK_ERR(ncmpi_enddef(ncid));
    before = peak_rss();
    CHECK_ERR(ncmpi_put_vara_double_all(ncid, v, &st, &n, b));
    CHECK_ERR(ncpario_flush_wait(ncid));
    after = peak_rss();
    CHECK_ERR(ncpario_inq_profile(ncid, &p));
    CHECKF(p.behind_peak_staged <= ((long long)1 << 20),
           "staged %lld bytes at once", p.behind_peak_staged);
    /* the staging never held the put: half of it at most, room left for
       the aggregators' and groups' own buffers and a sanitizer's */
    CHECKF(after - before < ((long long)16 << 20),
           "peak memory grew by %lld bytes writing 32 MiB", after - before);
    CHECK_ERR(ncmpi_close(ncid));
    MPI_Info_free(&info);
    free(b);
    if (tu_myrank == 0) unlink(path);
}

/* The same code on every rank. */
static int agreed(int err)
{
    int lo = err, hi = err;
    MPI_Allreduce(MPI_IN_PLACE, &lo, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    MPI_Allreduce(MPI_IN_PLACE, &hi, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    CHECKF(lo == hi, "codes differ between ranks: %d..%d", lo, hi);
    return lo;
}

/* The driver serving ncid, as reported ("posix" or "mpiio"). */
static int is_posix(int ncid)
{
    MPI_Info info;
    char v[MPI_MAX_INFO_VAL + 1] = "";
    int flag = 0;
    CHECK_ERR(ncmpi_inq_file_info(ncid, &info));
    MPI_Info_get(info, "nc_driver", MPI_MAX_INFO_VAL, v, &flag);
    MPI_Info_free(&info);
    return flag && strcmp(v, "posix") == 0;
}

/* A 64 KiB budget and a log beside the file (nc_burst_buf_dirname): 1
 * MiB a rank goes through the log where the budget is spent (posix: the
 * thread's log; mpiio has none), and reads back whole.  A folder that
 * cannot hold the log fails the open on every rank (posix). */
static void spill_log(const char *path, const char *dir)
{
    const MPI_Offset n = 131072; /* doubles */
    double *b = malloc((size_t)n * sizeof(double));
    MPI_Info info = behind_info(BUDGET);
    MPI_Offset st = n * tu_myrank;
    ncpario_profile p;
    int ncid, dx, v, bad = 0, posix, err;
    for (MPI_Offset k = 0; k < n; k++) b[k] = val(tu_myrank, (int)k, 9);
    MPI_Info_set(info, "nc_burst_buf_dirname", dir);
    CHECK_ERR(ncmpi_create(MPI_COMM_WORLD, path, NC_CLOBBER, info, &ncid));
    CHECK_ERR(ncmpi_def_dim(ncid, "x", n * tu_nranks, &dx));
    CHECK_ERR(ncmpi_def_var(ncid, "s", NC_DOUBLE, 1, &dx, &v));
    CHECK_ERR(ncmpi_enddef(ncid));
    posix = is_posix(ncid);
    CHECK_ERR(ncmpi_put_vara_double_all(ncid, v, &st, &n, b));
    CHECK_ERR(ncpario_flush_wait(ncid));
    CHECK_ERR(ncpario_inq_profile(ncid, &p));
    CHECKF(!posix || tu_myrank != 0 || p.behind_bytes_logged > 0,
           "nothing went through the log (%lld bytes)",
           p.behind_bytes_logged);
    CHECKF(p.behind_peak_staged <= BUDGET, "staged %lld bytes at once",
           p.behind_peak_staged);
    memset(b, 0, (size_t)n * sizeof(double));
    CHECK_ERR(ncmpi_get_vara_double_all(ncid, v, &st, &n, b));
    for (MPI_Offset k = 0; k < n; k++) bad += b[k] != val(tu_myrank, (int)k, 9);
    CHECKF(bad == 0, "%d values wrong after the log", bad);
    CHECK_ERR(ncmpi_close(ncid));
    MPI_Info_set(info, "nc_burst_buf_dirname", "/nonexistent/ncpario-log");
    err = ncmpi_create(MPI_COMM_WORLD, path, NC_CLOBBER, info, &ncid);
    if (err == NC_NOERR) CHECK_ERR(ncmpi_close(ncid));
    CHECKF(posix ? err == NC_ENOENT : err == NC_NOERR,
           "a log folder that does not exist: %d", err);
    MPI_Info_free(&info);
    free(b);
    MPI_Barrier(MPI_COMM_WORLD);
    if (tu_myrank == 0) unlink(path);
}

/* Rank 0's nth background write fails.  The put whose bytes it held may
 * itself report it (where it writes in several rounds, the failure can
 * come before the put ends); else the call after it does (wait: a sync,
 * which waits for the writes first; or a put made once the write has
 * failed).  Either way exactly once, on every rank, and again at close. */
static void fault_case(const char *path, int nth, int wait)
{
    static double b[NX];
    MPI_Info info = behind_info(BUDGET);
    MPI_Offset st = (MPI_Offset)tu_myrank * NX, ct = NX;
    char conf[64];
    int ncid, dx, v, e1, e2;
    snprintf(conf, sizeof conf, "op=behind,nth=%d,ranks=0", nth);
    if (tu_myrank == 0) setenv("NCPARIO_TEST_FAULT", conf, 1);
    CHECK_ERR(ncmpi_create(MPI_COMM_WORLD, path, NC_CLOBBER, info, &ncid));
    if (tu_myrank == 0) unsetenv("NCPARIO_TEST_FAULT");
    CHECK_ERR(ncmpi_def_dim(ncid, "x", (MPI_Offset)NX * tu_nranks, &dx));
    CHECK_ERR(ncmpi_def_var(ncid, "a", NC_DOUBLE, 1, &dx, &v));
    CHECK_ERR(ncmpi_enddef(ncid));
    fill(b, tu_myrank, 7);
    e1 = agreed(ncmpi_put_vara_double_all(ncid, v, &st, &ct, b));
    if (wait) {
        e2 = agreed(ncmpi_sync(ncid));
    } else {
        ncpario_profile p;
        for (int i = 0; i < 400 && tu_myrank == 0; i++) {
            CHECK_ERR(ncpario_inq_profile(ncid, &p));
            if (p.behind_jobs >= nth) break;
            pause_ms(5);
        }
        MPI_Barrier(MPI_COMM_WORLD);
        e2 = agreed(ncmpi_put_vara_double_all(ncid, v, &st, &ct, b));
    }
    CHECKF((e1 == NC_EWRITE) + (e2 == NC_EWRITE) == 1 &&
               (e1 == NC_NOERR) + (e2 == NC_NOERR) == 1,
           "nth %d wait %d: codes %d then %d", nth, wait, e1, e2);
    CHECK_ERR(ncmpi_put_vara_double_all(ncid, v, &st, &ct, b));
    EXPECT_ERR(agreed(ncmpi_close(ncid)), NC_EWRITE);
    MPI_Info_free(&info);
    MPI_Barrier(MPI_COMM_WORLD);
    if (tu_myrank == 0) unlink(path);
}
#endif

int main(int argc, char **argv)
{
    const char *path;
    tu_init(&argc, &argv);
    path = tu_main_path(argc, argv);
    if (path) {
        main_file(path);
#ifdef HAVE_NCPARIO
        char other[4096];
        tu_sibling(other, sizeof other, path, "_budget.tmp");
        budget_memory(other);
        tu_sibling(other, sizeof other, path, "_log.tmp");
        {
            char dir[4096];
            const char *slash = strrchr(path, '/');
            snprintf(dir, sizeof dir, "%.*s", slash ? (int)(slash - path) : 1,
                     slash ? path : ".");
            spill_log(other, dir);
        }
        tu_sibling(other, sizeof other, path, "_fault.tmp");
        fault_case(other, 1, 1);
        fault_case(other, 1, 0);
        fault_case(other, 2, 1);
#endif
    }
    return tu_finish("t_behind");
}
