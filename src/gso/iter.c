/*
 * iter.c - the GSO iterator: start (parse once, check, build the header
 * template), count, next / unnext, the callback runner and abort.
 *
 * The whole state is the caller's struct ofl_gso_iter.  Segment k is a pure
 * function of k (payload range, sequence number, IP ID, fragment offset), so
 * the only thing carried from one segment to the next is the payload cursor
 * (which unit, which byte), kept to avoid re-walking the buffers.
 */
#include <string.h>

#include "gso/gso_int.h"

#define GSO_MAX_FRAME (16u << 20)
#define GSO_MAX_EXTRA_L2 32u

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

/* ---- payload cursor ---------------------------------------------------- */

static void cursor_norm(const struct ofl_gso_iter *it, uint32_t *u, uint32_t *o)
{
	while (*u < it->nunits && *o >= gso_unit_len(it, *u)) {
		*o -= gso_unit_len(it, *u);
		(*u)++;
	}
}

/* Cursor at byte `off` of the units (skip included). */
static void cursor_at(const struct ofl_gso_iter *it, uint32_t off, uint32_t *u, uint32_t *o)
{
	*u = 0;
	*o = off;
	cursor_norm(it, u, o);
}

/* Walk len payload bytes from (u, o), writing slices to out when non-NULL
 * (the caller guarantees room: at most it->max_slices).  Returns the number
 * of slices. */
static uint32_t take(const struct ofl_gso_iter *it, uint32_t *u, uint32_t *o, uint32_t len,
                     struct ofl_slice *out)
{
	uint32_t n = 0;
	while (len && *u < it->nunits) {
		const uint8_t *d;
		uint32_t ul, c;
		uint16_t pk, bf;
		gso_unit(it, *u, &d, &ul, &pk, &bf);
		c = ul - *o < len ? ul - *o : len;
		if (c) {
			if (out) {
				out[n].data = d + *o;
				out[n].len = c;
				out[n].pkt = pk;
				out[n].buf = bf;
			}
			n++;
		}
		*o += c;
		len -= c;
		cursor_norm(it, u, o);
	}
	return n;
}

uint32_t gso_slices_sum(const struct ofl_slice *s, uint32_t n)
{
	uint32_t sum = 0, done = 0, i;
	if (n == 1)
		return ofl_csum_partial(s[0].data, s[0].len, 0);
	for (i = 0; i < n; i++) {
		sum = ofl_csum_add_at(sum, ofl_csum_partial(s[i].data, s[i].len, 0), (int)(done & 1));
		done += s[i].len;
	}
	return sum;
}

/* ---- start --------------------------------------------------------------- */

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

static int check_req(const struct ofl_gso_req *req)
{
	if (req->version != OFL_GSO_REQ_VERSION || req->type > OFL_GSO_TYPE_UDP_FRAG ||
	    (req->csum != OFL_CSUM_MODE_FULL && req->csum != OFL_CSUM_MODE_PARTIAL) ||
	    (req->flags & ~(OFL_GSO_F_FIXED_ID | OFL_GSO_F_KEEP_CWR)) || req->seg_size == 0 ||
	    req->seg_size > 0xffffu || req->extra_l2_len > GSO_MAX_EXTRA_L2)
		return OFL_EINVAL;
	return 0;
}

