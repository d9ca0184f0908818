#!/usr/bin/env python3
"""Compare ncpario's public header with the installed PnetCDF header.

Owns the guarantee that a PnetCDF program compiles against our pnetcdf.h
(the one the build writes from include/pnetcdf.h.in) unchanged:

  (a) constants: every NC_* / PNETCDF_* macro the reference header defines
      must exist in ours (or be listed in OMITTED_MACROS with a reason), and
      every constant both define must have the same value and C type.  The
      values are not read from the text: one small C program per header
      prints them, so macros built from other macros are compared by what
      the compiler makes of them.
  (b) prototypes: every ncmpi_* function declared by both headers must have
      the same signature once parameter names and spacing are dropped; every
      function of the foundation list (and every other reference function
      not in OMITTED_FUNCTIONS) must be declared by ours; ours must not
      declare an ncmpi_* name the reference lacks.

Both headers are run through the preprocessor before prototypes are read,
so ours may build its per-type families from macros.

Usage: check_api_against_pnetcdf.py [--ours BUILD/include/pnetcdf.h]
           [--ref /usr/include/pnetcdf.h] [--cc mpicc] [-v]
Exit status 0 only when every check passes; the last line is a summary.
Only the Python standard library is used.
"""

import argparse
import os
import re
import subprocess
import sys
import tempfile

# Reference macros we deliberately leave out of our header, with the reason.
# Empty on purpose: we carry every constant, netCDF-4-only ones included,
# because programs that support several back ends test for them.
OMITTED_MACROS = {}

# Macros whose value is expected to differ, with the reason.
VALUE_EXCEPTIONS = {
    "PNETCDF_ENABLE_FORTRAN": "follows this build's Fortran binding",
    "PNETCDF_ENABLE_CXX": "ncpario ships no C++ class binding",
}

# Reference functions we deliberately do not declare, with the reason.
OMITTED_FUNCTIONS = {}

# Function-like macros, each evaluated on a few arguments.
FUNCTION_MACRO_ARGS = {
    "NC_ISSYSERR": ["2", "0", "-33", "-250"],
}

TYPES12 = ["text", "schar", "uchar", "short", "ushort", "int", "uint",
           "long", "float", "double", "longlong", "ulonglong"]


def foundation_functions():
    """The functions the first milestone must declare, fully expanded."""
    plain = """create open enddef _enddef redef sync sync_numrecs flush close
    abort delete begin_indep_data end_indep_data set_fill def_var_fill
    inq_var_fill fill_var_rec set_default_format inq_default_format
    inq_format inq_file_format inq_libvers strerror strerrno inq_file_info
    get_file_info inq_path inq inq_ndims inq_nvars inq_natts inq_unlimdim
    inq_dimid inq_dim inq_dimname inq_dimlen inq_varid inq_var inq_varname
    inq_vartype inq_varndims inq_vardimid inq_varnatts inq_att inq_atttype
    inq_attlen inq_attname inq_attid inq_num_rec_vars inq_num_fix_vars
    inq_recsize inq_varoffset inq_header_size inq_header_extent
    inq_put_size inq_get_size inq_striping def_dim def_var rename_dim
    rename_var put_att get_att copy_att rename_att del_att wait wait_all
    cancel buffer_attach buffer_detach inq_buffer_usage inq_buffer_size
    inq_nreqs""".split()
    names = set("ncmpi_" + p for p in plain)
    for t in TYPES12 + ["ubyte"]:
        names.add("ncmpi_put_att_" + t)
        names.add("ncmpi_get_att_" + t)
    for op in ("put", "get"):
        for shape in ("var", "var1", "vara", "vars", "varm", "varn"):
            for t in [""] + ["_" + x for x in TYPES12]:
                for coll in ("", "_all"):
                    names.add("ncmpi_%s_%s%s%s" % (op, shape, t, coll))
    for op in ("iput", "iget", "bput"):
        for shape in ("var", "var1", "vara", "vars", "varm", "varn"):
            for t in [""] + ["_" + x for x in TYPES12]:
                names.add("ncmpi_%s_%s%s" % (op, shape, t))
    for op in ("mput", "mget"):
        for shape in ("var", "var1", "vara", "vars", "varm"):
            for t in [""] + ["_" + x for x in TYPES12]:
                for coll in ("", "_all"):
                    names.add("ncmpi_%s_%s%s%s" % (op, shape, t, coll))
    return names


