/*
 * errors.c -- the text behind every status code: ncmpi_strerror(),
 * ncmpi_strerrno(), and the version strings (ncmpi_inq_libvers(),
 * ncpario_version()).
 *
 * One table, NCP_ERRORS, pairs each code of pnetcdf.h with two
 * texts: the one PnetCDF 1.12.3's ncmpi_strerror returns, and a message
 * written for ncpario, which ncpario_strerror_detail returns.  Programs
 * and test suites compare ncmpi_strerror's text (PIO matches the start of
 * the text of a code, netCDF's nc_test expects "Unknown Error" for a code
 * it does not know), so the first text is PnetCDF's to the letter, and a
 * code PnetCDF's strerror does not know (NULL in the first column, though
 * its header names it) gets PnetCDF's unknown-code text and name.  All
 * lookups are generated from the table, so a code cannot have a name
 * without a message.  The lookup is a switch built from the table, which
 * makes the compiler reject two entries with one value; that is why the
 * alias spellings (NC_EDMR, NC_EURL, NC_ECMODE, the *_MULTIDEFINE forms
 * ...) are absent: each value is named once, by its canonical spelling.
 *
 * Invariants: the texts of the table are static constant storage; the
 * texts that carry a number (an unknown code, a system errno's name) are
 * formatted into a buffer of the calling thread, valid until its next call
 * of the same function, so the functions are safe to call from any thread.
 * Positive values are system errno values, as NC_ISSYSERR() defines.
 */
#include <stdio.h>
#include <string.h>

#include "ncpario.h"
#include "ncp_errors.h"

