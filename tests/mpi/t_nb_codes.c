/* ncp-test: NO_CDL RANKS 1 2 4 */
/* t_nb_codes -- the codes PnetCDF 1.12.3 returns for nonblocking and
 * data calls in the cases where the order of checks or the request's
 * fate matters:
 *   - an iput/bput with out-of-range values returns NC_ERANGE at post,
 *     stays posted (fill values in place of the bad ones) and waits
 *     clean; an iget that meets them fails its wait and its status;
 *   - a request that selects no element gets NC_REQ_NULL and is never
 *     queued (close then finds nothing pending);
 *   - NC_ECHAR comes before coordinates, NC_ENULLABUF before the
 *     starts of a bput, a start past the shape before a missing count,
 *     an oversized count is NC_EEDGE, a negative varn num asks for
 *     nothing, and cancel of an unknown id fails;
 *   - attach of a size <= 0 is NC_ENULLBUF, a wait with an unknown num
 *     waits for nothing, a wait that takes in a failed get fails with
 *     its status (NC_REQ_ALL, NC_GET_REQ_ALL, statuses NULL).
 * Every rank works on its own row; all ranks pass the same arguments.
 */
#include <stdint.h>

#include "testutil.h"
#include "have_ncpario.h"

#define NX 4

static void check_row(int nc, int v, int a, int b)
{
    MPI_Offset s[2] = {tu_myrank, 0}, c[2] = {1, 2};
    signed char got[2] = {0, 0};
    CHECK_ERR(ncmpi_get_vara_schar_all(nc, v, s, c, got));
    CHECKF(got[0] == a && got[1] == b, "row holds %d %d, want %d %d",
           got[0], got[1], a, b);
}

static void range_codes(int nc, int vb, int vi)
{
    MPI_Offset s[2] = {tu_myrank, 0}, c[2] = {1, 2};
    MPI_Offset s0[2] = {tu_myrank, 0}, s1[2] = {tu_myrank, 1};
    MPI_Offset c1[2] = {1, 1}, *ss[2] = {s0, s1}, *cs[2] = {c1, c1};
    int ib[2] = {1000, 7}, req = NC_REQ_NULL, reqs[2], st[2];
    signed char sb[2] = {9, 9};

    EXPECT_ERR(ncmpi_iput_vara_int(nc, vb, s, c, ib, &req), NC_ERANGE);
    CHECK(req != NC_REQ_NULL);
    st[0] = -99;
    CHECK_ERR(ncmpi_wait_all(nc, 1, &req, st));
    CHECK(st[0] == NC_NOERR);
    check_row(nc, vb, NC_FILL_BYTE, 7);

    ib[0] = 5, ib[1] = -1000;
    EXPECT_ERR(ncmpi_bput_vara_int(nc, vb, s, c, ib, &req), NC_ERANGE);
    CHECK(req != NC_REQ_NULL);
    st[0] = -99;
    CHECK_ERR(ncmpi_wait_all(nc, 1, &req, st));
    CHECK(st[0] == NC_NOERR);
    check_row(nc, vb, 5, NC_FILL_BYTE);

    ib[0] = 3000, ib[1] = 8;
    EXPECT_ERR(ncmpi_iput_varn_int(nc, vb, 2, ss, cs, ib, &req), NC_ERANGE);
    CHECK(req != NC_REQ_NULL);
    CHECK_ERR(ncmpi_wait_all(nc, 1, &req, st));
    CHECK(st[0] == NC_NOERR);
    check_row(nc, vb, NC_FILL_BYTE, 8);

    /* a get that meets values out of its range: the wait fails */
    ib[0] = 300, ib[1] = 4;
    CHECK_ERR(ncmpi_put_vara_int_all(nc, vi, s, c, ib));
    CHECK_ERR(ncmpi_iget_vara_schar(nc, vi, s, c, sb, &reqs[0]));
    ib[0] = 1;
    CHECK_ERR(ncmpi_iput_vara_int(nc, vb, s, c1, ib, &reqs[1]));
    st[0] = st[1] = -99;
    EXPECT_ERR(ncmpi_wait_all(nc, 2, reqs, st), NC_ERANGE);
    CHECK(st[0] == NC_ERANGE && st[1] == NC_NOERR);
    CHECK(reqs[0] == NC_REQ_NULL && reqs[1] == NC_REQ_NULL);
    CHECKF(sb[1] == 4, "in-range element got %d", sb[1]);

    CHECK_ERR(ncmpi_begin_indep_data(nc));
    CHECK_ERR(ncmpi_iget_vara_schar(nc, vi, s, c, sb, &req));
    EXPECT_ERR(ncmpi_wait(nc, 1, &req, st), NC_ERANGE);
    CHECK(st[0] == NC_ERANGE);
    CHECK_ERR(ncmpi_end_indep_data(nc));
}

