/*
 * wb_thread.c -- the write-behind thread of ncp_wb_thread.h.
 *
 * Invariants:
 *  1. Jobs are written in submission order, one at a time.
 *  2. The staging memory never exceeds the budget: it is cut into
 *     buffers of ncp_wbt_job_cap bytes, at most budget / cap of them,
 *     kept once allocated (staging into memory already mapped costs a
 *     copy, not page faults) and handed on to the process's next writer
 *     at stop, within its keep; a reservation waits for a free one.
 *  3. While held (a call of the program is staging), the thread starts
 *     no job unless the staging waits for room, so the call has the
 *     cores to itself; it runs at the lowest priority (lowest_priority).
 *  4. The first failed write is kept until stop; later jobs are still
 *     written, so one bad range loses no other bytes.
 *  5. With a log (nc_burst_buf_dirname), a reservation that finds no
 *     free buffer does not wait: the caller packs into the spill buffer
 *     and appends it to the log, and a job that points at the log takes
 *     its place in the queue; the thread reads it back into its replay
 *     buffer.  The log restarts at offset 0 whenever no job points at it.
 */
#define _GNU_SOURCE
#include "ncp_wb_thread.h"
#include "ncp_posix_move.h"

#include <pthread.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>

#include "pnetcdf.h"

/* Jobs are cut to at most this, so the thread starts writing while the
 * caller still packs the next one. */
#define WBT_JOB_MAX ((int64_t)4 << 20)

struct ncp_wbt {
    int fd;
    int64_t budget, keep;
    pthread_t thread;
    pthread_mutex_t mu;
    pthread_cond_t work; /* a job was queued, or stop */
    pthread_cond_t room; /* a job was written */
    ncp_wbt_job *head, *tail;
    ncp_wbt_job *spare;   /* written jobs, their buffers kept for reuse */
    int64_t nbuf, maxbuf; /* buffers allocated, and the most allowed */
    int writing, stopping, held, err;
    int64_t staged;
    int log_fd;           /* the spill log, -1: none */
    int64_t log_end;      /* its bytes in use */
    int log_jobs;         /* queued jobs that point into it */
    ncp_wbt_job *spill;   /* the caller's job packed for the log */
    char *replay;         /* the thread's buffer for reading it back */
    ncp_wbt_stats st;
};

static void job_free(ncp_wbt_job *j)
{
    if (!j) return;
    free(j->data);
    free(j->seg_off);
    free(j->seg_len);
    ncp_swap_runs_free(&j->swaps);
    free(j);
}

/* Buffers a stopped writer left for the next one of the process. */
static pthread_mutex_t pool_mu = PTHREAD_MUTEX_INITIALIZER;
static ncp_wbt_job *pool;
static int64_t pool_bytes;

/* A pooled job of exactly cap bytes (a larger one would take this
 * writer past its budget), or NULL. */
static ncp_wbt_job *pool_take(int64_t cap)
{
    ncp_wbt_job **p, *j = NULL;
    pthread_mutex_lock(&pool_mu);
    for (p = &pool; *p && (*p)->data_cap != cap; p = &(*p)->next) continue;
    if (*p) {
        j = *p;
        *p = j->next;
        pool_bytes -= j->data_cap;
    }
    pthread_mutex_unlock(&pool_mu);
    return j;
}

/* Pool j while the pool stays within keep bytes, else free it. */
static void pool_give(ncp_wbt_job *j, int64_t keep)
{
    pthread_mutex_lock(&pool_mu);
    if (pool_bytes + j->data_cap <= keep) {
        j->next = pool;
        pool = j;
        pool_bytes += j->data_cap;
        j = NULL;
    }
    pthread_mutex_unlock(&pool_mu);
    job_free(j);
}

