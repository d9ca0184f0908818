/*
 * wb.c -- write-behind on one handle (ncp_wb.h): the hints, the staging
 * of a write into jobs within the budget, and the jobs' completion, by
 * the posix thread (transport/wb_thread.c) or by nonblocking MPI-IO
 * requests.
 *
 * Invariants:
 *  1. A write returns with the caller's memory no longer needed: every
 *     byte is copied into a job first.
 *  2. Jobs complete in the order they were staged (the thread's queue;
 *     the MPI requests' list is completed from its head), so a later
 *     write of the same bytes on this rank wins.
 *  3. The staged bytes never exceed the budget (a job waits for room).
 *  4. A background error is kept: returned once by ncp_wb_take_error
 *     (the next call that reports it), and again by ncp_wb_close.
 */
#include "ncp_wb.h"
#include "ncp_fault.h"
#include "transport/ncp_posix_move.h"
#include "transport/ncp_wb_thread.h"
#include "../base/ncp_mpi_err.h"
#include "../util/ncp_hints.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pnetcdf.h"

/* A job's file segments at most: their offsets cost 16 bytes each. */
#define WB_MAX_SEGS 65536
/* Bytes an MPI job stages at most, so its first requests start early. */
#define WB_MPI_JOB_MAX ((int64_t)4 << 20)

/* A job on the MPI handle: its bytes and one request per run. */
typedef struct mpi_job {
    struct mpi_job *next;
    char *data;
    MPI_Request *req;
    int64_t *want; /* each request's bytes */
    int nreq;
    int64_t bytes;
    int fail;
} mpi_job;

struct ncp_wb {
    struct ncp_wb *next_mpi; /* mpiio: the process's other handles */
    int log_fd;           /* posix: the spill log, or -1 */
    int64_t budget;
    ncp_wbt *thread;      /* posix */
    MPI_File fh;          /* mpiio: the independent handle */
    mpi_job *head, *tail; /* mpiio: jobs not yet completed, oldest first */
    int64_t staged;       /* mpiio */
    char **spare;         /* mpiio: buffers of completed jobs, for reuse */
    int nspare, nbuf, maxbuf; /* ... how many; allocated; the most */
    int err, reported;
    MPI_Offset lo, hi;    /* what pending jobs may touch */
    ncp_wb_stats st;      /* mpiio's; the thread keeps its own */
};

/* Every handle of this process that writes behind through MPI-IO:
 * OMPIO refuses MPI_File_sync on any file while a nonblocking request
 * of any file is pending, so a sync completes them all first. */
static ncp_wb *mpi_handles;

static void mpi_list_remove(ncp_wb *wb)
{
    ncp_wb **p = &mpi_handles;
    while (*p && *p != wb) p = &(*p)->next_mpi;
    if (*p) *p = wb->next_mpi;
}

/* The bytes of an MPI job's buffer: the budget, or WB_MPI_JOB_MAX where it
 * is more (budget / cap buffers at most, kept for reuse until close). */
static int64_t mpi_cap(const ncp_wb *wb)
{
    return wb->budget < WB_MPI_JOB_MAX ? wb->budget : WB_MPI_JOB_MAX;
}

/* The hints: on, the budget, and how much staging a closed file passes
 * to the next (nc_kept_buffer_size); rank 0's for everyone. */
static int conf_read(ncp_file *f, int *on, int64_t *budget, int64_t *keep)
{
    ncp_hints h;
    int64_t v[4] = {0, 0, 0, 0};
    int rank;
    MPI_Comm_rank(f->comm, &rank);
    ncp_hints_defaults(&h);
    if (rank == 0) {
        v[0] = ncp_hints_read(f->info, NCP_HO_IO, 1, &h) != NC_NOERR;
        (void)ncp_hints_read(f->info, NCP_HO_DATASET, 0, &h);
        v[3] = h.kept_buffer_size;
        v[1] = h.write_behind == 1 || h.burst_buf == 1;
        v[2] = ncp_hints_behind_size(&h);
    }
    MPI_Bcast(v, 4, MPI_INT64_T, 0, f->comm);
    *on = (int)v[1];
    *budget = v[2];
    *keep = v[3];
    return v[0] ? NC_EINVAL : NC_NOERR;
}