int gso_start_common(struct ofl_gso_iter *it, const struct ofl_gso_req *req,
                     const struct gso_input *in, struct ofl_hdrs *hp)
{
	uint8_t sc[OFL_ETH_HLEN + OFL_GSO_MAX_IN_HDR];
	struct ofl_hdrs h;
	uint32_t fake = in->l2_none ? OFL_ETH_HLEN : 0, vlen, l2, o, l4len, in_l3h, l3max;
	uint32_t pay_max, max_segs;
	const uint8_t *ip_in, *l4_in;
	uint8_t *t;
	int big, rc;
	uint8_t type;

	memset(it, 0, offsetof(struct ofl_gso_iter, tmpl));
	it->done = 1;
	if ((rc = check_req(req)) != 0)
		return rc;
	if (in->flen > GSO_MAX_FRAME)
		return OFL_E2BIG;
	vlen = gather(in, sc + fake, OFL_GSO_MAX_IN_HDR);
	if (fake) {
		/* TUN: no L2.  Parse behind a made-up Ethernet header. */
		memset(sc, 0, OFL_ETH_HLEN);
		if (vlen < 1)
			return OFL_EPROTO;
		ofl_put16(sc + 12, (sc[fake] >> 4) == 6 ? 0x86ddu : 0x0800u);
	}
	parse_frame(sc, vlen + fake, in->flen + fake, &h, &big);
	if (!h.l3) {
		if (h.status == OFL_PARSE_VLAN_DEPTH || h.status == OFL_PARSE_HDR_TOO_LONG)
			return OFL_ENOTSUP;
		return OFL_EPROTO;
	}
	if (h.l3_end > h.frame_len || (h.l3_end < h.frame_len && !h.trimmed))
		return OFL_EBADMSG;
	ip_in = sc + h.l3_off;
	if (h.l3 == 4 && (ofl_get16(ip_in + 6) & 0x3fffu))
		return OFL_ENOTSUP; /* already a fragment */
	if (h.l4proto == 44 || h.status == OFL_PARSE_IP6_EXT || h.status == OFL_PARSE_FRAGMENT)
		return OFL_ENOTSUP;
	/* an IPv6 fragment header sits between the counted extension headers
	 * and the transport header (the parser walks past a first fragment) */
	if (h.l3 == 6 && h.l4_off && h.l4_off != h.l3_off + 40u + h.ip6_ext_len)
		return OFL_ENOTSUP;
	if (h.status == OFL_PARSE_HDR_TOO_LONG)
		return OFL_ENOTSUP;
	if (h.l4proto == 4 || h.l4proto == 41 || h.l4proto == 47)
		return OFL_ENOTSUP; /* IP-in-IP, 6in4, GRE tunnels */
	if (!h.l4_off)
		return OFL_EPROTO;
	l4_in = sc + h.l4_off;

	/* the type */
	type = req->type;
	if (h.l4proto == GSO_PROTO_TCP) {
		if (type == OFL_GSO_TYPE_AUTO)
			type = OFL_GSO_TYPE_TCP;
		if (type != OFL_GSO_TYPE_TCP)
			return OFL_EPROTO;
		if (!h.l4_ok)
			return OFL_EPROTO;
		l4len = h.hdr_len - h.l4_off;
	} else if (h.l4proto == GSO_PROTO_UDP) {
		uint32_t ulen;
		if (h.l4_off + GSO_UDP_HLEN > h.l3_end || h.l4_off + GSO_UDP_HLEN > vlen + fake)
			return OFL_EPROTO;
		if (type == OFL_GSO_TYPE_AUTO) {
			if (is_tunnel_port(ofl_get16(l4_in)) || is_tunnel_port(ofl_get16(l4_in + 2)))
				return OFL_ENOTSUP;
			type = OFL_GSO_TYPE_UDP_FRAG;
		}
		if (type != OFL_GSO_TYPE_UDP_L4 && type != OFL_GSO_TYPE_UDP_FRAG)
			return OFL_EPROTO;
		ulen = h.l3_end - h.l4_off;
		if (ulen > 0xffffu)
			return OFL_ENOTSUP;
		if (ofl_get16(l4_in + 4) != ulen)
			return OFL_EBADMSG;
		l4len = GSO_UDP_HLEN;
		h.hdr_len = (uint16_t)(h.l4_off + GSO_UDP_HLEN);
		h.payload_len = h.l3_end - h.hdr_len;
	} else {
		return OFL_EPROTO;
	}

	/* geometry and the template */
	it->type = type;
	it->csum = req->csum;
	it->flags = req->flags;
	it->l3 = h.l3;
	it->l4proto = h.l4proto;
	it->nvlan = h.nvlan;
	it->seg_size = req->seg_size;
	it->extra_l2_len = req->extra_l2_len;
	it->extra_l2_off = req->extra_l2_off;
	it->l2_fill = req->l2_fill;
	it->l2_user = req->l2_user;
	it->ip6_frag_id = req->ip6_frag_id;
	l2 = h.l3_off - fake;
	if (it->extra_l2_off > l2)
		return OFL_EINVAL;
	t = it->tmpl;
	memcpy(t, sc + fake, it->extra_l2_off);
	memset(t + it->extra_l2_off, 0, it->extra_l2_len);
	memcpy(t + it->extra_l2_off + it->extra_l2_len, sc + fake + it->extra_l2_off,
	       l2 - it->extra_l2_off);
	o = l2 + it->extra_l2_len;
	it->l3_off = (uint16_t)o;
	in_l3h = h.l4_off - h.l3_off;
	if (h.l3 == 4) {
		memcpy(t + o, ip_in, in_l3h);
		t[o + 10] = t[o + 11] = 0;
		it->l3_hlen = (uint16_t)in_l3h;
		it->id0 = ofl_get16(ip_in + 4);
		if (type == OFL_GSO_TYPE_UDP_FRAG)
			ofl_put16(t + o + 6, 0); /* DF goes: the fragments carry offsets */
	} else {
		const uint8_t *ext = ip_in + 40;
		uint32_t ext_len = in_l3h - 40;
		memcpy(t + o, ip_in, 40);
		if (ext_len >= 8 && ip_in[6] == 0 && is_hbh_jumbo(ext)) {
			if (!big || ofl_get32(ext + 4) != in->flen - (h.l3_off - fake) - 40)
				return OFL_EBADMSG;
			t[o + 6] = ext[0];
			ext += 8;
			ext_len -= 8;
			it->hbh_cut = 1;
		}
		if (ext_len && type == OFL_GSO_TYPE_UDP_FRAG)
			return OFL_ENOTSUP;
		memcpy(t + o + 40, ext, ext_len);
		it->ext_len = (uint16_t)ext_len;
		it->l3_hlen = (uint16_t)(40 + ext_len);
	}
	if (h.l3 == 6 && it->ext_len) {
		/* a routing header changes the pseudo-header destination: refuse */
		const uint8_t *x = t + o + 40;
		uint8_t nh = t[o + 6];
		uint32_t p = 0;
		while (p < it->ext_len) {
			if (nh == 43)
				return OFL_ENOTSUP;
			nh = x[p];
			p += (x[p + 1] + 1u) * 8u;
		}
	}
	o += it->l3_hlen;
	if (type == OFL_GSO_TYPE_UDP_FRAG && h.l3 == 6) {
		uint8_t *fh = t + o;
		fh[0] = (uint8_t)GSO_PROTO_UDP;
		fh[1] = 0;
		ofl_put16(fh + 2, 0);
		ofl_put32(fh + 4, it->ip6_frag_id);
		t[it->l3_off + 6] = 44;
		o += GSO_FRAG6_HLEN;
	}
	it->l4_off = (uint16_t)o;
	memcpy(t + o, l4_in, l4len);
	if (h.l4proto == GSO_PROTO_TCP) {
		t[o + 16] = t[o + 17] = 0;
		it->seq0 = ofl_get32(l4_in + 4);
	} else {
		t[o + 6] = t[o + 7] = 0;
	}
	it->hdr_len = (uint16_t)(type == OFL_GSO_TYPE_UDP_FRAG ? o : o + l4len);
	it->in_hdr_len = (uint16_t)(h.hdr_len - fake);
	it->payload = h.l3_end - h.hdr_len;
	gso_bases(it);

	/* segment size and count */
	l3max = 0xffffu - (h.l3 == 4 ? it->l3_hlen : it->l3_hlen - 40u);
	if (type == OFL_GSO_TYPE_UDP_FRAG) {
		pay_max = l3max - (h.l3 == 6 ? GSO_FRAG6_HLEN : 0);
		if (it->seg_size % 8 || it->seg_size < 16 || it->seg_size > pay_max)
			return OFL_EINVAL;
		it->nsegs = (it->payload + GSO_UDP_HLEN + it->seg_size - 1) / it->seg_size;
	} else {
		pay_max = l3max - l4len;
		if (it->seg_size > pay_max)
			return OFL_EINVAL;
		it->nsegs = it->payload ? (it->payload + it->seg_size - 1) / it->seg_size : 1;
	}
	max_segs = req->max_segs ? req->max_segs
	                         : (type == OFL_GSO_TYPE_UDP_L4 ? OFL_GSO_UDP_MAX_SEGS : OFL_GSO_MAX_SEGS);
	if (it->nsegs > max_segs || it->nsegs > OFL_GSO_MAX_SEGS)
		return OFL_E2BIG;

	/* the input and the cursor */
	it->units = in->units;
	it->nunits = in->nunits;
	it->hdr0 = in->hdr0;
	it->hdr0_len = in->hdr0_len;
	it->unit_kind = in->kind;
	it->skip = in->skip;
	it->pay_base = in->skip + it->in_hdr_len;
	cursor_at(it, it->pay_base, &it->cur_unit, &it->cur_off);
	it->max_slices = 0;
	{
		/* slices per segment: at most the units the payload spans */
		uint32_t span = it->nunits - it->cur_unit;
		if (span > OFL_GSO_SEG_MAX_SLICES) {
			uint32_t u = it->cur_unit, off = it->cur_off, k;
			for (k = 0; k < it->nsegs; k++) {
				uint32_t s, len, n;
				gso_bounds(it, k, &s, &len);
				n = take(it, &u, &off, len, NULL);
				if (n > it->max_slices)
					it->max_slices = n;
			}
			if (it->max_slices > OFL_GSO_SEG_MAX_SLICES)
				return OFL_E2BIG;
		} else {
			it->max_slices = span;
		}
	}
	if (type == OFL_GSO_TYPE_UDP_FRAG)
		it->udp_csum = gso_frag_udp_csum(it);
	if (hp)
		*hp = h;
	it->done = 0;
	return 0;
}

