"""The file the Python package writes is byte-identical to the one the
C twin (tests/python/py_twin.c) writes with the same calls, and both
netCDF4-python and xarray read the expected values from it."""
import filecmp
import os
import shutil
import tempfile

import numpy as np
import pytest

import ncpario
from conftest import COMM, TYPES, values

X = 3
NREC = 5


def write_twin(path):
    np_, r0 = COMM.size, 2 * COMM.rank
    Y = 2 * np_
    with ncpario.File(path, "w", format="64BIT_DATA") as f:
        f.def_dim("rec", None)
        f.def_dim("y", Y)
        f.def_dim("x", X)
        f.title = "twin"
        for k, (nc, dt, name) in enumerate(TYPES):
            if nc == ncpario.NC_CHAR:
                f.put_att("a_" + name, "ab")
            else:
                f.put_att("a_" + name, values(dt, [1, 2], k), xtype=nc)
        fv, rv = [], []
        for k, (nc, dt, name) in enumerate(TYPES):
            v = f.def_var("f_" + name, nc, ("y", "x"))
            v.units = "u"
            fv.append(v)
            w = f.def_var("r_" + name, nc, ("rec", "y", "x"))
            if nc != ncpario.NC_CHAR:
                w.put_att("scale", values(dt, [3], k), xtype=nc)
            rv.append(w)
        f.enddef()

        def rows(rec, k, dt, shape=(2, X)):
            g = (rec * Y + r0) * X + np.arange(6)
            return values(dt, g, k).reshape(shape)

        for k, (nc, dt, _) in enumerate(TYPES):
            fv[k].put_var_all(values(dt, r0 * X + np.arange(6), k)
                              .reshape(2, X), start=(r0, 0), count=(2, X))
        f.attach_buff(6 * 8 * len(TYPES))
        reqs = []
        for k, (nc, dt, _) in enumerate(TYPES):
            reqs.append(rv[k].iput_var(rows(0, k, dt), start=(0, r0, 0),
                                       count=(1, 2, X)))
        for k, (nc, dt, _) in enumerate(TYPES):
            buf = rows(1, k, dt)
            reqs.append(rv[k].bput_var(buf, start=(1, r0, 0),
                                       count=(1, 2, X)))
            buf[...] = values(dt, [0], 0)[0]    # bput copied it already
        assert f.wait_all(reqs) == [0] * len(reqs)
        f.detach_buff()
        for k, (nc, dt, _) in enumerate(TYPES):
            rv[k].put_varn_all(rows(2, k, dt).reshape(-1),
                               starts=[(2, r0, 0), (2, r0 + 1, 0)],
                               counts=[(1, 1, X), (1, 1, X)])
        f.begin_indep()
        for k, (nc, dt, _) in enumerate(TYPES):
            r = rows(3, k, dt)
            rv[k].put_var(r[:, ::2].copy(), start=(3, r0, 0),
                          count=(1, 2, 2), stride=(1, 1, 2))
            rv[k].put_var(r[:, 1:2].copy(), start=(3, r0, 1),
                          count=(1, 2, 1))
        f.end_indep()
        for k, (nc, dt, _) in enumerate(TYPES):
            t = rows(4, k, dt).T.copy()     # x-major buffer
            rv[k].put_var_all(t, start=(4, r0, 0), count=(1, 2, X),
                              imap=(6, 1, 2))


def expected(k, dt, rec=None):
    Y = 2 * COMM.size
    if rec is None:
        return values(dt, np.arange(Y * X), k).reshape(Y, X)
    return values(dt, np.arange(NREC * Y * X), k).reshape(NREC, Y, X)


@pytest.fixture(scope="module")
def twin_file():
    d = tempfile.mkdtemp(prefix="ncpario-twin.",
                         dir=os.environ.get("NCPARIO_TEST_DIR") or None) \
        if COMM.rank == 0 else None
    d = COMM.bcast(d, root=0)
    path = os.path.join(d, "py_twin.nc")
    write_twin(path)
    COMM.Barrier()
    yield path
    COMM.Barrier()
    if COMM.rank == 0:
        shutil.rmtree(d, ignore_errors=True)


def test_byte_identical_to_c(twin_file):
    ref = os.environ.get("NCPARIO_TWIN_FILE")
    if not ref:
        pytest.skip("NCPARIO_TWIN_FILE not set (ctest sets it)")
    if COMM.rank == 0:
        assert filecmp.cmp(twin_file, ref, shallow=False), \
            "%s differs from the C twin's %s" % (twin_file, ref)


