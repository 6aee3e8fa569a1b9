/*
 * start.c - starting a super-packet: parse its headers once (core parser,
 * with BIG TCP's zero IP lengths read as "to the end of the frame"), refuse
 * what cannot be cut with a distinct error, pick the type, build the
 * output header template (extra L2 bytes, no IPv6 Jumbo option, an IPv6
 * fragment header for UDP fragmentation) and fix the geometry (segment
 * count, payload cursor).  Nothing is emitted and no slot is taken.
 */
#include <stddef.h>
#include <string.h>

#include "gso/tmpl.h"

#define GSO_MAX_FRAME (16u << 20)
#define GSO_MAX_EXTRA_L2 32u

int gso_req_load(struct ofl_gso_req *dst, const struct ofl_gso_req *req)
{
	size_t end;
	if (req->version == 1)
		end = offsetof(struct ofl_gso_req, vlan_tci);
	else if (req->version == 2)
		end = offsetof(struct ofl_gso_req, l2);
	else if (req->version == 3)
		end = offsetof(struct ofl_gso_req, tunnel);
	else if (req->version == OFL_GSO_REQ_VERSION)
		end = sizeof(*req);
	else
		return OFL_GSO_WHY_REQ;
	if (dst != req) {
		memset(dst, 0, sizeof(*dst));
		memcpy(dst, req, end);
	}
	return 0;
}

int ofl_gso_req_default(struct ofl_gso_req *req)
{
	if (!req)
		return OFL_EINVAL;
	memset(req, 0, sizeof(*req));
	req->version = OFL_GSO_REQ_VERSION;
	req->type = OFL_GSO_TYPE_AUTO;
	req->csum = OFL_CSUM_MODE_FULL;
	return 0;
}

static void input_unit(const struct gso_input *in, uint32_t i, const uint8_t **d, uint32_t *len)
{
	if (in->kind == GSO_UNIT_BUF) {
		*d = ((const struct ofl_buf *)in->units)[i].data;
		*len = ((const struct ofl_buf *)in->units)[i].len;
	} else if (in->kind == GSO_UNIT_GRO && i == 0) {
		*d = in->hdr0;
		*len = in->hdr0_len;
	} else {
		i -= in->kind == GSO_UNIT_GRO;
		*d = ((const struct ofl_slice *)in->units)[i].data;
		*len = ((const struct ofl_slice *)in->units)[i].len;
	}
}

/* Copy up to want frame bytes (after in->skip) into dst; returns the count. */
static uint32_t gather(const struct gso_input *in, uint8_t *dst, uint32_t want)
{
	uint32_t got = 0, skip = in->skip, i;
	if (in->kind == GSO_UNIT_BUF && skip == 0) {
		struct ofl_view v = ofl_view_make(in->units, in->nunits, in->flen, dst, want);
		got = v.len < want ? v.len : want;
		if (v.p != dst && got)
			memcpy(dst, v.p, got);
		return got;
	}
	for (i = 0; i < in->nunits && got < want; i++) {
		const uint8_t *d;
		uint32_t len, c;
		input_unit(in, i, &d, &len);
		if (skip >= len) {
			skip -= len;
			continue;
		}
		d += skip;
		len -= skip;
		skip = 0;
		c = len < want - got ? len : want - got;
		memcpy(dst + got, d, c);
		got += c;
	}
	return got;
}

static int is_tunnel_port(uint16_t p)
{
	return p == 4789 || p == 4790 || p == 6081 || p == 8472;
}

/* IPv6 hop-by-hop header that only carries a Jumbo Payload option (Linux
 * BIG TCP): 8 bytes, option 0xC2 of length 4. */
static int is_hbh_jumbo(const uint8_t *x)
{
	return x[1] == 0 && x[2] == 0xc2 && x[3] == 4;
}

/* Parse the view; IP length 0 (BIG TCP) means "to the end of the frame":
 * parse a copy whose length field says so, within the 16-bit field. */
