#!/usr/bin/env python3
"""Write PnetCDF's C++ API families from tables.

    gen_cxx.py TEMPLATE OUTDIR

writes OUTDIR/pnetcdf (TEMPLATE with its @...@ markers filled in) and
OUTDIR/ncmpi_generated.cpp (the definitions of what the markers declare).

Every per-type method is one call of the typed C function of its form, so
its conversions, range checks and error codes are the C library's.
"""

import os
import sys

# C++ element type, suffix of the typed C functions.
TYPES = [
    ("char", "text"),
    ("unsigned char", "uchar"),
    ("signed char", "schar"),
    ("short", "short"),
    ("int", "int"),
    ("long", "long"),
    ("float", "float"),
    ("double", "double"),
    ("unsigned short", "ushort"),
    ("unsigned int", "uint"),
    ("long long", "longlong"),
    ("unsigned long long", "ulonglong"),
]
SUFFIX = dict(TYPES)

# A single value put through var1 is passed by value, but for the byte
# types, which PnetCDF passes by pointer; char has no var1 put.
VAR1_BY_POINTER = ("unsigned char", "signed char")

# putAtt's single-value overloads, and its array overloads, in PnetCDF's
# type sets.
ATT_SCALARS = ["short", "int", "long", "float", "double", "unsigned short",
               "unsigned int", "unsigned long long", "long long"]
ATT_ARRAYS = ["unsigned char", "signed char", "short", "int", "long", "float",
              "double", "unsigned short", "unsigned int",
              "unsigned long long", "long long"]

# Coordinate forms: C name part, the vectors each takes.
FORMS = [
    ("var", []),
    ("var1", ["index"]),
    ("vara", ["start", "count"]),
    ("vars", ["start", "count", "stride"]),
    ("varm", ["start", "count", "stride", "imap"]),
]

# C++ method, C prefix, collective suffix, writes?, takes a request id?
METHODS = [
    ("putVar", "put", "", True, False),
    ("putVar_all", "put", "_all", True, False),
    ("getVar", "get", "", False, False),
    ("getVar_all", "get", "_all", False, False),
    ("iputVar", "iput", "", True, True),
    ("igetVar", "iget", "", False, True),
    ("bputVar", "bput", "", True, True),
]
VARN_METHODS = [
    ("putVarn", "put", "", True, False),
    ("putVarn_all", "put", "_all", True, False),
    ("getVarn", "get", "", False, False),
    ("getVarn_all", "get", "_all", False, False),
    ("iputVarn", "iput", "", True, True),
    ("igetVarn", "iget", "", False, True),
]

