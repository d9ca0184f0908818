/*
 * ncp_posix_agg.h -- the POSIX driver's aggregated write (posix_agg.c),
 * called by the driver (posix.c).
 */
#ifndef NCP_POSIX_AGG_H
#define NCP_POSIX_AGG_H

#include "ncp_posix.h"

/* Collective: the bytes of ext (memory side mem) shipped to the
 * aggregators of their file domains, which write them in rounds of at
 * most round_cap bytes each.  Returns this rank's own code; the caller
 * agrees. */
int ncp_posix_write_aggregated(ncp_file *f, const ncp_extents *ext,
                               const ncp_extents *mem);

#endif
