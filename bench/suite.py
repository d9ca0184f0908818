#!/usr/bin/env python3
"""ncpario-bench: run the seeds' benchmark suite against every baseline.

Each benchmark of bench/ (coll_io, flash_io, btio, mom_io, pflotran_io,
part2d) is one C source over bench/bio.h, linked once per library: <bench> is
ncpario, <bench>_pnetcdf Debian's PnetCDF, <bench>_hdf5 parallel HDF5,
<bench>_mpiio raw MPI-IO and <bench>_fpp one file per process. btio_f and
flash_io_f are BTIO and FLASH's checkpoint again in Fortran over the
PnetCDF Fortran API, built against ncpario's binding and PnetCDF's; their
rows join the C program's table under the library "<lib> (Fortran)". They
exist only in builds with Fortran and are skipped, with a note, without.
For every benchmark case, rank count and library the runner starts one
mpirun; the program times each of its methods (pervar, combined, indep)
over the repetitions, verifies every value it reads back and prints csv
lines. The libraries take turns within a case, and the order rotates from
one rank count to the next, so none always runs on a cache its neighbour
warmed.

Besides the libraries it measures the machine: `limits` copies, writes and
reads the same byte count as each case from one process, the ceiling the
libraries are read against.

Checks, each of which fails the whole run (a fast wrong answer is no
result): a program's nonzero exit (it found a wrong value, or failed);
ncvalidator rejecting a netCDF file the case left.

Output: progress on stderr; the text table on stdout and in OUT/table.txt;
OUT/results.csv (every csv line, with the rank count's repetition stats);
OUT/results.json; PNG plots (matplotlib) of bandwidth against ranks per
library and of the open/write/close breakdown, in OUT/.
"""
import argparse
import csv
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench_report  # noqa: E402  (next to this file)
from bench_report import FIELDS  # noqa: E402

LIBS = ("ncpario", "pnetcdf", "hdf5", "mpiio", "fpp")
NETCDF_LIBS = ("ncpario", "pnetcdf")

