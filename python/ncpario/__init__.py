"""ncpario: parallel netCDF classic I/O from Python over libncpario.

    from mpi4py import MPI
    import numpy as np
    import ncpario

    with ncpario.File("out.nc", "w", format="64BIT_DATA") as f:
        f.def_dim("x", 100)
        v = f.def_var("v", ncpario.NC_DOUBLE, ("x",))
        f.enddef()
        v[:] = np.arange(100.0)       # collective write

Names follow PnetCDF-Python (File, def_dim, def_var, put_var_all, ...);
docs/PYTHON.md in the source tree is the reference.
"""
from ._errors import NCError, NCIndexError, NCTypeError, NCValueError, \
    strerror
from ._file import (NC_64BIT_DATA, NC_64BIT_OFFSET, NC_FILL, NC_GLOBAL,
                    NC_NOFILL, NC_REQ_ALL, NC_UNLIMITED, Dimension, File)
from ._lib import LIBPATH, ffi, lib
from ._types import (NC_BYTE, NC_CHAR, NC_DOUBLE, NC_FLOAT, NC_INT,
                     NC_INT64, NC_SHORT, NC_UBYTE, NC_UINT, NC_UINT64,
                     NC_USHORT)
from ._variable import Variable

__version__ = "0.1.0"


def libversion():
    """The version string of the libncpario actually loaded."""
    return ffi.string(lib.ncpario_version()).decode()


__all__ = ["File", "Dimension", "Variable", "NCError", "NCIndexError",
           "NCTypeError", "NCValueError", "strerror", "libversion",
           "LIBPATH", "NC_BYTE", "NC_CHAR", "NC_SHORT", "NC_INT", "NC_FLOAT",
           "NC_DOUBLE", "NC_UBYTE", "NC_USHORT", "NC_UINT", "NC_INT64",
           "NC_UINT64", "NC_64BIT_DATA", "NC_64BIT_OFFSET", "NC_GLOBAL",
           "NC_UNLIMITED", "NC_REQ_ALL", "NC_FILL", "NC_NOFILL"]
