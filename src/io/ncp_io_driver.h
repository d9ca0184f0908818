/*
 * ncp_io_driver.h -- what a driver under ncp_io.h provides.  io.c owns
 * the choice of driver and the argument forms of the public calls, and
 * calls these; file.c the ncp_file's common fields.
 *
 * Two kinds of driver: those that move the bytes (mpiio, posix), and
 * stacking ones (I/O groups) that wrap the file's driver and call it for
 * every byte they move.  io.c calls only the top one, f->drv.
 */
#ifndef NCP_IO_DRIVER_H
#define NCP_IO_DRIVER_H

#include "ncp_io.h"
#include "../base/ncp_agree.h"

struct ncp_io_driver {
    const char *name;
    /* Stacking drivers only (NULL otherwise).  Collective, before anything
     * is opened, with f->drv the driver to wrap: read and agree on this
     * driver's hints in f->info; *on: f needs it, and it has taken f->drv
     * as its inner driver, so the caller puts it in f->drv's place.  A bad
     * hint gives NC_EINVAL on every rank and nothing to undo. */
    int (*stack)(ncp_file *f, int *on);
    /* 1: a collective call may return a different code on each rank (an
     * MPI-IO layer's do), so io.c agrees on it; 0: the driver agrees. */
    int codes_local;
    /* 1: each rank moves its own bytes with no other rank's help (posix),
     * so the I/O groups' aggregators write and read on their own; 0: they
     * make one collective call together every round (MPI-IO). */
    int moves_alone;
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
extern const ncp_io_driver ncp_io_group_driver;

/* Collective over comm (file.c): f's common fields, before any driver sees
 * it (drv and mover are left NULL).  Agrees on its code; on failure
 * ncp_file_release is still due. */
int ncp_file_init(ncp_file *f, MPI_Comm comm, const char *path, int writable,
                  MPI_Info info);
/* Free what ncp_file_init took. */
void ncp_file_release(ncp_file *f);

#endif
