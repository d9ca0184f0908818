/*
 * ncp_xconv.h -- external data representation: sizes of the netCDF
 * external types, conversion between the 12 in-memory C types of the API
 * and the big-endian external types, range checking (NC_ERANGE) and fill
 * values.  Pure functions; no MPI, no I/O.
 */
#ifndef NCP_XCONV_H
#define NCP_XCONV_H

#include <stddef.h>
#include <stdint.h>

/* The in-memory element types of the typed API forms (_text, _schar ...). */
typedef enum ncp_mtype {
    NCP_M_TEXT = 0, /* char, only with NC_CHAR */
    NCP_M_SCHAR,
    NCP_M_UCHAR,
    NCP_M_SHORT,
    NCP_M_USHORT,
    NCP_M_INT,
    NCP_M_UINT,
    NCP_M_LONG,
    NCP_M_FLOAT,
    NCP_M_DOUBLE,
    NCP_M_LONGLONG,
    NCP_M_ULONGLONG,
    NCP_M_COUNT
} ncp_mtype;

/* mtype value for the flexible form (the element type comes from the MPI
 * buffer type) and for the untyped attribute calls. */
#define NCP_M_FLEX (-1)

/* Size in bytes of a C element of mtype. */
size_t ncp_mtype_size(ncp_mtype mt);
/* The memory type whose C type matches external type xtype (the "native"
 * type used by the untyped ncmpi_put_att / flexible NULL-type calls). */
ncp_mtype ncp_mtype_of_xtype(int xtype);

/* Size of one element of external type xtype; 0 when xtype is invalid. */
int ncp_xtype_size(int xtype);
/* NC_NOERR when xtype is allowed in this format (NCP_CDF1/2/5), else
 * NC_EBADTYPE. */
int ncp_xtype_check(int xtype, int format);

/*
 * Convert n elements from memory (mt) to external form (xtype) into xdst.
 * Elements that do not fit xtype are stored as the fill value xfill (xsize
 * bytes in external form; NULL means the type's default fill) and the call
 * returns NC_ERANGE after converting every other element.  Returns NC_ECHAR
 * when exactly one side is text.  `format` selects the CDF-1/2 rule that
 * NC_BYTE <-> uchar is not range checked.
 */
int ncp_x_put(int xtype, void *xdst, ncp_mtype mt, const void *src,
              int64_t n, const void *xfill, int format);
/* Convert n external elements to memory; out-of-range elements are set to
 * the memory type's default fill and NC_ERANGE is returned. */
int ncp_x_get(int xtype, const void *xsrc, ncp_mtype mt, void *dst,
              int64_t n, int format);

/* The default fill value of xtype (NC_FILL_BYTE ...) in external form. */
void ncp_x_default_fill(int xtype, void *xdst);

/* Copy n elements of size esize from s to d (not overlapping), reversing
 * each element's bytes on a little-endian host. */
void ncp_x_swap_copy(void *d, const void *s, int64_t n, int esize);

/* Swap n elements of size esize in place (no-op on big-endian hosts). */
void ncp_x_swap_inplace(void *buf, int64_t n, int esize);

#endif
