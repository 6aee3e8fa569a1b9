#!/usr/bin/env bash
# Every test: install what is missing, then build and run the whole suite
# with gcc and with clang (-Wall -Wextra -Werror: OFL_WERROR=ON here, off in
# a user's build), build Release (-O3) and MinSizeRel with both, build the
# Debian packages and link against them, check the shared library's ABI
# against the last release's (.ci/abi.sh: abidiff with the committed
# baseline abi/libofl.so.<SOVERSION>.abi), run the suite under
# AddressSanitizer + UndefinedBehaviorSanitizer, once under valgrind
# memcheck, cross-build for AArch64 and run the GRO tests under qemu-user,
# and the fuzz targets briefly.  Exits non-zero on the first failure.
#   QUICK=1 scripts/test.sh    gcc build and ctest only
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
bash "$top/scripts/deps.sh"
out=${BUILD_ROOT:-$top/build-test}
jobs=$(nproc)
export OFL_CORPORA=${OFL_CORPORA:-$top/../shared/corpora}

stage() { echo; echo "=== $* ==="; }

stage "gcc: build and ctest"
CC=gcc cmake -S "$top" -B "$out/gcc" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DOFL_BUILD_BENCH=OFF \
  -DOFL_WERROR=ON >/dev/null
cmake --build "$out/gcc" -j"$jobs"
ctest --test-dir "$out/gcc" --output-on-failure -j"$jobs" | tee "$out/gcc-ctest.log"
[ "${PIPESTATUS[0]}" = 0 ] || exit 1
# a test that reads the corpora or committed fixtures (ctest labels corpus,
# fixture: tests/inputs.cmake) may not be skipped here
inputs=$(ctest --test-dir "$out/gcc" -N -L 'corpus|fixture' | sed -n 's/^ *Test *#[0-9]*: *//p')
skipped=$(sed -n 's/^[[:space:]]*[0-9]* - \(.*\) (Skipped)$/\1/p' "$out/gcc-ctest.log")
for t in $skipped; do
  if grep -qx "$t" <<<"$inputs"; then
    echo "test.sh: $t (reads the corpora or fixtures) was skipped: CI needs it run" >&2
    exit 1
  fi
done
# the closing line CI reads: the gcc stage's test count (every later stage
# exits non-zero on any failure)
summary=$(sed -n 's/.*tests passed, \([0-9]*\) tests failed out of \([0-9]*\).*/\2 \1/p' "$out/gcc-ctest.log" | tail -1)
closing() { set -- $summary; echo "tests: $(( $1 - $2 )) passed, $2 failed"; }
if [ "${QUICK:-0}" = 1 ]; then closing; exit 0; fi

# Check runs each test case in a forked child by default, as the gcc stage
# above did: every case isolated, a crash named by its case.  The later
# stages run the same cases in one process (CK_FORK=no): a fork per case
# costs far more under ASan and valgrind than the case itself, and passing
# both ways shows that no case leans on another's state or on its isolation.
export CK_FORK=no

# The clang stage runs the whole suite with the portable scalar compare of
# GRO header prediction (OFL_SIMD=OFF); every other stage with the vector
# one the target has (SSE2/AVX2 here, NEON in the AArch64 stage).
stage "clang, scalar compare (OFL_SIMD=OFF): build (warnings are errors) and ctest"
CC=clang CXX=clang++ cmake -S "$top" -B "$out/clang" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DOFL_BUILD_BENCH=OFF \
  -DOFL_WERROR=ON -DOFL_SIMD=OFF >/dev/null
cmake --build "$out/clang" -j"$jobs"
ctest --test-dir "$out/clang" --output-on-failure -j"$jobs"

# ---- release builds (issue 15): what users and packagers build ----------
# Build only, no ctest; warnings are errors.  gcc Release builds everything
# (tests too: the README's `cmake -DCMAKE_BUILD_TYPE=Release` path, where gcc
# 12 -O3 once warned); the other three the library and the tool.  Installed
# under /usr, so the gcc Release tree is also the one the packages come from.
for cc in gcc clang; do
  for type in Release MinSizeRel; do
    stage "$cc $type: build (warnings are errors)"
    dir="$out/$cc-$type"
    targets=(--target ofl ofl_static offload-replay)
    [ "$cc/$type" = gcc/Release ] && targets=()
    CC=$cc cmake -S "$top" -B "$dir" -DCMAKE_BUILD_TYPE="$type" -DCMAKE_INSTALL_PREFIX=/usr \
      -DOFL_BUILD_BENCH=OFF -DOFL_WERROR=ON >/dev/null
    cmake --build "$dir" -j"$jobs" "${targets[@]}" >/dev/null
  done
done

# ---- AArch64 (issue 12): Debian's cross compiler, tests under qemu-user ---
# The NEON build of the GRO tests (rules, kernel fixtures, selftest, runs,
# lone frames, DSA, output, the fast parse and their burst twins, and the
# compare test, which checks NEON against scalar); scripts/cross-arm64.sh
# without OFL_CROSS_GRO runs the whole suite, NEON and scalar.
stage "aarch64 (cross build, qemu-user): GRO tests, NEON compare"
bash "$top/scripts/deps.sh" --arm64
OFL_CROSS_GRO=1 OFL_JOBS="$jobs" bash "$top/scripts/cross-arm64.sh" "$out/arm64"

# ---- packages (issue 15): cpack -G DEB, an empty root, the consumer ------
stage "packages: libofl0, libofl-dev, offload-replay into an empty root"
bash "$top/.ci/packages.sh" "$out/gcc-Release" "$out/packages"

for s in abi sanitize valgrind fuzz; do
  if [ -f "$top/.ci/$s.sh" ]; then
    stage "$s"
    extra=()
    # memcheck: the tests that only drive the command-line tool as a child
    # process (label "cli") and the burst-against-single replays (label
    # "burstdiff": the wrapped tests run under memcheck themselves) are left
    # to the ASan+UBSan stage
    [ "$s" = valgrind ] && extra=(-LE 'cli|burstdiff')
    # memcheck runs the gcc stage's tree (same configuration: nothing to
    # rebuild)
    dir="$out/$s"
    [ "$s" = valgrind ] && dir="$out/gcc"
    bash "$top/.ci/$s.sh" "$dir" "${extra[@]}"
  fi
done
stage "all stages passed"
closing
