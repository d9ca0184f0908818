/*
 * posix_move.c -- the transport: one rank's bytes between the file and
 * its memory pieces, with preadv/pwritev and no communication.
 * Reads of many small, close extents go through a bounce buffer (the
 * sieve, see sieve_end); pieces with swap widths are byte-reversed a
 * cache-sized chunk at a time, a read's in place after its preadv, a
 * write's into a bounce buffer before its pwritev.  Write-behind packs a
 * transfer's bytes into its staging buffers here too (ncp_pack_*), with
 * the same cursor over the memory pieces.
 *
 * Invariants:
 *  1. A read past the end of the file stops there and leaves the rest of
 *     the memory untouched, as an MPI-IO read does.
 *  2. A write only reads the caller's buffer (write_swapped swaps
 *     through a bounce buffer).
 *  3. No MPI communication: the drivers and the journal above call in
 *     here on one rank.
 */
#define _GNU_SOURCE
#include "ncp_posix_move.h"
#include "ncp_crash.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>

#include "pnetcdf.h"
#include "../../format/ncp_xconv.h"

int ncp_posix_errno(int e, int fallback)
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

int ncp_posix_move_iov(int fd, int is_write, struct iovec *iov, int n,
                       MPI_Offset off, int64_t *done)
{
    *done = 0;
    if (is_write) ncp_crash_point(fd, iov, n, off);
    while (n > 0) {
        ssize_t k = is_write ? pwritev(fd, iov, n, (off_t)off)
                             : preadv(fd, iov, n, (off_t)off);
        if (k < 0 && errno == EINTR) continue;
        if (k < 0)
            return ncp_posix_errno(errno, is_write ? NC_EWRITE : NC_EREAD);
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
    return ncp_posix_move_iov(fd, 1, iov, n, off, &done);
}

/* A cursor over the memory pieces (ncp_posix_move.h). */
typedef ncp_mem_cursor mem_cursor;

/* Inlined into its callers: a sieved run takes a slice per extent, often
 * a single element, and the copy's direction is a constant there. */
#ifdef __GNUC__
#define HOT_INLINE static inline __attribute__((always_inline))
#else
#define HOT_INLINE static inline
#endif

/* The next slice of memory at the cursor, at most `want` bytes (with
 * whole: or up to the end of the element `want` ends in, in a swapped
 * piece): its address in *p, the width of its swapped elements in *w
 * (0: none), its length returned (0 when memory is used up). */
HOT_INLINE MPI_Offset cursor_take(mem_cursor *c, MPI_Offset want, int whole,
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
 * while they are in cache, right after the preadv that read them (a
 * write's go through write_swapped instead).  Swapping a whole call in
 * one pass afterwards runs at memory speed instead.  Only whole elements: a
 * partial one exists only where a read met the end of the file.
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
 * it: within a core's L2 cache, and a multiple of every width.  A
 * write's chunk is the larger because each pwritev costs more than its
 * bytes (docs/bench/notes/2026-11-25-io-comment-history.md). */
enum { SWAP_READ_CHUNK = 256 << 10, SWAP_WRITE_CHUNK = 1 << 20 };

/* A write chunk's bytes: its last slice may run on to the end of an
 * element. */
enum { BOUNCE_BYTES = SWAP_WRITE_CHUNK + 64 };

/*
 * Write iov[0..n) at off, the elements of swapped slices (widths w)
 * reversed on their way: each such slice is swap-copied into bounce (room
 * for every slice's bytes) and written from there.  The caller's buffer
 * is only read, so slices that share memory, or memory that is read-only,
 * need no care, and the one pass that reads it writes only bounce, which
 * stays in cache for the pwritev.
 */
static int write_swapped(int fd, struct iovec *iov, const unsigned char *w,
                         int n, MPI_Offset off, char *bounce)
{
    int64_t done;
    size_t at = 0;
    int k;
    for (k = 0; k < n; k++) {
        size_t len = iov[k].iov_len, whole;
        if (w[k] <= 1) continue;
        whole = len / w[k] * w[k];
        ncp_x_swap_copy(bounce + at, iov[k].iov_base, (int64_t)(len / w[k]),
                        w[k]);
        memcpy(bounce + at + whole, (char *)iov[k].iov_base + whole,
               len - whole);
        iov[k].iov_base = bounce + at;
        at += len;
    }
    return ncp_posix_move_iov(fd, 1, iov, n, off, &done);
}

/* Move one file extent against the next memory pieces, in chunks of at
 * most SWAP_*_CHUNK where they carry swap widths (a write's through
 * bounce, BOUNCE_BYTES).  *eof is set when a read met the end of the
 * file. */
static int move_extent(int fd, int is_write, MPI_Offset off, MPI_Offset len,
                       mem_cursor *cur, char *bounce, int *eof)
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
            err = write_swapped(fd, iov, w, n, off, bounce);
        } else {
            if (swaps) /* move_iov advances iov past what it moved */
                memcpy(read_iov, iov, (size_t)n * sizeof(*iov));
            err = ncp_posix_move_iov(fd, is_write, iov, n, off, &done);
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
 * Sieving.  A subarray's rows come as many small extents with small
 * holes between them, and one preadv or pwritev each costs more than
 * moving the holes (a 32^3 int block per rank at 8 ranks is 1024 extents
 * of 128 bytes per variable; one pwrite of a 2 KiB row takes the file's
 * lock as long as a copy of tens of KiB).  A run of at least SIEVE_MIN
 * extents, each hole at most SIEVE_HOLE bytes and the whole at most
 * SIEVE_SPAN, is read with one pread into a bounce buffer and copied
 * out.  A write sieves such a run of pieces averaging under
 * SIEVE_WRITE_PIECE bytes: it reads the span, patches its pieces in and
 * writes the span back, which rewrites the holes other ranks own, so it
 * runs only under the range lock of ncp_posix_write_sieved.
 */
enum { SIEVE_MIN = 4, SIEVE_HOLE = 4096, SIEVE_SPAN = 4 << 20,
       SIEVE_WRITE_PIECE = 16 << 10 };

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

/* Copy n bytes between buf and the memory pieces at the cursor, into
 * the pieces (to_mem) or out of them, reversing the elements of swapped
 * pieces on the way (a partial element, only where a read met the end of
 * the file, as it is). */
HOT_INLINE void copy_pieces(mem_cursor *c, char *buf, MPI_Offset n,
                             int to_mem)
{
    char *p;
    MPI_Offset piece, whole;
    int w;
    while (n > 0 && (piece = cursor_take(c, n, 0, &p, &w)) > 0) {
        char *dst = to_mem ? p : buf, *src = to_mem ? buf : p;
        whole = w > 1 ? piece / w * w : 0;
        if (whole) ncp_x_swap_copy(dst, src, whole / w, w);
        memcpy(dst + whole, src + whole, (size_t)(piece - whole));
        buf += piece;
        n -= piece;
    }
}

/* Write extents [i, j) through buf (span bytes from ext->off[i]): the
 * span as the file holds it (zeros past its end), patched. */
static int sieve_write(int fd, const ncp_extents *ext, int64_t i, int64_t j,
                       MPI_Offset span, char *buf, mem_cursor *cur)
{
    MPI_Offset base = ext->off[i];
    struct iovec one = {buf, (size_t)span};
    int64_t have;
    int err = ncp_posix_move_iov(fd, 0, &one, 1, base, &have);
    if (err != NC_NOERR) return err;
    if (have < span) memset(buf + have, 0, (size_t)(span - have));
    for (int64_t k = i; k < j; k++)
        copy_pieces(cur, buf + (ext->off[k] - base), ext->len[k], 0);
    one.iov_base = buf;
    one.iov_len = (size_t)span;
    return ncp_posix_move_iov(fd, 1, &one, 1, base, &have);
}

/* Read extents [i, j) through buf (span bytes from ext->off[i]). */
static int sieve_read(int fd, const ncp_extents *ext, int64_t i, int64_t j,
                      MPI_Offset span, char *buf, mem_cursor *cur, int *eof)
{
    MPI_Offset base = ext->off[i];
    struct iovec one = {buf, (size_t)span};
    int64_t have;
    int err = ncp_posix_move_iov(fd, 0, &one, 1, base, &have);
    for (int64_t k = i; k < j && err == NC_NOERR && !*eof; k++) {
        MPI_Offset at = ext->off[k] - base, n = ext->len[k];
        if (at + n > have) {
            n = have > at ? have - at : 0;
            *eof = 1;
        }
        copy_pieces(cur, buf + at, n, 1);
    }
    return err;
}

/* The end of the run starting at extent i that moves through one
 * bounce buffer (i + 1: none); writes only where `sieve` allows and the
 * pieces are small. */
static int64_t run_end(const ncp_extents *ext, int64_t i, int is_write,
                       int sieve)
{
    int64_t j;
    MPI_Offset bytes = 0;
    if (is_write && !sieve) return i + 1;
    j = sieve_end(ext, i);
    if (j - i < SIEVE_MIN || !is_write) return j;
    for (int64_t k = i; k < j; k++) bytes += ext->len[k];
    return bytes / (j - i) < SIEVE_WRITE_PIECE ? j : i + 1;
}

static int move_all(int fd, int is_write, int sieve, const ncp_extents *ext,
                    const ncp_extents *mem)
{
    mem_cursor cur = {mem, 0, 0};
    char *buf = NULL, *bounce = NULL;
    MPI_Offset buf_len = 0;
    int64_t i = 0;
    int err = NC_NOERR, eof = 0;
    if (is_write && mem->swap && ext->n > 0 &&
        !(bounce = malloc(BOUNCE_BYTES)))
        return NC_ENOMEM;
    while (i < ext->n && err == NC_NOERR && !eof) {
        int64_t j = run_end(ext, i, is_write, sieve);
        MPI_Offset span = ext->off[j - 1] + ext->len[j - 1] - ext->off[i];
        if (j - i < SIEVE_MIN) {
            err = move_extent(fd, is_write, ext->off[i], ext->len[i], &cur,
                              bounce, &eof);
            i++;
            continue;
        }
        if (span > buf_len) {
            free(buf);
            buf_len = span;
            if (!(buf = malloc((size_t)buf_len))) {
                err = NC_ENOMEM;
                break;
            }
        }
        err = is_write ? sieve_write(fd, ext, i, j, span, buf, &cur)
                       : sieve_read(fd, ext, i, j, span, buf, &cur, &eof);
        i = j;
    }
    free(buf);
    free(bounce);
    return err;
}

int ncp_posix_move(int fd, int is_write, const ncp_extents *ext,
                   const ncp_extents *mem)
{
    return move_all(fd, is_write, 0, ext, mem);
}

/* Lock (F_WRLCK) or unlock (F_UNLCK) [lo, hi) of fd, waiting for other
 * holders: an open file description's lock where the kernel has them, so
 * two descriptors of one process exclude each other too.  0 on success. */
static int range_lock(int fd, short type, MPI_Offset lo, MPI_Offset hi)
{
    struct flock fl;
    int rc;
    memset(&fl, 0, sizeof(fl));
    fl.l_type = type;
    fl.l_whence = SEEK_SET;
    fl.l_start = (off_t)lo;
    fl.l_len = (off_t)(hi - lo);
#ifdef F_OFD_SETLKW
    do rc = fcntl(fd, F_OFD_SETLKW, &fl);
    while (rc != 0 && errno == EINTR);
    if (rc == 0 || errno != EINVAL) return rc;
#endif
    do rc = fcntl(fd, F_SETLKW, &fl);
    while (rc != 0 && errno == EINTR);
    return rc;
}

int ncp_posix_write_sieved(int fd, const ncp_extents *ext,
                           const ncp_extents *mem, int shared)
{
    MPI_Offset lo, hi;
    int err;
    if (ext->n == 0) return NC_NOERR;
    if (!shared) return move_all(fd, 1, 1, ext, mem);
    lo = ext->off[0];
    hi = ext->off[ext->n - 1] + ext->len[ext->n - 1];
    /* without locks (a file system that has none) nobody sieves */
    if (range_lock(fd, F_WRLCK, lo, hi) != 0)
        return move_all(fd, 1, 0, ext, mem);
    err = move_all(fd, 1, 1, ext, mem);
    (void)range_lock(fd, F_UNLCK, lo, hi);
    return err;
}

void ncp_pack_init(ncp_pack *p, const ncp_extents *ext,
                   const ncp_extents *mem)
{
    p->ext = ext;
    p->i = 0;
    p->at = 0;
    p->cur.mem = mem;
    p->cur.i = 0;
    p->cur.at = 0;
}

/* An extent cut by a job's end is cut at a multiple of 8 bytes from its
 * start, so no swapped element (width 2, 4 or 8) is split; 0: it waits
 * for the next job. */
static MPI_Offset pack_piece(MPI_Offset left, int64_t room, int first)
{
    if (left <= room) return left;
    if (room >= 8) return room / 8 * 8;
    return first ? (left < 8 ? left : 8) : 0;
}

int64_t ncp_pack_peek(const ncp_pack *p, int64_t cap, int maxseg, int *nseg)
{
    int64_t i = p->i, bytes = 0;
    MPI_Offset at = p->at;
    *nseg = 0;
    while (i < p->ext->n && *nseg < maxseg && bytes < cap) {
        MPI_Offset piece = pack_piece(p->ext->len[i] - at, cap - bytes,
                                      bytes == 0);
        if (piece == 0) break;
        bytes += piece;
        (*nseg)++;
        i++;
        at = 0;
    }
    return bytes;
}

/* Add a run of len bytes at `at`, width w, merged with the last when it
 * continues it. */
static int runs_add(ncp_swap_runs *r, int64_t at, int64_t len, int w)
{
    if (r->n > 0 && r->w[r->n - 1] == w &&
        r->at[r->n - 1] + r->len[r->n - 1] == at) {
        r->len[r->n - 1] += len;
        return NC_NOERR;
    }
    if (r->n == r->cap) {
        int cap = r->cap ? 2 * r->cap : 16;
        int64_t *a = realloc(r->at, (size_t)cap * sizeof(*a));
        int64_t *l = a ? realloc(r->len, (size_t)cap * sizeof(*l)) : NULL;
        unsigned char *ww = l ? realloc(r->w, (size_t)cap) : NULL;
        if (a) r->at = a;
        if (l) r->len = l;
        if (ww) r->w = ww;
        if (!ww) return NC_ENOMEM;
        r->cap = cap;
    }
    r->at[r->n] = at;
    r->len[r->n] = len;
    r->w[r->n++] = (unsigned char)w;
    return NC_NOERR;
}

/* Copy n bytes out of the pieces at the cursor into buf as they are,
 * listing the swapped ones' runs (at: buf's offset in the job). */
static int copy_raw(mem_cursor *c, char *buf, int64_t at, MPI_Offset n,
                    ncp_swap_runs *r)
{
    char *p;
    MPI_Offset piece;
    int w, err = NC_NOERR;
    while (n > 0 && (piece = cursor_take(c, n, 0, &p, &w)) > 0) {
        memcpy(buf, p, (size_t)piece);
        if (w > 1 && err == NC_NOERR) err = runs_add(r, at, piece, w);
        buf += piece;
        at += piece;
        n -= piece;
    }
    return err;
}

int ncp_pack_take(ncp_pack *p, int64_t bytes, char *buf, MPI_Offset *seg_off,
                  MPI_Offset *seg_len, ncp_swap_runs *runs)
{
    int k = 0, err = NC_NOERR;
    char *start = buf;
    if (runs) runs->n = 0;
    while (bytes > 0) {
        MPI_Offset left = p->ext->len[p->i] - p->at;
        MPI_Offset piece = left < bytes ? left : bytes;
        seg_off[k] = p->ext->off[p->i] + p->at;
        seg_len[k++] = piece;
        if (runs && err == NC_NOERR)
            err = copy_raw(&p->cur, buf, buf - start, piece, runs);
        else if (!runs)
            copy_pieces(&p->cur, buf, piece, 0);
        buf += piece;
        bytes -= piece;
        p->at += piece;
        if (p->at == p->ext->len[p->i]) {
            p->i++;
            p->at = 0;
        }
    }
    return err;
}

void ncp_swap_runs_apply(const ncp_swap_runs *r, char *buf)
{
    for (int i = 0; i < r->n; i++)
        ncp_x_swap_inplace(buf + r->at[i], r->len[i] / r->w[i], r->w[i]);
}

void ncp_swap_runs_free(ncp_swap_runs *r)
{
    free(r->at);
    free(r->len);
    free(r->w);
    memset(r, 0, sizeof(*r));
}

int ncp_pack_done(const ncp_pack *p) { return p->i >= p->ext->n; }
