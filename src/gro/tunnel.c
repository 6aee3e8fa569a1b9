/*
 * tunnel.c - the tunnel layer of GRO: TCP merged through VXLAN, Geneve and
 * IP-in-IP as Linux merges it in the underlay device's GRO, outer and inner
 * headers together (net/ipv4/af_inet.c ipip_gro_receive, the sit, ip4ip6
 * and ip6ip6 GRO of net/ipv6/ip6_offload.c: no UDP, no tunnel header, the
 * same outer IP rules; net/ipv4/udp_offload.c udp4_gro_receive and
 * udp_gro_receive with a tunnel socket, drivers/net/vxlan/vxlan_core.c
 * vxlan_gro_prepare_receive and vxlan_gro_receive, drivers/net/geneve.c
 * geneve_gro_receive, then eth_gro_receive and the inner IP and TCP GRO),
 * and the completion of the outer headers (udp4/6_gro_complete).  GRE's
 * own rules (its header, checksum and completion) are in gre.c, the
 * VXLAN-GPE header's (vxlan_gpe_gro_receive) in vxlan_gpe.c.
 *
 * The kernel's rules, in its order (Linux 6.18):
 *   - outer IP as for any GRO packet: IPv4 without options, a valid header
 *     checksum, not a fragment; IPv6 (its extension headers are not taken
 *     here: NORMAL_TUN_OUTER);
 *   - the outer UDP checksum validated when not 0 (bad: not merged);
 *   - one tunnel level only (encap_mark): an inner UDP or GRE packet is
 *     not TCP here and is passed on;
 *   - the same flow: outer UDP ports equal and the outer checksums both 0
 *     or both not 0 (udp_gro_receive), VXLAN flags and VNI equal
 *     (vxlan_gro_prepare_receive), the Geneve header and its options byte
 *     for byte (geneve_gro_receive), the inner Ethernet header
 *     (eth_gro_receive), then the inner flow as for plain TCP.  Here those
 *     are the flow key: the inner flow's words, GRO_KEY_TUN, and a digest
 *     of the outer side in word 8; a held entry the key finds is checked
 *     byte for byte against the outer side too (a digest collision only
 *     completes the held packet, never merges two flows);
 *   - Geneve: version 0 and the OAM bit clear, a protocol type with GRO
 *     (Ethernet 0x6558, IPv4, IPv6), the options within the packet;
 *   - merged: the inner TCP and IP rules unchanged (tcp.h, ipv4.h, ipv6.h),
 *     and the outer IP ones: IPv4 TTL, TOS, DF equal and the ID
 *     incrementing or fixed, decided on the second segment apart from the
 *     inner ID (the 2025 ip_fixedid per header); IPv6 traffic class and hop
 *     limit equal (FLUSH_TUN_OUTER);
 *   - never an outer IP packet above 65535 bytes (skb_gro_receive refuses
 *     an encapsulated packet past GRO_LEGACY_MAX_SIZE), nor above max_size.
 * Where the kernel passes a frame on and keeps the held packet of its flow,
 * that packet is completed first here (per-flow order, as for TCP) when the
 * frame's flow can be told (its inner TCP ports reached).
 *
 * Completion: the outer IPv4 total length and header checksum (IPv6
 * payload length), the outer UDP length and, when not 0, the outer UDP
 * checksum as the kernel leaves it (the pseudo-header sum), then the inner
 * IP and TCP as for plain TCP (the stack's other layers).
 */
#include <ofl/csum.h>

#include "core/csum_int.h"
#include "gro/hold.h"
#include "gro/ipv4.h"
#include "gro/ipv6.h"
#include "gro/layer.h"
#include "gro/predict.h"
#include "gro/tunfast.h"
#include "gro/tunnel.h"

#define VXLAN_HLEN 8u
#define GENEVE_HLEN 8u
#define ETH_P_TEB 0x6558u
#define ETH_P_IP_ 0x0800u
#define ETH_P_IPV6_ 0x86ddu

