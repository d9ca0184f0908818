/* size_probe.c -- prints what ncmpi_inq_put_size and ncmpi_inq_get_size
 * say, on every rank, after each step of a few scenarios: the header write
 * at enddef, collective puts that add records and one that does not, an
 * independent put of a record and the end of independent mode, a sync, a
 * header read at open (a small header and one larger than the read
 * chunk), reads of fixed and record data.  ctest interop.size_probe builds
 * it against ncpario and against PnetCDF and runs both on 2 ranks; the
 * output must be identical, since benchmarks report bandwidth from these
 * numbers.  Rank 0 prints every rank's counts, in rank order.
 *
 * Usage: mpirun -np N size_probe DIRECTORY
 */
#include <mpi.h>
#include <pnetcdf.h>
#include <stdio.h>
#include <string.h>

#define NX 6

static int rank, nranks;

/* One line: the step's name and each rank's put and get sizes. */
static void report(int nc, const char *step)
{
    MPI_Offset mine[2] = {-1, -1}, all[2 * 64];
    int err, i;

    err = ncmpi_inq_put_size(nc, &mine[0]);
    if (err == NC_NOERR) err = ncmpi_inq_get_size(nc, &mine[1]);
    if (err != NC_NOERR) mine[0] = mine[1] = err;
    MPI_Gather(mine, 2, MPI_OFFSET, all, 2, MPI_OFFSET, 0, MPI_COMM_WORLD);
    if (rank != 0) return;
    printf("%s:", step);
    for (i = 0; i < nranks; i++)
        printf(" [%d] put=%lld get=%lld", i, (long long)all[2 * i],
               (long long)all[2 * i + 1]);
    printf("\n");
}

static void put_record(int nc, int v, MPI_Offset rec, int all)
{
    MPI_Offset st[2] = {rec, (MPI_Offset)rank}, ct[2] = {1, 1};
    int x = (int)rec * 10 + rank;

    if (all)
        ncmpi_put_vara_int_all(nc, v, st, ct, &x);
    else
        ncmpi_put_vara_int(nc, v, st, ct, &x);
}

/* Records grow, then do not; independent mode; sync; close. */
static void write_steps(const char *path, int cmode)
{
    int nc, dt, dx, dims[2], vf, vr, buf[NX] = {0, 1, 2, 3, 4, 5};
    MPI_Offset st = rank, ct = 1;

    ncmpi_create(MPI_COMM_WORLD, path, NC_CLOBBER | cmode, MPI_INFO_NULL, &nc);
    ncmpi_def_dim(nc, "t", NC_UNLIMITED, &dt);
    ncmpi_def_dim(nc, "x", NX, &dx);
    ncmpi_def_var(nc, "f", NC_INT, 1, &dx, &vf);
    dims[0] = dt;
    dims[1] = dx;
    ncmpi_def_var(nc, "r", NC_INT, 2, dims, &vr);
    ncmpi_put_att_text(nc, NC_GLOBAL, "title", 5, "probe");
    report(nc, "create");
    ncmpi_enddef(nc);
    report(nc, "enddef");
    ncmpi_put_vara_int_all(nc, vf, &st, &ct, &buf[rank]);
    report(nc, "fixed put");
    put_record(nc, vr, 0, 1);
    report(nc, "record 0");
    put_record(nc, vr, 1, 1);
    report(nc, "record 1");
    put_record(nc, vr, 0, 1);
    report(nc, "record 0 again");
    ncmpi_begin_indep_data(nc);
    if (rank == 0) put_record(nc, vr, 2, 0);
    ncmpi_end_indep_data(nc);
    report(nc, "independent record 2");
    ncmpi_begin_indep_data(nc);
    ncmpi_end_indep_data(nc);
    report(nc, "independent, nothing");
    ncmpi_sync(nc);
    report(nc, "sync");
    ncmpi_close(nc);
}

static void read_steps(const char *path, const char *label)
{
    int nc, buf[NX * 3];
    char step[128];

    ncmpi_open(MPI_COMM_WORLD, path, NC_NOWRITE, MPI_INFO_NULL, &nc);
    snprintf(step, sizeof step, "%s open", label);
    report(nc, step);
    ncmpi_get_var_int_all(nc, 0, buf);
    snprintf(step, sizeof step, "%s fixed get", label);
    report(nc, step);
    ncmpi_get_var_int_all(nc, 1, buf);
    snprintf(step, sizeof step, "%s record get", label);
    report(nc, step);
    ncmpi_close(nc);
}

/* A header larger than the 256 KiB read chunk, so open reads twice. */
static void big_header(const char *path)
{
    static char text[300000];
    int nc;

    memset(text, 'h', sizeof text);
    ncmpi_create(MPI_COMM_WORLD, path, NC_CLOBBER, MPI_INFO_NULL, &nc);
    ncmpi_put_att_text(nc, NC_GLOBAL, "big", sizeof text, text);
    ncmpi_enddef(nc);
    report(nc, "big header enddef");
    ncmpi_close(nc);
    ncmpi_open(MPI_COMM_WORLD, path, NC_NOWRITE, MPI_INFO_NULL, &nc);
    report(nc, "big header open");
    ncmpi_close(nc);
}

int main(int argc, char **argv)
{
    char path[4096];
    const char *dir = argc > 1 ? argv[1] : "/tmp";

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nranks);
    if (nranks <= 64) {
        snprintf(path, sizeof path, "%s/size_probe.nc", dir);
        write_steps(path, 0);
        read_steps(path, "CDF-1");
        snprintf(path, sizeof path, "%s/size_probe5.nc", dir);
        write_steps(path, NC_64BIT_DATA);
        read_steps(path, "CDF-5");
        snprintf(path, sizeof path, "%s/size_probe_big.nc", dir);
        big_header(path);
    }
    MPI_Finalize();
    return 0;
}
