/*
 * move.c -- what an enddef writes over the file it finds, atomically: the
 * data a redef's larger header (or its new fixed variables) moves, and
 * the header itself.
 *
 * Order, each step collective and its error agreed:
 *  1. plan: the move pieces (old offset -> new), and the regions of the
 *     file as it is that steps 3 and 4 may overwrite: the new header's
 *     bytes and the move's destinations, clipped to the old end of file;
 *  2. journal (io/journal.c): rank 0 creates it, every rank saves its
 *     share of those regions' bytes, rank 0 seals it;
 *  3. the move, from the end of the file toward its start;
 *  4. the header, written by rank 0;
 *  5. commit: rank 0 removes the journal.
 * A failure in 3 or 4 rolls the file back from the journal, so it holds
 * its old header and data again, and so does the dataset's header model.
 * A kill at any moment leaves a journal that the next open rolls back
 * (lifecycle.c), or none and a finished enddef.  Where no journal can be
 * made (a directory the file's owner cannot write) the enddef goes on
 * without one, as before, and says so on standard error.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ncp_dataset.h"
#include "../util/ncp_errors.h"
#include "../base/ncp_grow.h"
#include "../io/ncp_journal.h"
#include "pnetcdf.h"

typedef struct move_piece {
    int64_t from, to, len;
} move_piece;

typedef struct move_list {
    int64_t n, cap;
    move_piece *p;
} move_list;

/* Append a piece, merging with the previous one when both are contiguous
 * and shift by the same amount. */
static int move_add(move_list *m, int64_t from, int64_t to, int64_t len)
{
    move_piece *last = m->n ? &m->p[m->n - 1] : NULL, *np;
    if (len <= 0 || from == to) return NC_NOERR;
    if (last && last->from + last->len == from && last->to + last->len == to) {
        last->len += len;
        return NC_NOERR;
    }
    np = ncp_grow(m->p, m->n, &m->cap, sizeof(*np), 64);
    if (!np) return NC_ENOMEM;
    m->p = np;
    m->p[m->n].from = from;
    m->p[m->n].to = to;
    m->p[m->n].len = len;
    m->n++;
    return NC_NOERR;
}

/* A fixed variable's bytes with its padding to 4, as PnetCDF moves it
 * (vsize itself may be clamped on CDF-1/2, so it is recomputed). */
static int64_t padded_bytes(const ncp_var *v)
{
    return (v->nelems_per_rec * ncp_xtype_size(v->xtype) + 3) & ~(int64_t)3;
}

/*
 * Pieces in ascending source order: the fixed variables, each with its
 * padding, then each old record whole (old recsize bytes, padding and all).
 * Copying exactly these ranges, as PnetCDF does, makes the moved file
 * byte-identical to PnetCDF's, stale bytes in gaps included.
 */
static int plan_move(const ncp_header *old, const ncp_header *nw,
                     move_list *m)
{
    int err = NC_NOERR, i;
    int64_t r;
    for (i = 0; i < old->nvars && err == NC_NOERR; i++) {
        const ncp_var *ov = &old->vars[i];
        if (!ov->is_record)
            err = move_add(m, ov->begin, nw->vars[i].begin, padded_bytes(ov));
    }
    for (r = 0; r < old->numrecs && err == NC_NOERR; r++)
        err = move_add(m, old->begin_rec + r * old->recsize,
                       nw->begin_rec + r * nw->recsize, old->recsize);
    return err;
}

/* Bytes of [from, from+len) that lie before the old end of file. */
static int64_t clamp_to_eof(int64_t from, int64_t len, int64_t eof)
{
    if (from >= eof) return 0;
    return from + len > eof ? eof - from : len;
}

/*
 * Copy pieces from the end of the file toward its start, in rounds of one
 * chunk per rank; within a round every read finishes before any write.
 * Destinations never precede sources, so a write can only land on bytes
 * that this round or an earlier one has already read.  Only bytes that
 * existed in the old file are read and written: a NOFILL file is not
 * zero-extended, and a read never sees data an earlier round moved past
 * the old end.
 */
