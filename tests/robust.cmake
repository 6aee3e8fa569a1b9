# Robustness (issue 6): the fuzz targets as plain tests over the committed
# seeds, the bad-input catalogue, hash flooding, memory bounds and the
# malformed captures of the corpus.  Included by tests/CMakeLists.txt; every
# test name starts with "robust".
#
# The fuzz targets build here with the ordinary compiler: fuzz/onefile.c
# gives them a main() that feeds files to LLVMFuzzerTestOneInput, so every
# seed and regression input replays in plain CI without libFuzzer.  The
# libFuzzer build is tests/fuzz/CMakeLists.txt (driven by run-fuzz.sh).
include(${CMAKE_CURRENT_SOURCE_DIR}/fuzz/targets.cmake)
set(OFL_FUZZ_DIR ${CMAKE_CURRENT_SOURCE_DIR}/fuzz)
foreach(t ${OFL_FUZZ_TARGETS})
  string(REPLACE "fuzz_" "" area ${t})
  add_executable(${t}_onefile ${OFL_FUZZ_${t}_SRCS} fuzz/onefile.c fuzz/fz.c)
  target_include_directories(${t}_onefile PRIVATE fuzz)
  target_link_libraries(${t}_onefile PRIVATE ofl_testsupport ${OFL_FUZZ_${t}_LIBS})
  target_compile_definitions(${t}_onefile PRIVATE ${OFL_FUZZ_${t}_DEFS})
  # every committed seed and fixed-bug regression input
  set(inputs ${OFL_FUZZ_DIR}/seeds/${area})
  if(EXISTS ${OFL_FUZZ_DIR}/regress/${area})
    list(APPEND inputs ${OFL_FUZZ_DIR}/regress/${area})
  endif()
  add_test(NAME robust_${t}_seeds COMMAND ${t}_onefile ${inputs})
  # inputs of reported, not yet fixed library bugs (tests/fuzz/known/README):
  # checked strictly; disabled until the fix lands, then enable (or move the
  # files to regress/)
  if(EXISTS ${OFL_FUZZ_DIR}/known/${area})
    add_test(NAME robust_${t}_known COMMAND ${t}_onefile ${OFL_FUZZ_DIR}/known/${area})
    set_tests_properties(robust_${t}_known PROPERTIES ENVIRONMENT "FZ_STRICT=1" DISABLED TRUE)
  endif()
endforeach()

ofl_add_check_test(robust_badinput_test unit/robust_badinput_test.c)
ofl_add_check_test(robust_hashflood_test unit/robust_hashflood_test.c)
target_include_directories(robust_hashflood_test PRIVATE fuzz)
ofl_add_check_test(robust_membound_test unit/robust_membound_test.c)
ofl_add_check_test(robust_malformed_test unit/robust_malformed_test.c LIBS ofl_replaycore)

# The hash-flood benchmark (run by hand, see its header).
add_executable(robust_flood_bench fuzz/flood_bench.c)
target_include_directories(robust_flood_bench PRIVATE fuzz)
target_link_libraries(robust_flood_bench PRIVATE ofl_testsupport)

# The seed maker of the fuzz targets (run-fuzz.sh uses the libFuzzer
# build's copy; this one keeps it compiling with the project's warnings).
if(TARGET ofl_replaycore)
  add_executable(robust_fzseed fuzz/fzseed.c)
  target_link_libraries(robust_fzseed PRIVATE ofl_testsupport ofl_replaycore)
  target_compile_definitions(robust_fzseed PRIVATE ${OFL_FZSEED_DEFS})
endif()
