/*
 * ncp_hints.h -- ncpario's hints: the nc_* keys it interprets itself, read
 * from the user's MPI_Info and from the PNETCDF_HINTS environment variable
 * ("key=value;key=value", which wins over MPI_Info, as in PnetCDF), and the
 * MPI_Info handed on to MPI-IO with every key passed through.
 *
 * This is the only place that reads the environment.
 */
#ifndef NCP_HINTS_H
#define NCP_HINTS_H

#include <mpi.h>
#include <stdint.h>

typedef struct ncp_hints {
    int64_t header_align; /* nc_header_align_size, -1 when unset */
    int64_t var_align;    /* nc_var_align_size, -1 when unset */
    int64_t record_align; /* nc_record_align_size, -1 when unset */
    int in_place_swap;    /* nc_in_place_swap: NCP_SWAP_AUTO/ENABLE/DISABLE */
    int64_t ibuf_size;    /* nc_ibuf_size: accepted and reported, unused */
    int safe_mode;        /* PNETCDF_SAFE_MODE is set to a nonzero integer */
} ncp_hints;

/* The header is first read in chunks of this size (nc_header_read_chunk_size
 * as PnetCDF reports it; ncpario does not take it as a hint). */
#define NCP_HEADER_READ_CHUNK (256 * 1024)
/* nc_ibuf_size's default, as PnetCDF reports it. */
#define NCP_IBUF_SIZE_DEFAULT ((int64_t)16 << 20)

/* nc_in_place_swap: may a put byte-swap the user's buffer in place (and
 * swap it back after the write) instead of copying it?  auto: only when
 * the request is large (small constant arrays may sit in read-only
 * memory); enable: always; disable: never. */
#define NCP_SWAP_AUTO 0
#define NCP_SWAP_ENABLE 1
#define NCP_SWAP_DISABLE 2

/*
 * Parse user (may be MPI_INFO_NULL) and the environment.  *mpi_info is a
 * new info object (caller frees) holding every user and environment key.
 * A malformed or non-positive value of an nc_* key leaves it unset, as in
 * PnetCDF.  Keys of PnetCDF's that ncpario does not act on pass through:
 * nc_num_aggrs_per_node (PnetCDF 1.14's intra-node aggregation; ncpario's
 * posix driver aggregates within a node by itself, see
 * nc_posix_aggrs_per_node), nc_ibuf_size and the subfiling keys.
 * PNETCDF_SAFE_MODE is read here too, once per create or open, as PnetCDF
 * reads it.
 */
int ncp_hints_parse(MPI_Info user, ncp_hints *h, MPI_Info *mpi_info);

/*
 * The integer hint key of info (may be MPI_INFO_NULL), for the I/O
 * drivers' own hints: *out keeps its default when the key is absent; a
 * value that is not an integer in 1..max is NC_EINVAL, with a message on
 * stderr, since these hints size memory and choose writers and a typo
 * must not pass silently.
 */
int ncp_hints_get_int(MPI_Info info, const char *key, int64_t max,
                      int64_t *out);

/* A hint of the I/O drivers naming one of names[] (NULL-terminated):
 * *out is its index, or keeps its default when the key is absent; any
 * other value is NC_EINVAL, with a message on stderr, as for
 * ncp_hints_get_int. */
int ncp_hints_get_choice(MPI_Info info, const char *key,
                         const char *const *names, int *out);

/* Add to info every hint PnetCDF reports, with the value in effect here
 * (the alignments as resolved at enddef), so ncmpi_inq_file_info reports
 * them. */
int ncp_hints_report(const ncp_hints *h, int64_t header_align,
                     int64_t var_align, int64_t record_align, MPI_Info info);

#endif
