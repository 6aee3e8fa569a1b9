/* gen_tun.c - UDP tunnel frames of our own (gen_tun.h). */
#include "gen_tun.h"

#include <string.h>

#include "gen.h"

static void put16(uint8_t *p, uint16_t v) { p[0] = (uint8_t)(v >> 8); p[1] = (uint8_t)v; }
static uint16_t get16(const uint8_t *p) { return (uint16_t)(p[0] << 8 | p[1]); }

void gen_tun_init(struct gen_tun *t, int type, int l3)
{
	static const uint8_t dmac[6] = {0x02, 0, 0, 0, 1, 2}, smac[6] = {0x02, 0, 0, 0, 1, 1};
	memset(t, 0, sizeof(*t));
	t->type = type;
	t->l3 = l3;
	memcpy(t->dst_mac, dmac, 6);
	memcpy(t->src_mac, smac, 6);
	/* 192.168.0.1 -> .2, or fd01::1 -> fd01::2 */
	t->saddr[0] = t->daddr[0] = l3 == 4 ? 192 : 0xfd;
	t->saddr[1] = t->daddr[1] = l3 == 4 ? 168 : 0x01;
	t->saddr[l3 == 4 ? 3 : 15] = 1;
	t->daddr[l3 == 4 ? 3 : 15] = 2;
	t->ttl = 64;
	t->df = true;
	t->ip_id = 1000;
	t->sport = 40000;
	t->dport = type == GEN_TUN_VXLAN ? 4789 : type == GEN_TUN_VXLAN_GPE ? 4790 : 6081;
	t->vxlan_flags = type == GEN_TUN_VXLAN_GPE ? 0x0c : 0x08;
	t->gpe_np = 3;
	t->vni = 42;
	t->gnv_proto = 0x6558;
	t->gre_proto = 0x6558;
	t->gre_key = 42;
}

/* GRE header bytes of a flag word */
static size_t gre_hlen(uint16_t fl)
{
	return 4u + ((fl & (GEN_GRE_C | GEN_GRE_R)) ? 4u : 0u) + ((fl & GEN_GRE_K) ? 4u : 0u) +
	       ((fl & GEN_GRE_S) ? 4u : 0u);
}

/* Does the tunnel carry the inner IP packet without its Ethernet header? */
static bool ip_payload(const struct gen_tun *t)
{
	return t->type == GEN_TUN_IPIP || (t->type == GEN_TUN_GENEVE && t->gnv_proto != 0x6558) ||
	       (t->type == GEN_TUN_VXLAN_GPE && (t->gpe_np == 1 || t->gpe_np == 2)) ||
	       (t->type == GEN_TUN_GRE && (t->gre_proto == 0x0800 || t->gre_proto == 0x86dd));
}

/* UDP and tunnel header bytes */
static size_t tun_hlen(const struct gen_tun *t)
{
	if (t->type == GEN_TUN_GRE)
		return gre_hlen(t->gre_flags);
	return t->type == GEN_TUN_IPIP ? 0u : t->type != GEN_TUN_GENEVE ? 16u : 16u + t->gnv_optlen;
}

/* The GRE header at gh, the payload behind it (len bytes from gh in all). */
static void gre_write(const struct gen_tun *t, uint8_t *gh, size_t len)
{
	uint8_t *f = gh + 4;
	put16(gh, t->gre_flags);
	put16(gh + 2, t->gre_proto);
	if (t->gre_flags & (GEN_GRE_C | GEN_GRE_R))
		f += 4; /* filled below */
	if (t->gre_flags & GEN_GRE_K) {
		put16(f, (uint16_t)(t->gre_key >> 16));
		put16(f + 2, (uint16_t)t->gre_key);
		f += 4;
	}
	if (t->gre_flags & GEN_GRE_S) {
		put16(f, (uint16_t)(t->gre_seq >> 16));
		put16(f + 2, (uint16_t)t->gre_seq);
	}
	if (t->gre_flags & GEN_GRE_C) {
		uint16_t c = (uint16_t)~gen_csum_fold(gh, len, 0);
		if (t->bad_gre_csum)
			c ^= 0x5a5a;
		put16(gh + 4, c);
	}
}

