/*
 * burst.c - the entry points for received frames: ofl_gro_receive() (a burst
 * of one) and ofl_gro_receive_burst(), whose loop predicts each frame against
 * the last or the cached entry and hands runs to the train.
 */
#include "gro/group.h"
#include "gro/predict.h"

static inline int check_args(struct ofl_gro *g, const struct ofl_pkt *pkt)
{
	unsigned b;
	if (pkt && pkt->nbufs == 1 && pkt->bufs && (pkt->bufs[0].data || !pkt->bufs[0].len) && !g->in_cb)
		return 0; /* the common case */
	if (!pkt || !pkt->bufs || pkt->nbufs == 0)
		return OFL_EINVAL;
	if (g->in_cb)
		return OFL_ESTATE;
	if (pkt->nbufs > g->cfg.max_bufs)
		return OFL_E2BIG;
	for (b = 0; b < pkt->nbufs; b++)
		if (!pkt->bufs[b].data && pkt->bufs[b].len)
			return OFL_EINVAL;
	return 0;
}

/* Does the frame carry the entry's TCP ports where a plain header has them
 * (a hint: a train of one frame costs more than it saves)? */
static inline int same_ports(const struct gro_item *it, const struct ofl_pkt *pkt)
{
	return pkt->nbufs && pkt->bufs && pkt->bufs[0].data &&
	       same_ports_at(it, pkt->bufs[0].data, pkt->bufs[0].len);
}

/* Header prediction of a frame (headers in its first buffer, checksum
 * verified, no hardware VLAN, at least 54 bytes there) against entry idx,
 * the ports first: another flow fails there, cheaply. */
static inline int try_predict(struct ofl_gro *g, uint32_t idx, const struct ofl_pkt *pkt, const uint8_t *p,
                              uint32_t len)
{
	const struct gro_item *it = &g->items[idx];
	return it->state == GRO_HELD && it->fast && pkt->bufs[0].len >= it->hdr_len + tag_pre(it) &&
	       len <= 0xffffu && same_ports_at(it, p, pkt->bufs[0].len) && predict(g, idx, pkt, p, len);
}

/* Where a plain frame has its TCP ports (0: too short to tell). */
static inline uint32_t port_word(const struct ofl_pkt *pkt)
{
	const struct ofl_buf *b = pkt->bufs;
	uint32_t o;
	if (!b || !pkt->nbufs || !b->data || b->len < 58)
		return 0;
	o = ld16(b->data + 12) == ld16((const uint8_t *)"\x86\xdd") ? 54u : 34u;
	return ld32(b->data + o);
}

/* Worth grouping (stage 2)?  Not when the first frame's flow comes again
 * among the next 15 (one flow's train, or a few interleaved flows: none
 * alone); a hint only, the grouping decides. */
static inline int worth_grouping(const struct ofl_pkt *pkts, unsigned n)
{
	uint32_t w = port_word(&pkts[0]);
	unsigned j, m = n < 16 ? n : 16;
	for (j = 1; j < m; j++)
		if (port_word(&pkts[j]) == w)
			return 0;
	return 1;
}

int ofl_gro_receive(struct ofl_gro *g, const struct ofl_pkt *pkt, uint64_t now)
{
	int err;
	if (!g)
		return OFL_EINVAL;
	err = check_args(g, pkt);
	if (err) {
		g->st.api_errors++;
		return err;
	}
	if (g->nlone)
		gro_lone_settle(g);
	return gro_receive(g, pkt, now, 0);
}

unsigned ofl_gro_receive_burst(struct ofl_gro *g, const struct ofl_pkt *pkts, unsigned n,
                               uint64_t now, int *err)
{
	unsigned i;
	int e = 0, grouped = 0;
	if (!g || (!pkts && n) || (g->in_cb && n)) {
		e = !g || !pkts ? OFL_EINVAL : OFL_ESTATE;
		if (g)
			g->st.api_errors++;
		n = 0;
	}
	if (n && g->nlone)
		gro_lone_settle(g);
	/* stage 2, when nothing is held (timeout 0): the burst grouped by
	 * flow, unless the first frame's flow comes again at once */
	if (g && g->bs && n >= 2 && n <= GRO_BURST_MAX && g->age_head == GRO_NONE && worth_grouping(pkts, n))
		grouped = gro_group(g, pkts, n);
	for (i = 0; i < n; i++) {
		const struct ofl_pkt *pkt = &pkts[i];
		int r, tried = 0;
		if (grouped) {
			/* alone in its flow and parsed plain (its arguments are
			 * good then): a lone record, or passed on */
			if (g->bs->lone[i] && g->bs->rec[i].hl && gro_lone_hold(g, pkt, i, now))
				continue;
			goto checked; /* gro_group() prefetched the headers */
		}
#if defined(__GNUC__)
		/* the first touch of a received header is a cache miss: start it
		 * a few packets ahead, as poll-mode drivers do */
		if (i + GRO_AHEAD < n && pkts[i + GRO_AHEAD].nbufs && pkts[i + GRO_AHEAD].bufs &&
		    pkts[i + GRO_AHEAD].bufs[0].data) {
			/* (an empty first buffer may be NULL: no d + 64 then) */
			const uint8_t *d = pkts[i + GRO_AHEAD].bufs[0].data;
			__builtin_prefetch(d);
			__builtin_prefetch(d + 64);
		}
#endif
checked:
		r = check_args(g, pkt);
		if (r) {
			g->st.api_errors++;
			e = r;
			break;
		}
		/* the next segment of a train: header prediction against the
		 * last entry, or against the entry the recent-flows cache names
		 * for the frame's addresses and ports, then the train loop */
		if (g->tab.count && pkt->csum_status == OFL_CSUM_UNNECESSARY && !(pkt->flags & OFL_PKT_F_VLAN) &&
		    pkt->bufs[0].len >= 54) {
			const uint8_t *p = pkt->bufs[0].data;
			uint32_t len = pkt->nbufs == 1 ? pkt->bufs[0].len : ofl_pkt_len(pkt->bufs, pkt->nbufs);
			uint32_t idx = g->last, again;
			uint64_t hint;
			if (idx != GRO_NONE && try_predict(g, idx, pkt, p, len))
				goto merged;
			hint = g->rcache[rcache_slot(p)];
			again = (uint32_t)hint;
			if ((uint32_t)(hint >> 32) == ld32(p + 34) && again != idx && again != GRO_NONE &&
			    try_predict(g, again, pkt, p, len)) {
				idx = again;
				goto merged;
			}
			tried = idx != GRO_NONE;
			goto slow;
merged:
			/* a train when the next frame looks like the same flow
			 * (and the entry did not just complete) */
			if (g->last == idx && i + 1 < n && same_ports(&g->items[idx], &pkts[i + 1]))
				i += gro_train(g, idx, pkts, i + 1, n);
			continue;
		}
slow:
		gro_receive(g, pkt, now, tried);
	}
	if (err)
		*err = e;
	return i;
}
