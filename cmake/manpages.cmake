# manpages.cmake - man pages from parscope's --help, at build time (cmake -P):
# parscope.1 from 'parscope --help', and parscope-COMMAND.1 from
# 'parscope COMMAND --help' for every command that help lists, with help2man.
#   -DPARSCOPE=path/to/parscope -DHELP2MAN=help2man -DOUT=dir -DVERSION=x.y.z
execute_process(COMMAND ${PARSCOPE} --help OUTPUT_VARIABLE top RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "'${PARSCOPE} --help' failed (${rc})")
endif()
# the commands: "  NAME   summary" lines after "commands:"
string(REGEX REPLACE ".*\ncommands:\n" "" list "${top}")
string(REGEX REPLACE "\n\n.*" "" list "${list}")
string(REPLACE "\n" ";" lines "${list}")
file(MAKE_DIRECTORY ${OUT})
file(GLOB old ${OUT}/*.1)
if(old)
  file(REMOVE ${old})
endif()
set(see_also "")
set(commands "")
foreach(line ${lines})
  if(line MATCHES "^  ([a-z][a-z0-9_-]*) +(.*)$")
    list(APPEND commands ${CMAKE_MATCH_1})
    set(summary_${CMAKE_MATCH_1} "${CMAKE_MATCH_2}")
    string(APPEND see_also ".BR parscope-${CMAKE_MATCH_1} (1),\n")
  endif()
endforeach()
if(NOT commands)
  message(FATAL_ERROR "'${PARSCOPE} --help' lists no commands")
endif()
string(REGEX REPLACE ",\n$" "\n" see_also "${see_also}")
file(WRITE ${OUT}/see-also.h2m "[SEE ALSO]\n${see_also}\nREADME.md and docs/ (OUTPUTS.md, LANGUAGE.md, TRACE_FORMAT.md, ...) in parscope's source tree.\n")
execute_process(COMMAND ${HELP2MAN} --no-info --version-string "parscope ${VERSION}"
                        --name "how a message-passing parallel machine performs, and why"
                        --include ${OUT}/see-also.h2m --output ${OUT}/parscope.1 ${PARSCOPE}
                RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "help2man failed for parscope (${rc})")
endif()
file(WRITE ${OUT}/see-parscope.h2m "[SEE ALSO]\n.BR parscope (1)\n")
foreach(c ${commands})
  execute_process(COMMAND ${HELP2MAN} --no-info --help-option "${c} --help" --version-string "parscope-${c} ${VERSION}"
                          --name "${summary_${c}}" --include ${OUT}/see-parscope.h2m
                          --output ${OUT}/parscope-${c}.1 ${PARSCOPE}
                  RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "help2man failed for parscope ${c} (${rc})")
  endif()
endforeach()
file(REMOVE ${OUT}/see-also.h2m ${OUT}/see-parscope.h2m)
