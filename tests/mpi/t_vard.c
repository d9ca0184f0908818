/* ncp-test: RANKS 1 2 4 */
/* t_vard -- ncmpi_{put,get}_vard[_all]: the file layout of a request given
 * by an MPI datatype (the filetype) relative to the variable's begin.
 *
 * Each rank writes its block of a 2-D decomposition through a subarray
 * filetype; a record variable takes three records in one call through an
 * hvector of that subarray, recsize bytes apart (and numrecs follows the
 * last record touched); a vector filetype interleaves the ranks along one
 * dimension in independent mode, from a noncontiguous buffer of another
 * type.  Buffers of other types are converted (double and int to float,
 * int to short with NC_ERANGE).  Everything is read back, collective and
 * independent, into buffers with sentinels.  The error cases are those
 * whose code PnetCDF 1.12.3 gives the same way on every MPI-IO component.
 */
#include "have_ncpario.h"
#include "testutil.h"

#define NY 6
#define NX 8
#define NREC 3
#define NV 12
#define SENT -7777

static int fval(int y, int x) { return 100 * y + x; }
static double rval(int r, int y, int x) { return r * 1000 + y * 10 + x + 0.5; }

typedef struct block {
    MPI_Offset ys, yc, xs, xc;
} block;

/* This rank's block of the NY x NX plane on a 2-D process grid. */
static block my_block(void)
{
    int dims[2] = {0, 0};
    block b;
    MPI_Dims_create(tu_nranks, 2, dims);
    tu_part(NY, tu_myrank / dims[1], dims[0], &b.ys, &b.yc);
    tu_part(NX, tu_myrank % dims[1], dims[1], &b.xs, &b.xc);
    return b;
}

static MPI_Datatype plane_block(const block *b, MPI_Datatype elem)
{
    int sz[2] = {NY, NX}, sub[2] = {(int)b->yc, (int)b->xc},
        st[2] = {(int)b->ys, (int)b->xs};
    MPI_Datatype t;
    MPI_Type_create_subarray(2, sz, sub, st, MPI_ORDER_C, elem, &t);
    MPI_Type_commit(&t);
    return t;
}

/* The block in every one of NREC records, recsize bytes apart. */
static MPI_Datatype record_blocks(const block *b, MPI_Offset recsize)
{
    MPI_Datatype one = plane_block(b, MPI_FLOAT), t;
    MPI_Type_create_hvector(NREC, 1, (MPI_Aint)recsize, one, &t);
    MPI_Type_commit(&t);
    MPI_Type_free(&one);
    return t;
}

/* Elements rank, rank + nranks, ... of a 1-D variable of NV. */
static MPI_Datatype interleave(MPI_Datatype elem, int *n)
{
    MPI_Datatype vec, t;
    int size, bl = 1;
    MPI_Aint d;
    *n = (NV - tu_myrank + tu_nranks - 1) / tu_nranks;
    MPI_Type_size(elem, &size);
    d = (MPI_Aint)tu_myrank * size;
    MPI_Type_vector(*n, 1, tu_nranks, elem, &vec);
    MPI_Type_create_hindexed(1, &bl, &d, vec, &t);
    MPI_Type_commit(&t);
    MPI_Type_free(&vec);
    return t;
}

static void put_all(int nc, int vf, int vr, int vs, MPI_Offset recsize)
{
    block b = my_block();
    MPI_Datatype ft = plane_block(&b, MPI_INT), rt = record_blocks(&b, recsize);
    MPI_Datatype st, bt;
    int buf[NY * NX], sbuf[2 * NV], n, y, x, r, k = 0;
    double dbuf[NREC * NY * NX];
    MPI_Offset nrec = -1;
    int dim;

    for (y = 0; y < b.yc; y++)
        for (x = 0; x < b.xc; x++)
            buf[k++] = fval((int)b.ys + y, (int)b.xs + x);
    CHECK_ERR(ncmpi_put_vard_all(nc, vf, ft, buf, k, MPI_INT));

    k = 0; /* double buffer into a float variable: converted */
    for (r = 0; r < NREC; r++)
        for (y = 0; y < b.yc; y++)
            for (x = 0; x < b.xc; x++)
                dbuf[k++] = rval(r, (int)b.ys + y, (int)b.xs + x);
    CHECK_ERR(ncmpi_put_vard_all(nc, vr, rt, dbuf, k, MPI_DOUBLE));
    CHECK_ERR(ncmpi_inq_dimid(nc, "t", &dim));
    CHECK_ERR(ncmpi_inq_dimlen(nc, dim, &nrec));
    CHECKF(nrec == NREC, "numrecs after the record put: %lld", (long long)nrec);

    /* Independent: an int buffer, every other element, into shorts. */
    st = interleave(MPI_SHORT, &n);
    MPI_Type_vector(n, 1, 2, MPI_INT, &bt);
    MPI_Type_commit(&bt);
    for (k = 0; k < 2 * NV; k++)
        sbuf[k] = k % 2 ? SENT : 10 + tu_myrank + k / 2 * tu_nranks;
    CHECK_ERR(ncmpi_begin_indep_data(nc));
    CHECK_ERR(ncmpi_put_vard(nc, vs, st, sbuf, 1, bt));
    CHECK_ERR(ncmpi_end_indep_data(nc));
    MPI_Type_free(&bt);
    MPI_Type_free(&st);
    MPI_Type_free(&ft);
    MPI_Type_free(&rt);
}

