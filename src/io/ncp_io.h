/*
 * ncp_io.h -- the I/O driver under the engine: the only code that touches
 * the file.  Today there is one driver, MPI-IO; the engine hands it a list
 * of file extents (sorted by offset, non-overlapping) and one contiguous
 * memory buffer holding their bytes back to back.
 *
 * A dataset holds two handles, as MPI-IO semantics require: a collective
 * one opened on the dataset's communicator, and (lazily) one opened on
 * MPI_COMM_SELF for independent data mode, where a rank must be able to set
 * its own file view without the others.
 */
#ifndef NCP_IO_H
#define NCP_IO_H

#include <mpi.h>
#include <stdint.h>

typedef struct ncp_extents {
    int64_t n;      /* number of extents */
    int64_t cap;
    MPI_Offset *off; /* file offsets, ascending */
    MPI_Offset *len; /* byte lengths, > 0 */
    int64_t nbytes;  /* sum of len */
} ncp_extents;

void ncp_extents_init(ncp_extents *e);
void ncp_extents_free(ncp_extents *e);
/* Append (off, len); merges with the previous extent when adjacent. */
int ncp_extents_add(ncp_extents *e, MPI_Offset off, MPI_Offset len);

typedef struct ncp_file {
    MPI_Comm comm;      /* the dataset's communicator (not owned) */
    char *path;
    int writable;
    MPI_Info info;      /* hints passed to MPI_File_open (owned) */
    MPI_File fh;        /* collective handle */
    MPI_File fh_self;   /* independent handle, MPI_FILE_NULL until used */
} ncp_file;

/* Collective over comm.  create: 1 to create (clobber chooses truncate vs
 * NC_EEXIST); returns NC_* codes translated from MPI errors. */
int ncp_io_open(ncp_file *f, MPI_Comm comm, const char *path, int create,
                int clobber, int writable, MPI_Info info);
int ncp_io_close(ncp_file *f);

/* Collective: data movement over the list of extents.  buf holds
 * ext->nbytes bytes.  All ranks of comm must call, with any (or no)
 * extents. */
int ncp_io_xfer_all(ncp_file *f, int is_write, const ncp_extents *ext,
                    void *buf);
/* The same with the memory side in pieces: mem lists (address, length)
 * pairs, address cast to MPI_Offset, in the order of ext's bytes, with
 * mem->nbytes == ext->nbytes.  collective 0 uses the independent handle. */
int ncp_io_xferv(ncp_file *f, int collective, int is_write,
                 const ncp_extents *ext, const ncp_extents *mem);

/* Independent contiguous access at an absolute offset through the
 * collective handle (used by rank 0 for header bytes). */
int ncp_io_write_at(ncp_file *f, MPI_Offset off, const void *buf,
                    int64_t n);
int ncp_io_read_at(ncp_file *f, MPI_Offset off, void *buf, int64_t n,
                   int64_t *got);

int ncp_io_get_size(ncp_file *f, MPI_Offset *size);
/* Collective. */
int ncp_io_set_size(ncp_file *f, MPI_Offset size);
int ncp_io_sync(ncp_file *f);
/* The info object the MPI-IO layer reports as in use (caller frees). */
int ncp_io_get_info(ncp_file *f, MPI_Info *info);

/* Translate an MPI error code into the closest NC_* code. */
int ncp_io_mpi_err(int mpierr, int fallback);

#endif