/* The MAC addresses in the flow key of an inner packet without Ethernet. */
static const uint8_t no_inner_mac[12];

int gro_tunnel_check_config(const struct ofl_gro_config *cfg)
{
	unsigned i;
	unsigned ngpe = cfg->version >= 8 ? cfg->vxlan_gpe_nports : 0; /* older: no such field */
	if (cfg->vxlan_nports > OFL_GRO_TUN_PORTS_MAX || cfg->geneve_nports > OFL_GRO_TUN_PORTS_MAX ||
	    ngpe > OFL_GRO_TUN_PORTS_MAX)
		return -1;
	for (i = 0; i < cfg->vxlan_nports; i++)
		if (cfg->vxlan_ports[i] == 0)
			return -1;
	for (i = 0; i < cfg->geneve_nports; i++)
		if (cfg->geneve_ports[i] == 0)
			return -1;
	for (i = 0; i < ngpe; i++)
		if (cfg->vxlan_gpe_ports[i] == 0)
			return -1;
	return 0;
}

unsigned gro_tunnel_of(struct ofl_gro *g, const struct ofl_pkt *pkt, struct ofl_view *v, const struct ofl_hdrs *h,
                       uint32_t total)
{
	uint32_t l4 = h->l4_off;
	if (l4 == 0 || l4 + 4u > h->l3_end || l4 + 4u > h->frame_len)
		return 0;
	if (l4 + 4u > v->len && pkt->nbufs > 1)
		*v = ofl_view_make(pkt->bufs, pkt->nbufs, total, g->scratch, OFL_GRO_SCRATCH);
	if (l4 + 4u > v->len)
		return 0;
	return gro_tun_port(g, ofl_get16(v->p + l4 + 2));
}

/* ---- completion ----------------------------------------------------------- */

/* The outer headers of a merged packet: IP length (and IPv4 checksum), UDP
 * length, and a non-zero UDP checksum as the pseudo-header sum
 * (udp4/6_gro_complete). */
static void gro_tun_complete(struct gro_item *it)
{
	const struct gro_tun *t = &it->tun;
	uint8_t *ip = it->hdr + t->ol3_off, *uh = it->hdr + t->ol4_off;
	/* at most 65535: tunnel_nomerge() keeps it there */
	uint32_t olen = it->l3_len + (uint32_t)(it->l3_off - t->ol3_off);
	uint32_t ulen = olen - (uint32_t)(t->ol4_off - t->ol3_off);
	uint16_t c;
	if (t->ol3 == 4) {
		ofl_put16(ip + 2, (uint16_t)olen);
		ip[10] = ip[11] = 0;
		c = (uint16_t)~ofl_csum_words_fold(ip, 5);
		memcpy(ip + 10, &c, 2);
	} else {
		ofl_put16(ip + 4, (uint16_t)(olen - 40u));
	}
	if (!gro_tun_udp(t->type))
		return; /* no UDP */
	ofl_put16(uh + 4, (uint16_t)ulen);
	if (t->ocsum) {
		c = (uint16_t)~ofl_csum_fold(gro_pseudo_sum(it->hdr, t->ol3, t->ol3_off, ulen, 17));
		memcpy(uh + 6, &c, 2);
	}
}

/* The outer headers and the tunnel header: completed above, never
 * predicted (no plain shape, no holes). */
const struct gro_layer gro_layer_tun = {.name = "tunnel", .complete = gro_tun_complete};

/* ---- receive -------------------------------------------------------------- */

/* What the parse of a tunnel frame learnt. */
struct tun_parse {
	struct gro_tun t;
	uint8_t keyed;       /* the inner TCP ports were reached: k holds the flow */
	struct ofl_hdrs in;  /* the inner parse */
	struct ofl_flow_key k;
};

/* A 64-bit digest of bytes (words and a tail), for the outer side of the key. */
static inline uint64_t mix(uint64_t h, uint64_t x)
{
	h ^= x;
	h *= 0x9e3779b97f4a7c15ull;
	return h ^ (h >> 29);
}

