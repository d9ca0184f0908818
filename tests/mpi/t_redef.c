/* ncp-test: RANKS 1 2 4 */
/* t_redef -- re-entering define mode once data exists.
 *
 * Round 1 adds a long global attribute, so the header outgrows its 512-byte
 * extent and every variable has to move; round 2 adds a fixed and a record
 * variable, so the record variables move and the record size changes (each
 * old record is relocated); round 3 renames a dimension and a variable;
 * round 4 changes nothing; round 5 shrinks the header.  After each round every old value is read back,
 * and the variable offsets are compared with the ones PnetCDF 1.12.3 gives.
 * <main>.nc is CDF-1, <main>_cdf5.nc the same in CDF-5.
 */
#include "testutil.h"

#define NX 12
#define NREC 3

static int fval(int x) { return 1000 + x; }
static double rval(int r, int x) { return r * 100 + x + 0.5; }

/* Each rank writes its block of x for every record / the fixed variable. */
static void write_block(int nc, int vf, int vr, int base)
{
    MPI_Offset s, c, st[2], ct[2];
    int ib[NX], r, i;
    double db[NREC * NX];
    tu_part(NX, tu_myrank, tu_nranks, &s, &c);
    for (i = 0; i < c; i++)
        ib[i] = base + fval((int)s + i);
    CHECK_ERR(ncmpi_put_vara_int_all(nc, vf, &s, &c, ib));
    if (vr < 0)
        return;
    for (r = 0; r < NREC; r++)
        for (i = 0; i < c; i++)
            db[r * c + i] = base + rval(r, (int)s + i);
    st[0] = 0; st[1] = s; ct[0] = NREC; ct[1] = c;
    CHECK_ERR(ncmpi_put_vara_double_all(nc, vr, st, ct, db));
}

static void check_all(int nc, int vf, int vr, int base, const char *when)
{
    int ib[NX], r, x;
    double db[NREC * NX];
    CHECK_ERR(ncmpi_get_var_int_all(nc, vf, ib));
    for (x = 0; x < NX; x++)
        CHECKF(ib[x] == base + fval(x), "%s: fixed[%d]=%d", when, x, ib[x]);
    if (vr < 0)
        return;
    CHECK_ERR(ncmpi_get_var_double_all(nc, vr, db));
    for (r = 0; r < NREC; r++)
        for (x = 0; x < NX; x++)
            CHECKF(db[r * NX + x] == base + rval(r, x), "%s: rec[%d][%d]", when, r, x);
}

static void offsets(int nc, int nvars, const MPI_Offset *want, MPI_Offset want_ext,
                    const char *when)
{
    MPI_Offset off, ext;
    int v;
    for (v = 0; v < nvars; v++) {
        CHECK_ERR(ncmpi_inq_varoffset(nc, v, &off));
        CHECKF(off == want[v], "%s: offset of var %d = %lld want %lld", when, v,
               (long long)off, (long long)want[v]);
    }
    CHECK_ERR(ncmpi_inq_header_extent(nc, &ext));
    CHECKF(ext == want_ext, "%s: header extent %lld", when, (long long)ext);
}

