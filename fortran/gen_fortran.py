#!/usr/bin/env python3
"""gen_fortran.py -- writes ncpario's Fortran binding from the tables below.

    gen_fortran.py OUTDIR

writes into OUTDIR:
  ncpf_c.f90       bind(C) interfaces to the ncmpi_* functions used
  nfmpi_gen.f90    the nfmpi_* external functions (Fortran 77 API)
  pnetcdf_mod.f90  module pnetcdf: NF_/NF90_ constants, interfaces of the
                   nfmpi_* functions and the nf90mpi_* generics
  pnetcdf.inc      the include file of the Fortran 77 API
  ncpf_consts.f90  the same constants as a module, for the hand-written
                   nf90mpi_* functions

Every typed family (put/get/iput/iget/bput of var/var1/vara/vars/varm/varn,
and the attributes) is one loop over TYPES, so adding a type or a form is one
line.  Irregular functions (handle conversion, dimension id lists, strings
returned by value) are written by hand in nfmpi_special.f90 and only
declared here (SPECIAL).

Fortran conventions applied on the way to C: ids and indices are 1-based
(varid, dimid, attribute number, start, index, record number; NF_GLOBAL = 0
maps to NC_GLOBAL = -1, and the unlimited dimension's id is -1 on both
sides where there is none), dimension-ordered arrays are reversed, names
are blank-trimmed.  Request ids, statuses and ncids pass unchanged.
"""
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))

# suffix, Fortran type of a buffer element, C suffix, C interop kind,
# nf90 kind name (None: no nf90 generic).
TYPES = [
    ("text", "character(len=*)", "text", "character(kind=c_char)", None),
    ("int1", "integer(kind=1)", "schar", "integer(kind=c_signed_char)",
     "onebyteint"),
    ("int2", "integer(kind=2)", "short", "integer(kind=c_short)",
     "twobyteint"),
    ("int", "integer", "int", "integer(kind=c_int)", "fourbyteint"),
    ("real", "real", "float", "real(kind=c_float)", "fourbytereal"),
    ("double", "double precision", "double", "real(kind=c_double)",
     "eightbytereal"),
    ("int8", "integer(kind=8)", "longlong", "integer(kind=c_long_long)",
     "eightbyteint"),
]

# Coordinate arguments of each access form, in C order.
FORMS = {
    "var": [],
    "var1": ["index"],
    "vara": ["start", "count"],
    "vars": ["start", "count", "stride"],
    "varm": ["start", "count", "stride", "imap"],
}
# Each coordinate array: the 1-based shift subtracted on the way to C.
COORD_SHIFT = {"index": 1, "start": 1, "count": 0, "stride": 0, "imap": 0}

# op, Fortran suffix list, buffer intent, has request id
OPS = [
    ("put", ["", "_all"], "in", False),
    ("get", ["", "_all"], "inout", False),
    ("iput", [""], "in", True),
    ("iget", [""], "inout", True),
    ("bput", [""], "in", True),
]

# Simple functions: name, argument list "name:kind ...".  Kinds:
#   i  integer in          v  varid in (1-based)     d  dimid in (1-based)
#   io integer out         vo varid out (1-based)    do dimid out (1-based)
#   o  MPI_Offset in       oo MPI_Offset out         s  name in (trimmed)
#   so name out (blank-padded)
#   r  MPI_Offset in, a 1-based record number
#   uo dimid out, 1-based, but -1 (no unlimited dimension) stays -1
SIMPLE = [
    ("close", "ncid:i"),
    ("enddef", "ncid:i"),
    ("_enddef", "ncid:i h_minfree:o v_align:o v_minfree:o r_align:o"),
    ("redef", "ncid:i"),
    ("sync", "ncid:i"),
    ("sync_numrecs", "ncid:i"),
    ("flush", "ncid:i"),
    ("abort", "ncid:i"),
    ("begin_indep_data", "ncid:i"),
    ("end_indep_data", "ncid:i"),
    ("set_fill", "ncid:i fillmode:i old_mode:io"),
    ("set_default_format", "new_fmt:i old_fmt:io"),
    ("inq_default_format", "default_fmt:io"),
    ("inq_format", "ncid:i fmt:io"),
    ("inq_file_format", "path:s fmt:io"),
    ("inq_striping", "ncid:i striping_size:io striping_count:io"),
    ("inq_header_size", "ncid:i size:oo"),
    ("inq_header_extent", "ncid:i extent:oo"),
    ("inq_recsize", "ncid:i recsize:oo"),
    ("inq_put_size", "ncid:i size:oo"),
    ("inq_get_size", "ncid:i size:oo"),
    ("inq_nreqs", "ncid:i nreqs:io"),
    ("buffer_attach", "ncid:i bufsize:o"),
    ("buffer_detach", "ncid:i"),
    ("inq_buffer_usage", "ncid:i usage:oo"),
    ("inq_buffer_size", "ncid:i buf_size:oo"),
    ("def_dim", "ncid:i name:s len:o dimid:do"),
    ("rename_dim", "ncid:i dimid:d name:s"),
    ("rename_var", "ncid:i varid:v name:s"),
    ("inq", "ncid:i ndims:io nvars:io ngatts:io unlimdimid:uo"),
    ("inq_ndims", "ncid:i ndims:io"),
    ("inq_nvars", "ncid:i nvars:io"),
    ("inq_natts", "ncid:i ngatts:io"),
    ("inq_unlimdim", "ncid:i unlimdimid:uo"),
    ("inq_num_rec_vars", "ncid:i nvars:io"),
    ("inq_num_fix_vars", "ncid:i nvars:io"),
    ("inq_dimid", "ncid:i name:s dimid:do"),
    ("inq_dim", "ncid:i dimid:d name:so len:oo"),
    ("inq_dimname", "ncid:i dimid:d name:so"),
    ("inq_dimlen", "ncid:i dimid:d len:oo"),
    ("inq_varid", "ncid:i name:s varid:vo"),
    ("inq_varname", "ncid:i varid:v name:so"),
    ("inq_vartype", "ncid:i varid:v xtype:io"),
    ("inq_varndims", "ncid:i varid:v ndims:io"),
    ("inq_varnatts", "ncid:i varid:v natts:io"),
    ("inq_varoffset", "ncid:i varid:v offset:oo"),
    ("inq_att", "ncid:i varid:v name:s xtype:io len:oo"),
    ("inq_attid", "ncid:i varid:v name:s attid:vo"),
    ("inq_atttype", "ncid:i varid:v name:s xtype:io"),
    ("inq_attlen", "ncid:i varid:v name:s len:oo"),
    ("inq_attname", "ncid:i varid:v attid:v name:so"),
    ("copy_att", "ncid_in:i varid_in:v name:s ncid_out:i varid_out:v"),
    ("rename_att", "ncid:i varid:v curname:s newname:s"),
    ("del_att", "ncid:i varid:v name:s"),
    ("fill_var_rec", "ncid:i varid:v recno:r"),
]

