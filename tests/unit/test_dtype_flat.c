/*
 * test_dtype_flat.c -- unit test of ncp_dtype_flatten
 * (src/access/dtype_flat.c): for datatypes made with every MPI
 * constructor, alone and nested, the extents must equal the type map
 * found by brute force: pack a buffer with a single byte set, once for
 * every byte of the type's true extent, and see which packed byte it
 * became.  That reference knows nothing of constructors.
 *
 * Prints "N passed, M failed"; exit status 0 only when M is 0.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <pnetcdf.h>

#include "access/ncp_access.h"
#include "unit_check.h"

/* Under AddressSanitizer the leak check runs: OpenMPI keeps what
 * MPI_Init and its progress thread allocate, so those are not ours to
 * report, and the full stacks are needed to tell them apart. */
const char *__asan_default_options(void);
const char *__lsan_default_suppressions(void);
const char *__asan_default_options(void) { return "fast_unwind_on_malloc=0"; }
const char *__lsan_default_suppressions(void)
{
    return "leak:PMPI_Init\nleak:ompi_mpi_finalize\nleak:libevent_core\n";
}

/* The type map of t by one-hot packing, as merged byte extents. */
static int reference(MPI_Datatype t, ncp_extents *e)
{
    MPI_Aint lb, extent;
    int size, pos, i, p, ok = 1;
    unsigned char *buf, *packed;
    MPI_Offset *from;
    char *seen;
    MPI_Type_get_true_extent(t, &lb, &extent);
    MPI_Type_size(t, &size);
    ncp_extents_init(e);
    if (size == 0) return 1;
    buf = calloc((size_t)extent, 1);
    packed = malloc((size_t)size);
    from = malloc((size_t)size * sizeof(*from));
    seen = calloc((size_t)size, 1);
    for (p = 0; p < extent; p++) {
        buf[p] = 1;
        pos = 0;
        MPI_Pack((char *)buf - lb, 1, t, packed, size, &pos, MPI_COMM_SELF);
        for (i = 0; i < size; i++)
            if (packed[i]) {
                from[i] = lb + p;
                seen[i] = 1;
            }
        buf[p] = 0;
    }
    for (i = 0; i < size; i++) {
        if (!seen[i]) ok = 0;
        ncp_extents_add(e, from[i], 1);
    }
    free(buf);
    free(packed);
    free(from);
    free(seen);
    return ok;
}

static void expect_map(const char *what, MPI_Datatype t, MPI_Datatype want)
{
    ncp_extents got, ref;
    MPI_Datatype base;
    char msg[160];
    int err, same, ok = reference(t, &ref);
    int64_t i;
    err = ncp_dtype_flatten(t, &got, &base);
    same = ok && err == NC_NOERR && got.n == ref.n && got.nbytes == ref.nbytes;
    for (i = 0; same && i < got.n; i++)
        same = got.off[i] == ref.off[i] && got.len[i] == ref.len[i];
    snprintf(msg, sizeof msg, "%s: err %d, %lld extents (reference %lld)",
             what, err, (long long)(err ? -1 : got.n), (long long)ref.n);
    check(same, msg);
    if (err == NC_NOERR && ref.n > 0) {
        snprintf(msg, sizeof msg, "%s: base type", what);
        check(base == want, msg);
    }
    if (err == NC_NOERR) ncp_extents_free(&got);
    ncp_extents_free(&ref);
}

/* Commit, check, free. */
static void one(const char *what, MPI_Datatype t, MPI_Datatype want)
{
    MPI_Type_commit(&t);
    expect_map(what, t, want);
    MPI_Type_free(&t);
}

