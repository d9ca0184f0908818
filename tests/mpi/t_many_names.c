/* ncp-test: RANKS 1 2 4 NO_CDL */
/* t_many_names -- thousands of dimensions, variables and attributes are
 * found by name after defines, renames, deletions, a redef and reopening.
 *
 * Every name is looked up (inq_dimid, inq_varid, inq_attid) and must give
 * its own position; a renamed entry is found under its new name only;
 * deleting an attribute moves the later ones down.  The variables are
 * record variables with no record, so the file is its header and the
 * harness's comparison with PnetCDF's file checks every name.  Not a
 * timing test: bench/names measures how lookups scale.
 */
#include "testutil.h"

#define N 3000    /* dimensions (besides the record one) and variables */
#define NG N      /* global attributes, and attributes of variable 0 */
#define MORE 500  /* of each kind added in a redef after reopening */
#define NX 50     /* attributes of variable 1, two of them deleted */

/* Entry i is "<kind><i>" as defined (stage -1), "<kind>r<i>" once
 * renamed: every 7th before the first enddef (stage 0), every 11th too
 * after the redef (stage 1). */
static int renamed(int i, int stage)
{
    return stage >= 0 && (i % 7 == 3 || (stage > 0 && i % 11 == 5));
}

static void name_of(char *out, char kind, int i, int stage)
{
    sprintf(out, renamed(i, stage) ? "%cr%d" : "%c%d", kind, i);
}

/* Rename every entry whose stage-`to` name differs from its stage-`from`
 * one, among entries n0..n1-1 of each kind. */
static void rename_range(int nc, int n0, int n1, int nga, int from, int to)
{
    char old[32], neu[32];
    int i;
    for (i = n0; i < n1; i++) {
        if (renamed(i, from) == renamed(i, to)) continue;
        name_of(neu, 'd', i, to);
        CHECK_ERR(ncmpi_rename_dim(nc, i + 1, neu));
        name_of(neu, 'v', i, to);
        CHECK_ERR(ncmpi_rename_var(nc, i, neu));
        if (i >= nga) continue;
        name_of(old, 'g', i, from);
        name_of(neu, 'g', i, to);
        CHECK_ERR(ncmpi_rename_att(nc, NC_GLOBAL, old, neu));
        name_of(old, 'a', i, from);
        name_of(neu, 'a', i, to);
        CHECK_ERR(ncmpi_rename_att(nc, 0, old, neu));
    }
}

/* Entries n0..n1-1 of each kind (attributes only below nga). */
static void define_range(int nc, int n0, int n1, int nga)
{
    char name[32];
    int i, id, rec = 0, one = 1;
    for (i = n0; i < n1; i++) {
        name_of(name, 'd', i, -1);
        CHECK_ERR(ncmpi_def_dim(nc, name, i % 5 + 1, &id));
        CHECKF(id == i + 1, "dimid %d of %s", id, name);
        name_of(name, 'v', i, -1);
        CHECK_ERR(ncmpi_def_var(nc, name, NC_SHORT, 1, &rec, &id));
        CHECKF(id == i, "varid %d of %s", id, name);
        if (i >= nga) continue;
        name_of(name, 'g', i, -1);
        CHECK_ERR(ncmpi_put_att_int(nc, NC_GLOBAL, name, NC_INT, 1, &i));
        name_of(name, 'a', i, -1);
        CHECK_ERR(ncmpi_put_att_int(nc, 0, name, NC_INT, 1, &one));
    }
}

/* Every entry 0..n-1 under its stage name, at its position; a renamed
 * one not under its first name. */
static void lookup_all(int nc, int n, int nga, int stage)
{
    char name[32];
    int i, id, val;
    for (i = 0; i < n; i++) {
        name_of(name, 'd', i, stage);
        id = -1;
        CHECKF(ncmpi_inq_dimid(nc, name, &id) == NC_NOERR && id == i + 1,
               "dim %s -> %d", name, id);
        name_of(name, 'v', i, stage);
        id = -1;
        CHECKF(ncmpi_inq_varid(nc, name, &id) == NC_NOERR && id == i,
               "var %s -> %d", name, id);
        if (i < nga) {
            name_of(name, 'g', i, stage);
            id = -1;
            CHECKF(ncmpi_inq_attid(nc, NC_GLOBAL, name, &id) == NC_NOERR &&
                       id == i, "gatt %s -> %d", name, id);
            val = -1;
            CHECKF(ncmpi_get_att_int(nc, NC_GLOBAL, name, &val) == NC_NOERR &&
                       val == i, "gatt %s = %d", name, val);
            name_of(name, 'a', i, stage);
            id = -1;
            CHECKF(ncmpi_inq_attid(nc, 0, name, &id) == NC_NOERR && id == i,
                   "att %s -> %d", name, id);
        }
        if (!renamed(i, stage)) continue;
        sprintf(name, "d%d", i);
        EXPECT_ERR(ncmpi_inq_dimid(nc, name, &id), NC_EBADDIM);
        sprintf(name, "v%d", i);
        EXPECT_ERR(ncmpi_inq_varid(nc, name, &id), NC_ENOTVAR);
        if (i < nga) {
            sprintf(name, "g%d", i);
            EXPECT_ERR(ncmpi_inq_attid(nc, NC_GLOBAL, name, &id), NC_ENOTATT);
        }
    }
}

