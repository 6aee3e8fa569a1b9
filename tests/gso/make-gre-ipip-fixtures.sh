#!/bin/sh
# make-gre-ipip-fixtures.sh [--kernel] - regenerate tests/fixtures/gso_gre_ipip/:
# GRE and IP-in-IP TCP super-packets of our own (NAME/IN.pcap, by
# tests/gso/mktunnel.py: 8000 payload bytes, 6 segments at MSS 1400), which
# tunnel-tshark.sh cuts with `offload-replay gso --tunnel gre|ipip` for tshark
# to decode (the corpus has none): outer and inner IPv4/IPv6; GRE without
# options, with a checksum (C), with a key (K) and inner IP (no Ethernet),
# with both; IP in IP.
#
# --kernel: also NAME/OUT.pcap, the segments the running kernel makes of
# IN.pcap (tests/gso/tc-tunnel-gso.py with tc-tunnel-gso.bpf.c: a tc program
# puts the outer headers on a TSO packet with bpf_skb_adjust_room, which
# marks it SKB_GSO_GRE / SKB_GSO_IPXIP4/6, and a veth with the offloads off
# segments it), read by tests/unit/gso_gre_ipip_kernel_test.c.  Not for the
# cases with a GRE checksum: bpf_skb_adjust_room cannot ask for
# SKB_GSO_GRE_CSUM, and virtio_net_hdr has no GRE type at all.  Needs root,
# clang (-target bpf), libbpf headers, iproute2 (tc) and ethtool; made on
# Linux 6.18.
#
#   tests/gso/make-gre-ipip-fixtures.sh            (python3; no root)
#   sudo tests/gso/make-gre-ipip-fixtures.sh --kernel
set -eu
here=$(cd "$(dirname "$0")" && pwd)
out=$(cd "$here/../fixtures" && pwd)/gso_gre_ipip
kernel=${1:-}
for o in o4 o6; do
  for i in i4 i6; do
    for v in "" _csum _key_ip _csum_key_ip; do
      set -- "$@" gre_${o}_${i}$v
    done
    set -- "$@" ipip_${o}_${i}
  done
done
[ "${1:-}" = --kernel ] && shift
if [ "$kernel" = --kernel ]; then
  [ "$(id -u)" = 0 ] || { echo "make-gre-ipip-fixtures.sh --kernel: needs root" >&2; exit 1; }
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' EXIT
  inc=/usr/include/$(gcc -print-multiarch 2>/dev/null || echo .)
fi
for name in "$@"; do
  mkdir -p "$out/$name"
  python3 "$here/mktunnel.py" "$name" "$out/$name" 8000
  case $kernel:$name in
  --kernel:*_csum*) ;;
  --kernel:*)
    o6=0 tun=2 key=0 teb=0
    case $name in *_o6_*) o6=1 ;; esac
    case $name in gre_*) tun=1 teb=1 ;; esac
    case $name in *_key*) key=1 ;; esac
    case $name in *_ip) teb=0 ;; esac
    clang -O2 -Wall -target bpf -I"$inc" -DOUTER6=$o6 -DTUN=$tun -DGRE_KEY=$key -DGRE_TEB=$teb \
      -c "$here/tc-tunnel-gso.bpf.c" -o "$tmp/$name.o"
    unshare -n python3 "$here/tc-tunnel-gso.py" "$name" "$out/$name" "$tmp/$name.o" >"$tmp/log"
    grep -q "got 6 frames" "$tmp/log" ||
      { echo "$name: the kernel did not cut it into 6 segments" >&2; cat "$tmp/log" >&2; exit 1; }
    echo "$name: $(cat "$tmp/log")"
    ;;
  esac
done
[ "$kernel" = --kernel ] && uname -r >"$out/KERNEL"
exit 0
