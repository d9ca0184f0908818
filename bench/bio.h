/*
 * bio.h -- the benchmark I/O layer: one small interface over which the
 * suite's pattern programs (flash_io, btio, mom_io, pflotran_io, coll_io)
 * are written once, and five backends that implement it:
 *
 *   bio_pnc.c    the PnetCDF C API; built twice, against ncpario
 *                (backend name "ncpario") and against Debian's PnetCDF
 *                ("pnetcdf");
 *   bio_hdf5.c   parallel HDF5, one dataset per variable, MPI-IO driver;
 *   bio_mpiio.c  raw MPI-IO: the same bytes as a netCDF file's data
 *                section (no header), with MPI_File_write_at_all;
 *   bio_fpp.c    file per process: each rank write()s its own bytes to
 *                its own file.
 *
 * A pattern program links exactly one backend, so each (pattern, backend)
 * pair is its own executable built from the same pattern source.
 *
 * The model is netCDF's: a schema of variables of int, float or double,
 * each an N-d array whose first dimension may be the unlimited (record)
 * one, and requests that each move one subarray of one variable between
 * the file and a subarray of a memory array. Everything here is
 * collective over the communicator given at create/open unless it says
 * otherwise.
 */
#ifndef NCPARIO_BENCH_BIO_H
#define NCPARIO_BENCH_BIO_H

#include <mpi.h>
#include <stddef.h>
#include <stdint.h>

enum {
    BIO_MAX_DIMS = 6,   /* of a variable; memory arrays may have one more */
    BIO_NAME_LEN = 32
};

/* Return codes of every bio_* call that can fail. */
enum bio_code {
    BIO_OK = 0,
    BIO_ENOTSUP = -1, /* the backend has no such method */
    BIO_EINVAL = -2,  /* a bad schema or request */
    BIO_ENOMEM = -3,
    BIO_EIO = -4      /* the library or the OS failed; see bio_last_error */
};

enum bio_type { BIO_INT, BIO_FLOAT, BIO_DOUBLE };

/* How a bio_write/bio_read moves its list of requests:
 *   BIO_PERVAR    one collective call per request, in list order (every
 *                 rank passes the same number of requests for the same
 *                 variables in the same order; a request may be empty);
 *   BIO_COMBINED  all requests in one go: PnetCDF-API backends post one
 *                 nonblocking call per request and wait_all; raw MPI-IO
 *                 makes one MPI_File_write_at_all over a file view of all
 *                 extents in file order; file per process makes one
 *                 writev/readv; HDF5 1.10 has no multi-dataset call, so
 *                 it answers BIO_ENOTSUP;
 *   BIO_INDEP     one independent call per request (ranks may differ in
 *                 their number of requests). */
enum bio_method { BIO_PERVAR, BIO_COMBINED, BIO_INDEP, BIO_NMETHODS };

struct bio_var {
    char name[BIO_NAME_LEN];
    enum bio_type type;
    int ndims;
    /* shape[0] == 0 marks a record variable: its first dimension is the
     * unlimited one, shared by every record variable. */
    int64_t shape[BIO_MAX_DIMS];
    /* Dimension names for the netCDF and HDF5 files; the same name in two
     * variables must mean the same length. */
    char dim[BIO_MAX_DIMS][BIO_NAME_LEN];
};

struct bio_schema {
    int nvars;
    const struct bio_var *vars;
    /* Records the run will write (HDF5 sizes its record datasets with
     * it up front; the other backends ignore it). */
    int64_t nrecs;
};

/* One subarray of variable `var`: file side start/count (ndims of the
 * variable, the record index first for a record variable); memory side
 * the subarray mstart/mcount of the row-major array mshape (mndims
 * dimensions, at most BIO_MAX_DIMS + 1) at buf, in the variable's type
 * and native byte order. The two sides hold the same number of elements
 * and pair them in row-major order. A contiguous buffer is mndims =
 * ndims, mshape = mcount = count, mstart = 0: bio_req_contig sets that. */
struct bio_req {
    int var;
    int64_t start[BIO_MAX_DIMS];
    int64_t count[BIO_MAX_DIMS];
    void *buf;
    int mndims;
    int64_t mshape[BIO_MAX_DIMS + 1];
    int64_t mstart[BIO_MAX_DIMS + 1];
    int64_t mcount[BIO_MAX_DIMS + 1];
};

struct bio_file;

/* ---------------------------------------------- implemented per backend */

/* "ncpario", "pnetcdf", "hdf5", "mpiio" or "fpp". */
const char *bio_backend_name(void);

/* 1 when the backend implements method m. */
int bio_supports(enum bio_method m);

/* The path the backend uses for a file of stem `stem` (it appends its
 * own suffix: .nc, .h5, .mpiio, or .fpp.<rank> for file per process). */
void bio_path(const char *stem, int rank, char *out, size_t outsz);

/* Creates (truncating) and defines every variable of the schema; returns
 * with the file ready for bio_write. `format` is 1, 2 or 5 for the
 * netCDF backends and ignored by the others. info may be MPI_INFO_NULL;
 * it reaches MPI_File_open (or the HDF5 MPI-IO driver). */
int bio_create(MPI_Comm comm, const char *stem, const struct bio_schema *s,
               int format, MPI_Info info, struct bio_file **out);

