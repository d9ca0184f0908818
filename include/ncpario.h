/*
 * ncpario.h -- ncpario's own additions to the PnetCDF interface.
 *
 * pnetcdf.h stays a faithful copy of PnetCDF's interface so that existing
 * programs build unchanged; everything that is ncpario's alone (its version
 * today, its extensions later) is declared here under the ncpario_ /
 * NCPARIO_ prefixes.  Including this header includes pnetcdf.h.
 */
#ifndef NCPARIO_H
#define NCPARIO_H

#include "pnetcdf.h"

#define NCPARIO_VERSION_MAJOR 0
#define NCPARIO_VERSION_MINOR 1
#define NCPARIO_VERSION_PATCH 0
#define NCPARIO_VERSION       "0.1.0"

#ifdef __cplusplus
extern "C" {
#endif

/* The version of the library actually linked, e.g. "0.1.0"; compare it with
   NCPARIO_VERSION to detect a header/library mismatch. */
extern const char *ncpario_version(void);

#ifdef __cplusplus
}
#endif

#endif /* NCPARIO_H */
