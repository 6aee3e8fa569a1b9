/*
 * tunnel.c - GSO of a tunnelled TCP super-packet (Linux SKB_GSO_UDP_TUNNEL
 * and _CSUM for VXLAN and Geneve, SKB_GSO_GRE and _CSUM, SKB_GSO_IPXIP4/6):
 * the outer and tunnel headers are found here, the inner TCP packet is cut
 * by the plain TCP rules (seg.h, on the inner offsets: the iterator's
 * l3_off/l4_off are the inner headers'), and each segment's outer headers
 * are then fixed by gso_tun_fix():
 *   - outer IPv4: total length, ID + segment number (inet_gso_segment() at
 *     the outer level; OFL_GSO_F_OUTER_FIXED_ID keeps it, the kernel's
 *     SKB_GSO_TCP_FIXEDID, which for an encapsulated packet names the outer
 *     header since Linux 6.18), header checksum; outer IPv6: payload length;
 *   - outer UDP (__skb_udp_tunnel_segment()): length; checksum 0, or with
 *     _CSUM computed as gso_make_checksum() does: from the outer UDP header
 *     to the inner L4 header, plus what the inner L4 header and payload sum
 *     to once their checksum is right (the complement of the inner
 *     pseudo-header sum), so no payload byte is read again and the inner
 *     checksum may still be left to the NIC (PARTIAL);
 *   - GRE with the C bit (gre_gso_segment()): the GRE checksum the same
 *     way, without a pseudo header.
 * The tunnel header and the inner L2 header are copied as they are.
 */
#include "gso/seg.h"

#define ET_IPV4 0x0800u
#define ET_IPV6 0x86ddu
#define ET_TEB 0x6558u /* transparent Ethernet bridging: inner Ethernet */
#define ET_8021Q 0x8100u
#define ET_8021AD 0x88a8u
#define VXLAN_HLEN 8u
#define VXLAN_F_I 0x08u
#define VXLAN_F_GPE 0x04u
#define GENEVE_HLEN 8u
#define GRE_F_CSUM 0x8000u
#define GRE_F_KEY 0x2000u
#define GSO_PROTO_GRE 47u
#define GSO_PROTO_IPIP 4u
#define GSO_PROTO_IPV6 41u

unsigned gso_tun_check_req(const struct ofl_gso_req *req)
{
	if (req->tunnel == OFL_GSO_TUN_NONE)
		return ((req->flags & OFL_GSO_F_OUTER_FIXED_ID) || req->tun_csum || req->inner_off)
		               ? OFL_GSO_WHY_TUN_REQ
		               : 0;
	if (req->tunnel > OFL_GSO_TUN_UDP || req->tun_csum > OFL_GSO_TUN_CSUM_ON)
		return OFL_GSO_WHY_TUN_REQ;
	if ((req->tunnel == OFL_GSO_TUN_GRE || req->tunnel == OFL_GSO_TUN_IPIP) &&
	    req->tun_csum != OFL_GSO_TUN_CSUM_AUTO)
		return OFL_GSO_WHY_TUN_REQ;
	if (req->tunnel == OFL_GSO_TUN_UDP && (req->inner_off == 0 || (req->inner_off & 1u)))
		return OFL_GSO_WHY_TUN_REQ;
	if (req->type != OFL_GSO_TYPE_AUTO && req->type != OFL_GSO_TYPE_TCP)
		return OFL_GSO_WHY_TUN_REQ;
	return 0;
}

/* The EtherType at off and up to two VLAN tags before it (more: reason
 * deep): where the L3 header starts in *l3, its EtherType in *et. */
static unsigned eth_walk(const uint8_t *b, uint32_t vlen, uint32_t off, unsigned deep, uint32_t *l3,
                         uint16_t *et)
{
	uint32_t n = 0;
	uint16_t t;
	if (off + 2 > vlen)
		return OFL_GSO_WHY_TUN_HDR;
	t = ofl_get16(b + off);
	while (t == ET_8021Q || t == ET_8021AD) {
		if (n++ == 2)
			return deep;
		off += 4;
		if (off + 2 > vlen)
			return OFL_GSO_WHY_TUN_HDR;
		t = ofl_get16(b + off);
	}
	*l3 = off + 2;
	*et = t;
	return 0;
}

/* An inner Ethernet header at e: the inner IP header's offset in *io and
 * its EtherType in *et. */
