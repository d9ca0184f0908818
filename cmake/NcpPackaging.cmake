# NcpPackaging.cmake -- what `cmake --install` puts where, included once by
# the top-level CMakeLists.txt after every library target exists.
#
# Always: libncpario (.so, .a; libncpario_fortran and libncpario_cxx too
# where those bindings are built), headers under include/ncpario/,
# ncpario.pc, the CMake package, and the man pages of installed programs.
#
# The PnetCDF drop-in (install component pnetcdf_compat): bin/pnetcdf-config,
# pnetcdf.pc, lib/libpnetcdf.so and .a resolving to ncpario,
# lib/libpnetcdf.so.0d and .so.4 for binaries built on PnetCDF, and pnetcdf.h
# (pnetcdf.inc, .mod, and the C++ header pnetcdf) at the top of include/, so that builds written for PnetCDF
# find ncpario unchanged. It is part of the default install only with
# NCPARIO_PNETCDF_COMPAT=ON; otherwise `cmake --install <build> --component
# pnetcdf_compat` adds it to an install later (the package tests do).
#
# Every installed file that names a directory names it relative to its own
# location (${pcfiledir}, the script's own path, the CMake package's
# _IMPORT_PREFIX), so an install tree can be moved as a whole.

# OFF by default: installed into a prefix the system searches (/usr/local),
# the drop-in's libpnetcdf, pnetcdf.pc, pnetcdf-config and pnetcdf.h would
# take precedence over a system PnetCDF for every other build on the
# machine. That replacement must be asked for, not come with `make install`.
option(NCPARIO_PNETCDF_COMPAT
       "Install pnetcdf-config, pnetcdf.pc, libpnetcdf and a top-level pnetcdf.h resolving to ncpario"
       OFF)
set(_compat_all EXCLUDE_FROM_ALL)
if(NCPARIO_PNETCDF_COMPAT)
  set(_compat_all "")
endif()

set(_pcdir "${CMAKE_INSTALL_LIBDIR}/pkgconfig")
set(_cmakedir "${CMAKE_INSTALL_LIBDIR}/cmake/ncpario")
set(_compat_dir "${CMAKE_CURRENT_BINARY_DIR}/pnetcdf_compat")

# ---------------------------------------------------------------- library

install(FILES ${NCP_GENERATED_INCLUDEDIR}/pnetcdf.h
              ${PROJECT_SOURCE_DIR}/include/ncpario.h
        DESTINATION ${NCP_INSTALL_INCLUDEDIR})
install(TARGETS ncpario ncpario_static EXPORT ncparioTargets
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR}
        INCLUDES DESTINATION ${NCP_INSTALL_INCLUDEDIR})

# ------------------------------------------------------------- pkg-config
# ${pcfiledir} is where pkg-config found the .pc file, so the prefix is
# derived from it instead of written down.
ncp_rel_path(_pc_to_prefix "${_pcdir}" "")
set(NCP_PC_PREFIX "\${pcfiledir}/${_pc_to_prefix}")
ncp_rel_path(NCP_PC_LIBDIR "" "${CMAKE_INSTALL_LIBDIR}")
set(NCP_PC_LIBS_PRIVATE "-lutf8proc")
if(NCP_LIBM_LINK)
  set(NCP_PC_LIBS_PRIVATE "${NCP_PC_LIBS_PRIVATE} -lm")
endif()
# The ncpario names, also in pnetcdf.pc: -lpnetcdf would find a system
# PnetCDF first wherever another -L put the system's directory earlier.
set(NCP_PC_LIBS "-lncpario")
if(NCP_HAVE_FORTRAN)
  set(NCP_PC_LIBS "-lncpario_fortran ${NCP_PC_LIBS}")
endif()
if(NCP_HAVE_CXX)
  set(NCP_PC_LIBS "-lncpario_cxx ${NCP_PC_LIBS}")
endif()

ncp_rel_path(NCP_PC_INCLUDEDIR "" "${NCP_INSTALL_INCLUDEDIR}")
configure_file(${PROJECT_SOURCE_DIR}/cmake/ncpario.pc.in ncpario.pc @ONLY)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/ncpario.pc DESTINATION ${_pcdir})

