/*
 * bio_common.c -- the backend-independent parts of bio.h: request checks,
 * memory datatypes, the raw layout, timing and the result line.
 */
#define _POSIX_C_SOURCE 200809L

#include "bio.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_common.h"

size_t bio_type_size(enum bio_type t)
{
    return t == BIO_DOUBLE ? 8 : 4;
}

MPI_Datatype bio_mpi_type(enum bio_type t)
{
    switch (t) {
    case BIO_INT:
        return MPI_INT;
    case BIO_FLOAT:
        return MPI_FLOAT;
    default:
        return MPI_DOUBLE;
    }
}

static const char *const method_names[BIO_NMETHODS] = {"pervar",
                                                       "combined", "indep"};

const char *bio_method_name(enum bio_method m)
{
    return m >= 0 && m < BIO_NMETHODS ? method_names[m] : "?";
}

int bio_method_parse(const char *s, enum bio_method *m)
{
    for (int i = 0; i < BIO_NMETHODS; i++)
        if (strcmp(s, method_names[i]) == 0) {
            *m = (enum bio_method)i;
            return 1;
        }
    return 0;
}

const char *bio_strerror(int code)
{
    switch (code) {
    case BIO_OK:
        return "no error";
    case BIO_ENOTSUP:
        return "method not supported by this backend";
    case BIO_EINVAL:
        return "invalid schema or request";
    case BIO_ENOMEM:
        return "out of memory";
    case BIO_EIO:
        return bio_last_error();
    default:
        return "unknown error";
    }
}

void bio_req_contig(struct bio_req *r, int var, int ndims,
                    const int64_t *start, const int64_t *count, void *buf)
{
    memset(r, 0, sizeof *r);
    r->var = var;
    r->buf = buf;
    r->mndims = ndims;
    for (int d = 0; d < ndims; d++) {
        r->start[d] = start[d];
        r->count[d] = count[d];
        r->mshape[d] = count[d];
        r->mcount[d] = count[d];
    }
}

int64_t bio_req_elems(const struct bio_var *v, const struct bio_req *r)
{
    int64_t n = 1;

    for (int d = 0; d < v->ndims; d++)
        n *= r->count[d];
    return n;
}

static int file_box_ok(const struct bio_var *v, const struct bio_req *r)
{
    for (int d = 0; d < v->ndims; d++) {
        int64_t len = v->shape[d];

        if (r->start[d] < 0 || r->count[d] < 0)
            return 0;
        if (len > 0 && r->start[d] + r->count[d] > len)
            return 0;
    }
    return 1;
}

static int mem_box_ok(const struct bio_req *r, int64_t *elems)
{
    int64_t n = 1;

    if (r->mndims < 1 || r->mndims > BIO_MAX_DIMS + 1)
        return 0;
    for (int d = 0; d < r->mndims; d++) {
        if (r->mstart[d] < 0 || r->mcount[d] < 0 ||
            r->mstart[d] + r->mcount[d] > r->mshape[d])
            return 0;
        n *= r->mcount[d];
    }
    *elems = n;
    return 1;
}

int bio_req_check(const struct bio_schema *s, const struct bio_req *r)
{
    const struct bio_var *v;
    int64_t melems = 0;

    if (r->var < 0 || r->var >= s->nvars)
        return BIO_EINVAL;
    v = &s->vars[r->var];
    if (!file_box_ok(v, r) || !mem_box_ok(r, &melems))
        return BIO_EINVAL;
    if (melems != bio_req_elems(v, r))
        return BIO_EINVAL;
    if (melems > 0 && r->buf == NULL)
        return BIO_EINVAL;
    return BIO_OK;
}

int bio_req_memtype(const struct bio_schema *s, const struct bio_req *r,
                    MPI_Datatype *out)
{
    int shape[BIO_MAX_DIMS + 1], sub[BIO_MAX_DIMS + 1];
    int start[BIO_MAX_DIMS + 1];
    MPI_Datatype et = bio_mpi_type(s->vars[r->var].type);

    for (int d = 0; d < r->mndims; d++) {
        if (r->mshape[d] > INT_MAX)
            return BIO_EINVAL;
        shape[d] = (int)r->mshape[d];
        sub[d] = (int)r->mcount[d];
        start[d] = (int)r->mstart[d];
    }
    /* MPI refuses zero-sized subarrays; an empty request moves nothing,
     * which a zero-count contiguous type says as well. */
    for (int d = 0; d < r->mndims; d++)
        if (sub[d] == 0) {
            MPI_Type_contiguous(0, et, out);
            MPI_Type_commit(out);
            return BIO_OK;
        }
    if (MPI_Type_create_subarray(r->mndims, shape, sub, start, MPI_ORDER_C,
                                 et, out) != MPI_SUCCESS)
        return BIO_EINVAL;
    MPI_Type_commit(out);
    return BIO_OK;
}

static int64_t var_slab_bytes(const struct bio_var *v)
{
    int64_t n = (int64_t)bio_type_size(v->type);

    for (int d = v->shape[0] == 0 ? 1 : 0; d < v->ndims; d++)
        n *= v->shape[d];
    return n;
}

int64_t bio_raw_layout(const struct bio_schema *s, int64_t *off,
                       int64_t *recsize)
{
    int64_t fixed = 0, rec = 0;

    for (int v = 0; v < s->nvars; v++) {
        const struct bio_var *var = &s->vars[v];
        int64_t bytes = var_slab_bytes(var);

        if (var->ndims > 0 && var->shape[0] == 0) {
            off[v] = rec;
            rec += bytes;
        } else {
            off[v] = fixed;
            fixed += bytes;
        }
    }
    *recsize = rec;
    return fixed;
}

