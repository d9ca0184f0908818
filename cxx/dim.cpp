// dim.cpp -- NcmpiDim: a dimension id and the file it belongs to.
#include "cxx_internal.h"

namespace PnetCDF {

bool operator<(const NcmpiDim &, const NcmpiDim &) { return false; }
bool operator>(const NcmpiDim &, const NcmpiDim &) { return true; }

NcmpiDim::NcmpiDim() : nullObject(true), myId(-1), groupId(-1) {}
NcmpiDim::NcmpiDim(const NcmpiGroup &grp, int dimId)
    : nullObject(false), myId(dimId), groupId(grp.getId()) {}
NcmpiDim::NcmpiDim(const NcmpiDim &rhs)
    : nullObject(rhs.nullObject), myId(rhs.myId), groupId(rhs.groupId) {}

NcmpiDim &NcmpiDim::operator=(const NcmpiDim &rhs) {
  nullObject = rhs.nullObject;
  myId = rhs.myId;
  groupId = rhs.groupId;
  return *this;
}

bool NcmpiDim::operator==(const NcmpiDim &rhs) const {
  if (nullObject) return rhs.nullObject;
  return myId == rhs.myId && groupId == rhs.groupId;
}
bool NcmpiDim::operator!=(const NcmpiDim &rhs) const {
  return !(*this == rhs);
}

NcmpiGroup NcmpiDim::getParentGroup() const { return NcmpiGroup(groupId); }

const std::string NcmpiDim::getName() const {
  char name[NC_MAX_NAME + 1];
  NCMPI_CHECK(ncmpi_inq_dimname(groupId, myId, name));
  return name;
}

bool NcmpiDim::isUnlimited() const {
  int unlimited;
  NCMPI_CHECK(ncmpi_inq_unlimdim(groupId, &unlimited));
  return myId == unlimited;
}

MPI_Offset NcmpiDim::getSize() const {
  MPI_Offset len;
  NCMPI_CHECK(ncmpi_inq_dimlen(groupId, myId, &len));
  return len;
}

void NcmpiDim::rename(const std::string &newName) {
  NCMPI_CHECK(ncmpi_rename_dim(groupId, myId, newName.c_str()));
}

}  // namespace PnetCDF