ncp_rel_path(NCP_PC_INCLUDEDIR "" "${CMAKE_INSTALL_INCLUDEDIR}")
file(STRINGS ${NCP_GENERATED_INCLUDEDIR}/pnetcdf.h _pnc_version_line
     REGEX "^#define[ \t]+PNETCDF_VERSION[ \t]+\"")
string(REGEX REPLACE ".*\"(.*)\".*" "\\1" NCP_PNETCDF_API_VERSION
       "${_pnc_version_line}")
configure_file(${PROJECT_SOURCE_DIR}/cmake/pnetcdf.pc.in
               ${_compat_dir}/pnetcdf.pc @ONLY)
install(FILES ${_compat_dir}/pnetcdf.pc DESTINATION ${_pcdir}
        COMPONENT pnetcdf_compat ${_compat_all})

# ---------------------------------------------------------- CMake package

install(EXPORT ncparioTargets NAMESPACE ncpario::
        DESTINATION ${_cmakedir})
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/ncparioConfig.cmake.in
  ${CMAKE_CURRENT_BINARY_DIR}/ncparioConfig.cmake
  INSTALL_DESTINATION ${_cmakedir})
write_basic_package_version_file(
  ${CMAKE_CURRENT_BINARY_DIR}/ncparioConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/ncparioConfig.cmake
              ${CMAKE_CURRENT_BINARY_DIR}/ncparioConfigVersion.cmake
        DESTINATION ${_cmakedir})

# -------------------------------------------------------- PnetCDF drop-in

# pnetcdf-config finds its prefix from its own path at run time.
ncp_rel_path(NCP_CFG_BIN_TO_PREFIX "${CMAKE_INSTALL_BINDIR}" "")
ncp_rel_path(NCP_CFG_INCLUDEDIR "" "${CMAKE_INSTALL_INCLUDEDIR}")
ncp_rel_path(NCP_CFG_LIBDIR "" "${CMAKE_INSTALL_LIBDIR}")
file(STRINGS ${NCP_GENERATED_INCLUDEDIR}/pnetcdf.h _pnc_date_line
     REGEX "^#define[ \t]+PNETCDF_RELEASE_DATE[ \t]+\"")
string(REGEX REPLACE ".*\"(.*)\".*" "\\1" NCP_CFG_RELEASE_DATE
       "${_pnc_date_line}")
# Honours SOURCE_DATE_EPOCH, so reproducible builds stay reproducible.
string(TIMESTAMP NCP_CFG_CONFIG_DATE "%a %b %d %H:%M:%S UTC %Y" UTC)
set(NCP_CFG_HAS_FORTRAN no)
set(NCP_CFG_FC "")
if(NCP_HAVE_FORTRAN)
  set(NCP_CFG_HAS_FORTRAN yes)
  set(NCP_CFG_FC "${MPI_Fortran_COMPILER}")
endif()
set(NCP_CFG_HAS_CXX no)
set(NCP_CFG_CXX "")
if(NCP_HAVE_CXX)
  set(NCP_CFG_HAS_CXX yes)
  # mpicxx beside mpicc, where CMake found no MPI C++ part itself.
  get_filename_component(_mpi_bindir "${MPI_C_COMPILER}" DIRECTORY)
  set(NCP_CFG_CXX "${_mpi_bindir}/mpicxx")
endif()
configure_file(${PROJECT_SOURCE_DIR}/cmake/pnetcdf-config.in
               ${_compat_dir}/pnetcdf-config @ONLY)
install(PROGRAMS ${_compat_dir}/pnetcdf-config
        DESTINATION ${CMAKE_INSTALL_BINDIR}
        COMPONENT pnetcdf_compat ${_compat_all})

install(FILES ${NCP_GENERATED_INCLUDEDIR}/pnetcdf.h
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
        COMPONENT pnetcdf_compat ${_compat_all})
if(NCP_HAVE_FORTRAN)
  install(FILES ${NCP_FORTRAN_MODDIR}/pnetcdf.mod
                ${NCP_FORTRAN_INCDIR}/pnetcdf.inc
          DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
          COMPONENT pnetcdf_compat ${_compat_all})
