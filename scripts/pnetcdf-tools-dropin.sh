#!/usr/bin/env bash
# pnetcdf-tools-dropin.sh -- PnetCDF's own tools, built from a PnetCDF
# release's source against the system's shared PnetCDF (libpnetcdf.so.0d),
# run on each given file once on PnetCDF and once on ncpario through
# `ncpario run`, with no rebuild; their outputs must be identical.
#
#   pnetcdf-tools-dropin.sh PNETCDF_SRC NCPARIO_CMD WORKDIR FILE.nc...
#
# PNETCDF_SRC is an extracted release tree (it is read, never copied into
# this repository); NCPARIO_CMD the installed or built `ncpario` command.
# Debian's pnetcdf-bin links its tools statically, so they cannot be
# redirected: this builds the dynamically linked tools a PnetCDF install
# from source has.  Tools: ncmpidump (plain and -k, -h), ncmpidiff of each
# file with itself at 2 ranks (exit status and output).  Not part of ctest: it needs PnetCDF's
# source, which the build machines do not have.
set -u -o pipefail
if [ $# -lt 4 ]; then
    sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//'
    exit 2
fi
src=$1 ncpario=$2 work=$3
shift 3
utils=$src/src/utils
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_mpi_yield_when_idle=1 LC_ALL=C
mkdir -p "$work" || exit 1

# The tools' sources want configure's config.h for a handful of sizes.
cat > "$work/config.h" <<'H'
#define SIZEOF_INT 4
#define SIZEOF_MPI_OFFSET 8
#define SIZEOF_SIZE_T 8
H
mpicc -O1 -I"$work" -I"$utils/ncmpidump" -o "$work/ncmpidump" \
    "$utils"/ncmpidump/*.c -lpnetcdf || exit 1
mpicc -O1 -DHAVE_CONFIG_H -I"$work" -o "$work/ncmpidiff" \
    "$utils/ncmpidiff/ncmpidiff.c" -lpnetcdf || exit 1

loaded=$("$ncpario" run -- ldd "$work/ncmpidump" | grep libpnetcdf.so.0d)
echo "under ncpario run, ncmpidump loads: $loaded"
failures=0 runs=0 both_fail=0
# same LABEL CMD...: CMD's output on PnetCDF and on ncpario must match.  A
# run that fails on both is counted apart: ncmpidiff 1.12.3 reports some
# files different from themselves, printing uninitialised values, and
# aborts; that output is not the library's to match.
same() {
    local label=$1
    shift
    runs=$((runs + 1))
    "$@" > "$work/theirs.out" 2>&1
    local rc_theirs=$?
    "$ncpario" run -- "$@" > "$work/ours.out" 2>&1
    local rc_ours=$?
    if [ "$rc_theirs" -ne 0 ] && [ "$rc_ours" -ne 0 ]; then
        echo "fails on both: $label"
        both_fail=$((both_fail + 1))
    elif [ "$rc_theirs" -ne "$rc_ours" ] ||
       ! cmp -s "$work/theirs.out" "$work/ours.out"; then
        echo "DIFFER: $label (exit $rc_theirs on PnetCDF, $rc_ours on ncpario)"
        diff "$work/theirs.out" "$work/ours.out" | head -20
        failures=$((failures + 1))
    fi
}
for f in "$@"; do
    same "ncmpidump $f" "$work/ncmpidump" "$f"
    same "ncmpidump -k $f" "$work/ncmpidump" -k "$f"
    same "ncmpidump -h $f" "$work/ncmpidump" -h "$f"
    same "ncmpidiff $f" mpirun --oversubscribe -np 2 "$work/ncmpidiff" "$f" "$f"
done
echo "$((runs - failures - both_fail)) of $runs tool runs identical on" \
     "PnetCDF and ncpario, $both_fail fail on both, $failures differ"
[ "$failures" -eq 0 ]
