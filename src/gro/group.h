/*
 * group.h - the part of stage 2 (group.c) the burst loop inlines: a frame
 * alone in its flow held as a lone record.
 */
#ifndef OFL_GRO_GROUP_H
#define OFL_GRO_GROUP_H

#include <stddef.h>

#include "gro/hold.h"

/* Frame i of the burst, pkt, alone in its group with nothing held before
 * the burst and parsed plain by gro_group() (bs->rec[i].hl set): held as
 * a lone record when it is what the fast path would hold as a new plain
 * entry (receive.c fast_path(), hold.h gro_hold_plain()) without making
 * room first, or passed on as the fast path would pass it on (PSH, ...);
 * a frame through a tunnel of the shape tunfast.c parses, the same for
 * tunnel.c's full path.
 * Returns 1 when it took the frame, 0 when the usual path decides. */
static inline int gro_lone_hold(struct ofl_gro *g, const struct ofl_pkt *pkt, unsigned i, uint64_t now)
{
	struct gro_burst *bs = g->bs;
	const struct gro_brec *r = &bs->rec[i];
	const uint8_t *p = pkt->bufs[0].data;
	struct ofl_gro_out *o;
	uint32_t total = pkt->bufs[0].len, len = r->len, k;
	if (g->held_bytes + len > g->cfg.max_held_bytes)
		return 0; /* the full path makes room first */
	if (!len || (p[r->l4 + 13] & (TCP_FIN | TCP_URG | TCP_RST | TCP_SYN | TCP_PSH))) {
		/* nothing of its flow held, and it cannot be: passed on */
		g->st.rx_pkts++;
		g->st.rx_bytes += total;
		return gro_pass_normal(g, pkt, total, len ? OFL_GRO_NORMAL_FLAGS : OFL_GRO_NORMAL_NO_PAYLOAD, now,
		                       NULL) >= 0;
	}
	if (gro_nflows(g) >= g->cfg.max_flows)
		return 0;
	k = g->nlone++;
	o = &bs->out[k];
	o->hdr = p;
	o->hdr_len = r->hl;
	o->len = total;
	o->seg_size = (uint16_t)len;
	/* l3_off and l4_off in one (through a tunnel, tunfast.c, the inner
	 * ones), and the tunnel type in flags, as fill_out() writes them */
	_Static_assert(offsetof(struct ofl_gro_out, l4_off) == offsetof(struct ofl_gro_out, l3_off) + 2 &&
	                   offsetof(struct gro_brec, l4) == offsetof(struct gro_brec, l3) + 2,
	               "l3_off, l4_off: one word");
	memcpy((uint8_t *)o + offsetof(struct ofl_gro_out, l3_off), &r->l3, 4);
	o->flags = (uint8_t)(OFL_GRO_OUT_F_CSUM_VERIFIED | pkt_out_flags(pkt) | r->tun);
	o->vlan_tci = pkt->vlan_tci;
	o->rx_hash = pkt->rx_hash;
	o->first_ns = now;
	bs->sl[k].data = p + r->hl;
	bs->sl[k].len = len;
	bs->ck[k] = pkt->cookie;
	bs->seq[k] = g->hold_seq++;
	g->held_bytes += len;
	bs->bytes += len;
	g->st.held++;
	g->st.rx_pkts++;
	g->st.rx_bytes += total;
	return 1;
}

#endif
