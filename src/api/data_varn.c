/*
 * data_varn.c -- the blocking varn functions: ncmpi_{put,get}_varn[_<type>]
 * [_all], num subarrays of one variable from (into) one buffer, in one
 * flush (one MPI-IO call).  Expanded from NCP_API_DATA_TYPES (ncp_api.h);
 * no behaviour lives here.
 */
#include "ncp_api.h"

/* (op, _all or nothing, collective, is_put, const or nothing) */
#define NCP_FOUR_WAYS(F, ...)                 \
    F(put, , 0, 1, const, __VA_ARGS__)        \
    F(put, _all, 1, 1, const, __VA_ARGS__)    \
    F(get, , 0, 0, , __VA_ARGS__)             \
    F(get, _all, 1, 0, , __VA_ARGS__)

#define NCP_VARN_TYPED(op, all, coll, isput, Q, t, T, mt, mpit)             \
    int ncmpi_##op##_varn_##t##all(int ncid, int varid, int num,            \
                                   MPI_Offset *const *starts,               \
                                   MPI_Offset *const *counts, Q T *buf)     \
    {                                                                       \
        return ncp_api_varn(ncid, varid, num, starts, counts, buf, -1,      \
                            mpit, mt, isput, coll, 0, 0, NULL);                \
    }

#define NCP_VARN_FLEX(op, all, coll, isput, Q, unused)                      \
    int ncmpi_##op##_varn##all(int ncid, int varid, int num,                \
                               MPI_Offset *const *starts,                   \
                               MPI_Offset *const *counts, Q void *buf,      \
                               MPI_Offset bufcount, MPI_Datatype buftype)   \
    {                                                                       \
        return ncp_api_varn(ncid, varid, num, starts, counts, buf,          \
                            bufcount, buftype, NCP_M_FLEX, isput, coll, 0,  \
                            0, NULL);                                         \
    }

#define NCP_GEN_VARN(t, T, mt, mpit) \
    NCP_FOUR_WAYS(NCP_VARN_TYPED, t, T, mt, mpit)

NCP_API_DATA_TYPES(NCP_GEN_VARN)
NCP_FOUR_WAYS(NCP_VARN_FLEX, 0)
