# pip builds each install in a new temporary environment (a pip-build-env-* folder) holding the
# build requirements, pybind11 and nlohmann-json. Compiled from there, every compile command
# and every header path in the build's dependency records would change from one `pip install`
# to the next, and the second install would compile everything again although build/ holds
# the objects. So their headers are copied into the build tree and compiled from that copy:
# configure_file rewrites a file only when its content changes, so an unchanged header keeps
# its time stamp and nothing that includes it is rebuilt.
function(stable_header_copy out_var from_dir subdir name)
  set(to_dir "${CMAKE_CURRENT_BINARY_DIR}/stable-include/${name}")
  file(GLOB_RECURSE wanted RELATIVE "${from_dir}" "${from_dir}/${subdir}/*")
  list(FILTER wanted EXCLUDE REGEX "(^|/)(__pycache__/|__init__\\.py$)")
  foreach(file IN LISTS wanted)
    configure_file("${from_dir}/${file}" "${to_dir}/${file}" COPYONLY)
  endforeach()
  # A header the new version no longer has must not stay includable.
  file(GLOB_RECURSE held RELATIVE "${to_dir}" "${to_dir}/*")
  foreach(file IN LISTS held)
    if(NOT file IN_LIST wanted)
      file(REMOVE "${to_dir}/${file}")
    endif()
  endforeach()
  set(${out_var} "${to_dir}" PARENT_SCOPE)
endfunction()
