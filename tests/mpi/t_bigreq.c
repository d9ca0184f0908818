/* ncp-test: NO_CDL NO_PNETCDF_CMP RANKS 1 TIMEOUT 300 */
/* t_bigreq -- more than 2^31 elements and bytes per rank in one flush.
 *
 * MPI counts are ints, so a request this size only works if every count
 * handed to MPI-IO is described with derived types rather than truncated.
 * One rank writes a CDF-5 byte variable of 2^31 + 4100 elements as two
 * nonblocking requests (each over 2^30 bytes, together over 2^31) that one
 * ncmpi_wait_all turns into a single MPI-IO write, reads it back in one
 * blocking get, checks a position-dependent pattern everywhere, and reads a
 * stretch across the 2^31 boundary through iget + wait_all.  That get is
 * one request of more than 2 GiB, which PnetCDF 1.12.3 refuses with
 * NC_EMAX_REQ and ncpario carries out (a documented difference). No PnetCDF
 * comparison: copying and comparing 2 GiB twice more would dominate the
 * suite's run time.
 */
#include <stdlib.h>

#include "testutil.h"

#include "have_ncpario.h"

#define NBIG ((MPI_Offset)2147483648LL + 4100) /* a multiple of 4: no padding */

static signed char pattern(MPI_Offset i) { return (signed char)((i * 7 + (i >> 20)) & 0x7f); }

/* The two halves of buf posted as iputs and flushed by one wait_all: one
 * MPI-IO write of NBIG bytes. */
static void put_in_two_requests(int nc, int v, signed char *buf)
{
    MPI_Offset st[2] = {0, NBIG / 2 + 1}, ct[2] = {NBIG / 2 + 1, 0};
    int req[2], status[2] = {-1, -1};

    ct[1] = NBIG - st[1];
    CHECK_ERR(ncmpi_iput_vara_schar(nc, v, &st[1], &ct[1], buf + st[1],
                                    &req[1]));
    CHECK_ERR(ncmpi_iput_vara_schar(nc, v, &st[0], &ct[0], buf, &req[0]));
    CHECK_ERR(ncmpi_wait_all(nc, 2, req, status));
    CHECK_ERR(status[0]);
    CHECK_ERR(status[1]);
#ifdef HAVE_NCPARIO
    {
        ncpario_profile p;

        CHECK_ERR(ncpario_inq_profile(nc, &p));
        CHECKF(p.mpiio_write_calls == 1, "%lld MPI-IO writes for one wait_all",
               p.mpiio_write_calls);
        /* The counter holds data bytes only (the header goes through
         * another path, and nofill writes no fill), so it is the two
         * requests' NBIG bytes exactly. */
        CHECKF(p.bytes_written == NBIG, "%lld bytes written, want %lld",
               p.bytes_written, (long long)NBIG);
    }
#endif
}

/* 4 KiB on each side of byte 2^31, read through the nonblocking path from
 * a reopened file into a fresh buffer. */
static void check_boundary_iget(const char *path, int v)
{
    enum { HALF = 4096 };
    MPI_Offset st = ((MPI_Offset)1 << 31) - HALF, ct = 2 * HALF, bad = 0;
    signed char *got = malloc(2 * HALF);
    int nc, req, status = -1;

    CHECK(got != NULL);
    if (got == NULL)
        return;
    CHECK_ERR(ncmpi_open(MPI_COMM_WORLD, path, NC_NOWRITE, MPI_INFO_NULL,
                         &nc));
    CHECK_ERR(ncmpi_iget_vara_schar(nc, v, &st, &ct, got, &req));
    CHECK_ERR(ncmpi_wait_all(nc, 1, &req, &status));
    CHECK_ERR(status);
    CHECK_ERR(ncmpi_close(nc));
    for (MPI_Offset i = 0; i < ct; i++)
        bad += got[i] != pattern(st + i);
    CHECKF(bad == 0, "%lld bytes differ around 2^31", (long long)bad);
    free(got);
}

int main(int argc, char **argv)
{
    int nc, d, v;
    MPI_Offset st = 0, ct = NBIG, i, bad = 0;
    signed char *buf;
    const char *path;

    tu_init(&argc, &argv);
    path = tu_main_path(argc, argv);
    buf = malloc((size_t)NBIG);
    CHECK(buf != NULL);
    if (!buf) return tu_finish("t_bigreq");
    for (i = 0; i < NBIG; i++) buf[i] = pattern(i);

    CHECK_ERR(ncmpi_create(MPI_COMM_WORLD, path, NC_CLOBBER | NC_64BIT_DATA,
                           MPI_INFO_NULL, &nc));
    CHECK_ERR(ncmpi_def_dim(nc, "n", NBIG, &d));
    CHECK_ERR(ncmpi_def_var(nc, "b", NC_BYTE, 1, &d, &v));
    CHECK_ERR(ncmpi_enddef(nc));
    put_in_two_requests(nc, v, buf);
    CHECK_ERR(ncmpi_close(nc));

    for (i = 0; i < NBIG; i++) buf[i] = 0;
    CHECK_ERR(ncmpi_open(MPI_COMM_WORLD, path, NC_NOWRITE, MPI_INFO_NULL, &nc));
    CHECK_ERR(ncmpi_get_vara_schar_all(nc, v, &st, &ct, buf));
    CHECK_ERR(ncmpi_close(nc));
    for (i = 0; i < NBIG; i++) bad += buf[i] != pattern(i);
    CHECKF(bad == 0, "%lld bytes differ after the round trip", (long long)bad);
    CHECKF(buf[NBIG - 1] == pattern(NBIG - 1), "last byte %d", buf[NBIG - 1]);
    check_boundary_iget(path, v);
    free(buf);
    return tu_finish("t_bigreq");
}
