/*
 * newflows.c - interleaved new flows: a burst that arrives with nothing
 * held and whose frames are the segments of several flows in turn (8
 * flows round robin, a poll of 32 or 64).  Each flow's first frame is held
 * as a new flow where the weave meets it, with no flow-table lookup (no
 * flow is held but those the weave's slots name, so a frame whose ports no
 * slot has is of a new flow), and its slot set from the entry just filled
 * (no recent-flows cache, no entry checks); its next frames are the
 * weave's (weave.c).
 */
#include <stddef.h>

#include "gro/weave_hold.h"

/* The flows the weave held are out of the flow table (hold.h
 * gro_hold_plain_unidx()): when the burst goes on past the weave, put in
 * it at once (the burst loop looks flows up); else at the next call that
 * may look one up (gro_lone_settle()), or never (a full flush: timeout 0,
 * every poll).  mb: frame 0 in several buffers (the weave's copy for
 * them). */
static inline OFL_ALWAYS_INLINE unsigned new_flows(struct ofl_gro *g, const struct ofl_pkt *pkts, unsigned n,
                                                   uint64_t now, const int mb)
{
	const uint8_t *p = pkts[0].bufs->data;
	const unsigned l3 = ld16(p + 12) == ld16((const uint8_t *)"\x86\xdd") ? 6u : 4u;
	unsigned k = (mb ? gro_weave_new_bufs : gro_weave_new)(g, pkts, n, now, l3);
	g->unidx = (uint8_t)l3; /* (TCP over this L3 only: the weave's) */
	if (k < n)
		gro_unidx_settle(g);
	return k;
}

unsigned gro_new_flows(struct ofl_gro *g, const struct ofl_pkt *pkts, unsigned n, uint64_t now)
{
	return new_flows(g, pkts, n, now, 0);
}

unsigned gro_new_flows_bufs(struct ofl_gro *g, const struct ofl_pkt *pkts, unsigned n, uint64_t now)
{
	return new_flows(g, pkts, n, now, 1);
}

void gro_unidx_settle(struct ofl_gro *g)
{
	uint32_t idx, prev = GRO_NONE;
	for (idx = g->age_head; idx != GRO_NONE; prev = idx, idx = g->items[idx].next) {
		struct gro_item *it = &g->items[idx];
		const uint8_t *h = it->hdr;
		/* (the header copy has the frame's first hdr_len bytes: its
		 * key, and its slot in the cache) */
		uint32_t hash = plain_key_hash(g, h, it->hdr_len, &it->key);
		it->hash = hash;
		it->prev = prev; /* (the weave's holds leave it: weave_hold.h weave_fill()) */
		gro_unidx_enter(g, it);
		ofl_flowtab_insert(&g->tab, hash, idx);
		g->rcache[rcache_slot(h)] = rcache_val(h, idx);
	}
	g->nlone = 0;
	g->unidx = 0;
}
