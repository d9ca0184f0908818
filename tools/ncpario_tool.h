/*
 * ncpario_tool.h -- what the subcommands of the ncpario command share:
 * the exit codes, option parsing, messages and reading a header with the
 * library's codec.
 *
 * Every subcommand runs on every rank of MPI_COMM_WORLD (the program is
 * started by mpirun or alone) and returns the same exit code on all of
 * them; only rank 0 prints.
 */
#ifndef NCPARIO_TOOL_H
#define NCPARIO_TOOL_H

#include <stdint.h>
#include <stdio.h>

#include <mpi.h>

#include "format/ncp_header.h"

/* Exit codes, documented in ncpario(1). */
enum {
    NT_OK = 0,     /* success; no difference, no defect */
    NT_FOUND = 1,  /* a difference (diff) or a defect (validate) */
    NT_USAGE = 2,  /* bad command line */
    NT_FAIL = 3    /* the file could not be read, or the library failed */
};

/* The most dimensions a variable may have for the tools (netCDF allows
 * more in principle; no real file comes near). */
#define NT_MAX_DIMS 1024

int nt_dump(int argc, char **argv);
int nt_validate(int argc, char **argv);
int nt_offsets(int argc, char **argv);
int nt_diff(int argc, char **argv);
int nt_hints(int argc, char **argv);
int nt_plan(int argc, char **argv);
int nt_recover(int argc, char **argv);
int nt_run(int argc, char **argv);

int nt_rank(void);
/* "ncpario <cmd>: message" on stderr, from rank 0 only. */
void nt_err(const char *cmd, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/* The same exit code on every rank: the largest any rank found. */
int nt_agree(int rc);
/* Is argv[*i] the option (long name, or short name when not NULL)?  Then
 * *val is its value ("--opt=v", "--opt v", "-o v") and *i moves past it;
 * a missing value sets *val NULL. */
int nt_opt(int argc, char **argv, int *i, const char *lname,
           const char *sname, const char **val);
int nt_is_help(const char *arg);
/* A command over FILE... with -q (validate, recover): on rank 0, one(path,
 * quiet) for each file, the worst code on every rank; --help prints
 * usage. */
int nt_each_file(int argc, char **argv, const char *cmd,
                 void (*usage)(FILE *), int (*one)(const char *, int));
/* "a,b,c" of integers into v[0..*n-1] (at most max); -1 when malformed. */
int nt_parse_i64s(const char *s, int64_t *v, int max, int *n);
/* A non-negative double; -1 when malformed. */
int nt_parse_double(const char *s, double *v);
/* "name" or "name[s:c,s:c]" (start:count per dimension, ":c" or "s:" or
 * "s" allowed, missing parts -1): the name into name (room namecap), *n
 * the number of dimensions given (0 without brackets); -1 if malformed. */
int nt_parse_subarray(const char *spec, char *name, size_t namecap,
                      int64_t *start, int64_t *count, int max, int *n);
/* Split a -v list at commas outside brackets: the next item of *s into
 * item (room cap), *s moves past it; 0 when none is left. */
int nt_next_item(const char **s, char *item, size_t cap);

/* Read and decode path's header with the library's codec (no MPI).  An
 * NC_* status: the codec's verdict, or NC_ENOENT / NC_EFILE when the file
 * cannot be read.  *fsize is the file's size; *d where the decode
 * stopped. */
int nt_read_header(const char *path, ncp_header *h, int64_t *fsize,
                   ncp_hdr_defect *d);
/* validate's verdict on a decode (err, *h when err is NC_NOERR, *d
 * otherwise) of a file of fsize bytes, as one line into out: NT_OK or
 * NT_FOUND.  Pure, so the fuzzer drives it too. */
int nt_judge(const char *path, int err, const ncp_header *h,
             const ncp_hdr_defect *d, int64_t fsize, char *out, size_t cap);

/* Where the record variables' data of one record ends, from begin_rec. */
int64_t nt_record_end(const ncp_header *h);
/* The smallest size a file with header h may have: the end of its last
 * fixed variable and of its last record. */
int64_t nt_expected_size(const ncp_header *h);
/* How many of h's numrecs records a file of fsize bytes holds whole. */
int64_t nt_records_held(const ncp_header *h, int64_t fsize);

/* Append a printf-formatted text to the line in out (room cap). */
void nt_append(char *out, size_t cap, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* Bytes of one element of external type xtype (1..8; 0 when unknown). */
int nt_xsize(int xtype);
const char *nt_type_name(int xtype);
/* The MPI datatype of xtype's values in memory. */
MPI_Datatype nt_mpi_type(int xtype);

#endif
