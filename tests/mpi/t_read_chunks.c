/* ncp-test: NO_CDL RANKS 1 2 4 */
/* t_read_chunks -- a combined read whose file extent joins variables of
 * different widths reads every value right.  The posix driver reads a
 * long extent in chunks and byte-swaps each chunk's pieces while they are
 * in cache; a chunk that ended inside an element of a swapped piece
 * swapped the rest of that piece out of step (7234 of 40000 doubles read
 * wrong).  Two joins make such cuts: 3 ints (12 bytes) before 40000
 * doubles, so the chunk edges fall 4 bytes into a double; and the last 3
 * of 4 bytes before 200000 shorts, so they fall 1 byte into a short.
 * Every rank writes its share with one combined call and reads all of
 * each variable back with another (nonblocking gets and wait_all), then
 * again with a blocking get per variable.
 */
#include <stdlib.h>

#include "testutil.h"

#define NA 3
#define ND 40000
#define NB 4
#define NS 200000

static double d_at(MPI_Offset i) { return (double)i * 1.5 + 0.25; }
static int a_at(MPI_Offset i) { return (int)i * 7 - 11; }
static short s_at(MPI_Offset i) { return (short)(i * 37 % 30011 - 15000); }
static signed char b_at(MPI_Offset i) { return (signed char)(i * 29 - 50); }

typedef struct {
    int a, d, b, s; /* variable ids */
} vars;

static void define(int nc, vars *v)
{
    int da, dd, db, ds;
    CHECK_ERR(ncmpi_def_dim(nc, "na", NA, &da));
    CHECK_ERR(ncmpi_def_dim(nc, "nd", ND, &dd));
    CHECK_ERR(ncmpi_def_dim(nc, "nb", NB, &db));
    CHECK_ERR(ncmpi_def_dim(nc, "ns", NS, &ds));
    /* in this order each begins where the one before ends */
    CHECK_ERR(ncmpi_def_var(nc, "a", NC_INT, 1, &da, &v->a));
    CHECK_ERR(ncmpi_def_var(nc, "d", NC_DOUBLE, 1, &dd, &v->d));
    CHECK_ERR(ncmpi_def_var(nc, "b", NC_BYTE, 1, &db, &v->b));
    CHECK_ERR(ncmpi_def_var(nc, "s", NC_SHORT, 1, &ds, &v->s));
}

/* Each rank's share of every variable, in one wait_all. */
static void write_file(const char *path)
{
    MPI_Offset st[4], ct[4], i;
    int nc, req[4], stat[4], k;
    vars v;
    int *a;
    double *d;
    signed char *b;
    short *s;
    CHECK_ERR(ncmpi_create(MPI_COMM_WORLD, path, NC_CLOBBER, MPI_INFO_NULL,
                           &nc));
    define(nc, &v);
    CHECK_ERR(ncmpi_enddef(nc));
    tu_part(NA, tu_myrank, tu_nranks, &st[0], &ct[0]);
    tu_part(ND, tu_myrank, tu_nranks, &st[1], &ct[1]);
    tu_part(NB, tu_myrank, tu_nranks, &st[2], &ct[2]);
    tu_part(NS, tu_myrank, tu_nranks, &st[3], &ct[3]);
    a = malloc((size_t)ct[0] * sizeof(int) + 1);
    d = malloc((size_t)ct[1] * sizeof(double) + 1);
    b = malloc((size_t)ct[2] + 1);
    s = malloc((size_t)ct[3] * sizeof(short) + 1);
    for (i = 0; i < ct[0]; i++) a[i] = a_at(st[0] + i);
    for (i = 0; i < ct[1]; i++) d[i] = d_at(st[1] + i);
    for (i = 0; i < ct[2]; i++) b[i] = b_at(st[2] + i);
    for (i = 0; i < ct[3]; i++) s[i] = s_at(st[3] + i);
    CHECK_ERR(ncmpi_iput_vara_int(nc, v.a, &st[0], &ct[0], a, &req[0]));
    CHECK_ERR(ncmpi_iput_vara_double(nc, v.d, &st[1], &ct[1], d, &req[1]));
    CHECK_ERR(ncmpi_iput_vara_schar(nc, v.b, &st[2], &ct[2], b, &req[2]));
    CHECK_ERR(ncmpi_iput_vara_short(nc, v.s, &st[3], &ct[3], s, &req[3]));
    CHECK_ERR(ncmpi_wait_all(nc, 4, req, stat));
    for (k = 0; k < 4; k++) CHECK_ERR(stat[k]);
    CHECK_ERR(ncmpi_close(nc));
    free(a);
    free(d);
    free(b);
    free(s);
}

