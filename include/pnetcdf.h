/*
 * pnetcdf.h -- ncpario's implementation of the PnetCDF C interface.
 *
 * A program written for PnetCDF 1.12.3 compiles against this header and
 * links against -lncpario without a change: every constant has PnetCDF's
 * value and C type, and every ncmpi_* function has PnetCDF's signature.
 * tests/interop/check_api_against_pnetcdf.py holds both promises against
 * an installed PnetCDF.  ncpario's own additions live in ncpario.h, never
 * here.
 *
 * Layout: build facts; the constants netCDF and PnetCDF share (skipped when
 * netcdf.h was included first, so a program may include both); the
 * constants only PnetCDF has; then the functions.  The twelve typed forms of
 * each data family are declared by expanding one list of (name suffix,
 * C type) pairs; the macros used for that are removed at the end of the
 * file so that none of them reaches the including program.
 *
 * Error messages and names are not here: src/util/errors.c holds them.
 */
#ifndef NCPARIO_PNETCDF_H
#define NCPARIO_PNETCDF_H

#include <stddef.h>
#include <mpi.h>

/* ---- the PnetCDF release whose interface this header provides ---------- */

#define PNETCDF_VERSION       "1.12.3"
#define PNETCDF_VERSION_MAJOR 1
#define PNETCDF_VERSION_MINOR 12
#define PNETCDF_VERSION_SUB   3
#define PNETCDF_RELEASE_DATE  "February 21, 2022"

/*
 * Build facts programs may test with #if.  They describe ncpario, so the two
 * bindings ncpario does not ship read 0; the others describe behaviour that
 * ncpario shares with a default PnetCDF build.
 */
#define PNETCDF_ENABLE_FORTRAN           0
#define PNETCDF_ENABLE_CXX               0
#define PNETCDF_ERANGE_FILL              1
#define PNETCDF_SUBFILING                0
#define PNETCDF_RELAX_COORD_BOUND        1
#define PNETCDF_DEBUG_MODE               0
#define PNETCDF_LARGE_SINGLE_REQ         0
#define PNETCDF_NULL_BYTE_HEADER_PADDING 0
#define PNETCDF_BYTE_SWAP_IN_PLACE       -1
#define PNETCDF_BURST_BUFFERING          0
#define PNETCDF_THREAD_SAFE              0
#define PNETCDF_DRIVER_NETCDF4           0
#define PNETCDF_DRIVER_ADIOS             0

#ifdef __cplusplus
extern "C" {
#endif

/*
 * ======== constants shared with netCDF ===================================
 * netcdf.h defines every one of these with the same meaning; when it has
 * been included already, its definitions stand and these are skipped.
 */
#ifndef _NETCDF_

typedef int nc_type;

/* external data types */
#define NC_NAT      0
#define NC_BYTE     1
#define NC_CHAR     2
#define NC_SHORT    3
#define NC_INT      4
#define NC_LONG     NC_INT
#define NC_FLOAT    5
#define NC_DOUBLE   6
#define NC_UBYTE    7
#define NC_USHORT   8
#define NC_UINT     9
#define NC_INT64    10
#define NC_UINT64   11
#define NC_STRING   12
#define NC_MAX_ATOMIC_TYPE NC_STRING
/* netCDF-4 user-defined type classes; no classic file can hold them */
#define NC_VLEN     13
#define NC_OPAQUE   14
#define NC_ENUM     15
#define NC_COMPOUND 16
#define NC_FIRSTUSERTYPEID 32

/* default fill values, typed as the C element they fill */
#define NC_FILL_BYTE   ((signed char)-127)
#define NC_FILL_CHAR   ((char)0)
#define NC_FILL_SHORT  ((short)-32767)
#define NC_FILL_INT    (-2147483647)
#define NC_FILL_FLOAT  (9.9692099683868690e+36f)
#define NC_FILL_DOUBLE (9.9692099683868690e+36)
#define NC_FILL_UBYTE  (255)
#define NC_FILL_USHORT (65535)
#define NC_FILL_UINT   (4294967295U)
#define NC_FILL_INT64  ((long long)-9223372036854775806LL)
#define NC_FILL_UINT64 ((unsigned long long)18446744073709551614ULL)
#define NC_FILL_STRING ((char *)"")

/* range of each external type */
#define NC_MAX_BYTE   127
#define NC_MIN_BYTE   (-NC_MAX_BYTE - 1)
#define NC_MAX_CHAR   255
#define NC_MAX_SHORT  32767
#define NC_MIN_SHORT  (-NC_MAX_SHORT - 1)
#define NC_MAX_INT    2147483647
#define NC_MIN_INT    (-NC_MAX_INT - 1)
#define NC_MAX_FLOAT  3.402823466e+38f
#define NC_MIN_FLOAT  (-NC_MAX_FLOAT)
#define NC_MAX_DOUBLE 1.7976931348623157e+308
#define NC_MIN_DOUBLE (-NC_MAX_DOUBLE)
#define NC_MAX_UBYTE  NC_MAX_CHAR
#define NC_MAX_USHORT 65535U
#define NC_MAX_UINT   4294967295U
#define NC_MAX_INT64  (9223372036854775807LL)
#define NC_MIN_INT64  (-9223372036854775807LL - 1LL)
#define NC_MAX_UINT64 (18446744073709551615ULL)

/* the attribute that overrides a variable's default fill value */
#define _FillValue "_FillValue"

/* ncmpi_set_fill modes */
#define NC_FILL   0
#define NC_NOFILL 0x100

/* ncmpi_create / ncmpi_open mode bits */
#define NC_NOWRITE       0x0000
#define NC_WRITE         0x0001
#define NC_CLOBBER       0x0000
#define NC_NOCLOBBER     0x0004
#define NC_DISKLESS      0x0008
#define NC_MMAP          0x0010
#define NC_64BIT_DATA    0x0020
#define NC_CDF5          NC_64BIT_DATA
#define NC_UDF0          0x0040
#define NC_UDF1          0x0080
#define NC_CLASSIC_MODEL 0x0100
#define NC_64BIT_OFFSET  0x0200
#define NC_LOCK          0x0400
#define NC_SHARE         0x0800
#define NC_NETCDF4       0x1000
#define NC_MPIIO         0x2000
#define NC_MPIPOSIX      NC_MPIIO
#define NC_PNETCDF       (NC_MPIIO)
#define NC_PERSIST       0x4000
#define NC_INMEMORY      0x8000
#define NC_NOATTCREORD   0x20000
#define NC_MAX_MAGIC_NUMBER_LEN 8

/* file formats, as ncmpi_inq_format and friends report them */
#define NC_FORMAT_CLASSIC         (1)
#define NC_FORMAT_64BIT_OFFSET    (2)
#define NC_FORMAT_64BIT           (NC_FORMAT_64BIT_OFFSET)
#define NC_FORMAT_NETCDF4         (3)
#define NC_FORMAT_NETCDF4_CLASSIC (4)
#define NC_FORMAT_64BIT_DATA      (5)
#define NC_FORMAT_CDF5            NC_FORMAT_64BIT_DATA
#define NC_FORMAT_ALL (NC_64BIT_OFFSET | NC_64BIT_DATA | NC_CLASSIC_MODEL | \
                       NC_NETCDF4 | NC_UDF0 | NC_UDF1)