static void scenario(const char *path, int cmode, const MPI_Offset (*want)[4],
                     const MPI_Offset *ext)
{
    int nc, dt, dx, dz, dims[2], va, vr, vb, vq, n;
    static char longatt[3000];
    MPI_Offset len, rs;
    char name[NC_MAX_NAME + 1];

    CHECK_ERR(ncmpi_create(MPI_COMM_WORLD, path, cmode | NC_CLOBBER, MPI_INFO_NULL, &nc));
    CHECK_ERR(ncmpi_def_dim(nc, "time", NC_UNLIMITED, &dt));
    CHECK_ERR(ncmpi_def_dim(nc, "x", NX, &dx));
    CHECK_ERR(ncmpi_def_var(nc, "a", NC_INT, 1, &dx, &va));
    dims[0] = dt; dims[1] = dx;
    CHECK_ERR(ncmpi_def_var(nc, "r", NC_DOUBLE, 2, dims, &vr));
    CHECK_ERR(ncmpi_put_att_text(nc, NC_GLOBAL, "title", 5, "redef"));
    CHECK_ERR(ncmpi_enddef(nc));
    write_block(nc, va, vr, 0);
    CHECK_ERR(tu_sync(nc));
    offsets(nc, 2, want[0], ext[0], "initial");

    /* round 1: the header outgrows its extent */
    memset(longatt, 'h', sizeof longatt);
    CHECK_ERR(ncmpi_redef(nc));
    CHECK_ERR(ncmpi_put_att_text(nc, NC_GLOBAL, "history", sizeof longatt, longatt));
    CHECK_ERR(ncmpi_enddef(nc));
    check_all(nc, va, vr, 0, "round 1");
    offsets(nc, 2, want[1], ext[1], "round 1");

    /* round 2: a fixed and a record variable */
    CHECK_ERR(ncmpi_redef(nc));
    CHECK_ERR(ncmpi_def_dim(nc, "z", 2, &dz));
    CHECK_ERR(ncmpi_def_var(nc, "b", NC_INT, 1, &dx, &vb));
    dims[0] = dt; dims[1] = dz;
    CHECK_ERR(ncmpi_def_var(nc, "q", NC_SHORT, 2, dims, &vq));
    CHECK_ERR(ncmpi_put_att_int(nc, vb, "scale", NC_INT, 1, &(int){3}));
    CHECK_ERR(ncmpi_enddef(nc));
    CHECK_ERR(ncmpi_inq_dimlen(nc, dt, &len));
    CHECK(len == NREC);
    CHECK_ERR(ncmpi_inq_recsize(nc, &rs));
    CHECK(rs == NX * 8 + 4);
    check_all(nc, va, vr, 0, "round 2");
    offsets(nc, 4, want[2], ext[2], "round 2");
    write_block(nc, vb, -1, 50000);
    {
        short q[NREC * 2] = {1, 2, 3, 4, 5, 6};
        MPI_Offset st[2] = {0, 0}, ct[2] = {NREC, 2};
        CHECK_ERR(ncmpi_put_vara_short_all(nc, vq, st, ct, q));
    }
    CHECK_ERR(tu_sync(nc));

    /* round 3: renames make names longer, inside the extent */
    CHECK_ERR(ncmpi_redef(nc));
    CHECK_ERR(ncmpi_rename_dim(nc, dx, "x_renamed_longer"));
    CHECK_ERR(ncmpi_rename_var(nc, va, "a_renamed_longer"));
    CHECK_ERR(ncmpi_enddef(nc));
    CHECK_ERR(ncmpi_inq_dimname(nc, dx, name));
    CHECK(strcmp(name, "x_renamed_longer") == 0);
    CHECK_ERR(ncmpi_inq_varid(nc, "a_renamed_longer", &n));
    CHECK(n == va);
    EXPECT_ERR(ncmpi_inq_varid(nc, "a", &n), NC_ENOTVAR);
    check_all(nc, va, vr, 0, "round 3");
    check_all(nc, vb, -1, 50000, "round 3");
    offsets(nc, 4, want[2], ext[2], "round 3");

    /* round 4: nothing changes, nothing moves */
    CHECK_ERR(ncmpi_redef(nc));
    CHECK_ERR(ncmpi_enddef(nc));
    check_all(nc, va, vr, 0, "round 4");
    offsets(nc, 4, want[2], ext[2], "round 4");

    /* round 5: deleting the long attribute shrinks the header, but the
     * variables stay where they are */
    CHECK_ERR(ncmpi_redef(nc));
    CHECK_ERR(ncmpi_del_att(nc, NC_GLOBAL, "history"));
    CHECK_ERR(ncmpi_enddef(nc));
    check_all(nc, va, vr, 0, "round 5");
    offsets(nc, 4, want[2], ext[2], "round 5");
    CHECK_ERR(ncmpi_redef(nc));
    CHECK_ERR(ncmpi_put_att_text(nc, NC_GLOBAL, "history", sizeof longatt, longatt));
    CHECK_ERR(ncmpi_enddef(nc));
    CHECK_ERR(ncmpi_close(nc));

    CHECK_ERR(ncmpi_open(MPI_COMM_WORLD, path, NC_NOWRITE, MPI_INFO_NULL, &nc));
    check_all(nc, va, vr, 0, "reopen");
    check_all(nc, vb, -1, 50000, "reopen");
    CHECK_ERR(ncmpi_inq_attlen(nc, NC_GLOBAL, "history", &len));
    CHECK(len == sizeof longatt);
    offsets(nc, 4, want[2], ext[2], "reopen");
    CHECK_ERR(ncmpi_close(nc));
}

int main(int argc, char **argv)
{
    /* offsets of a, r, b, q after: creation, round 1, rounds 2..4; the
     * extent grows to the header size rounded up to 512, the same for both
     * formats here */
    static const MPI_Offset w1[3][4] = {{512, 560}, {3584, 3632}, {3584, 3680, 3632, 3776}};
    static const MPI_Offset e1[3] = {512, 3584, 3584};
    char p5[4096];
    const char *path;

    tu_init(&argc, &argv);
    path = tu_main_path(argc, argv);
    CHECK(path != NULL);
    if (!path)
        return tu_finish("t_redef");
    scenario(path, 0, w1, e1);
    tu_sibling(p5, sizeof p5, path, "_cdf5.nc");
    scenario(p5, NC_64BIT_DATA, w1, e1);
    return tu_finish("t_redef");
}
