# offload-replay: command line, corpus replay, end to end.
# Included by tests/CMakeLists.txt; every test name starts with "replay".
if(TARGET offload-replay)
  ofl_add_check_test(replay_core_test replay/core_test.c replay/pcapng_gen.c LIBS ofl_replaycore)

  # The key test: every Ethernet capture of the corpus through the replay core.
  ofl_add_check_test(replay_corpus_test replay/corpus_test.c replay/replay_check.c replay/frame_check.c
                     LIBS ofl_replaycore)
  set_tests_properties(replay_corpus_test PROPERTIES TIMEOUT 900)
  # The same with damaged frames (header fields, truncation, reordering).
  ofl_add_check_test(replay_mutate_test replay/mutate_test.c replay/replay_check.c replay/frame_check.c
                     LIBS ofl_replaycore)
  set_tests_properties(replay_mutate_test PROPERTIES TIMEOUT 900)

  # Every corpus capture as bursts against single frames (burstdiff.h).
  ofl_add_burst_diff_test(gro_burst_diff_test ${CMAKE_CURRENT_SOURCE_DIR}/unit/gro_burst_diff_test.c
                          replay/replay_check.c replay/frame_check.c LIBS ofl_replaycore)
  target_include_directories(gro_burst_diff_test PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/replay)
  set_tests_properties(gro_burst_diff_test PROPERTIES TIMEOUT 1500)

  # The one-pass parse of plain frames against the full parser, every frame.
  ofl_add_check_test(parse_fast_diff_test ${CMAKE_CURRENT_SOURCE_DIR}/unit/parse_fast_diff_test.c
                     replay/replay_check.c replay/frame_check.c LIBS ofl_replaycore)
  target_include_directories(parse_fast_diff_test PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/replay)

  ofl_add_check_test(replay_e2e_test replay/e2e_test.c replay/frame_check.c replay/pcapng_gen.c
                     replay/payload_sum.c
                     LIBS ofl_replaycore)
  target_compile_definitions(replay_e2e_test PRIVATE
    OFFLOAD_REPLAY_BIN="$<TARGET_FILE:offload-replay>"
    REPLAY_TMPDIR="${CMAKE_CURRENT_BINARY_DIR}")
  add_dependencies(replay_e2e_test offload-replay)

  # Every capture of MANIFEST.tsv tcpdump reads: read too, and conserved
  # (or, for the L2-less link types, refused naming them: see the file).
  ofl_add_check_test(replay_manifest_test replay/manifest_test.c replay/frame_check.c
                     replay/payload_sum.c LIBS ofl_replaycore)
  target_compile_definitions(replay_manifest_test PRIVATE
    OFFLOAD_REPLAY_BIN="$<TARGET_FILE:offload-replay>"
    REPLAY_TMPDIR="${CMAKE_CURRENT_BINARY_DIR}")
  add_dependencies(replay_manifest_test offload-replay)
  # label "cli": drives the binary, left out of the memcheck stage (tests/CMakeLists.txt)
  set_tests_properties(replay_manifest_test PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 900 LABELS cli)

  # gro -i lo while the test sends over a loopback TCP connection (root)
  ofl_add_check_test(replay_live_test replay/live_test.c LIBS ofl_replaycore)
  target_compile_definitions(replay_live_test PRIVATE
    OFFLOAD_REPLAY_BIN="$<TARGET_FILE:offload-replay>"
    REPLAY_TMPDIR="${CMAKE_CURRENT_BINARY_DIR}")
  add_dependencies(replay_live_test offload-replay)
  set_tests_properties(replay_live_test PROPERTIES SKIP_RETURN_CODE 77 LABELS cli RUN_SERIAL TRUE)

  ofl_add_check_test(replay_cli_test replay/cli_test.c)
  target_compile_definitions(replay_cli_test PRIVATE
    OFFLOAD_REPLAY_BIN="$<TARGET_FILE:offload-replay>"
    REPLAY_TMPDIR="${CMAKE_CURRENT_BINARY_DIR}")
  add_dependencies(replay_cli_test offload-replay)
else()
  ofl_tests_not_built("OFL_BUILD_TOOLS=OFF" replay_core_test replay_corpus_test gro_burst_diff_test
                      parse_fast_diff_test replay_manifest_test replay_live_test
                      replay_mutate_test replay_e2e_test replay_cli_test replay_dsa_corpus_test
                      replay_dsa_roundtrip_test replay_dsa_gro_test replay_dsa_gso_test)
endif()

# offload-replay's DSA subcommands (dsa-decode, dsa-encode) and gro/gso --dsa.
if(TARGET offload-replay)
  foreach(t dsa_corpus dsa_roundtrip dsa_gro dsa_gso)
    if(EXISTS ${CMAKE_CURRENT_SOURCE_DIR}/replay/${t}_test.c)
      ofl_add_check_test(replay_${t}_test replay/${t}_test.c replay/dsa_util.c LIBS ofl_replaycore)
      target_compile_definitions(replay_${t}_test PRIVATE
        OFFLOAD_REPLAY_BIN="$<TARGET_FILE:offload-replay>"
        REPLAY_TMPDIR="${CMAKE_CURRENT_BINARY_DIR}")
      add_dependencies(replay_${t}_test offload-replay)
    endif()
  endforeach()
  # without tcpdump the comparison is skipped (exit 77, tests/inputs.cmake), never passed
endif()
