// check.cpp -- status codes to exceptions, the mode helpers, and
// NcmpiException itself.
#include <cstring>
#include <iostream>
#include <sstream>

#include "cxx_internal.h"

int notInClassic(const char *name) {
  std::cout << name << " not implemented" << std::endl;
  return NC_EINVAL;
}

namespace PnetCDF {

void ncmpiCheck(int retCode, const char *file, int line) {
  if (retCode == NC_NOERR) return;
  const char *msg;
  if (NC_ISSYSERR(retCode)) {
    msg = std::strerror(retCode);
    if (msg == NULL) msg = "Unknown system error";
  } else {
    msg = ncmpi_strerror(retCode);
  }
  exceptions::throwStatus(retCode, msg, file, line);
}

// A file already in the mode asked for is no error here: the classes
// switch modes for their callers.
void ncmpiCheckDefineMode(int ncid) {
  int status = ncmpi_redef(ncid);
  if (status != NC_EINDEFINE) ncmpiCheck(status, __FILE__, __LINE__);
}

void ncmpiCheckDataMode(int ncid) {
  int status = ncmpi_enddef(ncid);
  if (status != NC_ENOTINDEFINE) ncmpiCheck(status, __FILE__, __LINE__);
}

namespace exceptions {

static std::string *describe(const char *complaint, const char *file,
                             int line) {
  try {
    std::ostringstream text;
    text << (complaint ? complaint : "") << "\nfile: " << file
         << "  line:" << line;
    return new std::string(text.str());
  } catch (...) {
    return NULL;
  }
}

NcmpiException::NcmpiException(const char *complaint, const char *fileName,
                               int lineNumber)
    : what_msg(describe(complaint, fileName, lineNumber)), ec(0) {}

NcmpiException::NcmpiException(int errorCode, const char *complaint,
                               const char *fileName, int lineNumber)
    : what_msg(describe(complaint, fileName, lineNumber)), ec(errorCode) {}

static std::string *copyOf(const std::string *s) {
  if (s == NULL) return NULL;
  try {
    return new std::string(*s);
  } catch (...) {
    return NULL;
  }
}

NcmpiException::NcmpiException(const NcmpiException &e) throw()
    : std::exception(e), what_msg(copyOf(e.what_msg)), ec(e.ec) {}

NcmpiException &NcmpiException::operator=(const NcmpiException &e) throw() {
  if (this != &e) {
    delete what_msg;
    what_msg = copyOf(e.what_msg);
    ec = e.ec;
  }
  return *this;
}

NcmpiException::~NcmpiException() throw() { delete what_msg; }

const char *NcmpiException::what() const throw() {
  return what_msg ? what_msg->c_str() : "";
}

int NcmpiException::errorCode() const throw() { return ec; }

}  // namespace exceptions
}  // namespace PnetCDF
