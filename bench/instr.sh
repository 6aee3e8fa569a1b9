#!/usr/bin/env bash
# bench/instr.sh - the GRO engine's instructions per packet under callgrind
# (bench/gro_instr.c), for the rows bench/PROFILE.md discusses.  Exact and
# independent of the load of a shared machine, unlike the timed rows.
#
#   bench/instr.sh [BUILD_DIR]     default: the bench/run build (build-bench)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-${OFL_BENCH_BUILD:-$here/../build-bench}}
bin=$build/bench/ofl_gro_instr
[ -x "$bin" ] || cmake --build "$build" --target ofl_gro_instr >/dev/null
command -v valgrind >/dev/null || { echo "instr.sh: needs valgrind" >&2; exit 1; }
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
row() {
  local label=$1; shift
  local pk
  pk=$(valgrind --tool=callgrind --callgrind-out-file="$out/cg" "$bin" "$@" 2>/dev/null | sed -n 's/^packets //p')
  local sum
  sum=$(callgrind_annotate --inclusive=yes "$out/cg" 2>/dev/null |
        awk '/:ofl_gro_receive_burst |:ofl_gro_poll_end / { gsub(",", "", $1); s += $1 } END { print s + 0 }')
  printf '%-44s %6d instructions/packet\n' "$label" $(( sum / pk ))
}
echo "GRO, TCP bulk, NIC-verified checksums, polls of 64, timeout 0 (callgrind):"
row "TCP/IPv4, 1 flow" 1 4 1 0
row "TCP/IPv4, 8 flows (round robin)" 8 4 1 0
row "TCP/IPv4, 64 flows" 64 4 1 0
row "TCP/IPv4, 1024 flows" 1024 4 1 0
row "TCP/IPv6, 1 flow" 1 6 1 0
row "TCP/IPv4, 1 flow, 4 buffers" 1 4 4 0
row "TCP/IPv4, 64 flows, PSH on every packet" 64 4 1 1

# ---------------------------------------------------------------------------
# GSO rows (bench/gso_instr.c): instructions per segment, partial checksums,
# every ofl_ call bh_gso_one() makes (start, next or next_burst, the slots
# back to the pool) counted inclusive from callgrind's call edges, so nested
# ofl_ calls count once and no debug information is needed.
gso_bin=$build/bench/ofl_gso_instr
[ -x "$gso_bin" ] || cmake --build "$build" --target ofl_gso_instr >/dev/null
gso_row() {
  local label=$1; shift
  local segs sum
  segs=$(valgrind --tool=callgrind --compress-strings=no --compress-pos=no \
           --callgrind-out-file="$out/gso" "$gso_bin" "$@" 2>/dev/null | sed -n 's/^segments //p')
  sum=$(awk '/^fn=/ { inl = ($0 == "fn=bh_gso_one") }
             inl && /^cfn=/ { ofl = (substr($0, 5, 4) == "ofl_") }
             inl && /^calls=/ { take = ofl; next }
             take { s += $2; take = 0 }
             END { print s + 0 }' "$out/gso")
  printf '%-44s %6d instructions/segment\n' "$label" $(( sum / segs ))
}
echo
echo "GSO, partial checksums, MSS 1448, header slots put back after each packet (callgrind):"
for m in iter burst; do
  for p in 64000 9000; do
    gso_row "TCP/IPv4 $p B, $m" 4 tcp $p $m
    gso_row "TCP/IPv6 $p B, $m" 6 tcp $p $m
    gso_row "UDP L4/IPv4 $p B, $m" 4 udp $p $m
  done
done

# ---- DSA decode (bench/dsa_instr.c) --------------------------------------
# One row per format: ofl_dsa_decode() inclusive (the library's instructions
# only) per frame, a 1502-byte TCP/IPv4 frame tagged for port 1, RX layout.
dsa_bin=$build/bench/ofl_dsa_instr
[ -x "$dsa_bin" ] || cmake --build "$build" --target ofl_dsa_instr >/dev/null
dsa_row() {
  local fmt=$1 fr sum
  fr=$(valgrind --tool=callgrind --callgrind-out-file="$out/dsa" "$dsa_bin" "$fmt" 2>/dev/null |
       sed -n 's/^frames //p')
  [ -n "$fr" ] || { printf 'decode %-20s (cannot tag the test frame)\n' "$fmt"; return; }
  sum=$(callgrind_annotate --inclusive=yes "$out/dsa" 2>/dev/null |
        awk '/:ofl_dsa_decode / { gsub(",", "", $1); s += $1 } END { print s + 0 }')
  printf 'decode %-20s %4d instructions/frame\n' "$fmt" $(( sum / fr ))
}
echo
echo "DSA decode, switch -> host, 1502-byte frame with a view (callgrind):"
for fmt in none brcm brcm-prepend dsa edsa gswip ksz9477 ksz9893 lan9303 mtk qca \
           trailer 8021q sja1105 ksz8795 ocelot ar9331 rtl4a hellcreek xrs700x \
           ocelot-8021q seville brcm-legacy sja1110 rtl8_4 rtl8_4t a5psw lan937x \
           vsc73xx-8021q brcm-legacy-fcs yt921x gsw1xx mxl862xx nxp_netc; do
  dsa_row "$fmt"
done
