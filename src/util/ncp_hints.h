/*
 * ncp_hints.h -- ncpario's hints: the table of every key it knows
 * (hint_table.def), read from the user's MPI_Info and from the
 * PNETCDF_HINTS environment variable ("key=value;key=value", which wins
 * over MPI_Info, as in PnetCDF), and the MPI_Info handed on to MPI-IO
 * with every key passed through.  Each layer reads the rows it owns with
 * ncp_hints_read when it opens a file; the table says how a value is
 * parsed, its range and default, and what a bad one does.
 *
 * This is the only place that reads the environment, but for the test
 * builds' NCPARIO_TEST_FAULT (io/fault.c) and NCPARIO_TEST_CRASH
 * (io/transport/crash.c).
 */
#ifndef NCP_HINTS_H
#define NCP_HINTS_H

#include <limits.h>
#include <mpi.h>
#include <stdint.h>

/* The columns of hint_table.def. */
enum { NCP_HT_SIZE, NCP_HT_INT, NCP_HT_ENUM, NCP_HT_STRING };
enum { NCP_HO_DATASET = 1, NCP_HO_IO = 2, NCP_HO_GROUP = 4, NCP_HO_POSIX = 8,
       NCP_HO_NONE = 16 };
enum { NCP_HA_USER, NCP_HA_TUNING };
enum { NCP_HB_IGNORE, NCP_HB_EINVAL, NCP_HB_FALLBACK };

/* NCP_HINT_<field>: a row's index in the table. */
typedef enum ncp_hint_id {
#define NCP_HINT(field, ...) NCP_HINT_##field,
#define NCP_HINT_STR(field, ...) NCP_HINT_##field,
#include "hint_table.def"
#undef NCP_HINT
#undef NCP_HINT_STR
    NCP_HINT_COUNT
} ncp_hint_id;

/*
 * Every numeric hint's value, by the table's field names: an enum's is
 * the index of its word, an integer's a named word's is minus the word's
 * index.  All fields are int64_t, so rank 0's copy travels as bytes.
 * safe_mode is PNETCDF_SAFE_MODE and profile NCPARIO_PROFILE=1 (print
 * the profile at close), both read at each create and open.
 */
typedef struct ncp_hints {
#define NCP_HINT(field, ...) int64_t field;
#define NCP_HINT_STR(field, ...)
#include "hint_table.def"
#undef NCP_HINT
#undef NCP_HINT_STR
    int64_t safe_mode;
    int64_t profile;
} ncp_hints;

/* The default of nc_header_read_chunk_size: open reads the header in
 * chunks of this size. */
#define NCP_HEADER_READ_CHUNK (256 * 1024)

/* nc_in_place_swap's words, in the table's order. */
#define NCP_SWAP_AUTO 0
#define NCP_SWAP_ENABLE 1
#define NCP_SWAP_DISABLE 2

/* Write-behind's staging budget where no hint gives one. */
#define NCP_WRITE_BEHIND_SIZE ((int64_t)256 << 20)
/* The budget in effect: nc_write_behind_size, else
 * nc_burst_buf_flush_buffer_size, else NCP_WRITE_BEHIND_SIZE. */
int64_t ncp_hints_behind_size(const ncp_hints *h);

/* Every field at the table's default. */
void ncp_hints_defaults(ncp_hints *h);

/*
 * The rows of the owners in `owners` (NCP_HO_* or'ed) from info (may be
 * MPI_INFO_NULL) into h; absent keys leave h's fields as they are.  With
 * strict, a bad value of an NCP_HB_EINVAL row is NC_EINVAL with a message
 * on stderr; without, it too leaves the field.  Reading NCP_HO_GROUP also
 * settles nc_num_aggrs_per_node into nc_io_group_per_node, and with
 * strict refuses group hints that contradict each other.
 */
int ncp_hints_read(MPI_Info info, unsigned owners, int strict, ncp_hints *h);

/* A string row's value: 1 and val filled (MPI_MAX_INFO_VAL + 1 bytes)
 * when info holds the key, else 0. */
int ncp_hints_get_string(MPI_Info info, ncp_hint_id id, char *val);

/* A row's key. */
const char *ncp_hints_key(ncp_hint_id id);

/*
 * At create or open: *h from the user's info (may be MPI_INFO_NULL) and
 * the environment, the dataset's rows read, every other row at its
 * default.  *mpi_info is a new info object (caller frees) holding every
 * user and environment key.  PNETCDF_SAFE_MODE and NCPARIO_PROFILE
 * are read here too.
 */
int ncp_hints_parse(MPI_Info user, ncp_hints *h, MPI_Info *mpi_info);

/* Collective, once the file is open with mpi_info: the I/O layers' rows
 * as in effect (rank 0's, which the drivers follow), so that
 * ncp_hints_report tells them. */
void ncp_hints_settle(ncp_hints *h, MPI_Info mpi_info, MPI_Comm comm);

/* Add to info every numeric row with the value in effect (the alignments
 * as resolved at enddef), so ncmpi_inq_file_info reports them.  String
 * rows are their owners' to report. */
int ncp_hints_report(const ncp_hints *h, int64_t header_align,
                     int64_t var_align, int64_t record_align, MPI_Info info);

#endif
