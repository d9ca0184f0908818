/*
 * test_public_header_cxx.cpp -- the C++ side of the public header guard:
 * pnetcdf.h and ncpario.h must compile as C++ (-pedantic -Werror -Wall)
 * and declare everything with C linkage, so a C++ program links against
 * the C library.  The C twin is test_public_header.c.
 *
 * Build: mpicxx -std=c++11 -pedantic -Werror -Wall -Wextra -Iinclude \
 *        tests/unit/test_public_header_cxx.cpp
 */
/* OpenMPI's own C++ bindings do not build warning-free under -Wextra;
   they are not what this test is about. */
#define OMPI_SKIP_MPICXX 1
#define MPICH_SKIP_MPICXX 1
#include "pnetcdf.h"
#include "ncpario.h"

#include <cstdio>
#include <cstring>
#include <type_traits>

/* decltype does not evaluate its operand: nothing is referenced, so the
   test links without the library. */
#define HAS_TYPE(fn, type) std::is_same<decltype(&(fn)), type>::value
static_assert(HAS_TYPE(ncmpi_put_var1_int_all,
                       int (*)(int, int, const MPI_Offset *, const int *)),
              "ncmpi_put_var1_int_all");
static_assert(HAS_TYPE(ncmpi_get_att_ubyte,
                       int (*)(int, int, const char *, unsigned char *)),
              "ncmpi_get_att_ubyte");
static_assert(HAS_TYPE(ncmpi_wait_all, int (*)(int, int, int *, int *)),
              "ncmpi_wait_all");
static_assert(HAS_TYPE(ncmpi_strerror, const char *(*)(int)),
              "ncmpi_strerror");
static_assert(HAS_TYPE(ncpario_version, const char *(*)()),
              "ncpario_version");

/* Redeclaring with C linkage is an error in C++ unless the header already
   gave these functions C linkage. */
extern "C" int ncmpi_sync(int ncid);
extern "C" int ncmpi_get_vars_ulonglong(int ncid, int varid,
                                        const MPI_Offset *start,
                                        const MPI_Offset *count,
                                        const MPI_Offset *stride,
                                        unsigned long long *buf);
extern "C" const char *ncpario_version(void);

int main()
{
    int failures = 0;
    const char *fill = NC_FILL_STRING;

    if (std::strlen(fill) != 0 || NC_FILL_CHAR != 0)
        failures++;
    if (NC_MAX_INT64 != 9223372036854775807LL || NC_MIN_BYTE != -128)
        failures++;
    if (std::strcmp(_FillValue, "_FillValue") != 0)
        failures++;
    std::printf("test_public_header_cxx: %s\n", failures ? "FAIL" : "OK");
    return failures != 0;
}
