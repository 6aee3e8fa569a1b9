/*
 * tmpl.h - what the per-segment rules (seg.h, frag.c) start from, inline for
 * the two start paths (start.c's general one through ip.c, plain.c's): the
 * per-packet header sums (the IPv4 header without the words that change per
 * segment, the pseudo header without the length, the L4 header without the
 * words that change per segment) and the template made the header of a
 * middle segment, which most segments are.
 */
#ifndef OFL_GSO_TMPL_H
#define OFL_GSO_TMPL_H

#include <stddef.h>

#include "gso/fast.h"

/* 16 and 64 zero bytes at p, vector stores. */
GSO_ALWAYS_INLINE void tmpl_zero16(uint8_t *p)
{
	gso_v16 z;
	memset(&z, 0, sizeof(z));
	memcpy(p, &z, 16);
}
GSO_ALWAYS_INLINE void tmpl_zero64(uint8_t *p)
{
	tmpl_zero16(p);
	tmpl_zero16(p + 16);
	tmpl_zero16(p + 32);
	tmpl_zero16(p + 48);
}

/* gso_sum_be(), the 20 bytes of an IPv4 header without options written
 * out. */
GSO_ALWAYS_INLINE uint32_t tmpl_sum_be(const uint8_t *p, uint32_t n)
{
	uint8_t b[2];
	uint16_t m = n == 20u ? ofl_csum_ip4_fold(p) : ofl_csum_words_fold(p, n / 4u); /* memory order */
	memcpy(b, &m, 2);
	return ofl_get16(b) + 3u * 0xffffu;
}

/* gso_bases() (gso_int.h) of a template whose IP header (l3 4 or 6, l3h
 * bytes) is at ip and L4 header (proto) at l4; l4_base only where a
 * checksum is computed in software (csum FULL, type UDP_FRAG: seg.h,
 * frag.c), 0 where the NIC finishes it. */
GSO_ALWAYS_INLINE void tmpl_bases(struct gso_it *restrict it, const uint8_t *ip, const uint8_t *l4, uint32_t l3,
                                  uint32_t l3h, uint32_t proto, uint32_t csum, uint32_t type)
{
	if (l3 == 4) {
		/* the template's checksum field is 0 */
		it->ip_base = tmpl_sum_be(ip, l3h) - ofl_get16(ip + 2) - ofl_get16(ip + 4) - ofl_get16(ip + 6);
		it->ps_base = tmpl_sum_be(ip + 12, 8) + proto;
	} else {
		it->ps_base = tmpl_sum_be(ip + 8, 32) + proto;
	}
	if (csum == OFL_CSUM_MODE_PARTIAL && type != OFL_GSO_TYPE_UDP_FRAG) {
		it->l4_base = 0;
	} else if (proto == GSO_PROTO_TCP) {
		uint32_t thl = (uint32_t)(l4[12] >> 4) * 4u;
		it->l4_base = tmpl_sum_be(l4, thl) - ofl_get16(l4 + 4) - ofl_get16(l4 + 6) - ofl_get16(l4 + 12);
	} else {
		it->l4_base = tmpl_sum_be(l4, GSO_UDP_HLEN) - ofl_get16(l4 + 4);
	}
}

/* Native-order stores into the template's cached record. */
static inline void tmpl_put32(uint8_t *p, uint32_t v)
{
	memcpy(p, &v, 4);
}
static inline void tmpl_put16(uint8_t *p, uint16_t v)
{
	memcpy(p, &v, 2);
}

_Static_assert(GSO_MID_REC + GSO_SEG_HEAD <= OFL_GSO_MAX_HDR, "the middle-segment record fits the template");

