/*
 * bio.h -- the benchmark I/O layer: one small interface over which the
 * suite's pattern programs (flash_io, btio, mom_io, pflotran_io, coll_io,
 * part2d)
 * are written once, and five backends that implement it:
 *
 *   bio_pnc.c    the PnetCDF C API; built twice, against ncpario
 *                (backend name "ncpario") and against Debian's PnetCDF
 *                ("pnetcdf");
 *   bio_hdf5.c   parallel HDF5, one dataset per variable, MPI-IO driver;
 *   bio_mpiio.c  raw MPI-IO: a netCDF file's data section laid out the
 *                same way but in native byte order (no header, no
 *                swap), with MPI_File_write_at_all;
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
#include <stdio.h>

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

/* From 1, so that a zeroed bio_req's mtype (0) means "the variable's". */
enum bio_type { BIO_INT = 1, BIO_FLOAT, BIO_DOUBLE };

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
 * variable, the record index first for a record variable), element i of
 * dimension d at start[d] + i * stride[d]; memory side the subarray
 * mstart/mcount of the row-major array mshape (mndims dimensions, at most
 * BIO_MAX_DIMS + 1) at buf, in native byte order. The two sides hold the
 * same number of elements and pair them in row-major order. A contiguous
 * buffer is mndims = ndims, mshape = mcount = count, mstart = 0:
 * bio_req_contig sets that.
 *
 * The fields a zeroed request leaves 0 mean the plain case: stride 0 is
 * 1 (adjacent elements); mtype 0 is the variable's own type. Any other
 * mtype is the type of the memory elements, converted to and from the
 * variable's on the way, as netCDF's typed calls do. */