static int parse_frame(uint8_t *v, uint32_t vlen, uint32_t flen, struct ofl_hdrs *h, int *big)
{
	struct ofl_view view = { v, vlen };
	uint32_t rest, pflen = flen;
	uint8_t *ip;
	*big = 0;
	ofl_parse(&view, flen, h);
	if (h->l3 || h->l3_off == 0 || h->l3_off + 40u > vlen)
		return 0;
	ip = v + h->l3_off;
	rest = flen - h->l3_off;
	if ((ip[0] >> 4) == 4 && ofl_get16(ip + 2) == 0) {
		if (rest > 0xffffu) {
			rest = 0xffffu;
			pflen = h->l3_off + rest;
		}
		ofl_put16(ip + 2, (uint16_t)rest);
	} else if ((ip[0] >> 4) == 6 && ofl_get16(ip + 4) == 0 && rest >= 40) {
		rest -= 40;
		if (rest > 0xffffu) {
			rest = 0xffffu;
			pflen = h->l3_off + 40 + rest;
		}
		ofl_put16(ip + 4, (uint16_t)rest);
	} else {
		return 0;
	}
	*big = 1;
	view.len = vlen < pflen ? vlen : pflen;
	ofl_parse(&view, pflen, h);
	if (h->l3) {
		h->frame_len = flen;
		h->l3_end = flen;
		if (h->hdr_len)
			h->payload_len = flen - h->hdr_len;
	}
	return 0;
}

/* req: loaded by gso_req_load() (any version it takes). */
static unsigned check_req(const struct ofl_gso_req *req)
{
	uint32_t known = OFL_GSO_F_FIXED_ID | OFL_GSO_F_KEEP_CWR;
	unsigned rc;
	if (req->version >= 2)
		known |= OFL_GSO_F_VLAN_INSERT;
	if (req->version >= 4)
		known |= OFL_GSO_F_OUTER_FIXED_ID;
	if (req->type > OFL_GSO_TYPE_UDP_FRAG ||
	    (req->csum != OFL_CSUM_MODE_FULL && req->csum != OFL_CSUM_MODE_PARTIAL) ||
	    (req->flags & ~known) ||
	    ((req->flags & OFL_GSO_F_VLAN_INSERT) && req->vlan_proto != 0 && req->vlan_proto != 0x8100u &&
	     req->vlan_proto != 0x88a8u) ||
	    (req->l2 != OFL_L2_ETH && req->l2 != OFL_L2_NONE))
		return OFL_GSO_WHY_REQ;
	if (req->seg_size == 0 || req->seg_size > 0xffffu)
		return OFL_GSO_WHY_SEG_SIZE;
	if (req->extra_l2_len > GSO_MAX_EXTRA_L2)
		return OFL_GSO_WHY_EXTRA_L2;
	if ((rc = gso_tun_check_req(req)) != 0)
		return rc;
	return 0;
}

/* A tunnel's inner packet (at p->tun.inner_off, running to the end of the
 * frame): parsed as a frame of its own behind a made-up Ethernet header
 * (BIG TCP lengths read as parse_frame() reads them), its offsets then
 * moved to sc coordinates.  Inner TCP only. */
static unsigned parse_inner(struct gso_parsed *p, uint32_t vlen, uint32_t flen)
{
	uint8_t s[OFL_ETH_HLEN + OFL_GSO_MAX_IN_HDR];
	struct ofl_hdrs *h = &p->h;
	uint32_t io = p->tun.inner_off, n = vlen - io, delta = io - OFL_ETH_HLEN;
	memset(s, 0, OFL_ETH_HLEN);
	ofl_put16(s + 12, p->tun.inner_et);
	memcpy(s + OFL_ETH_HLEN, p->sc + io, n);
	parse_frame(s, OFL_ETH_HLEN + n, flen - delta, h, &p->big);
	if (!h->l3)
		return h->status == OFL_PARSE_HDR_TOO_LONG ? OFL_GSO_WHY_HDR_LONG : OFL_GSO_WHY_TUN_INNER;
	if (h->l4proto != GSO_PROTO_TCP || !h->l4_off)
		return OFL_GSO_WHY_TUN_INNER;
	if (h->l3_end != h->frame_len)
		return OFL_GSO_WHY_LENGTHS;
	h->l2_len = h->l3_off = (uint16_t)(h->l3_off + delta);
	h->l4_off = (uint16_t)(h->l4_off + delta);
	if (h->hdr_len)
		h->hdr_len = (uint16_t)(h->hdr_len + delta);
	h->l3_end += delta;
	h->frame_len += delta;
	h->et_off += delta;
	return 0;
}

