"""Loading libncpario through cffi's ABI mode.

The declarations below are written out from pnetcdf.h/ncpario.h, not
parsed, so no compiler or header is needed at install time.  cffi releases
the GIL around every call, so I/O on one thread does not stop the others.
"""
import ctypes.util
import os
import subprocess

import cffi
from mpi4py import MPI

# (suffix of the typed C functions, C element type)
DATA_TYPES = (
    ("text", "char"), ("schar", "signed char"), ("uchar", "unsigned char"),
    ("short", "short"), ("ushort", "unsigned short"), ("int", "int"),
    ("uint", "unsigned int"), ("float", "float"), ("double", "double"),
    ("longlong", "long long"), ("ulonglong", "unsigned long long"),
)


def _handle_type(cls):
    """The C type that carries an MPI handle of class `cls` by value: an
    int on MPICH-like ABIs, a pointer-sized integer on Open MPI."""
    return "int" if MPI._sizeof(cls) == 4 else "intptr_t"


# (access form, the C arguments that say which elements) of the data
# functions, shared by the typed and the flexible families.
_S = "const MPI_Offset *start, const MPI_Offset *count"
_FORMS = (("vara", _S), ("vars", _S + ", const MPI_Offset *stride"),
          ("varm", _S + ", const MPI_Offset *stride, "
                   "const MPI_Offset *imap"),
          ("varn", "int num, MPI_Offset * const *starts, "
                   "MPI_Offset * const *counts"))


def _typed_decls(t, c):
    """Declarations of every typed data function for one element type."""
    out = []
    for form, args in _FORMS:
        for coll in ("", "_all"):
            out.append("int ncmpi_put_%s_%s%s(int, int, %s, const %s *);"
                       % (form, t, coll, args, c))
            out.append("int ncmpi_get_%s_%s%s(int, int, %s, %s *);"
                       % (form, t, coll, args, c))
        out.append("int ncmpi_iput_%s_%s(int, int, %s, const %s *, int *);"
                   % (form, t, args, c))
        out.append("int ncmpi_bput_%s_%s(int, int, %s, const %s *, int *);"
                   % (form, t, args, c))
        out.append("int ncmpi_iget_%s_%s(int, int, %s, %s *, int *);"
                   % (form, t, args, c))
    return "\n".join(out)


def _flexible_decls():
    """Declarations of the flexible data functions: the buffer's layout
    and element type given by an MPI datatype."""
    flex = "MPI_Offset bufcount, MPI_Datatype buftype"
    out = []
    for form, args in _FORMS:
        for coll in ("", "_all"):
            out.append("int ncmpi_put_%s%s(int, int, %s, const void *, %s);"
                       % (form, coll, args, flex))
            out.append("int ncmpi_get_%s%s(int, int, %s, void *, %s);"
                       % (form, coll, args, flex))
        for kind in ("iput", "bput", "iget"):
            out.append("int ncmpi_%s_%s(int, int, %s, %svoid *, %s, int *);"
                       % (kind, form, args,
                          "" if kind == "iget" else "const ", flex))
    return "\n".join(out)


