/*
 * io.c -- the I/O layer's front: extent lists, the choice of driver at
 * open, and the calls of ncp_io.h passed on to the driver of each file.
 */
#include "ncp_io_driver.h"
#include "ncp_eof.h"
#include "ncp_fault.h"
#include "ncp_group.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pnetcdf.h"


void ncp_extents_init(ncp_extents *e) { memset(e, 0, sizeof(*e)); }

void ncp_extents_free(ncp_extents *e)
{
    free(e->off);
    free(e->len);
    free(e->swap);
    ncp_extents_init(e);
}

/* Room for one more entry; the swap widths grow along once they exist. */
static int extents_grow(ncp_extents *e)
{
    int64_t cap = e->cap ? e->cap * 2 : 64;
    MPI_Offset *off = realloc(e->off, (size_t)cap * sizeof(*off));
    if (!off) return NC_ENOMEM;
    e->off = off;
    MPI_Offset *len = realloc(e->len, (size_t)cap * sizeof(*len));
    if (!len) return NC_ENOMEM;
    e->len = len;
    if (e->swap) {
        unsigned char *w = realloc(e->swap, (size_t)cap);
        if (!w) return NC_ENOMEM;
        e->swap = w;
    }
    e->cap = cap;
    return NC_NOERR;
}

int ncp_extents_add_swapped(ncp_extents *e, MPI_Offset off, MPI_Offset len,
                            int width)
{
    unsigned char w = (unsigned char)(width > 1 ? width : 0);
    int err;
    if (len <= 0) return NC_NOERR;
    if (w && !e->swap) { /* first swapped piece: earlier ones had none */
        if (!(e->swap = calloc((size_t)(e->cap ? e->cap : 1), 1)))
            return NC_ENOMEM;
    }
    e->nbytes += len;
    if (e->n > 0 && e->off[e->n - 1] + e->len[e->n - 1] == off &&
        (!e->swap || e->swap[e->n - 1] == w)) {
        e->len[e->n - 1] += len;
        return NC_NOERR;
    }
    if (e->n == e->cap && (err = extents_grow(e)) != NC_NOERR) {
        e->nbytes -= len;
        return err;
    }
    e->off[e->n] = off;
    e->len[e->n] = len;
    if (e->swap) e->swap[e->n] = w;
    e->n++;
    return NC_NOERR;
}

int ncp_extents_add(ncp_extents *e, MPI_Offset off, MPI_Offset len)
{
    return ncp_extents_add_swapped(e, off, len, 0);
}

int ncp_io_agree(MPI_Comm comm, int err)
{
    int all = err;
    MPI_Allreduce(&err, &all, 1, MPI_INT, MPI_MIN, comm);
    return all;
}

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

/* Without a hint: posix, measured faster on node-local file systems
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
        MPI_Info_get(f->info, "nc_driver", MPI_MAX_INFO_VAL, val, &flag);
        if (flag && driver_named(val) >= 0) code = driver_named(val);
        else if (flag)
            fprintf(stderr, "ncpario: nc_driver '%s' is not a driver of "
                            "ncpario (mpiio or posix); using %s\n", val,
                    drivers[code]->name);
    }
    MPI_Bcast(&code, 1, MPI_INT, 0, f->comm);
    f->drv = drivers[code];
    return NC_NOERR;
}

static void file_release(ncp_file *f)
{
    ncp_fault_release(f);
    free(f->path);
    f->path = NULL;
    if (f->info != MPI_INFO_NULL) MPI_Info_free(&f->info);
}

/* Collective: f's fields before any driver sees it. */
static int file_init(ncp_file *f, MPI_Comm comm, const char *path,
                     int writable, MPI_Info info)
{
    int err = NC_NOERR;
    memset(f, 0, sizeof(*f));
    f->comm = comm;
    f->fh = MPI_FILE_NULL;
    f->fh_self = MPI_FILE_NULL;
    f->fd = -1;
    f->info = MPI_INFO_NULL;
    f->writable = writable;
    f->path = strdup(path);
    if (!f->path) err = NC_ENOMEM;
    if (info != MPI_INFO_NULL && err == NC_NOERR) MPI_Info_dup(info, &f->info);
    return ncp_io_agree(comm, err);
}