# exceptions::<class>, the status it stands for.
EXCEPTIONS = [
    ("NcBadId", "NC_EBADID"), ("NcNFile", "NC_ENFILE"),
    ("NcExist", "NC_EEXIST"), ("NcInvalidArg", "NC_EINVAL"),
    ("NcInvalidWrite", "NC_EPERM"),
    ("NcNotInDefineMode", "NC_ENOTINDEFINE"),
    ("NcInDefineMode", "NC_EINDEFINE"),
    ("NcInvalidCoords", "NC_EINVALCOORDS"), ("NcMaxDims", "NC_EMAXDIMS"),
    ("NcNameInUse", "NC_ENAMEINUSE"), ("NcNotAtt", "NC_ENOTATT"),
    ("NcMaxAtts", "NC_EMAXATTS"), ("NcBadType", "NC_EBADTYPE"),
    ("NcBadDim", "NC_EBADDIM"), ("NcUnlimPos", "NC_EUNLIMPOS"),
    ("NcMaxVars", "NC_EMAXVARS"), ("NcNotVar", "NC_ENOTVAR"),
    ("NcGlobal", "NC_EGLOBAL"), ("NcNotNCF", "NC_ENOTNC"),
    ("NcSts", "NC_ESTS"), ("NcMaxName", "NC_EMAXNAME"),
    ("NcUnlimit", "NC_EUNLIMIT"), ("NcNoRecVars", "NC_ENORECVARS"),
    ("NcmpiChar", "NC_ECHAR"), ("NcEdge", "NC_EEDGE"),
    ("NcStride", "NC_ESTRIDE"), ("NcBadName", "NC_EBADNAME"),
    ("NcRange", "NC_ERANGE"), ("NcNoMem", "NC_ENOMEM"),
    ("NcmpiVarSize", "NC_EVARSIZE"), ("NcmpiDimSize", "NC_EDIMSIZE"),
    ("NcTrunc", "NC_ETRUNC"), ("NcHdfErr", "NC_EHDFERR"),
    ("NcCantRead", "NC_ECANTREAD"), ("NcCantWrite", "NC_ECANTWRITE"),
    ("NcCantCreate", "NC_ECANTCREATE"), ("NcmpiFileMeta", "NC_EFILEMETA"),
    ("NcmpiDimMeta", "NC_EDIMMETA"), ("NcmpiAttMeta", "NC_EATTMETA"),
    ("NcmpiVarMeta", "NC_EVARMETA"), ("NcNoCompound", "NC_ENOCOMPOUND"),
    ("NcmpiAttExists", "NC_EATTEXISTS"), ("NcNotNc4", "NC_ENOTNC4"),
    ("NcStrictNc3", "NC_ESTRICTNC3"), ("NcBadGroupId", "NC_EBADGRPID"),
    ("NcBadTypeId", "NC_EBADTYPID"), ("NcBadFieldId", "NC_EBADFIELD"),
    ("NcUnknownName", None), ("NcEnoGrp", "NC_ENOGRP"),
    ("NcNullGrp", None), ("NcNullType", None), ("NcNullDim", None),
    ("NcElateDef", "NC_ELATEDEF"),
]

# The atomic type classes: class, global object, nc_type.  NcmpiByte alone
# has PnetCDF's sizeoff().
ATOMIC = [
    ("NcmpiByte", "ncmpiByte", "NC_BYTE"),
    ("NcmpiChar", "ncmpiChar", "NC_CHAR"),
    ("NcmpiDouble", "ncmpiDouble", "NC_DOUBLE"),
    ("NcmpiFloat", "ncmpiFloat", "NC_FLOAT"),
    ("NcmpiInt", "ncmpiInt", "NC_INT"),
    ("NcmpiInt64", "ncmpiInt64", "NC_INT64"),
    ("NcmpiShort", "ncmpiShort", "NC_SHORT"),
    ("NcmpiUbyte", "ncmpiUbyte", "NC_UBYTE"),
    ("NcmpiUint", "ncmpiUint", "NC_UINT"),
    ("NcmpiUint64", "ncmpiUint64", "NC_UINT64"),
    ("NcmpiUshort", "ncmpiUshort", "NC_USHORT"),
]

