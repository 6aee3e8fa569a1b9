/*
 * renew.c - the flow's next entry held by a train whose entry filled up
 * (merge.c train_once()), from the frame that did not fit.
 */
#include "gro/hold.h"

/*
 * The frame a train left because its entry was full (completed for size,
 * the frame mergeable but for that), held here as the flow's new entry
 * exactly as the burst loop would hold it: its flow left the table with
 * the completed entry, so there the frame finds nothing to predict
 * against, and receive.c's fast_path() holds it (gro_hold_plain(), a
 * frame of several buffers too: the headers in the first) when it is of
 * the plain shape and may be held; a UDP datagram (udp) goes on to udp.c,
 * which holds it (gro_hold_new()'s entry: hold.h gro_udp_plain_new(),
 * gro_udp_hold_plain()).  No parse and no key built: the train checked
 * the frame against the completed entry idx's header under the mask of
 * every layer's rule, which covers what ofl_parse_plain() and plain_key()
 * read (EtherType, IP version and header length, fragment bits, protocol,
 * TCP header length, addresses, ports, IPv6 flow label) and the lengths
 * and IPv4 checksum one by one; so the parse would give the entry's
 * offsets and the frame's length, plain_key() the entry's key, and its
 * hash is the entry's (idx's memory is kept until taken again: at most
 * by the new entry itself, whose key is then copied onto itself).  What
 * the burst loop's path would check beyond that is checked here: the UDP
 * rules of a new flow, the TCP flags.  Not checked, as the train did:
 * the byte bound (the frame was within it with the completed entry's
 * bytes still held), an IPv6 frame's 74 bytes for plain_key() (TCP: at
 * least the headers; a UDP datagram under 12 bytes fills 64 of them,
 * GRO_UDP_CNT_MAX, before the smallest max_size, 1280).  Returns the new
 * entry, or GRO_NONE with nothing done (the burst loop offers the frame
 * then).  nosl (a frame of several buffers a span's run took, merge.c):
 * held with no slice written (hold.h sl1), its slices and slice count
 * the caller's (the run's slices of the frame, as the hold would cut
 * them, which the run wrote where the entry taken here has them).
 */
static inline OFL_ALWAYS_INLINE uint32_t renew(struct ofl_gro *g, uint32_t idx, const struct ofl_pkt *pkt,
                                               uint64_t now, int udp, const unsigned out,
                                               int nosl)
{
	const struct gro_item *old = &g->items[idx];
	const uint8_t *p = pkt->bufs[0].data;
	/* (out: the IP version of an entry held out of the table, its TCP
	 * header where gro_unidx_l4() says) */
	uint32_t l4 = out ? gro_unidx_l4(out) : old->l4_off, hl = udp ? l4 + 8u : old->hdr_len,
	         l3 = out ? out : old->l3;
	/* (several buffers: the IP length, which the train checked against
	 * the frame's) */
	uint32_t tot = pkt->nbufs == 1 ? pkt->bufs[0].len
	                               : (l3 == 4 ? ofl_get16(p + 16) + 14u : ofl_get16(p + 18) + 54u);
	struct ofl_hdrs h = {
		.status = udp ? OFL_PARSE_NOT_TCP : OFL_PARSE_OK,
		.l3 = (uint8_t)l3,
		.l4proto = udp ? 17 : 6,
		.l4_ok = 1,
		.l2_len = 14,
		.l3_off = 14,
		.l4_off = (uint16_t)l4,
		.hdr_len = (uint16_t)hl,
		.l3_end = tot,
		.frame_len = tot,
		.et_off = 12,
		.payload_len = tot - hl,
	};
	if (g->full_only || g->cfg.fraglist || g->lhs)
		return GRO_NONE;
	if (udp) {
		if (!gro_udp_new_ok(&g->cfg, p + l4, tot - l4))
			return GRO_NONE;
	} else if (p[l4 + 13] & TCP_NO_RUN) {
		return GRO_NONE;
	}
	g->st.rx_pkts++;
	g->st.rx_bytes += tot;
	if (udp) {
		if (!nosl)
			gro_udp_hold_plain(g, pkt, p, &h, &old->key, old->hash, now);
		else /* (as TCP's below: no slice written, hold.h sl1) */
			hold_plain_l4(g, pkt, p, &h, &old->key, old->hash, now, 1, 1);
	} else {
		/* (nosl: its slices the run's, written already) */
		if (out) /* (no key or hash: the train after burst_first.c gro_first_hold*()) */
			return gro_hold_plain_out(g, pkt, p, l3, hl - l4, tot, now, nosl);
		gro_hold_plain(g, pkt, p, &h, &old->key, old->hash, now, nosl);
	}
	return g->last;
}

uint32_t gro_train_renew(struct ofl_gro *g, uint32_t idx, const struct ofl_pkt *pkt, uint64_t now, int nosl)
{
	return renew(g, idx, pkt, now, 0, 0, nosl);
}

uint32_t gro_train_renew_udp(struct ofl_gro *g, uint32_t idx, const struct ofl_pkt *pkt, uint64_t now)
{
	return renew(g, idx, pkt, now, 1, 0, 0);
}

uint32_t gro_train_renew_udp_bufs(struct ofl_gro *g, uint32_t idx, const struct ofl_pkt *pkt, uint64_t now)
{
	return renew(g, idx, pkt, now, 1, 0, 1);
}

uint32_t gro_train_renew_out(struct ofl_gro *g, uint32_t idx, const struct ofl_pkt *pkt, uint64_t now, unsigned l3)
{
	return l3 == 4 ? renew(g, idx, pkt, now, 0, 4, 0) : renew(g, idx, pkt, now, 0, 6, 0);
}

uint32_t gro_train_renew_out_bufs(struct ofl_gro *g, uint32_t idx, const struct ofl_pkt *pkt, uint64_t now,
                                  unsigned l3, int nosl)
{
	if (nosl)
		return l3 == 4 ? renew(g, idx, pkt, now, 0, 4, 1) : renew(g, idx, pkt, now, 0, 6, 1);
	return l3 == 4 ? renew(g, idx, pkt, now, 0, 4, 0) : renew(g, idx, pkt, now, 0, 6, 0);
}
