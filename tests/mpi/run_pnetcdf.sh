#!/bin/sh
# Builds the MPI test programs against a PnetCDF-API library (Debian's
# PnetCDF by default) and runs each at its rank counts.  For every output
# file it runs ncvalidator, compares `ncdump` with the checked-in .cdl (when
# there is one) and checks the files are byte-identical across rank counts,
# since no test's content may depend on the number of ranks.
#
#   tests/mpi/run_pnetcdf.sh [t_name ...]
#   env: CC (mpicc), LIBS (-lpnetcdf), OUT (/tmp/ncp_mpi_pnetcdf),
#        REGEN_CDL=1 rewrites the .cdl files from the first rank count's run,
#        OMPI_MCA_io=romio321 (or ompio) picks the MPI-IO component.
# Honours the first-line options RANKS, TIMEOUT and NO_CDL (no ncdump
# comparison, for files too big to dump).  A quick manual check; ctest
# (tests/run_mpi_test.sh) is the real harness.
set -u
here=$(cd "$(dirname "$0")" && pwd)
CC=${CC:-mpicc}
LIBS=${LIBS:--lpnetcdf}
OUT=${OUT:-/tmp/ncp_mpi_pnetcdf}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_mpi_yield_when_idle=1
mkdir -p "$OUT/bin"
if [ $# -eq 0 ]; then
    set -- $(cd "$here" && ls t_*.c | sed 's/\.c$//')
fi
bad=0
for t in "$@"; do
    src="$here/$t.c"
    opts=$(head -n 1 "$src" | sed -n 's/.*ncp-test:\(.*\)\*\/.*/\1/p')
    ranks=$(echo "$opts" | sed -n 's/.*RANKS \([0-9 ]*\).*/\1/p')
    ranks=${ranks:-1 2 4}
    tmo=$(echo "$opts" | sed -n 's/.*TIMEOUT \([0-9]*\).*/\1/p')
    tmo=${tmo:-120}
    if ! $CC -O1 -g -Wall -Wextra "$src" -o "$OUT/bin/$t" $LIBS; then
        echo "BUILD-FAIL $t"; bad=1; continue
    fi
    for np in $ranks; do
        d="$OUT/np$np"
        mkdir -p "$d"
        rm -f "$d/$t".nc "$d/$t"_*.nc
        timeout "$tmo" mpirun --oversubscribe -np "$np" "$OUT/bin/$t" \
            "$d/$t.nc" > "$d/$t.log" 2>&1
        rc=$?
        tail -n 1 "$d/$t.log" | sed "s/^/np=$np /"
        if [ $rc -ne 0 ]; then
            echo "RUN-FAIL $t np=$np rc=$rc"; grep FAIL "$d/$t.log" | head; bad=1
        fi
        for f in "$d/$t".nc "$d/$t"_*.nc; do
            [ -f "$f" ] || continue
            b=$(basename "$f" .nc)
            vout=$(ncvalidator "$f" 2>&1)
            if [ $? -ne 0 ] || echo "$vout" | grep -qi warning; then
                echo "INVALID $f: $vout"; bad=1
            fi
            case "$opts" in
            *NO_CDL*) ;;
            *)
                if [ "${REGEN_CDL:-0}" = 1 ] && [ "$np" = "$(echo $ranks | cut -d' ' -f1)" ]; then
                    ncdump "$f" > "$here/$b.cdl"
                fi
                if [ -f "$here/$b.cdl" ] && ! ncdump "$f" | cmp -s - "$here/$b.cdl"; then
                    echo "CDL-DIFF $f"; bad=1
                fi ;;
            esac
            first="$OUT/np$(echo $ranks | cut -d' ' -f1)/$b.nc"
            if [ "$f" != "$first" ] && ! cmp -s "$f" "$first"; then
                echo "NP-DIFF $f vs $first"; bad=1
            fi
        done
    done
done
exit $bad
