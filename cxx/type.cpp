// type.cpp -- NcmpiType and the user-defined type classes.  Classic files
// hold only the atomic types; queries on any other go to the netCDF-4
// calls, which refuse them.
#include "cxx_internal.h"

using namespace PnetCDF::exceptions;

namespace PnetCDF {

// Types have no order PnetCDF defines: every type sorts as equal, so a
// set of them holds one.
bool operator<(const NcmpiType &, const NcmpiType &) { return false; }
bool operator>(const NcmpiType &, const NcmpiType &) { return true; }

struct AtomicName {
  nc_type id;
  const char *name;
  const char *className;
};

static const AtomicName kAtomic[] = {
    {NC_BYTE, "byte", "ncmpi_BYTE"},       {NC_UBYTE, "ubyte", "ncmpi_UBYTE"},
    {NC_CHAR, "char", "ncmpi_CHAR"},       {NC_SHORT, "short", "ncmpi_SHORT"},
    {NC_USHORT, "ushort", "ncmpi_USHORT"}, {NC_INT, "int", "ncmpi_INT"},
    {NC_UINT, "uint", "ncmpi_UINT"},       {NC_INT64, "int64", "ncmpi_INT64"},
    {NC_UINT64, "uint64", "ncmpi_UINT64"}, {NC_FLOAT, "float", "ncmpi_FLOAT"},
    {NC_DOUBLE, "double", "ncmpi_DOUBLE"},
};
static const size_t kNumAtomic = sizeof kAtomic / sizeof kAtomic[0];

static const AtomicName *findAtomic(nc_type id) {
  for (size_t i = 0; i < kNumAtomic; i++)
    if (kAtomic[i].id == id) return &kAtomic[i];
  return NULL;
}

NcmpiType atomicType(nc_type id) {
  switch (id) {
    case NC_BYTE: return ncmpiByte;
    case NC_UBYTE: return ncmpiUbyte;
    case NC_CHAR: return ncmpiChar;
    case NC_SHORT: return ncmpiShort;
    case NC_USHORT: return ncmpiUshort;
    case NC_INT: return ncmpiInt;
    case NC_UINT: return ncmpiUint;
    case NC_INT64: return ncmpiInt64;
    case NC_UINT64: return ncmpiUint64;
    case NC_FLOAT: return ncmpiFloat;
    case NC_DOUBLE: return ncmpiDouble;
    default: return NcmpiType();
  }
}

NcmpiType::NcmpiType() : nullObject(true), myId(-1), groupId(-1) {}

NcmpiType::NcmpiType(const NcmpiGroup &grp, const std::string &name)
    : nullObject(false), myId(-1), groupId(grp.getId()) {
  myId = grp.getType(name, NcmpiGroup::ParentsAndCurrent).getId();
}

NcmpiType::NcmpiType(const NcmpiGroup &grp, nc_type id)
    : nullObject(false), myId(id), groupId(grp.getId()) {}

NcmpiType::NcmpiType(nc_type id) : nullObject(false), myId(id), groupId(0) {}

NcmpiType::NcmpiType(const NcmpiType &rhs)
    : nullObject(rhs.nullObject), myId(rhs.myId), groupId(rhs.groupId) {}

NcmpiType &NcmpiType::operator=(const NcmpiType &rhs) {
  nullObject = rhs.nullObject;
  myId = rhs.myId;
  groupId = rhs.groupId;
  return *this;
}

bool NcmpiType::operator==(const NcmpiType &rhs) const {
  if (nullObject) return rhs.nullObject;
  return groupId == rhs.groupId && myId == rhs.myId;
}

bool NcmpiType::operator!=(const NcmpiType &rhs) const {
  return !(*this == rhs);
}

NcmpiGroup NcmpiType::getParentGroup() const {
  return groupId == 0 ? NcmpiGroup() : NcmpiGroup(groupId);
}

std::string NcmpiType::getName() const {
  const AtomicName *a = findAtomic(myId);
  return a ? a->name : "";
}

MPI_Offset NcmpiType::getSize() const {
  MPI_Offset size;
  NCMPI_CHECK(ncmpi_inq_type(groupId, myId, NULL, &size));
  return size;
}

NcmpiType::ncmpiType NcmpiType::getTypeClass() const {
  if (findAtomic(myId)) return static_cast<ncmpiType>(myId);
  int typeClass;
  NCMPI_CHECK(ncmpi_inq_user_type(groupId, myId, NULL, NULL, NULL, NULL,
                                  &typeClass));
  return static_cast<ncmpiType>(typeClass);
}

std::string NcmpiType::getTypeClassName() const {
  ncmpiType typeClass = getTypeClass();
  const AtomicName *a = findAtomic(typeClass);
  if (a) return a->className;
  switch (typeClass) {
    case ncmpi_STRING: return "ncmpi_STRING";
    case ncmpi_VLEN: return "ncmpi_VLEN";
    case ncmpi_OPAQUE: return "ncmpi_OPAQUE";
    case ncmpi_ENUM: return "ncmpi_ENUM";
    case ncmpi_COMPOUND: return "ncmpi_COMPOUND";
    default: return "Dummy";
  }
}

// ---------------------------------------------------------- user types
// Each refuses, as PnetCDF's does, a type of another class.

static void requireClass(const NcmpiType &t, int typeClass, const char *msg) {
  if (t.getTypeClass() != typeClass) throw NcmpiException(msg, __FILE__, __LINE__);
}

NcmpiEnumType::NcmpiEnumType() : NcmpiType() {}
NcmpiEnumType::NcmpiEnumType(const NcmpiGroup &grp, const std::string &name)
    : NcmpiType(grp, name) {}
NcmpiEnumType::NcmpiEnumType(const NcmpiEnumType &rhs) : NcmpiType(rhs) {}
NcmpiEnumType::NcmpiEnumType(const NcmpiType &t) : NcmpiType(t) {
  requireClass(*this, NC_ENUM, "The NcmpiType object must be an enum type.");
}
NcmpiEnumType &NcmpiEnumType::operator=(const NcmpiEnumType &rhs) {
  NcmpiType::operator=(rhs);
  return *this;
}
NcmpiEnumType &NcmpiEnumType::operator=(const NcmpiType &rhs) {
  if (&rhs != this) {
    requireClass(*this, NC_ENUM, "The NcmpiType object must be an enum type.");
    NcmpiType::operator=(rhs);
  }
  return *this;
}
NcmpiType NcmpiEnumType::getBaseType() const {
  char name[NC_MAX_NAME + 1];
  nc_type base;
  NCMPI_CHECK(ncmpi_inq_enum(groupId, myId, name, &base, NULL, NULL));
  NcmpiType t = atomicType(base);
  return t.isNull() ? NcmpiType(getParentGroup(), base) : t;
}
MPI_Offset NcmpiEnumType::getMemberCount() const {
  char name[NC_MAX_NAME + 1];
  MPI_Offset n;
  NCMPI_CHECK(ncmpi_inq_enum(groupId, myId, name, NULL, NULL, &n));
  return n;
}
std::string NcmpiEnumType::getMemberNameFromIndex(int index) const {
  char name[NC_MAX_NAME + 1];
  NCMPI_CHECK(ncmpi_inq_enum_member(groupId, myId, index, name, NULL));
  return name;
}

NcmpiVlenType::NcmpiVlenType() : NcmpiType() {}
NcmpiVlenType::NcmpiVlenType(const NcmpiGroup &grp, const std::string &name)
    : NcmpiType(grp, name) {}
NcmpiVlenType::NcmpiVlenType(const NcmpiVlenType &rhs) : NcmpiType(rhs) {}
NcmpiVlenType::NcmpiVlenType(const NcmpiType &t) : NcmpiType(t) {
  requireClass(*this, NC_VLEN, "The NcmpiType object must be a vlen type.");
}
NcmpiVlenType &NcmpiVlenType::operator=(const NcmpiVlenType &rhs) {
  NcmpiType::operator=(rhs);
  return *this;
}
NcmpiVlenType &NcmpiVlenType::operator=(const NcmpiType &rhs) {
  if (&rhs != this) {
    requireClass(*this, NC_VLEN, "The NcmpiType object must be a vlen type.");
    NcmpiType::operator=(rhs);
  }
  return *this;
}
NcmpiType NcmpiVlenType::getBaseType() const {
  char name[NC_MAX_NAME + 1];
  MPI_Offset size;
  nc_type base;
  NCMPI_CHECK(ncmpi_inq_vlen(groupId, myId, name, &size, &base));
  NcmpiType t = atomicType(base);
  return t.isNull() ? NcmpiType(getParentGroup(), base) : t;
}

NcmpiOpaqueType::NcmpiOpaqueType() : NcmpiType() {}
NcmpiOpaqueType::NcmpiOpaqueType(const NcmpiGroup &grp,
                                 const std::string &name)
    : NcmpiType(grp, name) {}
NcmpiOpaqueType::NcmpiOpaqueType(const NcmpiOpaqueType &rhs)
    : NcmpiType(rhs) {}
NcmpiOpaqueType::NcmpiOpaqueType(const NcmpiType &t) : NcmpiType(t) {
  requireClass(*this, NC_OPAQUE,
               "The NcmpiType object must be an opaque type.");
}
NcmpiOpaqueType &NcmpiOpaqueType::operator=(const NcmpiOpaqueType &rhs) {
  NcmpiType::operator=(rhs);
  return *this;
}
NcmpiOpaqueType &NcmpiOpaqueType::operator=(const NcmpiType &rhs) {
  if (&rhs != this) {
    requireClass(*this, NC_OPAQUE,
                 "The NcmpiType object must be an opaque type.");
    NcmpiType::operator=(rhs);
  }
  return *this;
}
MPI_Offset NcmpiOpaqueType::getTypeSize() const {
  MPI_Offset size;
  NCMPI_CHECK(ncmpi_inq_opaque(groupId, myId, NULL, &size));
  return size;
}

NcmpiCompoundType::NcmpiCompoundType() : NcmpiType() {}
NcmpiCompoundType::NcmpiCompoundType(const NcmpiGroup &grp,
                                     const std::string &name)
    : NcmpiType(grp, name) {}
NcmpiCompoundType::NcmpiCompoundType(const NcmpiCompoundType &rhs)
    : NcmpiType(rhs) {}
NcmpiCompoundType::NcmpiCompoundType(const NcmpiType &t) : NcmpiType(t) {}
NcmpiCompoundType &NcmpiCompoundType::operator=(
    const NcmpiCompoundType &rhs) {
  NcmpiType::operator=(rhs);
  return *this;
}
NcmpiCompoundType &NcmpiCompoundType::operator=(const NcmpiType &rhs) {
  if (&rhs != this) {
    requireClass(*this, NC_COMPOUND,
                 "The NcmpiType object must be a compound type.");
    NcmpiType::operator=(rhs);
  }
  return *this;
}
bool NcmpiCompoundType::operator==(const NcmpiCompoundType &rhs) {
  if (nullObject) return rhs.nullObject;
  return myId == rhs.myId && groupId == rhs.groupId;
}
void NcmpiCompoundType::addMember(const std::string &memName,
                                  const NcmpiType &memberType,
                                  MPI_Offset offset) {
  NCMPI_CHECK(ncmpi_insert_compound(groupId, myId, memName.c_str(), offset,
                                    memberType.getId()));
}
void NcmpiCompoundType::addMember(const std::string &memName,
                                  const NcmpiType &memberType,
                                  MPI_Offset offset,
                                  const std::vector<int> &shape) {
  if (shape.empty()) {
    addMember(memName, memberType, offset);
    return;
  }
  NCMPI_CHECK(ncmpi_insert_array_compound(
      groupId, myId, memName.c_str(), offset, memberType.getId(),
      static_cast<int>(shape.size()), shape.data()));
}
MPI_Offset NcmpiCompoundType::getMemberCount() const {
  MPI_Offset n;
  NCMPI_CHECK(ncmpi_inq_compound_nfields(groupId, myId, &n));
  return n;
}
NcmpiType NcmpiCompoundType::getMember(int memberIndex) const {
  nc_type id;
  NCMPI_CHECK(ncmpi_inq_compound_fieldtype(groupId, myId, memberIndex, &id));
  NcmpiType t = atomicType(id);
  return t.isNull() ? NcmpiType(getParentGroup(), id) : t;
}
MPI_Offset NcmpiCompoundType::getMemberOffset(const int index) const {
  MPI_Offset offset;
  NCMPI_CHECK(ncmpi_inq_compound_fieldoffset(groupId, myId, index, &offset));
  return offset;
}
int NcmpiCompoundType::getMemberDimCount(int memberIndex) const {
  int ndims;
  NCMPI_CHECK(ncmpi_inq_compound_fieldndims(groupId, myId, memberIndex,
                                            &ndims));
  return ndims;
}
std::vector<int> NcmpiCompoundType::getMemberShape(int memberIndex) const {
  std::vector<int> shape(getMemberDimCount(memberIndex));
  if (!shape.empty())
    NCMPI_CHECK(ncmpi_inq_compound_fielddim_sizes(groupId, myId, memberIndex,
                                                  shape.data()));
  return shape;
}

}  // namespace PnetCDF
