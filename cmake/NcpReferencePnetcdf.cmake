# NcpReferencePnetcdf.cmake -- the reference PnetCDF that tests/ and bench/
# build the same sources against.
#
#   ncp_find_reference_pnetcdf(<var>)
#       sets <var>_INCLUDE_DIR (the directory of its pnetcdf.h),
#       <var>_LIBRARY (its libpnetcdf.so, a full path) and <var>_FOUND.
#       The cache entries NCP_PNETCDF_REF_INCLUDE_DIR and
#       NCP_PNETCDF_REF_LIBRARY name another PnetCDF.
#   ncp_reference_pnetcdf_target(<target> <var>)
#       an INTERFACE target that builds against it: its headers ahead of
#       every other directory, its library by path, its directory as the
#       run path (ahead of ldconfig's cache).
#   ncp_names_ncpario(<out> <file>)
#       TRUE when <file>, after its links, is one of ncpario's.
#   ncp_first_not_ncpario(<out> <name> <dir>...)
#       the first <dir> holding a file <name> that is not ncpario's, or "".
#
# ncpario's drop-in (NCPARIO_PNETCDF_COMPAT) installed into /usr/local puts
# a pnetcdf.h, pnetcdf.pc and libpnetcdf where the compiler, pkg-config
# and the linker look before Debian's, so a plain find_path/-lpnetcdf
# would compare ncpario with itself.  Candidates that name ncpario are
# skipped, and the header reaches the compiler through a directory of
# links: a -I of /usr/include is dropped as a system directory and
# /usr/local/include would still come first.

function(ncp_names_ncpario out file)
  get_filename_component(_real "${file}" REALPATH)
  file(STRINGS "${_real}" _hit REGEX "ncpario" LIMIT_COUNT 1)
  if(_hit)
    set(${out} TRUE PARENT_SCOPE)
  else()
    set(${out} FALSE PARENT_SCOPE)
  endif()
endfunction()

function(ncp_first_not_ncpario out name)
  set(_found "")
  foreach(_d ${ARGN})
    if(_d AND EXISTS "${_d}/${name}" AND NOT IS_DIRECTORY "${_d}/${name}")
      ncp_names_ncpario(_ours "${_d}/${name}")
      if(NOT _ours)
        set(_found "${_d}")
        break()
      endif()
    endif()
  endforeach()
  set(${out} "${_found}" PARENT_SCOPE)
endfunction()

function(ncp_find_reference_pnetcdf var)
  set(NCP_PNETCDF_REF_INCLUDE_DIR "" CACHE PATH
      "Directory of the reference PnetCDF's pnetcdf.h (empty: search)")
  set(NCP_PNETCDF_REF_LIBRARY "" CACHE FILEPATH
      "The reference PnetCDF's libpnetcdf.so (empty: search)")
  find_package(PkgConfig QUIET)
  if(PKG_CONFIG_FOUND)
    pkg_check_modules(_ncp_ref_pc QUIET pnetcdf)
  endif()
  set(_inc_dirs ${NCP_PNETCDF_REF_INCLUDE_DIR} ${_ncp_ref_pc_INCLUDE_DIRS})
  set(_lib_dirs ${_ncp_ref_pc_LIBRARY_DIRS})
  foreach(_p ${CMAKE_SYSTEM_PREFIX_PATH})
    list(APPEND _inc_dirs "${_p}/include")
    list(APPEND _lib_dirs "${_p}/lib/${CMAKE_LIBRARY_ARCHITECTURE}"
                          "${_p}/lib64" "${_p}/lib")
  endforeach()
  ncp_first_not_ncpario(_inc pnetcdf.h ${_inc_dirs})
  if(NCP_PNETCDF_REF_LIBRARY)
    get_filename_component(_d "${NCP_PNETCDF_REF_LIBRARY}" DIRECTORY)
    get_filename_component(_n "${NCP_PNETCDF_REF_LIBRARY}" NAME)
    ncp_first_not_ncpario(_lib "${_n}" "${_d}")
    set(_libname "${_n}")
  else()
    ncp_first_not_ncpario(_lib libpnetcdf.so ${_lib_dirs})
    set(_libname libpnetcdf.so)
  endif()
  foreach(_o ${NCP_INCLUDE_DIRS})
    if(_inc AND _o)
      get_filename_component(_a "${_inc}" REALPATH)
      get_filename_component(_b "${_o}" REALPATH)
      if(_a STREQUAL _b)
        message(FATAL_ERROR "the reference pnetcdf.h is our own include/; "
                            "set NCP_PNETCDF_REF_INCLUDE_DIR to PnetCDF's")
      endif()
    endif()
  endforeach()
  set(${var}_INCLUDE_DIR "${_inc}" PARENT_SCOPE)
  if(_lib)
    set(${var}_LIBRARY "${_lib}/${_libname}" PARENT_SCOPE)
  else()
    set(${var}_LIBRARY "" PARENT_SCOPE)
  endif()
  if(_inc AND _lib)
    set(${var}_FOUND TRUE PARENT_SCOPE)
  else()
    set(${var}_FOUND FALSE PARENT_SCOPE)
  endif()
endfunction()

# One directory of links per build tree: pnetcdf.h and, where PnetCDF has
# it, its C++ header <pnetcdf>.
function(_ncp_reference_header_dir out incdir)
  set(_dir "${CMAKE_BINARY_DIR}/pnetcdf_reference/include")
  file(MAKE_DIRECTORY "${_dir}")
  foreach(_h pnetcdf.h pnetcdf)
    if(EXISTS "${incdir}/${_h}" AND NOT IS_DIRECTORY "${incdir}/${_h}")
      file(CREATE_LINK "${incdir}/${_h}" "${_dir}/${_h}" SYMBOLIC)
    endif()
  endforeach()
  set(${out} "${_dir}" PARENT_SCOPE)
endfunction()

function(ncp_reference_pnetcdf_target target var)
  _ncp_reference_header_dir(_dir "${${var}_INCLUDE_DIR}")
  get_filename_component(_libdir "${${var}_LIBRARY}" DIRECTORY)
  add_library(${target} INTERFACE)
  target_include_directories(${target} INTERFACE "${_dir}")
  target_link_libraries(${target} INTERFACE "${${var}_LIBRARY}")
  target_link_options(${target} INTERFACE "LINKER:-rpath,${_libdir}")
endfunction()
