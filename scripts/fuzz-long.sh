#!/usr/bin/env bash
# Fuzz long enough to matter, then keep what was found: every libFuzzer
# target for SECONDS (default 600, the minimum before resolving an issue
# that changes a target's entry point) on the committed seeds and regress
# inputs plus the seeds cut at run time from $OFL_CORPORA and the fixtures,
# then the grown corpus merged into tests/fuzz/seeds/<area>: inputs of at
# most MAX_BYTES (default 4096) that cover an edge the committed ones do
# not.  Review them, then commit.  The work is tests/fuzz/run-fuzz.sh's
# (its -M); the reproducers of a crash are in WORK_DIR (non-zero exit).
# Inputs grown from the frames cut out of the corpora may carry bytes of
# those captures: to merge only what grew from the repository's own inputs,
# run with OFL_CORPORA=/nonexistent (and a fresh -w).
#
#   scripts/fuzz-long.sh [-t SECONDS] [-m MAX_BYTES] [-b BUILD_DIR] [-w WORK_DIR] [target...]
#
#   -b  libFuzzer build directory (default build-fuzz in the repository)
#   -w  work directory (default BUILD_DIR/work-long; its corpus is reused)
#   targets: fuzz_gro fuzz_gso fuzz_dsa (default: every one built)
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
secs=600 max=4096 build=$top/build-fuzz work=
while getopts "t:m:b:w:" o; do
  case $o in
    t) secs=$OPTARG ;; m) max=$OPTARG ;; b) build=$OPTARG ;; w) work=$OPTARG ;;
    *) sed -n '2,18p' "$0"; exit 2 ;;
  esac
done
shift $((OPTIND - 1))
exec bash "$top/tests/fuzz/run-fuzz.sh" -t "$secs" -M "$max" -b "$build" -w "${work:-$build/work-long}" "$@"
