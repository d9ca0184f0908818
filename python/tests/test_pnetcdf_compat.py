"""PnetCDF-Python's API as ncpario.pnetcdf gives it: module functions and
constants, File and Variable methods, positional orders, in-place wait
lists, negative steps, strings and chars, fill values and masks, errors.
Every test runs on every rank; each rank writes its own part."""
import os

import numpy as np
import pytest
from mpi4py import MPI

import ncpario
import ncpario.pnetcdf as pnetcdf

COMM = MPI.COMM_WORLD
R, N = COMM.rank, COMM.size


def path_in(d, name):
    return os.path.join(d, name)


def others_read(path):
    """netCDF4-python and xarray read the whole file on rank 0, and find
    what ncpario reads there: {variable: values} from each."""
    netCDF4 = pytest.importorskip("netCDF4")
    xr = pytest.importorskip("xarray")
    COMM.Barrier()
    with ncpario.File(path, "r", comm=MPI.COMM_SELF) as f:
        f.set_auto_chartostring(False)
        ours = {n: v[...] for n, v in f.variables.items()}
    if R == 0:
        with netCDF4.Dataset(path) as ds:
            ds.set_auto_maskandscale(False)
            ds.set_auto_chartostring(False)
            for n, v in ds.variables.items():
                np.testing.assert_array_equal(v[...], ours[n])
        with xr.open_dataset(path, engine="netcdf4", mask_and_scale=False,
                             decode_times=False) as ds:
            for n in ours:
                got = ds[n].values
                if ours[n].dtype.kind != "S":
                    np.testing.assert_array_equal(got, ours[n])
    COMM.Barrier()


def test_module_names_and_constants():
    for name in ("Dataset", "libver", "inq_clibvers", "strerrno",
                 "chartostring", "stringtochar", "set_default_format",
                 "inq_default_format", "inq_file_format", "inq_files_opened",
                 "inq_malloc_size", "inq_malloc_max_size", "__version__"):
        assert name in pnetcdf.__all__, name
    assert pnetcdf.Dataset is pnetcdf.File
    assert issubclass(pnetcdf.File, ncpario.File)
    assert pnetcdf.libver() == ncpario.__version__
    assert "ncpario" in pnetcdf.inq_clibvers()
    assert pnetcdf.strerrno(-33) == "NC_EBADID"
    assert pnetcdf.strerrno(0) == "NC_NOERR"
    assert (pnetcdf.NC_FILL_BYTE, pnetcdf.NC_FILL_SHORT, pnetcdf.NC_FILL_INT,
            pnetcdf.NC_FILL_UBYTE, pnetcdf.NC_FILL_UINT64) == \
        (-127, -32767, -2147483647, 255, 18446744073709551614)
    assert np.float32(pnetcdf.NC_FILL_FLOAT) == np.float32(9.96921e36)
    assert (pnetcdf.NC_FORMAT_CLASSIC, pnetcdf.NC_FORMAT_CDF2,
            pnetcdf.NC_FORMAT_64BIT_OFFSET, pnetcdf.NC_FORMAT_CDF5,
            pnetcdf.NC_FORMAT_64BIT_DATA) == (1, 2, 2, 5, 5)
    assert (pnetcdf.NC_REQ_NULL, pnetcdf.NC_REQ_ALL, pnetcdf.NC_GET_REQ_ALL,
            pnetcdf.NC_PUT_REQ_ALL) == (-1, -1, -2, -3)
    assert (pnetcdf.NC_CLASSIC_MODEL, pnetcdf.NC_NETCDF4, pnetcdf.NC_BP) == \
        (0x100, 0x1000, 0x10000)