/* Read a logged job back into the replay buffer: its bytes, or NULL. */
static char *replay(ncp_wbt *t, const ncp_wbt_job *j, int *err)
{
    struct iovec one;
    int64_t got = 0;
    if (!t->replay && !(t->replay = malloc((size_t)ncp_wbt_job_cap(t)))) {
        *err = NC_ENOMEM;
        return NULL;
    }
    one.iov_base = t->replay;
    one.iov_len = (size_t)j->bytes;
    *err = ncp_posix_move_iov(t->log_fd, 0, &one, 1, j->log_off, &got);
    if (*err == NC_NOERR && got != j->bytes) *err = NC_EREAD;
    return *err == NC_NOERR ? t->replay : NULL;
}

/* Write a job's segments, adjacent ones in one pwritev. */
static int job_write(ncp_wbt *t, ncp_wbt_job *j)
{
    struct iovec iov[NCP_POSIX_IOV];
    int fd = t->fd, k = 0, err = NC_NOERR;
    char *data = j->data, *p;
    if (j->fail) return j->fail;
    if (!data && !(data = replay(t, j, &err))) return err;
    ncp_swap_runs_apply(&j->swaps, data);
    p = data;
    while (k < j->nseg && err == NC_NOERR) {
        MPI_Offset off = j->seg_off[k], end = off;
        int64_t done;
        int n = 0;
        while (k < j->nseg && n < NCP_POSIX_IOV && j->seg_off[k] == end) {
            iov[n].iov_base = (void *)p;
            iov[n].iov_len = (size_t)j->seg_len[k];
            p += j->seg_len[k];
            end += j->seg_len[k];
            n++;
            k++;
        }
        err = ncp_posix_move_iov(fd, 1, iov, n, off, &done);
    }
    return err;
}

static ncp_wbt_job *next_job(ncp_wbt *t)
{
    ncp_wbt_job *j;
    while ((!t->head || t->held) && !t->stopping)
        pthread_cond_wait(&t->work, &t->mu);
    j = t->head;
    if (j) {
        t->head = j->next;
        if (!t->head) t->tail = NULL;
        t->writing = 1;
    }
    return j;
}

/* The thread takes the cycles the ranks leave: where every core runs a
 * rank, a writer of equal weight delays a rank's return from its call,
 * and every other rank waits for that one at the next collective. */
static void lowest_priority(void)
{
#ifdef __linux__
    (void)setpriority(PRIO_PROCESS, (id_t)syscall(SYS_gettid), 19);
#endif
}

static void *wbt_main(void *arg)
{
    ncp_wbt *t = arg;
    ncp_wbt_job *j;
    lowest_priority();
    pthread_mutex_lock(&t->mu);
    while ((j = next_job(t)) != NULL) {
        int err;
        pthread_mutex_unlock(&t->mu);
        err = job_write(t, j);
        pthread_mutex_lock(&t->mu);
        if (err != NC_NOERR && t->err == NC_NOERR) t->err = err;
        t->st.jobs++;
        t->st.bytes += err == NC_NOERR ? j->bytes : 0;
        t->writing = 0;
        if (j->data) {
            t->staged -= j->bytes;
            j->next = t->spare;
            t->spare = j;
        } else if (--t->log_jobs == 0) {
            t->log_end = 0;
        }
        pthread_cond_broadcast(&t->room);
        if (!j->data) {
            pthread_mutex_unlock(&t->mu);
            job_free(j);
            pthread_mutex_lock(&t->mu);
        }
    }
    pthread_mutex_unlock(&t->mu);
    return NULL;
}

int ncp_wbt_start(int fd, int64_t budget, int64_t keep, int log_fd,
                  ncp_wbt **out)
{
    ncp_wbt *t = calloc(1, sizeof(*t));
    *out = NULL;
    if (!t) return NC_ENOMEM;
    t->fd = fd;
    t->log_fd = log_fd;
    t->keep = keep;
    t->budget = budget > 0 ? budget : 1;
    t->maxbuf = t->budget / ncp_wbt_job_cap(t);
    pthread_mutex_init(&t->mu, NULL);
    pthread_cond_init(&t->work, NULL);
    pthread_cond_init(&t->room, NULL);
    if (pthread_create(&t->thread, NULL, wbt_main, t) != 0) {
        pthread_mutex_destroy(&t->mu);
        pthread_cond_destroy(&t->work);
        pthread_cond_destroy(&t->room);
        free(t);
        return NC_ENOMEM;
    }
    *out = t;
    return NC_NOERR;
}

