/* ncp-test: NO_PNETCDF_CMP NO_CDL RANKS 1 2 4 TIMEOUT 300 */
/* t_faults_meta -- the error paths around the data (faultutil.h,
 * NCPARIO_TEST_FAULT): the header written at create and at enddef, the
 * data moved when a redef grows the header, numrecs written after a
 * record put, the header read at open, sync, close, and independent puts.
 * A collective call returns the same code on every rank, an independent
 * one fails on the failing rank alone; the file opens afterwards with the
 * header of its last successful enddef and a numrecs that counts no
 * record past the data written.
 */
#define _POSIX_C_SOURCE 200809L /* setenv */
#include "faultutil.h"
#include "have_ncpario.h"

/* Creates path with conf, defines one variable, ends define mode. */
static void create_faulty(const char *path, const char *conf,
                          int want_create, int want_enddef)
{
    int ncid, dim, var, err;
    setenv(FAULT_ENV, conf, 1);
    err = ncmpi_create(MPI_COMM_WORLD, path, NC_CLOBBER, MPI_INFO_NULL,
                       &ncid);
    unsetenv(FAULT_ENV);
    CHECKF(agreed(err, "create") == want_create, "scenario %d: create %s",
           nscen, ncmpi_strerrno(err));
    if (err != NC_NOERR) return;
    CHECK_ERR(ncmpi_def_dim(ncid, "x", 8, &dim));
    CHECK_ERR(ncmpi_def_var(ncid, "v", NC_INT, 1, &dim, &var));
    err = agreed(ncmpi_enddef(ncid), "enddef");
    CHECKF(err == want_enddef, "scenario %d: enddef %s", nscen,
           ncmpi_strerrno(err));
    CHECK_ERR(agreed(ncmpi_close(ncid), "close"));
}

/* The header at create, then at enddef, fails to be written. */
static void header_writes(void)
{
    char path[4096];
    int ncid, err;
    nscen++;
    path_of(path, sizeof path, nscen);
    create_faulty(path, "op=write_at,nth=1,ranks=0", NC_EWRITE, NC_NOERR);
    MPI_Barrier(MPI_COMM_WORLD);
    if (tu_myrank == 0) MPI_File_delete(path, MPI_INFO_NULL);

    nscen++;
    path_of(path, sizeof path, nscen);
    create_faulty(path, "op=write_at,nth=2,ranks=0", NC_NOERR, NC_EWRITE);
    /* What is on disk is the header written at create: a valid file
       with no variable. */
    err = ncmpi_open(MPI_COMM_WORLD, path, NC_NOWRITE, MPI_INFO_NULL, &ncid);
    CHECKF(agreed(err, "reopen") == NC_NOERR, "scenario %d: reopen %s",
           nscen, ncmpi_strerrno(err));
    if (err == NC_NOERR) {
        int nvars = -1;
        CHECK_ERR(ncmpi_inq_nvars(ncid, &nvars));
        CHECKF(nvars == 0, "scenario %d: %d variables", nscen, nvars);
        CHECK_ERR(ncmpi_close(ncid));
    }
}

/* Opening reads the header on rank 0: its failure fails every rank. */
static void header_read(void)
{
    char path[4096];
    ds_ids v;
    nscen++;
    path_of(path, sizeof path, nscen);
    make_file(path);
    CHECK(agreed(open_faulty(path, "op=read_at,ranks=0", 0, &v), "open") ==
          NC_EREAD);
    check_file(path, NREC, 0);
}

/* A record put whose data is written but whose numrecs is not: the
 * error on every rank, and numrecs on disk not raised. */
static void numrecs_write(void)
{
    char path[4096];
    ds_ids v;
    bufs b;
    MPI_Offset st[2] = {NREC, (MPI_Offset)tu_myrank * NX}, ct[2] = {1, NX};
    nscen++;
    path_of(path, sizeof path, nscen);
    make_file(path);
    bufs_fill(&b, 5);
    CHECK_ERR(open_faulty(path, "op=write_at,ranks=0", 0, &v));
    CHECK(agreed(ncmpi_put_vara_double_all(v.ncid, v.r, st, ct, b.r),
                 "record put") == NC_EWRITE);
    CHECK_ERR(agreed(ncmpi_close(v.ncid), "close"));
    check_file(path, NREC, 1);
}

