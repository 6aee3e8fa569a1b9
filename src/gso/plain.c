/*
 * plain.c - the start of the common super-packet in one pass (tmpl.h says
 * which): the frame's headers checked in place, with fixed offsets, and
 * copied straight into the template; the per-packet sums and the
 * middle-segment template by the general path's own bodies (tmpl.h),
 * inlined.  Anything else is left to the general start (start.c), which
 * parses, refuses with a reason and builds the template in steps.
 */
#include <stddef.h>

#include "gso/fast.h"
#include "gso/tmpl.h"

#define PLAIN_L3_OFF 14u

/* The iterator's fields (all before the template) cleared, as
 * gso_start_common() does first: 16-byte stores written out (GCC makes a
 * loop of them, or a memset() of this size, a string instruction). */
_Static_assert(offsetof(struct gso_it, tmpl) > 128u && offsetof(struct gso_it, tmpl) <= 160u,
               "zero_state() covers the state before the template");
GSO_ALWAYS_INLINE void zero_state(struct gso_it *it)
{
	uint8_t *p = (uint8_t *)it;
	tmpl_zero64(p);
	tmpl_zero64(p + 64);
	tmpl_zero16(p + 128);
	tmpl_zero16(p + offsetof(struct gso_it, tmpl) - 16u);
}

/* A 16-byte zero store at o, or at 112 when o is past it. */
GSO_ALWAYS_INLINE void zero_upto112(uint8_t *t, uint32_t o)
{
	tmpl_zero16(t + (o < 112u ? o : 112u));
}

/* The template's first 128 bytes: the hl header bytes of the frame f
 * (flen bytes), zero after them (the fast loop copies 32-byte blocks).
 * From a frame of 128 bytes or more: 128 bytes copied, then five 16-byte
 * zero stores from hl (those past 112 land on 112) and one at 112, which
 * cover [hl, 128) for any hl from 42 to 112 and never a header byte. */
GSO_ALWAYS_INLINE void copy_head(uint8_t *restrict t, const uint8_t *restrict f, uint32_t hl, uint32_t flen)
{
	if (flen < 128u || hl > 112u || hl < 42u) {
		memcpy(t, f, hl);
		memset(t + hl, 0, 128u - hl);
		return;
	}
	copy64(t, f);
	copy64(t + 64, f + 64);
	/* written out: GCC 12 kept a loop of them (7 instructions a store) */
	tmpl_zero16(t + hl);
	zero_upto112(t, hl + 16u);
	zero_upto112(t, hl + 32u);
	zero_upto112(t, hl + 48u);
	zero_upto112(t, hl + 64u);
	tmpl_zero16(t + 112);
}

/* The frame f of flen bytes (one buffer) whose EtherType says IPv4 (l3 4)
 * or IPv6 (6) carrying TCP or UDP (proto): 1 when started, 0 with nothing
 * written.  Constant l3 and proto in each copy. */
GSO_ALWAYS_INLINE int plain_start(struct gso_it *restrict it, const struct ofl_gso_req *restrict req,
                                  const struct ofl_buf *bufs, const uint8_t *f, uint32_t flen, unsigned l3,
                                  unsigned proto)
{
	const uint32_t l3h = l3 == 4 ? 20u : 40u, l4o = PLAIN_L3_OFF + l3h, seg = req->seg_size;
	const int tcp = proto == GSO_PROTO_TCP;
	uint32_t l4len, hl, pay, nsegs, max;
	uint8_t *t = it->tmpl;
	if (tcp) {
		/* parse_tcp()'s bounds; AUTO and TCP take TCP */
		if (flen < l4o + 20u || req->type > OFL_GSO_TYPE_TCP)
			return 0;
		l4len = (uint32_t)(f[l4o + 12] >> 4) * 4u;
		if (l4len < 20u)
			return 0;
	} else {
		/* UDP_L4 only (AUTO is UDP_FRAG); the UDP length the IP one */
		if (flen < l4o + GSO_UDP_HLEN || req->type != OFL_GSO_TYPE_UDP_L4 ||
		    ofl_get16(f + l4o + 4) != flen - l4o)
			return 0;
		l4len = GSO_UDP_HLEN;
	}
	hl = l4o + l4len;
	if (hl >= flen) /* no payload (or the TCP header past the end) */
		return 0;
	pay = flen - hl;
	/* geometry(): the segment's IP length fits its field; the count */
	if (seg > (l3 == 4 ? 0xffffu - l3h : 0xffffu) - l4len)
		return 0;
	nsegs = (pay + seg - 1u) / seg;
	max = req->max_segs ? req->max_segs : (tcp ? OFL_GSO_MAX_SEGS : OFL_GSO_UDP_MAX_SEGS);
	if (nsegs > max || nsegs > OFL_GSO_MAX_SEGS)
		return 0;
	/* taken: the iterator as gso_start_common() leaves it */
	zero_state(it);
	copy_head(t, f, hl, flen);
	it->units = bufs;
	it->nunits = it->max_slices = 1u; /* unit_kind GSO_UNIT_BUF: 0 */
	it->type = (uint8_t)(tcp ? OFL_GSO_TYPE_TCP : OFL_GSO_TYPE_UDP_L4);
	it->csum = req->csum;
	it->flags = req->flags;
	it->l3 = (uint8_t)l3;
	it->l4proto = (uint8_t)proto;
	it->in_hdr_len = it->hdr_len = (uint16_t)hl;
	it->pay_base = it->cur_off = hl;
	it->l3_off = PLAIN_L3_OFF;
	it->l4_off = (uint16_t)l4o;
	it->l3_hlen = (uint16_t)l3h;
	if (l3 == 4) {
		t[PLAIN_L3_OFF + 10] = t[PLAIN_L3_OFF + 11] = 0;
		it->id0 = ofl_get16(f + PLAIN_L3_OFF + 4);
	}
	if (tcp) {
		t[l4o + GSO_TCP_CSUM_OFF] = t[l4o + GSO_TCP_CSUM_OFF + 1] = 0;
		it->seq0 = ofl_get32(f + l4o + 4);
	} else {
		t[l4o + GSO_UDP_CSUM_OFF] = t[l4o + GSO_UDP_CSUM_OFF + 1] = 0;
	}
	it->seg_size = seg;
	it->nsegs = nsegs;
	it->payload = pay;
	/* what the request says, for the general code's use */
	it->extra_l2_off = req->extra_l2_off;
	it->ip6_frag_id = req->ip6_frag_id;
	it->l2_fill = req->l2_fill;
	it->l2_user = req->l2_user;
	tmpl_bases(it, t + PLAIN_L3_OFF, t + l4o, l3, l3h, proto, req->csum, it->type);
	tmpl_mid(it);
	return 1;
}