double bio_phase_start(MPI_Comm comm)
{
    MPI_Barrier(comm);
    return MPI_Wtime();
}

double bio_phase_end(MPI_Comm comm, double t0)
{
    double mine = MPI_Wtime() - t0, slowest = 0.0;

    MPI_Allreduce(&mine, &slowest, 1, MPI_DOUBLE, MPI_MAX, comm);
    return slowest;
}

void bio_report(const char *bench, const char *casename,
                const char *method, int nprocs, const char *phase,
                int64_t bytes, double *t, int n)
{
    double med = bench_median(t, n); /* sorts t */

    printf("csv,%s,%s,%s,%s,%d,%s,%lld,%.6f,%.6f,%.6f,%.1f\n", bench,
           bio_backend_name(), casename, method, nprocs, phase,
           (long long)bytes, med, n > 0 ? t[0] : 0.0,
           n > 0 ? t[n - 1] : 0.0, bench_mibs(bytes, med));
}

static const char *const phase_names[BIO_NPHASES] = {
    "open_w", "write", "close_w", "open_r", "read", "close_r"};

const char *bio_phase_name(enum bio_phase p)
{
    return p >= 0 && p < BIO_NPHASES ? phase_names[p] : "?";
}

/* The worst code over the ranks: codes are <= 0, so the minimum. */
static int agree(MPI_Comm comm, int code)
{
    int worst = code;

    MPI_Allreduce(&code, &worst, 1, MPI_INT, MPI_MIN, comm);
    return worst;
}

static int run_steps(const struct bio_job *j, struct bio_file *f,
                     enum bio_method m, int reading)
{
    int err = BIO_OK;

    for (int k = 0; k < j->nsteps && err == BIO_OK; k++) {
        const struct bio_step *st = &j->steps[k];

        err = reading ? bio_read(f, st->rreqs, st->nrreqs, m)
                      : bio_write(f, st->wreqs, st->nwreqs, m);
        err = agree(j->comm, err);
    }
    return err;
}

/* One side (write or read) of a job: open, steps, close, timed into
 * t[0..2]. */
static int run_side(const struct bio_job *j, enum bio_method m, int reading,
                    double *t)
{
    struct bio_file *f = NULL;
    double t0 = bio_phase_start(j->comm);
    int err, cerr;

    err = reading ? bio_open(j->comm, j->stem, j->schema, j->info, &f)
                  : bio_create(j->comm, j->stem, j->schema, j->format,
                               j->info, &f);
    t[0] = bio_phase_end(j->comm, t0);
    err = agree(j->comm, err);
    if (err != BIO_OK) {
        if (f != NULL)
            bio_close(f);
        return err;
    }
    t0 = bio_phase_start(j->comm);
    err = run_steps(j, f, m, reading);
    t[1] = bio_phase_end(j->comm, t0);
    t0 = bio_phase_start(j->comm);
    cerr = agree(j->comm, bio_close(f));
    t[2] = bio_phase_end(j->comm, t0);
    return err != BIO_OK ? err : cerr;
}

int bio_run_job(const struct bio_job *j, enum bio_method m,
                double t[BIO_NPHASES])
{
    int err;

    for (int p = 0; p < BIO_NPHASES; p++)
        t[p] = 0.0;
    err = run_side(j, m, 0, &t[BIO_OPEN_W]);
    if (err == BIO_OK)
        err = run_side(j, m, 1, &t[BIO_OPEN_R]);
    return err;
}

void bio_report_job(const char *bench, const char *casename,
                    const char *method, int nprocs, int64_t bytes,
                    double (*t)[BIO_NPHASES], int reps)
{
    double v[BENCH_MAX_REPS > 1000 ? 1000 : BENCH_MAX_REPS];
    int n = reps < 1000 ? reps : 1000;

    for (int p = 0; p <= BIO_NPHASES + 1; p++) {
        const char *name = p < BIO_NPHASES ? phase_names[p]
                           : p == BIO_NPHASES ? "total_w" : "total_r";
        int64_t moved = p == BIO_WRITE || p == BIO_READ || p >= BIO_NPHASES
                            ? bytes : 0;

        for (int r = 0; r < n; r++) {
            if (p < BIO_NPHASES)
                v[r] = t[r][p];
            else if (p == BIO_NPHASES)
                v[r] = t[r][BIO_OPEN_W] + t[r][BIO_WRITE] + t[r][BIO_CLOSE_W];
            else
                v[r] = t[r][BIO_OPEN_R] + t[r][BIO_READ] + t[r][BIO_CLOSE_R];
        }
        bio_report(bench, casename, method, nprocs, name, moved, v, n);
    }
}

/* One "key=value" of the hint list into info; 0 when it has no '='. */
static int add_hint(MPI_Info info, char *pair)
{
    char *eq = strchr(pair, '=');

    if (eq == NULL || eq == pair)
        return 0;
    *eq = '\0';
    MPI_Info_set(info, pair, eq + 1);
    return 1;
}

MPI_Info bio_env_info(void)
{
    const char *env = getenv("NCPARIO_BENCH_HINTS");
    MPI_Info info = MPI_INFO_NULL;
    char *copy, *save = NULL;

    if (env == NULL || *env == '\0' || (copy = strdup(env)) == NULL)
        return MPI_INFO_NULL;
    MPI_Info_create(&info);
    for (char *p = strtok_r(copy, ";", &save); p != NULL;
         p = strtok_r(NULL, ";", &save))
        if (*p != '\0' && !add_hint(info, p))
            fprintf(stderr, "NCPARIO_BENCH_HINTS: '%s' is not key=value; "
                            "skipped\n", p);
    free(copy);
    return info;
}

void bio_env_info_free(MPI_Info *info)
{
    if (*info != MPI_INFO_NULL)
        MPI_Info_free(info);
}