/* Every hint is checked before the driver opens, so a bad one creates
 * nothing. */
int ncp_io_open(ncp_file *f, MPI_Comm comm, const char *path, int create,
                int clobber, int writable, MPI_Info info)
{
    ncp_group_conf groups;
    int err, rank;
    MPI_Comm_rank(comm, &rank);
    err = file_init(f, comm, path, writable, info);
    if (err == NC_NOERR) err = choose_driver(f, rank);
    if (err == NC_NOERR) err = ncp_fault_wrap(f);
    if (err == NC_NOERR) err = ncp_group_conf_read(f, &groups);
    if (err == NC_NOERR) err = f->drv->open(f, create, clobber);
    if (err == NC_NOERR && (groups.size || groups.per_node)) {
        err = ncp_group_open(f, &groups);
        if (err != NC_NOERR) f->drv->close(f);
    }
    if (err != NC_NOERR) file_release(f);
    return err;
}

int ncp_io_open_plain(ncp_file *f, MPI_Comm comm, const char *path,
                      int writable, MPI_Info info, const ncp_io_driver *drv)
{
    int err = file_init(f, comm, path, writable, info);
    f->drv = drv;
    if (err == NC_NOERR) err = drv->open(f, 0, 0);
    if (err != NC_NOERR) file_release(f);
    return err;
}

int ncp_io_close(ncp_file *f)
{
    int err = ncp_group_close(f), e;
    e = f->drv ? f->drv->close(f) : NC_NOERR;
    if (err == NC_NOERR) err = e;
    file_release(f);
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

/* Independent transfers cannot be grouped: an aggregator would have to
 * take part in a call it does not make. */
static int xferv_route(ncp_file *f, int collective, int is_write,
                       const ncp_extents *ext, const ncp_extents *mem)
{
    int rc;
    if (collective && f->group)
        return ncp_group_xferv(f, is_write, ext, mem);
    rc = f->drv->xferv(f, collective, is_write, ext, mem);
    /* The engine takes a collective transfer's code as every rank's. */
    if (collective && f->drv->codes_local) rc = ncp_io_agree(f->comm, rc);
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
        if (collective) (void)xferv_route(f, 1, 0, &none, &none);
    } else if (!c.clipped) {
        rc = xferv_route(f, collective, 0, ext, mem);
    } else {
        rc = xferv_route(f, collective, 0, &c.ext, &c.mem);
        ncp_eof_clip_finish(&c);
    }
    ncp_eof_clip_free(&c);
    return rc;
}

int ncp_io_xferv(ncp_file *f, int collective, int is_write,
                 const ncp_extents *ext, const ncp_extents *mem)
{
    if (mem->swap && !ncp_io_swaps(f, collective, is_write))
        return NC_EINTERNAL;
    if (!is_write) return read_clipped(f, collective, ext, mem);
    return xferv_route(f, collective, is_write, ext, mem);
}

int ncp_io_swaps(const ncp_file *f, int collective, int is_write)
{
    if (!f->drv->swaps || (collective && f->group)) return 0;
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

int ncp_io_sync(ncp_file *f)
{
    int err = f->drv->sync(f), e;
    if (!f->group) return err;
    e = ncp_group_sync(f);
    return err != NC_NOERR ? err : e;
}

int ncp_io_get_info(ncp_file *f, MPI_Info *info)
{
    int err = f->drv->get_info(f, info);
    if (err == NC_NOERR) MPI_Info_set(*info, "nc_driver", f->drv->name);
    return err;
}

const char *ncp_io_driver_name(const ncp_file *f) { return f->drv->name; }

void ncp_io_driver_rounds(const ncp_file *f, int64_t *rounds,
                          int64_t *shm_rounds)
{
    *rounds = f->driver_rounds;
    *shm_rounds = f->driver_shm_rounds;
    if (f->group && f->group->afile) {
        *rounds += f->group->afile->driver_rounds;
        *shm_rounds += f->group->afile->driver_shm_rounds;
    }
}
