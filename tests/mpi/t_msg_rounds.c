/* ncp-test: NO_PNETCDF_CMP NO_CDL RANKS 1 2 4 */
/* t_msg_rounds -- the posix driver's aggregated write by message
 * (nc_posix_shm=disable) takes one collective a round.  Windows of 1000
 * bytes (nc_posix_buffer_size=1000) make one call of about 3 MB take
 * some 3000 rounds, more than one batch of counts holds at 2 and 4
 * ranks (4096 / ranks rounds).  This program counts, through the MPI
 * profiling interface, the collectives the library calls during each
 * call: one MPI_Alltoallw a round, one MPI_Alltoallv of counts a batch,
 * and only a few more a batch or a call.  Three calls cover the three
 * ways a message is built: bytes straight from one buffer, bytes from
 * several buffers (one message, several memory blocks), and ints that
 * need a byte swap (packed swapped first).  Every value is read back.
 *
 * Counting assumes the library resolves MPI_* to this program's
 * definitions; a first check makes sure it does, so a build where it
 * does not fails loudly instead of passing without counting.
 */
#define _POSIX_C_SOURCE 200809L /* unsetenv */
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "hintutil.h"

#include "have_ncpario.h"

#define NB 3000000 /* bytes of the byte variables */
#define NI 750000  /* ints of the int variable */
#define NPART 3    /* buffers a rank's slice of "pieces" comes from */

/* Collectives seen, counted only while counting is on. */
static int counting;
static long long n_alltoallw, n_alltoallv, n_collectives;

static void seen(long long *which)
{
    if (!counting) return;
    if (which) (*which)++;
    n_collectives++;
}

int MPI_Alltoallw(const void *sb, const int sc[], const int sd[],
                  const MPI_Datatype st[], void *rb, const int rc[],
                  const int rd[], const MPI_Datatype rt[], MPI_Comm comm)
{
    seen(&n_alltoallw);
    return PMPI_Alltoallw(sb, sc, sd, st, rb, rc, rd, rt, comm);
}

int MPI_Alltoallv(const void *sb, const int sc[], const int sd[],
                  MPI_Datatype st, void *rb, const int rc[], const int rd[],
                  MPI_Datatype rt, MPI_Comm comm)
{
    seen(&n_alltoallv);
    return PMPI_Alltoallv(sb, sc, sd, st, rb, rc, rd, rt, comm);
}

int MPI_Alltoall(const void *sb, int sc, MPI_Datatype st, void *rb, int rc,
                 MPI_Datatype rt, MPI_Comm comm)
{
    seen(NULL);
    return PMPI_Alltoall(sb, sc, st, rb, rc, rt, comm);
}

int MPI_Allreduce(const void *sb, void *rb, int n, MPI_Datatype t, MPI_Op op,
                  MPI_Comm comm)
{
    seen(NULL);
    return PMPI_Allreduce(sb, rb, n, t, op, comm);
}

int MPI_Bcast(void *b, int n, MPI_Datatype t, int root, MPI_Comm comm)
{
    seen(NULL);
    return PMPI_Bcast(b, n, t, root, comm);
}

int MPI_Barrier(MPI_Comm comm)
{
    seen(NULL);
    return PMPI_Barrier(comm);
}

int MPI_Allgather(const void *sb, int sc, MPI_Datatype st, void *rb, int rc,
                  MPI_Datatype rt, MPI_Comm comm)
{
    seen(NULL);
    return PMPI_Allgather(sb, sc, st, rb, rc, rt, comm);
}

static signed char byte_at(MPI_Offset i)
{
    return (signed char)(i * 13 % 241);
}

static int int_at(MPI_Offset i)
{
    return (int)(i * 2654435761u % 1000003u) - 7;
}

static long long rounds_so_far(int nc)
{
#ifdef HAVE_NCPARIO
    ncpario_profile prof;
    CHECK_ERR(ncpario_inq_profile(nc, &prof));
    return prof.driver_rounds_write;
#else
    (void)nc;
    return 0;
#endif
}

/* Start counting the collectives of one call; returns the rounds so
 * far. */
static long long count_on(int nc)
{
    long long before = rounds_so_far(nc);
    MPI_Barrier(MPI_COMM_WORLD);
    n_alltoallw = n_alltoallv = n_collectives = 0;
    counting = 1;
    return before;
}

/* Stop counting, and check the call's collectives against its rounds
 * (those since count_on's before): one MPI_Alltoallw a round, an
 * MPI_Alltoallv a batch of rounds, and at most a few more a batch and a
 * call. */
static void count_off(int nc, const char *what, long long before)
{
    long long room = 4096 / tu_nranks, rounds, batches;
    counting = 0;
    rounds = rounds_so_far(nc) - before;
    batches = (rounds + room - 1) / room;
#ifdef HAVE_NCPARIO
    if (tu_nranks == 1) { /* every rank writes its own bytes */
        CHECKF(rounds == 0 && n_alltoallw == 0,
               "%s: %lld rounds, %lld alltoallw at one rank", what, rounds,
               n_alltoallw);
        return;
    }
    CHECKF(rounds > room, "%s: %lld rounds, not more than a batch (%lld)",
           what, rounds, room);
    CHECKF(n_alltoallw == rounds, "%s: %lld alltoallw for %lld rounds", what,
           n_alltoallw, rounds);
    CHECKF(n_alltoallv == batches, "%s: %lld alltoallv for %lld batches",
           what, n_alltoallv, batches);
    CHECKF(n_collectives <= rounds + 2 * batches + 8,
           "%s: %lld collectives for %lld rounds in %lld batches", what,
           n_collectives, rounds, batches);
#else
    (void)what;
    (void)rounds;
    (void)batches;
#endif
}

