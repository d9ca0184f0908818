/*
 * ncp_text.h -- a whole text file read into memory (src/io/text.c), for
 * the CDL header API: the one file ncpario reads that is not a dataset,
 * read by one process with plain POSIX calls.
 */
#ifndef NCP_TEXT_H
#define NCP_TEXT_H

#include <stddef.h>

/*
 * Read the file at path into *text (malloc'd, the caller frees it; a NUL
 * follows the last byte) and its length into *len.  NC_ENOENT when there
 * is no such file, NC_EFILE when it cannot be opened or read otherwise,
 * NC_ENOMEM.  On error *text is NULL.
 */
int ncp_io_read_text(const char *path, char **text, size_t *len);

#endif
