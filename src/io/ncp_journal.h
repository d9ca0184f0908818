/*
 * ncp_journal.h -- the rollback journal that makes an enddef atomic.
 *
 * Before an enddef overwrites any byte the file's current header may point
 * at (its own header, and the data a redef moves), the old contents of
 * every byte it will overwrite are saved in a journal beside the file,
 * "<path>-ncjournal", and the journal is sealed; only then is the file
 * changed.  Removing the journal is the commit.  After a kill at any
 * moment, the next open (or `ncpario recover`) finds either no journal,
 * an unsealed one (the file was not touched yet: it is removed), or a
 * sealed one, whose saved bytes are written back and the file cut to its
 * old size: the old header with all the old data.  SQLite's rollback
 * journal works the same way.
 *
 * Layout: a header block (NCP_JOURNAL_HEAD bytes), written last; the
 * region table (offset, length pairs, big-endian) right after it; then
 * the regions' saved bytes, back to back, from the next multiple of the
 * head size.  The header holds the magic, the old file size, the number
 * of regions and a checksum of itself and the table, so a torn or
 * unfinished seal reads as no journal.  With durability asked for, the
 * saved bytes reach the device before the seal, and the seal before the
 * file changes.
 *
 * Everything here is plain POSIX on the journal (and, to roll back, on
 * the file itself), by one rank unless said otherwise.
 */
#ifndef NCP_JOURNAL_H
#define NCP_JOURNAL_H

#include <stdint.h>

#define NCP_JOURNAL_HEAD 4096

/* A region of the file whose bytes are saved. */
typedef struct ncp_journal_region {
    int64_t off, len;
} ncp_journal_region;

typedef struct ncp_journal {
    char *path;  /* the journal's own path */
    int fd;      /* -1 until opened */
    int durable; /* fsync before sealing and after */
} ncp_journal;

/* The journal's path for a file path (MPI-IO prefixes such as "ufs:" are
 * stripped); caller frees. NULL when out of memory. */
char *ncp_journal_path_of(const char *file_path);

/* Where region i's saved bytes start in the journal, given the regions
 * before it: the same on every rank. */
int64_t ncp_journal_data_start(int64_t nregions);

/* Rank 0: create (truncating) the journal, unsealed. */
int ncp_journal_create(ncp_journal *j, const char *file_path, int durable);
/* Any rank, after the creator: open the journal to save bytes into. */
int ncp_journal_open(ncp_journal *j, const char *file_path, int durable);
/* Write n saved bytes at the journal offset joff. */
int ncp_journal_save(ncp_journal *j, int64_t joff, const void *buf,
                     int64_t n);
/* Rank 0, once every rank's saves are done: write the table and seal. */
int ncp_journal_seal(ncp_journal *j, int64_t old_size,
                     const ncp_journal_region *r, int64_t n);
/* Close (every rank that opened); with remove set (rank 0, the commit),
 * the journal is removed first. */
int ncp_journal_close(ncp_journal *j, int remove);

/* Rank 0, before the file is opened: a sealed journal of file_path is
 * rolled back into the file and removed (*rolled 1); an unsealed one is
 * removed (*rolled 0); none: NC_NOERR, *rolled 0. */
int ncp_journal_recover(const char *file_path, int *rolled);

/* Remove file_path's journal, whatever state it is in (a new file in its
 * place, or the file deleted); no journal is no error. */
void ncp_journal_remove(const char *file_path);

/* Whether file_path has a journal, and whether it is sealed (for the
 * tools: a sealed one means the file is mid-enddef). */
int ncp_journal_probe(const char *file_path, int *exists, int *sealed);

#endif
