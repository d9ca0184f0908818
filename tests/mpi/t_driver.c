/* ncp-test: NO_PNETCDF_CMP NO_CDL RANKS 1 2 4 */
/* t_driver -- every I/O driver setting writes the same file.  One program
 * (fixed and record variables, an uneven partition with an idle rank,
 * overlapping posts, a filled variable never written, one extent of
 * several MiB that crosses aggregator domains) runs through the
 * mpiio driver, the posix driver with one aggregator per node, with
 * several, with every rank writing for itself, and with a staging cap so
 * small that each write takes many rounds, each with the aggregators'
 * staging in shared memory (the default on one node) and by message
 * (nc_posix_shm=disable); each file must equal the mpiio
 * driver's byte for byte and read back right through its own driver.
 * Bad driver hints fail create and open with NC_EINVAL and create nothing.
 * One collective call writes a small piece per rank, the pieces about
 * 1 MiB apart: the posix driver must spend a round only on the staging
 * windows that hold a piece, not one per window of the whole span.
 * nc_posix_shm=auto stages by message until a file's aggregated writes
 * reach 8 windows, then in shared memory; enable from the first round;
 * disable never (the profile's shared-memory round counter tells).
 * Both staging paths size their windows to the call, or stage the whole
 * buffer under nc_posix_window=full (the round counters tell).
 *
 * The driver hints are ncpario's; the PnetCDF build of this test only
 * checks that the program's data round-trips.
 */
#define _POSIX_C_SOURCE 200809L /* strtok_r, unsetenv */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "testutil.h"
#include "hintutil.h"

#include "have_ncpario.h"

/* NY * NX even: a record of r needs no padding.  Padding is a gap no call
 * writes, and OMPIO's collective buffering fills such gaps with whatever
 * its buffer held (seen under ASan's 0xbe fill), so a byte comparison
 * with the mpiio driver would test OMPIO, not ncpario. */
#define NY 37
#define NX 14
#define NREC 3
/* a byte variable written whole by rank 0: one extent over several 1 MiB
 * aggregator domains and staging rounds */
#define NBIG (5 * 1048576 + 12345)

typedef struct setting {
    const char *suffix;
    const char *hints; /* "key=value;..." or NULL for none */
    MPI_Offset cap;    /* > 0: one aggregator stages the sparse call in
                          windows of this many bytes: the 48 KiB floor of
                          a call's window, since every rank writes little,
                          or less where nc_posix_buffer_size (by message)
                          or half of it (shared: two rounds in it) is
                          less */
} setting;

static const setting settings[] = {
    {"_mpiio.nc", "nc_driver=mpiio", 0},
    /* auto: big's 5 MiB call sets the shared staging up */
    {"_posix.nc", "nc_driver=posix", 49152},
    {"_posix_a2.nc", "nc_driver=posix;nc_posix_aggrs_per_node=2", 0},
    {"_posix_a3.nc", "nc_driver=posix;nc_posix_aggrs_per_node=3", 0},
    {"_posix_direct.nc", "nc_driver=posix;nc_posix_aggrs_per_node=64", 0},
    {"_posix_rounds.nc", "nc_driver=posix;nc_posix_buffer_size=1000", 500},
    {"_posix_msg.nc", "nc_driver=posix;nc_posix_shm=disable", 49152},
    {"_posix_msg_a2.nc",
     "nc_driver=posix;nc_posix_shm=disable;nc_posix_aggrs_per_node=2", 0},
    {"_posix_msg_rounds.nc",
     "nc_driver=posix;nc_posix_shm=disable;nc_posix_buffer_size=1000", 1000},
    {"_posix_shm.nc", "nc_driver=posix;nc_posix_shm=enable", 49152},
    {"_posix_shm_rounds.nc",
     "nc_driver=posix;nc_posix_shm=enable;nc_posix_buffer_size=1000", 500},
    {"_default.nc", NULL, 0},
};
#define NSETTINGS ((int)(sizeof(settings) / sizeof(settings[0])))

/* The value every variable holds at (rec, y, x). */
static int value_at(int var, int rec, int y, int x)
{
    return var * 10000 + rec * 1000 + y * NX + x;
}

/* Rows [*y0, *y0 + *ny) are this rank's; the last of several ranks has
 * none, so collective calls always include an idle rank. */