# Benchmark arguments per preset: a list of (case label, argv, rank filter)
# per benchmark. The case label is the runner's; each program names its
# own cases too (in the csv), which is what the tables show.
PRESETS = {
    # Every benchmark and every library in under 5 minutes on 2 cores.
    "demo": {
        "ranks": [1, 2, 4], "reps": 3, "warmup": 1,
        "coll_io": [["-K", "record", "-v", "10", "-e", "16", "-t", "2"]],
        "flash_io": [["-n", "8", "-b", "8"]],
        "btio": [["-g", "24,24,24", "-s", "2"]],
        "btio_f": [["-g", "24,24,24", "-s", "2"]],
        "flash_io_f": [["-n", "8", "-b", "8"]],
        "mom_io": [["-g", "120,80,10", "-t", "2"],
                   ["-g", "120,80,10", "-t", "2", "-L", "1"]],
        "pflotran_io": [["-n", "65536"]],
        "part2d": [["-p", "all", "-s", "32"]],
        "python_overhead": ["--ranks", "1,2", "--rounds", "3", "--small",
                            "2000", "--bytes", str(8 << 20), "--reps", "2"],
        "checkpoint_loop": ["--ranks", "1,2", "--rounds", "1", "--size",
                            "48", "--checkpoints", "3", "--compute", "0.2"],
    },
    # The tests' smoke run: tiny, 2 ranks (btio at 1 and 4 only).
    "smoke": {
        "ranks": [2], "btio_ranks": [1, 4], "reps": 1, "warmup": 0,
        "coll_io": [["-K", "record", "-v", "3", "-e", "4", "-t", "2"]],
        "flash_io": [["-n", "2", "-b", "4"]],
        "btio": [["-g", "6,6,6", "-s", "2"]],
        "btio_f": [["-g", "6,6,6", "-s", "2"]],
        "flash_io_f": [["-n", "2", "-b", "4"]],
        "mom_io": [["-g", "12,8,2", "-t", "2", "-L", "1"]],
        "pflotran_io": [["-n", "64"]],
        "part2d": [["-p", "all", "-s", "8", "-v", "3", "-t", "2"]],
        "python_overhead": ["--smoke"],
        "checkpoint_loop": ["--smoke"],
    },
    # Issue-sized runs: seed 001's FLASH checkpoint, seed 000's coll_perf
    # target case, BTIO and MOM at sizes that take seconds, not minutes.
    "medium": {
        "ranks": [1, 2, 4, 8], "reps": 5, "warmup": 1,
        "coll_io": [["-K", "record", "-v", "20", "-e", "32", "-t", "4"],
                    ["-K", "fixed", "-v", "20", "-e", "32"]],
        "flash_io": [["-n", "80", "-b", "8"]],
        "btio": [["-g", "64,64,64", "-s", "4"]],
        "btio_f": [["-g", "64,64,64", "-s", "4"]],
        "flash_io_f": [["-n", "80", "-b", "8"]],
        "mom_io": [["-g", "360,200,20", "-t", "2"],
                   ["-g", "360,200,20", "-t", "2", "-L", "1"]],
        "pflotran_io": [["-n", "1048576"]],
        # Every 2-D partition, double in the file and float (converted
        # from double memory).
        "part2d": [["-p", "all", "-s", "256", "-T", "double"],
                   ["-p", "all", "-s", "256", "-T", "float"]],
        "python_overhead": ["--ranks", "1,2,4", "--rounds", "5"],
        "checkpoint_loop": ["--ranks", "1,2", "--rounds", "5"],
    },
    # Write-behind's checkpoint loop alone (bench/checkpoint_loop.py): 16
    # MiB a rank a checkpoint after 0.5 s of compute, 5 alternating rounds.
    "checkpoint": {
        "ranks": [1, 2], "reps": 1, "warmup": 0,
        "coll_io": [], "flash_io": [], "btio": [], "mom_io": [],
        "pflotran_io": [],
        "checkpoint_loop": ["--ranks", "1,2", "--rounds", "5"],
    },
    # Seed 000's Table I in shape: coll_perf per-variable vs combined,
    # fixed and record, 8^3, 32^3 and 50^3 elements per rank.
    "table1": {
        "ranks": [1, 2, 4], "reps": 5, "warmup": 1,
        "coll_io": [["-K", k, "-v", "20", "-e", e] + t
                    for k, t in (("fixed", []), ("record", ["-t", "4"]))
                    for e in ("8", "32", "50")],
        "flash_io": [], "btio": [], "mom_io": [], "pflotran_io": [],
    },
    # Issue 3's I/O-group runs: every group size against the ungrouped
    # path and PnetCDF, at 4 and 8 ranks.
    "groups": {
        "ranks": [4, 8], "reps": 5, "warmup": 1,
        "libs": "ncpario,ncpario:nc_io_group_size=1,"
                "ncpario:nc_io_group_size=2,ncpario:nc_io_group_size=4,"
                "ncpario:nc_io_group_size=all,pnetcdf",
        "coll_io": [["-K", "record", "-v", "20", "-e", "32", "-t", "4"],
                    ["-K", "fixed", "-v", "20", "-e", "32"]],
        "flash_io": [["-n", "80", "-b", "8"]],
        "btio": [], "mom_io": [],
        "pflotran_io": [["-n", "2097152"]],
    },
    "large": {
        "ranks": [1, 2, 4, 8, 16], "reps": 5, "warmup": 1,
        "coll_io": [["-K", "record", "-v", "20", "-e", "50", "-t", "4"],
                    ["-K", "fixed", "-v", "20", "-e", "50"]],
        "flash_io": [["-n", "80", "-b", "16"]],
        "btio": [["-g", "128,128,128", "-s", "8"]],
        "mom_io": [["-g", "1440,1080,20", "-t", "2"],
                   ["-g", "1440,1080,20", "-t", "2", "-L", "1"]],
        "pflotran_io": [["-n", "8388608"]],
    },
}
# Each Fortran twin runs right after its C program, so that the table's
# C/Fortran ratio compares runs made under the same load of the machine
# rather than minutes apart.
BENCHES = ("coll_io", "flash_io", "flash_io_f", "btio", "btio_f", "mom_io",
           "pflotran_io", "part2d")
