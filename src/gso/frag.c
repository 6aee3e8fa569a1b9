/*
 * frag.c - UDP fragmentation, the old UFO (udp4_ufo_fragment,
 * udp6_ufo_fragment): one datagram cut into IP fragments of seg_size bytes
 * (a multiple of 8).  The UDP checksum is computed once over the whole
 * datagram and travels in the first fragment's UDP header.  IPv4: offset and
 * MF in frag_off, DF cleared, the same ID in every fragment.  IPv6: a
 * fragment header after the IPv6 header with offset, M and the request's
 * identification.
 */
#include "gso/seg.h"

uint16_t gso_frag_udp_csum(const struct gso_it *it)
{
	uint32_t ulen = GSO_UDP_HLEN + it->payload, s = gso_units_sum(it, it->pay_base, it->payload);
	uint16_t c;
	/* pseudo header and UDP header: the length counts twice */
	c = (uint16_t)~gso_fold_be(it->ps_base + 2u * ulen + it->l4_base + gso_mem_to_be(s));
	return c == 0 ? 0xffff : c;
}

void gso_frag_fix(const struct gso_it *it, uint8_t *h, uint32_t k, uint32_t plen, int last)
{
	uint8_t *ip = h + it->l3_off;
	uint32_t ipoff = k * it->seg_size;
	uint32_t bytes = plen + (k == 0 ? GSO_UDP_HLEN : 0u);
	if (k == 0)
		ofl_put16(h + it->l4_off + 6, it->udp_csum);
	if (it->l3 == 4) {
		uint16_t tot = (uint16_t)(it->l3_hlen + bytes);
		uint16_t fo = (uint16_t)((ipoff >> 3) | (last ? 0u : 0x2000u));
		ofl_put16(ip + 2, tot);
		ofl_put16(ip + 6, fo);
		gso_ip_csum(it, h, (uint32_t)tot + it->id0 + fo);
	} else {
		uint8_t *fh = ip + it->l3_hlen;
		ofl_put16(ip + 4, (uint16_t)(it->l3_hlen - 40u + GSO_FRAG6_HLEN + bytes));
		ofl_put16(fh + 2, (uint16_t)(ipoff | (last ? 0u : 1u)));
	}
}
