# workloads.cmake - the built-in LOOP workloads.
#
# parscope-gen (the LOOP generator alone: src/lang + util + trace, no MPI) turns
# every workloads/NAME.loop into ${CMAKE_BINARY_DIR}/generated/workload_NAME.c with
# the entry ps_workload_NAME_main and the embedded text ps_workload_NAME_source
# (see src/workloads/workloads.h).  Together with the C workloads of
# src/workloads/ they make the layer library ps_workloads.

# Where 'parscope build' finds the runtime from a build tree or an install.
set(PS_LANG_EXTRA_FLAGS "")
if(PARSCOPE_SANITIZE)
  set(PS_LANG_EXTRA_FLAGS "-fsanitize=address,undefined")
endif()
target_compile_definitions(ps_lang PRIVATE
  PS_LANG_SOURCE_DIR="${CMAKE_SOURCE_DIR}" PS_LANG_BUILD_DIR="${CMAKE_BINARY_DIR}"
  PS_LANG_LIBDIR="${CMAKE_INSTALL_LIBDIR}" PS_LANG_EXTRA_FLAGS="${PS_LANG_EXTRA_FLAGS}")

add_executable(parscope-gen ${CMAKE_SOURCE_DIR}/src/lang/tool/parscope_gen.c)
target_link_libraries(parscope-gen PRIVATE ps_lang)
set_target_properties(parscope-gen PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/bin)

file(GLOB PS_WORKLOAD_LOOPS CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/workloads/*.loop)
set(PS_WORKLOAD_SOURCES "")
file(MAKE_DIRECTORY ${CMAKE_BINARY_DIR}/generated)
foreach(loop ${PS_WORKLOAD_LOOPS})
  get_filename_component(name ${loop} NAME_WE)
  set(out ${CMAKE_BINARY_DIR}/generated/workload_${name}.c)
  add_custom_command(
    OUTPUT ${out}
    COMMAND parscope-gen ${loop} -o ${out} --entry ps_workload_${name}_main
            --source-symbol ps_workload_${name}_source
    DEPENDS parscope-gen ${loop}
    COMMENT "Generating C for the LOOP workload ${name}"
    VERBATIM)
  list(APPEND PS_WORKLOAD_SOURCES ${out})
endforeach()

# The registry names every built-in with a strong reference, so a .loop file
# without an entry there would silently not be built in: refuse it here.
file(READ ${CMAKE_SOURCE_DIR}/src/workloads/registry.c PS_REGISTRY_TEXT)
foreach(loop ${PS_WORKLOAD_LOOPS})
  get_filename_component(name ${loop} NAME_WE)
  string(FIND "${PS_REGISTRY_TEXT}" "PS_DECLARE(${name})" found)
  if(found EQUAL -1)
    message(FATAL_ERROR "workloads/${name}.loop has no entry in src/workloads/registry.c")
  endif()
endforeach()
ps_sources(PS_WORKLOAD_C workloads)
add_library(ps_workloads STATIC ${PS_WORKLOAD_C} ${PS_WORKLOAD_SOURCES})
target_link_libraries(ps_workloads PUBLIC ps_runtime)
add_dependencies(ps_workloads ps_layers)
