/* ncp-test: NO_PNETCDF_CMP NO_CDL RANKS 1 2 4 */
/* t_swap_alias -- puts and gets of one flush whose buffers share memory,
 * where the library byte-swaps the caller's buffer in place: every
 * element must be swapped once, not once per request.
 *   - mput: one buffer written to two variables (a, b);
 *   - iput + wait_all: two requests over overlapping halves of a buffer
 *     (c from its first N ints, d from N ints half-way in);
 *   - iput + wait_all: the same memory as N ints (f) and as 2N shorts
 *     (e), which cannot be swapped as one region;
 *   - iget + wait_all: two requests into the same buffer, two into
 *     overlapping halves of one, and two of different values into one
 *     (the later request's values must be there, as with sequential
 *     calls).
 * Each setting puts the swap in another place: the mpiio driver with
 * nc_in_place_swap enable and auto (buffers of 80 KB, above the auto
 * threshold) and disable (no in-place swap: the reference file); posix
 * by message (non-aggregators swap in place); I/O groups; posix with the
 * swap deferred to the driver: into the staging of an aggregated write
 * (at 2 and 4 ranks), or, where each rank writes its own bytes (1 rank,
 * and an aggregator per rank), in place chunk by chunk around its
 * pwritev, where a chunk whose pieces share memory goes piece by piece.
 * The caller's buffers come back unchanged, every value reads back
 * through a buffer of its own, the shared-buffer gets run under the
 * setting that wrote the file, and every file equals the reference byte
 * for byte.
 */
#define _DEFAULT_SOURCE /* unsetenv */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "testutil.h"
#include "hintutil.h"

#define N 20000 /* ints per rank and variable: 80 KB */

enum { VA, VB, VC, VD, VE, VF, NV };

static const char *const names[NV] = {"a", "b", "c", "d", "e", "f"};

static int one_val(int i) { return 0x01020304 + i * 7 + tu_myrank * 1000003; }
static int two_val(int i) { return -0x0a0b0c0d - i * 13 - tu_myrank * 99991; }
static int three_val(int i) { return 0x11223344 ^ (i * 2654435761u) ^ tu_myrank; }

typedef struct user_bufs {
    int one[N];           /* a and b */
    int two[N + N / 2];   /* c = two[0, N), d = two[N/2, 3N/2) */
    int three[N];         /* f, and e as 2N shorts */
} user_bufs;

static void fill(user_bufs *u)
{
    for (int i = 0; i < N; i++) u->one[i] = one_val(i);
    for (int i = 0; i < N + N / 2; i++) u->two[i] = two_val(i);
    for (int i = 0; i < N; i++) u->three[i] = three_val(i);
}

static int unchanged(const user_bufs *u)
{
    user_bufs want;
    fill(&want);
    return memcmp(u, &want, sizeof want) == 0;
}

static void define(int nc, int *v)
{
    int dn, d2n;
    CHECK_ERR(ncmpi_def_dim(nc, "n", (MPI_Offset)N * tu_nranks, &dn));
    CHECK_ERR(ncmpi_def_dim(nc, "n2", (MPI_Offset)2 * N * tu_nranks, &d2n));
    for (int k = 0; k < NV; k++)
        CHECK_ERR(ncmpi_def_var(nc, names[k], k == VE ? NC_SHORT : NC_INT, 1,
                                k == VE ? &d2n : &dn, &v[k]));
    CHECK_ERR(ncmpi_enddef(nc));
}

static void write_all(int nc, const int *v, user_bufs *u)
{
    MPI_Offset st = (MPI_Offset)tu_myrank * N, ct = N;
    MPI_Offset st2 = 2 * st, ct2 = 2 * ct;
    MPI_Offset *sts[2] = {&st, &st}, *cts[2] = {&ct, &ct};
    int ab[2] = {v[VA], v[VB]}, req[4], stat[4];
    int *bufs[2] = {u->one, u->one};
    CHECK_ERR(ncmpi_mput_vara_int_all(nc, 2, ab, sts, cts, bufs));
    CHECK_ERR(ncmpi_iput_vara_int(nc, v[VC], &st, &ct, u->two, &req[0]));
    CHECK_ERR(ncmpi_iput_vara_int(nc, v[VD], &st, &ct, u->two + N / 2,
                                  &req[1]));
    CHECK_ERR(ncmpi_iput_vara_short(nc, v[VE], &st2, &ct2,
                                    (short *)u->three, &req[2]));
    CHECK_ERR(ncmpi_iput_vara_int(nc, v[VF], &st, &ct, u->three, &req[3]));
    CHECK_ERR(ncmpi_wait_all(nc, 4, req, stat));
    for (int k = 0; k < 4; k++) CHECK_ERR(stat[k]);
}

/* The gets into shared buffers: a and b into one, c and d into
 * overlapping halves of another, then a and c into a third, where c, the
 * later request, wins. */
