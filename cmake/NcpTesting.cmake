# NcpTesting.cmake -- the helpers that register MPI test programs.
#
#   ncp_add_mpi_test(NAME <n> SOURCE <file.c> [CDL <expected.cdl>]
#                    [CDL_DIR <dir>] [NO_PNETCDF_CMP] [NO_CDL]
#                    [RANKS 1 2 4] [TIMEOUT <s>])
#
# builds <n> against ncpario and, unless NO_PNETCDF_CMP (or the build has no
# PnetCDF), <n>_pnetcdf from the same source against the system PnetCDF, and
# registers it through ncp_add_mpi_cells as mpi.<n>[.<cell>].np<np>. Each
# test runs tests/run_mpi_test.sh, which checks the exit status, validates
# every file the program wrote, compares ncdump output with
# CDL_DIR/<file>.cdl where one exists (CDL names the main file's
# expectation explicitly), and requires the PnetCDF build to write
# byte-identical files.
#
#   ncp_add_mpi_cells(PREFIX <mpi|fortran> NAME <n> EXE <path> PEXE <path|->
#                     CDL <file|-> CDL_DIR <dir|-> OUT_DIR <dir>
#                     RANKS <np...> TIMEOUT <s> [LABELS <extra...>])
#
# registers one program at every rank count in every cell of the driver x
# I/O-group matrix below: <PREFIX>.<n>.np<np> for the default cell and
# <PREFIX>.<n>.<cell>.np<np> for the others, each labelled with its cell's
# label (plus LABELS) and run with its cell's environment, writing under
# OUT_DIR/<n>[.<cell>].np<np>.  The cells (NCP_TEST_MATRIX=OFF keeps only
# the first):
#
#   cell          label       environment
#   (posix)       mpi         -- the default driver, posix
#   mpiio         mpi-mpiio   PNETCDF_HINTS=nc_driver=mpiio (OpenMPI's
#                             default MPI-IO component, OMPIO)
#   romio         mpi-romio   the same on ROMIO (OMPI_MCA_io=romio321):
#                             the two differ in empty requests and
#                             noncontiguous views, and users pick either
#   grp3          mpi-groups  PNETCDF_HINTS='nc_io_group_size=3;
#                             nc_io_group_buffer_size=4096': uneven groups
#                             of 3 whose staging cap cuts most transfers
#                             into rounds (posix)
#   grpall-romio  mpi-groups  PNETCDF_HINTS='nc_io_group_size=all;
#                             nc_driver=mpiio' on ROMIO: one aggregator
#                             for every rank
#
# PNETCDF_HINTS reaches every file a test opens, the PnetCDF reference's
# too (run_mpi_test.sh), so each cell's files are still compared byte for
# byte with PnetCDF's.  `ctest -L mpi-mpiio` runs one column, `ctest -R
# 'mpi.t_overlap.mpiio.np2'` one cell.
#
# ncp_mpi_test_options(<file.c> <outvar>) reads the options a test program
# gives itself on its first line, `/* ncp-test: RANKS 1 2 TIMEOUT 300 */`.
#
# Expects the caller to have defined the INTERFACE target ncp_pnetcdf when
# PnetCDF comparisons are wanted.
#
# ncp_private_mpi_sessions() gives every test registered so far in the
# calling directory an OpenMPI session directory of its own; call it after
# the directory's last add_test.

set(NCP_RUN_MPI_TEST "${CMAKE_CURRENT_LIST_DIR}/../tests/run_mpi_test.sh")
get_filename_component(NCP_RUN_MPI_TEST "${NCP_RUN_MPI_TEST}" ABSOLUTE)

function(ncp_mpi_test_options src outvar)
  set(_opts "")
  file(STRINGS "${src}" _first LIMIT_COUNT 1)
  if(_first MATCHES "ncp-test:([^*]*)\\*/")
    separate_arguments(_opts UNIX_COMMAND "${CMAKE_MATCH_1}")
  endif()
  # A changed option line must reconfigure.
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${src}")
  set(${outvar} "${_opts}" PARENT_SCOPE)
