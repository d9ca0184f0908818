#!/usr/bin/env python3
"""fortran_overhead.py: what the Fortran binding costs over the C API.

Runs each case's C program (btio, flash_io) and its Fortran twin
(btio_f, flash_io_f) of one library alternately, ROUNDS times (the order
swapping every round), each run timing its method over a few repetitions
after a warm-up; prints, per case, rank count and side (total_w,
total_r), the median over the rounds of the ratio Fortran time / C time
(above 1: Fortran slower) with its min and max.

usage: fortran_overhead.py [--bin-dir build/bench] [--lib ncpario]
                           [--rounds 7] [--dir /tmp]
"""
import argparse
import os
import statistics
import subprocess
import sys
import tempfile

# (case label, C program, Fortran program, arguments, method, ranks)
CASES = [
    ("btio small", "btio", "btio_f", ["-g", "24,24,24", "-s", "2"],
     "combined", [1, 4]),
    ("btio medium", "btio", "btio_f", ["-g", "64,64,64", "-s", "4"],
     "combined", [1, 4]),
    ("flash chk small", "flash_io", "flash_io_f", ["-n", "8", "-b", "8"],
     "pervar", [1, 2]),
    ("flash chk medium", "flash_io", "flash_io_f", ["-n", "80", "-b", "8"],
     "pervar", [1, 2]),
]
SIDES = ("total_w", "total_r")


def run(exe, np_, args, method, workdir):
    """{side: median seconds} of one run (flash_io: its chk case)."""
    cmd = ["mpirun", "--oversubscribe", "-np", str(np_), exe] + args + \
        ["-m", method, "-r", "3", "-w", "1", "-q", "-c", "-d", workdir]
    env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1",
               OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
               OMPI_MCA_mpi_yield_when_idle="1", OMPI_MCA_io="romio321")
    p = subprocess.run(cmd, capture_output=True, text=True, env=env,
                       timeout=600)
    if p.returncode != 0:
        sys.exit("FAILED: %s\n%s%s" % (" ".join(cmd), p.stdout, p.stderr))
    out = {}
    for line in p.stdout.splitlines():
        f = line.split(",")
        # csv,bench,lib,case,method,nprocs,phase,bytes,median_s,...
        if f[0] == "csv" and f[6] in SIDES and \
                (f[1] == "btio" or f[3] == "chk"):
            out[f[6]] = float(f[8])
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bin-dir", default="build/bench")
    ap.add_argument("--lib", default="ncpario", choices=("ncpario",
                                                          "pnetcdf"))
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--dir", default="/tmp")
    a = ap.parse_args()
    suffix = "" if a.lib == "ncpario" else "_pnetcdf"
    print("%-18s %3s %-8s %7s %7s %7s   (Fortran/C time, %d rounds, %s)"
          % ("case", "np", "side", "median", "min", "max", a.rounds, a.lib))
    for label, c_prog, f_prog, args, method, ranks in CASES:
        for np_ in ranks:
            ratios = {s: [] for s in SIDES}
            for r in range(a.rounds):
                progs = [c_prog, f_prog] if r % 2 == 0 else [f_prog, c_prog]
                t = {}
                for prog in progs:
                    with tempfile.TemporaryDirectory(dir=a.dir) as w:
                        t[prog] = run(os.path.join(a.bin_dir, prog + suffix),
                                      np_, args, method, w)
                for s in SIDES:
                    ratios[s].append(t[f_prog][s] / t[c_prog][s])
            for s in SIDES:
                v = ratios[s]
                print("%-18s %3d %-8s %7.3f %7.3f %7.3f" % (
                    label, np_, s, statistics.median(v), min(v), max(v)))
            sys.stdout.flush()


if __name__ == "__main__":
    main()
