/* ipv4.c - IPv4 completion (inet_gro_complete): total length (0 above
 * 65535, as Linux BIG TCP writes it) and the header checksum. */
#include <ofl/csum.h>

#include "gro/gro_int.h"

void gro_ipv4_complete(struct gro_item *it)
{
	uint8_t *ip = it->hdr + it->l3_off;
	uint16_t c;
	ofl_put16(ip + 2, (uint16_t)(it->l3_len > 0xffffu ? 0 : it->l3_len));
	ip[10] = ip[11] = 0;
	c = ofl_csum_fold(ofl_csum_partial(ip, (size_t)(ip[0] & 0xf) * 4u, 0));
	memcpy(ip + 10, &c, 2);
}

uint32_t gro_pseudo_sum(const uint8_t *hdr, unsigned l3, unsigned l3_off, uint32_t l4_len)
{
	uint8_t tail[8];
	const uint8_t *ip = hdr + l3_off;
	uint32_t s;
	if (l3 == 4)
		s = ofl_csum_partial(ip + 12, 8, 0);
	else
		s = ofl_csum_partial(ip + 8, 32, 0);
	/* protocol and 32-bit length, as big-endian words */
	ofl_put32(tail, l4_len);
	ofl_put32(tail + 4, 6);
	return ofl_csum_partial(tail, 8, s);
}