int ofl_gso_start(struct ofl_gso_iter *it, const struct ofl_gso_req *req, const struct ofl_buf *bufs,
                  uint32_t nbufs)
{
	struct gso_input in;
	uint32_t i;
	if (!it || !req || !bufs || nbufs == 0 || nbufs > 0xffffu)
		return OFL_EINVAL;
	for (i = 0; i < nbufs; i++)
		if (!bufs[i].data && bufs[i].len)
			return OFL_EINVAL;
	memset(&in, 0, sizeof(in));
	in.units = bufs;
	in.nunits = nbufs;
	in.kind = GSO_UNIT_BUF;
	in.flen = ofl_pkt_len(bufs, nbufs);
	return gso_start_common(it, req, &in, NULL);
}

int ofl_gso_start_gro(struct ofl_gso_iter *it, const struct ofl_gso_req *req,
                      const struct ofl_gro_out *out)
{
	struct ofl_gso_req r;
	struct gso_input in;
	uint64_t total = 0;
	uint32_t i;
	if (!it || !out || (out->nslices && !out->slices) || (out->hdr_len && !out->hdr) ||
	    out->nslices >= 0xffffu || (!out->hdr_len && !out->nslices))
		return OFL_EINVAL;
	if (req)
		r = *req;
	else
		ofl_gso_req_default(&r);
	if (out->hdr_len) {
		if (r.type == OFL_GSO_TYPE_AUTO)
			r.type = OFL_GSO_TYPE_TCP;
		if (r.seg_size == 0)
			r.seg_size = out->seg_size;
		if (out->gso_type & OFL_GSO_TCP_FIXEDID)
			r.flags |= OFL_GSO_F_FIXED_ID;
		if (out->gso_type & OFL_GSO_TCP_ECN)
			r.flags |= OFL_GSO_F_KEEP_CWR;
	}
	for (i = 0; i < out->nslices; i++) {
		if (!out->slices[i].data && out->slices[i].len)
			return OFL_EINVAL;
		total += out->slices[i].len;
	}
	total += out->hdr_len;
	if (total > GSO_MAX_FRAME)
		return OFL_E2BIG;
	memset(&in, 0, sizeof(in));
	in.units = out->slices;
	in.nunits = out->nslices;
	in.kind = GSO_UNIT_SLICE;
	in.flen = (uint32_t)total;
	if (out->hdr_len) {
		in.kind = GSO_UNIT_GRO;
		in.nunits = out->nslices + 1;
		in.hdr0 = out->hdr;
		in.hdr0_len = out->hdr_len;
	}
	return gso_start_common(it, &r, &in, NULL);
}

