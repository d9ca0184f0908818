/*
 * test_api_dispatch.c -- the generated entry points of src/api/ forward
 * exactly what the caller gave them.  Fake ncp_data_access / ncp_att_put /
 * ncp_att_get record their arguments; every typed and flexible data
 * function (5 shapes x 13 buffer kinds x put/get x independent/collective)
 * and every attribute function is called once and the record checked:
 * shape kind, which vectors are passed or NULL, buffer pointer, bufcount,
 * buftype, mtype, put/get and collective flags.  No MPI call is made.
 *
 * Build: mpicc -std=c11 -Wall -Wextra -Iinclude -Isrc \
 *        tests/unit/test_api_dispatch.c src/api/data_typed.c \
 *        src/api/data_flex.c src/api/att.c
 */
#include <stdio.h>
#include <string.h>

#include "api/ncp_api.h"

static ncp_data_args last;
static int last_xtype;
static MPI_Offset last_nelems;
static const void *last_abuf;
static int last_mtype;
static int calls;
static int failures;

int ncp_data_access(const ncp_data_args *a)
{
    last = *a;
    calls++;
    return NC_NOERR;
}

int ncp_att_put(int ncid, int varid, const char *name, int xtype,
                MPI_Offset nelems, const void *buf, int mtype)
{
    (void)ncid;
    (void)varid;
    (void)name;
    last_xtype = xtype;
    last_nelems = nelems;
    last_abuf = buf;
    last_mtype = mtype;
    calls++;
    return NC_NOERR;
}

int ncp_att_get(int ncid, int varid, const char *name, void *buf, int mtype)
{
    (void)ncid;
    (void)varid;
    (void)name;
    last_abuf = buf;
    last_mtype = mtype;
    calls++;
    return NC_NOERR;
}

static void expect(int cond, const char *fn, const char *what)
{
    if (!cond) {
        printf("FAIL: %s: %s\n", fn, what);
        failures++;
    }
}

static const MPI_Offset st[2] = {1, 2}, ct[2] = {3, 4}, sd[2] = {1, 1},
                        im[2] = {4, 1};
static char buf[64];

/* Check the record of the call just made. */
static void check(const char *fn, ncp_shape_kind kind, int is_put, int coll,
                  MPI_Offset bufcount, MPI_Datatype buftype, int mtype)
{
    expect(last.ncid == 7 && last.varid == 3, fn, "ids");
    expect(last.kind == kind, fn, "shape kind");
    expect(last.start == (kind >= NCP_SHAPE_VAR1 ? st : NULL), fn, "start");
    expect(last.count == (kind >= NCP_SHAPE_VARA ? ct : NULL), fn, "count");
    expect(last.stride == (kind >= NCP_SHAPE_VARS ? sd : NULL), fn,
           "stride");
    expect(last.imap == (kind >= NCP_SHAPE_VARM ? im : NULL), fn, "imap");
    expect(last.buf == (void *)buf, fn, "buffer");
    expect(last.bufcount == bufcount, fn, "bufcount");
    expect(last.buftype == buftype, fn, "buftype");
    expect(last.mtype == mtype, fn, "mtype");
    expect(last.is_put == is_put, fn, "is_put");
    expect(last.collective == coll, fn, "collective");
}

