#!/bin/sh
# tunnel-tshark.sh TOOL CORPORA WORKDIR - the corpus's tunnelled TCP
# super-packets (gso/gso-*-vxlan-*, gso-*-geneve-*, bigtcp-*-vxlan-*,
# bigtcp-*-geneve-*) cut by `offload-replay gso --tunnel`, then decoded by an
# independent dissector, tshark, with IPv4, UDP and TCP checksum validation
# on: every segment must decode as TCP inside the tunnel, with a good TCP
# checksum, no bad IPv4/UDP checksum in either header set, nothing malformed
# and no error-level expert note.  Exit 77 (skip) without tshark; a missing
# corpus file fails.
set -eu
tool=$1 corpora=${OFL_CORPORA:-$2} work=$3 # $OFL_CORPORA first, as every corpus test
command -v tshark >/dev/null 2>&1 || { echo "tshark not installed: skipped"; exit 77; }
command -v mergecap >/dev/null 2>&1 || { echo "mergecap not installed: skipped"; exit 77; }
mkdir -p "$work"
rm -f "$work"/tun-*.pcap
want=0
for v in ipv4 ipv6; do
  for t in vxlan geneve; do
    for i in ipv4 ipv6; do
      for k in gso bigtcp; do
        f=$k-$v-$t-$i
        in=$corpora/gso/$f.pcap
        [ -f "$in" ] || { echo "missing corpus file $in" >&2; exit 1; }
        "$tool" gso "$in" "$work/tun-$f.pcap" --mss 1400 --tunnel "$t" >"$work/tun-$f.txt"
        n=$(sed -n 's/^ *segments out *//p' "$work/tun-$f.txt")
        [ "${n:-0}" -gt 1 ] || { echo "$f: not segmented" >&2; cat "$work/tun-$f.txt" >&2; exit 1; }
        want=$((want + n))
      done
    done
  done
done
mergecap -a -w "$work/tun-all.pcapng" "$work"/tun-*.pcap
tshark -r "$work/tun-all.pcapng" -o ip.check_checksum:TRUE -o udp.check_checksum:TRUE \
  -o tcp.check_checksum:TRUE -T fields -E separator=";" -e frame.protocols -e tcp.checksum.status \
  -e ip.checksum.status -e udp.checksum.status -e _ws.malformed -e _ws.expert.severity \
  >"$work/tun-fields.txt" 2>"$work/tun-tshark.err"
# checksum status values (Wireshark proto_checksum_enum_e): 0 bad, 1 good,
# 2 unverified, 3 not present (UDP checksum 0), 4 illegal
awk -F";" -v want="$want" '
  { n++ }
  $1 !~ /(vxlan|geneve):eth:ethertype:ip(v6)?:tcp/ { if (bad++ < 5) printf "frame %d: %s\n", n, $1; next }
  $2 != "1" || $3 ~ /(^|,)[04]($|,)/ || $4 ~ /(^|,)[04]($|,)/ || $5 != "" || $6 ~ /(^|,)8388608($|,)/ {
    if (bad++ < 5) printf "frame %d: tcp %s ip %s udp %s malformed %s expert %s\n", n, $2, $3, $4, $5, $6 }
  END { printf "%d segments decoded by tshark (%d expected), %d bad\n", n, want, bad
        exit (n == want && bad == 0) ? 0 : 1 }' "$work/tun-fields.txt"
