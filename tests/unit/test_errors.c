/*
 * test_errors.c -- ncmpi_strerror / ncmpi_strerrno / version strings
 * (src/util/errors.c).  No MPI calls: errors.c only needs the headers.
 *
 * Checks named codes of each range (netCDF, netCDF-4, PnetCDF, the
 * multi-process consistency codes), that an alias reports its canonical
 * name, that unknown and positive (errno) codes get PnetCDF's numbered
 * answers, and, sweeping the whole negative range, that every named code
 * has a non-empty message and that no two codes share a name or a
 * message.  (interop.strerror_probe compares every text with PnetCDF's.)
 *
 * Build: mpicc -std=c11 -Wall -Wextra -Iinclude tests/unit/test_errors.c \
 *        src/util/errors.c
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "ncpario.h"

static int failures;

static void expect(int cond, const char *what, int code)
{
    if (!cond) {
        printf("FAIL: %s (code %d)\n", what, code);
        failures++;
    }
}

static void expect_name(int code, const char *name)
{
    const char *got = ncmpi_strerrno(code);

    expect(got != NULL && strcmp(got, name) == 0, name, code);
}

/* PnetCDF's answers for a code its strerror and strerrno do not know. */
static void expect_unknown(int code)
{
    char text[64], name[32];

    snprintf(text, sizeof text, "Unknown Error: Unrecognized error code %5d\n",
             code);
    snprintf(name, sizeof name, "Unknown code %d", code);
    expect(strcmp(ncmpi_strerror(code), text) == 0, "unknown message", code);
    expect(strcmp(ncmpi_strerrno(code), name) == 0, "unknown name", code);
    expect(strcmp(ncpario_strerror_detail(code), "Unknown status code") == 0,
           "detail of unknown", code);
}

int main(void)
{
    static const int unknown[] = {-2, -3, -32, -79, -100, -143, -200, -241,
                                  -249, -274, -1000, INT_MIN};
    enum { LOW = -400 };
    const char *names[-LOW + 1];
    const char *msgs[-LOW + 1];
    char errno_name[320];
    int n = 0;
    size_t i;

    expect_name(NC_NOERR, "NC_NOERR");
    expect_name(NC_EBADID, "NC_EBADID");
    expect_name(NC_EINVALCOORDS, "NC_EINVALCOORDS");
    expect_name(NC_ERANGE, "NC_ERANGE");
    expect_name(NC_ENULLPAD, "NC_ENULLPAD");
    expect_name(NC_EINDEP, "NC_EINDEP");
    expect_name(NC_EINVAL_REQUEST, "NC_EINVAL_REQUEST");
    expect_name(NC_EINSUFFBUF, "NC_EINSUFFBUF");
    expect_name(NC_EADIOS, "NC_EADIOS");
    expect_name(NC_EMULTIDEFINE, "NC_EMULTIDEFINE");
    expect_name(NC_EMULTIDEFINE_CMODE, "NC_EMULTIDEFINE_CMODE");
    /* aliases report the canonical spelling */
    expect_name(NC_ECMODE, "NC_EMULTIDEFINE_OMODE");
    expect_name(NC_EURL, "NC_EDAPURL");
    expect_name(NC_EVARS_BEGIN_MULTIDEFINE, "NC_EMULTIDEFINE_VAR_BEGIN");
    /* netCDF 4.8's codes: a text, but no name, as in PnetCDF 1.12.3 */
    expect_name(NC_EPLUGIN, "Unknown code -142");
    expect(strcmp(ncmpi_strerror(NC_ENCZARR), "NetCDF: NCZarr error") == 0,
           "NCZarr text", NC_ENCZARR);

    /* NC2_ERR: unknown to PnetCDF's strerror, not to ncpario's detail */
    expect(strcmp(ncmpi_strerror(NC2_ERR),
                  "Unknown Error: Unrecognized error code    -1\n") == 0,
           "NC2_ERR text", NC2_ERR);
    expect_name(NC2_ERR, "Unknown code -1");
    expect(strcmp(ncpario_strerror_detail(NC2_ERR), "Unknown status code") !=
               0,
           "NC2_ERR detail", NC2_ERR);

    expect(strcmp(ncmpi_strerror(NC_NOERR), "No error") == 0, "no error",
           NC_NOERR);
    for (i = 0; i < sizeof unknown / sizeof unknown[0]; i++)
        expect_unknown(unknown[i]);

    /* positive codes are errno values */
    expect(strcmp(ncmpi_strerror(ENOENT), strerror(ENOENT)) == 0,
           "errno message", ENOENT);
    snprintf(errno_name, sizeof errno_name, "System error code %d (%s)", EIO,
             strerror(EIO));
    expect(strcmp(ncmpi_strerrno(EIO), errno_name) == 0, "errno name", EIO);

    /* every named code: a message, and names/messages all distinct */
    for (int code = 0; code >= LOW; code--) {
        const char *name = ncmpi_strerrno(code);
        const char *msg = ncmpi_strerror(code);

        if (strncmp(name, "Unknown code", 12) == 0)
            continue;
        expect(strncmp(name, "NC", 2) == 0, "name starts with NC", code);
        expect(msg != NULL && msg[0] != '\0' &&
                   strncmp(msg, "Unknown Error", 13) != 0,
               "named code has its own message", code);
        expect(strcmp(ncpario_strerror_detail(code), "Unknown status code") !=
                   0,
               "named code has its own detail", code);
        for (int k = 0; k < n; k++) {
            expect(strcmp(names[k], name) != 0, "duplicate name", code);
            expect(strcmp(msgs[k], msg) != 0, "duplicate message", code);
        }
        names[n] = name;
        msgs[n] = msg;
        n++;
    }
    /* NC_NOERR, 50 netCDF, 36 netCDF-4, 40 PnetCDF, 24 multi */
    expect(n == 151, "number of named codes", n);

    expect(strcmp(ncpario_version(), NCPARIO_VERSION) == 0, "version", 0);
    expect(strstr(ncmpi_inq_libvers(), NCPARIO_VERSION) != NULL &&
               strncmp(ncmpi_inq_libvers(), PNETCDF_VERSION,
                       strlen(PNETCDF_VERSION)) == 0,
           "libvers starts with PNETCDF_VERSION and names ncpario's", 0);

    /* PnetCDF's texts from ncmpi_strerror, ncpario's own from
     * ncpario_strerror_detail */
    expect(strcmp(ncmpi_strerror(NC_EINVAL), "NetCDF: Invalid argument") == 0,
           "netCDF text", NC_EINVAL);
    expect(strcmp(ncmpi_strerror(NC_EMULTIDEFINE_VAR_NUM),
                  "Number of variables is inconsistent among processes.") ==
               0,
           "PnetCDF text", NC_EMULTIDEFINE_VAR_NUM);
    expect(strcmp(ncpario_strerror_detail(NC_EINVAL),
                  ncmpi_strerror(NC_EINVAL)) != 0,
           "detail text of a netCDF code", NC_EINVAL);
    expect(strcmp(ncpario_strerror_detail(NC_EINDEP),
                  ncmpi_strerror(NC_EINDEP)) != 0,
           "detail text of a PnetCDF code", NC_EINDEP);

    /* PnetCDF's text speaks of the attach buffer only; the detail names the
     * data buffer, which PnetCDF does not check (it crashes) */
    expect(strstr(ncpario_strerror_detail(NC_ENULLBUF), "data call's buffer") !=
               NULL,
           "NULL data buffer detail", NC_ENULLBUF);

    if (failures == 0)
        printf("test_errors: OK (%d named codes)\n", n);
    return failures != 0;
}
