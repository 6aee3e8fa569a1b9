/*
 * l4csum.c - the TCP/UDP checksum of one segment, in the request's mode:
 * FULL sums the pseudo header, the L4 header and the payload slices;
 * PARTIAL leaves the folded pseudo-header sum in the field and reports
 * csum_start/csum_offset (Linux CHECKSUM_PARTIAL).  Everything but the
 * payload and the few words that change per segment (length, TCP sequence
 * number and flags) was summed once at start (gso_bases()).
 */
#include "gso/gso_int.h"

void gso_l4_csum(const struct ofl_gso_iter *it, uint8_t *l4, uint32_t l4_hlen, unsigned field,
                 uint32_t var, struct ofl_gso_seg *seg)
{
	uint32_t len = l4_hlen + seg->payload_len;
	uint32_t s = it->ps_base + (len >> 16) + (len & 0xffffu);
	uint16_t c;
	if (it->csum == OFL_CSUM_MODE_PARTIAL) {
		c = gso_fold_be(s);
		seg->flags |= OFL_GSO_SEG_F_CSUM_PARTIAL;
		seg->csum_start = it->l4_off;
		seg->csum_offset = (uint16_t)field;
	} else {
		s += it->l4_base + var;
		s += gso_mem_to_be(gso_slices_sum(seg->slices, seg->nslices));
		c = (uint16_t)~gso_fold_be(s);
		if (c == 0 && it->l4proto == GSO_PROTO_UDP)
			c = 0xffff; /* CSUM_MANGLED_0: 0 means "no checksum" */
	}
	ofl_put16(l4 + field, c);
}
