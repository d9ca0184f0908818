/*
 * test_errors.c -- ncmpi_strerror / ncmpi_strerrno / version strings
 * (src/util/errors.c).  No MPI calls: errors.c only needs the headers.
 *
 * Checks named codes of each range (netCDF, netCDF-4, PnetCDF, the
 * multi-process consistency codes), that an alias reports its canonical
 * name, that unknown and positive (errno) codes get the generic answers,
 * and, sweeping the whole negative range, that every named code has a
 * non-empty message and that no two codes share a name or a message.
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

int main(void)
{
    static const int unknown[] = {-2, -3, -32, -79, -100, -143, -200, -241,
                                  -249, -274, -1000, INT_MIN};
    const char *generic = ncmpi_strerror(-3);
    const char *generic_name = ncmpi_strerrno(-3);
    enum { LOW = -400 };
    const char *names[-LOW + 1];
    const char *msgs[-LOW + 1];
    int n = 0;
    size_t i;

    expect_name(NC_NOERR, "NC_NOERR");
    expect_name(NC_EBADID, "NC_EBADID");
    expect_name(NC_EINVALCOORDS, "NC_EINVALCOORDS");
    expect_name(NC_ERANGE, "NC_ERANGE");
    expect_name(NC_ENULLPAD, "NC_ENULLPAD");
    expect_name(NC_EPLUGIN, "NC_EPLUGIN");
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

    expect(strcmp(ncmpi_strerror(NC_NOERR), "No error") == 0, "no error",
           NC_NOERR);
    expect(generic != NULL && generic[0] != '\0', "generic message", -3);
    expect(generic_name != NULL && generic_name[0] != '\0', "generic name",
           -3);
    for (i = 0; i < sizeof unknown / sizeof unknown[0]; i++) {
        expect(ncmpi_strerror(unknown[i]) == generic, "unknown message",
               unknown[i]);
        expect(ncmpi_strerrno(unknown[i]) == generic_name, "unknown name",
               unknown[i]);
    }

    /* positive codes are errno values */
    expect(strcmp(ncmpi_strerror(ENOENT), strerror(ENOENT)) == 0,
           "errno message", ENOENT);
    expect(ncmpi_strerrno(EIO) != NULL &&
               strncmp(ncmpi_strerrno(EIO), "NC_", 3) != 0,
           "errno has no NC_ name", EIO);

    /* every named code: a message, and names/messages all distinct */
    for (int code = 0; code >= LOW; code--) {
        const char *name = ncmpi_strerrno(code);
        const char *msg = ncmpi_strerror(code);

        if (name == generic_name) {
            expect(msg == generic, "unnamed code has the generic message",
                   code);
            continue;
        }
        expect(strncmp(name, "NC", 2) == 0, "name starts with NC", code);
        expect(msg != NULL && msg[0] != '\0' && msg != generic,
               "named code has its own message", code);
        for (int k = 0; k < n; k++) {
            expect(strcmp(names[k], name) != 0, "duplicate name", code);
            expect(strcmp(msgs[k], msg) != 0, "duplicate message", code);
        }
        names[n] = name;
        msgs[n] = msg;
        n++;
    }
    /* NC_NOERR, NC2_ERR, 50 netCDF, 42 netCDF-4, 40 PnetCDF, 24 multi */
    expect(n == 158, "number of named codes", n);

    expect(strcmp(ncpario_version(), NCPARIO_VERSION) == 0, "version", 0);
    expect(strstr(ncmpi_inq_libvers(), NCPARIO_VERSION) != NULL &&
               strncmp(ncmpi_inq_libvers(), PNETCDF_VERSION,
                       strlen(PNETCDF_VERSION)) == 0,
           "libvers starts with PNETCDF_VERSION and names ncpario's", 0);

    /* netCDF's text for its codes, ncpario's own for PnetCDF's codes and
     * from ncpario_strerror_detail */
    expect(strcmp(ncmpi_strerror(NC_EINVAL), "NetCDF: Invalid argument") == 0,
           "netCDF text", NC_EINVAL);
    expect(strcmp(ncpario_strerror_detail(NC_EINVAL),
                  ncmpi_strerror(NC_EINVAL)) != 0,
           "detail text of a netCDF code", NC_EINVAL);
    expect(strcmp(ncpario_strerror_detail(NC_EINDEP),
                  ncmpi_strerror(NC_EINDEP)) == 0,
           "PnetCDF code keeps ncpario's text", NC_EINDEP);
    expect(ncpario_strerror_detail(-3) == generic, "detail of unknown", -3);

    if (failures == 0)
        printf("test_errors: OK (%d named codes)\n", n);
    return failures != 0;
}
