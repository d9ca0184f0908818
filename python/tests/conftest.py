"""Shared fixtures for the tests, which run under mpirun: every rank runs
every test, and a test is collective unless it says otherwise.

A failing assertion on one rank would leave the others waiting in the
next collective call, so the first failure prints its report and aborts
the whole MPI job: mpirun then exits nonzero and the ctest fails.
"""
import os
import shutil
import sys
import tempfile

import numpy as np
import pytest
from mpi4py import MPI

import ncpario

COMM = MPI.COMM_WORLD

# (nc_type, numpy dtype, name) of the eleven types.
TYPES = [
    (ncpario.NC_BYTE, np.dtype("i1"), "byte"),
    (ncpario.NC_CHAR, np.dtype("S1"), "char"),
    (ncpario.NC_SHORT, np.dtype("i2"), "short"),
    (ncpario.NC_INT, np.dtype("i4"), "int"),
    (ncpario.NC_FLOAT, np.dtype("f4"), "float"),
    (ncpario.NC_DOUBLE, np.dtype("f8"), "double"),
    (ncpario.NC_UBYTE, np.dtype("u1"), "ubyte"),
    (ncpario.NC_USHORT, np.dtype("u2"), "ushort"),
    (ncpario.NC_UINT, np.dtype("u4"), "uint"),
    (ncpario.NC_INT64, np.dtype("i8"), "int64"),
    (ncpario.NC_UINT64, np.dtype("u8"), "uint64"),
]


def values(dtype, g, k):
    """The value every test expects at global index array g of variable
    number k (the C twin computes the same)."""
    g = np.asarray(g, dtype=np.int64)
    if dtype == np.dtype("S1"):
        return (ord("a") + (g + k) % 26).astype("u1").view("S1")
    return ((g + 7 * k) % 100).astype(dtype)


def pytest_runtest_logreport(report):
    if report.failed:
        sys.stderr.write("\n[rank %d] FAILED %s\n%s\n" % (
            COMM.rank, report.nodeid, report.longreprtext))
        sys.stderr.flush()
        COMM.Abort(1)


@pytest.fixture
def comm():
    return COMM


@pytest.fixture
def shared_dir():
    """A directory every rank sees, removed after the test."""
    base = os.environ.get("NCPARIO_TEST_DIR") or None
    path = tempfile.mkdtemp(prefix="ncpario-py.", dir=base) \
        if COMM.rank == 0 else None
    path = COMM.bcast(path, root=0)
    yield path
    COMM.Barrier()
    if COMM.rank == 0:
        shutil.rmtree(path, ignore_errors=True)
