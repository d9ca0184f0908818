#!/usr/bin/env python3
"""Run coll_perf over seed 000's matrix, two builds turn about, and print
the results in the shape of the seed's Table I.

Builds A (ncpario) and B (PnetCDF) of bench/coll_perf.c run back to back
for every case, round after round, so that the ratio of two neighbouring
runs is fair on a machine whose speed drifts. Each run times the three
methods (pervar, mput, iput) itself, turn about, and verifies every value
it reads; a failed run stops everything, since a fast wrong answer is no
result. Each run's value is the median of its timed repetitions; a table
cell is the median over rounds, and "A/B" is the median over rounds of
the paired ratio of B's time to A's (above 1: A faster).

With --memory, one more run per case and build, with coll_perf -M, gives
the peak rise of the resident set during the data calls (see coll_perf.c).

Standard library only. It builds nothing.
"""
import argparse
import csv
import os
import statistics
import subprocess
import sys
import tempfile

FIELDS = ["tag", "lib", "nprocs", "dir", "kind", "nvars", "edge", "method",
          "bytes", "write_s", "read_s", "wpeak_kib", "rpeak_kib",
          "mpiio_w", "mpiio_r"]
METHODS = ("pervar", "mput", "iput")


def parse_args():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("bin_a", help="coll_perf built against ncpario")
    ap.add_argument("bin_b", nargs="?", default="-",
                    help="coll_perf built against PnetCDF ('-': none)")
    ap.add_argument("-p", "--ranks", default="1 2 4")
    ap.add_argument("-d", "--dirs", default="/dev/shm /tmp")
    ap.add_argument("-v", "--nvars", default="10 20")
    ap.add_argument("-e", "--edges", default="8 32 50")
    ap.add_argument("-k", "--kinds", default="fixed record")
    ap.add_argument("-t", "--records", type=int, default=4)
    ap.add_argument("-r", "--rounds", type=int, default=3)
    ap.add_argument("--reps", type=int, default=3,
                    help="timed repetitions per run (default 3)")
    ap.add_argument("--warmup", type=int, default=1)
    ap.add_argument("--memory", action="store_true",
                    help="also measure peak memory (one -M run per case)")
    ap.add_argument("--timeout", type=int, default=600,
                    help="seconds one run may take")
    ap.add_argument("-o", "--csv", help="keep the raw results here")
    ap.add_argument("--summarize", metavar="CSV",
                    help="print the tables of an earlier run's CSV only")
    return ap.parse_args()


def cases(a):
    for nvars in a.nvars.split():
        for edge in a.edges.split():
            for kind in a.kinds.split():
                for np_ in a.ranks.split():
                    for d in a.dirs.split():
                        yield int(np_), d, kind, int(nvars), int(edge)


def run_one(a, binary, case, tag, extra):
    nprocs, d, kind, nvars, edge = case
    cmd = ["mpirun", "--oversubscribe", "-np", str(nprocs), binary, "-q",
           "-c", "-v", str(nvars), "-e", str(edge), "-d", d] + extra
    if kind == "record":
        cmd += ["-t", str(a.records)]
    try:
        p = subprocess.run(cmd, capture_output=True, text=True,
                           timeout=a.timeout)
    except subprocess.TimeoutExpired:
        sys.exit(f"coll_perf_table: timed out: {' '.join(cmd)}")
    if p.returncode != 0:
        sys.exit(f"coll_perf_table: FAILED (exit {p.returncode}): "
                 f"{' '.join(cmd)}\n{p.stdout}{p.stderr}")
    rows = [line.split(",")[1:] for line in p.stdout.splitlines()
            if line.startswith("csv,")]
    if not rows:
        sys.exit(f"coll_perf_table: no results from {' '.join(cmd)}\n"
                 f"{p.stdout}{p.stderr}")
    return [[tag] + r for r in rows]


def collect(a, writer):
    bins = [(s, b) for s, b in (("A", a.bin_a), ("B", a.bin_b)) if b != "-"]
    for _, b in bins:
        if not os.access(b, os.X_OK):
            sys.exit(f"coll_perf_table: {b} is not an executable")
    todo = list(cases(a))
    total = len(todo) * len(bins) * (a.rounds + (1 if a.memory else 0))
    done = 0
    timed = ["-r", str(a.reps), "-w", str(a.warmup)]
    for rnd in range(1, a.rounds + 1):
        for case in todo:
            for slot, b in bins:
                for row in run_one(a, b, case, f"{rnd}{slot}", timed):
                    writer.writerow(row)
                done += 1
            progress(done, total, f"round {rnd}/{a.rounds}", case)
    if a.memory:
        for case in todo:
            for slot, b in bins:
                for row in run_one(a, b, case, f"M{slot}",
                                   ["-M", "-r", "2", "-w", "1"]):
                    writer.writerow(row)
                done += 1
            progress(done, total, "memory", case)


def progress(done, total, what, case):
    nprocs, d, kind, nvars, edge = case
    print(f"coll_perf_table: {done}/{total} runs ({what}: {nvars} {kind} "
          f"vars {edge}^3, {nprocs} rank(s), {d})", file=sys.stderr,
          flush=True)


def load(path):
    rows = []
    with open(path, newline="") as f:
        for rec in csv.reader(f):
            if not rec or rec[0] == "tag":
                continue
            r = dict(zip(FIELDS, rec))
            for k in ("nprocs", "nvars", "edge", "bytes"):
                r[k] = int(r[k])
            for k in FIELDS[9:]:
                r[k] = float(r[k])
            rows.append(r)
    return rows


