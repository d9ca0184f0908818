#!/usr/bin/env bash
# check_blocks3d.sh -- ctest's end-to-end check of the blocks3d benchmark
# (bench.blocks3d.np<N>): a correctness check, not a measurement.
#
# usage: check_blocks3d.sh NPROCS NCPARIO_BINARY [PNETCDF_BINARY | -]
#
# For each format (CDF-1, 2, 5) and two awkward shapes -- one whose axes do
# not divide by the process grid, one so thin that some ranks own nothing --
# each binary writes and reads back the array (blocks3d checks every value
# itself), ncvalidator (env NCVALIDATOR, when executable) must accept the
# file, and the ncpario file must equal the PnetCDF one byte for byte: the
# same program and hints must give the same file.
set -euo pipefail

# np, bin_a, bin_b, validator, work
source "$(dirname "${BASH_SOURCE[0]}")/check_common.sh" "$@"

fail=0
for fmt in 1 2 5; do
    for shape in 37,29,23 5,3,1; do
        files=()
        for bin in "$bin_a" "$bin_b"; do
            [ "$bin" != "-" ] || continue
            f=$work/$(basename "$bin").f$fmt.${shape//,/x}.nc
            if ! mpirun --oversubscribe -np "$np" "$bin" -q -r 2 -k \
                    -f "$fmt" -n "$shape" -o "$f"; then
                echo "FAIL: $bin -f $fmt -n $shape at $np rank(s)" >&2
                fail=1
                continue
            fi
            if [ -n "$validator" ] && ! "$validator" -q "$f"; then
                echo "FAIL: ncvalidator rejects $f" >&2
                fail=1
            fi
            files+=("$f")
        done
        if [ ${#files[@]} -eq 2 ] && ! cmp "${files[0]}" "${files[1]}"; then
            echo "FAIL: -f $fmt -n $shape: ncpario and PnetCDF files differ" >&2
            fail=1
        fi
    done
done
[ -n "$validator" ] || echo "note: no ncvalidator, files not validated"
[ "$bin_b" != "-" ] || echo "note: no PnetCDF build, files not compared"
if [ $fail -eq 0 ]; then
    echo "blocks3d at $np rank(s): formats 1 2 5, two shapes: all OK"
fi
exit $fail
