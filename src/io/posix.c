/*
 * posix.c -- the POSIX driver: every rank opens the file itself.  Reads
 * and independent writes move each rank's own extents with preadv/pwritev,
 * straight between the file and the caller's memory pieces (reads of many
 * small, close extents through a bounce buffer: see sieve_end); collective
 * writes go through the aggregators of posix_agg.c when a node has more
 * than one rank.
 *
 * Why it exists: the engine has already merged each rank's requests into
 * few sorted extents, so a read needs no exchange at all (page-cache reads
 * of one file run in parallel), and a write needs one exchange to the
 * node's writer, not MPI-IO's general machinery.
 *
 * Invariants:
 *  1. A collective transfer ends with one allreduce of the error code:
 *     every rank returns the same code, and no rank returns before every
 *     rank's bytes are in the file (what a later read by another rank
 *     relies on, as it does on MPI-IO's collective write).
 *  2. Reads past the end of the file stop there and leave the rest of the
 *     memory untouched, as an MPI-IO read does.
 *  3. Only rank 0 creates or truncates; the others open afterwards.
 */
#define _GNU_SOURCE
#include "ncp_posix.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

#include "../base/ncp_stream.h"
#include "pnetcdf.h"
#include "../format/ncp_xconv.h"
#include "../util/ncp_hints.h"

static int errno_code(int e, int fallback)
{
    switch (e) {
    case ENOENT: return NC_ENOENT;
    case EEXIST: return NC_EEXIST;
    case EACCES:
    case EPERM: return NC_EACCESS;
    case EROFS: return NC_EPERM;
    case ENOSPC: return NC_ENO_SPACE;
    case EDQUOT: return NC_EQUOTA;
    case EBADF: return NC_EBAD_FILE;
    default: return fallback;
    }
}

/*
 * Move iov[0..n) at off, continuing after partial transfers and EINTR.
 * *done is the byte count moved; a read stops early at end of file.
 */
static int move_iov(int fd, int is_write, struct iovec *iov, int n,
                    MPI_Offset off, int64_t *done)
{
    *done = 0;
    while (n > 0) {
        ssize_t k = is_write ? pwritev(fd, iov, n, (off_t)off)
                             : preadv(fd, iov, n, (off_t)off);
        if (k < 0 && errno == EINTR) continue;
        if (k < 0) return errno_code(errno, is_write ? NC_EWRITE : NC_EREAD);
        if (k == 0) {
            if (is_write) return NC_EWRITE; /* no progress: give up */
            return NC_NOERR;                /* end of file */
        }
        *done += k;
        off += k;
        while (n > 0 && (size_t)k >= iov->iov_len) {
            k -= (ssize_t)iov->iov_len;
            iov++;
            n--;
        }
        if (n > 0) {
            iov->iov_base = (char *)iov->iov_base + k;
            iov->iov_len -= (size_t)k;
        }
    }
    return NC_NOERR;
}

int ncp_posix_pwritev(int fd, struct iovec *iov, int n, MPI_Offset off)
{
    int64_t done;
    return move_iov(fd, 1, iov, n, off, &done);
}

/* A cursor over the memory pieces: piece i, byte `at` within it. */
typedef struct mem_cursor {
    const ncp_extents *mem;
    int64_t i;
    MPI_Offset at;
} mem_cursor;

/* The next slice of memory at the cursor, at most `want` bytes (with
 * whole: or up to the end of the element `want` ends in, in a swapped
 * piece): its address in *p, the width of its swapped elements in *w
 * (0: none), its length returned (0 when memory is used up). */
static MPI_Offset cursor_take(mem_cursor *c, MPI_Offset want, int whole,
                              char **p, int *w)
{
    MPI_Offset left, piece;
    if (c->i >= c->mem->n) return 0;
    *w = c->mem->swap ? c->mem->swap[c->i] : 0;
    left = c->mem->len[c->i] - c->at;
    piece = left < want ? left : want;
    /* A read's chunks cut pieces wherever the bytes before them end;
     * cut inside an element, a swapped piece's rest was swapped out of
     * step.  Such a slice runs to the element's end, as pieces and
     * extents do.  (A copy stops where the read stopped.) */
    if (whole && *w > 1 && piece < left && piece % *w != 0)
        piece += *w - piece % *w;
    *p = (char *)(intptr_t)c->mem->off[c->i] + c->at;
    c->at += piece;
    if (c->at == c->mem->len[c->i]) {
        c->i++;
        c->at = 0;
    }
    return piece;
}