/* With nc_sync_durable=enable a record put makes its data durable before
 * the numrecs that counts it: a sync that fails there fails the put on
 * every rank, and numrecs on disk is not raised.  Without the hint the
 * same put makes no sync at all, so the same fault never fires. */
static void durable_numrecs(void)
{
    char path[4096];
    ds_ids v;
    bufs b;
    MPI_Offset st[2] = {NREC, (MPI_Offset)tu_myrank * NX}, ct[2] = {1, NX};
    int durable;
    bufs_fill(&b, 6);
    for (durable = 0; durable < 2; durable++) {
        nscen++;
        path_of(path, sizeof path, nscen);
        make_file(path);
        CHECK_ERR(open_faulty_hint(path, "op=sync,ranks=all", 0,
                                   "nc_sync_durable",
                                   durable ? "enable" : "disable", &v));
        CHECKF(agreed(ncmpi_put_vara_double_all(v.ncid, v.r, st, ct, b.r),
                      "record put") == (durable ? NC_EFILE : NC_NOERR),
               "scenario %d: durable %d", nscen, durable);
        CHECK_ERR(agreed(ncmpi_close(v.ncid), "close"));
        check_file(path, durable ? NREC : NREC + 1, 1);
    }
}

/* A redef that grows the header moves the data; a failed move fails
 * enddef on every rank, and the file is rolled back: the old header, with
 * none of the new dimensions, and every old value in place. */
static void redef_move(void)
{
    char path[4096], name[32];
    ds_ids v;
    int k, dim;
    nscen++;
    path_of(path, sizeof path, nscen);
    make_file(path);
    CHECK_ERR(open_faulty(path, "op=write_at,ranks=all", 0, &v));
    CHECK_ERR(ncmpi_redef(v.ncid));
    for (k = 0; k < 64; k++) { /* a few KiB more header */
        snprintf(name, sizeof name, "a_long_dimension_name_%02d", k);
        CHECK_ERR(ncmpi_def_dim(v.ncid, name, 3, &dim));
    }
    CHECK(agreed(ncmpi_enddef(v.ncid), "enddef") == NC_EWRITE);
    CHECK_ERR(ncmpi_inq_ndims(v.ncid, &dim));
    CHECKF(dim == 2, "scenario %d: %d dimensions after the roll back", nscen,
           dim);
    CHECK_ERR(agreed(ncmpi_close(v.ncid), "close"));
    check_file(path, NREC, 0);
    check_values(path);
    MPI_Barrier(MPI_COMM_WORLD);
    if (tu_myrank == 0) MPI_File_delete(path, MPI_INFO_NULL);
}

/* sync and close fail on one rank: every rank reports it. */
static void sync_close(int rounds)
{
    char path[4096], conf[64];
    ds_ids v;
    bufs b, copy;
    MPI_Offset st[1] = {(MPI_Offset)tu_myrank * NX}, ct[1] = {NX};
    nscen++;
    path_of(path, sizeof path, nscen);
    make_file(path);
    snprintf(conf, sizeof conf, "op=sync,ranks=%d", tu_nranks - 1);
    CHECK_ERR(open_faulty(path, conf, rounds, &v));
    CHECK(agreed(ncmpi_sync(v.ncid), "sync") == NC_EFILE);
    CHECK_ERR(agreed(ncmpi_sync(v.ncid), "second sync"));
    CHECK_ERR(agreed(ncmpi_close(v.ncid), "close"));
    check_file(path, NREC, 0);

    nscen++;
    path_of(path, sizeof path, nscen);
    make_file(path);
    snprintf(conf, sizeof conf, "op=close,ranks=%d", tu_nranks - 1);
    CHECK_ERR(open_faulty(path, conf, rounds, &v));
    bufs_fill(&b, 9);
    memcpy(&copy, &b, sizeof b);
    CHECK_ERR(agreed(ncmpi_put_vara_double_all(v.ncid, v.d, st, ct, b.d),
                     "put"));
    CHECK(agreed(ncmpi_close(v.ncid), "close") == NC_EFILE);
    check_file(path, NREC, 0);
}

