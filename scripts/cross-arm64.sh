#!/usr/bin/env bash
# scripts/cross-arm64.sh - the library cross-built for AArch64 (Linux) and its
# tests run under qemu-user, twice: the NEON compare of header prediction
# (OFL_SIMD=AUTO) and the portable scalar one (OFL_SIMD=OFF).
#
#   scripts/cross-arm64.sh [BUILD_DIR]    default: build-arm64 in the repository;
#                                         BUILD_DIR/neon and BUILD_DIR/scalar
#   OFL_CROSS_QUICK=1   leave out the three longest corpus sweeps under qemu
#                       (replay_mutate_test, gro_burst_diff_test,
#                       replay_corpus_test: ~175 s of CPU)
#   OFL_CROSS_GRO=1     CI's stage (scripts/test.sh): the NEON build of the
#                       GRO tests below only, run under qemu-user (the scalar
#                       compare runs there too, in gro_cmp_test; the whole
#                       suite with OFL_SIMD=OFF is the clang stage's, on the
#                       build machine)
#
# Needs (Debian 12; `dpkg --add-architecture arm64 && apt-get update` first):
#   gcc-aarch64-linux-gnu qemu-user check:arm64 libpcap-dev:arm64
# plus cmake and pkg-config.  The toolchain file is cmake/aarch64-linux-gnu.cmake.
#
# What runs:
#   neon    every test but those that need root or the kernel (example_*),
#           an install or a C++ compiler (install_consumer, public_headers_*),
#           Doxygen (docs_reference), or that start the target's offload-replay
#           as a program (replay_e2e/cli/manifest/live/dsa_*, gso_replay_test:
#           no binfmt_misc registration is assumed, so the kernel cannot run it);
#   scalar  the GRO tests (the compare is GRO's): rules, kernel fixtures,
#           selftest, runs, lone frames, DSA, output, and their burst twins.
# Check runs each test case in the test process (CK_FORK=no): forked test
# cases hang under qemu-user.  OFL_WERROR is on, as in CI.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-$top/build-arm64}
jobs=${OFL_JOBS:-2}
for p in aarch64-linux-gnu-gcc qemu-aarch64 cmake pkg-config; do
  command -v "$p" >/dev/null || { echo "cross-arm64: $p missing (see the top of $0)" >&2; exit 1; }
done
export CK_FORK=no

skip='^example_|^install_consumer$|^public_headers_|^docs_reference$|^replay_(e2e|cli|manifest|live|dsa_.*)_test$|^gso_replay_test$'
[ "${OFL_CROSS_QUICK:-0}" = 1 ] && skip="$skip|^replay_mutate_test\$|^gro_burst_diff_test\$|^replay_corpus_test\$"
gro_tests='gro_cmp_test gro_rules_test gro_burst_diff_rules_test kernel_fixture_test gro_burst_diff_kernel_test
           gro_selftest_test gro_burst_diff_selftest_test gro_run_test gro_burst_diff_run_test gro_lone_test
           gro_burst_diff_lone_test gro_dsa_test gro_output_test parse_fast_diff_test'

configure() { # DIR SIMD
  cmake -S "$top" -B "$1" -DCMAKE_TOOLCHAIN_FILE="$top/cmake/aarch64-linux-gnu.cmake" \
        -DCMAKE_BUILD_TYPE=RelWithDebInfo -DOFL_WERROR=ON -DOFL_BUILD_BENCH=OFF -DOFL_SIMD="$2" >/dev/null
}

gro_only="^($(echo $gro_tests | tr ' ' '|'))\$"

echo "== neon: $out/neon"
configure "$out/neon" AUTO
if [ "${OFL_CROSS_GRO:-0}" = 1 ]; then
  # shellcheck disable=SC2086
  nice cmake --build "$out/neon" -j"$jobs" --target $gro_tests >/dev/null
  ctest --test-dir "$out/neon" -j"$jobs" --timeout 600 -R "$gro_only" --output-on-failure
else
  nice cmake --build "$out/neon" -j"$jobs" >/dev/null
  ctest --test-dir "$out/neon" -j"$jobs" --timeout 600 -E "$skip" --output-on-failure
fi
# the compare versions this target ran (NEON and scalar), named by the test
qemu-aarch64 -L /usr/aarch64-linux-gnu "$out/neon/tests/gro_cmp_test" | grep 'versions checked'
[ "${OFL_CROSS_GRO:-0}" = 1 ] && { echo "cross-arm64: GRO tests passed (NEON build)"; exit 0; }

echo "== scalar (OFL_SIMD=OFF): $out/scalar"
configure "$out/scalar" OFF
# shellcheck disable=SC2086
nice cmake --build "$out/scalar" -j"$jobs" --target $gro_tests >/dev/null
ctest --test-dir "$out/scalar" -j"$jobs" --timeout 600 -R "$gro_only" --output-on-failure
echo "cross-arm64: all passed"