/* Parse and classify: every refusal with its own reason (enum ofl_gso_why). */
static unsigned classify(const struct ofl_gso_req *req, const struct gso_input *in, struct gso_parsed *p)
{
	struct ofl_hdrs *h = &p->h;
	uint32_t vlen;
	const uint8_t *l4;
	p->fake = in->l2_none ? OFL_ETH_HLEN : 0;
	vlen = gather(in, p->sc + p->fake, OFL_GSO_MAX_IN_HDR);
	if (p->fake) {
		/* TUN: no L2.  Parse behind a made-up Ethernet header. */
		memset(p->sc, 0, OFL_ETH_HLEN);
		if (vlen < 1)
			return OFL_GSO_WHY_NOT_IP;
		ofl_put16(p->sc + 12, (p->sc[p->fake] >> 4) == 6 ? 0x86ddu : 0x0800u);
	}
	vlen += p->fake;
	if (req->tunnel) {
		unsigned rc = gso_tun_outer(req, p, vlen, in->flen + p->fake);
		if (rc == 0)
			rc = parse_inner(p, vlen, in->flen + p->fake);
		if (rc)
			return rc;
	} else {
		p->tun.type = OFL_GSO_TUN_NONE;
		parse_frame(p->sc, vlen, in->flen + p->fake, h, &p->big);
	}
	if (!h->l3) {
		if (h->status == OFL_PARSE_VLAN_DEPTH)
			return OFL_GSO_WHY_VLANS;
		if (h->status == OFL_PARSE_HDR_TOO_LONG)
			return OFL_GSO_WHY_HDR_LONG;
		return OFL_GSO_WHY_NOT_IP;
	}
	if (h->l3_end > h->frame_len || (h->l3_end < h->frame_len && !h->trimmed))
		return OFL_GSO_WHY_LENGTHS;
	if (h->l3 == 4 && (ofl_get16(p->sc + h->l3_off + 6) & 0x3fffu))
		return OFL_GSO_WHY_FRAGMENT;
	if (h->l4proto == 44 || h->status == OFL_PARSE_FRAGMENT)
		return OFL_GSO_WHY_FRAGMENT;
	if (h->status == OFL_PARSE_IP6_EXT)
		return OFL_GSO_WHY_IP6_EXT;
	if (h->status == OFL_PARSE_HDR_TOO_LONG)
		return OFL_GSO_WHY_HDR_LONG;
	/* an IPv6 fragment header sits between the counted extension headers
	 * and the transport header (the parser walks past a first fragment) */
	if (h->l3 == 6 && h->l4_off && h->l4_off != h->l3_off + 40u + h->ip6_ext_len)
		return OFL_GSO_WHY_FRAGMENT;
	if (h->l4proto == 4 || h->l4proto == 41 || h->l4proto == 47)
		return OFL_GSO_WHY_TUNNEL; /* IP-in-IP, 6in4, GRE tunnels */
	if (!h->l4_off)
		return OFL_GSO_WHY_NOT_IP;
	p->type = req->type;
	if (h->l4proto == GSO_PROTO_TCP) {
		if (p->type == OFL_GSO_TYPE_AUTO)
			p->type = OFL_GSO_TYPE_TCP;
		if (p->type != OFL_GSO_TYPE_TCP)
			return OFL_GSO_WHY_TYPE;
		if (!h->l4_ok)
			return OFL_GSO_WHY_TCP_HDR;
		p->l4len = h->hdr_len - h->l4_off;
		return 0;
	}
	if (h->l4proto != GSO_PROTO_UDP)
		return OFL_GSO_WHY_NOT_IP;
	if (h->l4_off + GSO_UDP_HLEN > h->l3_end || h->l4_off + GSO_UDP_HLEN > vlen)
		return OFL_GSO_WHY_UDP_HDR;
	l4 = p->sc + h->l4_off; /* inside the view: checked just above */
	if (p->type == OFL_GSO_TYPE_AUTO) {
		if (is_tunnel_port(ofl_get16(l4)) || is_tunnel_port(ofl_get16(l4 + 2)))
			return OFL_GSO_WHY_TUNNEL;
		p->type = OFL_GSO_TYPE_UDP_FRAG;
	}
	if (p->type != OFL_GSO_TYPE_UDP_L4 && p->type != OFL_GSO_TYPE_UDP_FRAG)
		return OFL_GSO_WHY_TYPE;
	/* Length fields that cannot say the length (a 0 read as "to the end of
	 * the frame"): the UDP length is 16 bits, and IPv4 has no jumbogram (BIG
	 * TCP is TCP only).  Linux refuses to send such a datagram: EMSGSIZE
	 * from ip_append_data / ip6_append_data (udpgso selftest, "max number
	 * + 1 of full sized segments: fail"). */
	if (h->l3_end - h->l4_off > 0xffffu || (h->l3 == 4 && h->l3_end - h->l3_off > 0xffffu))
		return OFL_GSO_WHY_UDP_LONG;
	if (ofl_get16(l4 + 4) != h->l3_end - h->l4_off)
		return OFL_GSO_WHY_UDP_LEN;
	p->l4len = GSO_UDP_HLEN;
	h->hdr_len = (uint16_t)(h->l4_off + GSO_UDP_HLEN);
	h->payload_len = h->l3_end - h->hdr_len;
	return 0;
}