# The netCDF-4 calls of PnetCDF's C++ header: name, parameters.
NETCDF4 = [
    ("ncmpi_insert_compound", "int ncid, nc_type xtype, const char *name, "
     "MPI_Offset offset, nc_type field_typeid"),
    ("ncmpi_insert_array_compound", "int ncid, nc_type xtype, "
     "const char *name, MPI_Offset offset, nc_type field_typeid, int ndims, "
     "const int *dim_sizes"),
    ("ncmpi_insert_enum", "int ncid, nc_type xtype, const char *name, "
     "const void *value"),
    ("ncmpi_def_compound", "int ncid, MPI_Offset size, const char *name, "
     "nc_type *typeidp"),
    ("ncmpi_inq_enum", "int ncid, nc_type xtype, char *name, "
     "nc_type *base_nc_typep, MPI_Offset *base_sizep, "
     "MPI_Offset *num_membersp"),
    ("ncmpi_inq_enum_member", "int ncid, nc_type xtype, int idx, char *name, "
     "void *value"),
    ("ncmpi_inq_enum_ident", "int ncid, nc_type xtype, long long value, "
     "char *identifier"),
    ("ncmpi_inq_compound_nfields", "int ncid, nc_type xtype, "
     "MPI_Offset *nfieldsp"),
    ("ncmpi_inq_compound_name", "int ncid, nc_type xtype, char *name"),
    ("ncmpi_inq_compound_size", "int ncid, nc_type xtype, MPI_Offset *sizep"),
    ("ncmpi_inq_compound_field", "int ncid, nc_type xtype, int fieldid, "
     "char *name, MPI_Offset *offsetp, nc_type *field_typeidp, int *ndimsp, "
     "int *dim_sizesp"),
    ("ncmpi_inq_compound_fieldname", "int ncid, nc_type xtype, int fieldid, "
     "char *name"),
    ("ncmpi_inq_compound", "int ncid, nc_type xtype, char *name, "
     "MPI_Offset *sizep, MPI_Offset *nfieldsp"),
    ("ncmpi_inq_compound_fieldindex", "int ncid, nc_type xtype, "
     "const char *name, int *fieldidp"),
    ("ncmpi_inq_compound_fieldoffset", "int ncid, nc_type xtype, "
     "int fieldid, MPI_Offset *offsetp"),
    ("ncmpi_inq_compound_fieldtype", "int ncid, nc_type xtype, int fieldid, "
     "nc_type *field_typeidp"),
    ("ncmpi_inq_compound_fieldndims", "int ncid, nc_type xtype, int fieldid, "
     "int *ndimsp"),
    ("ncmpi_inq_compound_fielddim_sizes", "int ncid, nc_type xtype, "
     "int fieldid, int *dim_sizes"),
    ("ncmpi_inq_unlimdims", "int ncid, int *nunlimdimsp, int *unlimdimidsp"),
    ("ncmpi_inq_grpname_len", "int ncid, MPI_Offset *lenp"),
    ("ncmpi_inq_grp_parent", "int ncid, int *parent_ncid"),
    ("ncmpi_inq_grp_ncid", "int ncid, const char *grp_name, int *grp_ncid"),
    ("ncmpi_inq_grp_full_ncid", "int ncid, const char *full_name, "
     "int *grp_ncid"),
    ("ncmpi_inq_varids", "int ncid, int *nvars, int *varids"),
    ("ncmpi_inq_dimids", "int ncid, int *ndims, int *dimids, "
     "int include_parents"),
    ("ncmpi_inq_type", "int ncid, nc_type xtype, char *name, "
     "MPI_Offset *size"),
    ("ncmpi_inq_typeids", "int ncid, int *ntypes, int *typeids"),
    ("ncmpi_inq_type_equal", "int ncid1, nc_type typeid1, int ncid2, "
     "nc_type typeid2, int *equal"),
    ("ncmpi_def_grp", "int parent_ncid, const char *name, int *new_ncid"),
    ("ncmpi_rename_grp", "int grpid, const char *name"),
    ("ncmpi_inq_grps", "int ncid, int *numgrps, int *ncids"),
    ("ncmpi_inq_grpname", "int ncid, char *name"),
    ("ncmpi_inq_grpname_full", "int ncid, MPI_Offset *lenp, "
     "char *full_name"),
    ("ncmpi_def_enum", "int ncid, nc_type base_typeid, const char *name, "
     "nc_type *typeidp"),
    ("ncmpi_def_vlen", "int ncid, const char *name, nc_type base_typeid, "
     "nc_type *xtypep"),
    ("ncmpi_inq_vlen", "int ncid, nc_type xtype, char *name, "
     "MPI_Offset *datum_sizep, nc_type *base_nc_typep"),
    ("ncmpi_free_vlen", "nc_vlen_t *vl"),
    ("ncmpi_free_vlens", "MPI_Offset len, nc_vlen_t vlens[]"),
    ("ncmpi_put_vlen_element", "int ncid, int typeid1, void *vlen_element, "
     "MPI_Offset len, const void *data"),
    ("ncmpi_get_vlen_element", "int ncid, int typeid1, "
     "const void *vlen_element, MPI_Offset *len, void *data"),
    ("ncmpi_def_opaque", "int ncid, MPI_Offset size, const char *name, "
     "nc_type *xtypep"),
    ("ncmpi_inq_opaque", "int ncid, nc_type xtype, char *name, "
     "MPI_Offset *sizep"),
    ("ncmpi_inq_user_type", "int ncid, nc_type xtype, char *name, "
     "MPI_Offset *size, nc_type *base_nc_typep, MPI_Offset *nfieldsp, "
     "int *classp"),
    ("ncmpi_def_var_chunking", "int ncid, int varid, int storage, "
     "const MPI_Offset *chunksizesp"),
    ("ncmpi_inq_var_chunking", "int ncid, int varid, int *storagep, "
     "MPI_Offset *chunksizesp"),
    ("ncmpi_def_var_endian", "int ncid, int varid, int endian"),
    ("ncmpi_inq_var_endian", "int ncid, int varid, int *endianp"),
    ("ncmpi_set_chunk_cache", "MPI_Offset size, MPI_Offset nelems, "
     "float preemption"),
    ("ncmpi_def_var_deflate", "int ncid, int varid, int shuffle, "
     "int deflate, int deflate_level"),
    ("ncmpi_inq_var_deflate", "int ncid, int varid, int *shufflep, "
     "int *deflatep, int *deflate_levelp"),
    ("ncmpi_inq_var_szip", "int ncid, int varid, int *options_maskp, "
     "int *pixels_per_blockp"),
    ("ncmpi_def_var_fletcher32", "int ncid, int varid, int fletcher32"),
    ("ncmpi_inq_var_fletcher32", "int ncid, int varid, int *fletcher32p"),
]