/* ---- count, next, run ---------------------------------------------------- */

static uint32_t max_hdr(const struct ofl_gso_iter *it)
{
	return it->hdr_len + (it->type == OFL_GSO_TYPE_UDP_FRAG ? GSO_UDP_HLEN : 0u);
}

int ofl_gso_count(const struct ofl_gso_iter *it, struct ofl_gso_count *cnt)
{
	uint32_t u, o, k;
	if (!it || !cnt || !it->nsegs)
		return OFL_EINVAL;
	memset(cnt, 0, sizeof(*cnt));
	cnt->segs = it->nsegs;
	cnt->segs_left = it->done ? 0 : it->nsegs - it->seg;
	cnt->max_slices = it->max_slices;
	cnt->hdr_len = max_hdr(it);
	cnt->type = it->type;
	cursor_at(it, it->pay_base, &u, &o);
	for (k = 0; k < it->nsegs; k++) {
		uint32_t s, len, n;
		gso_bounds(it, k, &s, &len);
		n = 1 + take(it, &u, &o, len, NULL);
		cnt->descs += n;
		if (k >= it->seg && !it->done)
			cnt->descs_left += n;
	}
	return 0;
}

int ofl_gso_check_pool(const struct ofl_gso_iter *it, const struct ofl_gso_pool *pool)
{
	if (!it || !pool || !pool->kind)
		return OFL_EINVAL;
	return pool->slot_size < max_hdr(it) ? OFL_ENOSPC : 0;
}

