/*
 * ncp_posix_move.h -- the transport (posix_move.c): one rank's bytes
 * between the file and memory with preadv/pwritev, the library's one
 * system-call site for file data.  No MPI communication; the posix
 * driver (its own transfers and the aggregators' sink) and the journal
 * call down into it.
 */
#ifndef NCP_POSIX_MOVE_H
#define NCP_POSIX_MOVE_H

#include <sys/uio.h>

#include "../../base/ncp_extents.h"

/* iovec entries handed to one preadv/pwritev (POSIX guarantees 16; Linux
 * takes 1024). */
#define NCP_POSIX_IOV 1024

/* The NC_* code for errno value e; fallback when none fits better. */
int ncp_posix_errno(int e, int fallback);

/* Move iov[0..n) at off, continuing after partial transfers and EINTR
 * (iov is advanced).  *done is the byte count moved; a read stops early
 * at the end of the file. */
int ncp_posix_move_iov(int fd, int is_write, struct iovec *iov, int n,
                       MPI_Offset off, int64_t *done);

/* Write the pieces iov[0..n) at off, continuing after partial writes. */
int ncp_posix_pwritev(int fd, struct iovec *iov, int n, MPI_Offset off);

/* Move every extent of ext with pwritev/preadv against mem; this rank
 * only.  A read reverses the elements of pieces with swap widths as they
 * arrive; a write swaps them into a bounce buffer before each pwritev,
 * so the caller's memory is only read. */
int ncp_posix_move(int fd, int is_write, const ncp_extents *ext,
                   const ncp_extents *mem);

/* A write as ncp_posix_move's, but runs of small, close pieces are
 * sieved: the run's span is read, patched and written back in one
 * pread and one pwrite.  shared: other ranks may write the same range
 * now (an independent write of a file several ranks opened), so the
 * whole call runs under an fcntl write lock of its range, which every
 * such writer takes; where the file system grants no lock, nothing is
 * sieved. */
int ncp_posix_write_sieved(int fd, const ncp_extents *ext,
                           const ncp_extents *mem, int shared);

/* A cursor over memory pieces: piece i, byte `at` within it. */
typedef struct ncp_mem_cursor {
    const ncp_extents *mem;
    int64_t i;
    MPI_Offset at;
} ncp_mem_cursor;

/* Packing a transfer's bytes into staging buffers (write-behind): a
 * cursor over its file extents and, in step, its memory pieces. */
typedef struct ncp_pack {
    const ncp_extents *ext;
    int64_t i;     /* the extent next packed */
    MPI_Offset at; /* its bytes packed already */
    ncp_mem_cursor cur;
} ncp_pack;

void ncp_pack_init(ncp_pack *p, const ncp_extents *ext,
                   const ncp_extents *mem);
/* The bytes the next job takes, at most cap, and its file segments in
 * *nseg (at most maxseg); an extent is cut only at a multiple of 8 bytes
 * from its start, so no swapped element is split. */
int64_t ncp_pack_peek(const ncp_pack *p, int64_t cap, int maxseg, int *nseg);
/* Runs of a packed buffer whose elements are still to be reversed:
 * at[i] bytes in, len[i] bytes of elements of width w[i]. */
typedef struct ncp_swap_runs {
    int64_t *at, *len;
    unsigned char *w;
    int n, cap;
} ncp_swap_runs;

/* Copy those bytes into buf and their segments into seg_off/seg_len;
 * advance past them.  The elements of swapped pieces are reversed on the
 * way, or, with runs, copied as they are and listed there (the writer
 * reverses them later, off the caller's time).  ENOMEM only with runs. */
int ncp_pack_take(ncp_pack *p, int64_t bytes, char *buf, MPI_Offset *seg_off,
                  MPI_Offset *seg_len, ncp_swap_runs *runs);
/* Reverse the listed runs of buf in place. */
void ncp_swap_runs_apply(const ncp_swap_runs *r, char *buf);
void ncp_swap_runs_free(ncp_swap_runs *r);
/* Whether every extent is packed. */
int ncp_pack_done(const ncp_pack *p);

#endif
