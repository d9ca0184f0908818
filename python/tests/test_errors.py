"""Bad input raises NCError (with the NC_* code) and never crashes, hangs
a collective call, or leaves the file unusable."""
import os

import numpy as np
import pytest

import ncpario
from ncpario import _errors as E
from conftest import COMM


@pytest.fixture
def f2(shared_dir):
    path = os.path.join(shared_dir, "e.nc")
    f = ncpario.File(path, "w")
    f.def_dim("t", None)
    f.def_dim("x", 4)
    f.def_var("v", "i4", ("t", "x"))
    f.def_var("c", "S1", ("x",))
    f.enddef()
    yield f
    f.close()


def test_error_type_and_message():
    with pytest.raises(ncpario.NCError) as e:
        ncpario.File("/nonexistent-dir/none.nc", "r")
    assert isinstance(e.value, RuntimeError)
    assert e.value.code < 0
    assert e.value.message == ncpario.strerror(e.value.code)
    assert str(e.value.code) in str(e.value)


def test_bad_arguments_to_file(shared_dir):
    with pytest.raises(ncpario.NCError) as e:
        ncpario.File(os.path.join(shared_dir, "x.nc"), "q")
    assert e.value.code == E.NC_EINVAL
    with pytest.raises(ncpario.NCError):
        ncpario.File(os.path.join(shared_dir, "x.nc"), "w", format="HDF5")
    with pytest.raises(ncpario.NCError):
        ncpario.File(os.path.join(shared_dir, "x.nc"), "w", info=[1, 2])
    path = os.path.join(shared_dir, "y.nc")
    ncpario.File(path, "w").close()
    with pytest.raises(ncpario.NCError) as e:
        ncpario.File(path, "x")         # NC_NOCLOBBER
    assert e.value.code == -35          # NC_EEXIST


def test_out_of_range(f2):
    v = f2["v"]
    with pytest.raises(IndexError) as e:
        v[0, 4] = 1
    assert isinstance(e.value, ncpario.NCError)
    assert e.value.code == E.NC_EINVALCOORDS
    with pytest.raises(ncpario.NCIndexError):
        v.put_var_all(np.zeros(5, "i4"), start=(0, 0), count=(1, 5))
    with pytest.raises(ncpario.NCIndexError):
        v.get_var_all(start=(3, 0), count=(1, 1))      # no record 3 yet
    with pytest.raises(ncpario.NCIndexError):
        v.put_var_all(np.zeros(1, "i4"), start=(0, -1), count=(1, 1))
    with pytest.raises(ncpario.NCIndexError):
        v.get_var_all(start=(0, 0), count=(1, 2), stride=(1, 0))
    with pytest.raises(ncpario.NCIndexError):
        v[0, ::-1]
    with pytest.raises(ncpario.NCValueError):
        v.get_var_all(start=(0,), count=(1,))          # wrong rank
    with pytest.raises(ncpario.NCIndexError):
        v[0, 0, 0]


def test_wrong_dtype_and_shape(f2):
    v, c = f2["v"], f2["c"]
    v[0] = np.arange(4, dtype="i4")
    with pytest.raises(TypeError) as e:
        v[0] = np.zeros(4, dtype=complex)
    assert e.value.code == E.NC_EBADTYPE
    with pytest.raises(ncpario.NCTypeError):
        v[0] = ["a", "b", "c", "d"]
    with pytest.raises(ncpario.NCTypeError) as e:
        c[:] = np.arange(4)
    assert e.value.code == E.NC_ECHAR
    with pytest.raises(ValueError):
        v[0] = np.zeros(3, "i4")                       # shape
    with pytest.raises(ncpario.NCValueError):
        v.put_var_all(np.zeros(3, "i4"), start=(0, 0), count=(1, 4))
    with pytest.raises(ncpario.NCValueError):
        v.get_var_all(np.zeros((2, 4), "i4")[:, ::2].copy().T,
                      start=(0, 0), count=(1, 4))     # not contiguous
    ro = np.zeros(4, "i4")
    ro.flags.writeable = False
    with pytest.raises(ncpario.NCValueError):
        v.get_var_all(ro, start=(0, 0), count=(1, 4))
    with pytest.raises(ncpario.NCValueError):
        v.iget_var(None, start=(0, 0), count=(1, 4))
    with pytest.raises(ncpario.NCTypeError):
        v.get_var_all([0, 0, 0, 0], start=(0, 0), count=(1, 4))
    c[:] = "abcd"
    assert c[:].tobytes() == b"abcd"
    c[1:3] = np.array(["x", "y"])
    assert c[:].tobytes() == b"axyd"


def test_mode_errors_come_from_c(f2):
    v = f2["v"]
    with pytest.raises(ncpario.NCError) as e:
        v.put_var(np.zeros(4, "i4"), start=(0, 0), count=(1, 4))
    assert e.value.code == -202                       # NC_ENOTINDEP
    f2.redef()
    with pytest.raises(ncpario.NCError) as e:
        v[0] = 1
    assert e.value.code == -39                        # NC_EINDEFINE
    with pytest.raises(ncpario.NCError):
        f2.def_dim("x", 3)                            # name in use
    with pytest.raises(TypeError):
        f2.def_var("bad", "c16", ("x",))
    with pytest.raises(ncpario.NCError):
        f2.def_var("bad", "f8", ("nodim",))
    f2.enddef()


def test_one_rank_wrong_others_right(f2):
    """Rank 0 passes an index past the end; the others' collective write
    still completes (rank 0 joins it with no data) and the file stays
    usable."""
    v = f2["v"]
    r = COMM.rank
    if r == 0:
        with pytest.raises(ncpario.NCIndexError):
            v[0, 9] = 1
    else:
        v[r, :] = r
    n = COMM.size
    v[n, :] = 5                         # everyone again, in step
    assert v[n].tolist() == [5, 5, 5, 5]
    assert v[1:n, 0].tolist() == list(range(1, n))


def test_closed_file(shared_dir):
    f = ncpario.File(os.path.join(shared_dir, "z.nc"), "w")
    f.close()
    assert not f.isopen
    with pytest.raises(ncpario.NCError):
        f.enddef()
    with pytest.raises(ncpario.NCError):
        f.close()