static int run_move(ncp_dataset *ds, const move_list *m, void *buf,
                    int64_t chunk, int64_t eof)
{
    int err = NC_NOERR;
    int64_t pi = m->n - 1, left = pi >= 0 ? m->p[pi].len : 0;
    while (pi >= 0) { /* the same on every rank */
        /* Every rank walks the same next nprocs chunks; rank k takes the
           k-th, so a round covers them all. */
        int64_t from = -1, to = 0, len = 0, got = 0, k;
        for (k = 0; k < ds->nprocs && pi >= 0; k++) {
            int64_t l = left < chunk ? left : chunk;
            if (k == ds->rank) {
                from = m->p[pi].from + left - l;
                to = m->p[pi].to + left - l;
                len = clamp_to_eof(from, l, eof);
            }
            left -= l;
            if (left == 0 && --pi >= 0) left = m->p[pi].len;
        }
        if (len > 0 && err == NC_NOERR)
            err = ncp_io_read_at(&ds->file, from, buf, len, &got);
        /* Every read of the round, and every write of the one before,
           is done before any write of this round (the agreement's
           allreduce orders them). */
        if ((err = ncp_agree(ds->comm, err)) != NC_NOERR) break;
        if (got > 0) err = ncp_io_write_at(&ds->file, to, buf, got);
    }
    return ncp_agree(ds->comm, err);
}

/* The file's size as rank 0 sees it, on every rank. */
static int shared_file_size(ncp_dataset *ds, int64_t *size)
{
    MPI_Offset sz = 0;
    int err = ds->rank == 0 ? ncp_io_get_size(&ds->file, &sz) : NC_NOERR;
    MPI_Bcast(&sz, 1, MPI_OFFSET, 0, ds->comm);
    *size = (int64_t)sz;
    return ncp_agree(ds->comm, err);
}

/* --- the journal --------------------------------------------------------- */

typedef struct region_list {
    int64_t n, cap;
    ncp_journal_region *r;
} region_list;

/* Append [off, off+len) clipped to eof, merged into the last region when
 * they touch (regions come in ascending order). */
static int region_add(region_list *l, int64_t off, int64_t len, int64_t eof)
{
    ncp_journal_region *last = l->n ? &l->r[l->n - 1] : NULL, *nr;
    if (off >= eof || len <= 0) return NC_NOERR;
    if (off + len > eof) len = eof - off;
    if (last && off <= last->off + last->len) {
        if (off + len > last->off + last->len)
            last->len = off + len - last->off;
        return NC_NOERR;
    }
    nr = ncp_grow(l->r, l->n, &l->cap, sizeof(*nr), 16);
    if (!nr) return NC_ENOMEM;
    l->r = nr;
    l->r[l->n].off = off;
    l->r[l->n].len = len;
    l->n++;
    return NC_NOERR;
}

/* Step 1's regions: the header's bytes, then the move's destinations
 * (ascending, since the layout keeps the variables' order). */
static int plan_regions(const ncp_dataset *ds, const move_list *m,
                        int64_t eof, region_list *l)
{
    int err = region_add(l, 0, ds->hdr.xsz, eof);
    int64_t i;
    for (i = 0; i < m->n && err == NC_NOERR; i++)
        err = region_add(l, m->p[i].to, m->p[i].len, eof);
    return err;
}

/* Every rank saves its share: the regions' bytes in chunks, chunk k by
 * rank k mod nprocs, each to its place in the journal. */
static int save_share(ncp_dataset *ds, ncp_journal *j, const region_list *l,
                      void *buf, int64_t chunk)
{
    int64_t i, done, k = 0, joff = ncp_journal_data_start(l->n), got;
    int err = NC_NOERR;
    for (i = 0; i < l->n && err == NC_NOERR; i++) {
        for (done = 0; done < l->r[i].len && err == NC_NOERR; k++) {
            int64_t len = l->r[i].len - done;
            if (len > chunk) len = chunk;
            if (k % ds->nprocs == ds->rank) {
                if (j->fd < 0)
                    err = ncp_journal_open(j, ds->file.path, j->durable);
                if (err == NC_NOERR)
                    err = ncp_io_read_at(&ds->file, l->r[i].off + done, buf,
                                         len, &got);
                if (err == NC_NOERR && got < len)
                    memset((char *)buf + got, 0, (size_t)(len - got));
                if (err == NC_NOERR)
                    err = ncp_journal_save(j, joff, buf, len);
            }
            done += len;
            joff += len;
        }
    }
    return err;
}

