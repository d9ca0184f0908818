"""iput/iget/bput (vara and varn) with wait_all and wait."""
import os

import numpy as np
import pytest

import ncpario
from conftest import COMM


def test_iput_iget(shared_dir):
    path = os.path.join(shared_dir, "nb.nc")
    n, r = COMM.size, COMM.rank
    with ncpario.File(path, "w", format="CDF5") as f:
        f.def_dim("t", None)
        f.def_dim("x", 4 * n)
        a = f.def_var("a", "i8", ("t", "x"))
        b = f.def_var("b", "f4", ("x",))
        f.enddef()
        reqs = [a.iput_var(np.arange(4, dtype="i8") + t * 100,
                           start=(t, 4 * r), count=(1, 4))
                for t in range(3)]
        reqs.append(b.iput_varn(np.array([1, 2], dtype="f4"),
                                starts=[(4 * r,), (4 * r + 3,)]))
        status = []
        assert f.wait_all(len(reqs), reqs, status) == [0] * 4
        assert status == [0] * 4
        assert a.shape == (3, 4 * n)
        out = np.zeros((3, 4), dtype="i8")
        out2 = np.zeros(2, dtype="f4")
        r1 = a.iget_var(out, start=(0, 4 * r), count=(3, 4))
        r2 = b.iget_varn(out2, starts=[(4 * r,), (4 * r + 3,)])
        f.wait_all()                    # every pending request
        np.testing.assert_array_equal(
            out, np.arange(4)[None, :] + 100 * np.arange(3)[:, None])
        np.testing.assert_array_equal(out2, [1, 2])
        assert r1 != r2
        f.begin_indep()
        out3 = np.zeros(4, dtype="i8")
        req = a.iget_var(out3, start=(2, 4 * r), count=(1, 4))
        assert f.wait([req]) == [0]
        f.end_indep()
        np.testing.assert_array_equal(out3, np.arange(4) + 200)


def test_bput(shared_dir):
    path = os.path.join(shared_dir, "bp.nc")
    n, r = COMM.size, COMM.rank
    with ncpario.File(path, "w") as f:
        f.def_dim("x", 8 * n)
        v = f.def_var("v", "i2", ("x",))
        f.enddef()
        f.attach_buff(64)
        assert f.inq_buff_size() == 64
        buf = np.arange(4, dtype="i2")
        q1 = v.bput_var(buf, start=(8 * r,), count=(4,))
        buf[:] = -1                     # bput copied it already
        q2 = v.bput_varn(np.array([9, 9], dtype="i2"),
                         starts=[(8 * r + 4,), (8 * r + 7,)])
        assert f.inq_buff_usage() == 12
        with pytest.raises(ncpario.NCError):
            v.bput_var(np.zeros(40, dtype="i2"), start=(0,), count=(40,))
        assert f.wait_all([q1, q2]) == [0, 0]
        f.detach_buff()
        np.testing.assert_array_equal(v[8 * r:8 * r + 8],
                                      [0, 1, 2, 3, 9, 0, 0, 9])


def test_nonblocking_range_error(shared_dir):
    """A value that does not fit is reported at the post, as PnetCDF
    1.12.3 does (docs/notes/pnetcdf-compat.md, 7.1): the request stays
    queued with a clean status and writes the fill value, and the good
    request lands."""
    path = os.path.join(shared_dir, "wf.nc")
    with ncpario.File(path, "w") as f:
        f.def_dim("x", 4)
        v = f.def_var("v", "i1", ("x",))
        f.enddef()
        ok = v.iput_var(np.array([1], dtype="i4"), start=(0,), count=(1,))
        with pytest.raises(ncpario.NCError) as e:
            v.iput_var(np.array([1000], dtype="i4"), start=(1,), count=(1,))
        assert e.value.code == ncpario._errors.NC_ERANGE
        assert f.inq_nreqs() == 2
        assert f.wait_all([ok]) == [0]
        # The refused request is still pending (close would fail with
        # NC_EPENDING) until a wait for all, which completes it cleanly.
        assert f.inq_nreqs() == 1
        assert f.wait_all() == []
        assert f.inq_nreqs() == 0
        assert v[0:2].tolist() == [1, ncpario.NC_FILL_BYTE]