/* Variable 1's attributes x0..x(NX-1) less x5 and x20. */
static void check_deleted(int nc)
{
    char name[32];
    int i, id, n = 0;
    CHECK_ERR(ncmpi_inq_varnatts(nc, 1, &n));
    CHECK(n == NX - 2);
    for (i = 0; i < NX; i++) {
        sprintf(name, "x%d", i);
        id = -1;
        if (i == 5 || i == 20)
            EXPECT_ERR(ncmpi_inq_attid(nc, 1, name, &id), NC_ENOTATT);
        else
            CHECKF(ncmpi_inq_attid(nc, 1, name, &id) == NC_NOERR &&
                       id == i - (i > 5) - (i > 20), "x%d -> %d", i, id);
    }
}

int main(int argc, char **argv)
{
    const char *path;
    char name[32];
    int nc, id, i;

    tu_init(&argc, &argv);
    if (!(path = tu_main_path(argc, argv))) return tu_finish("t_many_names");
    CHECK_ERR(ncmpi_create(MPI_COMM_WORLD, path, NC_CLOBBER | NC_64BIT_OFFSET,
                           MPI_INFO_NULL, &nc));
    CHECK_ERR(ncmpi_def_dim(nc, "time", NC_UNLIMITED, &id));
    define_range(nc, 0, N, NG);
    for (i = 0; i < NX; i++) {
        sprintf(name, "x%d", i);
        CHECK_ERR(ncmpi_put_att_int(nc, 1, name, NC_INT, 1, &i));
    }
    CHECK_ERR(ncmpi_del_att(nc, 1, "x5"));
    CHECK_ERR(ncmpi_del_att(nc, 1, "x20"));
    rename_range(nc, 0, N, NG, -1, 0);
    /* names in use, under their old and their new spelling */
    EXPECT_ERR(ncmpi_def_dim(nc, "d100", 1, &id), NC_ENAMEINUSE);
    EXPECT_ERR(ncmpi_def_dim(nc, "dr3", 1, &id), NC_ENAMEINUSE);
    EXPECT_ERR(ncmpi_def_var(nc, "vr10", NC_INT, 0, NULL, &id), NC_ENAMEINUSE);
    EXPECT_ERR(ncmpi_rename_var(nc, 0, "v1"), NC_ENAMEINUSE);
    EXPECT_ERR(ncmpi_rename_dim(nc, 1, "dr17"), NC_ENAMEINUSE);
    EXPECT_ERR(ncmpi_rename_att(nc, 0, "a0", "ar24"), NC_ENAMEINUSE);
    lookup_all(nc, N, NG, 0);
    check_deleted(nc);
    CHECK_ERR(ncmpi_enddef(nc));
    lookup_all(nc, N, NG, 0);
    CHECK_ERR(ncmpi_close(nc));

    /* reopened: the indexes come from the header; a redef adds and renames */
    CHECK_ERR(ncmpi_open(MPI_COMM_WORLD, path, NC_WRITE, MPI_INFO_NULL, &nc));
    lookup_all(nc, N, NG, 0);
    check_deleted(nc);
    CHECK_ERR(ncmpi_redef(nc));
    define_range(nc, N, N + MORE, NG + MORE);
    rename_range(nc, N, N + MORE, NG + MORE, -1, 0);
    rename_range(nc, 0, N + MORE, NG + MORE, 0, 1);
    lookup_all(nc, N + MORE, NG + MORE, 1);
    CHECK_ERR(ncmpi_enddef(nc));
    CHECK_ERR(ncmpi_close(nc));

    CHECK_ERR(ncmpi_open(MPI_COMM_WORLD, path, NC_NOWRITE, MPI_INFO_NULL, &nc));
    lookup_all(nc, N + MORE, NG + MORE, 1);
    check_deleted(nc);
    CHECK_ERR(ncmpi_close(nc));
    return tu_finish("t_many_names");
}
