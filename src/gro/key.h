/*
 * key.h - a flow key built in registers from a parse's fields, and the
 * flow table's view of an entry's key (for ofl_flowtab_find()); shared by
 * the full path (receive.c) and the path behind a DSA tag (dsa_receive.c).
 */
#ifndef OFL_GRO_KEY_H
#define OFL_GRO_KEY_H

#include "gro/stage.h"

#include <ofl/csum.h>

static inline const struct ofl_flow_key *gro_key_of(void *ctx, uint32_t v)
{
	return &((struct ofl_gro *)ctx)->items[v].key;
}

/* Build the flow key in registers (see flowtab.h for the packing), from
 * the parse's fields: l2vl, the L2 bits of word 1 (VLAN tags, 802.1ad);
 * vtci, the VLAN TCIs of word 2; inlined where a plain parse makes them 0. */
static inline OFL_ALWAYS_INLINE void gro_key_fields(const struct ofl_pkt *pkt, const uint8_t *mac, const uint8_t *p,
                                                   uint64_t l2vl, uint64_t vtci, unsigned l3, uint32_t l3_off,
                                                   uint32_t l4_off, uint32_t ip6_ext_len, const struct rx_tag *tag,
                                                   struct ofl_flow_key *k)
{
	const uint8_t *ip = p + l3_off;
	uint64_t l2 = l2vl, hwv = 0;
	if (pkt->flags & OFL_PKT_F_VLAN) {
		hwv = pkt->vlan_tci;
		l2 |= 1;
	}
	k->w[0] = ld64(mac);
	k->w[1] = ld32(mac + 8) | hwv << 32 | l2 << 48 | (uint64_t)l3 << 56;
	k->w[2] = vtci | (uint64_t)ld32(p + l4_off) << 32;
	k->w[8] = 0;
	if (tag && tag->has) {
		/* switch and port are part of the flow: two ports never merge */
		const struct ofl_dsa_meta *m = &tag->meta;
		uint32_t valid = m->valid & (OFL_DSA_M_PORT | OFL_DSA_M_SWITCH | OFL_DSA_M_VLAN);
		k->w[8] = 1ull << 63 | (uint64_t)valid << 40 |
		          (uint64_t)(valid & OFL_DSA_M_VLAN ? m->vlan_tci : 0) << 16 |
		          (uint64_t)(valid & OFL_DSA_M_SWITCH ? m->switch_id : 0) << 8 |
		          (valid & OFL_DSA_M_PORT ? m->port : 0);
	}
	if (l3 == 4) {
		k->w[3] = ld64(ip + 12);
		k->w[4] = k->w[5] = k->w[6] = k->w[7] = 0;
	} else {
		uint64_t ext = 0;
		k->w[3] = ld64(ip + 8);
		k->w[4] = ld64(ip + 16);
		k->w[5] = ld64(ip + 24);
		k->w[6] = ld64(ip + 32);
		if (ip6_ext_len)
			ext = (uint32_t)ip6_ext_len << 16 ^ ofl_csum_partial(ip + 40, ip6_ext_len, 0);
		k->w[7] = (ofl_get32(ip) & 0xf00fffffu) | ext << 32;
	}
}

#endif
