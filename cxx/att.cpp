// att.cpp -- NcmpiAtt, NcmpiGroupAtt and NcmpiVarAtt: an attribute named
// on a variable (or NC_GLOBAL) of a file.  The typed getValues are
// generated (gen_cxx.py).
#include <vector>

#include "cxx_internal.h"

namespace PnetCDF {

bool operator<(const NcmpiGroupAtt &, const NcmpiGroupAtt &) { return false; }
bool operator>(const NcmpiGroupAtt &, const NcmpiGroupAtt &) { return true; }
bool operator<(const NcmpiVarAtt &, const NcmpiVarAtt &) { return false; }
bool operator>(const NcmpiVarAtt &, const NcmpiVarAtt &) { return true; }

NcmpiAtt::~NcmpiAtt() {}
NcmpiAtt::NcmpiAtt() : nullObject(true), groupId(-1), varId(-1) {}
NcmpiAtt::NcmpiAtt(bool isNull) : nullObject(isNull), groupId(-1), varId(-1) {}
NcmpiAtt::NcmpiAtt(const NcmpiAtt &rhs)
    : nullObject(rhs.nullObject),
      myName(rhs.myName),
      groupId(rhs.groupId),
      varId(rhs.varId) {}

NcmpiAtt &NcmpiAtt::operator=(const NcmpiAtt &rhs) {
  nullObject = rhs.nullObject;
  myName = rhs.myName;
  groupId = rhs.groupId;
  varId = rhs.varId;
  return *this;
}

bool NcmpiAtt::operator==(const NcmpiAtt &rhs) const {
  if (nullObject) return rhs.nullObject;
  return myName == rhs.myName && groupId == rhs.groupId &&
         varId == rhs.varId;
}
bool NcmpiAtt::operator!=(const NcmpiAtt &rhs) const {
  return !(*this == rhs);
}

NcmpiGroup NcmpiAtt::getParentGroup() const { return NcmpiGroup(groupId); }

NcmpiType NcmpiAtt::getType() const {
  nc_type type;
  NCMPI_CHECK(ncmpi_inq_atttype(groupId, varId, myName.c_str(), &type));
  if (type <= NC_UINT64) return NcmpiType(type);
  std::multimap<std::string, NcmpiType> types =
      getParentGroup().getTypes(NcmpiGroup::ParentsAndCurrent);
  std::multimap<std::string, NcmpiType>::iterator it;
  for (it = types.begin(); it != types.end(); ++it)
    if (it->second.getId() == type) return it->second;
  return NcmpiType();
}

MPI_Offset NcmpiAtt::getAttLength() const {
  MPI_Offset len;
  NCMPI_CHECK(ncmpi_inq_attlen(groupId, varId, myName.c_str(), &len));
  return len;
}

void NcmpiAtt::getValues(std::string &dataValues) const {
  std::vector<char> text(getAttLength() + 1);
  NCMPI_CHECK(ncmpi_get_att_text(groupId, varId, myName.c_str(), text.data()));
  dataValues.assign(text.data(), text.size() - 1);
}

void NcmpiAtt::getValues(void *dataValues) const {
  NCMPI_CHECK(ncmpi_get_att(groupId, varId, myName.c_str(), dataValues));
}

// Arrays of strings are NC_STRING attributes, which classic files cannot
// hold: the C library's answer for the type is NC_EBADTYPE.
void NcmpiAtt::getValues(char **) const {
  getType();
  NCMPI_CHECK(NC_EBADTYPE);
}

NcmpiGroupAtt::NcmpiGroupAtt() : NcmpiAtt() {}
NcmpiGroupAtt::NcmpiGroupAtt(const NcmpiGroupAtt &rhs) : NcmpiAtt(rhs) {}
NcmpiGroupAtt::NcmpiGroupAtt(const NcmpiGroup &grp, const int index)
    : NcmpiAtt(false) {
  groupId = grp.getId();
  varId = NC_GLOBAL;
  char name[NC_MAX_NAME + 1];
  NCMPI_CHECK(ncmpi_inq_attname(groupId, varId, index, name));
  myName = name;
}
NcmpiGroupAtt &NcmpiGroupAtt::operator=(const NcmpiGroupAtt &rhs) {
  NcmpiAtt::operator=(rhs);
  return *this;
}
bool NcmpiGroupAtt::operator==(const NcmpiGroupAtt &rhs) {
  if (nullObject) return rhs.isNull();
  return myName == rhs.myName && groupId == rhs.groupId;
}

NcmpiVarAtt::NcmpiVarAtt() : NcmpiAtt() {}
NcmpiVarAtt::NcmpiVarAtt(const NcmpiVarAtt &rhs) : NcmpiAtt(rhs) {}
NcmpiVarAtt::NcmpiVarAtt(const NcmpiGroup &grp, const NcmpiVar &ncmpiVar,
                         const int index)
    : NcmpiAtt(false) {
  groupId = grp.getId();
  varId = ncmpiVar.getId();
  char name[NC_MAX_NAME + 1];
  NCMPI_CHECK(ncmpi_inq_attname(groupId, varId, index, name));
  myName = name;
}
NcmpiVarAtt &NcmpiVarAtt::operator=(const NcmpiVarAtt &rhs) {
  NcmpiAtt::operator=(rhs);
  return *this;
}
NcmpiVar NcmpiVarAtt::getParentVar() const {
  return NcmpiVar(NcmpiGroup(groupId), varId);
}

}  // namespace PnetCDF
