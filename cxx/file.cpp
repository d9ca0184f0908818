// file.cpp -- NcmpiFile: a file opened or created by its constructor and
// closed by its destructor.
#include <iostream>

#include "cxx_internal.h"

using namespace PnetCDF::exceptions;

namespace PnetCDF {

NcmpiFile::NcmpiFile() : NcmpiGroup() {}

// Open or create with the format bits in cmode.
static int openOrCreate(const MPI_Comm &comm, const std::string &path,
                        NcmpiFile::FileMode mode, int format,
                        const MPI_Info &info, int *ncid) {
  const char *p = path.c_str();
  switch (mode) {
    case NcmpiFile::read: return ncmpi_open(comm, p, format | NC_NOWRITE, info, ncid);
    case NcmpiFile::write: return ncmpi_open(comm, p, format | NC_WRITE, info, ncid);
    case NcmpiFile::newFile:
      return ncmpi_create(comm, p, format | NC_NOCLOBBER, info, ncid);
    case NcmpiFile::replace:
      return ncmpi_create(comm, p, format | NC_CLOBBER, info, ncid);
  }
  return NC_EINVAL;
}

NcmpiFile::NcmpiFile(const MPI_Comm &comm, const std::string &filePath,
                     FileMode fMode, const MPI_Info &info) {
  NCMPI_CHECK(openOrCreate(comm, filePath, fMode, 0, info, &myId));
  nullObject = false;
}

NcmpiFile::NcmpiFile(const MPI_Comm &comm, const std::string &filePath,
                     FileMode fMode, FileFormat fFormat,
                     const MPI_Info &info) {
  int format = 0;
  switch (fFormat) {
    case classic: format = 0; break;
    case classic2: format = NC_64BIT_OFFSET; break;
    case classic5: format = NC_64BIT_DATA; break;
    case nc4: format = NC_NETCDF4; break;
    case nc4classic: format = NC_NETCDF4 | NC_CLASSIC_MODEL; break;
    case BadFormat:
      throw NcNotNCF("NetCDF: Unknown file format", __FILE__, __LINE__);
  }
  NCMPI_CHECK(openOrCreate(comm, filePath, fMode, format, info, &myId));
  nullObject = false;
}

// A destructor must not throw: a failed close is reported on stderr.
NcmpiFile::~NcmpiFile() {
  if (nullObject) return;
  try {
    NCMPI_CHECK(ncmpi_close(myId));
  } catch (NcmpiException &e) {
    std::cerr << e.what() << std::endl;
  }
}

void NcmpiFile::sync() { NCMPI_CHECK(ncmpi_sync(myId)); }
void NcmpiFile::flush() { NCMPI_CHECK(ncmpi_flush(myId)); }
void NcmpiFile::enddef() { NCMPI_CHECK(ncmpi_enddef(myId)); }

NcmpiFile::FileFormat NcmpiFile::getFormat(void) const {
  int format;
  NCMPI_CHECK(ncmpi_inq_format(myId, &format));
  switch (format) {
    case NC_FORMAT_CLASSIC: return classic;
    case NC_FORMAT_CDF2: return classic2;
    case NC_FORMAT_CDF5: return classic5;
    case NC_FORMAT_NETCDF4: return nc4;
    case NC_FORMAT_NETCDF4_CLASSIC: return nc4classic;
    default: return BadFormat;
  }
}

void NcmpiFile::Wait_all(int num, int *requests, int *statuses) {
  NCMPI_CHECK(ncmpi_wait_all(myId, num, requests, statuses));
}
void NcmpiFile::Wait(int num, int *requests, int *statuses) {
  NCMPI_CHECK(ncmpi_wait(myId, num, requests, statuses));
}
void NcmpiFile::Cancel(int num, int *requests, int *statuses) {
  NCMPI_CHECK(ncmpi_cancel(myId, num, requests, statuses));
}
void NcmpiFile::Buffer_attach(MPI_Offset bufsize) {
  NCMPI_CHECK(ncmpi_buffer_attach(myId, bufsize));
}
void NcmpiFile::Buffer_detach(void) { NCMPI_CHECK(ncmpi_buffer_detach(myId)); }
void NcmpiFile::Inq_nreqs(int *nreqs) {
  NCMPI_CHECK(ncmpi_inq_nreqs(myId, nreqs));
}
void NcmpiFile::Inq_buffer_usage(MPI_Offset *usage) {
  NCMPI_CHECK(ncmpi_inq_buffer_usage(myId, usage));
}
void NcmpiFile::Inq_buffer_size(MPI_Offset *buf_size) {
  NCMPI_CHECK(ncmpi_inq_buffer_size(myId, buf_size));
}
void NcmpiFile::Inq_file_info(MPI_Info *info) {
  NCMPI_CHECK(ncmpi_inq_file_info(myId, info));
}
void NcmpiFile::Inq_put_size(MPI_Offset *put_size) {
  NCMPI_CHECK(ncmpi_inq_put_size(myId, put_size));
}
void NcmpiFile::Inq_get_size(MPI_Offset *get_size) {
  NCMPI_CHECK(ncmpi_inq_get_size(myId, get_size));
}
void NcmpiFile::Inq_header_size(MPI_Offset *header_size) {
  NCMPI_CHECK(ncmpi_inq_header_size(myId, header_size));
}
void NcmpiFile::Inq_header_extent(MPI_Offset *header_extent) {
  NCMPI_CHECK(ncmpi_inq_header_extent(myId, header_extent));
}
void NcmpiFile::Inq_path(int *pathlen, char *path) {
  NCMPI_CHECK(ncmpi_inq_path(myId, pathlen, path));
}

void NcmpiFile::set_fill(FillMode fillmode, FillMode *old_modep) {
  int mode = fillmode == Fill ? NC_FILL : NC_NOFILL;
  int old;
  NCMPI_CHECK(ncmpi_set_fill(myId, mode, old_modep ? &old : NULL));
  if (old_modep) *old_modep = old == NC_FILL ? Fill : NoFill;
}

}  // namespace PnetCDF