static void my_rows(MPI_Offset *y0, MPI_Offset *ny)
{
    int writers = tu_nranks > 1 ? tu_nranks - 1 : 1;
    *y0 = 0, *ny = 0;
    if (tu_myrank < writers) tu_part(NY, tu_myrank, writers, y0, ny);
}

static signed char big_at(MPI_Offset i) { return (signed char)(i * 7 % 251); }

/* Rank q's sparse piece of big: PIECE bytes at piece_at(q). */
#define PIECE 300
static MPI_Offset piece_at(int q) { return (MPI_Offset)q * 1048576 + 777 * q; }

/* Rewrite each rank's piece of big (same values, so the file does not
 * change) in one collective call; return the posix driver's rounds for
 * it. */
static long long write_pieces(int nc, int vb, const signed char *big)
{
    MPI_Offset st = piece_at(tu_myrank), ct = PIECE;
    long long before = 0;
#ifdef HAVE_NCPARIO
    ncpario_profile prof;
    CHECK_ERR(ncpario_inq_profile(nc, &prof));
    before = prof.driver_rounds_write;
#endif
    if (st + ct > NBIG) ct = 0;
    CHECK_ERR(ncmpi_put_vara_schar_all(nc, vb, &st, &ct, big + st));
#ifdef HAVE_NCPARIO
    CHECK_ERR(ncpario_inq_profile(nc, &prof));
    return prof.driver_rounds_write - before;
#else
    return 0;
#endif
}

/* The windows of cap bytes holding some rank's piece when big starts at
 * file offset begin and one aggregator serves the call: its windows are
 * counted from the 1 MiB boundary at or below the first piece. */
static long long sparse_rounds(MPI_Offset begin, MPI_Offset cap)
{
    MPI_Offset base = (begin + piece_at(0)) / 1048576 * 1048576, w, last = -1;
    long long n = 0;
    int q;
    for (q = 0; q < tu_nranks && piece_at(q) + PIECE <= NBIG; q++)
        for (w = (begin + piece_at(q) - base) / cap;
             w <= (begin + piece_at(q) + PIECE - 1 - base) / cap; w++)
            if (w != last) n++, last = w;
    return n;
}

/* set->cap > 0: check the sparse call's rounds (one aggregator, more
 * than one rank) */