def test_default_format_and_file_format(shared_dir):
    old = pnetcdf.set_default_format(pnetcdf.NC_FORMAT_CDF5)
    try:
        assert pnetcdf.inq_default_format() == pnetcdf.NC_FORMAT_CDF5
        p = path_in(shared_dir, "default.nc")
        with pnetcdf.File(p) as f:            # PnetCDF-Python: mode 'w'
            assert f.file_format == "64BIT_DATA"
            assert pnetcdf.inq_files_opened() >= 1
            ids = []
            assert pnetcdf.inq_files_opened(ids) == len(ids)
            assert f._ncid in ids
        assert pnetcdf.inq_file_format(p) == pnetcdf.NC_FORMAT_CDF5
    finally:
        assert pnetcdf.set_default_format(old) == pnetcdf.NC_FORMAT_CDF5


def test_open_errors_are_oserrors(shared_dir):
    p = path_in(shared_dir, "exists.nc")
    pnetcdf.File(p, "w").close()
    with pytest.raises(OSError) as e:
        pnetcdf.File(p, "x")
    assert e.value.errno == -35 and e.value.filename == p
    assert isinstance(e.value, ncpario.NCError) and e.value.code == -35
    with pytest.raises(OSError):
        pnetcdf.File(path_in(shared_dir, "missing.nc"), "r")


def test_file_methods(shared_dir):
    p = path_in(shared_dir, "methods.nc")
    f = pnetcdf.File(p, "w", format="NETCDF3_64BIT_DATA")
    assert f.filepath() == p
    t = f.createDimension("t", None)
    f.createDimension("x", 2 * N)
    a = f.createVariable("a", pnetcdf.NC_INT, ("t", "x"))
    b = f.createVariable("b", "f8", ("x",))
    a.units = "m"
    f.renameDimension("x", "xx")
    f.renameVariable("b", "bb")
    a.renameAttribute("units", "unit")
    f.enddef()
    assert f.inq_unlimdim() == t and f.inq_unlimdim().isunlimited()
    assert (f.inq_num_rec_vars(), f.inq_num_fix_vars()) == (1, 1)
    assert f.inq_recsize() == 4 * 2 * N
    assert f.inq_version() == pnetcdf.NC_64BIT_DATA
    assert f.inq_header_size() <= f.inq_header_extent()
    assert a.inq_offset() >= f.inq_header_extent() > 0
    assert b.inq_offset() >= f.inq_header_size()
    size, count = f.inq_striping()
    assert size >= 0 and count >= 0
    assert list(f.dimensions) == ["t", "xx"] and "bb" in f.variables
    assert a.get_att("unit") == "m" and a.get_dims() == (
        f.dimensions["t"], f.dimensions["xx"])
    assert a.file() is f and f.dimensions["xx"].getfile() is f
    assert not f.indep_mode
    f.begin_indep()
    assert f.indep_mode
    f.end_indep()
    before = f.inq_put_size()
    req = a.iput_var(np.array([R, R], "i4"), start=(0, 2 * R),
                     count=(1, 2))
    assert f.inq_nreqs() == 1
    reqs, status = [req], [None]
    f.wait_all(1, reqs, status)
    assert reqs == [pnetcdf.NC_REQ_NULL] and status == [0]
    assert f.inq_nreqs() == 0
    f.flush()
    assert f.inq_put_size() > before
    req = a.iput_var(np.array([7, 7], "i4"), start=(1, 2 * R), count=(1, 2))
    reqs = [req]
    f.cancel(1, reqs, status)
    assert reqs == [pnetcdf.NC_REQ_NULL] and f.inq_nreqs() == 0
    got = np.asarray(a)                      # __array__
    assert got.shape == (1, 2 * N) and got[0, 2 * R] == R
    assert f.inq_get_size() > 0
    f.close()


