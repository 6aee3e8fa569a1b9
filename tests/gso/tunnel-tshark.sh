#!/bin/sh
# tunnel-tshark.sh TOOL CORPORA WORKDIR FIXTURES - tunnelled TCP super-packets
# cut by `offload-replay gso --tunnel`, then decoded by an independent
# dissector, tshark, with IPv4, UDP and TCP checksum validation on (tshark
# always validates a GRE checksum): every segment must decode as TCP inside
# its tunnel, with a good TCP checksum, no bad IPv4/UDP checksum in either
# header set, a good GRE checksum where the GRE header has one, nothing
# malformed and no error-level expert note; and the inner TCP sequence
# numbers of each super-packet's segments must be contiguous, payload after
# payload.  Inputs: the corpus's VXLAN and Geneve super-packets
# (gso/gso-*-vxlan-*, gso-*-geneve-*, bigtcp-*-vxlan-*, bigtcp-*-geneve-*),
# and FIXTURES/{gre,ipip}_*/IN.pcap, GRE (with and without checksum and key,
# inner Ethernet or IP) and IP-in-IP (4in4, 6in4, 4in6, 6in6) super-packets
# of our own (tests/gso/make-gre-ipip-fixtures.sh).  A control run flips one
# payload byte of a GRE segment and expects tshark to call both its GRE and
# TCP checksums bad.  Exit 77 (skip) without tshark; a missing corpus or
# fixture file fails.
set -eu
tool=$1 corpora=${OFL_CORPORA:-$2} work=$3 fixtures=$4 # $OFL_CORPORA first, as every corpus test
command -v tshark >/dev/null 2>&1 || { echo "tshark not installed: skipped"; exit 77; }
command -v mergecap >/dev/null 2>&1 || { echo "mergecap not installed: skipped"; exit 77; }
mkdir -p "$work"
rm -f "$work"/tun-*
want=0 supers=0 want_gre_csum=0
# cut T: the inputs (one super-packet each) of tunnel T, one after the other
# in one capture, cut by one run into $work/tun-T.pcap
cut() {
  t=$1
  shift
  for in in "$@"; do
    [ -f "$in" ] || { echo "missing input $in" >&2; exit 1; }
  done
  mergecap -a -F pcap -w "$work/tun-$t-in.pcap" "$@"
  "$tool" gso "$work/tun-$t-in.pcap" "$work/tun-$t.pcap" --mss 1400 --tunnel "$t" >"$work/tun-$t.txt"
  n=$(sed -n 's/^ *segments out *//p' "$work/tun-$t.txt")
  s=$(sed -n 's/^ *super-packets segmented *//p' "$work/tun-$t.txt")
  if [ "${s:-0}" != $# ] || [ "${n:-0}" -le $# ]; then
    echo "$t: not every input segmented" >&2
    cat "$work/tun-$t.txt" >&2
    exit 1
  fi
  want=$((want + n)) supers=$((supers + s))
}
for t in vxlan geneve; do
  set --
  for v in ipv4 ipv6; do
    for i in ipv4 ipv6; do
      for k in gso bigtcp; do
        set -- "$@" "$corpora/gso/$k-$v-$t-$i.pcap"
      done
    done
  done
  cut $t "$@"
done
set --
for o in o4 o6; do
  for i in i4 i6; do
    for v in "" _csum _key_ip _csum_key_ip; do
      set -- "$@" "$fixtures/gre_${o}_${i}$v/IN.pcap"
    done
  done
done
cut gre "$@"
# 8000 payload bytes at MSS 1400: 6 segments each, 8 inputs with a checksum
want_gre_csum=48
set --
for o in o4 o6; do
  for i in i4 i6; do
    set -- "$@" "$fixtures/ipip_${o}_${i}/IN.pcap"
  done
done
cut ipip "$@"
# control: the validation is on.  The GRE segments again, the last byte of
# the last (inner TCP payload; its GRE header has a checksum) flipped:
# tshark must call both its GRE and TCP checksums bad.
cp "$work/tun-gre.pcap" "$work/tun-control.pcap"
size=$(wc -c <"$work/tun-gre.pcap")
last=$(od -An -tu1 -j $((size - 1)) -N1 "$work/tun-gre.pcap" | tr -d ' ')
printf '%b' "\\0$(printf '%03o' $(((last + 1) % 256)))" |
  dd of="$work/tun-control.pcap" bs=1 seek=$((size - 1)) conv=notrunc 2>/dev/null
mergecap -a -w "$work/tun-all.pcapng" "$work/tun-vxlan.pcap" "$work/tun-geneve.pcap" \
  "$work/tun-gre.pcap" "$work/tun-ipip.pcap" "$work/tun-control.pcap"
tshark -r "$work/tun-all.pcapng" -o ip.check_checksum:TRUE -o udp.check_checksum:TRUE \
  -o tcp.check_checksum:TRUE -T fields -E separator=";" -e frame.protocols -e tcp.checksum.status \
  -e ip.checksum.status -e udp.checksum.status -e _ws.malformed -e _ws.expert.severity \
  -e gre.checksum.status -e gre.flags.checksum -e tcp.seq_raw -e tcp.len \
  >"$work/tun-fields.txt" 2>"$work/tun-tshark.err"
# checksum status values (Wireshark proto_checksum_enum_e): 0 bad, 1 good,
# 2 unverified, 3 not present (UDP checksum 0), 4 illegal.  A segment whose
# sequence number does not follow the one before starts a super-packet:
# exactly as many as there were inputs.
awk -F";" -v want="$want" -v supers="$supers" -v want_gre="$want_gre_csum" '
  NR > want { ctl_tcp = $2; ctl_gre = $7; next } # the control: its last frame counts
  { n++
    if (n == 1 || ($9 + 0) != next_seq)
      starts++
    next_seq = ($9 + $10) % 4294967296 }
  $1 !~ /^eth:ethertype:ip(v6)?:((udp:(vxlan|geneve)|gre):eth:ethertype:|gre:)?ip(v6)?:tcp/ {
    if (bad++ < 5) printf "frame %d: %s\n", n, $1; next }
  $2 != "1" || $3 ~ /(^|,)[04]($|,)/ || $4 ~ /(^|,)[04]($|,)/ || $5 != "" || $6 ~ /(^|,)8388608($|,)/ ||
  ($8 == "1" && $7 != "1") {
    if (bad++ < 5) printf "frame %d: tcp %s ip %s udp %s gre %s malformed %s expert %s\n", n, $2, $3, $4, $7, $5, $6
    next }
  $7 == "1" { gre_good++ }
  END { printf "%d segments of %d super-packets decoded by tshark (%d expected), %d sequences " \
               "(contiguous within each: %d expected), %d with a good GRE checksum (%d expected), %d bad\n",
               n, supers, want, starts, supers, gre_good, want_gre, bad
        printf "control (one payload byte flipped): tcp checksum status %s, gre %s (0 = bad expected)\n",
               ctl_tcp, ctl_gre
        exit (n == want && starts == supers && gre_good == want_gre && bad == 0 && ctl_tcp == "0" &&
              ctl_gre == "0") ? 0 : 1 }' "$work/tun-fields.txt"
