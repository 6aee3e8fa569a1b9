# The fuzz targets that exist in this tree: shared by tests/fuzz/CMakeLists.txt
# (libFuzzer build) and tests/robust.cmake (gcc build with onefile.c).  A
# target for an area is added only once that area's header and sources are
# in the tree, so the list grows as GSO/DSA land.
set(_fz ${CMAKE_CURRENT_LIST_DIR})
get_filename_component(_top ${_fz}/../.. ABSOLUTE)
set(OFL_FUZZ_TARGETS fuzz_gro)
set(OFL_FUZZ_fuzz_gro_SRCS ${_fz}/fuzz_gro.c)
set(OFL_FUZZ_fuzz_gro_LIBS "")
if(EXISTS ${_top}/include/ofl/dsa.h AND EXISTS ${_top}/src/dsa/sources.cmake)
  list(APPEND OFL_FUZZ_TARGETS fuzz_dsa)
  set(OFL_FUZZ_fuzz_dsa_SRCS ${_fz}/fuzz_dsa.c)
  set(OFL_FUZZ_fuzz_dsa_LIBS "")
endif()
set(OFL_FUZZ_fuzz_gro_DEFS "")
if(EXISTS ${_top}/include/ofl/gso.h AND EXISTS ${_top}/src/gso/sources.cmake)
  set(OFL_FUZZ_fuzz_gro_DEFS OFL_FUZZ_HAVE_GSO)
  list(APPEND OFL_FUZZ_TARGETS fuzz_gso)
  set(OFL_FUZZ_fuzz_gso_SRCS ${_fz}/fuzz_gso.c)
  set(OFL_FUZZ_fuzz_gso_LIBS "")
endif()
# No fuzz_pcap: capture files are read by libpcap (offload-replay's
# capture.c), whose own fuzzing is libpcap's project's business.

# The seed maker's definitions: the areas whose seeds it makes.
set(OFL_FZSEED_DEFS "")
if(fuzz_dsa IN_LIST OFL_FUZZ_TARGETS)
  list(APPEND OFL_FZSEED_DEFS FZSEED_DSA)
endif()
if(fuzz_gso IN_LIST OFL_FUZZ_TARGETS)
  list(APPEND OFL_FZSEED_DEFS FZSEED_GSO)
endif()