int ncp_wbt_stop(ncp_wbt *t)
{
    int err;
    if (!t) return NC_NOERR;
    pthread_mutex_lock(&t->mu);
    t->stopping = 1;
    pthread_cond_signal(&t->work);
    pthread_mutex_unlock(&t->mu);
    pthread_join(t->thread, NULL);
    err = t->err;
    while (t->spare) {
        ncp_wbt_job *j = t->spare;
        t->spare = j->next;
        pool_give(j, t->keep);
    }
    job_free(t->spill);
    free(t->replay);
    pthread_mutex_destroy(&t->mu);
    pthread_cond_destroy(&t->work);
    pthread_cond_destroy(&t->room);
    free(t);
    return err;
}

int64_t ncp_wbt_job_cap(const ncp_wbt *t)
{
    return t->budget < WBT_JOB_MAX ? t->budget : WBT_JOB_MAX;
}

/* Room for nseg segments in j (its arrays kept, grown when short). */
static int seg_room(ncp_wbt_job *j, int nseg)
{
    MPI_Offset *o, *l;
    if (nseg <= j->seg_cap) return NC_NOERR;
    o = realloc(j->seg_off, (size_t)nseg * sizeof(*o));
    if (o) j->seg_off = o;
    l = o ? realloc(j->seg_len, (size_t)nseg * sizeof(*l)) : NULL;
    if (l) j->seg_len = l;
    if (!o || !l) return NC_ENOMEM;
    j->seg_cap = nseg;
    return NC_NOERR;
}

/* A spare job, or a new one while buffers may still be allocated; NULL
 * with *grow 0: wait for a spare. */
static ncp_wbt_job *take_buffer(ncp_wbt *t, int *grow)
{
    ncp_wbt_job *j = t->spare;
    *grow = 0;
    if (j) {
        t->spare = j->next;
        return j;
    }
    if (t->nbuf < t->maxbuf) {
        t->nbuf++;
        *grow = 1;
    }
    return NULL;
}

/* The spill job, with room for bytes and nseg segments. */
static int spill_job(ncp_wbt *t, int64_t bytes, int nseg, ncp_wbt_job **job)
{
    ncp_wbt_job *j = t->spill;
    if (!j && (j = calloc(1, sizeof(*j))) != NULL) {
        j->data_cap = ncp_wbt_job_cap(t);
        if (!(j->data = malloc((size_t)j->data_cap))) {
            free(j);
            j = NULL;
        }
        t->spill = j;
    }
    if (!j || seg_room(j, nseg > 0 ? nseg : 1) != NC_NOERR) return NC_ENOMEM;
    j->bytes = bytes;
    j->fail = 0;
    j->nseg = 0;
    *job = j;
    return NC_NOERR;
}

/* Append the spill job's bytes to the log and queue a job that points
 * at them, which takes over its segments and swap runs. */
static void spill_submit(ncp_wbt *t, ncp_wbt_job *s)
{
    ncp_wbt_job *j = calloc(1, sizeof(*j));
    struct iovec one = {s->data, (size_t)s->bytes};
    int64_t off, done;
    int err;
    pthread_mutex_lock(&t->mu);
    off = t->log_end;
    t->log_end += s->bytes;
    t->log_jobs++;
    t->st.bytes_logged += s->bytes;
    pthread_mutex_unlock(&t->mu);
    err = ncp_posix_move_iov(t->log_fd, 1, &one, 1, off, &done);
    if (!j) { /* the bytes are lost: say so at the next call */
        pthread_mutex_lock(&t->mu);
        if (t->err == NC_NOERR) t->err = NC_ENOMEM;
        if (--t->log_jobs == 0) t->log_end = 0;
        pthread_mutex_unlock(&t->mu);
        return;
    }
    *j = *s;
    j->data = NULL;
    j->data_cap = 0;
    j->log_off = off;
    j->fail = s->fail ? s->fail : err;
    memset(&s->swaps, 0, sizeof(s->swaps));
    s->seg_off = s->seg_len = NULL;
    s->seg_cap = 0;
    ncp_wbt_submit(t, j);
}

