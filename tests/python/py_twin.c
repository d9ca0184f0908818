/*
 * py_twin.c -- the C half of the Python binding's byte-for-byte check.
 *
 * Writes, through the C API, exactly the file that python/tests/
 * test_twin.py writes through the Python package: every classic/CDF-5
 * type as a fixed and a record variable, attributes of every type, and
 * every access form (blocking vara, nonblocking, buffered, varn,
 * independent vars, varm).  The two files must be identical.
 *
 * usage: mpirun -np N py_twin OUT.nc
 */
#include <stdio.h>
#include <string.h>

#include <mpi.h>
#include <pnetcdf.h>

#define NTYPES 11
#define X 3

static const nc_type types[NTYPES] = {
    NC_BYTE, NC_CHAR, NC_SHORT, NC_INT, NC_FLOAT, NC_DOUBLE,
    NC_UBYTE, NC_USHORT, NC_UINT, NC_INT64, NC_UINT64};
static const char *const names[NTYPES] = {
    "byte", "char", "short", "int", "float", "double",
    "ubyte", "ushort", "uint", "int64", "uint64"};

static MPI_Datatype mpi_type(nc_type t)
{
    switch (t) {
    case NC_BYTE: return MPI_SIGNED_CHAR;
    case NC_CHAR: return MPI_CHAR;
    case NC_SHORT: return MPI_SHORT;
    case NC_INT: return MPI_INT;
    case NC_FLOAT: return MPI_FLOAT;
    case NC_DOUBLE: return MPI_DOUBLE;
    case NC_UBYTE: return MPI_UNSIGNED_CHAR;
    case NC_USHORT: return MPI_UNSIGNED_SHORT;
    case NC_UINT: return MPI_UNSIGNED;
    case NC_INT64: return MPI_LONG_LONG;
    default: return MPI_UNSIGNED_LONG_LONG;
    }
}

/* Element i of buf (of type t) gets the value the test expects at global
 * index g of variable number k: small numbers every type holds, letters
 * for char. */
static void set(nc_type t, void *buf, int i, long long g, int k)
{
    long long v = (g + 7 * k) % 100;
    switch (t) {
    case NC_BYTE: ((signed char *)buf)[i] = (signed char)v; break;
    case NC_CHAR: ((char *)buf)[i] = (char)('a' + (g + k) % 26); break;
    case NC_SHORT: ((short *)buf)[i] = (short)v; break;
    case NC_INT: ((int *)buf)[i] = (int)v; break;
    case NC_FLOAT: ((float *)buf)[i] = (float)v; break;
    case NC_DOUBLE: ((double *)buf)[i] = (double)v; break;
    case NC_UBYTE: ((unsigned char *)buf)[i] = (unsigned char)v; break;
    case NC_USHORT: ((unsigned short *)buf)[i] = (unsigned short)v; break;
    case NC_UINT: ((unsigned *)buf)[i] = (unsigned)v; break;
    case NC_INT64: ((long long *)buf)[i] = v; break;
    default: ((unsigned long long *)buf)[i] = (unsigned long long)v; break;
    }
}

static int failed;

static void ck(int err, const char *what, int line)
{
    if (err != NC_NOERR) {
        fprintf(stderr, "py_twin:%d: %s: %s\n", line, what,
                ncmpi_strerror(err));
        failed = 1;
    }
}
#define CK(call) ck((call), #call, __LINE__)

