/*
 * ncp_io_driver.h -- what a driver under ncp_io.h provides.  io.c owns
 * what every driver shares (the ncp_file's common fields, the choice of
 * driver, the argument forms of the public calls) and calls these.
 */
#ifndef NCP_IO_DRIVER_H
#define NCP_IO_DRIVER_H

#include "ncp_io.h"

struct ncp_io_driver {
    const char *name;
    /* 1: a collective call may return a different code on each rank (an
     * MPI-IO layer's do), so io.c agrees on it; 0: the driver agrees. */
    int codes_local;
    /* Whether a transfer takes memory pieces with swap widths
     * (ncp_io_swaps); NULL: never. */
    int (*swaps)(const ncp_file *f, int collective, int is_write);
    /* Collective; f->comm, path, writable and info are set.  Agrees on
     * its code. */
    int (*open)(ncp_file *f, int create, int clobber);
    int (*close)(ncp_file *f);
    /* The memory side always comes as pieces (mem), even a single one. */
    int (*xferv)(ncp_file *f, int collective, int is_write,
                 const ncp_extents *ext, const ncp_extents *mem);
    int (*write_at)(ncp_file *f, MPI_Offset off, const void *buf,
                    int64_t n);
    int (*read_at)(ncp_file *f, MPI_Offset off, void *buf, int64_t n,
                   int64_t *got);
    int (*get_size)(ncp_file *f, MPI_Offset *size);
    int (*set_size)(ncp_file *f, MPI_Offset size);
    int (*sync)(ncp_file *f);
    int (*get_info)(ncp_file *f, MPI_Info *info);
};

extern const ncp_io_driver ncp_io_mpiio_driver;
extern const ncp_io_driver ncp_io_posix_driver;

/* Collective over comm: open the existing file path with driver drv,
 * ungrouped (for the I/O groups' aggregators).  f is initialized here. */
int ncp_io_open_plain(ncp_file *f, MPI_Comm comm, const char *path,
                      int writable, MPI_Info info, const ncp_io_driver *drv);

/* All ranks of comm learn the worst (most negative) code. */
int ncp_io_agree(MPI_Comm comm, int err);

#endif
