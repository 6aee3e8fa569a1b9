#!/usr/bin/env bash
# CI's fuzz stage: every libFuzzer target (clang, ASan+UBSan) for 20 seconds,
# seeded from the corpora and the committed seeds; non-zero on any crash or
# broken invariant.  A long run by hand: tests/fuzz/run-fuzz.sh -t 600 -w DIR
set -euo pipefail
exec bash "$(dirname "$0")/../tests/fuzz/run-fuzz.sh" -t 20 -b "${1:-build-fuzz}"