/* One data call per (op, all) and shape; ARGS are the shape's vectors. */
#define CALL(name, kind, isput, coll, bc, bt, mt, ...)                      \
    do {                                                                    \
        memset(&last, 0, sizeof last);                                     \
        (void)name(7, 3, __VA_ARGS__);                                      \
        check(#name, kind, isput, coll, bc, bt, mt);                        \
    } while (0)

#define TYPED_ONE(op, all, isput, coll, t, T, mt, mpit)                     \
    CALL(ncmpi_##op##_var_##t##all, NCP_SHAPE_VAR, isput, coll, -1, mpit,  \
         mt, (T *)buf);                                                     \
    CALL(ncmpi_##op##_var1_##t##all, NCP_SHAPE_VAR1, isput, coll, -1,      \
         mpit, mt, st, (T *)buf);                                           \
    CALL(ncmpi_##op##_vara_##t##all, NCP_SHAPE_VARA, isput, coll, -1,      \
         mpit, mt, st, ct, (T *)buf);                                       \
    CALL(ncmpi_##op##_vars_##t##all, NCP_SHAPE_VARS, isput, coll, -1,      \
         mpit, mt, st, ct, sd, (T *)buf);                                   \
    CALL(ncmpi_##op##_varm_##t##all, NCP_SHAPE_VARM, isput, coll, -1,      \
         mpit, mt, st, ct, sd, im, (T *)buf);

#define TYPED_ALL(t, T, mt, mpit)                                           \
    TYPED_ONE(put, , 1, 0, t, T, mt, mpit)                                  \
    TYPED_ONE(put, _all, 1, 1, t, T, mt, mpit)                              \
    TYPED_ONE(get, , 0, 0, t, T, mt, mpit)                                  \
    TYPED_ONE(get, _all, 0, 1, t, T, mt, mpit)

#define FLEX_ONE(op, all, isput, coll)                                      \
    CALL(ncmpi_##op##_var##all, NCP_SHAPE_VAR, isput, coll, 5, MPI_INT,    \
         NCP_M_FLEX, buf, 5, MPI_INT);                                      \
    CALL(ncmpi_##op##_var1##all, NCP_SHAPE_VAR1, isput, coll, 5, MPI_INT,  \
         NCP_M_FLEX, st, buf, 5, MPI_INT);                                  \
    CALL(ncmpi_##op##_vara##all, NCP_SHAPE_VARA, isput, coll, 5, MPI_INT,  \
         NCP_M_FLEX, st, ct, buf, 5, MPI_INT);                              \
    CALL(ncmpi_##op##_vars##all, NCP_SHAPE_VARS, isput, coll, 5, MPI_INT,  \
         NCP_M_FLEX, st, ct, sd, buf, 5, MPI_INT);                          \
    CALL(ncmpi_##op##_varm##all, NCP_SHAPE_VARM, isput, coll, 5, MPI_INT,  \
         NCP_M_FLEX, st, ct, sd, im, buf, 5, MPI_INT);

#define ATT_ONE(t, T, mt, mpit)                                             \
    (void)ncmpi_put_att_##t(7, 3, "a", NC_SHORT, 9, (const T *)buf);        \
    expect(last_xtype == NC_SHORT && last_nelems == 9 &&                    \
               last_abuf == buf && last_mtype == mt,                        \
           "ncmpi_put_att_" #t, "forwarding");                              \
    last_mtype = -99;                                                       \
    (void)ncmpi_get_att_##t(7, 3, "a", (T *)buf);                           \
    expect(last_abuf == buf && last_mtype == mt, "ncmpi_get_att_" #t,       \
           "forwarding");

int main(void)
{
    NCP_API_DATA_TYPES(TYPED_ALL)
    FLEX_ONE(put, , 1, 0)
    FLEX_ONE(put, _all, 1, 1)
    FLEX_ONE(get, , 0, 0)
    FLEX_ONE(get, _all, 0, 1)
    expect(calls == 260, "data functions", "count");

    NCP_API_ATT_TYPES(ATT_ONE)
    (void)ncmpi_put_att_text(7, 3, "a", 4, buf);
    expect(last_xtype == NC_CHAR && last_nelems == 4 &&
               last_mtype == NCP_M_TEXT,
           "ncmpi_put_att_text", "forwarding");
    (void)ncmpi_get_att_text(7, 3, "a", buf);
    expect(last_mtype == NCP_M_TEXT, "ncmpi_get_att_text", "forwarding");
    (void)ncmpi_put_att(7, 3, "a", NC_DOUBLE, 2, buf);
    expect(last_xtype == NC_DOUBLE && last_nelems == 2 &&
               last_mtype == NCP_M_FLEX,
           "ncmpi_put_att", "forwarding");
    (void)ncmpi_get_att(7, 3, "a", buf);
    expect(last_mtype == NCP_M_FLEX, "ncmpi_get_att", "forwarding");
    expect(calls == 260 + 2 * 12 + 4, "attribute functions", "count");

    if (failures == 0)
        printf("test_api_dispatch: OK (%d calls)\n", calls);
    return failures != 0;
}