int main(int argc, char **argv)
{
    int rank, np, ncid, dim[3], fv[NTYPES], rv[NTYPES], req[2 * NTYPES];
    int st[2 * NTYPES];
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    if (argc != 2) {
        if (rank == 0)
            fprintf(stderr, "usage: py_twin OUT.nc\n");
        MPI_Finalize();
        return 2;
    }
    const int Y = 2 * np, r0 = 2 * rank;
    unsigned char buf[6 * 8], att[2 * 8];

    CK(ncmpi_create(MPI_COMM_WORLD, argv[1], NC_CLOBBER | NC_64BIT_DATA,
                    MPI_INFO_NULL, &ncid));
    CK(ncmpi_def_dim(ncid, "rec", NC_UNLIMITED, &dim[0]));
    CK(ncmpi_def_dim(ncid, "y", Y, &dim[1]));
    CK(ncmpi_def_dim(ncid, "x", X, &dim[2]));
    CK(ncmpi_put_att_text(ncid, NC_GLOBAL, "title", 4, "twin"));
    for (int k = 0; k < NTYPES; k++) {
        char name[32];
        snprintf(name, sizeof name, "a_%s", names[k]);
        if (types[k] == NC_CHAR) {
            CK(ncmpi_put_att_text(ncid, NC_GLOBAL, name, 2, "ab"));
        } else {
            set(types[k], att, 0, 1, k);
            set(types[k], att, 1, 2, k);
            CK(ncmpi_put_att(ncid, NC_GLOBAL, name, types[k], 2, att));
        }
    }
    for (int k = 0; k < NTYPES; k++) {
        char name[32];
        snprintf(name, sizeof name, "f_%s", names[k]);
        CK(ncmpi_def_var(ncid, name, types[k], 2, &dim[1], &fv[k]));
        CK(ncmpi_put_att_text(ncid, fv[k], "units", 1, "u"));
        snprintf(name, sizeof name, "r_%s", names[k]);
        CK(ncmpi_def_var(ncid, name, types[k], 3, dim, &rv[k]));
        if (types[k] != NC_CHAR) {
            set(types[k], att, 0, 3, k);
            CK(ncmpi_put_att(ncid, rv[k], "scale", types[k], 1, att));
        }
    }
    CK(ncmpi_enddef(ncid));

    for (int k = 0; k < NTYPES; k++) {
        nc_type t = types[k];
        MPI_Datatype mt = mpi_type(t);
        /* fixed: rows r0, r0+1, collective vara */
        MPI_Offset s2[2] = {r0, 0}, c2[2] = {2, X};
        for (int i = 0; i < 6; i++)
            set(t, buf, i, (long long)r0 * X + i, k);
        CK(ncmpi_put_vara_all(ncid, fv[k], s2, c2, buf, 6, mt));
    }
    /* record 0: nonblocking; record 1: buffered */
    CK(ncmpi_buffer_attach(ncid, 6 * 8 * NTYPES));
    for (int k = 0; k < NTYPES; k++) {
        nc_type t = types[k];
        unsigned char b0[6 * 8], b1[6 * 8];
        MPI_Offset s[3] = {0, r0, 0}, c[3] = {1, 2, X};
        for (int i = 0; i < 6; i++) {
            set(t, b0, i, (long long)(0 * Y + r0) * X + i, k);
            set(t, b1, i, (long long)(1 * Y + r0) * X + i, k);
        }
        /* iput reads its buffer at wait: keep a private copy alive */
        static unsigned char keep[NTYPES][6 * 8];
        memcpy(keep[k], b0, sizeof b0);
        CK(ncmpi_iput_vara(ncid, rv[k], s, c, keep[k], 6, mpi_type(t),
                           &req[k]));
        s[0] = 1;
        CK(ncmpi_bput_vara(ncid, rv[k], s, c, b1, 6, mpi_type(t),
                           &req[NTYPES + k]));
    }
    CK(ncmpi_wait_all(ncid, 2 * NTYPES, req, st));
    for (int i = 0; i < 2 * NTYPES; i++)
        CK(st[i]);
    CK(ncmpi_buffer_detach(ncid));

    for (int k = 0; k < NTYPES; k++) {
        nc_type t = types[k];
        MPI_Datatype mt = mpi_type(t);
        /* record 2: varn, two single rows */
        MPI_Offset sa[3] = {2, r0, 0}, sb[3] = {2, r0 + 1, 0};
        MPI_Offset ca[3] = {1, 1, X}, cb[3] = {1, 1, X};
        MPI_Offset *starts[2] = {sa, sb}, *counts[2] = {ca, cb};
        for (int i = 0; i < 6; i++)
            set(t, buf, i, (long long)(2 * Y + r0) * X + i, k);
        CK(ncmpi_put_varn_all(ncid, rv[k], 2, starts, counts, buf, 6, mt));
    }

    /* record 3: independent, columns 0 and 2 strided, then column 1 */
    CK(ncmpi_begin_indep_data(ncid));
    for (int k = 0; k < NTYPES; k++) {
        nc_type t = types[k];
        MPI_Offset s[3] = {3, r0, 0}, c[3] = {1, 2, 2}, str[3] = {1, 1, 2};
        long long base = (long long)(3 * Y + r0) * X;
        set(t, buf, 0, base + 0, k);
        set(t, buf, 1, base + 2, k);
        set(t, buf, 2, base + X + 0, k);
        set(t, buf, 3, base + X + 2, k);
        CK(ncmpi_put_vars(ncid, rv[k], s, c, str, buf, 4, mpi_type(t)));
        MPI_Offset s1[3] = {3, r0, 1}, c1[3] = {1, 2, 1};
        set(t, buf, 0, base + 1, k);
        set(t, buf, 1, base + X + 1, k);
        CK(ncmpi_put_vara(ncid, rv[k], s1, c1, buf, 2, mpi_type(t)));
    }
    CK(ncmpi_end_indep_data(ncid));

    /* record 4: collective varm from a transposed (x-major) buffer */
    for (int k = 0; k < NTYPES; k++) {
        nc_type t = types[k];
        MPI_Offset s[3] = {4, r0, 0}, c[3] = {1, 2, X}, imap[3] = {6, 1, 2};
        long long base = (long long)(4 * Y + r0) * X;
        for (int i = 0; i < 2; i++)
            for (int j = 0; j < X; j++)
                set(t, buf, j * 2 + i, base + (long long)i * X + j, k);
        CK(ncmpi_put_varm_all(ncid, rv[k], s, c, NULL, imap, buf, 6,
                              mpi_type(t)));
    }
    CK(ncmpi_close(ncid));
    MPI_Finalize();
    return failed;
}
