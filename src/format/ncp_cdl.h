/*
 * ncp_cdl.h -- the header part of CDL, netCDF's text notation, read into
 * the header model (ncp_header.h) by src/format/cdl.c.
 *
 * `ncdump -h` and PnetCDF's `ncmpidump -h` print a file's header as CDL;
 * ncgen turns CDL back into a file.  ncp_cdl_parse reads what those tools
 * print, and the rest of what ncgen accepts within the classic model, into
 * an ncp_header: the dimensions, variables and attributes in the order the
 * text declares them, attribute values in external form as everywhere in
 * the model, and the format.  A data section is skipped.  Pure: the caller
 * holds the text; no MPI, no I/O.
 */
#ifndef NCP_CDL_H
#define NCP_CDL_H

#include <stddef.h>

#include "ncp_header.h"

/*
 * Parse len bytes of CDL text into h (which need not be initialized).
 * Returns NC_NOERR with h filled (the caller frees it with
 * ncp_header_free); on error h is left empty.
 *   NC_ENOTNC  the text is not CDL, is cut short, or describes no classic
 *              header (a netCDF-4 type or section, a second unlimited
 *              dimension, a name or value no classic file can hold, a
 *              format that cannot hold its types or dimension lengths)
 *   NC_EBADDIM a variable names a dimension never declared
 *   NC_ENOMEM
 * h->format is, first that applies: the global attribute `_Format`
 * (ncdump -s: "classic", "64-bit offset", "cdf5"; ncgen's other names for
 * these three too), which is not kept as an attribute; the comment
 * "// file format: CDF-N" that ncmpidump prints before the first section
 * (N other than 1, 2 or 5 is NC_ENOTNC); else the first of CDF-1, CDF-2,
 * CDF-5 that holds every type and dimension length declared.  Allocates
 * no more than a small multiple of len.
 */
int ncp_cdl_parse(const char *text, size_t len, ncp_header *h);

#endif
