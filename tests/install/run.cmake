# cmake -P: install this build into a temporary prefix and build a tiny
# program against the installed copy, through find_package(ofl) and through
# pkg-config.  Needs no network: everything is local.
#   -DBUILD_DIR -DWORK_DIR -DCONSUMER_DIR -DPUBLIC_HEADER_DIR -DCC -DGENERATOR
#   -DPKG_CONFIG -DREADELF -DVERSION [-DEXTRA_FLAGS=compile and link flags, e.g. -fsanitize=...]
# With -DPREFIX=DIR instead of -DBUILD_DIR: check a copy installed there by
# other means (the Debian packages unpacked into an empty root, see
# .ci/packages.sh) and build against it.
if(DEFINED PREFIX AND NOT PREFIX STREQUAL "")
  set(BUILD_DIR "(none: -DPREFIX)")
endif()
foreach(v BUILD_DIR WORK_DIR CONSUMER_DIR PUBLIC_HEADER_DIR CC GENERATOR VERSION)
  if(NOT DEFINED ${v} OR "${${v}}" STREQUAL "")
    message(FATAL_ERROR "run.cmake: ${v} not set")
  endif()
endforeach()

function(run what)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${what} failed (${rc}): ${ARGN}\n${out}")
  endif()
  set(out "${out}" PARENT_SCOPE)
endfunction()

# Under valgrind (ctest -T memcheck traces children): the compilers this test
# drives are not ours to check and leak by design; say so and stop (skipped).
if("$ENV{LD_PRELOAD}" MATCHES "vgpreload")
  message("SKIP: packaging test not run under valgrind")
  return()
endif()
set(prefix ${WORK_DIR}/prefix)
file(REMOVE_RECURSE ${WORK_DIR})
file(MAKE_DIRECTORY ${WORK_DIR})

# 1. cmake --install into the prefix (or the copy at -DPREFIX)
if(DEFINED PREFIX AND NOT PREFIX STREQUAL "")
  set(prefix ${PREFIX})