static void write_file(const char *path, MPI_Info info, const setting *set)
{
    int nc, dt, dy, dx, db, dims[3], vf, vd, vr, vs, vg, vb, r, i;
    int req[2 * NREC + 1];
    long long rounds;
    signed char *big = malloc(NBIG);
    MPI_Offset y0, ny, st[3], ct[3];
    int fbuf[NY * NX];
    double dbuf[NY];
    short rbuf[NREC][NY * NX], junk[NY * NX];
    float sbuf[NREC][NX];

    my_rows(&y0, &ny);
    CHECK_ERR(ncmpi_create(MPI_COMM_WORLD, path, NC_CLOBBER, info, &nc));
    CHECK_ERR(ncmpi_set_fill(nc, NC_FILL, NULL));
    CHECK_ERR(ncmpi_def_dim(nc, "t", NC_UNLIMITED, &dt));
    CHECK_ERR(ncmpi_def_dim(nc, "y", NY, &dy));
    CHECK_ERR(ncmpi_def_dim(nc, "x", NX, &dx));
    dims[0] = dy, dims[1] = dx;
    CHECK_ERR(ncmpi_def_var(nc, "f", NC_INT, 2, dims, &vf));
    CHECK_ERR(ncmpi_def_var(nc, "d", NC_DOUBLE, 1, &dy, &vd));
    CHECK_ERR(ncmpi_def_var(nc, "gap", NC_INT, 2, dims, &vg));
    CHECK_ERR(ncmpi_def_dim(nc, "b", NBIG, &db));
    CHECK_ERR(ncmpi_def_var(nc, "big", NC_BYTE, 1, &db, &vb));
    dims[0] = dt, dims[1] = dy, dims[2] = dx;
    CHECK_ERR(ncmpi_def_var(nc, "r", NC_SHORT, 3, dims, &vr));
    dims[1] = dx;
    CHECK_ERR(ncmpi_def_var(nc, "s", NC_FLOAT, 2, dims, &vs));
    CHECK_ERR(ncmpi_enddef(nc));

    for (i = 0; i < ny * NX; i++)
        fbuf[i] = value_at(0, 0, (int)y0 + i / NX, i % NX);
    st[0] = y0, st[1] = 0, ct[0] = ny, ct[1] = NX;
    CHECK_ERR(ncmpi_put_vara_int_all(nc, vf, st, ct, fbuf));

    /* records: each rank's rows of r, and s from rank 0 only, all posted
     * before one wait; a junk post of r is overwritten by the later one */
    for (i = 0; i < ny * NX; i++) junk[i] = -1;
    st[0] = 0, st[1] = y0, st[2] = 0, ct[0] = 1, ct[1] = ny, ct[2] = NX;
    CHECK_ERR(ncmpi_iput_vara_short(nc, vr, st, ct, junk, &req[2 * NREC]));
    for (r = 0; r < NREC; r++) {
        for (i = 0; i < ny * NX; i++)
            rbuf[r][i] = (short)value_at(1, r, (int)y0 + i / NX, i % NX);
        for (i = 0; i < NX; i++) sbuf[r][i] = (float)value_at(2, r, 0, i);
        st[0] = r, st[1] = y0, ct[0] = 1, ct[1] = ny;
        CHECK_ERR(ncmpi_iput_vara_short(nc, vr, st, ct, rbuf[r], &req[2 * r]));
        st[1] = 0, ct[1] = tu_myrank == 0 ? NX : 0;
        CHECK_ERR(ncmpi_iput_vara_float(nc, vs, st, ct, sbuf[r], &req[2 * r + 1]));
    }
    CHECK_ERR(ncmpi_wait_all(nc, 2 * NREC + 1, req, NULL));

    for (i = 0; i < NY; i++) dbuf[i] = value_at(3, 0, i, 0) + 0.5;
    st[0] = 0, ct[0] = tu_myrank == 0 ? NY : 0;
    CHECK_ERR(ncmpi_put_vara_double_all(nc, vd, st, ct, dbuf));

    for (i = 0; i < NBIG; i++) big[i] = big_at(i);
    st[0] = 0, ct[0] = tu_myrank == 0 ? NBIG : 0;
    CHECK_ERR(ncmpi_put_vara_schar_all(nc, vb, st, ct, big));
    rounds = write_pieces(nc, vb, big);
#ifdef HAVE_NCPARIO
    if (set->cap > 0 && tu_nranks > 1) {
        MPI_Offset begin = 0;
        CHECK_ERR(ncmpi_inq_varoffset(nc, vb, &begin));
        CHECKF(rounds == sparse_rounds(begin, set->cap),
               "sparse call took %lld rounds, not %lld", rounds,
               sparse_rounds(begin, set->cap));
    }
#endif
    CHECK_ERR(ncmpi_close(nc));
    free(big);
}

static int varid(int nc, const char *name)
{
    int id = -1;
    CHECK_ERR(ncmpi_inq_varid(nc, name, &id));
    return id;
}

/* Every rank reads everything back through the driver of info. */
static void read_back(const char *path, MPI_Info info, const char *what)
{
    int nc, bad = 0, y, x, r, ibuf[NY * NX];
    short sbuf[NREC * NY * NX];
    float fbuf[NREC * NX];
    double dbuf[NY];
    signed char *big = malloc(NBIG);
    MPI_Offset nrec = 0, i;
    CHECK_ERR(ncmpi_open(MPI_COMM_WORLD, path, NC_NOWRITE, info, &nc));
    CHECK_ERR(ncmpi_inq_dimlen(nc, 0, &nrec));
    CHECKF(nrec == NREC, "%s: %lld records", what, (long long)nrec);
    CHECK_ERR(ncmpi_get_var_int_all(nc, varid(nc, "f"), ibuf));
    for (y = 0; y < NY; y++)
        for (x = 0; x < NX; x++) bad += ibuf[y * NX + x] != value_at(0, 0, y, x);
    CHECK_ERR(ncmpi_get_var_double_all(nc, varid(nc, "d"), dbuf));
    for (y = 0; y < NY; y++) bad += dbuf[y] != value_at(3, 0, y, 0) + 0.5;
    CHECK_ERR(ncmpi_get_var_int_all(nc, varid(nc, "gap"), ibuf));
    for (y = 0; y < NY * NX; y++) bad += ibuf[y] != NC_FILL_INT;
    CHECK_ERR(ncmpi_get_var_short_all(nc, varid(nc, "r"), sbuf));
    for (r = 0; r < NREC; r++)
        for (y = 0; y < NY * NX; y++)
            bad += sbuf[r * NY * NX + y] != (short)value_at(1, r, y / NX, y % NX);
    CHECK_ERR(ncmpi_get_var_float_all(nc, varid(nc, "s"), fbuf));
    for (r = 0; r < NREC; r++)
        for (x = 0; x < NX; x++) bad += fbuf[r * NX + x] != (float)value_at(2, r, 0, x);
    CHECK_ERR(ncmpi_get_var_schar_all(nc, varid(nc, "big"), big));
    for (i = 0; i < NBIG; i++) bad += big[i] != big_at(i);
    CHECKF(bad == 0, "%s: %d wrong values", what, bad);
    CHECK_ERR(ncmpi_close(nc));
    free(big);
}