static uint64_t mix_bytes(uint64_t h, const uint8_t *p, uint32_t n)
{
	uint64_t x;
	for (; n >= 8; p += 8, n -= 8)
		h = mix(h, ld64(p));
	if (n) {
		x = 0;
		memcpy(&x, p, n);
		h = mix(h, x ^ (uint64_t)n << 56);
	}
	return h;
}

/* The bytes of a tunnel header that are not the flow: a GRE checksum
 * section (the checksum and its reserved half, right after the first 4
 * bytes; gre.c), 0 or 4. */
static inline uint32_t tun_skip(const struct gro_tun *t)
{
	return t->type == OFL_GRO_TUN_GRE && t->ocsum ? 4u : 0u;
}

/* The outer side's identity: Ethernet (MACs, VLAN tags, EtherType), the
 * outer IP version, addresses and protocol (IPv6: flow label too), the UDP
 * ports, whether its checksum is 0, the tunnel header.  Returns its
 * digest. */
static uint64_t outer_digest(const uint8_t *p, const struct gro_tun *t)
{
	const uint8_t *ip = p + t->ol3_off;
	uint64_t h = mix(0x6a09e667f3bcc909ull, (uint64_t)t->type | (uint64_t)t->ol3 << 8 |
	                                             (uint64_t)t->ocsum << 16 | (uint64_t)t->in_off << 32);
	h = mix_bytes(h, p, t->ol3_off);
	if (t->ol3 == 4) {
		h = mix(h, ip[9]);
		h = mix_bytes(h, ip + 12, 8);
	} else {
		h = mix(h, (uint64_t)(ofl_get32(ip) & 0xf00fffffu) << 8 | ip[6]);
		h = mix_bytes(h, ip + 8, 32);
	}
	if (gro_tun_udp(t->type))
		h = mix_bytes(h, p + t->ol4_off, 4); /* the UDP ports */
	if (tun_skip(t)) {
		h = mix_bytes(h, p + t->tun_off, 4);
		return mix_bytes(h, p + t->tun_off + 8u, (uint32_t)(t->in_off - t->tun_off) - 8u);
	}
	return mix_bytes(h, p + t->tun_off, (uint32_t)(t->in_off - t->tun_off));
}

/* Parse the UDP header, the tunnel header and the inner packet.  Returns -1
 * when all of them parsed (tp->in may still say the inner packet is not
 * TCP GRO takes), else an enum ofl_gro_normal_reason. */
