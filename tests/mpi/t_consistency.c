/* ncp-test: RANKS 1 2 4 */
/* t_consistency -- ranks that define different things.
 *
 * Rank 1 deviates in one detail per case (a dimension's length or name, a
 * variable's name or type, an attribute's value or length, the create
 * mode).  Measured PnetCDF 1.12.3 behaviour, default (non-safe) mode:
 * enddef does not compare definitions and returns NC_NOERR everywhere;
 * rank 0's definition is what reaches the file.  (With PNETCDF_SAFE_MODE=1
 * the comparison happens inside each def_dim/def_var/put_att call and
 * returns the matching NC_EMULTIDEFINE_* code on every rank.)  ncpario
 * compares at enddef, adopts rank 0's definitions on every rank and, out
 * of safe mode, returns NC_NOERR as PnetCDF does.  This test demands
 * NC_NOERR at enddef on every rank, and that the file, reopened, is rank
 * 0's definition on every rank.  A differing
 * create mode is reported to the deviating ranks as
 * NC_EMULTIDEFINE_CMODE, the file takes rank 0's format, and the dataset
 * is still open on every rank.  At np=1 nothing deviates.
 */
#include "testutil.h"

#define NX 5

enum { C_DIMLEN, C_VARNAME, C_VARTYPE, C_ATTVAL, C_ATTLEN, C_DIMNAME, C_CMODE, NCASE };
static const char *suffix[NCASE] = {".nc", "_varname.nc", "_vartype.nc", "_attval.nc",
                                    "_attlen.nc", "_dimname.nc", "_cmode.nc"};

static void same_everywhere(int err, const char *what)
{
    int lo, hi;
    MPI_Allreduce(&err, &lo, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    MPI_Allreduce(&err, &hi, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    CHECKF(lo == hi, "%s: ranks disagree (%d..%d)", what, lo, hi);
}

static void one_case(const char *main_path, int k)
{
    char path[4096], name[NC_MAX_NAME + 1], txt[8];
    int dev = tu_myrank == 1, nc, d, v, err, err0, att = 0, fmt = 0, i, buf[NX];
    MPI_Offset len = 0;
    nc_type t = 0;

    tu_sibling(path, sizeof path, main_path, suffix[k]);
    err = ncmpi_create(MPI_COMM_WORLD, path, NC_CLOBBER | (k == C_CMODE && dev ? NC_64BIT_DATA : 0),
                       MPI_INFO_NULL, &nc);
    if (k == C_CMODE) {
        CHECKF(err == (dev ? NC_EMULTIDEFINE_CMODE : NC_NOERR), "create: %s", ncmpi_strerrno(err));
    } else {
        CHECK_ERR(err);
    }
    /* rank 0's verdict decides whether the dataset is open everywhere */
    err0 = err;
    MPI_Bcast(&err0, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (err0 != NC_NOERR)
        return;
    CHECK_ERR(ncmpi_def_dim(nc, k == C_DIMNAME && dev ? "y" : "x",
                            k == C_DIMLEN && dev ? NX + 1 : NX, &d));
    CHECK_ERR(ncmpi_def_var(nc, k == C_VARNAME && dev ? "w" : "v",
                            k == C_VARTYPE && dev ? NC_FLOAT : NC_INT, 1, &d, &v));
    CHECK_ERR(ncmpi_put_att_int(nc, v, "a", NC_INT, 1, &(int){k == C_ATTVAL && dev ? 2 : 1}));
    CHECK_ERR(ncmpi_put_att_text(nc, NC_GLOBAL, "t", k == C_ATTLEN && dev ? 3 : 2, "abc"));
    err = ncmpi_enddef(nc);
    CHECKF(err == NC_NOERR, "case %d enddef: %s", k, ncmpi_strerrno(err));
    same_everywhere(err, "enddef");
    CHECK_ERR(ncmpi_close(nc));

    /* the file holds rank 0's definition, for every rank */
    CHECK_ERR(ncmpi_inq_file_format(path, &fmt));
    CHECK(fmt == NC_FORMAT_CLASSIC);
    CHECK_ERR(ncmpi_open(MPI_COMM_WORLD, path, NC_WRITE, MPI_INFO_NULL, &nc));
    CHECK_ERR(ncmpi_inq_dim(nc, 0, name, &len));
    CHECK(strcmp(name, "x") == 0 && len == NX);
    CHECK_ERR(ncmpi_inq_var(nc, 0, name, &t, NULL, NULL, NULL));
    CHECK(strcmp(name, "v") == 0 && t == NC_INT);
    CHECK_ERR(ncmpi_get_att_int(nc, 0, "a", &att));
    CHECK(att == 1);
    CHECK_ERR(ncmpi_inq_attlen(nc, NC_GLOBAL, "t", &len));
    CHECK(len == 2);
    CHECK_ERR(ncmpi_get_att_text(nc, NC_GLOBAL, "t", txt));
    CHECK(memcmp(txt, "ab", 2) == 0);
    /* and it is usable: write it through */
    for (i = 0; i < NX; i++)
        buf[i] = 10 * k + i;
    CHECK_ERR(ncmpi_put_var_int_all(nc, 0, buf));
    CHECK_ERR(ncmpi_close(nc));
}

int main(int argc, char **argv)
{
    const char *path;
    int k;
    tu_init(&argc, &argv);
    path = tu_main_path(argc, argv);
    CHECK(path != NULL);
    if (!path)
        return tu_finish("t_consistency");
    for (k = 0; k < NCASE; k++)
        one_case(path, k);
    return tu_finish("t_consistency");
}
