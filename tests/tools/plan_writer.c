/*
 * plan_writer.c -- one collective write for tools.plan: the write
 * `ncpario plan` is asked about, made with the PnetCDF API (its own code
 * for each pattern, not the tool's), and each rank's aggregation
 * counters from ncpario_inq_profile, the write's alone, on stdout:
 *
 *   plan_writer OUT.nc CASE HINTS [DECOMP [DECOMP2]]
 *
 * CASE: blockblock, starcyclic, records, twovars, decomp (a 1-D int
 * variable v of 50000 elements, each rank its ranges of DECOMP, a file
 * in ncpario-plan(1)'s format; with DECOMP2, a second one, w, under it,
 * both buffered and in one wait_all).  HINTS: "key=value;key=value".
 * Prints "rank R rounds N sent N recv N pieces N writes N bytes N".
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ncpario.h>
#include <pnetcdf.h>

static int rank, nprocs;

static void check(int err, const char *what)
{
    if (err == NC_NOERR) return;
    fprintf(stderr, "plan_writer: %s: %s\n", what, ncmpi_strerror(err));
    MPI_Abort(MPI_COMM_WORLD, 1);
}

static MPI_Info hints_info(const char *spec)
{
    MPI_Info info;
    char buf[1024], *kv;
    MPI_Info_create(&info);
    snprintf(buf, sizeof buf, "%s", spec);
    for (kv = strtok(buf, ";"); kv; kv = strtok(NULL, ";")) {
        char *eq = strchr(kv, '=');
        if (!eq) continue;
        *eq = '\0';
        MPI_Info_set(info, kv, eq + 1);
    }
    return info;
}

/* The grid of blockblock: all ranks in the first dimension up to 2. */
static void grid2(int *p, int *q)
{
    *p = nprocs % 2 == 0 ? 2 : 1;
    *q = nprocs / *p;
}

static void *zeros(MPI_Offset n, size_t size)
{
    void *b = calloc((size_t)(n ? n : 1), size);
    if (!b) MPI_Abort(MPI_COMM_WORLD, 1);
    return b;
}

/* Block b of a dimension of len over g ranks, as the tool's "block". */
static void block_of(MPI_Offset len, int g, int c, MPI_Offset *st,
                     MPI_Offset *ct)
{
    MPI_Offset b = (len + g - 1) / g;
    *st = c * b < len ? c * b : len;
    *ct = (c + 1) * b < len ? b : len - *st;
}

static void blockblock(int ncid)
{
    int dims[2], v, p, q;
    MPI_Offset st[2], ct[2];
    double *buf;
    check(ncmpi_def_dim(ncid, "y", 96, &dims[0]), "def_dim");
    check(ncmpi_def_dim(ncid, "x", 200, &dims[1]), "def_dim");
    check(ncmpi_def_var(ncid, "v", NC_DOUBLE, 2, dims, &v), "def_var");
    check(ncmpi_enddef(ncid), "enddef");
    grid2(&p, &q);
    block_of(96, p, rank / q, &st[0], &ct[0]);
    block_of(200, q, rank % q, &st[1], &ct[1]);
    buf = zeros(ct[0] * ct[1], sizeof(double));
    check(ncmpi_put_vara_double_all(ncid, v, st, ct, buf), "put");
    free(buf);
}

static void starcyclic(int ncid)
{
    int dims[2], v;
    MPI_Offset st[2] = {0, rank}, ct[2] = {64, 0}, sd[2] = {1, nprocs};
    float *buf;
    check(ncmpi_def_dim(ncid, "y", 64, &dims[0]), "def_dim");
    check(ncmpi_def_dim(ncid, "x", 500, &dims[1]), "def_dim");
    check(ncmpi_def_var(ncid, "v", NC_FLOAT, 2, dims, &v), "def_var");
    check(ncmpi_enddef(ncid), "enddef");
    ct[1] = (500 - rank + nprocs - 1) / nprocs;
    buf = zeros(ct[0] * ct[1], sizeof(float));
    check(ncmpi_put_vars_float_all(ncid, v, st, ct, sd, buf), "put");
    free(buf);
}

static void records(int ncid)
{
    int dims[3], v;
    MPI_Offset st[3] = {0, 0, 0}, ct[3] = {5, 0, 100};
    float *buf;
    check(ncmpi_def_dim(ncid, "t", NC_UNLIMITED, &dims[0]), "def_dim");
    check(ncmpi_def_dim(ncid, "y", 80, &dims[1]), "def_dim");
    check(ncmpi_def_dim(ncid, "x", 100, &dims[2]), "def_dim");
    check(ncmpi_def_var(ncid, "r", NC_FLOAT, 3, dims, &v), "def_var");
    check(ncmpi_enddef(ncid), "enddef");
    block_of(80, nprocs, rank, &st[1], &ct[1]);
    buf = zeros(ct[0] * ct[1] * ct[2], sizeof(float));
    check(ncmpi_put_vara_float_all(ncid, v, st, ct, buf), "put");
    free(buf);
}

