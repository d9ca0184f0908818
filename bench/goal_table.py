#!/usr/bin/env python3
"""goal_table: the performance goals' ratios from suite runs, as markdown.

Input: the results.csv of one or more ncpario-bench runs (one per file
directory, e.g. /tmp and /dev/shm), each run holding ncpario, PnetCDF
and file-per-process rows, and optionally an older ncpario build as
`ncpario@before` (suite.py's --alt-bin). For every (directory, benchmark
case, rank count) it prints, as "after (before)" where the older build
ran:

  best       ncpario's best method over PnetCDF's best, write and read;
  indep      ncpario's indep method over PnetCDF's indep;
  combined   ncpario's combined method over its own pervar;
  read/fpp   ncpario's best read over file per process's best read;
  shared     ncpario's best write over the shared-file ceiling that
             bench/shared_limit measured at the same rank count
             (--shared-limit, cases named by --contig only).

With --read-limit (shared_limit's csv of -p/-w runs) it adds, per
directory, the read ceiling of a shared netCDF file: the better of the
shared layout's reads over the own files' read, per pattern and rank
count, to hold read/fpp against.

A ratio of the current build below its goal (1.0; 0.8 for read/fpp,
0.9 for shared) is marked with a trailing `*`. Every ratio is of two medians
measured in the same run, so it is read against the same load. A last
table counts, per side and ratio over all directories, the cells that
meet their goal now and before, and those below 0.9 x the goal (from the
unrounded ratios).

Standard library only.
"""
import argparse
import csv
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench_report import ordered  # noqa: E402  (next to this file)

GOALS = {"best": 1.0, "indep": 1.0, "combined": 1.0, "read/fpp": 0.8,
         "shared": 0.9}
PHASE = {"write": "total_w", "read": "total_r"}


def load(path):
    rows = []
    with open(path, newline="") as f:
        for r in csv.DictReader(f):
            r["nprocs"] = int(r["nprocs"])
            r["mibs"] = float(r["mibs"])
            rows.append(r)
    return rows


class Run:
    """One directory's rows, indexed by (bench, case, label, np, phase)."""

    def __init__(self, rows):
        self.rows = [r for r in rows if r["label"] != "machine"]
        self.ix = {}
        for r in self.rows:
            key = (r["bench"], r["case"], r["label"], r["nprocs"], r["phase"])
            self.ix.setdefault(key, {})[r["method"]] = r["mibs"]

    def cases(self):
        return ordered((r["bench"], r["case"]) for r in self.rows)

    def ranks(self):
        return sorted(ordered(r["nprocs"] for r in self.rows))

    def method(self, bc, label, np_, phase, method=None):
        got = self.ix.get(bc + (label, np_, phase), {})
        if method is None:
            return max(got.values()) if got else None
        return got.get(method)


def ratio(a, b):
    return a / b if a and b else None


def measures(run, bc, label, np_, side, ref, fpp, shared):
    """{measure: ratio} of label in one cell."""
    ph = PHASE[side]
    out = {
        "best": ratio(run.method(bc, label, np_, ph),
                      run.method(bc, ref, np_, ph)),
        "indep": ratio(run.method(bc, label, np_, ph, "indep"),
                       run.method(bc, ref, np_, ph, "indep")),
        "combined": ratio(run.method(bc, label, np_, ph, "combined"),
                          run.method(bc, label, np_, ph, "pervar")),
    }
    if side == "read":
        out["read/fpp"] = ratio(run.method(bc, label, np_, ph),
                                run.method(bc, fpp, np_, ph))
    elif shared and np_ in shared:
        out["shared"] = ratio(run.method(bc, label, np_, ph), shared[np_])
    return out


def cell(after, before, goal):
    if after is None:
        return "-"
    text = "%.2f%s" % (after, "*" if after < goal else "")
    if before is not None:
        text += " (%.2f)" % before
    return text


def tally(counts, side, measure, now, before):
    """Add one cell to counts[(side, measure)]: [cells, met now, met
    before, below 0.9 x goal now, below before]."""
    if now is None:
        return
    goal = GOALS[measure]
    c = counts.setdefault((side, measure), [0, 0, 0, 0, 0])
    c[0] += 1
    c[1] += now >= goal
    c[3] += now < 0.9 * goal
    if before is not None:
        c[2] += before >= goal
        c[4] += before < 0.9 * goal


def count_table(counts):
    lines = ["", "**cells meeting each goal**", "",
             "| side | ratio | goal | cells | met now | met before | "
             "now below 0.9 x goal | before |", "|---|---|---|---|---|---|"
             "---|---|"]
    for side in PHASE:
        for measure in GOALS:
            c = counts.get((side, measure))
            if c:
                lines.append("| %s | %s | >= %g | %d | %d | %d | %d | %d |" %
                             ((side, measure, GOALS[measure]) + tuple(c)))
    return lines


