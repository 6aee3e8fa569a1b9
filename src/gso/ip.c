/*
 * ip.c - per-segment IP header rules (inet_gso_segment, ipv6_gso_segment):
 * IPv4 total length, ID (+1 per segment unless fixed-id) and header
 * checksum; IPv6 payload length.
 */
#include "gso/gso_int.h"

void gso_ip_fix(const struct ofl_gso_iter *it, uint8_t *h, uint32_t k, uint32_t l3_payload)
{
	uint8_t *ip = h + it->l3_off;
	if (it->l3 == 4) {
		ofl_put16(ip + 2, (uint16_t)(it->l3_hlen + l3_payload));
		if (!(it->flags & OFL_GSO_F_FIXED_ID))
			ofl_put16(ip + 4, (uint16_t)(it->id0 + k));
		gso_ip_csum(it, h);
	} else {
		ofl_put16(ip + 4, (uint16_t)(it->l3_hlen - 40u + l3_payload));
	}
}

void gso_ip_csum(const struct ofl_gso_iter *it, uint8_t *h)
{
	uint8_t *ip = h + it->l3_off;
	uint16_t c;
	if (it->l3 != 4)
		return;
	ip[10] = ip[11] = 0;
	c = ofl_csum_fold(ofl_csum_partial(ip, it->l3_hlen, 0));
	memcpy(ip + 10, &c, 2);
}
