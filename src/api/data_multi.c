/*
 * data_multi.c -- ncmpi_mput_* / ncmpi_mget_*: num requests on num
 * variables in one call, flushed together (one MPI-IO write or read).
 * Entry i of every array describes the request on varids[i].  Typed forms
 * (expanded from NCP_API_DATA_TYPES) and flexible forms share multi().
 */
#include <stdlib.h>

#include "ncp_api.h"

/* The arrays of one m-call; NULL where the shape has none. */
typedef struct multi_arrays {
    MPI_Offset *const *starts, *const *counts, *const *strides, *const *imaps;
    const MPI_Offset *bufcounts;   /* NULL: typed (each "as counted") */
    const MPI_Datatype *buftypes;  /* NULL: typed */
} multi_arrays;

static int multi(int ncid, int num, const int *varids, ncp_shape_kind kind,
                 const multi_arrays *m, void *const *bufs, int mtype,
                 MPI_Datatype mpit, int is_put, int coll)
{
    ncp_data_args *a;
    int i, err;
    if (num < 0) return NC_EINVAL;
    if (num > 0 && (!varids || !bufs)) return NC_EINVAL;
    if (num == 0) return ncp_data_multi(ncid, is_put, coll, NULL, 0);
    if (!(a = malloc((size_t)num * sizeof(*a)))) return NC_ENOMEM;
    for (i = 0; i < num; i++)
        a[i] = ncp_api_args(ncid, varids[i], kind,
                            m->starts ? m->starts[i] : NULL,
                            m->counts ? m->counts[i] : NULL,
                            m->strides ? m->strides[i] : NULL,
                            m->imaps ? m->imaps[i] : NULL, bufs[i],
                            m->bufcounts ? m->bufcounts[i] : -1,
                            m->buftypes ? m->buftypes[i] : mpit, mtype,
                            is_put, coll);
    err = ncp_data_multi(ncid, is_put, coll, a, num);
    free(a);
    return err;
}

/* (op, _all or nothing, collective, is_put, buffer array type) */
#define NCP_FOUR_WAYS(F, ...)                        \
    F(put, , 0, 1, *const *, __VA_ARGS__)            \
    F(put, _all, 1, 1, *const *, __VA_ARGS__)        \
    F(get, , 0, 0, **, __VA_ARGS__)                  \
    F(get, _all, 1, 0, **, __VA_ARGS__)

/* --- typed ---------------------------------------------------------------- */

#define NCP_M_VAR(op, all, coll, isput, B, t, T, mt, mpit)                  \
    int ncmpi_m##op##_var_##t##all(int ncid, int num, int *varids, T B bufs) \
    {                                                                       \
        multi_arrays m = {NULL, NULL, NULL, NULL, NULL, NULL};              \
        return multi(ncid, num, varids, NCP_SHAPE_VAR, &m,                  \
                     (void *const *)bufs, mt, mpit, isput, coll);           \
    }
#define NCP_M_VAR1(op, all, coll, isput, B, t, T, mt, mpit)                 \
    int ncmpi_m##op##_var1_##t##all(int ncid, int num, int *varids,         \
                                    MPI_Offset *const *starts, T B bufs)    \
    {                                                                       \
        multi_arrays m = {starts, NULL, NULL, NULL, NULL, NULL};            \
        return multi(ncid, num, varids, NCP_SHAPE_VAR1, &m,                 \
                     (void *const *)bufs, mt, mpit, isput, coll);           \
    }
#define NCP_M_VARA(op, all, coll, isput, B, t, T, mt, mpit)                 \
    int ncmpi_m##op##_vara_##t##all(int ncid, int num, int *varids,         \
                                    MPI_Offset *const *starts,              \
                                    MPI_Offset *const *counts, T B bufs)    \
    {                                                                       \
        multi_arrays m = {starts, counts, NULL, NULL, NULL, NULL};          \
        return multi(ncid, num, varids, NCP_SHAPE_VARA, &m,                 \
                     (void *const *)bufs, mt, mpit, isput, coll);           \
    }
#define NCP_M_VARS(op, all, coll, isput, B, t, T, mt, mpit)                 \
    int ncmpi_m##op##_vars_##t##all(int ncid, int num, int *varids,         \
                                    MPI_Offset *const *starts,              \
                                    MPI_Offset *const *counts,              \
                                    MPI_Offset *const *strides, T B bufs)   \
    {                                                                       \
        multi_arrays m = {starts, counts, strides, NULL, NULL, NULL};       \
        return multi(ncid, num, varids, NCP_SHAPE_VARS, &m,                 \
                     (void *const *)bufs, mt, mpit, isput, coll);           \
    }