def test_variable_types_and_fill(shared_dir):
    p = path_in(shared_dir, "fill.nc")
    with pnetcdf.File(p, "w") as f:
        f.def_dim("t", -1)
        f.def_dim("x", N)
        v = f.def_var("v", datatype=pnetcdf.NC_SHORT, dimensions=("t", "x"))
        w = f.def_var("w", "f4", ("x",))
        v.def_fill(0, fill_value=-3)
        w.def_fill(1)
        assert v.inq_fill() == (0, -3) and w.inq_fill()[0] == 1
        assert v.xtype == pnetcdf.NC_SHORT and v.datatype == np.dtype("i2")
        np.empty(2, dtype=v.datatype)        # usable as a numpy dtype
        f.enddef()
        v.fill_rec(1)
        v[0, R] = R
    with pnetcdf.File(p, "r") as f:
        v = f.variables["v"]
        assert v.shape == (2, N)
        assert v[1].tolist() == [-3] * N and v[0].tolist() == list(range(N))
    others_read(p)


def test_positional_orders(shared_dir):
    p = path_in(shared_dir, "pos.nc")
    with pnetcdf.File(p, "w") as f:
        f.def_dim("y", 2 * N)
        f.def_dim("x", 4)
        v = f.def_var("v", "i4", ("y", "x"))
        f.enddef()
        rows = np.arange(8, dtype="i4").reshape(2, 4) + 100 * R
        # (data, start, count, stride, imap): imap writes the transpose.
        v.put_var_all(np.ascontiguousarray(rows.T), (2 * R, 0), (2, 4),
                      None, (1, 2))
        assert v[2 * R:2 * R + 2].tolist() == rows.tolist()
        # (data, num, starts, counts): the first num subarrays only.
        starts = [[2 * R, 0], [2 * R + 1, 3], [2 * R, 1]]
        counts = [[1, 1], [1, 1], [1, 3]]
        v.put_varn_all(np.array([-1, -2], "i4"), 2, starts, counts)
        out = np.zeros(2, "i4")
        v.get_varn_all(out, 2, starts, counts)
        assert out.tolist() == [-1, -2]
        assert v[2 * R, 1:].tolist() == rows[0, 1:].tolist()
    others_read(p)


def test_flexible_buffer_types(shared_dir):
    p = path_in(shared_dir, "flex.nc")
    ghost = np.full((4, 5), -1, dtype="i4")
    ghost[1:3, 1:4] = np.arange(6).reshape(2, 3) + 10 * R
    sub = MPI.INT.Create_subarray([4, 5], [2, 3], [1, 1])
    sub.Commit()
    with pnetcdf.File(p, "w") as f:
        f.def_dim("y", 2 * N)
        f.def_dim("x", 3)
        v = f.def_var("v", "i4", ("y", "x"))
        f.enddef()
        v.put_var_all(ghost, start=[2 * R, 0], count=[2, 3], bufcount=1,
                      buftype=sub)
        assert v[2 * R:2 * R + 2].tolist() == ghost[1:3, 1:4].tolist()
        back = np.zeros((4, 5), "i4")
        v.get_var_all(back, start=[2 * R, 0], count=[2, 3], bufcount=1,
                      buftype=sub)
        assert back[1:3, 1:4].tolist() == ghost[1:3, 1:4].tolist()
        assert back[0].tolist() == [0] * 5  # outside the type: untouched
    sub.Free()
    others_read(p)


def test_negative_steps_and_flat_values(shared_dir):
    p = path_in(shared_dir, "steps.nc")
    ref = np.arange(4 * N * 6, dtype="f8").reshape(4 * N, 6)
    with pnetcdf.File(p, "w") as f:
        f.def_dim("y", 4 * N)
        f.def_dim("x", 6)
        v = f.def_var("v", "f8", ("y", "x"))
        f.enddef()
        mine = slice(4 * R, 4 * R + 4)
        v[mine, ::-1] = ref[mine, ::-1]     # reversed both sides: as is
        assert v[mine].tolist() == ref[mine].tolist()
        assert v[mine, ::-1].tolist() == ref[mine, ::-1].tolist()
        assert v[4 * R + 3:4 * R - 1 if R else None:-2, 5:0:-2].tolist() == \
            ref[4 * R + 3:4 * R - 1 if R else None:-2, 5:0:-2].tolist()
        v[mine, :] = ref[mine].reshape(-1) * 2     # flat into 2-d
        assert v[mine].tolist() == (ref[mine] * 2).tolist()
        with pytest.raises(IndexError):
            v[mine, 0:7] = np.zeros((4, 7))         # past a fixed dimension
    others_read(p)


