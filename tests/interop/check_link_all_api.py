#!/usr/bin/env python3
"""Link a program that references every function our pnetcdf.h declares.

A declaration without a definition compiles fine and only fails when a
user links, so this test closes that gap: it reads the ncmpi_* prototypes,
and those of the CDL header API (cdl_hdr_*), from our pnetcdf.h with the
parser of check_api_against_pnetcdf.py
(after the preprocessor, so macro-built families are seen whole), writes a
C file that takes the address of each function, and links it against the
library.  Every name the linker cannot resolve is printed, sorted.

Usage: check_link_all_api.py --header BUILD/include/pnetcdf.h --lib libncpario.so
           [--cc mpicc] [--workdir DIR]
Exit status 0 only when the program links and runs.
"""

import argparse
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import check_api_against_pnetcdf as api  # noqa: E402


def write_program(path, header, names):
    """A C program holding the address of each function in one table."""
    lines = ['#include <stdio.h>',
             '#include "%s"' % os.path.abspath(header),
             '',
             'typedef void (*fnptr)(void);',
             'static fnptr const table[] = {']
    lines += ['    (fnptr)%s,' % n for n in names]
    lines += ['};',
              '',
              'int main(void)',
              '{',
              '    size_t i, n = sizeof table / sizeof table[0];',
              '    for (i = 0; i < n; i++)',
              '        if (table[i] == NULL)',
              '            return 1;',
              '    printf("OK: %zu functions linked\\n", n);',
              '    return 0;',
              '}']
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")


def undefined_names(linker_output):
    found = set()
    for m in re.finditer(r"undefined reference to [`'\"]?(\w+)",
                         linker_output):
        found.add(m.group(1))
    return sorted(found)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--header", required=True)
    ap.add_argument("--lib", required=True)
    ap.add_argument("--cc", default=os.environ.get("MPICC", "mpicc"))
    ap.add_argument("--workdir")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="ncp_link_all_") as tmp:
        wd = args.workdir or tmp
        os.makedirs(wd, exist_ok=True)
        try:
            protos, _ = api.read_prototypes(args.cc, args.header, wd, "link",
                                            r"(?:ncmpi|cdl_hdr)_\w+")
        except (RuntimeError, OSError) as e:
            print(str(e))
            print("FAIL: cannot read the prototypes of %s" % args.header)
            return 1
        names = sorted(protos)
        if not names:
            print("FAIL: no ncmpi_* prototype found in %s" % args.header)
            return 1
        src = os.path.join(wd, "link_all_api.c")
        exe = os.path.join(wd, "link_all_api")
        write_program(src, args.header, names)
        libdir = os.path.dirname(os.path.abspath(args.lib))
        r = subprocess.run([args.cc, "-std=c11", "-o", exe, src,
                            os.path.abspath(args.lib),
                            "-Wl,-rpath," + libdir],
                           capture_output=True, text=True)
        if r.returncode != 0:
            missing = undefined_names(r.stdout + r.stderr)
            if not missing:
                print(r.stdout + r.stderr)
            for n in missing:
                print("declared in pnetcdf.h, not defined: %s" % n)
            print("FAIL: %d of %d declared functions are not defined"
                  % (len(missing), len(names)))
            return 1
        env = dict(os.environ)
        # A sanitizer build's library pulls in the runtime after libc.
        env["ASAN_OPTIONS"] = "verify_asan_link_order=0:detect_leaks=0"
        r = subprocess.run([exe], capture_output=True, text=True, env=env)
        sys.stdout.write(r.stdout + r.stderr)
        if r.returncode != 0:
            print("FAIL: the linked program did not run")
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