def table(run, dirname, side, a, shared_by_case, counts):
    """One markdown table of a directory and side: a row per case and
    measure, a column per rank count."""
    ranks = run.ranks()
    lines = []
    for bc in run.cases():
        shared = shared_by_case.get(bc)
        now = [measures(run, bc, a.ours, n, side, a.ref, a.fpp, shared)
               for n in ranks]
        old = [measures(run, bc, a.before, n, side, a.ref, a.fpp, shared)
               for n in ranks]
        for measure in GOALS:
            if all(m.get(measure) is None for m in now):
                continue
            cells = [cell(x.get(measure), y.get(measure), GOALS[measure])
                     for x, y in zip(now, old)]
            for x, y in zip(now, old):
                tally(counts, side, measure, x.get(measure), y.get(measure))
            lines.append("| %s %s | %s | %s |" % (
                bc[0], bc[1], measure, " | ".join(cells)))
    if not lines:
        return []
    return ["", "**%s, %s**" % (dirname, side), "",
            "| case | ratio | " + " | ".join("np=%d" % n for n in ranks) +
            " |", "|---|---|" + "---|" * len(ranks)] + lines


def shared_limits(path):
    """{np: shared-file write MiB/s} from shared_limit's csv lines."""
    out = {}
    with open(path) as f:
        for line in f:
            p = line.strip().split(",")
            if len(p) == 12 and p[:3] == ["csv", "shared_limit", "shared"] \
                    and p[4] == "-" and p[6] == "write":
                out[int(p[5])] = float(p[11])
    return out


def read_limits(path):
    """{(pattern, bytes): {np: ceiling}}: each shared_limit run's best
    shared read (pieces by pread or sieve, else the contiguous slice)
    over its own-file read.  A run's rows start with its own write."""
    runs, cur = [], None
    with open(path) as f:
        for line in f:
            p = line.strip().split(",")
            if len(p) != 12 or p[:2] != ["csv", "shared_limit"]:
                continue
            if p[2] == "own" and p[6] == "write":
                cur = {"np": int(p[5]), "bytes": p[3][1:], "pat": "-"}
                runs.append(cur)
            if cur is not None:
                cur[(p[2], p[6])] = float(p[11])
                if p[2] != "own":
                    cur["pat"] = p[4]
    out = {}
    for r in runs:
        shared = [r.get(k) for k in (("pieces", "read"), ("pieces", "sieve"))
                  if r.get(k)] or [r.get(("shared", "read"))]
        own = r.get(("own", "read"))
        if own and shared[0]:
            out.setdefault((r["pat"], r["bytes"]), {})[r["np"]] = \
                max(shared) / own
    return out


def read_limit_table(dirname, limits):
    ranks = sorted({n for v in limits.values() for n in v})
    lines = ["", "**%s, read ceiling (shared_limit)**" % dirname, "",
             "| pattern | bytes a rank | " +
             " | ".join("np=%d" % n for n in ranks) + " |",
             "|---|---|" + "---|" * len(ranks)]
    for (pat, nbytes), by_np in limits.items():
        lines.append("| %s | %s | %s |" % (pat, nbytes, " | ".join(
            "%.2f" % by_np[n] if n in by_np else "-" for n in ranks)))
    return lines


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("runs", nargs="+", metavar="DIRNAME=RESULTS.CSV")
    ap.add_argument("--ours", default="ncpario")
    ap.add_argument("--before", default="ncpario@before")
    ap.add_argument("--ref", default="pnetcdf")
    ap.add_argument("--fpp", default="fpp")
    ap.add_argument("--shared-limit", action="append", default=[],
                    metavar="DIRNAME=FILE",
                    help="shared_limit's csv output for that directory")
    ap.add_argument("--read-limit", action="append", default=[],
                    metavar="DIRNAME=FILE",
                    help="shared_limit's csv of -p/-w runs for that "
                         "directory")
    ap.add_argument("--contig", default="",
                    help="comma list of bench:case whose writes are read "
                         "against the shared-file ceiling")
    a = ap.parse_args(argv)
    limits = dict(item.split("=", 1) for item in a.shared_limit)
    contig = [tuple(x.split(":", 1)) for x in a.contig.split(",") if x]
    out, counts = [], {}
    for item in a.runs:
        dirname, _, path = item.partition("=")
        run = Run(load(path))
        sl = shared_limits(limits[dirname]) if dirname in limits else {}
        by_case = {bc: sl for bc in contig}
        for side in ("write", "read"):
            out += table(run, dirname, side, a, by_case, counts)
    out += count_table(counts)
    for item in a.read_limit:
        dirname, _, path = item.partition("=")
        out += read_limit_table(dirname, read_limits(path))
    sys.stdout.write("\n".join(out).lstrip("\n") + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
