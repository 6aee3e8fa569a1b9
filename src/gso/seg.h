/*
 * seg.h - the per-segment header rules, inlined into ofl_gso_next():
 *   IP (inet_gso_segment, ipv6_gso_segment): IPv4 total length, ID (+1 per
 *   segment unless fixed-id) and header checksum; IPv6 payload length;
 *   TCP (tcp_gso_segment): the sequence number advances by the payload
 *   before it; FIN and PSH only on the last segment; CWR only on the first
 *   (unless OFL_GSO_F_KEEP_CWR, the AccECN rule);
 *   UDP L4 (UDP_SEGMENT, __udp_gso_segment): every segment a datagram of its
 *   own with the UDP length of its payload; a computed checksum of 0 is sent
 *   as 0xffff (CSUM_MANGLED_0);
 *   the L4 checksum in the request's mode: FULL sums the pseudo header, the
 *   L4 header and the payload slices; PARTIAL leaves the folded
 *   pseudo-header sum in the field and reports csum_start/csum_offset (Linux
 *   CHECKSUM_PARTIAL).
 * Everything but the payload and the few words that change per segment was
 * summed once at start (gso_bases(), ip.c).  The header h already holds the
 * template; every value is computed from the iterator, never read back from
 * the slot (a store-forwarding stall), and the iterator is read before the
 * slot is written (restrict: the stores cannot change it).
 */
#ifndef OFL_GSO_SEG_H
#define OFL_GSO_SEG_H

#include <stddef.h>

#include "gso/gso_int.h"

/* it->flags: set at start (gso_mid_template()) when the middle segments
 * may be built by the fast code of fast.h/fast.c (mid_fast(), one_seg()): TCP or
 * UDP L4 from plain buffers, PARTIAL checksums, no L2 hook, at most 128
 * header bytes.  Below the TCP flags (GSO_ITF_TCP_SHIFT) and above the
 * OFL_GSO_F_* bits. */
#define GSO_ITF_MID_FAST 0x0040u
/* With GSO_ITF_MID_FAST, the template's bytes past 128 hold what the fast
 * code computes once per packet (gso_mid_template()), native byte order:
 * IPv4: the header's BE sum without ID and checksum, folded (uint32_t),
 * and the fragment offset, TTL and protocol words as they stand in bytes
 * 4..11 of the header read as a big-endian 64-bit number (uint64_t). */
#define GSO_MID_IPB 128u
#define GSO_MID_IPMID 136u
/* ... and the record of a middle segment (GSO_SEG_HEAD bytes of struct
 * ofl_gso_seg: up to and including the first slice) with 0 for what
 * depends on the pool or the buffer or differs per segment (slot pointer,
 * size, index and offset, segment index, first buffer to release, slice
 * pointer and buffer). */
#define GSO_MID_REC 144u
#define GSO_SEG_HEAD (offsetof(struct ofl_gso_seg, slices) + sizeof(struct ofl_slice))

/* IPv4 header checksum of a segment: var is the BE sum of the words that
 * differ from the template (total length, ID, fragment offset). */
GSO_ALWAYS_INLINE void gso_ip_csum(const struct gso_it *restrict it, uint8_t *restrict h, uint32_t var)
{
	ofl_put16(h + it->l3_off + 10, (uint16_t)~gso_fold_be(it->ip_base + var));
}

/* The IPv4 ID of segment k: + 1 a segment unless fixed (16 bits kept by
 * the caller). */
static inline uint32_t gso_ip_id(const struct gso_it *it, uint32_t k)
{
	return it->id0 + ((it->flags & OFL_GSO_F_FIXED_ID) ? 0u : k);
}

/* IP length (and IPv4 ID and checksum) of segment k; mid: a middle
 * segment, whose length the template already has (gso_mid_template()). */
GSO_ALWAYS_INLINE void gso_ip_fix(const struct gso_it *restrict it, uint8_t *restrict h, uint32_t k,
                                  uint32_t l3_payload, int mid)
{
	uint8_t *ip = h + it->l3_off;
	if (it->l3 == 4) {
		uint32_t tot = (uint16_t)(it->l3_hlen + l3_payload);
		uint32_t id = (uint16_t)gso_ip_id(it, k);
		uint32_t s = it->ip_base + ofl_get16(it->tmpl + it->l3_off + 6) + tot + id;
		if (mid)
			ofl_put16(ip + 4, (uint16_t)id);
		else
			ofl_put32(ip + 2, tot << 16 | id); /* total length, ID */
		ofl_put16(ip + 10, (uint16_t)~gso_fold_be(s));
	} else if (!mid) {
		ofl_put16(ip + 4, (uint16_t)(it->l3_hlen - 40u + l3_payload));
	}
}

