/* ipv6.c - IPv6 completion (ipv6_gro_complete): payload length, 0 above
 * 65535 as Linux BIG TCP writes it. */
#include "gro/layer.h"

void gro_ipv6_complete(struct gro_item *it)
{
	uint32_t pl = it->l3_len - 40u;
	ofl_put16(it->hdr + it->l3_off + 4, (uint16_t)(pl > 0xffffu ? 0 : pl));
}

/* Per segment only the payload length differs; version, traffic class,
 * flow label, next header, hop limit and addresses are compared whole
 * (ipv6.h). */
const struct gro_layer gro_layer_ipv6 = {
	.name = "ipv6",
	.plain_len = 40,
	.nholes = 1,
	.holes = {{4, 2, 0}},
	.complete = gro_ipv6_complete,
};
