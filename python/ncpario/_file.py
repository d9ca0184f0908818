"""File: one netCDF classic dataset opened by every rank of a
communicator."""
import os

import numpy as np
from mpi4py import MPI

from ._attrs import AttributeMixin
from ._consts import FORMAT_NAMES, NC_64BIT_DATA, NC_64BIT_OFFSET, \
    NC_GLOBAL, NC_NOCLOBBER, NC_NOWRITE, NC_PUT_REQ_ALL, NC_REQ_ALL, \
    NC_UNLIMITED, NC_WRITE, REQ_SELECTORS
from ._errors import NCError, NCOSError, NCValueError, NC_EINVAL, check
from ._lib import ffi, lib
from ._types import to_nc_type
from ._variable import Variable

_FORMATS = {None: None, "CLASSIC": 0, "NC_CLASSIC": 0, "NETCDF3_CLASSIC": 0,
            "CDF1": 0, "CDF-1": 0,
            "64BIT_OFFSET": NC_64BIT_OFFSET, "NC_64BIT_OFFSET":
            NC_64BIT_OFFSET, "NETCDF3_64BIT_OFFSET": NC_64BIT_OFFSET,
            "CDF2": NC_64BIT_OFFSET, "CDF-2": NC_64BIT_OFFSET,
            "64BIT_DATA": NC_64BIT_DATA, "NC_64BIT_DATA": NC_64BIT_DATA,
            "NETCDF3_64BIT_DATA": NC_64BIT_DATA,
            "CDF5": NC_64BIT_DATA, "CDF-5": NC_64BIT_DATA}


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

    def __eq__(self, other):
        return isinstance(other, Dimension) and \
            (other._file, other._dimid) == (self._file, self._dimid)

    def __hash__(self):
        return hash((id(self._file), self._dimid))

    def getfile(self):
        """The File this dimension belongs to."""
        return self._file

    def __repr__(self):
        return "<ncpario.Dimension %s = %s%d>" % (
            self.name, "UNLIMITED, now " if self.isunlimited() else "",
            self.size)


