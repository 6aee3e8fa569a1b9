#!/usr/bin/env bash
# The whole test suite once under valgrind memcheck: a gcc build (no
# sanitizers) in the given directory, then `ctest -T memcheck` with valgrind
# as the launcher of every test (and of every process a test starts).
#
#   .ci/valgrind.sh [BUILD_DIR] [ctest args...]    default: build-valgrind
#
# Exits non-zero on any failure and on any valgrind report: each process
# exits with 99 on an error (--error-exitcode), definite and indirect leaks
# count as errors, and the memcheck logs are searched afterwards for a
# non-zero ERROR SUMMARY.  Nothing is suppressed (no suppression file; the
# only suppressions are valgrind's defaults for the C library).
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-$top/build-valgrind}
shift || true
jobs=${JOBS:-2}
export OFL_CORPORA=${OFL_CORPORA:-$top/../shared/corpora}
# Check runs every test case in a forked child: valgrind follows forks; the
# child's exit status 99 fails the test case.
vg_opts="--error-exitcode=99 --leak-check=full --show-leak-kinds=definite,indirect \
--errors-for-leak-kinds=definite,indirect --trace-children=yes --child-silent-after-fork=no \
--num-callers=30 ${VALGRIND_EXTRA:-}"

echo "valgrind: gcc build in $out"
CC=gcc cmake -S "$top" -B "$out" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DOFL_BUILD_BENCH=OFF >/dev/null
cmake --build "$out" -j"$jobs"
rm -f "$out"/Testing/Temporary/MemoryChecker.*.log
rc=0
# The project does not include(CTest), so the memory checker is given on the
# command line.  Timeouts scale with valgrind's slowdown.
ctest --test-dir "$out" -T memcheck \
  --overwrite MemoryCheckCommand="$(command -v valgrind)" \
  --overwrite MemoryCheckCommandOptions="$vg_opts" \
  --output-on-failure -j"$jobs" --timeout 1500 "$@" || rc=$?
if ! ls "$out"/Testing/Temporary/MemoryChecker.*.log >/dev/null 2>&1; then
  echo "valgrind: no memcheck log: valgrind did not run" >&2
  rc=1
fi
bad=$(grep -l -E "ERROR SUMMARY: [1-9]|definitely lost: [1-9]|indirectly lost: [1-9]" \
        "$out"/Testing/Temporary/MemoryChecker.*.log 2>/dev/null || true)
if [ -n "$bad" ]; then
  echo "valgrind: reports in:" >&2
  for f in $bad; do
    echo "--- $f" >&2
    grep -E -B2 -A20 "Invalid|uninitialised|Conditional jump|definitely lost|indirectly lost|ERROR SUMMARY: [1-9]" "$f" | head -60 >&2
  done
  rc=1
fi
if [ "$rc" -ne 0 ]; then
  echo "valgrind: FAILED" >&2
  exit "$rc"
fi
echo "valgrind: all tests passed with zero memcheck reports"