/* Two variables in one flush, through the nonblocking calls. */
static void twovars(int ncid)
{
    int dims[2], va, vb, req[2], st2[2];
    MPI_Offset st[2] = {0, 0}, ct[2] = {0, 64};
    double *a;
    short *b;
    check(ncmpi_def_dim(ncid, "y", 300, &dims[0]), "def_dim");
    check(ncmpi_def_dim(ncid, "x", 64, &dims[1]), "def_dim");
    check(ncmpi_def_var(ncid, "a", NC_DOUBLE, 2, dims, &va), "def_var");
    check(ncmpi_def_var(ncid, "b", NC_SHORT, 2, dims, &vb), "def_var");
    check(ncmpi_enddef(ncid), "enddef");
    block_of(300, nprocs, rank, &st[0], &ct[0]);
    a = zeros(ct[0] * 64, sizeof(double));
    b = zeros(ct[0] * 64, sizeof(short));
    check(ncmpi_iput_vara_double(ncid, va, st, ct, a, &req[0]), "iput");
    check(ncmpi_iput_vara_short(ncid, vb, st, ct, b, &req[1]), "iput");
    check(ncmpi_wait_all(ncid, 2, req, st2), "wait_all");
    free(a);
    free(b);
}

/* This rank's "R: lo[-hi] ..." ranges of the decomposition file. */
static int decomp_ranges(const char *path, MPI_Offset **st, MPI_Offset **ct)
{
    FILE *f = fopen(path, "r");
    char line[1 << 16];
    int n = 0, cap = 0;
    if (!f) MPI_Abort(MPI_COMM_WORLD, 1);
    *st = *ct = NULL;
    while (fgets(line, sizeof line, f)) {
        char *p = line, *end;
        long r = strtol(p, &end, 10);
        if (end == p || *end != ':' || r != rank) continue;
        for (p = end + 1;;) {
            long lo = strtol(p, &end, 10), hi;
            if (end == p) break;
            hi = lo;
            if (*end == '-') hi = strtol(end + 1, &end, 10);
            if (n == cap) {
                cap = 2 * cap + 16;
                *st = realloc(*st, (size_t)cap * sizeof(MPI_Offset));
                *ct = realloc(*ct, (size_t)cap * sizeof(MPI_Offset));
            }
            (*st)[n] = lo;
            (*ct)[n++] = hi - lo + 1;
            p = end;
        }
    }
    fclose(f);
    return n;
}

/* Posts variable v's part under the decomposition in path. */
static void decomp_post(int ncid, int v, const char *path, int *req)
{
    int n, i;
    MPI_Offset *st, *ct, total = 0, **starts, **counts;
    int *buf;
    n = decomp_ranges(path, &st, &ct);
    starts = malloc((size_t)(n + 1) * sizeof(*starts));
    counts = malloc((size_t)(n + 1) * sizeof(*counts));
    for (i = 0; i < n; i++) {
        starts[i] = &st[i];
        counts[i] = &ct[i];
        total += ct[i];
    }
    buf = zeros(total, sizeof(int));
    check(ncmpi_bput_varn_int(ncid, v, n, starts, counts, buf, req), "bput");
    free(buf), free(st), free(ct), free(starts), free(counts);
}

/* One variable under path_a; with path_b, a second one under it, both
 * in one wait_all. */
static void decomp(int ncid, const char *path_a, const char *path_b)
{
    int dim, v[2], req[2], st[2], n = path_b ? 2 : 1;
    check(ncmpi_def_dim(ncid, "n", 50000, &dim), "def_dim");
    check(ncmpi_def_var(ncid, "v", NC_INT, 1, &dim, &v[0]), "def_var");
    if (path_b) check(ncmpi_def_var(ncid, "w", NC_INT, 1, &dim, &v[1]),
                      "def_var");
    check(ncmpi_enddef(ncid), "enddef");
    check(ncmpi_buffer_attach(ncid, 2 * 50000 * sizeof(int)), "attach");
    decomp_post(ncid, v[0], path_a, &req[0]);
    if (path_b) decomp_post(ncid, v[1], path_b, &req[1]);
    check(ncmpi_wait_all(ncid, n, req, st), "wait_all");
    check(ncmpi_buffer_detach(ncid), "detach");
}

int main(int argc, char **argv)
{
    int ncid;
    MPI_Info info;
    ncpario_profile a, b;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
    if (argc < 4 || (strcmp(argv[2], "decomp") == 0 && argc < 5)) {
        if (rank == 0) fprintf(stderr, "usage: %s OUT CASE HINTS [DECOMP]\n",
                               argv[0]);
        MPI_Finalize();
        return 2;
    }
    info = hints_info(argv[3]);
    check(ncmpi_create(MPI_COMM_WORLD, argv[1], NC_CLOBBER | NC_64BIT_DATA,
                       info, &ncid), "create");
    check(ncpario_inq_profile(ncid, &a), "profile");
    if (strcmp(argv[2], "blockblock") == 0) blockblock(ncid);
    else if (strcmp(argv[2], "starcyclic") == 0) starcyclic(ncid);
    else if (strcmp(argv[2], "records") == 0) records(ncid);
    else if (strcmp(argv[2], "twovars") == 0) twovars(ncid);
    else decomp(ncid, argv[4], argc > 5 ? argv[5] : NULL);
    check(ncpario_inq_profile(ncid, &b), "profile");
    printf("rank %d rounds %lld sent %lld recv %lld pieces %lld writes %lld "
           "bytes %lld\n", rank, b.driver_rounds_write - a.driver_rounds_write,
           b.driver_messages_sent - a.driver_messages_sent,
           b.driver_messages_received - a.driver_messages_received,
           b.driver_pieces_write - a.driver_pieces_write,
           b.driver_write_calls - a.driver_write_calls,
           b.driver_bytes_aggregated - a.driver_bytes_aggregated);
    check(ncmpi_close(ncid), "close");
    MPI_Info_free(&info);
    MPI_Finalize();
    return 0;
}
