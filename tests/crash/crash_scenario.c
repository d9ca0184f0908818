/*
 * crash_scenario.c -- the programs the crash tests stop dead (run_crash.py).
 *
 *   crash_scenario SCENARIO FILE setup   make FILE as the scenario needs it
 *   crash_scenario SCENARIO FILE run     do the scenario's writes
 *   crash_scenario SCENARIO FILE check   after a stop: is what was synced
 *                                        there?  (exit 1 if not)
 *
 * The setup file has two fixed variables, fa and fb, and a record
 * variable r with NREC0 records, all with values known from their
 * coordinates.  "run" appends a line to FILE.progress each time a call
 * that promises durability returns (enddef, sync, end_indep_data, a
 * collective wait_all, close): after a stop, "check" holds the file
 * against the last line.  Scenarios:
 *
 *   append_coll    NADD records, collective puts, a sync after each
 *   append_indep   the same in independent mode, end_indep_data after each
 *   append_nb      the same with iput and a collective wait_all
 *   redef_att      redef, a 1000-byte global attribute, enddef: the header
 *                  grows, every variable moves
 *   redef_fixvar   redef, a new dimension and fixed variable: the records
 *                  move
 *   redef_recvar   redef, a new record variable: recsize grows, every
 *                  record moves
 *   create         a new file: define, enddef, put, close
 *
 * Under write-behind (nc_write_behind=enable, from PNETCDF_HINTS), a
 * wait_all returns before its data is in the file: append_nb makes its
 * records durable with ncpario_flush_wait instead, the promise that mode
 * keeps.
 *
 * CRASH_SCALE=K in the environment multiplies the records at setup and
 * those an append adds by K, for runs long enough to kill at random.
 */
#include <mpi.h>
#include <ncpario.h>
#include <pnetcdf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NX 64     /* elements of each fixed variable and of a record */

/* Records at setup, and records an append scenario adds: 12 and 4, times
 * CRASH_SCALE from the environment (the soak's longer runs). */
static int NREC0 = 12, NADD = 4;
static int rank, nranks;

static double fa_at(int i) { return 1000.0 + i; }
static double fb_at(int i) { return -2000.0 - i; }
static double r_at(int rec, int i) { return rec * 100.0 + i * 0.5; }

/* This rank's share of [0, n): start and count. */
static void share(int n, MPI_Offset *st, MPI_Offset *ct)
{
    int per = (n + nranks - 1) / nranks;
    int lo = rank * per < n ? rank * per : n;
    int hi = lo + per < n ? lo + per : n;
    *st = lo;
    *ct = hi - lo;
}

static int fail(const char *what, int err)
{
    fprintf(stderr, "crash_scenario: %s: %s\n", what, ncmpi_strerror(err));
    return 1;
}

static void progress(const char *file, const char *line)
{
    char path[4096];
    FILE *f;
    if (rank != 0) return;
    snprintf(path, sizeof path, "%s.progress", file);
    if ((f = fopen(path, "a")) != NULL) {
        fprintf(f, "%s\n", line);
        fclose(f);
    }
}

static int put_record(int nc, int v, int rec, int collective)
{
    double buf[NX];
    MPI_Offset st[2], ct[2];
    int i, err;
    share(NX, &st[1], &ct[1]);
    st[0] = rec;
    ct[0] = 1;
    for (i = 0; i < ct[1]; i++) buf[i] = r_at(rec, (int)st[1] + i);
    err = collective ? ncmpi_put_vara_double_all(nc, v, st, ct, buf)
                     : ncmpi_put_vara_double(nc, v, st, ct, buf);
    return err;
}

static int define_base(int nc, int *fa, int *fb, int *r)
{
    int dt, dx, dims[2], err;
    err = ncmpi_def_dim(nc, "time", NC_UNLIMITED, &dt);
    if (!err) err = ncmpi_def_dim(nc, "x", NX, &dx);
    if (!err) err = ncmpi_def_var(nc, "fa", NC_DOUBLE, 1, &dx, fa);
    if (!err) err = ncmpi_def_var(nc, "fb", NC_DOUBLE, 1, &dx, fb);
    dims[0] = dt;
    dims[1] = dx;
    if (!err) err = ncmpi_def_var(nc, "r", NC_DOUBLE, 2, dims, r);
    return err;
}

static int put_fixed(int nc, int fa, int fb)
{
    double a[NX], b[NX];
    MPI_Offset st, ct;
    int i, err;
    share(NX, &st, &ct);
    for (i = 0; i < ct; i++) {
        a[i] = fa_at((int)st + i);
        b[i] = fb_at((int)st + i);
    }
    err = ncmpi_put_vara_double_all(nc, fa, &st, &ct, a);
    if (!err) err = ncmpi_put_vara_double_all(nc, fb, &st, &ct, b);
    return err;
}