#ifdef HAVE_NCPARIO
/* The rounds of check_coarse_granules' call by the rule (ncp_agg_plan.h,
 * promise 5).  All ranks share one node, so the shared staging's cap,
 * half of nc_posix_buffer_size, bounds every window, by message too: w is
 * 500 bytes, below the 48 KiB floor.  One aggregator's domain runs from
 * the 1 MiB boundary below the first piece to the end of the last; its
 * windows are grouped into as few granules as keep their count within
 * the bitmap's 65536 bits, and every window of a granule holding a piece
 * takes a round (the domain's last granule may hold fewer windows). */
static long long granule_rounds(MPI_Offset begin, MPI_Offset apart,
                                MPI_Offset w)
{
    MPI_Offset lo = begin / 1048576 * 1048576, q1 = tu_nranks - 1;
    MPI_Offset span = begin + apart * q1 + 777 * q1 + PIECE - lo;
    long long wpd = (span + w - 1) / w, gpd = wpd < 65536 ? wpd : 65536;
    long long wpg = (wpd + gpd - 1) / gpd, g, g1, next = 0, n = 0;
    int q;
    for (q = 0; q < tu_nranks; q++) {
        MPI_Offset o = begin + apart * q + 777 * q - lo;
        g1 = (o + PIECE - 1) / (w * wpg);
        for (g = o / (w * wpg) > next ? o / (w * wpg) : next; g <= g1; g++)
            n += wpd - g * wpg < wpg ? wpd - g * wpg : wpg;
        next = g1 + 1;
    }
    return n;
}

/* A call spanning more staging windows than the driver's occupancy bitmap
 * has bits (192 MiB in windows of 500 bytes at 4 ranks), with a piece per
 * rank 64 MiB apart and no fill: rounds run over whole granules of
 * windows then, a few per piece, never one per window of the span; the
 * pieces read back right. */
static void check_coarse_granules(const char *path)
{
    const MPI_Offset apart = (MPI_Offset)64 << 20, n = (MPI_Offset)1 << 28;
    MPI_Info info = tu_info_of("nc_driver=posix;nc_posix_buffer_size=1000");
    MPI_Offset st = apart * tu_myrank + 777 * tu_myrank, ct = PIECE, i;
    MPI_Offset begin = 0;
    long long want;
    signed char piece[PIECE], back[PIECE];
    ncpario_profile prof;
    int nc, dim, var, q, bad = 0;
    for (i = 0; i < PIECE; i++) piece[i] = big_at(st + i);
    CHECK_ERR(ncmpi_create(MPI_COMM_WORLD, path, NC_CLOBBER, info, &nc));
    CHECK_ERR(ncmpi_set_fill(nc, NC_NOFILL, NULL));
    CHECK_ERR(ncmpi_def_dim(nc, "n", n, &dim));
    CHECK_ERR(ncmpi_def_var(nc, "v", NC_BYTE, 1, &dim, &var));
    CHECK_ERR(ncmpi_enddef(nc));
    CHECK_ERR(ncmpi_inq_varoffset(nc, var, &begin));
    CHECK_ERR(ncmpi_put_vara_schar_all(nc, var, &st, &ct, piece));
    CHECK_ERR(ncpario_inq_profile(nc, &prof));
    want = granule_rounds(begin, apart, 500);
    if (tu_nranks > 1)
        CHECKF(prof.driver_rounds_write == want,
               "%d pieces took %lld rounds, not %lld", tu_nranks,
               prof.driver_rounds_write, want);
    CHECK_ERR(ncmpi_close(nc));
    CHECK_ERR(ncmpi_open(MPI_COMM_WORLD, path, NC_NOWRITE, info, &nc));
    for (q = 0; q < tu_nranks; q++) {
        st = apart * q + 777 * q;
        CHECK_ERR(ncmpi_get_vara_schar_all(nc, var, &st, &ct, back));
        for (i = 0; i < PIECE; i++) bad += back[i] != big_at(st + i);
    }
    CHECKF(bad == 0, "coarse granules: %d wrong bytes", bad);
    CHECK_ERR(ncmpi_close(nc));
    MPI_Info_free(&info);
    if (tu_myrank == 0) unlink(path);
}