endfunction()

function(ncp_add_mpi_test)
  cmake_parse_arguments(PARSE_ARGV 0 T "NO_PNETCDF_CMP;NO_CDL"
                        "NAME;SOURCE;CDL;CDL_DIR;TIMEOUT" "RANKS")
  if(T_UNPARSED_ARGUMENTS OR NOT T_NAME OR NOT T_SOURCE)
    message(FATAL_ERROR "ncp_add_mpi_test(${T_NAME}): bad arguments "
                        "'${T_UNPARSED_ARGUMENTS}' (NAME and SOURCE needed)")
  endif()
  if(NOT T_RANKS)
    set(T_RANKS 1 2 4)
  endif()
  if(NOT T_TIMEOUT)
    set(T_TIMEOUT 180)
  endif()
  if(NCP_SANITIZE)
    math(EXPR T_TIMEOUT "${T_TIMEOUT} * 3")
  endif()
  get_filename_component(_src "${T_SOURCE}" ABSOLUTE)

  add_executable(${T_NAME} "${_src}")
  # Ours before anything MPI or the system could bring, so that the
  # system's pnetcdf.h can never stand in for ours.
  target_include_directories(${T_NAME} BEFORE PRIVATE
                             ${NCP_INCLUDE_DIRS})
  target_link_libraries(${T_NAME} PRIVATE ncpario ${NCP_LIBM_LINK})

  set(_pexe "-")
  if(NOT T_NO_PNETCDF_CMP AND NCP_PNETCDF_CMP AND TARGET ncp_pnetcdf)
    add_executable(${T_NAME}_pnetcdf "${_src}")
    target_link_libraries(${T_NAME}_pnetcdf PRIVATE ncp_pnetcdf MPI::MPI_C
                          ${NCP_LIBM_LINK})
    set(_pexe "$<TARGET_FILE:${T_NAME}_pnetcdf>")
  endif()

  set(_cdl "-")
  set(_cdldir "-")
  if(NOT T_NO_CDL)
    if(T_CDL)
      get_filename_component(_cdl "${T_CDL}" ABSOLUTE)
      get_filename_component(_cdldir "${_cdl}" DIRECTORY)
    endif()
    if(T_CDL_DIR)
      get_filename_component(_cdldir "${T_CDL_DIR}" ABSOLUTE)
    endif()
  endif()

  ncp_add_mpi_cells(PREFIX mpi NAME ${T_NAME} EXE "$<TARGET_FILE:${T_NAME}>"
                    PEXE "${_pexe}" CDL "${_cdl}" CDL_DIR "${_cdldir}"
                    OUT_DIR "${CMAKE_CURRENT_BINARY_DIR}/mpi_out"
                    RANKS ${T_RANKS} TIMEOUT ${T_TIMEOUT})
endfunction()

option(NCP_TEST_MATRIX
       "Register every MPI test in every driver x I/O-group cell" ON)

# The cells' names; the first, the default, adds nothing to a test's name.
set(NCP_MPI_CELLS posix mpiio romio grp3 grpall-romio)
if(NOT NCP_TEST_MATRIX)
  set(NCP_MPI_CELLS posix)
endif()

# A cell's name infix, label and environment (a string holding a CMake
# list; the semicolons inside PNETCDF_HINTS are escaped).
function(ncp_mpi_cell cell infix label env)
  set(_romio "OMPI_MCA_io=romio321")
  set(_i ".${cell}")
  if(cell STREQUAL "posix")
    set(_i "")
    set(_l mpi)
    set(_e "")
  elseif(cell STREQUAL "mpiio")
    set(_l mpi-mpiio)
    set(_e "PNETCDF_HINTS=nc_driver=mpiio")
  elseif(cell STREQUAL "romio")
    set(_l mpi-romio)
    set(_e "PNETCDF_HINTS=nc_driver=mpiio;${_romio}")
  elseif(cell STREQUAL "grp3")
    set(_l mpi-groups)
    set(_e "PNETCDF_HINTS=nc_io_group_size=3\\;nc_io_group_buffer_size=4096")
  elseif(cell STREQUAL "grpall-romio")
    set(_l mpi-groups)
    set(_e "PNETCDF_HINTS=nc_io_group_size=all\\;nc_driver=mpiio;${_romio}")
  else()
    message(FATAL_ERROR "ncp_mpi_cell: no cell '${cell}'")
  endif()
  set(${infix} "${_i}" PARENT_SCOPE)
  set(${label} "${_l}" PARENT_SCOPE)
  set(${env} "${_e}" PARENT_SCOPE)
