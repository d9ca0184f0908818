/*
 * header_io.c -- moving the header between the file and every rank's
 * memory.  Rank 0 alone touches the header bytes; the others receive the
 * raw bytes by broadcast and decode them themselves, so every rank holds a
 * header decoded from the same bytes.
 */
#include <stdlib.h>
#include <string.h>

#include "ncp_dataset.h"
#include "pnetcdf.h"

/* Rank 0 encodes and writes the header; *size is what it wrote. */
static int write_root(ncp_dataset *ds, int64_t *size)
{
    int err;
    void *buf = NULL;
    err = ncp_header_encoded_size(&ds->hdr, size);
    if (err == NC_NOERR && !(buf = calloc(1, (size_t)*size))) err = NC_ENOMEM;
    if (err == NC_NOERR) err = ncp_header_encode(&ds->hdr, buf, *size);
    if (err == NC_NOERR) err = ncp_io_write_at(&ds->file, 0, buf, *size);
    free(buf);
    return err;
}

int ncp_header_write(ncp_dataset *ds)
{
    int err = NC_NOERR;
    int64_t size = 0;
    if (ds->rank == 0) {
        err = write_root(ds, &size);
        if (err == NC_NOERR) ds->put_bytes += size; /* PnetCDF counts it */
    }
    ds->flags &= ~(NCP_F_NUMRECS | NCP_F_NUMRECS_LATE);
    return ncp_agree(ds->comm, err);
}

/*
 * The empty header is the smallest there is, so the first enddef's header
 * covers it whole.  PnetCDF writes nothing before enddef; its put size
 * therefore leaves these bytes out, and so does ours.
 */
int ncp_header_write_empty(ncp_dataset *ds)
{
    int err = NC_NOERR;
    int64_t size = 0;
    if (ds->rank == 0) err = write_root(ds, &size);
    return ncp_agree(ds->comm, err);
}

/* Whether the file is HDF5, which a classic-only build opens with
 * NC_ENOTBUILT, as PnetCDF built without netCDF-4 does. */
static int is_hdf5(ncp_dataset *ds, MPI_Offset fsize)
{
    unsigned char sig[8];
    int64_t off, got = 0;

    for (off = 0; off + 8 <= fsize; off = ncp_hdf5_next_offset(off)) {
        if (ncp_io_read_at(&ds->file, off, sig, 8, &got) != NC_NOERR ||
            got < 8)
            break;
        if (ncp_is_hdf5_signature(sig)) return 1;
    }
    return 0;
}

/* What inq_get_size counts for reading the header, as PnetCDF counts it:
 * the whole chunks of nc_header_read_chunk_size its parser reads from the
 * start of the file to cover the header, clipped at the end of the file. */
static int64_t header_read_count(const ncp_dataset *ds, MPI_Offset fsize)
{
    int64_t chunk = ds->hints.header_read_chunk;
    int64_t covered = (ds->hdr.xsz + chunk - 1) / chunk * chunk;
    return covered < fsize ? covered : fsize;
}

/* Rank 0: read and decode until the whole header is in memory. */
static int read_root(ncp_dataset *ds, void **bytes, int64_t *nbytes,
                     MPI_Offset *file_size)
{
    int err;
    MPI_Offset fsize = 0;
    int64_t want, got = 0, need = 0;
    unsigned char *buf = NULL;
    ncp_header probe;

    err = ncp_io_get_size(&ds->file, &fsize);
    if (err != NC_NOERR) return err;
    /* Too short to hold even the magic and numrecs: PnetCDF reports a file
       error here rather than a format error. */
    if (fsize < 8) return NC_EFILE;
    /* first read: one chunk (nc_header_read_chunk_size), which most
       headers fit in */
    want = fsize < ds->hints.header_read_chunk ? fsize
                                                : ds->hints.header_read_chunk;
    for (;;) {
        unsigned char *nb = realloc(buf, (size_t)(want ? want : 1));
        if (!nb) {
            err = NC_ENOMEM;
            break;
        }
        buf = nb;
        err = ncp_io_read_at(&ds->file, 0, buf, want, &got);
        if (err != NC_NOERR) break;
        ncp_header_init(&probe, NCP_CDF1);
        err = ncp_header_decode(buf, got, fsize, &probe, &need);
        ncp_header_free(&probe);
        if (err != NCP_HDR_NEED_MORE) break;
        if (need <= want || need > fsize) {
            err = NC_ENOTNC;
            break;
        }
        want = need;
    }
    if (err == NC_ENOTNC && is_hdf5(ds, fsize)) err = NC_ENOTBUILT;
    if (err == NC_NOERR) {
        *bytes = buf;
        *nbytes = got;
        *file_size = fsize;
    } else {
        free(buf);
    }
    return err;
}

int ncp_header_read(ncp_dataset *ds)
{
    int err = NC_NOERR;
    void *bytes = NULL;
    int64_t nbytes = 0, need = 0;
    MPI_Offset fsize = 0;
    long long meta[3] = {0, 0, 0};

    if (ds->rank == 0) err = read_root(ds, &bytes, &nbytes, &fsize);
    meta[0] = err;
    meta[1] = nbytes;
    meta[2] = fsize;
    MPI_Bcast(meta, 3, MPI_LONG_LONG, 0, ds->comm);
    err = (int)meta[0];
    if (err != NC_NOERR) goto done;
    nbytes = meta[1];
    fsize = meta[2];
    if (ds->rank != 0 && !(bytes = malloc((size_t)(nbytes ? nbytes : 1))))
        err = NC_ENOMEM;
    err = ncp_agree(ds->comm, err);
    if (err != NC_NOERR) goto done;
    ncp_bcast_bytes(bytes, nbytes, ds->hints.bcast_chunk, 0, ds->comm);
    ncp_header_free(&ds->hdr);
    ncp_header_init(&ds->hdr, NCP_CDF1);
    err = ncp_header_decode(bytes, nbytes, fsize, &ds->hdr, &need);
    if (err == NC_NOERR && ds->rank == 0)
        ds->get_bytes += header_read_count(ds, fsize);
    err = ncp_agree(ds->comm, err);
done:
    free(bytes);
    return err;
}