VEC = "const std::vector<MPI_Offset> &"
CHECK = "ncmpiCheck({call}, __FILE__, __LINE__);"


def c_args(vecs, varn):
    """The coordinate arguments of the C call."""
    if varn:
        return ["num", "starts", "counts"]
    return [v + ".data()" for v in vecs]


def data_method(method, cprefix, coll, writes, req, form, vecs, ctype,
                varn=False):
    """(declaration, definition) of one data method.

    ctype is a C++ element type, or None for the flexible form (buffer,
    count and MPI datatype).
    """
    const = "const " if writes else ""
    params = ["const int num", "MPI_Offset *const starts[]",
              "MPI_Offset *const counts[]"] if varn else [VEC + v for v in vecs]
    call_args = ["groupId", "myId"] + c_args(vecs, varn)
    by_value = (form == "var1" and writes and ctype is not None
                and ctype not in VAR1_BY_POINTER)
    if ctype is None:
        params += [const + "void *buf", "MPI_Offset bufcount",
                   "MPI_Datatype buftype"]
        call_args += ["buf", "bufcount", "buftype"]
        cname = "ncmpi_%s_%s" % (cprefix, form)
    elif by_value:
        params.append("const %s value" % ctype)
        call_args.append("&value")
        cname = "ncmpi_%s_%s_%s" % (cprefix, form, SUFFIX[ctype])
    else:
        params.append("%s%s *buf" % (const, ctype))
        call_args.append("buf")
        cname = "ncmpi_%s_%s_%s" % (cprefix, form, SUFFIX[ctype])
    if req:
        params.append("int *req")
        call_args.append("req")
    cname += coll
    sig = "%s(%s) const" % (method, ", ".join(params))
    decl = "  void %s;" % sig
    call = "%s(%s)" % (cname, ", ".join(call_args))
    defn = ("void NcmpiVar::%s {\n  ncmpiCheckDataMode(groupId);\n  %s\n}\n"
            % (sig, CHECK.format(call=call)))
    return decl, defn


