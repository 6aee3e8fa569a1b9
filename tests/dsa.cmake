# DSA tag codec tests.  The corpus test reads captures with libpcap and
# compares with tcpdump; it fails without the corpus and exits 77 (skipped,
# tests/inputs.cmake) without tcpdump.
pkg_check_modules(PCAP REQUIRED IMPORTED_TARGET libpcap)

ofl_add_check_test(dsa_corpus_test unit/dsa_corpus_test.c LIBS PkgConfig::PCAP)
ofl_add_check_test(dsa_roundtrip_test unit/dsa_roundtrip_test.c)
ofl_add_check_test(dsa_vectors_test unit/dsa_vectors_test.c)
ofl_add_check_test(dsa_kernel_rules_test unit/dsa_kernel_rules_test.c)
ofl_add_check_test(dsa_cut_test unit/dsa_cut_test.c)
