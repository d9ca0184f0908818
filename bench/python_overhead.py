#!/usr/bin/env python3
"""python_overhead.py: what the Python package costs over the C API.

Runs python_overhead_c (C) and this script's worker (Python, the ncpario
package) alternately, ROUNDS times at each rank count, the order swapping
every round. Each run makes SMALL collective puts of one double (Python:
Variable.put_var_all with start/count, and again through slicing,
v[i] = x) and REPS collective puts of BYTES per rank. Prints, per rank
count, the medians over the rounds of: microseconds per small put in C
and in Python and their difference (the per-call overhead), and the
large put's bandwidth in C and Python with the ratio Python/C (1.0:
Python as fast as C).

usage: python_overhead.py [--bin-dir build/bench] [--ranks 1,2]
                          [--rounds 5] [--small 20000]
                          [--bytes 67108864] [--reps 3] [--dir /tmp]
                          [--python python3] [--smoke]
--smoke: tiny sizes and one round, a check that both sides run (ctest
bench.python_overhead.smoke), not a measurement.
"""
import argparse
import os
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))


def worker(a):
    """The Python side, under mpirun: same file layout and calls as the C
    program."""
    import numpy as np
    from mpi4py import MPI
    import ncpario
    comm = MPI.COMM_WORLD
    rank, np_ = comm.rank, comm.size
    nlarge = a.bytes // 8
    big = np.arange(nlarge, dtype=np.float64)
    path = os.path.join(a.dir, "python_overhead_py.nc")
    out = {}
    with ncpario.File(path, "w", format="64BIT_DATA") as f:
        f.def_dim("s", a.small * np_)
        f.def_dim("l", nlarge * np_)
        vs = f.def_var("small", ncpario.NC_DOUBLE, ("s",))
        vl = f.def_var("large", ncpario.NC_DOUBLE, ("l",))
        f.enddef()
        one = np.ones(1)
        base = rank * a.small
        for label, put in (
                ("small_us", lambda i: vs.put_var_all(one, start=(base + i,),
                                                      count=(1,))),
                ("slice_us", lambda i: vs.__setitem__(base + i, 1.0))):
            comm.Barrier()
            t0 = MPI.Wtime()
            for i in range(a.small):
                put(i)
            dt = comm.allreduce(MPI.Wtime() - t0, op=MPI.MAX)
            out[label] = dt / a.small * 1e6
        times = []
        for _ in range(a.reps):
            comm.Barrier()
            t0 = MPI.Wtime()
            vl.put_var_all(big, start=(rank * nlarge,), count=(nlarge,))
            times.append(comm.allreduce(MPI.Wtime() - t0, op=MPI.MAX))
        out["large_s"] = statistics.median(times)
    if rank == 0:
        os.unlink(path)
        print("result " + " ".join("%s=%.6f" % kv for kv in out.items()))


def parse_result(text):
    for line in text.splitlines():
        if line.startswith("result "):
            return {k: float(v) for k, v in
                    (kv.split("=") for kv in line.split()[1:])}
    raise RuntimeError("no result line in:\n" + text)


def run(cmd, env):
    p = subprocess.run(cmd, capture_output=True, text=True, env=env,
                       timeout=600)
    if p.returncode != 0:
        sys.exit("FAILED: %s\n%s%s" % (" ".join(cmd), p.stdout, p.stderr))
    return parse_result(p.stdout)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bin-dir", default=os.path.join(HERE, "..", "build",
                                                      "bench"))
    ap.add_argument("--ranks", default="1,2")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--small", type=int, default=20000)
    ap.add_argument("--bytes", type=int, default=64 << 20)
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--dir", default="/tmp")
    ap.add_argument("--python", default=sys.executable)
    ap.add_argument("--smoke", action="store_true")
    ap.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    a = ap.parse_args()
    if a.worker:
        return worker(a)
    if a.smoke:
        a.rounds, a.small, a.bytes, a.reps = 1, 200, 1 << 20, 1
    env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1",
               OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
               OMPI_MCA_mpi_yield_when_idle="1")
    # The package from this source tree unless one is installed.
    env["PYTHONPATH"] = os.path.join(HERE, "..", "python") + \
        (":" + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    cexe = os.path.join(a.bin_dir, "python_overhead_c")
    if not os.access(cexe, os.X_OK):
        sys.exit("python_overhead: %s not built" % cexe)
    if "NCPARIO_LIB" not in env and \
            os.path.exists(os.path.join(a.bin_dir, "..", "libncpario.so")):
        env["NCPARIO_LIB"] = os.path.abspath(
            os.path.join(a.bin_dir, "..", "libncpario.so"))
    print("%3s %10s %10s %10s %10s | %9s %9s %6s   (%d rounds, medians; "
          "small: %d puts of 8 B, large: %d B per rank)"
          % ("np", "C us/put", "Py us/put", "overhead", "slice us",
             "C MiB/s", "Py MiB/s", "Py/C", a.rounds, a.small, a.bytes))
    for np_ in [int(x) for x in a.ranks.split(",") if x]:
        res = {"c": [], "py": []}
        for r in range(a.rounds):
            order = ("c", "py") if r % 2 == 0 else ("py", "c")
            for side in order:
                with tempfile.TemporaryDirectory(dir=a.dir) as w:
                    args = ["-n", str(a.small), "-s", str(a.bytes),
                            "-r", str(a.reps), "-d", w]
                    cmd = ["mpirun", "--oversubscribe", "-np", str(np_)]
                    if side == "c":
                        cmd += [cexe] + args
                    else:
                        cmd += [a.python, os.path.abspath(__file__),
                                "--worker", "--small", str(a.small),
                                "--bytes", str(a.bytes),
                                "--reps", str(a.reps), "--dir", w]
                    res[side].append(run(cmd, env))

        def med(side, key):
            return statistics.median(x[key] for x in res[side])
        mib = a.bytes * np_ / 2 ** 20
        c_bw, py_bw = mib / med("c", "large_s"), mib / med("py", "large_s")
        print("%3d %10.2f %10.2f %10.2f %10.2f | %9.1f %9.1f %6.3f"
              % (np_, med("c", "small_us"), med("py", "small_us"),
                 med("py", "small_us") - med("c", "small_us"),
                 med("py", "slice_us"), c_bw, py_bw, py_bw / c_bw))
    return 0


if __name__ == "__main__":
    sys.exit(main())