#define NCP_M_VARM(op, all, coll, isput, B, t, T, mt, mpit)                 \
    int ncmpi_m##op##_varm_##t##all(int ncid, int num, int *varids,         \
                                    MPI_Offset *const *starts,              \
                                    MPI_Offset *const *counts,              \
                                    MPI_Offset *const *strides,             \
                                    MPI_Offset *const *imaps, T B bufs)     \
    {                                                                       \
        multi_arrays m = {starts, counts, strides, imaps, NULL, NULL};      \
        return multi(ncid, num, varids, NCP_SHAPE_VARM, &m,                 \
                     (void *const *)bufs, mt, mpit, isput, coll);           \
    }

#define NCP_GEN_MULTI(t, T, mt, mpit)                 \
    NCP_FOUR_WAYS(NCP_M_VAR, t, T, mt, mpit)          \
    NCP_FOUR_WAYS(NCP_M_VAR1, t, T, mt, mpit)         \
    NCP_FOUR_WAYS(NCP_M_VARA, t, T, mt, mpit)         \
    NCP_FOUR_WAYS(NCP_M_VARS, t, T, mt, mpit)         \
    NCP_FOUR_WAYS(NCP_M_VARM, t, T, mt, mpit)

NCP_API_DATA_TYPES(NCP_GEN_MULTI)

/* --- flexible ------------------------------------------------------------- */

#define NCP_MF_TAIL const MPI_Offset *bufcounts, const MPI_Datatype buftypes[]

#define NCP_MF_VAR(op, all, coll, isput, B, unused)                         \
    int ncmpi_m##op##_var##all(int ncid, int num, int *varids, void B bufs, \
                               NCP_MF_TAIL)                                 \
    {                                                                       \
        multi_arrays m = {NULL, NULL, NULL, NULL, bufcounts, buftypes};     \
        return multi(ncid, num, varids, NCP_SHAPE_VAR, &m,                  \
                     (void *const *)bufs, NCP_M_FLEX, MPI_DATATYPE_NULL,    \
                     isput, coll);                                          \
    }
#define NCP_MF_VAR1(op, all, coll, isput, B, unused)                        \
    int ncmpi_m##op##_var1##all(int ncid, int num, int *varids,             \
                                MPI_Offset *const *starts, void B bufs,     \
                                NCP_MF_TAIL)                                \
    {                                                                       \
        multi_arrays m = {starts, NULL, NULL, NULL, bufcounts, buftypes};   \
        return multi(ncid, num, varids, NCP_SHAPE_VAR1, &m,                 \
                     (void *const *)bufs, NCP_M_FLEX, MPI_DATATYPE_NULL,    \
                     isput, coll);                                          \
    }
#define NCP_MF_VARA(op, all, coll, isput, B, unused)                        \
    int ncmpi_m##op##_vara##all(int ncid, int num, int *varids,             \
                                MPI_Offset *const *starts,                  \
                                MPI_Offset *const *counts, void B bufs,     \
                                NCP_MF_TAIL)                                \
    {                                                                       \
        multi_arrays m = {starts, counts, NULL, NULL, bufcounts, buftypes}; \
        return multi(ncid, num, varids, NCP_SHAPE_VARA, &m,                 \
                     (void *const *)bufs, NCP_M_FLEX, MPI_DATATYPE_NULL,    \
                     isput, coll);                                          \
    }
#define NCP_MF_VARS(op, all, coll, isput, B, unused)                        \
    int ncmpi_m##op##_vars##all(int ncid, int num, int *varids,             \
                                MPI_Offset *const *starts,                  \
                                MPI_Offset *const *counts,                  \
                                MPI_Offset *const *strides, void B bufs,    \
                                NCP_MF_TAIL)                                \
    {                                                                       \
        multi_arrays m = {starts, counts, strides, NULL, bufcounts,         \
                          buftypes};                                        \
        return multi(ncid, num, varids, NCP_SHAPE_VARS, &m,                 \
                     (void *const *)bufs, NCP_M_FLEX, MPI_DATATYPE_NULL,    \
                     isput, coll);                                          \
    }
#define NCP_MF_VARM(op, all, coll, isput, B, unused)                        \
    int ncmpi_m##op##_varm##all(int ncid, int num, int *varids,             \
                                MPI_Offset *const *starts,                  \
                                MPI_Offset *const *counts,                  \
                                MPI_Offset *const *strides,                 \
                                MPI_Offset *const *imaps, void B bufs,      \
                                NCP_MF_TAIL)                                \
    {                                                                       \
        multi_arrays m = {starts, counts, strides, imaps, bufcounts,        \
                          buftypes};                                        \
        return multi(ncid, num, varids, NCP_SHAPE_VARM, &m,                 \
                     (void *const *)bufs, NCP_M_FLEX, MPI_DATATYPE_NULL,    \
                     isput, coll);                                          \
    }

NCP_FOUR_WAYS(NCP_MF_VAR, 0)
NCP_FOUR_WAYS(NCP_MF_VAR1, 0)
NCP_FOUR_WAYS(NCP_MF_VARA, 0)
NCP_FOUR_WAYS(NCP_MF_VARS, 0)
NCP_FOUR_WAYS(NCP_MF_VARM, 0)
