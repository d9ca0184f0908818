#!/usr/bin/env bash
# ncgen_copy_check.sh -- ctest interop.ncgen_copy: what t_ncgen_copy copies
# through ncpario must look, to netCDF's own tools, exactly like the ncgen
# fixture it came from.
#
#   ncgen_copy_check.sh T_NCGEN_COPY FIXTURE_DIR WORKDIR [NP]
#
# Runs T_NCGEN_COPY on NP ranks (default 2) with WORKDIR/t_ncgen_copy.nc as
# its main file, then for every fixture F in FIXTURE_DIR requires that
# WORKDIR/F exists, that ncvalidator accepts it without warnings, that
# `ncdump -k` names the same format and that `ncdump -p 9,17` (every float
# and double printed in full) of the copy equals that of F once the dataset
# name on the first line is set aside.  The main file must match the first
# fixture (in C sort order) the same way.  Every check runs even after one
# fails, so one run shows all differences.
set -uo pipefail

if [ $# -lt 3 ] || [ $# -gt 4 ]; then
    echo "usage: $0 T_NCGEN_COPY FIXTURE_DIR WORKDIR [NP]" >&2
    exit 2
fi
exe=$1 fixdir=$2 work=$3 np=${4:-2}
limit=${NCP_RUN_TIMEOUT:-120}

export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_mpi_yield_when_idle=1
export LC_ALL=C

failures=0
fail() {
    echo "FAIL: $*"
    failures=$((failures + 1))
}

dump() {
    ncdump -p 9,17 "$1" 2>&1 | sed '1s/^netcdf .* {$/netcdf X {/'
}

# same_as COPY FIXTURE: the checks one copy must pass.
same_as() {
    local copy=$1 fixture=$2 vout
    if [ ! -f "$copy" ]; then
        fail "$(basename "$fixture"): no copy $copy"
        return
    fi
    if ! vout=$(ncvalidator "$copy" 2>&1) || grep -qi warning <<<"$vout"; then
        fail "ncvalidator rejects $copy:"
        echo "$vout"
    fi
    if [ "$(ncdump -k "$copy" 2>&1)" != "$(ncdump -k "$fixture" 2>&1)" ]; then
        fail "$(basename "$copy"): format $(ncdump -k "$copy" 2>&1)," \
             "fixture's $(ncdump -k "$fixture" 2>&1)"
    fi
    if ! diff -u --label "ncdump $fixture" --label "ncdump $copy" \
            <(dump "$fixture") <(dump "$copy") >"$work/diff.txt"; then
        fail "ncdump of $(basename "$copy") differs from its fixture" \
             "(- fixture, + copy):"
        head -n 60 "$work/diff.txt"
    fi
}

shopt -s nullglob
fixtures=("$fixdir"/*.nc)
if [ ${#fixtures[@]} -eq 0 ]; then
    echo "FAIL: no fixture *.nc in $fixdir"
    exit 1
fi

rm -rf "$work"
mkdir -p "$work"
echo "== mpirun -np $np $exe $work/t_ncgen_copy.nc $fixdir"
rc=0
timeout --kill-after=10 "$limit" \
    mpirun --oversubscribe -np "$np" "$exe" "$work/t_ncgen_copy.nc" \
    "$fixdir" || rc=$?
if [ "$rc" -ne 0 ]; then
    fail "t_ncgen_copy exit status $rc"
fi

for f in "${fixtures[@]}"; do
    same_as "$work/$(basename "$f")" "$f"
done
same_as "$work/t_ncgen_copy.nc" "${fixtures[0]}"

if [ "$failures" -ne 0 ]; then
    echo "RESULT: FAIL ($failures problem(s))"
    exit 1
fi
echo "RESULT: PASS (${#fixtures[@]} fixture(s), np=$np)"