#define NCP_ERRORS(X)                                                        \
    X(NC_NOERR,                                                              \
      "No error",                                                            \
      "No error")                                                            \
    X(NC2_ERR,                                                               \
      NULL,                                                                  \
      "Error reported through the netCDF version 2 interface")               \
    X(NC_EBADID,                                                             \
      "NetCDF: Not a valid ID",                                              \
      "The id does not name an open dataset")                                \
    X(NC_ENFILE,                                                             \
      "NetCDF: Too many files open",                                         \
      "Too many datasets are open at once")                                  \
    X(NC_EEXIST,                                                             \
      "NetCDF: File exists && NC_NOCLOBBER",                                 \
      "The file exists and NC_NOCLOBBER forbids replacing it")               \
    X(NC_EINVAL,                                                             \
      "NetCDF: Invalid argument",                                            \
      "An argument is invalid")                                              \
    X(NC_EPERM,                                                              \
      "NetCDF: Write to read only",                                          \
      "The dataset was opened read-only; writing is not allowed")            \
    X(NC_ENOTINDEFINE,                                                       \
      "NetCDF: Operation not allowed in data mode",                          \
      "The operation needs define mode; call ncmpi_redef first")             \
    X(NC_EINDEFINE,                                                          \
      "NetCDF: Operation not allowed in define mode",                        \
      "The operation is not allowed in define mode; call ncmpi_enddef "      \
      "first")                                                               \
    X(NC_EINVALCOORDS,                                                       \
      "NetCDF: Index exceeds dimension bound",                               \
      "A start index lies outside the variable's shape")                     \
    X(NC_EMAXDIMS,                                                           \
      "NetCDF: NC_MAX_DIMS or NC_MAX_VAR_DIMS exceeded",                     \
      "Too many dimensions")                                                 \
    X(NC_ENAMEINUSE,                                                         \
      "NetCDF: String match to name in use",                                 \
      "Another object of this kind already has that name")                   \
    X(NC_ENOTATT,                                                            \
      "NetCDF: Attribute not found",                                         \
      "No attribute of that name exists")                                    \
    X(NC_EMAXATTS,                                                           \
      "NetCDF: NC_MAX_ATTRS exceeded",                                       \
      "Too many attributes")                                                 \
    X(NC_EBADTYPE,                                                           \
      "NetCDF: Not a valid data type or _FillValue type mismatch",           \
      "The value is not a valid external data type")                         \
    X(NC_EBADDIM,                                                            \
      "NetCDF: Invalid dimension ID or name",                                \
      "The id or name does not name a dimension")                            \
    X(NC_EUNLIMPOS,                                                          \
      "NetCDF: NC_UNLIMITED in the wrong index",                             \
      "The unlimited dimension may only be a variable's first dimension")    \
    X(NC_EMAXVARS,                                                           \
      "NetCDF: NC_MAX_VARS exceeded",                                        \
      "Too many variables")                                                  \
    X(NC_ENOTVAR,                                                            \
      "NetCDF: Variable not found",                                          \
      "The id or name does not name a variable")                             \
    X(NC_EGLOBAL,                                                            \
      "NetCDF: Action prohibited on NC_GLOBAL varid",                        \
      "The operation cannot be applied to NC_GLOBAL")                        \
    X(NC_ENOTNC,                                                             \
      "NetCDF: Unknown file format (file format violates CDF "               \
      "specification)",                                                      \
      "The file is not in a netCDF classic format")                          \
    X(NC_ESTS,                                                               \
      "NetCDF: In Fortran, string too short",                                \
      "The string buffer is too short")                                      \
    X(NC_EMAXNAME,                                                           \
      "NetCDF: NC_MAX_NAME exceeded",                                        \
      "The name is longer than NC_MAX_NAME")                                 \
    X(NC_EUNLIMIT,                                                           \
      "NetCDF: NC_UNLIMITED size already in use",                            \
      "The dataset already has an unlimited dimension")                      \
    X(NC_ENORECVARS,                                                         \
      "NetCDF: nc_rec op when there are no record vars",                     \
      "The dataset has no record variables")                                 \
    X(NC_ECHAR,                                                              \
      "NetCDF: Attempt to convert between text & numbers",                   \
      "Text and numeric values cannot be converted into each other")         \
    X(NC_EEDGE,                                                              \
      "NetCDF: Start+count exceeds dimension bound",                         \
      "start + count runs past the end of a dimension")                      \
    X(NC_ESTRIDE,                                                            \
      "NetCDF: Illegal stride",                                              \
      "A stride is zero or negative")                                        \
    X(NC_EBADNAME,                                                           \
      "NetCDF: Name contains illegal characters",                            \
      "The name is not a legal netCDF name")                                 \
    X(NC_ERANGE,                                                             \
      "NetCDF: Numeric conversion not representable",                        \
      "A value does not fit in the destination type")                        \
    X(NC_ENOMEM,                                                             \
      "NetCDF: Memory allocation (malloc) failure",                          \
      "Out of memory")                                                       \
    X(NC_EVARSIZE,                                                           \
      "NetCDF: One or more variable sizes violate format constraints",       \
      "A variable is too large for the file format")                         \
    X(NC_EDIMSIZE,                                                           \
      "NetCDF: Invalid dimension size",                                      \
      "The dimension length is not valid")                                   \
    X(NC_ETRUNC,                                                             \
      "NetCDF: File likely truncated or possibly corrupted",                 \
      "The file is shorter than its header says; it may be truncated or "    \
      "damaged")                                                             \
    X(NC_EAXISTYPE,                                                          \
      "NetCDF: Illegal axis type",                                           \
      "The axis type is not recognised")                                     \
    X(NC_EDAP,                                                               \
      "NetCDF: DAP failure",                                                 \
      "DAP request failed")                                                  \
    X(NC_ECURL,                                                              \
      "NetCDF: libcurl failure",                                             \
      "libcurl request failed")                                              \
    X(NC_EIO,                                                                \
      "NetCDF: I/O failure",                                                 \
      "Input/output failure")                                                \
    X(NC_ENODATA,                                                            \
      "NetCDF: Variable has no data",                                        \
      "The variable has no data")                                            \
    X(NC_EDAPSVC,                                                            \
      "NetCDF: DAP server error",                                            \
      "The DAP server reported a failure")                                   \
    X(NC_EDAS,                                                               \
      "NetCDF: Malformed or inaccessible DAP DAS",                           \
      "The DAS is malformed or could not be read")                           \
    X(NC_EDDS,                                                               \
      "NetCDF: Malformed or inaccessible DAP2 DDS or DAP4 DMR response",     \
      "The DDS is malformed or could not be read")                           \
    X(NC_EDATADDS,                                                           \
      "NetCDF: Malformed or inaccessible DAP2 DATADDS or DAP4 DAP response", \
      "The DATADDS is malformed or could not be read")                       \
    X(NC_EDAPURL,                                                            \
      "NetCDF: Malformed URL",                                               \
      "The DAP URL is malformed")                                            \
    X(NC_EDAPCONSTRAINT,                                                     \
      "NetCDF: Malformed or unexpected Constraint",                          \
      "The DAP constraint is malformed")                                     \
    X(NC_ETRANSLATION,                                                       \
      "NetCDF: Untranslatable construct",                                    \
      "The construct has no translation")                                    \
    X(NC_EACCESS,                                                            \
      "NetCDF: Access failure",                                              \
      "Access was refused")                                                  \
    X(NC_EAUTH,                                                              \
      "NetCDF: Authorization failure",                                       \
      "Authorization failed")                                                \
    X(NC_ENOTFOUND,                                                          \
      "NetCDF: file not found",                                              \
      "The file was not found")                                              \
    X(NC_ECANTREMOVE,                                                        \
      "NetCDF: cannot delete file",                                          \
      "The file could not be removed")                                       \
    X(NC_EINTERNAL,                                                          \
      "NetCDF: internal library error; Please contact Unidata support",      \
      "Internal library error")                                              \
    X(NC_EPNETCDF,                                                           \
      "NetCDF: PnetCDF error",                                               \
      "The PnetCDF layer reported a failure")                                \
    X(NC_EHDFERR,                                                            \
      "NetCDF: HDF error",                                                   \
      "The HDF5 layer reported a failure")                                   \
    X(NC_ECANTREAD,                                                          \
      "NetCDF: Can't read file",                                             \
      "The data could not be read")                                          \
    X(NC_ECANTWRITE,                                                         \
      "NetCDF: Can't write file",                                            \
      "The data could not be written")                                       \
    X(NC_ECANTCREATE,                                                        \
      "NetCDF: Can't create file",                                           \
      "The file could not be created")                                       \
    X(NC_EFILEMETA,                                                          \
      "NetCDF: Can't add HDF5 file metadata",                                \
      "File metadata is inconsistent")                                       \
    X(NC_EDIMMETA,                                                           \
      "NetCDF: Can't define dimensional metadata",                           \
      "Dimension metadata is inconsistent")                                  \
    X(NC_EATTMETA,                                                           \
      "NetCDF: Can't open HDF5 attribute",                                   \
      "Attribute metadata is inconsistent")                                  \
    X(NC_EVARMETA,                                                           \
      "NetCDF: Problem with variable metadata.",                             \
      "Variable metadata is inconsistent")                                   \
    X(NC_ENOCOMPOUND,                                                        \
      "NetCDF: Can't create HDF5 compound type",                             \
      "The type is not a compound type")                                     \
    X(NC_EATTEXISTS,                                                         \
      "NetCDF: Attempt to create attribute that already exists",             \
      "The attribute already exists")                                        \
    X(NC_ENOTNC4,                                                            \
      "NetCDF: Attempting netcdf-4 operation on netcdf-3 file",              \
      "The operation needs a netCDF-4 file")                                 \
    X(NC_ESTRICTNC3,                                                         \
      "NetCDF: Attempting netcdf-4 operation on strict nc3 netcdf-4 file",   \
      "The operation is not allowed on a classic-model netCDF-4 file")       \
    X(NC_ENOTNC3,                                                            \
      "NetCDF: Attempting netcdf-3 operation on netcdf-4 file",              \
      "The operation needs a classic-format file")                           \
    X(NC_ENOPAR,                                                             \
      "NetCDF: Parallel operation on file opened for non-parallel access",   \
      "The file was not opened for parallel access")                         \
    X(NC_EPARINIT,                                                           \
      "NetCDF: Error initializing for parallel access",                      \
      "Parallel access could not be initialised")                            \
    X(NC_EBADGRPID,                                                          \
      "NetCDF: Bad group ID",                                                \
      "The id does not name a group")                                        \
    X(NC_EBADTYPID,                                                          \
      "NetCDF: Bad type ID",                                                 \
      "The id does not name a type")                                         \
    X(NC_ETYPDEFINED,                                                        \
      "NetCDF: Type has already been defined and may not be edited",         \
      "The type is already defined and cannot change")                       \
    X(NC_EBADFIELD,                                                          \
      "NetCDF: Bad field ID",                                                \
      "The id does not name a field")                                        \
    X(NC_EBADCLASS,                                                          \
      "NetCDF: Bad class",                                                   \
      "The type class is not valid here")                                    \
    X(NC_EMAPTYPE,                                                           \
      "NetCDF: Mapped access for atomic types only",                         \
      "Mapped access works on atomic types only")                            \
    X(NC_ELATEFILL,                                                          \
      "NetCDF: Attempt to define fill value when data already exists.",      \
      "The fill value cannot change once data exists")                       \
    X(NC_ELATEDEF,                                                           \
      "NetCDF: Attempt to define var properties, like deflate, after "       \
      "enddef.",                                                             \
      "The variable property must be set before ncmpi_enddef")               \
    X(NC_EDIMSCALE,                                                          \
      "NetCDF: Problem with HDF5 dimscales.",                                \
      "HDF5 dimension scale failure")                                        \
    X(NC_ENOGRP,                                                             \
      "NetCDF: No group found.",                                             \
      "No such group")                                                       \
    X(NC_ESTORAGE,                                                           \
      "NetCDF: Cannot specify both contiguous and chunking.",                \
      "Contiguous and chunked storage cannot both be set")                   \
    X(NC_EBADCHUNK,                                                          \
      "NetCDF: Bad chunk sizes.",                                            \
      "The chunk size is not valid")                                         \
    X(NC_ENOTBUILT,                                                          \
      "NetCDF: Attempt to use feature that was not turned on when netCDF "   \
      "was built.",                                                          \
      "The feature was not enabled when the library was built")              \
    X(NC_EDISKLESS,                                                          \
      "NetCDF: Error in using diskless access",                              \
      "Diskless file access failed")                                         \
    X(NC_ECANTEXTEND,                                                        \
      "NetCDF: Attempt to extend dataset during NC_INDEPENDENT I/O "         \
      "operation. Use nc_var_par_access to set mode NC_COLLECTIVE before "   \
      "extending variable.",                                                 \
      "The dataset cannot grow during independent I/O")                      \
    X(NC_EMPI,                                                               \
      "NetCDF: MPI operation failed.",                                       \
      "An MPI call failed")                                                  \
    X(NC_EFILTER,                                                            \
      "NetCDF: Filter error: bad id or parameters or duplicate filter",      \
      "A filter operation failed")                                           \
    X(NC_ERCFILE,                                                            \
      "NetCDF: RC File Failure.",                                            \
      "The RC file could not be used")                                       \
    X(NC_ENULLPAD,                                                           \
      "NetCDF: File fails strict Null-Byte Header check.",                   \
      "Header padding bytes are not zero")                                   \
    X(NC_EINMEMORY,                                                          \
      "NetCDF: In-memory File operation failed.",                            \
      "In-memory file access failed")                                        \
    X(NC_ENOFILTER,                                                          \
      "NetCDF: Filter error: unimplemented filter encountered",              \
      "The variable has no such filter")                                     \
    X(NC_ENCZARR,                                                            \
      "NetCDF: NCZarr error",                                                \
      "The NCZarr layer reported a failure")                                 \
    X(NC_ES3,                                                                \
      "NetCDF: AWS S3 error",                                                \
      "S3 request failed")                                                   \
    X(NC_EEMPTY,                                                             \
      "NetCDF: Attempt to read empty NCZarr map key",                        \
      "The NCZarr map key is empty")                                         \
    X(NC_EOBJECT,                                                            \
      "NetCDF: Some object exists when it should not",                       \
      "An object exists where none should")                                  \
    X(NC_ENOOBJECT,                                                          \
      "NetCDF: Some object not found",                                       \
      "An expected object does not exist")                                   \
    X(NC_EPLUGIN,                                                            \
      "NetCDF: Unclassified failure in accessing a dynamically "             \
      "loaded plugin",                                                       \
      "A dynamically loaded plugin failed")                                  \
    X(NC_ESMALL,                                                             \
      "Size of MPI_Offset or MPI_Aint too small for requested format",       \
      "MPI_Offset is too small for this file format")                        \
    X(NC_ENOTINDEP,                                                          \
      "Operation not allowed in collective data mode",                       \
      "The call needs independent data mode; call ncmpi_begin_indep_data "   \
      "first")                                                               \
    X(NC_EINDEP,                                                             \
      "Operation not allowed in independent data mode",                      \
      "The call is not allowed in independent data mode; call "              \
      "ncmpi_end_indep_data first")                                          \
    X(NC_EFILE,                                                              \
      "Unknown error in file operation",                                     \
      "File operation failed")                                               \
    X(NC_EREAD,                                                              \
      "Unknown error occurs in reading file",                                \
      "Reading the file failed")                                             \
    X(NC_EWRITE,                                                             \
      "Unknown error occurs in writing file",                                \
      "Writing the file failed")                                             \
    X(NC_EOFILE,                                                             \
      "Fail to open/create file",                                            \
      "The file could not be opened or created")                             \
    X(NC_EMULTITYPES,                                                        \
      "Multiple etypes used in MPI datatype",                                \
      "The MPI datatype mixes several element types")                        \
    X(NC_EIOMISMATCH,                                                        \
      "Input/Output data amount mismatch",                                   \
      "The buffer holds a different number of elements than the request "    \
      "selects")                                                             \
    X(NC_ENEGATIVECNT,                                                       \
      "Negative count is prohibited",                                        \
      "A count is negative")                                                 \
    X(NC_EUNSPTETYPE,                                                        \
      "Unsupported etype in the MPI datatype describing the I/O buffer",     \
      "The MPI datatype's element type is not supported")                    \
    X(NC_EINVAL_REQUEST,                                                     \
      "Invalid nonblocking request ID.",                                     \
      "The id does not name a pending nonblocking request")                  \
    X(NC_EAINT_TOO_SMALL,                                                    \
      "MPI_Aint not large enough to hold requested value.",                  \
      "The value does not fit in MPI_Aint")                                  \
    X(NC_ENOTSUPPORT,                                                        \
      "Feature is not yet supported.",                                       \
      "The feature is not supported")                                        \
    X(NC_ENULLBUF,                                                           \
      "Trying to attach a NULL buffer or the buffer size is negative.",      \
      "A data call's buffer is NULL while its selection is not empty, or "   \
      "the buffer to attach has no size")                                    \
    X(NC_EPREVATTACHBUF,                                                     \
      "Previous attached buffer is found.",                                  \
      "A buffer is already attached")                                        \
    X(NC_ENULLABUF,                                                          \
      "No attached buffer is found.",                                        \
      "No buffer is attached")                                               \
    X(NC_EPENDINGBPUT,                                                       \
      "Cannot detach buffer due to pending bput request is found.",          \
      "Buffered puts are still pending, so the buffer cannot be detached")   \
    X(NC_EINSUFFBUF,                                                         \
      "Attached buffer is too small.",                                       \
      "The attached buffer has too little room left")                        \
    X(NC_ENOENT,                                                             \
      "Specified netCDF file does not exist.",                               \
      "The file does not exist")                                             \
    X(NC_EINTOVERFLOW,                                                       \
      "Integer type casting overflow.",                                      \
      "The value does not fit in a 4-byte integer")                          \
    X(NC_ENOTENABLED,                                                        \
      "Feature is not enabled at configure time.",                           \
      "The feature is not enabled")                                          \
    X(NC_EBAD_FILE,                                                          \
      "Invalid file name (e.g., path name too long).",                       \
      "The file name is not valid")                                          \
    X(NC_ENO_SPACE,                                                          \
      "Not enough space.",                                                   \
      "No space is left on the device")                                      \
    X(NC_EQUOTA,                                                             \
      "Quota exceeded.",                                                     \
      "The disk quota is exhausted")                                         \
    X(NC_ENULLSTART,                                                         \
      "Argument start is a NULL pointer",                                    \
      "The start argument is NULL")                                          \
    X(NC_ENULLCOUNT,                                                         \
      "Argument count is a NULL pointer",                                    \
      "The count argument is NULL")                                          \
    X(NC_EINVAL_CMODE,                                                       \
      "Invalid file create mode",                                            \
      "The create mode is not valid")                                        \
    X(NC_ETYPESIZE,                                                          \
      "MPI datatype size error (bigger than the variable size)",             \
      "The MPI datatype is larger than the request")                         \
    X(NC_ETYPE_MISMATCH,                                                     \
      "etype of the MPI datatype mismatches the variable data type",         \
      "The MPI datatype's element type does not match the variable's type")  \
    X(NC_ETYPESIZE_MISMATCH,                                                 \
      "MPI filetype size mismatches buftype size * bufcount",                \
      "The file type and buffer type sizes differ")                          \
    X(NC_ESTRICTCDF2,                                                        \
      "Attempting CDF-5 operation on strict CDF or CDF-2 file",              \
      "The operation needs the CDF-5 format")                                \
    X(NC_ENOTRECVAR,                                                         \
      "Attempting operation only for record variables",                      \
      "The operation needs a record variable")                               \
    X(NC_ENOTFILL,                                                           \
      "Attempting to fill a record when its variable fill mode is off",      \
      "The variable's fill mode is off, so it cannot be filled")             \
    X(NC_EINVAL_OMODE,                                                       \
      "Invalid or unsupported file open mode",                               \
      "The open mode is not valid")                                          \
    X(NC_EPENDING,                                                           \
      "Pending nonblocking request is found at file close",                  \
      "Nonblocking requests are still pending")                              \
    X(NC_EMAX_REQ,                                                           \
      "Size of I/O request exceeds INT_MAX",                                 \
      "A single request is larger than INT_MAX bytes")                       \
    X(NC_EBADLOG,                                                            \
      "Unrecognized burst buffering log file format.",                       \
      "The log file format is not recognised")                               \
    X(NC_EFLUSHED,                                                           \
      "Nonblocking requests already flushed.",                               \
      "The request has already been written and cannot be cancelled")        \
    X(NC_EADIOS,                                                             \
      "unknown ADIOS error.",                                                \
      "The ADIOS layer reported a failure")                                  \
    X(NC_EMULTIDEFINE,                                                       \
      "File header is inconsistent among processes",                         \
      "Processes disagree about the dataset definition")                     \
    X(NC_EMULTIDEFINE_OMODE,                                                 \
      "File open mode is inconsistent among processes.",                     \
      "Processes passed different open or create modes")                     \
    X(NC_EMULTIDEFINE_DIM_NUM,                                               \
      "Number of dimensions is inconsistent among processes.",               \
      "Processes defined different numbers of dimensions")                   \
    X(NC_EMULTIDEFINE_DIM_SIZE,                                              \
      "Dimension size is inconsistent among processes.",                     \
      "Processes gave a dimension different lengths")                        \
    X(NC_EMULTIDEFINE_DIM_NAME,                                              \
      "Dimension name is inconsistent among processes.",                     \
      "Processes gave a dimension different names")                          \
    X(NC_EMULTIDEFINE_VAR_NUM,                                               \
      "Number of variables is inconsistent among processes.",                \
      "Processes defined different numbers of variables")                    \
    X(NC_EMULTIDEFINE_VAR_NAME,                                              \
      "Variable name is inconsistent among processes.",                      \
      "Processes gave a variable different names")                           \
    X(NC_EMULTIDEFINE_VAR_NDIMS,                                             \
      "Dimensionality of this variable is inconsistent among processes.",    \
      "Processes gave a variable different numbers of dimensions")           \
    X(NC_EMULTIDEFINE_VAR_DIMIDS,                                            \
      "Dimension IDs used to define this variable are inconsistent among "   \
      "processes.",                                                          \
      "Processes gave a variable different dimensions")                      \
    X(NC_EMULTIDEFINE_VAR_TYPE,                                              \
      "Data type of this variable is inconsistent among processes.",         \
      "Processes gave a variable different types")                           \
    X(NC_EMULTIDEFINE_VAR_LEN,                                               \
      "Number of elements of this variable is inconsistent among "           \
      "processes.",                                                          \
      "Processes computed different variable sizes")                         \
    X(NC_EMULTIDEFINE_NUMRECS,                                               \
      "Number of records is inconsistent among processes.",                  \
      "Processes disagree about the number of records")                      \
    X(NC_EMULTIDEFINE_VAR_BEGIN,                                             \
      "Starting file offset of this variable is inconsistent among "         \
      "processes.",                                                          \
      "Processes computed different variable file offsets")                  \
    X(NC_EMULTIDEFINE_ATTR_NUM,                                              \
      "Number of attributes is inconsistent among processes.",               \
      "Processes defined different numbers of attributes")                   \
    X(NC_EMULTIDEFINE_ATTR_SIZE,                                             \
      "Memory space used by attribute (internal use) is inconsistent "       \
      "among processes.",                                                    \
      "Processes hold attributes of different sizes")                        \
    X(NC_EMULTIDEFINE_ATTR_NAME,                                             \
      "Attribute name is inconsistent among processes.",                     \
      "Processes gave an attribute different names")                         \
    X(NC_EMULTIDEFINE_ATTR_TYPE,                                             \
      "Attribute type is inconsistent among processes.",                     \
      "Processes gave an attribute different types")                         \
    X(NC_EMULTIDEFINE_ATTR_LEN,                                              \
      "Attribute length is inconsistent among processes.",                   \
      "Processes gave an attribute different lengths")                       \
    X(NC_EMULTIDEFINE_ATTR_VAL,                                              \
      "Attribute value is inconsistent among processes.",                    \
      "Processes gave an attribute different values")                        \
    X(NC_EMULTIDEFINE_FNC_ARGS,                                              \
      "Arguments in collective API are inconsistent among processes.",       \
      "Processes passed different arguments to a collective call")           \
    X(NC_EMULTIDEFINE_FILL_MODE,                                             \
      "File fill mode is inconsistent among processes.",                     \
      "Processes set different dataset fill modes")                          \
    X(NC_EMULTIDEFINE_VAR_FILL_MODE,                                         \
      "Variable fill mode is inconsistent among processes.",                 \
      "Processes set different fill modes for a variable")                   \
    X(NC_EMULTIDEFINE_VAR_FILL_VALUE,                                        \
      "Variable fill value is inconsistent among processes.",                \
      "Processes set different fill values for a variable")                  \
    X(NC_EMULTIDEFINE_CMODE,                                                 \
      "File create mode is inconsistent among processes.",                   \
      "Processes passed different create modes")

