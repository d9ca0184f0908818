/* ncp-test: NO_PNETCDF_CMP NO_CDL RANKS 1 2 4 */
/* t_shm_keep -- the posix driver's shared staging outlives the file that
 * made it (nc_posix_shm_keep, default enable) and a later file takes it
 * over.  Windows of 1000 bytes (nc_posix_buffer_size=2000) make one call
 * over 4800 bytes 5-6 windows: under nc_posix_shm=auto such a file stages
 * by message (the shared staging starts at 8), unless it took a kept
 * staging over, which stages it in shared memory from the first round
 * (the profile's round counters tell).  Checked:
 *  - a file taking the staging over: the same hints on MPI_COMM_WORLD or
 *    a duplicate of it;
 *  - none taking it: another nc_posix_buffer_size, nc_posix_shm_keep=
 *    disable, a communicator with the ranks in another order;
 *  - stagings of a sub-communicator (at 4 ranks, two halves of two);
 *  - files open at once: each takes a kept staging of its own or makes
 *    one; at most 4 are kept (of all communicators);
 *  - every file reads back right;
 *  - the windows: once every file is closed, the library has made KEEP_MAX
 *    more than it freed, and MPI_Finalize frees them (this program's
 *    MPI_Win_allocate_shared, MPI_Win_free and MPI_Finalize count them
 *    through the MPI profiling interface; a window freed out of order
 *    would hang until the harness's timeout).
 * With one rank nothing is aggregated: only the values are checked.
 */
#define _POSIX_C_SOURCE 200809L /* unsetenv */
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "hintutil.h"

#include "have_ncpario.h"

#define NINT 1200 /* ints a file's call writes, over all ranks */
#define KEEP_MAX 4 /* stagings a process keeps at most */
#define NOPEN 5    /* files open at once */

/* Shared windows made and freed, seen through the profiling interface,
 * and those still unfreed once MPI_Finalize returned. */
static long long n_made, n_freed, n_left = -1;

int MPI_Win_allocate_shared(MPI_Aint size, int unit, MPI_Info info,
                            MPI_Comm comm, void *base, MPI_Win *win)
{
    n_made++;
    return PMPI_Win_allocate_shared(size, unit, info, comm, base, win);
}

int MPI_Win_free(MPI_Win *win)
{
    n_freed++;
    return PMPI_Win_free(win);
}

int MPI_Finalize(void)
{
    int err = PMPI_Finalize();
    n_left = n_made - n_freed;
    return err;
}

typedef struct {
    int nc, v, np, me, salt;
    char path[512];
} tfile;

static const char *main_path;
static int nfiles;

static int value_at(int salt, MPI_Offset i)
{
    return (int)(i * 7919 + salt);
}

static void file_open(tfile *t, MPI_Comm comm, const char *hints)
{
    char suffix[32];
    MPI_Info info = tu_info_of(hints);
    int dim;
    MPI_Comm_size(comm, &t->np);
    MPI_Comm_rank(comm, &t->me);
    t->salt = ++nfiles;
    /* files of a sub-communicator need names of their own */
    snprintf(suffix, sizeof suffix, "_%d_%d.nc", t->salt,
             t->np < tu_nranks ? tu_myrank % 2 : 0);
    tu_sibling(t->path, sizeof t->path, main_path, suffix);
    CHECK_ERR(ncmpi_create(comm, t->path, NC_CLOBBER, info, &t->nc));
    CHECK_ERR(ncmpi_def_dim(t->nc, "n", NINT, &dim));
    CHECK_ERR(ncmpi_def_var(t->nc, "v", NC_INT, 1, &dim, &t->v));
    CHECK_ERR(ncmpi_enddef(t->nc));
    MPI_Info_free(&info);
}

/* One collective call over the whole variable.  Returns 1 when all its
 * rounds ran in shared memory, 0 when none did, 2 when some did, -1 when
 * it ran none at all (nothing aggregated). */
static int file_write(tfile *t)
{
    MPI_Offset each = NINT / t->np, st = each * t->me, i;
    int *buf = malloc((size_t)each * sizeof(int));
    long long rounds = 0, shm = 0;
#ifdef HAVE_NCPARIO
    ncpario_profile a, b;
    CHECK_ERR(ncpario_inq_profile(t->nc, &a));
#endif
    for (i = 0; i < each; i++) buf[i] = value_at(t->salt, st + i);
    CHECK_ERR(ncmpi_put_vara_int_all(t->nc, t->v, &st, &each, buf));
#ifdef HAVE_NCPARIO
    CHECK_ERR(ncpario_inq_profile(t->nc, &b));
    rounds = b.driver_rounds_write - a.driver_rounds_write;
    shm = b.driver_shm_rounds_write - a.driver_shm_rounds_write;
#endif
    free(buf);
    if (rounds == 0) return -1;
    return shm == rounds ? 1 : shm == 0 ? 0 : 2;
}