# Written by hand in nfmpi_special.f90: declared in the module and the
# include file only.  name -> Fortran result type.
SPECIAL = {
    "create": "integer", "open": "integer", "delete": "integer",
    "inq_file_info": "integer", "get_file_info": "integer",
    "inq_path": "integer",
    "def_var": "integer", "inq_var": "integer", "inq_vardimid": "integer",
    "def_var_fill": "integer", "inq_var_fill": "integer",
    "wait": "integer", "wait_all": "integer", "cancel": "integer",
    "issyserr": "logical",
    "strerror": "character(len=80)", "strerrno": "character(len=80)",
    "inq_libvers": "character(len=80)",
    "inq_files_opened": "integer",
    "inq_malloc_size": "integer", "inq_malloc_max_size": "integer",
    "inq_malloc_list": "integer",
}
# The interfaces module pnetcdf gives the hand-written functions: their
# dummy arguments, named as in PnetCDF's module (programs may pass them by
# keyword), and declarations.  def_var_fill and inq_var_fill, whose fill
# value has no one type, stay external as in PnetCDF.
_REQS = ("ncid, count, req, status",
         ["integer, intent(in) :: ncid, count",
          "integer, intent(in) :: req(*)",
          "integer, intent(out) :: status(*)"])
_INFO = ("ncid, mpi_info", ["integer, intent(in) :: ncid",
                            "integer, intent(out) :: mpi_info"])
_OPEN = ["integer, intent(in) :: mpi_comm, mpi_info",
         "character(len=*), intent(in) :: path",
         "integer, intent(out) :: ncid"]
SPECIAL_IFACE = {
    "create": ("mpi_comm, path, cmode, mpi_info, ncid",
               _OPEN + ["integer, intent(in) :: cmode"]),
    "open": ("mpi_comm, path, mode, mpi_info, ncid",
             _OPEN + ["integer, intent(in) :: mode"]),
    "delete": ("path, mpi_info", ["character(len=*), intent(in) :: path",
                                  "integer, intent(in) :: mpi_info"]),
    "inq_file_info": _INFO, "get_file_info": _INFO,
    "inq_path": ("ncid, pathlen, path",
                 ["integer, intent(in) :: ncid",
                  "integer, intent(out) :: pathlen",
                  "character(len=*), intent(out) :: path"]),
    "def_var": ("ncid, name, datatype, ndims, dimids, varid",
                ["integer, intent(in) :: ncid, datatype, ndims",
                 "character(len=*), intent(in) :: name",
                 "integer, intent(in) :: dimids(*)",
                 "integer, intent(out) :: varid"]),
    "inq_var": ("ncid, varid, name, datatype, ndims, dimids, natts",
                ["integer, intent(in) :: ncid, varid",
                 "character(len=*), intent(out) :: name",
                 "integer, intent(out) :: datatype, ndims, natts",
                 "integer, intent(out) :: dimids(*)"]),
    "inq_vardimid": ("ncid, varid, dimids",
                     ["integer, intent(in) :: ncid, varid",
                      "integer, intent(out) :: dimids(*)"]),
    "wait": _REQS, "wait_all": _REQS, "cancel": _REQS,
    "issyserr": ("ncerr", ["integer, intent(in) :: ncerr"]),
    "strerror": ("ncerr", ["integer, intent(in) :: ncerr"]),
    "strerrno": ("ncerr", ["integer, intent(in) :: ncerr"]),
    "inq_libvers": ("", []),
    "inq_files_opened": ("nfiles, ncids",
                         ["integer, intent(out) :: nfiles",
                          "integer, intent(out) :: ncids(*)"]),
    "inq_malloc_size": ("size", ["integer(kind=ncpf_ok), intent(out) :: size"]),
    "inq_malloc_max_size": ("size",
                            ["integer(kind=ncpf_ok), intent(out) :: size"]),
    "inq_malloc_list": ("", []),
}
# nfmpi_inq_version and PnetCDF's helpers nfmpi_xstrerror, nfmpi_xstrerrno
# and nfmpi_xinq_libvers are exported but, as in PnetCDF, declared neither
# in pnetcdf.inc nor in the module: a program declares them itself.
# The flexible forms (any buffer type, an MPI datatype) are hand-written
# through the C shim too; their buffer has no one Fortran type, so the
# module declares them external, without an interface.
FLEX = []
for _op, _sfx, _intent, _req in OPS:
    for _form in list(FORMS) + ["varn"]:
        for _s in _sfx:
            FLEX.append("%s_%s%s" % (_op, _form, _s))
FLEX += ["put_att", "get_att"]   # hand-written
FLEX += ["put_vard", "put_vard_all", "get_vard", "get_vard_all"]
# Functions the library has but PnetCDF's module pnetcdf does not declare:
# a program using the module declares them itself (integer, external ::
# nfmpi_put_var_int_all), which a declaration in our module would make a
# name clash.  pnetcdf.inc declares them all.
NOT_IN_MODULE = {"put_var_%s_all" % t[0] for t in TYPES}
NOT_IN_MODULE |= {"put_var_all", "put_att", "get_att"}

KINDS_F = {
    "i": "integer, intent(in) :: {n}",
    "v": "integer, intent(in) :: {n}",
    "d": "integer, intent(in) :: {n}",
    "io": "integer, intent(out) :: {n}",
    "vo": "integer, intent(out) :: {n}",
    "do": "integer, intent(out) :: {n}",
    "uo": "integer, intent(out) :: {n}",
    "o": "integer(kind=ncpf_ok), intent(in) :: {n}",
    "r": "integer(kind=ncpf_ok), intent(in) :: {n}",
    "oo": "integer(kind=ncpf_ok), intent(out) :: {n}",
    "s": "character(len=*), intent(in) :: {n}",
    "so": "character(len=*), intent(out) :: {n}",
}
KINDS_C = {
    "i": "integer(kind=c_int), value :: {n}",
    "v": "integer(kind=c_int), value :: {n}",
    "d": "integer(kind=c_int), value :: {n}",
    "io": "integer(kind=c_int) :: {n}",
    "vo": "integer(kind=c_int) :: {n}",
    "do": "integer(kind=c_int) :: {n}",
    "uo": "integer(kind=c_int) :: {n}",
    "o": "integer(kind=c_long_long), value :: {n}",
    "r": "integer(kind=c_long_long), value :: {n}",
    "oo": "integer(kind=c_long_long) :: {n}",
    "s": "character(kind=c_char) :: {n}(*)",
    "so": "character(kind=c_char) :: {n}(*)",
}


def parse_args(spec):
    return [tuple(a.split(":")) for a in spec.split()]


class Fn:
    """One generated nfmpi_* function: its dummies, C call and body."""

    def __init__(self, name, cname, fdecls, cdecls, dummies, cdummies,
                 body):
        self.name = name            # without the nfmpi_ prefix
        self.cname = cname          # C function called
        self.fdecls = fdecls        # Fortran dummy declarations
        self.cdecls = cdecls        # bind(C) dummy declarations
        self.dummies = dummies      # Fortran dummy names
        self.cdummies = cdummies    # C dummy names
        self.body = body            # executable statements


