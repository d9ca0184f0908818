/*
 * ncpario.h -- ncpario's own additions to the PnetCDF interface.
 *
 * pnetcdf.h stays a faithful copy of PnetCDF's interface so that existing
 * programs build unchanged; everything that is ncpario's alone (its version
 * today, its extensions later) is declared here under the ncpario_ /
 * NCPARIO_ prefixes.  Including this header includes pnetcdf.h.
 */
#ifndef NCPARIO_H
#define NCPARIO_H

#include "pnetcdf.h"

#define NCPARIO_VERSION_MAJOR 0
#define NCPARIO_VERSION_MINOR 1
#define NCPARIO_VERSION_PATCH 0
#define NCPARIO_VERSION       "0.1.0"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Per-dataset counters, kept from open/create to close.  Data calls only:
 * mpiio_*_calls count the MPI-IO data calls the engine issued (a blocking
 * put is one, a wait_all with puts and gets two), extents_posted the file
 * extents the requests produced and extents_issued those left after
 * sorting, overlap folding and coalescing.  Times are wall-clock seconds
 * on this rank, summed: open (create/open), define (define mode, enddef
 * included), post (building requests: validation and conversion), wait
 * (moving bytes: every flush, blocking calls included) and close.
 *
 * I/O groups (hints nc_io_group_size, nc_io_group_per_node): per
 * direction, the rounds this rank took part in, the data bytes that moved
 * between it and its group's aggregator (counted on the member's side
 * only, so zero on aggregators and summed over ranks the whole traffic),
 * and seconds spent in that exchange (communication phase) and in the
 * aggregators' file I/O (I/O phase; zero on members).  All zero on a file
 * that is not grouped.
 *
 * driver_rounds_write: the posix driver's write-aggregation rounds this
 * rank took part in (one all-to-all exchange each; only windows holding
 * data cost a round).  Zero under the mpiio driver and at one rank.
 * driver_shm_rounds_write: those of them whose bytes were staged in
 * shared memory rather than sent (hint nc_posix_shm).
 * driver_messages_sent: the data messages of those rounds this rank sent
 * to an aggregator (none for its own bytes as one); on an aggregator,
 * driver_messages_received the ones it received, driver_pieces_write the
 * extents it handed to the file, driver_write_calls the pwritev calls
 * they merged into, driver_bytes_aggregated their bytes.  `ncpario plan`
 * predicts each of them.
 */
typedef struct ncpario_profile {
    long long mpiio_write_calls;
    long long mpiio_read_calls;
    long long extents_posted;
    long long extents_issued;
    long long bytes_written;
    long long bytes_read;
    double time_open;
    double time_define;
    double time_post;
    double time_wait;
    double time_close;
    long long group_rounds_write;
    long long group_rounds_read;
    long long group_bytes_shipped_write;
    long long group_bytes_shipped_read;
    double time_group_comm_write;
    double time_group_io_write;
    double time_group_comm_read;
    double time_group_io_read;
    long long driver_rounds_write;
    long long driver_shm_rounds_write;
    long long driver_messages_sent;
    long long driver_messages_received;
    long long driver_pieces_write;
    long long driver_write_calls;
    long long driver_bytes_aggregated;
    /* write-behind (hint nc_write_behind): staged buffers written in the
     * background, their bytes, the most bytes staged at once, the times a
     * write waited for the staging budget, and the bytes that went
     * through the log in nc_burst_buf_dirname instead */
    long long behind_jobs;
    long long behind_bytes;
    long long behind_peak_staged;
    long long behind_waits_for_room;
    long long behind_bytes_logged;
} ncpario_profile;

/* Copy the dataset's counters to *prof.  NC_EBADID for an unknown ncid.
 * With NCPARIO_PROFILE=1 in the environment, rank 0 prints them to stderr
 * at close (and every rank's sums, reduced). */
extern int ncpario_inq_profile(int ncid, ncpario_profile *prof);

/* Collective, in data mode: every rank's writes still staged by
 * write-behind (hint nc_write_behind) are in the file when it returns,
 * and the number of records with them; a background write that failed
 * is reported here on every rank.  Without write-behind it returns
 * NC_NOERR at once; in define mode nothing is pending (NC_NOERR). */
extern int ncpario_flush_wait(int ncid);

/* The version of the library actually linked, e.g. "0.1.0"; compare it with
   NCPARIO_VERSION to detect a header/library mismatch. */
extern const char *ncpario_version(void);

/* ncpario's own, more specific text for a status code.  ncmpi_strerror
 * returns PnetCDF's text for every code, since programs compare it; this
 * function returns ncpario's, "Unknown status code" for a code it does
 * not know. */
extern const char *ncpario_strerror_detail(int err);

#ifdef __cplusplus
}
#endif

#endif /* NCPARIO_H */
