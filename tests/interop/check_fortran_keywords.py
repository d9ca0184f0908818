#!/usr/bin/env python3
"""Every call PnetCDF's module pnetcdf accepts compiles against ours.

Programs call the nf90mpi_* functions, and the nfmpi_* functions the
module declares, by keyword (nf90mpi_put_var(ncid, varid, v, start=s)),
so the dummy arguments' names, order and optional-ness are part of the API.
This check reads the reference module file (PnetCDF's installed
pnetcdf.mod, gfortran's gzip'd module format) and writes a Fortran program
that, for every public procedure with an explicit interface and every
specific procedure of every generic, makes three calls (our pnetcdf.mod,
in the same format, is read only for the last check below):

  keywords    every dummy argument passed by its name;
  positional  every dummy argument passed by position, those the reference
              declares intent(in) as expressions, not variables;
  required    only the non-optional arguments: by position up to the first
              optional one, by name after it.

A subroutine then declares itself, as a program written for the
reference must, each function our module declares and the reference's
does not (integer, external :: name): our module must not hold names that
collide so.

The program is then compiled (-fsyntax-only) against the reference module,
which must accept it (a check of this script), and against ours; each call
our module rejects is reported with the compiler's message.  Arguments are
variables (or expressions) of the dummy's type, kind and rank, so a call
compiles exactly when a specific procedure of ours takes those names in
that order.  The reference module is read, never copied: the program is
written in the work directory each time the check runs.

Usage: check_fortran_keywords.py --ref-mod PATH/pnetcdf.mod --fc mpif90
           --ours-moddir DIR --ref-moddir DIR --work DIR
Exit status 0 only when ours accepts every call (and there were calls).
"""

import argparse
import gzip
import os
import re
import subprocess
import sys

# ------------------------------------------------------------ module file


def read_module(path):
    """The parsed module: (symbols by id, generics {name: [ids]},
    public names {name: id})."""
    with gzip.open(path, "rt") as fh:
        text = fh.read()
    text = text.split("\n", 1)[1]          # the version line
    tok = re.compile(r"\s*(\(|\)|'(?:[^']|'')*'|[^\s()']+)")
    stack = [[]]
    for m in tok.finditer(text):
        s = m.group(1)
        if s == "(":
            stack.append([])
        elif s == ")":
            done = stack.pop()
            stack[-1].append(done)
        else:
            stack[-1].append(s)
    top = stack[0]
    # The sections gfortran writes: operators, user operators, generics,
    # common blocks, equivalences, ..., symbols, then the public names.
    syms = {}
    table = top[-2]
    for i in range(0, len(table), 6):
        syms[int(table[i])] = table[i:i + 6]
    generics = {}
    for g in top[2]:
        generics.setdefault(unquote(g[0]), []).extend(int(x) for x in g[2:])
    names = {}
    tree = top[-1]
    for i in range(0, len(tree), 3):
        names[unquote(tree[i])] = int(tree[i + 2])
    return syms, generics, names


def unquote(s):
    return s[1:-1].replace("''", "'")


class Dummy:
    def __init__(self, sym):
        body = sym[5]
        attrs = body[0]
        self.name = unquote(sym[1])
        self.optional = "OPTIONAL" in attrs
        self.intent = attrs[1]
        self.ftype = typespec(body[2])
        spec = body[6]
        self.rank = int(spec[0]) if spec else 0

    def key(self):
        return self.ftype + (self.rank,)


def typespec(ts):
    """(type, kind, character length or None)."""
    t, kind = ts[0], ts[1]
    clen = None
    if t == "CHARACTER":
        clen = "*"
        if ts[6] and ts[6][0] and ts[6][0][0] == "CONSTANT":
            clen = unquote(ts[6][0][3])
    return (t, kind, clen)


class Proc:
    def __init__(self, syms, sid):
        sym = syms[sid]
        body = sym[5]
        self.name = unquote(sym[1])
        self.result = typespec(body[2])
        self.dummies = [Dummy(syms[int(a)]) for a in body[5]]