/* The spill log in the folder nc_burst_buf_dirname names (this rank's
 * value: node-local storage), removed at once so that nothing is left
 * behind whatever happens; -1 and NC_NOERR without the hint. */
static int log_open(ncp_file *f, int *fd)
{
    static int serial;
    char dir[MPI_MAX_INFO_VAL + 1], path[MPI_MAX_INFO_VAL + 64];
    *fd = -1;
    if (!ncp_hints_get_string(f->info, NCP_HINT_burst_buf_dirname, dir) ||
        !dir[0])
        return NC_NOERR;
    snprintf(path, sizeof path, "%s/.ncpario-wb.%ld.%d", dir, (long)getpid(),
             serial++);
    *fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (*fd < 0) return ncp_posix_errno(errno, NC_EFILE);
    unlink(path);
    return NC_NOERR;
}

int ncp_wb_open(ncp_file *f, int (*open_handle)(ncp_file *f))
{
    int on;
    int64_t budget, keep;
    int err = conf_read(f, &on, &budget, &keep);
    ncp_wb *wb;
    if (err != NC_NOERR || !on || !f->writable) return err;
    wb = calloc(1, sizeof(*wb));
    if (!wb) return NC_ENOMEM;
    wb->budget = budget;
    wb->log_fd = -1;
    if (f->fd >= 0) err = log_open(f, &wb->log_fd);
    if (f->fd >= 0 && err == NC_NOERR)
        err = ncp_wbt_start(f->fd, wb->budget, keep, wb->log_fd, &wb->thread);
    else if (f->fd < 0 && open_handle)
        err = open_handle(f);
    wb->fh = f->fh_self;
    if (err != NC_NOERR) {
        if (wb->log_fd >= 0) close(wb->log_fd);
        free(wb);
        return err;
    }
    if (!wb->thread) {
        /* the spare list's room is taken at once: 4 TiB of staging at most */
        int64_t most = budget / mpi_cap(wb);
        wb->maxbuf = most < (1 << 20) ? (int)most : 1 << 20;
        wb->spare = calloc((size_t)wb->maxbuf, sizeof(*wb->spare));
        if (!wb->spare) {
            free(wb);
            return NC_ENOMEM;
        }
        wb->next_mpi = mpi_handles;
        mpi_handles = wb;
    }
    f->wb = wb;
    return NC_NOERR;
}

static void keep_error(ncp_wb *wb, int err)
{
    if (err != NC_NOERR && wb->err == NC_NOERR) wb->err = err;
}

/* The statuses of a completed job's requests: any error, any short
 * write. */
static void mpi_check(ncp_wb *wb, const mpi_job *j, int mpierr,
                      MPI_Status *st)
{
    for (int k = 0; k < j->nreq; k++) {
        MPI_Count got = 0;
        int e = mpierr == MPI_ERR_IN_STATUS ? st[k].MPI_ERROR : mpierr;
        if (e != MPI_SUCCESS) {
            keep_error(wb, ncp_mpi_err(e, NC_EWRITE));
            continue;
        }
        MPI_Get_elements_x(&st[k], MPI_BYTE, &got);
        if (got != (MPI_Count)j->want[k]) keep_error(wb, NC_EWRITE);
    }
}

/* Complete the oldest MPI job (wait: even if its requests are running);
 * whether one completed. */
static int mpi_complete_head(ncp_wb *wb, int wait)
{
    mpi_job *j = wb->head;
    MPI_Status *st;
    int done = 1, mpierr;
    if (!j) return 0;
    /* without room for statuses, only the call's own code is checked */
    st = malloc((size_t)(j->nreq > 0 ? j->nreq : 1) * sizeof(*st));
    if (wait)
        mpierr = MPI_Waitall(j->nreq, j->req, st ? st : MPI_STATUSES_IGNORE);
    else
        mpierr = MPI_Testall(j->nreq, j->req, &done,
                             st ? st : MPI_STATUSES_IGNORE);
    if (done && st) mpi_check(wb, j, mpierr, st);
    else if (done && mpierr != MPI_SUCCESS)
        keep_error(wb, ncp_mpi_err(mpierr, NC_EWRITE));
    free(st);
    if (!done) return 0;
    keep_error(wb, j->fail);
    wb->st.jobs++;
    wb->st.bytes += j->fail ? 0 : j->bytes;
    wb->staged -= j->bytes;
    wb->head = j->next;
    if (!wb->head) wb->tail = NULL;
    wb->spare[wb->nspare++] = j->data;
    free(j->req);
    free(j->want);
    free(j);
    return 1;
}

