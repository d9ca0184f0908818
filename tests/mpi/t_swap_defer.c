/* ncp-test: NO_PNETCDF_CMP NO_CDL RANKS 1 2 4 */
/* t_swap_defer -- puts that need only a byte swap, written by the posix
 * driver wherever it copies them anyway and so swaps while copying: in a
 * collective write on one node, into the aggregators' shared staging
 * (nc_posix_shm=enable), with the default cap, with a cap of 4100 bytes
 * (many rounds, elements cut at every phase, both halves reused) and with
 * two aggregators; by message before the shared staging is due
 * (nc_posix_shm=auto and windows of 2 MiB: this write is under 8 of
 * them), every rank into the bytes it packs for the aggregators; and by
 * message alone (nc_posix_shm=disable) on the aggregators only, into
 * their own staging and into the packed bytes for the other aggregator.
 * Where each rank writes its own bytes (independent data mode, or
 * collective with an aggregator per rank) nothing is copied, and the
 * caller's buffer is swapped in place and back.  So:
 *   - the caller's buffers are never written where the swap is deferred:
 *     they sit in read-only pages during the posts and the wait (a write
 *     would kill the test); with nc_posix_shm=disable the other ranks
 *     swap in place, so only the aggregators' pages are read-only;
 *   - wherever they were swapped in place, they hold their values again
 *     after the wait;
 *   - the file equals the mpiio driver's byte for byte, in CDF-1 and
 *     CDF-5, although rank 0's extent of b follows a 12-byte int
 *     variable in the file and in the same write, and overlapping posts
 *     to e mix swapped buffers with a converted one (the later post
 *     wins);
 *   - every value reads back.
 */
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS, strtok_r, unlink, unsetenv */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "testutil.h"
#include "hintutil.h"

#include "have_ncpario.h"

/* doubles per rank: 1.6 MB, more than one shared-staging window */
#define NPER 200003
/* shorts per rank: 12 bytes, so no padding follows c; padding is a gap
 * no call writes, which OMPIO may fill with stale bytes (see t_driver) */
#define NC3 6
#define NE 30 /* doubles per rank of e, the variable of the overlaps: */
#define OVER_A 10 /* double e[OVER_A, OVER_A + 10) posted after e, */
#define OVER_B 15 /* then float e[OVER_B, OVER_B + 10) */

/* The caller's memory of one run: every buffer in one mapping, so it can
 * be made read-only as a whole. */
typedef struct bufs {
    void *map;
    size_t size;
    int *a;         /* 3 ints */
    double *b;      /* NPER */
    short *c;       /* NC3 */
    double *e;      /* NE */
    double *over_d; /* 10 */
    float *over_f;  /* 10 */
} bufs;

static double b_val(MPI_Offset i) { return (double)i * 1.5 + 0.0625; }

/* Carve the buffers out of one mapping, 16-byte aligned, and fill them.
 * Without the mapping the run cannot go on (nor stay collective). */