/* The posix driver's (rounds, shared-memory rounds) of one collective
 * call writing n ints of v from element `at` on, split evenly over the
 * ranks. */
static void shm_call(int nc, int v, MPI_Offset at, MPI_Offset n,
                     long long *rounds, long long *shm_rounds)
{
    MPI_Offset each = n / tu_nranks, st = at + each * tu_myrank, i;
    int *buf = malloc((size_t)each * sizeof(int) + 1);
    ncpario_profile a, b;
    for (i = 0; i < each; i++) buf[i] = (int)(st + i);
    CHECK_ERR(ncpario_inq_profile(nc, &a));
    CHECK_ERR(ncmpi_put_vara_int_all(nc, v, &st, &each, buf));
    CHECK_ERR(ncpario_inq_profile(nc, &b));
    *rounds = b.driver_rounds_write - a.driver_rounds_write;
    *shm_rounds = b.driver_shm_rounds_write - a.driver_shm_rounds_write;
    free(buf);
}

/* Blocks of cap bytes, counted from the 1 MiB boundary at or below lo,
 * that file bytes [lo, hi) touch. */
static long long blocks(MPI_Offset lo, MPI_Offset hi, MPI_Offset cap)
{
    MPI_Offset base = lo / 1048576 * 1048576;
    return (hi - 1 - base) / cap - (lo - base) / cap + 1;
}

/* The short-lists call: rank r writes ints r, r + nranks, ... of v (n
 * ints from file offset vb) and its block of NW ints of w (from wb). */
#define NW 2000

/* The most extents one rank touches in file bytes [lo, hi) of the
 * short-lists call (0: none). */
static int most_touching(MPI_Offset vb, MPI_Offset n, MPI_Offset wb,
                         MPI_Offset lo, MPI_Offset hi)
{
    int r, most = 0;
    for (r = 0; r < tu_nranks; r++) {
        MPI_Offset i, o = wb + 4 * (MPI_Offset)NW * r;
        int k = o < hi && o + 4 * NW > lo;
        for (i = r; i < n; i += tu_nranks)
            k += vb + 4 * i < hi && vb + 4 * i + 4 > lo;
        if (k > most) most = k;
    }
    return most;
}

/* Rounds of the short-lists call by the rule: windows of cap bytes from
 * offset 0 that hold bytes, each a round, except where some rank
 * touches more than slot extents: those run in parts of the largest
 * size, halving cap, at which no rank touches more than slot in any. */
static long long short_lists_rounds(MPI_Offset vb, MPI_Offset n,
                                    MPI_Offset wb, MPI_Offset cap, int slot)
{
    MPI_Offset end = wb + 4 * (MPI_Offset)NW * tu_nranks, part = cap, o;
    long long rounds = 0;
    int fits = 0;
    while (!fits) {
        fits = 1;
        for (o = 0; o < end && fits; o += part)
            fits = most_touching(vb, n, wb, o, o + part) <= slot;
        if (!fits) part /= 2;
    }
    for (o = 0; o < end; o += cap) {
        int k = most_touching(vb, n, wb, o, o + cap);
        if (k > slot) rounds += (cap + part - 1) / part;
        else if (k > 0) rounds += 1;
    }
    return rounds;
}

