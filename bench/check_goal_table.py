#!/usr/bin/env python3
"""ctest's check of goal_table.py (bench.goal_table): a results.csv made
up here, whose ratios are known, must give those ratios, the `*` on the
cells below their goal, the older build's ratio in parentheses, the
count of cells meeting each goal, and the read ceilings of shared_limit
rows made up here."""
import csv
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
FIELDS = ["label", "bench", "lib", "case", "method", "nprocs", "phase",
          "bytes", "median_s", "min_s", "max_s", "mibs"]
# (label, method, phase, MiB/s) of one case at 2 ranks.
ROWS = [("ncpario", "pervar", "total_w", 100), ("ncpario", "combined",
        "total_w", 150), ("ncpario", "indep", "total_w", 90),
        ("ncpario@before", "pervar", "total_w", 100),
        ("ncpario@before", "combined", "total_w", 80),
        ("ncpario@before", "indep", "total_w", 30),
        ("pnetcdf", "pervar", "total_w", 120), ("pnetcdf", "indep",
        "total_w", 60), ("ncpario", "pervar", "total_r", 300),
        ("ncpario@before", "pervar", "total_r", 200),
        ("pnetcdf", "pervar", "total_r", 250), ("fpp", "combined",
        "total_r", 500), ("machine", "-", "memcpy", 9999)]
EXPECT = [
    "| b c | best | 1.25 (0.83) |",      # 150/120, 100/120
    "| b c | indep | 1.50 (0.50) |",     # 90/60, 30/60
    "| b c | combined | 1.50 (0.80) |",  # 150/100, 80/100
    "| b c | shared | 0.75* (0.50) |",   # 150/200, 100/200
    "| b c | best | 1.20 (0.80) |",      # 300/250, 200/250
    "| b c | read/fpp | 0.60* (0.40) |",  # 300/500, 200/500
    # cells, met now, met before, below 0.9 x goal now, before
    "| write | combined | >= 1 | 1 | 1 | 0 | 0 | 1 |",
    "| write | shared | >= 0.9 | 1 | 0 | 0 | 1 | 1 |",
    "| read | best | >= 1 | 1 | 1 | 0 | 0 | 1 |",
    # read ceilings: best of pread 50 and sieve 100 over own 400; the
    # contiguous slice 300 over 400 (2 ranks), 200 over 400 (1 rank)
    "| p8w8 | 64 | - | 0.25 |",
    "| p0w8 | 32 | 0.50 | 0.75 |",
]
# shared_limit's rows of three runs: own rows first, then the shared ones
READ_LIMIT = """csv,shared_limit,own,b64,-,2,write,1,1,1,1,900
csv,shared_limit,own,b64,-,2,read,1,1,1,1,400
csv,shared_limit,shared,b64,p8w8,2,write,1,1,1,1,800
csv,shared_limit,shared,b64,p8w8,2,read,1,1,1,1,390
csv,shared_limit,pieces,b64,p8w8,2,write,1,1,1,1,10
csv,shared_limit,pieces,b64,p8w8,2,read,1,1,1,1,50
csv,shared_limit,pieces,b64,p8w8,2,sieve,1,1,1,1,100
csv,shared_limit,own,b32,-,1,write,1,1,1,1,900
csv,shared_limit,own,b32,-,1,read,1,1,1,1,400
csv,shared_limit,shared,b32,p0w8,1,write,1,1,1,1,800
csv,shared_limit,shared,b32,p0w8,1,read,1,1,1,1,200
csv,shared_limit,own,b32,-,2,write,1,1,1,1,900
csv,shared_limit,own,b32,-,2,read,1,1,1,1,400
csv,shared_limit,shared,b32,p0w8,2,write,1,1,1,1,800
csv,shared_limit,shared,b32,p0w8,2,read,1,1,1,1,300
"""


def main():
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "results.csv")
        with open(path, "w", newline="") as f:
            w = csv.writer(f)
            w.writerow(FIELDS)
            for label, method, phase, mibs in ROWS:
                w.writerow([label, "b", label.split("@")[0], "c", method, 2,
                            phase, 1, 1, 1, 1, mibs])
        sl = os.path.join(d, "sl.csv")
        with open(sl, "w") as f:
            f.write("csv,shared_limit,shared,b1,-,2,write,2,1,1,1,200\n")
        rl = os.path.join(d, "rl.csv")
        with open(rl, "w") as f:
            f.write(READ_LIMIT)
        out = subprocess.run(
            [sys.executable, os.path.join(HERE, "goal_table.py"),
             "/x=" + path, "--shared-limit", "/x=" + sl, "--contig", "b:c",
             "--read-limit", "/x=" + rl],
            capture_output=True, text=True, check=True).stdout
    bad = [e for e in EXPECT if e not in out]
    if bad or "**/x, write**" not in out or "machine" in out:
        sys.stderr.write("goal_table gave:\n%s\nmissing: %s\n" % (out, bad))
        return 1
    print("goal_table check: OK")
    return 0


if __name__ == "__main__":
    sys.exit(main())