def explicit(syms, sid):
    """An explicit interface: a module procedure or an interface body,
    not a bare EXTERNAL."""
    attrs = syms[sid][5][0]
    return attrs[0] == "PROCEDURE" and attrs[3] in ("DECL", "BODY")


def public_calls(path, prefixes):
    """[(called name, Proc)] for every generic's specifics and every
    public procedure with an explicit interface."""
    syms, generics, names = read_module(path)
    out = []
    for g in sorted(generics):
        if g.startswith(prefixes):
            for sid in generics[g]:
                out.append((g, Proc(syms, sid)))
    for n in sorted(names):
        sid = names[n]
        if n.startswith(prefixes) and n not in generics and sid in syms \
                and explicit(syms, sid):
            out.append((n, Proc(syms, sid)))
    return out


def extra_procedures(ours_path, ref_path, prefixes):
    """[Proc] public in our module but in neither the reference module's
    public names nor its generics.  A program written for the reference
    declares such a function itself (integer, external :: ...), which
    collides with our module's declaration."""
    rsyms, rgen, rnames = read_module(ref_path)
    osyms, ogen, onames = read_module(ours_path)
    out = []
    for n in sorted(onames):
        sid = onames[n]
        if n.startswith(prefixes) and n not in rnames and n not in rgen \
                and sid in osyms and osyms[sid][5][0][0] == "PROCEDURE":
            out.append(Proc(osyms, sid))
    return out

# --------------------------------------------------------------- program


FTYPE = {"INTEGER": "integer", "REAL": "real", "LOGICAL": "logical",
         "COMPLEX": "complex", "CHARACTER": "character"}


class Program:
    def __init__(self):
        self.vars = {}          # key -> (name, declaration)
        self.lines = []         # executable lines
        self.where = []         # (first line, last line, description)
        self.externals = []     # (declaration, description)

    def var(self, key, role="kw"):
        """The variable of this (type, kind, length, rank) for arguments
        (role kw) or for function results (role res)."""
        if (role,) + key not in self.vars:
            t, kind, clen, rank = key
            if t not in FTYPE:
                raise ValueError("unsupported dummy type %s" % t)
            name = "%s_%s%s_%s_%d" % (role, t[0].lower(), kind,
                                      "" if clen in (None, "*") else clen,
                                      rank)
            decl = "%s(kind=%s)" % (FTYPE[t], kind)
            if t == "CHARACTER":
                decl = "character(len=%s)" % ("8" if clen == "*" else clen)
            if rank:
                decl += ", allocatable :: %s(%s)" % (
                    name, ",".join([":"] * rank))
            else:
                decl += " :: " + name
            self.vars[(role,) + key] = (name, decl)
        return self.vars[(role,) + key][0]

    def call(self, called, proc, args, what):
        res = self.var(proc.result + (0,), "res")
        stmt = "%s = %s(%s)" % (res, called, ", ".join(args))
        first = len(self.lines) + 1
        self.lines += wrap(stmt)
        self.where.append((first, len(self.lines), "%s [%s] %s: %s" % (
            called, proc.name, what, signature(proc))))

    def external(self, proc):
        t, kind, clen = proc.result
        decl = "%s(kind=%s)" % (FTYPE[t], kind)
        if t == "CHARACTER":
            decl = "character(len=%s)" % clen
        self.externals.append((
            "  %s, external :: %s" % (decl, proc.name),
            "%s: declared external by the program (the reference module "
            "does not declare it)" % proc.name))

    def text(self):
        head = ["program check_fortran_keywords", "  use pnetcdf",
                "  implicit none"]
        head += ["  " + d for _, d in sorted(self.vars.values())]
        offset = len(head)
        body = ["  " + ln if not ln.startswith(" ") else ln
                for ln in self.lines]
        self.where = [(a + offset, b + offset, d) for a, b, d in self.where]
        out = head + body + ["end program check_fortran_keywords"]
        if self.externals:
            out += ["", "subroutine check_fortran_externals", "  use pnetcdf",
                    "  implicit none"]
            for decl, what in self.externals:
                out.append(decl)
                self.where.append((len(out), len(out), what))
            out.append("end subroutine check_fortran_externals")
        return "\n".join(out + [""])