size_t gen_tun_wrap(const struct gen_tun *t, const uint8_t *inner, size_t inner_len, uint8_t *buf, size_t cap)
{
	size_t l2 = 14u + (t->vlan ? 4u : 0u), ipl = t->l3 == 4 ? 20u + t->ip_optlen : 40u;
	size_t skip = ip_payload(t) ? 14u : 0u;
	size_t ulen, len, o;
	uint8_t *ip, *uh, *th, proto = 17;
	if (inner_len < skip + 1)
		return 0;
	if (t->type == GEN_TUN_IPIP)
		proto = (inner[14] >> 4) == 4 ? 4 : 41;
	else if (t->type == GEN_TUN_GRE)
		proto = 47;
	ulen = tun_hlen(t) + inner_len - skip; /* the outer IP payload */
	len = l2 + ipl + ulen;
	if (len > cap || ulen > 0xffffu)
		return 0;
	memset(buf, 0, l2 + ipl + tun_hlen(t));
	memcpy(buf, t->dst_mac, 6);
	memcpy(buf + 6, t->src_mac, 6);
	o = 12;
	if (t->vlan) {
		put16(buf + 12, 0x8100);
		put16(buf + 14, t->vlan_tci);
		o = 16;
	}
	put16(buf + o, t->l3 == 4 ? 0x0800 : 0x86dd);
	ip = buf + l2;
	if (t->l3 == 4) {
		ip[0] = (uint8_t)(0x40 | ipl / 4);
		ip[1] = t->tos;
		put16(ip + 2, (uint16_t)(ipl + ulen));
		put16(ip + 4, t->ip_id);
		put16(ip + 6, t->df ? 0x4000 : 0);
		ip[8] = t->ttl;
		ip[9] = proto;
		memcpy(ip + 12, t->saddr, 4);
		memcpy(ip + 16, t->daddr, 4);
		memcpy(ip + 20, t->ip_opts, t->ip_optlen);
		put16(ip + 10, (uint16_t)~gen_csum_fold(ip, ipl, 0));
	} else {
		uint32_t w = 6u << 28 | (uint32_t)t->tos << 20 | (t->flowlabel & 0xfffffu);
		ip[0] = (uint8_t)(w >> 24);
		ip[1] = (uint8_t)(w >> 16);
		ip[2] = (uint8_t)(w >> 8);
		ip[3] = (uint8_t)w;
		put16(ip + 4, (uint16_t)ulen);
		ip[6] = proto;
		ip[7] = t->ttl;
		memcpy(ip + 8, t->saddr, 16);
		memcpy(ip + 24, t->daddr, 16);
	}
	uh = ip + ipl;
	if (t->type == GEN_TUN_IPIP) {
		memcpy(uh, inner + skip, inner_len - skip);
		return len;
	}
	if (t->type == GEN_TUN_GRE) {
		memcpy(uh + tun_hlen(t), inner + skip, inner_len - skip);
		gre_write(t, uh, ulen);
		return len;
	}
	put16(uh, t->sport);
	put16(uh + 2, t->dport);
	put16(uh + 4, (uint16_t)((int32_t)ulen + t->udp_len_delta));
	th = uh + 8;
	if (t->type == GEN_TUN_VXLAN || t->type == GEN_TUN_VXLAN_GPE) {
		th[0] = t->vxlan_flags;
		if (t->type == GEN_TUN_VXLAN_GPE)
			th[3] = t->gpe_np;
		th[4] = (uint8_t)(t->vni >> 16);
		th[5] = (uint8_t)(t->vni >> 8);
		th[6] = (uint8_t)t->vni;
	} else {
		th[0] = (uint8_t)(t->gnv_ver << 6 | (((t->gnv_optlen / 4) + t->gnv_optlen_delta) & 0x3f));
		th[1] = t->gnv_flags;
		put16(th + 2, t->gnv_proto);
		th[4] = (uint8_t)(t->vni >> 16);
		th[5] = (uint8_t)(t->vni >> 8);
		th[6] = (uint8_t)t->vni;
		memcpy(th + 8, t->gnv_opts, t->gnv_optlen);
	}
	memcpy(th + tun_hlen(t) - 8u, inner + skip, inner_len - skip);
	if (t->udp_csum) {
		uint32_t s;
		uint16_t c;
		if (t->l3 == 4)
			s = gen_csum_fold(ip + 12, 8, 0) + 17u + (uint32_t)ulen;
		else
			s = gen_csum_fold(ip + 8, 32, 0) + 17u + (uint32_t)ulen;
		c = (uint16_t)~gen_csum_fold(uh, ulen, s);
		if (c == 0)
			c = 0xffff;
		if (t->bad_udp_csum)
			c ^= 0x5a5a;
		put16(uh + 6, c);
	}
	return len;
}

