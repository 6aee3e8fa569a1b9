# Install and packaging tests (included by tests/CMakeLists.txt).
#
#  install_consumer     `cmake --install` of this build into a temporary prefix,
#                       then a tiny program built against that copy twice:
#                       through find_package(ofl) (ofl::ofl and ofl::ofl_static)
#                       and through pkg-config; both are run.  No network.
#  public_headers_c11   every public header alone in a C11 translation unit
#                       (-std=c11 -pedantic -Wall -Wextra -Werror)
#  public_headers_cxx   the same in C++ (-std=c++11 -pedantic ...), plus one
#                       C++ program calling into every header, linked against
#                       the library: a missing extern "C" fails to link.
#                       Both also check that gso.h does not include gro.h
#                       nor gro.h gso.h, nor a shared header either.
#  gso_links_without_gro  a GSO-only program (install/gso_only.c), linked
#                       against the library's objects less src/gro/: GSO
#                       needs no GRO code.
set(OFL_INSTALL_TEST_DIR ${CMAKE_CURRENT_BINARY_DIR}/install-test)
find_program(OFL_PKG_CONFIG NAMES pkg-config pkgconf)
find_program(OFL_READELF NAMES readelf)
if(CMAKE_C_COMPILER_ID STREQUAL "Clang")
  find_program(OFL_CXX NAMES clang++ g++ c++)
else()
  find_program(OFL_CXX NAMES g++ c++ clang++)
endif()
# A sanitizer build's library needs the sanitizer runtime in whatever links it.
set(OFL_INSTALL_TEST_FLAGS "")
if(OFL_SANITIZE)
  set(OFL_INSTALL_TEST_FLAGS "-fsanitize=address,undefined")
endif()

add_test(NAME install_consumer
  COMMAND ${CMAKE_COMMAND}
    -DBUILD_DIR=${CMAKE_BINARY_DIR}
    -DWORK_DIR=${OFL_INSTALL_TEST_DIR}
    -DCONSUMER_DIR=${CMAKE_CURRENT_SOURCE_DIR}/install/consumer
    -DPUBLIC_HEADER_DIR=${CMAKE_SOURCE_DIR}/include/ofl
    -DCC=${CMAKE_C_COMPILER}
    -DGENERATOR=${CMAKE_GENERATOR}
    -DPKG_CONFIG=${OFL_PKG_CONFIG}
    -DREADELF=${OFL_READELF}
    -DVERSION=${PROJECT_VERSION}
    "-DEXTRA_FLAGS=${OFL_INSTALL_TEST_FLAGS}"
    -P ${CMAKE_CURRENT_SOURCE_DIR}/install/run.cmake)
set_tests_properties(install_consumer PROPERTIES
  TIMEOUT 300 RUN_SERIAL TRUE PASS_REGULAR_EXPRESSION "install test: OK" SKIP_REGULAR_EXPRESSION "SKIP:")

# public_headers_<suffix>: every public header compiled alone by one compiler
function(ofl_public_headers_test suffix lang compiler)
  add_test(NAME public_headers_${suffix}
    COMMAND ${CMAKE_COMMAND} -DLANG=${lang} -DCOMPILER=${compiler}
      -DINCLUDE_DIR=${CMAKE_SOURCE_DIR}/include -DWORK_DIR=${CMAKE_CURRENT_BINARY_DIR}/headers-${suffix}
      -DLIB=$<TARGET_FILE:ofl> -DPROBE=${CMAKE_CURRENT_SOURCE_DIR}/install/headers_probe.c
      "-DEXTRA_FLAGS=${OFL_INSTALL_TEST_FLAGS}"
      -P ${CMAKE_CURRENT_SOURCE_DIR}/install/headers.cmake)
  set_tests_properties(public_headers_${suffix} PROPERTIES
    PASS_REGULAR_EXPRESSION "headers: OK" SKIP_REGULAR_EXPRESSION "SKIP:")
endfunction()
ofl_public_headers_test(c11 C ${CMAKE_C_COMPILER})
if(OFL_CXX)
  ofl_public_headers_test(cxx CXX ${OFL_CXX})
else()
  ofl_tests_not_built("no C++ compiler" public_headers_cxx)
endif()

# the library's objects without src/gro/ (no recompile)
add_library(ofl_nogro STATIC $<FILTER:$<TARGET_OBJECTS:ofl_obj>,EXCLUDE,/src/gro/>)
add_executable(gso_only install/gso_only.c)
target_include_directories(gso_only PRIVATE ${CMAKE_SOURCE_DIR}/include)
target_compile_definitions(gso_only PRIVATE OFL_STATIC)
target_link_libraries(gso_only PRIVATE ofl_nogro)
add_test(NAME gso_links_without_gro COMMAND gso_only)
set_tests_properties(gso_links_without_gro PROPERTIES PASS_REGULAR_EXPRESSION "22 entry points linked")
