/* ncp-test: NO_CDL NO_PNETCDF_CMP RANKS 1 TIMEOUT 300 */
/* t_bigreq -- one request of more than 2^31 elements and bytes per rank.
 *
 * MPI counts are ints, so a request this size only works if every count
 * handed to MPI-IO is described with derived types rather than truncated.
 * One rank writes a CDF-5 byte variable of 2^31 + 4100 elements in a
 * single collective put, reads it back in a single get, and checks a
 * position-dependent pattern everywhere.  No PnetCDF comparison: copying and
 * comparing 2 GiB twice more would dominate the suite's run time.
 */
#include <stdlib.h>

#include "testutil.h"

#define NBIG ((MPI_Offset)2147483648LL + 4100) /* a multiple of 4: no padding */

static signed char pattern(MPI_Offset i) { return (signed char)((i * 7 + (i >> 20)) & 0x7f); }

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
    CHECK_ERR(ncmpi_put_vara_schar_all(nc, v, &st, &ct, buf));
    CHECK_ERR(ncmpi_close(nc));

    for (i = 0; i < NBIG; i++) buf[i] = 0;
    CHECK_ERR(ncmpi_open(MPI_COMM_WORLD, path, NC_NOWRITE, MPI_INFO_NULL, &nc));
    CHECK_ERR(ncmpi_get_vara_schar_all(nc, v, &st, &ct, buf));
    CHECK_ERR(ncmpi_close(nc));
    for (i = 0; i < NBIG; i++) bad += buf[i] != pattern(i);
    CHECKF(bad == 0, "%lld bytes differ after the round trip", (long long)bad);
    CHECKF(buf[NBIG - 1] == pattern(NBIG - 1), "last byte %d", buf[NBIG - 1]);
    free(buf);
    return tu_finish("t_bigreq");
}
