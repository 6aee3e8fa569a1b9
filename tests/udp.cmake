# UDP GRO over the corpus's UDP captures (QUIC, RTP, UFTP), each merged
# packet cut back by GSO (tests/unit/gro_udp_corpus_test.c); the rule table
# and its burst twin are tests/unit/gro_udp_test.c (tests/CMakeLists.txt).
ofl_add_check_test(gro_udp_corpus_test unit/gro_udp_corpus_test.c LIBS ofl_gsotest)
set_tests_properties(gro_udp_corpus_test PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 900)
# ... and as bursts against single frames (burstdiff.h)
ofl_add_burst_diff_test(gro_burst_diff_udp_corpus_test unit/gro_udp_corpus_test.c LIBS ofl_gsotest)
set_tests_properties(gro_burst_diff_udp_corpus_test PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 900)
# header prediction and the train of a UDP flow against the full path, byte
# for byte (tests/unit/gro_udpfast_test.c)
ofl_add_check_test(gro_udpfast_test unit/gro_udpfast_test.c)