/* Issue a job's runs (adjacent segments joined) as nonblocking writes. */
static void mpi_issue(ncp_wb *wb, mpi_job *j, const MPI_Offset *off,
                      const MPI_Offset *len, int nseg)
{
    char *p = j->data;
    int k = 0;
    while (k < nseg && !j->fail) {
        MPI_Offset at = off[k], n = 0;
        int mpierr;
        while (k < nseg && off[k] == at + n) n += len[k++];
        mpierr = MPI_File_iwrite_at(wb->fh, at, p, (int)n, MPI_BYTE,
                                    &j->req[j->nreq]);
        p += n;
        if (mpierr != MPI_SUCCESS)
            keep_error(wb, ncp_mpi_err(mpierr, NC_EWRITE));
        else
            j->want[j->nreq++] = n;
    }
}

/* One MPI job of the next bytes of p. */
static int mpi_stage(ncp_file *f, ncp_wb *wb, ncp_pack *p)
{
    int nseg;
    int64_t bytes = ncp_pack_peek(p, mpi_cap(wb), WB_MAX_SEGS, &nseg);
    MPI_Offset *off = malloc((size_t)nseg * sizeof(*off));
    MPI_Offset *len = malloc((size_t)nseg * sizeof(*len));
    mpi_job *j = calloc(1, sizeof(*j));
    int err = NC_NOERR;
    while (wb->head && mpi_complete_head(wb, 0)) continue;
    if (!wb->nspare && wb->nbuf >= wb->maxbuf) wb->st.waits_for_room++;
    while (!wb->nspare && wb->nbuf >= wb->maxbuf && wb->head)
        mpi_complete_head(wb, 1);
    if (j && wb->nspare) j->data = wb->spare[--wb->nspare];
    else if (j && (j->data = malloc((size_t)mpi_cap(wb))) != NULL)
        wb->nbuf++;
    if (j) j->req = malloc((size_t)nseg * sizeof(*j->req));
    if (j) j->want = malloc((size_t)nseg * sizeof(*j->want));
    if (!off || !len || !j || !j->data || !j->req || !j->want) {
        err = NC_ENOMEM;
    } else {
        (void)ncp_pack_take(p, bytes, j->data, off, len, NULL);
        j->bytes = bytes;
        j->fail = ncp_fault_behind(f);
        mpi_issue(wb, j, off, len, nseg);
        wb->staged += bytes;
        if (wb->staged > wb->st.peak_staged) wb->st.peak_staged = wb->staged;
        if (wb->tail) wb->tail->next = j;
        else wb->head = j;
        wb->tail = j;
        j = NULL;
    }
    if (j) {
        if (j->data) wb->spare[wb->nspare++] = j->data;
        free(j->req);
        free(j->want);
        free(j);
    }
    free(off);
    free(len);
    return err;
}

/* One thread job of the next bytes of p. */
static int thread_stage(ncp_file *f, ncp_wb *wb, ncp_pack *p)
{
    int nseg, err;
    int64_t bytes =
        ncp_pack_peek(p, ncp_wbt_job_cap(wb->thread), WB_MAX_SEGS, &nseg);
    ncp_wbt_job *j;
    err = ncp_wbt_reserve(wb->thread, bytes, nseg, &j);
    if (err != NC_NOERR) return err;
    err = ncp_pack_take(p, bytes, j->data, j->seg_off, j->seg_len, &j->swaps);
    if (err != NC_NOERR) {
        ncp_wbt_cancel(wb->thread, j);
        return err;
    }
    j->nseg = nseg;
    j->fail = ncp_fault_behind(f);
    ncp_wbt_submit(wb->thread, j);
    return NC_NOERR;
}

