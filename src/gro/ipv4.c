/* ipv4.c - IPv4 completion (inet_gro_complete): total length (0 above
 * 65535, as Linux BIG TCP writes it) and the header checksum. */
#include "core/csum_int.h"
#include "gro/layer.h"

void gro_ipv4_complete(struct gro_item *it)
{
	uint8_t *ip = it->hdr + it->l3_off;
	uint16_t c;
	ofl_put16(ip + 2, (uint16_t)(it->l3_len > 0xffffu ? 0 : it->l3_len));
	ip[10] = ip[11] = 0;
	c = (uint16_t)~ofl_csum_words_fold(ip, (ip[0] & 0xfu));
	memcpy(ip + 10, &c, 2);
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
	uint8_t tail[8];
	const uint8_t *ip = hdr + l3_off;
	uint32_t w[8];
	uint64_t s;
	unsigned i;
	/* protocol and 32-bit length, as big-endian words */
	ofl_put32(tail, l4_len);
	ofl_put32(tail + 4, proto);
	memcpy(w, tail, 8);
	s = (uint64_t)w[0] + w[1];
	/* the addresses, 32-bit words in memory order */
	if (l3 == 4) {
		memcpy(w, ip + 12, 8);
		s += (uint64_t)w[0] + w[1];
	} else {
		memcpy(w, ip + 8, 32);
		for (i = 0; i < 8; i++)
			s += w[i];
	}
	s = (s & 0xffffffffu) + (s >> 32);
	s = (s & 0xffffffffu) + (s >> 32);
	return (uint32_t)s;
}
