/*
 * data_nb.c -- the nonblocking data functions: ncmpi_{iput,iget,bput}_
 * {var,var1,vara,vars,varm,varn}_<type> (6 shapes x 12 types x 3) and
 * their flexible forms, expanded from NCP_API_DATA_TYPES (ncp_api.h).
 *
 * Each posts its request on the dataset's queue and returns its id in
 * *req; nothing moves until ncmpi_wait/ncmpi_wait_all.  No behaviour
 * lives here.
 */
#include "ncp_api.h"

/* (op, is_put, is_bput, const or nothing) */
#define NCP_THREE_WAYS(F, ...)          \
    F(iput, 1, 0, const, __VA_ARGS__)   \
    F(iget, 0, 0, , __VA_ARGS__)        \
    F(bput, 1, 1, const, __VA_ARGS__)

/* --- typed: the element type is the function name's -------------------- */

#define NCP_NB_VAR(op, isput, isb, Q, t, T, mt, mpit)                        \
    int ncmpi_##op##_var_##t(int ncid, int varid, Q T *buf, int *req)        \
    {                                                                        \
        return ncp_api_post(ncid, varid, NCP_SHAPE_VAR, NULL, NULL, NULL,    \
                            NULL, buf, -1, mpit, mt, isput, isb, req);       \
    }
#define NCP_NB_VAR1(op, isput, isb, Q, t, T, mt, mpit)                       \
    int ncmpi_##op##_var1_##t(int ncid, int varid, const MPI_Offset *start,  \
                              Q T *buf, int *req)                            \
    {                                                                        \
        return ncp_api_post(ncid, varid, NCP_SHAPE_VAR1, start, NULL, NULL,  \
                            NULL, buf, -1, mpit, mt, isput, isb, req);       \
    }
#define NCP_NB_VARA(op, isput, isb, Q, t, T, mt, mpit)                       \
    int ncmpi_##op##_vara_##t(int ncid, int varid, const MPI_Offset *start,  \
                              const MPI_Offset *count, Q T *buf, int *req)   \
    {                                                                        \
        return ncp_api_post(ncid, varid, NCP_SHAPE_VARA, start, count, NULL, \
                            NULL, buf, -1, mpit, mt, isput, isb, req);       \
    }
#define NCP_NB_VARS(op, isput, isb, Q, t, T, mt, mpit)                       \
    int ncmpi_##op##_vars_##t(int ncid, int varid, const MPI_Offset *start,  \
                              const MPI_Offset *count,                       \
                              const MPI_Offset *stride, Q T *buf, int *req)  \
    {                                                                        \
        return ncp_api_post(ncid, varid, NCP_SHAPE_VARS, start, count,       \
                            stride, NULL, buf, -1, mpit, mt, isput, isb,     \
                            req);                                            \
    }
#define NCP_NB_VARM(op, isput, isb, Q, t, T, mt, mpit)                       \
    int ncmpi_##op##_varm_##t(int ncid, int varid, const MPI_Offset *start,  \
                              const MPI_Offset *count,                       \
                              const MPI_Offset *stride,                      \
                              const MPI_Offset *imap, Q T *buf, int *req)    \
    {                                                                        \
        return ncp_api_post(ncid, varid, NCP_SHAPE_VARM, start, count,       \
                            stride, imap, buf, -1, mpit, mt, isput, isb,     \
                            req);                                            \
    }
#define NCP_NB_VARN(op, isput, isb, Q, t, T, mt, mpit)                       \
    int ncmpi_##op##_varn_##t(int ncid, int varid, int num,                  \
                              MPI_Offset *const *starts,                     \
                              MPI_Offset *const *counts, Q T *buf, int *req) \
    {                                                                        \
        return ncp_api_varn(ncid, varid, num, starts, counts, buf, -1, mpit, \
                            mt, isput, 0, 1, isb, req);                       \
    }

#define NCP_GEN_NB(t, T, mt, mpit)                      \
    NCP_THREE_WAYS(NCP_NB_VAR, t, T, mt, mpit)          \
    NCP_THREE_WAYS(NCP_NB_VAR1, t, T, mt, mpit)         \
    NCP_THREE_WAYS(NCP_NB_VARA, t, T, mt, mpit)         \
    NCP_THREE_WAYS(NCP_NB_VARS, t, T, mt, mpit)         \
    NCP_THREE_WAYS(NCP_NB_VARM, t, T, mt, mpit)         \
    NCP_THREE_WAYS(NCP_NB_VARN, t, T, mt, mpit)