static unsigned inner_eth(const uint8_t *b, uint32_t vlen, uint32_t e, uint32_t *io, uint16_t *et)
{
	unsigned rc = eth_walk(b, vlen, e + 12, OFL_GSO_WHY_TUN_INNER, io, et);
	if (rc == 0 && *et != ET_IPV4 && *et != ET_IPV6)
		return OFL_GSO_WHY_TUN_INNER;
	return rc;
}

/* The payload type of a Geneve or GRE header (pt) at x: inner Ethernet or
 * inner IP right there. */
static unsigned inner_by_type(const uint8_t *b, uint32_t vlen, uint32_t x, uint16_t pt, uint32_t *io,
                              uint16_t *et, uint8_t *eth)
{
	if (pt == ET_TEB) {
		*eth = 1;
		return inner_eth(b, vlen, x, io, et);
	}
	if (pt != ET_IPV4 && pt != ET_IPV6)
		return OFL_GSO_WHY_TUN_HDR;
	*io = x;
	*et = pt;
	return 0;
}

/* The outer IP header at off (EtherType et): version, header length,
 * protocol, where the outer packet ends (a length 0 means the end of the
 * frame, BIG TCP). */
static unsigned outer_ip(const uint8_t *b, uint32_t vlen, uint32_t flen, uint32_t off, uint16_t et,
                         struct gso_tun_parsed *t, uint32_t *proto)
{
	uint32_t end;
	if (et == ET_IPV4) {
		uint32_t ihl, tot;
		if (off + 20 > vlen || (b[off] >> 4) != 4)
			return OFL_GSO_WHY_TUN_HDR;
		ihl = (b[off] & 0xfu) * 4u;
		if (ihl < 20 || off + ihl > vlen)
			return OFL_GSO_WHY_TUN_HDR;
		if (ofl_get16(b + off + 6) & 0x3fffu)
			return OFL_GSO_WHY_FRAGMENT;
		tot = ofl_get16(b + off + 2);
		if (tot && tot < ihl)
			return OFL_GSO_WHY_TUN_LENGTHS;
		end = tot ? off + tot : flen;
		*proto = b[off + 9];
		t->l3 = 4;
		t->l3_hlen = (uint16_t)ihl;
	} else if (et == ET_IPV6) {
		uint32_t plen;
		if (off + 40 > vlen || (b[off] >> 4) != 6)
			return OFL_GSO_WHY_TUN_HDR;
		plen = ofl_get16(b + off + 4);
		end = plen ? off + 40 + plen : flen;
		*proto = b[off + 6];
		t->l3 = 6;
		t->l3_hlen = 40;
	} else {
		return OFL_GSO_WHY_TUN_HDR;
	}
	if (end != flen)
		return OFL_GSO_WHY_TUN_LENGTHS;
	t->l3_off = (uint16_t)off;
	return 0;
}

/* The UDP tunnels: the UDP header at l4, then VXLAN, Geneve or (generic)
 * whatever lies before the inner IP header at the request's inner_off. */
static unsigned udp_tunnel(const struct ofl_gso_req *req, const struct gso_parsed *p, uint32_t vlen,
                           uint32_t flen, uint32_t l4, struct gso_tun_parsed *t, uint32_t *io)
{
	const uint8_t *b = p->sc;
	uint32_t x = l4 + GSO_UDP_HLEN, ulen;
	if (x > vlen)
		return OFL_GSO_WHY_TUN_HDR;
	ulen = ofl_get16(b + l4 + 4);
	if (ulen && ulen != flen - l4)
		return OFL_GSO_WHY_TUN_LENGTHS;
	t->l4_off = (uint16_t)l4;
	t->csum = req->tun_csum == OFL_GSO_TUN_CSUM_ON ||
	          (req->tun_csum == OFL_GSO_TUN_CSUM_AUTO && ofl_get16(b + l4 + 6) != 0);
	if (t->type == OFL_GSO_TUN_VXLAN) {
		if (x + VXLAN_HLEN > vlen || !(b[x] & VXLAN_F_I) || (b[x] & VXLAN_F_GPE))
			return OFL_GSO_WHY_TUN_HDR;
		t->inner_eth = 1;
		return inner_eth(b, vlen, x + VXLAN_HLEN, io, &t->inner_et);
	}
	if (t->type == OFL_GSO_TUN_GENEVE) {
		uint32_t gl;
		if (x + GENEVE_HLEN > vlen || (b[x] >> 6) != 0)
			return OFL_GSO_WHY_TUN_HDR;
		gl = GENEVE_HLEN + (b[x] & 0x3fu) * 4u; /* options past the packet or the view */
		if (x + gl > vlen || x + gl > flen)
			return OFL_GSO_WHY_TUN_HDR;
		return inner_by_type(b, vlen, x + gl, ofl_get16(b + x + 2), io, &t->inner_et, &t->inner_eth);
	}
	/* OFL_GSO_TUN_UDP: the request says where (gso_tun_check_req(): even, not 0) */
	*io = req->inner_off + p->fake;
	if (*io < x)
		return OFL_GSO_WHY_TUN_INNER;
	if (*io >= vlen)
		return OFL_GSO_WHY_TUN_HDR;
	t->inner_et = (b[*io] >> 4) == 6 ? ET_IPV6 : ET_IPV4;
	return 0;
}