def simple_fn(name, spec):
    args = parse_args(spec)
    fdecls, cdecls, locs, pre, post, actual = [], [], [], [], [], []
    for n, k in args:
        fdecls.append(KINDS_F[k].format(n=n))
        cdecls.append(KINDS_C[k].format(n=n))
        if k in ("v", "d"):
            actual.append("%s - 1" % n)
        elif k == "r":
            actual.append("%s - 1_ncpf_ok" % n)
        elif k in ("vo", "do"):
            locs.append("integer(kind=c_int) :: c_%s" % n)
            actual.append("c_" + n)
            post.append("if (err == 0) %s = c_%s + 1" % (n, n))
        elif k == "uo":
            locs.append("integer(kind=c_int) :: c_%s" % n)
            actual.append("c_" + n)
            post.append("if (err == 0) %s = merge(-1, c_%s + 1, c_%s < 0)"
                        % (n, n, n))
        elif k == "s":
            actual.append("ncpf_cstr(%s)" % n)
        elif k == "so":
            locs.append("character(kind=c_char) :: c_%s(NCPF_NAMELEN)" % n)
            pre.append("c_%s(1) = c_null_char" % n)
            actual.append("c_" + n)
            post.append("if (err == 0) call ncpf_fstr(c_%s, %s)" % (n, n))
        else:
            actual.append(n)
    body = locs + ["integer :: err"] + pre + [
        "err = ncmpi_%s(%s)" % (name, ", ".join(actual))] + post + [
        "nfmpi_%s = err" % name]
    return Fn(name, "ncmpi_" + name, fdecls, cdecls, [a[0] for a in args],
              [a[0] for a in args], body)


# The buffer's dummy argument, named as in PnetCDF's module (programs may
# pass it by keyword): text, or the type's letters and val (one element,
# var1) or vals.
BUF_LETTERS = {"int1": "i1", "int2": "i2", "int": "i", "real": "r",
               "double": "d", "int8": "i8"}
# The text functions whose buffer PnetCDF's module declares an array
# (text(*)) rather than one string: they take either.
TEXT_ARRAY = {"bput_var_text", "bput_vara_text"}


def buf_name(tsfx, one):
    if tsfx == "text":
        return "text"
    return BUF_LETTERS[tsfx] + ("val" if one else "vals")


def typed_access_fn(op, form, sfx, intent, req, t):
    tsfx, ftype, csfx, ctype, _ = t
    name = "%s_%s_%s%s" % (op, form, tsfx, sfx)
    cname = "ncmpi_%s_%s_%s%s" % (op, form, csfx, sfx)
    coords = FORMS[form]
    scalar = form == "var1" and tsfx != "text"
    buf = buf_name(tsfx, form == "var1")
    fdecls = ["integer, intent(in) :: ncid, varid"]
    cdecls = ["integer(kind=c_int), value :: ncid, varid"]
    for c in coords:
        fdecls.append("integer(kind=ncpf_ok), intent(in) :: %s(*)" % c)
        cdecls.append("integer(kind=c_long_long) :: %s(*)" % c)
    dim = "" if scalar or tsfx == "text" else "(*)"
    if name in TEXT_ARRAY:
        dim = "(*)"
    fdecls.append("%s, intent(%s) :: %s%s" % (ftype, intent, buf, dim))
    cdecls.append("%s :: %s%s" % (ctype, buf, "" if scalar else "(*)"))
    dummies = ["ncid", "varid"] + coords + [buf]
    if req:
        fdecls.append("integer, intent(out) :: req")
        cdecls.append("integer(kind=c_int) :: req")
        dummies.append("req")
    body = ["integer :: nd"] if coords else []
    body += ["integer(kind=c_long_long), allocatable :: c_%s(:)" % c
             for c in coords]
    if coords:
        body.append("nd = ncpf_ndims(ncid, varid)")
    for c in coords:
        body.append("call ncpf_rev(nd, %s, c_%s, %d_ncpf_ok)"
                    % (c, c, COORD_SHIFT[c]))
    actual = ["ncid", "varid - 1"] + ["c_" + c for c in coords] + [buf]
    if req:
        actual.append("req")
    body.append("nfmpi_%s = %s(%s)" % (name, cname, ", ".join(actual)))
    return Fn(name, cname, fdecls, cdecls, dummies, dummies, body)


def typed_varn_fn(op, sfx, intent, req, t):
    """varn: num subarrays, starts(ndims, num) and counts(ndims, num) in
    Fortran order; C takes an array of pointers to reversed rows."""
    tsfx, ftype, csfx, ctype, _ = t
    name = "%s_varn_%s%s" % (op, tsfx, sfx)
    cname = "ncmpi_%s_varn_%s%s" % (op, csfx, sfx)
    dim = "" if tsfx == "text" else "(*)"
    buf = buf_name(tsfx, False)
    fdecls = ["integer, intent(in) :: ncid, varid, num",
              "integer(kind=ncpf_ok), intent(in) :: starts(*), counts(*)",
              "%s, intent(%s) :: %s%s" % (ftype, intent, buf, dim)]
    cdecls = ["integer(kind=c_int), value :: ncid, varid, num",
              "type(c_ptr) :: starts(*), counts(*)",
              "%s :: %s(*)" % (ctype, buf)]
    dummies = ["ncid", "varid", "num", "starts", "counts", buf]
    if req:
        fdecls.append("integer, intent(out) :: req")
        cdecls.append("integer(kind=c_int) :: req")
        dummies.append("req")
    body = ["integer :: nd",
            "integer(kind=c_long_long), allocatable, target :: c_s(:, :), "
            "c_c(:, :)",
            "type(c_ptr), allocatable :: p_s(:), p_c(:)",
            "nd = ncpf_ndims(ncid, varid)",
            "call ncpf_revn(nd, num, starts, c_s, p_s, 1_ncpf_ok)",
            "call ncpf_revn(nd, num, counts, c_c, p_c, 0_ncpf_ok)"]
    actual = ["ncid", "varid - 1", "num", "p_s", "p_c", buf]
    if req:
        actual.append("req")
    body.append("nfmpi_%s = %s(%s)" % (name, cname, ", ".join(actual)))
    return Fn(name, cname, fdecls, cdecls, dummies, dummies, body)


def flex_varn_fn(op, sfx, req):
    name = "%s_varn%s" % (op, sfx)
    fd = ["integer, intent(in) :: ncid, varid, num",
          "integer(kind=ncpf_ok), intent(in) :: starts(*), counts(*)",
          "type(*) :: buf(*)", "integer(kind=ncpf_ok), intent(in) :: bufcount",
          "integer, intent(in) :: buftype"]
    dummies = ["ncid", "varid", "num", "starts", "counts", "buf", "bufcount",
               "buftype"]
    if req:
        fd.append("integer, intent(out) :: req")
        dummies.append("req")
    body = ["integer :: nd", "integer(kind=c_int) :: c_req",
            "integer(kind=c_long_long), allocatable, target :: c_s(:, :), "
            "c_c(:, :)",
            "type(c_ptr), allocatable :: p_s(:), p_c(:)",
            "nd = ncpf_ndims(ncid, varid)",
            "call ncpf_revn(nd, num, starts, c_s, p_s, 1_ncpf_ok)",
            "call ncpf_revn(nd, num, counts, c_c, p_c, 0_ncpf_ok)",
            "nfmpi_%s = ncpf_flexn(%d, %d, ncid, varid - 1, num, p_s, p_c, "
            "buf, bufcount, buftype, c_req)"
            % (name, FLEX_OP[op], 1 if sfx else 0)]
    if req:
        body.append("req = c_req")
    return Fn(name, None, fd, [], dummies, dummies, body)


