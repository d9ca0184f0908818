// group.cpp -- NcmpiGroup.  A classic file has one group, the root: the
// queries that reach other groups go through the netCDF-4 calls, which
// refuse them, so they throw NcInvalidArg where PnetCDF's do.
#include "cxx_internal.h"

using namespace PnetCDF::exceptions;

namespace PnetCDF {

bool operator<(const NcmpiGroup &, const NcmpiGroup &) { return false; }
bool operator>(const NcmpiGroup &, const NcmpiGroup &) { return true; }

NcmpiGroup::NcmpiGroup() : nullObject(true), myId(-1) {}
NcmpiGroup::NcmpiGroup(int groupId) : nullObject(false), myId(groupId) {}
NcmpiGroup::NcmpiGroup(const NcmpiGroup &rhs)
    : nullObject(rhs.nullObject), myId(rhs.myId) {}
NcmpiGroup::~NcmpiGroup() {}

NcmpiGroup &NcmpiGroup::operator=(const NcmpiGroup &rhs) {
  nullObject = rhs.nullObject;
  myId = rhs.myId;
  return *this;
}

bool NcmpiGroup::operator==(const NcmpiGroup &rhs) const {
  if (nullObject) return rhs.nullObject;
  return myId == rhs.myId;
}

bool NcmpiGroup::operator!=(const NcmpiGroup &rhs) const {
  return !(*this == rhs);
}

static void requireGroup(const NcmpiGroup &g, const char *method) {
  if (g.isNull()) {
    std::string msg = std::string("Attempt to invoke NcmpiGroup::") + method +
                      " on a Null group";
    throw NcNullGrp(msg.c_str(), __FILE__, __LINE__);
  }
}

// --------------------------------------------------------------- groups

std::string NcmpiGroup::getName(bool fullName) const {
  requireGroup(*this, "getName");
  if (!fullName) return "/";
  MPI_Offset len;
  NCMPI_CHECK(ncmpi_inq_grpname_len(myId, &len));
  std::vector<char> name(len + 1);
  NCMPI_CHECK(ncmpi_inq_grpname_full(myId, &len, name.data()));
  return name.data();
}

bool NcmpiGroup::isRootGroup() const { return getName() == "/"; }

NcmpiGroup NcmpiGroup::getParentGroup() const {
  requireGroup(*this, "getParentGroup");
  int parent;
  try {
    NCMPI_CHECK(ncmpi_inq_grp_parent(myId, &parent));
  } catch (NcEnoGrp &) {
    return NcmpiGroup();
  }
  return NcmpiGroup(parent);
}

int NcmpiGroup::getId() const {
  requireGroup(*this, "getId");
  return myId;
}

static bool hasChildren(NcmpiGroup::GroupLocation l) {
  return l == NcmpiGroup::ChildrenGrps || l == NcmpiGroup::AllChildrenGrps ||
         l == NcmpiGroup::AllGrps;
}
static bool hasParents(NcmpiGroup::GroupLocation l) {
  return l == NcmpiGroup::ParentsGrps ||
         l == NcmpiGroup::ParentsAndCurrentGrps || l == NcmpiGroup::AllGrps;
}
static bool hasGrandchildren(NcmpiGroup::GroupLocation l) {
  return l == NcmpiGroup::ChildrenOfChildrenGrps ||
         l == NcmpiGroup::AllChildrenGrps || l == NcmpiGroup::AllGrps;
}
static bool hasSelf(NcmpiGroup::GroupLocation l) {
  return l == NcmpiGroup::ParentsAndCurrentGrps || l == NcmpiGroup::AllGrps;
}

int NcmpiGroup::getGroupCount(GroupLocation location) const {
  requireGroup(*this, "getGroupCount");
  int n = hasSelf(location) ? 1 : 0;
  if (hasChildren(location)) {
    int children;
    NCMPI_CHECK(ncmpi_inq_grps(myId, &children, NULL));
    n += children;
  }
  if (hasParents(location)) n += (int)getGroups(ParentsGrps).size();
  if (hasGrandchildren(location))
    n += (int)getGroups(ChildrenOfChildrenGrps).size();
  return n;
}

std::multimap<std::string, NcmpiGroup> NcmpiGroup::getGroups(
    GroupLocation location) const {
  requireGroup(*this, "getGroups");
  typedef std::multimap<std::string, NcmpiGroup> Groups;
  Groups groups;
  if (hasSelf(location)) groups.insert(std::make_pair(getName(), *this));
  if (hasChildren(location)) {
    int n = getGroupCount();
    std::vector<int> ids(n);
    if (n) NCMPI_CHECK(ncmpi_inq_grps(myId, NULL, ids.data()));
    for (int i = 0; i < n; i++) {
      NcmpiGroup child(ids[i]);
      groups.insert(std::make_pair(child.getName(), child));
    }
  }
  if (hasParents(location) && !isRootGroup()) {
    for (NcmpiGroup g = getParentGroup(); !g.isNull(); g = g.getParentGroup())
      groups.insert(std::make_pair(g.getName(), g));
  }
  if (hasGrandchildren(location)) {
    Groups children = getGroups(ChildrenGrps);
    for (Groups::iterator it = children.begin(); it != children.end(); ++it) {
      Groups below = it->second.getGroups(AllChildrenGrps);
      groups.insert(below.begin(), below.end());
    }
  }
  return groups;
}

// The members of a multimap under one name, as a set.
template <class T>
static std::set<T> named(const std::multimap<std::string, T> &all,
                         const std::string &name) {
  std::set<T> found;
  typedef typename std::multimap<std::string, T>::const_iterator It;
  std::pair<It, It> range = all.equal_range(name);
  for (It it = range.first; it != range.second; ++it) found.insert(it->second);
  return found;
}

// The first member under one name, or a null object.
template <class T>
static T first(const std::multimap<std::string, T> &all,
               const std::string &name) {
  typename std::multimap<std::string, T>::const_iterator it = all.find(name);
  return it == all.end() ? T() : it->second;
}

std::set<NcmpiGroup> NcmpiGroup::getGroups(const std::string &name,
                                           GroupLocation location) const {
  requireGroup(*this, "getGroups");
  return named(getGroups(location), name);
}

NcmpiGroup NcmpiGroup::getGroup(const std::string &name,
                                GroupLocation location) const {
  requireGroup(*this, "getGroup");
  return first(getGroups(location), name);
}

NcmpiGroup NcmpiGroup::addGroup(const std::string &name) const {
  requireGroup(*this, "addGroup");
  int id;
  NCMPI_CHECK(ncmpi_def_grp(myId, name.c_str(), &id));
  return NcmpiGroup(id);
}

// ------------------------------------------------------ variable counts
// A count over a Location: this group, then its parents (through
// getParentGroup, which the netCDF-4 calls refuse), then its children.

typedef int (*CountFn)(int ncid, int *n);

static int countOver(const NcmpiGroup &g, NcmpiGroup::Location location,
                     CountFn count) {
  int total = 0;
  if (coversCurrent(location) && !g.isNull())
    NCMPI_CHECK(count(g.getId(), &total));
  if (coversParents(location)) {
    for (NcmpiGroup p = g.getParentGroup(); !p.isNull();
         p = p.getParentGroup()) {
      int n;
      NCMPI_CHECK(count(p.getId(), &n));
      total += n;
    }
  }
  if (coversChildren(location)) {
    std::multimap<std::string, NcmpiGroup> children = g.getGroups();
    std::multimap<std::string, NcmpiGroup>::iterator it;
    for (it = children.begin(); it != children.end(); ++it)
      total += countOver(it->second, NcmpiGroup::ChildrenAndCurrent, count);
  }
  return total;
}

int NcmpiGroup::getVarCount(Location location) const {
  return countOver(*this, location, ncmpi_inq_nvars);
}
int NcmpiGroup::getRecVarCount(Location location) const {
  return countOver(*this, location, ncmpi_inq_num_rec_vars);
}
int NcmpiGroup::getFixVarCount(Location location) const {
  return countOver(*this, location, ncmpi_inq_num_fix_vars);
}
int NcmpiGroup::getAttCount(Location location) const {
  return countOver(*this, location, ncmpi_inq_natts);
}

MPI_Offset NcmpiGroup::getRecSize(Location location) const {
  MPI_Offset size = 0;
  if (coversCurrent(location) && !isNull())
    NCMPI_CHECK(ncmpi_inq_recsize(myId, &size));
  return size;
}

// ------------------------------------------------------------ variables

// A Location's members by name: this group's, the i-th of `count` made by
// `make`, then its parents' (through getParentGroup, which the netCDF-4
// calls refuse) and its children's, each group's found by `query`.
template <class T>
static std::multimap<std::string, T> membersOver(
    const NcmpiGroup &g, NcmpiGroup::Location location,
    int (NcmpiGroup::*count)(NcmpiGroup::Location) const,
    T (*make)(const NcmpiGroup &, int),
    std::multimap<std::string, T> (*query)(const NcmpiGroup &,
                                           NcmpiGroup::Location)) {
  typedef std::multimap<std::string, T> Members;
  Members found;
  if (coversCurrent(location) && !g.isNull()) {
    int n = (g.*count)(NcmpiGroup::Current);
    for (int i = 0; i < n; i++) {
      T m = make(g, i);
      found.insert(std::make_pair(m.getName(), m));
    }
  }
  if (coversParents(location)) {
    for (NcmpiGroup p = g.getParentGroup(); !p.isNull();
         p = p.getParentGroup()) {
      Members up = query(p, NcmpiGroup::Current);
      found.insert(up.begin(), up.end());
    }
  }
  if (coversChildren(location)) {
    std::multimap<std::string, NcmpiGroup> children = g.getGroups();
    std::multimap<std::string, NcmpiGroup>::iterator it;
    for (it = children.begin(); it != children.end(); ++it) {
      Members below = query(it->second, NcmpiGroup::ChildrenAndCurrent);
      found.insert(below.begin(), below.end());
    }
  }
  return found;
}

static NcmpiVar varAt(const NcmpiGroup &g, int i) { return NcmpiVar(g, i); }
static std::multimap<std::string, NcmpiVar> varsOf(
    const NcmpiGroup &g, NcmpiGroup::Location location) {
  return g.getVars(location);
}

std::multimap<std::string, NcmpiVar> NcmpiGroup::getVars(
    Location location) const {
  return membersOver(*this, location, &NcmpiGroup::getVarCount, varAt,
                     varsOf);
}

std::set<NcmpiVar> NcmpiGroup::getVars(const std::string &name,
                                       Location location) const {
  return named(getVars(location), name);
}

NcmpiVar NcmpiGroup::getVar(const std::string &name,
                            Location location) const {
  return first(getVars(location), name);
}

// A variable's type and dimensions must be known in this group (or, for
// PnetCDF, a parent): looked up by name, as PnetCDF does.
static NcmpiType knownType(const NcmpiGroup &g, const NcmpiType &t) {
  if (t.isNull())
    throw NcNullType("Attempt to invoke NcmpiGroup::addVar with a Null "
                     "NcmpiType object", __FILE__, __LINE__);
  NcmpiType found = g.getType(t.getName(), NcmpiGroup::ParentsAndCurrent);
  if (found.isNull())
    throw NcNullType("Attempt to invoke NcmpiGroup::addVar failed: the type "
                     "is not defined in this group", __FILE__, __LINE__);
  return found;
}

static NcmpiType namedType(const NcmpiGroup &g, const std::string &name) {
  NcmpiType found = g.getType(name, NcmpiGroup::ParentsAndCurrent);
  if (found.isNull())
    throw NcNullType("Attempt to invoke NcmpiGroup::addVar failed: typeName "
                     "is not defined in this group", __FILE__, __LINE__);
  return found;
}

static int namedDimId(const NcmpiGroup &g, const std::string &name) {
  NcmpiDim found = g.getDim(name, NcmpiGroup::ParentsAndCurrent);
  if (found.isNull())
    throw NcNullDim("Attempt to invoke NcmpiGroup::addVar failed: the "
                    "dimension is not defined in this group", __FILE__,
                    __LINE__);
  return found.getId();
}

static int knownDimId(const NcmpiGroup &g, const NcmpiDim &d) {
  if (d.isNull())
    throw NcNullDim("Attempt to invoke NcmpiGroup::addVar with a Null "
                    "NcmpiDim object", __FILE__, __LINE__);
  return namedDimId(g, d.getName());
}

static NcmpiVar defineVar(const NcmpiGroup &g, const std::string &name,
                          const NcmpiType &type,
                          const std::vector<int> &dimIds) {
  int varId;
  NCMPI_CHECK(ncmpi_def_var(g.getId(), name.c_str(), type.getId(),
                            (int)dimIds.size(),
                            dimIds.empty() ? NULL : dimIds.data(), &varId));
  return NcmpiVar(g, varId);
}

NcmpiVar NcmpiGroup::addVar(const std::string &name,
                            const NcmpiType &ncmpiType) const {
  return addVar(name, ncmpiType, std::vector<NcmpiDim>());
}

NcmpiVar NcmpiGroup::addVar(const std::string &name,
                            const std::string &typeName,
                            const std::string &dimName) const {
  ncmpiCheckDefineMode(myId);
  NcmpiType type = namedType(*this, typeName);
  return defineVar(*this, name, type,
                   std::vector<int>(1, namedDimId(*this, dimName)));
}

NcmpiVar NcmpiGroup::addVar(const std::string &name,
                            const NcmpiType &ncmpiType,
                            const NcmpiDim &ncmpiDim) const {
  ncmpiCheckDefineMode(myId);
  NcmpiType type = knownType(*this, ncmpiType);
  return defineVar(*this, name, type,
                   std::vector<int>(1, knownDimId(*this, ncmpiDim)));
}

NcmpiVar NcmpiGroup::addVar(const std::string &name,
                            const std::string &typeName,
                            const std::vector<std::string> &dimNames) const {
  ncmpiCheckDefineMode(myId);
  NcmpiType type = namedType(*this, typeName);
  std::vector<int> ids;
  for (size_t i = 0; i < dimNames.size(); i++)
    ids.push_back(namedDimId(*this, dimNames[i]));
  return defineVar(*this, name, type, ids);
}

NcmpiVar NcmpiGroup::addVar(const std::string &name,
                            const NcmpiType &ncmpiType,
                            const std::vector<NcmpiDim> &dims) const {
  ncmpiCheckDefineMode(myId);
  NcmpiType type = knownType(*this, ncmpiType);
  std::vector<int> ids;
  for (size_t i = 0; i < dims.size(); i++)
    ids.push_back(knownDimId(*this, dims[i]));
  return defineVar(*this, name, type, ids);
}

// ----------------------------------------------------------- attributes

static NcmpiGroupAtt attAt(const NcmpiGroup &g, int i) {
  return NcmpiGroupAtt(g, i);
}
static std::multimap<std::string, NcmpiGroupAtt> attsOf(
    const NcmpiGroup &g, NcmpiGroup::Location location) {
  return g.getAtts(location);
}

std::multimap<std::string, NcmpiGroupAtt> NcmpiGroup::getAtts(
    Location location) const {
  return membersOver(*this, location, &NcmpiGroup::getAttCount, attAt,
                     attsOf);
}

std::set<NcmpiGroupAtt> NcmpiGroup::getAtts(const std::string &name,
                                            Location location) const {
  return named(getAtts(location), name);
}

NcmpiGroupAtt NcmpiGroup::getAtt(const std::string &name,
                                 Location location) const {
  return first(getAtts(location), name);
}

NcmpiGroupAtt NcmpiGroup::putAtt(const std::string &name,
                                 const std::string &dataValues) const {
  ncmpiCheckDefineMode(myId);
  NCMPI_CHECK(ncmpi_put_att_text(myId, NC_GLOBAL, name.c_str(),
                                 (MPI_Offset)dataValues.size(),
                                 dataValues.c_str()));
  return getAtt(name);
}

// Strings (NC_STRING) are a netCDF-4 type: the C library refuses them
// in a classic file with NC_EBADTYPE.
NcmpiGroupAtt NcmpiGroup::putAtt(const std::string &name, MPI_Offset len,
                                 const char **dataValues) const {
  ncmpiCheckDefineMode(myId);
  NCMPI_CHECK(ncmpi_put_att(myId, NC_GLOBAL, name.c_str(), NC_STRING, len,
                            dataValues));
  return getAtt(name);
}

// ----------------------------------------------------------- dimensions
// Dimensions and types reach parents through getGroups(ParentsGrps),
// which for the root group is empty, and children through
// getGroups(AllChildrenGrps), which the netCDF-4 calls refuse.

template <class T, class Fn>
static void addFromGroups(std::multimap<std::string, T> &to,
                          const NcmpiGroup &g, NcmpiGroup::Location location,
                          Fn of) {
  std::multimap<std::string, NcmpiGroup> groups;
  std::multimap<std::string, NcmpiGroup>::iterator it;
  if (coversParents(location)) {
    groups = g.getGroups(NcmpiGroup::ParentsGrps);
    for (it = groups.begin(); it != groups.end(); ++it) {
      std::multimap<std::string, T> more = of(it->second);
      to.insert(more.begin(), more.end());
    }
  }
  if (coversChildren(location)) {
    groups = g.getGroups(NcmpiGroup::AllChildrenGrps);
    for (it = groups.begin(); it != groups.end(); ++it) {
      std::multimap<std::string, T> more = of(it->second);
      to.insert(more.begin(), more.end());
    }
  }
}

static std::multimap<std::string, NcmpiDim> dimsOf(const NcmpiGroup &g) {
  return g.getDims();
}
static std::multimap<std::string, NcmpiType> typesOf(const NcmpiGroup &g) {
  return g.getTypes();
}

int NcmpiGroup::getDimCount(Location location) const {
  requireGroup(*this, "getDimCount");
  int n = 0;
  if (coversCurrent(location)) NCMPI_CHECK(ncmpi_inq_ndims(myId, &n));
  std::multimap<std::string, NcmpiDim> others;
  addFromGroups(others, *this, location, dimsOf);
  return n + (int)others.size();
}

std::multimap<std::string, NcmpiDim> NcmpiGroup::getDims(
    Location location) const {
  requireGroup(*this, "getDims");
  std::multimap<std::string, NcmpiDim> dims;
  if (coversCurrent(location)) {
    int n;
    NCMPI_CHECK(ncmpi_inq_ndims(myId, &n));
    for (int i = 0; i < n; i++) {
      NcmpiDim d(*this, i);
      dims.insert(std::make_pair(d.getName(), d));
    }
  }
  addFromGroups(dims, *this, location, dimsOf);
  return dims;
}

std::set<NcmpiDim> NcmpiGroup::getDims(const std::string &name,
                                       Location location) const {
  requireGroup(*this, "getDims");
  return named(getDims(location), name);
}

NcmpiDim NcmpiGroup::getDim(const std::string &name,
                            Location location) const {
  requireGroup(*this, "getDim");
  return first(getDims(location), name);
}

NcmpiDim NcmpiGroup::addDim(const std::string &name,
                            MPI_Offset dimSize) const {
  requireGroup(*this, "addDim");
  int id;
  NCMPI_CHECK(ncmpi_def_dim(myId, name.c_str(), dimSize, &id));
  return NcmpiDim(*this, id);
}

NcmpiDim NcmpiGroup::addDim(const std::string &name) const {
  return addDim(name, NC_UNLIMITED);
}

// ---------------------------------------------------------------- types

int NcmpiGroup::getTypeCount(Location location) const {
  requireGroup(*this, "getTypeCount");
  return (int)getTypes(location).size();
}

int NcmpiGroup::getTypeCount(NcmpiType::ncmpiType enumType,
                             Location location) const {
  requireGroup(*this, "getTypeCount");
  return (int)getTypes(enumType, location).size();
}

std::multimap<std::string, NcmpiType> NcmpiGroup::getTypes(
    Location location) const {
  requireGroup(*this, "getTypes");
  std::multimap<std::string, NcmpiType> types;
  if (coversCurrent(location)) {
    int n = 0;
    NCMPI_CHECK(ncmpi_inq_typeids(myId, &n, NULL));
    std::vector<int> ids(n);
    if (n) NCMPI_CHECK(ncmpi_inq_typeids(myId, &n, ids.data()));
    for (int i = 0; i < n; i++) {
      NcmpiType t(*this, ids[i]);
      types.insert(std::make_pair(t.getName(), t));
    }
  }
  addFromGroups(types, *this, location, typesOf);
  return types;
}

std::set<NcmpiType> NcmpiGroup::getTypes(const std::string &name,
                                         Location location) const {
  requireGroup(*this, "getTypes");
  return named(getTypes(location), name);
}

std::set<NcmpiType> NcmpiGroup::getTypes(NcmpiType::ncmpiType enumType,
                                         Location location) const {
  return getTypes("", enumType, location);
}

std::set<NcmpiType> NcmpiGroup::getTypes(const std::string &name,
                                         NcmpiType::ncmpiType enumType,
                                         Location location) const {
  requireGroup(*this, "getTypes");
  std::multimap<std::string, NcmpiType> all = getTypes(location);
  std::set<NcmpiType> found;
  std::multimap<std::string, NcmpiType>::iterator it;
  for (it = all.begin(); it != all.end(); ++it)
    if ((name.empty() || it->first == name) &&
        it->second.getTypeClass() == enumType)
      found.insert(it->second);
  return found;
}

NcmpiType NcmpiGroup::getType(const std::string &name,
                              Location location) const {
  requireGroup(*this, "getType");
  static const char *const atomic[] = {"byte",  "ubyte",  "char",   "short",
                                       "ushort", "int",   "uint",   "int64",
                                       "uint64", "float", "double"};
  for (size_t i = 0; i < sizeof atomic / sizeof atomic[0]; i++)
    if (name == atomic[i]) {
      static const nc_type ids[] = {NC_BYTE,  NC_UBYTE, NC_CHAR,   NC_SHORT,
                                    NC_USHORT, NC_INT,  NC_UINT,   NC_INT64,
                                    NC_UINT64, NC_FLOAT, NC_DOUBLE};
      return atomicType(ids[i]);
    }
  return first(getTypes(location), name);
}

NcmpiEnumType NcmpiGroup::addEnumType(
    const std::string &name, NcmpiEnumType::ncmpiEnumType baseType) const {
  nc_type id;
  NCMPI_CHECK(ncmpi_def_enum(myId, baseType, name.c_str(), &id));
  return NcmpiEnumType(*this, name);
}

NcmpiVlenType NcmpiGroup::addVlenType(const std::string &name,
                                      NcmpiType &baseType) const {
  nc_type id;
  NCMPI_CHECK(ncmpi_def_vlen(myId, name.c_str(), baseType.getId(), &id));
  return NcmpiVlenType(*this, name);
}

NcmpiOpaqueType NcmpiGroup::addOpaqueType(const std::string &name,
                                          MPI_Offset size) const {
  nc_type id;
  NCMPI_CHECK(ncmpi_def_opaque(myId, size, name.c_str(), &id));
  return NcmpiOpaqueType(*this, name);
}

NcmpiCompoundType NcmpiGroup::addCompoundType(const std::string &name,
                                              MPI_Offset size) const {
  nc_type id;
  NCMPI_CHECK(ncmpi_def_compound(myId, size, name.c_str(), &id));
  return NcmpiCompoundType(*this, name);
}

}  // namespace PnetCDF