unsigned gso_tun_outer(const struct ofl_gso_req *req, struct gso_parsed *p, uint32_t vlen, uint32_t flen)
{
	const uint8_t *b = p->sc;
	struct gso_tun_parsed *t = &p->tun;
	uint32_t l3 = 0, proto = 0, l4, io = 0;
	uint16_t et = 0;
	unsigned rc;
	memset(t, 0, sizeof(*t));
	t->type = req->tunnel;
	if ((rc = eth_walk(b, vlen, 12, OFL_GSO_WHY_VLANS, &l3, &et)) != 0 ||
	    (rc = outer_ip(b, vlen, flen, l3, et, t, &proto)) != 0)
		return rc;
	l4 = t->l3_off + t->l3_hlen;
	switch (t->type) {
	case OFL_GSO_TUN_GRE: {
		uint32_t fl, gl;
		if (proto != GSO_PROTO_GRE || l4 + 4 > vlen)
			return OFL_GSO_WHY_TUN_HDR;
		fl = ofl_get16(b + l4);
		/* version 0; no routing, no sequence number (a GRE device with
		 * sequence numbers does no GSO), no other flag */
		if (fl & ~(GRE_F_CSUM | GRE_F_KEY))
			return OFL_GSO_WHY_TUN_HDR;
		gl = 4u + ((fl & GRE_F_CSUM) ? 4u : 0u) + ((fl & GRE_F_KEY) ? 4u : 0u);
		if (l4 + gl > vlen)
			return OFL_GSO_WHY_TUN_HDR;
		t->l4_off = (uint16_t)l4;
		t->csum = (fl & GRE_F_CSUM) != 0;
		rc = inner_by_type(b, vlen, l4 + gl, ofl_get16(b + l4 + 2), &io, &t->inner_et, &t->inner_eth);
		break;
	}
	case OFL_GSO_TUN_IPIP:
		if (proto != GSO_PROTO_IPIP && proto != GSO_PROTO_IPV6)
			return OFL_GSO_WHY_TUN_HDR;
		t->inner_et = proto == GSO_PROTO_IPIP ? ET_IPV4 : ET_IPV6;
		io = l4;
		break;
	default: /* the UDP tunnels (gso_tun_check_req() let no other through) */
		if (proto != GSO_PROTO_UDP)
			return OFL_GSO_WHY_TUN_HDR;
		rc = udp_tunnel(req, p, vlen, flen, l4, t, &io);
		break;
	}
	if (rc)
		return rc;
	if (io >= vlen)
		return OFL_GSO_WHY_TUN_HDR;
	if (req->inner_off && req->inner_off + p->fake != io)
		return OFL_GSO_WHY_TUN_INNER;
	t->inner_off = (uint16_t)io;
	return 0;
}

/* The BE sum of the n bytes at p, n even. */
static uint32_t sum_words(const uint8_t *p, uint32_t n)
{
	uint32_t s = 0, i;
	for (i = 0; i + 1 < n; i += 2)
		s += ofl_get16(p + i);
	return s;
}