def test_read_back_every_form(twin_file):
    Y, r0 = 2 * COMM.size, 2 * COMM.rank
    with ncpario.File(twin_file, "r") as f:
        assert f.title == "twin"
        assert f.file_format == "64BIT_DATA"
        for k, (nc, dt, name) in enumerate(TYPES):
            fv, rv = f.variables["f_" + name], f.variables["r_" + name]
            assert fv.dtype == dt and rv.xtype == nc and rv.datatype == dt
            assert rv.shape == (NREC, Y, X)
            want_f, want_r = expected(k, dt), expected(k, dt, rec=True)
            np.testing.assert_array_equal(fv.get_var_all(), want_f)
            np.testing.assert_array_equal(rv[...], want_r)
            np.testing.assert_array_equal(
                rv.get_var_all(start=(1, r0, 0), count=(2, 2, X),
                               stride=(2, 1, 1)),
                want_r[1:5:2, r0:r0 + 2])
            out = np.empty((X, 2), dtype=dt)
            rv.get_var_all(out.reshape(-1), start=(4, r0, 0),
                           count=(1, 2, X), imap=(6, 1, 2))
            np.testing.assert_array_equal(out, want_r[4, r0:r0 + 2].T)
            got = rv.get_varn_all(starts=[(0, 0, 0), (3, Y - 1, 1)],
                                  counts=[(1, 1, X), (1, 1, 2)])
            np.testing.assert_array_equal(
                got, np.concatenate([want_r[0, 0], want_r[3, Y - 1, 1:]]))
            buf = np.zeros((NREC, 2, X), dtype=dt)
            req = rv.iget_var(buf, start=(0, r0, 0), count=(NREC, 2, X))
            f.wait_all([req])
            np.testing.assert_array_equal(buf, want_r[:, r0:r0 + 2])
            if nc != ncpario.NC_CHAR:
                assert f.get_att("a_" + name).tolist() == \
                    values(dt, [1, 2], k).tolist()
                assert rv.scale == values(dt, [3], k)[0]
                assert rv.get_att("scale").dtype == dt
            else:
                assert f.get_att("a_" + name) == "ab"
            assert fv.units == "u"
        f.begin_indep()
        v = f.variables["r_int"]
        np.testing.assert_array_equal(v.get_var(start=(2, 0, 0),
                                                count=(1, Y, X))[0],
                                      expected(3, np.dtype("i4"),
                                               rec=True)[2])
        np.testing.assert_array_equal(v[2, r0], expected(
            3, np.dtype("i4"), rec=True)[2, r0])
        f.end_indep()


def test_netcdf4_python_reads_it(twin_file):
    netCDF4 = pytest.importorskip("netCDF4")
    if COMM.rank != 0:
        return
    with netCDF4.Dataset(twin_file) as ds:
        assert ds.data_model == "NETCDF3_64BIT_DATA"
        assert ds.title == "twin"
        assert len(ds.dimensions["rec"]) == NREC
        assert ds.dimensions["rec"].isunlimited()
        for k, (nc, dt, name) in enumerate(TYPES):
            v = ds.variables["r_" + name]
            v.set_auto_maskandscale(False)
            if nc == ncpario.NC_CHAR:
                v.set_auto_chartostring(False)
            got = np.asarray(v[:])
            assert got.dtype == dt, name
            np.testing.assert_array_equal(got, expected(k, dt, rec=True))
            f = ds.variables["f_" + name]
            f.set_auto_maskandscale(False)
            if nc == ncpario.NC_CHAR:
                f.set_auto_chartostring(False)
            np.testing.assert_array_equal(np.asarray(f[:]), expected(k, dt))
            assert f.units == "u"


def test_xarray_reads_it(twin_file):
    xr = pytest.importorskip("xarray")
    pytest.importorskip("netCDF4")
    if COMM.rank != 0:
        return
    with xr.open_dataset(twin_file, engine="netcdf4", mask_and_scale=False,
                         decode_times=False) as ds:
        assert ds.attrs["title"] == "twin"
        assert dict(ds.sizes) == {"rec": NREC, "y": 2 * COMM.size, "x": X}
        for k, (nc, dt, name) in enumerate(TYPES):
            if nc == ncpario.NC_CHAR:
                continue        # xarray joins char arrays into strings
            da = ds["r_" + name]
            assert da.dims == ("rec", "y", "x")
            assert da.dtype == dt
            np.testing.assert_array_equal(da.values,
                                          expected(k, dt, rec=True))
            np.testing.assert_array_equal(ds["f_" + name].values,
                                          expected(k, dt))
