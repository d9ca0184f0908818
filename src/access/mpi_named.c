/*
 * mpi_named.c -- predefined Fortran MPI types seen as C ones.  A Fortran
 * program builds its buffer and file types on MPI_REAL, MPI_INTEGER, ...;
 * the library knows element types by their C names, so each Fortran type
 * stands for the C type of the same kind (integer, real, character) and
 * size.  The size is asked of MPI, since compiler flags may change it.
 */
#include "ncp_access.h"

enum { K_INT, K_REAL };

static int fortran_kind(MPI_Datatype t, int *kind)
{
    int rc = 1;
    if (t == MPI_INTEGER || t == MPI_INTEGER1 || t == MPI_INTEGER2 ||
        t == MPI_INTEGER4 || t == MPI_INTEGER8)
        *kind = K_INT;
    else if (t == MPI_REAL || t == MPI_REAL4 || t == MPI_REAL8 ||
             t == MPI_DOUBLE_PRECISION)
        *kind = K_REAL;
    else
        rc = 0;
    return rc;
}

MPI_Datatype ncp_mpi_named_as_c(MPI_Datatype t)
{
    static const struct {
        int kind, size;
    } by_size[] = {{K_INT, 1}, {K_INT, 2}, {K_INT, 4}, {K_INT, 8},
                   {K_REAL, 4}, {K_REAL, 8}};
    /* Handles are not constant expressions in every MPI: filled at use. */
    MPI_Datatype c_of[6];
    int kind = 0, size = 0;
    size_t i;
    MPI_Datatype out = t;

    if (t == MPI_DATATYPE_NULL)
        goto done;
    if (t == MPI_CHARACTER) {
        out = MPI_CHAR;
        goto done;
    }
    if (!fortran_kind(t, &kind))
        goto done;
    c_of[0] = MPI_SIGNED_CHAR;
    c_of[1] = MPI_SHORT;
    c_of[2] = MPI_INT;
    c_of[3] = MPI_LONG_LONG_INT;
    c_of[4] = MPI_FLOAT;
    c_of[5] = MPI_DOUBLE;
    MPI_Type_size(t, &size);
    for (i = 0; i < sizeof by_size / sizeof by_size[0]; i++)
        if (by_size[i].kind == kind && by_size[i].size == size)
            out = c_of[i];
done:
    return out;
}
