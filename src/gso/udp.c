/*
 * udp.c - UDP L4 segmentation (UDP_SEGMENT, __udp_gso_segment): every
 * segment is a datagram of its own with the UDP length of its payload; a
 * computed checksum of 0 is sent as 0xffff (CSUM_MANGLED_0).
 */
#include "gso/gso_int.h"

void gso_udp_fix(const struct ofl_gso_iter *it, uint8_t *h, struct ofl_gso_seg *seg)
{
	uint8_t *uh = h + it->l4_off;
	uint32_t ulen = GSO_UDP_HLEN + seg->payload_len;
	ofl_put16(uh + 4, (uint16_t)ulen);
	gso_ip_fix(it, h, seg->index, ulen);
	gso_l4_csum(it, uh, GSO_UDP_HLEN, 6, ulen, seg);
}
