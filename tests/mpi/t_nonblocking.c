/* ncp-test: NO_CDL RANKS 1 2 4 */
/* t_nonblocking -- combined multi-variable I/O: iput/iget/bput + wait_all,
 * mput and varn, byte-compared with PnetCDF by the harness.
 *
 * NV record variables r<i>(t, y, x) and NV fixed variables f<i>(y, x):
 *   - record variables written column-wise (each rank a block of x) for
 *     records 0..1 and block-cyclic by record for records 2..3, all posted
 *     with iput and flushed by one wait_all;
 *   - fixed variables written block-block (y and x split) with one mput;
 *   - one wait_all mixing igets of the first wait's data with iputs;
 *   - a cancelled iput (its bytes stay unwritten), bput from a buffer that
 *     is overwritten before the wait, varn with subarrays out of file
 *     order, errors at post time (overlaps are t_overlap's).
 * Built against ncpario, it also asserts through ncpario_inq_profile that
 * each wait_all issued exactly one MPI-IO write (and one read).
 */
#include "testutil.h"

#include "have_ncpario.h"

#define NV 24
#define NY 4
#define NX 8
#define NREC 4

static int val(int v, int r, int y, int x) { return v * 100000 + r * 1000 + y * 10 + x; }

/* MPI-IO calls issued so far (write, read); -1 when not ncpario. */
static void io_calls(int nc, long long *w, long long *r)
{
#ifdef HAVE_NCPARIO
    ncpario_profile p;
    CHECK_ERR(ncpario_inq_profile(nc, &p));
    *w = p.mpiio_write_calls;
    *r = p.mpiio_read_calls;
#else
    (void)nc;
    *w = *r = -1;
#endif
}

static void expect_calls(int nc, long long w0, long long r0, int dw, int dr,
                         const char *what)
{
    long long w, r;
    io_calls(nc, &w, &r);
    if (w < 0) return; /* PnetCDF build: nothing to count */
    CHECKF(w - w0 == dw && r - r0 == dr, "%s: %lld write, %lld read calls",
           what, w - w0, r - r0);
}

/* Post every rank's share of records [0, NREC) of every record variable:
 * records 0..1 column-wise, records 2..3 one whole record per rank,
 * cyclically.  bufs hold (NREC * NY * NX) ints per variable. */
static int post_record_puts(int nc, const int *vr, int (*bufs)[NREC * NY * NX],
                            int *reqs)
{
    MPI_Offset xs, xc, st[3], ct[3];
    int v, r, y, x, n = 0;
    tu_part(NX, tu_myrank, tu_nranks, &xs, &xc);
    for (v = 0; v < NV; v++) {
        int *b = bufs[v];
        for (r = 0; r < NREC; r++) {
            int whole = r >= 2, mine = (r - 2) % tu_nranks == tu_myrank;
            int *p = b + r * NY * NX;
            if (whole && !mine) continue;
            st[0] = r, st[1] = 0, st[2] = whole ? 0 : xs;
            ct[0] = 1, ct[1] = NY, ct[2] = whole ? NX : xc;
            for (y = 0; y < NY; y++)
                for (x = 0; x < ct[2]; x++)
                    p[y * ct[2] + x] = val(v, r, y, (int)st[2] + x);
            CHECK_ERR(ncmpi_iput_vara_int(nc, vr[v], st, ct, p, &reqs[n]));
            n++;
        }
    }
    return n;
}

static void check_records(int nc, const int *vr, const char *what)
{
    static int got[NREC * NY * NX];
    MPI_Offset st[3] = {0, 0, 0}, ct[3] = {NREC, NY, NX};
    int v, r, y, x, bad = 0;
    for (v = 0; v < NV; v++) {
        CHECK_ERR(ncmpi_get_vara_int_all(nc, vr[v], st, ct, got));
        for (r = 0; r < NREC; r++)
            for (y = 0; y < NY; y++)
                for (x = 0; x < NX; x++)
                    bad += got[(r * NY + y) * NX + x] != val(v, r, y, x);
    }
    CHECKF(bad == 0, "%s: %d wrong record values", what, bad);
}

