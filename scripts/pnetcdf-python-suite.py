#!/usr/bin/env python3
"""pnetcdf-python-suite.py -- PnetCDF-Python's own test programs and
examples, run on ncpario with only their import changed.

The PnetCDF-Python source is the caller's (an extracted release tree, e.g.
`git --git-dir=MIRROR archive pnetcdf-python.1.0.0 test examples | tar -x`);
it is copied, never modified in place, and nothing of it enters this
repository.  Each program is copied into OUTDIR/work with `import pnetcdf`
rewritten to `import ncpario.pnetcdf as pnetcdf` (and `from pnetcdf import`
to `from ncpario.pnetcdf import`), then run under mpirun at each rank count
with the arguments the release's own run scripts give it.

Afterwards every netCDF file the programs left is read back whole with
netCDF4-python and with xarray (engine netcdf4); a file either fails to
read counts as a failed run.

A program passes when it exits 0 and prints no unittest failure report:
the release's tests print their report and still exit 0 when a case fails,
so the exit status alone would pass them.

    scripts/pnetcdf-python-suite.py [--np 1,4] [--only a.py,b.py]
                                    [--python PY] SRC OUTDIR

Prints one line per program and rank count, then a summary; writes the same
as OUTDIR/summary.md and each run's output as OUTDIR/logs/NAME.npN.log.
Exit status 0 when every run passed, 1 otherwise.
"""
import argparse
import os
import re
import shutil
import subprocess
import sys

TESTS = "test"
EXAMPLES = ("examples", "examples/nonblocking")
# Examples that read what another wrote, and the writer they need first.
READS_FROM = {"get_var.py": "put_var.nc",
              "nonblocking_read.py": "nonblocking_write.nc"}
FAILURE = re.compile(r"^(FAIL|ERROR):|^Traceback|^FAILED \(", re.M)


def programs(src):
    """(directory relative to src, file name) of every program to run, in
    the order the release's Makefiles list them (writers before readers)."""
    out = []
    for d in (TESTS,) + EXAMPLES:
        mk = os.path.join(src, d, "Makefile")
        names = re.search(r"check_PROGRAMS\s*=\s*((?:.*\\\n)*.*)",
                          open(mk).read()).group(1)
        out += [(d, n) for n in names.replace("\\", " ").split()]
    return out


def port(src, d, name, work):
    """Copy one program (and the test directory's utils.py) with its
    import pointed at ncpario; returns the copy's directory."""
    dst = os.path.join(work, d)
    os.makedirs(dst, exist_ok=True)
    text = open(os.path.join(src, d, name)).read()
    text = re.sub(r"^(\s*)import pnetcdf\s*$",
                  r"\1import ncpario.pnetcdf as pnetcdf", text, flags=re.M)
    text = re.sub(r"^(\s*)from pnetcdf import",
                  r"\1from ncpario.pnetcdf import", text, flags=re.M)
    with open(os.path.join(dst, name), "w") as f:
        f.write(text)
    utils = os.path.join(src, d, "utils.py")
    if os.path.exists(utils):
        shutil.copy(utils, dst)
    return dst


def arguments(d, name, outdir):
    if d == TESTS:
        return ["-q"] if name == "tst_libver.py" else [outdir]
    target = READS_FROM.get(name, os.path.splitext(name)[0] + ".nc")
    return ["-q", os.path.join(outdir, target)]


def run_one(args, d, name, np_, cwd, outdir, logdir):
    env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1",
               OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
               OMPI_MCA_mpi_yield_when_idle="1")
    env.pop("PNETCDF_DIR", None)      # no ncvalidator of PnetCDF's here
    cmd = ["mpirun", "--oversubscribe", "-np", str(np_), args.python, name] \
        + arguments(d, name, outdir)
    try:
        p = subprocess.run(cmd, cwd=cwd, env=env, stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, timeout=args.timeout)
        out, rc = p.stdout.decode(errors="replace"), p.returncode
    except subprocess.TimeoutExpired as e:
        out, rc = (e.stdout or b"").decode(errors="replace"), "timeout"
    log = os.path.join(logdir, "%s.np%d.log" % (name, np_))
    with open(log, "w") as f:
        f.write(" ".join(cmd) + "\n" + out)
    ok = rc == 0 and not FAILURE.search(out)
    return ok, rc, out


def read_back(files):
    """(file name, error or "") for every .nc file under `files`, each read
    whole by netCDF4-python and by xarray."""
    import netCDF4
    import xarray
    out = []
    for name in sorted(os.listdir(files)):
        if not name.endswith(".nc"):
            continue
        path = os.path.join(files, name)
        try:
            with netCDF4.Dataset(path) as ds:
                for v in ds.variables.values():
                    v[...]
            with xarray.open_dataset(path, engine="netcdf4",
                                     decode_times=False) as ds:
                ds.load()
            out.append((name, ""))
        except Exception as e:          # any reader failure is a finding
            out.append((name, "%s: %s" % (type(e).__name__, e)))
    return out


def first_error(out):
    lines = [l for l in out.splitlines() if l.strip()]
    for l in reversed(lines):
        if re.search(r"Error|error:|assert", l):
            return l.strip()[:120]
    return lines[-1].strip()[:120] if lines else ""


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("src")
    ap.add_argument("outdir")
    ap.add_argument("--np", default="1,4")
    ap.add_argument("--only", default="")
    ap.add_argument("--python", default=sys.executable)
    ap.add_argument("--timeout", type=int, default=300)
    args = ap.parse_args()
    outdir = os.path.abspath(args.outdir)
    work, logdir = os.path.join(outdir, "work"), os.path.join(outdir, "logs")
    os.makedirs(logdir, exist_ok=True)
    only = set(filter(None, args.only.split(",")))
    rows = []
    for np_ in [int(n) for n in args.np.split(",")]:
        files = os.path.join(outdir, "files.np%d" % np_)
        os.makedirs(files, exist_ok=True)
        for d, name in programs(args.src):
            if only and name not in only:
                continue
            cwd = port(args.src, d, name, work)
            ok, rc, out = run_one(args, d, name, np_, cwd, files, logdir)
            why = "" if ok else "rc=%s %s" % (rc, first_error(out))
            rows.append((d, name, np_, ok, why))
            print("%-34s np%d %s %s" % (name, np_, "PASS" if ok else "FAIL",
                                         why), flush=True)
        for name, err in read_back(files):
            rows.append(("read-back", name, np_, not err, err))
            print("read back %-24s np%d %s %s" % (
                name, np_, "FAIL" if err else "PASS", err), flush=True)
    passed = sum(r[3] for r in rows)
    with open(os.path.join(outdir, "summary.md"), "w") as f:
        f.write("| program | ranks | result | first error |\n"
                "|---|---|---|---|\n")
        for d, name, np_, ok, why in rows:
            f.write("| %s/%s | %d | %s | %s |\n" % (
                d, name, np_, "pass" if ok else "FAIL",
                why.replace("|", "\\|")))
        f.write("\n%d of %d runs pass\n" % (passed, len(rows)))
    print("%d of %d runs pass" % (passed, len(rows)))
    return 0 if passed == len(rows) else 1


if __name__ == "__main__":
    sys.exit(main())
