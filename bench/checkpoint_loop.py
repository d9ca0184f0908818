#!/usr/bin/env python3
"""checkpoint_loop.py -- what a checkpoint costs a simulation: bench/checkpoint
(a compute phase of -t seconds, then a checkpoint, N times) run as ncpario
synchronous, ncpario with write-behind (nc_write_behind=enable) and PnetCDF,
in alternating rounds, for the FLASH-like and BTIO-like patterns at each rank
count; the medians over the rounds, and the ratios the write-behind target is
read against:

    blocked/sync   write-behind's blocked time per checkpoint over the
                   synchronous write's (ncpario's, same run)
    whole/(c+b)    write-behind's whole loop over compute alone plus its
                   blocked time (1.00: the writes cost the loop nothing more)
    copy           the time to copy a checkpoint's bytes in memory, the floor
                   of any call that leaves the caller's buffer reusable

    checkpoint_loop.py --bin-dir build/bench [--ranks 1,2] [--rounds 5]
        [--size 64] [--vars 8] [--checkpoints 5] [--compute 0.5]
        [--dir /tmp] [--out FILE.json] [--smoke]

Every run is `mpirun --bind-to none`: OpenMPI binds a rank to one core by
default, and write-behind's thread, which inherits the binding, would share
it even where a core is free. Prints the table on stdout; exit 1 when a run
fails (a wrong value read back is a failure of the program).
"""
import argparse
import json
import os
import statistics
import subprocess
import sys

VARIANTS = (("ncpario", "checkpoint", ""),
            ("ncpario write-behind", "checkpoint", "nc_write_behind=enable"),
            ("PnetCDF", "checkpoint_pnetcdf", ""))


def parse_args(argv):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bin-dir", required=True)
    ap.add_argument("--ranks", default="1,2")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--size", type=int, default=64,
                    help="block edge B: B^3 doubles a variable a rank")
    ap.add_argument("--vars", type=int, default=8)
    ap.add_argument("--checkpoints", type=int, default=5)
    ap.add_argument("--compute", type=float, default=0.5)
    ap.add_argument("--dir", default="/tmp")
    ap.add_argument("--out")
    ap.add_argument("--smoke", action="store_true",
                    help="tiny sizes, one round: does it all run")
    a = ap.parse_args(argv)
    if a.smoke:
        a.ranks, a.rounds, a.size, a.vars = "1,2", 1, 8, 2
        a.checkpoints, a.compute = 2, 0.01
    return a


def run_one(a, exe, hints, pattern, np_):
    """One run's csv fields as a dict; raises on failure."""
    env = dict(os.environ)
    env["PNETCDF_HINTS"] = hints
    env.setdefault("OMPI_MCA_mpi_yield_when_idle", "1")
    env.setdefault("OMPI_MCA_io", "romio321")  # PnetCDF's faster MPI-IO
    # unbound, so that a writer thread may use a core no rank runs on
    cmd = ["mpirun", "--oversubscribe", "--bind-to", "none", "-np", str(np_),
           exe, "-p", pattern,
           "-b", str(a.size), "-v", str(a.vars), "-n", str(a.checkpoints),
           "-t", str(a.compute), "-d", a.dir, "-q", "-c"]
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       universal_newlines=True, env=env, timeout=600)
    lines = [l for l in p.stdout.splitlines()
             if l.startswith("csv,checkpoint,")]
    if p.returncode != 0 or len(lines) != 1:
        raise RuntimeError("%s failed (%d): %s" % (" ".join(cmd),
                           p.returncode, p.stderr[-2000:]))
    c = lines[0].split(",")
    return {"bytes": int(c[5]), "blocked": float(c[6]),
            "blocked_max": float(c[7]), "whole": float(c[8]),
            "compute": float(c[9]), "copy": float(c[10])}


def measure(a):
    """Medians over the rounds, per (pattern, ranks, variant)."""
    out = []
    for np_ in [int(r) for r in a.ranks.split(",") if r]:
        for pattern in ("flash", "btio"):
            runs = {v[0]: [] for v in VARIANTS}
            for rnd in range(a.rounds):
                order = VARIANTS[rnd % 3:] + VARIANTS[:rnd % 3]
                for name, prog, hints in order:
                    exe = os.path.join(a.bin_dir, prog)
                    runs[name].append(run_one(a, exe, hints, pattern, np_))
            for name, rs in runs.items():
                med = {k: statistics.median(r[k] for r in rs)
                       for k in rs[0]}
                med.update(pattern=pattern, ranks=np_, lib=name)
                out.append(med)
    return out


def table(rows):
    lines = ["%-6s %5s %-22s %10s %10s %9s %9s %9s" % (
        "pattern", "ranks", "library", "MiB/rank", "blocked ms", "whole s",
        "compute", "copy ms")]
    for r in rows:
        lines.append("%-6s %5d %-22s %10.1f %10.3f %9.4f %9.3f %9.3f" % (
            r["pattern"], r["ranks"], r["lib"],
            r["bytes"] / r["ranks"] / 2.0 ** 20, r["blocked"] * 1e3,
            r["whole"], r["compute"], r["copy"] * 1e3))
    lines.append("")
    lines.append("%-6s %5s %13s %12s %12s" % ("pattern", "ranks",
                 "blocked/sync", "whole/(c+b)", "vs PnetCDF"))
    for pat in sorted({r["pattern"] for r in rows}):
        for np_ in sorted({r["ranks"] for r in rows}):
            got = {r["lib"]: r for r in rows
                   if r["pattern"] == pat and r["ranks"] == np_}
            wb, sync = got["ncpario write-behind"], got["ncpario"]
            pn = got["PnetCDF"]
            lines.append("%-6s %5d %13.2f %12.3f %12.2f" % (
                pat, np_, wb["blocked"] / sync["blocked"],
                wb["whole"] / (wb["compute"] +
                               wb["blocked"] * wb["checkpoints"]),
                wb["blocked"] / pn["blocked"]))
    return "\n".join(lines) + "\n"


def main(argv=None):
    a = parse_args(argv)
    try:
        rows = measure(a)
    except (RuntimeError, subprocess.TimeoutExpired) as e:
        sys.stderr.write("checkpoint_loop: %s\n" % e)
        return 1
    for r in rows:
        r["checkpoints"] = a.checkpoints
    sys.stdout.write(table(rows))
    if a.out:
        with open(a.out, "w") as f:
            json.dump(rows, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
