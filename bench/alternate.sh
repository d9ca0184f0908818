#!/usr/bin/env bash
# Alternating runs of one case: an older build of the benchmarks (PREV),
# this one (NOW) and PnetCDF (NOW's <program>_pnetcdf) take turns, one
# mpirun each, ROUNDS rounds; each run's write lines (WHAT=read: read
# lines) of `-c` csv are printed with "build,round," in front.  bench/alternate_median.py
# prints the medians and ratios of such files.  `recheck` reruns the
# write cells docs/BENCHMARKS.md's 2026-11-27 table had below 0.9 x goal.
#
# usage (from the repository root):
#   PREV=OLD/build/bench bench/alternate.sh run NP PROGRAM ARGS... >FILE.csv
#   PREV=OLD/build/bench bench/alternate.sh recheck [OUT]
# NOW defaults to build/bench, ROUNDS to 5; recheck's OUT defaults to
# bench-results/recheck-YYYY-MM-DD, which git ignores.
set -u
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_mpi_yield_when_idle=1 OMPI_MCA_io=romio321
NOW=${NOW:-build/bench}
PREV=${PREV:?set PREV to the bench directory of the older build}
rounds=${ROUNDS:-5}

run() { # np prog args...
  local np=$1 prog=$2 r b bin; shift 2
  for r in $(seq "$rounds"); do
    for b in prev now pnc; do
      case $b in prev) bin=$PREV/$prog;; now) bin=$NOW/$prog;; pnc) bin=$NOW/${prog}_pnetcdf;; esac
      mpirun --oversubscribe -np "$np" "$bin" "$@" -c 2>/dev/null | grep '^csv' | grep ",${WHAT:-write}," | sed "s/^/$b,$r,/"
    done
  done
}

recheck() { # [out]
  local out=${1:-bench-results/recheck-$(date -u +%F)} np
  mkdir -p "$out"
  set -x
  run 2 mom_io -g 360,200,20 -t 2 -L 1 -d /tmp -r 5 -w 1 -q >"$out/rc_mom_l1_2.csv"
  run 8 pflotran_io -n 1048576 -d /tmp -r 5 -w 1 -q >"$out/rc_pfl_8.csv"
  run 2 part2d -p bb -s 256 -T float -d /tmp -r 5 -w 1 -q >"$out/rc_bbf4_2.csv"
  run 2 part2d -p sb -s 256 -T double -d /dev/shm -r 5 -w 1 -q >"$out/rc_sbf8_2_shm.csv"
  for np in 2 4; do
    run $np part2d -p sc -s 256 -T float -d /dev/shm -r 5 -w 1 -q >"$out/rc_scf4_${np}_shm.csv"
  done
  run 4 part2d -p bs -s 256 -T float -d /dev/shm -r 5 -w 1 -q >"$out/rc_bsf4_4_shm.csv"
  run 8 part2d -p bb -s 256 -T double -m indep -d /dev/shm -r 5 -w 1 -q >"$out/rc_bbf8_8_shm.csv"
  run 8 flash_io -n 80 -b 8 -d /dev/shm -r 5 -w 1 -q >"$out/rc_flash_8_shm.csv"
  run 1 flash_io -n 80 -b 8 -d /dev/shm -r 5 -w 1 -q >"$out/rc_flash_1_shm.csv"
  set +x
  python3 "$(dirname "$0")/alternate_median.py" "$out"/rc_*.csv
}

case ${1:-} in
  run) shift; [ $# -ge 2 ] || { echo "usage: $0 run NP PROGRAM ARGS..." >&2; exit 2; }; run "$@" ;;
  recheck) shift; recheck "$@" ;;
  *) echo "usage: $0 run NP PROGRAM ARGS... | recheck [OUT]" >&2; exit 2 ;;
esac
