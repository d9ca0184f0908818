/*
 * errors.c -- the text behind every status code: ncmpi_strerror(),
 * ncmpi_strerrno(), and the version strings (ncmpi_inq_libvers(),
 * ncpario_version()).
 *
 * One table, NCP_ERRORS, pairs each code of include/pnetcdf.h with a
 * message written for ncpario; both lookups are generated from it, so a code
 * cannot have a name without a message.  The lookup is a switch built from
 * the table, which makes the compiler reject two entries with one value;
 * that is why the alias spellings (NC_EDMR, NC_EURL, NC_ECMODE, the
 * *_MULTIDEFINE forms ...) are absent: each value is named once, by its
 * canonical spelling.
 *
 * Invariants: every returned pointer is to static constant storage (no
 * buffers, no state), so the functions are safe to call from any thread.
 * Positive values are system errno values, as NC_ISSYSERR() defines.
 */
#include <string.h>

#include "ncpario.h"

#define NCP_ERRORS(X)                                                        \
    X(NC_NOERR, "No error")                                                  \
    X(NC2_ERR, "Error reported through the netCDF version 2 interface")     \
    X(NC_EBADID, "The id does not name an open dataset")                     \
    X(NC_ENFILE, "Too many datasets are open at once")                       \
    X(NC_EEXIST, "The file exists and NC_NOCLOBBER forbids replacing it")    \
    X(NC_EINVAL, "An argument is invalid")                                   \
    X(NC_EPERM, "The dataset was opened read-only; writing is not allowed")  \
    X(NC_ENOTINDEFINE, "The operation needs define mode; call ncmpi_redef "  \
                       "first")                                              \
    X(NC_EINDEFINE, "The operation is not allowed in define mode; call "     \
                    "ncmpi_enddef first")                                    \
    X(NC_EINVALCOORDS, "A start index lies outside the variable's shape")    \
    X(NC_EMAXDIMS, "Too many dimensions")                                    \
    X(NC_ENAMEINUSE, "Another object of this kind already has that name")    \
    X(NC_ENOTATT, "No attribute of that name exists")                        \
    X(NC_EMAXATTS, "Too many attributes")                                    \
    X(NC_EBADTYPE, "The value is not a valid external data type")            \
    X(NC_EBADDIM, "The id or name does not name a dimension")                \
    X(NC_EUNLIMPOS, "The unlimited dimension may only be a variable's "      \
                    "first dimension")                                       \
    X(NC_EMAXVARS, "Too many variables")                                     \
    X(NC_ENOTVAR, "The id or name does not name a variable")                 \
    X(NC_EGLOBAL, "The operation cannot be applied to NC_GLOBAL")            \
    X(NC_ENOTNC, "The file is not in a netCDF classic format")               \
    X(NC_ESTS, "The string buffer is too short")                             \
    X(NC_EMAXNAME, "The name is longer than NC_MAX_NAME")                    \
    X(NC_EUNLIMIT, "The dataset already has an unlimited dimension")         \
    X(NC_ENORECVARS, "The dataset has no record variables")                  \
    X(NC_ECHAR, "Text and numeric values cannot be converted into each "     \
                "other")                                                     \
    X(NC_EEDGE, "start + count runs past the end of a dimension")            \
    X(NC_ESTRIDE, "A stride is zero or negative")                            \
    X(NC_EBADNAME, "The name is not a legal netCDF name")                    \
    X(NC_ERANGE, "A value does not fit in the destination type")             \
    X(NC_ENOMEM, "Out of memory")                                            \
    X(NC_EVARSIZE, "A variable is too large for the file format")            \
    X(NC_EDIMSIZE, "The dimension length is not valid")                      \
    X(NC_ETRUNC, "The file is shorter than its header says; it may be "      \
                 "truncated or damaged")                                     \
    X(NC_EAXISTYPE, "The axis type is not recognised")                       \
    X(NC_EDAP, "DAP request failed")                                         \
    X(NC_ECURL, "libcurl request failed")                                    \
    X(NC_EIO, "Input/output failure")                                        \
    X(NC_ENODATA, "The variable has no data")                                \
    X(NC_EDAPSVC, "The DAP server reported a failure")                       \
    X(NC_EDAS, "The DAS is malformed or could not be read")                  \
    X(NC_EDDS, "The DDS is malformed or could not be read")                  \
    X(NC_EDATADDS, "The DATADDS is malformed or could not be read")          \
    X(NC_EDAPURL, "The DAP URL is malformed")                                \
    X(NC_EDAPCONSTRAINT, "The DAP constraint is malformed")                  \
    X(NC_ETRANSLATION, "The construct has no translation")                   \
    X(NC_EACCESS, "Access was refused")                                      \
    X(NC_EAUTH, "Authorization failed")                                      \
    X(NC_ENOTFOUND, "The file was not found")                                \
    X(NC_ECANTREMOVE, "The file could not be removed")                       \
    X(NC_EINTERNAL, "Internal library error")                                \
    X(NC_EPNETCDF, "The PnetCDF layer reported a failure")                   \
    X(NC_EHDFERR, "The HDF5 layer reported a failure")                       \
    X(NC_ECANTREAD, "The data could not be read")                            \
    X(NC_ECANTWRITE, "The data could not be written")                        \
    X(NC_ECANTCREATE, "The file could not be created")                       \
    X(NC_EFILEMETA, "File metadata is inconsistent")                         \
    X(NC_EDIMMETA, "Dimension metadata is inconsistent")                     \
    X(NC_EATTMETA, "Attribute metadata is inconsistent")                     \
    X(NC_EVARMETA, "Variable metadata is inconsistent")                      \
    X(NC_ENOCOMPOUND, "The type is not a compound type")                     \
    X(NC_EATTEXISTS, "The attribute already exists")                         \
    X(NC_ENOTNC4, "The operation needs a netCDF-4 file")                     \
    X(NC_ESTRICTNC3, "The operation is not allowed on a classic-model "      \
                     "netCDF-4 file")                                        \
    X(NC_ENOTNC3, "The operation needs a classic-format file")               \
    X(NC_ENOPAR, "The file was not opened for parallel access")              \
    X(NC_EPARINIT, "Parallel access could not be initialised")               \
    X(NC_EBADGRPID, "The id does not name a group")                          \
    X(NC_EBADTYPID, "The id does not name a type")                           \
    X(NC_ETYPDEFINED, "The type is already defined and cannot change")       \
    X(NC_EBADFIELD, "The id does not name a field")                          \
    X(NC_EBADCLASS, "The type class is not valid here")                      \
    X(NC_EMAPTYPE, "Mapped access works on atomic types only")               \
    X(NC_ELATEFILL, "The fill value cannot change once data exists")         \
    X(NC_ELATEDEF, "The variable property must be set before ncmpi_enddef")  \
    X(NC_EDIMSCALE, "HDF5 dimension scale failure")                          \
    X(NC_ENOGRP, "No such group")                                            \
    X(NC_ESTORAGE, "Contiguous and chunked storage cannot both be set")      \
    X(NC_EBADCHUNK, "The chunk size is not valid")                           \
    X(NC_ENOTBUILT, "The feature was not enabled when the library was "      \
                    "built")                                                 \
    X(NC_EDISKLESS, "Diskless file access failed")                           \
    X(NC_ECANTEXTEND, "The dataset cannot grow during independent I/O")      \
    X(NC_EMPI, "An MPI call failed")                                         \
    X(NC_EFILTER, "A filter operation failed")                               \
    X(NC_ERCFILE, "The RC file could not be used")                           \
    X(NC_ENULLPAD, "Header padding bytes are not zero")                      \
    X(NC_EINMEMORY, "In-memory file access failed")                          \
    X(NC_ENOFILTER, "The variable has no such filter")                       \
    X(NC_ENCZARR, "The NCZarr layer reported a failure")                     \
    X(NC_ES3, "S3 request failed")                                           \
    X(NC_EEMPTY, "The NCZarr map key is empty")                              \
    X(NC_EOBJECT, "An object exists where none should")                      \
    X(NC_ENOOBJECT, "An expected object does not exist")                     \
    X(NC_EPLUGIN, "A dynamically loaded plugin failed")                      \
    X(NC_ESMALL, "MPI_Offset is too small for this file format")             \
    X(NC_ENOTINDEP, "The call needs independent data mode; call "            \
                    "ncmpi_begin_indep_data first")                          \
    X(NC_EINDEP, "The call is not allowed in independent data mode; call "   \
                 "ncmpi_end_indep_data first")                               \
    X(NC_EFILE, "File operation failed")                                     \
    X(NC_EREAD, "Reading the file failed")                                   \
    X(NC_EWRITE, "Writing the file failed")                                  \
    X(NC_EOFILE, "The file could not be opened or created")                  \
    X(NC_EMULTITYPES, "The MPI datatype mixes several element types")        \
    X(NC_EIOMISMATCH, "The buffer holds a different number of elements "     \
                      "than the request selects")                            \
    X(NC_ENEGATIVECNT, "A count is negative")                                \
    X(NC_EUNSPTETYPE, "The MPI datatype's element type is not supported")    \
    X(NC_EINVAL_REQUEST, "The id does not name a pending nonblocking "       \
                         "request")                                          \
    X(NC_EAINT_TOO_SMALL, "The value does not fit in MPI_Aint")              \
    X(NC_ENOTSUPPORT, "The feature is not supported")                        \
    X(NC_ENULLBUF, "The buffer to attach is NULL")                           \
    X(NC_EPREVATTACHBUF, "A buffer is already attached")                     \
    X(NC_ENULLABUF, "No buffer is attached")                                 \
    X(NC_EPENDINGBPUT, "Buffered puts are still pending, so the buffer "     \
                       "cannot be detached")                                 \
    X(NC_EINSUFFBUF, "The attached buffer has too little room left")         \
    X(NC_ENOENT, "The file does not exist")                                  \
    X(NC_EINTOVERFLOW, "The value does not fit in a 4-byte integer")         \
    X(NC_ENOTENABLED, "The feature is not enabled")                          \
    X(NC_EBAD_FILE, "The file name is not valid")                            \
    X(NC_ENO_SPACE, "No space is left on the device")                        \
    X(NC_EQUOTA, "The disk quota is exhausted")                              \
    X(NC_ENULLSTART, "The start argument is NULL")                           \
    X(NC_ENULLCOUNT, "The count argument is NULL")                           \
    X(NC_EINVAL_CMODE, "The create mode is not valid")                       \
    X(NC_ETYPESIZE, "The MPI datatype is larger than the request")           \
    X(NC_ETYPE_MISMATCH, "The MPI datatype's element type does not match "   \
                         "the variable's type")                              \
    X(NC_ETYPESIZE_MISMATCH, "The file type and buffer type sizes differ")   \
    X(NC_ESTRICTCDF2, "The operation needs the CDF-5 format")                \
    X(NC_ENOTRECVAR, "The operation needs a record variable")                \
    X(NC_ENOTFILL, "The variable's fill mode is off, so it cannot be "       \
                   "filled")                                                 \
    X(NC_EINVAL_OMODE, "The open mode is not valid")                         \
    X(NC_EPENDING, "Nonblocking requests are still pending")                 \
    X(NC_EMAX_REQ, "A single request is larger than INT_MAX bytes")         \
    X(NC_EBADLOG, "The log file format is not recognised")                   \
    X(NC_EFLUSHED, "The request has already been written and cannot be "     \
                   "cancelled")                                              \
    X(NC_EADIOS, "The ADIOS layer reported a failure")                       \
    X(NC_EMULTIDEFINE, "Processes disagree about the dataset definition")    \
    X(NC_EMULTIDEFINE_OMODE, "Processes passed different open or create "    \
                             "modes")                                        \
    X(NC_EMULTIDEFINE_DIM_NUM, "Processes defined different numbers of "     \
                               "dimensions")                                 \
    X(NC_EMULTIDEFINE_DIM_SIZE, "Processes gave a dimension different "      \
                                "lengths")                                   \
    X(NC_EMULTIDEFINE_DIM_NAME, "Processes gave a dimension different "      \
                                "names")                                     \
    X(NC_EMULTIDEFINE_VAR_NUM, "Processes defined different numbers of "     \
                               "variables")                                  \
    X(NC_EMULTIDEFINE_VAR_NAME, "Processes gave a variable different "       \
                                "names")                                     \
    X(NC_EMULTIDEFINE_VAR_NDIMS, "Processes gave a variable different "      \
                                 "numbers of dimensions")                    \
    X(NC_EMULTIDEFINE_VAR_DIMIDS, "Processes gave a variable different "     \
                                  "dimensions")                              \
    X(NC_EMULTIDEFINE_VAR_TYPE, "Processes gave a variable different "       \
                                "types")                                     \
    X(NC_EMULTIDEFINE_VAR_LEN, "Processes computed different variable "      \
                               "sizes")                                      \
    X(NC_EMULTIDEFINE_NUMRECS, "Processes disagree about the number of "     \
                               "records")                                    \
    X(NC_EMULTIDEFINE_VAR_BEGIN, "Processes computed different variable "    \
                                 "file offsets")                             \
    X(NC_EMULTIDEFINE_ATTR_NUM, "Processes defined different numbers of "    \
                                "attributes")                                \
    X(NC_EMULTIDEFINE_ATTR_SIZE, "Processes hold attributes of different "   \
                                 "sizes")                                    \
    X(NC_EMULTIDEFINE_ATTR_NAME, "Processes gave an attribute different "    \
                                 "names")                                    \
    X(NC_EMULTIDEFINE_ATTR_TYPE, "Processes gave an attribute different "    \
                                 "types")                                    \
    X(NC_EMULTIDEFINE_ATTR_LEN, "Processes gave an attribute different "     \
                                "lengths")                                   \
    X(NC_EMULTIDEFINE_ATTR_VAL, "Processes gave an attribute different "     \
                                "values")                                    \
    X(NC_EMULTIDEFINE_FNC_ARGS, "Processes passed different arguments to a " \
                                "collective call")                           \
    X(NC_EMULTIDEFINE_FILL_MODE, "Processes set different dataset fill "     \
                                 "modes")                                    \
    X(NC_EMULTIDEFINE_VAR_FILL_MODE, "Processes set different fill modes "   \
                                     "for a variable")                       \
    X(NC_EMULTIDEFINE_VAR_FILL_VALUE, "Processes set different fill values " \
                                      "for a variable")                      \
    X(NC_EMULTIDEFINE_CMODE, "Processes passed different create modes")