def typed_att_fns(t):
    tsfx, ftype, csfx, ctype, _ = t
    out = []
    text = tsfx == "text"
    # put
    fd = ["integer, intent(in) :: ncid, varid",
          "character(len=*), intent(in) :: name"]
    cd = ["integer(kind=c_int), value :: ncid, varid",
          "character(kind=c_char) :: name(*)"]
    dummies = ["ncid", "varid", "name"]
    actual = ["ncid", "varid - 1", "ncpf_cstr(name)"]
    if not text:
        fd.append("integer, intent(in) :: xtype")
        cd.append("integer(kind=c_int), value :: xtype")
        dummies.append("xtype")
        actual.append("xtype")
    fd.append("integer(kind=ncpf_ok), intent(in) :: len")
    cd.append("integer(kind=c_long_long), value :: len")
    buf = buf_name(tsfx, False)
    fd.append("%s, intent(in) :: %s%s" % (ftype, buf, "" if text else "(*)"))
    cd.append("%s :: %s(*)" % (ctype, buf))
    dummies += ["len", buf]
    actual += ["len", buf]
    name = "put_att_" + tsfx
    out.append(Fn(name, "ncmpi_put_att_" + csfx, fd, cd, dummies, dummies,
                  ["nfmpi_%s = ncmpi_put_att_%s(%s)"
                   % (name, csfx, ", ".join(actual))]))
    # get
    fd = ["integer, intent(in) :: ncid, varid",
          "character(len=*), intent(in) :: name",
          "%s, intent(out) :: %s%s" % (ftype, buf, "" if text else "(*)")]
    cd = ["integer(kind=c_int), value :: ncid, varid",
          "character(kind=c_char) :: name(*)", "%s :: %s(*)" % (ctype, buf)]
    dummies = ["ncid", "varid", "name", buf]
    name = "get_att_" + tsfx
    body = ["nfmpi_%s = ncmpi_get_att_%s(ncid, varid - 1, ncpf_cstr(name), %s)"
            % (name, csfx, buf)]
    out.append(Fn(name, "ncmpi_get_att_" + csfx, fd, cd, dummies, dummies,
                  body))
    return out


FLEX_OP = {"put": 0, "get": 1, "iput": 2, "iget": 3, "bput": 4}
FLEX_FORM = {"var": 0, "var1": 1, "vara": 2, "vars": 3, "varm": 4}


def flex_fn(op, form, sfx, req):
    """The flexible form: any buffer, an MPI datatype; through the C shim,
    which turns the Fortran datatype handle into a C one."""
    name = "%s_%s%s" % (op, form, sfx)
    coords = FORMS[form]
    fd = ["integer, intent(in) :: ncid, varid"]
    fd += ["integer(kind=ncpf_ok), intent(in) :: %s(*)" % c for c in coords]
    fd += ["type(*) :: buf(*)", "integer(kind=ncpf_ok), intent(in) :: bufcount",
           "integer, intent(in) :: buftype"]
    dummies = ["ncid", "varid"] + coords + ["buf", "bufcount", "buftype"]
    if req:
        fd.append("integer, intent(out) :: req")
        dummies.append("req")
    body = ["integer :: nd", "integer(kind=c_int) :: c_req",
            "integer(kind=c_long_long), allocatable :: c_index(:), c_start(:)",
            "integer(kind=c_long_long), allocatable :: c_count(:), c_stride(:)",
            "integer(kind=c_long_long), allocatable :: c_imap(:)",
            "nd = ncpf_ndims(ncid, varid)"]
    for c in ["index", "start", "count", "stride", "imap"]:
        if c in coords:
            body.append("call ncpf_rev(nd, %s, c_%s, %d_ncpf_ok)"
                        % (c, c, COORD_SHIFT[c]))
        else:
            body.append("allocate(c_%s(1))" % c)
    first = "c_index" if form == "var1" else "c_start"
    body.append("nfmpi_%s = ncpf_flex(%d, %d, %d, ncid, varid - 1, %s, "
                "c_count, c_stride, c_imap, buf, bufcount, buftype, c_req)"
                % (name, FLEX_OP[op], FLEX_FORM[form], 1 if sfx else 0, first))
    if req:
        body.append("req = c_req")
    return Fn(name, None, fd, [], dummies, dummies, body)


def all_fns():
    fns = [simple_fn(n, s) for n, s in SIMPLE]
    for t in TYPES:
        for op, sfxs, intent, req in OPS:
            for form in FORMS:
                for sfx in sfxs:
                    fns.append(typed_access_fn(op, form, sfx, intent, req, t))
            for sfx in sfxs:
                fns.append(typed_varn_fn(op, sfx, intent, req, t))
        fns += typed_att_fns(t)
    return fns


def flex_fns():
    fns = []
    for op, sfxs, _, req in OPS:
        for form in FORMS:
            for sfx in sfxs:
                fns.append(flex_fn(op, form, sfx, req))
        for sfx in sfxs:
            fns.append(flex_varn_fn(op, sfx, req))
    return fns


def wrap(line, indent):
    """Free-form lines stay under 132 columns by continuing at commas."""
    out, cur = [], " " * indent + line
    while len(cur) > 100:
        cut = cur.rfind(",", 0, 100) + 1
        out.append(cur[:cut] + " &")
        cur = " " * (indent + 4) + cur[cut:].lstrip()
    out.append(cur)
    return "\n".join(out)


def c_interfaces(fns):
    o = ["! Generated by fortran/gen_fortran.py; do not edit.",
         "module ncpf_c",
         "  use iso_c_binding",
         "  implicit none",
         "  interface"]
    seen = set()
    for f in fns:
        if f.cname is None or f.cname in seen:
            continue
        seen.add(f.cname)
        o.append(wrap("integer(kind=c_int) function %s(%s) bind(C, name='%s')"
                      % (f.cname, ", ".join(f.cdummies), f.cname), 4))
        o.append("      import")
        o += [wrap(d, 6) for d in f.cdecls]
        o.append("    end function")
    o += ["  end interface", "end module ncpf_c", ""]
    return "\n".join(o)


def implementations(fns):
    o = ["! Generated by fortran/gen_fortran.py; do not edit."]
    for f in fns:
        o.append(wrap("integer function nfmpi_%s(%s)"
                      % (f.name, ", ".join(f.dummies)), 0))
        o += ["  use ncpf_c", "  use ncpf_util", "  implicit none"]
        o += [wrap(d, 2) for d in f.fdecls]
        o += [wrap(b, 2) for b in f.body]
        o.append("end function nfmpi_%s" % f.name)
        o.append("")
    return "\n".join(o)


def read_constants():
    consts = []
    with open(os.path.join(HERE, "nf_constants.txt")) as fh:
        for line in fh:
            if line.strip() and not line.startswith("#"):
                name, typ, val = line.split()
                consts.append((name, typ, val))
    return consts


def f_const(typ, val):
    ftyp = {"integer": "integer", "integer*8": "integer(kind=8)",
            "real": "real", "doubleprecision": "double precision"}[typ]
    if typ == "doubleprecision":
        val = val.replace("e", "d")
    return ftyp, val


def constants_f90(consts, nf90):
    o = []
    for name, typ, val in consts:
        ftyp, v = f_const(typ, val)
        o.append("  %s, parameter :: %s = %s" % (ftyp, name.lower(), v))
        if nf90 and name.startswith("NF_"):
            o.append("  %s, parameter :: nf90_%s = %s"
                     % (ftyp, name[3:].lower(), v))
        if nf90 and name.startswith("NFMPI_"):
            o.append("  %s, parameter :: nf90mpi_%s = %s"
                     % (ftyp, name[6:].lower(), v))
    return o


