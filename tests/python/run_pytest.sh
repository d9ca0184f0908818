#!/usr/bin/env bash
# run_pytest.sh -- the Python package's tests at one rank count
# (ctest python.pytest.np<N>).
#
#   run_pytest.sh NP PYTHON TWIN_EXE PACKAGE_DIR OUTDIR
#
# Runs the C twin (py_twin) on NP ranks into OUTDIR/twin_c.nc, then
# pytest on NP ranks over PACKAGE_DIR/tests with the package imported from
# PACKAGE_DIR.  Rank 0 reports on stdout; the other ranks' pytest output
# goes to OUTDIR/pytest.rank<r>.log (shown when the run fails).  A failing
# test aborts the MPI job (see conftest.py), so any failing rank fails
# this script.
set -euo pipefail
if [ $# -ne 5 ]; then
    echo "usage: $0 NP PYTHON TWIN_EXE PACKAGE_DIR OUTDIR" >&2
    exit 2
fi
np=$1 py=$2 twin=$3 pkg=$4 out=$5
limit=${NCP_RUN_TIMEOUT:-240}

export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_mpi_yield_when_idle=1

rm -rf "$out"
mkdir -p "$out/tmp"
timeout --kill-after=10 "$limit" \
    mpirun --oversubscribe -np "$np" "$twin" "$out/twin_c.nc"

export NCPARIO_TWIN_FILE="$out/twin_c.nc" NCPARIO_TEST_DIR="$out/tmp"
export PYTHONPATH="$pkg${PYTHONPATH:+:$PYTHONPATH}"
export PYTHONDONTWRITEBYTECODE=1
rc=0
timeout --kill-after=10 "$limit" \
    mpirun --oversubscribe -np "$np" bash -c '
        r=${OMPI_COMM_WORLD_RANK:-0}
        set -- "$1" -m pytest -q -p no:cacheprovider --color=no "$2/tests"
        if [ "$r" = 0 ]; then exec "$@"; fi
        exec "$@" >"'"$out"'/pytest.rank$r.log" 2>&1' _ "$py" "$pkg" || rc=$?
if [ "$rc" -ne 0 ]; then
    for f in "$out"/pytest.rank*.log; do
        [ -f "$f" ] && { echo "== $f"; tail -n 60 "$f"; }
    done
    echo "FAIL: pytest on $np ranks: exit status $rc"
fi
exit "$rc"
