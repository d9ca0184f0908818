/*
 * bio_fpp.c -- the file-per-process backend of bio.h: rank r writes its
 * own file <stem>.fpp.<r> with plain POSIX calls and never talks to the
 * other ranks after create/open.
 *
 * A rank's file holds the bytes of its requests packed one after another
 * in the order they were written: each file handle keeps a running offset
 * that every request advances. Reading walks the same offsets, so a file
 * is read back with the same requests, in the same order, that wrote it
 * (the benchmark patterns do exactly that); nothing records the global
 * place of the data.
 *
 *   BIO_PERVAR, BIO_INDEP  one pwrite/pread per request;
 *   BIO_COMBINED           one pwritev/preadv over all requests of the
 *                          call (batches of IOV_MAX when there are more).
 *
 * A contiguous memory side moves straight from the user's buffer; a
 * strided one, or one of another type than the variable, is gathered
 * into (or scattered from) a packed staging buffer in the variable's type
 * by bio_req_pack_conv. A file-side stride changes nothing here: the
 * file holds each request's elements packed. Short transfers are continued and EINTR is
 * retried. Close is a plain close(): no fsync, as the other backends do
 * not sync either, so the timings compare like with like.
 *
 * Only create and open communicate (they agree on success, so that no
 * rank goes on with a file the others failed to get). The data calls and
 * close are local: with no communication there is nothing that could
 * hang, and each rank returns its own code.
 */
/* pwritev/preadv are not POSIX; glibc declares them under
 * _DEFAULT_SOURCE. */
#define _DEFAULT_SOURCE
#define _POSIX_C_SOURCE 200809L

#include "bio.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <unistd.h>

#ifndef IOV_MAX
#define IOV_MAX 1024
#endif

enum {
    /* The most bytes one pwrite/pread is asked for, below every system's
     * SSIZE_MAX and Linux's 2 GiB - 4 KiB cap per call. */
    MAX_CHUNK = 1 << 30
};

struct bio_file {
    const struct bio_schema *schema;
    int fd;
    off_t offset;       /* where the next request's bytes go */
};

static char last_error[512] = "no error";

static int fail_io(const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(last_error, sizeof last_error, fmt, ap);
    va_end(ap);
    return BIO_EIO;
}

const char *bio_backend_name(void)
{
    return "fpp";
}

int bio_supports(enum bio_method m)
{
    return m == BIO_PERVAR || m == BIO_COMBINED || m == BIO_INDEP;
}

void bio_path(const char *stem, int rank, char *out, size_t outsz)
{
    snprintf(out, outsz, "%s.fpp.%d", stem, rank);
}

const char *bio_last_error(void)
{
    return last_error;
}

/* ------------------------------------------------------- create/open */

static int schema_ok(const struct bio_schema *s)
{
    if (s == NULL || s->nvars < 0 || (s->nvars > 0 && s->vars == NULL))
        return 0;
    for (int v = 0; v < s->nvars; v++) {
        const struct bio_var *var = &s->vars[v];

        if (var->ndims < 1 || var->ndims > BIO_MAX_DIMS ||
            var->type < BIO_INT || var->type > BIO_DOUBLE ||
            var->shape[0] < 0)
            return 0;
        for (int d = 1; d < var->ndims; d++)
            if (var->shape[d] <= 0)
                return 0;
    }
    return 1;
}

/* Opens this rank's file, then agrees with the others: every rank gets a
 * handle or none does. */
static int open_file(MPI_Comm comm, const char *stem,
                     const struct bio_schema *s, int flags,
                     struct bio_file **out)
{
    char path[4096];
    struct bio_file *f = NULL;
    int rank, err = BIO_OK, worst = BIO_OK;

    *out = NULL;
    MPI_Comm_rank(comm, &rank);
    bio_path(stem, rank, path, sizeof path);
    if (!schema_ok(s))
        err = BIO_EINVAL;
    else if ((f = calloc(1, sizeof *f)) == NULL)
        err = BIO_ENOMEM;
    if (err == BIO_OK) {
        f->schema = s;
        f->fd = open(path, flags, 0644);
        if (f->fd < 0)
            err = fail_io("open %s: %s", path, strerror(errno));
    }
    MPI_Allreduce(&err, &worst, 1, MPI_INT, MPI_MIN, comm);
    if (worst != BIO_OK) {
        if (err == BIO_OK) {
            snprintf(last_error, sizeof last_error,
                     "another rank failed to open its file");
            close(f->fd);
        }
        free(f);
        return worst;
    }
    *out = f;
    return BIO_OK;
}

