#!/usr/bin/env bash
# Build the libFuzzer targets (clang, -fsanitize=fuzzer,address,undefined)
# and run each for N seconds, one target at a time, niced.
#
#   tests/fuzz/run-fuzz.sh [-t SECONDS] [-b BUILD_DIR] [-w WORK_DIR] [-M MAX_BYTES] [target...]
#
#   -t  seconds per target (default 20, the CI budget)
#   -b  build directory (default build-fuzz in the repository)
#   -w  where the corpora grow and crashes land (default BUILD_DIR/work);
#       a corpus kept there is reused by the next run
#   -M  afterwards merge the grown corpus into tests/fuzz/seeds/<area>
#       (libFuzzer -merge=1 -use_counters=0): inputs of at most MAX_BYTES
#       that cover an edge the committed seeds and regress inputs do not;
#       even after a crash.  scripts/fuzz-long.sh uses it.
#   targets: fuzz_gro fuzz_gso fuzz_dsa (default: every one built)
#
# Seeds: the committed tests/fuzz/seeds/<area> and regress/<area>, plus
# frames cut at run time out of the captures in $OFL_CORPORA (default
# ../shared/corpora) and of the test vectors (tests/fixtures: the kernel's
# GRO and GSO fixtures) by fzseed into a temporary directory; nothing of the
# captures is copied into the repository.
#
# Prints one line per target (seconds, executions, coverage, corpus size,
# crashes) and exits non-zero when a target crashed, its invariant broke or
# a sanitizer reported: the reproducer is WORK_DIR/crash-<area>-*; replay it
# with BUILD_DIR/fuzz_<area> FILE (or the onefile build: fuzz_<area>_onefile).
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
secs=20
build=$top/build-fuzz
work=
merge=
while getopts "t:b:w:M:" o; do
  case $o in
    t) secs=$OPTARG ;;
    b) build=$OPTARG ;;
    w) work=$OPTARG ;;
    M) merge=$OPTARG ;;
    *) sed -n '2,24p' "$0"; exit 2 ;;
  esac
done
shift $((OPTIND - 1))
work=${work:-$build/work}
corpora=${OFL_CORPORA:-$top/../shared/corpora}
jobs=${JOBS:-2}

echo "run-fuzz: building in $build"
CC=clang cmake -S "$top/tests/fuzz" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DOFL_WERROR=ON >/dev/null
cmake --build "$build" -j"$jobs" >/dev/null

targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  for t in fuzz_gro fuzz_gso fuzz_dsa; do
    [ -x "$build/$t" ] && targets+=("$t")
  done
fi

seeds=$(mktemp -d "${TMPDIR:-/tmp}/ofl-fuzz-seeds.XXXXXX")
trap 'rm -rf "$seeds"' EXIT
if [ -d "$corpora" ]; then
  "$build/fzseed" cut "$corpora" "$seeds/cut" >/dev/null
else
  echo "run-fuzz: no corpora at $corpora: committed seeds and test vectors only"
fi
# the test vectors: the kernel GRO/GSO fixtures' captures
"$build/fzseed" cut "$top/tests/fixtures" "$seeds/cut" >/dev/null
mkdir -p "$work"

export ASAN_OPTIONS=${ASAN_OPTIONS:-abort_on_error=1:detect_leaks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
fail=0
printf "%-10s %8s %12s %8s %8s %8s %8s\n" target seconds execs cov ft corpus crashes
for t in "${targets[@]}"; do
  area=${t#fuzz_}
  corpus=$work/$area
  mkdir -p "$corpus"
  inputs=()
  for d in "$top/tests/fuzz/seeds/$area" "$top/tests/fuzz/regress/$area" "$seeds/cut/$area"; do
    [ -d "$d" ] && inputs+=("$d")
  done
  log=$work/$area.log
  rc=0
  nice -n 10 "$build/$t" -max_total_time="$secs" -print_final_stats=1 -timeout=20 \
    -rss_limit_mb=2560 -max_len=65536 -artifact_prefix="$work/crash-$area-" \
    "$corpus" "${inputs[@]}" >"$log" 2>&1 || rc=$?
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  last=$(grep -E "^#[0-9]+.*cov: " "$log" | tail -1 || true)
  cov=$(sed -n 's/.*cov: \([0-9]*\).*/\1/p' <<<"$last")
  ft=$(sed -n 's/.*ft: \([0-9]*\).*/\1/p' <<<"$last")
  corp=$(sed -n 's/.*corp: \([0-9]*\)\/.*/\1/p' <<<"$last")
  # a slow-unit report (libFuzzer's -report_slow_units, an input slower
  # than 10 s, common on a loaded shared machine) is written like a crash
  # but is none: listed apart, not counted
  crashes=$(grep -E "^==[0-9]+== ERROR|invariant broken|runtime error:|Test unit written to" "$log" |
            grep -vc "slow-unit-" || true)
  if [ "$rc" -ne 0 ] && [ "$crashes" -eq 0 ]; then crashes=1; fi
  printf "%-10s %8s %12s %8s %8s %8s %8s\n" "$t" "$secs" "${execs:-?}" "${cov:-?}" "${ft:-?}" "${corp:-?}" "$crashes"
  grep -o "Test unit written to .*slow-unit-.*" "$log" | sed "s/^/run-fuzz: $t: slow input (not a crash): /" >&2 || true
  if [ "$crashes" -ne 0 ]; then
    fail=1
    grep -E -A12 "invariant broken|ERROR: |runtime error:" "$log" | head -40 >&2 || true
    grep "Test unit written to" "$log" >&2 || true
  fi
done

# -M: keep what was found (small inputs with new edges) in the repository
merge_seeds() {
  local t=$1 area=${1#fuzz_} into=$top/tests/fuzz/seeds/${1#fuzz_} m=$seeds/merge/${1#fuzz_} f added=0
  mkdir -p "$into" "$m/base" "$m/small"
  # the committed inputs come first: only coverage beyond them is merged
  cp -r "$into/." "$m/base/"
  for f in "$top/tests/fuzz/regress/$area"/*; do
    [ -f "$f" ] && cp "$f" "$m/base/regress-$(basename "$f")"
  done
  find "$work/$area" -maxdepth 1 -type f -size -$((merge + 1))c -exec cp -t "$m/small" {} +
  ls "$m/base" | sort >"$m/before"
  # -use_counters=0: an input is new for an edge not yet covered, not for
  # a new hit count of one (keeps the repository's seed set small)
  if ! nice -n 10 "$build/$t" -merge=1 -use_counters=0 -max_len="$merge" "$m/base" "$m/small" \
      >"$work/$area-merge.log" 2>&1; then
    echo "run-fuzz: merge of $area failed (see $work/$area-merge.log)" >&2
    return 1
  fi
  while read -r f; do
    cp "$m/base/$f" "$into/$f"
    added=$((added + 1))
  done < <(ls "$m/base" | sort | comm -13 "$m/before" -)
  echo "run-fuzz: $t: $added new seeds (at most $merge bytes) merged into tests/fuzz/seeds/$area"
}
if [ -n "$merge" ]; then
  for t in "${targets[@]}"; do
    merge_seeds "$t" || fail=1
  done
fi
if [ "$fail" -ne 0 ]; then
  echo "run-fuzz: FAILED (logs in $work)" >&2
  exit 1
fi
echo "run-fuzz: ${#targets[@]} targets, ${secs}s each, no crash"
