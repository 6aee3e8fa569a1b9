/*
 * tc-tunnel-gso.bpf.c - a tc egress program that puts every IPv4/IPv6 frame,
 * TCP super-packets included, into GRE or IP in IP with
 * bpf_skb_adjust_room(BPF_F_ADJ_ROOM_ENCAP_*): the kernel marks a GSO packet
 * SKB_GSO_GRE or SKB_GSO_IPXIP4/6 (net/core/filter.c bpf_skb_net_grow), so
 * a device without those offloads has the kernel segment it in software
 * (skb_gso_segment -> gre_gso_segment / ipip_gso_segment).  The only way to
 * hand this kernel a GRE or IP-in-IP GSO packet of our choosing: it has no
 * GRE or IP-in-IP device (CONFIG_NET_IPGRE_DEMUX, CONFIG_NET_IPIP unset) and
 * virtio_net_hdr has no GRE or IP-in-IP GSO type.  Used by tc-tunnel-gso.py.
 *
 * The headers are those tests/gso/mktunnel.py writes for the same case
 * (outer IPv4 192.0.2.1 -> .2, ID 0x1111, DF, TTL 64; IPv6 2001:db8::1 -> ::2,
 * hop limit 64; GRE key 0xdeadbeef; inner Ethernet 02:00:00:00:00:11 ->
 * :12), so the frame the kernel segments is that fixture's IN.pcap.
 * Compiled once per case: OUTER6 (0/1), TUN (1 GRE, 2 IP in IP), GRE_KEY
 * (0/1), GRE_TEB (0/1: the GRE payload is an Ethernet frame, 0x6558).
 */
#include <linux/bpf.h>
#include <linux/pkt_cls.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_endian.h>

SEC("tc")
int encap(struct __sk_buff *skb)
{
	__u8 h[40 + 8 + 14] = {};
	__u32 olen = OUTER6 ? 40 : 20, glen = TUN == 1 ? (GRE_KEY ? 8 : 4) : 0, l2 = GRE_TEB ? 14 : 0;
	__u32 add = olen + glen + l2;
	__u16 eth = skb->protocol;
	__u8 inner6 = eth == bpf_htons(0x86dd);
	__u32 plen = skb->len - 14 + glen + l2; /* outer payload */
	__u64 flags = BPF_F_ADJ_ROOM_FIXED_GSO | (OUTER6 ? BPF_F_ADJ_ROOM_ENCAP_L3_IPV6 : BPF_F_ADJ_ROOM_ENCAP_L3_IPV4);
	__u8 proto = TUN == 1 ? 47 : inner6 ? 41 : 4;
	if (eth != bpf_htons(0x0800) && eth != bpf_htons(0x86dd))
		return TC_ACT_OK;
	if (TUN == 1)
		flags |= BPF_F_ADJ_ROOM_ENCAP_L4_GRE;
	if (GRE_TEB)
		flags |= BPF_F_ADJ_ROOM_ENCAP_L2(14) | BPF_F_ADJ_ROOM_ENCAP_L2_ETH;
	if (OUTER6) {
		h[0] = 0x60;
		h[4] = plen >> 8; h[5] = plen;
		h[6] = proto; h[7] = 64;
		h[8] = 0x20; h[9] = 0x01; h[10] = 0x0d; h[11] = 0xb8; h[23] = 1;
		h[24] = 0x20; h[25] = 0x01; h[26] = 0x0d; h[27] = 0xb8; h[39] = 2;
	} else {
		__u32 tot = plen + 20, s = 0;
		h[0] = 0x45; h[2] = tot >> 8; h[3] = tot; h[4] = 0x11; h[5] = 0x11; h[6] = 0x40; h[8] = 64; h[9] = proto;
		h[12] = 192; h[13] = 0; h[14] = 2; h[15] = 1; h[16] = 192; h[17] = 0; h[18] = 2; h[19] = 2;
		for (int i = 0; i < 20; i += 2)
			s += (__u32)h[i] << 8 | h[i + 1];
		s = (s & 0xffff) + (s >> 16);
		s = (s & 0xffff) + (s >> 16);
		s = ~s & 0xffff;
		h[10] = s >> 8; h[11] = s;
	}
	if (TUN == 1) {
		__u16 pt = GRE_TEB ? 0x6558 : inner6 ? 0x86dd : 0x0800;
		h[olen] = GRE_KEY ? 0x20 : 0;
		h[olen + 2] = pt >> 8; h[olen + 3] = pt;
		if (GRE_KEY) { h[olen + 4] = 0xde; h[olen + 5] = 0xad; h[olen + 6] = 0xbe; h[olen + 7] = 0xef; }
	}
	if (GRE_TEB) {
		__u8 *e = h + olen + glen;
		e[0] = 2; e[5] = 0x12; e[6] = 2; e[11] = 0x11;
		e[12] = inner6 ? 0x86 : 0x08; e[13] = inner6 ? 0xdd : 0x00;
	}
	if (bpf_skb_adjust_room(skb, add, BPF_ADJ_ROOM_MAC, flags))
		return TC_ACT_SHOT;
	if (bpf_skb_store_bytes(skb, 14, h, add, 0))
		return TC_ACT_SHOT;
	__u16 oeth = bpf_htons(OUTER6 ? 0x86dd : 0x0800);
	if (bpf_skb_store_bytes(skb, 12, &oeth, 2, 0))
		return TC_ACT_SHOT;
	return TC_ACT_OK;
}
char LICENSE[] SEC("license") = "GPL";