# The Fortran programs, each with the C pattern whose table it joins. They
# run only the netCDF libraries and need no `limits` run of their own.
FORTRAN = {"btio_f": "btio", "flash_io_f": "flash_io"}


def usage_error(msg):
    sys.stderr.write("ncpario-bench: %s\n" % msg)
    sys.exit(2)


def rank_ok(bench, np_):
    """BTIO's multi-partition needs a square number of ranks."""
    if FORTRAN.get(bench, bench) == "btio":
        return int(round(np_ ** 0.5)) ** 2 == np_
    return True


def bench_ranks(bench, ranks, preset, ranks_given):
    """The rank counts `bench` runs at: a preset may name BTIO's own
    (square) list unless --ranks was given; non-square counts drop out."""
    if FORTRAN.get(bench, bench) == "btio" and not ranks_given and \
            "btio_ranks" in preset:
        ranks = preset["btio_ranks"]
    return [r for r in ranks if rank_ok(bench, r)]


def parse_args(argv=None):
    ap = argparse.ArgumentParser(
        prog="ncpario-bench", description=__doc__.splitlines()[0])
    ap.add_argument("--preset", default="demo", choices=sorted(PRESETS))
    ap.add_argument("--bin-dir", default=None,
                    help="where the benchmark executables are "
                         "(default: build/bench next to this script)")
    ap.add_argument("--ranks", help="comma list of rank counts")
    ap.add_argument("--benchmarks", default=",".join(BENCHES),
                    help="comma list (default: all)")
    ap.add_argument("--libs", default=None,
                    help="comma list of libraries, each optionally "
                         "LIB[@BUILD][:key=value;key=value]: @BUILD runs "
                         "the executables of an --alt-bin build, the "
                         "hints go in PNETCDF_HINTS and "
                         "NCPARIO_BENCH_HINTS; default: the preset's, "
                         "else all")
    ap.add_argument("--alt-bin", action="append", default=[],
                    metavar="BUILD=DIR",
                    help="another build's benchmark executables, named "
                         "for --libs (e.g. before=../old/build/bench), so "
                         "that two builds take turns in one run")
    ap.add_argument("--reps", type=int, help="timed repetitions per run")
    ap.add_argument("--warmup", type=int, help="untimed repetitions first")
    ap.add_argument("--dir", default="/tmp", help="directory of the files")
    ap.add_argument("--hints", default="",
                    help="MPI-IO hints for every library, "
                         "'key=value;key=value' (passed as MPI_Info)")
    # ROMIO by default: the MPI-IO baselines are faster on it here, and
    # Debian's PnetCDF 1.12.3 reads back wrong bytes on OpenMPI 4.1.4's
    # default OMPIO (see tests/run_mpi_test.sh). "" keeps OpenMPI's choice.
    ap.add_argument("--mca-io", default="romio321",
                    help="OpenMPI MPI-IO component for every run "
                         "(default romio321; '' for OpenMPI's default)")
    ap.add_argument("--out", default="bench-results",
                    help="directory for table, CSV, JSON and plots")
    ap.add_argument("--no-plots", action="store_true")
    ap.add_argument("--timeout", type=int, default=600,
                    help="seconds one mpirun may take")
    ap.add_argument("--mpirun", default="mpirun")
    return ap.parse_args(argv)


def positive_ints(text, what):
    try:
        vals = [int(x) for x in text.split(",") if x]
    except ValueError:
        vals = []
    if not vals or min(vals) < 1:
        usage_error("%s wants a comma list of positive integers, not '%s'"
                    % (what, text))
    return vals


