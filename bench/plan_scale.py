#!/usr/bin/env python3
"""How `ncpario plan` and the planner behind it scale with the ranks.

For each pattern and each rank count it runs `ncpario plan --format json`
under /usr/bin/time and prints one markdown row: extents, aggregators
(with bytes), rounds, messages, the most a rank sends and an aggregator
receives, write calls, the aggregators' imbalance, the planner's own
seconds for all ranks, the seconds and peak memory of the whole run.
Then the same write at one scale under other hints.

Usage: plan_scale.py NCPARIO [--ranks 1000,10000,...] [--per-node 64]
                             [--hints-at 100000] [--only-hints]
"""

import argparse
import json
import re
import subprocess
import sys

# name -> (plan arguments at n ranks)
def patterns(n):
    side = int(round(n ** 0.5))
    while n % side:
        side -= 1
    return {
        "1-D block, 2^34 doubles": [
            "--var", "v:double:17179869184", "--pattern", "block"],
        "2-D block-block, 2^14 x 2^14 doubles": [
            "--var", "v:double:16384x16384", "--pattern", "block",
            "--grid", "%dx%d" % (side, n // side)],
        "*-cyclic, 16 x 2^20 floats": [
            "--var", "v:float:16x1048576", "--pattern", "*,cyclic",
            "--grid", "1x%d" % n],
        "irregular:16, 2^27 doubles": [
            "--var", "v:double:134217728", "--pattern", "irregular:16"],
    }


def run(exe, n, per_node, args, hints):
    cmd = ["/usr/bin/time", "-f", "%M", exe, "plan", "--ranks", str(n),
           "--ranks-per-node", str(per_node), "--format", "json",
           "--show", "0"] + args
    for h in hints:
        cmd += ["--hint", h]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit("failed: %s\n%s" % (" ".join(cmd), r.stderr))
    j = json.loads(r.stdout)
    j["rss_mib"] = int(re.findall(r"^(\d+)$", r.stderr, re.M)[-1]) / 1024
    return j


HEAD = ("| ranks | extents | aggregators (with bytes) | rounds | messages "
        "| max sent | max received | write calls | imbalance | planner s "
        "| run s | peak MiB |\n|---|---|---|---|---|---|---|---|---|---|---|---|")


def row(n, j, label=None):
    return ("| %s | %d | %d (%d) | %d | %d | %d | %d | %d | %.3f | %.3f | %.1f "
            "| %.0f |" % (label or n, j["extents"], j["aggregators"],
                          j["aggregators_with_bytes"],
                          j["rounds"], j["messages"], j["max_sent"],
                          j["max_received"], j["write_calls"],
                          j["imbalance"], j["plan_seconds"], j["seconds"],
                          j["rss_mib"]))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("ncpario")
    ap.add_argument("--ranks", default="1000,10000,100000,1000000")
    ap.add_argument("--per-node", type=int, default=64)
    ap.add_argument("--hints-at", type=int, default=100000)
    ap.add_argument("--only-hints", action="store_true")
    args = ap.parse_args()
    ranks = [int(x) for x in args.ranks.split(",")]
    force = ["nc_posix_shm=disable"]
    print("Forced aggregation (nc_posix_shm=disable), %d ranks a node, "
          "default nc_posix_buffer_size (1 MiB) and one aggregator a node.\n"
          % args.per_node)
    for name in [] if args.only_hints else patterns(ranks[0]):
        print("**%s**\n\n%s" % (name, HEAD))
        for n in ranks:
            print(row(n, run(args.ncpario, n, args.per_node,
                             patterns(n)[name], force)), flush=True)
        print()
    n = args.hints_at
    name = "2-D block-block, 2^14 x 2^14 doubles"
    print("**What the hints change: %s at %d ranks**\n\n%s"
          % (name, n, HEAD.replace("| ranks |", "| hints |")))
    for hints in ([], ["nc_posix_aggrs_per_node=4"],
                  ["nc_posix_buffer_size=16777216"],
                  ["nc_posix_window=full"]):
        j = run(args.ncpario, n, args.per_node, patterns(n)[name],
                force + hints)
        print(row(n, j, " ".join(hints) or "defaults"), flush=True)


if __name__ == "__main__":
    main()
