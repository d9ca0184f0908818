/*
 * ncp_dataset.h -- one open dataset: its communicator, file handles, header
 * model, mode state machine and hints.
 *
 * Mode state machine (every rank holds the same state, with one exception
 * PnetCDF allows: redef from collective data mode is local, and a close
 * then ends define mode on every rank, whatever mode each was in; every
 * other transition happens in a collective call):
 *
 *      create ---> DEFINE --enddef--> DATA(collective) <--end_indep--+
 *                    ^                   |   |                        |
 *                    +-------redef-------+   +--begin_indep--> DATA(indep)
 *      open -------------------------------> DATA(collective)
 *
 * Invariants:
 *  1. In DEFINE mode no data call is allowed and hdr may differ from the
 *     file; on_disk describes what the file holds (NULL after create).
 *  2. In DATA mode hdr's layout (begins, recsize) is what the file uses, and
 *     every rank's hdr is identical except numrecs in independent mode,
 *     which is reconciled (max) at end_indep_data, sync, sync_numrecs and
 *     close; none of these but end_indep_data leaves independent mode.
 *  3. Only rank 0 writes header bytes.
 *  4. From create on the file holds a valid header: the empty one until
 *     the first enddef, then the one of the last enddef (redef writes
 *     nothing).  abort leaves it so; only a file created and never past
 *     enddef (NCP_F_CREATED) is deleted.
 */
#ifndef NCP_DATASET_H
#define NCP_DATASET_H

#include <mpi.h>

#include "../format/ncp_header.h"
#include "../format/ncp_xconv.h"
#include "ncp_attr.h"
#include "../io/ncp_io.h"
#include "../base/ncp_agree.h"
#include "../base/ncp_bcast.h"
#include "../base/ncp_bufcache.h"
#include "../base/ncp_mpi_err.h"
#include "../util/ncp_hints.h"
#include "ncpario.h"
#include "ncp_safe.h"

#define NCP_F_DEFINE 0x01    /* in define mode */
#define NCP_F_INDEP 0x02     /* in independent data mode */
#define NCP_F_FILL 0x04      /* NC_FILL in effect */
#define NCP_F_CREATED 0x08   /* created and no enddef yet (abort deletes) */
#define NCP_F_WRITE 0x10     /* opened writable */
#define NCP_F_NUMRECS 0x20   /* numrecs changed since last header write */
#define NCP_F_ALIGNED 0x40   /* layout alignments fixed (first enddef) */
#define NCP_F_NUMRECS_LATE 0x80 /* write-behind: numrecs to write once the
                                   data it counts is in the file */

/* The posted iput/iget/bput ops of a dataset and its attached bput buffer;
 * the engine (engine/queue.c) fills and drains it. */
typedef struct ncp_queue {
    struct ncp_op **ops;
    int n, cap;
    int next_id;
    int64_t bput_size;   /* attached with ncmpi_buffer_attach; -1: none */
    int64_t bput_used;
} ncp_queue;

/* A rank's blocking independent puts held back until a collective point
 * (the engine's indep.c owns the ops; the dataset only frees the list). */
typedef struct ncp_indep_buf {
    struct ncp_op **ops;
    int n, cap;
    int64_t bytes; /* external bytes held */
    int64_t numrecs_floor; /* numrecs before the held puts raised it */
    char *arena;           /* the copies, nc_indep_buffer_size bytes, kept
                              from the first held put to close */
    int64_t arena_used;
    /* when span_known: every held put's file bytes lie in [span_lo,
     * span_hi) (engine/indep.c works it out at the first put that finds
     * the buffer full) */
    int span_known;
    MPI_Offset span_lo, span_hi;
} ncp_indep_buf;

/* The engine's flush lists, kept from one flush to the next so that a
 * long list's pages are not given back and faulted in again every record
 * (engine/flush.c; at most nc_kept_buffer_size bytes). */
typedef struct ncp_flush_keep {
    ncp_extents fext, mext; /* the merged file extents and memory pieces */
    ncp_extents *runs;      /* an op's extents, by its place in the flush */
    int nruns;
} ncp_flush_keep;
void ncp_flush_keep_free(ncp_flush_keep *k);

