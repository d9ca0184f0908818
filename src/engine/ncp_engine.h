/*
 * ncp_engine.h -- from validated requests to one MPI-IO call.
 *
 * Every data call becomes one or more ops (ncp_op: a variable, a subarray,
 * the user's buffer and, for puts, the external bytes).  A blocking call
 * builds its ops and flushes them at once; iput/iget/bput queue them on the
 * dataset until wait/wait_all; mput and varn build several and flush them
 * together.  A flush (flush.c) merges the ops' file extents in file order
 * and moves all puts in ONE MPI-IO write and all gets in ONE read.
 */
#ifndef NCP_ENGINE_H
#define NCP_ENGINE_H

#include <mpi.h>
#include <stdint.h>

#include "../access/ncp_access.h"
#include "../dataset/ncp_dataset.h"
#include "ncp_entry.h"

/* The user's buffer as the engine sees it. */
typedef struct ncp_membuf {
    void *user;
    int mtype;            /* ncp_mtype of each element */
    int contiguous;       /* elements lie back to back from user */
    MPI_Datatype buftype; /* flexible noncontiguous: pack with this */
    int64_t count;        /* ... this many times */
    int owns_type;        /* buftype is our duplicate, freed with the op */
} ncp_membuf;

int ncp_membuf_describe(const ncp_data_args *a, int var_xtype,
                        int64_t nelems, ncp_membuf *m);
int ncp_membuf_pack(const ncp_membuf *m, MPI_Comm comm, void *contig,
                    int64_t nbytes);
int ncp_membuf_unpack(const ncp_membuf *m, MPI_Comm comm, const void *contig,
                      int64_t nbytes);

/* How an op's external bytes relate to the user's buffer. */
typedef enum ncp_op_buf {
    NCP_OPBUF_OWN = 0,  /* xbuf is ours: converted (put) or to decode (get) */
    NCP_OPBUF_DIRECT,   /* xbuf is the user's buffer, bytes used as they are */
    NCP_OPBUF_SWAP      /* the user's buffer, byte-swapped around the I/O */
} ncp_op_buf;

typedef struct ncp_op {
    int id;           /* request id; the ops of one varn share it */
    int is_put;
    int is_bput;      /* xbuf was charged to the attached buffer */
    int varid;
    ncp_req req;      /* validated coordinates (req.var re-resolved at flush) */
    ncp_membuf mem;
    int xsz;
    ncp_op_buf buf;
    void *xbuf;       /* external bytes, xbytes long */
    int64_t xbytes;
    void *tmp;        /* get: memory-type staging for pack/imap/convert */
    int raw;          /* own get whose external elements are the memory
                         type's but for byte order (only the caller's
                         layout made it own): 1 + the width to reverse
                         (1: none), unpacked from xbuf itself; 0: converted */
    int status;       /* NC_ERANGE from conversion, or the op's error */
    void *group;      /* varn get of a packed flexible buffer: owner of the
                         packed image, unpacked when the last op finishes */
    int held;         /* held by indep.c: counted in put_bytes already */
} ncp_op;

/* Which kind of call built the ops (for NCP_OPBUF choices and errors). */
typedef enum ncp_post_kind {
    NCP_POST_BLOCKING = 0,
    NCP_POST_NB,      /* iput / iget */
    NCP_POST_BPUT
} ncp_post_kind;

/* Validate a and build its op(s): one, or a.num for varn.  On error
 * nothing is built.  *ops is malloc'ed; *nops is how many. */
int ncp_ops_build(struct ncp_dataset *ds, const ncp_data_args *a,
                  ncp_post_kind kind, ncp_op **ops, int *nops);
void ncp_op_free(struct ncp_dataset *ds, ncp_op *op);

/* A request's own buffer (xbuf, tmp and staging), from and back to the
 * dataset's kept buffers (nc_kept_buffer_size). */
void *ncp_op_mem(struct ncp_dataset *ds, int64_t nbytes);
void ncp_op_mem_free(struct ncp_dataset *ds, void *p);

