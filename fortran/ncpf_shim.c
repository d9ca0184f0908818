/* ncpf_shim.c -- the parts of the Fortran binding that need C: MPI handles
 * arrive from Fortran as integers (MPI_Fint) and only C can turn them into
 * MPI_Comm, MPI_Info and MPI_Datatype (MPI_*_f2c), and a few C functions
 * take or return pointers Fortran cannot pass portably. */
#include <mpi.h>
#include <stdlib.h>
#include <string.h>

#include "pnetcdf.h"

int ncpf_create(MPI_Fint comm, const char *path, int cmode, MPI_Fint info,
                int *ncid);
int ncpf_open(MPI_Fint comm, const char *path, int omode, MPI_Fint info,
              int *ncid);
int ncpf_delete(const char *path, MPI_Fint info);
int ncpf_file_info(int ncid, int get, MPI_Fint *info);
int ncpf_inq_path(int ncid, int *pathlen, char *path, int buflen);
const char *ncpf_strerrno(int err);
int ncpf_flex(int op, int form, int coll, int ncid, int varid,
              const MPI_Offset *start, const MPI_Offset *count,
              const MPI_Offset *stride, const MPI_Offset *imap, void *buf,
              MPI_Offset bufcount, MPI_Fint buftype, int *req);
int ncpf_flexn(int op, int coll, int ncid, int varid, int num,
               MPI_Offset *const *starts, MPI_Offset *const *counts,
               void *buf, MPI_Offset bufcount, MPI_Fint buftype, int *req);
int ncpf_text(int op, int form, int coll, int ncid, int varid,
              const MPI_Offset *start, const MPI_Offset *count,
              const MPI_Offset *stride, const MPI_Offset *imap, char *buf,
              int *req);
int ncpf_vard(int get, int coll, int ncid, int varid, MPI_Fint filetype,
              void *buf, MPI_Offset bufcount, MPI_Fint buftype);

int ncpf_create(MPI_Fint comm, const char *path, int cmode, MPI_Fint info,
                int *ncid)
{
    return ncmpi_create(MPI_Comm_f2c(comm), path, cmode, MPI_Info_f2c(info),
                        ncid);
}

int ncpf_open(MPI_Fint comm, const char *path, int omode, MPI_Fint info,
              int *ncid)
{
    return ncmpi_open(MPI_Comm_f2c(comm), path, omode, MPI_Info_f2c(info),
                      ncid);
}

int ncpf_delete(const char *path, MPI_Fint info)
{
    return ncmpi_delete(path, MPI_Info_f2c(info));
}

int ncpf_file_info(int ncid, int get, MPI_Fint *info)
{
    MPI_Info c = MPI_INFO_NULL;
    int rc = get ? ncmpi_get_file_info(ncid, &c)
                 : ncmpi_inq_file_info(ncid, &c);
    if (rc == NC_NOERR)
        *info = MPI_Info_c2f(c);
    return rc;
}

/* The path, truncated to the caller's buffer; *pathlen is its full length. */
int ncpf_inq_path(int ncid, int *pathlen, char *path, int buflen)
{
    int len = 0, rc;
    char *full = NULL;

    rc = ncmpi_inq_path(ncid, &len, NULL);
    if (rc != NC_NOERR)
        goto done;
    full = malloc((size_t)len + 1);
    if (!full) {
        rc = NC_ENOMEM;
        goto done;
    }
    rc = ncmpi_inq_path(ncid, NULL, full);
    if (rc != NC_NOERR)
        goto done;
    *pathlen = len;
    memset(path, ' ', (size_t)buflen);
    memcpy(path, full, (size_t)(len < buflen ? len : buflen));
done:
    free(full);
    return rc;
}

const char *ncpf_strerrno(int err)
{
    return ncmpi_strerrno(err);
}

/* A named Fortran datatype as the C type of the same size and kind: the C
 * library knows element types by their C names. Derived types are passed
 * on as they are. */
static MPI_Datatype c_type_of(MPI_Datatype t)
{
    static const struct { int real; int size; MPI_Datatype c; } by_size[] = {
        {0, 1, MPI_SIGNED_CHAR}, {0, 2, MPI_SHORT}, {0, 4, MPI_INT},
        {0, 8, MPI_LONG_LONG_INT}, {1, 4, MPI_FLOAT}, {1, 8, MPI_DOUBLE},
    };
    int real, size = 0;
    size_t i;
    MPI_Datatype c = t;

    if (t == MPI_CHARACTER) {
        c = MPI_CHAR;
        goto done;
    }
    if (t == MPI_INTEGER || t == MPI_INTEGER1 || t == MPI_INTEGER2 ||
        t == MPI_INTEGER4 || t == MPI_INTEGER8)
        real = 0;
    else if (t == MPI_REAL || t == MPI_DOUBLE_PRECISION || t == MPI_REAL4 ||
             t == MPI_REAL8)
        real = 1;
    else
        goto done;
    MPI_Type_size(t, &size);
    for (i = 0; i < sizeof by_size / sizeof by_size[0]; i++)
        if (by_size[i].real == real && by_size[i].size == size)
            c = by_size[i].c;
done:
    return c;
}

enum { OP_PUT, OP_GET, OP_IPUT, OP_IGET, OP_BPUT };
enum { F_VAR, F_VAR1, F_VARA, F_VARS, F_VARM };

/* The C call of access form `form` (a variable of the family PFX..SFX);
 * arguments a form does not take are not passed. */