class File(AttributeMixin):
    """A netCDF classic file opened collectively by every rank of `comm`.

    mode: 'r' read, 'r+'/'a' read-write (created when missing), 'w' create
    (clobber), 'x' create (fail if it exists).  format (creation only):
    'CLASSIC' (CDF-1), '64BIT_OFFSET' (CDF-2), '64BIT_DATA' (CDF-5); the
    NC_* and NETCDF3_* spellings too; None: the default format
    (set_default_format).  comm: an mpi4py communicator (default
    COMM_WORLD); info: a dict of hints or an MPI.Info.
    """

    _PRIVATE = ("_ncid", "_varid", "_indep", "_pending", "_comm", "_define",
                "_vars", "_chartostring", "_mask", "_path")

    def __init__(self, filename, mode="r", format=None, comm=None,
                 info=None):
        self._ncid = -1
        self._varid = NC_GLOBAL
        self._indep = False
        self._pending = {}
        self._vars = {}
        self._chartostring = True
        self._mask = False
        self._comm = MPI.COMM_WORLD if comm is None else comm
        fmt = format.upper() if isinstance(format, str) else format
        if fmt not in _FORMATS:
            raise NCValueError(NC_EINVAL, "unknown format %r" % (format,))
        if mode not in ("r", "r+", "a", "w", "x"):
            raise NCValueError(NC_EINVAL, "unknown mode %r" % (mode,))
        if mode in ("r+", "a") and not os.path.exists(filename):
            mode = "w"                  # as PnetCDF-Python: append creates
        self._path = str(filename)
        self._ncid = self._open(self._path, mode, _FORMATS[fmt] or 0, info)
        self._define = mode in ("w", "x")

    def _open(self, path, mode, cformat, info):
        minfo, created = _make_info(info)
        try:
            ih = MPI._handleof(minfo if minfo is not None
                               else MPI.INFO_NULL)
            ch = MPI._handleof(self._comm)
            ncid = ffi.new("int *")
            bpath = path.encode("utf-8")
            if mode in ("w", "x"):
                cmode = cformat | (NC_NOCLOBBER if mode == "x" else 0)
                rc = lib.ncmpi_create(ch, bpath, cmode, ih, ncid)
            else:
                omode = NC_NOWRITE if mode == "r" else NC_WRITE
                rc = lib.ncmpi_open(ch, bpath, omode, ih, ncid)
        finally:
            if created:
                minfo.Free()
        if rc != 0:
            raise NCOSError(rc, path)
        return ncid[0]

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

    def filepath(self, encoding=None):
        """The path the file was opened or created with."""
        n = ffi.new("int *")
        check(lib.ncmpi_inq_path(self._ncid, n, ffi.NULL))
        buf = ffi.new("char[]", n[0] + 1)
        check(lib.ncmpi_inq_path(self._ncid, n, buf))
        return ffi.string(buf).decode(encoding or "utf-8")

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

    @property
    def indep_mode(self):
        """True between begin_indep and end_indep."""
        return self._indep

    def sync(self):
        check(lib.ncmpi_sync(self._ncid))

    def flush(self):
        """Write this rank's cached data to the file (ncmpi_flush)."""
        check(lib.ncmpi_flush(self._ncid))

    def flush_wait(self):
        """Collective: wait until every rank's writes still on their way
        under write-behind (hint nc_write_behind) are in the file, with
        the record count (ncpario_flush_wait)."""
        check(lib.ncpario_flush_wait(self._ncid))

    def set_fill(self, fillmode):
        """NC_FILL or NC_NOFILL; returns the previous mode."""
        old = ffi.new("int *")
        check(lib.ncmpi_set_fill(self._ncid, int(fillmode), old))
        return old[0]

    def set_auto_chartostring(self, value):
        """Turn the char <-> string conversion of every variable with an
        _Encoding attribute on or off (on by default)."""
        self._chartostring = bool(value)
        for v in self.variables.values():
            v.set_auto_chartostring(value)

    def set_auto_mask(self, value):
        """Reads of every variable return masked arrays where values equal
        the fill value (off by default, as in PnetCDF-Python)."""
        self._mask = bool(value)
        for v in self.variables.values():
            v.set_auto_mask(value)

    @property
    def file_format(self):
        return FORMAT_NAMES.get(self.inq_format(), "unknown")

    def inq_format(self):
        return self._int_inq(lib.ncmpi_inq_format)

    # -------------------------------------------------------- define
    def def_dim(self, dimname, size=-1):
        """Define a dimension; size None, -1 or 0 makes it the record
        (unlimited) dimension."""
        n = NC_UNLIMITED if size is None or int(size) <= 0 else int(size)
        d = ffi.new("int *")
        check(lib.ncmpi_def_dim(self._ncid, dimname.encode("utf-8"), n, d))
        return Dimension(self, d[0])

    createDimension = def_dim

    def def_var(self, varname, datatype, dimensions=(), fill_value=None):
        """Define a variable of `datatype` (ncpario.NC_INT, 'i4',
        np.float64, ...) over dimensions (names or Dimension objects, the
        record dimension first). fill_value: the variable's fill value,
        or False for no filling (default: the file's fill mode)."""
        xtype = to_nc_type(datatype)
        if isinstance(dimensions, (str, Dimension)):
            dimensions = (dimensions,)
        ids = [self._dimid_of(d) for d in dimensions]
        v = ffi.new("int *")
        check(lib.ncmpi_def_var(self._ncid, varname.encode("utf-8"), xtype,
                                len(ids), ffi.new("int[]", ids or [0]), v))
        var = self._variable(v[0])
        if fill_value is False:
            var.def_fill(1)
        elif fill_value is not None:
            var.def_fill(0, fill_value)
        return var

    createVariable = def_var

    def _variable(self, varid):
        var = Variable(self, varid)
        var.set_auto_chartostring(self._chartostring)
        var.set_auto_mask(self._mask)
        self._vars[varid] = var
        return var

    def _dimid_of(self, d):
        if isinstance(d, Dimension):
            return d._dimid
        for i in range(self._ndims()):
            if self._dimname(i) == d:
                return i
        raise NCValueError(-46, "no dimension %r" % (d,))

    def rename_dim(self, oldname, newname):
        check(lib.ncmpi_rename_dim(self._ncid, self._dimid_of(oldname),
                                   newname.encode("utf-8")))

    def rename_var(self, oldname, newname):
        var = self.variables.get(oldname)
        if var is None:
            raise KeyError("no variable %r" % (oldname,))
        check(lib.ncmpi_rename_var(self._ncid, var._varid,
                                   newname.encode("utf-8")))
        var._name = newname

    renameDimension = rename_dim
    renameVariable = rename_var

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

    def _int_inq(self, fn, ctype="int *"):
        out = ffi.new(ctype)
        check(fn(self._ncid, out))
        return out[0]

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
            v = self._vars.get(i)
            if v is None:
                v = self._variable(i)
            out[v.name] = v
        return out

    def __getitem__(self, name):
        return self.variables[name]

    def __repr__(self):
        return "<ncpario.File ncid=%d>" % self._ncid

    def inq_unlimdim(self):
        """The record Dimension, or None."""
        d = self._int_inq(lib.ncmpi_inq_unlimdim)
        return Dimension(self, d) if d >= 0 else None

    def inq_num_rec_vars(self):
        return self._int_inq(lib.ncmpi_inq_num_rec_vars)

    def inq_num_fix_vars(self):
        return self._int_inq(lib.ncmpi_inq_num_fix_vars)

    def inq_version(self):
        """The format as a creation-mode flag: NC_CLASSIC_MODEL (CDF-1),
        NC_64BIT_OFFSET (CDF-2) or NC_64BIT_DATA (CDF-5)."""
        return self._int_inq(lib.ncmpi_inq_version)

    def inq_recsize(self):
        return self._int_inq(lib.ncmpi_inq_recsize, "MPI_Offset *")

    def inq_header_size(self):
        return self._int_inq(lib.ncmpi_inq_header_size, "MPI_Offset *")

    def inq_header_extent(self):
        return self._int_inq(lib.ncmpi_inq_header_extent, "MPI_Offset *")

    def inq_put_size(self):
        """Bytes this rank has written to the file so far."""
        return self._int_inq(lib.ncmpi_inq_put_size, "MPI_Offset *")

    def inq_get_size(self):
        return self._int_inq(lib.ncmpi_inq_get_size, "MPI_Offset *")

    def inq_striping(self):
        """(striping_size, striping_count) of the file system, 0 when it
        has none."""
        size, count = ffi.new("int *"), ffi.new("int *")
        check(lib.ncmpi_inq_striping(self._ncid, size, count))
        return size[0], count[0]

    # --------------------------------------------------- nonblocking
    def wait_all(self, num=None, requests=None, status=None):
        """Complete nonblocking requests; collective.  num: how many of
        the ids in `requests`, or NC_REQ_ALL / NC_PUT_REQ_ALL /
        NC_GET_REQ_ALL (None: NC_REQ_ALL).  Completed ids in `requests`
        become NC_REQ_NULL and `status` (a list) receives each request's
        code, both in place.  Returns the statuses; raises NCError when
        the call itself fails.  A list passed as num is the requests."""
        return self._wait(num, requests, status, lib.ncmpi_wait_all)

    def wait(self, num=None, requests=None, status=None):
        """wait_all's independent form."""
        return self._wait(num, requests, status, lib.ncmpi_wait)

    def cancel(self, num=None, requests=None, status=None):
        """Cancel pending requests; arguments as in wait_all."""
        return self._wait(num, requests, status, lib.ncmpi_cancel)

    def _wait(self, num, requests, status, fn):
        if isinstance(num, (list, tuple, np.ndarray)) and requests is None:
            num, requests = len(num), num
        if num is None:
            num = NC_REQ_ALL if requests is None else len(requests)
        if int(num) in REQ_SELECTORS:
            rc = fn(self._ncid, int(num), ffi.NULL, ffi.NULL)
            self._forget_all(int(num))
            if rc != 0:
                raise NCError(rc)
            return []
        n = int(num)
        reqs = [int(requests[i]) for i in range(n)]
        creq = ffi.new("int[]", reqs or [0])
        st = ffi.new("int[]", max(n, 1))
        rc = fn(self._ncid, n, creq, st)
        statuses = [st[i] for i in range(n)]
        for r in reqs:
            self._pending.pop(r, None)
        for i in range(n):
            _set_item(requests, i, creq[i])
            if status is not None:
                _set_item(status, i, statuses[i])
        if rc != 0:
            e = NCError(rc)
            e.statuses = statuses
            raise e
        return statuses

    def _forget_all(self, selector):
        """Drop the buffers kept for the requests a selector completed."""
        for r, (_, is_put) in list(self._pending.items()):
            if selector == NC_REQ_ALL or \
                    is_put == (selector == NC_PUT_REQ_ALL):
                del self._pending[r]

    def inq_nreqs(self):
        """How many nonblocking requests of this rank are pending."""
        return self._int_inq(lib.ncmpi_inq_nreqs)

    def attach_buff(self, bufsize):
        """Attach `bufsize` bytes of library buffer for bput_var."""
        check(lib.ncmpi_buffer_attach(self._ncid, int(bufsize)))

    def detach_buff(self):
        check(lib.ncmpi_buffer_detach(self._ncid))

    def inq_buff_usage(self):
        return self._int_inq(lib.ncmpi_inq_buffer_usage, "MPI_Offset *")

    def inq_buff_size(self):
        return self._int_inq(lib.ncmpi_inq_buffer_size, "MPI_Offset *")

    # --------------------------------------------------- hints, profile
    def inq_info(self):
        """The hints in effect, as a new MPI.Info (the caller frees it)."""
        info = ffi.new("MPI_Info *")
        check(lib.ncmpi_inq_file_info(self._ncid, info))
        return MPI.Info.f2py(lib.MPI_Info_c2f(info[0]))

    def hints(self):
        """The hints in effect, as {key: value} strings."""
        info = self.inq_info()
        try:
            return {k: info.Get(k) for k in info.keys()}
        finally:
            info.Free()

    def profile(self):
        """This rank's counters (see ncpario_inq_profile) as a dict."""
        p = ffi.new("ncpario_profile *")
        check(lib.ncpario_inq_profile(self._ncid, p))
        return {name: getattr(p, name)
                for name, _ in ffi.typeof("ncpario_profile").fields}


def _set_item(seq, i, value):
    """seq[i] = value in the caller's list or array (a list too short
    grows); tuples are left alone."""
    if isinstance(seq, list) and i >= len(seq):
        seq.append(value)
    elif not isinstance(seq, tuple):
        seq[i] = value