/*
 * Move the bytes of n ops: every put in one MPI-IO write, then every get
 * in one read.  collective: all ranks of the dataset call, with any n
 * (including 0).  dirs: NCP_FLUSH_PUTS / NCP_FLUSH_GETS when the caller
 * knows every rank moves that direction (a blocking call); 0 makes a
 * collective flush agree first (one allreduce).  Sets each op's status,
 * grows numrecs for record puts (agreed when collective, unless
 * NCP_FLUSH_NUMRECS_LATER leaves that to the caller's own agreement) and
 * returns the first error not an op's own (I/O, memory).
 */
#define NCP_FLUSH_PUTS 1
#define NCP_FLUSH_GETS 2
#define NCP_FLUSH_NUMRECS_LATER 4
int ncp_ops_flush(struct ncp_dataset *ds, ncp_op **ops, int n,
                  int collective, int dirs);

/* The in-place swaps of one direction of a flush (swapset.c): regions of
 * user memory, overlapping buffers joined so that each byte is swapped
 * once. */
typedef struct ncp_swap_region {
    char *at;
    int64_t len;
    int width;
} ncp_swap_region;

typedef struct ncp_swapset {
    ncp_swap_region *r;
    int64_t n;
} ncp_swapset;

/* The ops (all puts or all gets, in posting order) whose user buffers
 * overlap are sorted out: a put whose shared memory cannot be swapped as
 * one region (other element widths or grids) gets a swapped copy of its
 * bytes, and of gets into shared memory all but the first posted read
 * into a buffer of their own (NCP_OPBUF_OWN, made at the flush; a put's
 * copy from ds's kept buffers).  set gets the regions to swap in place
 * (none when the driver swaps: deferred).  On failure (NC_ENOMEM) the set
 * is empty. */
int ncp_swapset_build(struct ncp_dataset *ds, ncp_op **ops, int n,
                      int is_write, int deferred, ncp_swapset *set);
/* Swap every region in place: before a put and again after it, after a
 * get. */
void ncp_swapset_apply(const ncp_swapset *set);
void ncp_swapset_free(ncp_swapset *set);

/*
 * Independent puts (blocking, or completed by an independent wait) held
 * until a collective point (indep.c).
 * take: hold the n ops of one call or wait, if all are puts (copying
 * bytes the caller owns), when nc_indep_buffer_size allows, first writing
 * the held ones alone when these would overflow it; *taken 0 leaves the
 * ops to the caller, who moves them at once.  Returns the error of that
 * early write.
 * drain: write every held op, collectively (every rank calls, with or
 * without held ops) or alone; returns the first error.  settle:
 * collective, the drain of the points that end or publish independent
 * mode (sync, sync_numrecs, flush, end_indep_data, redef, close,
 * abort); nothing outside independent data mode.
 */
int ncp_indep_take(struct ncp_dataset *ds, ncp_op **ops, int n, int *taken);
int ncp_indep_drain(struct ncp_dataset *ds, int collective);
int ncp_indep_settle(int ncid);

/* Memory kept from one dataset for the next (keep.c).  keep_for_next:
 * after the last settle of a dataset (close, abort), its arena, buffers
 * and flush lists are kept for the next one (those kept before freed),
 * freed at MPI_Finalize.  arena_get: an arena of size bytes for held
 * puts, the kept one when its size matches; NULL without memory.
 * kept_bufs_adopt, kept_lists_adopt: a dataset's empty cache or lists
 * take the kept ones. */
void ncp_keep_for_next(int ncid);
char *ncp_arena_get(int64_t size);
void ncp_kept_bufs_adopt(ncp_bufcache *bufs);
void ncp_kept_lists_adopt(ncp_flush_keep *lists);

/* The dataset's queue of posted ops (ncp_queue, ncp_dataset.h): drop every
 * pending op, as close and abort do; returns how many requests there were
 * (0 for an ncid that names no open dataset). */
int ncp_queue_discard(int ncid);

/* The services behind the queue's and the bput buffer's public calls,
 * found by src/api/entry.c (ncp_eng_entries.def lists them). */
#define NCP_ENG(name, params, args) \
    int ncp_eng_##name(ncp_dataset *ds, NCP_UNPACK params);
#define NCP_ENG0(name) int ncp_eng_##name(ncp_dataset *ds);
#include "ncp_eng_entries.def"
#undef NCP_ENG
#undef NCP_ENG0

#endif
