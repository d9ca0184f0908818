"""Files: modes and formats, context manager, hints, profile, and
communicators."""
import os

import numpy as np
import pytest
from mpi4py import MPI

import ncpario
from conftest import COMM


@pytest.mark.parametrize("fmt,name", [(None, "CLASSIC"),
                                      ("CLASSIC", "CLASSIC"),
                                      ("64BIT_OFFSET", "64BIT_OFFSET"),
                                      ("NC_64BIT_DATA", "64BIT_DATA")])
def test_formats(shared_dir, fmt, name):
    path = os.path.join(shared_dir, "f.nc")
    with ncpario.File(path, "w", format=fmt) as f:
        assert f.file_format == name
    with ncpario.File(path, "r") as f:
        assert f.file_format == name


def test_context_manager_closes(shared_dir):
    path = os.path.join(shared_dir, "cm.nc")
    with ncpario.File(path, "w") as f:
        f.def_dim("x", 2)
    assert not f.isopen
    with pytest.raises(KeyError):
        with ncpario.File(path, "r") as g:
            g.variables["nope"]
    assert not g.isopen


def test_append_mode(shared_dir):
    path = os.path.join(shared_dir, "ap.nc")
    with ncpario.File(path, "w") as f:
        f.def_dim("x", 3)
        f.def_var("v", "i4", ("x",))
    with ncpario.File(path, "a") as f:
        f["v"][:] = [1, 2, 3]
        f.redef()
        f.history = "appended"
        f.enddef()
    with ncpario.File(path, "r+") as f:
        assert f["v"][:].tolist() == [1, 2, 3] and f.history == "appended"


def test_hints_dict(shared_dir):
    path = os.path.join(shared_dir, "h.nc")
    with ncpario.File(path, "w", info={"nc_header_align_size": 1024,
                                       "nc_var_align_size": "512"}) as f:
        f.def_dim("x", 3)
        v = f.def_var("v", "i4", ("x",))
        f.enddef()
        v[:] = [1, 2, 3]
        hints = f.hints()
        assert hints["nc_header_align_size"] == "1024"
        assert hints["nc_var_align_size"] == "512"
        info = f.inq_info()                 # an MPI.Info, as PnetCDF-Python
        assert isinstance(info, MPI.Info)
        assert info.Get("nc_var_align_size") == "512"
        assert set(info.keys()) == set(hints)
        info.Free()
    # the header's extent is the 1024 asked for, v starts there (a multiple
    # of 512) and its three ints end the file
    assert os.path.getsize(path) == 1024 + 3 * 4
    mi = MPI.Info.Create()
    mi.Set("nc_header_align_size", "2048")
    with ncpario.File(path, "w", info=mi) as f:
        f.enddef()
        assert f.hints()["nc_header_align_size"] == "2048"
    mi.Free()


def test_profile(shared_dir):
    path = os.path.join(shared_dir, "pr.nc")
    n, r = COMM.size, COMM.rank
    with ncpario.File(path, "w") as f:
        f.def_dim("x", 4 * n)
        v = f.def_var("v", "f8", ("x",))
        f.enddef()
        v[4 * r:4 * r + 4] = np.ones(4)
        p = f.profile()
        assert set(p) >= {"mpiio_write_calls", "bytes_written",
                          "time_wait", "extents_posted"}
        # one collective put of one contiguous run of 4 doubles a rank; the
        # header written at enddef is not data, so not counted
        assert p["extents_posted"] == 1 and p["extents_issued"] == 1
        assert p["mpiio_write_calls"] == 1
        assert p["bytes_written"] == 32
        assert isinstance(p["time_wait"], float)
        total = COMM.allreduce(p["bytes_written"])
        assert total == 32 * n


def test_write_behind(shared_dir):
    """Puts return once staged; flush_wait puts them in the file."""
    path = os.path.join(shared_dir, "wb.nc")
    n, r = COMM.size, COMM.rank
    with ncpario.File(path, "w", info={"nc_write_behind": "enable",
                                       "nc_write_behind_size": 4096}) as f:
        f.def_dim("t", None)
        f.def_dim("x", 1024 * n)
        v = f.def_var("v", "f8", ("t", "x"))
        f.enddef()
        for t in range(3):
            v[t, 1024 * r:1024 * r + 1024] = np.arange(1024) + t + r
        f.flush_wait()
        p = f.profile()
        assert 0 < p["behind_peak_staged"] <= 4096 or \
            p["behind_jobs"] == 0                     # a rank that sent all
        assert COMM.allreduce(p["behind_bytes"]) == 3 * 1024 * 8 * n
        assert f.hints()["nc_write_behind"] == "enable"
    COMM.Barrier()
    with ncpario.File(path, "r") as f:
        got = f.variables["v"][:]
        assert got.shape == (3, 1024 * n)
        for t in range(3):
            for q in range(n):
                assert (got[t, 1024 * q:1024 * q + 1024] ==
                        np.arange(1024) + t + q).all()


def test_comm_self(shared_dir):
    """A file of one rank's own, on COMM_SELF."""
    path = os.path.join(shared_dir, "self.%d.nc" % COMM.rank)
    with ncpario.File(path, "w", format="CDF5", comm=MPI.COMM_SELF) as f:
        f.def_dim("x", 2)
        v = f.def_var("v", "u2", ("x",))
        f.enddef()
        v[:] = [COMM.rank, 7]
    with ncpario.File(path, "r", comm=MPI.COMM_SELF) as f:
        assert f["v"][:].tolist() == [COMM.rank, 7]


def test_fill_mode(shared_dir):
    path = os.path.join(shared_dir, "fill.nc")
    with ncpario.File(path, "w") as f:
        assert f.set_fill(ncpario.NC_FILL) == ncpario.NC_NOFILL
        f.def_dim("x", 3)
        v = f.def_var("v", "i2", ("x",))
        f.enddef()
        assert v[:].tolist() == [-32767] * 3


def test_version():
    assert ncpario.libversion() == ncpario.__version__
