/*
 * io.c -- the I/O layer's front: the choice of driver at open (the one
 * that moves the bytes, and the I/O groups stacked over it when asked
 * for), and the calls of ncp_io.h passed on to the top driver of each
 * file.
 */
#include "ncp_io_driver.h"
#include "ncp_eof.h"
#include "ncp_fault.h"
#include "ncp_wb.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pnetcdf.h"
#include "../util/ncp_hints.h"


/* Every driver; a file's choice travels between ranks as its index. */
static const ncp_io_driver *const drivers[] = {&ncp_io_mpiio_driver,
                                               &ncp_io_posix_driver};
#define NDRIVERS ((int)(sizeof(drivers) / sizeof(drivers[0])))

/* The index of the driver called name, -1 for none. */
static int driver_named(const char *name)
{
    int i;
    for (i = 0; i < NDRIVERS; i++)
        if (strcmp(name, drivers[i]->name) == 0) return i;
    return -1;
}

/*
 * A ROMIO-style "fstype:" prefix (ufs:, nfs:, lustre:, ...) names an
 * MPI-IO file system module, so only MPI-IO can open such a path.
 */
static int has_fs_prefix(const char *path)
{
    const char *colon = strchr(path, ':');
    size_t n = colon ? (size_t)(colon - path) : 0;
    return colon && n >= 2 && strcspn(path, "/") > n;
}

/* Without a hint: posix, the faster on node-local file systems
 * (docs/BENCHMARKS.md), unless the path needs MPI-IO. */
static int default_driver(const char *path)
{
    return driver_named(has_fs_prefix(path) ? "mpiio" : "posix");
}

/*
 * Rank 0's nc_driver hint chooses for everyone (as rank 0's mode flags
 * do), so ranks never split between drivers.  A name that is no driver of
 * ours falls back to the default with a warning rather than failing the
 * open: other libraries read this hint too (PnetCDF 1.15 has "gio"), and
 * one info object may be shared between programs built on either.
 */
static int choose_driver(ncp_file *f, int rank)
{
    char val[MPI_MAX_INFO_VAL + 1];
    int flag = 0, code = default_driver(f->path);
    if (rank == 0 && f->info != MPI_INFO_NULL) {
        flag = ncp_hints_get_string(f->info, NCP_HINT_driver, val);
        if (flag && driver_named(val) >= 0) code = driver_named(val);
        else if (flag)
            fprintf(stderr, "ncpario: nc_driver '%s' is not a driver of "
                            "ncpario (mpiio or posix); using %s\n", val,
                    drivers[code]->name);
    }
    MPI_Bcast(&code, 1, MPI_INT, 0, f->comm);
    f->drv = f->mover = drivers[code];
    return NC_NOERR;
}

/* The I/O groups go over the chosen driver when their hints ask for them. */
static int stack_groups(ncp_file *f)
{
    int on = 0, err = ncp_io_group_driver.stack(f, &on);
    if (err == NC_NOERR && on) f->drv = &ncp_io_group_driver;
    return err;
}

/* Every hint is checked before the driver opens, so a bad one creates
 * nothing. */
int ncp_io_open(ncp_file *f, MPI_Comm comm, const char *path, int create,
                int clobber, int writable, MPI_Info info)
{
    int err, rank;
    MPI_Comm_rank(comm, &rank);
    err = ncp_file_init(f, comm, path, writable, info);
    if (err == NC_NOERR) err = choose_driver(f, rank);
    if (err == NC_NOERR) err = ncp_fault_wrap(f);
    if (err == NC_NOERR) err = stack_groups(f);
    if (err == NC_NOERR) err = f->drv->open(f, create, clobber);
    if (err != NC_NOERR) ncp_file_release(f);
    return err;
}

int ncp_io_close(ncp_file *f)
{
    int err = f->drv ? f->drv->close(f) : NC_NOERR;
    ncp_file_release(f);
    return err;
}