/* Fixed variables block-block: rank grid py x px over (y, x). */
static void mput_fixed(int nc, const int *vf)
{
    static int data[NV][NY * NX];
    MPI_Offset *starts[NV], *counts[NV], sv[NV][2], cv[NV][2];
    int *bufs[NV], varids[NV], dims[2] = {0, 0}, v, y, x;
    MPI_Offset ys, yc, xs, xc;
    long long w0, r0;
    MPI_Dims_create(tu_nranks, 2, dims);
    tu_part(NY, tu_myrank / dims[1], dims[0], &ys, &yc);
    tu_part(NX, tu_myrank % dims[1], dims[1], &xs, &xc);
    for (v = 0; v < NV; v++) {
        for (y = 0; y < yc; y++)
            for (x = 0; x < xc; x++)
                data[v][y * xc + x] = -val(v, 0, (int)ys + y, (int)xs + x);
        sv[v][0] = ys, sv[v][1] = xs, cv[v][0] = yc, cv[v][1] = xc;
        starts[v] = sv[v];
        counts[v] = cv[v];
        bufs[v] = data[v];
        varids[v] = vf[v];
    }
    io_calls(nc, &w0, &r0);
    CHECK_ERR(ncmpi_mput_vara_int_all(nc, NV, varids, starts, counts, bufs));
    expect_calls(nc, w0, r0, 1, 0, "mput of 24 variables");
}

/* One wait: igets of what the first wait wrote, iputs of new values into
 * the fixed variables' first row. */
static void mixed_wait(int nc, const int *vr, const int *vf)
{
    static int got[NV][NX];
    int reqs[2 * NV], sts[2 * NV], row[NX], v, x, bad = 0;
    MPI_Offset st[3] = {1, 2, 0}, ct[3] = {1, 1, NX}, fs[2] = {0, 0},
               fc[2] = {1, NX};
    long long w0, r0;
    for (x = 0; x < NX; x++) row[x] = 7000 + x;
    if (tu_myrank != 0) fc[1] = 0; /* rank 0 writes the row */
    for (v = 0; v < NV; v++) {
        CHECK_ERR(ncmpi_iget_vara_int(nc, vr[v], st, ct, got[v], &reqs[v]));
        CHECK_ERR(ncmpi_iput_vara_int(nc, vf[v], fs, fc, row, &reqs[NV + v]));
    }
    io_calls(nc, &w0, &r0);
    CHECK_ERR(ncmpi_wait_all(nc, 2 * NV, reqs, sts));
    expect_calls(nc, w0, r0, 1, 1, "wait_all with iputs and igets");
    for (v = 0; v < 2 * NV; v++) {
        CHECK(sts[v] == NC_NOERR);
        CHECK(reqs[v] == NC_REQ_NULL);
    }
    for (v = 0; v < NV; v++)
        for (x = 0; x < NX; x++) bad += got[v][x] != val(v, 1, 2, x);
    CHECKF(bad == 0, "mixed wait: %d wrong values read", bad);
}

/* A cancelled iput leaves no trace; a bad post queues nothing. */
static void cancel_and_errors(int nc, const int *vr)
{
    int junk[NX] = {0}, req = -5, nreqs = -1, st, bogus = 12345;
    MPI_Offset s[3] = {NREC, 0, 0}, c[3] = {1, 1, NX}, bad[3] = {0, NY, 0};
    CHECK_ERR(ncmpi_iput_vara_int(nc, vr[0], s, c, junk, &req));
    CHECK_ERR(ncmpi_inq_nreqs(nc, &nreqs));
    CHECK(nreqs == 1);
    CHECK_ERR(ncmpi_cancel(nc, 1, &req, &st));
    CHECK(st == NC_NOERR && req == NC_REQ_NULL);
    EXPECT_ERR(ncmpi_iput_vara_int(nc, vr[0], bad, c, junk, &req),
               NC_EINVALCOORDS);
    EXPECT_ERR(ncmpi_iput_vara_int(nc, NV * 9, s, c, junk, &req), NC_ENOTVAR);
    CHECK_ERR(ncmpi_inq_nreqs(nc, &nreqs));
    CHECK(nreqs == 0);
    EXPECT_ERR(ncmpi_wait_all(nc, 1, &bogus, &st), NC_EINVAL_REQUEST);
    CHECK(st == NC_EINVAL_REQUEST);
}

