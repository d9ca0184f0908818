/*
 * hints.c -- `ncpario hints`: the hints in effect for one open.  Opens
 * the given file read-only (or creates and defines an empty scratch file)
 * with the user's --hint pairs; PNETCDF_HINTS applies as it does to any
 * program.  Then prints every key ncmpi_inq_file_info reports, sorted, so
 * that the defaults show as well as what was set.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <pnetcdf.h>

#include "ncpario_tool.h"

static void hints_usage(FILE *out)
{
    fprintf(out,
        "usage: ncpario hints [--hint KEY=VALUE]... [FILE]\n"
        "Open FILE read-only (without FILE: create a scratch file in "
        "$TMPDIR or /tmp,\nleave define mode and delete it) with the hints "
        "given and those of\nPNETCDF_HINTS, and print every hint the open "
        "reports, 'key = value', sorted.\n"
        "Exit: 0 ok, 2 usage error, 3 the file cannot be opened or "
        "created.\n");
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Print info's keys sorted, with their values (rank 0). */
static int print_info(MPI_Info info)
{
    int n = 0, i, flag, rc = NT_OK;
    char **keys = NULL, val[MPI_MAX_INFO_VAL + 1];
    MPI_Info_get_nkeys(info, &n);
    keys = calloc((size_t)(n > 0 ? n : 1), sizeof *keys);
    for (i = 0; keys != NULL && i < n; i++) {
        keys[i] = malloc(MPI_MAX_INFO_KEY + 1);
        if (keys[i] == NULL) break;
        MPI_Info_get_nthkey(info, i, keys[i]);
    }
    if (keys == NULL || i < n) {
        rc = NT_FAIL;
        n = i;
    } else {
        qsort(keys, (size_t)n, sizeof *keys, cmp_str);
    }
    for (i = 0; rc == NT_OK && i < n; i++) {
        MPI_Info_get(info, keys[i], MPI_MAX_INFO_VAL, val, &flag);
        printf("%s = %s\n", keys[i], flag ? val : "");
    }
    for (i = 0; keys != NULL && i < n; i++) free(keys[i]);
    free(keys);
    return rc;
}

/* A scratch file's name, made on rank 0 and shared. */
static int scratch_name(char *path, size_t cap)
{
    const char *dir = getenv("TMPDIR");
    int ok = 1;
    if (nt_rank() == 0) {
        int fd;
        snprintf(path, cap, "%s/ncpario-hints-XXXXXX",
                 dir && *dir ? dir : "/tmp");
        fd = mkstemp(path);
        if (fd < 0) ok = 0;
        else close(fd);
    }
    MPI_Bcast(&ok, 1, MPI_INT, 0, MPI_COMM_WORLD);
    MPI_Bcast(path, (int)cap, MPI_CHAR, 0, MPI_COMM_WORLD);
    return ok ? NT_OK : NT_FAIL;
}

int nt_hints(int argc, char **argv)
{
    const char *path = NULL, *val;
    char scratch[4096];
    int i, rc = NT_OK, err = NC_NOERR, ncid = -1, help = 0;
    MPI_Info info, used = MPI_INFO_NULL;

    MPI_Info_create(&info);
    for (i = 1; i < argc && rc == NT_OK; i++) {
        val = "";
        if (nt_is_help(argv[i])) {
            help = 1;
        } else if (nt_opt(argc, argv, &i, "--hint", NULL, &val)) {
            char key[MPI_MAX_INFO_KEY + 1];
            const char *eq = val ? strchr(val, '=') : NULL;
            if (eq == NULL || eq == val || eq - val > MPI_MAX_INFO_KEY) {
                rc = NT_USAGE;
            } else {
                memcpy(key, val, (size_t)(eq - val));
                key[eq - val] = '\0';
                MPI_Info_set(info, key, eq + 1);
            }
        } else if (argv[i][0] != '-' && path == NULL) {
            path = argv[i];
        } else {
            rc = NT_USAGE;
        }
    }
    if (help) {
        if (nt_rank() == 0) hints_usage(stdout);
        rc = NT_OK;
        goto done;
    }
    if (rc != NT_OK) {
        nt_err("hints", "bad arguments (see 'ncpario hints --help')");
        goto done;
    }
    if (path != NULL) {
        err = ncmpi_open(MPI_COMM_WORLD, path, NC_NOWRITE, info, &ncid);
    } else if ((rc = scratch_name(scratch, sizeof scratch)) == NT_OK) {
        err = ncmpi_create(MPI_COMM_WORLD, scratch, NC_CLOBBER, info, &ncid);
        if (err == NC_NOERR) err = ncmpi_enddef(ncid);
    }
    if (rc == NT_OK && err == NC_NOERR) err = ncmpi_inq_file_info(ncid, &used);
    if (rc == NT_OK && err != NC_NOERR) {
        nt_err("hints", "%s: %s", path ? path : scratch, ncmpi_strerror(err));
        rc = NT_FAIL;
    }
    if (rc == NT_OK && nt_rank() == 0) rc = print_info(used);
    if (used != MPI_INFO_NULL) MPI_Info_free(&used);
    if (ncid >= 0) ncmpi_close(ncid);
    if (path == NULL && nt_rank() == 0) remove(scratch);
    fflush(stdout);
    rc = nt_agree(rc);
done:
    MPI_Info_free(&info);
    return rc;
}
