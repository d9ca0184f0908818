"""docs/PYTHON.md's example (python/examples/field3d.py) runs as shown."""
import os
import runpy
import sys

import pytest

from conftest import COMM

EXAMPLE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..",
                       "examples", "field3d.py")


def test_field3d_example(shared_dir, capsys):
    pytest.importorskip("xarray")
    path = os.path.join(shared_dir, "field.nc")
    argv = sys.argv
    sys.argv = [EXAMPLE, path]
    try:
        runpy.run_path(EXAMPLE, run_name="__main__")
    finally:
        sys.argv = argv
    out = capsys.readouterr().out
    assert "rank %d: wrote" % COMM.rank in out
    if COMM.rank == 0:
        assert "temp" in out and "ncpario example" in out
