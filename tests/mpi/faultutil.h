/* faultutil.h -- what the t_faults* programs share: a file with every
 * kind of variable, opened with a fault configuration
 * (NCPARIO_TEST_FAULT, src/io/fault.c), and the checks that every rank
 * agrees on a code and that the file is still whole. */
#ifndef NCP_FAULTUTIL_H
#define NCP_FAULTUTIL_H

#include <stdlib.h>
#include <string.h>

#include "testutil.h"

#define FAULT_ENV "NCPARIO_TEST_FAULT"
#define NX 256   /* elements per rank in each variable */
#define NREC 4   /* records written at setup */
#define REPS 4   /* calls per scenario: a one-shot fault hits one */

static const char *base; /* the main output path */
static int nscen;         /* the scenario running, for messages */

typedef struct ds_ids {
    int ncid, d, i, s, r; /* double x, int x, short x, double rec x x */
} ds_ids;

/* Every rank's buffers: what a put sends, a copy to compare with. */
typedef struct bufs {
    double d[NX], r[NX];
    int i[NX], s[NX];
} bufs;

static inline void bufs_fill(bufs *b, int salt)
{
    int k;
    for (k = 0; k < NX; k++) {
        b->d[k] = tu_myrank * 1000.5 + k + salt;
        b->r[k] = -(tu_myrank * 1000.25 + k + salt);
        b->i[k] = tu_myrank * 100000 + k * 7 + salt;
        b->s[k] = (tu_myrank * 100 + k + salt) % 30000;
    }
}

/* Every rank returned the same code, which is want (want 1: NC_NOERR or
 * fail, whichever, as long as all agree). */