#define NCPF_FORMS(PFX, SFX, ...)                                            \
    switch (form) {                                                          \
    case F_VAR: rc = PFX##_var##SFX(ncid, varid, __VA_ARGS__); break;       \
    case F_VAR1: rc = PFX##_var1##SFX(ncid, varid, s, __VA_ARGS__); break;  \
    case F_VARA: rc = PFX##_vara##SFX(ncid, varid, s, c, __VA_ARGS__); break; \
    case F_VARS:                                                             \
        rc = PFX##_vars##SFX(ncid, varid, s, c, st, __VA_ARGS__); break;     \
    case F_VARM:                                                             \
        rc = PFX##_varm##SFX(ncid, varid, s, c, st, m, __VA_ARGS__); break;  \
    }

/* One entry for the whole flexible family: op, access form and collective
 * or not select the C function; arguments a form does not take are
 * ignored. */
int ncpf_flex(int op, int form, int coll, int ncid, int varid,
              const MPI_Offset *start, const MPI_Offset *count,
              const MPI_Offset *stride, const MPI_Offset *imap, void *buf,
              MPI_Offset bufcount, MPI_Fint buftype, int *req)
{
    MPI_Datatype t = c_type_of(MPI_Type_f2c(buftype));
    const MPI_Offset *s = start, *c = count, *st = stride, *m = imap;
    int rc = NC_EINVAL;

    switch (op) {
    case OP_PUT:
        if (coll) {
            NCPF_FORMS(ncmpi_put, _all, buf, bufcount, t)
        } else {
            NCPF_FORMS(ncmpi_put, , buf, bufcount, t)
        }
        break;
    case OP_GET:
        if (coll) {
            NCPF_FORMS(ncmpi_get, _all, buf, bufcount, t)
        } else {
            NCPF_FORMS(ncmpi_get, , buf, bufcount, t)
        }
        break;
    case OP_IPUT: NCPF_FORMS(ncmpi_iput, , buf, bufcount, t, req) break;
    case OP_IGET: NCPF_FORMS(ncmpi_iget, , buf, bufcount, t, req) break;
    case OP_BPUT: NCPF_FORMS(ncmpi_bput, , buf, bufcount, t, req) break;
    }
    return rc;
}

/* The text family (ncmpi_*_text), as ncpf_flex selects: the nf90mpi_
 * generics of character values call it, as PnetCDF's do, so that a
 * numeric variable is NC_ECHAR before any coordinate is checked. */
int ncpf_text(int op, int form, int coll, int ncid, int varid,
              const MPI_Offset *start, const MPI_Offset *count,
              const MPI_Offset *stride, const MPI_Offset *imap, char *buf,
              int *req)
{
    const MPI_Offset *s = start, *c = count, *st = stride, *m = imap;
    int rc = NC_EINVAL;

    switch (op) {
    case OP_PUT:
        if (coll) {
            NCPF_FORMS(ncmpi_put, _text_all, buf)
        } else {
            NCPF_FORMS(ncmpi_put, _text, buf)
        }
        break;
    case OP_GET:
        if (coll) {
            NCPF_FORMS(ncmpi_get, _text_all, buf)
        } else {
            NCPF_FORMS(ncmpi_get, _text, buf)
        }
        break;
    case OP_IPUT: NCPF_FORMS(ncmpi_iput, _text, buf, req) break;
    case OP_IGET: NCPF_FORMS(ncmpi_iget, _text, buf, req) break;
    case OP_BPUT: NCPF_FORMS(ncmpi_bput, _text, buf, req) break;
    }
    return rc;
}
#undef NCPF_FORMS

/* The flexible varn family, as ncpf_flex for the other forms. */
int ncpf_flexn(int op, int coll, int ncid, int varid, int num,
               MPI_Offset *const *starts, MPI_Offset *const *counts,
               void *buf, MPI_Offset bufcount, MPI_Fint buftype, int *req)
{
    MPI_Datatype t = c_type_of(MPI_Type_f2c(buftype));
    int rc = NC_EINVAL;

    switch (op) {
    case OP_PUT:
        rc = coll ? ncmpi_put_varn_all(ncid, varid, num, starts, counts, buf,
                                       bufcount, t)
                  : ncmpi_put_varn(ncid, varid, num, starts, counts, buf,
                                   bufcount, t);
        break;
    case OP_GET:
        rc = coll ? ncmpi_get_varn_all(ncid, varid, num, starts, counts, buf,
                                       bufcount, t)
                  : ncmpi_get_varn(ncid, varid, num, starts, counts, buf,
                                   bufcount, t);
        break;
    case OP_IPUT:
        rc = ncmpi_iput_varn(ncid, varid, num, starts, counts, buf, bufcount,
                             t, req);
        break;
    case OP_IGET:
        rc = ncmpi_iget_varn(ncid, varid, num, starts, counts, buf, bufcount,
                             t, req);
        break;
    case OP_BPUT:
        rc = ncmpi_bput_varn(ncid, varid, num, starts, counts, buf, bufcount,
                             t, req);
        break;
    }
    return rc;
}

/* The vard family: the file type is passed on as it is (the C library sees
 * the Fortran named types it is built on as their C counterparts), the
 * buffer type as in ncpf_flex. */
int ncpf_vard(int get, int coll, int ncid, int varid, MPI_Fint filetype,
              void *buf, MPI_Offset bufcount, MPI_Fint buftype)
{
    MPI_Datatype ft = MPI_Type_f2c(filetype);
    MPI_Datatype t = c_type_of(MPI_Type_f2c(buftype));
    int rc;

    if (get)
        rc = coll ? ncmpi_get_vard_all(ncid, varid, ft, buf, bufcount, t)
                  : ncmpi_get_vard(ncid, varid, ft, buf, bufcount, t);
    else
        rc = coll ? ncmpi_put_vard_all(ncid, varid, ft, buf, bufcount, t)
                  : ncmpi_put_vard(ncid, varid, ft, buf, bufcount, t);
    return rc;
}
