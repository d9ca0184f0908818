#!/usr/bin/env bash
# run_mpi_test.sh -- one MPI test at one rank count (ctest mpi.<name>.np<N>).
#
#   run_mpi_test.sh NP EXE PNETCDF_EXE|- EXPECTED_CDL|- OUTDIR [CDL_DIR|-]
#
# Runs EXE on NP ranks with OUTDIR/<exe name>.nc as its only argument; the
# program may write more files beside it (<exe name>_<suffix>.nc).  Passing
# means, in order:
#   1. the program exits 0;
#   2. ncvalidator accepts every .nc file it wrote, without warnings;
#   3. ncdump of the main file equals EXPECTED_CDL, and ncdump of any other
#      file equals CDL_DIR/<file name>.cdl where that exists (the dataset
#      name on the first line is not compared: it follows the file name);
#   4. PNETCDF_EXE, the same source built against PnetCDF, run the same way
#      into OUTDIR/pnetcdf/, writes the same set of files, byte for byte.
# Every check runs even after one fails, so one run shows all differences.
#
# A passing run deletes the .nc files it wrote, unless NCP_KEEP_TEST_OUTPUT
# is set; a failing one keeps them.
#
# Environment: NCP_RUN_TIMEOUT (seconds per program run, default 120);
# OMPI_MCA_io and other MPI settings pass through untouched to ncpario's
# run.  The PnetCDF reference always runs on OpenMPI's ROMIO component:
# Debian's PnetCDF 1.12.3 reads back wrong bytes under OpenMPI 4.1.4's
# default OMPIO component (t_types at 2 ranks), and a reference must be
# right.  ROMIO's write data sieving is turned off there (through
# PNETCDF_HINTS, which PnetCDF hands to MPI-IO): it fills the never-written
# gaps of a noncontiguous write with stale buffer bytes, where OMPIO and
# ncpario leave holes that read as zeros.
set -euo pipefail

if [ $# -lt 5 ] || [ $# -gt 6 ]; then
    echo "usage: $0 NP EXE PNETCDF_EXE|- EXPECTED_CDL|- OUTDIR [CDL_DIR|-]" >&2
    exit 2
fi
np=$1 exe=$2 pexe=$3 cdl=$4 outdir=$5 cdldir=${6:--}
limit=${NCP_RUN_TIMEOUT:-120}
name=$(basename "$exe")

# OpenMPI refuses root without these; more ranks than cores would spin.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_mpi_yield_when_idle=1

failures=0
fail() {
    echo "FAIL: $*"
    failures=$((failures + 1))
}

# run_program EXE DIR LABEL: runs EXE into DIR/<name>.nc, shows its output.
run_program() {
    local prog=$1 dir=$2 label=$3 rc=0
    rm -rf "$dir"
    mkdir -p "$dir"
    echo "== $label: mpirun -np $np $prog $dir/$name.nc"
    timeout --kill-after=10 "$limit" \
        mpirun --oversubscribe -np "$np" "$prog" "$dir/$name.nc" \
        >"$dir/run.log" 2>&1 || rc=$?
    cat "$dir/run.log"
    if [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
        fail "$label: timed out after ${limit}s"
    elif [ "$rc" -ne 0 ]; then
        fail "$label: exit status $rc"
    fi
    return "$rc"
}

# ncdump with the dataset name on the first line replaced.
dump_normalized() {
    ncdump "$1" | sed '1s/^netcdf .* {$/netcdf X {/'
}

basenames() {
    local f out=""
    for f in "$@"; do out="$out ${f##*/}"; done
    echo "${out# }"
}

check_cdl() {
    local file=$1 expected=$2
    if [ ! -f "$expected" ]; then
        fail "expected CDL $expected does not exist"
        return
    fi
    if ! diff -u --label "$expected" --label "ncdump $(basename "$file")" \
            <(sed '1s/^netcdf .* {$/netcdf X {/' "$expected") \
            <(dump_normalized "$file") >"$outdir/cdl.diff" 2>&1; then
        fail "ncdump $(basename "$file") differs from $expected" \
             "(- expected, + written):"
        head -n 60 "$outdir/cdl.diff"
    fi
}

ours_dir=$outdir
theirs_dir=$outdir/pnetcdf
rm -rf "$outdir"
mkdir -p "$outdir"

if ! run_program "$exe" "$ours_dir" ncpario; then
    echo "RESULT: FAIL ($failures problem(s))"
    exit 1
fi

shopt -s nullglob
ours=("$ours_dir"/*.nc)
if [ ${#ours[@]} -eq 0 ]; then
    echo "note: the program wrote no .nc file"
fi
if [ "$cdl" != "-" ] && [ ! -f "$ours_dir/$name.nc" ]; then
    fail "main file $ours_dir/$name.nc missing but a CDL is expected"
fi

for f in "${ours[@]}"; do
    b=$(basename "$f" .nc)
    if ! vout=$(ncvalidator "$f" 2>&1) || grep -qi warning <<<"$vout"; then
        fail "ncvalidator rejects $f:"
        echo "$vout"
    fi
    if [ "$b" = "$name" ]; then
        [ "$cdl" = "-" ] || check_cdl "$f" "$cdl"
    elif [ "$cdldir" != "-" ] && [ -f "$cdldir/$b.cdl" ]; then
        check_cdl "$f" "$cdldir/$b.cdl"
    fi
done

if [ "$pexe" != "-" ]; then
    if OMPI_MCA_io=romio321 \
       PNETCDF_HINTS="${PNETCDF_HINTS:+$PNETCDF_HINTS;}romio_ds_write=disable" \
       run_program "$pexe" "$theirs_dir" PnetCDF; then
        ours_names=$(basenames "${ours[@]}")
        theirs_names=$(basenames "$theirs_dir"/*.nc)
        if [ "$ours_names" != "$theirs_names" ]; then
            fail "different file sets: ncpario wrote [$ours_names]," \
                 "PnetCDF wrote [$theirs_names]"
        fi
        for f in "${ours[@]}"; do
            t=$theirs_dir/$(basename "$f")
            [ -f "$t" ] || continue
            if ! cmp -s "$f" "$t"; then
                fail "$(basename "$f") differs from PnetCDF's" \
                     "(sizes $(stat -c %s "$f") vs $(stat -c %s "$t"));" \
                     "first differing bytes (byte number from 1, ours," \
                     "theirs in octal):"
                cmp -l "$f" "$t" 2>&1 | head -n 8 || true
                echo "ncdump differences (< ncpario, > PnetCDF):"
                diff <(ncdump "$f" 2>&1) <(ncdump "$t" 2>&1) | head -n 30 || true
            fi
        done
    fi
fi

if [ "$failures" -ne 0 ]; then
    echo "RESULT: FAIL ($failures problem(s))"
    exit 1
fi
echo "RESULT: PASS (np=$np, ${#ours[@]} file(s))"
# A passing run's files go: every cell of the matrix has its own folder,
# and some tests write gigabytes.  A failing run keeps them to look at.
if [ -z "${NCP_KEEP_TEST_OUTPUT:-}" ]; then
    rm -f "$ours_dir"/*.nc "$theirs_dir"/*.nc
fi
