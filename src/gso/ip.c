/*
 * ip.c - per-segment IP header rules (inet_gso_segment, ipv6_gso_segment):
 * IPv4 total length, ID (+1 per segment unless fixed-id) and header
 * checksum; IPv6 payload length.  Header checksums are the per-packet
 * base (gso_bases) plus the words that change.
 */
#include "gso/gso_int.h"

void gso_ip_fix(const struct ofl_gso_iter *it, uint8_t *h, uint32_t k, uint32_t l3_payload)
{
	uint8_t *ip = h + it->l3_off;
	if (it->l3 == 4) {
		uint16_t tot = (uint16_t)(it->l3_hlen + l3_payload);
		uint16_t id = (it->flags & OFL_GSO_F_FIXED_ID) ? it->id0 : (uint16_t)(it->id0 + k);
		ofl_put16(ip + 2, tot);
		ofl_put16(ip + 4, id);
		gso_ip_csum(it, h, tot, id, ofl_get16(it->tmpl + it->l3_off + 6));
	} else {
		ofl_put16(ip + 4, (uint16_t)(it->l3_hlen - 40u + l3_payload));
	}
}

/* From the values just written: reading the slot back right after the
 * header copy would stall on store forwarding. */
void gso_ip_csum(const struct ofl_gso_iter *it, uint8_t *h, uint16_t tot, uint16_t id, uint16_t frag)
{
	ofl_put16(h + it->l3_off + 10, (uint16_t)~gso_fold_be(it->ip_base + tot + id + frag));
}

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
