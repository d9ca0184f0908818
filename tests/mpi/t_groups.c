/* ncp-test: NO_PNETCDF_CMP NO_CDL RANKS 1 2 4 */
/* t_groups -- I/O groups (nc_io_group_size, nc_io_group_per_node) write
 * the same bytes as the ungrouped path and read back the right ones.
 *
 * One program, in CDF-1, CDF-2 and CDF-5, writes fixed and record
 * variables through every access form (blocking, iput + wait_all, varn,
 * mput, independent mode, fill) with an uneven partition in which the
 * last of several ranks has no data, and one extent of several rounds.
 * It runs ungrouped and under each group setting (sizes 1, 2, 3 and all,
 * one and two groups per node, staging caps that cut extents into many
 * rounds, both drivers); every file must equal the ungrouped one byte for
 * byte, and every rank reads everything back through the groups
 * (overlapping reads), plus strided pieces into strided memory.
 * The counters must show exactly the rounds and shipped bytes that the
 * group sizes and the cap imply, and bad or disagreeing hints fail create
 * and open with NC_EINVAL, creating nothing.
 */
#define _POSIX_C_SOURCE 200809L /* unsetenv */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "testutil.h"
#include "hintutil.h"

#include <ncpario.h>

#define NY 23
#define NX 10
#define NREC 3
#define NBIG (3 * 4096 + 77)

typedef struct setting {
    const char *name;
    const char *hints;
} setting;

/* The first is the reference: ungrouped. */
static const setting settings[] = {
    {"ungrouped", "nc_driver=posix"},
    {"g1", "nc_io_group_size=1"},
    {"g2", "nc_io_group_size=2"},
    {"g3", "nc_io_group_size=3"},
    {"gall", "nc_io_group_size=all"},
    {"node1", "nc_io_group_per_node=1"},
    {"node2", "nc_io_group_per_node=2"},
    {"g2cap", "nc_io_group_size=2;nc_io_group_buffer_size=777"},
    {"mpiio_g3", "nc_driver=mpiio;nc_io_group_size=3"},
    {"mpiio_allcap",
     "nc_driver=mpiio;nc_io_group_size=all;nc_io_group_buffer_size=4096"},
};
#define NSETTINGS ((int)(sizeof(settings) / sizeof(settings[0])))

static const int formats[] = {0, NC_64BIT_OFFSET, NC_64BIT_DATA};
static const char *const format_names[] = {"cdf1", "cdf2", "cdf5"};

static int value_at(int var, int rec, int y, int x)
{
    return var * 10000 + rec * 1000 + y * NX + x;
}

static signed char big_at(MPI_Offset i) { return (signed char)(i * 13 % 241); }

/* This rank's rows; the last of several ranks has none. */
static void my_rows(MPI_Offset *y0, MPI_Offset *ny)
{
    int writers = tu_nranks > 1 ? tu_nranks - 1 : 1;
    *y0 = 0, *ny = 0;
    if (tu_myrank < writers) tu_part(NY, tu_myrank, writers, y0, ny);
}

typedef struct vars {
    int a, b, r, s, fill, big;
} vars;

static void define(int nc, vars *v)
{
    int dt, dy, dx, db, dims[3];
    CHECK_ERR(ncmpi_def_dim(nc, "t", NC_UNLIMITED, &dt));
    CHECK_ERR(ncmpi_def_dim(nc, "y", NY, &dy));
    CHECK_ERR(ncmpi_def_dim(nc, "x", NX, &dx));
    CHECK_ERR(ncmpi_def_dim(nc, "nbig", NBIG, &db));
    dims[0] = dy, dims[1] = dx;
    CHECK_ERR(ncmpi_def_var(nc, "a", NC_INT, 2, dims, &v->a));
    CHECK_ERR(ncmpi_def_var(nc, "b", NC_DOUBLE, 1, &dy, &v->b));
    CHECK_ERR(ncmpi_def_var(nc, "fill", NC_INT, 2, dims, &v->fill));
    CHECK_ERR(ncmpi_def_var(nc, "big", NC_BYTE, 1, &db, &v->big));
    dims[0] = dt, dims[1] = dy, dims[2] = dx;
    CHECK_ERR(ncmpi_def_var(nc, "r", NC_SHORT, 3, dims, &v->r));
    dims[1] = dx;
    CHECK_ERR(ncmpi_def_var(nc, "s", NC_FLOAT, 2, dims, &v->s));
}

