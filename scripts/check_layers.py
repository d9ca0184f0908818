#!/usr/bin/env python3
"""check_layers.py -- every dependency in src/ points one way.

Each folder under src/ is a layer; LAYERS below lists them top to bottom.
A file may include headers of its own layer or of a layer below it, never
one above, and the include graph between files has no cycle.  The check
reads only the `#include "..."` lines, so it runs without a build; it is
the ctest `layers.no_cycles`.

With --objects (the library's object files, or the folder holding them,
e.g. build/CMakeFiles/ncpario_obj.dir/src) it also builds the call graph
from the symbols each object defines and uses (nm): a call up a layer
fails (ctest `layers.no_upward_calls`); a cycle between .c files is
printed, and fails only with --call-cycles-fail.  It also fails on a
public function (ncmpi_*, ncpario_*, cdl_hdr_*) defined outside api/:
every entry point lives there.  --graph prints every include (and call)
edge, for reading.

Exit status: 0 clean, 1 a rule is broken, 2 usage or setup error.
"""
import argparse
import os
import re
import subprocess
import sys

# Top to bottom.  A file may include headers of its own layer or of one
# listed below it, never of one above.  Folders that share a rank are one
# layer (io/group is part of io), and between their files only the
# no-cycle rule holds.
#   api      the public functions: thin expansions into the entry points
#   engine   data calls: ops, the queue of nonblocking requests, the flush
#   dataset  one open dataset: its state, define mode, header I/O, attributes
#   access   one request's coordinates turned into file extents
#   io       the file: the front (io.c), the drivers (posix, mpiio, the
#            fault wrapper) and the I/O groups stacked over them
#   io/agg   the aggregator: the plan, the rounds by message and through
#            the shared staging; its merged bytes go to a sink the caller
#            gives it (no system call on the file)
#   io/transport  the system calls that move a rank's bytes (pwritev)
#   base     extent lists, the error agreement, k-way merge, MPI error map,
#            a transfer seen as a byte stream
#   util     hints and the error strings
#   format   the netCDF classic format, no MPI
LAYERS = [
    ("api", 10),
    ("engine", 9),
    ("dataset", 8),
    ("access", 7),
    ("io", 6),
    ("io/group", 6),
    ("io/agg", 5),
    ("io/transport", 4),
    ("base", 3),
    ("util", 2),
    ("format", 1),
]
RANK = dict(LAYERS)

INCLUDE_RE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def layer_of(rel):
    """The layer (folder relative to src/) of a file path relative to src/."""
    folder = os.path.dirname(rel)
    return folder


def scan_includes(src):
    """{file: [included file]} for every .c/.h under src, paths relative to
    src.  Includes that resolve outside src/ (the public headers) are
    dropped."""
    graph = {}
    for root, _, files in os.walk(src):
        for name in files:
            if not name.endswith((".c", ".h")):
                continue
            path = os.path.join(root, name)
            rel = os.path.relpath(path, src)
            with open(path, encoding="utf-8", errors="replace") as fh:
                text = fh.read()
            deps = []
            for inc in INCLUDE_RE.findall(text):
                for base in (os.path.dirname(path), src):
                    cand = os.path.normpath(os.path.join(base, inc))
                    if os.path.isfile(cand):
                        deps.append(os.path.relpath(cand, src))
                        break
            graph[rel] = deps
    return graph


def cycles(graph):
    """The strongly connected components with more than one node, or with a
    self edge (Tarjan, iterative)."""
    index, low, on, stack, out = {}, {}, set(), [], []
    counter = [0]
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph.get(start, ()))))]
        index[start] = low[start] = counter[0]
        counter[0] += 1
        stack.append(start)
        on.add(start)
        while work:
            node, it = work[-1]
            nxt = next(it, None)
            if nxt is not None:
                if nxt not in index:
                    index[nxt] = low[nxt] = counter[0]
                    counter[0] += 1
                    stack.append(nxt)
                    on.add(nxt)
                    work.append((nxt, iter(sorted(graph.get(nxt, ())))))
                elif nxt in on:
                    low[node] = min(low[node], index[nxt])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                comp = []
                while True:
                    w = stack.pop()
                    on.discard(w)
                    comp.append(w)
                    if w == node:
                        break
                if len(comp) > 1 or node in graph.get(node, ()):
                    out.append(sorted(comp))
    return out


