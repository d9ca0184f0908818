/*
 * data_typed.c -- the typed blocking data functions: ncmpi_{put,get}_
 * {var,var1,vara,vars,varm}_<type>[_all], 5 shapes x 12 types x 4 = 240
 * functions, expanded from NCP_API_DATA_TYPES (ncp_api.h).
 *
 * A typed call is the flexible call with the buffer's element type implied
 * by the function name: bufcount -1 and the MPI datatype of the C type.
 * Each shape macro below writes one function; NCP_FOUR_WAYS instantiates
 * it as put/get, independent/collective.  No behaviour lives here.
 */
#include "ncp_api.h"

#define NCP_FOUR_WAYS(F, t, T, mt, mpit)           \
    F(put, , 0, 1, const, t, T, mt, mpit)          \
    F(put, _all, 1, 1, const, t, T, mt, mpit)      \
    F(get, , 0, 0, , t, T, mt, mpit)               \
    F(get, _all, 1, 0, , t, T, mt, mpit)

/* (op, _all or nothing, collective, is_put, const or nothing, table row) */
#define NCP_TYPED_VAR(op, all, coll, isput, Q, t, T, mt, mpit)              \
    int ncmpi_##op##_var_##t##all(int ncid, int varid, Q T *buf)            \
    {                                                                       \
        return ncp_api_data(ncid, varid, NCP_SHAPE_VAR, NULL, NULL, NULL,   \
                            NULL, buf, -1, mpit, mt, isput, coll);          \
    }

#define NCP_TYPED_VAR1(op, all, coll, isput, Q, t, T, mt, mpit)             \
    int ncmpi_##op##_var1_##t##all(int ncid, int varid,                     \
                                   const MPI_Offset *start, Q T *buf)       \
    {                                                                       \
        return ncp_api_data(ncid, varid, NCP_SHAPE_VAR1, start, NULL, NULL, \
                            NULL, buf, -1, mpit, mt, isput, coll);          \
    }

#define NCP_TYPED_VARA(op, all, coll, isput, Q, t, T, mt, mpit)             \
    int ncmpi_##op##_vara_##t##all(int ncid, int varid,                     \
                                   const MPI_Offset *start,                 \
                                   const MPI_Offset *count, Q T *buf)       \
    {                                                                       \
        return ncp_api_data(ncid, varid, NCP_SHAPE_VARA, start, count,      \
                            NULL, NULL, buf, -1, mpit, mt, isput, coll);    \
    }

#define NCP_TYPED_VARS(op, all, coll, isput, Q, t, T, mt, mpit)             \
    int ncmpi_##op##_vars_##t##all(int ncid, int varid,                     \
                                   const MPI_Offset *start,                 \
                                   const MPI_Offset *count,                 \
                                   const MPI_Offset *stride, Q T *buf)      \
    {                                                                       \
        return ncp_api_data(ncid, varid, NCP_SHAPE_VARS, start, count,      \
                            stride, NULL, buf, -1, mpit, mt, isput, coll);  \
    }

#define NCP_TYPED_VARM(op, all, coll, isput, Q, t, T, mt, mpit)             \
    int ncmpi_##op##_varm_##t##all(int ncid, int varid,                     \
                                   const MPI_Offset *start,                 \
                                   const MPI_Offset *count,                 \
                                   const MPI_Offset *stride,                \
                                   const MPI_Offset *imap, Q T *buf)        \
    {                                                                       \
        return ncp_api_data(ncid, varid, NCP_SHAPE_VARM, start, count,      \
                            stride, imap, buf, -1, mpit, mt, isput, coll);  \
    }

#define NCP_GEN_VAR(t, T, mt, mpit) \
    NCP_FOUR_WAYS(NCP_TYPED_VAR, t, T, mt, mpit)
#define NCP_GEN_VAR1(t, T, mt, mpit) \
    NCP_FOUR_WAYS(NCP_TYPED_VAR1, t, T, mt, mpit)
#define NCP_GEN_VARA(t, T, mt, mpit) \
    NCP_FOUR_WAYS(NCP_TYPED_VARA, t, T, mt, mpit)
#define NCP_GEN_VARS(t, T, mt, mpit) \
    NCP_FOUR_WAYS(NCP_TYPED_VARS, t, T, mt, mpit)
#define NCP_GEN_VARM(t, T, mt, mpit) \
    NCP_FOUR_WAYS(NCP_TYPED_VARM, t, T, mt, mpit)

NCP_API_DATA_TYPES(NCP_GEN_VAR)
NCP_API_DATA_TYPES(NCP_GEN_VAR1)
NCP_API_DATA_TYPES(NCP_GEN_VARA)
NCP_API_DATA_TYPES(NCP_GEN_VARS)
NCP_API_DATA_TYPES(NCP_GEN_VARM)