/* The IPv6 part of the template: the fixed header and the extension
 * headers, without a hop-by-hop Jumbo option (segments are not jumbograms). */
static unsigned template_ipv6(struct gso_it *it, const struct gso_parsed *p, uint32_t flen)
{
	const uint8_t *ip = p->sc + p->h.l3_off, *ext = ip + 40;
	uint8_t *t = it->tmpl + it->l3_off;
	uint32_t ext_len = p->h.l4_off - p->h.l3_off - 40u, q = 0;
	uint8_t nh;
	memcpy(t, ip, 40);
	if (ext_len >= 8 && ip[6] == 0 && is_hbh_jumbo(ext)) {
		if (!p->big || ofl_get32(ext + 4) != flen - (p->h.l3_off - p->fake) - 40u)
			return OFL_GSO_WHY_JUMBO;
		t[6] = ext[0];
		ext += 8;
		ext_len -= 8;
		it->hbh_cut = 1;
	}
	if (ext_len && p->type == OFL_GSO_TYPE_UDP_FRAG)
		return OFL_GSO_WHY_FRAG_EXT;
	memcpy(t + 40, ext, ext_len);
	it->ext_len = (uint16_t)ext_len;
	it->l3_hlen = (uint16_t)(40u + ext_len);
	/* a routing header changes the pseudo-header destination: refuse */
	for (nh = t[6]; q < ext_len; q += (t[40 + q + 1] + 1u) * 8u) {
		if (nh == 43)
			return OFL_GSO_WHY_ROUTING;
		nh = t[40 + q];
	}
	return 0;
}

/* The output header template: L2 (with the inserted VLAN tag and the extra
 * bytes), L3, L4. */
