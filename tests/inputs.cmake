# Which tests read data from outside their own source (included last by
# tests/CMakeLists.txt, once every test exists).
#
#   label "corpus"   reads the shared captures in $OFL_CORPORA
#                    (default ../shared/corpora): FAILS when they are missing
#   label "fixture"  reads committed inputs (tests/fixtures, tests/fuzz/seeds
#                    and regress): FAILS when they are missing
#
# Exit 77 (ctest: "Skipped") is kept for inputs that may legitimately be
# absent on a machine: tcpdump (the DSA corpus tests), /dev/full (the CLI
# test).  scripts/test.sh fails CI when any test carrying these labels is
# skipped.  Without the corpora, leave their tests out: ctest -LE corpus.
# inputs_missing_fail proves the rule: it runs every corpus test with
# OFL_CORPORA and OFL_SOURCE_DIR pointing nowhere; each must fail.
set(OFL_CORPUS_TESTS gso_tcp_test gso_roundtrip_test gso_replay_test replay_corpus_test
    replay_mutate_test replay_e2e_test replay_cli_test replay_dsa_corpus_test dsa_corpus_test
    robust_malformed_test gro_burst_diff_test parse_fast_diff_test replay_manifest_test
    gso_tunnel_test gso_tunnel_tshark_test gro_tunnel_corpus_test)
set(OFL_FIXTURE_TESTS kernel_fixture_test gso_kernel_test gro_burst_diff_kernel_test
    gso_gre_ipip_kernel_test)
foreach(t ${OFL_FUZZ_TARGETS})
  list(APPEND OFL_FIXTURE_TESTS robust_${t}_seeds)
endforeach()

set(_missing_exes "")
foreach(t ${OFL_CORPUS_TESTS} ${OFL_FIXTURE_TESTS})
  if(NOT TEST ${t})
    continue()
  endif()
  if(t IN_LIST OFL_CORPUS_TESTS)
    set_property(TEST ${t} APPEND PROPERTY LABELS corpus)
    if(TARGET ${t}) # a script-driven test (tunnel-tshark.sh) has no program of its own
      list(APPEND _missing_exes $<TARGET_FILE:${t}>)
    endif()
  else()
    set_property(TEST ${t} APPEND PROPERTY LABELS fixture)
  endif()
  set_tests_properties(${t} PROPERTIES SKIP_RETURN_CODE 77)
endforeach()
# kernel_fixture_test finds its fixtures through OFL_SOURCE_DIR
if(TEST kernel_fixture_test)
  list(APPEND _missing_exes $<TARGET_FILE:kernel_fixture_test>)
endif()

add_test(NAME inputs_missing_fail
  COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/inputs_missing.sh ${_missing_exes})
# RUN_SERIAL: the programs write the same temporary files as their own runs;
# label cli: test programs as child processes, failing on purpose (the
# memcheck stage leaves it out, see tests/CMakeLists.txt)
set_tests_properties(inputs_missing_fail PROPERTIES TIMEOUT 600 RUN_SERIAL TRUE LABELS cli
  ENVIRONMENT "CK_DEFAULT_TIMEOUT=120")
