"""Every access form: whole, element, subarray, strided, mapped, varn,
independent; the record dimension growing; slicing rules."""
import os

import numpy as np
import pytest

import ncpario
from conftest import COMM


@pytest.fixture
def grid(shared_dir):
    """A CDF-2 file with a (rows = 2 per rank, 5) double variable and a
    record variable, filled with 100 * row + column."""
    path = os.path.join(shared_dir, "g.nc")
    n, r = COMM.size, COMM.rank
    f = ncpario.File(path, "w", format="64BIT_OFFSET")
    f.def_dim("t", 0)
    f.def_dim("y", 2 * n)
    f.def_dim("x", 5)
    v = f.def_var("v", "f8", ("y", "x"))
    w = f.def_var("w", "i4", ("t", "y", "x"))
    f.enddef()
    full = 100.0 * np.arange(2 * n)[:, None] + np.arange(5)[None, :]
    v.put_var_all(full[2 * r:2 * r + 2], start=(2 * r, 0), count=(2, 5))
    yield f, v, w, full
    f.close()


def test_whole_and_element(grid):
    f, v, w, full = grid
    np.testing.assert_array_equal(v.get_var_all(), full)
    assert v.get_var_all(start=(1, 3)) == full[1, 3]
    # put_var_all without start: the whole variable (same on every rank)
    v.put_var_all(full * 2)
    np.testing.assert_array_equal(v[:], full * 2)
    v.put_var_all(np.float64(-1), start=(0, 0))
    assert v[0, 0] == -1


def test_strided_and_mapped(grid):
    f, v, w, full = grid
    n = COMM.size
    np.testing.assert_array_equal(
        v.get_var_all(start=(0, 0), count=(n, 3), stride=(2, 2)),
        full[::2, ::2])
    np.testing.assert_array_equal(v[::2, 1::3], full[::2, 1::3])
    t = np.empty((5, 2 * n))
    v.get_var_all(t.reshape(-1), start=(0, 0), count=(2 * n, 5),
                  imap=(1, 2 * n))
    np.testing.assert_array_equal(t, full.T)


def test_varn(grid):
    f, v, w, full = grid
    r = COMM.rank
    got = v.get_varn_all(starts=[(0, 0), (2 * r + 1, 2)],
                         counts=[(1, 5), (1, 3)])
    np.testing.assert_array_equal(got, np.concatenate(
        [full[0], full[2 * r + 1, 2:]]))
    v.put_varn_all(np.array([-1.0, -2.0]), starts=[(2 * r, 0), (2 * r, 4)])
    assert v[2 * r, 0] == -1 and v[2 * r, 4] == -2
    out = np.empty(2)
    assert v.get_varn_all(out, starts=[(2 * r, 0), (2 * r, 4)]) is out


def test_independent(grid):
    f, v, w, full = grid
    r = COMM.rank
    f.begin_indep()
    v.put_var(np.zeros(5), start=(2 * r, 0), count=(1, 5))
    row = v.get_var(start=(2 * r, 0), count=(1, 5))
    v[2 * r + 1, :] = 7.0               # slicing follows the data mode
    got = v[2 * r + 1]
    f.end_indep()
    np.testing.assert_array_equal(row, np.zeros((1, 5)))
    np.testing.assert_array_equal(got, np.full(5, 7.0))


def test_records_grow(grid):
    f, v, w, full = grid
    n, r = COMM.size, COMM.rank
    assert w.shape == (0, 2 * n, 5)
    w[0, 2 * r:2 * r + 2, :] = r
    assert w.shape == (1, 2 * n, 5)
    w[1:, 2 * r:2 * r + 2] = np.full((3, 2, 5), r + 10)  # open slice
    assert w.shape == (4, 2 * n, 5)
    w.put_var_all(np.arange(10, dtype="i4").reshape(1, 2, 5),
                  start=(5, 2 * r, 0), count=(1, 2, 5))
    assert w.shape == (6, 2 * n, 5) and len(w) == 6
    assert f.dimensions["t"].isunlimited() and len(f.dimensions["t"]) == 6
    np.testing.assert_array_equal(w[1:4, 2 * r], np.full((3, 5), r + 10))
    np.testing.assert_array_equal(w[5, 2 * r + 1], np.arange(5, 10))
    # whole-variable write: records from a full-rank value
    w.put_var_all(np.ones((6, 2 * n, 5), dtype="i4"))
    assert int(w[...].sum()) == 6 * 2 * n * 5