static void singles(void)
{
    MPI_Datatype t;
    int bl[4] = {2, 1, 3, 1}, id[4] = {5, 0, 9, 20};
    MPI_Aint hd[4] = {40, 4, 100, 60};
    int sz[3] = {4, 5, 6}, sub[3] = {2, 3, 2}, st[3] = {1, 2, 3};
    int gs[2] = {8, 9}, dist[2] = {MPI_DISTRIBUTE_BLOCK,
                                   MPI_DISTRIBUTE_CYCLIC};
    int darg[2] = {MPI_DISTRIBUTE_DFLT_DARG, 2}, ps[2] = {2, 3};

    expect_map("named", MPI_INT, MPI_INT);
    MPI_Type_contiguous(7, MPI_SHORT, &t); one("contiguous", t, MPI_SHORT);
    MPI_Type_vector(3, 2, 5, MPI_INT, &t); one("vector", t, MPI_INT);
    MPI_Type_vector(3, 2, -4, MPI_INT, &t); one("vector<0", t, MPI_INT);
    MPI_Type_create_hvector(4, 3, 26, MPI_FLOAT, &t);
    one("hvector", t, MPI_FLOAT);
    MPI_Type_indexed(4, bl, id, MPI_DOUBLE, &t); one("indexed", t, MPI_DOUBLE);
    MPI_Type_create_hindexed(4, bl, hd, MPI_INT, &t);
    one("hindexed", t, MPI_INT);
    MPI_Type_create_indexed_block(4, 2, id, MPI_INT, &t);
    one("indexed_block", t, MPI_INT);
    MPI_Type_create_hindexed_block(4, 1, hd, MPI_SHORT, &t);
    one("hindexed_block", t, MPI_SHORT);
    MPI_Type_create_subarray(3, sz, sub, st, MPI_ORDER_C, MPI_INT, &t);
    one("subarray C", t, MPI_INT);
    MPI_Type_create_subarray(3, sz, sub, st, MPI_ORDER_FORTRAN, MPI_DOUBLE,
                             &t);
    one("subarray Fortran", t, MPI_DOUBLE);
    MPI_Type_create_darray(6, 4, 2, gs, dist, darg, ps, MPI_ORDER_C, MPI_INT,
                           &t);
    one("darray C", t, MPI_INT);
    MPI_Type_create_darray(6, 5, 2, gs, dist, darg, ps, MPI_ORDER_FORTRAN,
                           MPI_SHORT, &t);
    one("darray Fortran", t, MPI_SHORT);
    MPI_Type_create_resized(MPI_INT, -8, 20, &t); one("resized", t, MPI_INT);
    MPI_Type_dup(MPI_FLOAT, &t); one("dup", t, MPI_FLOAT);
    MPI_Type_contiguous(0, MPI_INT, &t); one("empty", t, MPI_INT);
}

static void nested(void)
{
    MPI_Datatype a, b, c, t, types[3];
    int sz[2] = {6, 7}, sub[2] = {3, 2}, st[2] = {2, 4}, bl[3] = {2, 1, 1};
    MPI_Aint d[3] = {0, 300, 128};

    MPI_Type_create_subarray(2, sz, sub, st, MPI_ORDER_C, MPI_INT, &a);
    MPI_Type_create_resized(a, 4, 200, &b);
    MPI_Type_vector(3, 2, 3, b, &t); one("vector of resized subarray", t,
                                        MPI_INT);
    MPI_Type_vector(2, 1, 2, MPI_INT, &c);
    types[0] = b;
    types[1] = c;
    types[2] = MPI_INT;
    MPI_Type_create_struct(3, bl, d, types, &t);
    one("struct of resized, vector, int", t, MPI_INT);
    MPI_Type_free(&a);
    MPI_Type_dup(c, &t);
    MPI_Type_create_hvector(3, 1, 100, t, &a);
    MPI_Type_free(&t);
    one("hvector of dup of vector", a, MPI_INT);
    MPI_Type_free(&b);
    MPI_Type_free(&c);
}

static void errors(void)
{
    MPI_Datatype t, types[2] = {MPI_INT, MPI_FLOAT};
    ncp_extents e;
    int bl[2] = {1, 1};
    MPI_Aint d[2] = {0, 4};
    MPI_Datatype base;
    MPI_Type_create_struct(2, bl, d, types, &t);
    MPI_Type_commit(&t);
    check(ncp_dtype_flatten(t, &e, &base) == NC_EMULTITYPES,
          "struct of int and float: NC_EMULTITYPES");
    MPI_Type_free(&t);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    singles();
    nested();
    errors();
    printf("%ld passed, %ld failed\n", passed, failed);
    MPI_Finalize();
    return failed == 0 ? 0 : 1;
}