def alt_bins(items):
    """{build name: bin dir} from --alt-bin's 'NAME=DIR' items."""
    out = {}
    for item in items:
        name, eq, path = item.partition("=")
        if not eq or not name or not path:
            usage_error("--alt-bin wants BUILD=DIR, not '%s'" % item)
        out[name] = path
    return out


def lib_specs(text, bin_dir, alt):
    """[(label, lib, hints, bin dir)] from
    'ncpario,ncpario:nc_driver=mpiio,ncpario@before,...'."""
    specs = []
    for item in filter(None, text.split(",")):
        name, _, hints = item.partition(":")
        lib, at, build = name.partition("@")
        if lib not in LIBS:
            usage_error("unknown library '%s' (one of %s)"
                        % (lib, ", ".join(LIBS)))
        if at and build not in alt:
            usage_error("'%s' names a build no --alt-bin gives" % item)
        specs.append((item, lib, hints, alt[build] if at else bin_dir))
    return specs


def executable(bin_dir, bench, lib):
    name = bench if lib == "ncpario" else "%s_%s" % (bench, lib)
    return os.path.join(bin_dir, name)


def mpi_env(hints, extra_hints, mca_io):
    env = dict(os.environ)
    env.update(OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
               OMPI_MCA_mpi_yield_when_idle="1")
    joined = ";".join(h for h in (hints, extra_hints) if h)
    if joined:
        env["PNETCDF_HINTS"] = joined
        env["NCPARIO_BENCH_HINTS"] = joined
    if mca_io:
        env["OMPI_MCA_io"] = mca_io
    return env


def parse_csv_lines(text, label):
    rows = []
    for line in text.splitlines():
        if not line.startswith("csv,"):
            continue
        parts = line.split(",")[1:]
        if len(parts) != len(FIELDS):
            raise RuntimeError("malformed result line: " + line)
        row = dict(zip(FIELDS, parts))
        row["label"] = label
        for k in ("nprocs", "bytes"):
            row[k] = int(row[k])
        for k in ("median_s", "min_s", "max_s", "mibs"):
            row[k] = float(row[k])
        rows.append(row)
    return rows


def validate_netcdf(workdir):
    """ncvalidator over every .nc file left in workdir; error text or ''."""
    validator = shutil.which("ncvalidator")
    if validator is None:
        return ""
    for name in sorted(os.listdir(workdir)):
        if name.endswith(".nc"):
            p = subprocess.run([validator, os.path.join(workdir, name)],
                               capture_output=True, text=True)
            if p.returncode != 0:
                return "ncvalidator rejects %s: %s" % (name, p.stdout[-500:])
    return ""


