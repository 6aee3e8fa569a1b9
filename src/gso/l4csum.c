/*
 * l4csum.c - the TCP/UDP checksum of one segment, in the request's mode:
 * FULL sums the pseudo header, the L4 header and the payload slices;
 * PARTIAL leaves the folded pseudo-header sum in the field and reports
 * csum_start/csum_offset (Linux CHECKSUM_PARTIAL).  The address part of the
 * pseudo header is summed once per packet (it->addr_sum).
 */
#include "gso/gso_int.h"

void gso_l4_csum(const struct ofl_gso_iter *it, uint8_t *l4, uint32_t l4_hlen, uint32_t proto,
                 unsigned field, struct ofl_gso_seg *seg)
{
	uint32_t s = gso_pseudo(it->addr_sum, proto, l4_hlen + seg->payload_len);
	uint16_t c;
	if (it->csum == OFL_CSUM_MODE_PARTIAL) {
		c = (uint16_t)~ofl_csum_fold(s);
		seg->flags |= OFL_GSO_SEG_F_CSUM_PARTIAL;
		seg->csum_start = it->l4_off;
		seg->csum_offset = (uint16_t)field;
	} else {
		s = ofl_csum_partial(l4, l4_hlen, s);
		s = ofl_csum_add_at(s, gso_slices_sum(seg->slices, seg->nslices), 0);
		c = ofl_csum_fold(s);
		if (c == 0 && proto == GSO_PROTO_UDP)
			c = 0xffff; /* CSUM_MANGLED_0: 0 means "no checksum" */
	}
	memcpy(l4 + field, &c, 2);
}