def include_file(fns, consts):
    o = ["! pnetcdf.inc -- ncpario's Fortran 77 API (PnetCDF-compatible).",
         "! Generated by fortran/gen_fortran.py; do not edit.",
         "! Sizes, offsets and coordinates are",
         "! integer(kind=MPI_OFFSET_KIND): include mpif.h first.", ""]
    for name, typ, val in consts:
        ftyp, v = f_const(typ, val)
        o.append("      %s %s" % (ftyp, name.lower()))
        o.append("      parameter (%s = %s)" % (name.lower(), v))
    o.append("")
    names = [(f.name, "integer") for f in fns]
    names += sorted(SPECIAL.items()) + [(n, "integer") for n in FLEX]
    for n, typ in names:
        o.append("      %s nfmpi_%s" % (typ.replace("(len=80)", "*80"), n))
        o.append("      external nfmpi_%s" % n)
    return "\n".join(o) + "\n"


def nf90_rank_decl(rank):
    return "" if rank == 0 else "(" + ",".join([":"] * rank) + ")"


def nf90_scalar_view(ftype, text, name, n):
    """Declarations and statements that give the scalar dummy `name` a
    rank-1 pointer view p (of n elements) for the calls whose buffer is
    an array: the user's own storage, so that a nonblocking request
    lands there."""
    ptype = "character(len=1)" if text else ftype
    return (["  %s, pointer :: p(:)" % ptype],
            ["  call c_f_pointer(c_loc(%s), p, [%s])" % (name, n)])


def nf90_var_generics(procs, bodies):
    """nf90mpi_{put,get}_var[_all] and iput/iget/bput_var for ranks 0..7
    of every kind; each picks var1, vara, vars or varm by the optional
    arguments given.  Numeric kinds reach the typed nfmpi_* function, or
    the flexible one when buftype is given; text goes the flexible way
    with MPI_CHARACTER."""
    plan = [("put", "", "in"), ("put", "_all", "in"),
            ("get", "", "inout"), ("get", "_all", "inout"),
            ("iput", "", "in"), ("iget", "", "inout"), ("bput", "", "in")]
    for op, sfx, intent in plan:
        generic = "nf90mpi_%s_var%s" % (op, sfx)
        req = op in ("iput", "iget", "bput")
        rq = ", req" if req else ""
        coll = 1 if sfx else 0
        for t in TYPES:
            tsfx, ftype, _, _, kname = t
            text = tsfx == "text"
            for rank in range(8):
                pname = "nf90mpi_%s_var_%dd_%s%s" % (op, rank, kname or "text",
                                                    sfx)
                procs.setdefault(generic, []).append(pname)
                full = rank > 0 or text
                vname = "values" if full else "buf"
                args = "ncid, varid, %s%s, start" % (vname, rq)
                if full:
                    args += ", count, stride, map"
                if not text:
                    args += ", bufcount, buftype"
                scalar_ptr = rank == 0
                b = ["function %s(%s) result(status)" % (pname, args),
                     "  integer, intent(in) :: ncid, varid",
                     "  %s, intent(%s)%s :: %s%s" % (
                         "character(len=*)" if text else ftype, intent,
                         ", target" if scalar_ptr else "", vname,
                         nf90_rank_decl(rank))]
                if req:
                    b.append("  integer, intent(out) :: req")
                b.append("  integer(kind=ncpf_ok), intent(in), optional :: "
                         + ("start(:), count(:), stride(:), map(:)" if full
                            else "start(:)"))
                if not text:
                    b += ["  integer(kind=ncpf_ok), intent(in), optional :: "
                          "bufcount",
                          "  integer, intent(in), optional :: buftype"]
                b += ["  integer :: status",
                      "  integer(kind=ncpf_ok), allocatable :: s(:), c(:), "
                      "st(:), m(:)",
                      "  integer :: form, r"]
                if text and rank > 0:
                    b.append("  integer(kind=ncpf_ok), allocatable :: shp(:)")
                if scalar_ptr:
                    decl, stmts = nf90_scalar_view(
                        ftype, text, vname, "len(values)" if text else "1")
                    b += decl
                if text and rank > 0:
                    # Strings longer than one character add the fastest
                    # dimension.
                    b += ["  if (len(values) == 1) then",
                          "    shp = shape(values)",
                          "  else",
                          "    shp = [int(len(values), ncpf_ok), "
                          "int(shape(values), ncpf_ok)]",
                          "  end if"]
                    shape = "shp"
                elif text:
                    shape = "[int(len(values), ncpf_ok)]"
                elif rank == 0:
                    shape = "[integer(kind=ncpf_ok) ::]"
                else:
                    shape = "int(shape(values), ncpf_ok)"
                b.append("  r = 0")
                if full:
                    b.append("  status = nf90mpi_coords(ncid, varid, %s, "
                             "form, s, c, st, m, start, count, stride, map)"
                             % shape)
                else:
                    b.append("  status = nf90mpi_coords(ncid, varid, %s, "
                             "form, s, c, st, m, start)" % shape)
                    b.append("  form = 0")
                b.append("  if (status /= nf_noerr) return")
                flex_op = FLEX_OP[op]
                if scalar_ptr:
                    b += stmts
                    buf = "p"
                else:
                    buf = "values"
                if text:
                    b.append("  status = ncpf_nf90_text(%d, form + 1, %d, "
                             "ncid, varid, s, c, st, m, %s, r)"
                             % (flex_op, coll, buf))
                    if req:
                        b.append("  req = r")
                    b.append("end function %s" % pname)
                    bodies.append("\n".join(b))
                    continue
                b += ["  if (present(buftype)) then",
                      "    if (present(bufcount)) then",
                      "      status = ncpf_nf90_flex(%d, form + 1, %d, ncid, "
                      "varid, s, c, st, m, %s, bufcount, buftype, r)"
                      % (flex_op, coll, buf),
                      "    else",
                      "      status = ncpf_nf90_flex(%d, form + 1, %d, ncid, "
                      "varid, s, c, st, m, %s, -1_ncpf_ok, buftype, r)"
                      % (flex_op, coll, buf),
                      "    end if"]
                if req:
                    b.append("    req = r")
                b.append("    return")
                b.append("  end if")
                fam = "%s_%%s_%s%s" % (op, tsfx, sfx)
                b.append("  select case (form)")
                if rank == 0:
                    b.append("  case default")
                    b.append("    status = nfmpi_%s(ncid, varid, s, buf%s)"
                             % (fam % "var1", rq))
                else:
                    b.append("  case (1)")
                    b.append("    status = nfmpi_%s(ncid, varid, s, c, values%s)"
                             % (fam % "vara", rq))
                    b.append("  case (2)")
                    b.append("    status = nfmpi_%s(ncid, varid, s, c, st, "
                             "values%s)" % (fam % "vars", rq))
                    b.append("  case default")
                    b.append("    status = nfmpi_%s(ncid, varid, s, c, st, m, "
                             "values%s)" % (fam % "varm", rq))
                b.append("  end select")
                b.append("end function %s" % pname)
                bodies.append("\n".join(b))