/* Fill iov with up to NCP_POSIX_IOV slices of the next `want` bytes of
 * memory (each below 1 GiB, so no length overflows ssize_t sums), and w
 * with their swap widths. */
static int take_iov(mem_cursor *c, MPI_Offset want, struct iovec *iov,
                    unsigned char *w, MPI_Offset *got)
{
    const MPI_Offset cap = (MPI_Offset)1 << 30;
    int n = 0, width = 0;
    *got = 0;
    while (want > 0 && n < NCP_POSIX_IOV) {
        char *p;
        MPI_Offset piece =
            cursor_take(c, want < cap ? want : cap, 1, &p, &width);
        if (piece == 0) break;
        w[n] = (unsigned char)width;
        iov[n].iov_base = p;
        iov[n].iov_len = (size_t)piece;
        n++;
        *got += piece;
        want -= piece;
    }
    return n;
}

/*
 * Reverse the elements of the first `done` bytes of iov[0..n) (widths w),
 * while they are in cache: a read's right after its preadv, a write's
 * before and after its pwritev.  Done in one pass over a whole combined
 * call, the swap ran at memory speed: a read of 20 record variables of
 * 50^3 at 4 ranks (coll_perf) was 10% slower than reading per variable,
 * and at 1 rank on tmpfs a combined write of them, swapped in place and
 * back over all 10 MiB, was 0.89-0.95x of writing per variable.  Only
 * whole elements: a partial one exists only where a read met the end of
 * the file.
 */
static void swap_slices(const struct iovec *iov, const unsigned char *w,
                        int n, int64_t done)
{
    int k;
    for (k = 0; k < n && done > 0; k++) {
        int64_t len = (int64_t)iov[k].iov_len < done ? (int64_t)iov[k].iov_len
                                                     : done;
        if (w[k] > 1) ncp_x_swap_inplace(iov[k].iov_base, len / w[k], w[k]);
        done -= len;
    }
}

/* The most bytes one preadv or pwritev moves when swap_slices goes with
 * it: within a core's L2 cache (1 MiB here), and a multiple of every
 * width.  A write's chunk is the larger: each pwritev to ext4 costs more
 * than the bytes, and at 1 rank on /tmp a combined write of 20 variables
 * of 50^3 ran 1.2x faster in 1 MiB chunks than in 256 KiB ones. */
enum { SWAP_READ_CHUNK = 256 << 10, SWAP_WRITE_CHUNK = 1 << 20 };

static int by_base(const void *a, const void *b)
{
    const char *x = ((const struct iovec *)a)->iov_base;
    const char *y = ((const struct iovec *)b)->iov_base;
    return x < y ? -1 : x > y;
}

/* Do two of iov[0..n) share memory?  Pieces come in address order but
 * for one buffer written to two variables, so sort only when not. */
static int slices_overlap(const struct iovec *iov, int n)
{
    struct iovec s[NCP_POSIX_IOV];
    const char *end;
    int k;
    for (k = 1; k < n; k++)
        if ((const char *)iov[k].iov_base <
            (const char *)iov[k - 1].iov_base + iov[k - 1].iov_len)
            break;
    if (k >= n) return 0;
    memcpy(s, iov, (size_t)n * sizeof(*iov));
    qsort(s, (size_t)n, sizeof(*s), by_base);
    end = (const char *)s[0].iov_base + s[0].iov_len;
    for (k = 1; k < n; k++) {
        const char *e = (const char *)s[k].iov_base + s[k].iov_len;
        if ((const char *)s[k].iov_base < end) return 1;
        if (e > end) end = e;
    }
    return 0;
}

/*
 * Write iov[0..n) at off, the elements of swapped slices (widths w)
 * reversed in place for the write and back after it, whatever the write
 * returned: the caller's buffer comes back as it was.  Slices that share
 * memory (one buffer written twice, or as bytes and as ints) would be
 * swapped twice, or under each other, so they go one at a time.
 */