static inline int agreed(int err, const char *what)
{
    int lo = err, hi = err;
    MPI_Allreduce(MPI_IN_PLACE, &lo, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    MPI_Allreduce(MPI_IN_PLACE, &hi, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    CHECKF(lo == hi, "scenario %d, %s: codes differ between ranks (%d..%d)",
           nscen, what, lo, hi);
    return lo;
}

static inline void path_of(char *out, size_t n, int k)
{
    snprintf(out, n, "%.*s_s%d.nc", (int)(strlen(base) - 3), base, k);
}

/* The scenario's file, defined and filled with every variable and NREC
 * records, closed; no fault. */
static inline void make_file(const char *path)
{
    ds_ids v;
    int dims[2];
    bufs b;
    MPI_Offset st[2], ct[2];
    int k;
    bufs_fill(&b, 0);
    CHECK_ERR(ncmpi_create(MPI_COMM_WORLD, path, NC_CLOBBER | NC_64BIT_DATA,
                           MPI_INFO_NULL, &v.ncid));
    CHECK_ERR(ncmpi_def_dim(v.ncid, "rec", NC_UNLIMITED, &dims[0]));
    CHECK_ERR(ncmpi_def_dim(v.ncid, "x", (MPI_Offset)NX * tu_nranks,
                            &dims[1]));
    CHECK_ERR(ncmpi_def_var(v.ncid, "d", NC_DOUBLE, 1, &dims[1], &v.d));
    CHECK_ERR(ncmpi_def_var(v.ncid, "i", NC_INT, 1, &dims[1], &v.i));
    CHECK_ERR(ncmpi_def_var(v.ncid, "s", NC_SHORT, 1, &dims[1], &v.s));
    CHECK_ERR(ncmpi_def_var(v.ncid, "r", NC_DOUBLE, 2, dims, &v.r));
    CHECK_ERR(ncmpi_enddef(v.ncid));
    st[0] = (MPI_Offset)tu_myrank * NX;
    ct[0] = NX;
    CHECK_ERR(ncmpi_put_vara_double_all(v.ncid, v.d, st, ct, b.d));
    CHECK_ERR(ncmpi_put_vara_int_all(v.ncid, v.i, st, ct, b.i));
    CHECK_ERR(ncmpi_put_vara_int_all(v.ncid, v.s, st, ct, b.s));
    for (k = 0; k < NREC; k++) {
        st[0] = k, ct[0] = 1;
        st[1] = (MPI_Offset)tu_myrank * NX, ct[1] = NX;
        CHECK_ERR(ncmpi_put_vara_double_all(v.ncid, v.r, st, ct, b.r));
    }
    CHECK_ERR(ncmpi_close(v.ncid));
}

/* Opens path for writing with the fault conf (NULL: none), the hint
 * key=value (NULL: none) and, when rounds, I/O groups of every rank with a
 * small staging buffer. */
static inline int open_faulty_hint(const char *path, const char *conf,
                                   int rounds, const char *key,
                                   const char *value, ds_ids *v)
{
    MPI_Info info = MPI_INFO_NULL;
    int err;
    if (rounds || key) MPI_Info_create(&info);
    if (rounds) {
        MPI_Info_set(info, "nc_io_group_size", "all");
        MPI_Info_set(info, "nc_io_group_buffer_size", "1024");
    }
    if (key) MPI_Info_set(info, key, value);
    if (conf) setenv(FAULT_ENV, conf, 1);
    err = ncmpi_open(MPI_COMM_WORLD, path, NC_WRITE, info, &v->ncid);
    unsetenv(FAULT_ENV);
    if (info != MPI_INFO_NULL) MPI_Info_free(&info);
    if (err != NC_NOERR) return err;
    CHECK_ERR(ncmpi_inq_varid(v->ncid, "d", &v->d));
    CHECK_ERR(ncmpi_inq_varid(v->ncid, "i", &v->i));
    CHECK_ERR(ncmpi_inq_varid(v->ncid, "s", &v->s));
    CHECK_ERR(ncmpi_inq_varid(v->ncid, "r", &v->r));
    return NC_NOERR;
}

static inline int open_faulty(const char *path, const char *conf, int rounds,
                              ds_ids *v)
{
    return open_faulty_hint(path, conf, rounds, NULL, NULL, v);
}

/* The file opens without faults, holds its four variables, and its
 * numrecs is exactly want.  Where a record put failed, the bytes other
 * ranks wrote for it may lie past numrecs: the file still opens and
 * reads, but ncvalidator rejects a file longer than its records, so the
 * caller removes such a file (drop). */
static inline void check_file(const char *path, MPI_Offset want, int drop)
{
    int ncid, nvars = 0, err;
    MPI_Offset nrec = -1;
    err = ncmpi_open(MPI_COMM_WORLD, path, NC_NOWRITE, MPI_INFO_NULL, &ncid);
    CHECKF(err == NC_NOERR, "scenario %d: reopen: %s", nscen,
           ncmpi_strerror(err));
    if (err != NC_NOERR) return;
    CHECK_ERR(ncmpi_inq_nvars(ncid, &nvars));
    CHECK_ERR(ncmpi_inq_dimlen(ncid, 0, &nrec));
    CHECKF(nvars == 4, "scenario %d: %d variables", nscen, nvars);
    CHECKF(nrec == want, "scenario %d: numrecs %lld, want %lld", nscen,
           (long long)nrec, (long long)want);
    CHECK_ERR(ncmpi_close(ncid));
    MPI_Barrier(MPI_COMM_WORLD);
    if (drop && tu_myrank == 0) MPI_File_delete(path, MPI_INFO_NULL);
}

/* The values make_file wrote are all there: this rank's part of each
 * fixed variable and of every one of its NREC records. */
static inline void check_values(const char *path)
{
    ds_ids v;
    bufs want, got;
    MPI_Offset st[2] = {0, (MPI_Offset)tu_myrank * NX}, ct[2] = {1, NX};
    int k, bad = 0, err;
    bufs_fill(&want, 0);
    err = ncmpi_open(MPI_COMM_WORLD, path, NC_NOWRITE, MPI_INFO_NULL,
                     &v.ncid);
    CHECKF(err == NC_NOERR, "scenario %d: reopen: %s", nscen,
           ncmpi_strerror(err));
    if (err != NC_NOERR) return;
    CHECK_ERR(ncmpi_inq_varid(v.ncid, "d", &v.d));
    CHECK_ERR(ncmpi_inq_varid(v.ncid, "i", &v.i));
    CHECK_ERR(ncmpi_inq_varid(v.ncid, "s", &v.s));
    CHECK_ERR(ncmpi_inq_varid(v.ncid, "r", &v.r));
    CHECK_ERR(ncmpi_get_vara_double_all(v.ncid, v.d, &st[1], &ct[1], got.d));
    CHECK_ERR(ncmpi_get_vara_int_all(v.ncid, v.i, &st[1], &ct[1], got.i));
    CHECK_ERR(ncmpi_get_vara_int_all(v.ncid, v.s, &st[1], &ct[1], got.s));
    for (k = 0; k < NX; k++)
        bad += got.d[k] != want.d[k] || got.i[k] != want.i[k] ||
               got.s[k] != want.s[k];
    for (st[0] = 0; st[0] < NREC; st[0]++) {
        CHECK_ERR(ncmpi_get_vara_double_all(v.ncid, v.r, st, ct, got.r));
        for (k = 0; k < NX; k++) bad += got.r[k] != want.r[k];
    }
    CHECKF(bad == 0, "scenario %d: %d values differ from make_file's", nscen,
           bad);
    CHECK_ERR(ncmpi_close(v.ncid));
}

#endif