def var1_string(method, cprefix, coll, req):
    """PnetCDF declares a std::string var1 put: the first character."""
    params = [VEC + "index", "const std::string &value"]
    args = ["groupId", "myId", "index.data()", "value.c_str()"]
    if req:
        params.append("int *req")
        args.append("req")
    sig = "%s(%s) const" % (method, ", ".join(params))
    call = "ncmpi_%s_var1_text%s(%s)" % (cprefix, coll, ", ".join(args))
    defn = ("void NcmpiVar::%s {\n  ncmpiCheckDataMode(groupId);\n  %s\n}\n"
            % (sig, CHECK.format(call=call)))
    return "  void %s;" % sig, defn


def var_data():
    decls, defns = [], []

    def add(pair):
        decls.append(pair[0])
        defns.append(pair[1])

    for method, cprefix, coll, writes, req in METHODS:
        for form, vecs in FORMS:
            for ctype, _ in TYPES:
                if form == "var1" and writes and ctype == "char":
                    continue
                add(data_method(method, cprefix, coll, writes, req, form,
                                vecs, ctype))
            if form == "var1" and writes:
                add(var1_string(method, cprefix, coll, req))
            add(data_method(method, cprefix, coll, writes, req, form, vecs,
                            None))
        decls.append("")
    for method, cprefix, coll, writes, req in VARN_METHODS:
        for ctype, _ in TYPES + [(None, None)]:
            add(data_method(method, cprefix, coll, writes, req, "varn", [],
                            ctype, varn=True))
        decls.append("")
    for name, coll in (("putVard", ""), ("putVard_all", "_all"),
                       ("getVard", ""), ("getVard_all", "_all")):
        const = "const " if name.startswith("put") else ""
        cp = "put" if name.startswith("put") else "get"
        sig = ("%s(MPI_Datatype filetype, %svoid *buf, MPI_Offset bufcount, "
               "MPI_Datatype buftype) const" % (name, const))
        call = ("ncmpi_%s_vard%s(groupId, myId, filetype, buf, bufcount, "
                "buftype)" % (cp, coll))
        add(("  void %s;" % sig,
             "void NcmpiVar::%s {\n  ncmpiCheckDataMode(groupId);\n  %s\n}\n"
             % (sig, CHECK.format(call=call))))
    return decls, defns


def put_att(cls, att_cls, varid):
    """putAtt's typed overloads of NcmpiGroup or NcmpiVar."""
    decls, defns = [], []
    owner = "myId" if cls == "NcmpiGroup" else "groupId"
    base = ("  NcmpiGroupAtt putAtt(%s) const;" if cls == "NcmpiGroup"
            else "  NcmpiVarAtt putAtt(%s) const;")
    entries = [(t, False) for t in ATT_SCALARS] + \
              [(t, True) for t in ATT_ARRAYS] + [("void", True)]
    for ctype, array in entries:
        if array:
            params = ("const std::string &name, const NcmpiType &type, "
                      "MPI_Offset len, const %s *values" % ctype)
            data, n = "values", "len"
        else:
            params = ("const std::string &name, const NcmpiType &type, "
                      "%s value" % ctype)
            data, n = "&value", "1"
        fn = "ncmpi_put_att" if ctype == "void" else \
            "ncmpi_put_att_" + SUFFIX[ctype]
        call = "%s(%s, %s, name.c_str(), type.getId(), %s, %s)" % (
            fn, owner, varid, n, data)
        decls.append(base % params)
        defns.append("%s %s::putAtt(%s) const {\n"
                     "  ncmpiCheckDefineMode(%s);\n  %s\n"
                     "  return getAtt(name);\n}\n"
                     % (att_cls, cls, params, owner, CHECK.format(call=call)))
    return decls, defns


def att_getvalues():
    decls, defns = [], []
    for ctype, suffix in TYPES:
        decls.append("  void getValues(%s *dataValues) const;" % ctype)
        call = ("ncmpi_get_att_%s(groupId, varId, myName.c_str(), dataValues)"
                % suffix)
        defns.append("void NcmpiAtt::getValues(%s *dataValues) const {\n  %s\n"
                     "}\n" % (ctype, CHECK.format(call=call)))
    return decls, defns


