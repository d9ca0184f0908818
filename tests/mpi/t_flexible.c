/* ncp-test: RANKS 1 2 4 */
/* t_flexible -- the flexible API: (buf, bufcount, buftype) with derived MPI
 * datatypes, put and get, collective and independent.
 *
 * The derived types cover the shapes applications use: a vector (every
 * third element), a subarray with ghost cells (halo exchange codes), an
 * indexed type that lists elements in reverse order (typemap order, not
 * address order, decides which element goes where), and a vector combined
 * with varm's imap.  Each read lands in a buffer pre-filled with a sentinel
 * so that a write past the typemap is caught.
 */
#include "have_ncpario.h"
#include "testutil.h"

#define NY 8
#define NX 6
#define G 2 /* ghost cells on each side */
#define NV 16
#define SENT -999

static int gval(int r, int y, int x) { return r * 1000 + y * 10 + x; }

/* Ghosted local array of ly rows, NX columns, the interior as a subarray. */
static MPI_Datatype ghost_type(MPI_Datatype elem, int ly)
{
    int sizes[2] = {ly + 2 * G, NX + 2 * G}, subs[2] = {ly, NX}, starts[2] = {G, G};
    MPI_Datatype t;
    MPI_Type_create_subarray(2, sizes, subs, starts, MPI_ORDER_C, elem, &t);
    MPI_Type_commit(&t);
    return t;
}

static void grid_io(int nc, int v, int rec, int coll, int put)
{
    MPI_Offset s, c, st[3], ct[3];
    int gbuf[(NY + 2 * G) * (NX + 2 * G)], y, x, k, ndims = rec >= 0 ? 3 : 2, o;
    MPI_Datatype t;
    tu_part(NY, tu_myrank, tu_nranks, &s, &c);
    t = ghost_type(MPI_INT, (int)c);
    o = ndims - 2;
    st[0] = rec; ct[0] = 1;
    st[o] = s; ct[o] = c; st[o + 1] = 0; ct[o + 1] = NX;
    for (k = 0; k < (int)((c + 2 * G) * (NX + 2 * G)); k++)
        gbuf[k] = SENT;
    if (put) {
        for (y = 0; y < c; y++)
            for (x = 0; x < NX; x++)
                gbuf[(y + G) * (NX + 2 * G) + x + G] = gval(rec + 1, (int)s + y, x);
        CHECK_ERR(coll ? ncmpi_put_vara_all(nc, v, st, ct, gbuf, 1, t)
                       : ncmpi_put_vara(nc, v, st, ct, gbuf, 1, t));
    } else {
        CHECK_ERR(coll ? ncmpi_get_vara_all(nc, v, st, ct, gbuf, 1, t)
                       : ncmpi_get_vara(nc, v, st, ct, gbuf, 1, t));
        for (y = 0; y < c + 2 * G; y++)
            for (x = 0; x < NX + 2 * G; x++) {
                int in = y >= G && y < c + G && x >= G && x < NX + G;
                int want = in ? gval(rec + 1, (int)s + y - G, x - G) : SENT;
                CHECKF(gbuf[y * (NX + 2 * G) + x] == want, "grid rec=%d y=%d x=%d", rec, y, x);
            }
    }
    MPI_Type_free(&t);
}