static int setup(const char *file)
{
    int nc, fa, fb, r, k, err;
    err = ncmpi_create(MPI_COMM_WORLD, file, NC_CLOBBER, MPI_INFO_NULL, &nc);
    if (err) return fail("create", err);
    err = define_base(nc, &fa, &fb, &r);
    if (!err) err = ncmpi_enddef(nc);
    if (!err) err = put_fixed(nc, fa, fb);
    for (k = 0; k < NREC0 && !err; k++) err = put_record(nc, r, k, 1);
    if (!err) err = ncmpi_close(nc);
    return err ? fail("setup", err) : 0;
}

/* Whether nc writes behind (then a wait_all leaves its data on the way). */
static int writes_behind(int nc)
{
    MPI_Info info;
    char v[MPI_MAX_INFO_VAL + 1] = "";
    int flag = 0;
    if (ncmpi_inq_file_info(nc, &info) != NC_NOERR) return 0;
    MPI_Info_get(info, "nc_write_behind", MPI_MAX_INFO_VAL, v, &flag);
    MPI_Info_free(&info);
    return flag && strcmp(v, "enable") == 0;
}

/* NADD records after NREC0, each made durable by the scenario's call. */
static int run_append(const char *file, const char *how)
{
    int nc, r, k, err, req, st = 0;
    char line[64];
    err = ncmpi_open(MPI_COMM_WORLD, file, NC_WRITE, MPI_INFO_NULL, &nc);
    if (!err) err = ncmpi_inq_varid(nc, "r", &r);
    if (!err && strcmp(how, "indep") == 0) err = ncmpi_begin_indep_data(nc);
    for (k = NREC0; k < NREC0 + NADD && !err; k++) {
        if (strcmp(how, "coll") == 0) {
            err = put_record(nc, r, k, 1);
            if (!err) err = ncmpi_sync(nc);
        } else if (strcmp(how, "indep") == 0) {
            err = put_record(nc, r, k, 0);
            if (!err) err = ncmpi_end_indep_data(nc);
            if (!err) err = ncmpi_begin_indep_data(nc);
        } else {
            double buf[NX];
            MPI_Offset s[2], c[2];
            int i;
            share(NX, &s[1], &c[1]);
            s[0] = k;
            c[0] = 1;
            for (i = 0; i < c[1]; i++) buf[i] = r_at(k, (int)s[1] + i);
            err = ncmpi_iput_vara_double(nc, r, s, c, buf, &req);
            if (!err) err = ncmpi_wait_all(nc, 1, &req, &st);
            if (!err) err = st;
            if (!err && writes_behind(nc)) err = ncpario_flush_wait(nc);
        }
        snprintf(line, sizeof line, "records %d", k + 1);
        if (!err) progress(file, line);
    }
    if (!err) err = ncmpi_close(nc);
    if (!err) progress(file, "closed");
    return err ? fail("append", err) : 0;
}

static int run_redef(const char *file, const char *what)
{
    int nc, d, v, dims[2], err;
    char text[1000];
    memset(text, 'a', sizeof text);
    err = ncmpi_open(MPI_COMM_WORLD, file, NC_WRITE, MPI_INFO_NULL, &nc);
    if (!err) err = ncmpi_redef(nc);
    if (!err && strcmp(what, "att") == 0)
        err = ncmpi_put_att_text(nc, NC_GLOBAL, "big", sizeof text, text);
    if (!err && strcmp(what, "fixvar") == 0) {
        err = ncmpi_def_dim(nc, "y", 1000, &d);
        if (!err) err = ncmpi_def_var(nc, "fy", NC_INT, 1, &d, &v);
    }
    if (!err && strcmp(what, "recvar") == 0) {
        dims[0] = 0;
        err = ncmpi_inq_dimid(nc, "x", &dims[1]);
        if (!err) err = ncmpi_def_var(nc, "r2", NC_INT, 2, dims, &v);
    }
    if (!err) err = ncmpi_enddef(nc);
    if (!err) progress(file, "enddef");
    if (!err) err = ncmpi_close(nc);
    if (!err) progress(file, "closed");
    return err ? fail("redef", err) : 0;
}

static int run_create(const char *file)
{
    int nc, fa, fb, r, err;
    err = ncmpi_create(MPI_COMM_WORLD, file, NC_CLOBBER, MPI_INFO_NULL, &nc);
    if (!err) err = define_base(nc, &fa, &fb, &r);
    if (!err) err = ncmpi_enddef(nc);
    if (!err) progress(file, "enddef");
    if (!err) err = put_fixed(nc, fa, fb);
    if (!err) err = ncmpi_close(nc);
    if (!err) progress(file, "closed");
    return err ? fail("create", err) : 0;
}

/* The last line of FILE.progress ("" when none). */
static void last_progress(const char *file, char *line, size_t cap)
{
    char path[4096], buf[128];
    FILE *f;
    line[0] = '\0';
    snprintf(path, sizeof path, "%s.progress", file);
    if ((f = fopen(path, "r")) == NULL) return;
    while (fgets(buf, sizeof buf, f) != NULL) {
        buf[strcspn(buf, "\n")] = '\0';
        snprintf(line, cap, "%s", buf);
    }
    fclose(f);
}