static const char ncp_unknown_msg[] = "Unknown status code";
static const char ncp_unknown_name[] = "(unknown status code)";
static const char ncp_syserr_name[] = "(system errno)";

/*
 * Set *name and *msg for a code of the table.  Returns 1 when the code is
 * known, 0 otherwise (outputs untouched).  A switch, not a loop, so that a
 * duplicate value in the table is a compile error.
 */
static int ncp_error_lookup(int err, const char **name, const char **msg)
{
    int found = 1;

    switch (err) {
#define NCP_ERROR_CASE(code, text) \
    case code:                     \
        *name = #code;             \
        *msg = text;               \
        break;
        NCP_ERRORS(NCP_ERROR_CASE)
#undef NCP_ERROR_CASE
    default:
        found = 0;
        break;
    }
    return found;
}

const char *ncmpi_strerror(int err)
{
    const char *name = ncp_unknown_name;
    const char *msg = ncp_unknown_msg;

    if (NC_ISSYSERR(err))
        msg = strerror(err);
    else
        (void)ncp_error_lookup(err, &name, &msg);
    return msg;
}

const char *ncmpi_strerrno(int err)
{
    const char *name = ncp_unknown_name;
    const char *msg = ncp_unknown_msg;

    if (NC_ISSYSERR(err))
        name = ncp_syserr_name;
    else
        (void)ncp_error_lookup(err, &name, &msg);
    return name;
}

const char *ncmpi_inq_libvers(void)
{
    return "ncpario " NCPARIO_VERSION " (PnetCDF API " PNETCDF_VERSION ")";
}

const char *ncpario_version(void)
{
    return NCPARIO_VERSION;
}
