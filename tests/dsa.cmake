# DSA tag codec tests.  The corpus test reads captures with libpcap and
# compares with tcpdump; it fails without the corpus and exits 77 (skipped,
# tests/inputs.cmake) without tcpdump.
pkg_check_modules(PCAP REQUIRED IMPORTED_TARGET libpcap)

# ofl_add_dsa_brief_test(NAME source... [LIBS lib...]): a DSA test linked
# with support/dsa_briefdiff.c: every frame it decodes with ofl_dsa_decode()
# is decoded by ofl_dsa_decode_brief() too, which must agree.  Needs a
# linker with --wrap (GNU ld, lld), as ofl_add_burst_diff_test.
function(ofl_add_dsa_brief_test name)
  ofl_add_check_test(${name} ${CMAKE_CURRENT_SOURCE_DIR}/support/dsa_briefdiff.c ${ARGN})
  target_link_options(${name} PRIVATE "-Wl,--wrap=ofl_dsa_decode")
endfunction()

ofl_add_dsa_brief_test(dsa_corpus_test unit/dsa_corpus_test.c LIBS PkgConfig::PCAP)
ofl_add_dsa_brief_test(dsa_roundtrip_test unit/dsa_roundtrip_test.c)
ofl_add_dsa_brief_test(dsa_vectors_test unit/dsa_vectors_test.c)
ofl_add_dsa_brief_test(dsa_kernel_rules_test unit/dsa_kernel_rules_test.c)
ofl_add_dsa_brief_test(dsa_cut_test unit/dsa_cut_test.c)
# ofl_dsa_decode_brief_burst() against ofl_dsa_decode_brief(), frame by frame.
ofl_add_check_test(dsa_burst_test unit/dsa_burst_test.c)
