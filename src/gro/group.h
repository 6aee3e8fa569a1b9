/*
 * group.h - the part of stage 2 (group.c) the burst loop inlines: the
 * frames alone in their flow held as lone records.
 */
#ifndef OFL_GRO_GROUP_H
#define OFL_GRO_GROUP_H

#include <stddef.h>

#include "gro/hold.h"

/* Lone record j, written in frame j's slot, moved to slot k (k < j): its
 * output record with the slot's own slices and cookies, its slice, its
 * cookie. */
static inline void gro_lone_move(struct gro_burst *bs, uint32_t j, uint32_t k)
{
	struct ofl_gro_out o = bs->out[j];
	o.slices = o.slices == &bs->sl[j] ? &bs->sl[k] : o.slices; /* (or its own: lone_bufs.h) */
	o.cookies = &bs->ck[k];
	bs->out[k] = o;
	bs->sl[k] = bs->sl[j];
	bs->ck[k] = bs->ck[j];
}

/*
 * Frames i, i + 1, ... of a grouped burst (gro_group(), nothing held before
 * the burst), each alone in its group and parsed plain (bs->hl[] not 0,
 * the record in the frame's slot of bs->out[]): each held as a lone record
 * when it is what the fast path (receive.c fast_path(), hold.h
 * gro_hold_plain()) or udp.c would hold as a new entry without making room
 * first, or passed on as the fast path would pass it on (hl 1: a TCP
 * segment with PSH, ..., or no payload); a frame through a tunnel of the
 * shape tunfast.c parses, the same for tunnel.c's full path.  The counters
 * are added once for the run.  Returns how many frames it took; it stops
 * at the first frame that is not alone or not parsed plain (the end of the
 * burst: gro_group() marks it so), or that the usual path must see (the
 * byte bound or the flow limit reached).
 */
static inline unsigned gro_lone_run(struct ofl_gro *g, const struct ofl_pkt *pkts, unsigned i, uint64_t now)
{
	struct gro_burst *bs = g->bs;
	uint32_t k = g->nlone, k0 = k, seq0 = g->hold_seq - k0, held = g->held_bytes, max = g->cfg.max_held_bytes;
	uint32_t kmax = g->cfg.max_flows > g->tab.count ? g->cfg.max_flows - g->tab.count : 0;
	uint64_t rx = 0;
	unsigned j;
	for (j = i;; j++) {
		uint32_t len = bs->out[j].seg_size, hl = bs->hl[j];
		if (hl <= 1) {
			const struct ofl_pkt *pkt = &pkts[j];
			if (!hl || held + len > max)
				break;
			/* nothing of its flow held, and it cannot be: passed on */
			g->st.rx_pkts++;
			g->st.rx_bytes += pkt->bufs[0].len;
			gro_pass_normal(g, pkt, pkt->bufs[0].len, len ? OFL_GRO_NORMAL_FLAGS : OFL_GRO_NORMAL_NO_PAYLOAD,
			                now, NULL);
			continue;
		}
		if (held + len > max || k >= kmax)
			break; /* the full path makes room first */
		if (k != j)
			gro_lone_move(bs, j, k);
		rx += bs->out[k].len;
		bs->seq[k] = seq0 + k;
		k++;
		held += len;
	}
	g->st.rx_pkts += k - k0;
	g->st.rx_bytes += rx;
	g->st.held += k - k0;
	bs->bytes += held - g->held_bytes;
	g->held_bytes = held;
	g->hold_seq = seq0 + k;
	g->nlone = k;
	return j - i;
}

#endif