static void read_aliased(int nc, const int *v, const char *hints)
{
    static int same[N], halves[N + N / 2], later[N];
    MPI_Offset st = (MPI_Offset)tu_myrank * N, ct = N;
    int req[6], stat[6], bad = 0, lost = 0;
    CHECK_ERR(ncmpi_iget_vara_int(nc, v[VA], &st, &ct, same, &req[0]));
    CHECK_ERR(ncmpi_iget_vara_int(nc, v[VB], &st, &ct, same, &req[1]));
    CHECK_ERR(ncmpi_iget_vara_int(nc, v[VC], &st, &ct, halves, &req[2]));
    CHECK_ERR(ncmpi_iget_vara_int(nc, v[VD], &st, &ct, halves + N / 2,
                                  &req[3]));
    CHECK_ERR(ncmpi_iget_vara_int(nc, v[VA], &st, &ct, later, &req[4]));
    CHECK_ERR(ncmpi_iget_vara_int(nc, v[VC], &st, &ct, later, &req[5]));
    CHECK_ERR(ncmpi_wait_all(nc, 6, req, stat));
    for (int k = 0; k < 6; k++) CHECK_ERR(stat[k]);
    for (int i = 0; i < N; i++) bad += same[i] != one_val(i);
    for (int i = 0; i < N + N / 2; i++) bad += halves[i] != two_val(i);
    for (int i = 0; i < N; i++) lost += later[i] != two_val(i);
    CHECKF(bad == 0, "%s: %d wrong values in the shared get buffers", hints,
           bad);
    CHECKF(lost == 0, "%s: %d values not the later request's", hints, lost);
}

/* Every variable through a buffer of its own, against the caller's
 * values; then the shared-buffer gets, under the same hints. */
static void check_values(const char *path, const char *hints)
{
    MPI_Info info = tu_info_of(hints);
    static int got[N];
    static short got_s[2 * N];
    user_bufs *want = malloc(sizeof *want);
    MPI_Offset st = (MPI_Offset)tu_myrank * N, ct = N;
    MPI_Offset st2 = 2 * st, ct2 = 2 * ct;
    const int *src[NV];
    int nc, v[NV], bad[NV] = {0};
    fill(want);
    src[VA] = src[VB] = want->one;
    src[VC] = want->two;
    src[VD] = want->two + N / 2;
    src[VF] = want->three;
    CHECK_ERR(ncmpi_open(MPI_COMM_WORLD, path, NC_NOWRITE, info, &nc));
    for (int k = 0; k < NV; k++) CHECK_ERR(ncmpi_inq_varid(nc, names[k], &v[k]));
    for (int k = 0; k < NV; k++) {
        if (k == VE) {
            CHECK_ERR(ncmpi_get_vara_short_all(nc, v[k], &st2, &ct2, got_s));
            bad[k] = memcmp(got_s, want->three, sizeof got_s) != 0;
            continue;
        }
        CHECK_ERR(ncmpi_get_vara_int_all(nc, v[k], &st, &ct, got));
        for (int i = 0; i < N; i++) bad[k] += got[i] != src[k][i];
    }
    for (int k = 0; k < NV; k++)
        CHECKF(bad[k] == 0, "%s: variable %s has %d wrong values", path,
               names[k], bad[k]);
    read_aliased(nc, v, hints);
    CHECK_ERR(ncmpi_close(nc));
    MPI_Info_free(&info);
    free(want);
}

static void run(const char *path, const char *hints)
{
    MPI_Info info = tu_info_of(hints);
    user_bufs *u = malloc(sizeof *u);
    int nc, v[NV];
    fill(u);
    CHECK_ERR(ncmpi_create(MPI_COMM_WORLD, path, NC_CLOBBER, info, &nc));
    define(nc, v);
    write_all(nc, v, u);
    CHECKF(unchanged(u), "%s: the caller's buffers changed", hints);
    CHECK_ERR(ncmpi_close(nc));
    MPI_Info_free(&info);
    free(u);
}

static const struct {
    const char *suffix, *hints;
} settings[] = {
    {"mpiio_enable", "nc_driver=mpiio;nc_in_place_swap=enable"},
    {"mpiio_auto", "nc_driver=mpiio;nc_in_place_swap=auto"},
    {"posix_msg",
     "nc_driver=posix;nc_posix_shm=disable;nc_in_place_swap=enable"},
    {"groups", "nc_io_group_size=2;nc_in_place_swap=enable"},
    {"posix", "nc_driver=posix;nc_in_place_swap=enable"},
    {"posix_direct",
     "nc_driver=posix;nc_posix_aggrs_per_node=64;nc_in_place_swap=enable"},
};
#define NSETTINGS ((int)(sizeof(settings) / sizeof(settings[0])))

int main(int argc, char **argv)
{
    const char *path;
    char ref[512], out[512], sfx[64];
    tu_init(&argc, &argv);
    path = tu_main_path(argc, argv);
    CHECK(path != NULL);
    if (!path) return tu_finish("t_swap_alias");
    /* the settings name their drivers; the suite's PNETCDF_HINTS (its
     * mpiio passes) would override them */
    unsetenv("PNETCDF_HINTS");
    tu_sibling(ref, sizeof ref, path, "_ref.nc");
    run(ref, "nc_driver=mpiio;nc_in_place_swap=disable");
    check_values(ref, "nc_driver=mpiio;nc_in_place_swap=disable");
    for (int s = 0; s < NSETTINGS; s++) {
        snprintf(sfx, sizeof sfx, "_%s.nc", settings[s].suffix);
        tu_sibling(out, sizeof out, path, sfx);
        run(out, settings[s].hints);
        check_values(out, settings[s].hints);
        if (tu_myrank == 0)
            CHECKF(tu_same_bytes(ref, out), "%s equals %s", out, ref);
        MPI_Barrier(MPI_COMM_WORLD);
        if (tu_myrank == 0) unlink(out);
    }
    if (tu_myrank == 0) unlink(ref);
    return tu_finish("t_swap_alias");
}