static int write_swapped(int fd, const struct iovec *iov,
                         const unsigned char *w, int n, MPI_Offset off)
{
    struct iovec moving[NCP_POSIX_IOV];
    int64_t done;
    int k, err = NC_NOERR;
    if (n > 1 && slices_overlap(iov, n)) {
        for (k = 0; k < n && err == NC_NOERR; k++) {
            err = write_swapped(fd, &iov[k], &w[k], 1, off);
            off += (MPI_Offset)iov[k].iov_len;
        }
        return err;
    }
    swap_slices(iov, w, n, INT64_MAX);
    memcpy(moving, iov, (size_t)n * sizeof(*iov)); /* move_iov advances */
    err = move_iov(fd, 1, moving, n, off, &done);
    swap_slices(iov, w, n, INT64_MAX);
    return err;
}

/* Move one file extent against the next memory pieces, in chunks of at
 * most SWAP_*_CHUNK where they carry swap widths.  *eof is set when a read
 * met the end of the file. */
static int move_extent(int fd, int is_write, MPI_Offset off, MPI_Offset len,
                       mem_cursor *cur, int *eof)
{
    struct iovec iov[NCP_POSIX_IOV], read_iov[NCP_POSIX_IOV];
    unsigned char w[NCP_POSIX_IOV];
    int64_t done;
    MPI_Offset got;
    MPI_Offset chunk = is_write ? SWAP_WRITE_CHUNK : SWAP_READ_CHUNK;
    int err = NC_NOERR, swaps = cur->mem->swap != NULL;
    while (len > 0 && err == NC_NOERR) {
        MPI_Offset want = swaps && len > chunk ? chunk : len;
        int n = take_iov(cur, want, iov, w, &got);
        if (n == 0) return NC_EINTERNAL; /* memory shorter than file */
        if (is_write && swaps) {
            err = write_swapped(fd, iov, w, n, off);
        } else {
            if (swaps) /* move_iov advances iov past what it moved */
                memcpy(read_iov, iov, (size_t)n * sizeof(*iov));
            err = move_iov(fd, is_write, iov, n, off, &done);
            if (swaps && err == NC_NOERR) swap_slices(read_iov, w, n, done);
            if (err == NC_NOERR && done < got) {
                *eof = 1;
                return NC_NOERR;
            }
        }
        off += got;
        len -= got;
    }
    return err;
}

/*
 * Read sieving.  A subarray's rows come as many small extents with small
 * holes between them, and one preadv each costs more than reading the
 * holes: at 8 ranks a 32^3 int block per rank is 1024 extents of 128
 * bytes per variable.  A run of at least SIEVE_MIN extents, each hole at
 * most SIEVE_HOLE bytes and the whole at most SIEVE_SPAN, is read with
 * one pread into a bounce buffer and copied out.  Reads only: a write
 * would have to read, patch and write back the holes, racing with the
 * ranks that own them.
 */
enum { SIEVE_MIN = 4, SIEVE_HOLE = 4096, SIEVE_SPAN = 4 << 20 };

/* One past the last extent of the sieve run starting at extent i. */
static int64_t sieve_end(const ncp_extents *ext, int64_t i)
{
    int64_t j = i + 1;
    MPI_Offset first = ext->off[i];
    while (j < ext->n && ext->off[j] - (ext->off[j - 1] + ext->len[j - 1]) <=
                             SIEVE_HOLE &&
           ext->off[j] + ext->len[j] - first <= SIEVE_SPAN)
        j++;
    return j;
}

/* Copy n bytes from src into the memory pieces at the cursor, reversing
 * the elements of swapped pieces on the way (a partial element, only
 * where the file ended, as it is). */
static void copy_out(mem_cursor *c, const char *src, MPI_Offset n)
{
    char *p;
    MPI_Offset piece, whole;
    int w;
    while (n > 0 && (piece = cursor_take(c, n, 0, &p, &w)) > 0) {
        whole = w > 1 ? piece / w * w : 0;
        if (whole) ncp_x_swap_copy(p, src, whole / w, w);
        memcpy(p + whole, src + whole, (size_t)(piece - whole));
        src += piece;
        n -= piece;
    }
}

/* Read extents [i, j) through buf (span bytes from ext->off[i]). */
static int sieve_read(int fd, const ncp_extents *ext, int64_t i, int64_t j,
                      MPI_Offset span, char *buf, mem_cursor *cur, int *eof)
{
    MPI_Offset base = ext->off[i];
    struct iovec one = {buf, (size_t)span};
    int64_t have;
    int err = move_iov(fd, 0, &one, 1, base, &have);
    for (int64_t k = i; k < j && err == NC_NOERR && !*eof; k++) {
        MPI_Offset at = ext->off[k] - base, n = ext->len[k];
        if (at + n > have) {
            n = have > at ? have - at : 0;
            *eof = 1;
        }
        copy_out(cur, buf + at, n);
    }
    return err;
}