typedef struct ncp_dataset {
    int ncid;
    MPI_Comm comm; /* duplicated at open; freed at close */
    int rank;
    int nprocs;
    int flags;
    int cmode;     /* mode flags as given to create/open */
    ncp_header hdr;
    ncp_header *on_disk; /* header as in the file while in DEFINE mode after
                            redef (data may need to move); else NULL */
    ncp_file file;
    ncp_hints hints;
    ncp_layout_params layout;   /* as last used by enddef */
    int64_t put_bytes;          /* for ncmpi_inq_put_size */
    int64_t get_bytes;
    ncp_queue queue;            /* posted iput/iget/bput, attached buffer */
    ncp_indep_buf indep;        /* held independent puts */
    ncp_bufcache bufs;          /* the engine's request buffers, kept */
    ncp_flush_keep flush_keep;  /* ... and its flush lists */
    ncpario_profile prof;       /* ncpario_inq_profile */
    double define_since;        /* MPI_Wtime when define mode began */
} ncp_dataset;

/* --- table.c: the open-dataset table ------------------------------------ */
int ncp_dataset_get(int ncid, ncp_dataset **ds);
int ncp_dataset_add(ncp_dataset *ds);
void ncp_dataset_remove(ncp_dataset *ds);
/* The number of open datasets, and their ncids in ascending order into
 * ids (may be NULL; room for *num). */
int ncp_dataset_ids(int *num, int *ids);

/* --- state checks (mode.c) ----------------------------------------------- */
/* The first invariant of the drawing above that ds breaks, in words, or
 * NULL.  NCP_DATASET_CHECK aborts on one where assertions are on (the
 * Debug and sanitizer builds); every call that looks a dataset up runs
 * it, so a transition that breaks one is caught at the next call. */
const char *ncp_dataset_broken(const ncp_dataset *ds);
void ncp_dataset_check(const ncp_dataset *ds, const char *file, int line);
#ifdef NDEBUG
#define NCP_DATASET_CHECK(ds) ((void)0)
#else
#define NCP_DATASET_CHECK(ds) ncp_dataset_check((ds), __FILE__, __LINE__)
#endif
int ncp_require_define(const ncp_dataset *ds);
int ncp_require_data(const ncp_dataset *ds, int collective);
int ncp_require_write(const ncp_dataset *ds);
/* Make every rank's numrecs the maximum; rank 0 writes it if changed. */
int ncp_numrecs_agree(ncp_dataset *ds);
/* The same as independent data mode ends: rank 0 writes it in any case
 * when the dataset is writable and has record variables. */
int ncp_numrecs_end_indep(ncp_dataset *ds);
/* Local: numrecs becomes at least n, flagged for the next agreement. */
void ncp_numrecs_raise(ncp_dataset *ds, int64_t n);
/* Rank 0 writes numrecs into the header bytes. */
int ncp_numrecs_write(ncp_dataset *ds);
/* Collective; under write-behind: every rank's pending writes reach the
 * file, then a numrecs held back for them; a background error not yet
 * reported is returned on every rank.  NC_NOERR at once otherwise. */
int ncp_behind_settle(ncp_dataset *ds);
/* Local; under write-behind: this rank's pending writes reach the file;
 * its background error not yet reported. */
int ncp_behind_drain(ncp_dataset *ds);

/* --- header I/O (header_io.c) -------------------------------------------- */
int ncp_header_write(ncp_dataset *ds); /* collective; rank 0 writes */
/* At create, while the header is still empty: collective; makes the new
 * file a valid netCDF file from the start. */
int ncp_header_write_empty(ncp_dataset *ds);
int ncp_header_read(ncp_dataset *ds);  /* collective; rank 0 reads, bcast */

/* --- profile.c ------------------------------------------------------------ */
/* With NCPARIO_PROFILE=1: the counters of every rank, reduced, printed to
 * stderr by rank 0.  Collective (called by close). */
void ncp_profile_report(ncp_dataset *ds, const char *path);

/* --- lifecycle.c -------------------------------------------------------- */
/* ncmpi_close and ncmpi_abort after the engine dropped the dataset's
 * pending requests (pending of them: close then returns NC_EPENDING). */
int ncp_dataset_close(int ncid, int pending);
int ncp_dataset_abort(int ncid);
/* ncmpi_sync, ncmpi_sync_numrecs, ncmpi_flush and ncmpi_end_indep_data
 * after the engine wrote the ranks' held independent puts (api/sync.c). */
