/* ipv6.c - the IPv6 layer: its completion (ipv6_gro_complete, the rule in
 * ipv6.h gro_ipv6_complete_hdr()). */
#include "gro/ipv6.h"
#include "gro/layer.h"

void gro_ipv6_complete(struct gro_item *it)
{
	gro_ipv6_complete_hdr(it);
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
