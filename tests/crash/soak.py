#!/usr/bin/env python3
"""soak.py -- the crash scenarios killed at random moments (SIGKILL to the
whole job), outside CI: each kill lands wherever it lands, where
run_crash.py stops at every write in turn.

    soak.py --exe CRASH_SCENARIO --ncpario NCPARIO --work DIR
            [--kills 200] [--scale 50] [--seed 1]

Each kill: a random scenario at 1 or 2 ranks, from a fresh copy of its
setup file (CRASH_SCALE=scale, so runs take a while; redefs move data in
4 KiB pieces so their moves take many rounds), killed after a random
delay within the scenario's measured run time; then the same checks as
run_crash.py (the scenario's own, no journal left, ncpario validate,
ncmpidump and ncdump).  Prints the counts: kills, runs that finished
before the kill, files valid, files that lost synced data.
"""
import argparse
import os
import random
import shutil
import signal
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from run_crash import checks  # noqa: E402

SCENARIOS = ["append_coll", "append_indep", "append_nb", "redef_att",
             "redef_fixvar", "redef_recvar", "create"]


def command(exe, np, sc, f, phase):
    mpi = [] if np == 1 else ["mpirun", "--oversubscribe", "-np", str(np)]
    return mpi + [exe, sc, f, phase]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--exe", required=True)
    ap.add_argument("--ncpario", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--kills", type=int, default=200)
    ap.add_argument("--scale", type=int, default=50)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--ncmpidump", default=shutil.which("ncmpidump"))
    ap.add_argument("--ncdump", default=shutil.which("ncdump"))
    a = ap.parse_args()
    rnd = random.Random(a.seed)
    os.environ.update(OMPI_ALLOW_RUN_AS_ROOT="1",
                      OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
                      OMPI_MCA_mpi_yield_when_idle="1",
                      CRASH_SCALE=str(a.scale),
                      PNETCDF_HINTS="nc_data_move_chunk_size=4096")
    shutil.rmtree(a.work, ignore_errors=True)
    os.makedirs(a.work)
    f = os.path.join(a.work, "f.nc")
    bases, spans = {}, {}
    for sc in SCENARIOS:
        for np in (1, 2):
            base = os.path.join(a.work, "%s_np%d.nc" % (sc, np))
            subprocess.run(command(a.exe, np, sc, base, "setup"), check=True)
            bases[sc, np] = base
            shutil.copyfile(base, f) if os.path.exists(base) else None
            t0 = time.time()
            subprocess.run(command(a.exe, np, sc, f, "run"), check=True)
            spans[sc, np] = time.time() - t0
            for p in (f, f + ".progress"):
                if os.path.exists(p):
                    os.remove(p)
    finished = valid = lost = 0
    for _ in range(a.kills):
        sc, np = rnd.choice(SCENARIOS), rnd.choice((1, 2))
        for p in (f, f + ".progress", f + "-ncjournal"):
            if os.path.exists(p):
                os.remove(p)
        if os.path.exists(bases[sc, np]):
            shutil.copyfile(bases[sc, np], f)
        job = subprocess.Popen(command(a.exe, np, sc, f, "run"),
                               stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL,
                               start_new_session=True)
        time.sleep(rnd.uniform(0, spans[sc, np]))
        if job.poll() is not None:
            finished += 1
        else:
            os.killpg(job.pid, signal.SIGKILL)
        job.wait()
        bad = checks(argparse.Namespace(exe=a.exe, scenario=sc,
                                        ncpario=a.ncpario,
                                        ncmpidump=a.ncmpidump,
                                        ncdump=a.ncdump), f, rnd.randint(0, 1))
        if any(b.startswith("check:") for b in bad):
            lost += 1
        if not bad:
            valid += 1
        for b in bad:
            print("FAIL %s np%d: %s" % (sc, np, b))
    print("kills %d, finished before the kill %d, files valid %d, "
          "files that lost synced data %d" % (a.kills, finished, valid, lost))
    return 0 if valid == a.kills else 1


if __name__ == "__main__":
    sys.exit(main())
