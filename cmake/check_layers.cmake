cmake_policy(SET CMP0057 NEW)
# check_layers.cmake - fails the build when a file under src/ includes a layer it may not.
#
#   cmake -DSRC=<src dir> -DRULES="layer=allowed,allowed;..." -P check_layers.cmake
#
# A layer is a folder of src/; RULES (made by the top-level CMakeLists.txt from its
# ps_layer_rule calls) lists, for each, the folders its files may include with
# #include "FOLDER/...".  A folder without a rule fails too, so a new folder is
# placed in the layering before it is used.
set(bad "")
foreach(rule ${RULES})
  string(REPLACE "=" ";" parts "${rule}")
  list(GET parts 0 layer)
  list(GET parts 1 allowed)
  string(REPLACE "," ";" allowed "${allowed}")
  set(ALLOWED_${layer} ${allowed})
  list(APPEND layers ${layer})
endforeach()
file(GLOB dirs LIST_DIRECTORIES true RELATIVE ${SRC} ${SRC}/*)
foreach(dir ${dirs})
  if(NOT IS_DIRECTORY ${SRC}/${dir})
    continue()
  endif()
  if(NOT dir IN_LIST layers)
    list(APPEND bad "src/${dir}/: a folder with no place in the layering (ps_layer_rule in CMakeLists.txt)")
    continue()
  endif()
  file(GLOB_RECURSE files ${SRC}/${dir}/*.c ${SRC}/${dir}/*.h)
  foreach(f ${files})
    file(STRINGS ${f} incs REGEX "^[ \t]*#[ \t]*include[ \t]+\"[a-z_]+/")
    foreach(inc ${incs})
      string(REGEX REPLACE "^[ \t]*#[ \t]*include[ \t]+\"([a-z_]+)/.*" "\\1" target "${inc}")
      if(NOT target IN_LIST ALLOWED_${dir})
        file(RELATIVE_PATH rel ${SRC}/.. ${f})
        list(APPEND bad "${rel}: includes \"${target}/...\", a layer above or beside src/${dir}/")
      endif()
    endforeach()
  endforeach()
endforeach()
if(bad)
  list(JOIN bad "\n  " text)
  message(FATAL_ERROR "layering broken:\n  ${text}")
endif()
