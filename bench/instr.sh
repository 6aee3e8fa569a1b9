#!/usr/bin/env bash
# bench/instr.sh - the library's instructions per packet under callgrind
# (bench/gro_instr.c), for the rows bench/PROFILE.md discusses.  Exact and
# independent of the load of a shared machine, unlike the timed rows.
#
#   bench/instr.sh [BUILD_DIR] [gro]   default: the bench/run build (build-bench);
#                                      gro: the GRO rows only
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
# built (or brought up to date: a stale binary counts old code) every run
cmake --build "$build" --target ofl_gro_instr >/dev/null
command -v valgrind >/dev/null || { echo "instr.sh: needs valgrind" >&2; exit 1; }
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

# Instructions per packet of one run: FLOWS L3 NBUFS PSH (two decimals: the
# ratios below from them; the rows print the whole part, ${v%.*}).
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
    END      { if (pk + 0 == 0 || s == 0) exit 1; printf "%.2f\n", s / pk }
  ' "$out/cg"
}
row() {
  local label=$1; shift
  local v
  v=$(per_packet "$@")
  printf '%-52s %6d instructions/packet\n' "$label" "${v%.*}"
}

# The counts depend on the optimisation level: the issues' targets are for
# bench/run's build (Release, -O2); CMake's own Release default is -O3.
flags=$(sed -n 's/^CMAKE_BUILD_TYPE:STRING=//p; s/^CMAKE_C_FLAGS_RELEASE:STRING=//p' "$build/CMakeCache.txt" 2>/dev/null | paste -sd' ')
echo "build: $build (${flags:-unknown flags}; the targets are for Release -O2, as bench/run builds)"
echo
echo "GRO, TCP bulk, NIC-verified checksums, polls of 64, timeout 0 (callgrind, every library call of the loop):"
one=$(per_packet 1 4 1 0)
printf '%-52s %6d instructions/packet\n' "TCP/IPv4, 1 flow" "${one%.*}"
row "TCP/IPv6, 1 flow" 1 6 1 0
row "TCP/IPv4, 8 flows (round robin)" 8 4 1 0
row "TCP/IPv4, 64 flows (one packet per flow per poll)" 64 4 1 0
row "TCP/IPv4, 1024 flows (one packet per flow per poll)" 1024 4 1 0
row "TCP/IPv4, every packet a new flow (8192 flows)" 8192 4 1 0
row "TCP/IPv4, 1 flow, PSH on every packet" 1 4 1 1
row "TCP/IPv4, 64 flows, PSH on every packet" 64 4 1 1
four=$(per_packet 1 4 4 0)
printf '%-52s %6d instructions/packet\n' "TCP/IPv4, 1 flow, 4 buffers" "${four%.*}"
awk -v a="$four" -v b="$one" 'BEGIN { printf "%-52s %6.2fx\n", "four buffers / one buffer (1 flow)", a / b }'
echo
echo "GRO, UDP bulk (ofl_gro_config.udp), 1448-byte datagrams, NIC-verified checksums, polls of 64:"
row "UDP/IPv4, 1 flow" 1 4 1 0 udp
row "UDP/IPv6, 1 flow" 1 6 1 0 udp
row "UDP/IPv4, 64 flows (one packet per flow per poll)" 64 4 1 0 udp
row "UDP/IPv6, 64 flows (one packet per flow per poll)" 64 6 1 0 udp
echo
echo "GRO in fraglist mode (ofl_gro_config.fraglist, rx-gro-list: each segment keeps its headers), polls of 64:"
row "TCP/IPv4, 1 flow, fraglist" 1 4 1 0 tcp list
row "TCP/IPv4, 64 flows (one per poll), fraglist" 64 4 1 0 tcp list
row "UDP/IPv4, 1 flow, fraglist" 1 4 1 0 udp list
row "UDP/IPv4, 64 flows (one per poll), fraglist" 64 4 1 0 udp list

echo
echo "GRO through VXLAN (UDP 4789 configured), TCP bulk inside, outer checksum 0, polls of 64:"
vx=$(per_packet 1 4 1 0 vxlan)
printf '%-52s %6d instructions/packet\n' "VXLAN TCP/IPv4 in IPv4, 1 flow" "${vx%.*}"
awk -v a="$vx" -v b="$one" 'BEGIN { printf "%-52s %6.2fx\n", "VXLAN / plain TCP (1 flow)", a / b }'
vx64=$(per_packet 64 4 1 0 vxlan)
printf '%-52s %6d instructions/packet\n' "VXLAN TCP/IPv4 in IPv4, 64 flows (one per poll)" "${vx64%.*}"
p64=$(per_packet 64 4 1 0)
awk -v a="$vx64" -v b="$p64" 'BEGIN { printf "%-52s %6.2fx\n", "VXLAN / plain TCP (64 flows)", a / b }'

echo
echo "GRO through a DSA tag (ofl_gro_config.dsa, untagged output), TCP/IPv4 bulk, frames tagged as the"
echo "timed dsa/gro rows tag them (port 1), polls of 64 (issue 12):"
for fmt in edsa brcm-prepend ksz9477 8021q; do
  row "TCP/IPv4 through $fmt, 1 flow" 1 4 1 0 dsa:$fmt
  row "TCP/IPv4 through $fmt, 64 flows (one per poll)" 64 4 1 0 dsa:$fmt
done
[ "${2:-}" = gro ] && exit 0