/* Whole variable v against f(i); records: want those below nrec whole. */
static int check_fixed(int nc, const char *name, double (*f)(int))
{
    double buf[NX];
    int v, i, err = ncmpi_inq_varid(nc, name, &v);
    if (!err) err = ncmpi_get_var_double_all(nc, v, buf);
    if (err) return fail(name, err);
    for (i = 0; i < NX; i++)
        if (buf[i] != f(i)) {
            fprintf(stderr, "check: %s[%d] = %g, want %g\n", name, i, buf[i],
                    f(i));
            return 1;
        }
    return 0;
}

static int check_records(int nc, int want)
{
    double buf[NX];
    MPI_Offset st[2] = {0, 0}, ct[2] = {1, NX}, nrec = 0;
    int r, dt, i, err = ncmpi_inq_varid(nc, "r", &r);
    if (!err) err = ncmpi_inq_unlimdim(nc, &dt);
    if (!err) err = ncmpi_inq_dimlen(nc, dt, &nrec);
    if (err) return fail("records", err);
    if (nrec < want) {
        fprintf(stderr, "check: %lld records, %d were synced\n",
                (long long)nrec, want);
        return 1;
    }
    for (st[0] = 0; st[0] < want; st[0]++) {
        if ((err = ncmpi_get_vara_double_all(nc, r, st, ct, buf)))
            return fail("record", err);
        for (i = 0; i < NX; i++)
            if (buf[i] != r_at((int)st[0], i)) {
                fprintf(stderr, "check: r[%lld][%d] = %g, want %g\n",
                        (long long)st[0], i, buf[i], r_at((int)st[0], i));
                return 1;
            }
    }
    return 0;
}

/* The schema a redef scenario adds is there (1) or not (0). */
static int has_new(int nc, const char *scenario)
{
    MPI_Offset len;
    int id;
    if (strcmp(scenario, "redef_att") == 0)
        return ncmpi_inq_attlen(nc, NC_GLOBAL, "big", &len) == NC_NOERR;
    if (strcmp(scenario, "redef_fixvar") == 0)
        return ncmpi_inq_varid(nc, "fy", &id) == NC_NOERR;
    return ncmpi_inq_varid(nc, "r2", &id) == NC_NOERR;
}

static int check(const char *scenario, const char *file)
{
    char line[128];
    int nc, err, bad = 0, synced = NREC0, nvars = 0;
    last_progress(file, line, sizeof line);
    err = ncmpi_open(MPI_COMM_WORLD, file, NC_NOWRITE, MPI_INFO_NULL, &nc);
    /* a kill before create made the file leaves none */
    if (err == NC_ENOENT && strcmp(scenario, "create") == 0 && !line[0])
        return 0;
    if (err) return fail("open after the stop", err);
    if (strncmp(line, "records ", 8) == 0) synced = atoi(line + 8);
    if (strcmp(line, "closed") == 0 && strncmp(scenario, "append", 6) == 0)
        synced = NREC0 + NADD;
    if (strcmp(scenario, "create") == 0) {
        ncmpi_inq_nvars(nc, &nvars);
        if (line[0] != '\0' && nvars != 3) {
            fprintf(stderr, "check: %d variables after enddef\n", nvars);
            bad = 1;
        }
        if (!bad && strcmp(line, "closed") == 0)
            bad = check_fixed(nc, "fa", fa_at) || check_fixed(nc, "fb", fb_at);
    } else {
        bad = check_fixed(nc, "fa", fa_at) || check_fixed(nc, "fb", fb_at) ||
              check_records(nc, synced);
        if (!bad && strncmp(scenario, "redef", 5) == 0 && line[0] != '\0' &&
            !has_new(nc, scenario)) {
            fprintf(stderr, "check: enddef returned, but its change is "
                            "not in the file\n");
            bad = 1;
        }
    }
    err = ncmpi_close(nc);
    return bad || (err && fail("close", err));
}

int main(int argc, char **argv)
{
    const char *sc, *file, *phase;
    int rc = 2;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nranks);
    if (getenv("CRASH_SCALE") != NULL && atoi(getenv("CRASH_SCALE")) > 0) {
        NREC0 *= atoi(getenv("CRASH_SCALE"));
        NADD *= atoi(getenv("CRASH_SCALE"));
    }
    if (argc != 4) {
        if (rank == 0)
            fprintf(stderr, "usage: %s SCENARIO FILE setup|run|check\n",
                    argv[0]);
        goto done;
    }
    sc = argv[1];
    file = argv[2];
    phase = argv[3];
    if (strcmp(phase, "setup") == 0)
        rc = strcmp(sc, "create") == 0 ? 0 : setup(file);
    else if (strcmp(phase, "check") == 0)
        rc = check(sc, file);
    else if (strncmp(sc, "append_", 7) == 0)
        rc = run_append(file, sc + 7);
    else if (strncmp(sc, "redef_", 6) == 0)
        rc = run_redef(file, sc + 6);
    else if (strcmp(sc, "create") == 0)
        rc = run_create(file);
done:
    MPI_Finalize();
    return rc;
}
