/* ncp-test: NO_PNETCDF_CMP NO_CDL RANKS 1 2 4 TIMEOUT 300 */
/* t_faults -- the data calls' error paths, forced by the fault-injecting
 * driver (NCPARIO_TEST_FAULT, src/io/fault.c): a data transfer that fails
 * on one rank or on all, at the first call or a later one, with and
 * without I/O groups cut into rounds, for every kind of collective put
 * and get (blocking, iput/iget + wait_all, mput, varn, records), for
 * independent puts, and for the header and numrecs writes, sync and
 * close.  Whatever the driver or the groups (the test runs in every cell
 * of the ctest matrix), after each call:
 *   - every rank returns the same code (an independent call: only the
 *     failing rank fails);
 *   - a put leaves the caller's buffers as they were, a get writes
 *     nothing outside its own;
 *   - numrecs on disk counts no record past the last successful put;
 *   - the file stays a valid netCDF file that opens, with its variables.
 * ctest's TIMEOUT catches a hang.
 */
#define _POSIX_C_SOURCE 200809L /* setenv */
#include "faultutil.h"

enum kind { PUT_VARA, IPUT_WAIT, MPUT, PUT_VARN, PUT_REC, GET_VARA,
            IGET_WAIT, GET_VARN, NKINDS };
static const char *const kind_names[NKINDS] = {
    "put_vara_all", "iput+wait_all", "mput_all", "put_varn_all",
    "put record", "get_vara_all", "iget+wait_all", "get_varn_all"};

/* One collective call of kind k; a record put writes record rec. */
static int do_call(const ds_ids *v, int k, bufs *b, int rec)
{
    MPI_Offset st[2] = {(MPI_Offset)tu_myrank * NX, 0}, ct[2] = {NX, 0};
    MPI_Offset s0[2], c0[2], s1[2], c1[2];
    MPI_Offset *sts[2] = {s0, s1}, *cts[2] = {c0, c1};
    MPI_Offset *mst[3] = {st, st, st}, *mct[3] = {ct, ct, ct};
    int req[3], stat[3] = {0, 0, 0}, vids[3] = {v->d, v->i, v->s};
    void *mbufs[3] = {b->d, b->i, b->s};
    MPI_Offset mcounts[3] = {NX, NX, NX};
    MPI_Datatype mtypes[3] = {MPI_DOUBLE, MPI_INT, MPI_INT};
    int err = NC_NOERR, e;
    s0[0] = st[0], c0[0] = NX / 2;
    s1[0] = st[0] + NX / 2, c1[0] = NX - NX / 2;
    switch (k) {
    case PUT_VARA:
        return ncmpi_put_vara_double_all(v->ncid, v->d, st, ct, b->d);
    case GET_VARA:
        return ncmpi_get_vara_double_all(v->ncid, v->d, st, ct, b->d);
    case IPUT_WAIT:
    case IGET_WAIT:
        if (k == IPUT_WAIT) {
            err = ncmpi_iput_vara_double(v->ncid, v->d, st, ct, b->d, &req[0]);
            e = ncmpi_iput_vara_int(v->ncid, v->i, st, ct, b->i, &req[1]);
            if (err == NC_NOERR) err = e;
            e = ncmpi_iput_vara_int(v->ncid, v->s, st, ct, b->s, &req[2]);
        } else {
            err = ncmpi_iget_vara_double(v->ncid, v->d, st, ct, b->d, &req[0]);
            e = ncmpi_iget_vara_int(v->ncid, v->i, st, ct, b->i, &req[1]);
            if (err == NC_NOERR) err = e;
            e = ncmpi_iget_vara_int(v->ncid, v->s, st, ct, b->s, &req[2]);
        }
        if (err == NC_NOERR) err = e;
        CHECK_ERR(err);
        err = ncmpi_wait_all(v->ncid, 3, req, stat);
        /* Each request's status is the call's. */
        for (e = 0; e < 3; e++)
            CHECKF(stat[e] == err, "scenario %d: request %d status %d, "
                   "wait_all %d", nscen, e, stat[e], err);
        return err;
    case MPUT:
        return ncmpi_mput_vara_all(v->ncid, 3, vids, mst, mct, mbufs, mcounts,
                                   mtypes);
    case PUT_VARN:
        return ncmpi_put_varn_double_all(v->ncid, v->d, 2, sts, cts, b->d);
    case GET_VARN:
        return ncmpi_get_varn_double_all(v->ncid, v->d, 2, sts, cts, b->d);
    case PUT_REC:
        st[0] = rec, ct[0] = 1;
        st[1] = (MPI_Offset)tu_myrank * NX, ct[1] = NX;
        return ncmpi_put_vara_double_all(v->ncid, v->r, st, ct, b->r);
    }
    return NC_EINVAL;
}

