/*
 * pnetcdf_dropin.c -- the whole of libpnetcdf.so.0d, ncpario's stand-in
 * for the library a binary built on PnetCDF loads at run time.  It holds
 * no API of its own: its DT_NEEDED entries bring in libncpario (and the
 * Fortran and C++ bindings), whose symbols the dynamic linker then binds every
 * reference of the program and of its other libraries to.  One copy of
 * ncpario is loaded, however many names lead to it.
 */

/* Lets `nm` and a test tell this library from PnetCDF's. */
const char ncpario_pnetcdf_dropin[] = "libpnetcdf.so.0d: ncpario";
