#!/usr/bin/env bash
# The whole test suite once under valgrind memcheck: a gcc build (no
# sanitizers) in the given directory (scripts/test.sh passes its gcc stage's
# tree, already built with the same options), then `ctest -T memcheck` with valgrind
# as the launcher of every test (and of every process a test starts).
#
#   .ci/valgrind.sh [BUILD_DIR] [ctest args...]    default: build-valgrind
#
# Exits non-zero on any failure and on any valgrind report: each process
# exits with 99 on an error (--error-exitcode), definite and indirect leaks
# count as errors, and every process's log (BUILD_DIR/vglogs/<pid>.log) is
# searched afterwards for a non-zero ERROR SUMMARY.
#
# What runs under valgrind: every test command, the processes it forks
# (Check's forked test cases, unless CK_FORK=no) and the programs it starts
# from the build tree (offload-replay, examples); system programs that test
# scripts start (nm, grep, rm, cmake's compilers) are not traced
# (--trace-children-skip).  Suppressed: nothing of ours; only a leak of dash
# itself (the shell of the script tests), written to BUILD_DIR/system.supp.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-$top/build-valgrind}
shift || true
jobs=${JOBS:-2}
export OFL_CORPORA=${OFL_CORPORA:-$top/../shared/corpora}
# the tests that sweep burst sizes take a documented subset under a checker
# (tests/support/burstdiff.c, tests/unit/gso_burst_test.c)
export OFL_TEST_CHECKER=memcheck
# Check runs every test case in a forked child unless CK_FORK=no (which
# scripts/test.sh sets for this stage): valgrind follows forks; a child's exit
# status 99 fails its test case.
echo "valgrind: gcc build in $out"
CC=gcc cmake -S "$top" -B "$out" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DOFL_BUILD_BENCH=OFF -DOFL_WERROR=ON >/dev/null
cmake --build "$out" -j"$jobs"
logs=$out/vglogs
rm -rf "$logs" "$out"/Testing/Temporary/MemoryChecker.*.log
mkdir -p "$logs"
cat >"$out/system.supp" <<'SUPP'
{
   dash-own-leak (the shell that runs script tests; not our code)
   Memcheck:Leak
   match-leak-kinds: definite
   fun:malloc
   fun:strdup
   obj:/usr/bin/dash
}
SUPP
vg_opts="--error-exitcode=99 --leak-check=full --show-leak-kinds=definite,indirect \
--errors-for-leak-kinds=definite,indirect --trace-children=yes \
--trace-children-skip=/usr/*,/bin/*,/sbin/*,/lib/* --child-silent-after-fork=no \
--suppressions=$out/system.supp --log-file=$logs/%p.log --num-callers=30 ${VALGRIND_EXTRA:-}"
rc=0
# The project does not include(CTest), so the memory checker is given on the
# command line.  Timeouts scale with valgrind's slowdown.
ctest --test-dir "$out" -T memcheck \
  --overwrite MemoryCheckCommand="$(command -v valgrind)" \
  --overwrite MemoryCheckCommandOptions="$vg_opts" \
  --output-on-failure -j"$jobs" --timeout 1500 "$@" || rc=$?
nlogs=$(find "$logs" -name '*.log' | wc -l)
if [ "$nlogs" -eq 0 ]; then
  echo "valgrind: no memcheck log: valgrind did not run" >&2
  rc=1
fi
bad=$(grep -a -l -E "ERROR SUMMARY: [1-9]" "$logs"/*.log 2>/dev/null || true)
if [ -n "$bad" ]; then
  echo "valgrind: reports in:" >&2
  for f in $bad; do
    echo "--- $f" >&2
    grep -a -E "Command:|Invalid|uninitialised|Conditional jump|definitely lost|indirectly lost|ERROR SUMMARY" -A12 "$f" | head -60 >&2
  done
  rc=1
fi
echo "valgrind: $nlogs process logs ($(grep -a -l "ERROR SUMMARY: 0 errors" "$logs"/*.log | wc -l) ran to exit under valgrind, the others exec'd an untraced system program), $(echo "$bad" | grep -c . || true) with errors"
if [ "$rc" -ne 0 ]; then
  echo "valgrind: FAILED" >&2
  exit "$rc"
fi
echo "valgrind: all tests passed with zero memcheck reports"