def nf90_varn_generics(procs, bodies):
    """nf90mpi_{put,get}_varn[_all] and iput/iget/bput_varn: num requests
    given by start(:, 1:num) and count(:, 1:num) (each 1 where count is
    absent); a scalar is one request of one element at start(:, 1)."""
    plan = [("put", "", "in"), ("put", "_all", "in"),
            ("get", "", "inout"), ("get", "_all", "inout"),
            ("iput", "", "in"), ("iget", "", "inout"), ("bput", "", "in")]
    for op, sfx, intent in plan:
        generic = "nf90mpi_%s_varn%s" % (op, sfx)
        req = op in ("iput", "iget", "bput")
        rq = ", req" if req else ""
        for t in TYPES:
            tsfx, ftype, _, _, kname = t
            text = tsfx == "text"
            for rank in range(8):
                pname = "nf90mpi_%s_varn_%dd_%s%s" % (
                    op, rank, kname or "text", sfx)
                procs.setdefault(generic, []).append(pname)
                vname = "values" if rank else "value"
                args = ("ncid, varid, %s%s, num, start, count" % (vname, rq)
                        if rank else "ncid, varid, value%s, start" % rq)
                b = ["function %s(%s) result(status)" % (pname, args),
                     "  integer, intent(in) :: ncid, varid",
                     "  %s, intent(%s)%s :: %s%s" % (
                         "character(len=*)" if text else ftype, intent,
                         "" if rank else ", target", vname,
                         nf90_rank_decl(rank))]
                if req:
                    b.append("  integer, intent(out) :: req")
                if rank:
                    b += ["  integer, intent(in) :: num",
                          "  integer(kind=ncpf_ok), intent(in) :: start(:, :)",
                          "  integer(kind=ncpf_ok), intent(in), optional :: "
                          "count(:, :)"]
                else:
                    b += ["  integer(kind=ncpf_ok), intent(in) :: start(:, :)",
                          "  integer, parameter :: num = 1"]
                b += ["  integer :: status, nd, r",
                      "  integer(kind=ncpf_ok), allocatable :: cnt(:, :)",
                      "  integer(kind=c_long_long), allocatable, target :: "
                      "c_s(:, :), c_c(:, :)",
                      "  type(c_ptr), allocatable :: p_s(:), p_c(:)"]
                if not rank:
                    decl, stmts = nf90_scalar_view(
                        ftype, text, "value", "len(value)" if text else "1")
                    b += decl
                buf = "values" if rank else "p"
                if not rank:
                    b += stmts
                # Only the first num columns (and the variable's rank of
                # rows) of start and count are read: the arrays may be
                # larger, as in PnetCDF.
                b.append("  nd = ncpf_ndims(ncid, varid)")
                b.append("  if (size(start, 1) < nd .or. "
                         "size(start, 2) < num) then")
                b.append("    status = nf_einvalcoords")
                b.append("    return")
                b.append("  end if")
                b.append("  allocate(cnt(max(nd, 1), max(num, 1)))")
                b.append("  cnt = 1")
                if rank:
                    b.append("  if (present(count)) then")
                    b.append("    if (size(count, 1) < nd .or. "
                             "size(count, 2) < num) then")
                    b.append("      status = nf_eedge")
                    b.append("      return")
                    b.append("    end if")
                    b.append("    cnt(1:nd, 1:max(num, 0)) = "
                             "count(1:nd, 1:max(num, 0))")
                    b.append("  end if")
                b.append("  call ncpf_revn(nd, num, start(1:nd, 1:max(num, 0)), "
                         "c_s, p_s, 1_ncpf_ok)")
                b.append("  call ncpf_revn(nd, num, cnt(1:nd, 1:max(num, 0)), "
                         "c_c, p_c, 0_ncpf_ok)")
                if text:
                    b.append("  status = ncpf_flexn(%d, %d, ncid, varid - 1, "
                             "num, p_s, p_c, %s, -1_ncpf_ok, "
                             "ncpf_mpi_character, r)"
                             % (FLEX_OP[op], 1 if sfx else 0, buf))
                else:
                    b.append("  status = ncpf_flexn(%d, %d, ncid, varid - 1, "
                             "num, p_s, p_c, %s, -1_ncpf_ok, %s, r)"
                             % (FLEX_OP[op], 1 if sfx else 0, buf,
                                NF90_MPI_TYPE[tsfx]))
                if req:
                    b.append("  req = r")
                b.append("end function %s" % pname)
                bodies.append("\n".join(b))


def nf90_vard_generics(procs, bodies):
    """nf90mpi_{put,get}_vard[_all]: any kind and rank, through the shim."""
    for op, sfx in [("put", ""), ("put", "_all"), ("get", ""),
                    ("get", "_all")]:
        generic = "nf90mpi_%s_vard%s" % (op, sfx)
        intent = "in" if op == "put" else "inout"
        for t in TYPES:
            tsfx, ftype, _, _, kname = t
            text = tsfx == "text"
            for rank in range(8):
                pname = "nf90mpi_%s_vard_%dd_%s%s" % (
                    op, rank, kname or "text", sfx)
                procs.setdefault(generic, []).append(pname)
                b = ["function %s(ncid, varid, filetype, buf, bufcount, "
                     "buftype) result(status)" % pname,
                     "  integer, intent(in) :: ncid, varid, filetype, buftype",
                     "  %s, intent(%s)%s :: buf%s" % (
                         "character(len=*)" if text else ftype, intent,
                         "" if rank else ", target", nf90_rank_decl(rank)),
                     "  integer(kind=ncpf_ok), intent(in) :: bufcount",
                     "  integer :: status"]
                arg = "buf"
                if not rank:
                    decl, stmts = nf90_scalar_view(
                        ftype, text, "buf", "len(buf)" if text else "1")
                    b += decl + stmts
                    arg = "p"
                b.append("  status = ncpf_vard(%d, %d, ncid, varid - 1, "
                         "filetype, %s, bufcount, buftype)"
                         % (0 if op == "put" else 1, 1 if sfx else 0, arg))
                b.append("end function %s" % pname)
                bodies.append("\n".join(b))


def nf90_fill_generics(procs, bodies):
    """nf90mpi_def_var_fill and nf90mpi_inq_var_fill of every kind."""
    for op in ("def", "inq"):
        generic = "nf90mpi_%s_var_fill" % op
        for t in TYPES:
            tsfx, ftype, _, _, kname = t
            text = tsfx == "text"
            pname = "nf90mpi_%s_var_fill_%s" % (op, kname or "text")
            procs.setdefault(generic, []).append(pname)
            intent = "in" if op == "def" else "out"
            b = ["function %s(ncid, varid, no_fill, fill_value) "
                 "result(status)" % pname,
                 "  integer, intent(in) :: ncid, varid",
                 "  integer, intent(%s) :: no_fill" % intent,
                 "  %s, intent(%s) :: fill_value" % (
                     "character(len=*)" if text else ftype, intent),
                 "  %s :: tmp(1)" % (ftype if not text else
                                      "character(len=1)"),
                 "  integer :: status"]
            if op == "inq":
                b.append("  integer(kind=c_int) :: nf")
            if op == "def":
                b.append("  tmp(1) = %s" % ("fill_value(1:1)" if text
                                            else "fill_value"))
                b.append("  status = ncmpi_def_var_fill(ncid, varid - 1, "
                         "no_fill, tmp)")
            else:
                b.append("  tmp(1) = %s" % ("' '" if text else "0"))
                b.append("  status = ncmpi_inq_var_fill(ncid, varid - 1, "
                         "nf, tmp)")
                b.append("  if (status /= nf_noerr) return")
                b.append("  no_fill = nf")
                b.append("  fill_value = tmp(1)")
            b.append("end function %s" % pname)
            bodies.append("\n".join(b))


# The MPI datatype of each kind's buffer element, for the flexible calls
# the generics make.
NF90_MPI_TYPE = {"int1": "ncpf_mpi_integer1", "int2": "ncpf_mpi_integer2",
                 "int": "ncpf_mpi_integer", "real": "ncpf_mpi_real",
                 "double": "ncpf_mpi_double_precision",
                 "int8": "ncpf_mpi_integer8"}


