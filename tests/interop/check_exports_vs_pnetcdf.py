#!/usr/bin/env python3
"""Every ncmpi_* function PnetCDF's shared library exports, ours exports.

A program linked against PnetCDF must link against ncpario unchanged, so
the dynamic symbol tables are compared (nm -D, defined symbols only).
--ref names PnetCDF's library (CMake finds it, passing over an ncpario
drop-in installed where the system looks first).  Names ours exports beyond PnetCDF's are
listed for information only.  --prefix nfmpi_ compares the Fortran
binding's exports (libncpario_fortran.so) with the same library's; --cxx
the C++ binding's (libncpario_cxx.so): every mangled name of namespace
PnetCDF (functions, vtables, typeinfo) and the C++-linkage ncmpi_
functions PnetCDF's C++ header declares.  The C++ standard library's and
MPI's C++ bindings' inline functions PnetCDF's library happens to emit
are no part of its API and are not compared.

Usage: check_exports_vs_pnetcdf.py --ours libncpario.so --ref libpnetcdf.so
           [--nm nm] [--prefix ncmpi_ | --cxx]
Exit status 0 only when no PnetCDF export with the prefix is missing from
ours.
"""

import argparse
import re
import subprocess
import sys


CXX_API = re.compile(r"^_Z(?:T[VIS])?(?:NK?)?7PnetCDF|^_Z\d+ncmpi_")


def wanted(kind, name, prefix):
    """Is this nm line's symbol one the comparison covers?"""
    if prefix is None:
        return kind in "TtWwiIVvDdRrBb" and CXX_API.match(name)
    return kind in "TtWwiI" and name.startswith(prefix)


def exported(nm, lib, prefix):
    r = subprocess.run([nm, "-D", "--defined-only", lib],
                       capture_output=True, text=True)
    if r.returncode != 0:
        raise RuntimeError("%s -D %s failed:\n%s" % (nm, lib, r.stderr))
    names = set()
    for line in r.stdout.splitlines():
        f = line.split()
        if len(f) >= 3 and wanted(f[1], f[2], prefix):
            names.add(f[2].split("@")[0])
    return names


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--ours", required=True)
    ap.add_argument("--ref", required=True)
    ap.add_argument("--nm", default="nm")
    ap.add_argument("--prefix", default="ncmpi_")
    ap.add_argument("--cxx", action="store_true")
    args = ap.parse_args()
    if args.cxx:
        args.prefix = None
    ref = args.ref
    try:
        ours = exported(args.nm, args.ours, args.prefix)
        theirs = exported(args.nm, ref, args.prefix)
    except (RuntimeError, OSError) as e:
        print(str(e))
        return 1
    label = "C++ API" if args.cxx else args.prefix + "*"
    if not theirs:
        print("FAIL: no %s export found in %s" % (label, ref))
        return 1
    missing = sorted(theirs - ours)
    extra = sorted(ours - theirs)
    for n in extra:
        print("note: exported by ours only: %s" % n)
    for n in missing:
        print("exported by PnetCDF, missing from ours: %s" % n)
    if missing:
        print("FAIL: %d of PnetCDF's %d %s exports missing (%s)"
              % (len(missing), len(theirs), label, ref))
        return 1
    print("OK: all %d %s exports of %s are in ours (%d)"
          % (len(theirs), label, ref, len(ours)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