int bio_create(MPI_Comm comm, const char *stem, const struct bio_schema *s,
               int format, MPI_Info info, struct bio_file **out)
{
    (void)format;
    (void)info;
    return open_file(comm, stem, s, O_RDWR | O_CREAT | O_TRUNC, out);
}

int bio_open(MPI_Comm comm, const char *stem, const struct bio_schema *s,
             MPI_Info info, struct bio_file **out)
{
    (void)info;
    return open_file(comm, stem, s, O_RDONLY, out);
}

int bio_close(struct bio_file *f)
{
    int err = BIO_OK;

    if (f == NULL)
        return BIO_OK;
    if (close(f->fd) != 0)
        err = fail_io("close: %s", strerror(errno));
    free(f);
    return err;
}

/* ------------------------------------------------ memory side, packed */

/* bio_req_check, after making sure that the request's bytes can be
 * computed without overflow (every count non-negative, the product
 * within int64_t and size_t). */
static int check_req(const struct bio_schema *s, const struct bio_req *r)
{
    const struct bio_var *v;
    int64_t n;

    if (r->var < 0 || r->var >= s->nvars)
        return BIO_EINVAL;
    v = &s->vars[r->var];
    n = (int64_t)bio_type_size(v->type);
    for (int d = 0; d < v->ndims; d++)
        if (r->count[d] < 0)
            return BIO_EINVAL;
    for (int d = 0; d < v->ndims && n > 0; d++) {
        if (r->count[d] > 0 && n > INT64_MAX / r->count[d])
            return BIO_EINVAL;
        n *= r->count[d];
    }
    if ((uint64_t)n > SIZE_MAX)
        return BIO_EINVAL;
    return bio_req_check(s, r);
}

/* One request's bytes: where they are (the user's buffer, or a staging
 * buffer for a strided memory side) and how many. */
struct span {
    const struct bio_req *req;
    char *data;
    size_t bytes;
    int staged;     /* data is ours, to free (and scatter after a read) */
    int64_t elems;
};

static int span_init(const struct bio_file *f, const struct bio_req *r,
                     int writing, struct span *sp)
{
    const struct bio_var *v;

    memset(sp, 0, sizeof *sp);
    if (check_req(f->schema, r) != BIO_OK)
        return BIO_EINVAL;
    v = &f->schema->vars[r->var];
    sp->req = r;
    sp->elems = bio_req_elems(v, r);
    sp->bytes = (size_t)sp->elems * bio_type_size(v->type);
    if (sp->bytes == 0 || !bio_req_needs_stage(f->schema, r)) {
        sp->data = r->buf;
        return BIO_OK;
    }
    sp->data = malloc(sp->bytes);
    if (sp->data == NULL)
        return BIO_ENOMEM;
    sp->staged = 1;
    if (writing)
        bio_req_pack_conv(f->schema, r, sp->data, 1);
    return BIO_OK;
}

/* After a successful read: the staged bytes into the user's array. */
static void span_finish(const struct bio_file *f, struct span *sp,
                        int reading)
{
    if (sp->staged) {
        if (reading)
            bio_req_pack_conv(f->schema, sp->req, sp->data, 0);
        free(sp->data);
    }
    memset(sp, 0, sizeof *sp);
}

static void spans_free(struct span *sp, int n)
{
    for (int i = 0; i < n; i++)
        if (sp[i].staged)
            free(sp[i].data);
    free(sp);
}

/* ------------------------------------------------------------- POSIX */

/* All of len bytes at off, continuing short transfers. */
static int transfer(int fd, char *data, size_t len, off_t off, int writing)
{
    while (len > 0) {
        size_t ask = len < MAX_CHUNK ? len : MAX_CHUNK;
        ssize_t got = writing ? pwrite(fd, data, ask, off)
                              : pread(fd, data, ask, off);

        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0)
            return fail_io("%s: %s", writing ? "pwrite" : "pread",
                           strerror(errno));
        if (got == 0)
            return fail_io("%s: %s", writing ? "pwrite" : "pread",
                           writing ? "no progress"
                                   : "file shorter than the requests");
        data += got;
        len -= (size_t)got;
        off += got;
    }
    return BIO_OK;
}

/* Drops the first `done` bytes of iov[0..*n): the vector a short
 * pwritev/preadv leaves to do. */
static struct iovec *iov_advance(struct iovec *iov, int *n, size_t done)
{
    while (*n > 0 && done >= iov->iov_len) {
        done -= iov->iov_len;
        iov++;
        (*n)--;
    }
    if (*n > 0) {
        iov->iov_base = (char *)iov->iov_base + done;
        iov->iov_len -= done;
    }
    return iov;
}

