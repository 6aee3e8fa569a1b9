#!/usr/bin/env bash
# The whole test suite under AddressSanitizer + UndefinedBehaviorSanitizer:
# configure a clang build with OFL_SANITIZE=ON (-fsanitize=address,undefined
# -fno-sanitize-recover=all) in the given directory, build it, run ctest.
#
#   .ci/sanitize.sh [BUILD_DIR]      default: build-asan in the repository
#
# Exits non-zero on any failure and on any sanitizer report: every report
# aborts its process (halt_on_error, no recovery), and the ctest log is
# searched for reports afterwards in case some process's exit status was not
# looked at.  Leak checking (LeakSanitizer) is on.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-$top/build-asan}
jobs=${JOBS:-2}
export OFL_CORPORA=${OFL_CORPORA:-$top/../shared/corpora}
export ASAN_OPTIONS=${ASAN_OPTIONS:-abort_on_error=1:halt_on_error=1:detect_leaks=1:strict_string_checks=1:detect_stack_use_after_return=1:check_initialization_order=1:strict_init_order=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1:abort_on_error=1}
export LSAN_OPTIONS=${LSAN_OPTIONS:-exitcode=23}
# the tests that sweep burst sizes take a documented subset under a checker
# (tests/support/burstdiff.c, tests/unit/gso_burst_test.c)
export OFL_TEST_CHECKER=asan

echo "sanitize: clang ASan+UBSan build in $out"
CC=clang cmake -S "$top" -B "$out" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DOFL_SANITIZE=ON \
  -DOFL_BUILD_BENCH=OFF -DOFL_WERROR=ON >/dev/null
cmake --build "$out" -j"$jobs"
rc=0
ctest --test-dir "$out" --output-on-failure -j"$jobs" || rc=$?
log=$out/Testing/Temporary/LastTest.log
if [ -f "$log" ] && grep -E -n "ERROR: (Address|Leak|UndefinedBehavior)Sanitizer|runtime error:|SUMMARY: (Address|UndefinedBehavior|Leak)Sanitizer" "$log" | head -20; then
  echo "sanitize: sanitizer report(s) in $log" >&2
  rc=1
fi
if [ "$rc" -ne 0 ]; then
  echo "sanitize: FAILED" >&2
  exit "$rc"
fi
echo "sanitize: all tests passed with zero sanitizer reports"