static int tun_parse(const struct ofl_view *v, const struct ofl_hdrs *h, unsigned type, struct tun_parse *tp)
{
	const uint8_t *p = v->p;
	uint32_t ol4 = h->l4_off, end = h->l3_end, to = ol4 + 8u, in;
	uint16_t et = 0;
	memset(&tp->t, 0, sizeof(tp->t));
	tp->keyed = 0;
	if (!gro_tun_udp(type))
		to = ol4; /* no UDP header (IP-in-IP: no tunnel header either) */
	if (ol4 == 0 || to > end || to > v->len)
		return OFL_GRO_NORMAL_TUN_OUTER;
	tp->t.type = (uint8_t)type;
	tp->t.ol3 = h->l3;
	tp->t.ol3_off = h->l3_off;
	tp->t.ol4_off = (uint16_t)ol4;
	tp->t.tun_off = (uint16_t)to;
	tp->t.ocsum = gro_tun_udp(type) && (p[ol4 + 6] | p[ol4 + 7]) != 0;
	tp->t.oid0 = h->l3 == 4 ? ofl_get16(p + h->l3_off + 4) : 0;
	if (type == OFL_GRO_TUN_IPIP) {
		in = ol4;
		et = h->l4proto == 4 ? ETH_P_IP_ : ETH_P_IPV6_;
	} else if (type == OFL_GRO_TUN_VXLAN) {
		in = to + VXLAN_HLEN;
		if (in > end || in > v->len)
			return OFL_GRO_NORMAL_TUN_HDR;
		et = ETH_P_TEB;
	} else if (type == OFL_GRO_TUN_VXLAN_GPE) {
		int why;
		in = to + VXLAN_HLEN;
		if (in > end || in > v->len)
			return OFL_GRO_NORMAL_TUN_HDR;
		why = gro_gpe_parse(p + to, &et); /* vxlan_gpe.c */
		if (why >= 0)
			return why;
	} else if (type == OFL_GRO_TUN_GRE) {
		uint32_t gl; /* (locals: in and et stay in registers) */
		uint16_t gt;
		int why = gro_gre_parse(v, ol4, end, &gl, &gt, &tp->t.ocsum); /* ocsum: the C bit */
		if (why >= 0)
			return why;
		in = ol4 + gl;
		et = gt;
	} else {
		const uint8_t *gh = p + to;
		if (to + GENEVE_HLEN > end || to + GENEVE_HLEN > v->len)
			return OFL_GRO_NORMAL_TUN_HDR;
		/* version (2 bits) 0, OAM clear (geneve_gro_receive) */
		if ((gh[0] >> 6) != 0 || (gh[1] & 0x80u))
			return OFL_GRO_NORMAL_TUN_HDR;
		in = to + GENEVE_HLEN + (gh[0] & 0x3fu) * 4u;
		if (in > end || in > v->len)
			return OFL_GRO_NORMAL_TUN_HDR;
		et = ofl_get16(gh + 2);
		if (et != ETH_P_TEB && et != ETH_P_IP_ && et != ETH_P_IPV6_)
			return OFL_GRO_NORMAL_TUN_HDR; /* no GRO for the protocol */
	}
	tp->t.in_off = (uint16_t)in;
	if (et == ETH_P_TEB)
		ofl_parse_at(v, end, in + 12u, &tp->in);
	else
		ofl_parse_l3_at(v, end, in, et, &tp->in);
	tp->in.raw = h->raw; /* where a COMPLETE sum starts (tcp.c) */
	tp->keyed = tp->in.l4_ok && tp->in.l4proto == 6;
	return -1;
}

/* The flow key of a parsed tunnel frame: the inner flow's words (MACs of
 * the inner Ethernet header, none for inner IP), GRO_KEY_TUN, the outer
 * side's digest in word 8. */
static void tun_key(const struct ofl_pkt *pkt, const struct ofl_view *v, const struct rx_tag *tag,
                    struct tun_parse *tp)
{
	const uint8_t *mac = tp->in.nvlan || tp->in.l3_off != tp->t.in_off ? v->p + tp->t.in_off : no_inner_mac;
	gro_flow_key(pkt, mac, v->p, &tp->in, tag, &tp->k);
	tp->k.w[1] |= GRO_KEY_TUN;
	tp->k.w[8] ^= outer_digest(v->p, &tp->t);
}

/* Pass the frame on; the held packet of its flow, if known, goes first. */
static int refuse(struct ofl_gro *g, const struct ofl_pkt *pkt, const struct rx_tag *tag,
                  const struct tun_parse *tp, unsigned flush_why, unsigned why, uint32_t total, uint64_t now)
{
	if (tp->keyed) {
		uint32_t hash, idx = gro_flow_lookup(g, &tp->k, &hash);
		if (idx != GRO_NONE)
			gro_complete(g, idx, flush_why);
	}
	return gro_pass_normal(g, pkt, total, why, now, tag);
}

/* Do two frames' tunnel headers differ in the bytes that are the flow? */
static int tun_hdr_differs(const uint8_t *p, const uint8_t *q, const struct gro_tun *t)
{
	uint32_t o = t->tun_off, n = (uint32_t)(t->in_off - t->tun_off);
	if (tun_skip(t)) {
		if (memcmp(p + o, q + o, 4) != 0)
			return 1;
		o += 8u;
		n -= 8u;
	}
	return memcmp(p + o, q + o, n) != 0;
}