static unsigned build_template(struct gso_it *it, const struct ofl_gso_req *req,
                               const struct gso_parsed *p, uint32_t flen)
{
	const struct ofl_hdrs *h = &p->h;
	uint32_t l2 = h->l3_off - p->fake, o;
	const uint8_t *ip = p->sc + h->l3_off, *l4 = p->sc + h->l4_off, *src = p->sc + p->fake;
	uint8_t *t = it->tmpl;
	uint8_t l2v[sizeof(p->sc) + 4];
	unsigned rc;
	it->type = p->type;
	it->csum = req->csum;
	it->flags = req->flags;
	it->seg_size = req->seg_size;
	it->extra_l2_len = req->extra_l2_len;
	it->extra_l2_off = req->extra_l2_off;
	it->l2_fill = req->l2_fill;
	it->l2_user = req->l2_user;
	it->ip6_frag_id = req->ip6_frag_id;
	it->nvlan = h->nvlan;
	if (req->flags & OFL_GSO_F_VLAN_INSERT) {
		/* __vlan_hwaccel_push_inside(): the metadata tag becomes the
		 * outermost one, right after the source MAC (an Ethernet L2 of at
		 * least 14 bytes: TUN input was refused) */
		memcpy(l2v, src, 12);
		ofl_put16(l2v + 12, req->vlan_proto ? req->vlan_proto : 0x8100u);
		ofl_put16(l2v + 14, req->vlan_tci);
		memcpy(l2v + 16, src + 12, l2 - 12);
		src = l2v;
		l2 += 4;
		it->nvlan++;
	}
	if (it->extra_l2_off > l2)
		return OFL_GSO_WHY_EXTRA_L2;
	memcpy(t, src, it->extra_l2_off);
	memset(t + it->extra_l2_off, 0, it->extra_l2_len);
	memcpy(t + it->extra_l2_off + it->extra_l2_len, src + it->extra_l2_off, l2 - it->extra_l2_off);
	o = l2 + it->extra_l2_len;
	it->l3_off = (uint16_t)o;
	it->l3 = h->l3;
	it->l4proto = h->l4proto;
	if (h->l3 == 4) {
		it->l3_hlen = (uint16_t)(h->l4_off - h->l3_off);
		memcpy(t + o, ip, it->l3_hlen);
		t[o + 10] = t[o + 11] = 0;
		it->id0 = ofl_get16(ip + 4);
		if (p->type == OFL_GSO_TYPE_UDP_FRAG)
			ofl_put16(t + o + 6, 0); /* DF goes: the fragments carry offsets */
	} else if ((rc = template_ipv6(it, p, flen)) != 0) {
		return rc;
	}
	o += it->l3_hlen;
	if (p->type == OFL_GSO_TYPE_UDP_FRAG && h->l3 == 6) {
		uint8_t *fh = t + o;
		fh[0] = (uint8_t)GSO_PROTO_UDP;
		fh[1] = 0;
		ofl_put16(fh + 2, 0);
		ofl_put32(fh + 4, it->ip6_frag_id);
		t[it->l3_off + 6] = 44;
		o += GSO_FRAG6_HLEN;
	}
	it->l4_off = (uint16_t)o;
	memcpy(t + o, l4, p->l4len);
	if (h->l4proto == GSO_PROTO_TCP) {
		t[o + 16] = t[o + 17] = 0;
		it->seq0 = ofl_get32(l4 + 4);
	} else {
		t[o + 6] = t[o + 7] = 0;
	}
	it->hdr_len = (uint16_t)(p->type == OFL_GSO_TYPE_UDP_FRAG ? o : o + p->l4len);
	it->in_hdr_len = (uint16_t)(h->hdr_len - p->fake);
	it->payload = h->l3_end - h->hdr_len;
	gso_bases(it);
	return 0;
}

/* Segment size, count and the payload cursor. */
static unsigned geometry(struct gso_it *it, const struct ofl_gso_req *req, const struct gso_input *in,
                    uint32_t l4len)
{
	uint32_t l3max = 0xffffu - (it->l3 == 4 ? it->l3_hlen : it->l3_hlen - 40u), max_segs;
	if (it->type == OFL_GSO_TYPE_UDP_FRAG) {
		uint32_t pay_max = l3max - (it->l3 == 6 ? GSO_FRAG6_HLEN : 0);
		if (it->seg_size % 8 || it->seg_size < 16 || it->seg_size > pay_max)
			return OFL_GSO_WHY_FRAG_SIZE;
		it->nsegs = (it->payload + GSO_UDP_HLEN + it->seg_size - 1) / it->seg_size;
	} else {
		if (it->seg_size > l3max - l4len)
			return OFL_GSO_WHY_SEG_SIZE;
		it->nsegs = it->payload ? (it->payload + it->seg_size - 1) / it->seg_size : 1;
	}
	max_segs = req->max_segs ? req->max_segs
	                         : (it->type == OFL_GSO_TYPE_UDP_L4 ? OFL_GSO_UDP_MAX_SEGS : OFL_GSO_MAX_SEGS);
	if (it->nsegs > max_segs || it->nsegs > OFL_GSO_MAX_SEGS)
		return OFL_GSO_WHY_SEGS;
	it->units = in->units;
	it->nunits = in->nunits;
	it->unit_kind = in->kind;
	it->pay_base = in->skip + it->in_hdr_len;
	it->skip = in->skip;
	it->hdr0 = in->hdr0;
	it->hdr0_len = in->hdr0_len;
	gso_cursor_at(it, it->pay_base, &it->cur_unit, &it->cur_off);
	/* slices per segment: at most the units the payload spans; walk the
	 * segments only when that bound is over the limit */
	it->max_slices = it->nunits - it->cur_unit;
	if (it->max_slices > OFL_GSO_SEG_MAX_SLICES) {
		uint32_t descs, left;
		it->max_slices = gso_walk_segs(it, it->nsegs, &descs, &left);
		if (it->max_slices > OFL_GSO_SEG_MAX_SLICES)
			return OFL_GSO_WHY_SLICES;
	}
	return 0;
}

