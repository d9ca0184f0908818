/*
 * fault.c -- the fault-injecting driver, for tests only.
 *
 * With NCPARIO_TEST_FAULT set in rank 0's environment when a file is
 * created or opened, the file's driver is wrapped by one that passes every
 * call on and makes chosen calls fail, for example
 *
 *     NCPARIO_TEST_FAULT="op=write,nth=3,ranks=1"
 *
 *   op     which driver call fails: write or read (a data transfer,
 *          collective or not), write_at or read_at (header bytes, numrecs,
 *          data moved at enddef), sync, set_size, close, or behind (a
 *          write-behind buffer's background write: it is staged, and
 *          fails when its turn comes, as a full disk would)
 *   nth    the first call of that kind to fail, counted from 1 on each
 *          rank over the file and its I/O groups' aggregators' file
 *          (default 1)
 *   times  how many calls fail from the nth on; 0: every one (default 1)
 *   ranks  the ranks (of the dataset's communicator) where calls fail,
 *          "all" or a list joined by '+', e.g. 0+2 (default all)
 *   err    the NC_* code returned (default NC_EWRITE for writes, NC_EREAD
 *          for reads, NC_EFILE otherwise)
 *   local  1: a failed collective call reports its error on the failing
 *          rank alone, as an MPI-IO layer may; default 0, every rank of
 *          the call's communicator returns the worst code, as the posix
 *          driver and the I/O groups promise
 *
 * A failing independent call moves nothing.  A failing collective call
 * still joins the real driver's call, with no extents (xferv) or as it is
 * (sync, set_size, close), so a fault never hangs the other ranks by
 * itself.  A bad configuration is reported on stderr and injects nothing.
 */
#include "ncp_fault.h"
#include "ncp_io_driver.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pnetcdf.h"

#ifdef NCP_FAULT_INJECTION

#define FAULT_ENV "NCPARIO_TEST_FAULT"
#define FAULT_CONF_MAX 256

enum { OP_WRITE, OP_READ, OP_WRITE_AT, OP_READ_AT, OP_SYNC, OP_SET_SIZE,
       OP_CLOSE, OP_BEHIND, NOPS };

static const char *const op_names[NOPS] = {
    "write", "read", "write_at", "read_at", "sync", "set_size", "close",
    "behind"};
static const int op_errs[NOPS] = {NC_EWRITE, NC_EREAD, NC_EWRITE, NC_EREAD,
                                  NC_EFILE, NC_EFILE, NC_EFILE, NC_EWRITE};

/* The wrapper: vt first, so that f->drv points at the whole. */
typedef struct fault_drv {
    ncp_io_driver vt;
    const ncp_io_driver *inner;
    int op;        /* which call fails */
    int err;       /* with this code */
    int chosen;    /* this rank is one that fails */
    int local;     /* collective failures are not agreed */
    int64_t nth, times;
    int64_t count; /* calls of kind op so far on this rank */
} fault_drv;

/* The wrapper's state: the file's own, even when a stacking driver sits
 * on top of the wrapper; a file opened straight on the wrapper (the I/O
 * groups' aggregators' file) shares it through its driver pointer. */
static fault_drv *state_of(const ncp_file *f)
{
    if (f->fault) return f->fault;
    return (fault_drv *)(uintptr_t)f->drv;
}

/* Counts a call of kind op; whether it is to fail. */
static int fires(fault_drv *s, int op)
{
    if (s->op != op) return 0;
    s->count++;
    return s->chosen && s->count >= s->nth &&
           (s->times == 0 || s->count < s->nth + s->times);
}

/* A collective call's code: the failure agreed unless local. */
static int collective_code(ncp_file *f, int fired, int rc)
{
    fault_drv *s = state_of(f);
    if (fired) rc = s->err;
    return s->local ? rc : ncp_agree(f->comm, rc);
}