/* gso_start_plain(), inlined into gso_start_one() too. */
GSO_ALWAYS_INLINE int plain_try(struct gso_it *restrict it, const struct ofl_gso_req *restrict req,
                                const struct ofl_buf *bufs, uint32_t nbufs)
{
	const uint8_t *f = bufs[0].data, *ip;
	uint32_t flen = bufs[0].len, l3, proto;
	/* check_req() passes, with nothing the general path must add */
	if (nbufs != 1 || req->version != OFL_GSO_REQ_VERSION ||
	    (req->flags & ~(uint32_t)(OFL_GSO_F_FIXED_ID | OFL_GSO_F_KEEP_CWR)) ||
	    (req->csum != OFL_CSUM_MODE_FULL && req->csum != OFL_CSUM_MODE_PARTIAL) || req->l2 != OFL_L2_ETH ||
	    req->seg_size - 1u > 0xfffeu || req->extra_l2_len || req->extra_l2_off > PLAIN_L3_OFF ||
	    req->tunnel != OFL_GSO_TUN_NONE || req->tun_csum || req->inner_off || flen < 54u)
		return 0;
	ip = f + PLAIN_L3_OFF;
	switch (ofl_get16(f + 12)) {
	case 0x0800u:
		/* no options, the total length the frame's, not a fragment */
		if (ip[0] != 0x45u || ofl_get16(ip + 2) != flen - PLAIN_L3_OFF || (ofl_get16(ip + 6) & 0x3fffu))
			return 0;
		l3 = 4;
		proto = ip[9];
		break;
	case 0x86ddu:
		/* the payload length the frame's, TCP or UDP right after */
		if ((ip[0] >> 4) != 6u || ofl_get16(ip + 4) != flen - PLAIN_L3_OFF - 40u)
			return 0;
		l3 = 6;
		proto = ip[6];
		break;
	default:
		return 0;
	}
	/* a copy of the body per L3 and protocol */
	if (proto == GSO_PROTO_TCP)
		return l3 == 4 ? plain_start(it, req, bufs, f, flen, 4, GSO_PROTO_TCP)
		               : plain_start(it, req, bufs, f, flen, 6, GSO_PROTO_TCP);
	if (proto == GSO_PROTO_UDP)
		return l3 == 4 ? plain_start(it, req, bufs, f, flen, 4, GSO_PROTO_UDP)
		               : plain_start(it, req, bufs, f, flen, 6, GSO_PROTO_UDP);
	return 0;
}

int gso_start_plain(struct gso_it *restrict it, const struct ofl_gso_req *restrict req,
                    const struct ofl_buf *bufs, uint32_t nbufs)
{
	return plain_try(it, req, bufs, nbufs);
}

int gso_start_one(struct gso_it *restrict it, const struct ofl_gso_req *restrict req, const struct ofl_buf *bufs,
                  uint32_t nbufs)
{
	if (plain_try(it, req, bufs, nbufs))
		return 0;
	return gso_start_bufs(it, req, bufs, nbufs);
}
