/* ncp-test: RANKS 1 2 4 NO_CDL */
/* t_kept_buffers -- nonblocking requests whose memory the library may keep
 * from one wait to the next and from one dataset to the next (ncpario:
 * nc_kept_buffer_size): converted puts and gets (double in memory, float
 * in the file), strided puts and gets of the variable's own type, and a
 * different number and size of requests at every wait, so that a reused
 * buffer or extent list that still held an earlier wait's bytes, or was
 * too short, shows up as a wrong value.  Three datasets in a row under
 * each setting: the default, 0 (nothing kept) and a bound smaller than
 * one wait's lists.  Every value is read back, by this rank and by its
 * neighbour, and with ncpario the hint is reported as set.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "hintutil.h"
#include "have_ncpario.h"

#define NX 6000   /* elements a rank owns of each variable */
#define NREC 6
#define NFLT 3    /* float variables; one double more */

static double val(int rank, int var, int rec, int i)
{
    return rank * 1e5 + var * 1e4 + rec * 100 + i * 0.25;
}

/* Elements of the first wait's floats: a different size every record. */
static int rec_len(int rec)
{
    return NX - 97 * rec;
}

/* Floats in the first wait of record rec: 1 to NFLT, changing. */
static int rec_nflt(int rec)
{
    return rec % NFLT + 1;
}

static void define(int nc, int *v)
{
    int dims[2], k;
    char name[8];
    CHECK_ERR(ncmpi_def_dim(nc, "t", NC_UNLIMITED, &dims[0]));
    CHECK_ERR(ncmpi_def_dim(nc, "x", (MPI_Offset)NX * tu_nranks, &dims[1]));
    for (k = 0; k < NFLT; k++) {
        snprintf(name, sizeof name, "f%d", k);
        CHECK_ERR(ncmpi_def_var(nc, name, NC_FLOAT, 2, dims, &v[k]));
    }
    CHECK_ERR(ncmpi_def_var(nc, "d", NC_DOUBLE, 2, dims, &v[NFLT]));
    CHECK_ERR(ncmpi_enddef(nc));
}

/* Request k of a wait: elements [from, from + count) of variable var,
 * every step-th (step 2: the double, strided, of its own type; step 1:
 * a float, converted). */
typedef struct piece {
    int var;
    MPI_Offset from, count, step;
} piece;

/*
 * Record rec is written (and read) in two waits of different sizes and
 * numbers of requests, which together cover every element, since a
 * never-written gap would hold whatever MPI-IO left there:
 *  first:  floats 0..nf-1 over [0, n), and d's even elements;
 *  second: floats nf.. whole, floats 0..nf-1 over [n, NX), d's odd ones.
 */
static int pieces_of(int rec, int which, piece *p)
{
    int n = rec_len(rec), nf = rec_nflt(rec), k, m = 0;
    for (k = 0; k < NFLT; k++) {
        piece q = {k, 0, n, 1};
        if (which == 1 && k >= nf) continue;
        if (which == 2 && k < nf) { q.from = n; q.count = NX - n; }
        if (which == 2 && k >= nf) q.count = NX;
        p[m++] = q;
    }
    p[m].var = NFLT;
    p[m].from = which == 1 ? 0 : 1;
    p[m].count = NX / 2;
    p[m++].step = 2;
    return m;
}

/* The requests of one wait, posted and waited for; a put's values come
 * from val(), a get's are compared with it (returns the wrong ones). */
static int one_wait(int nc, const int *v, int rec, int which, int owner,
                    int is_put, double *buf)
{
    piece p[NFLT + 1];
    int m = pieces_of(rec, which, p), k, i, bad = 0;
    int req[NFLT + 1], st[NFLT + 1];
    for (k = 0; k < m; k++) {
        double *b = buf + (size_t)k * NX;
        MPI_Offset s[2] = {rec, (MPI_Offset)owner * NX + p[k].from};
        MPI_Offset c[2] = {1, p[k].count}, str[2] = {1, p[k].step};
        for (i = 0; i < p[k].count; i++)
            b[i] = is_put ? val(owner, p[k].var, rec,
                                (int)(p[k].from + i * p[k].step))
                          : -1;
        if (is_put)
            CHECK_ERR(ncmpi_iput_vars_double(nc, v[p[k].var], s, c, str, b,
                                             &req[k]));
        else
            CHECK_ERR(ncmpi_iget_vars_double(nc, v[p[k].var], s, c, str, b,
                                             &req[k]));
    }
    CHECK_ERR(ncmpi_wait_all(nc, m, req, st));
    for (k = 0; k < m; k++) CHECK_ERR(st[k]);
    for (k = 0; !is_put && k < m; k++)
        for (i = 0; i < p[k].count; i++)
            bad += buf[(size_t)k * NX + i] !=
                   val(owner, p[k].var, rec, (int)(p[k].from + i * p[k].step));
    return bad;
}