int ofl_gso_next(struct ofl_gso_iter *it, struct ofl_gso_pool *pool, struct ofl_gso_seg *seg)
{
	uint32_t k, start, plen, u, o, hl;
	uint8_t *h;
	int rc;
	if (!it || !pool || !seg || !it->nsegs)
		return OFL_EINVAL;
	if (it->done || it->seg >= it->nsegs)
		return 0;
	if ((rc = ofl_gso_check_pool(it, pool)) != 0)
		return rc;
	if ((rc = ofl_gso_pool_get(pool, &seg->hdr)) != 0)
		return rc;
	k = it->seg;
	gso_bounds(it, k, &start, &plen);
	u = it->cur_unit;
	o = it->cur_off;
	seg->nslices = take(it, &u, &o, plen, seg->slices);
	seg->payload_len = plen;
	seg->index = k;
	seg->nsegs = it->nsegs;
	seg->flags = (uint16_t)((k == 0 ? OFL_GSO_SEG_F_FIRST : 0) |
	                        (k + 1 == it->nsegs ? OFL_GSO_SEG_F_LAST : 0));
	seg->l3_off = it->l3_off;
	seg->l4_off = it->l4_off;
	seg->csum_start = seg->csum_offset = 0;
	seg->release_first = (uint16_t)it->rel_next;
	seg->release_count = (uint16_t)((k + 1 == it->nsegs ? it->nunits : u) - it->rel_next);

	hl = it->hdr_len;
	if (it->type == OFL_GSO_TYPE_UDP_FRAG && k == 0)
		hl += GSO_UDP_HLEN;
	h = seg->hdr.data;
	memcpy(h, it->tmpl, hl);
	seg->hdr_len = hl;
	seg->len = hl + plen;
	if (it->type == OFL_GSO_TYPE_TCP)
		gso_tcp_fix(it, h, seg);
	else if (it->type == OFL_GSO_TYPE_UDP_L4)
		gso_udp_fix(it, h, seg);
	else
		gso_frag_fix(it, h, seg);
	if (it->l2_fill && it->l2_fill(it->l2_user, h, hl, k) != 0) {
		ofl_gso_pool_put(pool, &seg->hdr);
		return OFL_EBADMSG;
	}
	it->cur_unit = u;
	it->cur_off = o;
	it->rel_next += seg->release_count;
	it->seg++;
	return 1;
}

int ofl_gso_unnext(struct ofl_gso_iter *it, struct ofl_gso_pool *pool, const struct ofl_gso_seg *seg)
{
	uint32_t k, start, plen, u, o;
	if (!it || !pool || !seg || !it->nsegs || it->seg == 0 || seg->index + 1 != it->seg ||
	    seg->nsegs != it->nsegs)
		return OFL_EINVAL;
	k = seg->index;
	gso_bounds(it, k, &start, &plen);
	cursor_at(it, it->pay_base, &u, &o);
	take(it, &u, &o, start, NULL);
	it->cur_unit = u;
	it->cur_off = o;
	it->rel_next -= seg->release_count;
	it->seg = k;
	it->done = 0;
	return ofl_gso_pool_put(pool, &seg->hdr);
}

int ofl_gso_run(struct ofl_gso_iter *it, struct ofl_gso_pool *pool, const struct ofl_gso_callbacks *cb,
                uint32_t *emitted)
{
	struct ofl_gso_seg seg;
	uint32_t n = 0;
	int rc;
	if (emitted)
		*emitted = 0;
	if (!it || !pool || !cb || !cb->segment)
		return OFL_EINVAL;
	for (;;) {
		int r;
		rc = ofl_gso_next(it, pool, &seg);
		if (rc <= 0)
			break;
		r = cb->segment(cb->user, &seg);
		if (r < 0) {
			ofl_gso_unnext(it, pool, &seg);
			rc = OFL_EAGAIN;
			break;
		}
		n++;
		if (r > 0) {
			rc = it->seg >= it->nsegs ? 0 : OFL_EAGAIN;
			break;
		}
	}
	if (emitted)
		*emitted = n;
	return rc;
}

int ofl_gso_abort(struct ofl_gso_iter *it)
{
	int left;
	if (!it)
		return OFL_EINVAL;
	left = it->done ? 0 : (int)(it->nsegs - it->seg);
	it->done = 1;
	return left;
}
