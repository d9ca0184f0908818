#!/usr/bin/env python3
"""tools.plan: `ncpario plan` predicts what a real write does.

Each case is written for real at 1, 2 and 4 ranks by plan_writer (its own
PnetCDF calls for the pattern), which prints every rank's aggregation
counters from ncpario_inq_profile; `ncpario plan --format json` on the
file it wrote, with the same pattern and hints, must name the same
rounds, messages sent and received, pieces, write calls and bytes, rank
by rank.  Then the command's own checks: the text report, usage errors,
a bad hint, the SVG, and the irregular pattern covering every element
once.

Usage: test_plan.py --ncpario EXE --writer EXE --work DIR
"""

import argparse
import json
import os
import random
import re
import subprocess
import sys

FAILS = []

# name -> plan pattern arguments at n ranks (the writer's decomposition)
def pattern_args(case, n, decomp):
    p = 2 if n % 2 == 0 else 1
    return {
        "blockblock": ["--pattern", "block", "--grid", "%dx%d" % (p, n // p)],
        "starcyclic": ["--pattern", "*,cyclic", "--grid", "1x%d" % n],
        "records": ["--pattern", "*,block,*", "--grid", "1x%dx1" % n],
        "twovars": ["--pattern", "block,*", "--grid", "%dx1" % n],
        "decomp": ["--decomp", decomp],
        "decomp2": ["--decomp", decomp, "--decomp", decomp + ".w@w"],
    }[case]


HINTS = [
    "nc_posix_shm=disable;nc_posix_buffer_size=65536",
    "nc_posix_shm=disable;nc_posix_buffer_size=65536;"
    "nc_posix_aggrs_per_node=2",
    "nc_posix_shm=disable;nc_posix_buffer_size=1048576;"
    "nc_posix_window=full",
]


def check(cond, what):
    if not cond:
        FAILS.append(what)
        print("FAIL:", what)


def write_decomp(path, n, seed=7):
    """Every element of 50000 to one rank, in runs of 1 to 40."""
    rng = random.Random(seed + n)
    ranges = {r: [] for r in range(n)}
    at = 0
    while at < 50000:
        ln = min(rng.randint(1, 40), 50000 - at)
        ranges[rng.randrange(n)].append((at, at + ln - 1))
        at += ln
    with open(path, "w") as f:
        f.write("# test decomposition\nranks %d\n" % n)
        for r, rs in ranges.items():
            f.write("%d: %s\n" % (r, " ".join(
                "%d-%d" % x if x[0] != x[1] else "%d" % x[0] for x in rs)))


def run_writer(args, case, n, hints, out, decomp):
    cmd = ["mpirun", "--oversubscribe", "-np", str(n), args.writer, out,
           case.rstrip("2"), hints] + {
               "decomp": [decomp], "decomp2": [decomp, decomp + ".w"]
           }.get(case, [])
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    if r.returncode != 0:
        check(False, "%s: writer exited %d: %s" % (case, r.returncode,
                                                   r.stderr[-2000:]))
        return None
    ranks = {}
    for line in r.stdout.splitlines():
        m = re.match(r"rank (\d+) (.*)", line)
        if m:
            f = m.group(2).split()
            ranks[int(m.group(1))] = {f[i]: int(f[i + 1])
                                      for i in range(0, len(f), 2)}
    return ranks


def plan_json(args, n, extra):
    cmd = [args.ncpario, "plan", "--ranks", str(n), "--format", "json",
           "--show", "64"] + extra
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    if r.returncode != 0:
        check(False, "plan %s exited %d: %s" % (" ".join(extra),
                                                r.returncode, r.stderr))
        return None
    return json.loads(r.stdout)


def compare(label, real, plan, n):
    """Rank by rank: what plan predicts against the counters."""
    rounds = plan["rounds"] if plan["path"] == "rounds" else 0
    aggr = {r: i for i, r in enumerate(plan["aggr_rank"])}
    for r in range(n):
        got = real[r]
        want = {"rounds": rounds, "sent": plan["sent"][r] if rounds else 0,
                "recv": 0, "pieces": 0, "writes": 0, "bytes": 0}
        if r in aggr and rounds:
            i = aggr[r]
            want.update(recv=plan["aggr_msgs_in"][i],
                        pieces=plan["aggr_pieces"][i],
                        writes=plan["aggr_writes"][i],
                        bytes=plan["aggr_bytes"][i])
        for k, v in want.items():
            check(got[k] == v, "%s rank %d: %s %d, plan says %d"
                  % (label, r, k, got[k], v))


def predictions(args):
    cases = ["blockblock", "starcyclic", "records", "twovars", "decomp",
             "decomp2"]
    aggregated = 0
    for n in (1, 2, 4):
        decomp = os.path.join(args.work, "decomp.np%d.txt" % n)
        write_decomp(decomp, n)
        write_decomp(decomp + ".w", n, seed=11)
        for case in cases:
            for hi, hints in enumerate(HINTS):
                out = os.path.join(args.work, "%s.np%d.h%d.nc" % (case, n, hi))
                real = run_writer(args, case, n, hints, out, decomp)
                if real is None:
                    continue
                extra = ["--file", out] + pattern_args(case, n, decomp)
                for h in hints.split(";"):
                    extra += ["--hint", h]
                plan = plan_json(args, n, extra)
                if plan is None:
                    continue
                label = "%s np%d %s" % (case, n, hints)
                check(len(real) == n, "%s: %d ranks reported" % (label,
                                                                 len(real)))
                if len(real) == n:
                    compare(label, real, plan, n)
                # as many aggregators as ranks: each writes its own
                own = n == 1 or (n == 2 and "aggrs_per_node=2" in hints)
                check(plan["path"] == ("own" if own else "rounds"),
                      "%s: path %s" % (label, plan["path"]))
                aggregated += plan["path"] == "rounds" and plan["rounds"] > 1
    # the cases must exercise what they are for, not pass empty
    check(aggregated >= 18, "only %d cases ran several rounds" % aggregated)


def own_checks(args):
    exe = args.ncpario
    r = subprocess.run([exe, "plan", "--ranks", "8", "--var",
                        "v:double:256x1024", "--pattern", "*,cyclic",
                        "--grid", "1x8", "--hint", "nc_posix_shm=disable",
                        "--plot", os.path.join(args.work, "p.svg")],
                       capture_output=True, text=True)
    check(r.returncode == 0, "text report exited %d" % r.returncode)
    for want in ("path: aggregated rounds by message", "aggregators: 1",
                 "imbalance", "write calls"):
        check(want in r.stdout, "text report lacks %r" % want)
    svg = open(os.path.join(args.work, "p.svg")).read()
    check(svg.count("<rect") == 3, "svg: %d bars for 1 aggregator"
          % (svg.count("<rect") - 1))
    # 1-D block at 1000 ranks, 4 a node: each rank's one large extent is
    # written by the rank (nc_posix_shm=auto), unless the hint pins the
    # aggregators
    j = plan_json(args, 1000, ["--var", "v:double:100000000",
                               "--ranks-per-node", "4"])
    check(j and j["path"] == "direct", "1-D block of large extents: %s"
          % (j and j["path"]))
    j = plan_json(args, 1000, ["--var", "v:double:100000000",
                               "--ranks-per-node", "4", "--pattern",
                               "irregular:256", "--hint",
                               "nc_posix_shm=disable"])
    check(j and j["bytes"] == 800000000,
          "irregular:256 covers %s bytes, not 800000000" % (j and j["bytes"]))
    check(j and j["aggregators"] == 250, "1000 ranks at 4 a node: %s "
          "aggregators" % (j and j["aggregators"]))
    # a share of 3.2 MB grows by at most an eighth (to 3.25 MiB); rounded
    # up to 4 MiB it would leave 59 of the 250 aggregators idle
    check(j and j["messages"] > 0 and 1.0 <= j["imbalance"] <= 1.125,
          "irregular imbalance %s" % (j and j["imbalance"]))
    check(j and j["aggregators_with_bytes"] >= 250 * 8 // 9,
          "irregular: %s aggregators with bytes"
          % (j and j["aggregators_with_bytes"]))
    for bad in (["--ranks", "0", "--var", "v:int:10"],
                ["--ranks", "2"],
                ["--ranks", "2", "--var", "v:int:10", "--pattern", "zig"],
                ["--ranks", "3", "--var", "v:int:10x10", "--grid", "2x2"],
                ["--ranks", "2", "--var", "v:int:10", "--format", "xml"]):
        r = subprocess.run([exe, "plan"] + bad, capture_output=True,
                           text=True)
        check(r.returncode == 2, "%s exited %d, not 2" % (bad, r.returncode))
    r = subprocess.run([exe, "plan", "--ranks", "2", "--var", "v:int:10",
                        "--hint", "nc_posix_buffer_size=-5"],
                       capture_output=True, text=True)
    check(r.returncode == 2, "a bad hint exited %d, not 2" % r.returncode)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ncpario", required=True)
    ap.add_argument("--writer", required=True)
    ap.add_argument("--work", required=True)
    args = ap.parse_args()
    os.makedirs(args.work, exist_ok=True)
    own_checks(args)
    predictions(args)
    print("%d failure(s)" % len(FAILS))
    return 1 if FAILS else 0


if __name__ == "__main__":
    sys.exit(main())