/* bput copies at post: the caller's buffer may change before the wait.
 * Rank 0 alone posts; every rank attached and waits. */
static void bput_checks(int nc, const int *vf)
{
    int buf[NX], req = NC_REQ_NULL, other, st = -1, x;
    MPI_Offset s[2] = {NY - 1, 0}, c[2] = {1, NX}, usage = -1, size = -1;
    for (x = 0; x < NX; x++) buf[x] = 5000 + x;
    EXPECT_ERR(ncmpi_bput_vara_int(nc, vf[1], s, c, buf, &req), NC_ENULLABUF);
    CHECK_ERR(ncmpi_buffer_attach(nc, NX * sizeof(int)));
    EXPECT_ERR(ncmpi_buffer_attach(nc, 64), NC_EPREVATTACHBUF);
    req = NC_REQ_NULL;
    if (tu_myrank == 0) {
        CHECK_ERR(ncmpi_bput_vara_int(nc, vf[1], s, c, buf, &req));
        for (x = 0; x < NX; x++) buf[x] = -1; /* must not reach the file */
        CHECK_ERR(ncmpi_inq_buffer_usage(nc, &usage));
        CHECK(usage == NX * (MPI_Offset)sizeof(int));
        EXPECT_ERR(ncmpi_bput_vara_int(nc, vf[2], s, c, buf, &other),
                   NC_EINSUFFBUF);
        EXPECT_ERR(ncmpi_buffer_detach(nc), NC_EPENDINGBPUT);
    }
    CHECK_ERR(ncmpi_inq_buffer_size(nc, &size));
    CHECK(size == NX * (MPI_Offset)sizeof(int));
    CHECK_ERR(ncmpi_wait_all(nc, 1, &req, &st));
    CHECK(st == NC_NOERR);
    CHECK_ERR(ncmpi_inq_buffer_usage(nc, &usage));
    CHECK(usage == 0);
    CHECK_ERR(ncmpi_buffer_detach(nc));
}

/* varn with subarrays out of file order (overlaps: t_overlap, since
 * PnetCDF does not let the later one win). */
static void varn_checks(int nc, int vn)
{
    MPI_Offset s0[2] = {2, 0}, c0[2] = {1, NX}, s1[2] = {0, 4}, c1[2] = {2, 4},
               s2[2] = {0, 0}, c2[2] = {2, 4};
    MPI_Offset *starts[3] = {s0, s1, s2}, *counts[3] = {c0, c1, c2};
    int buf[3 * NX], got[3 * NX], i, num = tu_myrank == 0 ? 3 : 0, bad = 0;
    long long w0, r0;
    for (i = 0; i < 3 * NX; i++) buf[i] = 300 + i;
    io_calls(nc, &w0, &r0);
    CHECK_ERR(ncmpi_put_varn_int_all(nc, vn, num, starts, counts, buf));
    expect_calls(nc, w0, r0, 1, 0, "put_varn");
    CHECK_ERR(tu_sync(nc));
    /* read back through varn too, in yet another order */
    {
        MPI_Offset *rs[3] = {s2, s0, s1}, *rc[3] = {c2, c0, c1};
        CHECK_ERR(ncmpi_get_varn_int_all(nc, vn, 3, rs, rc, got));
    }
    /* got: s2 block (rows 0-1, cols 0-3) = buf 16..23, then s0 = buf 0..7,
       then s1 block = buf 8..15 */
    for (i = 0; i < 8; i++) {
        bad += got[i] != 316 + i;
        bad += got[8 + i] != 300 + i;
        bad += got[16 + i] != 308 + i;
    }
    CHECKF(bad == 0, "varn read back: %d wrong values", bad);

    /* the flexible form with a noncontiguous buffer (every other int):
       rewrite the same values, then read them back the same way */
    {
        MPI_Datatype every2;
        int wide[2 * 3 * NX];
        MPI_Type_vector(3 * NX, 1, 2, MPI_INT, &every2);
        MPI_Type_commit(&every2);
        for (i = 0; i < 2 * 3 * NX; i++)
            wide[i] = i % 2 ? -1 : buf[i / 2];
        CHECK_ERR(ncmpi_put_varn_all(nc, vn, num, starts, counts, wide,
                                     num ? 1 : 0, every2));
        CHECK_ERR(tu_sync(nc));
        for (i = 0; i < 2 * 3 * NX; i++) wide[i] = -7;
        CHECK_ERR(ncmpi_get_varn_all(nc, vn, 3, starts, counts, wide, 1,
                                     every2));
        for (bad = 0, i = 0; i < 3 * NX; i++) {
            bad += wide[2 * i] != buf[i];
            bad += wide[2 * i + 1] != -7;
        }
        CHECKF(bad == 0, "flexible varn: %d wrong values", bad);
        MPI_Type_free(&every2);
    }
}