int ncp_wbt_reserve(ncp_wbt *t, int64_t bytes, int nseg, ncp_wbt_job **job)
{
    ncp_wbt_job *j;
    int grow, waited = 0;
    *job = NULL;
    pthread_mutex_lock(&t->mu);
    while (!(j = take_buffer(t, &grow)) && !grow) {
        t->held = 0; /* room comes only from the thread's writes */
        pthread_cond_signal(&t->work);
        if (t->log_fd >= 0) break;
        waited = 1;
        pthread_cond_wait(&t->room, &t->mu);
    }
    if (!j && !grow) { /* the log takes it */
        pthread_mutex_unlock(&t->mu);
        return spill_job(t, bytes, nseg, job);
    }
    t->st.waits_for_room += waited;
    t->staged += bytes;
    if (t->staged > t->st.peak_staged) t->st.peak_staged = t->staged;
    pthread_mutex_unlock(&t->mu);
    if (!j) j = pool_take(ncp_wbt_job_cap(t));
    if (!j && (j = calloc(1, sizeof(*j))) != NULL) {
        j->data_cap = ncp_wbt_job_cap(t);
        if (!(j->data = malloc((size_t)j->data_cap))) {
            free(j);
            j = NULL;
        }
    }
    if (j) j->bytes = bytes;
    if (!j || seg_room(j, nseg > 0 ? nseg : 1) != NC_NOERR) {
        if (j) ncp_wbt_cancel(t, j);
        else {
            pthread_mutex_lock(&t->mu);
            t->staged -= bytes;
            t->nbuf--;
            pthread_cond_broadcast(&t->room);
            pthread_mutex_unlock(&t->mu);
        }
        return NC_ENOMEM;
    }
    j->fail = 0;
    j->nseg = 0;
    *job = j;
    return NC_NOERR;
}

void ncp_wbt_cancel(ncp_wbt *t, ncp_wbt_job *job)
{
    if (job == t->spill) return;
    pthread_mutex_lock(&t->mu);
    t->staged -= job->bytes;
    job->next = t->spare;
    t->spare = job;
    pthread_cond_broadcast(&t->room);
    pthread_mutex_unlock(&t->mu);
}

void ncp_wbt_submit(ncp_wbt *t, ncp_wbt_job *job)
{
    if (job == t->spill) {
        spill_submit(t, job);
        return;
    }
    job->next = NULL;
    pthread_mutex_lock(&t->mu);
    if (t->tail) t->tail->next = job;
    else t->head = job;
    t->tail = job;
    pthread_cond_signal(&t->work);
    pthread_mutex_unlock(&t->mu);
}

void ncp_wbt_hold(ncp_wbt *t, int hold)
{
    pthread_mutex_lock(&t->mu);
    t->held = hold;
    if (!hold) pthread_cond_signal(&t->work);
    pthread_mutex_unlock(&t->mu);
}

int ncp_wbt_wait(ncp_wbt *t)
{
    int err;
    pthread_mutex_lock(&t->mu);
    t->held = 0;
    pthread_cond_signal(&t->work);
    while (t->head || t->writing) pthread_cond_wait(&t->room, &t->mu);
    err = t->err;
    pthread_mutex_unlock(&t->mu);
    return err;
}

int ncp_wbt_error(ncp_wbt *t)
{
    int err;
    pthread_mutex_lock(&t->mu);
    err = t->err;
    pthread_mutex_unlock(&t->mu);
    return err;
}

int ncp_wbt_busy(ncp_wbt *t)
{
    int busy;
    pthread_mutex_lock(&t->mu);
    busy = t->head != NULL || t->writing;
    pthread_mutex_unlock(&t->mu);
    return busy;
}

void ncp_wbt_stats_get(ncp_wbt *t, ncp_wbt_stats *s)
{
    pthread_mutex_lock(&t->mu);
    *s = t->st;
    pthread_mutex_unlock(&t->mu);
}
