/*
 * test_public_header.c -- guards the public headers themselves: they must
 * compile on their own under -std=c11 -pedantic -Werror -Wall (the C++
 * twin, test_public_header_cxx.cpp, checks the C++ side), leak none of the
 * helper macros pnetcdf.h uses to declare its typed families, and expose
 * the types and values programs rely on.  The compile is most of the test;
 * main() checks the few facts a compiler cannot.
 *
 * Build: mpicc -std=c11 -pedantic -Werror -Wall -Wextra -Iinclude \
 *        tests/unit/test_public_header.c  (no link against ncpario needed)
 */
#include "pnetcdf.h"
#include "ncpario.h"
#include "pnetcdf.h" /* a second inclusion must be harmless */

#include <stdio.h>
#include <string.h>

#if defined(NCMPI_TYPES_) || defined(NCMPI_DATA_TYPES_) || \
    defined(NCMPI_ATT_TYPES_) || defined(NCMPI_DECL_VARA_) ||  \
    defined(NCMPI_DECL_NB_VARA_) || defined(NCMPI_DECL_MULTI_VARA_) || \
    defined(NCMPI_DECL_ATT_)
#error "pnetcdf.h leaks its declaration helper macros"
#endif

#ifndef _PNETCDF_H
#error "pnetcdf.h must define PnetCDF's include guard, _PNETCDF_H"
#endif

#ifndef PNETCDF_PUBLIC_API
#error "pnetcdf.h must define PnetCDF 1.15's PNETCDF_PUBLIC_API"
#endif

#if PNETCDF_ENABLE_FORTRAN != 0 && PNETCDF_ENABLE_FORTRAN != 1
#error "PNETCDF_ENABLE_FORTRAN must be filled in with 0 or 1"
#endif

#if PNETCDF_VERSION_MAJOR != 1 || PNETCDF_VERSION_MINOR != 12 || \
    PNETCDF_VERSION_SUB != 3
#error "pnetcdf.h must describe the PnetCDF 1.12.3 interface"
#endif

#if NCPARIO_VERSION_MAJOR != 0 || NCPARIO_VERSION_MINOR != 1 || \
    NCPARIO_VERSION_PATCH != 0
#error "unexpected ncpario version macros"
#endif

/*
 * Each prototype is checked against the exact function type a PnetCDF
 * program expects.  _Generic does not evaluate its operand, so nothing is
 * referenced and the test needs no library to link.
 */
#define HAS_TYPE(fn, type) _Generic(&(fn), type: 1, default: 0)
_Static_assert(HAS_TYPE(ncmpi_put_vara_double_all,
                        int (*)(int, int, const MPI_Offset *,
                                const MPI_Offset *, const double *)),
               "ncmpi_put_vara_double_all");
_Static_assert(HAS_TYPE(ncmpi_get_varm_text,
                        int (*)(int, int, const MPI_Offset *,
                                const MPI_Offset *, const MPI_Offset *,
                                const MPI_Offset *, char *)),
               "ncmpi_get_varm_text");
_Static_assert(HAS_TYPE(ncmpi_put_att_uchar,
                        int (*)(int, int, const char *, nc_type, MPI_Offset,
                                const unsigned char *)),
               "ncmpi_put_att_uchar takes an xtype");
_Static_assert(HAS_TYPE(ncmpi_put_att_text,
                        int (*)(int, int, const char *, MPI_Offset,
                                const char *)),
               "ncmpi_put_att_text takes no xtype");
_Static_assert(HAS_TYPE(ncmpi_iput_varn_longlong,
                        int (*)(int, int, int, MPI_Offset *const *,
                                MPI_Offset *const *, const long long *,
                                int *)),
               "ncmpi_iput_varn_longlong");
_Static_assert(HAS_TYPE(ncmpi_mget_vars_ushort_all,
                        int (*)(int, int, int *, MPI_Offset *const *,
                                MPI_Offset *const *, MPI_Offset *const *,
                                unsigned short **)),
               "ncmpi_mget_vars_ushort_all");