/* netCDF's dispatch-layer ("extended") format codes and their old names */
#define NC_FORMATX_NC3       (1)
#define NC_FORMATX_NC_HDF5   (2)
#define NC_FORMATX_NC4       NC_FORMATX_NC_HDF5
#define NC_FORMATX_NC_HDF4   (3)
#define NC_FORMATX_PNETCDF   (4)
#define NC_FORMATX_DAP2      (5)
#define NC_FORMATX_DAP4      (6)
#define NC_FORMATX_UDF0      (8)
#define NC_FORMATX_UDF1      (9)
#define NC_FORMATX_NCZARR    (10)
#define NC_FORMATX_UNDEFINED (0)
#define NC_FORMAT_NC3        NC_FORMATX_NC3
#define NC_FORMAT_NC_HDF5    NC_FORMATX_NC_HDF5
#define NC_FORMAT_NC4        NC_FORMATX_NC4
#define NC_FORMAT_NC_HDF4    NC_FORMATX_NC_HDF4
#define NC_FORMAT_PNETCDF    NC_FORMATX_PNETCDF
#define NC_FORMAT_DAP2       NC_FORMATX_DAP2
#define NC_FORMAT_DAP4       NC_FORMATX_DAP4
#define NC_FORMAT_UNDEFINED  NC_FORMATX_UNDEFINED

#define NC_SIZEHINT_DEFAULT 0
#define NC_ALIGN_CHUNK ((size_t)(-1))

/* the length that makes a dimension the record dimension */
#define NC_UNLIMITED 0L
/* the variable id that names the global attributes */
#define NC_GLOBAL -1

/*
 * Object-count limits.  PnetCDF bounds counts only by the int range (the
 * classic format itself has no smaller bound), so three of these are
 * NC_MAX_INT rather than netCDF's historical 1024/8192.
 */
#define NC_MAX_DIMS      NC_MAX_INT
#define NC_MAX_ATTRS     NC_MAX_INT
#define NC_MAX_VARS      NC_MAX_INT
#define NC_MAX_NAME      256
#define NC_MAX_VAR_DIMS  NC_MAX_INT
#define NC_MAX_HDF4_NAME NC_MAX_NAME

/* netCDF-4 storage settings; kept so multi-backend programs compile */
#define NC_ENDIAN_NATIVE     0
#define NC_ENDIAN_LITTLE     1
#define NC_ENDIAN_BIG        2
#define NC_CHUNKED           0
#define NC_CONTIGUOUS        1
#define NC_COMPACT           2
#define NC_UNKNOWN_STORAGE   3
#define NC_VIRTUAL           4
#define NC_NOCHECKSUM        0
#define NC_FLETCHER32        1
#define NC_NOSHUFFLE         0
#define NC_SHUFFLE           1
#define NC_MIN_DEFLATE_LEVEL 0
#define NC_MAX_DEFLATE_LEVEL 9
#define NC_NOQUANTIZE          0
#define NC_QUANTIZE_BITGROOM   1
#define NC_QUANTIZE_GRANULARBR 2
#define NC_QUANTIZE_BITGROOM_ATT_NAME \
    "_QuantizeBitgroomNumberOfSignificantDigits"
#define NC_QUANTIZE_GRANULARBR_ATT_NAME \
    "_QuantizeGranularBitRoundNumberOfSignificantDigits"
#define NC_QUANTIZE_MAX_FLOAT_NSD  (7)
#define NC_QUANTIZE_MAX_DOUBLE_NSD (15)

/*
 * Status codes.  Every function returns NC_NOERR or one of these negative
 * codes; a positive value is a system errno (see NC_ISSYSERR).
 * ncmpi_strerror() and ncmpi_strerrno() describe and name each of them.
 */
#define NC_ISSYSERR(err) ((err) > 0)

#define NC_NOERR          0
#define NC2_ERR           (-1)
#define NC_EBADID         (-33)
#define NC_ENFILE         (-34)
#define NC_EEXIST         (-35)
#define NC_EINVAL         (-36)
#define NC_EPERM          (-37)
#define NC_ENOTINDEFINE   (-38)
#define NC_EINDEFINE      (-39)
#define NC_EINVALCOORDS   (-40)
#define NC_EMAXDIMS       (-41)
#define NC_ENAMEINUSE     (-42)
#define NC_ENOTATT        (-43)
#define NC_EMAXATTS       (-44)
#define NC_EBADTYPE       (-45)
#define NC_EBADDIM        (-46)
#define NC_EUNLIMPOS      (-47)
#define NC_EMAXVARS       (-48)
#define NC_ENOTVAR        (-49)
#define NC_EGLOBAL        (-50)
#define NC_ENOTNC         (-51)
#define NC_ESTS           (-52)
#define NC_EMAXNAME       (-53)
#define NC_EUNLIMIT       (-54)
#define NC_ENORECVARS     (-55)
#define NC_ECHAR          (-56)
#define NC_EEDGE          (-57)
#define NC_ESTRIDE        (-58)
#define NC_EBADNAME       (-59)
#define NC_ERANGE         (-60)
#define NC_ENOMEM         (-61)
#define NC_EVARSIZE       (-62)
#define NC_EDIMSIZE       (-63)
#define NC_ETRUNC         (-64)
#define NC_EAXISTYPE      (-65)
#define NC_EDAP           (-66)
#define NC_ECURL          (-67)
#define NC_EIO            (-68)
#define NC_ENODATA        (-69)
#define NC_EDAPSVC        (-70)
#define NC_EDAS           (-71)
#define NC_EDDS           (-72)
#define NC_EDMR           NC_EDDS
#define NC_EDATADDS       (-73)
#define NC_EDATADAP       NC_EDATADDS
#define NC_EDAPURL        (-74)
#define NC_EDAPCONSTRAINT (-75)
#define NC_ETRANSLATION   (-76)
#define NC_EACCESS        (-77)
#define NC_EAUTH          (-78)
#define NC_ENOTFOUND      (-90)
#define NC_ECANTREMOVE    (-91)
#define NC_EINTERNAL      (-92)
#define NC_EPNETCDF       (-93)

/* codes netCDF-4 raises; NC4_FIRST_ERROR/NC4_LAST_ERROR bound the range */
#define NC4_FIRST_ERROR   (-100)
#define NC_EHDFERR        (-101)
#define NC_ECANTREAD      (-102)
#define NC_ECANTWRITE     (-103)
#define NC_ECANTCREATE    (-104)
#define NC_EFILEMETA      (-105)
#define NC_EDIMMETA       (-106)
#define NC_EATTMETA       (-107)
#define NC_EVARMETA       (-108)
#define NC_ENOCOMPOUND    (-109)
#define NC_EATTEXISTS     (-110)
#define NC_ENOTNC4        (-111)
#define NC_ESTRICTNC3     (-112)
#define NC_ENOTNC3        (-113)
#define NC_ENOPAR         (-114)
#define NC_EPARINIT       (-115)
#define NC_EBADGRPID      (-116)
#define NC_EBADTYPID      (-117)
#define NC_ETYPDEFINED    (-118)
#define NC_EBADFIELD      (-119)
#define NC_EBADCLASS      (-120)
#define NC_EMAPTYPE       (-121)
#define NC_ELATEFILL      (-122)
#define NC_ELATEDEF       (-123)
#define NC_EDIMSCALE      (-124)
#define NC_ENOGRP         (-125)
#define NC_ESTORAGE       (-126)
#define NC_EBADCHUNK      (-127)
#define NC_ENOTBUILT      (-128)
#define NC_EDISKLESS      (-129)
#define NC_ECANTEXTEND    (-130)
#define NC_EMPI           (-131)
#define NC_EFILTER        (-132)
#define NC_ERCFILE        (-133)
#define NC_ENULLPAD       (-134)
#define NC_EINMEMORY      (-135)
#define NC_ENOFILTER      (-136)
#define NC_ENCZARR        (-137)
#define NC_ES3            (-138)
#define NC_EEMPTY         (-139)
#define NC_EOBJECT        (-140)
#define NC_ENOOBJECT      (-141)
#define NC_EPLUGIN        (-142)
#define NC4_LAST_ERROR    (-142)
#define NC_EURL           (NC_EDAPURL)
#define NC_ECONSTRAINT    (NC_EDAPCONSTRAINT)

/* netCDF-4 marker that PnetCDF's header also exposes */
#define NC_HAVE_NEW_CHUNKING_API 1

#endif /* _NETCDF_ */

/*
 * ======== constants only PnetCDF has =====================================
 */

