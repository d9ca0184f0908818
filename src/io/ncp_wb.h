/*
 * ncp_wb.h -- write-behind (wb.c): a writable file's data writes return
 * once their bytes are copied into the rank's staging, and reach the
 * file in the background, within a budget of staged bytes.  Each mover
 * keeps one per handle it writes through: posix hands the staged bytes
 * to a thread of its own (transport/wb_thread.c), mpiio to nonblocking
 * MPI_File_iwrite_at calls on its independent handle, tested at every
 * later call and completed at a wait.  Every MPI call stays in the
 * caller's thread.
 *
 * wb.c's calls are one rank's; wb_ranks.c makes the ranks agree (ncp_io.h:
 * ncp_io_behind_settle, and the check before each collective write).
 */
#ifndef NCP_WB_H
#define NCP_WB_H

#include "ncp_io.h"

typedef struct ncp_wb ncp_wb;

/* Collective over f->comm: rank 0's hints say whether f writes behind
 * and with what budget; a bad value gives NC_EINVAL on every rank.  On
 * a writable file that asks for it, f->wb starts: on f->fd where it is
 * open (posix), else on f->fh_self, which open_handle opens (mpiio). */
int ncp_wb_open(ncp_file *f, int (*open_handle)(ncp_file *f));
/* Wait for everything staged and free f->wb; the first background error
 * the file ever met (even one reported already), or NC_NOERR. */
int ncp_wb_close(ncp_file *f);

/* Stage the bytes of ext from mem (pieces with swap widths are reversed
 * as they are copied); returns once they are copied.  An unreported
 * background error is returned instead, and nothing is staged. */
int ncp_wb_write(ncp_file *f, const ncp_extents *ext, const ncp_extents *mem);
/* hold 1: the background writes wait while a call stages (unless it
 * needs room), so the call has the cores; 0: they go on. */
void ncp_wb_hold(ncp_file *f, int hold);
/* Wait until everything this rank staged on f is in the file (before a
 * read, a header write or a resize of the same handle). */
void ncp_wb_drain(ncp_file *f);
/* Complete every MPI-IO write-behind request of this process, of every
 * file (before an MPI_File_sync, which OMPIO refuses while any is
 * pending). */
void ncp_wb_drain_mpi_all(void);
/* The background error not yet reported, which is reported by this
 * call; NC_NOERR when none. */
int ncp_wb_take_error(ncp_file *f);
/* The file range [*lo, *hi) that writes staged and not yet written may
 * touch (empty: lo == hi). */
void ncp_wb_pending(ncp_file *f, MPI_Offset *lo, MPI_Offset *hi);
/* wb_ranks.c, before a transfer on a file that writes behind: a
 * collective write checked against every rank's pending bytes (all wait
 * where they meet), a collective read settled, an independent call given
 * this rank's background error; NC_NOERR, or the error the call returns
 * (the same on every rank where it is collective). */
int ncp_wb_before_xferv(ncp_file *f, int collective, int is_write,
                        const ncp_extents *ext);
/* Add f's counters to *s. */
void ncp_wb_stats_add(const ncp_file *f, ncp_wb_stats *s);

#endif
