#!/usr/bin/env python3
"""run_crash.py -- ctest crash.<scenario>.np<N>: stop a scenario dead after
each of its writes, and after each stop check that the file keeps what
was synced.

    run_crash.py --exe CRASH_SCENARIO --scenario S --np N --work DIR
                 --ncpario NCPARIO [--ncmpidump NCMPIDUMP] [--ncdump NCDUMP]

In the style of SQLite's crash tests: the scenario runs once counting the
writes the I/O layer makes (NCPARIO_TEST_CRASH=count); then, for every
write index k, from a fresh copy of the setup file, once stopped right
after write k and, at 1 rank, once stopped halfway through it (a torn
write).  After each stop, `crash_scenario S FILE check` opens the file
with ncpario (which rolls back an interrupted enddef) and holds it
against the scenario's last completed durability point (after every
other stop, `ncpario recover` runs first); then the file
must have no journal left, `ncpario validate` must call it valid, and
PnetCDF's ncmpidump and netCDF's ncdump must open it.  A stop must really
stop: the run does not exit 0.  Every failure is printed; the exit status
is 1 if any.

One stop is known to leave a file nothing opens, and is checked to leave
exactly that: create's first write (its 32-byte empty header) torn in
half, which only a power cut can do, since the truncation of the file
before it cannot be undone (PnetCDF leaves 0 bytes there until enddef).
"""
import argparse
import os
import re
import shutil
import subprocess
import sys

CRASH_STATUS = 86


def run(cmd, env=None, timeout=120):
    e = dict(os.environ)
    e.update(env or {})
    p = subprocess.run(cmd, capture_output=True, text=True, env=e,
                       timeout=timeout, errors="replace")
    return p.returncode, p.stdout + p.stderr


def launcher(np):
    if np == 1:
        return []
    return ["mpirun", "--oversubscribe", "-np", str(np)]


def checks(a, f, k):
    """What is wrong with f after stop k (an empty list when nothing).
    After an odd k the check's open rolls back an interrupted enddef;
    after an even one `ncpario recover` does, then the open."""
    bad = []
    if not os.path.exists(f):  # a kill before create: the scenario says
        rc, out = run([a.exe, a.scenario, f, "check"])
        return [] if rc == 0 else ["check: " + out.strip()]
    if k % 2 == 0:
        rc, out = run([a.ncpario, "recover", f])
        if rc != 0:
            return ["ncpario recover: " + out.strip()]
    rc, out = run([a.exe, a.scenario, f, "check"])
    if rc != 0:
        return ["check: " + out.strip()]
    if os.path.exists(f + "-ncjournal"):
        bad.append("a journal is left after open")
    rc, out = run([a.ncpario, "validate", f])
    if rc != 0:
        bad.append("ncpario validate: " + out.strip())
    for tool in (a.ncmpidump, a.ncdump):
        if tool:
            rc, out = run([tool, "-h", f])
            if rc != 0:
                bad.append("%s -h: %s" % (os.path.basename(tool),
                                          out.strip()))
    return bad


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--exe", required=True)
    ap.add_argument("--scenario", required=True)
    ap.add_argument("--np", type=int, default=1)
    ap.add_argument("--work", required=True)
    ap.add_argument("--ncpario", required=True)
    ap.add_argument("--ncmpidump")
    ap.add_argument("--ncdump")
    a = ap.parse_args()
    # Moves in 1 KiB pieces: a redef's move takes many rounds, each
    # with its journal record, and a stop may land in any of them.
    os.environ.update(OMPI_ALLOW_RUN_AS_ROOT="1",
                      OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
                      OMPI_MCA_mpi_yield_when_idle="1",
                      PNETCDF_HINTS="nc_data_move_chunk_size=1024")
    shutil.rmtree(a.work, ignore_errors=True)
    os.makedirs(a.work)
    base = os.path.join(a.work, "base.nc")
    f = os.path.join(a.work, "f.nc")
    mpi = launcher(a.np)
    rc, out = run(mpi + [a.exe, a.scenario, base, "setup"])
    if rc != 0:
        sys.exit("setup failed:\n" + out)

    def fresh():
        for p in (f, f + ".progress", f + "-ncjournal"):
            if os.path.exists(p):
                os.remove(p)
        if os.path.exists(base):
            shutil.copyfile(base, f)

    fresh()
    rc, out = run(mpi + [a.exe, a.scenario, f, "run"],
                  {"NCPARIO_TEST_CRASH": "count"})
    counts = [int(x) for x in re.findall(r"ncpario-crash-writes (\d+)", out)]
    if rc != 0 or not counts:
        sys.exit("counting run failed:\n" + out)
    writes = max(counts)
    failures = []
    stops = 0
    for k in range(1, writes + 1):
        for how in ("stop", "tear") if a.np == 1 else ("stop",):
            fresh()
            rc, out = run(mpi + [a.exe, a.scenario, f, "run"],
                          {"NCPARIO_TEST_CRASH": "%s:%d" % (how, k)})
            what = "%s:%d" % (how, k)
            if rc == 0:
                failures.append("%s: the run did not stop (%s)" % (what, out))
                continue
            stops += 1
            if a.scenario == "create" and what == "tear:1":
                size = os.path.getsize(f) if os.path.exists(f) else 0
                if size >= 32:
                    failures.append("%s: expected a cut empty header, the "
                                    "file has %d bytes" % (what, size))
                continue
            failures += ["%s: %s" % (what, x) for x in checks(a, f, k)]
    for line in failures:
        print("FAIL " + line)
    print("%s at %d rank(s): %d writes, %d stops checked, %d failures"
          % (a.scenario, a.np, writes, stops, len(failures)))
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
