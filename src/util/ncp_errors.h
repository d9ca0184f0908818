/*
 * ncp_errors.h -- what the library asks of its own error table
 * (src/util/errors.c; the texts themselves are public: ncmpi_strerror).
 */
#ifndef NCP_ERRORS_H
#define NCP_ERRORS_H

/* 1 when err is NC_NOERR or a code the table names, else 0. */
int ncp_error_known(int err);

/* What ncmpi_strerror, ncmpi_strerrno and ncmpi_inq_libvers answer:
 * PnetCDF's text and name of a code (a system error's text from the C
 * library), and the version string. */
const char *ncp_strerror(int err);
const char *ncp_strerrno(int err);
const char *ncp_libvers(void);
/* ncpario_strerror_detail's and ncpario_version's answers. */
const char *ncp_strerror_detail(int err);
const char *ncp_version(void);

#endif