int ncp_posix_move(int fd, int is_write, const ncp_extents *ext,
                   const ncp_extents *mem)
{
    mem_cursor cur = {mem, 0, 0};
    char *buf = NULL;
    MPI_Offset buf_len = 0;
    int64_t i = 0;
    int err = NC_NOERR, eof = 0;
    while (i < ext->n && err == NC_NOERR && !eof) {
        int64_t j = is_write ? i + 1 : sieve_end(ext, i);
        MPI_Offset span = ext->off[j - 1] + ext->len[j - 1] - ext->off[i];
        if (j - i < SIEVE_MIN) {
            err = move_extent(fd, is_write, ext->off[i], ext->len[i], &cur,
                              &eof);
            i++;
            continue;
        }
        if (span > buf_len) {
            free(buf);
            buf_len = span;
            buf = malloc((size_t)buf_len);
            if (buf == NULL) return NC_ENOMEM;
        }
        err = sieve_read(fd, ext, i, j, span, buf, &cur, &eof);
        i = j;
    }
    free(buf);
    return err;
}

/* Does a write go through the aggregators (posix_agg.c)?  Only a
 * collective one, when a node has more ranks than aggregators. */
static int posix_write_aggregates(const ncp_file *f, int collective)
{
    int nprocs;
    MPI_Comm_size(f->comm, &nprocs);
    return collective && f->posix->naggr < nprocs;
}

static int posix_xferv(ncp_file *f, int collective, int is_write,
                       const ncp_extents *ext, const ncp_extents *mem)
{
    int err;
    if (is_write && posix_write_aggregates(f, collective))
        err = ncp_posix_write_aggregated(f, ext, mem);
    else
        err = ncp_posix_move(f->fd, is_write, ext, mem);
    return collective ? ncp_agree(f->comm, err) : err;
}

/*
 * The posix driver swaps every byte-swapped buffer itself, but for one
 * case.  A read swaps its bytes as they arrive (ncp_posix_move).  A rank
 * writing its own bytes (one rank, independent mode, an aggregator per
 * rank) swaps the caller's buffer in place and back one 1 MiB chunk at a
 * time around each pwritev, while the chunk is in cache: swapped in place
 * whole before the write and back after it, a combined write of 20
 * variables of 50^3 at 1 rank on tmpfs was 0.89-0.95x of writing per
 * variable (a bounce buffer instead, 1.08-1.23x faster at 1 rank, had to
 * be a tenth of the call to keep the write's memory under 10% of it, and
 * then took so many pwrites that the combined write was no faster than
 * one write per variable).  Where a rank copies its bytes anyway, it
 * swaps while copying: into the shared staging of an aggregated write on
 * one node (posix_shm.c), into its own staging buffer when it is an
 * aggregator.
 * The exception: under nc_posix_shm=disable the other ranks of an
 * aggregated write leave the in-place swap to the engine: it runs on all
 * of them at once before the rounds, while packing swapped bytes in the
 * rounds made the aggregator wait for them (0.92-0.95x at 2 and 4
 * ranks).  Under auto they pack even before the shared staging is due:
 * the call that sets it up cannot be told from the others before the
 * rounds are planned, and swapping in place there made coll_perf's 50^3
 * fixed writes 1.2-1.3x slower.
 * docs/BENCHMARKS.md has the runs.
 */
static int posix_swaps(const ncp_file *f, int collective, int is_write)
{
    if (!is_write || !posix_write_aggregates(f, collective)) return 1;
    return f->posix->my_aggr >= 0 || f->posix->shm != NCP_SHM_NO;
}

static int open_fd(ncp_file *f, int flags, int fallback)
{
    f->fd = open(f->path, flags | O_CLOEXEC, 0666);
    return f->fd < 0 ? errno_code(errno, fallback) : NC_NOERR;
}

/*
 * The aggregators of the file domains: the first nc_posix_aggrs_per_node
 * ranks (default 1) of every node, in rank order.  Rank 0's hints choose
 * for everyone.  (These are the driver's own; the I/O groups above the
 * drivers, nc_io_group_per_node and nc_io_group_size, open their
 * aggregators' file with every aggregator writing its own bytes.)
 *
 * The hints are rows of the hint table (its defaults and ranges are
 * there); the enums below name their words' indices.
 * nc_posix_shm: auto (shared staging once NCP_SHM_AFTER_WINDOWS windows
 * were written), enable (from the first aggregated write), disable.
 * nc_posix_window: sized (each call's window within 7.5% of the largest
 * rank's bytes, posix_agg.c) or full (the hint's size, in fewer rounds).
 * nc_posix_shm_keep: a file's shared staging goes on to the next file
 * (shm_keep.c), or is freed at close.
 */