endfunction()

function(ncp_add_mpi_cells)
  cmake_parse_arguments(PARSE_ARGV 0 T ""
    "PREFIX;NAME;EXE;PEXE;CDL;CDL_DIR;OUT_DIR;TIMEOUT" "RANKS;LABELS")
  if(T_UNPARSED_ARGUMENTS OR NOT T_PREFIX OR NOT T_NAME OR NOT T_RANKS)
    message(FATAL_ERROR "ncp_add_mpi_cells(${T_NAME}): bad arguments")
  endif()
  # Each of the two runs gets a bit under half the budget, so the script
  # reports which run hung before ctest kills it.
  math(EXPR _run_limit "(${T_TIMEOUT} - 20) / 2")
  set(_env "NCP_RUN_TIMEOUT=${_run_limit}")
  if(NCP_SANITIZE)
    # OpenMPI's own allocations are never freed; leaks are checked by the
    # unit tests instead.
    string(APPEND _env ";ASAN_OPTIONS=detect_leaks=0"
                       ";UBSAN_OPTIONS=print_stacktrace=1")
  endif()
  foreach(_cell ${NCP_MPI_CELLS})
    ncp_mpi_cell(${_cell} _infix _label _cell_env)
    set(_cenv "${_env}")
    if(_cell_env)
      string(APPEND _cenv ";${_cell_env}")
    endif()
    foreach(_np ${T_RANKS})
      set(_run ${T_NAME}${_infix}.np${_np})
      set(_test ${T_PREFIX}.${_run})
      add_test(NAME ${_test}
               COMMAND bash "${NCP_RUN_MPI_TEST}" ${_np} "${T_EXE}"
                       "${T_PEXE}" "${T_CDL}" "${T_OUT_DIR}/${_run}"
                       "${T_CDL_DIR}")
      set(_labels ${T_LABELS} ${_label})
      set_tests_properties(${_test} PROPERTIES
        PROCESSORS ${_np} TIMEOUT ${T_TIMEOUT}
        LABELS "${_labels}" ENVIRONMENT "${_cenv}")
    endforeach()
  endforeach()
endfunction()

# OpenMPI 4.1's mpirun keeps its session files under one directory per user
# and host (/tmp/ompi.<host>.<uid>), which it makes at start and removes at
# exit once empty.  Under ctest -j two mpiruns can race on it: one removes
# it between the other's mkdir (EEXIST) and stat, and the second dies in
# orte_init ("A call to mkdir was unable to create ... File exists"), as
# one CI run did.  A base per test means no two concurrent mpiruns share
# it.  The base is short on purpose (the session holds Unix sockets, whose
# paths may not pass 107 bytes) and names the build tree by a hash, so two
# build trees testing at once stay apart too.
function(ncp_private_mpi_sessions)
  string(MD5 _tree "${CMAKE_BINARY_DIR}")
  string(SUBSTRING "${_tree}" 0 8 _tree)
  get_property(_tests DIRECTORY PROPERTY TESTS)
  foreach(_test ${_tests})
    set_property(TEST ${_test} APPEND PROPERTY ENVIRONMENT
                 "OMPI_MCA_orte_tmpdir_base=/tmp/ncp-mpi-${_tree}/${_test}")
  endforeach()
endfunction()
