#!/usr/bin/env bash
# check_shared_limit.sh -- ctest's run of shared_limit
# (bench.shared_limit.np<N>), a check of the program, not a measurement.
#
# usage: check_shared_limit.sh NPROCS SHARED_LIMIT_BINARY
#
# At an odd size (not a multiple of its 1 MiB calls) the program must
# exit 0 (it verifies every byte it reads), print the four csv rows with
# a positive bandwidth, the pieces layout's three with -p, and leave no
# file behind; a bad option must exit 2.
set -euo pipefail

# np, bin_a, work
source "$(dirname "${BASH_SOURCE[0]}")/check_common.sh" "$@"

out=$(mpirun --oversubscribe -np "$np" "$bin_a" -d "$work" -s 1500007 -r 2 -c)
for layout in own shared; do
    for phase in write read; do
        row=$(grep "^csv,shared_limit,$layout,b1500007,-,$np,$phase," <<<"$out") ||
            { echo "FAIL: no $layout $phase row in: $out" >&2; exit 1; }
        awk -F, '{ exit !($NF > 0 && $8 == 1500007 * '"$np"') }' <<<"$row" ||
            { echo "FAIL: bad row: $row" >&2; exit 1; }
    done
done
# Interleaved pieces that do not divide the bytes, elements swapped: the
# program checks every byte it reads, by pread per piece and by sieving.
out=$(mpirun --oversubscribe -np "$np" "$bin_a" -d "$work" -s 1500008 -p 720 -w 8 -r 2 -c)
for row in own,b1500008,-,$np,read shared,b1500008,p720w8,$np,read \
           pieces,b1500008,p720w8,$np,write pieces,b1500008,p720w8,$np,read \
           pieces,b1500008,p720w8,$np,sieve; do
    line=$(grep "^csv,shared_limit,$row," <<<"$out") ||
        { echo "FAIL: no $row row in: $out" >&2; exit 1; }
    awk -F, '{ exit !($NF > 0) }' <<<"$line" ||
        { echo "FAIL: bad row: $line" >&2; exit 1; }
done
left=$(ls -A "$work")
[ -z "$left" ] || { echo "FAIL: files left behind: $left" >&2; exit 1; }
rc=0
mpirun --oversubscribe -np 1 "$bin_a" -s 0 >/dev/null 2>&1 || rc=$?
[ "$rc" -eq 2 ] || { echo "FAIL: -s 0 exited $rc, not 2" >&2; exit 1; }
rc=0
mpirun --oversubscribe -np 1 "$bin_a" -s 1000 -p 100 -w 3 >/dev/null 2>&1 || rc=$?
[ "$rc" -eq 2 ] || { echo "FAIL: -w 3 exited $rc, not 2" >&2; exit 1; }
echo "shared_limit check: OK ($np ranks)"
