"""File: one netCDF classic dataset opened by every rank of a
communicator."""
import numpy as np
from mpi4py import MPI

from ._attrs import AttributeMixin
from ._errors import NCError, NCValueError, NC_EINVAL, check
from ._lib import ffi, lib
from ._types import to_nc_type
from ._variable import Variable

NC_NOWRITE, NC_WRITE, NC_NOCLOBBER = 0x0000, 0x0001, 0x0004
NC_64BIT_DATA, NC_64BIT_OFFSET = 0x0020, 0x0200
NC_GLOBAL = -1
NC_UNLIMITED = 0
NC_REQ_ALL = -1
NC_FILL, NC_NOFILL = 0, 0x100

_FORMATS = {None: 0, "CLASSIC": 0, "NC_CLASSIC": 0, "CDF1": 0, "CDF-1": 0,
            "64BIT_OFFSET": NC_64BIT_OFFSET, "NC_64BIT_OFFSET":
            NC_64BIT_OFFSET, "CDF2": NC_64BIT_OFFSET, "CDF-2": NC_64BIT_OFFSET,
            "64BIT_DATA": NC_64BIT_DATA, "NC_64BIT_DATA": NC_64BIT_DATA,
            "CDF5": NC_64BIT_DATA, "CDF-5": NC_64BIT_DATA}
_FORMAT_NAMES = {1: "CLASSIC", 2: "64BIT_OFFSET", 5: "64BIT_DATA"}


def _make_info(info):
    """(MPI.Info or None, whether we created it) from a dict or Info."""
    if info is None:
        return None, False
    if isinstance(info, MPI.Info):
        return info, False
    if not isinstance(info, dict):
        raise NCValueError(NC_EINVAL, "info must be a dict or an MPI.Info")
    mi = MPI.Info.Create()
    for k, v in info.items():
        mi.Set(str(k), str(v))
    return mi, True


class Dimension:
    """A dimension of a File: name, size (current length) and
    isunlimited()."""

    def __init__(self, file, dimid):
        self._file = file
        self._dimid = dimid

    @property
    def name(self):
        return self._file._dimname(self._dimid)

    @property
    def size(self):
        return self._file._dimlen(self._dimid)

    def __len__(self):
        return self.size

    def isunlimited(self):
        return self._dimid == self._file._unlimdimid()

    def __repr__(self):
        return "<ncpario.Dimension %s = %s%d>" % (
            self.name, "UNLIMITED, now " if self.isunlimited() else "",
            self.size)


