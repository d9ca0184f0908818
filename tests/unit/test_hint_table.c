/*
 * test_hint_table.c -- unit test of the hint table (src/util/hint_table.c,
 * hint_table.def): each row's default, its parsing (range, words, the
 * rule for a bad value), nc_num_aggrs_per_node settled into the I/O
 * groups, and that ncmpi_inq_file_info reports every numeric row with
 * the value in effect, in a form that create accepts back.
 *
 * Prints "N passed, M failed"; exit status 0 only when M is 0.
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <pnetcdf.h>

#include "util/ncp_hints.h"
#include "unit_check.h"

/* Under AddressSanitizer the leak check runs: OpenMPI keeps what
 * MPI_Init and its progress thread allocate, so those are not ours to
 * report, and the full stacks are needed to tell them apart. */
const char *__asan_default_options(void);
const char *__lsan_default_suppressions(void);
const char *__asan_default_options(void) { return "fast_unwind_on_malloc=0"; }
const char *__lsan_default_suppressions(void)
{
    return "leak:PMPI_Init\nleak:ompi_mpi_finalize\nleak:libevent_core\n";
}

static MPI_Info info_of(const char *key, const char *val)
{
    MPI_Info info;
    MPI_Info_create(&info);
    MPI_Info_set(info, key, val);
    return info;
}

/* Read owner's rows of key=val strictly: the error, and h as read. */
static int read_one(const char *key, const char *val, unsigned owner,
                    ncp_hints *h)
{
    MPI_Info info = info_of(key, val);
    int err;
    ncp_hints_defaults(h);
    err = ncp_hints_read(info, owner, 1, h);
    MPI_Info_free(&info);
    return err;
}

static void test_defaults(void)
{
    ncp_hints h;
    ncp_hints_defaults(&h);
    check(h.header_align == -1 && h.var_align == -1 && h.record_align == -1,
          "alignments unset by default");
    check(h.in_place_swap == NCP_SWAP_AUTO, "nc_in_place_swap auto");
    check(h.ibuf_size == (int64_t)16 << 20, "nc_ibuf_size 16 MiB");
    check(h.io_group_size == 0 && h.io_group_per_node == 0 &&
              h.num_aggrs_per_node == 0,
          "I/O groups off by default");
    check(h.io_group_buffer_size == (int64_t)1 << 20, "group cap 1 MiB");
    check(h.posix_aggrs_per_node == 1 && h.posix_buffer_size == 1 << 20,
          "posix defaults");
    check(h.safe_mode == 0, "safe mode off by default");
    check(strcmp(ncp_hints_key(NCP_HINT_driver), "nc_driver") == 0,
          "the driver's key");
}

static void test_parse(void)
{
    ncp_hints h;
    /* PnetCDF's keys: a bad value keeps the default, strict or not */
    check(read_one("nc_var_align_size", "-3", NCP_HO_DATASET, &h) ==
                  NC_NOERR && h.var_align == -1,
          "bad alignment ignored");
    check(read_one("nc_var_align_size", "256", NCP_HO_DATASET, &h) ==
                  NC_NOERR && h.var_align == 256,
          "alignment read");
    check(read_one("nc_in_place_swap", "disable", NCP_HO_DATASET, &h) ==
                  NC_NOERR && h.in_place_swap == NCP_SWAP_DISABLE,
          "enum read");
    check(read_one("nc_in_place_swap", "maybe", NCP_HO_DATASET, &h) ==
                  NC_NOERR && h.in_place_swap == NCP_SWAP_AUTO,
          "bad enum ignored");
    /* ncpario's own: NC_EINVAL */
    check(read_one("nc_posix_buffer_size", "0", NCP_HO_POSIX, &h) ==
              NC_EINVAL, "posix buffer 0 refused");
    check(read_one("nc_posix_buffer_size", "2147483648", NCP_HO_POSIX,
                   &h) == NC_EINVAL, "posix buffer over 1 GiB refused");
    check(read_one("nc_posix_window", "full", NCP_HO_POSIX, &h) ==
                  NC_NOERR && h.posix_window == 1,
          "posix window full");
    check(read_one("nc_posix_shm", "yes", NCP_HO_POSIX, &h) == NC_EINVAL,
          "bad posix shm refused");
    check(read_one("nc_io_group_size", "all", NCP_HO_GROUP, &h) ==
                  NC_NOERR && h.io_group_size == -1,
          "group size all");
    check(read_one("nc_io_group_size", "off", NCP_HO_GROUP, &h) ==
                  NC_NOERR && h.io_group_size == 0,
          "group size off");
    check(read_one("nc_io_group_size", "0", NCP_HO_GROUP, &h) == NC_EINVAL,
          "group size 0 refused");
    check(read_one("nc_io_group_size", "al", NCP_HO_GROUP, &h) == NC_EINVAL,
          "group size al refused");
    /* a row is read only by its owner */
    check(read_one("nc_posix_shm", "yes", NCP_HO_GROUP, &h) == NC_NOERR,
          "another owner's row not read");
    /* non-strict: a bad value of ncpario's keeps the default */
    {
        MPI_Info info = info_of("nc_posix_shm", "yes");
        ncp_hints_defaults(&h);
        check(ncp_hints_read(info, NCP_HO_POSIX, 0, &h) == NC_NOERR &&
                  h.posix_shm == 0,
              "non-strict read keeps the default");
        MPI_Info_free(&info);
    }
}