int main(int argc, char **argv)
{
    int nc, dy, dx, dv, dr, dims[3], vgrid, vrec, vvec, vperm, vconv, vm, v1;
    int i, k, coll;
    MPI_Offset s, c, st[2], ct[2], sd[2], im[2], n;
    double dbuf[3 * NV];
    short sbuf[NV];
    int ibuf[4 * NY * NX], blens[NV], displs[NV];
    float fbuf[NV];
    long long ll;
    MPI_Datatype t;
    const char *path;

    tu_init(&argc, &argv);
    path = tu_main_path(argc, argv);
    if (!path) {
        CHECK(path != NULL);
        return tu_finish("t_flexible");
    }
    CHECK_ERR(ncmpi_create(MPI_COMM_WORLD, path, NC_CLOBBER, MPI_INFO_NULL, &nc));
    CHECK_ERR(ncmpi_def_dim(nc, "rec", NC_UNLIMITED, &dr));
    CHECK_ERR(ncmpi_def_dim(nc, "y", NY, &dy));
    CHECK_ERR(ncmpi_def_dim(nc, "x", NX, &dx));
    CHECK_ERR(ncmpi_def_dim(nc, "n", NV, &dv));
    dims[0] = dy; dims[1] = dx;
    CHECK_ERR(ncmpi_def_var(nc, "grid", NC_INT, 2, dims, &vgrid));
    dims[0] = dr; dims[1] = dy; dims[2] = dx;
    CHECK_ERR(ncmpi_def_var(nc, "rgrid", NC_INT, 3, dims, &vrec));
    CHECK_ERR(ncmpi_def_var(nc, "vec", NC_DOUBLE, 1, &dv, &vvec));
    CHECK_ERR(ncmpi_def_var(nc, "perm", NC_FLOAT, 1, &dv, &vperm));
    CHECK_ERR(ncmpi_def_var(nc, "conv", NC_SHORT, 1, &dv, &vconv));
    dims[0] = dy; dims[1] = dx;
    CHECK_ERR(ncmpi_def_var(nc, "mapped", NC_INT, 2, dims, &vm));
    CHECK_ERR(ncmpi_def_var(nc, "one", NC_INT, 1, &dv, &v1));
    CHECK_ERR(ncmpi_enddef(nc));

    /* Subarray with ghost cells: fixed collectively, records 0 (coll) and 1 (indep). */
    grid_io(nc, vgrid, -1, 1, 1);
    grid_io(nc, vrec, 0, 1, 1);
    CHECK_ERR(ncmpi_begin_indep_data(nc));
    grid_io(nc, vrec, 1, 0, 1);
    CHECK_ERR(ncmpi_end_indep_data(nc));
    CHECK_ERR(ncmpi_inq_dimlen(nc, dr, &n));
    CHECK(n == 2);

    /* Vector: every third double of the buffer, independent put. */
    tu_part(NV, tu_myrank, tu_nranks, &s, &c);
    for (i = 0; i < 3 * NV; i++)
        dbuf[i] = i % 3 == 0 ? 0.5 + (double)(s + i / 3) : -1.0;
    MPI_Type_vector((int)c, 1, 3, MPI_DOUBLE, &t);
    MPI_Type_commit(&t);
    CHECK_ERR(ncmpi_begin_indep_data(nc));
    CHECK_ERR(ncmpi_put_vara(nc, vvec, &s, &c, dbuf, 1, t));
    CHECK_ERR(ncmpi_end_indep_data(nc));
    MPI_Type_free(&t);

    /* Indexed in reverse order with a short buffer into a float variable:
     * typemap entry i (memory element c-1-i) lands at file element s+i. */
    for (i = 0; i < c; i++) {
        sbuf[c - 1 - i] = (short)(100 + s + i);
        blens[i] = 1;
        displs[i] = (int)(c - 1 - i);
    }
    MPI_Type_indexed((int)c, blens, displs, MPI_SHORT, &t);
    MPI_Type_commit(&t);
    CHECK_ERR(ncmpi_put_vara_all(nc, vperm, &s, &c, sbuf, 1, t));
    MPI_Type_free(&t);

    /* Predefined buftype with bufcount -1 means "as many as count says";
     * doubles are converted to the short variable. */
    for (i = 0; i < c; i++)
        dbuf[i] = -7.0 * (double)(s + i);
    CHECK_ERR(ncmpi_put_vara_all(nc, vconv, &s, &c, dbuf, -1, MPI_DOUBLE));

    /* vars + varm with a vector buftype: the type packs the buffer first,
     * imap then maps the packed elements (transposed) onto the slab. */
    tu_part(NY, tu_myrank, tu_nranks, &s, &c);
    for (i = 0; i < 4 * NY * NX; i++)
        ibuf[i] = SENT;
    for (i = 0; i < c * NX; i++) {
        int y = i % (int)c, x = i / (int)c; /* packed element i is (y, x) */
        ibuf[2 * i] = gval(7, (int)s + y, x);
    }
    MPI_Type_vector((int)(c * NX), 1, 2, MPI_INT, &t);
    MPI_Type_commit(&t);
    st[0] = s; st[1] = 0; ct[0] = c; ct[1] = NX; im[0] = 1; im[1] = c;
    CHECK_ERR(ncmpi_put_varm_all(nc, vm, st, ct, NULL, im, ibuf, 1, t));
    MPI_Type_free(&t);

    /* var1 with a long long buffer into an int variable, stride-2 vars with
     * MPI_INT buffers: each rank owns a block of "one". */
    tu_part(NV, tu_myrank, tu_nranks, &s, &c);
    for (i = 0; i < c; i += 2) {
        st[0] = s + i;
        ll = 5000 + s + i;
        CHECK_ERR(ncmpi_put_var1_all(nc, v1, st, &ll, 1, MPI_LONG_LONG));
    }
    for (; i < (NV + tu_nranks - 1) / tu_nranks; i += 2) {
        st[0] = 0; ct[0] = 0;
        CHECK_ERR(ncmpi_put_vara_all(nc, v1, st, ct, &ll, 0, MPI_LONG_LONG));
    }
    st[0] = s + 1; ct[0] = c / 2; sd[0] = 2;
    for (i = 0; i < c / 2; i++)
        ibuf[i] = (int)(5000 + s + 1 + 2 * i);
    CHECK_ERR(ncmpi_put_vars_all(nc, v1, st, ct, sd, ibuf, c / 2, MPI_INT));
    CHECK_ERR(tu_sync(nc));

    /* Read back through the same kinds of types, both modes. */
    for (coll = 1; coll >= 0; coll--) {
        if (!coll)
            CHECK_ERR(ncmpi_begin_indep_data(nc));
        grid_io(nc, vgrid, -1, coll, 0);
        grid_io(nc, vrec, 0, coll, 0);
        grid_io(nc, vrec, 1, coll, 0);

        tu_part(NV, tu_myrank, tu_nranks, &s, &c);
        for (i = 0; i < 3 * NV; i++)
            dbuf[i] = SENT;
        MPI_Type_vector((int)c, 1, 3, MPI_DOUBLE, &t);
        MPI_Type_commit(&t);
        CHECK_ERR(coll ? ncmpi_get_vara_all(nc, vvec, &s, &c, dbuf, 1, t)
                       : ncmpi_get_vara(nc, vvec, &s, &c, dbuf, 1, t));
        MPI_Type_free(&t);
        for (i = 0; i < 3 * NV; i++)
            CHECKF(dbuf[i] == (i % 3 == 0 && i / 3 < c ? 0.5 + (double)(s + i / 3) : SENT),
                   "vec get i=%d", i);

        for (i = 0; i < NV; i++) {
            fbuf[i] = SENT;
            blens[i] = 1;
            displs[i] = NV - 1 - i;
        }
        MPI_Type_indexed(NV, blens, displs, MPI_FLOAT, &t);
        MPI_Type_commit(&t);
        CHECK_ERR(coll ? ncmpi_get_var_all(nc, vperm, fbuf, 1, t)
                       : ncmpi_get_var(nc, vperm, fbuf, 1, t));
        MPI_Type_free(&t);
        for (i = 0; i < NV; i++)
            CHECKF(fbuf[NV - 1 - i] == (float)(100 + i), "perm get i=%d", i);

        CHECK_ERR(coll ? ncmpi_get_var_all(nc, vconv, ibuf, -1, MPI_INT)
                       : ncmpi_get_var(nc, vconv, ibuf, -1, MPI_INT));
        for (i = 0; i < NV; i++)
            CHECKF(ibuf[i] == -7 * i, "conv get i=%d", i);

        tu_part(NY, tu_myrank, tu_nranks, &s, &c);
        for (i = 0; i < 4 * NY * NX; i++)
            ibuf[i] = SENT;
        MPI_Type_vector((int)(c * NX), 1, 2, MPI_INT, &t);
        MPI_Type_commit(&t);
        st[0] = s; st[1] = 0; ct[0] = c; ct[1] = NX; im[0] = 1; im[1] = c;
        CHECK_ERR(coll ? ncmpi_get_varm_all(nc, vm, st, ct, NULL, im, ibuf, 1, t)
                       : ncmpi_get_varm(nc, vm, st, ct, NULL, im, ibuf, 1, t));
        MPI_Type_free(&t);
        for (i = 0; i < 2 * c * NX; i++) {
            int y = (i / 2) % (int)c, x = (i / 2) / (int)c;
            CHECKF(ibuf[i] == (i % 2 ? SENT : gval(7, (int)s + y, x)), "varm get i=%d", i);
        }

        for (k = 0; k < NV; k++) {
            st[0] = k;
            ll = -1;
            CHECK_ERR(coll ? ncmpi_get_var1_all(nc, v1, st, &ll, 1, MPI_LONG_LONG)
                           : ncmpi_get_var1(nc, v1, st, &ll, 1, MPI_LONG_LONG));
            CHECKF(ll == 5000 + k, "one[%d]=%lld", k, ll);
        }
        if (!coll)
            CHECK_ERR(ncmpi_end_indep_data(nc));
    }

    /* Amount mismatch between the buffer type and count, a negative count
     * other than -1 (blocking and posted, put and get), a type mixing
     * element types: nothing moves. */
    tu_part(NV, tu_myrank, tu_nranks, &s, &c);
    ct[0] = NV; st[0] = 0;
    EXPECT_ERR(ncmpi_put_vara_all(nc, vconv, st, ct, ibuf, NV - 1, MPI_INT), NC_EIOMISMATCH);
    EXPECT_ERR(ncmpi_put_vara_all(nc, vconv, st, ct, ibuf, -2, MPI_INT), NC_EIOMISMATCH);
    EXPECT_ERR(ncmpi_get_vara_all(nc, vconv, st, ct, ibuf, -5, MPI_INT), NC_EIOMISMATCH);
    {
        int req = 0;
        EXPECT_ERR(ncmpi_iput_vara(nc, vconv, st, ct, ibuf, -2, MPI_INT, &req),
                   NC_EIOMISMATCH);
    }
#ifdef HAVE_NCPARIO
    /* NC_COUNT_IGNORE (-1, the typed call's meaning, above) takes only a
     * predefined buftype (PnetCDF 1.13's rule; 1.12 leaves it undefined). */
    MPI_Type_contiguous(1, MPI_INT, &t);
    MPI_Type_commit(&t);
    EXPECT_ERR(ncmpi_put_vara_all(nc, vconv, st, ct, ibuf, NC_COUNT_IGNORE, t), NC_EINVAL);
    MPI_Type_free(&t);
#endif
    {
        int bl[2] = {1, 1};
        MPI_Aint dp[2] = {0, 8};
        MPI_Datatype ty[2] = {MPI_INT, MPI_DOUBLE};
        MPI_Type_create_struct(2, bl, dp, ty, &t);
        MPI_Type_commit(&t);
        ct[0] = 2;
        EXPECT_ERR(ncmpi_put_vara_all(nc, vconv, st, ct, dbuf, 1, t), NC_EMULTITYPES);
        MPI_Type_free(&t);
    }
    CHECK_ERR(ncmpi_get_var_all(nc, vconv, ibuf, NV, MPI_INT));
    for (i = 0; i < NV; i++)
        CHECKF(ibuf[i] == -7 * i, "conv unchanged i=%d", i);
    CHECK_ERR(ncmpi_close(nc));
    return tu_finish("t_flexible");
}
