#!/usr/bin/env python3
"""check_layers.py -- every dependency in src/ points one way.

Each folder under src/ is a layer; LAYERS below lists them top to bottom.
A file may include headers of its own layer or of a layer below it, never
one above, and the include graph between files has no cycle.  The check
reads only the `#include "..."` lines, so it runs without a build; it is
the ctest `layers.no_cycles`.

With --objects DIR (the object files of the library, e.g.
build/CMakeFiles/ncpario_obj.dir/src), it also builds the call graph from
the symbols each object defines and uses (nm), and prints the edges that
go up a layer and the cycles between .c files.  --graph prints every
include (and call) edge, for reading.

Exit status: 0 clean, 1 a rule is broken, 2 usage or setup error.
"""
import argparse
import os
import re
import subprocess
import sys

# Top to bottom.  Layers that share a rank may include each other's headers
# (still without a cycle); a lower rank never includes a higher one.
#   api      the public functions, thin expansions into the entry points
#   dataset  one open dataset: define mode, header I/O, attributes, table
#   engine   data calls: ops, the queue of nonblocking requests, the flush
#   access   one request's coordinates turned into file extents
#   io       the file: the front (io.c) and the drivers behind it
#   io/group I/O groups, a driver stacked over the file's own driver
#   base     extent lists, agreement, k-way merge, MPI error codes
#   util     hints and the error strings
#   format   the netCDF classic format, no MPI
LAYERS = [
    ("api", 9),
    ("dataset", 8),
    ("engine", 7),
    ("access", 6),
    ("io", 5),
    ("io/group", 4),
    ("io/stream", 3),
    ("base", 2),
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


def call_graph(objdir, src):
    """{file.c: set(file.c)} from the symbols each object defines and uses;
    objects whose source is gone (a stale build) are skipped."""
    defs, uses = {}, {}
    for root, _, files in os.walk(objdir):
        for name in files:
            if not name.endswith(".c.o"):
                continue
            path = os.path.join(root, name)
            rel = os.path.relpath(path, objdir)[: -len(".o")]
            if not os.path.isfile(os.path.join(src, rel)):
                continue
            out = subprocess.run(["nm", path], capture_output=True,
                                 text=True, check=True).stdout
            uses[rel] = set()
            for line in out.splitlines():
                parts = line.split()
                if len(parts) == 2 and parts[0] == "U":
                    uses[rel].add(parts[1])
                elif len(parts) == 3 and parts[1] in "TDBRC":
                    defs[parts[2]] = rel
    graph = {}
    for f, syms in uses.items():
        graph[f] = sorted({defs[s] for s in syms if s in defs and defs[s] != f})
    return graph


def report(kind, graph, verbose):
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
    return bool(bad_up or unknown or cyc)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("src", help="the src/ folder")
    ap.add_argument("--objects", help="the library's object folder: also "
                    "check the call graph")
    ap.add_argument("--graph", action="store_true", help="print every edge")
    args = ap.parse_args()
    if not os.path.isdir(args.src):
        print(f"{args.src}: no such folder", file=sys.stderr)
        return 2
    bad = report("include", scan_includes(args.src), args.graph)
    if args.objects:
        if not os.path.isdir(args.objects):
            print(f"{args.objects}: no such folder", file=sys.stderr)
            return 2
        bad |= report("call", call_graph(args.objects, args.src), args.graph)
    print("layers: " + ("BROKEN" if bad else "ok (" + " > ".join(
        n for n, _ in LAYERS) + ")"))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
