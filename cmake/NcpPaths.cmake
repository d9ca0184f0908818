# NcpPaths.cmake -- install-path helpers, included before any subdirectory
# that computes a path between install directories.

# ncp_rel_path(<out> <from: install dir> <to: install dir>): the path from
# one install directory to another. Both are taken under the configured
# prefix; with the usual relative GNUInstallDirs values the result does not
# depend on the prefix, which is what makes the files relocatable.
function(ncp_rel_path out from to)
  foreach(_v from to)
    if(IS_ABSOLUTE "${${_v}}")
      set(_${_v} "${${_v}}")
    else()
      set(_${_v} "${CMAKE_INSTALL_PREFIX}/${${_v}}")
    endif()
  endforeach()
  file(RELATIVE_PATH _rel "${_from}" "${_to}")
  # An ancestor comes back as "../../"; the files add their own "/".
  string(REGEX REPLACE "/+$" "" _rel "${_rel}")
  if(_rel STREQUAL "")
    set(_rel ".")
  endif()
  set(${out} "${_rel}" PARENT_SCOPE)
endfunction()