/* request ids: the id of a request that needed no I/O, and the wildcards
   ncmpi_wait/ncmpi_wait_all accept to mean every pending request */
#define NC_REQ_NULL    -1
#define NC_REQ_ALL     -1
#define NC_GET_REQ_ALL -2
#define NC_PUT_REQ_ALL -3

#define NC_MAX_NFILES  1024
#define NC_FORMAT_UNKNOWN -1
/* mode bit for CDF-1; set internally, never passed by programs */
#define NC_32BIT       0x1000000

/* older netcdf.h releases lack these, so they are supplied when missing */
#ifndef NC_64BIT_DATA
#define NC_64BIT_DATA 0x0020
#endif
#ifndef NC_FORMAT_CDF2
#define NC_FORMAT_CDF2 2
#endif
#ifndef NC_FORMAT_CDF5
#define NC_FORMAT_CDF5 5
#endif
#ifndef NC_ENULLPAD
#define NC_ENULLPAD (-134)
#endif

/* ADIOS BP read support in PnetCDF; ncpario never produces this format */
#define NC_BP        0x10000
#define NC_FORMAT_BP 6

/* PnetCDF status codes */
#define NC_ESMALL             (-201)
#define NC_ENOTINDEP          (-202)
#define NC_EINDEP             (-203)
#define NC_EFILE              (-204)
#define NC_EREAD              (-205)
#define NC_EWRITE             (-206)
#define NC_EOFILE             (-207)
#define NC_EMULTITYPES        (-208)
#define NC_EIOMISMATCH        (-209)
#define NC_ENEGATIVECNT       (-210)
#define NC_EUNSPTETYPE        (-211)
#define NC_EINVAL_REQUEST     (-212)
#define NC_EAINT_TOO_SMALL    (-213)
#define NC_ENOTSUPPORT        (-214)
#define NC_ENULLBUF           (-215)
#define NC_EPREVATTACHBUF     (-216)
#define NC_ENULLABUF          (-217)
#define NC_EPENDINGBPUT       (-218)
#define NC_EINSUFFBUF         (-219)
#define NC_ENOENT             (-220)
#define NC_EINTOVERFLOW       (-221)
#define NC_ENOTENABLED        (-222)
#define NC_EBAD_FILE          (-223)
#define NC_ENO_SPACE          (-224)
#define NC_EQUOTA             (-225)
#define NC_ENULLSTART         (-226)
#define NC_ENULLCOUNT         (-227)
#define NC_EINVAL_CMODE       (-228)
#define NC_ETYPESIZE          (-229)
#define NC_ETYPE_MISMATCH     (-230)
#define NC_ETYPESIZE_MISMATCH (-231)
#define NC_ESTRICTCDF2        (-232)
#define NC_ENOTRECVAR         (-233)
#define NC_ENOTFILL           (-234)
#define NC_EINVAL_OMODE       (-235)
#define NC_EPENDING           (-236)
#define NC_EMAX_REQ           (-237)
#define NC_EBADLOG            (-238)
#define NC_EFLUSHED           (-239)
#define NC_EADIOS             (-240)

/* the ranks of a communicator disagree about a definition or argument */
#define NC_EMULTIDEFINE                (-250)
#define NC_EMULTIDEFINE_OMODE          (-251)
#define NC_EMULTIDEFINE_DIM_NUM        (-252)
#define NC_EMULTIDEFINE_DIM_SIZE       (-253)
#define NC_EMULTIDEFINE_DIM_NAME       (-254)
#define NC_EMULTIDEFINE_VAR_NUM        (-255)
#define NC_EMULTIDEFINE_VAR_NAME       (-256)
#define NC_EMULTIDEFINE_VAR_NDIMS      (-257)
#define NC_EMULTIDEFINE_VAR_DIMIDS     (-258)
#define NC_EMULTIDEFINE_VAR_TYPE       (-259)
#define NC_EMULTIDEFINE_VAR_LEN        (-260)
#define NC_EMULTIDEFINE_NUMRECS        (-261)
#define NC_EMULTIDEFINE_VAR_BEGIN      (-262)
#define NC_EMULTIDEFINE_ATTR_NUM       (-263)
#define NC_EMULTIDEFINE_ATTR_SIZE      (-264)
#define NC_EMULTIDEFINE_ATTR_NAME      (-265)
#define NC_EMULTIDEFINE_ATTR_TYPE      (-266)
#define NC_EMULTIDEFINE_ATTR_LEN       (-267)
#define NC_EMULTIDEFINE_ATTR_VAL       (-268)
#define NC_EMULTIDEFINE_FNC_ARGS       (-269)
#define NC_EMULTIDEFINE_FILL_MODE      (-270)
#define NC_EMULTIDEFINE_VAR_FILL_MODE  (-271)
#define NC_EMULTIDEFINE_VAR_FILL_VALUE (-272)
#define NC_EMULTIDEFINE_CMODE          (-273)
#define NC_EMULTIDEFINE_FIRST          NC_EMULTIDEFINE
#define NC_EMULTIDEFINE_LAST           NC_EMULTIDEFINE_CMODE

/* earlier spellings of some of the codes above */
#define NC_ECMODE                   NC_EMULTIDEFINE_OMODE
#define NC_EDIMS_NELEMS_MULTIDEFINE NC_EMULTIDEFINE_DIM_NUM
#define NC_EDIMS_SIZE_MULTIDEFINE   NC_EMULTIDEFINE_DIM_SIZE
#define NC_EDIMS_NAME_MULTIDEFINE   NC_EMULTIDEFINE_DIM_NAME
#define NC_EVARS_NELEMS_MULTIDEFINE NC_EMULTIDEFINE_VAR_NUM
#define NC_EVARS_NAME_MULTIDEFINE   NC_EMULTIDEFINE_VAR_NAME
#define NC_EVARS_NDIMS_MULTIDEFINE  NC_EMULTIDEFINE_VAR_NDIMS
#define NC_EVARS_DIMIDS_MULTIDEFINE NC_EMULTIDEFINE_VAR_DIMIDS
#define NC_EVARS_TYPE_MULTIDEFINE   NC_EMULTIDEFINE_VAR_TYPE
#define NC_EVARS_LEN_MULTIDEFINE    NC_EMULTIDEFINE_VAR_LEN
#define NC_ENUMRECS_MULTIDEFINE     NC_EMULTIDEFINE_NUMRECS
#define NC_EVARS_BEGIN_MULTIDEFINE  NC_EMULTIDEFINE_VAR_BEGIN

/*
 * ======== functions ======================================================
 * Every function returns an NC_* status unless it returns a string.
 */

/* ---- status strings and library version ---- */
extern const char *ncmpi_strerror(int err);
extern const char *ncmpi_strerrno(int err);
extern const char *ncmpi_inq_libvers(void);

/* ---- dataset lifecycle ---- */
extern int ncmpi_create(MPI_Comm comm, const char *path, int cmode,
                        MPI_Info info, int *ncidp);
extern int ncmpi_open(MPI_Comm comm, const char *path, int omode,
                      MPI_Info info, int *ncidp);
extern int ncmpi_delete(const char *filename, MPI_Info info);
extern int ncmpi_enddef(int ncid);
extern int ncmpi__enddef(int ncid, MPI_Offset h_minfree, MPI_Offset v_align,
                         MPI_Offset v_minfree, MPI_Offset r_align);
extern int ncmpi_redef(int ncid);
extern int ncmpi_sync(int ncid);
extern int ncmpi_sync_numrecs(int ncid);
extern int ncmpi_flush(int ncid);
extern int ncmpi_abort(int ncid);
extern int ncmpi_close(int ncid);
extern int ncmpi_begin_indep_data(int ncid);
extern int ncmpi_end_indep_data(int ncid);
extern int ncmpi_set_default_format(int format, int *old_formatp);
extern int ncmpi_inq_default_format(int *formatp);