static void bufs_make(bufs *m)
{
    size_t off = 0, i;
    char *p;
    m->size = 16 + NPER * 8 + 16 + (NE + 10) * 8 + 10 * 4;
    m->map = mmap(NULL, m->size, PROT_READ | PROT_WRITE,
                  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m->map == MAP_FAILED) {
        fprintf(stderr, "t_swap_defer: mmap of %zu bytes failed\n", m->size);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    p = m->map;
    m->a = (int *)p, off = 16;
    m->b = (double *)(p + off), off += NPER * 8;
    m->c = (short *)(p + off), off += 16;
    m->e = (double *)(p + off), off += NE * 8;
    m->over_d = (double *)(p + off), off += 10 * 8;
    m->over_f = (float *)(p + off);
    for (i = 0; i < 3; i++) m->a[i] = 0x01020304 * (int)(i + 1);
    for (i = 0; i < NPER; i++)
        m->b[i] = b_val((MPI_Offset)tu_myrank * NPER + (MPI_Offset)i);
    for (i = 0; i < NC3; i++) m->c[i] = (short)(tu_myrank * 1000 + 7 * i + 1);
    for (i = 0; i < NE; i++) m->e[i] = b_val((MPI_Offset)i) + tu_myrank;
    for (i = 0; i < 10; i++) m->over_d[i] = -1.0 - (double)i;
    for (i = 0; i < 10; i++) m->over_f[i] = 0.5f + (float)i;
}

/* What this rank's e[l] holds after the overlapping posts. */
static double e_expected(int l)
{
    if (l >= OVER_B && l < OVER_B + 10) return 0.5 + (double)(l - OVER_B);
    if (l >= OVER_A && l < OVER_A + 10) return -1.0 - (double)(l - OVER_A);
    return b_val(l) + tu_myrank;
}

/* Post every put of this rank; collective: one wait_all, else one wait. */
static void write_all(int nc, const int *v, const bufs *m, int collective)
{
    MPI_Offset s, n, bs = (MPI_Offset)tu_myrank * NPER;
    MPI_Offset es = (MPI_Offset)tu_myrank * NE;
    int req[6], st[6], nreq = 0, k;
    s = 0, n = tu_myrank == 0 ? 3 : 0;
    CHECK_ERR(ncmpi_iput_vara_int(nc, v[0], &s, &n, m->a, &req[nreq++]));
    n = NPER;
    CHECK_ERR(ncmpi_iput_vara_double(nc, v[1], &bs, &n, m->b, &req[nreq++]));
    s = (MPI_Offset)tu_myrank * NC3, n = NC3;
    CHECK_ERR(ncmpi_iput_vara_short(nc, v[2], &s, &n, m->c, &req[nreq++]));
    n = NE;
    CHECK_ERR(ncmpi_iput_vara_double(nc, v[3], &es, &n, m->e, &req[nreq++]));
    s = es + OVER_A, n = 10;
    CHECK_ERR(ncmpi_iput_vara_double(nc, v[3], &s, &n, m->over_d,
                                     &req[nreq++]));
    s = es + OVER_B;
    CHECK_ERR(ncmpi_iput_vara_float(nc, v[3], &s, &n, m->over_f,
                                    &req[nreq++]));
    if (collective) CHECK_ERR(ncmpi_wait_all(nc, nreq, req, st));
    else CHECK_ERR(ncmpi_wait(nc, nreq, req, st));
    for (k = 0; k < nreq; k++) CHECKF(st[k] == NC_NOERR, "status %d", st[k]);
}

/* One file: collective or independent writes under hints; the buffers
 * are read-only while the library has them when protect is set. */
static void run(const char *path, int cmode, const char *hints,
                int collective, int protect)
{
    MPI_Info info = tu_info_of(hints);
    int nc, d[4], v[4];
    bufs m, fresh;
    bufs_make(&m);
    CHECK_ERR(ncmpi_create(MPI_COMM_WORLD, path, cmode, info, &nc));
    MPI_Info_free(&info);
    CHECK_ERR(ncmpi_def_dim(nc, "three", 3, &d[0]));
    CHECK_ERR(ncmpi_def_dim(nc, "n", (MPI_Offset)tu_nranks * NPER, &d[1]));
    CHECK_ERR(ncmpi_def_dim(nc, "m", (MPI_Offset)tu_nranks * NC3, &d[2]));
    CHECK_ERR(ncmpi_def_dim(nc, "k", (MPI_Offset)tu_nranks * NE, &d[3]));
    CHECK_ERR(ncmpi_def_var(nc, "a", NC_INT, 1, &d[0], &v[0]));
    CHECK_ERR(ncmpi_def_var(nc, "b", NC_DOUBLE, 1, &d[1], &v[1]));
    CHECK_ERR(ncmpi_def_var(nc, "c", NC_SHORT, 1, &d[2], &v[2]));
    CHECK_ERR(ncmpi_def_var(nc, "e", NC_DOUBLE, 1, &d[3], &v[3]));
    CHECK_ERR(ncmpi_enddef(nc));
    if (protect) CHECK(mprotect(m.map, m.size, PROT_READ) == 0);
    if (!collective) CHECK_ERR(ncmpi_begin_indep_data(nc));
    write_all(nc, v, &m, collective);
    if (!collective) CHECK_ERR(ncmpi_end_indep_data(nc));
    CHECK(mprotect(m.map, m.size, PROT_READ | PROT_WRITE) == 0);
    CHECK_ERR(ncmpi_close(nc));
    bufs_make(&fresh);
    CHECKF(memcmp(m.map, fresh.map, m.size) == 0,
           "%s: the caller's buffers changed", hints);
    munmap(fresh.map, fresh.size);
    munmap(m.map, m.size);
}

/* Every value of path, read through the default driver. */
static void check_values(const char *path)
{
    int nc, a[3], ok = 1, i;
    short c[NC3];
    double e[NE];
    double *b = malloc(NPER * sizeof(double));
    MPI_Offset s = (MPI_Offset)tu_myrank * NPER, n = NPER;
    CHECK_ERR(ncmpi_open(MPI_COMM_WORLD, path, NC_NOWRITE, MPI_INFO_NULL,
                         &nc));
    CHECK_ERR(ncmpi_get_var_int_all(nc, 0, a));
    for (i = 0; i < 3; i++) ok &= a[i] == 0x01020304 * (i + 1);
    CHECK_ERR(ncmpi_get_vara_double_all(nc, 1, &s, &n, b));
    for (i = 0; i < NPER; i++) ok &= b[i] == b_val(s + i);
    s = (MPI_Offset)tu_myrank * NC3, n = NC3;
    CHECK_ERR(ncmpi_get_vara_short_all(nc, 2, &s, &n, c));
    for (i = 0; i < NC3; i++) ok &= c[i] == tu_myrank * 1000 + 7 * i + 1;
    s = (MPI_Offset)tu_myrank * NE, n = NE;
    CHECK_ERR(ncmpi_get_vara_double_all(nc, 3, &s, &n, e));
    for (i = 0; i < NE; i++) ok &= e[i] == e_expected(i);
    CHECKF(ok, "%s: values read back", path);
    CHECK_ERR(ncmpi_close(nc));
    free(b);
}

/* Collective writes aggregated on one node (at one rank, and for the
 * ranks the hints make aggregators, each writes its own bytes);
 * protect_below: the ranks whose buffers stay read-only. */
/* naggr: aggregators the hints give on one node; with no more ranks
 * than that, every rank writes its own bytes, swapped in place. */
static const struct {
    const char *suffix, *hints;
    int naggr, protect_below;
} agged[] = {
    {"shm", "nc_driver=posix;nc_in_place_swap=enable;nc_posix_shm=enable",
     1, 1 << 30},
    {"shm_small",
     "nc_driver=posix;nc_in_place_swap=enable;nc_posix_shm=enable;"
     "nc_posix_buffer_size=4100",
     1, 1 << 30},
    {"shm_a2",
     "nc_driver=posix;nc_in_place_swap=enable;nc_posix_shm=enable;"
     "nc_posix_aggrs_per_node=2",
     2, 1 << 30},
    {"auto",
     "nc_driver=posix;nc_in_place_swap=enable;nc_posix_buffer_size=4194304",
     1, 1 << 30},
    {"msg", "nc_driver=posix;nc_in_place_swap=enable;nc_posix_shm=disable",
     1, 1},
    {"msg_a2",
     "nc_driver=posix;nc_in_place_swap=enable;nc_posix_shm=disable;"
     "nc_posix_aggrs_per_node=2",
     2, 2},
};
#define NAGGED ((int)(sizeof(agged) / sizeof(agged[0])))

int main(int argc, char **argv)
{
    static const struct {
        const char *suffix;
        int cmode;
    } formats[] = {{"_cdf1", NC_CLOBBER}, {"_cdf5", NC_CLOBBER | NC_64BIT_DATA}};
    const char *path;
    char ref[512], out[512], sfx[64];
    int f, k, protect = 0;

    tu_init(&argc, &argv);
    path = tu_main_path(argc, argv);
    CHECK(path != NULL);
    if (!path) return tu_finish("t_swap_defer");
#ifdef HAVE_NCPARIO
    protect = 1;
#endif
    /* this test sets its own drivers; an inherited PNETCDF_HINTS (the
     * mpiio passes of the test suite) would override them */
    unsetenv("PNETCDF_HINTS");
    for (f = 0; f < 2; f++) {
        snprintf(sfx, sizeof sfx, "%s_mpiio.nc", formats[f].suffix);
        tu_sibling(ref, sizeof ref, path, sfx);
        run(ref, formats[f].cmode, "nc_driver=mpiio", 1, 0);
        check_values(ref);

        snprintf(sfx, sizeof sfx, "%s_direct.nc", formats[f].suffix);
        tu_sibling(out, sizeof out, path, sfx);
        run(out, formats[f].cmode,
            "nc_driver=posix;nc_posix_aggrs_per_node=64;"
            "nc_in_place_swap=enable", 1, 0);
        if (tu_myrank == 0)
            CHECKF(tu_same_bytes(ref, out), "%s equals %s", out, ref);
        check_values(out);

        for (k = 0; k < NAGGED; k++) {
            snprintf(sfx, sizeof sfx, "%s_%s.nc", formats[f].suffix,
                     agged[k].suffix);
            tu_sibling(out, sizeof out, path, sfx);
            run(out, formats[f].cmode, agged[k].hints, 1,
                protect && tu_nranks > agged[k].naggr &&
                    tu_myrank < agged[k].protect_below);
            if (tu_myrank == 0)
                CHECKF(tu_same_bytes(ref, out), "%s equals %s", out, ref);
            check_values(out);
        }

        snprintf(sfx, sizeof sfx, "%s_indep.nc", formats[f].suffix);
        tu_sibling(out, sizeof out, path, sfx);
        run(out, formats[f].cmode, "nc_driver=posix;nc_in_place_swap=enable",
            0, 0);
        if (tu_myrank == 0)
            CHECKF(tu_same_bytes(ref, out), "%s equals %s", out, ref);
        check_values(out);
    }
    return tu_finish("t_swap_defer");
}