_Static_assert(HAS_TYPE(ncmpi_get_vara,
                        int (*)(int, int, const MPI_Offset *,
                                const MPI_Offset *, void *, MPI_Offset,
                                MPI_Datatype)),
               "ncmpi_get_vara");
_Static_assert(HAS_TYPE(cdl_hdr_open, int (*)(const char *, int *)),
               "cdl_hdr_open (PnetCDF 1.14)");
_Static_assert(HAS_TYPE(cdl_hdr_inq_dim,
                        int (*)(int, int, char **, MPI_Offset *)),
               "cdl_hdr_inq_dim");
_Static_assert(HAS_TYPE(cdl_hdr_inq_var,
                        int (*)(int, int, char **, nc_type *, int *, int **)),
               "cdl_hdr_inq_var");
_Static_assert(HAS_TYPE(cdl_hdr_inq_attr,
                        int (*)(int, int, int, char **, nc_type *,
                                MPI_Offset *, void **)),
               "cdl_hdr_inq_attr");
_Static_assert(HAS_TYPE(ncmpi_inq_libvers, const char *(*)(void)),
               "ncmpi_inq_libvers");
_Static_assert(HAS_TYPE(ncpario_version, const char *(*)(void)),
               "ncpario_version");

static int failures;

static void expect(int cond, const char *what)
{
    if (!cond) {
        printf("FAIL: %s\n", what);
        failures++;
    }
}

/* A program's own function marked as PnetCDF 1.15's test suite marks
 * them: the macro must expand to something a declaration takes. */
extern PNETCDF_PUBLIC_API int exported_probe(void);
PNETCDF_PUBLIC_API int exported_probe(void) { return 7; }

int main(void)
{
    nc_type t = NC_UINT64;

    expect(sizeof(t) == sizeof(int), "nc_type is an int");
    expect(NC_BYTE == 1 && NC_CHAR == 2 && NC_UINT64 == 11, "type codes");
    expect(NC_LONG == NC_INT, "NC_LONG is NC_INT");
    expect(NC_GLOBAL == -1 && NC_UNLIMITED == 0L, "NC_GLOBAL/NC_UNLIMITED");
    expect(sizeof(NC_UNLIMITED) == sizeof(long), "NC_UNLIMITED is a long");
    expect(NC_64BIT_DATA == 0x20 && NC_64BIT_OFFSET == 0x200 &&
               NC_CDF5 == NC_64BIT_DATA,
           "format mode bits");
    expect(NC_FORMAT_CLASSIC == 1 && NC_FORMAT_CDF2 == 2 &&
               NC_FORMAT_CDF5 == 5,
           "format codes");
    expect(NC_FILL_BYTE == -127 && NC_FILL_DOUBLE > 9.9e36 &&
               NC_FILL_UINT64 == 18446744073709551614ULL,
           "fill values");
    expect(NC_EINVALCOORDS == -40 && NC_EINDEP == -203 &&
               NC_EMULTIDEFINE_CMODE == -273 && NC_ECMODE == -251,
           "error codes");
    expect(NC_REQ_NULL == -1 && NC_REQ_ALL == -1 && NC_GET_REQ_ALL == -2 &&
               NC_PUT_REQ_ALL == -3,
           "request constants");
    expect(NC_COUNT_IGNORE == -1, "NC_COUNT_IGNORE");
    expect(exported_probe() == 7, "a PNETCDF_PUBLIC_API function");
    expect(strcmp(DIM_WITHOUT_VARIABLE,
                  "This is a netCDF dimension but not a netCDF variable.") == 0,
           "DIM_WITHOUT_VARIABLE");
    expect(NC_ISSYSERR(5) && !NC_ISSYSERR(0) && !NC_ISSYSERR(NC_EBADID),
           "NC_ISSYSERR");
    expect(strcmp(_FillValue, "_FillValue") == 0, "_FillValue");
    expect(strcmp(NCPARIO_VERSION, "0.1.0") == 0, "NCPARIO_VERSION");
    if (failures == 0)
        printf("test_public_header: OK\n");
    return failures != 0;
}