/*
 * Shared staging whose per-rank extent lists hold 16 pairs
 * (nc_posix_buffer_size=2000, windows of 1000 bytes): one call writes
 * every nranks-th int of v, one extent apiece, and a block of NW ints a
 * rank of w.  A window where a rank touches more than 16 of v's ints runs
 * in parts (125 bytes at 2 ranks, 250 at 4), w's windows whole: the
 * rounds follow the rule (short_lists_rounds), and cutting every window
 * to the parts would take several times as many.  Every value reads
 * back.
 */
static void check_short_lists(const char *path)
{
    MPI_Info info = tu_info_of(
        "nc_driver=posix;nc_posix_buffer_size=2000;nc_posix_shm=enable");
    MPI_Offset n = 80 * (MPI_Offset)tu_nranks + 3, i, st, ct, sd, vb, wb;
    MPI_Offset wst = (MPI_Offset)NW * tu_myrank, wct = NW;
    long long want, got;
    int nc, dim[2], v, w, bad = 0, req[2], stat[2];
    int *buf = malloc((size_t)n * sizeof(int)), *wbuf = malloc(4 * NW);
    ncpario_profile a, b;
    CHECK_ERR(ncmpi_create(MPI_COMM_WORLD, path, NC_CLOBBER, info, &nc));
    CHECK_ERR(ncmpi_set_fill(nc, NC_NOFILL, NULL));
    CHECK_ERR(ncmpi_def_dim(nc, "n", n, &dim[0]));
    CHECK_ERR(ncmpi_def_dim(nc, "nw", (MPI_Offset)NW * tu_nranks, &dim[1]));
    CHECK_ERR(ncmpi_def_var(nc, "v", NC_INT, 1, &dim[0], &v));
    CHECK_ERR(ncmpi_def_var(nc, "w", NC_INT, 1, &dim[1], &w));
    CHECK_ERR(ncmpi_enddef(nc));
    CHECK_ERR(ncmpi_inq_varoffset(nc, v, &vb));
    CHECK_ERR(ncmpi_inq_varoffset(nc, w, &wb));
    want = short_lists_rounds(vb, n, wb, 1000, 16);
    st = tu_myrank, sd = tu_nranks;
    ct = (n - st + sd - 1) / sd;
    for (i = 0; i < ct; i++) buf[i] = (int)(st + i * sd) * 3 + 1;
    for (i = 0; i < NW; i++) wbuf[i] = (int)(wst + i) * 7 + 2;
    CHECK_ERR(ncpario_inq_profile(nc, &a));
    CHECK_ERR(ncmpi_iput_vars_int(nc, v, &st, &ct, &sd, buf, &req[0]));
    CHECK_ERR(ncmpi_iput_vara_int(nc, w, &wst, &wct, wbuf, &req[1]));
    CHECK_ERR(ncmpi_wait_all(nc, 2, req, stat));
    CHECK_ERR(stat[0]);
    CHECK_ERR(stat[1]);
    CHECK_ERR(ncpario_inq_profile(nc, &b));
    got = b.driver_shm_rounds_write - a.driver_shm_rounds_write;
    if (tu_nranks > 1) {
        CHECKF(got == want, "short lists: %lld shared rounds, not %lld", got,
               want);
        CHECKF(got * 3 < blocks(vb, wb + 4 * NW * tu_nranks, 1000) * 1000 /
                             (tu_nranks == 2 ? 125 : 250),
               "short lists: %lld rounds, as if every window were cut", got);
    }
    CHECK_ERR(ncmpi_close(nc));
    CHECK_ERR(ncmpi_open(MPI_COMM_WORLD, path, NC_NOWRITE, info, &nc));
    CHECK_ERR(ncmpi_get_var_int_all(nc, v, buf));
    for (i = 0; i < n; i++) bad += buf[i] != (int)i * 3 + 1;
    CHECK_ERR(ncmpi_get_vara_int_all(nc, w, &wst, &wct, wbuf));
    for (i = 0; i < NW; i++) bad += wbuf[i] != (int)(wst + i) * 7 + 2;
    CHECKF(bad == 0, "short lists: %d wrong values", bad);
    CHECK_ERR(ncmpi_close(nc));
    MPI_Info_free(&info);
    free(buf);
    free(wbuf);
    if (tu_myrank == 0) unlink(path);
}