static void write_file(const char *path, MPI_Info info)
{
    int nc, v[NFLT + 1], rec;
    double *buf = malloc((size_t)(NFLT + 1) * NX * sizeof *buf);
    CHECK_ERR(ncmpi_create(MPI_COMM_WORLD, path, NC_CLOBBER, info, &nc));
    define(nc, v);
    for (rec = 0; rec < NREC; rec++) {
        one_wait(nc, v, rec, 1, tu_myrank, 1, buf);
        one_wait(nc, v, rec, 2, tu_myrank, 1, buf);
    }
    CHECK_ERR(ncmpi_close(nc));
    free(buf);
}

static void read_file(const char *path, MPI_Info info, const char *what)
{
    int nc, v[NFLT + 1], k, rec, bad = 0;
    int other = (tu_myrank + 1) % tu_nranks;
    char name[8];
    double *buf = malloc((size_t)(NFLT + 1) * NX * sizeof *buf);
    CHECK_ERR(ncmpi_open(MPI_COMM_WORLD, path, NC_NOWRITE, info, &nc));
    for (k = 0; k < NFLT; k++) {
        snprintf(name, sizeof name, "f%d", k);
        CHECK_ERR(ncmpi_inq_varid(nc, name, &v[k]));
    }
    CHECK_ERR(ncmpi_inq_varid(nc, "d", &v[NFLT]));
    for (rec = 0; rec < NREC; rec++) {
        bad += one_wait(nc, v, rec, 2, tu_myrank, 0, buf);
        bad += one_wait(nc, v, rec, 1, other, 0, buf);
        bad += one_wait(nc, v, rec, 1, tu_myrank, 0, buf);
        bad += one_wait(nc, v, rec, 2, other, 0, buf);
    }
    CHECKF(bad == 0, "%s: %d values read back wrong", what, bad);
    CHECK_ERR(ncmpi_close(nc));
    free(buf);
}

#ifdef HAVE_NCPARIO
/* The setting in effect, as ncmpi_inq_file_info reports it. */
static void check_reported(const char *path, MPI_Info info, const char *want)
{
    int nc, flag = 0;
    char value[MPI_MAX_INFO_VAL + 1];
    MPI_Info got;
    CHECK_ERR(ncmpi_open(MPI_COMM_WORLD, path, NC_NOWRITE, info, &nc));
    CHECK_ERR(ncmpi_inq_file_info(nc, &got));
    MPI_Info_get(got, "nc_kept_buffer_size", MPI_MAX_INFO_VAL, value, &flag);
    CHECKF(flag && strcmp(value, want) == 0,
           "nc_kept_buffer_size reported as '%s', set '%s'",
           flag ? value : "(absent)", want);
    MPI_Info_free(&got);
    CHECK_ERR(ncmpi_close(nc));
}
#endif

int main(int argc, char **argv)
{
    static const char *hints[] = {NULL, "nc_kept_buffer_size=0",
                                  "nc_kept_buffer_size=70000"};
    const char *path;
    int h, round;
    tu_init(&argc, &argv);
    path = tu_main_path(argc, argv);
    CHECK(path != NULL);
    if (!path) return tu_finish("t_kept_buffers");
    for (h = 0; h < 3; h++) {
        MPI_Info info = tu_info_of(hints[h]);
        for (round = 0; round < 3; round++) {
            write_file(path, info);
            read_file(path, info, hints[h] ? hints[h] : "default");
        }
#ifdef HAVE_NCPARIO
        check_reported(path, info,
                       hints[h] ? strchr(hints[h], '=') + 1 : "67108864");
#endif
        MPI_Info_free(&info);
    }
    return tu_finish("t_kept_buffers");
}