/* a: blocking; b: one iput per element, block-cyclic over all ranks. */
static void write_fixed(int nc, const vars *v)
{
    MPI_Offset y0, ny, st[2], ct[2], i;
    int buf[NY * NX], req[NY], n = 0;
    double d[NY];
    my_rows(&y0, &ny);
    for (i = 0; i < ny * NX; i++)
        buf[i] = value_at(0, 0, (int)(y0 + i / NX), (int)(i % NX));
    st[0] = y0, st[1] = 0, ct[0] = ny, ct[1] = NX;
    CHECK_ERR(ncmpi_put_vara_int_all(nc, v->a, st, ct, buf));
    for (i = tu_myrank; i < NY; i += tu_nranks) {
        d[n] = value_at(3, 0, (int)i, 0) + 0.25;
        CHECK_ERR(ncmpi_iput_var1_double(nc, v->b, &i, &d[n], &req[n]));
        n++;
    }
    CHECK_ERR(ncmpi_wait_all(nc, n, req, NULL));
}

/* r: one varn call per rank over its rows of every record; s: one mput
 * from rank 0 over every record; big: rank 0, one extent of many
 * staging rounds. */
static void write_records(int nc, const vars *v)
{
    MPI_Offset y0, ny, sts[NREC][3], cts[NREC][3], *stp[NREC], *ctp[NREC];
    MPI_Offset bufcounts[NREC], i;
    short rbuf[NREC * NY * NX];
    float sbuf[NREC][NX];
    void *bufs[NREC];
    int r, varids[NREC], nmine = tu_myrank == 0 ? NREC : 0;
    MPI_Datatype types[NREC];
    signed char *big = malloc(NBIG);
    my_rows(&y0, &ny);
    for (r = 0; r < NREC; r++) {
        sts[r][0] = r, sts[r][1] = y0, sts[r][2] = 0;
        cts[r][0] = 1, cts[r][1] = ny, cts[r][2] = NX;
        stp[r] = sts[r], ctp[r] = cts[r];
        for (i = 0; i < ny * NX; i++)
            rbuf[r * ny * NX + i] =
                (short)value_at(1, r, (int)(y0 + i / NX), (int)(i % NX));
    }
    CHECK_ERR(ncmpi_put_varn_short_all(nc, v->r, ny ? NREC : 0, stp, ctp,
                                       rbuf));
    for (r = 0; r < NREC; r++) {
        for (i = 0; i < NX; i++) sbuf[r][i] = (float)value_at(2, r, 0, (int)i);
        sts[r][1] = 0, cts[r][1] = NX;
        varids[r] = v->s, bufs[r] = sbuf[r], bufcounts[r] = NX;
        types[r] = MPI_FLOAT;
    }
    CHECK_ERR(ncmpi_mput_vara_all(nc, nmine, varids, stp, ctp, bufs,
                                  bufcounts, types));
    for (i = 0; i < NBIG; i++) big[i] = big_at(i);
    sts[0][0] = 0, cts[0][0] = tu_myrank == 0 ? NBIG : 0;
    CHECK_ERR(ncmpi_put_vara_schar_all(nc, v->big, sts[0], cts[0], big));
    free(big);
}

/* Independent mode bypasses the groups: the last rank rewrites one row
 * of a with the same values. */
static void write_independent(int nc, const vars *v)
{
    MPI_Offset st[2] = {NY - 1, 0}, ct[2] = {1, NX};
    int row[NX], x;
    for (x = 0; x < NX; x++) row[x] = value_at(0, 0, NY - 1, x);
    CHECK_ERR(ncmpi_begin_indep_data(nc));
    if (tu_myrank == tu_nranks - 1)
        CHECK_ERR(ncmpi_put_vara_int(nc, v->a, st, ct, row));
    CHECK_ERR(ncmpi_end_indep_data(nc));
}