/* Checksums of a linear frame from its IP header (an Ethernet header is
 * put before it for gen_frame_csums_ok()). */
static bool ip_csums_ok(const uint8_t *ip, size_t n)
{
	static uint8_t f[70000];
	if (n + 14 > sizeof(f) || n < 1)
		return false;
	memset(f, 0, 12);
	put16(f + 12, (ip[0] >> 4) == 4 ? 0x0800 : 0x86dd);
	memcpy(f + 14, ip, n);
	return gen_frame_csums_ok(f, n + 14);
}

bool gen_tun_csums_ok(const uint8_t *f, size_t len)
{
	size_t o = 12, ipl, to, in;
	uint16_t et;
	const uint8_t *ip, *uh;
	if (len < 14)
		return false;
	if (get16(f + 12) == 0x8100)
		o = 16;
	et = get16(f + o);
	ip = f + o + 2;
	if (et == 0x0800) {
		ipl = (ip[0] & 0xfu) * 4u;
	} else if (et == 0x86dd) {
		ipl = 40;
	} else {
		return false;
	}
	if (o + 2 + ipl > len)
		return false;
	if ((et == 0x0800 ? ip[9] : ip[6]) == 47) { /* GRE */
		const uint8_t *gh = ip + ipl;
		size_t gl = o + 2 + ipl + 4 <= len ? gre_hlen(get16(gh)) : 0, rest = len - o - 2 - ipl;
		if (!gl || gl > rest || (et == 0x0800 && gen_csum_fold(ip, ipl, 0) != 0xffff) ||
		    ((get16(gh) & GEN_GRE_C) && gen_csum_fold(gh, rest, 0) != 0xffff))
			return false;
		if (get16(gh + 2) == 0x0800 || get16(gh + 2) == 0x86dd)
			return ip_csums_ok(gh + gl, rest - gl);
		return gen_frame_csums_ok(gh + gl, rest - gl);
	}
	if ((et == 0x0800 ? ip[9] : ip[6]) != 17) /* IP-in-IP */
		return (et == 0x86dd || gen_csum_fold(ip, ipl, 0) == 0xffff) && ip_csums_ok(ip + ipl, len - o - 2 - ipl);
	if (o + 2 + ipl + 16 > len)
		return false;
	uh = ip + ipl;
	/* the outer IPv4 header and a UDP checksum not 0 (over IPv6 a tunnel
	 * may send 0: RFC 6935) */
	if ((get16(uh + 6) != 0 || et == 0x0800) && !ip_csums_ok(ip, len - o - 2))
		return false;
	to = (size_t)(uh - f) + 8;
	/* Geneve: by its port in our traffic */
	if (get16(uh + 2) == 6081 || get16(uh + 2) == 6082) {
		uint16_t proto = get16(f + to + 2);
		in = to + 8 + (f[to] & 0x3fu) * 4u;
		if (in > len)
			return false;
		if (proto != 0x6558)
			return ip_csums_ok(f + in, len - in);
	} else {
		in = to + 8;
		/* VXLAN-GPE (4790) with an IP payload */
		if (get16(uh + 2) == 4790 && (f[to + 3] == 1 || f[to + 3] == 2))
			return in <= len && ip_csums_ok(f + in, len - in);
	}
	return in <= len && gen_frame_csums_ok(f + in, len - in);
}
