/*
 * ncp_errors.h -- what the library asks of its own error table
 * (src/util/errors.c; the texts themselves are public: ncmpi_strerror).
 */
#ifndef NCP_ERRORS_H
#define NCP_ERRORS_H

/* 1 when err is NC_NOERR or a code the table names, else 0. */
int ncp_error_known(int err);

#endif
