# cmake -P, after Doxygen: say how many warnings it wrote to LOG (the `docs`
# target, cmake/docs.cmake).  With OFL_DOCS_WERROR=ON Doxygen itself fails first.
if(NOT EXISTS "${LOG}")
  message(STATUS "Doxygen: no warnings")
  return()
endif()
file(STRINGS "${LOG}" lines REGEX "warning:")
list(LENGTH lines n)
if(n EQUAL 0)
  message(STATUS "Doxygen: no warnings")
else()
  message(STATUS "Doxygen: ${n} warnings about the public headers, listed in ${LOG}")
endif()