int gso_start_common(struct gso_it *it, const struct ofl_gso_req *req,
                     const struct gso_input *in, struct ofl_hdrs *hp)
{
	struct gso_parsed p;
	unsigned rc;
	memset(it, 0, offsetof(struct gso_it, tmpl));
	it->done = 1;
	if ((rc = check_req(req)) != 0)
		return gso_refuse(it, rc);
	if ((req->flags & OFL_GSO_F_VLAN_INSERT) && in->l2_none)
		return gso_refuse(it, OFL_GSO_WHY_VLAN_NO_L2);
	if (in->flen > GSO_MAX_FRAME)
		return gso_refuse(it, OFL_GSO_WHY_FRAME_LONG);
	if ((rc = classify(req, in, &p)) != 0 || (rc = build_template(it, req, &p, in->flen)) != 0 ||
	    (p.tun.type && (rc = gso_tun_template(it, req, &p)) != 0) ||
	    (rc = geometry(it, req, in, p.l4len)) != 0)
		return gso_refuse(it, rc);
	if (it->type == OFL_GSO_TYPE_UDP_FRAG)
		it->udp_csum = gso_frag_udp_csum(it);
	else
		gso_mid_template(it);
	/* the fast loop copies the template in 32-byte blocks: no stale stack
	 * bytes after the header */
	if (it->type != OFL_GSO_TYPE_UDP_FRAG && it->hdr_len < 128u)
		memset(it->tmpl + it->hdr_len, 0, 128u - it->hdr_len);
	if (hp)
		*hp = p.h;
	it->done = 0;
	return 0;
}

/* The one-buffer case first, by gso_start_one(), a tail call here (no
 * register saved), which tail-calls gso_start_bufs() when the one-pass
 * start does not take the frame: the arguments as gso_start_bufs() checks
 * them (one buffer's size is its length: data only where the length is
 * not 0). */
int ofl_gso_start(struct ofl_gso_iter *itp, const struct ofl_gso_req *req, const struct ofl_buf *bufs,
                  uint32_t nbufs)
{
	struct gso_it *it = gso_it(itp);
	if (it && req && bufs && nbufs == 1 && (bufs[0].data || bufs[0].len == 0))
		return gso_start_one(it, req, bufs, nbufs);
	return gso_start_bufs(it, req, bufs, nbufs);
}

int gso_start_bufs(struct gso_it *it, const struct ofl_gso_req *req, const struct ofl_buf *bufs, uint32_t nbufs)
{
	struct ofl_gso_req r;
	struct gso_input in;
	if (!it)
		return OFL_EINVAL;
	if (!req || !bufs || nbufs == 0 || nbufs > 0xffffu || ofl_bufs_size(bufs, nbufs) == UINT64_MAX)
		return gso_refuse(it, OFL_GSO_WHY_ARG);
	if (gso_req_load(&r, req) != 0)
		return gso_refuse(it, OFL_GSO_WHY_REQ);
	memset(&in, 0, sizeof(in));
	in.units = bufs;
	in.nunits = nbufs;
	in.kind = GSO_UNIT_BUF;
	in.l2_none = r.l2 == OFL_L2_NONE;
	in.flen = ofl_pkt_len(bufs, nbufs);
	return gso_start_common(it, &r, &in, NULL);
}

/* A GRO packet merged through a tunnel (its gso_type's OFL_GSO_TUNNEL_MASK
 * field) is cut as the tunnel it came through, unless the request names one:
 * a UDP tunnel by where its inner IP header starts (out->l3_off is the inner
 * one; the bytes from the outer UDP header to it, VXLAN or Geneve header and
 * inner Ethernet, are copied as they are), with the outer UDP checksum the
 * packet had (0 or not); IP in IP and GRE as themselves.  -1: a tunnel field value this
 * library does not know. */
