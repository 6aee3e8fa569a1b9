# Kernel GRO fixtures (tests/kernel/, tests/fixtures/kernel/).
#
# kernel_fixture_test compares our GRO with the real Linux kernel's output on
# the committed captures; it never runs the kernel.  The captures are made by
# tests/kernel/make-fixtures.sh (root), from the sequences of ofl_mkseq.
ofl_add_check_test(kernel_fixture_test kernel/kernel_fixture_test.c)
target_compile_definitions(kernel_fixture_test PRIVATE
  OFL_KERNEL_FIXTURES="${CMAKE_CURRENT_SOURCE_DIR}/fixtures/kernel")
# ... and every fixture input as bursts against single frames (burstdiff.h).
ofl_add_burst_diff_test(gro_burst_diff_kernel_test kernel/kernel_fixture_test.c)
target_compile_definitions(gro_burst_diff_kernel_test PRIVATE
  OFL_KERNEL_FIXTURES="${CMAKE_CURRENT_SOURCE_DIR}/fixtures/kernel")

# The sequence generator (make-fixtures.sh builds its own copy; this one
# keeps it compiling with the project's warnings).
add_executable(ofl_mkseq kernel/mkseq.c support/gen.c support/gen_tun.c support/ipwalk.c)
target_include_directories(ofl_mkseq PRIVATE support)
