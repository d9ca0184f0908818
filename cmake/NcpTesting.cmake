# NcpTesting.cmake -- the one helper that registers an MPI test program.
#
#   ncp_add_mpi_test(NAME <n> SOURCE <file.c> [CDL <expected.cdl>]
#                    [CDL_DIR <dir>] [NO_PNETCDF_CMP] [NO_CDL]
#                    [RANKS 1 2 4] [TIMEOUT <s>])
#
# builds <n> against ncpario and, unless NO_PNETCDF_CMP (or the build has no
# PnetCDF), <n>_pnetcdf from the same source against the system PnetCDF, and
# registers ctest mpi.<n>.np<np> for each rank count. Each test runs
# tests/run_mpi_test.sh, which checks the exit status, validates every file
# the program wrote, compares ncdump output with CDL_DIR/<file>.cdl where
# one exists (CDL names the main file's expectation explicitly), and
# requires the PnetCDF build to write byte-identical files.
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
                             "${PROJECT_SOURCE_DIR}/include")
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

  # Each of the two runs gets a bit under half the budget, so the script
  # reports which run hung before ctest kills it.
  math(EXPR _run_limit "(${T_TIMEOUT} - 20) / 2")
  set(_env "NCP_RUN_TIMEOUT=${_run_limit}")
  if(NCP_SANITIZE)
    # OpenMPI's own allocations are never freed; leaks are checked by the
    # unit tests instead.
    list(APPEND _env "ASAN_OPTIONS=detect_leaks=0"
                     "UBSAN_OPTIONS=print_stacktrace=1")
  endif()

  foreach(_np ${T_RANKS})
    set(_test mpi.${T_NAME}.np${_np})
    add_test(NAME ${_test}
             COMMAND bash "${NCP_RUN_MPI_TEST}" ${_np}
                     "$<TARGET_FILE:${T_NAME}>" "${_pexe}" "${_cdl}"
                     "${CMAKE_CURRENT_BINARY_DIR}/mpi_out/${T_NAME}.np${_np}"
                     "${_cdldir}")
    set_tests_properties(${_test} PROPERTIES
      PROCESSORS ${_np} TIMEOUT ${T_TIMEOUT} LABELS mpi
      ENVIRONMENT "${_env}")
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
