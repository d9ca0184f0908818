"""PnetCDF-Python's module on ncpario: a script written for PnetCDF-Python
runs with `import pnetcdf` changed to `import ncpario.pnetcdf as pnetcdf`
(or `from pnetcdf import X` to `from ncpario.pnetcdf import X`).

Everything is ncpario's own; the one difference kept here is PnetCDF-
Python's default mode of File, 'w' (ncpario.File defaults to 'r').
"""
from . import *  # noqa: F401,F403
from . import __all__, __version__  # noqa: F401
from . import File as _File


class File(_File):
    __doc__ = _File.__doc__

    def __init__(self, filename, mode="w", format=None, comm=None,
                 info=None):
        super().__init__(filename, mode, format, comm, info)


Dataset = File
