/*
 * ip.c - what the per-segment rules (seg.h, frag.c) start from: the
 * per-packet header sums (the IPv4 header without the words that change per
 * segment, the pseudo header without the length, the L4 header without the
 * words that change per segment) and the template made the header of a
 * middle segment, which most segments are.
 */
#include "gso/seg.h"

void gso_bases(struct gso_it *it)
{
	const uint8_t *ip = it->tmpl + it->l3_off, *l4 = it->tmpl + it->l4_off;
	if (it->l3 == 4) {
		/* the template's checksum field is 0 */
		it->ip_base = gso_sum_be(ip, it->l3_hlen) - ofl_get16(ip + 2) - ofl_get16(ip + 4) -
		              ofl_get16(ip + 6);
		it->ps_base = gso_sum_be(ip + 12, 8);
	} else {
		it->ps_base = gso_sum_be(ip + 8, 32);
	}
	it->ps_base += it->l4proto;
	if (it->l4proto == GSO_PROTO_TCP) {
		uint32_t thl = (uint32_t)(l4[12] >> 4) * 4u;
		it->l4_base = gso_sum_be(l4, thl) - ofl_get16(l4 + 4) - ofl_get16(l4 + 6) - ofl_get16(l4 + 12);
	} else {
		it->l4_base = gso_sum_be(l4, GSO_UDP_HLEN) - ofl_get16(l4 + 4);
	}
}

_Static_assert(GSO_MID_REC + GSO_SEG_HEAD <= OFL_GSO_MAX_HDR, "the middle-segment record fits the template");

void gso_mid_template(struct gso_it *it)
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
		struct ofl_gso_seg r;
		memset(&r, 0, GSO_SEG_HEAD);
		r.hdr_len = it->hdr_len;
		r.payload_len = it->seg_size;
		r.len = it->hdr_len + it->seg_size;
		r.nsegs = it->nsegs;
		r.l3_off = it->l3_off;
		r.l4_off = it->l4_off;
		r.csum_start = it->l4_off;
		r.csum_offset = (uint16_t)field;
		r.flags = OFL_GSO_SEG_F_CSUM_PARTIAL;
		r.nslices = 1;
		r.slices[0].len = it->seg_size;
		memcpy(it->tmpl + GSO_MID_IPB, &ipb, 4);
		memcpy(it->tmpl + GSO_MID_IPMID, &mid, 8);
		memcpy(it->tmpl + GSO_MID_REC, &r, GSO_SEG_HEAD);
		it->flags |= GSO_ITF_MID_FAST;
	}
}