/* Opens an existing file of the same schema for bio_read. */
int bio_open(MPI_Comm comm, const char *stem, const struct bio_schema *s,
             MPI_Info info, struct bio_file **out);

int bio_write(struct bio_file *f, const struct bio_req *reqs, int nreqs,
              enum bio_method m);
int bio_read(struct bio_file *f, const struct bio_req *reqs, int nreqs,
             enum bio_method m);

/* Closes and frees f (also after an error). */
int bio_close(struct bio_file *f);

/* Text of the last BIO_EIO on this rank (the library's message). */
const char *bio_last_error(void);

/* ------------------------------------ shared helpers (bio_common.c) */

size_t bio_type_size(enum bio_type t);
MPI_Datatype bio_mpi_type(enum bio_type t);
const char *bio_method_name(enum bio_method m);
/* "pervar" / "combined" / "indep" -> 1 and *m, else 0. */
int bio_method_parse(const char *s, enum bio_method *m);
const char *bio_strerror(int code);

/* A contiguous request: memory is a dense array of shape count. */
void bio_req_contig(struct bio_req *r, int var, int ndims,
                    const int64_t *start, const int64_t *count, void *buf);

/* Elements of the request, and its bytes in the variable's type. */
int64_t bio_req_elems(const struct bio_var *v, const struct bio_req *r);

/* Checks a request against the schema: var index, ndims, the file box
 * inside the fixed dimensions, the memory box inside mshape, equal
 * element counts. BIO_OK or BIO_EINVAL. */
int bio_req_check(const struct bio_schema *s, const struct bio_req *r);

/* The memory side as an MPI subarray datatype (committed; free it with
 * MPI_Type_free). BIO_EINVAL when a size does not fit an int. */
int bio_req_memtype(const struct bio_schema *s, const struct bio_req *r,
                    MPI_Datatype *out);

/* Bytes of one record of all record variables together (the netCDF
 * record size without alignment padding), and where each variable starts
 * in the data section of the raw layout used by bio_mpiio.c: fixed
 * variables back to back in schema order, then the records, each holding
 * every record variable's slab in schema order. off[v] for a record
 * variable is its offset within a record. Returns the size of the fixed
 * part. */
int64_t bio_raw_layout(const struct bio_schema *s, int64_t *off,
                       int64_t *recsize);

/* The MPI-IO hints the suite runner passes to every library: an MPI_Info
 * of the "key=value;key=value" pairs in the environment variable
 * NCPARIO_BENCH_HINTS, or MPI_INFO_NULL when it is unset or empty. A pair
 * without '=' is skipped with a warning on stderr. Free with
 * bio_env_info_free. */
MPI_Info bio_env_info(void);
void bio_env_info_free(MPI_Info *info);

/* ------------------------------ timing and reports (bio_common.c) */

/* Barrier, then MPI_Wtime: the start of a timed phase. */
double bio_phase_start(MPI_Comm comm);
/* The slowest rank's time since t0 (collective). */
double bio_phase_end(MPI_Comm comm, double t0);

/* One machine-readable result line on stdout, read by bench/suite.py:
 *   csv,<bench>,<lib>,<case>,<method>,<nprocs>,<phase>,<bytes>,
 *   <median_s>,<min_s>,<max_s>,<MiB/s at the median>
 * over the n repetition times t (t is reordered). bench, case and
 * method must not contain commas. */
void bio_report(const char *bench, const char *casename,
                const char *method, int nprocs, const char *phase,
                int64_t bytes, double *t, int n);

/* --------------------------- one timed write + read (bio_common.c) */

/* The phases of one repetition, in order. */
enum bio_phase {
    BIO_OPEN_W,  /* bio_create: create + define */
    BIO_WRITE,   /* every step's bio_write */
    BIO_CLOSE_W,
    BIO_OPEN_R,  /* bio_open */
    BIO_READ,    /* every step's bio_read */
    BIO_CLOSE_R,
    BIO_NPHASES
};
/* "open_w", "write", "close_w", "open_r", "read", "close_r". */
const char *bio_phase_name(enum bio_phase p);

/* What one rank writes and then reads back in one step (a record, a
 * dump); a pattern with one step has one. */
struct bio_step {
    const struct bio_req *wreqs;
    int nwreqs;
    const struct bio_req *rreqs;
    int nrreqs;
};

struct bio_job {
    MPI_Comm comm;
    const char *stem;
    const struct bio_schema *schema;
    int format;     /* 1, 2 or 5 (netCDF backends) */
    MPI_Info info;
    int nsteps;
    const struct bio_step *steps;
};

/* Creates the file, writes every step with method m, closes; opens it,
 * reads every step with m, closes. t[p] is the slowest rank's time of
 * phase p. Every rank returns the same code: the first failure on any
 * rank stops the job after closing what is open. The caller checks the
 * values read. */
int bio_run_job(const struct bio_job *j, enum bio_method m,
                double t[BIO_NPHASES]);

/* bio_report lines for every phase of reps repetitions (t[rep][phase]),
 * plus "total_w" (open_w + write + close_w) and "total_r"; bytes is the
 * payload of all ranks written (and read) per repetition. */
void bio_report_job(const char *bench, const char *casename,
                    const char *method, int nprocs, int64_t bytes,
                    double (*t)[BIO_NPHASES], int reps);

#endif
