#!/usr/bin/env bash
# probe_pair_check.sh -- ctest interop.<probe>: one probe program, built
# once against ncpario and once against PnetCDF, must print the same.
#
#   probe_pair_check.sh PROBE_NCPARIO PROBE_PNETCDF WORKDIR [NP]
#
# Each build runs on NP ranks (default 1) with WORKDIR/ours or
# WORKDIR/theirs as its argument, for any files it writes; their outputs
# (one line per case: for layout_probe.c the header size, extent, recsize
# and every variable's offset, for strerror_probe.c each code's name and
# text) must be identical.
set -uo pipefail

if [ $# -lt 3 ] || [ $# -gt 4 ]; then
    echo "usage: $0 PROBE_NCPARIO PROBE_PNETCDF WORKDIR [NP]" >&2
    exit 2
fi
ours=$1 theirs=$2 work=$3 np=${4:-1}
limit=${NCP_RUN_TIMEOUT:-120}

export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_mpi_yield_when_idle=1
export LC_ALL=C
# the probe sets its hints (PNETCDF_HINTS too) itself, case by case
unset PNETCDF_HINTS

mkdir -p "$work/ours" "$work/theirs" || exit 1
# stdout only: the libraries word their warnings differently
timeout "$limit" mpirun --oversubscribe -np "$np" "$ours" "$work/ours" \
    > "$work/ours.txt" 2> "$work/ours.err" ||
    { cat "$work/ours.err"; echo "FAIL: $ours did not finish"; exit 1; }
timeout "$limit" mpirun --oversubscribe -np "$np" "$theirs" "$work/theirs" \
    > "$work/theirs.txt" 2> "$work/theirs.err" ||
    { cat "$work/theirs.err"; echo "FAIL: $theirs did not finish"; exit 1; }
# PnetCDF prints its warnings on stdout
grep -v '^Warning: ' "$work/theirs.txt" > "$work/theirs.cases"
grep -v '^Warning: ' "$work/ours.txt" > "$work/ours.cases"
if ! diff -u "$work/theirs.cases" "$work/ours.cases"; then
    echo "FAIL: outputs differ (- PnetCDF, + ncpario)"
    exit 1
fi
echo "PASS: $(wc -l < "$work/ours.cases") cases identical"
