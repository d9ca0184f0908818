"""Every classic/CDF-5 type through slicing and the explicit calls, fixed
and record variables, and attributes of every type."""
import os

import numpy as np
import pytest

import ncpario
from conftest import COMM, TYPES, values

IDS = [t[2] for t in TYPES]


@pytest.mark.parametrize("nc,dt,name", TYPES, ids=IDS)
def test_slicing_every_type(shared_dir, nc, dt, name):
    path = os.path.join(shared_dir, "t.nc")
    n, r = COMM.size, COMM.rank
    with ncpario.File(path, "w", format="64BIT_DATA") as f:
        f.def_dim("t", None)
        f.def_dim("y", n)
        f.def_dim("x", 4)
        fix = f.def_var("fix", nc, ("y", "x"))
        rec = f.def_var("rec", nc, ("t", "y", "x"))
        sca = f.def_var("sca", nc)
        f.enddef()
        assert fix.dtype == dt and rec.dtype == dt and sca.ndim == 0
        fix[r, :] = values(dt, r * 4 + np.arange(4), 0)
        rec[0:2, r] = values(dt, np.arange(8) + 10 * r, 1).reshape(2, 4)
        sca[...] = values(dt, [5], 2).reshape(())
    with ncpario.File(path, "r") as f:
        fix, rec, sca = f["fix"], f["rec"], f["sca"]
        got = fix[...]
        assert got.dtype == dt and got.shape == (n, 4)
        np.testing.assert_array_equal(got.reshape(-1),
                                      values(dt, np.arange(4 * n), 0))
        assert rec.shape == (2, n, 4)
        np.testing.assert_array_equal(
            rec[:, r], values(dt, np.arange(8) + 10 * r, 1).reshape(2, 4))
        np.testing.assert_array_equal(rec[1, r, 1::2],
                                      values(dt, [5 + 10 * r, 7 + 10 * r],
                                             1))
        np.testing.assert_array_equal(rec[-1, -1, -1],
                                      values(dt, [7 + 10 * (n - 1)], 1)[0])
        assert sca[...] == values(dt, [5], 2)[0]
        assert sca.get_var_all().shape == ()


@pytest.mark.parametrize("nc,dt,name", TYPES, ids=IDS)
def test_attribute_every_type(shared_dir, nc, dt, name):
    path = os.path.join(shared_dir, "a.nc")
    with ncpario.File(path, "w", format="CDF5") as f:
        f.def_dim("x", 1)
        v = f.def_var("v", nc, ("x",))
        if nc == ncpario.NC_CHAR:
            v.put_att("a", "hello")
            f.put_att("g", b"bytes")
        else:
            v.put_att("a", values(dt, [1, 2, 3], 0), xtype=nc)
            f.put_att("g", np.array([4], dtype=dt))
        f.enddef()
    with ncpario.File(path, "r") as f:
        v = f["v"]
        if nc == ncpario.NC_CHAR:
            assert v.a == "hello" and f.g == "bytes"
        else:
            assert v.a.dtype == dt
            assert v.a.tolist() == [1, 2, 3]
            assert f.g == 4 and f.g.dtype == dt


def test_python_attribute_values(shared_dir):
    path = os.path.join(shared_dir, "p.nc")
    with ncpario.File(path, "w") as f:       # CDF-1: no 64-bit ints
        f.i = 3
        f.il = [1, 2, 3]
        f.fl = 2.5
        f.s = "text é"
        f.empty = ""
        f.b = True
        f.put_att("sh", [1, 2], xtype="NC_SHORT")
        f.put_att("f4", 1.5, xtype=np.float32)
        with pytest.raises(ncpario.NCError) as e:
            f.put_att("big", 2 ** 40, xtype=ncpario.NC_SHORT)
        assert e.value.code == ncpario._errors.NC_ERANGE
        with pytest.raises(TypeError):
            f.put_att("c", 1j)
        f.enddef()
    with ncpario.File(path, "r") as f:
        assert f.i == 3 and f.i.dtype == np.int32
        assert f.il.tolist() == [1, 2, 3] and f.il.dtype == np.int32
        assert f.fl == 2.5 and f.fl.dtype == np.float64
        assert f.s == "text é" and f.empty == ""
        assert f.b == 1 and f.b.dtype == np.int8
        assert f.sh.dtype == np.int16 and f.f4.dtype == np.float32
        assert f.ncattrs() == ["i", "il", "fl", "s", "empty", "b", "sh",
                               "f4"]
        assert not hasattr(f, "missing")
        with pytest.raises(ncpario.NCError) as e:
            f.get_att("missing")
        assert e.value.code == ncpario._errors.NC_ENOTATT


def test_attribute_edit(shared_dir):
    path = os.path.join(shared_dir, "e.nc")
    with ncpario.File(path, "w") as f:
        f.a = 1
        f.b = 2
        del f.a
        f.rename_att("b", "c")
        f.enddef()
        assert f.ncattrs() == ["c"]
        f.redef()
        f.d = "x"
        f.enddef()
        assert f.d == "x"


def test_conversion_and_range(shared_dir):
    """Buffers of another numeric type are converted by the library, which
    reports values that do not fit as NC_ERANGE."""
    path = os.path.join(shared_dir, "c.nc")
    with ncpario.File(path, "w", format="CDF5") as f:
        f.def_dim("x", 4)
        b = f.def_var("b", ncpario.NC_BYTE, ("x",))
        d = f.def_var("d", ncpario.NC_DOUBLE, ("x",))
        f.enddef()
        d[:] = np.arange(4, dtype=np.int16)
        b[:] = [1.0, 2.0, 3.0, 4.0]
        np.testing.assert_array_equal(d[:], [0.0, 1.0, 2.0, 3.0])
        assert d[:].dtype == np.float64
        with pytest.raises(ncpario.NCError) as e:
            b[:] = np.array([1, 2, 300, 4], dtype=np.int32)
        assert e.value.code == ncpario._errors.NC_ERANGE
        out = np.empty(4, dtype=np.float32)
        assert b.get_var_all(out) is out
        assert out[0] == 1.0
