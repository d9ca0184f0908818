#!/usr/bin/env bash
# The run behind docs/BENCHMARKS.md's current results: the medium preset,
# this build against an older one (BEFORE_BIN, e.g. a worktree of the
# older commit built with this tree's bench/ copied in), PnetCDF and file
# per process, in /tmp and /dev/shm; then shared_limit at the PFLOTRAN
# case's 16 MiB a rank (the write ceiling), and with interleaved pieces
# and swapped doubles (the read ceiling of a shared netCDF file); the
# machine's state is logged before and after.  OUT gets the suite's
# results (res_tmp/, res_dev_shm/), its tables (table_*.txt), the
# shared_limit CSVs, quiet.log and goals.md, the tables of BENCHMARKS.md.
# (The 2026-11-25 run was this script without the read ceilings.)
#
# usage: bench/goal_run.sh BEFORE_BIN [OUT]   (from the repository root)
#   OUT defaults to bench-results/goals-YYYY-MM-DD, which git ignores.
set -u
[ $# -ge 1 ] || { echo "usage: $0 BEFORE_BIN [OUT]" >&2; exit 2; }
before=$1 out=${2:-bench-results/goals-$(date -u +%F)}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_mpi_yield_when_idle=1
mkdir -p "$out"
quiet() { echo "== $1 $(date -u +%FT%TZ)"; cat /proc/loadavg; ps -eo pcpu,etime,comm --sort=-pcpu | head -6; }
for dir in /tmp /dev/shm; do
  tag=${dir//\//_}
  quiet "before $dir" >>"$out/quiet.log"
  bench/ncpario-bench --preset medium --bin-dir build/bench \
    --libs ncpario,ncpario@before,pnetcdf,fpp --alt-bin "before=$before" \
    --benchmarks coll_io,flash_io,btio,mom_io,pflotran_io,part2d \
    --dir "$dir" --out "$out/res$tag" --no-plots \
    >"$out/table$tag.txt" 2>"$out/progress$tag.txt"
  echo "suite rc=$?" >>"$out/quiet.log"
  for np in 1 2 4 8; do
    mpirun --oversubscribe -np $np build/bench/shared_limit -d "$dir" -s 16777216 -r 5 -c
  done >"$out/shared_limit$tag.csv" 2>>"$out/quiet.log"
  # read ceilings: 8-byte (*-cyclic), 2 KiB (rows) and 256 KiB pieces of
  # doubles, and 512 KiB a rank (one part2d variable, cache-sized)
  for np in 1 2 4 8; do
    for p in 8 2048 262144; do
      s=67108864; [ $p = 8 ] && s=4194304
      mpirun --oversubscribe -np $np build/bench/shared_limit -d "$dir" -s $s -p $p -w 8 -r 7 -c
    done
    mpirun --oversubscribe -np $np build/bench/shared_limit -d "$dir" -s 524288 -w 8 -r 51 -c
  done >"$out/read_limit$tag.csv" 2>>"$out/quiet.log"
  quiet "after $dir" >>"$out/quiet.log"
done
python3 bench/goal_table.py /tmp="$out/res_tmp/results.csv" \
  /dev/shm="$out/res_dev_shm/results.csv" \
  --shared-limit /tmp="$out/shared_limit_tmp.csv" \
  --shared-limit /dev/shm="$out/shared_limit_dev_shm.csv" \
  --contig pflotran_io:n1048576 \
  --read-limit /tmp="$out/read_limit_tmp.csv" \
  --read-limit /dev/shm="$out/read_limit_dev_shm.csv" >"$out/goals.md"
echo "goal_run: wrote $out/goals.md"