/* ---- fill values ---- */
extern int ncmpi_set_fill(int ncid, int fillmode, int *old_modep);
extern int ncmpi_def_var_fill(int ncid, int varid, int no_fill,
                              const void *fill_value);
extern int ncmpi_inq_var_fill(int ncid, int varid, int *no_fill,
                              void *fill_value);
extern int ncmpi_fill_var_rec(int ncid, int varid, MPI_Offset recno);

/* ---- definitions ---- */
extern int ncmpi_def_dim(int ncid, const char *name, MPI_Offset len,
                         int *idp);
extern int ncmpi_def_var(int ncid, const char *name, nc_type xtype,
                         int ndims, const int *dimidsp, int *varidp);
extern int ncmpi_rename_dim(int ncid, int dimid, const char *name);
extern int ncmpi_rename_var(int ncid, int varid, const char *name);

/* ---- inquiry: dataset ---- */
extern int ncmpi_inq(int ncid, int *ndimsp, int *nvarsp, int *ngattsp,
                     int *unlimdimidp);
extern int ncmpi_inq_ndims(int ncid, int *ndimsp);
extern int ncmpi_inq_nvars(int ncid, int *nvarsp);
extern int ncmpi_inq_natts(int ncid, int *ngattsp);
extern int ncmpi_inq_unlimdim(int ncid, int *unlimdimidp);
extern int ncmpi_inq_num_rec_vars(int ncid, int *nvarsp);
extern int ncmpi_inq_num_fix_vars(int ncid, int *nvarsp);
extern int ncmpi_inq_format(int ncid, int *formatp);
extern int ncmpi_inq_file_format(const char *filename, int *formatp);
extern int ncmpi_inq_version(int ncid, int *NC_mode);
extern int ncmpi_inq_file_info(int ncid, MPI_Info *info_used);
extern int ncmpi_get_file_info(int ncid, MPI_Info *info_used);
extern int ncmpi_inq_path(int ncid, int *pathlen, char *path);
extern int ncmpi_inq_striping(int ncid, int *striping_size,
                              int *striping_count);
extern int ncmpi_inq_recsize(int ncid, MPI_Offset *recsize);
extern int ncmpi_inq_header_size(int ncid, MPI_Offset *size);
extern int ncmpi_inq_header_extent(int ncid, MPI_Offset *extent);
extern int ncmpi_inq_put_size(int ncid, MPI_Offset *size);
extern int ncmpi_inq_get_size(int ncid, MPI_Offset *size);
extern int ncmpi_inq_files_opened(int *num, int *ncids);
extern int ncmpi_inq_malloc_size(MPI_Offset *size);
extern int ncmpi_inq_malloc_max_size(MPI_Offset *size);
extern int ncmpi_inq_malloc_list(void);

/* ---- inquiry: dimensions ---- */
extern int ncmpi_inq_dimid(int ncid, const char *name, int *idp);
extern int ncmpi_inq_dim(int ncid, int dimid, char *name, MPI_Offset *lenp);
extern int ncmpi_inq_dimname(int ncid, int dimid, char *name);
extern int ncmpi_inq_dimlen(int ncid, int dimid, MPI_Offset *lenp);

/* ---- inquiry: variables ---- */
extern int ncmpi_inq_varid(int ncid, const char *name, int *varidp);
extern int ncmpi_inq_var(int ncid, int varid, char *name, nc_type *xtypep,
                         int *ndimsp, int *dimidsp, int *nattsp);
extern int ncmpi_inq_varname(int ncid, int varid, char *name);
extern int ncmpi_inq_vartype(int ncid, int varid, nc_type *xtypep);
extern int ncmpi_inq_varndims(int ncid, int varid, int *ndimsp);
extern int ncmpi_inq_vardimid(int ncid, int varid, int *dimidsp);
extern int ncmpi_inq_varnatts(int ncid, int varid, int *nattsp);
extern int ncmpi_inq_varoffset(int ncid, int varid, MPI_Offset *offset);

/* ---- attributes ---- */
extern int ncmpi_inq_att(int ncid, int varid, const char *name,
                         nc_type *xtypep, MPI_Offset *lenp);
extern int ncmpi_inq_attid(int ncid, int varid, const char *name, int *idp);
extern int ncmpi_inq_atttype(int ncid, int varid, const char *name,
                             nc_type *xtypep);
extern int ncmpi_inq_attlen(int ncid, int varid, const char *name,
                            MPI_Offset *lenp);
extern int ncmpi_inq_attname(int ncid, int varid, int attnum, char *name);
extern int ncmpi_copy_att(int ncid_in, int varid_in, const char *name,
                          int ncid_out, int varid_out);
extern int ncmpi_rename_att(int ncid, int varid, const char *name,
                            const char *newname);
extern int ncmpi_del_att(int ncid, int varid, const char *name);
/* untyped: value holds the C type that matches xtype */
extern int ncmpi_put_att(int ncid, int varid, const char *name,
                         nc_type xtype, MPI_Offset nelems, const void *value);
extern int ncmpi_get_att(int ncid, int varid, const char *name, void *value);
/* text attributes are always NC_CHAR, so they take no xtype */
extern int ncmpi_put_att_text(int ncid, int varid, const char *name,
                              MPI_Offset len, const char *op);
extern int ncmpi_get_att_text(int ncid, int varid, const char *name,
                              char *ip);

/*
 * ---- the typed families ----
 * NCMPI_TYPES_ lists the eleven numeric suffixes with their C types;
 * NCMPI_DATA_TYPES_ adds text (the twelve forms of every data family) and
 * NCMPI_ATT_TYPES_ adds ubyte, which only the attribute functions spell.
 * Each NCMPI_DECL_* macro declares one family for one (suffix, C type).
 */
#define NCMPI_TYPES_(X)              \
    X(schar, signed char)            \
    X(uchar, unsigned char)          \
    X(short, short)                  \
    X(ushort, unsigned short)        \
    X(int, int)                      \
    X(uint, unsigned int)            \
    X(long, long)                    \
    X(float, float)                  \
    X(double, double)                \
    X(longlong, long long)           \
    X(ulonglong, unsigned long long)
#define NCMPI_DATA_TYPES_(X) X(text, char) NCMPI_TYPES_(X)
#define NCMPI_ATT_TYPES_(X) NCMPI_TYPES_(X) X(ubyte, unsigned char)

#define NCMPI_DECL_ATT_(t, T)                                            \
    extern int ncmpi_put_att_##t(int ncid, int varid, const char *name,  \
                                 nc_type xtype, MPI_Offset len,          \
                                 const T *op);                           \
    extern int ncmpi_get_att_##t(int ncid, int varid, const char *name,  \
                                 T *ip);
NCMPI_ATT_TYPES_(NCMPI_DECL_ATT_)

/* ---- blocking data access: flexible form (buffer described by an MPI
   datatype) then the typed forms; *_all are the collective twins ---- */
extern int ncmpi_put_var(int ncid, int varid, const void *buf,
                         MPI_Offset bufcount, MPI_Datatype buftype);
extern int ncmpi_put_var_all(int ncid, int varid, const void *buf,
                             MPI_Offset bufcount, MPI_Datatype buftype);
extern int ncmpi_get_var(int ncid, int varid, void *buf,
                         MPI_Offset bufcount, MPI_Datatype buftype);
extern int ncmpi_get_var_all(int ncid, int varid, void *buf,
                             MPI_Offset bufcount, MPI_Datatype buftype);

extern int ncmpi_put_var1(int ncid, int varid, const MPI_Offset *start,
                          const void *buf, MPI_Offset bufcount,
                          MPI_Datatype buftype);
extern int ncmpi_put_var1_all(int ncid, int varid, const MPI_Offset *start,
                              const void *buf, MPI_Offset bufcount,
                              MPI_Datatype buftype);
extern int ncmpi_get_var1(int ncid, int varid, const MPI_Offset *start,
                          void *buf, MPI_Offset bufcount,
                          MPI_Datatype buftype);