int ncp_dataset_sync(int ncid);
int ncp_dataset_sync_numrecs(int ncid);
/* ncpario_flush_wait: ncp_behind_settle in data mode. */
int ncp_dataset_flush_wait(int ncid);
int ncp_dataset_flush(int ncid);
int ncp_dataset_end_indep(int ncid);

/* --- enddef.c ------------------------------------------------------------- */
int ncp_enddef(ncp_dataset *ds, const ncp_layout_params *forced);
/* enddef's change of the file (move.c), collective and atomic: the data
 * a grown header moves, and the header; after a failure the file and the
 * header model are as they were. */
int ncp_enddef_write(ncp_dataset *ds);
/* close's define-mode part, collective whatever mode each rank is in:
 * ends define mode on every rank if any rank is in it. */
int ncp_close_define(ncp_dataset *ds);
/* ncmpi_redef, after the engine wrote the held independent puts. */
int ncp_dataset_redef(int ncid);

/* --- fill.c --------------------------------------------------------------- */
/* Fill variables from_var.. that have fill on (enddef: all variables after
 * create, only those defined in this redef otherwise): fixed ones whole,
 * record ones in every record the file already has. */
int ncp_fill_new_vars(ncp_dataset *ds, int from_var);
/* The fill value of var in external form (xsize bytes into out). */
void ncp_var_fill_value(const ncp_var *v, void *out);
/* After open every variable reports fill on, whatever the file's mode
 * (NC_NOFILL, as after create), as PnetCDF reports it. */
void ncp_fill_mark_opened(ncp_dataset *ds);

/* --- lookup helpers (lookup.c) ------------------------------------------- */
int ncp_var_get(ncp_dataset *ds, int varid, ncp_var **v);
/* Position of the attribute whose stored name is key exactly, or -1. */
int ncp_find_att(const ncp_attlist *l, const char *key);
int ncp_attlist_of(ncp_dataset *ds, int varid, ncp_attlist **l);
/* The code a define call would return for this name (NC_EBADNAME,
 * NC_EMAXNAME), without keeping its stored form. */
int ncp_name_check(const char *name);
/* Look up a name as given by the caller: NC_EBADNAME (NULL, empty,
 * invalid UTF-8) or NC_EMAXNAME, else NC_NOERR with *pos the position of
 * the entry with that name in NFC, or -1 when there is none. */
int ncp_find_dim_named(ncp_dataset *ds, const char *name, int *pos);
int ncp_find_var_named(ncp_dataset *ds, const char *name, int *pos);
int ncp_find_att_named(ncp_attlist *l, const char *name, int *pos);
/* NC_EBADTYPE for no external type; NC_ESTRICTCDF2 for a CDF-5 type in a
 * CDF-1/2 file. */
int ncp_type_check(int xtype, int format);

/* The services behind the public calls on one open dataset, found by
 * src/api/entry.c (ncp_ds_entries.def lists them), and those on no
 * dataset yet. */
#define NCP_UNPACK(...) __VA_ARGS__
#define NCP_DS(name, params, args) \
    int ncp_ds_##name(ncp_dataset *ds, NCP_UNPACK params);
#define NCP_DS0(name) int ncp_ds_##name(ncp_dataset *ds);
#include "ncp_ds_entries.def"
#undef NCP_DS
#undef NCP_DS0
int ncp_ds_create(MPI_Comm comm, const char *path, int cmode, MPI_Info info,
                  int *ncidp);
int ncp_ds_open(MPI_Comm comm, const char *path, int omode, MPI_Info info,
                int *ncidp);
int ncp_ds_delete(const char *filename, MPI_Info info);
int ncp_ds_set_default_format(int format, int *old_formatp);
int ncp_ds_inq_default_format(int *formatp);
int ncp_ds_inq_file_format(const char *filename, int *formatp);
int ncp_ds_inq_files_opened(int *num, int *ncids);
int ncp_ds_inq_profile(ncp_dataset *ds, ncpario_profile *prof);
/* A source attribute missing is reported before a bad ncid_out, so the
 * destination is found by the service. */
int ncp_ds_copy_att(ncp_dataset *src, int varid_in, const char *name,
                    int ncid_out, int varid_out);

#endif
