"""netCDF external types and their numpy / C counterparts."""
import numpy as np

NC_BYTE, NC_CHAR, NC_SHORT, NC_INT, NC_FLOAT, NC_DOUBLE = 1, 2, 3, 4, 5, 6
NC_UBYTE, NC_USHORT, NC_UINT, NC_INT64, NC_UINT64 = 7, 8, 9, 10, 11

# nc_type -> (numpy dtype, suffix of the typed C functions)
NC_TO_NP = {
    NC_BYTE: (np.dtype("i1"), "schar"),
    NC_CHAR: (np.dtype("S1"), "text"),
    NC_SHORT: (np.dtype("i2"), "short"),
    NC_INT: (np.dtype("i4"), "int"),
    NC_FLOAT: (np.dtype("f4"), "float"),
    NC_DOUBLE: (np.dtype("f8"), "double"),
    NC_UBYTE: (np.dtype("u1"), "uchar"),
    NC_USHORT: (np.dtype("u2"), "ushort"),
    NC_UINT: (np.dtype("u4"), "uint"),
    NC_INT64: (np.dtype("i8"), "longlong"),
    NC_UINT64: (np.dtype("u8"), "ulonglong"),
}
# numpy kind+size -> nc_type, for choosing the typed function a buffer of
# that dtype goes through.
_NP_TO_NC = {(dt.kind, dt.itemsize): nc for nc, (dt, _) in NC_TO_NP.items()}

# The default fill value of each type (pnetcdf.h's NC_FILL_*).
NC_FILL_BYTE, NC_FILL_CHAR, NC_FILL_SHORT, NC_FILL_INT = -127, b"\x00", \
    -32767, -2147483647
NC_FILL_FLOAT = NC_FILL_DOUBLE = 9.9692099683868690e+36
NC_FILL_UBYTE, NC_FILL_USHORT, NC_FILL_UINT = 255, 65535, 4294967295
NC_FILL_INT64, NC_FILL_UINT64 = -9223372036854775806, 18446744073709551614
DEFAULT_FILL = {
    NC_BYTE: NC_FILL_BYTE, NC_CHAR: NC_FILL_CHAR, NC_SHORT: NC_FILL_SHORT,
    NC_INT: NC_FILL_INT, NC_FLOAT: NC_FILL_FLOAT, NC_DOUBLE: NC_FILL_DOUBLE,
    NC_UBYTE: NC_FILL_UBYTE, NC_USHORT: NC_FILL_USHORT, NC_UINT: NC_FILL_UINT,
    NC_INT64: NC_FILL_INT64, NC_UINT64: NC_FILL_UINT64}
# numpy type string -> default fill value, as netCDF4-python names it.
default_fillvals = {NC_TO_NP[nc][0].str[1:]: v
                    for nc, v in DEFAULT_FILL.items()}

NAMES = {"NC_BYTE": NC_BYTE, "NC_CHAR": NC_CHAR, "NC_SHORT": NC_SHORT,
         "NC_INT": NC_INT, "NC_FLOAT": NC_FLOAT, "NC_DOUBLE": NC_DOUBLE,
         "NC_UBYTE": NC_UBYTE, "NC_USHORT": NC_USHORT, "NC_UINT": NC_UINT,
         "NC_INT64": NC_INT64, "NC_UINT64": NC_UINT64}


def nc_type_of(dtype):
    """The nc_type whose C type matches numpy `dtype`, or None."""
    dt = np.dtype(dtype)
    if dt.kind in "SU" or dt.kind == "V":
        return NC_CHAR if dt.kind == "S" and dt.itemsize == 1 else None
    return _NP_TO_NC.get((dt.kind, dt.itemsize))


def to_nc_type(spec):
    """nc_type from an int, a name ('NC_INT', 'i4', 'f8', 'S1', 'c') or a
    numpy dtype; TypeError when it names none of the ten."""
    if isinstance(spec, (int, np.integer)) and not isinstance(spec, bool):
        if int(spec) in NC_TO_NP:
            return int(spec)
        raise TypeError("unknown nc_type %d" % spec)
    if isinstance(spec, str):
        if spec.upper() in NAMES:
            return NAMES[spec.upper()]
        if spec == "c":
            return NC_CHAR
    try:
        nc = nc_type_of(np.dtype(spec))
    except TypeError:
        nc = None
    if nc is None:
        raise TypeError("no netCDF classic type for %r" % (spec,))
    return nc
