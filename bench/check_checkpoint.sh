#!/usr/bin/env bash
# check_checkpoint.sh -- ctest's run of checkpoint (bench.checkpoint.np<N>):
# both patterns, both libraries built, and ncpario with write-behind
# (nc_write_behind=enable), tiny sizes, no compute phase.
#
# usage: check_checkpoint.sh NPROCS CHECKPOINT_BINARY [CHECKPOINT_PNETCDF_BINARY | -]
#
# Passing means, for each pattern and library: the program exits 0 (it
# read the last checkpoint back right), prints its csv line with as many
# bytes a checkpoint as the pattern holds and blocked times no larger than
# the whole loop, ncvalidator accepts every file it kept, and ncpario's
# files, written either way, are byte-identical to PnetCDF's.
set -euo pipefail

# np, bin_a, bin_b, validator, work
source "$(dirname "${BASH_SOURCE[0]}")/check_common.sh" "$@"
export OMPI_MCA_io=${OMPI_MCA_io-romio321}

b=6 nv=3 n=3
fail=0
bad() { echo "FAIL: $*" >&2; fail=1; }

run() { # LIB BINARY PATTERN [PNETCDF_HINTS]
    local dir="$work/$1.$3" out
    mkdir -p "$dir"
    if ! out=$(PNETCDF_HINTS="${4-}" mpirun --oversubscribe -np "$np" "$2" \
                 -p "$3" -b $b -v $nv -n $n -t 0 -d "$dir" -k -c -q); then
        bad "$1 $3 exited non-zero"
        return
    fi
    echo "$out"
    python3 - "$out" "$3" "$np" $b $nv <<'PY' || bad "$1 $3: csv line"
import sys
out, pat, np, b, nv = sys.argv[1], sys.argv[2], *map(int, sys.argv[3:])
f = [l for l in out.splitlines() if l.startswith("csv,checkpoint,")]
assert len(f) == 1, f
c = f[0].split(",")
want = b ** 3 * 8 * (nv if pat == "flash" else 1) * np
assert int(c[4]) == np and int(c[5]) == want, (c, want)
med, most, whole = float(c[6]), float(c[7]), float(c[8])
assert 0 < med <= most <= whole, c
PY
    if [ -n "$validator" ]; then
        for f in "$dir"/*.nc; do
            "$validator" -q "$f" > /dev/null || bad "ncvalidator: $f"
        done
    fi
}

for pat in flash btio; do
    run ncpario "$bin_a" $pat
    run behind "$bin_a" $pat nc_write_behind=enable
    if [ "$bin_b" != "-" ]; then
        run pnetcdf "$bin_b" $pat
        for lib in ncpario behind; do
            for f in "$work/$lib.$pat"/*.nc; do
                cmp "$f" "$work/pnetcdf.$pat/$(basename "$f")" ||
                    bad "$lib $pat: $(basename "$f") differs from PnetCDF's"
            done
        done
    fi
done
[ $fail -eq 0 ] && echo "check_checkpoint: ok"
exit $fail
