#!/bin/sh
# make-fixtures.sh - regenerate the kernel GRO fixtures in tests/fixtures/kernel/.
#
#   sudo tests/kernel/make-fixtures.sh [NAME...]
#   sudo tests/kernel/make-fixtures.sh -t [NAME...]   the tunnel fixtures
#   sudo tests/kernel/make-fixtures.sh -l [NAME...]   the fraglist fixtures
#
# -l: the inputs of tests/fixtures/kernel/ (made first: run the script
# without -l before) through the kernel with --rx-features 'rx-gro-list on'
# (NETIF_F_GRO_FRAGLIST; no socket listens on the receiving end, so TCP and
# UDP are both chained: tcp4_check_fraglist_gro, udp_gro_receive), into
# tests/fixtures/kernel-fraglist/<name>/{OUT.pcap,OUT.pcap.meta.tsv} (the
# input stays where it is).
#
# -t: the sequences of mkseq -t (our TCP in VXLAN over IPv4, in IP-in-IP:
# 4in4, 6in4, 4in6, 6in6, and in GRE over IPv4 and IPv6) into
# tests/fixtures/kernel-tunnel/; vxlan_* run with --vxlan-port 4789 (a VXLAN
# device on the receiving end: the kernel merges through a UDP tunnel only
# where its socket listens; that device opens an IPv4 socket only, so outer
# IPv6 VXLAN has no fixture), ipip_* and gre_* with no option (the kernel's
# IP-in-IP and GRE GRO are built in).
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
tun=
if [ "${1:-}" = -t ]; then
	tun=-t
	out="$out-tunnel"
	shift
elif [ "${1:-}" = -l ]; then
	shift
	status=0
	for d in "$out"/*/; do
		name=$(basename "$d")
		[ -f "$d/IN.pcap" ] || continue
		if [ $# -gt 0 ]; then
			case " $* " in *" $name "*) ;; *) continue ;; esac
		fi
		mkdir -p "$out-fraglist/$name"
		o="$out-fraglist/$name/OUT.pcap"
		if "$oracle" "$d/IN.pcap" "$o" --complete-csum --rx-features 'rx-gro-list on' 2> "$tmp/err"; then
			printf '%-20s %3s out\n' "$name" "$(grep -vc '^#' "$o.meta.tsv" || true)"
		else
			echo "make-fixtures.sh: kernel-gro failed on $name:" >&2
			cat "$tmp/err" >&2
			status=1
		fi
	done
	exit $status
fi

"$cc" -std=c11 -O1 -I "$src/tests/support" -o "$tmp/mkseq" \
	"$here/mkseq.c" "$src/tests/support/gen.c" "$src/tests/support/gen_tun.c"

mkdir -p "$out"
"$tmp/mkseq" $tun "$out" "$@" > "$tmp/list"
status=0
while read -r name nin; do
	d="$out/$name"
	# udpgro_*: UDP GRO as a forwarding device does it (no UDP socket
	# listens on the receiving end); the test sets ofl_gro_config.udp
	case $name in
	udpgro_*) set -- --rx-features 'rx-udp-gro-forwarding on' ;;
	vxlan_*) set -- --vxlan-port 4789 ;;
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