/*
 * Set *name, *pnc_msg (PnetCDF's text, NULL where PnetCDF's strerror does
 * not know the code) and *msg (ncpario's text) for a code of the table.
 * Returns 1 when the code is in the table, 0 otherwise (outputs
 * untouched).  A switch, not a loop, so that a duplicate value in the
 * table is a compile error.
 */
static int ncp_error_lookup(int err, const char **name, const char **pnc_msg,
                            const char **msg)
{
    int found = 1;

    switch (err) {
#define NCP_ERROR_CASE(code, pnc_text, text) \
    case code:                               \
        *name = #code;                       \
        *pnc_msg = pnc_text;                 \
        *msg = text;                         \
        break;
        NCP_ERRORS(NCP_ERROR_CASE)
#undef NCP_ERROR_CASE
    default:
        found = 0;
        break;
    }
    return found;
}

int ncp_error_known(int err)
{
    const char *name, *pnc_msg, *msg;

    return err == NC_NOERR || ncp_error_lookup(err, &name, &pnc_msg, &msg);
}

/* PnetCDF's text for a code it does not know: the code right-aligned in
 * five columns, then a newline, which programs that print it rely on. */
const char *ncp_strerror(int err)
{
    static _Thread_local char unknown[64];
    const char *name, *pnc_msg = NULL, *msg;

    if (NC_ISSYSERR(err))
        return strerror(err);
    if (ncp_error_lookup(err, &name, &pnc_msg, &msg) && pnc_msg)
        return pnc_msg;
    snprintf(unknown, sizeof unknown,
             "Unknown Error: Unrecognized error code %5d\n", err);
    return unknown;
}

