/*
 * run.c -- `ncpario run [--] CMD [ARG...]`: runs a program built on
 * PnetCDF on ncpario, unchanged.  The drop-in directory (libpnetcdf.so.0d
 * and .so.4, dropin/) goes first on LD_LIBRARY_PATH and CMD replaces this
 * process, so the dynamic linker loads ncpario wherever the program or
 * one of its libraries asks for PnetCDF.  No MPI here: CMD may be mpirun
 * itself, and a program under mpirun may be started through this.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ncpario_tool.h"

static void run_usage(FILE *out)
{
    fprintf(out,
            "usage: ncpario run [--] COMMAND [ARG...]\n"
            "       ncpario run --print-dir\n"
            "Runs COMMAND with ncpario's libpnetcdf.so.0d first on "
            "LD_LIBRARY_PATH, so\na program built on PnetCDF runs on "
            "ncpario without a rebuild.\n"
            "--print-dir prints that directory.\n");
}

/* The drop-in directory from where this program lies: the path between
 * them is fixed at configure time, installed or in the build tree. */
static int dropin_dir(char *out, size_t len)
{
    char exe[PATH_MAX], probe[PATH_MAX + 32];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    char *slash;

    if (n <= 0) return -1;
    exe[n] = '\0';
    slash = strrchr(exe, '/');
    if (!slash) return -1;
    *slash = '\0';
    if (snprintf(probe, sizeof probe, "%s/%s", exe, NCP_DROPIN_FROM_BINDIR)
        >= (int)sizeof probe)
        return -1;
    if (!realpath(probe, out) || strlen(out) + 20 > len) return -1;
    snprintf(probe, sizeof probe, "%s/libpnetcdf.so.0d", out);
    return access(probe, R_OK) == 0 ? 0 : -1;
}

static int prepend_library_path(const char *dir)
{
    const char *old = getenv("LD_LIBRARY_PATH");
    size_t len = strlen(dir) + (old ? strlen(old) : 0) + 2;
    char *val = malloc(len);
    int rc;

    if (!val) return -1;
    snprintf(val, len, "%s%s%s", dir, old && *old ? ":" : "",
             old ? old : "");
    rc = setenv("LD_LIBRARY_PATH", val, 1);
    free(val);
    return rc;
}

int nt_run(int argc, char **argv)
{
    char dir[PATH_MAX];
    int i = 1;

    if (argc > 1 && (nt_is_help(argv[1]) || strcmp(argv[1], "-h") == 0)) {
        run_usage(stdout);
        return NT_OK;
    }
    if (dropin_dir(dir, sizeof dir) != 0) {
        fprintf(stderr, "ncpario run: libpnetcdf.so.0d not found in %s "
                        "beside this program\n", NCP_DROPIN_FROM_BINDIR);
        return NT_FAIL;
    }
    if (argc > 1 && strcmp(argv[1], "--print-dir") == 0) {
        printf("%s\n", dir);
        return NT_OK;
    }
    if (i < argc && strcmp(argv[i], "--") == 0) i++;
    if (i >= argc) {
        run_usage(stderr);
        return NT_USAGE;
    }
    if (prepend_library_path(dir) != 0) {
        perror("ncpario run: LD_LIBRARY_PATH");
        return NT_FAIL;
    }
    execvp(argv[i], argv + i);
    fprintf(stderr, "ncpario run: %s: %s\n", argv[i], strerror(errno));
    return errno == ENOENT ? 127 : 126;
}