else()
  run("cmake --install" ${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${prefix})
endif()
message(STATUS "installed into ${prefix}")

# 2. what must be there: headers, shared library with SONAME and version, static library
file(GLOB public_headers RELATIVE ${PUBLIC_HEADER_DIR} ${PUBLIC_HEADER_DIR}/*.h)
foreach(h ${public_headers})
  if(NOT EXISTS ${prefix}/include/ofl/${h})
    message(FATAL_ERROR "header ofl/${h} not installed")
  endif()
endforeach()
string(REGEX MATCH "^[0-9]+" major ${VERSION})
file(GLOB_RECURSE so_link ${prefix}/*/libofl.so)
if(NOT so_link)
  message(FATAL_ERROR "libofl.so not installed")
endif()
get_filename_component(libdir ${so_link} DIRECTORY)
foreach(f libofl.so.${major} libofl.so.${VERSION} libofl.a pkgconfig/ofl.pc
          cmake/ofl/ofl-config.cmake cmake/ofl/ofl-config-version.cmake cmake/ofl/ofl-targets.cmake)
  if(NOT EXISTS ${libdir}/${f})
    message(FATAL_ERROR "${libdir}/${f} not installed")
  endif()
endforeach()
if(NOT IS_SYMLINK ${libdir}/libofl.so OR NOT IS_SYMLINK ${libdir}/libofl.so.${major})
  message(FATAL_ERROR "libofl.so and libofl.so.${major} should be symlinks to libofl.so.${VERSION}")
endif()
if(READELF)
  run("readelf" ${READELF} -d ${libdir}/libofl.so.${VERSION})
  if(NOT out MATCHES "SONAME[^\n]*libofl\\.so\\.${major}\\]")
    message(FATAL_ERROR "SONAME of libofl.so.${VERSION} is not libofl.so.${major}:\n${out}")
  endif()
  message(STATUS "SONAME libofl.so.${major}, file libofl.so.${VERSION}")
endif()

# 3. find_package(ofl): ofl::ofl and ofl::ofl_static
run("configure consumer" ${CMAKE_COMMAND} -S ${CONSUMER_DIR} -B ${WORK_DIR}/consumer -G ${GENERATOR}
    -DCMAKE_C_COMPILER=${CC} -DCMAKE_PREFIX_PATH=${prefix} -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF
    -DCMAKE_FIND_USE_SYSTEM_PACKAGE_REGISTRY=OFF -DCMAKE_BUILD_TYPE=Release
    "-DCMAKE_C_FLAGS=-std=c11 -Wall -Wextra -Werror ${EXTRA_FLAGS}"
    "-DCMAKE_EXE_LINKER_FLAGS=${EXTRA_FLAGS}")
run("build consumer" ${CMAKE_COMMAND} --build ${WORK_DIR}/consumer)
if(NOT out MATCHES "consumer_shared" OR NOT out MATCHES "consumer_static")
  message(FATAL_ERROR "consumer build did not build both programs:\n${out}")
endif()
file(READ ${WORK_DIR}/consumer/CMakeCache.txt cache)
string(REGEX MATCH "ofl_DIR:PATH=[^\n]*" ofl_dir "${cache}")
if(NOT ofl_dir MATCHES "^ofl_DIR:PATH=${prefix}/")
  message(FATAL_ERROR "find_package(ofl) did not find the installed copy: ${ofl_dir}")
endif()
foreach(p consumer_shared consumer_static)
  run(${p} ${WORK_DIR}/consumer/${p})
  message(STATUS "find_package ${p}: ${out}")
endforeach()
if(READELF)
  run("readelf" ${READELF} -d ${WORK_DIR}/consumer/consumer_shared)
  if(NOT out MATCHES "NEEDED[^\n]*libofl\\.so\\.${major}")
    message(FATAL_ERROR "consumer_shared does not load libofl.so.${major}:\n${out}")
  endif()
  run("readelf" ${READELF} -d ${WORK_DIR}/consumer/consumer_static)
  if(out MATCHES "libofl")
    message(FATAL_ERROR "consumer_static depends on the shared library:\n${out}")
  endif()
endif()

# 4. pkg-config
if(PKG_CONFIG)
  set(ENV{PKG_CONFIG_LIBDIR} ${libdir}/pkgconfig)
  set(ENV{PKG_CONFIG_PATH} "")
  run("pkg-config --modversion" ${PKG_CONFIG} --modversion ofl)
  string(STRIP "${out}" pcver)
  if(NOT pcver STREQUAL VERSION)
    message(FATAL_ERROR "ofl.pc version ${pcver}, expected ${VERSION}")
  endif()
  run("pkg-config --variable=prefix" ${PKG_CONFIG} --variable=prefix ofl)
  string(STRIP "${out}" pcprefix)
  set(define)
  # a relocatable .pc says ${pcfiledir}/../..: compare the places, not the strings
  get_filename_component(pcprefix_real "${pcprefix}" REALPATH)
  get_filename_component(prefix_real "${prefix}" REALPATH)
  if(NOT pcprefix_real STREQUAL prefix_real)
    # ofl.pc carries the configure-time prefix: relocate it the way pkg-config allows
    message(WARNING "ofl.pc says prefix=${pcprefix}, installed under ${prefix} "
                    "(the .pc file is not relocatable; using --define-variable=prefix)")
    set(define --define-variable=prefix=${prefix})
  endif()
  run("pkg-config --cflags --libs" ${PKG_CONFIG} ${define} --cflags --libs ofl)
  string(STRIP "${out}" pcflags)
  separate_arguments(pcflags UNIX_COMMAND "${pcflags}")
  separate_arguments(extra UNIX_COMMAND "${EXTRA_FLAGS}")
  run("cc via pkg-config" ${CC} -std=c11 -Wall -Wextra -Werror ${extra} ${CONSUMER_DIR}/consumer.c ${pcflags}
      -Wl,-rpath,${libdir} -o ${WORK_DIR}/consumer_pc)
  run("consumer_pc" ${WORK_DIR}/consumer_pc)
  message(STATUS "pkg-config consumer: ${out}")
else()
  message(FATAL_ERROR "pkg-config not found (Debian package pkgconf or pkg-config)")
endif()
message("install test: OK")