typedef struct { /* each its own allocation */
    int *a;
    double *d;
    signed char *b;
    short *s;
} values;

static values *values_new(void)
{
    values *r = malloc(sizeof(*r));
    r->a = calloc(NA, sizeof(int));
    r->d = calloc(ND, sizeof(double));
    r->b = calloc(NB, 1);
    r->s = calloc(NS, sizeof(short));
    return r;
}

static void values_free(values *r)
{
    free(r->a);
    free(r->d);
    free(r->b);
    free(r->s);
    free(r);
}

static void check_values(const values *r, const char *how)
{
    int bad = 0;
    MPI_Offset i;
    for (i = 0; i < NA; i++) bad += r->a[i] != a_at(i);
    for (i = 0; i < ND; i++) bad += r->d[i] != d_at(i);
    CHECKF(bad == 0, "%s: %d of the ints and doubles wrong", how, bad);
    bad = 0;
    for (i = 1; i < NB; i++) bad += r->b[i] != b_at(i);
    for (i = 0; i < NS; i++) bad += r->s[i] != s_at(i);
    CHECKF(bad == 0, "%s: %d of the bytes and shorts wrong", how, bad);
}

/* All of a and d in one extent; the last NB - 1 bytes of b and all of s
 * in another. */
static void read_back(const char *path)
{
    MPI_Offset zero = 0, one = 1, na = NA, nd = ND, nb = NB - 1, ns = NS;
    values *r = values_new();
    int nc, req[4], stat[4], k;
    vars v;
    CHECK_ERR(ncmpi_open(MPI_COMM_WORLD, path, NC_NOWRITE, MPI_INFO_NULL,
                         &nc));
    CHECK_ERR(ncmpi_inq_varid(nc, "a", &v.a));
    CHECK_ERR(ncmpi_inq_varid(nc, "d", &v.d));
    CHECK_ERR(ncmpi_inq_varid(nc, "b", &v.b));
    CHECK_ERR(ncmpi_inq_varid(nc, "s", &v.s));
    CHECK_ERR(ncmpi_iget_vara_int(nc, v.a, &zero, &na, r->a, &req[0]));
    CHECK_ERR(ncmpi_iget_vara_double(nc, v.d, &zero, &nd, r->d, &req[1]));
    CHECK_ERR(ncmpi_iget_vara_schar(nc, v.b, &one, &nb, r->b + 1, &req[2]));
    CHECK_ERR(ncmpi_iget_vara_short(nc, v.s, &zero, &ns, r->s, &req[3]));
    CHECK_ERR(ncmpi_wait_all(nc, 4, req, stat));
    for (k = 0; k < 4; k++) CHECK_ERR(stat[k]);
    check_values(r, "one wait_all");
    values_free(r);
    r = values_new();
    CHECK_ERR(ncmpi_get_var_int_all(nc, v.a, r->a));
    CHECK_ERR(ncmpi_get_var_double_all(nc, v.d, r->d));
    CHECK_ERR(ncmpi_get_vara_schar_all(nc, v.b, &one, &nb, r->b + 1));
    CHECK_ERR(ncmpi_get_var_short_all(nc, v.s, r->s));
    check_values(r, "per variable");
    CHECK_ERR(ncmpi_close(nc));
    values_free(r);
}

int main(int argc, char **argv)
{
    const char *path;
    tu_init(&argc, &argv);
    path = tu_main_path(argc, argv);
    CHECK(path != NULL);
    if (path) {
        write_file(path);
        read_back(path);
    }
    return tu_finish("t_read_chunks");
}