unsigned gso_tun_template(struct gso_it *it, const struct ofl_gso_req *req, const struct gso_parsed *p)
{
	const struct gso_tun_parsed *t = &p->tun;
	uint32_t vins = (req->flags & OFL_GSO_F_VLAN_INSERT) ? 4u : 0u;
	uint32_t shift = vins + req->extra_l2_len, ol3 = t->l3_off - p->fake, full;
	uint8_t *ip, *l4;
	uint32_t ps;
	/* the extra L2 bytes go in the outer L2 header */
	if (req->extra_l2_off > ol3 + vins)
		return OFL_GSO_WHY_EXTRA_L2;
	it->tun = t->type;
	it->o_l3 = t->l3;
	it->o_csum = t->csum;
	it->o_l3_off = (uint16_t)(ol3 + shift);
	it->o_l4_off = (uint16_t)(t->l4_off ? t->l4_off - p->fake + shift : 0u);
	ip = it->tmpl + it->o_l3_off;
	if (t->l3 == 4) {
		ip[10] = ip[11] = 0;
		it->o_id0 = ofl_get16(ip + 4);
		it->o_ip_base = gso_sum_be(ip, t->l3_hlen) - ofl_get16(ip + 2) - ofl_get16(ip + 4);
		ps = gso_sum_be(ip + 12, 8);
	} else {
		ps = gso_sum_be(ip + 8, 32);
	}
	if (it->o_l4_off) {
		l4 = it->tmpl + it->o_l4_off;
		if (t->type == OFL_GSO_TUN_GRE) {
			if (t->csum)
				l4[4] = l4[5] = 0;
		} else {
			l4[6] = l4[7] = 0;
			it->o_ps_base = ps + GSO_PROTO_UDP;
		}
	}
	/* a full-size segment's outer packet must fit the outer length fields */
	full = it->hdr_len - it->o_l3_off + it->seg_size;
	if (full - (t->l3 == 6 ? 40u : 0u) > 0xffffu)
		return OFL_GSO_WHY_SEG_SIZE;
	return 0;
}

/* The outer UDP or GRE checksum of a segment (gso_tun_fix(), o_csum set;
 * out of line: the registers it needs are not the common case's). */
static OFL_NOINLINE void tun_csum(const struct gso_it *it, uint8_t *l4, uint32_t l4len, uint32_t plen)
{
	/* the outer header bytes up to the inner L4 header (the outer
	 * checksum field is 0 in the template), plus the inner L4 header and
	 * payload, which sum to the complement of the inner pseudo-header sum
	 * once their checksum is right */
	unsigned field = it->tun == OFL_GSO_TUN_GRE ? 4u : GSO_UDP_CSUM_OFF;
	uint32_t s = it->tun == OFL_GSO_TUN_GRE ? 0u : it->o_ps_base + l4len;
	uint32_t ilen = it->hdr_len - it->l4_off + plen, c;
	s += sum_words(l4, (uint32_t)(it->l4_off - it->o_l4_off));
	s += 0xffffu - gso_fold_be(it->ps_base + (ilen >> 16) + (ilen & 0xffffu));
	c = (uint16_t)~gso_fold_be(s);
	if (c == 0 && it->tun != OFL_GSO_TUN_GRE)
		c = 0xffff; /* UDP: 0 means "no checksum" */
	ofl_put16(l4 + field, (uint16_t)c);
}

void gso_tun_fix(const struct gso_it *it, uint8_t *h, uint32_t k, uint32_t plen)
{
	uint8_t *ip = h + it->o_l3_off, *l4;
	uint32_t tl = it->hdr_len - it->o_l3_off + plen, l4len;
	if (it->o_l3 == 4) {
		uint32_t id = (uint16_t)(it->o_id0 + ((it->flags & OFL_GSO_F_OUTER_FIXED_ID) ? 0u : k));
		ofl_put32(ip + 2, (uint32_t)(uint16_t)tl << 16 | id); /* total length, ID */
		ofl_put16(ip + 10, (uint16_t)~gso_fold_be(it->o_ip_base + tl + id));
	} else {
		ofl_put16(ip + 4, (uint16_t)(tl - 40u));
	}
	if (!it->o_l4_off)
		return; /* IP-in-IP */
	l4 = h + it->o_l4_off;
	l4len = it->hdr_len - it->o_l4_off + plen;
	if (it->tun != OFL_GSO_TUN_GRE)
		ofl_put16(l4 + 4, (uint16_t)l4len);
	if (it->o_csum)
		tun_csum(it, l4, l4len, plen);
}