extern int ncmpi_get_var1_all(int ncid, int varid, const MPI_Offset *start,
                              void *buf, MPI_Offset bufcount,
                              MPI_Datatype buftype);

extern int ncmpi_put_vara(int ncid, int varid, const MPI_Offset *start,
                          const MPI_Offset *count, const void *buf,
                          MPI_Offset bufcount, MPI_Datatype buftype);
extern int ncmpi_put_vara_all(int ncid, int varid, const MPI_Offset *start,
                              const MPI_Offset *count, const void *buf,
                              MPI_Offset bufcount, MPI_Datatype buftype);
extern int ncmpi_get_vara(int ncid, int varid, const MPI_Offset *start,
                          const MPI_Offset *count, void *buf,
                          MPI_Offset bufcount, MPI_Datatype buftype);
extern int ncmpi_get_vara_all(int ncid, int varid, const MPI_Offset *start,
                              const MPI_Offset *count, void *buf,
                              MPI_Offset bufcount, MPI_Datatype buftype);

extern int ncmpi_put_vars(int ncid, int varid, const MPI_Offset *start,
                          const MPI_Offset *count, const MPI_Offset *stride,
                          const void *buf, MPI_Offset bufcount,
                          MPI_Datatype buftype);
extern int ncmpi_put_vars_all(int ncid, int varid, const MPI_Offset *start,
                              const MPI_Offset *count,
                              const MPI_Offset *stride, const void *buf,
                              MPI_Offset bufcount, MPI_Datatype buftype);
extern int ncmpi_get_vars(int ncid, int varid, const MPI_Offset *start,
                          const MPI_Offset *count, const MPI_Offset *stride,
                          void *buf, MPI_Offset bufcount,
                          MPI_Datatype buftype);
extern int ncmpi_get_vars_all(int ncid, int varid, const MPI_Offset *start,
                              const MPI_Offset *count,
                              const MPI_Offset *stride, void *buf,
                              MPI_Offset bufcount, MPI_Datatype buftype);

extern int ncmpi_put_varm(int ncid, int varid, const MPI_Offset *start,
                          const MPI_Offset *count, const MPI_Offset *stride,
                          const MPI_Offset *imap, const void *buf,
                          MPI_Offset bufcount, MPI_Datatype buftype);
extern int ncmpi_put_varm_all(int ncid, int varid, const MPI_Offset *start,
                              const MPI_Offset *count,
                              const MPI_Offset *stride,
                              const MPI_Offset *imap, const void *buf,
                              MPI_Offset bufcount, MPI_Datatype buftype);
extern int ncmpi_get_varm(int ncid, int varid, const MPI_Offset *start,
                          const MPI_Offset *count, const MPI_Offset *stride,
                          const MPI_Offset *imap, void *buf,
                          MPI_Offset bufcount, MPI_Datatype buftype);
extern int ncmpi_get_varm_all(int ncid, int varid, const MPI_Offset *start,
                              const MPI_Offset *count,
                              const MPI_Offset *stride,
                              const MPI_Offset *imap, void *buf,
                              MPI_Offset bufcount, MPI_Datatype buftype);

/* num subarrays of one variable in one call: starts[i], counts[i] */
extern int ncmpi_put_varn(int ncid, int varid, int num,
                          MPI_Offset *const *starts,
                          MPI_Offset *const *counts, const void *buf,
                          MPI_Offset bufcount, MPI_Datatype buftype);
extern int ncmpi_put_varn_all(int ncid, int varid, int num,
                              MPI_Offset *const *starts,
                              MPI_Offset *const *counts, const void *buf,
                              MPI_Offset bufcount, MPI_Datatype buftype);
extern int ncmpi_get_varn(int ncid, int varid, int num,
                          MPI_Offset *const *starts,
                          MPI_Offset *const *counts, void *buf,
                          MPI_Offset bufcount, MPI_Datatype buftype);
extern int ncmpi_get_varn_all(int ncid, int varid, int num,
                              MPI_Offset *const *starts,
                              MPI_Offset *const *counts, void *buf,
                              MPI_Offset bufcount, MPI_Datatype buftype);

/* the file side described by an MPI datatype instead of a subarray */
extern int ncmpi_put_vard(int ncid, int varid, MPI_Datatype filetype,
                          const void *buf, MPI_Offset bufcount,
                          MPI_Datatype buftype);
extern int ncmpi_put_vard_all(int ncid, int varid, MPI_Datatype filetype,
                              const void *buf, MPI_Offset bufcount,
                              MPI_Datatype buftype);
extern int ncmpi_get_vard(int ncid, int varid, MPI_Datatype filetype,
                          void *buf, MPI_Offset bufcount,
                          MPI_Datatype buftype);
extern int ncmpi_get_vard_all(int ncid, int varid, MPI_Datatype filetype,
                              void *buf, MPI_Offset bufcount,
                              MPI_Datatype buftype);

#define NCMPI_DECL_VAR_(t, T)                                            \
    extern int ncmpi_put_var_##t(int ncid, int varid, const T *buf);     \
    extern int ncmpi_put_var_##t##_all(int ncid, int varid,              \
                                       const T *buf);                    \
    extern int ncmpi_get_var_##t(int ncid, int varid, T *buf);           \
    extern int ncmpi_get_var_##t##_all(int ncid, int varid, T *buf);

#define NCMPI_DECL_VAR1_(t, T)                                           \
    extern int ncmpi_put_var1_##t(int ncid, int varid,                   \
                                  const MPI_Offset *start, const T *buf); \
    extern int ncmpi_put_var1_##t##_all(int ncid, int varid,             \
                                        const MPI_Offset *start,         \
                                        const T *buf);                   \
    extern int ncmpi_get_var1_##t(int ncid, int varid,                   \
                                  const MPI_Offset *start, T *buf);      \
    extern int ncmpi_get_var1_##t##_all(int ncid, int varid,             \
                                        const MPI_Offset *start, T *buf);

#define NCMPI_DECL_VARA_(t, T)                                           \
    extern int ncmpi_put_vara_##t(int ncid, int varid,                   \
                                  const MPI_Offset *start,               \
                                  const MPI_Offset *count, const T *buf); \
    extern int ncmpi_put_vara_##t##_all(int ncid, int varid,             \
                                        const MPI_Offset *start,         \
                                        const MPI_Offset *count,         \
                                        const T *buf);                   \
    extern int ncmpi_get_vara_##t(int ncid, int varid,                   \
                                  const MPI_Offset *start,               \
                                  const MPI_Offset *count, T *buf);      \
    extern int ncmpi_get_vara_##t##_all(int ncid, int varid,             \
                                        const MPI_Offset *start,         \
                                        const MPI_Offset *count, T *buf);

#define NCMPI_DECL_VARS_(t, T)                                           \
    extern int ncmpi_put_vars_##t(int ncid, int varid,                   \
                                  const MPI_Offset *start,               \
                                  const MPI_Offset *count,               \
                                  const MPI_Offset *stride, const T *buf); \
    extern int ncmpi_put_vars_##t##_all(int ncid, int varid,             \
                                        const MPI_Offset *start,         \
                                        const MPI_Offset *count,         \
                                        const MPI_Offset *stride,        \
                                        const T *buf);                   \
    extern int ncmpi_get_vars_##t(int ncid, int varid,                   \
                                  const MPI_Offset *start,               \
                                  const MPI_Offset *count,               \
                                  const MPI_Offset *stride, T *buf);     \
    extern int ncmpi_get_vars_##t##_all(int ncid, int varid,             \
                                        const MPI_Offset *start,         \
                                        const MPI_Offset *count,         \
                                        const MPI_Offset *stride, T *buf);