enum { SHM_AUTO, SHM_ENABLE, SHM_DISABLE };
enum { KEEP_ENABLE, KEEP_DISABLE };

/* The hints the driver's state comes from, rank 0's;
 * v->posix_aggrs_per_node < 0 when rank 0 met a bad one. */
static void posix_hints(ncp_file *f, ncp_hints *v)
{
    int rank, err = NC_NOERR;
    MPI_Comm_rank(f->comm, &rank);
    ncp_hints_defaults(v);
    if (rank == 0) err = ncp_hints_read(f->info, NCP_HO_POSIX, 1, v);
    if (err != NC_NOERR) v->posix_aggrs_per_node = -1;
    MPI_Bcast(v, (int)sizeof(*v), MPI_BYTE, 0, f->comm);
}

/* The staging's bytes a round: two rounds share the hint's buffer
 * (measured as fast with 512 KiB rounds as with 1 MiB at 4 ranks). */
static int64_t shm_round_cap(int64_t buffer_size)
{
    return buffer_size > 1 ? buffer_size / 2 : 1;
}

/*
 * Every rank sees the same: one node holds all ranks or not, and the
 * hints are rank 0's.  Shared staging needs all ranks on one node and
 * fewer aggregators than ranks there.  Under it, a kept staging of a
 * congruent communicator is taken over when every rank has one
 * (all_kept, agreed by the caller), and stages from the first
 * aggregated write.
 */
static void posix_shm_state(ncp_file *f, const ncp_hints *v, int shm_ok,
                            ncp_shm_stage *found, int all_kept)
{
    ncp_posix *x = f->posix;
    x->per_node = v->posix_aggrs_per_node;
    x->keep_stage = v->posix_shm_keep == KEEP_ENABLE;
    if (!shm_ok) return;
    x->shm = NCP_SHM_LATER;
    x->shm_after = v->posix_shm == SHM_AUTO ? NCP_SHM_AFTER_WINDOWS : 0;
    x->round_cap = shm_round_cap(v->posix_buffer_size);
    if (!all_kept) return;
    found->busy = 1;
    x->stage = found;
    x->shm = NCP_SHM_ON;
}

static int posix_state(ncp_file *f)
{
    ncp_hints hv, *v = &hv;
    int rank, nprocs, local, nlocal, i, n = 0, *flags = NULL, err = NC_NOERR;
    int mine, shm_ok, all_kept = 1;
    ncp_shm_stage *found = NULL;
    MPI_Comm node;
    MPI_Comm_rank(f->comm, &rank);
    MPI_Comm_size(f->comm, &nprocs);
    posix_hints(f, v);
    if (v->posix_aggrs_per_node < 0) return NC_EINVAL;
    f->posix = calloc(1, sizeof(*f->posix));
    flags = malloc((size_t)nprocs * sizeof(int));
    if (f->posix) f->posix->aggr = malloc((size_t)nprocs * sizeof(int));
    err = (!f->posix || !flags || !f->posix->aggr) ? NC_ENOMEM : NC_NOERR;
    if ((err = ncp_agree(f->comm, err)) != NC_NOERR) goto done;
    MPI_Comm_split_type(f->comm, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL,
                        &node);
    MPI_Comm_rank(node, &local);
    MPI_Comm_size(node, &nlocal);
    MPI_Comm_free(&node);
    shm_ok = v->posix_shm != SHM_DISABLE && nlocal == nprocs &&
             v->posix_aggrs_per_node < nlocal && f->writable &&
             v->posix_buffer_size <= NCP_SHM_MAX_CAP;
    if (shm_ok && v->posix_shm_keep == KEEP_ENABLE)
        found = ncp_shm_keep_find(f->comm,
                                  shm_round_cap(v->posix_buffer_size),
                                  v->posix_aggrs_per_node);
    /* bit 0: I aggregate; bit 1: I hold a kept staging for this file */
    mine = (local < v->posix_aggrs_per_node) | (found ? 2 : 0);
    MPI_Allgather(&mine, 1, MPI_INT, flags, 1, MPI_INT, f->comm);
    f->posix->my_aggr = -1;
    for (i = 0; i < nprocs; i++) {
        if (flags[i] & 1 && i == rank) f->posix->my_aggr = n;
        if (flags[i] & 1) f->posix->aggr[n++] = i;
        all_kept &= flags[i] >> 1;
    }
    f->posix->naggr = n;
    f->posix->round_cap = v->posix_buffer_size;
    f->posix->full_windows = (int)v->posix_window;
    posix_shm_state(f, v, shm_ok, found, all_kept);
done:
    free(flags);
    return err;
}