# --------------------------------------------------------------------------
# text helpers

def strip_comments(text):
    """Remove C and C++ comments, keeping string literals intact."""
    pattern = re.compile(r'"(?:\\.|[^"\\])*"|/\*.*?\*/|//[^\n]*', re.S)

    def repl(m):
        s = m.group(0)
        if s.startswith('"'):
            return s
        # keep line structure so #define lines stay on their own line
        return "\n" * s.count("\n") if s.startswith("/*") else ""
    return pattern.sub(repl, text)


def read_defines(path):
    """Return (object_like, function_like) macro names #defined in path."""
    with open(path, encoding="utf-8", errors="replace") as f:
        text = strip_comments(f.read())
    text = re.sub(r"\\\n", " ", text)
    obj, fn = set(), set()
    for m in re.finditer(r"^[ \t]*#[ \t]*define[ \t]+([A-Za-z_]\w*)(\(?)",
                         text, re.M):
        (fn if m.group(2) else obj).add(m.group(1))
    return obj, fn


def is_api_macro(name):
    return (re.match(r"^(NC|NC2|NC4|PNETCDF)_\w+$", name) is not None
            or name == "_FillValue")


# --------------------------------------------------------------------------
# (a) constant values

PRINTER_C = r"""
#include <stdio.h>
#include <string.h>
#include "%(header)s"

static void p_str(const char *n, const char *v)
{
    printf("%%s char* \"", n);
    for (; *v; v++) printf((*v >= 32 && *v < 127) ? "%%c" : "\\x%%02x",
                           (unsigned char)*v);
    printf("\"\n");
}
static void p_c(const char *n, char v) { printf("%%s char %%d\n", n, v); }
static void p_sc(const char *n, signed char v)
{ printf("%%s schar %%d\n", n, v); }
static void p_uc(const char *n, unsigned char v)
{ printf("%%s uchar %%u\n", n, v); }
static void p_s(const char *n, short v) { printf("%%s short %%d\n", n, v); }
static void p_us(const char *n, unsigned short v)
{ printf("%%s ushort %%u\n", n, v); }
static void p_i(const char *n, int v) { printf("%%s int %%d\n", n, v); }
static void p_u(const char *n, unsigned v)
{ printf("%%s uint %%u\n", n, v); }
static void p_l(const char *n, long v) { printf("%%s long %%ld\n", n, v); }
static void p_ul(const char *n, unsigned long v)
{ printf("%%s ulong %%lu\n", n, v); }
static void p_ll(const char *n, long long v)
{ printf("%%s longlong %%lld\n", n, v); }
static void p_ull(const char *n, unsigned long long v)
{ printf("%%s ulonglong %%llu\n", n, v); }
static void p_f(const char *n, float v)
{ printf("%%s float %%a\n", n, (double)v); }
static void p_d(const char *n, double v) { printf("%%s double %%a\n", n, v); }

#define SHOW(label, e) _Generic((e), \
    char *: p_str, const char *: p_str, char: p_c, signed char: p_sc, \
    unsigned char: p_uc, short: p_s, unsigned short: p_us, int: p_i, \
    unsigned: p_u, long: p_l, unsigned long: p_ul, long long: p_ll, \
    unsigned long long: p_ull, float: p_f, double: p_d)(label, (e))

int main(void)
{
%(body)s
    return 0;
}
"""


