/* ncp-test: RANKS 1 2 4 NO_CDL */
/* t_hints_aggrs -- nc_num_aggrs_per_node, PnetCDF 1.14's intra-node
 * aggregation (N aggregators a node, 0 = off): one program writes fixed
 * and record variables (blocking, iput + wait_all, independent mode)
 * under N = 0, 1, 2 and a bad value, through each driver; every file
 * holds the same bytes and reads back right.  ncpario takes N as N I/O
 * groups a node: its profile shows group rounds exactly when N > 0, and
 * ncmpi_inq_file_info reports N and the groups it formed; N with another
 * grouping hint is NC_EINVAL.  PnetCDF 1.12.3 ignores the key, so its
 * build checks the data only.  The main file is written under N = 2.
 */
#define _POSIX_C_SOURCE 200809L /* strtok_r, unsetenv */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "testutil.h"
#include "hintutil.h"

#include "have_ncpario.h"

#define NY 19
#define NX 6
#define NREC 3

typedef struct setting {
    const char *suffix;
    const char *hints;
    int groups; /* ncpario forms I/O groups under it */
    const char *per_node; /* nc_io_group_per_node reported */
} setting;

static const setting settings[] = {
    {"_n0.nc", "nc_num_aggrs_per_node=0", 0, "off"},
    {"_n1.nc", "nc_num_aggrs_per_node=1", 1, "1"},
    {"_bad.nc", "nc_num_aggrs_per_node=two", 0, "off"},
    {"_mpiio_n1.nc", "nc_driver=mpiio;nc_num_aggrs_per_node=1", 1, "1"},
    {"_mpiio_n2.nc", "nc_driver=mpiio;nc_num_aggrs_per_node=2", 1, "2"},
    {"", "nc_num_aggrs_per_node=2", 1, "2"}, /* the main file, last */
};
#define NSETTINGS ((int)(sizeof(settings) / sizeof(settings[0])))

static int value_at(int var, int rec, int y, int x)
{
    return var * 10000 + rec * 1000 + y * NX + x;
}

/* This rank's rows; the last of several ranks has none. */
static void my_rows(MPI_Offset *y0, MPI_Offset *ny)
{
    int writers = tu_nranks > 1 ? tu_nranks - 1 : 1;
    *y0 = 0, *ny = 0;
    if (tu_myrank < writers) tu_part(NY, tu_myrank, writers, y0, ny);
}

#ifdef HAVE_NCPARIO
static void check_reported(int nc, const setting *set, const char *n)
{
    MPI_Info used = MPI_INFO_NULL;
    char val[MPI_MAX_INFO_VAL + 1];
    int flag = 0;
    ncpario_profile p;
    long long most;
    CHECK_ERR(ncpario_inq_profile(nc, &p));
    /* a group of one with no data of its own runs no round */
    most = p.group_rounds_write;
    MPI_Allreduce(MPI_IN_PLACE, &most, 1, MPI_LONG_LONG, MPI_MAX,
                  MPI_COMM_WORLD);
    CHECKF((most > 0) == set->groups, "%s: %lld group rounds at most",
           set->hints, most);
    CHECK_ERR(ncmpi_inq_file_info(nc, &used));
    if (used == MPI_INFO_NULL) return;
    MPI_Info_get(used, "nc_num_aggrs_per_node", MPI_MAX_INFO_VAL, val, &flag);
    CHECKF(flag && strcmp(val, n) == 0, "%s: nc_num_aggrs_per_node=%s",
           set->hints, flag ? val : "(none)");
    flag = 0;
    MPI_Info_get(used, "nc_io_group_per_node", MPI_MAX_INFO_VAL, val, &flag);
    CHECKF(flag && strcmp(val, set->per_node) == 0,
           "%s: nc_io_group_per_node=%s", set->hints, flag ? val : "(none)");
    MPI_Info_free(&used);
}
#endif