def signature(proc):
    return "(%s)" % ", ".join(
        ("[%s]" if d.optional else "%s") % d.name for d in proc.dummies)


def wrap(stmt):
    out, cur = [], "  " + stmt
    while len(cur) > 100:
        cut = cur.rfind(",", 0, 100) + 1
        out.append(cur[:cut] + " &")
        cur = "      " + cur[cut:].lstrip()
    out.append(cur)
    return out


def build(calls):
    prog = Program()
    for called, proc in calls:
        names = [prog.var(d.key()) for d in proc.dummies]
        prog.call(called, proc, ["%s=%s" % (d.name, v)
                                 for d, v in zip(proc.dummies, names)],
                  "keywords")
        # An intent(in) argument may be an expression, as a constant or a
        # computed start often is; the positional call passes each so.
        prog.call(called, proc, ["(%s)" % v if d.intent == "IN" else v
                                 for d, v in zip(proc.dummies, names)],
                  "positional")
        if any(d.optional for d in proc.dummies):
            args, skipped = [], False
            for d, v in zip(proc.dummies, names):
                if d.optional:
                    skipped = True
                elif skipped:
                    args.append("%s=%s" % (d.name, v))
                else:
                    args.append(v)
            prog.call(called, proc, args, "required")
    return prog


def compile_errors(fc, src, moddir, work):
    """{line: first message} of the compiler's errors for src."""
    r = subprocess.run([fc, "-fsyntax-only", "-fmax-errors=0", "-I",
                        os.path.abspath(moddir),
                        "-J", work, src], capture_output=True, text=True,
                       cwd=work)
    errs = {}
    lines = (r.stdout + r.stderr).splitlines()
    locus = re.compile(r".*?:(\d+):\d+:\s*$")
    for i, ln in enumerate(lines):
        m = locus.match(ln)
        if not m:
            continue
        for follow in lines[i + 1:]:
            if follow.startswith("Error:"):
                errs.setdefault(int(m.group(1)), follow)
                break
            if locus.match(follow):
                break
    if r.returncode != 0 and not errs:
        errs[0] = (r.stdout + r.stderr).strip()[-2000:]
    return errs


def report(prog, errs):
    bad = []
    for first, last, what in prog.where:
        for ln in range(first, last + 1):
            if ln in errs:
                bad.append("%s\n    %s" % (what, errs[ln]))
                break
    if 0 in errs:
        bad.append("compiler failed:\n" + errs[0])
    return bad


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--ref-mod", required=True)
    ap.add_argument("--fc", required=True)
    ap.add_argument("--ours-moddir", required=True)
    ap.add_argument("--ref-moddir", required=True)
    ap.add_argument("--work", required=True)
    a = ap.parse_args()
    os.makedirs(a.work, exist_ok=True)
    prefixes = ("nf90mpi_", "nfmpi_")
    calls = public_calls(a.ref_mod, prefixes)
    if not calls:
        print("FAIL: no procedures found in %s" % a.ref_mod)
        return 1
    prog = build(calls)
    ours_mod = os.path.join(a.ours_moddir, "pnetcdf.mod")
    for proc in extra_procedures(ours_mod, a.ref_mod, prefixes):
        prog.external(proc)
    src = os.path.join(a.work, "check_fortran_keywords.f90")
    with open(src, "w") as fh:
        fh.write(prog.text())
    print("%d procedures, %d calls: %s" % (len(calls), len(prog.where), src))

    rc = 0
    ref = report(prog, compile_errors(a.fc, src, a.ref_moddir, a.work))
    if ref:
        print("FAIL: the reference module rejects %d calls (a fault of this "
              "script):" % len(ref))
        print("\n".join(ref[:20]))
        rc = 1
    ours = report(prog, compile_errors(a.fc, src, a.ours_moddir, a.work))
    if ours:
        print("FAIL: %d uses the reference module accepts do not compile "
              "against ours:" % len(ours))
        print("\n".join(ours))
        rc = 1
    if rc == 0:
        print("OK: every call compiles against both modules")
    return rc


if __name__ == "__main__":
    sys.exit(main())