static void get_fixed(int nc, int vf, int coll)
{
    block b = my_block();
    int gy = (int)b.yc + 2, gx = (int)b.xc + 2;
    int sz[2] = {gy, gx}, sub[2] = {(int)b.yc, (int)b.xc}, st[2] = {1, 1};
    int gbuf[(NY + 2) * (NX + 2)], y, x;
    MPI_Datatype ft = plane_block(&b, MPI_INT), mt;
    MPI_Type_create_subarray(2, sz, sub, st, MPI_ORDER_C, MPI_INT, &mt);
    MPI_Type_commit(&mt);
    for (y = 0; y < gy * gx; y++) gbuf[y] = SENT;
    CHECK_ERR(coll ? ncmpi_get_vard_all(nc, vf, ft, gbuf, 1, mt)
                   : ncmpi_get_vard(nc, vf, ft, gbuf, 1, mt));
    for (y = 0; y < gy; y++)
        for (x = 0; x < gx; x++) {
            int in = y >= 1 && y <= b.yc && x >= 1 && x <= b.xc;
            int want = in ? fval((int)b.ys + y - 1, (int)b.xs + x - 1) : SENT;
            CHECKF(gbuf[y * gx + x] == want, "fix coll=%d y=%d x=%d: %d", coll,
                   y, x, gbuf[y * gx + x]);
        }
    MPI_Type_free(&mt);
    MPI_Type_free(&ft);
}

static void get_records(int nc, int vr, MPI_Offset recsize)
{
    block b = my_block();
    MPI_Datatype rt = record_blocks(&b, recsize);
    int ibuf[NREC * NY * NX + 1], r, y, x, k = 0, n = NREC * (int)(b.yc * b.xc);
    ibuf[n] = SENT;
    /* float to int: the .5 is cut off */
    CHECK_ERR(ncmpi_get_vard_all(nc, vr, rt, ibuf, n, MPI_INT));
    for (r = 0; r < NREC; r++)
        for (y = 0; y < b.yc; y++)
            for (x = 0; x < b.xc; x++, k++)
                CHECKF(ibuf[k] == (int)rval(r, (int)b.ys + y, (int)b.xs + x),
                       "rec r=%d y=%d x=%d: %d", r, y, x, ibuf[k]);
    CHECK(ibuf[n] == SENT);
    MPI_Type_free(&rt);
}

/* The whole short variable by every rank, buftype null: native shorts. */
static void get_interleaved(int nc, int vs)
{
    MPI_Datatype t;
    short s[NV + 1];
    int k;
    MPI_Type_contiguous(NV, MPI_SHORT, &t);
    MPI_Type_commit(&t);
    s[NV] = -1;
    CHECK_ERR(ncmpi_begin_indep_data(nc));
    CHECK_ERR(ncmpi_get_vard(nc, vs, t, s, 0, MPI_DATATYPE_NULL));
    CHECK_ERR(ncmpi_end_indep_data(nc));
    for (k = 0; k < NV; k++) CHECKF(s[k] == 10 + k, "short %d: %d", k, s[k]);
    CHECK(s[NV] == -1);
    MPI_Type_free(&t);
}

/* Records 0..NREC of q by rank 0 alone, independent: numrecs grows by
 * one.  (Every byte of the records is written by someone: ROMIO's data
 * sieving may leave stale bytes in holes past the end of the file.) */
