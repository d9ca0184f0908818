#!/usr/bin/env bash
# check_fortran.sh -- ctest's check of the Fortran benchmark programs
# (bench.fortran.np<N>), a check of the programs, not a measurement.
#
# usage: check_fortran.sh NPROCS BIN_DIR
#
# btio_f (at a square rank count) and flash_io_f, over ncpario's Fortran
# binding and, where built, over PnetCDF's, must exit 0 (they verify
# every value they read back) and print their csv lines; the files they
# keep (-k) must pass ncvalidator and be byte-identical, method by
# method, to those of the C programs btio and flash_io (its chk file) of
# the same case; a bad option must exit 2. Odd sizes, so that cells and
# blocks are uneven across the ranks.
set -euo pipefail

# np, bin_a (the directory), validator, work
source "$(dirname "${BASH_SOURCE[0]}")/check_common.sh" "$@"
bin=$bin_a
fail=0
bad() { echo "FAIL: $*" >&2; fail=1; }

# run NAME ARGS...: one program into $work/NAME, its csv lines checked.
run() {
    local name=$1; shift
    local exe=${name%%.*} out
    mkdir -p "$work/$name"
    out=$(mpirun --oversubscribe -np "$np" "$bin/$exe" "$@" -r 1 -k -q -c \
          -d "$work/$name") || { bad "$exe $* exited $?"; return; }
    grep -q "^csv,.*,$np,total_w," <<<"$out" || bad "$exe: no csv lines"
}

# same C_DIR F_DIR PATTERN: every kept file of the C run matching the
# pattern has a byte-identical twin (same method) in the Fortran run.
same() {
    local n=0 c f g m
    for c in "$work/$1"/$3; do
        [ -e "$c" ] || continue
        # <prog>.<lib>.<pid>.<method...>: the part after the pid.
        m=$(basename "$c" | cut -d. -f4-)
        f=""
        for g in "$work/$2"/*."$m"; do
            [ -e "$g" ] && { f=$g; break; }
        done
        [ -z "${CHECK_FORTRAN_VERBOSE:-}" ] || echo "cmp $c $f"
        if [ -z "$f" ]; then
            bad "$2 kept no file for $m"
        elif ! cmp -s "$c" "$f"; then
            bad "$(basename "$f") differs from $(basename "$c")"
        fi
        if [ -n "$validator" ] && [ -n "$f" ] &&
            ! "$validator" -q "$f" >/dev/null 2>&1; then
            bad "ncvalidator rejects $(basename "$f")"
        fi
        n=$((n + 1))
    done
    [ "$n" -eq 3 ] || bad "$1: $n files matching $3, expected 3"
}

# The program suffix of each library built: "" (ncpario), "_pnetcdf".
suffixes=()
for s in "" _pnetcdf; do
    [ -x "$bin/btio_f$s" ] && suffixes+=("$s")
done
[ -x "$bin/btio_f" ] || { echo "check_fortran: btio_f not built" >&2; exit 1; }

q=1
while [ $((q * q)) -lt "$np" ]; do q=$((q + 1)); done
if [ $((q * q)) -eq "$np" ]; then
    run btio -g 10,9,7 -s 2
    for s in "${suffixes[@]}"; do
        run "btio_f$s" -g 10,9,7 -s 2
        same btio "btio_f$s" '*.nc'
    done
fi
run flash_io -n 3 -b 5
for s in "${suffixes[@]}"; do
    run "flash_io_f$s" -n 3 -b 5
    same flash_io "flash_io_f$s" '*_chk.nc'
done

rc=0
mpirun --oversubscribe -np 1 "$bin/flash_io_f" -b 0 >/dev/null 2>&1 || rc=$?
[ "$rc" -eq 2 ] || bad "flash_io_f -b 0 exited $rc, not 2"
rc=0
mpirun --oversubscribe -np 1 "$bin/btio_f" -x 1 >/dev/null 2>&1 || rc=$?
[ "$rc" -eq 2 ] || bad "btio_f -x 1 exited $rc, not 2"
[ "$fail" -eq 0 ] && echo "Fortran benchmark check: OK ($np ranks)"
exit $fail