/*
 * Both staging paths size their window to the call, one aggregator and
 * nc_posix_buffer_size=1 MiB.  Shared staging (windows up to 512 KiB,
 * two halves): ranks writing 1 MiB each get the 48 KiB floor, ranks
 * writing 8 MiB each 304 KiB, the most whole 16 KiB steps with both
 * halves within 7.5% of a rank's bytes.  By message (one window staged
 * at a time, up to 1 MiB): 64 KiB and 608 KiB, one window within 7.5%.
 * nc_posix_window=full: 512 KiB and 1 MiB whatever the call.  Seen as
 * rounds: one per window-sized block the call touches.
 */
static void check_window_sizing(const char *path, const char *shm,
                                const char *window, MPI_Offset cap_1m,
                                MPI_Offset cap_8m)
{
    char hints[160];
    MPI_Info info;
    MPI_Offset small = 262144 * (MPI_Offset)tu_nranks, big = 8 * small;
    MPI_Offset begin = 0, lo;
    long long r, sr, want;
    int nc, dim, v, shared = strcmp(shm, "enable") == 0;
    snprintf(hints, sizeof hints,
             "nc_driver=posix;nc_posix_shm=%s;nc_posix_aggrs_per_node=1;"
             "nc_posix_buffer_size=1048576;nc_posix_window=%s", shm, window);
    info = tu_info_of(hints);
    CHECK_ERR(ncmpi_create(MPI_COMM_WORLD, path, NC_CLOBBER, info, &nc));
    CHECK_ERR(ncmpi_set_fill(nc, NC_NOFILL, NULL));
    CHECK_ERR(ncmpi_def_dim(nc, "n", small + big, &dim));
    CHECK_ERR(ncmpi_def_var(nc, "v", NC_INT, 1, &dim, &v));
    CHECK_ERR(ncmpi_enddef(nc));
    CHECK_ERR(ncmpi_inq_varoffset(nc, v, &begin));
    shm_call(nc, v, 0, small, &r, &sr);
    want = blocks(begin, begin + 4 * small, cap_1m);
    if (tu_nranks > 1)
        CHECKF(r == want && sr == (shared ? r : 0),
               "%s %s, 1 MiB a rank: %lld rounds (%lld shared), not %lld",
               shm, window, r, sr, want);
    lo = begin + 4 * small;
    shm_call(nc, v, small, big, &r, &sr);
    want = blocks(lo, lo + 4 * big, cap_8m);
    if (tu_nranks > 1)
        CHECKF(r == want && sr == (shared ? r : 0),
               "%s %s, 8 MiB a rank: %lld rounds (%lld shared), not %lld",
               shm, window, r, sr, want);
    CHECK_ERR(ncmpi_close(nc));
    MPI_Info_free(&info);
    if (tu_myrank == 0) unlink(path);
}

/*
 * Windows of 1000 bytes (nc_posix_buffer_size=2000, halved for two
 * rounds; 2000 by message only): a first call over 4800 bytes (5-6
 * windows), then one over 24000 bytes (24-25).  auto: the first by message, the second, which
 * takes the file past 8 windows, all in shared memory; enable: both in
 * shared memory; disable: neither.  Every value reads back.
 */
static void check_shm_policy(const char *path, const char *mode, int want1,
                             int want2)
{
    char hints[160];
    MPI_Info info;
    MPI_Offset n1 = 1200, n2 = 6000, len = n1 + n2, i;
    long long r1, s1, r2, s2;
    int nc, dim, v, bad = 0, *back = malloc((size_t)len * sizeof(int));
    /* no staging kept from the files before (t_shm_keep tests that) */
    snprintf(hints, sizeof hints,
             "nc_driver=posix;nc_posix_buffer_size=2000;nc_posix_shm=%s;"
             "nc_posix_shm_keep=disable",
             mode);
    info = tu_info_of(hints);
    CHECK_ERR(ncmpi_create(MPI_COMM_WORLD, path, NC_CLOBBER, info, &nc));
    CHECK_ERR(ncmpi_set_fill(nc, NC_NOFILL, NULL));
    CHECK_ERR(ncmpi_def_dim(nc, "n", len, &dim));
    CHECK_ERR(ncmpi_def_var(nc, "v", NC_INT, 1, &dim, &v));
    CHECK_ERR(ncmpi_enddef(nc));
    shm_call(nc, v, 0, n1, &r1, &s1);
    shm_call(nc, v, n1, n2, &r2, &s2);
    if (tu_nranks > 1) {
        CHECKF(r1 > 0 && r2 > r1, "%s: %lld and %lld rounds", mode, r1, r2);
        CHECKF(s1 == (want1 ? r1 : 0) && s2 == (want2 ? r2 : 0),
               "%s: %lld of %lld, then %lld of %lld rounds in shared memory",
               mode, s1, r1, s2, r2);
    }
    CHECK_ERR(ncmpi_close(nc));
    CHECK_ERR(ncmpi_open(MPI_COMM_WORLD, path, NC_NOWRITE, info, &nc));
    CHECK_ERR(ncmpi_get_var_int_all(nc, v, back));
    for (i = 0; i < len; i++) bad += back[i] != (int)i;
    CHECKF(bad == 0, "%s: %d wrong values", mode, bad);
    CHECK_ERR(ncmpi_close(nc));
    MPI_Info_free(&info);
    free(back);
    if (tu_myrank == 0) unlink(path);
}

