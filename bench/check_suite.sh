#!/usr/bin/env bash
# check_suite.sh -- ctest's smoke run of the benchmark suite
# (bench.suite.smoke): every benchmark against every library built, tiny
# sizes, 2 ranks (BTIO at 1 and 4), one repetition, the Fortran programs
# (btio_f, flash_io_f) too where they were built. A correctness check of
# the runner and the programs, not a measurement.
#
# usage: check_suite.sh BIN_DIR
#
# Passing means: the runner exits 0 (every program verified what it read
# and every netCDF file passed ncvalidator); the table names every
# benchmark and every library; results.csv, results.json and the plots
# exist; and a run whose program fails makes the runner fail.
set -euo pipefail

bin_dir=$1
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/check_suite.XXXXXX")
trap 'rm -rf "$work"' EXIT
fail=0
bad() { echo "FAIL: $*" >&2; fail=1; }

libs=ncpario
for l in pnetcdf hdf5; do
    [ -x "$bin_dir/coll_io_$l" ] && libs="$libs,$l"
done
libs="$libs,mpiio,fpp"

"$here/ncpario-bench" --preset smoke --bin-dir "$bin_dir" --libs "$libs" \
    --dir "$work" --out "$work/out" >"$work/table.txt" ||
    bad "the smoke run failed"
for b in coll_io flash_io btio mom_io pflotran_io part2d; do
    grep -q "^== $b, write" "$work/table.txt" || bad "no $b table"
done
for l in ${libs//,/ }; do
    grep -q " $l " "$work/table.txt" || bad "no row of $l"
done
# The checkpoint loop's table, where both its programs were built.
if [ -x "$bin_dir/checkpoint_pnetcdf" ]; then
    grep -q "ncpario write-behind" "$work/table.txt" ||
        bad "no checkpoint loop table"
    grep -q "blocked/sync" "$work/table.txt" || bad "no write-behind ratio"
fi
# The Fortran programs' rows, where they were built, in the C tables.
if [ -x "$bin_dir/btio_f" ]; then
    for b in btio flash_io; do
        # Not a pipe into grep -q: under pipefail, sed's SIGPIPE would
        # fail the test when grep stops reading early.
        rows=$(sed -n "/^== $b, write/,/^== $b, read/p" "$work/table.txt")
        grep -q " ncpario (Fortran) " <<<"$rows" || bad "no Fortran row in $b"
    done
    if [ -x "$bin_dir/btio_f_pnetcdf" ]; then
        grep -q " pnetcdf (Fortran) " "$work/table.txt" ||
            bad "no row of pnetcdf (Fortran)"
    fi
    grep -q "ncpario C/Fortran" "$work/table.txt" || bad "no C/Fortran ratio"
fi
for f in results.csv results.json coll_io_breakdown.png; do
    [ -s "$work/out/$f" ] || bad "no $f"
done

# A program that fails must fail the suite: a --bin-dir whose flash_io
# exits 1 after a message, as one that read a wrong value does.
mkdir -p "$work/broken"
for l in ${libs//,/ }; do
    exe=flash_io; [ "$l" = ncpario ] || exe=flash_io_$l
    printf '#!/bin/sh\necho "flash_io: wrong value" >&2\nexit 1\n' \
        >"$work/broken/$exe"
    chmod +x "$work/broken/$exe"
done
if "$here/ncpario-bench" --preset smoke --bin-dir "$work/broken" \
        --benchmarks flash_io --libs "$libs" --dir "$work" \
        --out "$work/out2" >/dev/null 2>"$work/err.txt"; then
    bad "the suite passed although flash_io failed"
fi
grep -q "FAILED" "$work/err.txt" || bad "no FAILED message"
[ ! -e "$work/out2/table.txt" ] || bad "a failed run wrote a table"

# Two builds in one run: ncpario@BUILD takes its executables from
# --alt-bin's directory and gets its own rows and a ratio to ncpario.
"$here/ncpario-bench" --preset smoke --bin-dir "$bin_dir" \
    --benchmarks coll_io --libs ncpario,ncpario@alt --alt-bin "alt=$bin_dir" \
    --dir "$work" --out "$work/out3" --no-plots >"$work/alt.txt" ||
    bad "the run with an --alt-bin build failed"
grep -q " ncpario@alt " "$work/alt.txt" || bad "no row of ncpario@alt"
grep -q "ncpario/ncpario@alt" "$work/alt.txt" || bad "no ratio to ncpario@alt"
rc=0
"$here/ncpario-bench" --preset smoke --bin-dir "$bin_dir" \
    --libs ncpario@nowhere --out "$work/out4" >/dev/null 2>&1 || rc=$?
[ "$rc" -eq 2 ] || bad "a build no --alt-bin names exited $rc, not 2"
exit $fail
