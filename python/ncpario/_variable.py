"""Variable: typed data access over start/count/stride/imap, varn,
nonblocking and buffered requests, and numpy slicing."""
import math

import numpy as np

from ._attrs import AttributeMixin
from ._errors import NC_EBADTYPE, NC_ECHAR, NC_EINVAL, NCError, \
    NCTypeError, NCValueError, check
from ._lib import ffi, lib
from ._region import check_region, from_key
from ._types import NC_CHAR, NC_TO_NP, nc_type_of

_CTYPE = {"text": "char", "schar": "signed char", "uchar": "unsigned char",
          "short": "short", "ushort": "unsigned short", "int": "int",
          "uint": "unsigned int", "float": "float", "double": "double",
          "longlong": "long long", "ulonglong": "unsigned long long"}


_BUFTYPE = {k: ffi.typeof(c + "[]") for k, c in _CTYPE.items()}


def _contig(arr):
    """arr itself when C-contiguous, else a C-ordered copy (keeps 0-d
    arrays 0-d, which np.ascontiguousarray does not)."""
    return arr if arr.flags.c_contiguous else arr.copy(order="C")


_OFFSETS = ffi.typeof("MPI_Offset[]")
_FUNCS = {}


def _offsets(vals):
    return ffi.new(_OFFSETS, vals or (0,))


def _func(name):
    """The C function `name`, looked up once."""
    fn = _FUNCS.get(name)
    if fn is None:
        fn = _FUNCS[name] = getattr(lib, name)
    return fn


