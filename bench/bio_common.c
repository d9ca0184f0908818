/*
 * bio_common.c -- the backend-independent parts of bio.h: request checks,
 * memory datatypes and packing, the raw layout, what the pattern programs
 * share (methods, file names, the timed repetitions), timing and the
 * result lines.
 */
#define _POSIX_C_SOURCE 200809L

#include "bio.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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

int64_t bio_req_stride(const struct bio_req *r, int d)
{
    return r->stride[d] > 1 ? r->stride[d] : 1;
}

int bio_req_strided(const struct bio_var *v, const struct bio_req *r)
{
    for (int d = 0; d < v->ndims; d++)
        if (bio_req_stride(r, d) > 1)
            return 1;
    return 0;
}

enum bio_type bio_req_mtype(const struct bio_schema *s,
                            const struct bio_req *r)
{
    return r->mtype != 0 ? r->mtype : s->vars[r->var].type;
}

/* The last element of every dimension inside the fixed lengths; the
 * step is checked before it multiplies, so that nothing overflows. */
static int file_box_ok(const struct bio_var *v, const struct bio_req *r)
{
    for (int d = 0; d < v->ndims; d++) {
        int64_t len = v->shape[d], step = bio_req_stride(r, d), last;

        if (r->start[d] < 0 || r->count[d] < 0 || r->stride[d] < 0)
            return 0;
        if (r->count[d] == 0)
            continue;
        if ((r->count[d] - 1) > (INT64_MAX - 1 - r->start[d]) / step)
            return 0;
        last = r->start[d] + (r->count[d] - 1) * step;
        if (len > 0 && last >= len)
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
    if (r->mtype != 0 && (r->mtype < BIO_INT || r->mtype > BIO_DOUBLE))
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
    MPI_Datatype et = bio_mpi_type(bio_req_mtype(s, r));

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

int bio_req_dense(const struct bio_req *r)
{
    for (int d = 0; d < r->mndims; d++)
        if (r->mstart[d] != 0 || r->mcount[d] != r->mshape[d])
            return 0;
    return 1;
}

/* n elements of type from at src as type to at dst. */
static void convert(void *dst, enum bio_type to, const void *src,
                    enum bio_type from, int64_t n)
{
    for (int64_t i = 0; i < n; i++) {
        double x;

        switch (from) {
        case BIO_INT:
            x = ((const int *)src)[i];
            break;
        case BIO_FLOAT:
            x = ((const float *)src)[i];
            break;
        default:
            x = ((const double *)src)[i];
        }
        switch (to) {
        case BIO_INT:
            ((int *)dst)[i] = (int)x;
            break;
        case BIO_FLOAT:
            ((float *)dst)[i] = (float)x;
            break;
        default:
            ((double *)dst)[i] = x;
        }
    }
}

/* The memory box of r row by row between the user's array (elements of
 * type mt) and packed (of type pt), converting when they differ. */
static void pack_rows(const struct bio_req *r, enum bio_type mt,
                      enum bio_type pt, char *packed, int64_t elems,
                      int to_packed)
{
    int nd = r->mndims;
    int64_t idx[BIO_MAX_DIMS + 1] = {0};
    int64_t rowlen = r->mcount[nd - 1], rows = elems / rowlen;
    int64_t msize = (int64_t)bio_type_size(mt);
    int64_t prow = rowlen * (int64_t)bio_type_size(pt);
    char *mem = r->buf;

    for (int64_t row = 0; row < rows; row++) {
        int64_t off = 0;
        char *m, *p = packed + row * prow;

        for (int d = 0; d < nd; d++)
            off = off * r->mshape[d] + r->mstart[d] +
                  (d < nd - 1 ? idx[d] : 0);
        m = mem + off * msize;
        if (mt == pt && to_packed)
            memcpy(p, m, (size_t)prow);
        else if (mt == pt)
            memcpy(m, p, (size_t)prow);
        else if (to_packed)
            convert(p, pt, m, mt, rowlen);
        else
            convert(m, mt, p, pt, rowlen);
        for (int d = nd - 2; d >= 0; d--) {
            if (++idx[d] < r->mcount[d])
                break;
            idx[d] = 0;
        }
    }
}

void bio_req_pack(const struct bio_req *r, size_t esize, char *packed,
                  int64_t elems, int to_packed)
{
    /* Bytes are bytes: any type of the size copies them unchanged. */
    enum bio_type t = esize == 8 ? BIO_DOUBLE : BIO_INT;

    if (elems > 0)
        pack_rows(r, t, t, packed, elems, to_packed);
}

void bio_req_pack_conv(const struct bio_schema *s, const struct bio_req *r,
                       char *packed, int to_packed)
{
    const struct bio_var *v = &s->vars[r->var];
    int64_t elems = bio_req_elems(v, r);

    if (elems > 0)
        pack_rows(r, bio_req_mtype(s, r), v->type, packed, elems,
                  to_packed);
}

int bio_req_needs_stage(const struct bio_schema *s, const struct bio_req *r)
{
    return !bio_req_dense(r) || bio_req_mtype(s, r) != s->vars[r->var].type;
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

/* The phases' names, then the side totals'. */
static const char *const column_names[BIO_NCOLUMNS] = {
    "open_w", "write", "close_w", "open_r", "read", "close_r",
    "total_w", "total_r"};

const char *bio_phase_name(enum bio_phase p)
{
    return p >= 0 && p < BIO_NPHASES ? column_names[p] : "?";
}

static int run_steps(const struct bio_job *j, struct bio_file *f,
                     enum bio_method m, int reading)
{
    int err = BIO_OK;

    for (int k = 0; k < j->nsteps && err == BIO_OK; k++) {
        const struct bio_step *st = &j->steps[k];

        err = reading ? bio_read(f, st->rreqs, st->nrreqs, m)
                      : bio_write(f, st->wreqs, st->nwreqs, m);
        err = bio_agree(j->comm, err);
    }
    return err;
}

int bio_run_side(const struct bio_job *j, enum bio_method m, int reading,
                 double t[3])
{
    struct bio_file *f = NULL;
    double t0 = bio_phase_start(j->comm);
    int err, cerr;

    err = reading ? bio_open(j->comm, j->stem, j->schema, j->info, &f)
                  : bio_create(j->comm, j->stem, j->schema, j->format,
                               j->info, &f);
    t[0] = bio_phase_end(j->comm, t0);
    err = bio_agree(j->comm, err);
    if (err != BIO_OK) {
        if (f != NULL)
            bio_close(f);
        return err;
    }
    t0 = bio_phase_start(j->comm);
    err = run_steps(j, f, m, reading);
    t[1] = bio_phase_end(j->comm, t0);
    t0 = bio_phase_start(j->comm);
    cerr = bio_agree(j->comm, bio_close(f));
    t[2] = bio_phase_end(j->comm, t0);
    return err != BIO_OK ? err : cerr;
}

int bio_run_job(const struct bio_job *j, enum bio_method m,
                double t[BIO_NPHASES])
{
    int err;

    for (int p = 0; p < BIO_NPHASES; p++)
        t[p] = 0.0;
    err = bio_run_side(j, m, 0, &t[BIO_OPEN_W]);
    if (err == BIO_OK)
        err = bio_run_side(j, m, 1, &t[BIO_OPEN_R]);
    return err;
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

/* ---------------------------------- what the pattern programs share */

/* The names of arg in order into list (BIO_NMETHODS entries at most); a
 * repeat fails, or is dropped when repeats_ok. 1 when every name is a
 * method and there is one. */
static int split_methods(const char *arg, enum bio_method *list, int *n,
                         int repeats_ok)
{
    char buf[64], *save = NULL;

    *n = 0;
    if (strlen(arg) >= sizeof buf)
        return 0;
    strcpy(buf, arg);
    for (char *p = strtok_r(buf, ",", &save); p != NULL;
         p = strtok_r(NULL, ",", &save)) {
        enum bio_method m;
        int seen = 0;

        if (!bio_method_parse(p, &m))
            return 0;
        for (int i = 0; i < *n; i++)
            seen |= list[i] == m;
        if (seen && !repeats_ok)
            return 0;
        if (!seen)
            list[(*n)++] = m;
    }
    return *n > 0;
}

int bio_parse_methods(const char *arg, enum bio_method *list, int *n)
{
    return split_methods(arg, list, n, 0);
}

int bio_parse_method_set(const char *arg, enum bio_method *list, int *n)
{
    enum bio_method given[BIO_NMETHODS];
    int ngiven = 0;

    *n = 0;
    if (!split_methods(arg, given, &ngiven, 1))
        return 0;
    for (int m = 0; m < BIO_NMETHODS; m++)
        for (int i = 0; i < ngiven; i++)
            if (given[i] == (enum bio_method)m)
                list[(*n)++] = (enum bio_method)m;
    return 1;
}

void bio_usage_common(FILE *to, const char *prog, int as_set,
                      const char *cases)
{
    fputs(as_set ? "  -m methods  comma-separated subset of "
                   "pervar,combined,indep\n"
                   "              (default: all the backend supports)\n"
                 : "  -m methods  comma list of pervar,combined,indep "
                   "(default: all the\n"
                   "              backend supports)\n", to);
    fprintf(to,
        "  -d dir      directory of the files (default /tmp)\n"
        "  -r reps     timed repetitions (default 3)\n"
        "  -w warmup   untimed repetitions before them (default 0)\n"
        "  -f 1|2|5    CDF-1, CDF-2 (default) or CDF-5 (netCDF backends)\n"
        "  -k          keep the files of the last repetition\n"
        "  -q          no human-readable report\n"
        "  -c          csv lines: csv,%s,lib,case,method,nprocs,phase,\n"
        "              bytes,median_s,min_s,max_s,MiB/s%s%s%s\n", prog,
        cases != NULL ? " (" : "", cases != NULL ? cases : "",
        cases != NULL ? ")" : "");
}

int bio_choose_methods(const char *prog, enum bio_method *list, int *n,
                       int rank)
{
    if (*n == 0)
        for (int m = 0; m < BIO_NMETHODS; m++)
            if (bio_supports((enum bio_method)m))
                list[(*n)++] = (enum bio_method)m;
    for (int i = 0; i < *n; i++)
        if (!bio_supports(list[i])) {
            if (rank == 0)
                fprintf(stderr, "%s: the %s backend has no method %s\n",
                        prog, bio_backend_name(), bio_method_name(list[i]));
            return 0;
        }
    if (*n == 0 && rank == 0)
        fprintf(stderr, "%s: the %s backend supports no method\n", prog,
                bio_backend_name());
    return *n > 0;
}

int bio_agree(MPI_Comm comm, int code)
{
    int worst = code;

    MPI_Allreduce(&code, &worst, 1, MPI_INT, MPI_MIN, comm);
    return worst;
}

int bio_file_base(const char *prog, const char *dir, char *out,
                  size_t outsz)
{
    long pid = (long)getpid();
    int rank = 0, len;

    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Bcast(&pid, 1, MPI_LONG, 0, MPI_COMM_WORLD);
    len = snprintf(out, outsz, "%s/%s.%s.%ld", dir, prog, bio_backend_name(),
                   pid);
    if (len > 0 && (size_t)len < outsz)
        return 1;
    if (rank == 0)
        fprintf(stderr, "%s: directory name too long\n", prog);
    return 0;
}

int bio_shared_file(void)
{
    char p0[64], p1[64];

    bio_path("x", 0, p0, sizeof p0);
    bio_path("x", 1, p1, sizeof p1);
    return strcmp(p0, p1) == 0;
}

void bio_remove(const char *stem, int rank)
{
    char path[8192];

    if (bio_shared_file() && rank != 0)
        return;
    bio_path(stem, rank, path, sizeof path);
    if (unlink(path) != 0 && errno != ENOENT)
        perror(path);
}

void bio_report_failure(const char *prog, int rank, int err,
                        const char *what)
{
    const char *mine = bio_last_error();

    if (err == BIO_EIO && mine != NULL && mine[0] != '\0')
        fprintf(stderr, "%s: rank %d: %s: %s\n", prog, rank, what, mine);
    if (rank == 0)
        fprintf(stderr, "%s: FAILED: %s: %s\n", prog, what,
                err == BIO_EIO ? "I/O error" : bio_strerror(err));
}

/* ------------------------------------------------ columns and reports */

/* Column c of reps repetitions t[rep][phase] into v[0..reps). */
static void column(double (*t)[BIO_NPHASES], int reps, int c, double *v)
{
    for (int r = 0; r < reps; r++) {
        if (c == BIO_TOTAL_W)
            v[r] = t[r][BIO_OPEN_W] + t[r][BIO_WRITE] + t[r][BIO_CLOSE_W];
        else if (c == BIO_TOTAL_R)
            v[r] = t[r][BIO_OPEN_R] + t[r][BIO_READ] + t[r][BIO_CLOSE_R];
        else
            v[r] = t[r][c];
    }
}

double bio_median(double (*t)[BIO_NPHASES], int reps, int c,
                  double *scratch)
{
    column(t, reps, c, scratch);
    return bench_median(scratch, reps);
}

/* Room for a column of reps values (at least one, so that NULL always
 * means failure); a message on stderr when there is none. */
static double *column_alloc(const char *prog, int reps, const char *what)
{
    double *v = malloc((size_t)(reps > 0 ? reps : 1) * sizeof *v);

    if (v == NULL)
        fprintf(stderr, "%s: out of memory for the %s\n", prog, what);
    return v;
}

int bio_report_job(const char *bench, const char *casename,
                   const char *method, int nprocs, int64_t bytes,
                   double (*t)[BIO_NPHASES], int reps, int reads_only)
{
    double *v = column_alloc(bench, reps, "csv lines");

    if (v == NULL)
        return BIO_ENOMEM;
    for (int c = reads_only ? BIO_OPEN_R : 0; c < BIO_NCOLUMNS; c++) {
        int moved = c == BIO_WRITE || c == BIO_READ || c >= BIO_NPHASES;

        if (reads_only && c == BIO_TOTAL_W)
            continue;
        column(t, reps, c, v);
        bio_report(bench, casename, method, nprocs, column_names[c],
                   moved ? bytes : 0, v, reps);
    }
    free(v);
    return BIO_OK;
}

/* --------------------------------------------------- the repetitions */

/* The phases in the order of the human rows' columns. */
static const enum bio_phase *row_order(const struct bio_bench *b)
{
    static const enum bio_phase writes_first[BIO_NPHASES] = {
        BIO_OPEN_W, BIO_WRITE, BIO_CLOSE_W, BIO_OPEN_R, BIO_READ,
        BIO_CLOSE_R};
    static const enum bio_phase reads_first[BIO_NPHASES] = {
        BIO_OPEN_R, BIO_READ, BIO_CLOSE_R, BIO_OPEN_W, BIO_WRITE,
        BIO_CLOSE_W};

    return b->read_first ? reads_first : writes_first;
}

static void print_heads(const struct bio_bench *b)
{
    const enum bio_phase *order = row_order(b);

    printf("  %4s %-8s", "rep", "method");
    for (int p = 0; p < BIO_NPHASES; p++)
        printf(" %9s", column_names[order[p]]);
    printf(" %10s %10s\n", b->read_first ? "MiB/s_r" : "MiB/s_w",
           b->read_first ? "MiB/s_w" : "MiB/s_r");
}

/* One human row: the phases in column order, then each side's MiB/s over
 * the sum of its phases. */
static void print_row(const struct bio_bench *b, const char *label,
                      enum bio_method m, const double *t)
{
    const enum bio_phase *order = row_order(b);
    double tw = t[BIO_OPEN_W] + t[BIO_WRITE] + t[BIO_CLOSE_W];
    double tr = t[BIO_OPEN_R] + t[BIO_READ] + t[BIO_CLOSE_R];

    printf("  %4s %-8s", label, bio_method_name(m));
    for (int p = 0; p < BIO_NPHASES; p++)
        printf(" %9.6f", t[order[p]]);
    printf(" %10.1f %10.1f\n", bench_mibs(b->bytes, b->read_first ? tr : tw),
           bench_mibs(b->bytes, b->read_first ? tw : tr));
    fflush(stdout);
}

/* Every repetition, the methods taking turns; times[method][rep] gets the
 * timed ones. 0 or the exit status. */
static int run_reps(const struct bio_bench *b, double (*times)[BIO_NPHASES])
{
    int reps = b->opts->reps, total = b->opts->warmup + reps;

    for (int i = 0; i < total; i++) {
        int rep = i - b->opts->warmup + 1;

        for (int k = 0; k < b->nmethods; k++) {
            int mi = (i + k) % b->nmethods;
            double t[BIO_NPHASES];
            char label[16];
            int status = b->run(b->ctx, b->methods[mi], rep, t);

            if (status != 0)
                return status;
            if (rep < 1)
                continue;
            memcpy(times[(size_t)mi * (size_t)reps + (size_t)(rep - 1)], t,
                   sizeof t);
            snprintf(label, sizeof label, "%d", rep);
            if (b->rank == 0 && !b->opts->quiet)
                print_row(b, label, b->methods[mi], t);
        }
    }
    return 0;
}

/* The median rows and the verify line (rank 0); 0, or 1 after a
 * message. */
static int print_medians(const struct bio_bench *b,
                         double (*times)[BIO_NPHASES])
{
    int reps = b->opts->reps, all = reps + b->opts->warmup;
    double *col = column_alloc(b->prog, reps, "medians");

    if (col == NULL)
        return 1;
    for (int i = 0; i < b->nmethods; i++) {
        double med[BIO_NPHASES];

        for (int p = 0; p < BIO_NPHASES; p++)
            med[p] = bio_median(&times[(size_t)i * (size_t)reps], reps, p,
                                col);
        print_row(b, "med", b->methods[i], med);
    }
    free(col);
    printf("  verify  OK: %s, by every method in each of %d rep%s\n",
           b->verified != NULL ? b->verified
                               : "every value read back as written",
           all, all == 1 ? "" : "s");
    return 0;
}

/* The human summary and the csv lines (rank 0); 0, or 1 after a
 * message. */
static int report(const struct bio_bench *b, double (*times)[BIO_NPHASES])
{
    int reps = b->opts->reps;

    if (!b->opts->quiet && print_medians(b, times) != 0)
        return 1;
    for (int i = 0; i < b->nmethods && b->opts->csv; i++)
        if (bio_report_job(b->prog, b->casename,
                           bio_method_name(b->methods[i]), b->nprocs,
                           b->bytes, &times[(size_t)i * (size_t)reps], reps,
                           0) != BIO_OK)
            return 1;
    return 0;
}

int bio_bench_run(const struct bio_bench *b)
{
    double (*times)[BIO_NPHASES];
    int status, fail;

    times = calloc((size_t)b->nmethods * (size_t)b->opts->reps,
                   sizeof *times);
    fail = times == NULL;
    MPI_Allreduce(MPI_IN_PLACE, &fail, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (fail) {
        if (b->rank == 0)
            fprintf(stderr, "%s: out of memory for the timings\n", b->prog);
        free(times);
        return 1;
    }
    if (b->rank == 0 && !b->opts->quiet)
        print_heads(b);
    status = run_reps(b, times);
    if (status == 0 && b->rank == 0)
        status = report(b, times);
    fflush(stdout);
    free(times);
    return status;
}
