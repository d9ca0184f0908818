// cxx_internal.h -- what the C++ binding's sources share.
#ifndef NCPARIO_CXX_INTERNAL_H
#define NCPARIO_CXX_INTERNAL_H

#include "pnetcdf"

// What the binding's files share but a program must not see.
#define NCP_CXX_HIDDEN __attribute__((visibility("hidden")))

// The netCDF-4 calls' answer in a classic-only library: the message on
// standard output and NC_EINVAL, as PnetCDF's gives.
NCP_CXX_HIDDEN int notInClassic(const char *name);

namespace PnetCDF {

// The atomic type object of an nc_type, or a null type for any other.
NCP_CXX_HIDDEN NcmpiType atomicType(nc_type id);

namespace exceptions {
// Throws the exception class of status (never returns).
NCP_CXX_HIDDEN void throwStatus(int status, const char *msg, const char *file, int line);
}  // namespace exceptions

// Which parts of a NcmpiGroup::Location a query covers.
inline bool coversCurrent(NcmpiGroup::Location l) {
  return l == NcmpiGroup::Current || l == NcmpiGroup::ParentsAndCurrent ||
         l == NcmpiGroup::ChildrenAndCurrent || l == NcmpiGroup::All;
}
inline bool coversParents(NcmpiGroup::Location l) {
  return l == NcmpiGroup::Parents || l == NcmpiGroup::ParentsAndCurrent ||
         l == NcmpiGroup::All;
}
inline bool coversChildren(NcmpiGroup::Location l) {
  return l == NcmpiGroup::Children || l == NcmpiGroup::ChildrenAndCurrent ||
         l == NcmpiGroup::All;
}

}  // namespace PnetCDF

#define NCMPI_CHECK(call) PnetCDF::ncmpiCheck((call), __FILE__, __LINE__)

#endif