static void write_file(const char *path, const setting *set)
{
    MPI_Info info = tu_info_of(set->hints);
    MPI_Offset y0, ny, st[3], ct[3];
    int nc, dt, dy, dx, dims[3], vf, vr, vi, r, i, req[NREC];
    int fbuf[NY * NX], ibuf[NY];
    short rbuf[NREC][NY * NX];
    const char *n = strchr(set->hints, '=') ? strrchr(set->hints, '=') + 1
                                             : "0";
    my_rows(&y0, &ny);
    CHECK_ERR(ncmpi_create(MPI_COMM_WORLD, path, NC_CLOBBER, info, &nc));
    CHECK_ERR(ncmpi_def_dim(nc, "t", NC_UNLIMITED, &dt));
    CHECK_ERR(ncmpi_def_dim(nc, "y", NY, &dy));
    CHECK_ERR(ncmpi_def_dim(nc, "x", NX, &dx));
    dims[0] = dy, dims[1] = dx;
    CHECK_ERR(ncmpi_def_var(nc, "f", NC_INT, 2, dims, &vf));
    CHECK_ERR(ncmpi_def_var(nc, "i", NC_INT, 1, &dy, &vi));
    dims[0] = dt, dims[1] = dy, dims[2] = dx;
    CHECK_ERR(ncmpi_def_var(nc, "r", NC_SHORT, 3, dims, &vr));
    CHECK_ERR(ncmpi_enddef(nc));

    for (i = 0; i < ny * NX; i++)
        fbuf[i] = value_at(0, 0, (int)y0 + i / NX, i % NX);
    st[0] = y0, st[1] = 0, ct[0] = ny, ct[1] = NX;
    CHECK_ERR(ncmpi_put_vara_int_all(nc, vf, st, ct, fbuf));
    for (r = 0; r < NREC; r++) {
        for (i = 0; i < ny * NX; i++)
            rbuf[r][i] = (short)value_at(1, r, (int)y0 + i / NX, i % NX);
        st[0] = r, st[1] = y0, st[2] = 0, ct[0] = 1, ct[1] = ny, ct[2] = NX;
        CHECK_ERR(ncmpi_iput_vara_short(nc, vr, st, ct, rbuf[r], &req[r]));
    }
    CHECK_ERR(ncmpi_wait_all(nc, NREC, req, NULL));
    /* independent mode is never aggregated */
    CHECK_ERR(ncmpi_begin_indep_data(nc));
    for (i = 0; i < ny; i++) ibuf[i] = value_at(2, 0, (int)y0 + i, 0);
    st[0] = y0, ct[0] = ny;
    if (ny > 0) CHECK_ERR(ncmpi_put_vara_int(nc, vi, st, ct, ibuf));
    CHECK_ERR(ncmpi_end_indep_data(nc));
#ifdef HAVE_NCPARIO
    check_reported(nc, set, set->groups ? n : "0");
#else
    (void)n;
#endif
    CHECK_ERR(ncmpi_close(nc));
    MPI_Info_free(&info);
}

/* Every rank reads everything back under the setting's hints. */
static void read_back(const char *path, const setting *set)
{
    MPI_Info info = tu_info_of(set->hints);
    int nc, vid, bad = 0, y, r, fbuf[NY * NX], ibuf[NY];
    short rbuf[NREC * NY * NX];
    CHECK_ERR(ncmpi_open(MPI_COMM_WORLD, path, NC_NOWRITE, info, &nc));
    CHECK_ERR(ncmpi_inq_varid(nc, "f", &vid));
    CHECK_ERR(ncmpi_get_var_int_all(nc, vid, fbuf));
    for (y = 0; y < NY * NX; y++)
        bad += fbuf[y] != value_at(0, 0, y / NX, y % NX);
    CHECK_ERR(ncmpi_inq_varid(nc, "i", &vid));
    CHECK_ERR(ncmpi_get_var_int_all(nc, vid, ibuf));
    for (y = 0; y < NY; y++) bad += ibuf[y] != value_at(2, 0, y, 0);
    CHECK_ERR(ncmpi_inq_varid(nc, "r", &vid));
    CHECK_ERR(ncmpi_get_var_short_all(nc, vid, rbuf));
    for (r = 0; r < NREC; r++)
        for (y = 0; y < NY * NX; y++)
            bad += rbuf[r * NY * NX + y] !=
                   (short)value_at(1, r, y / NX, y % NX);
    CHECKF(bad == 0, "%s: %d wrong values", set->hints, bad);
    CHECK_ERR(ncmpi_close(nc));
    MPI_Info_free(&info);
}

int main(int argc, char **argv)
{
    char paths[NSETTINGS][1024];
    const char *path;
    int i;
    tu_init(&argc, &argv);
    path = tu_main_path(argc, argv);
    CHECK(path != NULL);
    if (!path) return tu_finish("t_hints_aggrs");
    /* the test sets its own hints; an inherited PNETCDF_HINTS (a group
     * size, say) would override or contradict them */
    unsetenv("PNETCDF_HINTS");
    for (i = 0; i < NSETTINGS; i++) {
        tu_sibling(paths[i], sizeof paths[i], path, settings[i].suffix);
        if (!*settings[i].suffix) snprintf(paths[i], sizeof paths[i], "%s",
                                           path);
        write_file(paths[i], &settings[i]);
        read_back(paths[i], &settings[i]);
        if (tu_myrank == 0 && i > 0)
            CHECKF(tu_same_bytes(paths[0], paths[i]), "%s differs from %s",
                   settings[i].hints, settings[0].hints);
    }
#ifdef HAVE_NCPARIO
    {
        char bad[1024];
        tu_sibling(bad, sizeof bad, path, "_refused.nc");
        tu_check_bad_hint(bad, paths[0],
                          "nc_num_aggrs_per_node=2;nc_io_group_size=2");
        tu_check_bad_hint(bad, paths[0],
                          "nc_num_aggrs_per_node=2;nc_io_group_per_node=1");
    }
#endif
    for (i = 0; i < NSETTINGS - 1; i++)
        if (tu_myrank == 0) unlink(paths[i]);
    return tu_finish("t_hints_aggrs");
}