const char *ncp_strerror_detail(int err)
{
    const char *name, *pnc_msg, *msg = "Unknown status code";

    if (NC_ISSYSERR(err))
        return strerror(err);
    (void)ncp_error_lookup(err, &name, &pnc_msg, &msg);
    return msg;
}

/* The code's constant name; numbered texts where PnetCDF prints them.
 * PnetCDF 1.12.3 has strerror texts for netCDF 4.8's codes NC_ENCZARR to
 * NC_EPLUGIN but no names, so they are unknown here. */
const char *ncp_strerrno(int err)
{
    static _Thread_local char numbered[320];
    const char *name, *pnc_msg = NULL, *msg;

    if (NC_ISSYSERR(err))
        snprintf(numbered, sizeof numbered, "System error code %d (%s)", err,
                 strerror(err));
    else if (ncp_error_lookup(err, &name, &pnc_msg, &msg) && pnc_msg &&
             (err > NC_ENCZARR || err < NC_EPLUGIN))
        return name;
    else
        snprintf(numbered, sizeof numbered, "Unknown code %d", err);
    return numbered;
}

/* Programs parse the leading version number, as PnetCDF prints it. */
const char *ncp_libvers(void)
{
    return PNETCDF_VERSION " (ncpario " NCPARIO_VERSION ")";
}

const char *ncp_version(void)
{
    return NCPARIO_VERSION;
}
