#!/usr/bin/env python3
"""Summarize blocks3d comparison runs: medians, min..max and ratios.

Input: the CSV that compare_blocks3d.sh collects, one line per timed
repetition, its columns being

    round,slot,lib,nprocs,dir,bytes,write_s,read_s,write_mibs,read_mibs

where slot is A (the library under test, ncpario) or B (the baseline,
PnetCDF) and the rest is what blocks3d -c prints. Lines starting with '#'
are comments. The table has one row per (ranks, dir): for write and for
read (one table each), each slot's median bandwidth with its min..max,
the ratio A/B of the medians, and the paired ratio (see paired()). Medians, because a few runs on a shared, busy machine are
skewed by outliers that a mean would carry.

Standard library only, so it runs wherever python3 does.
"""
import argparse
import csv
import statistics
import sys

FIELDS = ["round", "slot", "lib", "nprocs", "dir", "bytes", "write_s",
          "read_s", "write_mibs", "read_mibs"]


def load(path):
    """Rows of the CSV as dicts; a malformed line is an error, not skipped."""
    rows = []
    with open(path, newline="") as f:
        for n, rec in enumerate(csv.reader(f), 1):
            if not rec or rec[0].startswith("#") or rec[0] == "round":
                continue
            if len(rec) != len(FIELDS):
                raise SystemExit(f"{path}:{n}: expected {len(FIELDS)} "
                                 f"fields, got {len(rec)}: {rec}")
            row = dict(zip(FIELDS, rec))
            try:
                row["nprocs"] = int(row["nprocs"])
                row["bytes"] = int(row["bytes"])
                for k in ("write_s", "read_s", "write_mibs", "read_mibs"):
                    row[k] = float(row[k])
            except ValueError as e:
                raise SystemExit(f"{path}:{n}: {e}")
            rows.append(row)
    return rows


def cell(values):
    """'median [min..max]' of a list of MiB/s, or '-' when there are none."""
    if not values:
        return "-"
    return (f"{statistics.median(values):8.1f} "
            f"[{min(values):.0f}..{max(values):.0f}]")


def ratio(a, b):
    if not a or not b or statistics.median(b) == 0:
        return "-"
    return f"{statistics.median(a) / statistics.median(b):.2f}"


def paired(sel, op):
    """'median [min..max]' of the per-round ratios A/B, each round's A and
    B being the medians of its back-to-back runs' reps: drift between
    rounds cancels, and the spread shows how far one ratio can be trusted."""
    per_round = {}
    for r in sel:
        per_round.setdefault(r["round"], {}).setdefault(r["slot"], []).append(
            r[op + "_mibs"])
    ratios = [statistics.median(v["A"]) / statistics.median(v["B"])
              for v in per_round.values()
              if v.get("A") and v.get("B") and statistics.median(v["B"]) > 0]
    if not ratios:
        return "-"
    return (f"{statistics.median(ratios):.2f} "
            f"[{min(ratios):.2f}..{max(ratios):.2f}]")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("csv", help="CSV collected by compare_blocks3d.sh")
    args = ap.parse_args()

    rows = load(args.csv)
    if not rows:
        raise SystemExit(f"{args.csv}: no results")

    libs = {}
    for r in rows:
        libs.setdefault(r["slot"], set()).add(r["lib"])
    name = {s: "/".join(sorted(libs.get(s, {"-"}))) for s in ("A", "B")}
    rounds = len({r["round"] for r in rows})

    keys = sorted({(r["nprocs"], r["dir"]) for r in rows})
    dirw = max(len("dir"), max(len(d) for _, d in keys))
    colw = 26
    print(f"blocks3d: A = {name['A']}, B = {name['B']}; {rounds} round(s), "
          f"{len(rows)} timed reps in all")
    print("MiB/s as median [min..max] over every timed rep; A/B = ratio of "
          "those medians;")
    print("paired = median [min..max] over rounds of A/B between "
          "back-to-back runs")
    for op in ("write", "read"):
        head = (f"{op + ' ranks':>11}  {'dir':<{dirw}}  {'MiB':>6}  "
                f"{'A ' + name['A']:<{colw}}{'B ' + name['B']:<{colw}}"
                f"{'A/B':>5}  paired A/B")
        print()
        print(head)
        print("-" * len(head))
        for nprocs, d in keys:
            sel = [r for r in rows if r["nprocs"] == nprocs and r["dir"] == d]
            a = [r[op + "_mibs"] for r in sel if r["slot"] == "A"]
            b = [r[op + "_mibs"] for r in sel if r["slot"] == "B"]
            mib = max(r["bytes"] for r in sel) / 1048576.0
            print(f"{nprocs:>11}  {d:<{dirw}}  {mib:6.1f}  "
                  f"{cell(a):<{colw}}{cell(b):<{colw}}{ratio(a, b):>5}  "
                  f"{paired(sel, op)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