def nf90_generics():
    """Every nf90mpi_* generic: its specific procedures' names by generic
    name, and their bodies."""
    procs, bodies = {}, []
    nf90_var_generics(procs, bodies)
    nf90_varn_generics(procs, bodies)
    nf90_vard_generics(procs, bodies)
    nf90_fill_generics(procs, bodies)
    # Attributes: arrays (rank 1) and scalars of every kind, and text.
    for op in ("put", "get"):
        generic = "nf90mpi_%s_att" % op
        for t in TYPES:
            tsfx, ftype, _, _, kname = t
            variants = [("text", "")] if tsfx == "text" else \
                [(kname, "(:)"), ("one_" + kname, "")]
            for vname, dims in variants:
                pname = "nf90mpi_%s_att_%s" % (op, vname)
                procs.setdefault(generic, []).append(pname)
                intent = "in" if op == "put" else "out"
                b = ["function %s(ncid, varid, name, values) result(status)"
                     % pname,
                     "  integer, intent(in) :: ncid, varid",
                     "  character(len=*), intent(in) :: name",
                     "  %s, intent(%s) :: values%s" % (ftype, intent, dims),
                     "  integer :: status"]
                if op == "put" and tsfx == "text":
                    b.append("  status = nfmpi_put_att_text(ncid, varid, name, "
                             "int(len(values), ncpf_ok), values)")
                elif op == "put":
                    n = "int(size(values), ncpf_ok)" if dims else "1_ncpf_ok"
                    v = "values" if dims else "[values]"
                    b.append("  status = nfmpi_put_att_%s(ncid, varid, name, "
                             "nf_%s, %s, %s)" % (tsfx, NF90_ATT_XTYPE[tsfx],
                                                 n, v))
                elif tsfx == "text":
                    # Blank-padded past the attribute's length.
                    b.append("  values = ' '")
                    b.append("  status = nfmpi_get_att_text(ncid, varid, name, "
                             "values)")
                elif dims:
                    b.append("  status = nfmpi_get_att_%s(ncid, varid, name, "
                             "values)" % tsfx)
                else:
                    b.append("  %s :: tmp(1)" % ftype)
                    b.append("  status = nfmpi_get_att_%s(ncid, varid, name, "
                             "tmp)" % tsfx)
                    b.append("  if (status == nf_noerr) values = tmp(1)")
                b.append("end function %s" % pname)
                bodies.append("\n".join(b))
    return procs, bodies


# nf90mpi_* functions with the arguments of the nfmpi_* function of the
# same name in SIMPLE: generated as plain forwarders in module pnetcdf.
# Where PnetCDF's module names a dummy argument differently from its
# nfmpi_* function (programs pass them by keyword), the new names.
NF90_SAME = {
    "abort": {}, "buffer_attach": {}, "buffer_detach": {}, "copy_att": {},
    "del_att": {}, "fill_var_rec": {}, "flush": {},
    "inq_attname": {"attid": "attnum"}, "inq_buffer_size": {},
    "inq_buffer_usage": {}, "inq_default_format": {
        "default_fmt": "default_format"},
    "inq_get_size": {"size": "get_size"},
    "inq_header_extent": {"extent": "h_extent"},
    "inq_header_size": {"size": "h_size"}, "inq_nreqs": {},
    "inq_num_fix_vars": {}, "inq_num_rec_vars": {},
    "inq_put_size": {"size": "put_size"}, "inq_recsize": {},
    "inq_striping": {}, "inq_varoffset": {}, "rename_att": {},
    "rename_dim": {}, "rename_var": {"name": "newname"},
    "set_default_format": {"new_fmt": "new_format",
                           "old_fmt": "old_format"},
    "set_fill": {}, "sync_numrecs": {},
}


def nf90_same():
    bodies = []
    spec = dict(SIMPLE)
    for name, renames in NF90_SAME.items():
        args = [(renames.get(n, n), k) for n, k in parse_args(spec[name])]
        b = ["integer function nf90mpi_%s(%s)"
             % (name, ", ".join(a[0] for a in args))]
        b += ["  " + KINDS_F[k].format(n=n) for n, k in args]
        b.append("  nf90mpi_%s = nfmpi_%s(%s)"
                 % (name, name, ", ".join(a[0] for a in args)))
        b.append("end function nf90mpi_%s" % name)
        bodies.append("\n".join(b))
    return bodies


NF90_ATT_XTYPE = {"int1": "byte", "int2": "short", "int": "int",
                  "real": "float", "double": "double", "int8": "int64"}


# Hand-written parts of module pnetcdf: the flexible call the generics
# make with Fortran-order coordinates, and the nf90mpi_* functions of the
# library-wide inquiries.
NF90_HELPERS = """\
function ncpf_nf90_flex(op, form, coll, ncid, varid, s, c, st, m, buf, &
                        bufcount, buftype, req) result(status)
  integer, intent(in) :: op, form, coll, ncid, varid, buftype
  integer(kind=ncpf_ok), intent(in) :: s(:), c(:), st(:), m(:), bufcount
  type(*) :: buf(*)
  integer, intent(out) :: req
  integer :: status
  integer(kind=c_int) :: c_req
  integer(kind=c_long_long), allocatable :: cs(:), cc(:), cst(:), cm(:)
  call ncpf_nf90_rev_all(ncid, varid, s, c, st, m, cs, cc, cst, cm)
  c_req = 0
  status = ncpf_flex(op, form, coll, ncid, varid - 1, cs, cc, cst, cm, buf, &
                     bufcount, buftype, c_req)
  req = c_req
end function ncpf_nf90_flex

! Character values: the C text family, as PnetCDF's generics call it.
function ncpf_nf90_text(op, form, coll, ncid, varid, s, c, st, m, buf, &
                        req) result(status)
  integer, intent(in) :: op, form, coll, ncid, varid
  integer(kind=ncpf_ok), intent(in) :: s(:), c(:), st(:), m(:)
  type(*) :: buf(*)
  integer, intent(out) :: req
  integer :: status
  integer(kind=c_int) :: c_req
  integer(kind=c_long_long), allocatable :: cs(:), cc(:), cst(:), cm(:)
  call ncpf_nf90_rev_all(ncid, varid, s, c, st, m, cs, cc, cst, cm)
  c_req = 0
  status = ncpf_text(op, form, coll, ncid, varid - 1, cs, cc, cst, cm, buf, &
                     c_req)
  req = c_req
end function ncpf_nf90_text

! Fortran-order start, count, stride, map into C order (start 0-based).
subroutine ncpf_nf90_rev_all(ncid, varid, s, c, st, m, cs, cc, cst, cm)
  integer, intent(in) :: ncid, varid
  integer(kind=ncpf_ok), intent(in) :: s(:), c(:), st(:), m(:)
  integer(kind=c_long_long), allocatable, intent(out) :: cs(:), cc(:), &
      cst(:), cm(:)
  integer :: nd
  nd = ncpf_ndims(ncid, varid)
  call ncpf_rev(nd, s, cs, 1_ncpf_ok)
  call ncpf_rev(nd, c, cc, 0_ncpf_ok)
  call ncpf_rev(nd, st, cst, 0_ncpf_ok)
  call ncpf_rev(nd, m, cm, 0_ncpf_ok)
end subroutine ncpf_nf90_rev_all

integer function nf90mpi_inq_files_opened(nfiles, ncids)
  integer, intent(out) :: nfiles
  integer, intent(out) :: ncids(:)
  nf90mpi_inq_files_opened = nfmpi_inq_files_opened(nfiles, ncids)
end function nf90mpi_inq_files_opened

integer function nf90mpi_inq_malloc_size(size)
  integer(kind=ncpf_ok), intent(out) :: size
  nf90mpi_inq_malloc_size = nfmpi_inq_malloc_size(size)
end function nf90mpi_inq_malloc_size

integer function nf90mpi_inq_malloc_max_size(size)
  integer(kind=ncpf_ok), intent(out) :: size
  nf90mpi_inq_malloc_max_size = nfmpi_inq_malloc_max_size(size)
end function nf90mpi_inq_malloc_max_size

integer function nf90mpi_inq_malloc_list()
  nf90mpi_inq_malloc_list = nfmpi_inq_malloc_list()
end function nf90mpi_inq_malloc_list
"""