static void one_more_record(int nc, int vq, MPI_Offset recsize)
{
    MPI_Datatype t;
    short q[(NREC + 1) * NX];
    MPI_Offset nrec = 0;
    int k, dim;
    for (k = 0; k < (NREC + 1) * NX; k++) q[k] = (short)(k - 3);
    MPI_Type_create_hvector(NREC + 1, NX, (MPI_Aint)recsize, MPI_SHORT, &t);
    MPI_Type_commit(&t);
    CHECK_ERR(ncmpi_begin_indep_data(nc));
    if (tu_myrank == 0)
        CHECK_ERR(ncmpi_put_vard(nc, vq, t, q, (NREC + 1) * NX, MPI_SHORT));
    CHECK_ERR(ncmpi_end_indep_data(nc));
    CHECK_ERR(ncmpi_inq_dimid(nc, "t", &dim));
    CHECK_ERR(ncmpi_inq_dimlen(nc, dim, &nrec));
    CHECKF(nrec == NREC + 1, "numrecs: %lld", (long long)nrec);
    MPI_Type_free(&t);
}

/* Record NREC of rec, the block of each rank, so that every byte of the
 * records has been written. */
static void last_record(int nc, int vr, MPI_Offset recsize)
{
    block b = my_block();
    MPI_Datatype one = plane_block(&b, MPI_FLOAT), t;
    float f[NY * NX];
    int bl = 1, y, x, k = 0;
    MPI_Aint d = (MPI_Aint)(NREC * recsize);
    for (y = 0; y < b.yc; y++)
        for (x = 0; x < b.xc; x++)
            f[k++] = (float)rval(NREC, (int)b.ys + y, (int)b.xs + x);
    MPI_Type_create_hindexed(1, &bl, &d, one, &t);
    MPI_Type_commit(&t);
    CHECK_ERR(ncmpi_put_vard_all(nc, vr, t, f, k, MPI_FLOAT));
    MPI_Type_free(&t);
    MPI_Type_free(&one);
}

/* Rank 0 writes the whole double variable; the others take part with a
 * null filetype (nothing), whatever their buffer says. */
static void null_filetype(int nc, int vd)
{
    MPI_Datatype t;
    double d[NY * NX];
    int k;
    for (k = 0; k < NY * NX; k++) d[k] = k * 0.25;
    MPI_Type_contiguous(NY * NX, MPI_DOUBLE, &t);
    MPI_Type_commit(&t);
    if (tu_myrank == 0)
        CHECK_ERR(ncmpi_put_vard_all(nc, vd, t, d, 0, MPI_DATATYPE_NULL));
    else
        CHECK_ERR(ncmpi_put_vard_all(nc, vd, MPI_DATATYPE_NULL, d, 5, MPI_INT));
    MPI_Type_free(&t);
}

/* int to short beyond the range: NC_ERANGE, the element becomes fill. */
static void out_of_range(int nc, int ve)
{
    MPI_Datatype t;
    int v[2] = {70000, 12};
    MPI_Type_contiguous(2, MPI_SHORT, &t);
    MPI_Type_commit(&t);
    if (tu_myrank == 0)
        EXPECT_ERR(ncmpi_put_vard_all(nc, ve, t, v, 2, MPI_INT), NC_ERANGE);
    else
        CHECK_ERR(ncmpi_put_vard_all(nc, ve, MPI_DATATYPE_NULL, v, 0, MPI_INT));
    MPI_Type_free(&t);
}

static MPI_Datatype two_ints(MPI_Aint d0, MPI_Aint d1, int len)
{
    int bl[2] = {len, len};
    MPI_Aint d[2] = {d0, d1};
    MPI_Datatype t;
    MPI_Type_create_hindexed(2, bl, d, MPI_INT, &t);
    MPI_Type_commit(&t);
    return t;
}

