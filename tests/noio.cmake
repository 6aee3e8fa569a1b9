# The library does no I/O (README): it opens no file and reads no device.
# Its one request to the system, random bytes for a flow-hash key the caller
# did not configure, is a system call in src/core/entropy.c, which a
# freestanding build (OFL_ENTROPY=OFF) leaves out.
#
#  noio_src_no_open         no fopen/open/openat/creat/freopen/fdopen call in src/
#  noio_lib_imports_no_open the shared library imports none of them
#  gro_hashkey_test         the key from the configuration, else from the OS
#  gro_hashkey_noentropy_test  the same sources built as OFL_ENTROPY=OFF would:
#                           hash_key 0,0 refused, and the archive imports no
#                           getrandom/getentropy (noio_noentropy_imports)
set(OFL_NOIO_CALLS "fopen|fopen64|freopen|fdopen|open|open64|openat|openat64|creat|creat64")
add_test(NAME noio_src_no_open
  COMMAND sh -c "! grep -rnE \"(^|[^A-Za-z0-9_])(${OFL_NOIO_CALLS})[[:space:]]*\\\\(\" \"$1\"" sh
          ${CMAKE_SOURCE_DIR}/src)
add_test(NAME noio_lib_imports_no_open
  COMMAND sh -c "nm -D --undefined-only \"$1\" | awk '{print $2}' | sed 's/@.*//' | grep -xE \"$2\"; [ $? = 1 ]"
          sh $<TARGET_FILE:ofl> "${OFL_NOIO_CALLS}")

ofl_add_check_test(gro_hashkey_test unit/gro_hashkey_test.c)
target_include_directories(gro_hashkey_test PRIVATE fuzz)

# the freestanding flavour of the library, for the two tests below only
set(_noentropy_src ${OFL_SOURCES})
list(REMOVE_ITEM _noentropy_src src/core/entropy.c)
list(TRANSFORM _noentropy_src PREPEND ${CMAKE_SOURCE_DIR}/)
add_library(ofl_noentropy STATIC ${_noentropy_src})
target_include_directories(ofl_noentropy PUBLIC ${CMAKE_SOURCE_DIR}/include PRIVATE ${CMAKE_SOURCE_DIR}/src)
target_compile_definitions(ofl_noentropy PRIVATE OFL_BUILDING OFL_NO_ENTROPY INTERFACE OFL_STATIC)
set_target_properties(ofl_noentropy PROPERTIES C_VISIBILITY_PRESET hidden)
add_executable(gro_hashkey_noentropy_test unit/gro_hashkey_test.c support/gen.c support/harness.c
               support/conserve.c support/ipwalk.c)
target_include_directories(gro_hashkey_noentropy_test PRIVATE fuzz support ${CMAKE_SOURCE_DIR}/src)
target_compile_definitions(gro_hashkey_noentropy_test PRIVATE OFL_NO_ENTROPY)
target_link_libraries(gro_hashkey_noentropy_test PRIVATE ofl_noentropy PkgConfig::CHECK)
add_test(NAME gro_hashkey_noentropy_test COMMAND gro_hashkey_noentropy_test)
add_test(NAME noio_noentropy_imports
  COMMAND sh -c "nm --undefined-only \"$1\" | awk '{print $2}' | grep -xE \"getrandom|getentropy|$2\"; [ $? = 1 ]"
          sh $<TARGET_FILE:ofl_noentropy> "${OFL_NOIO_CALLS}")