/* Does the held entry's outer side equal the frame's (the key only says
 * their digests do), and do the outer IP rules let it merge?  Nomerge bits. */
static uint32_t tunnel_nomerge(const uint8_t *p, const struct tun_parse *tp, struct gro_item *it)
{
	const struct gro_tun *a = &tp->t;
	struct gro_tun *b = &it->tun;
	const uint8_t *q = it->hdr, *ip = p + a->ol3_off, *ip2 = q + a->ol3_off;
	if (!gro_stack_tun(it->stack) || a->type != b->type || a->ol3 != b->ol3 || a->ocsum != b->ocsum ||
	    a->ol3_off != b->ol3_off || a->ol4_off != b->ol4_off || a->in_off != b->in_off ||
	    tp->in.l3_off != it->l3_off || memcmp(p, q, a->ol3_off) != 0 ||
	    (gro_tun_udp(a->type) && memcmp(p + a->ol4_off, q + a->ol4_off, 4) != 0) || tun_hdr_differs(p, q, a))
		return NM(OFL_GRO_FLUSH_NOT_GRO);
	if (a->ol3 == 4) {
		if (ip[9] != ip2[9] || memcmp(ip + 12, ip2 + 12, 8) != 0)
			return NM(OFL_GRO_FLUSH_NOT_GRO);
		if (ip[1] != ip2[1] || ip[8] != ip2[8] || ((ip[6] ^ ip2[6]) & 0x40))
			return NM(OFL_GRO_FLUSH_TUN_OUTER);
		/* the ID rule of ipv4.h, with the outer ID's own state */
		if (gro_id_breaks(ofl_get16(ip + 4), b->oid0, &b->ofixedid, it->nsegs))
			return NM(OFL_GRO_FLUSH_TUN_OUTER);
		return 0;
	}
	if (((ofl_get32(ip) ^ ofl_get32(ip2)) & 0xf00fffffu) || ip[6] != ip2[6] || memcmp(ip + 8, ip2 + 8, 32) != 0)
		return NM(OFL_GRO_FLUSH_NOT_GRO);
	if (((ip[0] ^ ip2[0]) & 0x0f) || ((ip[1] ^ ip2[1]) & 0xf0) || ip[7] != ip2[7])
		return NM(OFL_GRO_FLUSH_TUN_OUTER);
	return 0;
}

/* What makes an entry just filled from a tunnel frame a tunnel flow's. */
static void tun_entry(struct gro_item *it, const struct tun_parse *tp, const struct ofl_pkt *pkt)
{
	it->stack = tp->in.l3 == 4 ? GRO_STACK_TUN4 : GRO_STACK_TUN6;
	it->tun = tp->t;
	it->fast = gro_tun_fast_of(it, pkt); /* tunfast.c */
}