endif()
if(NCP_HAVE_CXX)
  install(FILES ${NCP_CXX_HEADER} DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
          COMPONENT pnetcdf_compat ${_compat_all})
endif()

# libpnetcdf.a: PnetCDF is one library with all its APIs, so a static
# -lpnetcdf must bring the Fortran and C++ bindings too; packing the same
# objects again gives that archive without compiling anything twice.
set(_compat_objs $<TARGET_OBJECTS:ncpario_obj>)
if(NCP_HAVE_FORTRAN)
  list(APPEND _compat_objs $<TARGET_OBJECTS:ncpario_fortran_obj>)
endif()
if(NCP_HAVE_CXX)
  list(APPEND _compat_objs $<TARGET_OBJECTS:ncpario_cxx_obj>)
endif()
add_library(ncpario_pnetcdf_static STATIC ${_compat_objs})
set_target_properties(ncpario_pnetcdf_static PROPERTIES
  OUTPUT_NAME pnetcdf ARCHIVE_OUTPUT_DIRECTORY ${_compat_dir})
install(FILES $<TARGET_FILE:ncpario_pnetcdf_static>
        DESTINATION ${CMAKE_INSTALL_LIBDIR}
        COMPONENT pnetcdf_compat ${_compat_all})

# libpnetcdf.so: a link to libncpario.so, so that a program linked with
# -lpnetcdf records libncpario's soname and loads ncpario. With a
# binding, a linker script naming the libraries instead (GNU ld, gold and
# lld read one; ld looks for the names beside the script). The old one goes first:
# writing through a link left by a C-only configure would overwrite its
# target.
file(REMOVE ${_compat_dir}/libpnetcdf.so ${_compat_dir}/libncpario.so)
set(_pnetcdf_inputs "")
if(NCP_HAVE_CXX)
  string(APPEND _pnetcdf_inputs "libncpario_cxx.so ")
endif()
if(NCP_HAVE_FORTRAN)
  string(APPEND _pnetcdf_inputs "libncpario_fortran.so ")
endif()
if(_pnetcdf_inputs)
  file(WRITE ${_compat_dir}/libpnetcdf.so
       "/* -lpnetcdf: ncpario's libraries, its bindings first */\n"
       "INPUT(${_pnetcdf_inputs}libncpario.so)\n")
else()
  file(CREATE_LINK libncpario.so ${_compat_dir}/libpnetcdf.so SYMBOLIC)
endif()
install(FILES ${_compat_dir}/libpnetcdf.so
        DESTINATION ${CMAKE_INSTALL_LIBDIR}
        COMPONENT pnetcdf_compat ${_compat_all})

# libpnetcdf.so.0d (dropin/) in <libdir> itself, where it replaces
# PnetCDF for every binary the dynamic linker points there.
install(TARGETS ncpario_pnetcdf_dropin
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        COMPONENT pnetcdf_compat ${_compat_all})
install(FILES ${NCP_DROPIN_BUILD_DIR}/libpnetcdf.so.4
        DESTINATION ${CMAKE_INSTALL_LIBDIR}
        COMPONENT pnetcdf_compat ${_compat_all})

# -------------------------------------------------------------- man pages
# docs/man/<name>.<section> is installed only where <name> is a program
# this build installs (an executable target of that name); pages of
# programs elsewhere in the tree are installed with them.
if(IS_DIRECTORY "${PROJECT_SOURCE_DIR}/docs/man")
  file(GLOB _man CONFIGURE_DEPENDS "${PROJECT_SOURCE_DIR}/docs/man/*.[1-8]")
  foreach(_page ${_man})
    get_filename_component(_prog "${_page}" NAME_WLE)
    if(TARGET "${_prog}")
      get_target_property(_type "${_prog}" TYPE)
      if(_type STREQUAL "EXECUTABLE")
        string(REGEX MATCH "[1-8]$" _sec "${_page}")
        install(FILES ${_page} DESTINATION ${CMAKE_INSTALL_MANDIR}/man${_sec})
      endif()
    endif()
  endforeach()
endif()