static int fault_swaps(const ncp_file *f, int collective, int is_write)
{
    return state_of(f)->inner->swaps(f, collective, is_write);
}

static int fault_open(ncp_file *f, int create, int clobber)
{
    return state_of(f)->inner->open(f, create, clobber);
}

static int fault_close(ncp_file *f)
{
    fault_drv *s = state_of(f);
    int rc = s->inner->close(f);
    return fires(s, OP_CLOSE) ? s->err : rc;
}

static int fault_xferv(ncp_file *f, int collective, int is_write,
                       const ncp_extents *ext, const ncp_extents *mem)
{
    static const ncp_extents none = {0};
    fault_drv *s = state_of(f);
    int fired = fires(s, is_write ? OP_WRITE : OP_READ), rc = s->err;
    if (collective) {
        rc = s->inner->xferv(f, 1, is_write, fired ? &none : ext,
                             fired ? &none : mem);
        rc = collective_code(f, fired, rc);
    } else if (!fired) {
        rc = s->inner->xferv(f, 0, is_write, ext, mem);
    }
    return rc;
}

static int fault_write_at(ncp_file *f, MPI_Offset off, const void *buf,
                          int64_t n)
{
    fault_drv *s = state_of(f);
    return fires(s, OP_WRITE_AT) ? s->err : s->inner->write_at(f, off, buf, n);
}

static int fault_read_at(ncp_file *f, MPI_Offset off, void *buf, int64_t n,
                         int64_t *got)
{
    fault_drv *s = state_of(f);
    *got = 0;
    return fires(s, OP_READ_AT) ? s->err
                                : s->inner->read_at(f, off, buf, n, got);
}

static int fault_get_size(ncp_file *f, MPI_Offset *size)
{
    return state_of(f)->inner->get_size(f, size);
}

static int fault_set_size(ncp_file *f, MPI_Offset size)
{
    fault_drv *s = state_of(f);
    int fired = fires(s, OP_SET_SIZE);
    return collective_code(f, fired, s->inner->set_size(f, size));
}

static int fault_sync(ncp_file *f)
{
    fault_drv *s = state_of(f);
    int fired = fires(s, OP_SYNC);
    return collective_code(f, fired, s->inner->sync(f));
}

static int fault_get_info(ncp_file *f, MPI_Info *info)
{
    return state_of(f)->inner->get_info(f, info);
}

/* Whether rank me is in list ("all" or ranks joined by '+');
 * the whole list is checked, so every rank finds the same *ok. */
static int rank_listed(const char *list, int me, int *ok)
{
    const char *p = list;
    int all = strcmp(list, "all") == 0, found = all;
    *ok = all || *p != '\0';
    while (!all && *p && *ok) {
        char *end;
        long r = strtol(p, &end, 10);
        if (end == p || (*end && *end != '+')) *ok = 0;
        if (r == me) found = 1;
        p = *end ? end + 1 : end;
    }
    return found;
}

/* A numeric key into s; 0 when key is none of them. */
static int set_number(fault_drv *s, const char *key, long long v,
                      int *err_set)
{
    int ok = 1;
    if (strcmp(key, "nth") == 0) s->nth = v;
    else if (strcmp(key, "times") == 0) s->times = v;
    else if (strcmp(key, "local") == 0) s->local = v != 0;
    else if (strcmp(key, "err") == 0) s->err = (int)v, *err_set = 1;
    else ok = 0;
    return ok;
}

/* One key=value of the configuration into s; 0 when it is not one. */
static int parse_pair(fault_drv *s, char *pair, int me, int *err_set)
{
    char *val = strchr(pair, '='), *end = NULL;
    int i, ok = val != NULL;
    if (ok) *val++ = '\0';
    if (ok && strcmp(pair, "op") == 0) {
        for (i = 0; i < NOPS && strcmp(val, op_names[i]) != 0; i++) {}
        s->op = i;
        ok = i < NOPS;
    } else if (ok && strcmp(pair, "ranks") == 0) {
        s->chosen = rank_listed(val, me, &ok);
    } else if (ok) {
        long long v = strtoll(val, &end, 10);
        ok = end != val && *end == '\0' && set_number(s, pair, v, err_set);
    }
    return ok && s->nth >= 1 && s->times >= 0;
}