class File(AttributeMixin):
    """A netCDF classic file opened collectively by every rank of `comm`.

    mode: 'r' read, 'r+'/'a' read-write, 'w' create (clobber), 'x' create
    (fail if it exists).  format (creation only): 'CLASSIC' (CDF-1),
    '64BIT_OFFSET' (CDF-2), '64BIT_DATA' (CDF-5); the NC_* spellings too.
    comm: an mpi4py communicator (default COMM_WORLD); info: a dict of
    hints or an MPI.Info.
    """

    def __init__(self, filename, mode="r", format=None, comm=None,
                 info=None):
        self._ncid = -1
        self._varid = NC_GLOBAL
        self._indep = False
        self._pending = {}
        self._comm = MPI.COMM_WORLD if comm is None else comm
        fmt = format.upper() if isinstance(format, str) else format
        if fmt not in _FORMATS:
            raise NCValueError(NC_EINVAL, "unknown format %r" % (format,))
        minfo, created = _make_info(info)
        try:
            ih = MPI._handleof(minfo if minfo is not None
                               else MPI.INFO_NULL)
            ch = MPI._handleof(self._comm)
            ncid = ffi.new("int *")
            path = str(filename).encode("utf-8")
            if mode in ("w", "x"):
                cmode = _FORMATS[fmt] | (NC_NOCLOBBER if mode == "x" else 0)
                check(lib.ncmpi_create(ch, path, cmode, ih, ncid))
                self._define = True
            elif mode in ("r", "r+", "a"):
                omode = NC_NOWRITE if mode == "r" else NC_WRITE
                check(lib.ncmpi_open(ch, path, omode, ih, ncid))
                self._define = False
            else:
                raise NCValueError(NC_EINVAL, "unknown mode %r" % (mode,))
        finally:
            if created:
                minfo.Free()
        self._ncid = ncid[0]
        self._vars = {}

    # -------------------------------------------------- context manager
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        if self._ncid >= 0:
            self.close()
        return False

    def close(self):
        """Collective: finish pending requests' bookkeeping and close."""
        ncid, self._ncid = self._ncid, -1
        self._pending.clear()
        check(lib.ncmpi_close(ncid))

    @property
    def isopen(self):
        return self._ncid >= 0

    # -------------------------------------------------------- modes
    def enddef(self):
        check(lib.ncmpi_enddef(self._ncid))
        self._define = False

    def redef(self):
        check(lib.ncmpi_redef(self._ncid))
        self._define = True

    def begin_indep(self):
        check(lib.ncmpi_begin_indep_data(self._ncid))
        self._indep = True

    def end_indep(self):
        check(lib.ncmpi_end_indep_data(self._ncid))
        self._indep = False

    def sync(self):
        check(lib.ncmpi_sync(self._ncid))

    def set_fill(self, fillmode):
        """NC_FILL or NC_NOFILL; returns the previous mode."""
        old = ffi.new("int *")
        check(lib.ncmpi_set_fill(self._ncid, int(fillmode), old))
        return old[0]

    @property
    def file_format(self):
        f = ffi.new("int *")
        check(lib.ncmpi_inq_format(self._ncid, f))
        return _FORMAT_NAMES.get(f[0], str(f[0]))

    # -------------------------------------------------------- define
    def def_dim(self, dimname, size=-1):
        """Define a dimension; size None, -1 or 0 makes it the record
        (unlimited) dimension."""
        n = NC_UNLIMITED if size is None or int(size) <= 0 else int(size)
        d = ffi.new("int *")
        check(lib.ncmpi_def_dim(self._ncid, dimname.encode("utf-8"), n, d))
        return Dimension(self, d[0])

    def def_var(self, varname, nc_dtype, dimensions=(), fill_value=None):
        """Define a variable of type nc_dtype (ncpario.NC_INT, 'i4',
        np.float64, ...) over dimensions (names or Dimension objects, the
        record dimension first). fill_value: the variable's fill value,
        or False for no filling (default: the file's fill mode)."""
        xtype = to_nc_type(nc_dtype)
        if isinstance(dimensions, (str, Dimension)):
            dimensions = (dimensions,)
        ids = [self._dimid_of(d) for d in dimensions]
        v = ffi.new("int *")
        check(lib.ncmpi_def_var(self._ncid, varname.encode("utf-8"), xtype,
                                len(ids), ffi.new("int[]", ids or [0]), v))
        var = Variable(self, v[0])
        self._vars[var.name] = var
        if fill_value is False:
            check(lib.ncmpi_def_var_fill(self._ncid, v[0], 1, ffi.NULL))
        elif fill_value is not None:
            fv = np.asarray(fill_value).astype(var.dtype).reshape(1)
            check(lib.ncmpi_def_var_fill(self._ncid, v[0], 0,
                                         ffi.from_buffer(fv)))
        return var

    def _dimid_of(self, d):
        if isinstance(d, Dimension):
            return d._dimid
        for i in range(self._ndims()):
            if self._dimname(i) == d:
                return i
        raise NCValueError(-46, "no dimension %r" % (d,))

    # -------------------------------------------------------- inquiry
    def _inq(self):
        a, b, c, u = (ffi.new("int *") for _ in range(4))
        check(lib.ncmpi_inq(self._ncid, a, b, c, u))
        return a[0], b[0], c[0], u[0]

    def _ndims(self):
        return self._inq()[0]

    def _natts(self):
        return self._inq()[2]

    def _unlimdimid(self):
        return self._inq()[3]

    def _dimname(self, dimid):
        name = ffi.new("char[]", 257)
        check(lib.ncmpi_inq_dim(self._ncid, dimid, name, ffi.NULL))
        return ffi.string(name).decode("utf-8")

    def _dimlen(self, dimid):
        n = ffi.new("MPI_Offset *")
        check(lib.ncmpi_inq_dimlen(self._ncid, dimid, n))
        return n[0]

    @property
    def dimensions(self):
        """{name: Dimension}, in definition order."""
        return {self._dimname(i): Dimension(self, i)
                for i in range(self._ndims())}

    @property
    def variables(self):
        """{name: Variable}, in definition order."""
        out = {}
        for i in range(self._inq()[1]):
            v = Variable(self, i)
            out[v.name] = self._vars.setdefault(v.name, v)
        return out

    def __getitem__(self, name):
        return self.variables[name]

    def __repr__(self):
        return "<ncpario.File ncid=%d>" % self._ncid

    # --------------------------------------------------- nonblocking
    def wait_all(self, num=None, requests=None, status=None):
        """Complete request ids (default: every pending one); collective.
        Returns their statuses, and appends them to the list `status`
        when given. Raises NCError when one failed (its .statuses holds
        them all). As in PnetCDF-Python, num counts the first ids of
        `requests` to wait for; a list passed as num is the requests."""
        return self._wait(num, requests, status, lib.ncmpi_wait_all)

    def wait(self, num=None, requests=None, status=None):
        """wait_all's independent form."""
        return self._wait(num, requests, status, lib.ncmpi_wait)

    def _wait(self, num, requests, status, fn):
        if isinstance(num, (list, tuple)) and requests is None:
            num, requests = None, num
        if requests is not None and num is not None and num >= 0:
            requests = list(requests)[:num]
        st = self._wait_ids(requests, fn)
        if status is not None:
            status.extend(st)
        return st

    def _wait_ids(self, requests, fn):
        if requests is None:
            rc = fn(self._ncid, NC_REQ_ALL, ffi.NULL, ffi.NULL)
            self._pending.clear()
            statuses = []
        else:
            reqs = [int(r) for r in requests]
            creq = ffi.new("int[]", reqs or [0])
            st = ffi.new("int[]", max(len(reqs), 1))
            rc = fn(self._ncid, len(reqs), creq, st)
            for r in reqs:
                self._pending.pop(r, None)
            statuses = [st[i] for i in range(len(reqs))]
        if rc != 0 or any(statuses):
            e = NCError(rc or next(s for s in statuses if s))
            e.statuses = statuses
            raise e
        return statuses

    def attach_buff(self, bufsize):
        """Attach `bufsize` bytes of library buffer for bput_var."""
        check(lib.ncmpi_buffer_attach(self._ncid, int(bufsize)))

    def detach_buff(self):
        check(lib.ncmpi_buffer_detach(self._ncid))

    def inq_buff_usage(self):
        n = ffi.new("MPI_Offset *")
        check(lib.ncmpi_inq_buffer_usage(self._ncid, n))
        return n[0]

    def inq_buff_size(self):
        n = ffi.new("MPI_Offset *")
        check(lib.ncmpi_inq_buffer_size(self._ncid, n))
        return n[0]

    # --------------------------------------------------- hints, profile
    def inq_info(self):
        """The hints in effect, as {key: value} strings."""
        info = ffi.new("MPI_Info *")
        check(lib.ncmpi_inq_file_info(self._ncid, info))
        out = {}
        try:
            n = ffi.new("int *")
            lib.MPI_Info_get_nkeys(info[0], n)
            key = ffi.new("char[]", 256)
            vlen, flag = ffi.new("int *"), ffi.new("int *")
            for i in range(n[0]):
                lib.MPI_Info_get_nthkey(info[0], i, key)
                lib.MPI_Info_get_valuelen(info[0], key, vlen, flag)
                val = ffi.new("char[]", vlen[0] + 1)
                lib.MPI_Info_get(info[0], key, vlen[0], val, flag)
                out[ffi.string(key).decode()] = ffi.string(val).decode()
        finally:
            lib.MPI_Info_free(info)
        return out

    def profile(self):
        """This rank's counters (see ncpario_inq_profile) as a dict."""
        p = ffi.new("ncpario_profile *")
        check(lib.ncpario_inq_profile(self._ncid, p))
        return {name: getattr(p, name)
                for name, _ in ffi.typeof("ncpario_profile").fields}