static void empty_requests(int nc, int vi, int vr)
{
    MPI_Offset s[2] = {tu_myrank, 0}, c[2] = {1, 0}, z[2] = {0, 0};
    MPI_Offset *ss[2] = {s, s}, *cs[2] = {z, z}, nrecs = -1;
    int ib[NX] = {0}, req, nreqs = -1, dim;

    req = 5;
    CHECK_ERR(ncmpi_iput_vara_int(nc, vi, s, c, ib, &req));
    CHECK(req == NC_REQ_NULL);
    req = 5;
    CHECK_ERR(ncmpi_iget_vara_int(nc, vi, s, c, ib, &req));
    CHECK(req == NC_REQ_NULL);
    req = 5;
    CHECK_ERR(ncmpi_bput_vara_int(nc, vi, s, c, ib, &req));
    CHECK(req == NC_REQ_NULL);
    req = 5;
    CHECK_ERR(ncmpi_iput_vara_int(nc, vi, s, c, NULL, &req));
    CHECK(req == NC_REQ_NULL);
    req = 5;
    CHECK_ERR(ncmpi_iput_varn_int(nc, vr, 2, ss, cs, ib, &req));
    CHECK(req == NC_REQ_NULL);
    req = 5;
    CHECK_ERR(ncmpi_iget_varn_int(nc, vr, 0, NULL, NULL, ib, &req));
    CHECK(req == NC_REQ_NULL);
    req = 5;
    CHECK_ERR(ncmpi_iput_var_int(nc, vr, ib, &req)); /* no records yet */
    CHECK(req == NC_REQ_NULL);
    s[0] = 5; /* a zero-count record put past numrecs */
    req = 5;
    CHECK_ERR(ncmpi_iput_vara_int(nc, vr, s, z, ib, &req));
    CHECK(req == NC_REQ_NULL);
    s[0] = NX + 1; /* a bad start is still reported */
    c[0] = 0;
    EXPECT_ERR(ncmpi_iput_vara_int(nc, vi, s, c, ib, &req), NC_EINVALCOORDS);
    CHECK_ERR(ncmpi_inq_nreqs(nc, &nreqs));
    CHECK(nreqs == 0);
    CHECK_ERR(ncmpi_wait_all(nc, NC_REQ_ALL, NULL, NULL));
    CHECK_ERR(ncmpi_inq_unlimdim(nc, &dim));
    CHECK_ERR(ncmpi_inq_dimlen(nc, dim, &nrecs));
    CHECK(nrecs == 0);
}

