#!/bin/sh
# make-fixtures.sh - regenerate the kernel GRO fixtures in tests/fixtures/kernel/.
#
#   sudo tests/kernel/make-fixtures.sh [NAME...]
#
# For every sequence of tests/kernel/mkseq.c (or only the named ones):
#   1. mkseq writes tests/fixtures/kernel/<name>/IN.pcap (our own synthetic
#      traffic, tests/support/gen.c);
#   2. the kernel oracle pushes it through the running kernel's GRO:
#      kernel-gro IN.pcap OUT.pcap --complete-csum
#      (sequences named udpgro_*: also --rx-features 'rx-udp-gro-forwarding on')
#      which writes OUT.pcap (what the device delivered to the stack, merged
#      packets with complete checksums) and OUT.pcap.meta.tsv (per frame:
#      checksum state, virtio_net_hdr gso_type/gso_size, flags, seq).
#
# Needs: root (the oracle creates two network namespaces and a veth pair),
# python3, iproute2, ethtool, a C compiler.  The tests never run the kernel:
# they read the committed pcaps (tests/kernel/kernel_fixture_test.c).
# The fixtures were made on Linux 6.18 (HZ=250, no CONFIG_VLAN_8021Q); a
# different kernel may give different outputs - review the diff before
# committing regenerated fixtures.
#
# Environment: KERNEL_GRO (default: ../shared/tools/kernel-oracle/kernel-gro
# beside the repository), CC (default cc).
set -eu

here=$(cd "$(dirname "$0")" && pwd)
oracle_name=kernel-gro oracle=${KERNEL_GRO:-}
. "$here/../support/oracle-setup.sh"
out="$src/tests/fixtures/kernel"
"$cc" -std=c11 -O1 -I "$src/tests/support" -o "$tmp/mkseq" \
	"$here/mkseq.c" "$src/tests/support/gen.c"

mkdir -p "$out"
"$tmp/mkseq" "$out" "$@" > "$tmp/list"
status=0
while read -r name nin; do
	d="$out/$name"
	# udpgro_*: UDP GRO as a forwarding device does it (no UDP socket
	# listens on the receiving end); the test sets ofl_gro_config.udp
	case $name in
	udpgro_*) set -- --rx-features 'rx-udp-gro-forwarding on' ;;
	*) set -- ;;
	esac
	if "$oracle" "$d/IN.pcap" "$d/OUT.pcap" --complete-csum "$@" 2> "$tmp/err"; then
		nout=$(grep -vc '^#' "$d/OUT.pcap.meta.tsv" || true)
		printf '%-20s %3s frames in, %3s out\n' "$name" "$nin" "$nout"
	else
		echo "make-fixtures.sh: kernel-gro failed on $name:" >&2
		cat "$tmp/err" >&2
		status=1
	fi
done < "$tmp/list"
exit $status