static void write_file(const char *path, int format, MPI_Info info)
{
    int nc;
    vars v;
    CHECK_ERR(ncmpi_create(MPI_COMM_WORLD, path, NC_CLOBBER | format, info,
                           &nc));
    CHECK_ERR(ncmpi_set_fill(nc, NC_FILL, NULL));
    define(nc, &v);
    CHECK_ERR(ncmpi_enddef(nc));
    write_fixed(nc, &v);
    write_records(nc, &v);
    write_independent(nc, &v);
    CHECK_ERR(ncmpi_close(nc));
}

static int varid(int nc, const char *name)
{
    int id = -1;
    CHECK_ERR(ncmpi_inq_varid(nc, name, &id));
    return id;
}

/* Every other row and column of a, from the rank's own offset, into
 * every other element of memory: noncontiguous on both sides. */
static int check_strided(int nc)
{
    MPI_Offset st[2] = {tu_myrank % 2, tu_myrank % 3}, ct[2], sd[2] = {2, 2};
    MPI_Offset im[2], y, x;
    int buf[2 * NY * NX], bad = 0;
    ct[0] = (NY - st[0] + 1) / 2, ct[1] = (NX - st[1] + 1) / 2;
    im[0] = 2 * ct[1], im[1] = 2;
    memset(buf, 0, sizeof buf);
    CHECK_ERR(ncmpi_get_varm_int_all(nc, varid(nc, "a"), st, ct, sd, im,
                                     buf));
    for (y = 0; y < ct[0]; y++)
        for (x = 0; x < ct[1]; x++)
            bad += buf[y * im[0] + x * 2] !=
                   value_at(0, 0, (int)(st[0] + 2 * y), (int)(st[1] + 2 * x));
    return bad;
}

static int check_all(int nc)
{
    int y, x, r, bad = 0, ibuf[NY * NX];
    short sbuf[NREC * NY * NX];
    float fbuf[NREC * NX];
    double dbuf[NY];
    signed char *big = malloc(NBIG);
    MPI_Offset i;
    CHECK_ERR(ncmpi_get_var_int_all(nc, varid(nc, "a"), ibuf));
    for (y = 0; y < NY * NX; y++) bad += ibuf[y] != value_at(0, 0, y / NX, y % NX);
    CHECK_ERR(ncmpi_get_var_double_all(nc, varid(nc, "b"), dbuf));
    for (y = 0; y < NY; y++) bad += dbuf[y] != value_at(3, 0, y, 0) + 0.25;
    CHECK_ERR(ncmpi_get_var_int_all(nc, varid(nc, "fill"), ibuf));
    for (y = 0; y < NY * NX; y++) bad += ibuf[y] != NC_FILL_INT;
    CHECK_ERR(ncmpi_get_var_short_all(nc, varid(nc, "r"), sbuf));
    for (r = 0; r < NREC; r++)
        for (y = 0; y < NY * NX; y++)
            bad += sbuf[r * NY * NX + y] != (short)value_at(1, r, y / NX, y % NX);
    CHECK_ERR(ncmpi_get_var_float_all(nc, varid(nc, "s"), fbuf));
    for (r = 0; r < NREC; r++)
        for (x = 0; x < NX; x++) bad += fbuf[r * NX + x] != (float)value_at(2, r, 0, x);
    CHECK_ERR(ncmpi_get_var_schar_all(nc, varid(nc, "big"), big));
    for (i = 0; i < NBIG; i++) bad += big[i] != big_at(i);
    free(big);
    return bad + check_strided(nc);
}