static void errors(int nc, int vf, int vt)
{
    int buf[NY * NX] = {0};
    MPI_Datatype t6, bad, mixed, types[2] = {MPI_INT, MPI_FLOAT};
    int bl[2] = {1, 1};
    MPI_Aint d[2] = {0, 4};

    MPI_Type_contiguous(6, MPI_INT, &t6);
    MPI_Type_commit(&t6);
    EXPECT_ERR(ncmpi_put_vard_all(nc, 99, t6, buf, 6, MPI_INT), NC_ENOTVAR);
    EXPECT_ERR(ncmpi_put_vard_all(nc, NC_GLOBAL, t6, buf, 6, MPI_INT),
               NC_EGLOBAL);
    EXPECT_ERR(ncmpi_put_vard(nc, vf, t6, buf, 6, MPI_INT), NC_ENOTINDEP);
    EXPECT_ERR(ncmpi_get_vard(nc, vf, t6, buf, 6, MPI_INT), NC_ENOTINDEP);
    EXPECT_ERR(ncmpi_put_vard_all(nc, vf, t6, buf, 5, MPI_INT),
               NC_EIOMISMATCH);
    EXPECT_ERR(ncmpi_put_vard_all(nc, vf, t6, buf, -1, MPI_INT),
               NC_EIOMISMATCH);
    EXPECT_ERR(ncmpi_get_vard_all(nc, vf, t6, buf, 3, MPI_DOUBLE),
               NC_EIOMISMATCH);
    EXPECT_ERR(ncmpi_put_vard_all(nc, vf, MPI_FLOAT, buf, 1, MPI_INT),
               NC_ETYPE_MISMATCH);
    EXPECT_ERR(ncmpi_put_vard_all(nc, vf, MPI_BYTE, buf, 1, MPI_INT),
               NC_ETYPE_MISMATCH);
    EXPECT_ERR(ncmpi_put_vard_all(nc, vf, MPI_UNSIGNED, buf, 1, MPI_INT),
               NC_ETYPE_MISMATCH);
    EXPECT_ERR(ncmpi_put_vard_all(nc, vf, MPI_INT, "abcd", 1, MPI_CHAR),
               NC_ECHAR);
    EXPECT_ERR(ncmpi_put_vard_all(nc, vt, MPI_CHAR, buf, 1, MPI_INT),
               NC_ECHAR);
    MPI_Type_create_struct(2, bl, d, types, &mixed);
    MPI_Type_commit(&mixed);
    EXPECT_ERR(ncmpi_put_vard_all(nc, vf, mixed, buf, 2, MPI_INT),
               NC_EMULTITYPES);
    MPI_Type_free(&mixed);

    /* A type map must move forward only, as a file view's. */
    bad = two_ints(8, 0, 1);
    EXPECT_ERR(ncmpi_put_vard_all(nc, vf, bad, buf, 2, MPI_INT), NC_EFILE);
    EXPECT_ERR(ncmpi_get_vard_all(nc, vf, bad, buf, 2, MPI_INT), NC_EFILE);
    MPI_Type_free(&bad);
    bad = two_ints(0, 4, 2);
    EXPECT_ERR(ncmpi_put_vard_all(nc, vf, bad, buf, 4, MPI_INT), NC_EFILE);
    MPI_Type_free(&bad);
#ifdef HAVE_NCPARIO
    /* Before the variable's begin: ncpario refuses it; PnetCDF hands it to
     * MPI-IO, whose answer varies. */
    bad = two_ints(-4, 0, 1);
    EXPECT_ERR(ncmpi_put_vard_all(nc, vf, bad, buf, 2, MPI_INT), NC_EFILE);
    MPI_Type_free(&bad);
    /* PnetCDF dereferences the NULL buffer. */
    EXPECT_ERR(ncmpi_put_vard_all(nc, vf, t6, NULL, 6, MPI_INT), NC_ENULLBUF);
#endif
    /* A zero bufcount moves nothing, so neither the buffer nor the type
     * map's order is looked at; the element type still is. */
    CHECK_ERR(ncmpi_put_vard_all(nc, vf, t6, NULL, 0, MPI_INT));
    bad = two_ints(8, 0, 1);
    CHECK_ERR(ncmpi_put_vard_all(nc, vf, bad, buf, 0, MPI_INT));
    MPI_Type_free(&bad);
    EXPECT_ERR(ncmpi_put_vard_all(nc, vf, MPI_FLOAT, buf, 0, MPI_INT),
               NC_ETYPE_MISMATCH);
    /* A filetype that selects nothing is not checked at all. */
    MPI_Type_contiguous(0, MPI_FLOAT, &bad);
    MPI_Type_commit(&bad);
    CHECK_ERR(ncmpi_put_vard_all(nc, vf, bad, buf, 0, MPI_INT));
    MPI_Type_free(&bad);

    CHECK_ERR(ncmpi_begin_indep_data(nc));
    EXPECT_ERR(ncmpi_put_vard_all(nc, vf, t6, buf, 6, MPI_INT), NC_EINDEP);
    EXPECT_ERR(ncmpi_get_vard_all(nc, vf, t6, buf, 6, MPI_INT), NC_EINDEP);
    CHECK_ERR(ncmpi_end_indep_data(nc));
    MPI_Type_free(&t6);
}