static void posix_state_free(ncp_file *f)
{
    if (f->posix) {
        ncp_posix_shm_free(f);
        free(f->posix->aggr);
    }
    free(f->posix);
    f->posix = NULL;
}

static int posix_open(ncp_file *f, int create, int clobber)
{
    int rank, err, flags = f->writable ? O_RDWR : O_RDONLY;
    MPI_Comm_rank(f->comm, &rank);
    if ((err = posix_state(f)) != NC_NOERR) {
        posix_state_free(f);
        return err;
    }
    if (create) {
        if (rank == 0)
            err = open_fd(f, flags | O_CREAT | (clobber ? O_TRUNC : O_EXCL),
                          NC_EFILE);
        MPI_Bcast(&err, 1, MPI_INT, 0, f->comm);
        if (err != NC_NOERR) {
            posix_state_free(f);
            return err;
        }
    }
    if (f->fd < 0) err = open_fd(f, flags, create ? NC_EFILE : NC_ENOENT);
    err = ncp_agree(f->comm, err);
    if (err != NC_NOERR && f->fd >= 0) {
        close(f->fd);
        f->fd = -1;
    }
    if (err != NC_NOERR) posix_state_free(f);
    return err;
}

static int posix_close(ncp_file *f)
{
    int err = NC_NOERR;
    if (f->fd >= 0 && close(f->fd) != 0) err = errno_code(errno, NC_EFILE);
    f->fd = -1;
    posix_state_free(f);
    return err;
}

static int posix_write_at(ncp_file *f, MPI_Offset off, const void *buf,
                          int64_t n)
{
    struct iovec one = {(void *)buf, (size_t)n};
    int64_t done;
    return n > 0 ? move_iov(f->fd, 1, &one, 1, off, &done) : NC_NOERR;
}

static int posix_read_at(ncp_file *f, MPI_Offset off, void *buf, int64_t n,
                         int64_t *got)
{
    struct iovec one = {buf, (size_t)n};
    *got = 0;
    return n > 0 ? move_iov(f->fd, 0, &one, 1, off, got) : NC_NOERR;
}

static int posix_get_size(ncp_file *f, MPI_Offset *size)
{
    struct stat st;
    if (fstat(f->fd, &st) != 0) return errno_code(errno, NC_EFILE);
    *size = (MPI_Offset)st.st_size;
    return NC_NOERR;
}

/* Collective, like MPI_File_set_size. */
static int posix_set_size(ncp_file *f, MPI_Offset size)
{
    int rank, err = NC_NOERR;
    MPI_Comm_rank(f->comm, &rank);
    if (rank == 0 && ftruncate(f->fd, (off_t)size) != 0)
        err = errno_code(errno, NC_EFILE);
    return ncp_agree(f->comm, err);
}

/* Collective, like MPI_File_sync: each rank's writes reach storage, and
 * the barrier makes them visible to every rank before any returns. */
static int posix_sync(ncp_file *f)
{
    int err = NC_NOERR;
    if (f->writable && fsync(f->fd) != 0) err = errno_code(errno, NC_EFILE);
    return ncp_agree(f->comm, err);
}

/* No MPI-IO layer below: the hints in use are the user's. */
static int posix_get_info(ncp_file *f, MPI_Info *info)
{
    if (f->info != MPI_INFO_NULL) MPI_Info_dup(f->info, info);
    else MPI_Info_create(info);
    return NC_NOERR;
}

const ncp_io_driver ncp_io_posix_driver = {
    .name = "posix",
    .swaps = posix_swaps,
    .open = posix_open,
    .close = posix_close,
    .xferv = posix_xferv,
    .write_at = posix_write_at,
    .read_at = posix_read_at,
    .get_size = posix_get_size,
    .set_size = posix_set_size,
    .sync = posix_sync,
    .get_info = posix_get_info,
};