/* Close, then read every value back through a file opened anew. */
static void file_close(tfile *t, MPI_Comm comm)
{
    int *back = malloc(NINT * sizeof(int)), bad = 0, i;
    CHECK_ERR(ncmpi_close(t->nc));
    CHECK_ERR(ncmpi_open(comm, t->path, NC_NOWRITE, MPI_INFO_NULL, &t->nc));
    CHECK_ERR(ncmpi_get_var_int_all(t->nc, t->v, back));
    for (i = 0; i < NINT / t->np * t->np; i++)
        bad += back[i] != value_at(t->salt, i);
    CHECKF(bad == 0, "%s: %d wrong values", tu_base(t->path), bad);
    CHECK_ERR(ncmpi_close(t->nc));
    MPI_Barrier(comm);
    if (t->me == 0) unlink(t->path);
    free(back);
}

/* A file's one call, with its shared-memory rounds checked: want 1 (all
 * of them) or 0 (none), where anything is aggregated. */
static void one_file(MPI_Comm comm, const char *hints, int want,
                     const char *what)
{
    tfile t;
    int shm;
    file_open(&t, comm, hints);
    shm = file_write(&t);
#ifdef HAVE_NCPARIO
    if (t.np > 1)
        CHECKF(shm == want, "%s: shared rounds %d, want %s", what, shm,
               want ? "all" : "none");
#else
    (void)shm;
    (void)want;
    (void)what;
#endif
    file_close(&t, comm);
}

#define BASE "nc_driver=posix;nc_posix_buffer_size=2000;"

/* At 4 ranks: a staging kept on each half (ranks 0 and 2, 1 and 3).
 * Returns the stagings this kept on this rank. */
static int halves(void)
{
    MPI_Comm half;
    if (tu_nranks != 4) return 0;
    MPI_Comm_split(MPI_COMM_WORLD, tu_myrank % 2, tu_myrank, &half);
    one_file(half, BASE "nc_posix_shm=enable", 1, "half, enable");
    one_file(half, BASE "nc_posix_shm=auto", 1, "half, taken over");
    MPI_Comm_free(&half);
    return 1;
}

/* Which files take the staging over, one file open at a time. */
static void one_at_a_time(void)
{
    MPI_Comm dup, reversed;
    one_file(MPI_COMM_WORLD, BASE "nc_posix_shm=auto", 0, "first file");
    one_file(MPI_COMM_WORLD, BASE "nc_posix_shm=enable", 1, "enable");
    one_file(MPI_COMM_WORLD, BASE "nc_posix_shm=auto", 1, "taken over");
    one_file(MPI_COMM_WORLD, "nc_driver=posix;nc_posix_buffer_size=4000",
             0, "another buffer size");
    one_file(MPI_COMM_WORLD, BASE "nc_posix_shm_keep=disable", 0,
             "keep disabled");
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    one_file(dup, BASE "nc_posix_shm=auto", 1, "duplicate communicator");
    MPI_Comm_free(&dup);
    MPI_Comm_split(MPI_COMM_WORLD, 0, -tu_myrank, &reversed);
    one_file(reversed, BASE "nc_posix_shm=auto", 0, "ranks reversed");
    MPI_Comm_free(&reversed);
}

/* NOPEN files open at once, written in turn; returns how many of them
 * ran all their rounds in shared memory. */
static int open_together(const char *hints)
{
    tfile t[NOPEN];
    int k, all = 0;
    for (k = 0; k < NOPEN; k++) file_open(&t[k], MPI_COMM_WORLD, hints);
    for (k = 0; k < NOPEN; k++) all += file_write(&t[k]) == 1;
    for (k = 0; k < NOPEN; k++) file_close(&t[k], MPI_COMM_WORLD);
    return all;
}

/* After every file is closed: the kept stagings' windows are the only
 * ones not freed. */
static void check_windows(int kept)
{
#ifdef HAVE_NCPARIO
    if (tu_nranks > 1)
        CHECKF(n_made > 0, "no window was counted: MPI calls bypass this "
                           "program");
    CHECKF(n_made - n_freed == kept, "%lld windows made, %lld freed, want "
           "%d left", n_made, n_freed, kept);
#else
    (void)kept;
#endif
}

int main(int argc, char **argv)
{
    int nhalf, all, rc;
    tu_init(&argc, &argv);
    main_path = tu_main_path(argc, argv);
    CHECK(main_path != NULL);
    if (!main_path) return tu_finish("t_shm_keep");
    /* this test sets its own hints; an inherited PNETCDF_HINTS would
     * override them */
    unsetenv("PNETCDF_HINTS");
    nhalf = halves();
    one_at_a_time();
    /* one file takes the kept staging, the others make their own; the
     * list keeps as many as fit */
    all = open_together(BASE "nc_posix_shm=enable");
#ifdef HAVE_NCPARIO
    if (tu_nranks > 1) CHECKF(all == NOPEN, "enable: %d of %d", all, NOPEN);
#endif
    /* so as many files as were kept stage in shared memory at once */
    all = open_together(BASE "nc_posix_shm=auto");
#ifdef HAVE_NCPARIO
    if (tu_nranks > 1)
        CHECKF(all == KEEP_MAX - nhalf, "auto: %d of %d files taken over, "
               "want %d", all, NOPEN, KEEP_MAX - nhalf);
#endif
    check_windows(tu_nranks > 1 ? KEEP_MAX : 0);
    rc = tu_finish("t_shm_keep");
    if (n_left != 0) {
        printf("FAIL t_shm_keep [rank %d]: %lld windows left after "
               "MPI_Finalize\n", tu_myrank, n_left);
        rc = 1;
    }
    return rc;
}