/* Step 2.  *journaled 0: no journal could be made; the enddef goes on. */
static void journal_begin(ncp_dataset *ds, ncp_journal *j,
                         const region_list *l, int64_t eof, void *buf,
                         int *journaled)
{
    int err = NC_NOERR, made;
    j->fd = -1;
    j->path = NULL;
    j->durable = ds->hints.sync_durable != 0;
    if (ds->rank == 0)
        err = ncp_journal_create(j, ds->file.path, j->durable);
    made = ncp_agree(ds->comm, err) == NC_NOERR;
    if (made) err = save_share(ds, j, l, buf, ds->hints.data_move_chunk);
    if (made && ds->rank != 0) err = ncp_journal_close(j, 0);
    if (made) err = ncp_agree(ds->comm, err);
    if (made && err == NC_NOERR && ds->rank == 0)
        err = ncp_journal_seal(j, eof, l->r, l->n);
    if (made) err = ncp_agree(ds->comm, err);
    *journaled = made && err == NC_NOERR;
    if (!*journaled) {
        if (ds->rank == 0) {
            (void)ncp_journal_close(j, 1);
            fprintf(stderr, "ncpario: warning: no journal for %s (%s); "
                    "this enddef is not atomic\n", ds->file.path,
                    ncp_strerror_detail(made ? err : NC_EFILE));
        }
        (void)ncp_journal_close(j, 0);
    }
}

/* Step 5, or the roll back after a failure (rank 0 restores the old
 * bytes while the others wait).  Returns err, or the commit's error. */
static int journal_end(ncp_dataset *ds, ncp_journal *j, int journaled,
                       int err)
{
    int rolled = 0, e2 = NC_NOERR;
    if (!journaled) return err;
    if (err == NC_NOERR) {
        if (ds->hints.sync_durable) e2 = ncp_io_sync(&ds->file);
        if (ds->rank == 0 && e2 == NC_NOERR) e2 = ncp_journal_close(j, 1);
        return ncp_agree(ds->comm, e2);
    }
    MPI_Barrier(ds->comm);
    if (ds->rank == 0) {
        (void)ncp_journal_close(j, 0);
        e2 = ncp_journal_recover(ds->file.path, &rolled);
    }
    e2 = ncp_agree(ds->comm, e2);
    if (e2 == NC_NOERR && ds->on_disk) {
        ncp_header_free(&ds->hdr);
        e2 = ncp_header_copy(&ds->hdr, ds->on_disk);
    }
    return err;
}

/* --- steps 1 to 5 --------------------------------------------------------- */

int ncp_enddef_write(ncp_dataset *ds)
{
    move_list m = {0, 0, NULL};
    region_list l = {0, 0, NULL};
    ncp_journal j;
    void *buf = NULL;
    int64_t eof = 0;
    int err, journaled = 0;

    /* Every rank has passed the consistency check's collectives, so the
       writes made before redef are all in the file. */
    err = shared_file_size(ds, &eof);
    if (err == NC_NOERR && ds->on_disk)
        err = plan_move(ds->on_disk, &ds->hdr, &m);
    if (err == NC_NOERR) err = plan_regions(ds, &m, eof, &l);
    if (err == NC_NOERR && !(buf = malloc((size_t)ds->hints.data_move_chunk)))
        err = NC_ENOMEM;
    err = ncp_agree(ds->comm, err);
    if (err != NC_NOERR) goto done;
    journal_begin(ds, &j, &l, eof, buf, &journaled);
    if (m.n > 0) err = run_move(ds, &m, buf, ds->hints.data_move_chunk, eof);
    if (err == NC_NOERR) err = ncp_header_write(ds);
    err = journal_end(ds, &j, journaled, err);
done:
    free(buf);
    free(m.p);
    free(l.r);
    return err;
}
