# GRO through UDP tunnels (src/gro/tunnel.c): the rule table, the delivered
# form and cut headers (tests/unit/gro_tunnel_test.c), and the same
# sequences as bursts against single frames (burstdiff.h).  Against the real
# kernel: kernel_fixture_test's test_tunnel_fixture over
# tests/fixtures/kernel-tunnel (tests/kernel/README.md).
ofl_add_check_test(gro_tunnel_test unit/gro_tunnel_test.c)
ofl_add_burst_diff_test(gro_burst_diff_tunnel_test unit/gro_tunnel_test.c)

# The tunnel captures of the corpus replayed with VXLAN and Geneve GRO on
# (tests/unit/gro_tunnel_corpus_test.c; a missing corpus fails: tests/inputs.cmake).
ofl_add_check_test(gro_tunnel_corpus_test unit/gro_tunnel_corpus_test.c LIBS ofl_gsotest)

# Tunnel header prediction and the train (src/gro/tunfast.c) against the
# full path, every header byte changed in turn (tests/unit/gro_tunfast_test.c;
# it compares bursts with single frames itself).
ofl_add_check_test(gro_tunfast_test unit/gro_tunfast_test.c)