/* Independent puts written at the put (nc_indep_buffer_size=0, as
 * PnetCDF does): the failing rank alone reports; the others' records
 * count once the ranks agree on numrecs. */
static void independent(void)
{
    char path[4096];
    ds_ids v;
    bufs b, copy;
    MPI_Offset st[2] = {0, (MPI_Offset)tu_myrank * NX}, ct[2] = {1, NX};
    int rep, err;
    nscen++;
    path_of(path, sizeof path, nscen);
    make_file(path);
    CHECK_ERR(open_faulty_hint(path, "op=write,ranks=0", 0,
                               "nc_indep_buffer_size", "0", &v));
    CHECK_ERR(ncmpi_begin_indep_data(v.ncid));
    for (rep = 0; rep < 2; rep++) {
        bufs_fill(&b, rep);
        memcpy(&copy, &b, sizeof b);
        st[0] = NREC + rep;
        err = ncmpi_put_vara_double(v.ncid, v.r, st, ct, b.r);
        EXPECT_ERR(err, tu_myrank == 0 && rep == 0 ? NC_EWRITE : NC_NOERR);
        CHECK(memcmp(&b, &copy, sizeof b) == 0);
        err = ncmpi_put_vara_double(v.ncid, v.d, st + 1, ct + 1, b.d);
        CHECK_ERR(err);
        CHECK(memcmp(&b, &copy, sizeof b) == 0);
    }
    CHECK_ERR(agreed(ncmpi_end_indep_data(v.ncid), "end_indep_data"));
    CHECK_ERR(agreed(ncmpi_close(v.ncid), "close"));
    check_file(path, NREC + 2, 0);
}

#ifdef HAVE_NCPARIO
/* Whether this run's independent puts are held until a collective point:
 * ncpario on the posix driver (the mpiio driver writes them at once). */
static int puts_held(void)
{
    const char *hints = getenv("PNETCDF_HINTS");
    return !hints || !strstr(hints, "nc_driver=mpiio");
}

/* Independent puts held by ncpario: every put returns at once, the
 * failed write comes out of end_indep_data on every rank, the caller's
 * buffers are left as they were, and numrecs counts no record the flush
 * did not store. */
static void independent_held(void)
{
    char path[4096];
    ds_ids v;
    bufs b, copy;
    MPI_Offset st[2] = {0, (MPI_Offset)tu_myrank * NX}, ct[2] = {1, NX};
    int rep;
    nscen++;
    if (!puts_held()) return;
    path_of(path, sizeof path, nscen);
    make_file(path);
    CHECK_ERR(open_faulty(path, "op=write,ranks=0", 0, &v));
    CHECK_ERR(ncmpi_begin_indep_data(v.ncid));
    for (rep = 0; rep < 2; rep++) {
        bufs_fill(&b, rep);
        memcpy(&copy, &b, sizeof b);
        st[0] = NREC + rep;
        CHECK_ERR(ncmpi_put_vara_double(v.ncid, v.r, st, ct, b.r));
        CHECK_ERR(ncmpi_put_vara_double(v.ncid, v.d, st + 1, ct + 1, b.d));
        CHECK(memcmp(&b, &copy, sizeof b) == 0);
    }
    EXPECT_ERR(agreed(ncmpi_end_indep_data(v.ncid), "end_indep_data"),
               NC_EWRITE);
    CHECK_ERR(agreed(ncmpi_close(v.ncid), "close"));
    check_file(path, NREC, 1);
}
#endif

int main(int argc, char **argv)
{
    tu_init(&argc, &argv);
    base = tu_main_path(argc, argv);
    if (!base) return tu_finish("t_faults_meta");
    header_writes();
    header_read();
    numrecs_write();
    redef_move();
    durable_numrecs();
    sync_close(0);
    sync_close(1);
    independent();
#ifdef HAVE_NCPARIO
    independent_held();
#endif
    return tu_finish("t_faults_meta");
}