def test_slicing_shapes(grid):
    f, v, w, full = grid
    assert v[1].shape == (5,)
    assert v[1, 2].shape == ()
    assert v[..., 2].shape == (2 * COMM.size,)
    assert v[-1, -2] == full[-1, -2]
    assert v[0:0].shape == (0, 5)
    assert v[10 ** 6:].shape == (0, 5)
    v[:, :] = 3                         # a scalar broadcasts
    np.testing.assert_array_equal(v[...], np.full(full.shape, 3.0))
    v[:, 0] = np.arange(2 * COMM.size)  # a column (strided in memory)
    np.testing.assert_array_equal(v[:, 0], np.arange(2 * COMM.size))


def test_metadata(grid):
    f, v, w, full = grid
    assert v.name == "v" and v.dimensions == ("y", "x")
    assert w.dimensions == ("t", "y", "x") and w.xtype == ncpario.NC_INT
    assert w.datatype == np.dtype("i4") == w.dtype
    assert list(f.variables) == ["v", "w"]
    assert list(f.dimensions) == ["t", "y", "x"]
    assert f.dimensions["x"].size == 5
    assert f.file_format == "64BIT_OFFSET"
    assert "v" in repr(v)


def test_zero_copy_and_no_modification(grid):
    """A contiguous array of the variable's type goes to C as it is (the
    library reads it in place), and the caller's array is left alone."""
    f, v, w, full = grid
    r = COMM.rank
    a = np.ascontiguousarray(full[2 * r:2 * r + 2])
    keep = a.copy()
    arr, _ = v._put_array(a)
    assert arr is a or np.shares_memory(arr, a)
    v.put_var_all(a, start=(2 * r, 0), count=(2, 5))
    np.testing.assert_array_equal(a, keep)


def test_pnetcdf_python_forms(grid):
    """PnetCDF-Python's positional orders: (data, start, count, stride,
    imap) and (data, num, starts, counts) for varn, num taking the first
    num subarrays."""
    f, v, w, full = grid
    r = COMM.rank
    starts = [(2 * r, 0), (2 * r, 3), (2 * r + 1, 0)]
    counts = [(1, 1), (1, 2), (1, 5)]
    v.put_varn_all(np.array([-5.0, -6.0, -7.0]), 2, starts, counts)
    assert v[2 * r, 0] == -5 and v[2 * r, 3:].tolist() == [-6, -7]
    assert v[2 * r + 1].tolist() == full[2 * r + 1].tolist()
    got = v.get_varn_all(None, 2, starts, counts)
    assert got.tolist() == [-5, -6, -7]
    # imap is the fifth argument: a transposed 2x2 corner.
    out = np.zeros((2, 2))
    v.get_var_all(out, (2 * r, 0), (2, 2), (1, 1), (1, 2))
    assert out.tolist() == [[-5.0, full[2 * r + 1, 0]], [full[2 * r, 1],
                                                        full[2 * r + 1, 1]]]


def test_fill_value(shared_dir):
    path = os.path.join(shared_dir, "fv.nc")
    with ncpario.File(path, "w") as f:
        f.set_fill(ncpario.NC_FILL)
        f.def_dim("x", 3)
        a = f.def_var("a", "i4", ("x",), fill_value=-7)
        f.def_var("b", "f4", ("x",), fill_value=False)
        f.enddef()
        assert a[:].tolist() == [-7, -7, -7]
        assert a._FillValue == -7