def per_round(rows, op):
    """{(case, lib, method): {round: median seconds of that run}}"""
    out = {}
    for r in rows:
        if r["tag"].startswith("M"):
            continue
        key = (r["nprocs"], r["dir"], r["kind"], r["nvars"], r["edge"],
               r["tag"][-1], r["method"])
        out.setdefault(key, {}).setdefault(r["tag"][:-1], []).append(
            r[op + "_s"])
    return {k: {rnd: statistics.median(v) for rnd, v in d.items()}
            for k, d in out.items()}


def med(by_round):
    return statistics.median(by_round.values()) if by_round else None


def paired(num, den):
    """Median over rounds of num/den (times): above 1, den is faster."""
    ratios = [num[k] / den[k] for k in num if k in den and den[k] > 0]
    return statistics.median(ratios) if ratios else None


def fmt_t(x):
    return f"{x:9.4f}" if x is not None else f"{'-':>9}"


def fmt_pct(slow, fast):
    if slow is None or fast is None or slow <= 0:
        return f"{'-':>7}"
    return f"{100.0 * (slow - fast) / slow:6.1f}%"


def fmt_x(x):
    return f"{x:6.2f}x" if x is not None else f"{'-':>7}"


def table(rows, op):
    t = per_round(rows, op)
    groups = sorted({(r["nvars"], r["nprocs"], r["dir"]) for r in rows})
    libs = {r["tag"][-1]: r["lib"] for r in rows}
    for nvars, nprocs, d in groups:
        print(f"\n{op} time (s), {nvars} variables, {nprocs} rank(s), {d}: "
              f"median over rounds")
        head = (f"{'size':<9} {'kind':<7}"
                + "".join(f"{'A ' + m:>9}" for m in METHODS) + f"{'A impr':>8}"
                + "".join(f"{'B ' + m:>9}" for m in METHODS) + f"{'B impr':>8}"
                + f"{'B/A comb':>9}{'B/A pvar':>9}")
        print(f"A = {libs.get('A', '-')}, B = {libs.get('B', '-')}; impr = "
              "(per-variable - iput) / per-variable; B/A = paired ratio "
              "of times")
        print(head)
        print("-" * len(head))
        edges = sorted({r["edge"] for r in rows})
        for edge in edges:
            for kind in ("fixed", "record"):
                base = (nprocs, d, kind, nvars, edge)
                cell = {(s, m): t.get(base + (s, m), {})
                        for s in "AB" for m in METHODS}
                if not any(cell.values()):
                    continue
                line = f"{f'{edge}x{edge}x{edge}':<9} {kind:<7}"
                for s in "AB":
                    line += "".join(fmt_t(med(cell[(s, m)])) for m in METHODS)
                    line += fmt_pct(med(cell[(s, "pervar")]),
                                    med(cell[(s, "iput")]))
                line += fmt_x(paired(cell[("B", "iput")], cell[("A", "iput")]))
                line += fmt_x(paired(cell[("B", "pervar")],
                                     cell[("A", "pervar")]))
                print(line)


def memory_table(rows):
    mem = [r for r in rows if r["tag"].startswith("M")]
    if not mem:
        return
    print("\npeak rise of the resident set during the write data calls, "
          "max over ranks and steps,")
    print("as % of the bytes one rank writes per step (coll_perf -M)")
    head = (f"{'lib':<8} {'vars':>4} {'size':>9} {'kind':<7} {'ranks':>5} "
            f"{'dir':<9}" + "".join(f"{m:>10}" for m in METHODS))
    print(head)
    print("-" * len(head))
    keys = sorted({(r["lib"], r["nvars"], r["edge"], r["kind"], r["nprocs"],
                    r["dir"]) for r in mem})
    for lib, nvars, edge, kind, nprocs, d in keys:
        line = (f"{lib:<8} {nvars:>4} {f'{edge}^3':>9} {kind:<7} "
                f"{nprocs:>5} {d:<9}")
        for m in METHODS:
            sel = [r for r in mem if (r["lib"], r["nvars"], r["edge"],
                                      r["kind"], r["nprocs"], r["dir"],
                                      r["method"]) ==
                   (lib, nvars, edge, kind, nprocs, d, m)]
            if not sel or sel[0]["wpeak_kib"] < 0:
                line += f"{'-':>10}"
                continue
            per_step = 4.0 * edge ** 3 * nvars
            pct = 100.0 * max(r["wpeak_kib"] for r in sel) * 1024 / per_step
            line += f"{pct:9.1f}%"
        print(line)


def main():
    a = parse_args()
    if a.summarize:
        path = a.summarize
    else:
        os.environ.setdefault("OMPI_ALLOW_RUN_AS_ROOT", "1")
        os.environ.setdefault("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1")
        os.environ.setdefault("OMPI_MCA_mpi_yield_when_idle", "1")
        fd, tmp = tempfile.mkstemp(prefix="coll_perf_table.", suffix=".csv")
        os.close(fd)
        path = a.csv or tmp
        with open(path, "w", newline="") as f:
            w = csv.writer(f)
            w.writerow(FIELDS)
            collect(a, w)
        print(f"coll_perf_table: io={os.environ.get('OMPI_MCA_io', 'default')}"
              f", {a.rounds} round(s), {a.reps} timed rep(s) per run")
    rows = load(path)
    if not rows:
        sys.exit(f"coll_perf_table: {path}: no results")
    for op in ("write", "read"):
        table(rows, op)
    memory_table(rows)
    if a.csv and not a.summarize:
        print(f"\ncoll_perf_table: raw results in {a.csv}")
    elif not a.summarize:
        os.unlink(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