#define NCMPI_DECL_VARM_(t, T)                                           \
    extern int ncmpi_put_varm_##t(int ncid, int varid,                   \
                                  const MPI_Offset *start,               \
                                  const MPI_Offset *count,               \
                                  const MPI_Offset *stride,              \
                                  const MPI_Offset *imap, const T *buf); \
    extern int ncmpi_put_varm_##t##_all(int ncid, int varid,             \
                                        const MPI_Offset *start,         \
                                        const MPI_Offset *count,         \
                                        const MPI_Offset *stride,        \
                                        const MPI_Offset *imap,          \
                                        const T *buf);                   \
    extern int ncmpi_get_varm_##t(int ncid, int varid,                   \
                                  const MPI_Offset *start,               \
                                  const MPI_Offset *count,               \
                                  const MPI_Offset *stride,              \
                                  const MPI_Offset *imap, T *buf);       \
    extern int ncmpi_get_varm_##t##_all(int ncid, int varid,             \
                                        const MPI_Offset *start,         \
                                        const MPI_Offset *count,         \
                                        const MPI_Offset *stride,        \
                                        const MPI_Offset *imap, T *buf);

#define NCMPI_DECL_VARN_(t, T)                                           \
    extern int ncmpi_put_varn_##t(int ncid, int varid, int num,          \
                                  MPI_Offset *const *starts,             \
                                  MPI_Offset *const *counts,             \
                                  const T *buf);                         \
    extern int ncmpi_put_varn_##t##_all(int ncid, int varid, int num,    \
                                        MPI_Offset *const *starts,       \
                                        MPI_Offset *const *counts,       \
                                        const T *buf);                   \
    extern int ncmpi_get_varn_##t(int ncid, int varid, int num,          \
                                  MPI_Offset *const *starts,             \
                                  MPI_Offset *const *counts, T *buf);    \
    extern int ncmpi_get_varn_##t##_all(int ncid, int varid, int num,    \
                                        MPI_Offset *const *starts,       \
                                        MPI_Offset *const *counts, T *buf);

NCMPI_DATA_TYPES_(NCMPI_DECL_VAR_)
NCMPI_DATA_TYPES_(NCMPI_DECL_VAR1_)
NCMPI_DATA_TYPES_(NCMPI_DECL_VARA_)
NCMPI_DATA_TYPES_(NCMPI_DECL_VARS_)
NCMPI_DATA_TYPES_(NCMPI_DECL_VARM_)
NCMPI_DATA_TYPES_(NCMPI_DECL_VARN_)

/* ---- nonblocking requests ---- */
/* complete requests; NC_REQ_ALL, NC_GET_REQ_ALL or NC_PUT_REQ_ALL as count
   with NULL arrays selects every pending request of that kind */
extern int ncmpi_wait(int ncid, int count, int array_of_requests[],
                      int array_of_statuses[]);
extern int ncmpi_wait_all(int ncid, int count, int array_of_requests[],
                          int array_of_statuses[]);
extern int ncmpi_cancel(int ncid, int num, int *reqs, int *statuses);
extern int ncmpi_inq_nreqs(int ncid, int *nreqs);
/* the buffer that ncmpi_bput_* copy into, so the caller's may be reused */
extern int ncmpi_buffer_attach(int ncid, MPI_Offset bufsize);
extern int ncmpi_buffer_detach(int ncid);
extern int ncmpi_inq_buffer_usage(int ncid, MPI_Offset *usage);
extern int ncmpi_inq_buffer_size(int ncid, MPI_Offset *buf_size);

/* flexible forms: iput, iget, bput for each subarray shape */
extern int ncmpi_iput_var(int ncid, int varid, const void *buf,
                          MPI_Offset bufcount, MPI_Datatype buftype,
                          int *req);
extern int ncmpi_iget_var(int ncid, int varid, void *buf,
                          MPI_Offset bufcount, MPI_Datatype buftype,
                          int *req);
extern int ncmpi_bput_var(int ncid, int varid, const void *buf,
                          MPI_Offset bufcount, MPI_Datatype buftype,
                          int *req);

extern int ncmpi_iput_var1(int ncid, int varid, const MPI_Offset *start,
                           const void *buf, MPI_Offset bufcount,
                           MPI_Datatype buftype, int *req);
extern int ncmpi_iget_var1(int ncid, int varid, const MPI_Offset *start,
                           void *buf, MPI_Offset bufcount,
                           MPI_Datatype buftype, int *req);
extern int ncmpi_bput_var1(int ncid, int varid, const MPI_Offset *start,
                           const void *buf, MPI_Offset bufcount,
                           MPI_Datatype buftype, int *req);

extern int ncmpi_iput_vara(int ncid, int varid, const MPI_Offset *start,
                           const MPI_Offset *count, const void *buf,
                           MPI_Offset bufcount, MPI_Datatype buftype,
                           int *req);
extern int ncmpi_iget_vara(int ncid, int varid, const MPI_Offset *start,
                           const MPI_Offset *count, void *buf,
                           MPI_Offset bufcount, MPI_Datatype buftype,
                           int *req);
extern int ncmpi_bput_vara(int ncid, int varid, const MPI_Offset *start,
                           const MPI_Offset *count, const void *buf,
                           MPI_Offset bufcount, MPI_Datatype buftype,
                           int *req);

extern int ncmpi_iput_vars(int ncid, int varid, const MPI_Offset *start,
                           const MPI_Offset *count, const MPI_Offset *stride,
                           const void *buf, MPI_Offset bufcount,
                           MPI_Datatype buftype, int *req);
extern int ncmpi_iget_vars(int ncid, int varid, const MPI_Offset *start,
                           const MPI_Offset *count, const MPI_Offset *stride,
                           void *buf, MPI_Offset bufcount,
                           MPI_Datatype buftype, int *req);
extern int ncmpi_bput_vars(int ncid, int varid, const MPI_Offset *start,
                           const MPI_Offset *count, const MPI_Offset *stride,
                           const void *buf, MPI_Offset bufcount,
                           MPI_Datatype buftype, int *req);

extern int ncmpi_iput_varm(int ncid, int varid, const MPI_Offset *start,
                           const MPI_Offset *count, const MPI_Offset *stride,
                           const MPI_Offset *imap, const void *buf,
                           MPI_Offset bufcount, MPI_Datatype buftype,
                           int *req);
extern int ncmpi_iget_varm(int ncid, int varid, const MPI_Offset *start,
                           const MPI_Offset *count, const MPI_Offset *stride,
                           const MPI_Offset *imap, void *buf,
                           MPI_Offset bufcount, MPI_Datatype buftype,
                           int *req);
extern int ncmpi_bput_varm(int ncid, int varid, const MPI_Offset *start,
                           const MPI_Offset *count, const MPI_Offset *stride,
                           const MPI_Offset *imap, const void *buf,
                           MPI_Offset bufcount, MPI_Datatype buftype,
                           int *req);

extern int ncmpi_iput_varn(int ncid, int varid, int num,
                           MPI_Offset *const *starts,
                           MPI_Offset *const *counts, const void *buf,
                           MPI_Offset bufcount, MPI_Datatype buftype,
                           int *req);
extern int ncmpi_iget_varn(int ncid, int varid, int num,
                           MPI_Offset *const *starts,
                           MPI_Offset *const *counts, void *buf,
                           MPI_Offset bufcount, MPI_Datatype buftype,
                           int *req);
extern int ncmpi_bput_varn(int ncid, int varid, int num,
                           MPI_Offset *const *starts,
                           MPI_Offset *const *counts, const void *buf,
                           MPI_Offset bufcount, MPI_Datatype buftype,
                           int *req);

#define NCMPI_DECL_NB_VAR_(t, T)                                         \
    extern int ncmpi_iput_var_##t(int ncid, int varid, const T *buf,     \
                                  int *req);                             \
    extern int ncmpi_iget_var_##t(int ncid, int varid, T *buf, int *req); \
    extern int ncmpi_bput_var_##t(int ncid, int varid, const T *buf,     \
                                  int *req);

