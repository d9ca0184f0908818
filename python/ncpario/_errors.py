"""Exceptions: every failing call raises NCError with the NC_* code."""
from ._lib import ffi, lib

NC_NOERR = 0
NC_EINVAL = -36
NC_EINVALCOORDS = -40
NC_ENOTATT = -43
NC_EBADTYPE = -45
NC_ECHAR = -56
NC_EEDGE = -57
NC_ESTRIDE = -58
NC_ERANGE = -60


def strerror(code):
    """The library's message for an NC_* status code."""
    text = ffi.string(lib.ncmpi_strerror(int(code)))
    return text.decode("utf-8", "replace")


class NCError(RuntimeError):
    """A netCDF status other than NC_NOERR; .code is the NC_* value."""

    def __init__(self, code, message=None):
        self.code = int(code)
        self.message = message or strerror(code)
        super().__init__("%s (NC code %d)" % (self.message, self.code))


class NCIndexError(NCError, IndexError):
    """Coordinates or counts outside a variable (checked before C)."""


class NCTypeError(NCError, TypeError):
    """A value whose type netCDF cannot store (checked before C)."""


class NCValueError(NCError, ValueError):
    """A value of the wrong size or shape (checked before C)."""


class NCOSError(NCError, OSError):
    """Opening or creating a file failed: also an OSError, with errno (the
    NC_* code), strerror and filename set, as PnetCDF-Python raises."""

    def __init__(self, code, filename):
        super().__init__(code)
        self.errno, self.strerror = self.code, self.message
        self.filename = filename

    def __str__(self):
        return "%s (NC code %d): %r" % (self.message, self.code,
                                        self.filename)


def check(rc):
    if rc != 0:
        raise NCError(rc)
