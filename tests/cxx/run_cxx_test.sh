#!/usr/bin/env bash
# run_cxx_test.sh -- ctest cxx.api.np<N>: one C++ program, three runs.
#
#   run_cxx_test.sh NP OURS THEIRS DROPIN_DIR WORKDIR
#
# OURS is tests/cxx/cxx_api.cpp built against ncpario's <pnetcdf>,
# THEIRS the same source built against PnetCDF's header and library.
# THEIRS runs once on PnetCDF and once, unchanged, on ncpario through
# DROPIN_DIR/libpnetcdf.so.0d (LD_LIBRARY_PATH), which must be what it
# loads.  All three must write the same file byte for byte and print the
# same transcript (compared as sorted lines: every rank prints the
# netCDF-4 calls' "not implemented", in no fixed order).
set -uo pipefail

if [ $# -ne 5 ]; then
    echo "usage: $0 NP OURS THEIRS DROPIN_DIR WORKDIR" >&2
    exit 2
fi
np=$1 ours=$2 theirs=$3 dropin=$4 work=$5
limit=${NCP_RUN_TIMEOUT:-120}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_mpi_yield_when_idle=1 LC_ALL=C
unset PNETCDF_HINTS

failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

# run LABEL EXE [MPIRUN OPTIONS...]: the program into WORKDIR/LABEL/out.nc
# (labels of one length: the transcript has the path length).
run() {
    local label=$1 exe=$2 rc=0
    shift 2
    rm -rf "${work:?}/$label"
    mkdir -p "$work/$label"
    timeout --kill-after=10 "$limit" mpirun --oversubscribe -np "$np" "$@" \
        "$exe" "$work/$label/out.nc" > "$work/$label/stdout" \
        2> "$work/$label/stderr" || rc=$?
    if [ "$rc" -ne 0 ]; then
        cat "$work/$label/stdout" "$work/$label/stderr"
        fail "$label run exited $rc"
    fi
    sort "$work/$label/stdout" > "$work/$label/sorted"
}

run ncpario "$ours"
# PnetCDF's reference on ROMIO without write data sieving, as the other
# MPI tests run it (tests/run_mpi_test.sh says why).
PNETCDF_HINTS="romio_ds_write=disable" run pnetcdf "$theirs" --mca io romio321
LD_LIBRARY_PATH="$dropin${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" \
    run drop_in "$theirs" -x LD_LIBRARY_PATH

loaded=$(LD_LIBRARY_PATH="$dropin" ldd "$theirs" | grep 'libpnetcdf.so.0d')
echo "dropin run loads: $loaded"
case "$loaded" in
    *"$dropin"*) ;;
    *) fail "the PnetCDF-built program did not load $dropin/libpnetcdf.so.0d" ;;
esac

for label in ncpario drop_in; do
    if ! cmp "$work/pnetcdf/out.nc" "$work/$label/out.nc"; then
        fail "$label's file differs from PnetCDF's"
    fi
    if ! diff -u "$work/pnetcdf/sorted" "$work/$label/sorted"; then
        fail "$label's transcript differs from PnetCDF's (- PnetCDF)"
    fi
done
head -3 "$work/ncpario/stdout"
[ "$failures" -eq 0 ] && echo "OK: ncpario, PnetCDF and the drop-in agree at $np ranks"
[ "$failures" -eq 0 ]