#define NCMPI_DECL_NB_VAR1_(t, T)                                        \
    extern int ncmpi_iput_var1_##t(int ncid, int varid,                  \
                                   const MPI_Offset *start, const T *buf, \
                                   int *req);                            \
    extern int ncmpi_iget_var1_##t(int ncid, int varid,                  \
                                   const MPI_Offset *start, T *buf,      \
                                   int *req);                            \
    extern int ncmpi_bput_var1_##t(int ncid, int varid,                  \
                                   const MPI_Offset *start, const T *buf, \
                                   int *req);

#define NCMPI_DECL_NB_VARA_(t, T)                                        \
    extern int ncmpi_iput_vara_##t(int ncid, int varid,                  \
                                   const MPI_Offset *start,              \
                                   const MPI_Offset *count, const T *buf, \
                                   int *req);                            \
    extern int ncmpi_iget_vara_##t(int ncid, int varid,                  \
                                   const MPI_Offset *start,              \
                                   const MPI_Offset *count, T *buf,      \
                                   int *req);                            \
    extern int ncmpi_bput_vara_##t(int ncid, int varid,                  \
                                   const MPI_Offset *start,              \
                                   const MPI_Offset *count, const T *buf, \
                                   int *req);

#define NCMPI_DECL_NB_VARS_(t, T)                                        \
    extern int ncmpi_iput_vars_##t(int ncid, int varid,                  \
                                   const MPI_Offset *start,              \
                                   const MPI_Offset *count,              \
                                   const MPI_Offset *stride, const T *buf, \
                                   int *req);                            \
    extern int ncmpi_iget_vars_##t(int ncid, int varid,                  \
                                   const MPI_Offset *start,              \
                                   const MPI_Offset *count,              \
                                   const MPI_Offset *stride, T *buf,     \
                                   int *req);                            \
    extern int ncmpi_bput_vars_##t(int ncid, int varid,                  \
                                   const MPI_Offset *start,              \
                                   const MPI_Offset *count,              \
                                   const MPI_Offset *stride, const T *buf, \
                                   int *req);

#define NCMPI_DECL_NB_VARM_(t, T)                                        \
    extern int ncmpi_iput_varm_##t(int ncid, int varid,                  \
                                   const MPI_Offset *start,              \
                                   const MPI_Offset *count,              \
                                   const MPI_Offset *stride,             \
                                   const MPI_Offset *imap, const T *buf, \
                                   int *req);                            \
    extern int ncmpi_iget_varm_##t(int ncid, int varid,                  \
                                   const MPI_Offset *start,              \
                                   const MPI_Offset *count,              \
                                   const MPI_Offset *stride,             \
                                   const MPI_Offset *imap, T *buf,       \
                                   int *req);                            \
    extern int ncmpi_bput_varm_##t(int ncid, int varid,                  \
                                   const MPI_Offset *start,              \
                                   const MPI_Offset *count,              \
                                   const MPI_Offset *stride,             \
                                   const MPI_Offset *imap, const T *buf, \
                                   int *req);

#define NCMPI_DECL_NB_VARN_(t, T)                                        \
    extern int ncmpi_iput_varn_##t(int ncid, int varid, int num,         \
                                   MPI_Offset *const *starts,            \
                                   MPI_Offset *const *counts,            \
                                   const T *buf, int *req);              \
    extern int ncmpi_iget_varn_##t(int ncid, int varid, int num,         \
                                   MPI_Offset *const *starts,            \
                                   MPI_Offset *const *counts, T *buf,    \
                                   int *req);                            \
    extern int ncmpi_bput_varn_##t(int ncid, int varid, int num,         \
                                   MPI_Offset *const *starts,            \
                                   MPI_Offset *const *counts,            \
                                   const T *buf, int *req);

NCMPI_DATA_TYPES_(NCMPI_DECL_NB_VAR_)
NCMPI_DATA_TYPES_(NCMPI_DECL_NB_VAR1_)
NCMPI_DATA_TYPES_(NCMPI_DECL_NB_VARA_)
NCMPI_DATA_TYPES_(NCMPI_DECL_NB_VARS_)
NCMPI_DATA_TYPES_(NCMPI_DECL_NB_VARM_)
NCMPI_DATA_TYPES_(NCMPI_DECL_NB_VARN_)

/* ---- several variables in one call: entry i of every array describes
   the request on varids[i] ---- */
extern int ncmpi_mput_var(int ncid, int num, int *varids, void *const *bufs,
                          const MPI_Offset *bufcounts,
                          const MPI_Datatype buftypes[]);
extern int ncmpi_mput_var_all(int ncid, int num, int *varids,
                              void *const *bufs, const MPI_Offset *bufcounts,
                              const MPI_Datatype buftypes[]);
extern int ncmpi_mget_var(int ncid, int num, int *varids, void *bufs[],
                          const MPI_Offset *bufcounts,
                          const MPI_Datatype buftypes[]);
extern int ncmpi_mget_var_all(int ncid, int num, int *varids, void *bufs[],
                              const MPI_Offset *bufcounts,
                              const MPI_Datatype buftypes[]);

extern int ncmpi_mput_var1(int ncid, int num, int *varids,
                           MPI_Offset *const *starts, void *const *bufs,
                           const MPI_Offset *bufcounts,
                           const MPI_Datatype buftypes[]);
extern int ncmpi_mput_var1_all(int ncid, int num, int *varids,
                               MPI_Offset *const *starts, void *const *bufs,
                               const MPI_Offset *bufcounts,
                               const MPI_Datatype buftypes[]);
extern int ncmpi_mget_var1(int ncid, int num, int *varids,
                           MPI_Offset *const *starts, void *bufs[],
                           const MPI_Offset *bufcounts,
                           const MPI_Datatype buftypes[]);
extern int ncmpi_mget_var1_all(int ncid, int num, int *varids,
                               MPI_Offset *const *starts, void *bufs[],
                               const MPI_Offset *bufcounts,
                               const MPI_Datatype buftypes[]);

extern int ncmpi_mput_vara(int ncid, int num, int *varids,
                           MPI_Offset *const *starts,
                           MPI_Offset *const *counts, void *const *bufs,
                           const MPI_Offset *bufcounts,
                           const MPI_Datatype buftypes[]);
extern int ncmpi_mput_vara_all(int ncid, int num, int *varids,
                               MPI_Offset *const *starts,
                               MPI_Offset *const *counts, void *const *bufs,
                               const MPI_Offset *bufcounts,
                               const MPI_Datatype buftypes[]);
extern int ncmpi_mget_vara(int ncid, int num, int *varids,
                           MPI_Offset *const *starts,
                           MPI_Offset *const *counts, void *bufs[],
                           const MPI_Offset *bufcounts,
                           const MPI_Datatype buftypes[]);
extern int ncmpi_mget_vara_all(int ncid, int num, int *varids,
                               MPI_Offset *const *starts,
                               MPI_Offset *const *counts, void *bufs[],
                               const MPI_Offset *bufcounts,
                               const MPI_Datatype buftypes[]);

extern int ncmpi_mput_vars(int ncid, int num, int *varids,
                           MPI_Offset *const *starts,
                           MPI_Offset *const *counts,
                           MPI_Offset *const *strides, void *const *bufs,
                           const MPI_Offset *bufcounts,
                           const MPI_Datatype buftypes[]);
extern int ncmpi_mput_vars_all(int ncid, int num, int *varids,
                               MPI_Offset *const *starts,
                               MPI_Offset *const *counts,
                               MPI_Offset *const *strides, void *const *bufs,
                               const MPI_Offset *bufcounts,
                               const MPI_Datatype buftypes[]);
extern int ncmpi_mget_vars(int ncid, int num, int *varids,
                           MPI_Offset *const *starts,
                           MPI_Offset *const *counts,
                           MPI_Offset *const *strides, void *bufs[],
                           const MPI_Offset *bufcounts,
                           const MPI_Datatype buftypes[]);
