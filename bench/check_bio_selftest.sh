#!/usr/bin/env bash
# check_bio_selftest.sh -- ctest's run of bio_selftest, the backends'
# self-test (bench.bio_selftest[_<lib>].np<N>).
#
# usage: check_bio_selftest.sh NPROCS SELFTEST_BINARY
#
# The program writes and reads back every method its backend has and
# checks the values itself; here its exit status must be 0 and, for the
# netCDF backends, ncvalidator must accept every .nc file it left.
set -euo pipefail

# np, bin_a, validator, work
source "$(dirname "${BASH_SOURCE[0]}")/check_common.sh" "$@"

mpirun --oversubscribe -np "$np" "$bin_a" -k -d "$work"
shopt -s nullglob
for f in "$work"/*.nc; do
    if [ -n "$validator" ]; then
        "$validator" -q "$f" || { echo "FAIL: ncvalidator: $f" >&2; exit 1; }
    fi
done