/* The L4 checksum of a segment with plen payload bytes (the nsl slices sl)
 * at l4 + field; var: the BE sum of the L4 header words that change per
 * segment (TCP: sequence number and the data offset/flags word; UDP: the
 * length).  PARTIAL: the folded pseudo-header sum (the caller reports
 * csum_start/csum_offset). */
GSO_ALWAYS_INLINE void gso_l4_csum(const struct gso_it *restrict it, uint8_t *restrict l4, uint32_t l4_hlen,
                                   unsigned field, uint32_t var, uint32_t plen, const struct ofl_slice *sl,
                                   uint32_t nsl)
{
	uint32_t len = l4_hlen + plen;
	uint32_t s = it->ps_base + (len >> 16) + (len & 0xffffu);
	uint16_t c;
	if (it->csum == OFL_CSUM_MODE_PARTIAL) {
		c = gso_fold_be(s);
	} else {
		s += it->l4_base + var;
		s += gso_mem_to_be(gso_slices_sum(sl, nsl));
		c = (uint16_t)~gso_fold_be(s);
		if (c == 0 && it->l4proto == GSO_PROTO_UDP)
			c = 0xffff; /* CSUM_MANGLED_0: 0 means "no checksum" */
	}
	ofl_put16(l4 + field, c);
}

/* Segment k (the last one when last; mid: neither the first nor the last,
 * i.e. k && !last, a constant where the caller knows it), plen payload
 * bytes in the nsl slices sl.  A middle segment finds its length, flags
 * and (PARTIAL) checksum in the template: only the sequence number, the
 * IPv4 ID and checksum (and a FULL checksum) change. */
GSO_ALWAYS_INLINE void gso_tcp_fix(const struct gso_it *restrict it, uint8_t *restrict h, uint32_t k,
                                   uint32_t plen, int last, int mid, const struct ofl_slice *sl, uint32_t nsl)
{
	uint8_t *th = h + it->l4_off;
	const uint8_t *tt = it->tmpl + it->l4_off;
	uint32_t thl = it->hdr_len - it->l4_off;
	uint32_t seq = it->seq0 + k * it->seg_size;
	uint32_t fl = tt[13];
	ofl_put32(th + 4, seq);
	if (!mid) {
		fl |= (uint32_t)it->flags >> GSO_ITF_TCP_SHIFT; /* the input's flags */
		if (!last)
			fl &= ~(GSO_TCP_FIN | GSO_TCP_PSH);
		if (k && !(it->flags & OFL_GSO_F_KEEP_CWR))
			fl &= ~GSO_TCP_CWR;
		th[13] = (uint8_t)fl;
	}
	gso_ip_fix(it, h, k, thl + plen, mid);
	if (!mid || it->csum != OFL_CSUM_MODE_PARTIAL)
		gso_l4_csum(it, th, thl, GSO_TCP_CSUM_OFF,
		            (seq >> 16) + (seq & 0xffffu) + ((uint32_t)tt[12] << 8 | fl), plen, sl, nsl);
	if (it->tun)
		gso_tun_fix(it, h, k, plen); /* the outer headers (tunnel.c) */
}

GSO_ALWAYS_INLINE void gso_udp_fix(const struct gso_it *restrict it, uint8_t *restrict h, uint32_t k,
                                   uint32_t plen, int mid, const struct ofl_slice *sl, uint32_t nsl)
{
	uint8_t *uh = h + it->l4_off;
	uint32_t ulen = GSO_UDP_HLEN + plen;
	if (!mid)
		ofl_put16(uh + 4, (uint16_t)ulen);
	gso_ip_fix(it, h, k, ulen, mid);
	if (!mid || it->csum != OFL_CSUM_MODE_PARTIAL)
		gso_l4_csum(it, uh, GSO_UDP_HLEN, GSO_UDP_CSUM_OFF, ulen, plen, sl, nsl);
}

#endif