int gro_tunnel_receive(struct ofl_gro *g, const struct ofl_pkt *pkt, struct ofl_view *v, const struct ofl_hdrs *h,
                       unsigned type, const struct rx_tag *tag, uint32_t total, int csum_status, uint64_t now)
{
	struct tun_parse tp;
	const struct ofl_hdrs *ih = &tp.in;
	const uint8_t *th;
	uint32_t hash, idx, len, nm, max_ol3;
	int why;
	uint8_t flags;
	/* the headers in one view: gathered when they run past the first
	 * buffer (at most OFL_GRO_SCRATCH bytes; longer headers are refused) */
	if (pkt->nbufs > 1 && v->len < total && v->len < OFL_GRO_SCRATCH)
		*v = ofl_view_make(pkt->bufs, pkt->nbufs, total, g->scratch, OFL_GRO_SCRATCH);
	if (tag->has || g->raw)
		return gro_pass_normal(g, pkt, total, OFL_GRO_NORMAL_TUN_OUTER, now, tag);
	why = tun_parse(v, h, type, &tp);
	if (tp.keyed)
		tun_key(pkt, v, tag, &tp);
	if (why < 0) {
		const uint8_t *uh = v->p + h->l4_off;
		if (h->status != OFL_PARSE_NOT_TCP || h->trimmed || h->ip6_ext_len ||
		    (gro_tun_udp(type) && ofl_get16(uh + 4) != h->l3_end - h->l4_off))
			why = OFL_GRO_NORMAL_TUN_OUTER; /* options, fragment, padding, ... */
		else if (ih->status != OFL_PARSE_OK || ih->l4proto != 6 || ih->hdr_len > OFL_GRO_MAX_HDR)
			why = OFL_GRO_NORMAL_TUN_INNER; /* a nested tunnel is not TCP here */
	}
	if (why >= 0)
		return refuse(g, pkt, tag, &tp, OFL_GRO_FLUSH_NOT_GRO, (unsigned)why, total, now);
	if (tp.t.ocsum) {
		if (csum_status != OFL_CSUM_UNNECESSARY && csum_status != OFL_CSUM_PARTIAL)
			g->st.csum_sw++;
		if (type == OFL_GRO_TUN_GRE ? !gro_gre_csum_ok(pkt, csum_status, v, h)
		                            : !gro_tcp_csum_ok(pkt, csum_status, v, h))
			return refuse(g, pkt, tag, &tp, OFL_GRO_FLUSH_CSUM, OFL_GRO_NORMAL_TUN_CSUM, total, now);
	}
	len = ih->payload_len;
	th = v->p + ih->l4_off;
	flags = th[13];
	if (ih->trimmed)
		g->st.padding_trimmed++;
	if (len && gro_ip_len_nomerge(ih))
		return refuse(g, pkt, tag, &tp, OFL_GRO_FLUSH_NOT_GRO, OFL_GRO_NORMAL_PADDED, total, now);
	if (len && csum_status != OFL_CSUM_UNNECESSARY && csum_status != OFL_CSUM_PARTIAL)
		g->st.csum_sw++;
	if (len && !gro_tcp_csum_ok(pkt, csum_status, v, ih))
		return refuse(g, pkt, tag, &tp, OFL_GRO_FLUSH_CSUM, OFL_GRO_NORMAL_TCP_CSUM, total, now);
	if (g->held_bytes + len > g->cfg.max_held_bytes)
		gro_make_room(g, len);
	idx = gro_flow_lookup(g, &tp.k, &hash);
	if (idx != GRO_NONE) {
		struct gro_item *it = &g->items[idx];
		nm = tunnel_nomerge(v->p, &tp, it);
		if (!nm) {
			nm = gro_tcp_nomerge(th, it, len);
			if (ih->l3 == 4)
				nm |= gro_ipv4_nomerge(v->p + ih->l3_off, it);
			else
				nm |= gro_ipv6_nomerge(v->p + ih->l3_off, it, ih->ip6_ext_len);
		}
		if (!nm) {
			/* the outer IP packet: within max_size and 64 KiB */
			max_ol3 = g->cfg.max_size < 65535u ? g->cfg.max_size : 65535u;
			if (it->l3_len + (uint32_t)(it->l3_off - it->tun.ol3_off) + len > max_ol3)
				nm = NM(OFL_GRO_FLUSH_MAX_SIZE);
			else if (it->nsegs == g->cfg.max_segs ||
			         it->nslices + gro_count_slices(pkt, ih->hdr_len, len) + 1u > g->max_slices)
				nm = NM(OFL_GRO_FLUSH_MAX_SEGS);
		}
		if (!nm) {
			gro_add_slices(g, idx, pkt, ih->hdr_len, len, it->nsegs);
			return merge_tail(g, idx, pkt, len, flags);
		}
		gro_complete(g, idx, (unsigned)__builtin_ctz(nm));
	}
	if (len == 0)
		return gro_pass_normal(g, pkt, total, OFL_GRO_NORMAL_NO_PAYLOAD, now, tag);
	if (flags & TCP_NO_RUN)
		return gro_pass_normal(g, pkt, total, OFL_GRO_NORMAL_FLAGS, now, tag);
	if (len > g->cfg.max_held_bytes)
		return gro_pass_normal(g, pkt, total, OFL_GRO_NORMAL_OVER_LIMIT, now, tag);
	gro_hold_new(g, pkt, v, ih, tag, &tp.k, hash, now);
	tun_entry(&g->items[g->last], &tp, pkt);
	return OFL_GRO_HELD;
}