static void scenario(const char *path, int cmode)
{
    static int bufs[NV][NREC * NY * NX];
    int nc, dt, dy, dx, dims[3], vr[NV], vf[NV], vn, v, n, i;
    int reqs[NV * NREC], sts[NV * NREC];
    long long w0, r0;
    char name[16];
    CHECK_ERR(ncmpi_create(MPI_COMM_WORLD, path, NC_CLOBBER | cmode,
                           MPI_INFO_NULL, &nc));
    CHECK_ERR(ncmpi_def_dim(nc, "t", NC_UNLIMITED, &dt));
    CHECK_ERR(ncmpi_def_dim(nc, "y", NY, &dy));
    CHECK_ERR(ncmpi_def_dim(nc, "x", NX, &dx));
    dims[0] = dt, dims[1] = dy, dims[2] = dx;
    for (v = 0; v < NV; v++) {
        snprintf(name, sizeof name, "r%d", v);
        CHECK_ERR(ncmpi_def_var(nc, name, NC_INT, 3, dims, &vr[v]));
        snprintf(name, sizeof name, "f%d", v);
        CHECK_ERR(ncmpi_def_var(nc, name, NC_INT, 2, dims + 1, &vf[v]));
    }
    {
        int nd[2];
        CHECK_ERR(ncmpi_def_dim(nc, "three", 3, &nd[0]));
        nd[1] = dx;
        CHECK_ERR(ncmpi_def_var(nc, "n", NC_INT, 2, nd, &vn));
    }
    CHECK_ERR(ncmpi_enddef(nc));

    n = post_record_puts(nc, vr, bufs, reqs);
    io_calls(nc, &w0, &r0);
    CHECK_ERR(ncmpi_wait_all(nc, n, reqs, sts));
    expect_calls(nc, w0, r0, 1, 0, "wait_all of record iputs");
    for (i = 0; i < n; i++) CHECK(sts[i] == NC_NOERR);
    mput_fixed(nc, vf);
    CHECK_ERR(tu_sync(nc));
    check_records(nc, vr, "after wait_all");
    mixed_wait(nc, vr, vf);
    cancel_and_errors(nc, vr);
    bput_checks(nc, vf);
    varn_checks(nc, vn);
    {
        MPI_Offset nrecs = -1;
        CHECK_ERR(ncmpi_inq_dimlen(nc, dt, &nrecs));
        CHECK(nrecs == NREC);
    }
    CHECK_ERR(ncmpi_close(nc));
}

int main(int argc, char **argv)
{
    char p5[4096];
    const char *path;
    tu_init(&argc, &argv);
    path = tu_main_path(argc, argv);
    CHECK(path != NULL);
    if (!path) return tu_finish("t_nonblocking");
    scenario(path, 0);
    tu_sibling(p5, sizeof p5, path, "_cdf5.nc");
    scenario(p5, NC_64BIT_DATA);
    return tu_finish("t_nonblocking");
}
