#!/usr/bin/env bash
# Alternating runs: prev build, now build, pnetcdf; a case per line.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_mpi_yield_when_idle=1 OMPI_MCA_io=romio321
NOW=/work/main/build/bench PREV=/tmp/wt-prev/build/bench
rounds=${ROUNDS:-5}
run() { # np prog args...
  local np=$1 prog=$2; shift 2
  for r in $(seq $rounds); do
    for b in prev now pnc; do
      case $b in prev) bin=$PREV/$prog;; now) bin=$NOW/$prog;; pnc) bin=$NOW/${prog}_pnetcdf;; esac
      mpirun --oversubscribe -np $np $bin "$@" -c 2>/dev/null | grep '^csv' | grep ',write,' | sed "s/^/$b,$r,/"
    done
  done
}
"$@"
