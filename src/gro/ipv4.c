/* ipv4.c - the IPv4 layer: its completion (inet_gro_complete, the rule in
 * ipv4.h gro_ipv4_complete_hdr()) and the pseudo-header sum of a held
 * header. */
#include "core/csum_int.h"
#include "gro/ipv4.h"
#include "gro/layer.h"

void gro_ipv4_complete(struct gro_item *it)
{
	uint8_t *ip = it->hdr + it->l3_off;
	gro_ipv4_complete_hdr(ip, it->l3_len, ip[0] & 0xfu);
}

/* Per segment the total length, the ID (its own rule, gro_ipv4_id_nomerge())
 * and the header checksum differ; TTL, TOS, DF, protocol and addresses are
 * compared whole (ipv4.h). */
const struct gro_layer gro_layer_ipv4 = {
	.name = "ipv4",
	.plain_len = 20,
	.nholes = 2,
	.holes = {{2, 4, 0}, {10, 2, 0}},
	.complete = gro_ipv4_complete,
};

uint32_t gro_pseudo_sum(const uint8_t *hdr, unsigned l3, unsigned l3_off, uint32_t l4_len, unsigned proto)
{
	return gro_pseudo_sum_at(hdr, l3, l3_off, l4_len, proto);
}