NCP_API_DATA_TYPES(NCP_GEN_NB)

/* --- flexible: (bufcount, buftype) describe the buffer -------------------- */

#define NCP_NBF_VAR(op, isput, isb, Q, unused)                               \
    int ncmpi_##op##_var(int ncid, int varid, Q void *buf,                   \
                         MPI_Offset bufcount, MPI_Datatype buftype, int *req) \
    {                                                                        \
        return ncp_api_post(ncid, varid, NCP_SHAPE_VAR, NULL, NULL, NULL,    \
                            NULL, buf, bufcount, buftype, NCP_M_FLEX, isput, \
                            isb, req);                                       \
    }
#define NCP_NBF_VAR1(op, isput, isb, Q, unused)                              \
    int ncmpi_##op##_var1(int ncid, int varid, const MPI_Offset *start,      \
                          Q void *buf, MPI_Offset bufcount,                  \
                          MPI_Datatype buftype, int *req)                    \
    {                                                                        \
        return ncp_api_post(ncid, varid, NCP_SHAPE_VAR1, start, NULL, NULL,  \
                            NULL, buf, bufcount, buftype, NCP_M_FLEX, isput, \
                            isb, req);                                       \
    }
#define NCP_NBF_VARA(op, isput, isb, Q, unused)                              \
    int ncmpi_##op##_vara(int ncid, int varid, const MPI_Offset *start,      \
                          const MPI_Offset *count, Q void *buf,              \
                          MPI_Offset bufcount, MPI_Datatype buftype,         \
                          int *req)                                          \
    {                                                                        \
        return ncp_api_post(ncid, varid, NCP_SHAPE_VARA, start, count, NULL, \
                            NULL, buf, bufcount, buftype, NCP_M_FLEX, isput, \
                            isb, req);                                       \
    }
#define NCP_NBF_VARS(op, isput, isb, Q, unused)                              \
    int ncmpi_##op##_vars(int ncid, int varid, const MPI_Offset *start,      \
                          const MPI_Offset *count, const MPI_Offset *stride, \
                          Q void *buf, MPI_Offset bufcount,                  \
                          MPI_Datatype buftype, int *req)                    \
    {                                                                        \
        return ncp_api_post(ncid, varid, NCP_SHAPE_VARS, start, count,       \
                            stride, NULL, buf, bufcount, buftype,            \
                            NCP_M_FLEX, isput, isb, req);                    \
    }
#define NCP_NBF_VARM(op, isput, isb, Q, unused)                              \
    int ncmpi_##op##_varm(int ncid, int varid, const MPI_Offset *start,      \
                          const MPI_Offset *count, const MPI_Offset *stride, \
                          const MPI_Offset *imap, Q void *buf,               \
                          MPI_Offset bufcount, MPI_Datatype buftype,         \
                          int *req)                                          \
    {                                                                        \
        return ncp_api_post(ncid, varid, NCP_SHAPE_VARM, start, count,       \
                            stride, imap, buf, bufcount, buftype,            \
                            NCP_M_FLEX, isput, isb, req);                    \
    }
#define NCP_NBF_VARN(op, isput, isb, Q, unused)                              \
    int ncmpi_##op##_varn(int ncid, int varid, int num,                      \
                          MPI_Offset *const *starts,                         \
                          MPI_Offset *const *counts, Q void *buf,            \
                          MPI_Offset bufcount, MPI_Datatype buftype,         \
                          int *req)                                          \
    {                                                                        \
        return ncp_api_varn(ncid, varid, num, starts, counts, buf, bufcount, \
                            buftype, NCP_M_FLEX, isput, 0, 1, isb, req);     \
    }

NCP_THREE_WAYS(NCP_NBF_VAR, 0)
NCP_THREE_WAYS(NCP_NBF_VAR1, 0)
NCP_THREE_WAYS(NCP_NBF_VARA, 0)
NCP_THREE_WAYS(NCP_NBF_VARS, 0)
NCP_THREE_WAYS(NCP_NBF_VARM, 0)
NCP_THREE_WAYS(NCP_NBF_VARN, 0)
