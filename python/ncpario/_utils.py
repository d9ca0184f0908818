"""Module-level functions of PnetCDF-Python: library versions, error
names, the default format, memory counters, and char <-> string arrays."""
import numpy as np

from ._errors import check
from ._lib import ffi, lib

_BYTES = ("none", "None", "bytes", None)


def inq_clibvers():
    """The C library's version string (ncmpi_inq_libvers)."""
    return ffi.string(lib.ncmpi_inq_libvers()).decode("ascii", "replace")


def strerrno(code):
    """The name of an NC_* status code, e.g. "NC_EBADID"."""
    return ffi.string(lib.ncmpi_strerrno(int(code))).decode("ascii")


def set_default_format(new_format):
    """Set the format (NC_FORMAT_CLASSIC, _CDF2 or _CDF5) that creating a
    file without one uses; returns the previous one."""
    old = ffi.new("int *")
    check(lib.ncmpi_set_default_format(int(new_format), old))
    return old[0]


def inq_default_format():
    f = ffi.new("int *")
    check(lib.ncmpi_inq_default_format(f))
    return f[0]


def inq_file_format(file_name):
    """The NC_FORMAT_* of an existing file, read from its first bytes."""
    f = ffi.new("int *")
    check(lib.ncmpi_inq_file_format(str(file_name).encode("utf-8"), f))
    return f[0]


def inq_files_opened(ncids=None):
    """How many files this process has open; fills the list `ncids`
    (resized) with their ids when one is given."""
    n = ffi.new("int *")
    check(lib.ncmpi_inq_files_opened(n, ffi.NULL))
    if ncids is not None:
        ids = ffi.new("int[]", max(n[0], 1))
        check(lib.ncmpi_inq_files_opened(n, ids))
        ncids[:] = [ids[i] for i in range(n[0])]
    return n[0]


def inq_malloc_size():
    """Bytes the library has allocated now (NCError NC_ENOTENABLED where
    the library does not count)."""
    n = ffi.new("MPI_Offset *")
    check(lib.ncmpi_inq_malloc_size(n))
    return n[0]


def inq_malloc_max_size():
    n = ffi.new("MPI_Offset *")
    check(lib.ncmpi_inq_malloc_max_size(n))
    return n[0]


def chartostring(src, encoding="utf-8"):
    """An array of chars (dtype S1 or U1) as strings of its last axis's
    length, one axis fewer: 'U' strings decoded with `encoding`, or 'S'
    when encoding is 'none' or 'bytes'."""
    src = np.asarray(src)
    if src.dtype.kind not in "SU":
        raise ValueError("chartostring needs an 'S1' or 'U1' array, not %s"
                         % src.dtype)
    n = int(src.shape[-1]) if src.ndim else 1
    if src.dtype.kind == "U":
        raw = "".join(src.reshape(-1).tolist())
        words = [raw[i:i + n] for i in range(0, len(raw), n)]
        out = np.array(words, dtype="U%d" % n)
    else:
        raw = src.astype("S1").tobytes()
        words = [raw[i:i + n] for i in range(0, len(raw), n)]
        if encoding in _BYTES:
            out = np.array(words, dtype="S%d" % n)
        else:
            out = np.array([w.decode(encoding) for w in words],
                           dtype="U%d" % n)
    return out.reshape(src.shape[:-1])


def stringtochar(src, encoding="utf-8"):
    """An array of strings ('SN' or 'UN') as chars ('S1', or 'U1' for 'U'
    input with encoding 'none'/'bytes'), one axis more of length N."""
    src = np.asarray(src)
    if src.dtype.kind not in "SU":
        raise ValueError("stringtochar needs an 'S' or 'U' array, not %s"
                         % src.dtype)
    n = src.dtype.itemsize // (4 if src.dtype.kind == "U" else 1)
    if src.dtype.kind == "U" and encoding in _BYTES:
        out = np.array(tuple("".join(s.ljust(n, "\0") for s in
                                     src.reshape(-1).tolist())), dtype="U1")
        return out.reshape(src.shape + (n,))
    if src.dtype.kind == "U":
        enc = [s.encode(encoding) for s in src.reshape(-1).tolist()]
        n = max([len(b) for b in enc] + [n])
        src = np.array(enc, dtype="S%d" % n).reshape(src.shape)
    raw = np.frombuffer(src.tobytes(), dtype="S1") if src.size else \
        np.empty(0, "S1")
    return raw.reshape(src.shape + (n,))