uint32_t gro_tunnel_fill_lone(struct ofl_gro *g, const struct ofl_pkt *pkt, unsigned type)
{
	struct ofl_view v;
	struct ofl_hdrs h;
	struct rx_tag tag;
	struct tun_parse tp;
	uint32_t idx, hash;
	v.p = pkt->bufs[0].data;
	v.len = pkt->bufs[0].len;
	tag.has = 0;
	/* it parsed as a tunnel frame to hold when it was held: it does now */
	ofl_parse_at(&v, v.len, 12, &h);
	tun_parse(&v, &h, type, &tp);
	tun_key(pkt, &v, &tag, &tp);
	hash = ofl_flow_hash(&g->tab, &tp.k);
	idx = item_alloc(g);
	gro_hold_fill(g, idx, pkt, &v, &tp.in, &tag, &tp.k, hash);
	tun_entry(&g->items[idx], &tp, pkt);
	return idx;
}

/* ---- delivery ------------------------------------------------------------- */

int ofl_gro_out_tunnel(const struct ofl_gro_out *o, struct ofl_gro_tunnel *t)
{
	const uint8_t *p;
	uint32_t off = 12, hl, ol4, to, in;
	uint16_t et;
	unsigned type, n;
	if (!o || !t)
		return OFL_EINVAL;
	memset(t, 0, sizeof(*t));
	type = OFL_GRO_OUT_TUN_TYPE(o->flags);
	p = o->hdr;
	hl = o->hdr_len;
	/* the header was written by the library: checked all the same */
	if (!type || !p || o->seg_count == 0 || hl < 14)
		return 0;
	et = ofl_get16(p + off);
	for (n = 0; n < 2 && (et == 0x8100u || et == 0x88a8u) && off + 6u <= hl; n++) {
		off += 4;
		et = ofl_get16(p + off);
	}
	off += 2;
	if (et == ETH_P_IP_ && off + 20u <= hl) {
		ol4 = off + (p[off] & 0xfu) * 4u;
		t->outer_l3 = 4;
	} else if (et == ETH_P_IPV6_ && off + 40u <= hl) {
		ol4 = off + 40u;
		t->outer_l3 = 6;
	} else {
		return 0;
	}
	if (type == OFL_GRO_TUN_IPIP) {
		to = in = ol4;
	} else if (type == OFL_GRO_TUN_GRE) {
		to = ol4;
		if (to + 4u > hl)
			return 0;
		in = to + gro_gre_hlen(ofl_get16(p + to));
	} else {
		to = ol4 + 8u;
		if (to + 8u > hl)
			return 0;
		in = to + 8u + (type == OFL_GRO_TUN_GENEVE ? (p[to] & 0x3fu) * 4u : 0u);
	}
	if (in > o->l3_off || o->l3_off >= o->l4_off || o->l4_off >= hl)
		return 0;
	t->type = (uint8_t)type;
	t->inner_l3 = (p[o->l3_off] >> 4) == 4 ? 4 : 6;
	t->outer_udp_csum = gro_tun_udp(type) && (p[ol4 + 6] | p[ol4 + 7]) != 0;
	t->outer_l3_off = (uint16_t)off;
	t->outer_l4_off = (uint16_t)ol4;
	t->tun_off = (uint16_t)to;
	t->inner_l2_off = (uint16_t)in;
	t->inner_l3_off = o->l3_off;
	t->inner_l4_off = o->l4_off;
	return 1;
}