def test_chars_and_strings(shared_dir):
    p = path_in(shared_dir, "chars.nc")
    words = np.array(["ab", "cde", "f"], dtype="S5")
    with pnetcdf.File(p, "w") as f:
        f.def_dim("n", 3)
        f.def_dim("c", 5)
        raw = f.def_var("raw", pnetcdf.NC_CHAR, ("n", "c"))
        enc = f.def_var("enc", pnetcdf.NC_CHAR, ("n", "c"))
        enc._Encoding = "ascii"                 # an attribute in the file
        f.put_att("foo", np.array("bar", "S"))
        f.enddef()
        raw[:] = words                          # S5 strings into rows
        raw[2] = b"xy"                          # shorter: padded
        enc[:] = np.array(["hello", "w", ""])   # U strings, encoded
        assert f.get_att("foo") == "bar" and enc.ncattrs() == ["_Encoding"]
    with pnetcdf.File(p, "r") as f:
        raw, enc = f.variables["raw"], f.variables["enc"]
        assert raw[0].tobytes() == b"ab\0\0\0"
        assert pnetcdf.chartostring(raw[:]).tolist() == ["ab", "cde", "xy"]
        assert enc[:].tolist() == ["hello", "w", ""]
        assert enc[:, 0].dtype == np.dtype("S1")   # not whole rows: chars
        f.set_auto_chartostring(False)
        assert enc[:].dtype == np.dtype("S1") and enc[:].shape == (3, 5)
    others_read(p)
    chars = pnetcdf.stringtochar(words)
    assert chars.shape == (3, 5) and chars.dtype == np.dtype("S1")
    assert pnetcdf.chartostring(chars, encoding="bytes").tolist() == \
        [b"ab", b"cde", b"f"]


def test_masks_and_fill_value_attribute(shared_dir):
    p = path_in(shared_dir, "mask.nc")
    with ncpario.File(p, "w") as f:
        f.def_dim("x", 4 * N)
        v = f.def_var("v", "f4", ("x",))
        v._FillValue = np.float32(-9.0)     # writes the attribute
        v.note = "kept"
        f.enddef()
        assert "_FillValue" in v.ncattrs() and v._FillValue == -9.0
        data = np.ma.MaskedArray(np.arange(4, dtype="f4") + 4 * R,
                                 mask=[False, True, False, True])
        v[4 * R:4 * R + 4] = data
        assert v[4 * R + 1] == -9.0              # masked: the fill value
        v.set_auto_mask(True)
        got = v[4 * R:4 * R + 4]
        assert isinstance(got, np.ma.MaskedArray)
        assert got.mask.tolist() == [False, True, False, True]
        assert got.compressed().tolist() == [4 * R, 4 * R + 2]
        v.set_auto_mask(False)
        assert not isinstance(v[:], np.ma.MaskedArray)
        assert v.__dict__ == {"_FillValue": -9.0, "note": "kept"}
    others_read(p)


def test_raise_in_define_mode_does_not_hang(shared_dir):
    """A rank that raises inside `with` in define mode closes from define
    mode; ranks that end define mode and close meet it there."""
    p = path_in(shared_dir, "raise.nc")
    raised = False
    try:
        with ncpario.File(p, "w") as f:
            f.def_dim("x", 4)
            f.def_var("v", "i4", ("x",))
            if R == 0:
                raise KeyError("rank 0 stops")
            f.enddef()
    except KeyError:
        raised = True
    assert raised == (R == 0)
    with ncpario.File(p, "r") as f:
        assert list(f.variables) == ["v"]
