#!/bin/sh
# make-fixtures.sh - regenerate the kernel GSO fixtures in tests/fixtures/gso/.
#
#   sudo tests/gso/make-fixtures.sh [NAME...]
#
# For every super-packet of tests/gso/fixtures.h (or only the named ones):
#   1. mkgso writes tests/fixtures/gso/<name>/IN.pcap (our own synthetic
#      super-packet, tests/support/gen.c and tests/gso/gso_util.c);
#   2. the kernel oracle segments it with the running kernel's software GSO:
#      kernel-gso IN.pcap OUT.pcap --mss N --type tcp4|tcp6|udp4|udp6
#      (AF_PACKET + PACKET_VNET_HDR, every offload off on the veth, so the
#      kernel cuts the packet and computes full checksums) and writes OUT.pcap
#      and OUT.pcap.meta.tsv.
#
# Needs: root (network namespaces and a veth pair), python3, iproute2,
# ethtool, a C compiler.  The tests never run the kernel: they read the
# committed pcaps (tests/unit/gso_kernel_test.c).  Made on Linux 6.18; review
# the diff before committing fixtures regenerated on another kernel.
#
# Environment: KERNEL_GSO (default: ../shared/tools/kernel-oracle/kernel-gso
# beside the repository), CC (default cc).
set -eu

here=$(cd "$(dirname "$0")" && pwd)
oracle_name=kernel-gso oracle=${KERNEL_GSO:-}
. "$here/../support/oracle-setup.sh"
out="$src/tests/fixtures/gso"
# mkgso uses the test helpers, which use the library and the capture
# files of offload-replay (libpcap)
"$cc" -std=c11 -O1 -I "$src/include" -I "$src/src" -I "$src/tests/support" -I "$here" \
	-I "$src/tools/offload-replay" -o "$tmp/mkgso" \
	"$here/mkgso.c" "$here/gso_util.c" "$src/tests/support/gen.c" \
	"$src/tools/offload-replay/capture.c" "$src"/src/core/*.c "$src"/src/gso/*.c \
	"$src"/src/dsa/*.c -lpcap

mkdir -p "$out"
"$tmp/mkgso" "$out" "$@" > "$tmp/list"
status=0
while read -r name mss type; do
	d="$out/$name"
	if "$oracle" "$d/IN.pcap" "$d/OUT.pcap" --mss "$mss" --type "$type" 2> "$tmp/err"; then
		printf '%-18s mss %5s %s: %s\n' "$name" "$mss" "$type" "$(cat "$tmp/err")"
	else
		echo "make-fixtures.sh: kernel-gso failed on $name:" >&2
		cat "$tmp/err" >&2
		status=1
	fi
done < "$tmp/list"
exit $status