def print_values(cc, header, names, fn_macros, workdir, tag):
    """Compile and run a program printing each macro; return {label: text}."""
    lines = []
    for n in sorted(names):
        lines.append('    SHOW("%s", %s);' % (n, n))
    for n in sorted(fn_macros):
        for a in FUNCTION_MACRO_ARGS.get(n, []):
            lines.append('    SHOW("%s(%s)", %s(%s));' % (n, a, n, a))
    src = PRINTER_C % {"header": os.path.abspath(header),
                       "body": "\n".join(lines)}
    cfile = os.path.join(workdir, "values_%s.c" % tag)
    exe = os.path.join(workdir, "values_%s" % tag)
    with open(cfile, "w") as f:
        f.write(src)
    r = subprocess.run([cc, "-std=c11", "-o", exe, cfile],
                       capture_output=True, text=True)
    if r.returncode != 0:
        raise RuntimeError("cannot compile value printer for %s:\n%s"
                           % (header, r.stderr))
    r = subprocess.run([exe], capture_output=True, text=True)
    if r.returncode != 0:
        raise RuntimeError("value printer for %s failed:\n%s"
                           % (header, r.stderr))
    out = {}
    for line in r.stdout.splitlines():
        label, rest = line.split(" ", 1)
        out[label] = rest
    return out


def check_constants(cc, ours, ref, workdir, verbose):
    problems = []
    o_obj, o_fn = read_defines(ours)
    r_obj, r_fn = read_defines(ref)
    r_api = set(n for n in r_obj if is_api_macro(n))
    o_api = set(n for n in o_obj if is_api_macro(n))
    for n in sorted(r_api - o_api):
        if n not in OMITTED_MACROS:
            problems.append("constant %s: missing from our header" % n)
    for n in sorted(r_fn - o_fn):
        if is_api_macro(n) and n not in OMITTED_MACROS:
            problems.append("function-like macro %s: missing" % n)
    for n in sorted(OMITTED_MACROS):
        if n in o_api:
            problems.append("constant %s: listed as omitted but defined" % n)
    common = r_api & o_api
    common_fn = set(n for n in (r_fn & o_fn) if n in FUNCTION_MACRO_ARGS)
    ov = print_values(cc, ours, common, common_fn, workdir, "ours")
    rv = print_values(cc, ref, common, common_fn, workdir, "ref")
    compared = 0
    for label in sorted(rv):
        base = label.split("(")[0]
        if rv[label] != ov.get(label):
            if base in VALUE_EXCEPTIONS:
                if verbose:
                    print("note: %s differs on purpose (%s): ours %s, ref %s"
                          % (label, VALUE_EXCEPTIONS[base], ov.get(label),
                             rv[label]))
                continue
            problems.append("constant %s: ours %s, PnetCDF %s"
                            % (label, ov.get(label), rv[label]))
        compared += 1
    return problems, compared


# --------------------------------------------------------------------------
# (b) prototypes

TYPE_WORDS = {"void", "char", "short", "int", "long", "float", "double",
              "signed", "unsigned", "const", "volatile", "_Bool", "size_t",
              "nc_type"}


def is_type_word(tok):
    return tok in TYPE_WORDS or tok.startswith("MPI_")


def canon_base(words):
    """Canonical spelling of a base type given its specifier words."""
    quals = [w for w in words if w in ("const", "volatile")]
    spec = [w for w in words if w not in ("const", "volatile")]
    s = " ".join(spec)
    aliases = {
        "unsigned": "unsigned int", "signed": "int", "signed int": "int",
        "short int": "short", "signed short": "short",
        "signed short int": "short", "unsigned short int": "unsigned short",
        "long int": "long", "signed long": "long", "signed long int": "long",
        "unsigned long int": "unsigned long",
        "long long int": "long long", "signed long long": "long long",
        "signed long long int": "long long",
        "unsigned long long int": "unsigned long long",
    }
    s = aliases.get(s, s)
    return " ".join(sorted(quals) + [s])


def normalize_param(p):
    p = p.strip()
    if p in ("", "void"):
        return None
    arrays = p.count("[")
    p = re.sub(r"\[[^\]]*\]", "", p)
    toks = re.findall(r"[A-Za-z_]\w*|\*", p)
    if len(toks) > 1 and toks[-1] != "*" and not is_type_word(toks[-1]):
        toks = toks[:-1]                       # drop the parameter name
    # split into the base specifiers and the pointer part ("* const *")
    i = 0
    while i < len(toks) and toks[i] != "*":
        i += 1
    base = canon_base(toks[:i])
    ptr = " ".join(toks[i:]) + " *" * arrays
    return (base + " " + ptr.strip()).strip()


