"""ncpario: parallel netCDF classic I/O from Python over libncpario.

    from mpi4py import MPI
    import numpy as np
    import ncpario

    with ncpario.File("out.nc", "w", format="64BIT_DATA") as f:
        f.def_dim("x", 100)
        v = f.def_var("v", ncpario.NC_DOUBLE, ("x",))
        f.enddef()
        v[:] = np.arange(100.0)       # collective write

Names and signatures follow PnetCDF-Python (File, def_dim, def_var,
put_var_all, ...); a PnetCDF-Python script runs with its import changed
to `import ncpario.pnetcdf as pnetcdf`.  docs/PYTHON.md in the source
tree is the reference.
"""
from ._consts import (NC_64BIT_DATA, NC_64BIT_OFFSET, NC_BP,
                      NC_CLASSIC_MODEL, NC_CLOBBER, NC_FILL, NC_FORMAT_64BIT,
                      NC_FORMAT_64BIT_DATA, NC_FORMAT_64BIT_OFFSET,
                      NC_FORMAT_BP, NC_FORMAT_CDF2, NC_FORMAT_CDF5,
                      NC_FORMAT_CLASSIC, NC_FORMAT_NETCDF4,
                      NC_FORMAT_NETCDF4_CLASSIC, NC_GET_REQ_ALL, NC_GLOBAL,
                      NC_NETCDF4, NC_NOCLOBBER, NC_NOFILL, NC_NOWRITE,
                      NC_PUT_REQ_ALL, NC_REQ_ALL, NC_REQ_NULL, NC_UNLIMITED,
                      NC_WRITE)
from ._errors import (NCError, NCIndexError, NCOSError, NCTypeError,
                      NCValueError, strerror)
from ._file import Dimension, File
from ._lib import LIBPATH, ffi, lib
from ._types import (NC_BYTE, NC_CHAR, NC_DOUBLE, NC_FILL_BYTE, NC_FILL_CHAR,
                     NC_FILL_DOUBLE, NC_FILL_FLOAT, NC_FILL_INT,
                     NC_FILL_INT64, NC_FILL_SHORT, NC_FILL_UBYTE,
                     NC_FILL_UINT, NC_FILL_UINT64, NC_FILL_USHORT, NC_FLOAT,
                     NC_INT, NC_INT64, NC_SHORT, NC_UBYTE, NC_UINT,
                     NC_UINT64, NC_USHORT, default_fillvals)
from ._utils import (chartostring, inq_clibvers, inq_default_format,
                     inq_file_format, inq_files_opened, inq_malloc_max_size,
                     inq_malloc_size, set_default_format, strerrno,
                     stringtochar)
from ._variable import Variable

__version__ = "0.1.0"

Dataset = File


def libversion():
    """The version string of the libncpario actually loaded."""
    return ffi.string(lib.ncpario_version()).decode()


def libver():
    """This package's version string."""
    return __version__


__all__ = [n for n in dir() if n.startswith("NC") or n in (
    "File", "Dataset", "Dimension", "Variable", "strerror", "strerrno",
    "libversion", "libver", "inq_clibvers", "LIBPATH", "chartostring",
    "stringtochar", "set_default_format", "inq_default_format",
    "inq_file_format", "inq_files_opened", "inq_malloc_size",
    "inq_malloc_max_size", "default_fillvals", "__version__")]