_CDEF = """
typedef long long MPI_Offset;
typedef %(comm)s MPI_Comm;
typedef %(info)s MPI_Info;
typedef %(dtype)s MPI_Datatype;
typedef struct ncpario_profile {
    long long mpiio_write_calls;
    long long mpiio_read_calls;
    long long extents_posted;
    long long extents_issued;
    long long bytes_written;
    long long bytes_read;
    double time_open;
    double time_define;
    double time_post;
    double time_wait;
    double time_close;
    long long group_rounds_write;
    long long group_rounds_read;
    long long group_bytes_shipped_write;
    long long group_bytes_shipped_read;
    double time_group_comm_write;
    double time_group_io_write;
    double time_group_comm_read;
    double time_group_io_read;
    long long driver_rounds_write;
    long long driver_shm_rounds_write;
    long long driver_messages_sent;
    long long driver_messages_received;
    long long driver_pieces_write;
    long long driver_write_calls;
    long long driver_bytes_aggregated;
    long long behind_jobs;
    long long behind_bytes;
    long long behind_peak_staged;
    long long behind_waits_for_room;
    long long behind_bytes_logged;
} ncpario_profile;
int ncpario_flush_wait(int ncid);
int ncpario_inq_profile(int ncid, ncpario_profile *prof);
const char *ncpario_version(void);
const char *ncmpi_strerror(int err);
int ncmpi_create(MPI_Comm, const char *, int, MPI_Info, int *);
int ncmpi_open(MPI_Comm, const char *, int, MPI_Info, int *);
int ncmpi_close(int);
int ncmpi_enddef(int);
int ncmpi_redef(int);
int ncmpi_sync(int);
int ncmpi_begin_indep_data(int);
int ncmpi_end_indep_data(int);
int ncmpi_set_fill(int, int, int *);
int ncmpi_def_var_fill(int, int, int, const void *);
int ncmpi_inq_format(int, int *);
int ncmpi_inq_file_info(int, MPI_Info *);
int ncmpi_def_dim(int, const char *, MPI_Offset, int *);
int ncmpi_def_var(int, const char *, int, int, const int *, int *);
int ncmpi_rename_dim(int, int, const char *);
int ncmpi_rename_var(int, int, const char *);
int ncmpi_inq(int, int *, int *, int *, int *);
int ncmpi_inq_dim(int, int, char *, MPI_Offset *);
int ncmpi_inq_dimlen(int, int, MPI_Offset *);
int ncmpi_inq_var(int, int, char *, int *, int *, int *, int *);
int ncmpi_inq_att(int, int, const char *, int *, MPI_Offset *);
int ncmpi_inq_attname(int, int, int, char *);
int ncmpi_del_att(int, int, const char *);
int ncmpi_rename_att(int, int, const char *, const char *);
int ncmpi_put_att(int, int, const char *, int, MPI_Offset, const void *);
int ncmpi_get_att(int, int, const char *, void *);
int ncmpi_put_att_text(int, int, const char *, MPI_Offset, const char *);
int ncmpi_get_att_text(int, int, const char *, char *);
int ncmpi_wait_all(int, int, int *, int *);
int ncmpi_wait(int, int, int *, int *);
int ncmpi_buffer_attach(int, MPI_Offset);
int ncmpi_buffer_detach(int);
int ncmpi_inq_buffer_usage(int, MPI_Offset *);
int ncmpi_inq_buffer_size(int, MPI_Offset *);
const char *ncmpi_inq_libvers(void);
const char *ncmpi_strerrno(int err);
int ncmpi_set_default_format(int, int *);
int ncmpi_inq_default_format(int *);
int ncmpi_inq_file_format(const char *, int *);
int ncmpi_inq_files_opened(int *, int *);
int ncmpi_inq_malloc_size(MPI_Offset *);
int ncmpi_inq_malloc_max_size(MPI_Offset *);
int ncmpi_cancel(int, int, int *, int *);
int ncmpi_inq_nreqs(int, int *);
int ncmpi_inq_put_size(int, MPI_Offset *);
int ncmpi_inq_get_size(int, MPI_Offset *);
int ncmpi_inq_header_size(int, MPI_Offset *);
int ncmpi_inq_header_extent(int, MPI_Offset *);
int ncmpi_inq_num_rec_vars(int, int *);
int ncmpi_inq_num_fix_vars(int, int *);
int ncmpi_inq_recsize(int, MPI_Offset *);
int ncmpi_inq_striping(int, int *, int *);
int ncmpi_inq_version(int, int *);
int ncmpi_inq_path(int, int *, char *);
int ncmpi_inq_unlimdim(int, int *);
int ncmpi_fill_var_rec(int, int, MPI_Offset);
int ncmpi_inq_var_fill(int, int, int *, void *);
int ncmpi_inq_varoffset(int, int, MPI_Offset *);
int ncmpi_flush(int);
int MPI_Info_get_nkeys(MPI_Info, int *);
int MPI_Info_get_nthkey(MPI_Info, int, char *);
int MPI_Info_get_valuelen(MPI_Info, const char *, int *, int *);
int MPI_Info_get(MPI_Info, const char *, int, char *, int *);
int MPI_Info_free(MPI_Info *);
int MPI_Info_c2f(MPI_Info);
"""

ffi = cffi.FFI()
ffi.cdef(_CDEF % {"comm": _handle_type(MPI.Comm),
                  "info": _handle_type(MPI.Info),
                  "dtype": _handle_type(MPI.Datatype)})
ffi.cdef("\n".join(_typed_decls(t, c) for t, c in DATA_TYPES))
ffi.cdef(_flexible_decls())


def _candidates():
    """Where libncpario may be, most explicit first."""
    env = os.environ.get("NCPARIO_LIB")
    if env:
        yield os.path.join(env, "libncpario.so") if os.path.isdir(env) \
            else env
    try:
        from . import _build_config
        if _build_config.LIBDIR:
            yield os.path.join(_build_config.LIBDIR, "libncpario.so")
    except ImportError:
        pass
    try:
        libdir = subprocess.run(
            ["pkg-config", "--variable=libdir", "ncpario"],
            capture_output=True, text=True, timeout=10).stdout.strip()
        if libdir:
            yield os.path.join(libdir, "libncpario.so")
    except (OSError, subprocess.SubprocessError):
        pass
    # Imported from the source tree: the default build directory.
    here = os.path.dirname(os.path.abspath(__file__))
    yield os.path.join(here, "..", "..", "build", "libncpario.so")
    name = ctypes.util.find_library("ncpario")
    if name:
        yield name


def _load():
    tried = []
    for path in _candidates():
        if os.path.sep in path and not os.path.exists(path):
            tried.append(path)
            continue
        # Never unmapped: MPI_Finalize, run at interpreter exit after the
        # module is gone, may still call back into the library.
        flags = ffi.RTLD_NOW | getattr(ffi, "RTLD_NODELETE", 0)
        return ffi.dlopen(path, flags), path
    raise ImportError("libncpario not found (tried: %s); set NCPARIO_LIB to "
                      "the library or its directory" % ", ".join(tried))


lib, LIBPATH = _load()