static void check_reported_driver(const char *path)
{
    int nc, flag = 0;
    char val[MPI_MAX_INFO_VAL + 1];
    MPI_Info used = MPI_INFO_NULL;
    CHECK_ERR(ncmpi_open(MPI_COMM_WORLD, path, NC_NOWRITE, MPI_INFO_NULL, &nc));
    CHECK_ERR(ncmpi_inq_file_info(nc, &used));
    if (used != MPI_INFO_NULL) {
        MPI_Info_get(used, "nc_driver", MPI_MAX_INFO_VAL, val, &flag);
        CHECKF(flag && strcmp(val, "posix") == 0, "default driver %s",
               flag ? val : "(unset)");
        MPI_Info_free(&used);
    }
    CHECK_ERR(ncmpi_close(nc));
}

#endif

int main(int argc, char **argv)
{
    char paths[NSETTINGS][1024], bad[1024];
    const char *path;
    int i;

    tu_init(&argc, &argv);
    path = tu_main_path(argc, argv);
    CHECK(path != NULL);
    if (!path) return tu_finish("t_driver");
    /* this test sets its own hints; an inherited PNETCDF_HINTS would
     * override them */
    unsetenv("PNETCDF_HINTS");
    for (i = 0; i < NSETTINGS; i++) {
        MPI_Info info = tu_info_of(settings[i].hints);
        tu_sibling(paths[i], sizeof paths[i], path, settings[i].suffix);
        write_file(paths[i], info, &settings[i]);
        read_back(paths[i], info, settings[i].suffix);
        MPI_Info_free(&info);
        if (tu_myrank == 0 && i > 0)
            CHECKF(tu_same_bytes(paths[0], paths[i]), "%s differs from %s",
                   settings[i].suffix, settings[0].suffix);
    }
#ifdef HAVE_NCPARIO
    check_reported_driver(paths[NSETTINGS - 1]);
    tu_sibling(bad, sizeof bad, path, "_coarse.nc");
    check_coarse_granules(bad);
    tu_sibling(bad, sizeof bad, path, "_sizing.nc");
    check_window_sizing(bad, "enable", "sized", 49152, 311296);
    check_window_sizing(bad, "disable", "sized", 65536, 622592);
    check_window_sizing(bad, "enable", "full", 524288, 524288);
    check_window_sizing(bad, "disable", "full", 1048576, 1048576);
    tu_sibling(bad, sizeof bad, path, "_short_lists.nc");
    check_short_lists(bad);
    tu_sibling(bad, sizeof bad, path, "_shm_policy.nc");
    check_shm_policy(bad, "auto", 0, 1);
    check_shm_policy(bad, "enable", 1, 1);
    check_shm_policy(bad, "disable", 0, 0);
    tu_sibling(bad, sizeof bad, path, "_bad.nc");
    tu_check_bad_hint(bad, paths[0], "nc_driver=posix;nc_posix_aggrs_per_node=0");
    tu_check_bad_hint(bad, paths[0], "nc_driver=posix;nc_posix_aggrs_per_node=two");
    tu_check_bad_hint(bad, paths[0], "nc_posix_buffer_size=-5");
    tu_check_bad_hint(bad, paths[0], "nc_driver=posix;nc_posix_shm=yes");
    tu_check_bad_hint(bad, paths[0], "nc_driver=posix;nc_posix_window=big");
#endif
    return tu_finish("t_driver");
}
