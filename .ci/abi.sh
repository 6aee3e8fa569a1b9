#!/usr/bin/env bash
# CI's ABI stage: the shared library of this tree against the one of a base
# revision, compared by libabigail's abidiff (Debian: abigail-tools) on the
# public types (headers of include/ofl) and the exported symbols.  Fails on
# any change that tests/abi/suppressions.abignore does not allow (removed or
# changed functions, a struct that changed size or layout, an enum value
# that moved, ...); added functions are reported and pass.
#
#   .ci/abi.sh [WORK_DIR] [BASE_REV]
#
# BASE_REV (or $OFL_ABI_BASE): default the merge base with main, or HEAD~1
# when HEAD is on main.  Both libraries are built with -g, tests and tools off.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
work=${1:-$top/build-abi}
base=${2:-${OFL_ABI_BASE:-}}
command -v abidiff >/dev/null || { echo "abi: abidiff not installed (apt-get install abigail-tools)" >&2; exit 1; }
if [ -z "$base" ]; then
  base=$(git -C "$top" merge-base HEAD main 2>/dev/null || true)
  if [ -z "$base" ] || [ "$(git -C "$top" rev-parse "$base")" = "$(git -C "$top" rev-parse HEAD)" ]; then
    base=HEAD~1
  fi
fi
base=$(git -C "$top" rev-parse --verify "$base^{commit}") ||
  { echo "abi: no base revision (shallow clone? set OFL_ABI_BASE)" >&2; exit 1; }

rm -rf "$work/base-src"
mkdir -p "$work/base-src"
git -C "$top" archive "$base" | tar -x -C "$work/base-src"
build() { # SRC DIR
  cmake -S "$1" -B "$2" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DOFL_BUILD_TESTS=OFF -DOFL_BUILD_TOOLS=OFF \
        -DOFL_BUILD_BENCH=OFF >/dev/null
  nice cmake --build "$2" -j"${JOBS:-2}" --target ofl >/dev/null
}
build "$work/base-src" "$work/base"
build "$top" "$work/new"
rc=0
abidiff --no-added-syms --headers-dir1 "$work/base-src/include/ofl" --headers-dir2 "$top/include/ofl" \
  --suppressions "$top/tests/abi/suppressions.abignore" \
  "$work/base/libofl.so" "$work/new/libofl.so" >"$work/abidiff.txt" 2>&1 || rc=$?
cat "$work/abidiff.txt"
# abidiff's status bits: 1 error, 2 usage, 4 ABI change, 8 incompatible change
if [ "$rc" -ne 0 ]; then
  echo "abi: FAILED against $(git -C "$top" log -1 --format='%h %s' "$base") (abidiff status $rc)" >&2
  exit 1
fi
echo "abi: no ABI change against $(git -C "$top" log -1 --format='%h %s' "$base")"