/* conf into s; 0 when it is malformed. */
static int parse_conf(fault_drv *s, char *conf, int me)
{
    char *save = NULL, *pair;
    int err_set = 0, ok = 1;
    s->op = -1;
    s->nth = 1;
    s->times = 1;
    s->chosen = 1;
    for (pair = strtok_r(conf, ",", &save); pair && ok;
         pair = strtok_r(NULL, ",", &save))
        ok = parse_pair(s, pair, me, &err_set);
    ok = ok && s->op >= 0;
    if (ok && !err_set) s->err = op_errs[s->op];
    return ok;
}

/* Rank 0's configuration, the same on every rank; "" for none. */
static void conf_share(ncp_file *f, char conf[FAULT_CONF_MAX])
{
    int rank;
    MPI_Comm_rank(f->comm, &rank);
    memset(conf, 0, FAULT_CONF_MAX);
    if (rank == 0) {
        const char *env = getenv(FAULT_ENV);
        if (env) snprintf(conf, FAULT_CONF_MAX, "%s", env);
    }
    MPI_Bcast(conf, FAULT_CONF_MAX, MPI_CHAR, 0, f->comm);
}

static void vtable_fill(fault_drv *s)
{
    const ncp_io_driver *in = s->inner;
    s->vt.name = in->name; /* what the file reports as its driver */
    s->vt.codes_local = s->local;
    s->vt.moves_alone = in->moves_alone;
    s->vt.swaps = in->swaps ? fault_swaps : NULL;
    s->vt.open = fault_open;
    s->vt.close = fault_close;
    s->vt.xferv = fault_xferv;
    s->vt.write_at = fault_write_at;
    s->vt.read_at = fault_read_at;
    s->vt.get_size = fault_get_size;
    s->vt.set_size = fault_set_size;
    s->vt.sync = fault_sync;
    s->vt.get_info = fault_get_info;
}

int ncp_fault_wrap(ncp_file *f)
{
    char conf[FAULT_CONF_MAX];
    fault_drv *s = NULL;
    int me, rc = NC_NOERR;
    conf_share(f, conf);
    if (!conf[0]) goto done;
    MPI_Comm_rank(f->comm, &me);
    s = calloc(1, sizeof(*s));
    rc = !s ? NC_ENOMEM : parse_conf(s, conf, me) ? NC_NOERR : NC_EINVAL;
    rc = ncp_agree(f->comm, rc);
    if (rc == NC_EINVAL && me == 0)
        fprintf(stderr, "ncpario: ignoring malformed " FAULT_ENV "\n");
    if (rc != NC_NOERR) goto done;
    s->inner = f->drv;
    f->fault = s;
    vtable_fill(s);
    f->drv = &s->vt;
    s = NULL; /* f owns it */
done:
    free(s);
    return rc == NC_EINVAL ? NC_NOERR : rc;
}

void ncp_fault_release(ncp_file *f)
{
    free(f->fault);
    f->fault = NULL;
}

int ncp_fault_behind(const ncp_file *f)
{
    fault_drv *s = f->fault;
    if (!s && f->drv && f->drv->xferv == fault_xferv) s = state_of(f);
    return s && fires(s, OP_BEHIND) ? s->err : NC_NOERR;
}

#else /* !NCP_FAULT_INJECTION */

int ncp_fault_wrap(ncp_file *f)
{
    (void)f;
    return NC_NOERR;
}

void ncp_fault_release(ncp_file *f) { (void)f; }

int ncp_fault_behind(const ncp_file *f)
{
    (void)f;
    return NC_NOERR;
}

#endif