class Runner:
    def __init__(self, a, preset):
        self.a = a
        self.preset = preset
        self.rows = []
        self.done = 0
        self.total = 0
        self.t_start = time.time()

    def progress(self, what):
        self.done += 1
        el = time.time() - self.t_start
        sys.stderr.write("[%3d/%d %5.0fs] %s\n" % (self.done, self.total,
                                                  el, what))
        sys.stderr.flush()

    def run_case(self, bench, args, np_, spec, workdir):
        label, lib, hints, bin_dir = spec
        exe = executable(bin_dir, bench, lib)
        cmd = [self.a.mpirun, "--oversubscribe", "-np", str(np_), exe] + \
            args + ["-c", "-q", "-k", "-d", workdir,
                    "-r", str(self.reps), "-w", str(self.warmup)]
        env = mpi_env(self.a.hints, hints, self.a.mca_io)
        t0 = time.time()
        p = subprocess.run(cmd, capture_output=True, text=True, env=env,
                           timeout=self.a.timeout)
        self.progress("%-11s %-28s np=%d %-10s %.1fs" % (
            bench, " ".join(args), np_, label, time.time() - t0))
        if p.returncode != 0:
            raise RuntimeError("FAILED (exit %d): %s\n%s%s" % (
                p.returncode, " ".join(cmd), p.stdout[-2000:],
                p.stderr[-2000:]))
        bad = validate_netcdf(workdir) if lib in NETCDF_LIBS else ""
        if bad:
            raise RuntimeError("FAILED: %s: %s" % (" ".join(cmd), bad))
        return parse_csv_lines(p.stdout, label)

    def run_limits(self, nbytes, workdir):
        exe = os.path.join(self.a.bin_dir, "limits")
        cmd = [exe, "-c", "-d", workdir, "-s", str(max(nbytes, 1)),
               "-r", str(self.reps)]
        p = subprocess.run(cmd, capture_output=True, text=True,
                           timeout=self.a.timeout)
        self.progress("limits      %d bytes" % nbytes)
        if p.returncode != 0:
            raise RuntimeError("FAILED: %s\n%s" % (" ".join(cmd), p.stderr))
        return parse_csv_lines(p.stdout, "machine")

    def cases(self):
        out = []
        for bench in self.benches:
            for args in self.preset.get(bench, []):
                out.append((bench, args))
        return out

    def specs_of(self, bench, specs):
        """A Fortran program runs the netCDF libraries it was built for,
        labelled "<label> (Fortran)"."""
        if bench not in FORTRAN:
            return specs
        return [("%s (Fortran)" % label, lib, hints, bin_dir)
                for label, lib, hints, bin_dir in specs
                if lib in NETCDF_LIBS and os.access(
                    executable(bin_dir, bench, lib), os.X_OK)]

    def plan(self, specs):
        n = 0
        for bench, _ in self.cases():
            n += (bench not in FORTRAN) + \
                len(self.specs_of(bench, specs)) * len(self.ranks_of(bench))
        self.total = n

    def ranks_of(self, bench):
        return bench_ranks(bench, self.ranks, self.preset,
                           self.a.ranks is not None)

    def run(self, specs):
        self.plan(specs)
        for bench, args in self.cases():
            case_rows = []
            ranks = self.ranks_of(bench)
            bspecs = self.specs_of(bench, specs)
            if not bspecs:
                continue
            if not ranks:
                sys.stderr.write("ncpario-bench: %s skipped: it needs a "
                                 "square rank count\n" % bench)
            for i, np_ in enumerate(ranks):
                k = i % len(bspecs)
                for spec in bspecs[k:] + bspecs[:k]:
                    workdir = tempfile.mkdtemp(prefix="ncpario-bench.",
                                               dir=self.a.dir)
                    try:
                        case_rows += self.run_case(bench, args, np_, spec,
                                                   workdir)
                    finally:
                        shutil.rmtree(workdir, ignore_errors=True)
            self.rows += case_rows
            if bench not in FORTRAN:
                self.rows += self.limits_for(case_rows, bench)

    def limits_for(self, case_rows, bench):
        written = [r["bytes"] for r in case_rows if r["phase"] == "total_w"]
        workdir = tempfile.mkdtemp(prefix="ncpario-bench.", dir=self.a.dir)
        try:
            rows = self.run_limits(max(written) if written else 1, workdir)
        finally:
            shutil.rmtree(workdir, ignore_errors=True)
        for r in rows:
            r["bench"] = bench
        return rows


