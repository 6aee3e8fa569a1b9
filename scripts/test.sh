#!/usr/bin/env bash
# Every test: install what is missing, then build and run the whole suite
# with gcc and with clang (-Wall -Wextra -Werror), under AddressSanitizer +
# UndefinedBehaviorSanitizer, once under valgrind memcheck, and the fuzz
# targets briefly; the ABI of the shared library against the previous
# revision (.ci/abi.sh, abidiff).  Exits non-zero on the first failure.
#   QUICK=1 scripts/test.sh    gcc build and ctest only
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
bash "$top/scripts/deps.sh"
out=${BUILD_ROOT:-$top/build-test}
jobs=$(nproc)
export OFL_CORPORA=${OFL_CORPORA:-$top/../shared/corpora}

stage() { echo; echo "=== $* ==="; }

stage "gcc: build and ctest"
CC=gcc cmake -S "$top" -B "$out/gcc" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DOFL_BUILD_BENCH=OFF >/dev/null
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

stage "clang: build (warnings are errors) and ctest"
CC=clang CXX=clang++ cmake -S "$top" -B "$out/clang" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DOFL_BUILD_BENCH=OFF >/dev/null
cmake --build "$out/clang" -j"$jobs"
ctest --test-dir "$out/clang" --output-on-failure -j"$jobs"

for s in abi sanitize valgrind fuzz; do
  if [ -f "$top/.ci/$s.sh" ]; then
    stage "$s"
    extra=()
    # memcheck: the tests that only drive the command-line tool as a child
    # process are left to the ASan+UBSan stage (label "cli")
    [ "$s" = valgrind ] && extra=(-LE cli)
    bash "$top/.ci/$s.sh" "$out/$s" "${extra[@]}"
  fi
done
stage "all stages passed"
closing