struct bio_req {
    int var;
    int64_t start[BIO_MAX_DIMS];
    int64_t count[BIO_MAX_DIMS];
    int64_t stride[BIO_MAX_DIMS];
    enum bio_type mtype;
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
 * (strides >= 0) inside the fixed dimensions, the memory box inside
 * mshape, equal element counts, a known mtype. BIO_OK or BIO_EINVAL. */
int bio_req_check(const struct bio_schema *s, const struct bio_req *r);

/* The file-side step of dimension d (1 for a stride of 0), and 1 when
 * some dimension of r steps by more than one element. */
int64_t bio_req_stride(const struct bio_req *r, int d);
int bio_req_strided(const struct bio_var *v, const struct bio_req *r);

/* The type of r's memory elements: mtype, or the variable's when 0. */
enum bio_type bio_req_mtype(const struct bio_schema *s,
                            const struct bio_req *r);

/* The memory side as an MPI subarray datatype of the memory type
 * (committed; free it with MPI_Type_free). BIO_EINVAL when a size does
 * not fit an int. */
int bio_req_memtype(const struct bio_schema *s, const struct bio_req *r,
                    MPI_Datatype *out);

/* 1 when the memory side is the whole array mshape (mstart 0, mcount
 * mshape): the bytes lie at buf in file order, with no copy needed. */
int bio_req_dense(const struct bio_req *r);

/* Copies the memory box of r between the user's array and `packed`, which
 * holds its elems elements of esize bytes back to back: a gather before
 * writing (to_packed) or a scatter after reading, one innermost row at a
 * time. For backends whose I/O calls take one contiguous buffer. */
void bio_req_pack(const struct bio_req *r, size_t esize, char *packed,
                  int64_t elems, int to_packed);

/* bio_req_pack for a request whose memory type may differ from its
 * variable's: `packed` holds the elements in the variable's type, each
 * converted on the way (for backends that cannot convert). */
void bio_req_pack_conv(const struct bio_schema *s, const struct bio_req *r,
                       char *packed, int to_packed);

/* 1 when r's bytes cannot go between memory and file as they are: the
 * memory side is strided or of another type than the variable. */
int bio_req_needs_stage(const struct bio_schema *s, const struct bio_req *r);

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

/* -------------------- what every pattern program shares (bio_common.c) */

/* A comma list of method names ("pervar,indep") into list, in the order
 * given (at most BIO_NMETHODS). 1 and *n set; 0 when a name is unknown or
 * repeated, or there is none. */
int bio_parse_methods(const char *arg, enum bio_method *list, int *n);

/* The same list read as a set, for the programs that run their methods
 * in enum order whatever the order asked for: repeats allowed, list in
 * enum order. */
int bio_parse_method_set(const char *arg, enum bio_method *list, int *n);

/* The usage lines of -m (as bio_parse_methods reads it, or with as_set
 * as bio_parse_method_set does) and of bench_parse_options' options, -c's
 * naming prog's csv lines; cases, when not NULL, follows in parentheses.
 * Every pattern program takes these, so they read the same in each. */
void bio_usage_common(FILE *to, const char *prog, int as_set,
                      const char *cases);

/* The methods to run: list[0..*n), each of which the backend must
 * support, or every method it supports (in enum order) when *n is 0.
 * 1, or 0 after a message on rank 0 (prog names the program). */
int bio_choose_methods(const char *prog, enum bio_method *list, int *n,
                       int rank);

/* The worst code over the ranks of comm (codes are <= 0, so the minimum):
 * every rank returns the same, so that all take the same path on. */
int bio_agree(MPI_Comm comm, int code);

/* "<dir>/<prog>.<backend>.<rank 0's pid>" into out: the stem every file
 * of a run starts with, the same on all ranks and unique to the run.
 * Collective over MPI_COMM_WORLD; 1, or 0 after a message on rank 0 when
 * it does not fit outsz. */
int bio_file_base(const char *prog, const char *dir, char *out,
                  size_t outsz);

/* 1 when all ranks' paths of one stem are one file (every backend but
 * file per process); bio_path is the only thing that knows. */
int bio_shared_file(void);

/* Removes the file(s) of stem: a shared file by rank 0 alone (the others
 * do nothing), else the file bio_path names for `rank`. A file that is
 * not there is no error; any other failure is reported on stderr. */
void bio_remove(const char *stem, int rank);

/* A failed job's message on stderr: each rank's library text for BIO_EIO,
 * then rank 0's "<prog>: FAILED: <what>: ..." line. */
void bio_report_failure(const char *prog, int rank, int err,
                        const char *what);

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

/* One side of bio_run_job, for a program that times only one: create,
 * write every step, close (t[0..2] = open_w, write, close_w), or with
 * reading open, read every step, close (open_r, read, close_r). The same
 * promises. */
int bio_run_side(const struct bio_job *j, enum bio_method m, int reading,
                 double t[3]);

/* The columns of a repetition's times: the phases, then each side's sum
 * ("total_w" = open_w + write + close_w, "total_r" likewise). */
enum { BIO_TOTAL_W = BIO_NPHASES, BIO_TOTAL_R, BIO_NCOLUMNS };

/* The median of column c over reps repetitions t[rep][phase], with
 * scratch room for reps doubles (the caller allocates it once for all its
 * medians). */
double bio_median(double (*t)[BIO_NPHASES], int reps, int c,
                  double *scratch);

/* bio_report lines for every column of reps repetitions (t[rep][phase]),
 * every repetition counted; bytes is the payload of all ranks written
 * (and read) per repetition. reads_only (a run that timed only the
 * reading): open_r, read, close_r and total_r alone. BIO_OK, or
 * BIO_ENOMEM after a message on stderr and before any line. */
int bio_report_job(const char *bench, const char *casename,
                   const char *method, int nprocs, int64_t bytes,
                   double (*t)[BIO_NPHASES], int reps, int reads_only);

/* ----------------------------- the repetitions (bio_common.c) */

struct bench_opts; /* bench_common.h */

/* A pattern program whose methods each time one write + read per
 * repetition, for bio_bench_run. Everything is collective over
 * MPI_COMM_WORLD. */
struct bio_bench {
    const char *prog;           /* the csv's bench field */
    const char *casename;
    int rank, nprocs;
    int64_t bytes;              /* payload of all ranks per rep and side */
    const enum bio_method *methods;
    int nmethods;
    const struct bench_opts *opts;  /* reps, warmup, quiet, csv */
    /* Columns and MiB/s of the human rows read side first: for a program
     * that reads its input before writing its output. */
    int read_first;
    /* What the "verify  OK:" line claims; NULL: "every value read back
     * as written". */
    const char *verified;
    /* One method, one repetition (rep <= 0: a warm-up; the timed ones are
     * 1..reps): the phase times into t; 0, or the exit status after a
     * message (every rank the same). */
    int (*run)(void *ctx, enum bio_method m, int rep,
               double t[BIO_NPHASES]);
    void *ctx;
};

/* The warm-ups, then the timed repetitions, the methods taking turns
 * within each and the first one rotating from one to the next. Unless
 * quiet, rank 0 prints the column heads, a row per method and timed
 * repetition, then the median rows and the verify line; with csv, the
 * bio_report_job lines. 0, the run callback's first nonzero status (the
 * run stops there), or 1 after a message when memory runs out. */
int bio_bench_run(const struct bio_bench *b);

#endif
