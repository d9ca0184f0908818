"""Variable: typed data access over start/count/stride/imap, varn,
nonblocking and buffered requests, and numpy slicing."""
import math

import numpy as np
from mpi4py import MPI

from ._attrs import AttributeMixin
from ._errors import NC_EBADTYPE, NC_ECHAR, NC_EINVAL, NC_ENOTATT, \
    NCError, NCTypeError, NCValueError, check
from ._lib import ffi, lib
from ._region import check_region, from_key
from ._types import DEFAULT_FILL, NC_CHAR, NC_TO_NP, nc_type_of
from ._utils import chartostring, stringtochar

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

    _PRIVATE = ("_file", "_ncid", "_varid", "_name", "_nctype", "_dimids",
                "_unlim", "_fixed", "_chartostring", "_mask")

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
        self._chartostring = True
        self._mask = False

    # ------------------------------------------------------------ metadata
    @property
    def name(self):
        return self._name

    @property
    def varid(self):
        return self._varid

    @property
    def datatype(self):
        """The numpy dtype of the values (as PnetCDF-Python; `xtype` is
        the nc_type)."""
        return NC_TO_NP[self._nctype][0]

    @property
    def dtype(self):
        return NC_TO_NP[self._nctype][0]

    @property
    def xtype(self):
        """The nc_type (ncpario.NC_INT, ...)."""
        return self._nctype

    def file(self):
        """The File this variable belongs to."""
        return self._file

    def get_dims(self):
        """The variable's Dimensions, in order."""
        dims = self._file.dimensions
        return tuple(dims[n] for n in self.dimensions)

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
            self._fixed = [None if i == self._unlim else self._dimlen(d)
                           for i, d in enumerate(self._dimids)]
        if self._unlim is None:
            return tuple(self._fixed)
        s = list(self._fixed)
        s[self._unlim] = self._dimlen(self._dimids[self._unlim])
        return tuple(s)

    def _dimlen(self, dimid):
        # By the variable's own ncid, as PnetCDF-Python does: a Variable
        # kept from a closed File still works on the file that reuses the
        # id.
        n = ffi.new("MPI_Offset *")
        check(lib.ncmpi_inq_dimlen(self._ncid, dimid, n))
        return n[0]

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

    def __array__(self, dtype=None, copy=None):
        arr = self[...]
        return arr if dtype is None else arr.astype(dtype)

    # ---------------------------------------------------- fill and offsets
    def def_fill(self, no_fill, fill_value=None):
        """Define mode: no_fill=1 turns filling off for this variable;
        no_fill=0 turns it on, with `fill_value` (default: the type's)."""
        if fill_value is None:
            check(lib.ncmpi_def_var_fill(self._ncid, self._varid,
                                         int(no_fill), ffi.NULL))
            return
        fv = np.asarray(fill_value)
        if self._nctype == NC_CHAR and fv.dtype.kind in "SU":
            fv = np.frombuffer(fv.astype("S1").tobytes()[:1] or b"\0", "S1")
        fv = fv.astype(self.dtype).reshape(1)
        check(lib.ncmpi_def_var_fill(self._ncid, self._varid, int(no_fill),
                                     ffi.from_buffer(fv)))

    def inq_fill(self):
        """(no_fill, fill_value): 1 when filling is off, and the value
        unwritten elements read as."""
        no_fill = ffi.new("int *")
        fv = np.empty(1, dtype=self.dtype)
        check(lib.ncmpi_inq_var_fill(self._ncid, self._varid, no_fill,
                                     ffi.from_buffer(fv)))
        return no_fill[0], fv[0]

    def fill_rec(self, rec_no):
        """Collective: write the fill value into record `rec_no` (0-based)
        of this record variable."""
        check(lib.ncmpi_fill_var_rec(self._ncid, self._varid, int(rec_no)))

    def inq_offset(self):
        """The file offset where the variable's data begins."""
        off = ffi.new("MPI_Offset *")
        check(lib.ncmpi_inq_varoffset(self._ncid, self._varid, off))
        return off[0]

    # ------------------------------------------- conversions of slicing
    @property
    def chartostring(self):
        """Whether slicing converts a char variable with an _Encoding
        attribute to and from strings (see set_auto_chartostring)."""
        return self._chartostring

    @chartostring.setter
    def chartostring(self, value):
        self._chartostring = bool(value)

    def set_auto_chartostring(self, value):
        """On (the default): reading a char variable that has an _Encoding
        attribute through slicing, with its whole last dimension, gives
        strings of that length (one axis fewer); strings written are
        encoded with it."""
        self._chartostring = bool(value)

    def set_auto_mask(self, value):
        """On: slicing reads return a numpy masked array, masked where the
        value equals _FillValue (or the type's default fill value)."""
        self._mask = bool(value)

    def _fill_value(self):
        """The value unwritten elements hold: _FillValue or the default."""
        try:
            return self.get_att("_FillValue")
        except NCError as e:
            if e.code != NC_ENOTATT:
                raise
        return DEFAULT_FILL[self._nctype]

    def _masked(self, arr):
        fv = np.asarray(self._fill_value(), dtype=arr.dtype)
        hit = np.isnan(arr) if arr.dtype.kind == "f" and np.isnan(fv) \
            else arr == fv
        return np.ma.MaskedArray(arr, mask=hit, fill_value=fv)

    def _encoding(self):
        """The _Encoding to convert strings with, or None when off."""
        if self._nctype != NC_CHAR or not self._chartostring:
            return None
        try:
            enc = self.get_att("_Encoding")
        except NCError:
            return None
        return enc if isinstance(enc, str) else None

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

    def _put(self, data, start, count, stride, imap, coll, kind="",
             flex=None):
        def body():
            if flex:
                return self._flexible("put", data, start, count, stride,
                                      imap, coll, kind, flex)
            arr, suffix = self._put_array(data)
            c = self._default_count(start, count, arr)
            form, c, im, args = self._region_args(start, c, stride, imap,
                                                  True)
            self._check_size(arr, c, im)
            name = "ncmpi_%sput_%s_%s%s" % (kind, form, suffix,
                                            "_all" if coll else "")
            return self._call(name, args, arr, suffix, kind, False)
        return self._collective(coll, "put", body)

    def _get(self, data, start, count, stride, imap, coll, kind="",
             flex=None):
        def body():
            if flex:
                return self._flexible("get", data, start, count, stride,
                                      imap, coll, kind, flex)
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

    def _flexible(self, direction, data, start, count, stride, imap, coll,
                  kind, flex):
        c = self._default_count(start, count, None)
        form, c, im, args = self._region_args(start, c, stride, imap,
                                              direction == "put")
        name = "ncmpi_%s%s_%s%s" % (kind, direction, form,
                                    "_all" if coll else "")
        req = self._call_flexible(name, args, data, flex[0], flex[1], kind,
                                  direction == "get")
        return req if kind else (data if direction == "get" else None)

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
            self._file._pending[req[0]] = (arr, not writable)
        return req[0]

    def _call_flexible(self, name, args, data, bufcount, buftype, kind,
                       writable):
        """A call of the flexible API: the buffer's layout and element type
        are `buftype` (an mpi4py Datatype), `bufcount` of them."""
        if not isinstance(buftype, MPI.Datatype):
            raise NCTypeError(NC_EINVAL, "buftype must be an mpi4py "
                              "MPI.Datatype")
        if not isinstance(data, np.ndarray) or not data.flags.c_contiguous:
            raise NCValueError(NC_EINVAL, "a buffer with buftype must be "
                               "a C-contiguous numpy array")
        buf = ffi.from_buffer(data, require_writable=writable)
        count = -1 if bufcount is None else int(bufcount)
        tail = [buf, count, MPI._handleof(buftype)]
        fn = _func(name)
        if not kind:
            _raise_c(fn(self._ncid, self._varid, *args, *tail))
            return None
        req = ffi.new("int *")
        _raise_c(fn(self._ncid, self._varid, *args, *tail, req))
        if kind == "i":
            self._file._pending[req[0]] = (data, not writable)
        return req[0]

    def _varn(self, data, num, starts, counts, coll, direction, kind="",
              flex=None):
        def body():
            n = len(starts) if num is None else int(num)
            if n > len(starts) or (counts is not None and n > len(counts)):
                raise NCValueError(NC_EINVAL, "num = %d, but %d starts and "
                                   "%s counts" % (n, len(starts), "no" if
                                                  counts is None else
                                                  len(counts)))
            ss = [tuple(int(x) for x in starts[i]) for i in range(n)]
            cs = [tuple(int(x) for x in counts[i]) for i in range(n)] \
                if counts is not None else [(1,) * self.ndim] * n
            for s, c in zip(ss, cs):
                check_region(s, c, None, None, self.shape, self._unlim,
                             direction == "put")
            keep = [_offsets(s) for s in ss] + [_offsets(c) for c in cs]
            sp = ffi.new("MPI_Offset *[]", keep[:n] or [ffi.NULL])
            cp = ffi.new("MPI_Offset *[]", keep[n:] or [ffi.NULL])
            if flex:
                name = "ncmpi_%s%s_varn%s" % (kind, direction,
                                              "_all" if coll else "")
                req = self._call_flexible(name, [n, sp, cp], data, flex[0],
                                          flex[1], kind, direction == "get")
                return req if kind else (data if direction == "get"
                                         else None)
            total = sum(math.prod(c) for c in cs)
            if direction == "put":
                arr, suffix = self._put_array(data)
            else:
                arr, suffix = self._get_array(data, (total,), None)
            if arr.size != total:
                raise NCValueError(NC_EINVAL, "buffer has %d elements, the "
                                   "requests %d" % (arr.size, total))
            name = "ncmpi_%s%s_varn_%s%s" % (kind, direction, suffix,
                                             "_all" if coll else "")
            req = self._call(name, [n, sp, cp], arr, suffix, kind,
                             direction == "get")
            return req if kind else (arr if direction == "get" else None)
        return self._collective(coll, direction, body)

    # ------------------------------------------------ PnetCDF-Python API
    def _access(self, direction, coll, kind, data, start, count, stride,
                imap, bufcount, buftype):
        """PnetCDF-Python's argument set: no start, the whole variable;
        start alone, one element; with count (stride, imap), a subarray.
        buftype (an MPI datatype, bufcount of them) describes the buffer's
        layout and element type; without it the numpy array's dtype does."""
        flex = None if buftype is None else (bufcount, buftype)
        if direction == "put":
            return self._put(data, start, count, stride, imap, coll, kind,
                             flex)
        return self._get(data, start, count, stride, imap, coll, kind, flex)

    def put_var_all(self, data, start=None, count=None, stride=None,
                    imap=None, bufcount=None, buftype=None):
        """Collective write. No start: the whole variable; start alone:
        one element; with count (stride, imap): that subarray."""
        self._access("put", True, "", data, start, count, stride, imap,
                     bufcount, buftype)

    def put_var(self, data, start=None, count=None, stride=None, imap=None,
                bufcount=None, buftype=None):
        """Independent write (between File.begin_indep and end_indep)."""
        self._access("put", False, "", data, start, count, stride, imap,
                     bufcount, buftype)

    def get_var_all(self, data=None, start=None, count=None, stride=None,
                    imap=None, bufcount=None, buftype=None):
        """Collective read into `data` (or a new array), returned."""
        return self._access("get", True, "", data, start, count, stride,
                            imap, bufcount, buftype)

    def get_var(self, data=None, start=None, count=None, stride=None,
                imap=None, bufcount=None, buftype=None):
        """Independent read into `data` (or a new array), returned."""
        return self._access("get", False, "", data, start, count, stride,
                            imap, bufcount, buftype)

    def iput_var(self, data, start=None, count=None, stride=None, imap=None,
                 bufcount=None, buftype=None):
        """Post a nonblocking write; returns the request id.  The library
        reads `data` at File.wait_all: do not change it before."""
        return self._access("put", False, "i", data, start, count, stride,
                            imap, bufcount, buftype)

    def iget_var(self, data, start=None, count=None, stride=None, imap=None,
                 bufcount=None, buftype=None):
        """Post a nonblocking read into `data`; returns the request id.
        `data` holds the values after File.wait_all."""
        if data is None:
            raise NCValueError(NC_EINVAL, "iget_var needs a buffer")
        return self._access("get", False, "i", data, start, count, stride,
                            imap, bufcount, buftype)

    def bput_var(self, data, start=None, count=None, stride=None, imap=None,
                 bufcount=None, buftype=None):
        """Post a buffered nonblocking write (File.attach_buff first): the
        values are copied now, `data` is free again at once."""
        return self._access("put", False, "b", data, start, count, stride,
                            imap, bufcount, buftype)

    def put_varn_all(self, data, num=None, starts=(), counts=None,
                     bufcount=None, buftype=None):
        """Collective write of the first `num` subarrays (default: all) of
        `starts`/`counts` (count 1 each without counts), filled in order
        from the flat `data`."""
        self._varn(data, num, starts, counts, True, "put", "",
                   _flex(bufcount, buftype))

    def put_varn(self, data, num=None, starts=(), counts=None,
                 bufcount=None, buftype=None):
        self._varn(data, num, starts, counts, False, "put", "",
                   _flex(bufcount, buftype))

    def get_varn_all(self, data=None, num=None, starts=(), counts=None,
                     bufcount=None, buftype=None):
        """Collective read of several subarrays into one flat array."""
        return self._varn(data, num, starts, counts, True, "get", "",
                          _flex(bufcount, buftype))

    def get_varn(self, data=None, num=None, starts=(), counts=None,
                 bufcount=None, buftype=None):
        return self._varn(data, num, starts, counts, False, "get", "",
                          _flex(bufcount, buftype))

    def iput_varn(self, data, num=None, starts=(), counts=None,
                  bufcount=None, buftype=None):
        return self._varn(data, num, starts, counts, False, "put", "i",
                          _flex(bufcount, buftype))

    def iget_varn(self, data, num=None, starts=(), counts=None,
                  bufcount=None, buftype=None):
        if data is None:
            raise NCValueError(NC_EINVAL, "iget_varn needs a buffer")
        return self._varn(data, num, starts, counts, False, "get", "i",
                          _flex(bufcount, buftype))

    def bput_varn(self, data, num=None, starts=(), counts=None,
                  bufcount=None, buftype=None):
        return self._varn(data, num, starts, counts, False, "put", "b",
                          _flex(bufcount, buftype))

    # -------------------------------------------------------- slicing
    def __getitem__(self, key):
        coll = not self._file._indep
        start, count, stride, squeeze, flip = self._collective(
            coll, "get", lambda: from_key(key, self.shape, self._unlim))
        arr = self._get(None, start, count, stride, None, coll)
        if flip:
            arr = arr[tuple(slice(None, None, -1) if d in flip else
                            slice(None) for d in range(arr.ndim))]
        if squeeze:
            arr = arr.reshape([c for d, c in enumerate(count)
                               if d not in squeeze])
        enc = self._encoding()
        if enc and arr.ndim and count[-1] == self.shape[-1] and \
                self.ndim - 1 not in squeeze:
            return chartostring(arr, encoding=enc)
        if self._mask and self._nctype != NC_CHAR:
            return self._masked(arr)
        return arr

    def __setitem__(self, key, value):
        coll = not self._file._indep

        def body():
            arr = self._slice_value(value)
            start, count, stride, squeeze, flip = from_key(
                key, self.shape, self._unlim, value_shape=arr.shape)
            target = [c for d, c in enumerate(count) if d not in squeeze]
            arr = _fit(arr, target)
            if flip:
                kept = [d for d in range(len(count)) if d not in squeeze]
                arr = _contig(arr[tuple(slice(None, None, -1) if d in flip
                                        else slice(None) for d in kept)])
            return arr, start, count, stride
        arr, start, count, stride = self._collective(coll, "put", body)
        self._put(arr, start, count, stride, None, coll)

    def _slice_value(self, value):
        """The value of an assignment as an array of the variable's
        elements: masked entries become the fill value, strings written
        to a char variable become rows of its last dimension's length."""
        if isinstance(value, np.ma.MaskedArray):
            value = value.filled(np.asarray(self._fill_value()).astype(
                value.dtype))
        if self._nctype == NC_CHAR:
            return self._chars(value)
        return self._put_array(value)[0]

    def _chars(self, value):
        """A value written to a char variable as S1 chars.  Strings (str,
        bytes, or 'S'/'U' arrays of more than one char per element) fill
        rows of the last dimension, padded with NUL bytes; in a 1-d
        variable a string is its chars as they are."""
        enc = self._encoding() or "utf-8"
        if isinstance(value, str):
            value = value.encode(enc)
        if isinstance(value, (bytes, bytearray)):
            value = np.array(bytes(value), dtype="S%d" % max(len(value), 1))
            if self.ndim <= 1:
                value = stringtochar(value, encoding="bytes")
        arr = np.asarray(value)
        if arr.dtype.kind == "U" and arr.dtype.itemsize == 4:
            arr = arr.astype("S1")
        if arr.dtype.kind in "SU" and arr.dtype.itemsize > 1:
            arr = stringtochar(arr, encoding=enc)
            pad = (self.shape[-1] if self.ndim else 1) - arr.shape[-1]
            if pad < 0:
                raise NCValueError(NC_EINVAL, "a string of %d bytes does "
                                   "not fit %d chars"
                                   % (arr.shape[-1], arr.shape[-1] + pad))
            arr = np.concatenate([arr, np.zeros(arr.shape[:-1] + (pad,),
                                                "S1")], axis=-1)
        return self._put_array(arr)[0]


def _flex(bufcount, buftype):
    return None if buftype is None else (bufcount, buftype)


def _fit(arr, target):
    """arr shaped to the selection: as it is, reshaped when it has the
    same number of elements (a flat buffer into an N-d selection), or
    broadcast (a scalar or a row)."""
    if list(arr.shape) == list(target):
        return arr
    if arr.size == math.prod(target):
        return arr.reshape(target)
    try:
        return _contig(np.broadcast_to(arr, target))
    except ValueError:
        raise NCValueError(NC_EINVAL, "value of shape %s does not fit the "
                           "selection %s" % (arr.shape, tuple(target))) \
            from None


def _raise_c(rc):
    if rc != 0:
        e = NCError(rc)
        e.from_c = True
        raise e
