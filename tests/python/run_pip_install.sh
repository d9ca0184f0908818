#!/usr/bin/env bash
# run_pip_install.sh -- `pip install ./python` against an installed
# libncpario (ctest python.pip_install).
#
#   run_pip_install.sh PYTHON BUILD_DIR PACKAGE_DIR WORKDIR
#
# Installs BUILD_DIR into WORKDIR/prefix, makes a venv (seeing the
# interpreter's numpy/mpi4py/cffi), pip-installs a copy of PACKAGE_DIR
# with only pkg-config pointing at the prefix, then, from another
# directory and with no NCPARIO_LIB, writes and reads a file at 2 ranks
# and checks that the package loaded the installed library.
set -euo pipefail
py=$1 build=$2 pkg=$3 work=$4
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_mpi_yield_when_idle=1
unset NCPARIO_LIB

rm -rf "$work"
mkdir -p "$work"
cmake --install "$build" --prefix "$work/prefix" >"$work/install.log"
libdir=$(dirname "$(find "$work/prefix" -name 'libncpario.so' | head -n 1)")
export PKG_CONFIG_PATH="$libdir/pkgconfig"
"$py" -m venv --system-site-packages "$work/venv"
# A copy, so that the in-tree build leaves the source tree clean.
cp -r "$pkg" "$work/src"
rm -rf "$work/src/build" "$work/src/ncpario/_build_config.py"
"$work/venv/bin/pip" install -q --no-build-isolation --no-deps \
    --no-index "$work/src"
mkdir -p "$work/run"
cd "$work/run"
cat >check.py <<'PY'
import sys
import numpy as np
from mpi4py import MPI
import ncpario
want = sys.argv[1]
assert ncpario.LIBPATH.startswith(want), (ncpario.LIBPATH, want)
assert "site-packages" in ncpario.__file__, ncpario.__file__
c = MPI.COMM_WORLD
with ncpario.File("pip.nc", "w", format="CDF5") as f:
    f.def_dim("x", 2 * c.size)
    v = f.def_var("v", "f8", ("x",))
    f.enddef()
    v[2 * c.rank:2 * c.rank + 2] = [c.rank, c.rank + 0.5]
with ncpario.File("pip.nc", "r") as f:
    got = f.variables["v"][...]
assert got.tolist() == [x for r in range(c.size) for x in (r, r + 0.5)]
if c.rank == 0:
    print("pip install: ok,", ncpario.LIBPATH)
PY
mpirun --oversubscribe -np 2 "$work/venv/bin/python" check.py "$libdir"