# ---------------------------------------------------------------------------
# GSO rows (bench/gso_instr.c): instructions per segment, partial checksums,
# every ofl_ call bh_gso_one() makes (start, next or next_burst, the slots
# back to the pool) counted inclusive from callgrind's call edges, so nested
# ofl_ calls count once and no debug information is needed.
gso_bin=$build/bench/ofl_gso_instr
cmake --build "$build" --target ofl_gso_instr >/dev/null
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
echo "GSO, partial checksums, MSS 1448 (callgrind); iter: ofl_gso_next() per segment, BLOCK pool, slots put back after each packet (ofl_gso_pool_put_burst()); iter-ring: ofl_gso_next() per segment from a RING pool, slots given back oldest first (ofl_gso_pool_put_oldest()), as a TX completion does; burst: ofl_gso_next_burst() of 64 from that RING pool:"
for m in iter iter-ring burst; do
  for p in 64000 9000; do
    gso_row "TCP/IPv4 $p B, $m" 4 tcp $p $m
    gso_row "TCP/IPv6 $p B, $m" 6 tcp $p $m
    gso_row "UDP L4/IPv4 $p B, $m" 4 udp $p $m
    gso_row "UDP L4/IPv6 $p B, $m" 6 udp $p $m
  done
done
# tunnel GSO: TCP/IPv4 in VXLAN over IPv4 (outer UDP checksum 0)
gso_row "VXLAN TCP/IPv4 64000 B, iter" 4 vxlan 64000 iter
gso_row "VXLAN TCP/IPv4 64000 B, burst" 4 vxlan 64000 burst

# ---- DSA decode (bench/dsa_instr.c) --------------------------------------
# One row per format: the library's instructions per frame (the named entry
# inclusive), a 1502-byte TCP/IPv4 frame tagged for port 1, RX layout.
# The issue's "decode <format>" rows come first: ofl_dsa_decode_packed_burst()
# of 32 frames a call (port, switch, flags and the cut of each frame as one
# packed word), per frame, its count including the loop over the frames and
# the load of each frame's address and length.  Then the per-frame entries,
# whose rows leave the call and the loop to their caller (not counted):
# ofl_dsa_decode_cut() with a decoder prepared once (meta and the cut),
# ofl_dsa_decode_brief() (port, switch, flags and the cut); then the brief
# for 32 frames a call, ofl_dsa_decode_brief_burst() (counted as the packed
# burst); then ofl_dsa_decode() (meta and the full view).
dsa_bin=$build/bench/ofl_dsa_instr
cmake --build "$build" --target ofl_dsa_instr >/dev/null
dsa_fmts="none brcm brcm-prepend dsa edsa gswip ksz9477 ksz9893 lan9303 mtk qca
          trailer 8021q sja1105 ksz8795 ocelot ar9331 rtl4a hellcreek xrs700x
          ocelot-8021q seville brcm-legacy sja1110 rtl8_4 rtl8_4t a5psw lan937x
          vsc73xx-8021q brcm-legacy-fcs yt921x gsw1xx mxl862xx nxp_netc"
dsa_row() {
  local label=$1 fn=$2 fmt=$3 mode=${4:-} fr sum
  fr=$(valgrind --tool=callgrind --callgrind-out-file="$out/dsa" "$dsa_bin" "$fmt" $mode 2>/dev/null |
       sed -n 's/^frames //p')
  [ -n "$fr" ] || { printf "$label (cannot tag the test frame)\n" "$fmt"; return; }
  sum=$(callgrind_annotate --inclusive=yes "$out/dsa" 2>/dev/null |
        awk -v f=":$fn " 'index($0, f) { gsub(",", "", $1); s += $1 } END { print s + 0 }')
  # to a tenth, rounded up (an integer quotient hid up to 0.99 of a row)
  printf '%s %s instructions/frame\n' "$(printf "$label" "$fmt")" \
    "$(awk -v s="$sum" -v f="$fr" 'BEGIN { x = int(s * 10 / f); if (x * f < s * 10) x++; printf "%5.1f", x / 10 }')"
}
echo
echo "DSA decode, switch -> host, 1502-byte frame, prepared decoder, ofl_dsa_decode_packed_burst() of 32 frames: one packed word per frame, loop included (callgrind):"
for fmt in $dsa_fmts; do
  dsa_row "decode %-16s (packed burst of 32)" ofl_dsa_decode_packed_burst "$fmt" packed
done
echo
echo "DSA decode, switch -> host, 1502-byte frame, prepared decoder: meta and cut (callgrind):"
for fmt in $dsa_fmts; do
  dsa_row "decode-cut %-20s" ofl_dsa_decode_cut "$fmt"
done
echo
echo "DSA decode, switch -> host, prepared decoder, ofl_dsa_decode_brief(): port, switch, flags and cut (callgrind):"
for fmt in $dsa_fmts; do
  dsa_row "decode-brief %-20s" ofl_dsa_decode_brief "$fmt" brief
done
echo
echo "DSA decode, switch -> host, prepared decoder, ofl_dsa_decode_brief_burst() of 32 frames: the same per frame (callgrind):"
for fmt in $dsa_fmts; do
  dsa_row "decode-burst %-20s" ofl_dsa_decode_brief_burst "$fmt" burst
done
echo
echo "DSA decode, the one-call ofl_dsa_decode(): meta and view (callgrind):"
for fmt in $dsa_fmts; do
  dsa_row "decode-view %-20s" ofl_dsa_decode "$fmt" view
done
