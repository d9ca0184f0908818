/* have_ncpario.h -- the MPI tests build against ncpario and against
 * PnetCDF alike.  Where ncpario's own header is at hand this defines
 * HAVE_NCPARIO and includes it, so a test can read the profile counters
 * and check ncpario's own behaviour; the PnetCDF build skips those
 * checks. */
#ifndef NCP_HAVE_NCPARIO_H
#define NCP_HAVE_NCPARIO_H

#if defined(__has_include)
#if __has_include(<ncpario.h>)
#define HAVE_NCPARIO 1
#include <ncpario.h>
#endif
#endif

#endif
