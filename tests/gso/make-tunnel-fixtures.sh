#!/bin/sh
# make-tunnel-fixtures.sh - regenerate the kernel fixtures of UDP-tunnel GSO
# in tests/fixtures/gso_tunnel/ (read by tests/unit/gso_tunnel_test.c).
#
#   sudo tests/gso/make-tunnel-fixtures.sh
#
# For each case: mktunnel.py writes our own VXLAN or Geneve super-packet
# (IN.pcap) and its 24-byte virtio_net_hdr_v1_hash_tunnel (vnet.hex);
# tap-tunnel-gso.py has the running kernel segment it (TAP device, bridge,
# veth with offloads off) into OUT.pcap.  Fails unless the kernel cut every
# super-packet into several segments.  Needs root, python3, iproute2,
# ethtool, and Linux 6.17+ (TUN_F_UDP_TUNNEL_GSO); made on Linux 6.18.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
out=$(cd "$here/../fixtures" && pwd)/gso_tunnel
[ "$(id -u)" = 0 ] || { echo "make-tunnel-fixtures.sh: needs root" >&2; exit 1; }
mkdir -p "$out"
for t in vxlan geneve; do
  for o in o4 o6; do
    for i in i4 i6; do
      for c in "" _csum; do
        name=${t}_${o}_${i}$c
        d=$out/$name
        mkdir -p "$d"
        python3 "$here/mktunnel.py" "$name" "$d"
        ns=ofl-tungso-$$
        ip netns add "$ns"
        rc=0
        ip netns exec "$ns" python3 "$here/tap-tunnel-gso.py" "$d/IN.pcap" "$d/OUT.pcap" "$(cat "$d/vnet.hex")" \
          >"$d/oracle.log" 2>&1 || rc=$?
        ip netns del "$ns"
        [ "$rc" = 0 ] || { cat "$d/oracle.log" >&2; exit 1; }
        grep -q "got [2-9][0-9]* frames\|got [1-9][0-9][0-9]* frames" "$d/oracle.log" ||
          { echo "$name: the kernel did not segment it" >&2; cat "$d/oracle.log" >&2; exit 1; }
        echo "$name: $(cat "$d/oracle.log")"
        rm -f "$d/oracle.log"
      done
    done
  done
done
uname -r >"$out/KERNEL"