def read_prototypes(cc, header, workdir, tag, names=r"ncmpi_\w+"):
    """Return {name: normalized signature} for each declaration of a
    function whose name matches the regular expression names (by default
    the ncmpi_* ones)."""
    wrapper = os.path.join(workdir, "proto_%s.c" % tag)
    with open(wrapper, "w") as f:
        f.write('#include "%s"\n' % os.path.abspath(header))
    r = subprocess.run([cc, "-std=c11", "-E", "-P", wrapper],
                       capture_output=True, text=True)
    if r.returncode != 0:
        raise RuntimeError("cannot preprocess %s:\n%s" % (header, r.stderr))
    text = r.stdout
    protos = {}
    dups = []
    for chunk in text.split(";"):
        chunk = re.split(r"[{}]", chunk)[-1]
        m = re.search(r"^(.*?)\b(%s)\s*\((.*)\)\s*$" % names, chunk,
                      re.S)
        if not m:
            continue
        ret = re.sub(r"\b(extern|static|inline)\b", " ", m.group(1))
        ret_toks = re.findall(r"[A-Za-z_]\w*|\*", ret)
        j = 0
        while j < len(ret_toks) and ret_toks[j] != "*":
            j += 1
        rtype = (canon_base(ret_toks[:j]) + " " + " ".join(ret_toks[j:]))
        params = [normalize_param(p) for p in m.group(3).split(",")]
        params = [p for p in params if p is not None]
        sig = "%s (%s)" % (rtype.strip(), ", ".join(params))
        name = m.group(2)
        if name in protos and protos[name] != sig:
            dups.append("%s declared twice with different types" % name)
        protos[name] = sig
    return protos, dups


def check_prototypes(cc, ours, ref, workdir, verbose):
    problems = []
    op, odups = read_prototypes(cc, ours, workdir, "ours")
    rp, rdups = read_prototypes(cc, ref, workdir, "ref")
    problems += ["ours: " + d for d in odups]
    compared = 0
    for name in sorted(set(op) & set(rp)):
        compared += 1
        if op[name] != rp[name]:
            problems.append("prototype %s:\n    ours    %s\n    PnetCDF %s"
                            % (name, op[name], rp[name]))
    for name in sorted(foundation_functions()):
        if name not in rp:
            problems.append("foundation name %s is not in the reference "
                            "header (typo in this script?)" % name)
        elif name not in op:
            problems.append("function %s (foundation list): missing" % name)
    for name in sorted(set(rp) - set(op) - foundation_functions()):
        if name not in OMITTED_FUNCTIONS:
            problems.append("function %s: missing" % name)
    for name in sorted(set(op) - set(rp)):
        problems.append("function %s: declared by ours, not by PnetCDF"
                        % name)
    if verbose:
        print("prototypes: ours %d, PnetCDF %d, compared %d"
              % (len(op), len(rp), compared))
    return problems, compared


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    root = os.path.dirname(os.path.dirname(here))
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--ours", default=os.path.join(root, "build", "include",
                                                   "pnetcdf.h"))
    ap.add_argument("--ref", default="/usr/include/pnetcdf.h")
    ap.add_argument("--cc", default=os.environ.get("MPICC", "mpicc"))
    ap.add_argument("-v", "--verbose", action="store_true")
    args = ap.parse_args()
    if os.path.realpath(args.ours) == os.path.realpath(args.ref):
        print("FAIL: --ours and --ref name the same file")
        return 1
    with tempfile.TemporaryDirectory(prefix="ncp_api_check_") as wd:
        try:
            cprob, ncon = check_constants(args.cc, args.ours, args.ref, wd,
                                          args.verbose)
            pprob, nfun = check_prototypes(args.cc, args.ours, args.ref, wd,
                                           args.verbose)
        except (RuntimeError, OSError) as e:
            print(str(e))
            print("FAIL: API check could not run")
            return 1
    for p in cprob + pprob:
        print(p)
    if cprob or pprob:
        print("FAIL: %d constant and %d prototype problems "
              "(%d constants, %d prototypes compared)"
              % (len(cprob), len(pprob), ncon, nfun))
        return 1
    print("OK: %d constants and %d prototypes match PnetCDF (%s)"
          % (ncon, nfun, args.ref))
    return 0


if __name__ == "__main__":
    sys.exit(main())