static void precedence(int nc, int vi, int vr)
{
    MPI_Offset s[2] = {9, 0}, c[2] = {1, 1}, c1[2] = {1, 1};
    MPI_Offset s0[2] = {tu_myrank, 0}, *ss[1] = {s0}, *cs[1] = {c1};
    int ib[NX] = {0}, req;
    char text[NX] = "abc";

    /* text against a numeric variable before anything else */
    EXPECT_ERR(ncmpi_put_vara_text_all(nc, vi, s, c, text), NC_ECHAR);
    EXPECT_ERR(ncmpi_put_var1_text_all(nc, vi, s, text), NC_ECHAR);
    EXPECT_ERR(ncmpi_get_var1_text_all(nc, vi, s, text), NC_ECHAR);
    EXPECT_ERR(ncmpi_iput_var1_text(nc, vi, s, text, &req), NC_ECHAR);
    EXPECT_ERR(ncmpi_put_vara_text_all(nc, vi, NULL, c, text), NC_ECHAR);
    EXPECT_ERR(ncmpi_put_vara_text_all(nc, vi, s, NULL, text), NC_ECHAR);
    EXPECT_ERR(ncmpi_put_varn_text_all(nc, vi, 1, NULL, cs, text), NC_ECHAR);
    EXPECT_ERR(ncmpi_bput_vara_text(nc, vi, s, c, text, &req), NC_ECHAR);
    EXPECT_ERR(ncmpi_put_vara_int_all(nc, 99, s, c, ib), NC_ENOTVAR);

    /* a start past the shape, with or without a count */
    s[0] = tu_nranks;
    EXPECT_ERR(ncmpi_get_var1_int_all(nc, vi, s, ib), NC_EINVALCOORDS);
    EXPECT_ERR(ncmpi_put_var1_int_all(nc, vi, s, ib), NC_EINVALCOORDS);
    EXPECT_ERR(ncmpi_get_vara_int_all(nc, vi, s, NULL, ib), NC_EINVALCOORDS);
    s[0] = tu_nranks + 1;
    EXPECT_ERR(ncmpi_put_vara_int_all(nc, vi, s, NULL, ib), NC_EINVALCOORDS);
    EXPECT_ERR(ncmpi_get_vars_int_all(nc, vi, s, NULL, NULL, ib),
               NC_EINVALCOORDS);
    EXPECT_ERR(ncmpi_iget_vara_int(nc, vi, s, NULL, ib, &req),
               NC_EINVALCOORDS);
    EXPECT_ERR(ncmpi_iput_vara_int(nc, vi, s, NULL, ib, &req),
               NC_EINVALCOORDS);
    s[0] = 0;
    EXPECT_ERR(ncmpi_get_vara_int_all(nc, vi, s, NULL, ib), NC_EEDGE);
    EXPECT_ERR(ncmpi_put_vara_int_all(nc, vi, s, NULL, ib), NC_EEDGE);
    EXPECT_ERR(ncmpi_iget_vara_int(nc, vi, s, NULL, ib, &req), NC_EEDGE);
    EXPECT_ERR(ncmpi_iget_vara_int(nc, vi, NULL, c, ib, &req),
               NC_EINVALCOORDS);

    /* oversized counts */
    c[0] = INT64_MAX;
    EXPECT_ERR(ncmpi_get_vara_int_all(nc, vi, s, c, ib), NC_EEDGE);
    EXPECT_ERR(ncmpi_put_vara_int_all(nc, vi, s, c, ib), NC_EEDGE);
    EXPECT_ERR(ncmpi_iput_vara_int(nc, vi, s, c, ib, &req), NC_EEDGE);
    EXPECT_ERR(ncmpi_put_vara_int_all(nc, vr, s, c, ib), NC_EINTOVERFLOW);
    c[0] = 1, c[1] = INT64_MAX;
    EXPECT_ERR(ncmpi_put_vara_int_all(nc, vr, s, c, ib), NC_EEDGE);
    c[0] = (MPI_Offset)1 << 40, c[1] = NX;
    EXPECT_ERR(ncmpi_put_vara_int_all(nc, vr, s, c, ib), NC_EINTOVERFLOW);
    /* no records yet: the start is judged first */
    EXPECT_ERR(ncmpi_get_vara_int_all(nc, vr, s, c, ib), NC_EINVALCOORDS);

    /* bput with no attached buffer: before the starts */
    EXPECT_ERR(ncmpi_bput_varn_int(nc, vi, 1, NULL, cs, ib, &req),
               NC_ENULLABUF);
    EXPECT_ERR(ncmpi_bput_varn_int(nc, vi, 1, ss, cs, ib, &req),
               NC_ENULLABUF);
    EXPECT_ERR(ncmpi_bput_vara_int(nc, vi, NULL, c1, ib, &req), NC_ENULLABUF);
    EXPECT_ERR(ncmpi_bput_varn_int(nc, vi, -1, ss, cs, ib, &req),
               NC_ENULLABUF);
    EXPECT_ERR(ncmpi_bput_vara_int(nc, 99, s0, c1, ib, &req), NC_ENOTVAR);
    EXPECT_ERR(ncmpi_iput_varn_int(nc, vi, 1, NULL, cs, ib, &req),
               NC_ENULLSTART);
    EXPECT_ERR(ncmpi_put_varn_int_all(nc, vi, 1, NULL, cs, ib),
               NC_ENULLSTART);

    /* varn: NULL counts mean one element per start; num < 0 nothing */
    ib[0] = 42;
    CHECK_ERR(ncmpi_put_varn_int_all(nc, vi, 1, ss, NULL, ib));
    CHECK_ERR(ncmpi_get_varn_int_all(nc, vi, 1, ss, NULL, ib));
    CHECK(ib[0] == 42);
    s0[0] = tu_nranks;
    EXPECT_ERR(ncmpi_get_varn_int_all(nc, vi, 1, ss, NULL, ib),
               NC_EINVALCOORDS);
    s0[0] = tu_myrank;
#ifdef HAVE_NCPARIO
    /* PnetCDF returns NC_NOERR here only because its allocation of
     * num entries fails quietly (an ASan build of the test aborts) */
    CHECK_ERR(ncmpi_put_varn_int_all(nc, vi, -1, ss, cs, ib));
    req = 5;
    CHECK_ERR(ncmpi_iput_varn_int(nc, vi, -1, ss, cs, ib, &req));
    CHECK(req == NC_REQ_NULL);
#endif
    c1[1] = NX + 1;
    EXPECT_ERR(ncmpi_put_varn_int_all(nc, vi, 1, ss, cs, ib), NC_EEDGE);
    c1[1] = 1;
    {   /* one NULL start is NC_ENULLSTART, one NULL count one element */
        MPI_Offset *s2[2] = {s0, NULL}, *c2[2] = {c1, NULL};
        EXPECT_ERR(ncmpi_iput_varn_int(nc, vi, 2, s2, c2, ib, &req),
                   NC_ENULLSTART);
        s2[1] = s0;
        CHECK_ERR(ncmpi_put_varn_int_all(nc, vi, 2, s2, c2, ib));
    }
}