/* One rank's arguments are bad: it returns its error, the others write
 * (the values already there, so the file does not depend on the number
 * of ranks). */
static void one_bad_rank(int nc, int vf)
{
    block b = my_block();
    MPI_Datatype ft = plane_block(&b, MPI_INT);
    int buf[NY * NX], k, n = (int)(b.yc * b.xc);
    for (k = 0; k < n; k++) buf[k] = fval((int)b.ys + k / (int)b.xc,
                                           (int)b.xs + k % (int)b.xc);
    if (tu_myrank == 0)
        EXPECT_ERR(ncmpi_put_vard_all(nc, vf, ft, buf, n + 1, MPI_INT),
                   NC_EIOMISMATCH);
    else
        CHECK_ERR(ncmpi_put_vard_all(nc, vf, ft, buf, n, MPI_INT));
    MPI_Type_free(&ft);
}

int main(int argc, char **argv)
{
    const char *path;
    int nc, dims[3], vf, vr, vq, vs, vd, ve, vt;
    MPI_Offset recsize = 0;
    MPI_Datatype t;

    tu_init(&argc, &argv);
    path = tu_main_path(argc, argv);
    if (!path) return tu_finish("t_vard");
    CHECK_ERR(ncmpi_create(MPI_COMM_WORLD, path, NC_CLOBBER, MPI_INFO_NULL,
                           &nc));
    CHECK_ERR(ncmpi_def_dim(nc, "t", NC_UNLIMITED, &dims[0]));
    CHECK_ERR(ncmpi_def_dim(nc, "y", NY, &dims[1]));
    CHECK_ERR(ncmpi_def_dim(nc, "x", NX, &dims[2]));
    CHECK_ERR(ncmpi_def_var(nc, "fix", NC_INT, 2, dims + 1, &vf));
    CHECK_ERR(ncmpi_def_var(nc, "rec", NC_FLOAT, 3, dims, &vr));
    CHECK_ERR(ncmpi_def_var(nc, "q", NC_SHORT, 2, (int[]){dims[0], dims[2]},
                            &vq));
    CHECK_ERR(ncmpi_def_dim(nc, "v", NV, &dims[1]));
    CHECK_ERR(ncmpi_def_var(nc, "s", NC_SHORT, 1, dims + 1, &vs));
    CHECK_ERR(ncmpi_def_var(nc, "d", NC_DOUBLE, 2, (int[]){1, 2}, &vd));
    CHECK_ERR(ncmpi_def_var(nc, "e", NC_SHORT, 1, dims + 1, &ve));
    CHECK_ERR(ncmpi_def_var(nc, "txt", NC_CHAR, 1, dims + 1, &vt));
    MPI_Type_contiguous(2, MPI_INT, &t);
    MPI_Type_commit(&t);
    EXPECT_ERR(ncmpi_put_vard_all(nc, vf, t, (int[]){1, 2}, 2, MPI_INT),
               NC_EINDEFINE);
    EXPECT_ERR(ncmpi_get_vard_all(nc, vf, t, (int[]){1, 2}, 2, MPI_INT),
               NC_EINDEFINE);
    CHECK_ERR(ncmpi_enddef(nc));
    CHECK_ERR(ncmpi_inq_recsize(nc, &recsize));

    put_all(nc, vf, vr, vs, recsize);
    one_more_record(nc, vq, recsize);
    last_record(nc, vr, recsize);
    null_filetype(nc, vd);
    out_of_range(nc, ve);
    errors(nc, vf, vt);
    CHECK_ERR(tu_sync(nc));
    get_fixed(nc, vf, 1);
    CHECK_ERR(ncmpi_begin_indep_data(nc));
    get_fixed(nc, vf, 0);
    CHECK_ERR(ncmpi_end_indep_data(nc));
    get_records(nc, vr, recsize);
    get_interleaved(nc, vs);
    one_bad_rank(nc, vf);
    CHECK_ERR(ncmpi_close(nc));

    CHECK_ERR(ncmpi_open(MPI_COMM_WORLD, path, NC_NOWRITE, MPI_INFO_NULL, &nc));
    EXPECT_ERR(ncmpi_put_vard_all(nc, vf, t, (int[]){1, 2}, 2, MPI_INT),
               NC_EPERM);
    get_records(nc, vr, recsize);
    CHECK_ERR(ncmpi_close(nc));
    MPI_Type_free(&t);
    return tu_finish("t_vard");
}