int ncp_io_xfer_all(ncp_file *f, int is_write, const ncp_extents *ext,
                    void *buf)
{
    MPI_Offset addr = (MPI_Offset)(intptr_t)buf, len = ext->nbytes;
    ncp_extents one = {0};
    if (len > 0) {
        one.n = one.cap = 1;
        one.off = &addr;
        one.len = &len;
        one.nbytes = len;
    }
    return ncp_io_xferv(f, 1, is_write, ext, &one);
}

/* The engine takes a collective transfer's code as every rank's; a driver
 * whose codes may differ between ranks has them agreed here. */
static int drv_xferv(ncp_file *f, int collective, int is_write,
                     const ncp_extents *ext, const ncp_extents *mem)
{
    int rc = f->drv->xferv(f, collective, is_write, ext, mem);
    if (collective && f->drv->codes_local) rc = ncp_agree(f->comm, rc);
    return rc;
}

/* A read reaching past the end of the file moves only the bytes inside
 * it; the rest read as zeros (eof.c).  A rank that cannot clip still
 * joins a collective call, with nothing to move. */
static int read_clipped(ncp_file *f, int collective, const ncp_extents *ext,
                        const ncp_extents *mem)
{
    static const ncp_extents none = {0};
    ncp_eof_clip c;
    MPI_Offset size = 0;
    int rc;
    memset(&c, 0, sizeof(c));
    rc = ext->n > 0 ? ncp_io_get_size(f, &size) : NC_NOERR;
    if (rc == NC_NOERR) rc = ncp_eof_clip_read(ext, mem, size, &c);
    if (rc != NC_NOERR) {
        if (collective) (void)drv_xferv(f, 1, 0, &none, &none);
    } else if (!c.clipped) {
        rc = drv_xferv(f, collective, 0, ext, mem);
    } else {
        rc = drv_xferv(f, collective, 0, &c.ext, &c.mem);
        ncp_eof_clip_finish(&c);
    }
    ncp_eof_clip_free(&c);
    return rc;
}

int ncp_io_xferv(ncp_file *f, int collective, int is_write,
                 const ncp_extents *ext, const ncp_extents *mem)
{
    int err;
    if (mem->swap && !ncp_io_swaps(f, collective, is_write))
        return NC_EINTERNAL;
    if (f->wb && (err = ncp_wb_before_xferv(f, collective, is_write, ext)))
        return err;
    if (!is_write) return read_clipped(f, collective, ext, mem);
    return drv_xferv(f, collective, is_write, ext, mem);
}

int ncp_io_swaps(const ncp_file *f, int collective, int is_write)
{
    if (!f->drv->swaps) return 0;
    return f->drv->swaps(f, collective, is_write);
}

int ncp_io_write_at(ncp_file *f, MPI_Offset off, const void *buf, int64_t n)
{
    return f->drv->write_at(f, off, buf, n);
}

int ncp_io_read_at(ncp_file *f, MPI_Offset off, void *buf, int64_t n,
                   int64_t *got)
{
    return f->drv->read_at(f, off, buf, n, got);
}

int ncp_io_get_size(ncp_file *f, MPI_Offset *size)
{
    return f->drv->get_size(f, size);
}

int ncp_io_set_size(ncp_file *f, MPI_Offset size)
{
    return f->drv->set_size(f, size);
}

/* Pending writes are in the file before it syncs; a background error
 * not yet reported is this call's. */
int ncp_io_sync(ncp_file *f)
{
    int err = ncp_io_behind_drain(f), e = f->drv->sync(f);
    return err != NC_NOERR ? err : e;
}

int ncp_io_get_info(ncp_file *f, MPI_Info *info)
{
    int err = f->drv->get_info(f, info);
    if (err == NC_NOERR) MPI_Info_set(*info, "nc_driver", f->mover->name);
    return err;
}

const char *ncp_io_driver_name(const ncp_file *f) { return f->mover->name; }

const ncp_agg_counts *ncp_io_driver_counts(const ncp_file *f)
{
    return &f->driver;
}
