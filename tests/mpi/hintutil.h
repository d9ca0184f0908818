/* hintutil.h -- helpers of the MPI tests that run one program under
 * several hint settings (t_driver, t_groups): a "key=value;..." string as
 * an MPI_Info, a byte comparison of two files, and the check that a bad
 * hint fails create and open alike.  Include after testutil.h, with
 * _POSIX_C_SOURCE defined (strtok_r, unlink, access). */
#ifndef NCP_HINTUTIL_H
#define NCP_HINTUTIL_H

#include <unistd.h>

#include "testutil.h"

/* hints: "key=value;key=value" (at most 255 characters). */
static inline MPI_Info tu_info_of(const char *hints)
{
    MPI_Info info;
    char buf[256], *save = NULL, *kv;
    MPI_Info_create(&info);
    if (!hints) return info;
    snprintf(buf, sizeof buf, "%s", hints);
    for (kv = strtok_r(buf, ";", &save); kv; kv = strtok_r(NULL, ";", &save)) {
        char *eq = strchr(kv, '=');
        *eq = '\0';
        MPI_Info_set(info, kv, eq + 1);
    }
    return info;
}

/* Are the two files the same bytes? */
static inline int tu_same_bytes(const char *a, const char *b)
{
    FILE *fa = fopen(a, "rb"), *fb = fopen(b, "rb");
    int ca = 0, cb = 0, same = fa && fb;
    while (same && ca != EOF) {
        ca = fgetc(fa);
        cb = fgetc(fb);
        same = ca == cb;
    }
    if (fa) fclose(fa);
    if (fb) fclose(fb);
    return same;
}

/* A bad hint fails create with NC_EINVAL, creating nothing at new_path,
 * and fails open of existing alike, on every rank. */
static inline void tu_check_bad_hint(const char *new_path,
                                     const char *existing, const char *hints)
{
    MPI_Info info = tu_info_of(hints);
    int nc = -1;
    if (tu_myrank == 0) unlink(new_path);
    MPI_Barrier(MPI_COMM_WORLD);
    EXPECT_ERR(ncmpi_create(MPI_COMM_WORLD, new_path, NC_CLOBBER, info, &nc),
               NC_EINVAL);
    CHECKF(access(new_path, F_OK) != 0, "%s: create left a file", hints);
    EXPECT_ERR(ncmpi_open(MPI_COMM_WORLD, existing, NC_NOWRITE, info, &nc),
               NC_EINVAL);
    MPI_Info_free(&info);
}

#endif
