# The API reference: `cmake --build <dir> --target docs` runs Doxygen (Debian
# package doxygen) over the public headers and docs/guide.md into
# <build>/docs/html.  Included by the top-level CMakeLists.txt.
#
# Warnings (anything public left undocumented) go to <build>/docs/warnings.log
# and are counted at the end.  OFL_DOCS_WERROR (ON: the headers are clean)
# makes Doxygen fail on the first one (WARN_AS_ERROR), and so the ctest
# docs_reference too.
find_package(Doxygen QUIET)
option(OFL_DOCS_WERROR "Fail the docs target on any Doxygen warning" ON)

if(NOT DOXYGEN_FOUND)
  message(STATUS "Doxygen not found: no `docs` target (apt-get install doxygen)")
  return()
endif()

set(OFL_DOCS_OUTPUT_DIR ${CMAKE_BINARY_DIR}/docs)
if(OFL_DOCS_WERROR)
  set(OFL_DOCS_WARN_AS_ERROR YES)
else()
  set(OFL_DOCS_WARN_AS_ERROR NO)
endif()
# Read each header's opening comment as its \file documentation.
set(OFL_DOCS_HEADER_FILTER "sed -e 1s,^/[*]$,/**@file,")
configure_file(${PROJECT_SOURCE_DIR}/docs/Doxyfile.in ${OFL_DOCS_OUTPUT_DIR}/Doxyfile @ONLY)

file(GLOB OFL_DOCS_INPUTS ${PROJECT_SOURCE_DIR}/include/ofl/*.h ${PROJECT_SOURCE_DIR}/docs/*.md)
set(OFL_DOCS_STAMP ${OFL_DOCS_OUTPUT_DIR}/html/index.html)
add_custom_command(OUTPUT ${OFL_DOCS_STAMP}
  COMMAND ${CMAKE_COMMAND} -E rm -f ${OFL_DOCS_OUTPUT_DIR}/warnings.log
  COMMAND Doxygen::doxygen ${OFL_DOCS_OUTPUT_DIR}/Doxyfile
  COMMAND ${CMAKE_COMMAND} -DLOG=${OFL_DOCS_OUTPUT_DIR}/warnings.log
          -P ${PROJECT_SOURCE_DIR}/docs/warnings.cmake
  DEPENDS ${OFL_DOCS_INPUTS} ${PROJECT_SOURCE_DIR}/docs/Doxyfile.in ${OFL_DOCS_OUTPUT_DIR}/Doxyfile
  WORKING_DIRECTORY ${OFL_DOCS_OUTPUT_DIR}
  COMMENT "Doxygen: API reference in ${OFL_DOCS_OUTPUT_DIR}/html"
  VERBATIM)
add_custom_target(docs DEPENDS ${OFL_DOCS_STAMP})

if(OFL_BUILD_TESTS)
  # CI builds the reference too: ctest -R docs
  add_test(NAME docs_reference
    COMMAND ${CMAKE_COMMAND} --build ${CMAKE_BINARY_DIR} --target docs)
  set_tests_properties(docs_reference PROPERTIES RUN_SERIAL TRUE TIMEOUT 300)
endif()
