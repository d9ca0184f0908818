#!/usr/bin/env bash
# compare_blocks3d.sh -- runs two builds of blocks3d (A: ncpario, B: PnetCDF)
# turn about, then prints medians and A/B ratios per (ranks, directory).
#
# Turn about (A, B, A, B ... for every round, rank count and directory)
# because a machine's speed drifts: page cache, other jobs, CPU clocks. Two
# back-to-back runs see nearly the same machine, so their ratio is fair even
# when the absolute numbers wander between rounds. Every run verifies every
# value it reads; a failed run stops the comparison, since a fast wrong
# answer is no result. It builds nothing.
#
# usage: compare_blocks3d.sh [options] A_BINARY [B_BINARY | -]
#   -p "RANKS"   rank counts               (env RANKS,    default "1 2 4")
#   -d "DIRS"    directories of the files  (env DIRS,     default "/dev/shm /tmp")
#   -r N         rounds                    (env ROUNDS,   default 5)
#   -s MiB       data per rank             (env SIZE_MIB, default 8)
#   -o FILE      keep the CSV in FILE      (env OUT_CSV,  default: a temp file)
#   -- ARGS      further blocks3d options, e.g. -- -f 5
# Each run does WARMUP (default 1) untimed and REPS (default 3) timed
# repetitions; RUN_TIMEOUT (default 300 s) bounds one run. B_BINARY "-"
# runs A alone. OMPI_MCA_io and any other OMPI_MCA_* in the environment
# reach the ranks unchanged (OpenMPI forwards them).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

RANKS=${RANKS:-"1 2 4"}
DIRS=${DIRS:-"/dev/shm /tmp"}
ROUNDS=${ROUNDS:-5}
SIZE_MIB=${SIZE_MIB:-8}
OUT_CSV=${OUT_CSV:-}
REPS=${REPS:-3}
WARMUP=${WARMUP:-1}
RUN_TIMEOUT=${RUN_TIMEOUT:-300}
MPIRUN=${MPIRUN:-mpirun}

usage() {
    sed -n '/^# usage:/,/^# reach the ranks/s/^# \{0,1\}//p' "${BASH_SOURCE[0]}" >&2
    exit 2
}

while getopts "p:d:r:s:o:h" opt; do
    case $opt in
    p) RANKS=$OPTARG ;;
    d) DIRS=$OPTARG ;;
    r) ROUNDS=$OPTARG ;;
    s) SIZE_MIB=$OPTARG ;;
    o) OUT_CSV=$OPTARG ;;
    *) usage ;;
    esac
done
shift $((OPTIND - 1))
[ $# -ge 1 ] || usage
bin_a=$1
bin_b=${2:--}
shift $(($# >= 2 ? 2 : 1))
if [ "${1:-}" = "--" ]; then
    shift
fi
extra=("$@")

for b in "$bin_a" "$bin_b"; do
    if [ "$b" != "-" ] && [ ! -x "$b" ]; then
        echo "compare_blocks3d: $b is not an executable (build first)" >&2
        exit 2
    fi
done
case $ROUNDS in '' | *[!0-9]* | 0) echo "compare_blocks3d: bad rounds '$ROUNDS'" >&2; exit 2 ;; esac

# OpenMPI refuses root without these, and more ranks than cores need
# --oversubscribe; yielding keeps oversubscribed ranks from spinning.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_mpi_yield_when_idle=1

usable_dirs=()
for d in $DIRS; do
    if [ -d "$d" ] && [ -w "$d" ]; then
        usable_dirs+=("$d")
    else
        echo "compare_blocks3d: skipping $d (not a writable directory)" >&2
    fi
done
[ ${#usable_dirs[@]} -gt 0 ] || { echo "compare_blocks3d: no usable directory" >&2; exit 2; }

workdir=$(mktemp -d "${TMPDIR:-/tmp}/compare_blocks3d.XXXXXX")
trap 'rm -rf "$workdir"' EXIT
csv=${OUT_CSV:-$workdir/results.csv}
echo "round,slot,lib,nprocs,dir,bytes,write_s,read_s,write_mibs,read_mibs" >"$csv"

slots=(A)
[ "$bin_b" = "-" ] || slots+=(B)
nruns=$((ROUNDS * $(wc -w <<<"$RANKS") * ${#usable_dirs[@]} * ${#slots[@]}))
echo "compare_blocks3d: A = $bin_a"
echo "compare_blocks3d: B = $bin_b"
echo "compare_blocks3d: ranks '$RANKS', dirs '${usable_dirs[*]}', $ROUNDS round(s)," \
     "$SIZE_MIB MiB/rank, $WARMUP warm-up + $REPS timed rep(s) per run," \
     "io=${OMPI_MCA_io:-default}${extra[*]:+, extra: ${extra[*]}}: $nruns runs"

# One run of one binary; appends its CSV lines, tagged with round and slot.
run_one() {
    local round=$1 slot=$2 bin=$3 np=$4 dir=$5 out=$workdir/run.out rc=0
    timeout "$RUN_TIMEOUT" "$MPIRUN" --oversubscribe -np "$np" "$bin" \
        -q -c -s "$SIZE_MIB" -d "$dir" -r "$REPS" -w "$WARMUP" \
        ${extra[@]+"${extra[@]}"} >"$out" 2>&1 || rc=$?
    if [ $rc -ne 0 ]; then
        echo "compare_blocks3d: FAILED (exit $rc): $bin at $np rank(s) in $dir:" >&2
        cat "$out" >&2
        exit 1
    fi
    # Only blocks3d's CSV lines: MPI may add its own chatter.
    grep -E '^[^,]+,[0-9]+,.*,[0-9]+,[0-9.]+,[0-9.]+,[0-9.]+,[0-9.]+$' "$out" |
        sed "s|^|$round,$slot,|" >>"$csv" || {
        echo "compare_blocks3d: no CSV from $bin at $np rank(s) in $dir:" >&2
        cat "$out" >&2
        exit 1
    }
}

done_runs=0
for round in $(seq 1 "$ROUNDS"); do
    for np in $RANKS; do
        for dir in "${usable_dirs[@]}"; do
            run_one "$round" A "$bin_a" "$np" "$dir"
            [ "$bin_b" = "-" ] || run_one "$round" B "$bin_b" "$np" "$dir"
            done_runs=$((done_runs + ${#slots[@]}))
        done
    done
    echo "compare_blocks3d: round $round/$ROUNDS done ($done_runs/$nruns runs)"
done

echo
python3 "$here/summarize.py" "$csv"
if [ -n "$OUT_CSV" ]; then
    echo
    echo "compare_blocks3d: raw results in $OUT_CSV"
fi
