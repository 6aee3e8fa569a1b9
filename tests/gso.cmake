# Software GSO/TSO tests (tests/unit/gso_*_test.c, tests/gso/), the kernel
# fixtures in tests/fixtures/gso/ (made by tests/gso/make-fixtures.sh), and
# the first benchmark (bench/gso_first.c).  Every test name starts with "gso".
# (ofl_replaycore: tests/CMakeLists.txt makes sure it exists, with or without the tool)
add_library(ofl_gsotest STATIC gso/gso_util.c gso/gso_check.c)
target_include_directories(ofl_gsotest PUBLIC ${CMAKE_CURRENT_SOURCE_DIR}/gso)
target_link_libraries(ofl_gsotest PUBLIC ofl_testsupport ofl_replaycore)

foreach(t tcp udp pool vnet roundtrip burst vlan descs vnet_le rawip tunnel start ring release)
  ofl_add_check_test(gso_${t}_test unit/gso_${t}_test.c LIBS ofl_gsotest)
endforeach()

target_compile_definitions(gso_tunnel_test PRIVATE
  OFL_GSO_TUNNEL_FIXTURES="${CMAKE_CURRENT_SOURCE_DIR}/fixtures/gso_tunnel")

# GRE and IP-in-IP GSO against the kernel's own segments (tests/fixtures/gso_gre_ipip,
# made by tests/gso/make-gre-ipip-fixtures.sh --kernel).
ofl_add_check_test(gso_gre_ipip_kernel_test unit/gso_gre_ipip_kernel_test.c LIBS ofl_gsotest)
target_compile_definitions(gso_gre_ipip_kernel_test PRIVATE
  OFL_GSO_GRE_IPIP_FIXTURES="${CMAKE_CURRENT_SOURCE_DIR}/fixtures/gso_gre_ipip")

# The kernel GSO fixtures: our segments against the kernel's.
ofl_add_check_test(gso_kernel_test unit/gso_kernel_test.c gso/mkgso.c LIBS ofl_gsotest)
target_compile_definitions(gso_kernel_test PRIVATE MKGSO_NO_MAIN
  OFL_GSO_FIXTURES="${CMAKE_CURRENT_SOURCE_DIR}/fixtures/gso")
# the fixture generator (make-fixtures.sh builds its own copy; this one
# keeps it compiling with the project's warnings)
add_executable(ofl_mkgso gso/mkgso.c)
target_link_libraries(ofl_mkgso PRIVATE ofl_gsotest)

# `offload-replay gso` end to end (the replay tool lists tools/offload-replay/gso_cmd.c).
if(TARGET offload-replay)
  ofl_add_check_test(gso_replay_test unit/gso_replay_test.c LIBS ofl_gsotest)
  target_compile_definitions(gso_replay_test PRIVATE
    OFL_GSO_REPLAY="$<TARGET_FILE:offload-replay>" OFL_GSO_TMP="${CMAKE_CURRENT_BINARY_DIR}"
    OFL_GSO_FIXTURES="${CMAKE_CURRENT_SOURCE_DIR}/fixtures/gso")
  add_dependencies(gso_replay_test offload-replay)
  # tunnel GSO decoded by tshark with checksum validation (exit 77 without tshark):
  # the corpus's VXLAN/Geneve super-packets, GRE and IP-in-IP ones of our own
  add_test(NAME gso_tunnel_tshark_test COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/gso/tunnel-tshark.sh
    $<TARGET_FILE:offload-replay> ${OFL_CORPORA_DEFAULT} ${CMAKE_CURRENT_BINARY_DIR}/gso_tunnel_tshark
    ${CMAKE_CURRENT_SOURCE_DIR}/fixtures/gso_gre_ipip)
  set_tests_properties(gso_tunnel_tshark_test PROPERTIES SKIP_RETURN_CODE 77 LABELS cli)
else()
  ofl_tests_not_built("OFL_BUILD_TOOLS=OFF" gso_replay_test gso_tunnel_tshark_test)
endif()

# The first GSO benchmark (plain C, clock_gettime): bench/gso_first.c.
# Not a test; run /path/to/build/tests/gso_first [iterations] [runs].
add_executable(gso_first ${CMAKE_SOURCE_DIR}/bench/gso_first.c)
target_link_libraries(gso_first PRIVATE ofl_static)

# GSO through a DSA tag (src/gso/dsa.c): every format, every segment tagged.
ofl_add_check_test(gso_dsa_test unit/gso_dsa_test.c LIBS ofl_gsotest)