/* All of iov[0..n) at off in vectored calls, continuing short ones. */
static int transferv(int fd, struct iovec *iov, int n, off_t off,
                     int writing)
{
    while (n > 0) {
        ssize_t got = writing ? pwritev(fd, iov, n, off)
                              : preadv(fd, iov, n, off);

        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0)
            return fail_io("%s: %s", writing ? "pwritev" : "preadv",
                           strerror(errno));
        if (got == 0)
            return fail_io("%s: %s", writing ? "pwritev" : "preadv",
                           writing ? "no progress"
                                   : "file shorter than the requests");
        off += got;
        iov = iov_advance(iov, &n, (size_t)got);
    }
    return BIO_OK;
}

/* ------------------------------------------------------------ methods */

static int one_by_one(struct bio_file *f, const struct bio_req *reqs,
                      int nreqs, int writing)
{
    for (int i = 0; i < nreqs; i++) {
        struct span sp;
        int err = span_init(f, &reqs[i], writing, &sp);

        if (err == BIO_OK && sp.bytes > 0)
            err = transfer(f->fd, sp.data, sp.bytes, f->offset, writing);
        if (err != BIO_OK) {
            if (sp.staged)
                free(sp.data);
            return err;
        }
        f->offset += (off_t)sp.bytes;
        span_finish(f, &sp, !writing);
    }
    return BIO_OK;
}

/* The non-empty spans of sp[0..n) as one vector, in order; its length. */
static int build_iov(const struct span *sp, int n, struct iovec *iov,
                     size_t *total)
{
    int k = 0;

    *total = 0;
    for (int i = 0; i < n; i++)
        if (sp[i].bytes > 0) {
            iov[k].iov_base = sp[i].data;
            iov[k].iov_len = sp[i].bytes;
            *total += sp[i].bytes;
            k++;
        }
    return k;
}

static int vectored(struct bio_file *f, struct span *sp, int nreqs,
                    int writing)
{
    struct iovec *iov = malloc((size_t)(nreqs > 0 ? nreqs : 1) * sizeof *iov);
    size_t total = 0;
    int n, err = BIO_OK;

    if (iov == NULL)
        return BIO_ENOMEM;
    n = build_iov(sp, nreqs, iov, &total);
    for (int first = 0; first < n && err == BIO_OK; first += IOV_MAX) {
        int batch = n - first < IOV_MAX ? n - first : IOV_MAX;
        size_t bytes = 0;

        for (int i = 0; i < batch; i++)
            bytes += iov[first + i].iov_len;
        err = transferv(f->fd, iov + first, batch, f->offset, writing);
        f->offset += (off_t)bytes;
    }
    free(iov);
    return err;
}

static int combined(struct bio_file *f, const struct bio_req *reqs,
                    int nreqs, int writing)
{
    struct span *sp = calloc((size_t)(nreqs > 0 ? nreqs : 1), sizeof *sp);
    int err = BIO_OK, ready = 0;

    if (sp == NULL)
        return BIO_ENOMEM;
    while (ready < nreqs && err == BIO_OK)
        if ((err = span_init(f, &reqs[ready], writing, &sp[ready])) ==
            BIO_OK)
            ready++;
    if (err == BIO_OK)
        err = vectored(f, sp, nreqs, writing);
    if (err != BIO_OK) {
        spans_free(sp, ready);
        return err;
    }
    for (int i = 0; i < nreqs; i++)
        span_finish(f, &sp[i], !writing);
    free(sp);
    return BIO_OK;
}

static int move(struct bio_file *f, const struct bio_req *reqs, int nreqs,
                enum bio_method m, int writing)
{
    if (!bio_supports(m))
        return BIO_ENOTSUP;
    if (f == NULL || nreqs < 0 || (nreqs > 0 && reqs == NULL))
        return BIO_EINVAL;
    /* Refuse a bad list before any of it reaches the file. */
    for (int i = 0; i < nreqs; i++)
        if (check_req(f->schema, &reqs[i]) != BIO_OK)
            return BIO_EINVAL;
    return m == BIO_COMBINED ? combined(f, reqs, nreqs, writing)
                             : one_by_one(f, reqs, nreqs, writing);
}

int bio_write(struct bio_file *f, const struct bio_req *reqs, int nreqs,
              enum bio_method m)
{
    return move(f, reqs, nreqs, m, 1);
}

int bio_read(struct bio_file *f, const struct bio_req *reqs, int nreqs,
             enum bio_method m)
{
    return move(f, reqs, nreqs, m, 0);
}