/*
 * REPS calls of kind k on a file opened with conf.  nfail: how many of
 * them fail, with code want; -1: at most one (the failing rank may never
 * reach the driver: an I/O group member).
 */
static void run_data(int k, const char *conf, int rounds, int nfail_want,
                     int want)
{
    char path[4096];
    ds_ids v;
    bufs b, copy;
    int rep, nfail = 0, last_ok_rec = NREC - 1, err, is_get = k >= GET_VARA;
    nscen++;
    path_of(path, sizeof path, nscen);
    make_file(path);
    err = open_faulty(path, conf, rounds, &v);
    CHECKF(err == NC_NOERR, "scenario %d: open: %s", nscen,
           ncmpi_strerror(err));
    for (rep = 0; rep < REPS && err == NC_NOERR; rep++) {
        char what[128];
        int code;
        snprintf(what, sizeof what, "%s [%s]%s call %d", kind_names[k], conf,
                 rounds ? " rounds" : "", rep + 1);
        bufs_fill(&b, rep + 1);
        memcpy(&copy, &b, sizeof b);
        code = agreed(do_call(&v, k, &b, NREC + rep), what);
        if (code != NC_NOERR) {
            nfail++;
            CHECKF(code == want, "scenario %d, %s: %s, want %s", nscen, what,
                   ncmpi_strerrno(code), ncmpi_strerrno(want));
        } else if (k == PUT_REC) {
            last_ok_rec = NREC + rep;
        }
        if (!is_get)
            CHECKF(memcmp(&b, &copy, sizeof b) == 0,
                   "scenario %d, %s: the put changed the caller's buffer",
                   nscen, what);
        else /* no get reads into r: it must stay as it was */
            CHECKF(memcmp(b.r, copy.r, sizeof b.r) == 0,
                   "scenario %d, %s: the get wrote outside its buffers",
                   nscen, what);
    }
    CHECKF(nfail_want >= 0 ? nfail == nfail_want : nfail <= 1,
           "scenario %d, %s [%s]: %d of %d calls failed", nscen, kind_names[k],
           conf, nfail, REPS);
    CHECK_ERR(agreed(ncmpi_close(v.ncid), "close"));
    check_file(path, last_ok_rec + 1, k == PUT_REC && nfail > 0);
}

/* The faults of each call kind: %s is the operation, %d the last rank.
 * Rank 0 takes part in every transfer, alone or as its group's
 * aggregator, so a fault there always fires. */
static const struct {
    const char *conf;
    int nfail;
} faults[] = {
    {"op=%s,ranks=all", 1},
    {"op=%s,nth=3,ranks=0", 1},
    {"op=%s,nth=2,ranks=0,local=1", 1},
    {"op=%s,ranks=0,times=0", REPS},
    {"op=%s,nth=2,ranks=%d", -1},
    {"op=%s,nth=2,ranks=%d,local=1", -1},
};

int main(int argc, char **argv)
{
    char conf[128];
    int k, rounds, f;
    tu_init(&argc, &argv);
    base = tu_main_path(argc, argv);
    if (!base) return tu_finish("t_faults");
    for (rounds = 0; rounds <= 1; rounds++)
        for (k = 0; k < NKINDS; k++)
            for (f = 0; f < (int)(sizeof faults / sizeof faults[0]); f++) {
                int get = k >= GET_VARA;
                snprintf(conf, sizeof conf, faults[f].conf,
                         get ? "read" : "write", tu_nranks - 1);
                run_data(k, conf, rounds, faults[f].nfail,
                         get ? NC_EREAD : NC_EWRITE);
            }
    return tu_finish("t_faults");
}