int ncp_wb_write(ncp_file *f, const ncp_extents *ext, const ncp_extents *mem)
{
    ncp_wb *wb = f->wb;
    ncp_pack p;
    int err = ncp_wb_take_error(f);
    if (err != NC_NOERR || ext->n == 0) return err;
    if (wb->lo == wb->hi) {
        wb->lo = ext->off[0];
        wb->hi = wb->lo;
    }
    if (ext->off[0] < wb->lo) wb->lo = ext->off[0];
    if (ext->off[ext->n - 1] + ext->len[ext->n - 1] > wb->hi)
        wb->hi = ext->off[ext->n - 1] + ext->len[ext->n - 1];
    ncp_pack_init(&p, ext, mem);
    while (err == NC_NOERR && !ncp_pack_done(&p))
        err = wb->thread ? thread_stage(f, wb, &p) : mpi_stage(f, wb, &p);
    return err;
}

static void drain(ncp_wb *wb)
{
    if (wb->thread) keep_error(wb, ncp_wbt_wait(wb->thread));
    while (mpi_complete_head(wb, 1)) continue;
    wb->lo = wb->hi = 0;
}

void ncp_wb_hold(ncp_file *f, int hold)
{
    if (f->wb && f->wb->thread) ncp_wbt_hold(f->wb->thread, hold);
}

void ncp_wb_drain(ncp_file *f)
{
    if (f->wb) drain(f->wb);
}

void ncp_wb_drain_mpi_all(void)
{
    ncp_wb *wb;
    for (wb = mpi_handles; wb; wb = wb->next_mpi) drain(wb);
}

int ncp_wb_take_error(ncp_file *f)
{
    ncp_wb *wb = f->wb;
    if (!wb) return NC_NOERR;
    if (wb->thread) keep_error(wb, ncp_wbt_error(wb->thread));
    while (wb->head && mpi_complete_head(wb, 0)) continue;
    if (wb->err == NC_NOERR || wb->reported) return NC_NOERR;
    wb->reported = 1;
    return wb->err;
}

void ncp_wb_pending(ncp_file *f, MPI_Offset *lo, MPI_Offset *hi)
{
    ncp_wb *wb = f->wb;
    *lo = *hi = 0;
    if (!wb) return;
    while (wb->head && mpi_complete_head(wb, 0)) continue;
    if (wb->thread ? !ncp_wbt_busy(wb->thread) : !wb->head)
        wb->lo = wb->hi = 0;
    *lo = wb->lo;
    *hi = wb->hi;
}

void ncp_wb_stats_add(const ncp_file *f, ncp_wb_stats *s)
{
    ncp_wb_stats t = f->wb ? f->wb->st : f->wb_done;
    if (f->wb && f->wb->thread) {
        ncp_wbt_stats w;
        ncp_wbt_stats_get(f->wb->thread, &w);
        t.jobs = w.jobs;
        t.bytes = w.bytes;
        t.peak_staged = w.peak_staged;
        t.waits_for_room = w.waits_for_room;
        t.bytes_logged = w.bytes_logged;
    }
    s->jobs += t.jobs;
    s->bytes += t.bytes;
    if (t.peak_staged > s->peak_staged) s->peak_staged = t.peak_staged;
    s->waits_for_room += t.waits_for_room;
    s->bytes_logged += t.bytes_logged;
}

int ncp_wb_close(ncp_file *f)
{
    ncp_wb *wb = f->wb;
    int err;
    if (!wb) return NC_NOERR;
    ncp_wb_drain(f);
    ncp_wb_stats_add(f, &f->wb_done);
    if (wb->thread) keep_error(wb, ncp_wbt_stop(wb->thread));
    else mpi_list_remove(wb);
    while (wb->nspare > 0) free(wb->spare[--wb->nspare]);
    free(wb->spare);
    if (wb->log_fd >= 0) close(wb->log_fd);
    err = wb->err;
    f->wb = NULL;
    free(wb);
    return err;
}