class Variable(AttributeMixin):
    """A netCDF variable of an open File (from File.def_var or
    File.variables)."""

    def __init__(self, file, varid):
        name = ffi.new("char[]", 257)
        xtype, ndims, natts = ffi.new("int *"), ffi.new("int *"), \
            ffi.new("int *")
        check(lib.ncmpi_inq_var(file._ncid, varid, name, xtype, ndims,
                                ffi.NULL, natts))
        dimids = ffi.new("int[]", max(ndims[0], 1))
        check(lib.ncmpi_inq_var(file._ncid, varid, ffi.NULL, ffi.NULL,
                                ffi.NULL, dimids, ffi.NULL))
        self._file = file
        self._ncid = file._ncid
        self._varid = varid
        self._name = ffi.string(name).decode("utf-8")
        self._nctype = xtype[0]
        self._dimids = tuple(dimids[i] for i in range(ndims[0]))
        unlim = file._unlimdimid()
        self._unlim = self._dimids.index(unlim) \
            if unlim >= 0 and unlim in self._dimids else None
        self._fixed = None

    # ------------------------------------------------------------ metadata
    @property
    def name(self):
        return self._name

    @property
    def varid(self):
        return self._varid

    @property
    def datatype(self):
        """The nc_type (ncpario.NC_INT, ...)."""
        return self._nctype

    @property
    def dtype(self):
        return NC_TO_NP[self._nctype][0]

    @property
    def dimensions(self):
        return tuple(self._file._dimname(d) for d in self._dimids)

    @property
    def ndim(self):
        return len(self._dimids)

    @property
    def shape(self):
        """Current lengths (the record dimension's grows with writes)."""
        if self._fixed is None:
            # Fixed lengths never change once defined; only the record
            # dimension's is asked for on every call.
            self._fixed = [None if i == self._unlim else
                           self._file._dimlen(d)
                           for i, d in enumerate(self._dimids)]
        if self._unlim is None:
            return tuple(self._fixed)
        s = list(self._fixed)
        s[self._unlim] = self._file._dimlen(self._dimids[self._unlim])
        return tuple(s)

    @property
    def size(self):
        return math.prod(self.shape)

    def _natts(self):
        n = ffi.new("int *")
        check(lib.ncmpi_inq_var(self._ncid, self._varid, ffi.NULL, ffi.NULL,
                                ffi.NULL, ffi.NULL, n))
        return n[0]

    def __repr__(self):
        return "<ncpario.Variable %s%s %s>" % (
            self._name, self.dimensions, self.dtype)

    def __len__(self):
        if not self._dimids:
            raise TypeError("len() of a scalar variable")
        return self.shape[0]

    # ------------------------------------------------------ buffer checks
    def _put_array(self, data):
        """(C-contiguous array, function suffix) for writing `data`: the
        array's own type when netCDF has one (the library converts, with
        NC_ERANGE for values that do not fit), no copy when it is already
        contiguous and native."""
        if self._nctype == NC_CHAR:
            if isinstance(data, str):
                data = data.encode("utf-8")
            if isinstance(data, (bytes, bytearray)):
                arr = np.frombuffer(bytes(data), dtype="S1")
            else:
                arr = np.asarray(data)
                if arr.dtype.kind == "U" and arr.dtype.itemsize == 4:
                    arr = arr.astype("S1")
                if arr.dtype != np.dtype("S1"):
                    raise NCTypeError(NC_ECHAR, "a char variable takes str, "
                                      "bytes or an 'S1' array, not %s"
                                      % arr.dtype)
            return _contig(arr), "text"
        arr = np.asarray(data)
        if arr.dtype.kind == "b":
            arr = arr.astype(self.dtype)
        nc = nc_type_of(arr.dtype) if arr.dtype.kind in "iuf" else None
        if nc is None:
            code = NC_ECHAR if arr.dtype.kind in "SU" else NC_EBADTYPE
            raise NCTypeError(code, "no netCDF type for %s values"
                              % arr.dtype)
        if not arr.dtype.isnative:
            arr = arr.astype(arr.dtype.newbyteorder("="))
        return _contig(arr), NC_TO_NP[nc][1]

    def _get_array(self, data, count, imap):
        """(writable C-contiguous array, suffix) to read into: `data` as it
        is, or a new array of the variable's type shaped like `count`."""
        if data is None:
            if imap is not None:
                raise NCValueError(NC_EINVAL, "a read with imap needs data")
            return np.empty(count, dtype=self.dtype), \
                NC_TO_NP[self._nctype][1]
        if not isinstance(data, np.ndarray):
            raise NCTypeError(NC_EINVAL, "data must be a numpy array")
        if not data.flags.c_contiguous or not data.flags.writeable or \
                not data.dtype.isnative:
            raise NCValueError(NC_EINVAL, "data must be a writable, "
                               "C-contiguous, native-endian array")
        if self._nctype == NC_CHAR:
            if data.dtype != np.dtype("S1"):
                raise NCTypeError(NC_ECHAR, "a char variable reads into "
                                  "an 'S1' array")
            return data, "text"
        nc = nc_type_of(data.dtype) if data.dtype.kind in "iuf" else None
        if nc is None:
            raise NCTypeError(NC_EBADTYPE, "no netCDF type for %s"
                              % data.dtype)
        return data, NC_TO_NP[nc][1]

    @staticmethod
    def _check_size(arr, count, imap):
        need = math.prod(count)
        if imap is not None and need:
            span = 1 + sum((c - 1) * m for c, m in zip(count, imap))
            if arr.size < span:
                raise NCValueError(NC_EINVAL, "imap reaches element %d of "
                                   "a %d-element buffer" % (span - 1,
                                                            arr.size))
        elif arr.size != need:
            raise NCValueError(NC_EINVAL, "buffer has %d elements, the "
                               "request %d" % (arr.size, need))

    def _default_count(self, start, count, arr):
        """count when the caller gave none: the whole variable without a
        start (records: as many as a full-rank value holds), else one
        element, as in PnetCDF-Python."""
        if count is not None or start is not None:
            return count
        shape = list(self.shape)
        if self._unlim is not None and arr is not None and \
                arr.ndim == len(shape):
            shape[self._unlim] = arr.shape[self._unlim]
        return shape

    # --------------------------------------------------------- the calls
    def _participate(self, direction):
        """Join the collective put or get the other ranks are in, with no
        data, so that a rank whose arguments Python rejected does not
        leave them waiting."""
        suffix = NC_TO_NP[self._nctype][1]
        dummy = ffi.new("%s[1]" % _CTYPE[suffix])
        fn = getattr(lib, "ncmpi_%s_varn_%s_all" % (direction, suffix))
        fn(self._ncid, self._varid, 0, ffi.NULL, ffi.NULL, dummy)

    def _collective(self, coll, direction, body):
        try:
            return body()
        except NCError as e:
            # The library agrees its own errors across the ranks of a
            # collective call; only a rank Python stopped must still join.
            if coll and not getattr(e, "from_c", False):
                self._participate(direction)
            raise

    def _region_args(self, start, count, stride, imap, writing):
        start, count, stride, imap = check_region(
            start, count, stride, imap, self.shape, self._unlim, writing)
        if imap is not None:
            form = "varm"
            stride = stride or (1,) * len(count)
            args = [_offsets(start), _offsets(count), _offsets(stride),
                    _offsets(imap)]
        elif stride is not None and any(s != 1 for s in stride):
            form = "vars"
            args = [_offsets(start), _offsets(count), _offsets(stride)]
        else:
            form = "vara"
            args = [_offsets(start), _offsets(count)]
        return form, count, imap, args

    def _put(self, data, start, count, stride, imap, coll, kind=""):
        def body():
            arr, suffix = self._put_array(data)
            c = self._default_count(start, count, arr)
            form, c, im, args = self._region_args(start, c, stride, imap,
                                                  True)
            self._check_size(arr, c, im)
            name = "ncmpi_%sput_%s_%s%s" % (kind, form, suffix,
                                            "_all" if coll else "")
            return self._call(name, args, arr, suffix, kind, False)
        return self._collective(coll, "put", body)

    def _get(self, data, start, count, stride, imap, coll, kind=""):
        def body():
            c = self._default_count(start, count, None)
            form, c, im, args = self._region_args(start, c, stride, imap,
                                                  False)
            arr, suffix = self._get_array(data, c, im)
            self._check_size(arr, c, im)
            name = "ncmpi_%sget_%s_%s%s" % (kind, form, suffix,
                                            "_all" if coll else "")
            req = self._call(name, args, arr, suffix, kind, True)
            return arr if not kind else req
        return self._collective(coll, "get", body)

    def _call(self, name, args, arr, suffix, kind, writable):
        buf = ffi.from_buffer(_BUFTYPE[suffix], arr,
                              require_writable=writable)
        fn = _func(name)
        if not kind:
            _raise_c(fn(self._ncid, self._varid, *args, buf))
            return None
        req = ffi.new("int *")
        _raise_c(fn(self._ncid, self._varid, *args, buf, req))
        if kind == "i":
            # The library reads (or fills) the buffer at wait time.
            self._file._pending[req[0]] = arr
        return req[0]

    def _varn(self, data, starts, counts, coll, direction, kind=""):
        def body():
            ss = [tuple(int(x) for x in s) for s in starts]
            cs = [tuple(int(x) for x in c) for c in counts] \
                if counts is not None else [(1,) * self.ndim] * len(ss)
            if len(cs) != len(ss):
                raise NCValueError(NC_EINVAL, "starts and counts differ "
                                   "in length")
            for s, c in zip(ss, cs):
                check_region(s, c, None, None, self.shape, self._unlim,
                             direction == "put")
            total = sum(math.prod(c) for c in cs)
            if direction == "put":
                arr, suffix = self._put_array(data)
            else:
                arr, suffix = self._get_array(
                    data if data is not None else None, (total,), None)
            if arr.size != total:
                raise NCValueError(NC_EINVAL, "buffer has %d elements, the "
                                   "requests %d" % (arr.size, total))
            keep = [_offsets(s) for s in ss] + [_offsets(c) for c in cs]
            sp = ffi.new("MPI_Offset *[]", keep[:len(ss)] or [ffi.NULL])
            cp = ffi.new("MPI_Offset *[]", keep[len(ss):] or [ffi.NULL])
            name = "ncmpi_%s%s_varn_%s%s" % (kind, direction, suffix,
                                             "_all" if coll else "")
            req = self._call(name, [len(ss), sp, cp], arr, suffix, kind,
                             direction == "get")
            return req if kind else (arr if direction == "get" else None)
        return self._collective(coll, direction, body)

    # ------------------------------------------------ PnetCDF-Python API
    def _access(self, direction, coll, kind, data, start, count, stride,
                num, imap, bufcount, buftype):
        """The PnetCDF-Python argument set: num turns start and count
        into lists of subarrays (varn); bufcount/buftype (MPI derived
        buffer types) are not supported, a numpy array carries its type."""
        if buftype is not None or bufcount not in (None, -1):
            def refuse():
                raise NCValueError(NC_EINVAL, "bufcount/buftype are not "
                                   "supported: pass a numpy array of the "
                                   "element type wanted")
            return self._collective(coll, direction, refuse)
        if num is not None:
            starts = list(start or ())[:num]
            counts = None if count is None else list(count)[:num]
            return self._varn(data, starts, counts, coll, direction, kind)
        if direction == "put":
            return self._put(data, start, count, stride, imap, coll, kind)
        return self._get(data, start, count, stride, imap, coll, kind)

    def put_var_all(self, data, start=None, count=None, stride=None,
                    num=None, imap=None, bufcount=None, buftype=None):
        """Collective write. No start: the whole variable; start alone:
        one element; with count (stride, imap): that subarray; with num:
        num subarrays, start and count then being lists of them."""
        self._access("put", True, "", data, start, count, stride, num, imap,
                     bufcount, buftype)

    def put_var(self, data, start=None, count=None, stride=None, num=None,
                imap=None, bufcount=None, buftype=None):
        """Independent write (between File.begin_indep and end_indep)."""
        self._access("put", False, "", data, start, count, stride, num,
                     imap, bufcount, buftype)

    def get_var_all(self, data=None, start=None, count=None, stride=None,
                    num=None, imap=None, bufcount=None, buftype=None):
        """Collective read into `data` (or a new array), returned."""
        return self._access("get", True, "", data, start, count, stride,
                            num, imap, bufcount, buftype)

    def get_var(self, data=None, start=None, count=None, stride=None,
                num=None, imap=None, bufcount=None, buftype=None):
        """Independent read into `data` (or a new array), returned."""
        return self._access("get", False, "", data, start, count, stride,
                            num, imap, bufcount, buftype)

    def iput_var(self, data, start=None, count=None, stride=None, num=None,
                 imap=None, bufcount=None, buftype=None):
        """Post a nonblocking write; returns the request id.  The library
        reads `data` at File.wait_all: do not change it before."""
        return self._access("put", False, "i", data, start, count, stride,
                            num, imap, bufcount, buftype)

    def iget_var(self, data, start=None, count=None, stride=None, num=None,
                 imap=None, bufcount=None, buftype=None):
        """Post a nonblocking read into `data`; returns the request id.
        `data` holds the values after File.wait_all."""
        if data is None:
            raise NCValueError(NC_EINVAL, "iget_var needs a buffer")
        return self._access("get", False, "i", data, start, count, stride,
                            num, imap, bufcount, buftype)

    def bput_var(self, data, start=None, count=None, stride=None, num=None,
                 imap=None, bufcount=None, buftype=None):
        """Post a buffered nonblocking write (File.attach_buff first): the
        values are copied now, `data` is free again at once."""
        return self._access("put", False, "b", data, start, count, stride,
                            num, imap, bufcount, buftype)

    def put_varn_all(self, data, starts, counts=None):
        """Collective write of several subarrays, filled in order from the
        flat `data`."""
        self._varn(data, starts, counts, True, "put")

    def put_varn(self, data, starts, counts=None):
        self._varn(data, starts, counts, False, "put")

    def get_varn_all(self, data=None, starts=(), counts=None):
        """Collective read of several subarrays into one flat array."""
        return self._varn(data, starts, counts, True, "get")

    def get_varn(self, data=None, starts=(), counts=None):
        return self._varn(data, starts, counts, False, "get")

    def iput_varn(self, data, starts, counts=None):
        return self._varn(data, starts, counts, False, "put", "i")

    def iget_varn(self, data, starts, counts=None):
        if data is None:
            raise NCValueError(NC_EINVAL, "iget_varn needs a buffer")
        return self._varn(data, starts, counts, False, "get", "i")

    def bput_varn(self, data, starts, counts=None):
        return self._varn(data, starts, counts, False, "put", "b")

    # -------------------------------------------------------- slicing
    def __getitem__(self, key):
        coll = not self._file._indep

        def body():
            start, count, stride, squeeze = from_key(key, self.shape,
                                                     self._unlim)
            return start, count, stride, squeeze
        start, count, stride, squeeze = self._collective(coll, "get", body)
        arr = self._get(None, start, count, stride, None, coll)
        if squeeze:
            arr = arr.reshape([c for d, c in enumerate(count)
                               if d not in squeeze])
        return arr

    def __setitem__(self, key, value):
        coll = not self._file._indep

        def body():
            arr, _ = self._put_array(value)
            start, count, stride, squeeze = from_key(
                key, self.shape, self._unlim, value_shape=arr.shape)
            target = [c for d, c in enumerate(count) if d not in squeeze]
            try:
                arr = _contig(np.broadcast_to(arr, target))
            except ValueError:
                raise NCValueError(NC_EINVAL, "value of shape %s does not "
                                   "fit the selection %s"
                                   % (arr.shape, tuple(target))) from None
            return arr, start, count, stride
        arr, start, count, stride = self._collective(coll, "put", body)
        self._put(arr, start, count, stride, None, coll)


def _raise_c(rc):
    if rc != 0:
        e = NCError(rc)
        e.from_c = True
        raise e
