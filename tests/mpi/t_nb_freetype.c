/* ncp-test: NO_CDL RANKS 1 2 4 */
/* t_nb_freetype -- a derived datatype given as buftype to a nonblocking
 * call may be freed by the caller right after the post (MPI allows it):
 * the request must still complete with the right values.
 *
 * Each rank owns row v(rank, x).  Memory layouts used: every other int
 * (a vector) and a permuting indexed type.  Covered: iput_vara, iget_vara,
 * bput_vara, iput_varn, iget_varn, and an iget cancelled after its type
 * was freed.
 */
#include "testutil.h"

#define NX 8

/* every other int: NX elements over 2 * NX ints */
static MPI_Datatype strided(void)
{
    MPI_Datatype t;
    MPI_Type_vector(NX, 1, 2, MPI_INT, &t);
    MPI_Type_commit(&t);
    return t;
}

/* NX ints in reverse order */
static MPI_Datatype reversed(void)
{
    int len[NX], disp[NX], i;
    MPI_Datatype t;
    for (i = 0; i < NX; i++) len[i] = 1, disp[i] = NX - 1 - i;
    MPI_Type_indexed(NX, len, disp, MPI_INT, &t);
    MPI_Type_commit(&t);
    return t;
}

static int val(int var, int x) { return 1000 * tu_myrank + 100 * var + x; }

int main(int argc, char **argv)
{
    int nc, dr, dx, dims[2], v[3], req[4], st[4], x, k;
    int wide[2 * NX], back[2 * NX], got[NX], buf[NX];
    MPI_Offset s[2], c[2] = {1, NX};
    MPI_Offset s0[2], s1[2], c0[2] = {1, NX / 2}, c1[2] = {1, NX / 2};
    MPI_Offset *ss[2] = {s0, s1}, *cs[2] = {c0, c1};
    MPI_Datatype t;
    const char *path;

    tu_init(&argc, &argv);
    path = tu_main_path(argc, argv);
    CHECK(path != NULL);
    if (!path) return tu_finish("t_nb_freetype");
    CHECK_ERR(ncmpi_create(MPI_COMM_WORLD, path, NC_CLOBBER, MPI_INFO_NULL,
                           &nc));
    CHECK_ERR(ncmpi_def_dim(nc, "rank", tu_nranks, &dr));
    CHECK_ERR(ncmpi_def_dim(nc, "x", NX, &dx));
    dims[0] = dr, dims[1] = dx;
    CHECK_ERR(ncmpi_def_var(nc, "a", NC_INT, 2, dims, &v[0]));
    CHECK_ERR(ncmpi_def_var(nc, "b", NC_INT, 2, dims, &v[1]));
    CHECK_ERR(ncmpi_def_var(nc, "c", NC_INT, 2, dims, &v[2]));
    CHECK_ERR(ncmpi_enddef(nc));
    CHECK_ERR(ncmpi_buffer_attach(nc, 4096));
    s[0] = tu_myrank, s[1] = 0;
    s0[0] = s1[0] = tu_myrank, s0[1] = 0, s1[1] = NX / 2;

    /* puts: a through a vector, b through the reversed type (bput),
     * c through a vector in two pieces (varn); each type freed at once */
    for (x = 0; x < 2 * NX; x++) wide[x] = x % 2 ? -1 : val(0, x / 2);
    t = strided();
    CHECK_ERR(ncmpi_iput_vara(nc, v[0], s, c, wide, 1, t, &req[0]));
    MPI_Type_free(&t);
    for (x = 0; x < NX; x++) buf[NX - 1 - x] = val(1, x);
    t = reversed();
    CHECK_ERR(ncmpi_bput_vara(nc, v[1], s, c, buf, 1, t, &req[1]));
    MPI_Type_free(&t);
    for (x = 0; x < 2 * NX; x++) back[x] = x % 2 ? -1 : val(2, x / 2);
    t = strided();
    CHECK_ERR(ncmpi_iput_varn(nc, v[2], 2, ss, cs, back, 1, t, &req[2]));
    MPI_Type_free(&t);
    CHECK_ERR(ncmpi_wait_all(nc, 3, req, st));
    for (k = 0; k < 3; k++) CHECKF(st[k] == NC_NOERR, "put %d: %d", k, st[k]);
    CHECK_ERR(tu_sync(nc));

    /* gets: a into a vector, b reversed, c in two pieces into a vector */
    for (x = 0; x < 2 * NX; x++) wide[x] = back[x] = -7;
    t = strided();
    CHECK_ERR(ncmpi_iget_vara(nc, v[0], s, c, wide, 1, t, &req[0]));
    MPI_Type_free(&t);
    t = reversed();
    CHECK_ERR(ncmpi_iget_vara(nc, v[1], s, c, got, 1, t, &req[1]));
    MPI_Type_free(&t);
    t = strided();
    CHECK_ERR(ncmpi_iget_varn(nc, v[2], 2, ss, cs, back, 1, t, &req[2]));
    MPI_Type_free(&t);
    /* one more, cancelled: its type is gone too */
    t = reversed();
    CHECK_ERR(ncmpi_iget_vara(nc, v[0], s, c, buf, 1, t, &req[3]));
    MPI_Type_free(&t);
    CHECK_ERR(ncmpi_cancel(nc, 1, &req[3], &st[3]));
    CHECK_ERR(ncmpi_wait_all(nc, 3, req, st));
    for (k = 0; k < 3; k++) CHECKF(st[k] == NC_NOERR, "get %d: %d", k, st[k]);
    for (x = 0; x < 2 * NX; x++) {
        CHECKF(wide[x] == (x % 2 ? -7 : val(0, x / 2)), "a: wide[%d] = %d",
               x, wide[x]);
        CHECKF(back[x] == (x % 2 ? -7 : val(2, x / 2)), "c: back[%d] = %d",
               x, back[x]);
    }
    for (x = 0; x < NX; x++)
        CHECKF(got[NX - 1 - x] == val(1, x), "b: got[%d] = %d", NX - 1 - x,
               got[NX - 1 - x]);

    /* a derived type freed after a post, and the dataset closed with the
     * request pending: close cancels it */
    t = strided();
    CHECK_ERR(ncmpi_iget_vara(nc, v[0], s, c, wide, 1, t, &req[0]));
    MPI_Type_free(&t);
    CHECK_ERR(ncmpi_buffer_detach(nc));
    EXPECT_ERR(ncmpi_close(nc), NC_EPENDING);
    return tu_finish("t_nb_freetype");
}
