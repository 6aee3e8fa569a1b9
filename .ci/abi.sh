#!/usr/bin/env bash
# CI's ABI stage: is the shared library of this tree compatible with the last
# release?  The release's ABI is committed as abi/libofl.so.<SOVERSION>.abi
# (libabigail's abidw output: the exported functions and the public types of
# include/ofl, as that release's library had them); libabigail's abidiff
# (Debian: abigail-tools) compares this tree's library with it.  Fails on any
# change that tests/abi/suppressions.abignore does not allow (a removed or
# changed function, a struct that changed size or layout, an enum value that
# moved, ...); added functions are reported and pass.  One library build
# (target ofl only), well under a minute.
#
#   .ci/abi.sh [WORK_DIR]                      check against the baseline
#   .ci/abi.sh --update-baseline [WORK_DIR]    write the baseline (see below)
#
# The baseline changes only deliberately, never to make this stage pass:
#   - at a release, from the tagged tree, so the check then means
#     "compatible with that release" (the file is rewritten with the same
#     name while the SOVERSION stays; additions are compatible by definition);
#   - after an intended break, together with a new SOVERSION (the project
#     VERSION's major in CMakeLists.txt, or the soname rule there): the new
#     file abi/libofl.so.<new>.abi is written and the old one removed in the
#     same commit, whose message says what broke and why.
# scripts/abi-baseline.sh is the same as --update-baseline.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
update=0
if [ "${1:-}" = "--update-baseline" ]; then
  update=1
  shift
fi
work=${1:-$top/build-abi}
for t in abidw abidiff; do
  command -v "$t" >/dev/null || { echo "abi: $t not installed (apt-get install abigail-tools)" >&2; exit 1; }
done

cmake -S "$top" -B "$work" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DOFL_BUILD_TESTS=OFF -DOFL_BUILD_TOOLS=OFF \
      -DOFL_BUILD_BENCH=OFF >/dev/null
nice cmake --build "$work" -j"${JOBS:-2}" --target ofl >/dev/null
lib=$(readlink -f "$work/libofl.so")
soname=$(objdump -p "$lib" | awk '$1 == "SONAME" { print $2 }')
[ -n "$soname" ] || { echo "abi: no SONAME in $lib" >&2; exit 1; }
baseline=$top/abi/$soname.abi

if [ "$update" = 1 ]; then
  mkdir -p "$top/abi"
  abidw --headers-dir "$top/include/ofl" --drop-private-types --no-corpus-path --no-comp-dir-path \
        --short-locs --out-file "$baseline" "$lib"
  echo "abi: wrote $baseline from $(git -C "$top" log -1 --format='%h %s' 2>/dev/null || echo 'this tree')"
  exit 0
fi

[ -f "$baseline" ] || {
  echo "abi: no baseline $baseline for soname $soname: a new soname needs its baseline" \
       "written deliberately (scripts/abi-baseline.sh; see the header of .ci/abi.sh)" >&2
  exit 1
}
rc=0
abidiff --no-added-syms --headers-dir2 "$top/include/ofl" --suppressions "$top/tests/abi/suppressions.abignore" \
  "$baseline" "$lib" >"$work/abidiff.txt" 2>&1 || rc=$?
cat "$work/abidiff.txt"
# abidiff's status bits: 1 error, 2 usage, 4 ABI change, 8 incompatible change
if [ "$rc" -ne 0 ]; then
  echo "abi: FAILED against the baseline abi/$soname.abi (abidiff status $rc)" >&2
  exit 1
fi
echo "abi: compatible with the baseline abi/$soname.abi"