def module_file(fns, consts):
    procs, bodies = nf90_generics()
    o = ["! Generated by fortran/gen_fortran.py; do not edit.",
         "module pnetcdf",
         "  use mpi, only: ncpf_ok => MPI_OFFSET_KIND, &",
         "      ncpf_mpi_character => MPI_CHARACTER, "
         "ncpf_mpi_integer1 => MPI_INTEGER1, &",
         "      ncpf_mpi_integer2 => MPI_INTEGER2, "
         "ncpf_mpi_integer => MPI_INTEGER, &",
         "      ncpf_mpi_integer8 => MPI_INTEGER8, ncpf_mpi_real => MPI_REAL, &",
         "      ncpf_mpi_double_precision => MPI_DOUBLE_PRECISION",
         "  use iso_c_binding, only: c_int, c_long_long, c_ptr, c_loc, "
         "c_f_pointer",
         "  use ncpf_util, only: ncpf_flex, ncpf_flexn, ncpf_text, ncpf_rev, "
         "ncpf_revn, ncpf_ndims",
         "  use ncpf_special_c, only: ncmpi_def_var_fill, ncmpi_inq_var_fill, "
         "ncpf_vard",
         wrap("use ncpf_nf90, only: " + ", ".join(nf90_basics()[0]), 2),
         "  implicit none",
         "  private :: ncpf_ok, nf90mpi_coords, ncpf_nf90_flex, "
         "ncpf_nf90_text, ncpf_nf90_rev_all",
         "  private :: ncpf_mpi_character, ncpf_mpi_integer1, "
         "ncpf_mpi_integer2, &",
         "      ncpf_mpi_integer, ncpf_mpi_integer8, ncpf_mpi_real, "
         "ncpf_mpi_double_precision",
         "  private :: c_int, c_long_long, c_ptr, c_loc, c_f_pointer",
         "  private :: ncpf_flex, ncpf_flexn, ncpf_text, ncpf_rev, ncpf_revn, "
         "ncpf_ndims",
         "  private :: ncmpi_def_var_fill, ncmpi_inq_var_fill, ncpf_vard"]
    o += constants_f90(consts, True)
    o.append("  interface")
    for f in fns:
        if f.name in NOT_IN_MODULE:
            continue
        o.append(wrap("integer function nfmpi_%s(%s)"
                      % (f.name, ", ".join(f.dummies)), 4))
        o.append("      import :: ncpf_ok")
        o += [wrap(d, 6) for d in f.fdecls]
        o.append("    end function")
    for n, typ in sorted(SPECIAL.items()):
        if n not in SPECIAL_IFACE:
            continue
        args, decls = SPECIAL_IFACE[n]
        o.append(wrap("%s function nfmpi_%s(%s)" % (typ, n, args), 4))
        o.append("      import :: ncpf_ok")
        o += [wrap(d, 6) for d in decls]
        o.append("    end function")
    o.append("  end interface")
    for n, typ in sorted(SPECIAL.items()):
        if n not in SPECIAL_IFACE:
            o.append("  %s, external :: nfmpi_%s" % (typ, n))
    for n in FLEX:
        if n not in NOT_IN_MODULE:
            o.append("  integer, external :: nfmpi_%s" % n)
    for g, plist in procs.items():
        o.append("  interface %s" % g)
        for p in plist:
            o.append("    module procedure %s" % p)
        o.append("  end interface")
        # Only the generic is public, as in PnetCDF's module: the specific
        # procedures' names stay out of the program's name space.
        for p in plist:
            o.append("  private :: %s" % p)
    o.append("contains")
    o.append(NF90_HELPERS)
    o += bodies
    o += nf90_same()
    o.append("end module pnetcdf")
    return "\n".join(o) + "\n"


def nf90_basics():
    """The public names of the hand-written module ncpf_nf90 (which module
    pnetcdf re-exports), and the specific procedures behind its generics,
    read from ncpf_nf90.f90 so that the two never disagree."""
    text = open(os.path.join(HERE, "ncpf_nf90.f90")).read()
    text = re.sub(r"&\s*\n\s*", " ", text)     # join continued lines
    public = [n.strip() for line in
              re.findall(r"^\s*public\s*::(.*)$", text, re.M)
              for n in line.split(",")]
    specific = [n.strip() for line in
                re.findall(r"^\s*module procedure(.*)$", text, re.M)
                for n in line.split(",")]
    return public, specific


def abi_aliases(mod_text):
    """A linker script giving the shared library the symbols a program
    compiled against PnetCDF's own pnetcdf.mod calls.  gfortran names a
    module procedure __<module>_MOD_<name>; PnetCDF keeps every procedure
    in module pnetcdf and names its scalar forms without a rank
    (nf90mpi_put_var_fourbyteint, here nf90mpi_put_var_0d_fourbyteint).
    Each alias names a procedure with the same dummy arguments."""
    o = ["/* Generated by fortran/gen_fortran.py; do not edit. */"]
    public, specific = nf90_basics()
    generics = {"nf90mpi_def_var"}
    helpers = {"nf90mpi_coords"}          # ours alone, not PnetCDF's
    for n in [p for p in public if p not in generics | helpers] + specific:
        o.append("__pnetcdf_MOD_%s = __ncpf_nf90_MOD_%s;" % (n, n))
    scalar = re.compile(r"^function (nf90mpi_\w+?)_0d_(\w+)\(", re.M)
    for head, tail in scalar.findall(mod_text):
        o.append("__pnetcdf_MOD_%s_%s = __pnetcdf_MOD_%s_0d_%s;"
                 % (head, tail, head, tail))
    return "\n".join(o) + "\n"


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    fns = all_fns()
    consts = read_constants()
    files = {
        "ncpf_c.f90": c_interfaces(fns),
        "nfmpi_gen.f90": implementations(fns + flex_fns()),
        "pnetcdf_mod.f90": module_file(fns, consts),
        "pnetcdf.inc": include_file(fns, consts),
        "ncpf_consts.f90": "\n".join(
            ["! Generated by fortran/gen_fortran.py; do not edit.",
             "module ncpf_consts", "  implicit none"] +
            constants_f90(consts, True) + ["end module ncpf_consts", ""]),
    }
    files["pnetcdf_abi.ld"] = abi_aliases(files["pnetcdf_mod.f90"])
    for name, text in files.items():
        with open(os.path.join(out, name), "w") as fh:
            fh.write(text)


if __name__ == "__main__":
    main()