static void test_aggrs_per_node(void)
{
    ncp_hints h;
    MPI_Info info;
    check(read_one("nc_num_aggrs_per_node", "3", NCP_HO_GROUP, &h) ==
                  NC_NOERR && h.num_aggrs_per_node == 3 &&
              h.io_group_per_node == 3 && h.io_group_size == 0,
          "nc_num_aggrs_per_node=3: three groups a node");
    check(read_one("nc_num_aggrs_per_node", "0", NCP_HO_GROUP, &h) ==
                  NC_NOERR && h.io_group_per_node == 0,
          "nc_num_aggrs_per_node=0: off");
    check(read_one("nc_num_aggrs_per_node", "two", NCP_HO_GROUP, &h) ==
                  NC_NOERR && h.io_group_per_node == 0,
          "nc_num_aggrs_per_node=two: ignored, as PnetCDF's keys are");
    info = info_of("nc_num_aggrs_per_node", "2");
    MPI_Info_set(info, "nc_io_group_size", "4");
    ncp_hints_defaults(&h);
    check(ncp_hints_read(info, NCP_HO_GROUP, 1, &h) == NC_EINVAL,
          "nc_num_aggrs_per_node with nc_io_group_size refused");
    MPI_Info_set(info, "nc_io_group_size", "off");
    MPI_Info_set(info, "nc_io_group_per_node", "2");
    ncp_hints_defaults(&h);
    check(ncp_hints_read(info, NCP_HO_GROUP, 1, &h) == NC_NOERR &&
              h.io_group_per_node == 2,
          "nc_num_aggrs_per_node equal to nc_io_group_per_node");
    MPI_Info_set(info, "nc_io_group_per_node", "3");
    ncp_hints_defaults(&h);
    check(ncp_hints_read(info, NCP_HO_GROUP, 1, &h) == NC_EINVAL,
          "nc_num_aggrs_per_node other than nc_io_group_per_node refused");
    MPI_Info_free(&info);
}

static int has(MPI_Info info, const char *key, const char *want)
{
    char val[MPI_MAX_INFO_VAL + 1];
    int flag = 0;
    MPI_Info_get(info, key, MPI_MAX_INFO_VAL, val, &flag);
    return flag && (!want || strcmp(val, want) == 0);
}

/* Every row is reported; the values in effect go back into create. */
static void test_report(const char *dir)
{
    char path[1024];
    MPI_Info info = info_of("nc_num_aggrs_per_node", "1"), used;
    int nc, i, ok = 1;
    snprintf(path, sizeof path, "%s/hint_table.nc", dir);
    MPI_Info_set(info, "nc_posix_buffer_size", "65536");
    check(ncmpi_create(MPI_COMM_SELF, path, NC_CLOBBER, info, &nc) ==
              NC_NOERR, "create");
    MPI_Info_free(&info);
    check(ncmpi_enddef(nc) == NC_NOERR, "enddef");
    check(ncmpi_inq_file_info(nc, &used) == NC_NOERR, "inq_file_info");
    /* nc_burst_buf_dirname names a folder only when one was given */
    for (i = 0; i < NCP_HINT_COUNT; i++)
        if (i != NCP_HINT_burst_buf_dirname &&
            !has(used, ncp_hints_key((ncp_hint_id)i), NULL)) {
            printf("  %s not reported\n", ncp_hints_key((ncp_hint_id)i));
            ok = 0;
        }
    check(ok, "every row reported");
    check(has(used, "nc_num_aggrs_per_node", "1") &&
              has(used, "nc_io_group_per_node", "1") &&
              has(used, "nc_io_group_size", "off"),
          "groups reported as in effect");
    check(has(used, "nc_posix_buffer_size", "65536") &&
              has(used, "nc_posix_shm", "auto") &&
              has(used, "nc_posix_aggrs_per_node", "1") &&
              has(used, "nc_io_group_buffer_size", "1048576"),
          "values and defaults reported");
    check(has(used, "nc_write_behind", "disable") &&
              has(used, "nc_write_behind_size", "268435456") &&
              !has(used, "nc_burst_buf_dirname", NULL),
          "write-behind's budget in effect reported, no log folder");
    check(has(used, "nc_var_align_size", "4") &&
              has(used, "nc_header_align_size", "512") &&
              has(used, "nc_driver", "posix"),
          "resolved alignments and the driver reported");
    check(ncmpi_close(nc) == NC_NOERR, "close");
    check(ncmpi_create(MPI_COMM_SELF, path, NC_CLOBBER, used, &nc) ==
              NC_NOERR, "create takes the reported hints back");
    check(ncmpi_close(nc) == NC_NOERR, "close again");
    MPI_Info_free(&used);
    unlink(path);
}

int main(int argc, char **argv)
{
    const char *dir = getenv("TMPDIR");
    MPI_Init(&argc, &argv);
    unsetenv("PNETCDF_HINTS");
    test_defaults();
    test_parse();
    test_aggrs_per_node();
    test_report(dir && *dir ? dir : "/tmp");
    MPI_Finalize();
    printf("%ld passed, %ld failed\n", passed, failed);
    return failed ? 1 : 0;
}