def main(argv=None):
    a = parse_args(argv)
    preset = PRESETS[a.preset]
    here = os.path.dirname(os.path.abspath(__file__))
    if a.bin_dir is None:
        a.bin_dir = os.path.join(here, "..", "build", "bench")
    r = Runner(a, preset)
    r.ranks = positive_ints(a.ranks, "--ranks") if a.ranks \
        else preset["ranks"]
    if (a.reps is not None and a.reps < 1) or (a.warmup or 0) < 0:
        usage_error("--reps must be >= 1 and --warmup >= 0")
    r.reps = a.reps or preset["reps"]
    r.warmup = preset["warmup"] if a.warmup is None else a.warmup
    r.benches = [b for b in a.benchmarks.split(",") if b]
    for b in r.benches:
        if b not in BENCHES:
            usage_error("unknown benchmark '%s'" % b)
    a.libs = a.libs or preset.get("libs", ",".join(LIBS))
    specs = lib_specs(a.libs, a.bin_dir, alt_bins(a.alt_bin))
    missing = [executable(s[3], b, s[1]) for b in r.benches
               for s in specs if b not in FORTRAN
               if not os.access(executable(s[3], b, s[1]), os.X_OK)]
    for b in r.benches:
        if b in FORTRAN and preset.get(b) and not r.specs_of(b, specs):
            sys.stderr.write("ncpario-bench: %s skipped: not built (no "
                             "Fortran) or no netCDF library asked for\n"
                             % b)
    if missing:
        sys.stderr.write("ncpario-bench: not built: %s\n"
                         % ", ".join(missing))
        return 1
    try:
        r.run(specs)
    except (RuntimeError, subprocess.TimeoutExpired) as e:
        sys.stderr.write("ncpario-bench: %s\n" % e)
        return 1
    rc = bench_report.write_all(r.rows, a, r) if r.rows else 0
    if "ncpario" in [s[0] for s in specs]:
        rc = rc or python_overhead(a, preset, here)
        rc = rc or checkpoint_loop(a, preset, here)
    return rc


def python_with_ncpario_deps():
    """A Python that imports what the ncpario package needs, or None."""
    for py in (sys.executable, "/usr/bin/python3"):
        if py and subprocess.run(
                [py, "-c", "import numpy, mpi4py, cffi"],
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL).returncode == 0:
            return py
    return None


def python_overhead(a, preset, here):
    """The Python package's cost over the C API (python_overhead.py), at
    the preset's size, after the table; skipped, with a word, where the
    C twin or the Python modules are missing."""
    args = preset.get("python_overhead")
    py = python_with_ncpario_deps()
    cexe = os.path.join(a.bin_dir, "python_overhead_c")
    if not args:
        return 0
    if py is None or not os.access(cexe, os.X_OK):
        sys.stderr.write("ncpario-bench: python_overhead skipped: %s\n" % (
            "no python3 with numpy, mpi4py and cffi" if py is None
            else "python_overhead_c not built"))
        return 0
    cmd = [py, os.path.join(here, "python_overhead.py"), "--bin-dir",
           a.bin_dir, "--dir", a.dir, "--python", py] + args
    return side_run(a, "python_overhead", cmd, args,
                    "Python package over the C API")


def side_run(a, name, cmd, args, title):
    """Run one of the suite's own scripts after the table: its text is
    printed and kept in OUT/<name>.txt; 1 when it failed."""
    sys.stderr.write("ncpario-bench: %s %s\n" % (name, " ".join(args)))
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       universal_newlines=True, timeout=a.timeout,
                       env=mpi_env(a.hints, "", a.mca_io))
    text = "\n%s (bench/%s.py):\n%s" % (title, name, p.stdout)
    sys.stdout.write(text)
    with open(os.path.join(a.out, name + ".txt"), "w") as f:
        f.write(text)
    if p.returncode != 0:
        sys.stderr.write("ncpario-bench: %s failed:\n%s"
                         % (name, p.stderr[-4000:]))
        return 1
    return 0


def checkpoint_loop(a, preset, here):
    """Write-behind's checkpoint loop (checkpoint_loop.py) after the
    table; skipped, with a word, where its programs are not built."""
    args = preset.get("checkpoint_loop")
    if not args:
        return 0
    if not all(os.access(os.path.join(a.bin_dir, e), os.X_OK)
               for e in ("checkpoint", "checkpoint_pnetcdf")):
        sys.stderr.write("ncpario-bench: checkpoint_loop skipped: "
                         "checkpoint or checkpoint_pnetcdf not built\n")
        return 0
    cmd = [sys.executable, os.path.join(here, "checkpoint_loop.py"),
           "--bin-dir", a.bin_dir, "--dir", a.dir,
           "--out", os.path.join(a.out, "checkpoint_loop.json")] + args
    return side_run(a, "checkpoint_loop", cmd, args,
                    "Checkpoint loop, write-behind")


if __name__ == "__main__":
    sys.exit(main())
