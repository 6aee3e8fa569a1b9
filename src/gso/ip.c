/*
 * ip.c - the per-packet header sums the per-segment rules (seg.h, frag.c)
 * start from: the IPv4 header without the words that change per segment,
 * the pseudo header without the length, the L4 header without the words
 * that change per segment.
 */
#include "gso/gso_int.h"

void gso_bases(struct ofl_gso_iter *it)
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
