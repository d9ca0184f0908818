/*
 * wb_ranks.c -- write-behind across the ranks and handles of a file (the
 * io.c side of ncp_wb.h, ncp_io.h's ncp_io_behind_*): the check before
 * each collective write, the settle before a collective read and at the
 * dataset's waiting calls, and the errors every rank reports.  A file
 * writes behind on its own handle and, under I/O groups, on its
 * aggregators' file.
 */
#include "ncp_io_driver.h"
#include "ncp_wb.h"
#include "group/ncp_group.h"

#include <stdlib.h>
#include <string.h>

#include "pnetcdf.h"

/* The handles of f that may write behind: its own, and its I/O groups'
 * aggregators' file; the count. */
static int wb_files(ncp_file *f, ncp_file *out[2])
{
    int n = 0;
    if (f->wb) out[n++] = f;
    if (f->group && f->group->afile && f->group->afile->wb)
        out[n++] = f->group->afile;
    return n;
}

/* This rank's background error not yet reported, over f's handles. */
static int wb_take_error(ncp_file *f)
{
    ncp_file *h[2];
    int n = wb_files(f, h), k, err = NC_NOERR;
    for (k = 0; k < n; k++) {
        int e = ncp_wb_take_error(h[k]);
        if (err == NC_NOERR) err = e;
    }
    return err;
}

static void wb_hold(ncp_file *f, int hold)
{
    ncp_file *h[2];
    int n = wb_files(f, h), k;
    for (k = 0; k < n; k++) ncp_wb_hold(h[k], hold);
}

static void wb_drain(ncp_file *f)
{
    ncp_file *h[2];
    int n = wb_files(f, h), k;
    for (k = 0; k < n; k++) ncp_wb_drain(h[k]);
}

static int cmp_range(const void *a, const void *b)
{
    MPI_Offset x = *(const MPI_Offset *)a, y = *(const MPI_Offset *)b;
    return x < y ? -1 : x > y;
}

/* The pending ranges of all (five numbers a rank: pending lo, hi, new
 * lo, hi, error) into iv as sorted, disjoint [lo, hi) pairs; their
 * count. */
static int pending_union(const int64_t *all, int nprocs, MPI_Offset *iv)
{
    int i, m = 0, u = 0;
    for (i = 0; i < nprocs; i++)
        if (all[5 * i] < all[5 * i + 1]) {
            iv[2 * m] = all[5 * i];
            iv[2 * m + 1] = all[5 * i + 1];
            m++;
        }
    qsort(iv, (size_t)m, 2 * sizeof(*iv), cmp_range);
    for (i = 0; i < m; i++) {
        if (u > 0 && iv[2 * i] <= iv[2 * u - 1]) {
            if (iv[2 * i + 1] > iv[2 * u - 1]) iv[2 * u - 1] = iv[2 * i + 1];
            continue;
        }
        iv[2 * u] = iv[2 * i];
        iv[2 * u + 1] = iv[2 * i + 1];
        u++;
    }
    return u;
}

/* Does any rank's new range meet any rank's pending one?  Each new range
 * is looked up in the sorted union: n log n. */
static int wb_conflict(const int64_t *all, int nprocs)
{
    MPI_Offset *iv = malloc((size_t)(nprocs > 0 ? nprocs : 1) * 2 *
                            sizeof(*iv));
    int i, m, hit = 0;
    if (!iv) return 1; /* cannot tell: wait, which is always right */
    m = pending_union(all, nprocs, iv);
    for (i = 0; i < nprocs && m > 0 && !hit; i++) {
        MPI_Offset lo = all[5 * i + 2], hi = all[5 * i + 3];
        int a = 0, b = m;
        if (lo >= hi || iv[0] >= hi) continue;
        while (b - a > 1) { /* the last range starting before hi */
            int c = (a + b) / 2;
            if (iv[2 * c] < hi) a = c;
            else b = c;
        }
        hit = iv[2 * a + 1] > lo;
    }
    free(iv);
    return hit;
}

/*
 * Before a collective write on a file that writes behind: the ranks
 * share what they have pending and what they will write, with any
 * background error.  A write that meets another's pending bytes (or
 * bytes its aggregator may stage elsewhere) waits until every rank's
 * pending writes are done, so the later write wins, as it would without
 * write-behind.  An error anywhere fails this call on every rank.
 */
static int before_collective_write(ncp_file *f, const ncp_extents *ext)
{
    ncp_file *h[2];
    int64_t mine[5] = {0, 0, 0, 0, 0}, *all;
    int nprocs, n = wb_files(f, h), k, err = NC_NOERR;
    MPI_Comm_size(f->comm, &nprocs);
    for (k = 0; k < n; k++) {
        MPI_Offset lo, hi;
        ncp_wb_pending(h[k], &lo, &hi);
        if (lo >= hi) continue;
        if (mine[0] == mine[1] || lo < mine[0]) mine[0] = lo;
        if (hi > mine[1]) mine[1] = hi;
    }
    if (ext->n > 0) {
        mine[2] = ext->off[0];
        mine[3] = ext->off[ext->n - 1] + ext->len[ext->n - 1];
    }
    mine[4] = wb_take_error(f);
    all = malloc((size_t)(nprocs > 0 ? nprocs : 1) * sizeof(mine));
    if (!all) return ncp_agree(f->comm, NC_ENOMEM);
    MPI_Allgather(mine, 5, MPI_INT64_T, all, 5, MPI_INT64_T, f->comm);
    for (k = 0; k < nprocs; k++)
        if (all[5 * k + 4] < err) err = (int)all[5 * k + 4];
    if (err == NC_NOERR && wb_conflict(all, nprocs)) {
        wb_drain(f);
        MPI_Barrier(f->comm);
    }
    free(all);
    return err;
}

int ncp_wb_before_xferv(ncp_file *f, int collective, int is_write,
                        const ncp_extents *ext)
{
    if (collective && is_write) return before_collective_write(f, ext);
    if (collective) return ncp_io_behind_settle(f);
    return wb_take_error(f);
}

int ncp_io_behind_on(const ncp_file *f) { return f->wb != NULL; }

int ncp_io_behind_settle(ncp_file *f)
{
    if (!f->wb) return NC_NOERR;
    return ncp_agree(f->comm, ncp_io_behind_drain(f));
}

void ncp_io_behind_hold(ncp_file *f, int hold)
{
    if (f->wb) wb_hold(f, hold);
}

int ncp_io_behind_drain(ncp_file *f)
{
    if (!f->wb) return NC_NOERR;
    wb_drain(f);
    return wb_take_error(f);
}

void ncp_io_behind_stats(const ncp_file *f, ncp_wb_stats *s)
{
    memset(s, 0, sizeof(*s));
    ncp_wb_stats_add(f, s);
    if (f->group && f->group->afile) ncp_wb_stats_add(f->group->afile, s);
}