/* The profiling interface reaches the library's calls: a collective
 * inside ncmpi_create is counted. */
static void check_interposed(const char *path, MPI_Info info)
{
    int nc;
    MPI_Barrier(MPI_COMM_WORLD);
    n_collectives = 0;
    counting = 1;
    CHECK_ERR(ncmpi_create(MPI_COMM_WORLD, path, NC_CLOBBER, info, &nc));
    counting = 0;
    CHECKF(n_collectives > 0, "no collective of ncmpi_create was counted: "
                              "MPI calls bypass this program");
    CHECK_ERR(ncmpi_close(nc));
}

/* A rank's slice of "pieces" in NPART parts, each from its own buffer,
 * posted last part first. */
static void put_pieces(int nc, int v, MPI_Offset s0, MPI_Offset n)
{
    signed char *buf[NPART];
    int req[NPART], k;
    MPI_Offset st, ct;
    for (k = NPART - 1; k >= 0; k--) {
        MPI_Offset i;
        tu_part(n, k, NPART, &st, &ct);
        st += s0;
        buf[k] = malloc((size_t)ct + 1);
        for (i = 0; i < ct; i++) buf[k][i] = byte_at(st + i);
        CHECK_ERR(ncmpi_iput_vara_schar(nc, v, &st, &ct, buf[k], &req[k]));
    }
    CHECK_ERR(ncmpi_wait_all(nc, NPART, req, NULL));
    for (k = 0; k < NPART; k++) free(buf[k]);
}

static void write_file(const char *path, MPI_Info info)
{
    int nc, db, di, vb, vp, vi;
    MPI_Offset s0, n, i;
    long long before;
    signed char *b;
    int *iv;

    CHECK_ERR(ncmpi_create(MPI_COMM_WORLD, path, NC_CLOBBER, info, &nc));
    CHECK_ERR(ncmpi_def_dim(nc, "nb", NB, &db));
    CHECK_ERR(ncmpi_def_dim(nc, "ni", NI, &di));
    CHECK_ERR(ncmpi_def_var(nc, "bytes", NC_BYTE, 1, &db, &vb));
    CHECK_ERR(ncmpi_def_var(nc, "pieces", NC_BYTE, 1, &db, &vp));
    CHECK_ERR(ncmpi_def_var(nc, "ints", NC_INT, 1, &di, &vi));
    CHECK_ERR(ncmpi_enddef(nc));

    tu_part(NB, tu_myrank, tu_nranks, &s0, &n);
    b = malloc((size_t)n + 1);
    for (i = 0; i < n; i++) b[i] = byte_at(s0 + i);
    before = count_on(nc);
    CHECK_ERR(ncmpi_put_vara_schar_all(nc, vb, &s0, &n, b));
    count_off(nc, "one buffer", before);
    free(b);

    before = count_on(nc);
    put_pieces(nc, vp, s0, n);
    count_off(nc, "several buffers", before);

    tu_part(NI, tu_myrank, tu_nranks, &s0, &n);
    iv = malloc((size_t)n * sizeof(int) + 1);
    for (i = 0; i < n; i++) iv[i] = int_at(s0 + i);
    before = count_on(nc);
    CHECK_ERR(ncmpi_put_vara_int_all(nc, vi, &s0, &n, iv));
    count_off(nc, "swapped ints", before);
    free(iv);
    CHECK_ERR(ncmpi_close(nc));
}

/* Every value, whole variables on every rank. */
static void read_back(const char *path)
{
    int nc, v, bad = 0;
    MPI_Offset i;
    signed char *b = malloc(NB);
    int *iv = malloc(NI * sizeof(int));
    const char *names[2] = {"bytes", "pieces"};
    CHECK_ERR(ncmpi_open(MPI_COMM_WORLD, path, NC_NOWRITE, MPI_INFO_NULL, &nc));
    for (v = 0; v < 2; v++) {
        int id;
        CHECK_ERR(ncmpi_inq_varid(nc, names[v], &id));
        CHECK_ERR(ncmpi_get_var_schar_all(nc, id, b));
        for (i = 0, bad = 0; i < NB; i++) bad += b[i] != byte_at(i);
        CHECKF(bad == 0, "%s: %d wrong bytes", names[v], bad);
    }
    CHECK_ERR(ncmpi_inq_varid(nc, "ints", &v));
    CHECK_ERR(ncmpi_get_var_int_all(nc, v, iv));
    for (i = 0, bad = 0; i < NI; i++) bad += iv[i] != int_at(i);
    CHECKF(bad == 0, "ints: %d wrong values", bad);
    CHECK_ERR(ncmpi_close(nc));
    free(b);
    free(iv);
}

int main(int argc, char **argv)
{
    const char *path;
    MPI_Info info;

    tu_init(&argc, &argv);
    path = tu_main_path(argc, argv);
    CHECK(path != NULL);
    if (!path) return tu_finish("t_msg_rounds");
    /* this test sets its own hints; an inherited PNETCDF_HINTS would
     * override them */
    unsetenv("PNETCDF_HINTS");
    info = tu_info_of(
        "nc_driver=posix;nc_posix_shm=disable;nc_posix_buffer_size=1000");
    check_interposed(path, info);
    write_file(path, info);
    read_back(path);
    MPI_Info_free(&info);
    return tu_finish("t_msg_rounds");
}