def upward(graph):
    """Edges from a file to one in a higher layer, and files in no layer."""
    bad, unknown = [], set()
    for a, deps in graph.items():
        for b in deps:
            la, lb = layer_of(a), layer_of(b)
            for f, lay in ((a, la), (b, lb)):
                if lay not in RANK:
                    unknown.add(f)
            if la in RANK and lb in RANK and RANK[lb] > RANK[la]:
                bad.append((a, b))
    for a in graph:
        if layer_of(a) not in RANK:
            unknown.add(a)
    return sorted(bad), sorted(unknown)


def object_files(objects):
    """The .o files named, or found under the folders named (an argument
    may be a ;-separated list, as CMake's $<TARGET_OBJECTS> gives it)."""
    out = []
    for o in [x for arg in objects for x in arg.split(";") if x]:
        if os.path.isdir(o):
            for root, _, files in os.walk(o):
                out += [os.path.join(root, n) for n in files
                        if n.endswith(".o")]
        else:
            out.append(o)
    return out


# The public API's names: every function of these is an entry point of
# src/api/, which finds the dataset and calls a service below.
PUBLIC_PREFIXES = ("ncmpi_", "ncpario_", "cdl_hdr_")


def call_graph(objects, src, nm, entries_outside=None):
    """{file.c: [file.c]} from the symbols each object defines and uses.
    An object is mapped to its source by the path after its last "src/"
    (CMake names them src/<folder>/<file>.c.o); objects whose source is
    gone (a stale build) are skipped.  entries_outside, a list, gets
    (file, name) for each public function defined outside api/."""
    defs, uses = {}, {}
    for path in object_files(objects):
        norm = path.replace(os.sep, "/")
        if "/src/" not in norm:
            continue
        rel = norm.rsplit("/src/", 1)[1]
        rel = rel[: -len(".o")] if rel.endswith(".o") else rel
        if not os.path.isfile(os.path.join(src, rel)):
            continue
        out = subprocess.run([nm, path], capture_output=True, text=True,
                             check=True).stdout
        uses[rel] = set()
        for line in out.splitlines():
            parts = line.split()
            if len(parts) == 2 and parts[0] == "U":
                uses[rel].add(parts[1])
            elif len(parts) == 3 and parts[1] in "TDBRC":
                defs[parts[2]] = rel
                if (entries_outside is not None and parts[1] == "T" and
                        parts[2].startswith(PUBLIC_PREFIXES) and
                        layer_of(rel) != "api"):
                    entries_outside.append((rel, parts[2]))
    return {f: sorted({defs[s] for s in syms if s in defs and defs[s] != f})
            for f, syms in uses.items()}


def report(kind, graph, verbose, cycles_fail=True):
    bad_up, unknown = upward(graph)
    cyc = cycles(graph)
    if verbose:
        for a in sorted(graph):
            for b in graph[a]:
                print(f"{kind}: {a} -> {b}")
    for f in unknown:
        print(f"{kind}: {f}: folder {layer_of(f)!r} is in no layer "
              f"(add it to LAYERS in {sys.argv[0]})")
    for a, b in bad_up:
        print(f"{kind}: upward: {a} ({layer_of(a)}) -> {b} ({layer_of(b)})")
    for c in cyc:
        print(f"{kind}: cycle: {' '.join(c)}")
    return bool(bad_up or unknown or (cyc and cycles_fail))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("src", help="the src/ folder")
    ap.add_argument("--objects", nargs="+", metavar="OBJ",
                    help="the library's object files (or a folder of them): "
                    "also check the call graph")
    ap.add_argument("--nm", default="nm", help="the nm program")
    ap.add_argument("--call-cycles-fail", action="store_true",
                    help="a cycle between .c files fails the check too "
                    "(otherwise it is only printed)")
    ap.add_argument("--graph", action="store_true", help="print every edge")
    args = ap.parse_args()
    if not os.path.isdir(args.src):
        print(f"{args.src}: no such folder", file=sys.stderr)
        return 2
    bad = report("include", scan_includes(args.src), args.graph)
    if args.objects:
        outside = []
        calls = call_graph(args.objects, args.src, args.nm, outside)
        if not calls:
            print("no object of src/ among --objects", file=sys.stderr)
            return 2
        bad |= report("call", calls, args.graph, args.call_cycles_fail)
        for f, name in sorted(outside):
            print(f"entry: {name} defined in {f}, outside api/")
        bad |= bool(outside)
    print("layers: " + ("BROKEN" if bad else "ok (" + " > ".join(
        n for n, _ in LAYERS) + ")"))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
