#!/usr/bin/env bash
# cdl_roundtrip_check.sh -- ctest interop.cdl_roundtrip: the CDL that
# netCDF's ncdump and PnetCDF's ncmpidump print of files ncpario wrote,
# read back through cdl_hdr_*, must describe those files exactly.
#
#   cdl_roundtrip_check.sh CDL_ROUNDTRIP NCDUMP NCMPIDUMP WORKDIR
#
# CDL_ROUNDTRIP (tests/interop/cdl_roundtrip.c) writes the files, then
# checks each against:
#   ncdump -h          every file; reals as printed, format from the types
#   ncdump -h -p 9,17  every file; reals in full, compared exactly
#   ncdump -s -h       CDF-1 and CDF-2 (ncdump -s fails on CDF-5): the
#                      format from _Format
#   ncmpidump -h       the plain files (ncmpidump escapes no name and
#                      prints no 64-bit integer past 2^53 right): the
#                      format from its comment
# NCMPIDUMP may be "-" when it is not installed.  Every check runs even
# after one fails.
set -uo pipefail

if [ $# -ne 4 ]; then
    echo "usage: $0 CDL_ROUNDTRIP NCDUMP NCMPIDUMP WORKDIR" >&2
    exit 2
fi
prog=$1 ncdump=$2 ncmpidump=$3 work=$4
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_mpi_yield_when_idle=1
export LC_ALL=C

rm -rf "$work"
mkdir -p "$work" || exit 1
"$prog" write "$work" || { echo "FAIL: writing the files"; exit 1; }

failures=0
# roundtrip FILE TAG FORMAT VALUES DUMPER [OPTION...]
roundtrip() {
    local f=$1 tag=$2 format=$3 values=$4
    shift 4
    local cdl="$work/$f.$tag.cdl"
    if ! "$@" "$work/$f.nc" >"$cdl" 2>"$cdl.err"; then
        echo "FAIL: $* $f.nc:"
        cat "$cdl.err"
        failures=$((failures + 1))
        return
    fi
    "$prog" check "$work/$f.nc" "$cdl" "$format" "$values" ||
        failures=$((failures + 1))
}

for f in all plain1 plain2 plain5; do
    roundtrip "$f" ncdump types printed "$ncdump" -h
    roundtrip "$f" ncdump_p types exact "$ncdump" -h -p 9,17
done
for f in plain1 plain2; do
    roundtrip "$f" ncdump_s file printed "$ncdump" -s -h
done
if [ "$ncmpidump" != "-" ]; then
    for f in plain1 plain2 plain5; do
        roundtrip "$f" ncmpidump file printed "$ncmpidump" -h
    done
fi
if [ "$failures" -ne 0 ]; then
    echo "FAIL: $failures round trips differ"
    exit 1
fi
echo "OK: every round trip matches"
