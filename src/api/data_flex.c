/*
 * data_flex.c -- the flexible blocking data functions: ncmpi_{put,get}_
 * {var,var1,vara,vars,varm}[_all], whose buffer is described by the
 * caller's (bufcount, buftype) pair instead of by the function name.
 *
 * The element type is unknown until src/dataset/ decodes buftype, so these
 * pass NCP_M_FLEX.  Each shape macro writes one function; NCP_FOUR_WAYS
 * instantiates it as put/get, independent/collective.
 */
#include "ncp_api.h"

#define NCP_FOUR_WAYS(F)                \
    F(put, , 0, 1, const)               \
    F(put, _all, 1, 1, const)           \
    F(get, , 0, 0, )                    \
    F(get, _all, 1, 0, )

/* (op, _all or nothing, collective, is_put, const or nothing) */
#define NCP_FLEX_VAR(op, all, coll, isput, Q)                               \
    int ncmpi_##op##_var##all(int ncid, int varid, Q void *buf,             \
                              MPI_Offset bufcount, MPI_Datatype buftype)    \
    {                                                                       \
        return ncp_api_data(ncid, varid, NCP_SHAPE_VAR, NULL, NULL, NULL,   \
                            NULL, buf, bufcount, buftype, NCP_M_FLEX,       \
                            isput, coll);                                   \
    }

#define NCP_FLEX_VAR1(op, all, coll, isput, Q)                              \
    int ncmpi_##op##_var1##all(int ncid, int varid, const MPI_Offset *start, \
                               Q void *buf, MPI_Offset bufcount,            \
                               MPI_Datatype buftype)                        \
    {                                                                       \
        return ncp_api_data(ncid, varid, NCP_SHAPE_VAR1, start, NULL, NULL, \
                            NULL, buf, bufcount, buftype, NCP_M_FLEX,       \
                            isput, coll);                                   \
    }

#define NCP_FLEX_VARA(op, all, coll, isput, Q)                              \
    int ncmpi_##op##_vara##all(int ncid, int varid, const MPI_Offset *start, \
                               const MPI_Offset *count, Q void *buf,        \
                               MPI_Offset bufcount, MPI_Datatype buftype)   \
    {                                                                       \
        return ncp_api_data(ncid, varid, NCP_SHAPE_VARA, start, count,      \
                            NULL, NULL, buf, bufcount, buftype,             \
                            NCP_M_FLEX, isput, coll);                       \
    }

#define NCP_FLEX_VARS(op, all, coll, isput, Q)                              \
    int ncmpi_##op##_vars##all(int ncid, int varid, const MPI_Offset *start, \
                               const MPI_Offset *count,                     \
                               const MPI_Offset *stride, Q void *buf,       \
                               MPI_Offset bufcount, MPI_Datatype buftype)   \
    {                                                                       \
        return ncp_api_data(ncid, varid, NCP_SHAPE_VARS, start, count,      \
                            stride, NULL, buf, bufcount, buftype,           \
                            NCP_M_FLEX, isput, coll);                       \
    }

#define NCP_FLEX_VARM(op, all, coll, isput, Q)                              \
    int ncmpi_##op##_varm##all(int ncid, int varid, const MPI_Offset *start, \
                               const MPI_Offset *count,                     \
                               const MPI_Offset *stride,                    \
                               const MPI_Offset *imap, Q void *buf,         \
                               MPI_Offset bufcount, MPI_Datatype buftype)   \
    {                                                                       \
        return ncp_api_data(ncid, varid, NCP_SHAPE_VARM, start, count,      \
                            stride, imap, buf, bufcount, buftype,           \
                            NCP_M_FLEX, isput, coll);                       \
    }

NCP_FOUR_WAYS(NCP_FLEX_VAR)
NCP_FOUR_WAYS(NCP_FLEX_VAR1)
NCP_FOUR_WAYS(NCP_FLEX_VARA)
NCP_FOUR_WAYS(NCP_FLEX_VARS)
NCP_FOUR_WAYS(NCP_FLEX_VARM)
