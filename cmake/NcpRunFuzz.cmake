# NcpRunFuzz.cmake -- body of ctest fuzz.header, fuzz.cdl and fuzz.validate
# (cmake -P).
#
# Fuzzes for SECONDS on a working corpus under WORKDIR, seeded from the
# checked-in SEEDS directory; the working corpus persists between runs so
# coverage accumulates, while the checked-in seeds stay untouched. Crash
# inputs land in WORKDIR/artifacts/. Inputs: FUZZER, SEEDS, DICT (used when
# the file exists), WORKDIR, SECONDS.
foreach(_v FUZZER WORKDIR SECONDS)
  if(NOT DEFINED ${_v})
    message(FATAL_ERROR "NcpRunFuzz.cmake: -D${_v}= is required")
  endif()
endforeach()

set(_corpus ${WORKDIR}/corpus)
set(_artifacts ${WORKDIR}/artifacts)
file(MAKE_DIRECTORY ${_corpus} ${_artifacts})
if(SEEDS AND IS_DIRECTORY ${SEEDS})
  file(GLOB _seeds ${SEEDS}/*)
  if(_seeds)
    file(COPY ${_seeds} DESTINATION ${_corpus})
  endif()
endif()

set(_args -max_total_time=${SECONDS} -print_final_stats=1
          -artifact_prefix=${_artifacts}/)
if(DICT AND EXISTS ${DICT})
  list(APPEND _args -dict=${DICT})
endif()
execute_process(COMMAND ${FUZZER} ${_args} ${_corpus} RESULT_VARIABLE _rc)
if(NOT _rc EQUAL 0)
  message(FATAL_ERROR "fuzzer failed (${_rc}); reproduce with: "
                      "${FUZZER} ${_artifacts}/<crash file>")
endif()
