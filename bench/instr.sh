#!/usr/bin/env bash
# bench/instr.sh - the library's instructions per packet under callgrind
# (bench/gro_instr.c), for the rows bench/PROFILE.md discusses.  Exact and
# independent of the load of a shared machine, unlike the timed rows.
#
#   bench/instr.sh [BUILD_DIR]     default: the bench/run build (build-bench)
#
# What is counted: the inclusive cost of every call the measured loop
# (measured_polls() in gro_instr.c) makes, read from the callgrind file's
# call records of that function.  Each library instruction is counted once,
# whatever the build's debug information (callgrind_annotate's per-file
# function lines, which a -g build splits, are not used).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-${OFL_BENCH_BUILD:-$here/../build-bench}}
bin=$build/bench/ofl_gro_instr
[ -x "$bin" ] || cmake --build "$build" --target ofl_gro_instr >/dev/null
command -v valgrind >/dev/null || { echo "instr.sh: needs valgrind" >&2; exit 1; }
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

# Instructions per packet of one run: FLOWS L3 NBUFS PSH.
per_packet() {
  local pk
  pk=$(valgrind --tool=callgrind --compress-strings=no --compress-pos=no \
         --callgrind-out-file="$out/cg" "$bin" "$@" 2>/dev/null | sed -n 's/^packets //p')
  # In the file: "fn=" opens a function's records; "calls=COUNT TARGET" is
  # followed by one line "POSITION INCLUSIVE_COST" of that call.
  awk -v pk="$pk" '
    /^fn=/   { infn = ($0 ~ /^fn=(0x[0-9a-f]+ )?measured_polls$/); next }
    /^cfn=/  { lib = ($0 ~ /^cfn=(0x[0-9a-f]+ )?ofl_/); next }
    /^calls=/ { take = infn && lib; next }
    take     { s += $2; take = 0 }
    END      { if (pk + 0 == 0 || s == 0) exit 1; printf "%d\n", s / pk }
  ' "$out/cg"
}
row() {
  local label=$1; shift
  printf '%-52s %6d instructions/packet\n' "$label" "$(per_packet "$@")"
}

echo "GRO, TCP bulk, NIC-verified checksums, polls of 64, timeout 0 (callgrind, every library call of the loop):"
one=$(per_packet 1 4 1 0)
printf '%-52s %6d instructions/packet\n' "TCP/IPv4, 1 flow" "$one"
row "TCP/IPv6, 1 flow" 1 6 1 0
row "TCP/IPv4, 8 flows (round robin)" 8 4 1 0
row "TCP/IPv4, 64 flows (one packet per flow per poll)" 64 4 1 0
row "TCP/IPv4, 1024 flows (one packet per flow per poll)" 1024 4 1 0
row "TCP/IPv4, every packet a new flow (8192 flows)" 8192 4 1 0
row "TCP/IPv4, 1 flow, PSH on every packet" 1 4 1 1
row "TCP/IPv4, 64 flows, PSH on every packet" 64 4 1 1
four=$(per_packet 1 4 4 0)
printf '%-52s %6d instructions/packet\n' "TCP/IPv4, 1 flow, 4 buffers" "$four"
awk -v a="$four" -v b="$one" 'BEGIN { printf "%-52s %6.2fx\n", "four buffers / one buffer (1 flow)", a / b }'