static void read_back(const char *path, MPI_Info info, const char *what)
{
    int nc, bad;
    MPI_Offset nrec = 0;
    CHECK_ERR(ncmpi_open(MPI_COMM_WORLD, path, NC_NOWRITE, info, &nc));
    CHECK_ERR(ncmpi_inq_dimlen(nc, 0, &nrec));
    CHECKF(nrec == NREC, "%s: %lld records", what, (long long)nrec);
    bad = check_all(nc);
    CHECKF(bad == 0, "%s: %d wrong values", what, bad);
    CHECK_ERR(ncmpi_close(nc));
}

static void check_identical(const char *main_path)
{
    char ref[1024], path[1024], suffix[64];
    int f, s;
    for (f = 0; f < 3; f++) {
        for (s = 0; s < NSETTINGS; s++) {
            MPI_Info info = tu_info_of(settings[s].hints);
            snprintf(suffix, sizeof suffix, "_%s_%s.nc", settings[s].name,
                     format_names[f]);
            tu_sibling(path, sizeof path, main_path, suffix);
            if (s == 0) snprintf(ref, sizeof ref, "%s", path);
            write_file(path, formats[f], info);
            read_back(path, info, suffix);
            MPI_Info_free(&info);
            if (tu_myrank == 0 && s > 0)
                CHECKF(tu_same_bytes(ref, path), "%s differs from the ungrouped "
                                              "file", suffix);
        }
    }
}

/* ---- counters: rounds and shipped bytes follow from sizes and the cap */

#define CAP 1500

static MPI_Offset share_of(int rank) { return (MPI_Offset)(rank + 1) * 1000; }

static MPI_Offset start_of(int rank)
{
    MPI_Offset s = 0;
    int q;
    for (q = 0; q < rank; q++) s += share_of(q);
    return s;
}

/* Rounds of the group of ranks [lo, hi), whose variable starts at file
 * offset begin, reading or writing: the group's aggregator plans by the
 * posix hints, here whole windows of CAP bytes on a grid from offset 0
 * (the first 1 MiB boundary), one round for each window the group's
 * bytes touch; a group of one hands its bytes on whole. */
static long long group_rounds(int lo, int hi, MPI_Offset begin)
{
    MPI_Offset first = begin + start_of(lo), last = begin + start_of(hi) - 1;
    if (hi - lo == 1) return 1;
    return (long long)(last / CAP - first / CAP + 1);
}

/* What rank r must count under group size g: its group's rounds, and a
 * member its own bytes shipped (over posix an aggregator moves its
 * group's bytes on its own, so it counts no other group's rounds). */
static void expected(int g, MPI_Offset begin, long long rounds[2],
                     long long *bytes)
{
    int r = tu_myrank, lo = r / g * g, hi = lo + g;
    if (hi > tu_nranks) hi = tu_nranks;
    rounds[0] = rounds[1] = group_rounds(lo, hi, begin);
    *bytes = r == lo ? 0 : (long long)share_of(r);
}

/* The groups are stacked over the file's driver: nc_driver names the one
 * that moves the bytes, never the groups. */
static void check_driver_name(int nc, const char *gval)
{
    char drv[MPI_MAX_INFO_VAL + 1];
    int flag = 0;
    MPI_Info used = MPI_INFO_NULL;
    CHECK_ERR(ncmpi_inq_file_info(nc, &used));
    if (used == MPI_INFO_NULL) return;
    MPI_Info_get(used, "nc_driver", MPI_MAX_INFO_VAL, drv, &flag);
    CHECKF(flag && strcmp(drv, "posix") == 0,
           "group size %s: nc_driver %s, want posix", gval,
           flag ? drv : "(unset)");
    MPI_Info_free(&used);
}

