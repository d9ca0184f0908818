#!/usr/bin/env bash
# The I/O-groups cell: coll_perf's 20 record variables of 32^3 ints a
# rank, iput + wait_all, 4 ranks, /dev/shm, ungrouped and in groups of 2,
# an older build (PREV) and this one (NOW) taking turns, ROUNDS rounds of
# 10 repetitions each.  Prints, per build, each round's groups/ungrouped
# ratio of the median write (WHAT=read: read) times and their median.
#
# usage (from the repository root):
#   PREV=OLD/build/bench bench/groups_cell.sh [OUT.csv]
# NOW defaults to build/bench, ROUNDS to 9, DIR to /dev/shm; EXTRA adds
# hints to both settings (EXTRA=nc_driver=mpiio: the groups over MPI-IO).
set -eu
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_mpi_yield_when_idle=1
NOW=${NOW:-build/bench}
PREV=${PREV:?set PREV to the bench directory of the older build}
rounds=${ROUNDS:-9}
out=${1:-$(mktemp)}
: >"$out"
for r in $(seq "$rounds"); do
  for b in prev now; do
    bin=$NOW/coll_perf; [ "$b" = prev ] && bin=$PREV/coll_perf
    for h in none g2; do
      hint="${EXTRA:-}"; [ "$h" = g2 ] && hint="${EXTRA:+$EXTRA;}nc_io_group_size=2"
      PNETCDF_HINTS="$hint" mpirun --oversubscribe -np 4 "$bin" -v 20 -e 32 \
        -t 1 -m iput -d "${DIR:-/dev/shm}" -r 10 -w 2 -c -q 2>/dev/null |
        grep '^csv' | sed "s/^/$b,$h,$r,/" >>"$out"
    done
  done
done
python3 - "$out" "${WHAT:-write}" <<'PY'
import csv, statistics as st, sys, collections
t = collections.defaultdict(list)
col = 13 if sys.argv[2] == "read" else 12
for row in csv.reader(open(sys.argv[1])):
    t[tuple(row[:3])].append(float(row[col]))
for b in ("prev", "now"):
    rounds = sorted({k[2] for k in t if k[0] == b}, key=int)
    rs = [st.median(t[(b, "g2", r)]) / st.median(t[(b, "none", r)])
          for r in rounds]
    print(b, " ".join("%.2f" % x for x in rs), "median %.2f" % st.median(rs))
PY
