"""Attributes as Python values, shared by File and Variable."""
import numpy as np

from ._errors import NC_ENOTATT, NC_ERANGE, NCError, NCTypeError, \
    NCValueError, NC_EBADTYPE, check
from ._lib import ffi, lib
from ._types import NC_CHAR, NC_INT, NC_INT64, NC_TO_NP, nc_type_of, \
    to_nc_type

_I32 = np.iinfo(np.int32)


def _att_array(value, xtype):
    """(nc_type, 1-d array in that type's C layout) for a non-text value."""
    given_numpy = isinstance(value, (np.ndarray, np.generic))
    arr = np.asarray(value)
    if arr.ndim > 1:
        raise NCValueError(NC_EBADTYPE, "attribute values are 1-d")
    arr = arr.reshape(-1)
    if arr.dtype.kind not in "biuf":
        raise NCTypeError(NC_EBADTYPE, "no netCDF attribute type for %s"
                          % arr.dtype)
    if arr.dtype.kind == "b":
        arr = arr.astype("i1")
    if xtype is None:
        nc = nc_type_of(arr.dtype)
        # Python ints arrive as int64: store them as NC_INT where they fit,
        # as netCDF4-python does, so classic files can hold them.
        if not given_numpy and nc == NC_INT64 and (
                arr.size == 0 or (arr.min() >= _I32.min and
                                  arr.max() <= _I32.max)):
            nc = NC_INT
    else:
        nc = to_nc_type(xtype)
    if nc is None or nc == NC_CHAR:
        raise NCTypeError(NC_EBADTYPE, "no netCDF attribute type for %s"
                          % arr.dtype)
    dt = NC_TO_NP[nc][0]
    if arr.dtype != dt:
        with np.errstate(all="ignore"):
            conv = arr.astype(dt)
        same = conv.astype(arr.dtype) == arr
        if arr.dtype.kind == "f" and dt.kind == "f":
            same = same | np.isnan(arr) | np.isinf(arr)
        if dt.kind in "iu" and arr.dtype.kind == "f":
            same = np.isfinite(arr) & (arr >= np.iinfo(dt).min) & \
                (arr <= np.iinfo(dt).max)
        if not np.all(same):
            raise NCError(NC_ERANGE)
        arr = conv
    return nc, np.ascontiguousarray(arr, dtype=dt.newbyteorder("="))


class AttributeMixin:
    """put_att/get_att/del_att/ncattrs and attribute-style access, for an
    object with _ncid and _varid (NC_GLOBAL = -1 for the file)."""

    _PRIVATE = ("_ncid", "_varid")    # the object's own Python state

    def put_att(self, name, value, xtype=None):
        """Write attribute `name`: str/bytes become NC_CHAR, numbers and
        sequences the matching type (Python ints NC_INT where they fit,
        floats NC_DOUBLE), or `xtype` when given."""
        bname = name.encode("utf-8")
        value = _text_value(value)
        if isinstance(value, str):
            value = value.encode("utf-8")
        if isinstance(value, (bytes, bytearray)) and \
                (xtype is None or to_nc_type(xtype) == NC_CHAR):
            check(lib.ncmpi_put_att_text(self._ncid, self._varid, bname,
                                         len(value), bytes(value)))
            return
        nc, arr = _att_array(value, xtype)
        buf = ffi.from_buffer(arr) if arr.size else ffi.NULL
        check(lib.ncmpi_put_att(self._ncid, self._varid, bname, nc,
                                arr.size, buf))

    def get_att(self, name, encoding="utf-8"):
        """The attribute's value: str for NC_CHAR (decoded with `encoding`;
        bytes when it is 'bytes' or None), a numpy scalar for one value,
        else a 1-d numpy array of the attribute's type."""
        bname = name.encode("utf-8")
        xtype = ffi.new("int *")
        n = ffi.new("MPI_Offset *")
        check(lib.ncmpi_inq_att(self._ncid, self._varid, bname, xtype, n))
        if xtype[0] == NC_CHAR:
            buf = ffi.new("char[]", n[0] + 1)
            check(lib.ncmpi_get_att_text(self._ncid, self._varid, bname, buf))
            raw = ffi.buffer(buf, n[0])[:]
            if encoding in (None, "bytes", "none"):
                return raw
            return raw.decode(encoding, "replace")
        if xtype[0] not in NC_TO_NP:
            raise NCError(NC_EBADTYPE)
        arr = np.empty(max(n[0], 1), dtype=NC_TO_NP[xtype[0]][0])
        check(lib.ncmpi_get_att(self._ncid, self._varid, bname,
                                ffi.from_buffer(arr)))
        arr = arr[:n[0]]
        return arr[0] if n[0] == 1 else arr

    def del_att(self, name):
        check(lib.ncmpi_del_att(self._ncid, self._varid,
                                name.encode("utf-8")))

    def rename_att(self, oldname, newname):
        check(lib.ncmpi_rename_att(self._ncid, self._varid,
                                   oldname.encode("utf-8"),
                                   newname.encode("utf-8")))

    def ncattrs(self):
        """Names of the attributes, in file order."""
        n = self._natts()
        name = ffi.new("char[]", 257)
        out = []
        for i in range(n):
            check(lib.ncmpi_inq_attname(self._ncid, self._varid, i, name))
            out.append(ffi.string(name).decode("utf-8"))
        return out

    @property
    def __dict__(self):
        """The netCDF attributes as {name: value} (netCDF4-python's)."""
        return {name: self.get_att(name) for name in self.ncattrs()}

    def renameAttribute(self, oldname, newname):
        self.rename_att(oldname, newname)

    def __getattr__(self, name):
        # Only reached for names that are not ordinary attributes; the
        # object's own state must never be looked up in the file.
        if name.startswith("__") or name in type(self)._PRIVATE:
            raise AttributeError(name)
        try:
            return self.get_att(name)
        except NCError as e:
            if e.code == NC_ENOTATT:
                raise AttributeError(name) from None
            raise

    # Every other name assigned is a netCDF attribute (v._FillValue = x, or
    # f.title = "..."), so that a Python attribute never hides one.
    def __setattr__(self, name, value):
        if name in type(self)._PRIVATE or _is_property(type(self), name):
            object.__setattr__(self, name, value)
        else:
            self.put_att(name, value)

    def __delattr__(self, name):
        if name in type(self)._PRIVATE or _is_property(type(self), name):
            object.__delattr__(self, name)
        else:
            self.del_att(name)


def _is_property(cls, name):
    return isinstance(getattr(cls, name, None), property)


def _text_value(value):
    """str or bytes for a text value given as a numpy string scalar or an
    array of strings or chars (joined), else the value unchanged."""
    if isinstance(value, (np.ndarray, np.generic)) and \
            value.dtype.kind in "SU":
        if value.dtype.kind == "U":
            return "".join(np.atleast_1d(value).reshape(-1).tolist())
        return b"".join(np.atleast_1d(value).reshape(-1).tolist())
    return value
