#!/usr/bin/env bash
# demo.sh -- what `make demo` runs: a parallel write and read-back of one
# netCDF file at 4 ranks, with ncpario and with PnetCDF in turn, and checks
# of the files they leave.
#
# It builds nothing: the Makefile's demo target builds first and passes
# BUILD_DIR. It needs build/bench/blocks3d (ncpario) and, for the
# comparison, build/bench/blocks3d_pnetcdf (the same source built against
# the system's PnetCDF); without the latter it runs ncpario alone.
#
# Sized to finish in well under two minutes on two cores: about 32 MiB in
# all (8 MiB per rank), in /tmp, 3 rounds. Environment knobs: BUILD_DIR,
# DEMO_DIR (/tmp), DEMO_RANKS (4), DEMO_MIB (8, per rank), DEMO_ROUNDS (3),
# KEEP=1 to keep the two files; OMPI_MCA_io reaches the ranks unchanged.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
BUILD_DIR=${BUILD_DIR:-$here/../build}
DEMO_DIR=${DEMO_DIR:-/tmp}
DEMO_RANKS=${DEMO_RANKS:-4}
DEMO_MIB=${DEMO_MIB:-8}
DEMO_ROUNDS=${DEMO_ROUNDS:-3}

bin_a=$BUILD_DIR/bench/blocks3d
bin_b=$BUILD_DIR/bench/blocks3d_pnetcdf
if [ ! -x "$bin_a" ]; then
    echo "demo: $bin_a not found; run 'make demo' (it builds first)" >&2
    exit 1
fi
if [ ! -x "$bin_b" ]; then
    echo "demo: $bin_b not found (PnetCDF missing at build time):" \
         "running ncpario alone" >&2
    bin_b=-
fi

export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_mpi_yield_when_idle=1

work=$(mktemp -d "$DEMO_DIR/ncpario-demo.XXXXXX")
if [ "${KEEP:-0}" = 1 ]; then
    trap 'echo "demo: files kept in $work"' EXIT
else
    trap 'rm -rf "$work"' EXIT
fi
start=$SECONDS

section() { printf '\n== %s\n' "$*"; }

echo "ncpario demo: $DEMO_RANKS MPI ranks write one 3-D array of doubles,"
echo "v(z,y,x), to one shared netCDF file, each rank its own block, in one"
echo "collective call (ncmpi_put_vara_double_all); they close the file, open"
echo "it again and read their blocks back (ncmpi_get_vara_double_all), and"
echo "every value is checked against what was written. The same program,"
echo "bench/blocks3d.c, is built against ncpario and against PnetCDF."

section "1. One run of each, files kept for the checks below"
files=()
for bin in "$bin_a" "$bin_b"; do
    [ "$bin" != "-" ] || continue
    if [ "$bin" = "$bin_a" ]; then f=$work/ncpario.nc; else f=$work/pnetcdf.nc; fi
    mpirun --oversubscribe -np "$DEMO_RANKS" "$bin" -s "$DEMO_MIB" -r 1 -w 1 \
        -k -o "$f"
    files+=("$f")
done

section "2. Bandwidth: ncpario and PnetCDF in turn, $DEMO_ROUNDS rounds"
RANKS=$DEMO_RANKS DIRS=$DEMO_DIR ROUNDS=$DEMO_ROUNDS SIZE_MIB=$DEMO_MIB \
    bash "$here/compare_blocks3d.sh" "$bin_a" "$bin_b"

section "3. Are the files valid netCDF?"
status=0
for f in "${files[@]}"; do
    if ncvalidator "$f"; then :; else status=1; fi
done
echo
echo "\$ ncdump -h $(basename "${files[0]}")"
ncdump -h "${files[0]}" || status=1

if [ ${#files[@]} -eq 2 ]; then
    section "4. Same program, same file? (ncpario vs PnetCDF, byte for byte)"
    if cmp "${files[0]}" "${files[1]}"; then
        echo "identical: $(stat -c %s "${files[0]}") bytes each"
    else
        echo "demo: the two files differ" >&2
        status=1
    fi
fi

echo
if [ $status -eq 0 ]; then
    echo "demo: OK ($((SECONDS - start)) s)"
else
    echo "demo: FAILED ($((SECONDS - start)) s)" >&2
fi
exit $status