static void check_counters(const char *path, int g, const char *gval)
{
    char hints[128];
    MPI_Info info;
    MPI_Offset st = start_of(tu_myrank), ct = share_of(tu_myrank), i;
    signed char *buf = malloc((size_t)ct), *back = malloc((size_t)ct);
    int nc, dim, var, bad = 0;
    long long rounds[2], bytes;
    MPI_Offset begin;
    ncpario_profile p;
    snprintf(hints, sizeof hints,
             "nc_io_group_size=%s;nc_io_group_buffer_size=%d;"
             "nc_posix_shm=disable;nc_posix_window=full", gval, CAP);
    info = tu_info_of(hints);
    for (i = 0; i < ct; i++) buf[i] = (signed char)((st + i) % 127);
    CHECK_ERR(ncmpi_create(MPI_COMM_WORLD, path, NC_CLOBBER, info, &nc));
    CHECK_ERR(ncmpi_set_fill(nc, NC_NOFILL, NULL));
    CHECK_ERR(ncmpi_def_dim(nc, "n", start_of(tu_nranks), &dim));
    CHECK_ERR(ncmpi_def_var(nc, "v", NC_BYTE, 1, &dim, &var));
    CHECK_ERR(ncmpi_enddef(nc));
    CHECK_ERR(ncmpi_inq_varoffset(nc, var, &begin));
    expected(g, begin, rounds, &bytes);
    CHECK_ERR(ncmpi_put_vara_schar_all(nc, var, &st, &ct, buf));
    CHECK_ERR(ncmpi_get_vara_schar_all(nc, var, &st, &ct, back));
    for (i = 0; i < ct; i++) bad += back[i] != buf[i];
    CHECK_ERR(ncpario_inq_profile(nc, &p));
    check_driver_name(nc, gval);
    CHECKF(bad == 0, "group size %s: %d wrong bytes read", gval, bad);
    CHECKF(p.group_rounds_write == rounds[1] &&
               p.group_rounds_read == rounds[0],
           "group size %s: rounds %lld write, %lld read, want %lld, %lld",
           gval, p.group_rounds_write, p.group_rounds_read, rounds[1],
           rounds[0]);
    CHECKF(p.group_bytes_shipped_write == bytes &&
               p.group_bytes_shipped_read == bytes,
           "group size %s: shipped %lld write, %lld read, want %lld", gval,
           p.group_bytes_shipped_write, p.group_bytes_shipped_read, bytes);
    CHECK_ERR(ncmpi_close(nc));
    MPI_Info_free(&info);
    free(buf);
    free(back);
}

/* ---- bad hints */

static void check_bad_hints(const char *main_path)
{
    static const char *const bad[] = {
        "nc_io_group_size=0",
        "nc_io_group_size=-2",
        "nc_io_group_size=two",
        "nc_io_group_size=al",
        "nc_io_group_per_node=0",
        "nc_io_group_per_node=1x",
        "nc_io_group_size=2;nc_io_group_per_node=1",
        "nc_io_group_size=2;nc_io_group_buffer_size=0",
        "nc_io_group_size=2;nc_io_group_buffer_size=2147483648",
    };
    char path[1024], existing[1024], differ[64];
    int i;
    tu_sibling(path, sizeof path, main_path, "_bad.nc");
    tu_sibling(existing, sizeof existing, main_path, "_counters.nc");
    for (i = 0; i < (int)(sizeof bad / sizeof bad[0]); i++)
        tu_check_bad_hint(path, existing, bad[i]);
    if (tu_nranks > 1) {
        /* ranks that would form different groups */
        snprintf(differ, sizeof differ, "nc_io_group_size=%d",
                 1 + tu_myrank % 2);
        tu_check_bad_hint(path, existing, differ);
    }
}

int main(int argc, char **argv)
{
    char path[1024];
    const char *main_path;
    tu_init(&argc, &argv);
    main_path = tu_main_path(argc, argv);
    CHECK(main_path != NULL);
    if (!main_path) return tu_finish("t_groups");
    /* the test sets its own hints; an inherited PNETCDF_HINTS wins over
     * them */
    unsetenv("PNETCDF_HINTS");
    check_identical(main_path);
    tu_sibling(path, sizeof path, main_path, "_counters.nc");
    check_counters(path, 1, "1");
    check_counters(path, 2, "2");
    check_counters(path, 3, "3");
    check_counters(path, tu_nranks, "all");
    check_bad_hints(main_path);
    return tu_finish("t_groups");
}
