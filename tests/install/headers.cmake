# cmake -P: compile every public header alone, as C11 (LANG=C) or C++11
# (LANG=CXX), warnings as errors, then compile PROBE (which includes all of
# them and calls one function of each) in the same language and link it
# against LIB, and run it.  In C++ a declaration without C linkage would be
# mangled and the link would fail.
foreach(v LANG COMPILER INCLUDE_DIR WORK_DIR LIB PROBE)
  if(NOT DEFINED ${v})
    message(FATAL_ERROR "headers.cmake: ${v} not set")
  endif()
endforeach()
# Under valgrind (ctest -T memcheck traces children): the compilers this test
# drives are not ours to check and leak by design; say so and stop (skipped).
if("$ENV{LD_PRELOAD}" MATCHES "vgpreload")
  message("SKIP: packaging test not run under valgrind")
  return()
endif()
if(LANG STREQUAL "CXX")
  set(std -std=c++11 -x c++)
  set(ext cpp)
else()
  set(std -std=c11 -x c)
  set(ext c)
endif()
separate_arguments(extra UNIX_COMMAND "${EXTRA_FLAGS}") # e.g. -fsanitize=... of the build
set(flags -Wall -Wextra -Werror -pedantic -I${INCLUDE_DIR} ${extra})
file(REMOVE_RECURSE ${WORK_DIR})
file(MAKE_DIRECTORY ${WORK_DIR})
file(GLOB headers RELATIVE ${INCLUDE_DIR} ${INCLUDE_DIR}/ofl/*.h)
list(LENGTH headers n)
if(n EQUAL 0)
  message(FATAL_ERROR "no public headers under ${INCLUDE_DIR}/ofl")
endif()
# The area headers do not include each other (a GSO-only program pulls in
# nothing of GRO, and back); the types both use live in shared headers.
set(area_guards OFL_GRO_H OFL_GSO_H)
foreach(h ${headers})
  string(MAKE_C_IDENTIFIER ${h} id)
  set(tu ${WORK_DIR}/${id}.${ext})
  string(TOUPPER "${id}" own)
  set(alone "")
  foreach(g ${area_guards})
    if(NOT own STREQUAL "${g}")
      string(APPEND alone "#ifdef ${g}\n#error \"${h} includes the header of ${g}\"\n#endif\n")
    endif()
  endforeach()
  file(WRITE ${tu} "#include <${h}>\n#include <${h}> /* include guard */\n${alone}int ofl_header_probe_${id}(void);\nint ofl_header_probe_${id}(void) { return 0; }\n")
  execute_process(COMMAND ${COMPILER} ${std} ${flags} -c ${tu} -o ${WORK_DIR}/${id}.o
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${h} does not compile alone as ${LANG}:\n${out}")
  endif()
  message(STATUS "${LANG}: ${h} compiles alone")
endforeach()
get_filename_component(libdir ${LIB} DIRECTORY)
execute_process(COMMAND ${COMPILER} ${std} ${flags} ${PROBE} -x none ${LIB} -Wl,-rpath,${libdir}
                        -o ${WORK_DIR}/probe
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "probe (all headers, one call each) does not build as ${LANG}:\n${out}")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} -E env LD_LIBRARY_PATH=${libdir} ${WORK_DIR}/probe
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "probe failed (${rc}):\n${out}")
endif()
message(STATUS "${out}")
message("headers: OK (${n} public headers, ${LANG})")