extern int ncmpi_mget_vars_all(int ncid, int num, int *varids,
                               MPI_Offset *const *starts,
                               MPI_Offset *const *counts,
                               MPI_Offset *const *strides, void *bufs[],
                               const MPI_Offset *bufcounts,
                               const MPI_Datatype buftypes[]);

extern int ncmpi_mput_varm(int ncid, int num, int *varids,
                           MPI_Offset *const *starts,
                           MPI_Offset *const *counts,
                           MPI_Offset *const *strides,
                           MPI_Offset *const *imaps, void *const *bufs,
                           const MPI_Offset *bufcounts,
                           const MPI_Datatype buftypes[]);
extern int ncmpi_mput_varm_all(int ncid, int num, int *varids,
                               MPI_Offset *const *starts,
                               MPI_Offset *const *counts,
                               MPI_Offset *const *strides,
                               MPI_Offset *const *imaps, void *const *bufs,
                               const MPI_Offset *bufcounts,
                               const MPI_Datatype buftypes[]);
extern int ncmpi_mget_varm(int ncid, int num, int *varids,
                           MPI_Offset *const *starts,
                           MPI_Offset *const *counts,
                           MPI_Offset *const *strides,
                           MPI_Offset *const *imaps, void *bufs[],
                           const MPI_Offset *bufcounts,
                           const MPI_Datatype buftypes[]);
extern int ncmpi_mget_varm_all(int ncid, int num, int *varids,
                               MPI_Offset *const *starts,
                               MPI_Offset *const *counts,
                               MPI_Offset *const *strides,
                               MPI_Offset *const *imaps, void *bufs[],
                               const MPI_Offset *bufcounts,
                               const MPI_Datatype buftypes[]);

#define NCMPI_DECL_MULTI_VAR_(t, T)                                      \
    extern int ncmpi_mput_var_##t(int ncid, int num, int *varids,        \
                                  T *const *bufs);                       \
    extern int ncmpi_mput_var_##t##_all(int ncid, int num, int *varids,  \
                                        T *const *bufs);                 \
    extern int ncmpi_mget_var_##t(int ncid, int num, int *varids,        \
                                  T *bufs[]);                            \
    extern int ncmpi_mget_var_##t##_all(int ncid, int num, int *varids,  \
                                        T *bufs[]);

#define NCMPI_DECL_MULTI_VAR1_(t, T)                                     \
    extern int ncmpi_mput_var1_##t(int ncid, int num, int *varids,       \
                                   MPI_Offset *const *starts,            \
                                   T *const *bufs);                      \
    extern int ncmpi_mput_var1_##t##_all(int ncid, int num, int *varids, \
                                         MPI_Offset *const *starts,      \
                                         T *const *bufs);                \
    extern int ncmpi_mget_var1_##t(int ncid, int num, int *varids,       \
                                   MPI_Offset *const *starts, T *bufs[]); \
    extern int ncmpi_mget_var1_##t##_all(int ncid, int num, int *varids, \
                                         MPI_Offset *const *starts,      \
                                         T *bufs[]);

#define NCMPI_DECL_MULTI_VARA_(t, T)                                     \
    extern int ncmpi_mput_vara_##t(int ncid, int num, int *varids,       \
                                   MPI_Offset *const *starts,            \
                                   MPI_Offset *const *counts,            \
                                   T *const *bufs);                      \
    extern int ncmpi_mput_vara_##t##_all(int ncid, int num, int *varids, \
                                         MPI_Offset *const *starts,      \
                                         MPI_Offset *const *counts,      \
                                         T *const *bufs);                \
    extern int ncmpi_mget_vara_##t(int ncid, int num, int *varids,       \
                                   MPI_Offset *const *starts,            \
                                   MPI_Offset *const *counts, T *bufs[]); \
    extern int ncmpi_mget_vara_##t##_all(int ncid, int num, int *varids, \
                                         MPI_Offset *const *starts,      \
                                         MPI_Offset *const *counts,      \
                                         T *bufs[]);

#define NCMPI_DECL_MULTI_VARS_(t, T)                                     \
    extern int ncmpi_mput_vars_##t(int ncid, int num, int *varids,       \
                                   MPI_Offset *const *starts,            \
                                   MPI_Offset *const *counts,            \
                                   MPI_Offset *const *strides,           \
                                   T *const *bufs);                      \
    extern int ncmpi_mput_vars_##t##_all(int ncid, int num, int *varids, \
                                         MPI_Offset *const *starts,      \
                                         MPI_Offset *const *counts,      \
                                         MPI_Offset *const *strides,     \
                                         T *const *bufs);                \
    extern int ncmpi_mget_vars_##t(int ncid, int num, int *varids,       \
                                   MPI_Offset *const *starts,            \
                                   MPI_Offset *const *counts,            \
                                   MPI_Offset *const *strides, T *bufs[]); \
    extern int ncmpi_mget_vars_##t##_all(int ncid, int num, int *varids, \
                                         MPI_Offset *const *starts,      \
                                         MPI_Offset *const *counts,      \
                                         MPI_Offset *const *strides,     \
                                         T *bufs[]);

#define NCMPI_DECL_MULTI_VARM_(t, T)                                     \
    extern int ncmpi_mput_varm_##t(int ncid, int num, int *varids,       \
                                   MPI_Offset *const *starts,            \
                                   MPI_Offset *const *counts,            \
                                   MPI_Offset *const *strides,           \
                                   MPI_Offset *const *imaps,             \
                                   T *const *bufs);                      \
    extern int ncmpi_mput_varm_##t##_all(int ncid, int num, int *varids, \
                                         MPI_Offset *const *starts,      \
                                         MPI_Offset *const *counts,      \
                                         MPI_Offset *const *strides,     \
                                         MPI_Offset *const *imaps,       \
                                         T *const *bufs);                \
    extern int ncmpi_mget_varm_##t(int ncid, int num, int *varids,       \
                                   MPI_Offset *const *starts,            \
                                   MPI_Offset *const *counts,            \
                                   MPI_Offset *const *strides,           \
                                   MPI_Offset *const *imaps, T *bufs[]); \
    extern int ncmpi_mget_varm_##t##_all(int ncid, int num, int *varids, \
                                         MPI_Offset *const *starts,      \
                                         MPI_Offset *const *counts,      \
                                         MPI_Offset *const *strides,     \
                                         MPI_Offset *const *imaps,       \
                                         T *bufs[]);

NCMPI_DATA_TYPES_(NCMPI_DECL_MULTI_VAR_)
NCMPI_DATA_TYPES_(NCMPI_DECL_MULTI_VAR1_)
NCMPI_DATA_TYPES_(NCMPI_DECL_MULTI_VARA_)
NCMPI_DATA_TYPES_(NCMPI_DECL_MULTI_VARS_)
NCMPI_DATA_TYPES_(NCMPI_DECL_MULTI_VARM_)

/* keep the declaration helpers out of the including program's namespace */
#undef NCMPI_TYPES_
#undef NCMPI_DATA_TYPES_
#undef NCMPI_ATT_TYPES_
#undef NCMPI_DECL_ATT_
#undef NCMPI_DECL_VAR_
#undef NCMPI_DECL_VAR1_
#undef NCMPI_DECL_VARA_
#undef NCMPI_DECL_VARS_
#undef NCMPI_DECL_VARM_
#undef NCMPI_DECL_VARN_
#undef NCMPI_DECL_NB_VAR_
#undef NCMPI_DECL_NB_VAR1_
#undef NCMPI_DECL_NB_VARA_
#undef NCMPI_DECL_NB_VARS_
#undef NCMPI_DECL_NB_VARM_
#undef NCMPI_DECL_NB_VARN_
#undef NCMPI_DECL_MULTI_VAR_
#undef NCMPI_DECL_MULTI_VAR1_
#undef NCMPI_DECL_MULTI_VARA_
#undef NCMPI_DECL_MULTI_VARS_
#undef NCMPI_DECL_MULTI_VARM_

#ifdef __cplusplus
}
#endif

#endif /* NCPARIO_PNETCDF_H */