static int gso_tunnel_of_gro(struct ofl_gso_req *r, const struct ofl_gro_out *out)
{
	unsigned tun = out->gso_type & OFL_GSO_TUNNEL_MASK;
	if (!tun || r->tunnel != OFL_GSO_TUN_NONE)
		return 0;
	switch (tun) {
	case OFL_GSO_UDP_TUNNEL:
	case OFL_GSO_UDP_TUNNEL_CSUM:
		r->tunnel = OFL_GSO_TUN_UDP;
		r->inner_off = out->l3_off;
		if (r->tun_csum == OFL_GSO_TUN_CSUM_AUTO)
			r->tun_csum = tun == OFL_GSO_UDP_TUNNEL ? OFL_GSO_TUN_CSUM_ZERO : OFL_GSO_TUN_CSUM_ON;
		return 0;
	case OFL_GSO_IPXIP4:
	case OFL_GSO_IPXIP6:
		r->tunnel = OFL_GSO_TUN_IPIP;
		return 0;
	case OFL_GSO_GRE:
	case OFL_GSO_GRE_CSUM:
		r->tunnel = OFL_GSO_TUN_GRE; /* its checksum by the C bit */
		return 0;
	default:
		return -1;
	}
}

int ofl_gso_start_gro(struct ofl_gso_iter *itp, const struct ofl_gso_req *req,
                      const struct ofl_gro_out *out)
{
	struct gso_it *it = gso_it(itp);
	struct ofl_gso_req r;
	struct gso_input in;
	uint64_t total;
	if (!it)
		return OFL_EINVAL;
	if (!out || (out->nslices && !out->slices) || (out->hdr_len && !out->hdr) ||
	    out->nslices >= 0xffffu || (!out->hdr_len && !out->nslices))
		return gso_refuse(it, OFL_GSO_WHY_ARG);
	if (!req)
		ofl_gso_req_default(&r);
	else if (gso_req_load(&r, req) != 0)
		return gso_refuse(it, OFL_GSO_WHY_REQ);
	if (out->hdr_len) {
		if (r.type == OFL_GSO_TYPE_AUTO)
			r.type = (out->gso_type & OFL_GSO_UDP_L4) ? OFL_GSO_TYPE_UDP_L4 : OFL_GSO_TYPE_TCP;
		if (r.seg_size == 0)
			r.seg_size = out->seg_size;
		if (out->gso_type & OFL_GSO_TCP_FIXEDID)
			r.flags |= OFL_GSO_F_FIXED_ID;
		if (out->gso_type & OFL_GSO_TCP_ECN)
			r.flags |= OFL_GSO_F_KEEP_CWR;
		if (gso_tunnel_of_gro(&r, out) != 0)
			return gso_refuse(it, OFL_GSO_WHY_TUN_REQ);
	}
	total = ofl_slices_size(out->slices, out->nslices);
	if (total == UINT64_MAX)
		return gso_refuse(it, OFL_GSO_WHY_ARG);
	total += out->hdr_len;
	if (total > GSO_MAX_FRAME)
		return gso_refuse(it, OFL_GSO_WHY_FRAME_LONG);
	memset(&in, 0, sizeof(in));
	in.units = out->slices;
	in.nunits = out->nslices;
	in.kind = GSO_UNIT_SLICE;
	in.flen = (uint32_t)total;
	/* a GRO packet from a raw-IP context starts at its IP header: l3_off 0,
	 * its L4 header after it (an ofl_gro_out filled by hand without the
	 * offsets, both 0, is read as Ethernet, as before raw IP existed) */
	in.l2_none = out->hdr_len ? out->l3_off == 0 && out->l4_off != 0 : r.l2 == OFL_L2_NONE;
	if (out->hdr_len) {
		in.kind = GSO_UNIT_GRO;
		in.nunits = out->nslices + 1;
		in.hdr0 = out->hdr;
		in.hdr0_len = out->hdr_len;
	}
	return gso_start_common(it, &r, &in, NULL);
}