def exceptions():
    decls, defns, cases = [], [], []
    for cls, code in EXCEPTIONS:
        decls.append("class %s : public NcmpiException {\n public:\n"
                     "  %s(const char *complaint, const char *file, int line);"
                     "\n};" % (cls, cls))
        defns.append("%s::%s(const char *complaint, const char *file, "
                     "int line)\n    : NcmpiException(%s, complaint, file, "
                     "line) {}\n" % (cls, cls, code or "0"))
        if code:
            cases.append("    case %s:\n      throw %s(msg, file, line);"
                         % (code, cls))
    switch = ("void throwStatus(int status, const char *msg, const char *file,"
              " int line) {\n  switch (status) {\n%s\n    default:\n"
              "      throw NcmpiException(status, msg, file, line);\n  }\n}\n"
              % "\n".join(cases))
    return decls, defns, switch


def atomic_types():
    decls, defns = [], []
    for cls, obj, code in ATOMIC:
        extra = "  int sizeoff();\n" if cls == "NcmpiByte" else ""
        decls.append("class %s : public NcmpiType {\n public:\n"
                     "  bool operator==(const %s &rhs);\n%s  ~%s();\n  %s();\n"
                     "};\nextern %s %s;\n" % (cls, cls, extra, cls, cls, cls,
                                             obj))
        defns.append("%s %s;\n%s::%s() : NcmpiType(%s) {}\n%s::~%s() {}\n"
                     "bool %s::operator==(const %s &rhs) { return myId == "
                     "rhs.myId; }\n" % (cls, obj, cls, cls, code, cls, cls,
                                        cls, cls))
    defns.append("int NcmpiByte::sizeoff() { return sizeof(signed char); }\n")
    return decls, defns


def netcdf4():
    decls, defns = [], []
    for name, params in NETCDF4:
        decls.append("extern int %s(%s);" % (name, params))
        defns.append("int %s(%s) {\n  return notInClassic(\"%s\");\n}\n"
                     % (name, params, name))
    return decls, defns


def main():
    template, outdir = sys.argv[1], sys.argv[2]
    os.makedirs(outdir, exist_ok=True)
    vd, vdef = var_data()
    gd, gdef = put_att("NcmpiGroup", "NcmpiGroupAtt", "NC_GLOBAL")
    pd, pdef = put_att("NcmpiVar", "NcmpiVarAtt", "myId")
    ad, adef = att_getvalues()
    ed, edef, switch = exceptions()
    td, tdef = atomic_types()
    nd, ndef = netcdf4()
    with open(template) as f:
        text = f.read()
    for marker, lines in (("@VAR_DATA@", vd), ("@GROUP_PUTATT@", gd),
                          ("@VAR_PUTATT@", pd), ("@ATT_GETVALUES@", ad),
                          ("@EXCEPTIONS@", ed), ("@ATOMIC_TYPES@", td),
                          ("@NETCDF4_DECLS@", nd)):
        if marker not in text:
            sys.exit("gen_cxx.py: %s missing from %s" % (marker, template))
        text = text.replace(marker, "\n".join(lines))
    with open(os.path.join(outdir, "pnetcdf"), "w") as f:
        f.write(text)
    with open(os.path.join(outdir, "ncmpi_generated.cpp"), "w") as f:
        f.write("// Written by cxx/gen_cxx.py from its tables; do not edit.\n"
                "#include \"cxx_internal.h\"\n\n"
                "// The netCDF-4 calls keep PnetCDF's parameter names and use"
                " none.\n#pragma GCC diagnostic ignored "
                "\"-Wunused-parameter\"\n\n")
        f.write("\n".join(ndef))
        f.write("\nnamespace PnetCDF {\n\n")
        f.write("\n".join(tdef + vdef + gdef + pdef + adef))
        f.write("\nnamespace exceptions {\n\n")
        f.write("\n".join(edef))
        f.write("\n%s\n}  // namespace exceptions\n}  // namespace PnetCDF\n"
                % switch)


if __name__ == "__main__":
    main()
