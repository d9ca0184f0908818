#!/usr/bin/env bash
# check_coll_perf.sh -- ctest's end-to-end check of the coll_perf benchmark
# (bench.coll_perf.np<N>): a correctness check, not a measurement.
#
# usage: check_coll_perf.sh NPROCS NCPARIO_BINARY [PNETCDF_BINARY | -]
#
# For CDF-1 and CDF-5, fixed-size and record variables, collective and
# independent calls, each binary writes and reads back 3 small variables by
# every method (coll_perf checks every value itself). Then:
#  - ncvalidator (env NCVALIDATOR, when executable) accepts every file;
#  - the three methods' files are byte-identical (same data, same header),
#    and the ncpario files equal the PnetCDF ones;
#  - ncpario's counters show what combining promises: per step, ONE MPI-IO
#    write and ONE read for mput and for iput + wait, one per variable for
#    the per-variable method; in independent mode the blocking puts may
#    instead be held and written once, at end_indep_data.
set -euo pipefail

# np, bin_a, bin_b, validator, work
source "$(dirname "${BASH_SOURCE[0]}")/check_common.sh" "$@"

nvars=3
fail=0
bad() { echo "FAIL: $*" >&2; fail=1; }

# The counters of one CSV line (csv,lib,...,method,...,mpiio_w,mpiio_r)
# against what the method promises for $1 steps.
check_counts() {
    local steps=$1 line=$2 method writes reads want
    method=$(cut -d, -f8 <<<"$line")
    writes=$(cut -d, -f14 <<<"$line")
    reads=$(cut -d, -f15 <<<"$line")
    if [ "$method" = pervar ]; then want=$((steps * nvars)); else want=$steps; fi
    # Independent puts, blocking or completed by ncmpi_wait, may be held
    # until end_indep_data (nc_indep_buffer_size on the posix driver):
    # then one write in all.
    if [ "$mode" = indep ] && [ "$writes" = 1 ]; then
        writes=$want
    fi
    [ "$writes" = "$want" ] && [ "$reads" = "$want" ] ||
        bad "$case: $method made $writes MPI-IO writes and $reads reads," \
            "expected $want each"
}

for fmt in 1 5; do
    for kind in fixed record; do
        for mode in coll indep; do
            case="-f $fmt $kind $mode at $np rank(s)"
            args=(-q -c -k -r 1 -v $nvars -e 5 -f "$fmt")
            steps=1
            if [ $kind = record ]; then args+=(-t 3); steps=3; fi
            [ $mode = coll ] || args+=(-i)
            dirs=()
            for bin in "$bin_a" "$bin_b"; do
                [ "$bin" != "-" ] || continue
                d=$work/$(basename "$bin").$fmt.$kind.$mode
                mkdir -p "$d"
                if ! mpirun --oversubscribe -np "$np" "$bin" "${args[@]}" \
                        -d "$d" >"$d.out" 2>&1; then
                    bad "$bin $case"; cat "$d.out" >&2; continue
                fi
                dirs+=("$d")
                if [ "$bin" = "$bin_a" ]; then
                    while read -r line; do
                        check_counts $steps "$line"
                    done < <(grep '^csv,' "$d.out")
                fi
            done
            for d in "${dirs[@]}"; do
                ref=$(ls "$d"/*.pervar.nc)
                for f in "$d"/*.nc; do
                    if [ -n "$validator" ] && ! "$validator" -q "$f"; then
                        bad "ncvalidator rejects $f"
                    fi
                    cmp "$ref" "$f" || bad "$case: $f differs from $ref"
                done
            done
            if [ ${#dirs[@]} -eq 2 ]; then
                cmp "$(ls "${dirs[0]}"/*.pervar.nc)" \
                    "$(ls "${dirs[1]}"/*.pervar.nc)" ||
                    bad "$case: ncpario and PnetCDF files differ"
            fi
        done
    done
done
[ -n "$validator" ] || echo "note: no ncvalidator, files not validated"
[ "$bin_b" != "-" ] || echo "note: no PnetCDF build, files not compared"
if [ $fail -eq 0 ]; then
    echo "coll_perf at $np rank(s): formats 1 5, fixed and record," \
         "collective and independent, 3 methods: all OK"
fi
exit $fail
