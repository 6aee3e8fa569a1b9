#!/bin/sh
# make-tshark-fixtures.sh - regenerate tests/fixtures/gso_tunnel_tshark/: GRE
# and IP-in-IP TCP super-packets of our own (tests/gso/mktunnel.py, 8000
# payload bytes: 6 segments at MSS 1400), the inputs tunnel-tshark.sh cuts
# with `offload-replay gso --tunnel gre|ipip` for tshark to decode (the
# corpus has none).  Outer and inner IPv4/IPv6; GRE without options, with a
# checksum (C), with a key (K) and inner IP (no Ethernet), with both.
#
#   tests/gso/make-tshark-fixtures.sh      (python3; no root)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
out=$(cd "$here/../fixtures" && pwd)/gso_tunnel_tshark
for o in o4 o6; do
  for i in i4 i6; do
    for v in "" _csum _key_ip _csum_key_ip; do
      set -- "$@" gre_${o}_${i}$v
    done
    set -- "$@" ipip_${o}_${i}
  done
done
for name in "$@"; do
  mkdir -p "$out/$name"
  python3 "$here/mktunnel.py" "$name" "$out/$name" 8000
done