/* gso_mid_template() (gso_int.h). */
GSO_ALWAYS_INLINE void tmpl_mid(struct gso_it *it)
{
	uint8_t *ip = it->tmpl + it->l3_off, *l4 = it->tmpl + it->l4_off;
	uint32_t l4len = it->hdr_len - it->l4_off, pay = l4len + it->seg_size;
	unsigned field = GSO_UDP_CSUM_OFF;
	if (it->l3 == 4)
		ofl_put16(ip + 2, (uint16_t)(it->l3_hlen + pay));
	else
		ofl_put16(ip + 4, (uint16_t)(it->l3_hlen - 40u + pay));
	if (it->l4proto == GSO_PROTO_TCP) {
		uint8_t gone = l4[13] & (GSO_TCP_FIN | GSO_TCP_PSH);
		if (!(it->flags & OFL_GSO_F_KEEP_CWR))
			gone |= l4[13] & GSO_TCP_CWR;
		l4[13] &= (uint8_t)~gone;
		it->flags |= (uint16_t)(gone << GSO_ITF_TCP_SHIFT);
		field = GSO_TCP_CSUM_OFF;
	} else {
		ofl_put16(l4 + 4, (uint16_t)pay);
	}
	if (it->csum == OFL_CSUM_MODE_PARTIAL)
		ofl_put16(l4 + field, gso_fold_be(it->ps_base + pay));
	if (it->unit_kind == GSO_UNIT_BUF && it->csum == OFL_CSUM_MODE_PARTIAL && !it->l2_fill &&
	    it->hdr_len <= 128u && !it->tun) {
		uint32_t ipb = 0;
		uint64_t mid = 0;
		if (it->l3 == 4) {
			ipb = gso_fold_be(it->ip_base + ofl_get16(ip + 2) + ofl_get16(ip + 6));
			mid = (uint64_t)ofl_get32(ip + 6) << 16;
		}
		uint8_t *r = it->tmpl + GSO_MID_REC;
		_Static_assert(GSO_SEG_HEAD == 88u, "the cached record: 88 bytes");
		tmpl_zero64(r);
		tmpl_zero16(r + 64);
		tmpl_zero16(r + GSO_SEG_HEAD - 16u);
		tmpl_put32(r + offsetof(struct ofl_gso_seg, hdr_len), it->hdr_len);
		tmpl_put32(r + offsetof(struct ofl_gso_seg, payload_len), it->seg_size);
		tmpl_put32(r + offsetof(struct ofl_gso_seg, len), it->hdr_len + it->seg_size);
		tmpl_put32(r + offsetof(struct ofl_gso_seg, nsegs), it->nsegs);
		tmpl_put16(r + offsetof(struct ofl_gso_seg, l3_off), it->l3_off);
		tmpl_put16(r + offsetof(struct ofl_gso_seg, l4_off), it->l4_off);
		tmpl_put16(r + offsetof(struct ofl_gso_seg, csum_start), it->l4_off);
		tmpl_put16(r + offsetof(struct ofl_gso_seg, csum_offset), (uint16_t)field);
		tmpl_put16(r + offsetof(struct ofl_gso_seg, flags), OFL_GSO_SEG_F_CSUM_PARTIAL);
		tmpl_put32(r + offsetof(struct ofl_gso_seg, nslices), 1);
		tmpl_put32(r + offsetof(struct ofl_gso_seg, slices) + offsetof(struct ofl_slice, len), it->seg_size);
		memcpy(it->tmpl + GSO_MID_IPB, &ipb, 4);
		memcpy(it->tmpl + GSO_MID_IPMID, &mid, 8);
		it->flags |= GSO_ITF_MID_FAST;
	}
}

/* ofl_gso_start() of a plain frame in one pass (plain.c): one buffer, an
 * untagged Ethernet frame, IPv4 without options or fragment bits or IPv6
 * without extension headers, TCP (type AUTO or TCP) or UDP (type UDP_L4),
 * lengths that say the frame's end, a payload, a request of the current
 * version without tunnel, VLAN insertion or extra L2 bytes, and a
 * segment size and count the general start takes.  Returns 1 with the
 * iterator exactly as the general start (gso_start_common()) leaves it,
 * or 0 having written nothing (the general start decides).  bufs/nbufs:
 * checked by the caller (ofl_bufs_size()). */
int gso_start_plain(struct gso_it *restrict it, const struct ofl_gso_req *restrict req,
                    const struct ofl_buf *bufs, uint32_t nbufs);
/* ofl_gso_start() of checked arguments with nbufs 1: gso_start_plain()'s
 * frame started (0), anything else by gso_start_bufs() (a tail call). */
int gso_start_one(struct gso_it *restrict it, const struct ofl_gso_req *restrict req, const struct ofl_buf *bufs,
                  uint32_t nbufs);
/* ofl_gso_start() without the one-pass start (start.c). */
int gso_start_bufs(struct gso_it *it, const struct ofl_gso_req *req, const struct ofl_buf *bufs, uint32_t nbufs);

#endif