static void cancel_codes(int nc)
{
    int req = 12345, st = -99;
    EXPECT_ERR(ncmpi_cancel(nc, 1, &req, &st), NC_EINVAL_REQUEST);
    CHECK(st == NC_EINVAL_REQUEST);
}

/* the wait and buffer calls themselves */
static void wait_codes(int nc, int vi)
{
    MPI_Offset s[2] = {tu_myrank, 0}, c[2] = {1, 1};
    int req = 3, st = -99;
    signed char sb[1];

    EXPECT_ERR(ncmpi_buffer_attach(nc, 0), NC_ENULLBUF);
    EXPECT_ERR(ncmpi_buffer_attach(nc, -1), NC_ENULLBUF);
    EXPECT_ERR(ncmpi_wait_all(nc, 1, &req, &st), NC_EINVAL_REQUEST);
    CHECK(st == NC_EINVAL_REQUEST);
    CHECK_ERR(ncmpi_wait_all(nc, -7, &req, &st));
    EXPECT_ERR(ncmpi_cancel(nc, -7, &req, &st), NC_EINVAL);
    /* vi(rank, 0) holds 300: out of a schar's range */
    CHECK_ERR(ncmpi_iget_vara_schar(nc, vi, s, c, sb, &req));
    EXPECT_ERR(ncmpi_wait_all(nc, NC_REQ_ALL, NULL, NULL), NC_ERANGE);
    CHECK_ERR(ncmpi_iget_vara_schar(nc, vi, s, c, sb, &req));
    EXPECT_ERR(ncmpi_wait_all(nc, NC_GET_REQ_ALL, NULL, NULL), NC_ERANGE);
    CHECK_ERR(ncmpi_iget_vara_schar(nc, vi, s, c, sb, &req));
    EXPECT_ERR(ncmpi_wait_all(nc, 1, &req, NULL), NC_ERANGE);
    CHECK(req == NC_REQ_NULL);
}

int main(int argc, char **argv)
{
    int nc, dr, dx, dt, dims[2], vi, vb, vr;
    const char *path;

    tu_init(&argc, &argv);
    path = tu_main_path(argc, argv);
    CHECK(path != NULL);
    if (!path) return tu_finish("t_nb_codes");
    CHECK_ERR(ncmpi_create(MPI_COMM_WORLD, path, NC_CLOBBER, MPI_INFO_NULL,
                           &nc));
    CHECK_ERR(ncmpi_def_dim(nc, "t", NC_UNLIMITED, &dt));
    CHECK_ERR(ncmpi_def_dim(nc, "rank", tu_nranks, &dr));
    CHECK_ERR(ncmpi_def_dim(nc, "x", NX, &dx));
    dims[0] = dr, dims[1] = dx;
    CHECK_ERR(ncmpi_def_var(nc, "vi", NC_INT, 2, dims, &vi));
    CHECK_ERR(ncmpi_def_var(nc, "vb", NC_BYTE, 2, dims, &vb));
    dims[0] = dt;
    CHECK_ERR(ncmpi_def_var(nc, "vr", NC_INT, 2, dims, &vr));
    CHECK_ERR(ncmpi_enddef(nc));

    {   /* whole rows first, so the file has every byte it declares */
        MPI_Offset s[2] = {tu_myrank, 0}, c[2] = {1, NX};
        int zero[NX] = {0};
        CHECK_ERR(ncmpi_put_vara_int_all(nc, vi, s, c, zero));
        CHECK_ERR(ncmpi_put_vara_int_all(nc, vb, s, c, zero));
    }
    precedence(nc, vi, vr);
    CHECK_ERR(ncmpi_buffer_attach(nc, 1024));
    range_codes(nc, vb, vi);
    empty_requests(nc, vi, vr);
    cancel_codes(nc);
    CHECK_ERR(ncmpi_buffer_detach(nc));
    wait_codes(nc, vi);
    CHECK_ERR(ncmpi_close(nc));
    return tu_finish("t_nb_codes");
}
