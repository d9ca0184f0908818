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
