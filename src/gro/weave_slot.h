/*
 * weave_slot.h - a flow's slot in the weave's table (weave.c): the checks
 * that let a held flow join it (weave_entry(), weave_join()), finding a
 * slot by its ports (weave_slot(), weave_slot_is()), the frames it took
 * written into its entry when it leaves (weave_leave_as()), and the
 * weave's end (weave_last(), weave_done()).
 */
#ifndef OFL_GRO_WEAVE_SLOT_H
#define OFL_GRO_WEAVE_SLOT_H

#include "gro/udp.h"
#include "gro/weave.h"

/* Whether the weave can take the frames of entry it whose ports word is
 * ports (the checks of predict_l4() the compare does not make, as the
 * run's set-up makes them): 1, with *left the frames it may take and,
 * IPv4, *e and *estep (weave_left()); else 0.  udp: a UDP flow's
 * (GRO_FAST_UDP of the plain stack, its held UDP length a full datagram's,
 * a full frame at least as long as the compare; the UDP size bound, and
 * the frames before the one that would reach the UDP count bound: udp.h
 * gro_udp_merged()). */
static inline OFL_ALWAYS_INLINE int weave_entry(const struct ofl_gro *g, const struct gro_item *it, uint32_t ports,
                                                uint32_t *left, uint64_t *e, uint64_t *estep, const int v4,
                                                const int udp)
{
	const uint8_t *h0 = it->hdr;
	const uint32_t l4c = v4 ? 34u : 54u;
	uint32_t hl = it->hdr_len, mss = it->seg_size;
	if (it->state != GRO_HELD || it->fast != (udp ? GRO_FAST_UDP : GRO_FAST_PLAIN) || it->rawpre_len ||
	    it->l3 != (v4 ? 4 : 6) || it->l4_off != l4c || ld32(h0 + l4c) != ports || !mss || hl + mss > 0xffffu ||
	    ofl_get16(h0 + (v4 ? 16 : 18)) + (v4 ? 14u : 54u) != hl + mss ||
	    (udp ? it->stack != (v4 ? GRO_STACK_UDP4 : GRO_STACK_UDP6) || ofl_get16(h0 + l4c + 4) != 8u + mss ||
	               hl + mss < pred_cmp_len(hl)
	         : (h0[l4c + 13] & TCP_NO_RUN) != 0))
		return 0;
	*left = weave_left(g, it, e, estep, v4);
	if (udp)
		*left = min32(*left, min32(sat_sub(gro_udp_max_l3(g), it->l3_len) / mss,
		                           sat_sub(GRO_UDP_CNT_MAX - 1u, it->nsegs)));
	return 1;
}

/* A pointer GCC cannot see the field of: the stores through it not
 * joined with its neighbours' into vector ones (GCC's basic-block
 * vectorizer built the vectors with more instructions than it saved). */
#if defined(__GNUC__) && !defined(__clang__)
#define WEAVE_APART(p) __asm__("" : "+r"(p))
#else
#define WEAVE_APART(p) ((void)0)
#endif

/* Flow w's frames written into its entry (as predict_take_l4() and
 * merge_tail() count them), and counted in *bytes (frame bytes) and *held
 * (payload); its slot free.  mb: frames in several buffers (w->xs, else
 * 0). */
static inline OFL_ALWAYS_INLINE void weave_leave_as(struct wflow *w, uint64_t *bytes, uint32_t *held, const int mb)
{
	struct gro_item *it = w->it;
	if (mb) {
		/* (as it was: the loop of several buffers got more
		 * instructions a frame with the form below) */
		uint32_t add = w->n * w->mss;
		it->nsegs = (uint16_t)(it->nsegs + w->n);
		it->nslices = (uint16_t)(it->nslices + w->n + w->xs);
		it->payload += add;
		it->l3_len += add;
		it->next_seq = w->seq;
		*bytes += (uint64_t)w->n * w->full;
		*held += add;
	} else {
		/* the slot's fields read before the entry is written (else
		 * read again after each store: they might alias) */
		const uint32_t n = w->n, full = w->full, seq = w->seq, add = n * w->mss;
		struct gro_item *it2 = it; /* (the same: WEAVE_APART()) */
		WEAVE_APART(it2);
		it->nsegs = (uint16_t)(it->nsegs + n);
		it2->nslices = (uint16_t)(it2->nslices + n);
		it->payload += add;
		it2->l3_len += add;
		it->next_seq = seq;
		*bytes += (uint64_t)n * full;
		*held += add;
	}
	w->full = 0;
}

/* The flow of frame d (ports its ports word, its EtherType not checked)
 * into slot w, whose flow leaves first: the entry the recent-flows cache
 * names, if the weave can take its frames (weave_entry()); 0 if not. */
static inline OFL_ALWAYS_INLINE int weave_join(struct ofl_gro *g, struct wflow *w, const uint8_t *d, uint32_t ports,
                                               uint64_t *bytes, uint32_t *held, const int v4, const int udp)
{
	struct gro_item *it;
	uint64_t hint;
	uint32_t idx, left;
	if (w->full)
		weave_leave_as(w, bytes, held, 1);
	/* (the EtherType first: rcache_ports() reads where it says) */
	if (ld16(d + 12) != ld16((const uint8_t *)(v4 ? "\x08\x00" : "\x86\xdd")))
		return 0;
	hint = g->rcache[rcache_slot(d)];
	idx = (uint32_t)hint;
	if ((uint32_t)(hint >> 32) != ports || idx == GRO_NONE)
		return 0;
	it = &g->items[idx];
	if (!weave_entry(g, it, ports, &left, &w->e, &w->estep, v4, udp))
		return 0;
	weave_slot_set(g, w, idx, ports, it->nsegs, it->nslices, it->seg_size, it->hdr_len, it->next_seq);
	w->left = left;
	return 1;
}

/* Out of line: the loop keeps its registers. */
static OFL_NOINLINE int weave_join_v4(struct ofl_gro *g, struct wflow *w, const uint8_t *d, uint32_t ports,
                                      uint64_t *bytes, uint32_t *held, int udp)
{
	return udp ? weave_join(g, w, d, ports, bytes, held, 1, 1) : weave_join(g, w, d, ports, bytes, held, 1, 0);
}
static OFL_NOINLINE int weave_join_v6(struct ofl_gro *g, struct wflow *w, const uint8_t *d, uint32_t ports,
                                      uint64_t *bytes, uint32_t *held, int udp)
{
	return udp ? weave_join(g, w, d, ports, bytes, held, 0, 1) : weave_join(g, w, d, ports, bytes, held, 0, 0);
}

/* Is slot w's flow that of a frame with TCP ports ports and length tot
 * (its ports and full length, one compare of the two words)? */
static inline OFL_ALWAYS_INLINE int weave_slot_is(const struct wflow *w, uint32_t ports, uint32_t tot)
{
	const uint32_t pf[2] = {ports, tot};
	uint64_t a, b;
	memcpy(&a, &w->ports, 8);
	memcpy(&b, pf, 8);
	return a == b;
}

/* Frames in several buffers: the slices flow w wrote beyond one a frame
 * (its slot's slice pointer), for weave_leave_as(). */
static inline void weave_xs(struct wflow *w)
{
	w->xs = (uint32_t)(w->sp - w->s) - w->n;
}

/* Slot of the flow whose TCP ports are ports. */
static inline OFL_ALWAYS_INLINE struct wflow *weave_slot(struct wflow *wf, uint32_t ports)
{
	return &wf[gro_hash_bits(ports, WEAVE_BITS)];
}

/* The entry of the last frame the weave took (frames [q0, q), the loop
 * stopped at q; NULL: none): its slot's, unless the frame at q joined
 * that slot (fixq is q, fixw the slot: fixit the entry it had). */
static inline OFL_ALWAYS_INLINE const struct gro_item *weave_last(struct wflow *wf, const struct ofl_pkt *q0,
                                                                  const struct ofl_pkt *q, const struct ofl_pkt *fixq,
                                                                  const struct wflow *fixw,
                                                                  const struct gro_item *fixit, uint32_t l4c)
{
	const struct wflow *w;
	if (q == q0)
		return NULL;
	w = weave_slot(wf, ld32(q[-1].bufs->data + l4c));
	return fixq == q && fixw == w ? fixit : w->it;
}

/* The end of a weave that took k frames (nh of them held as new flows):
 * every slot's flow leaves, the context's counters and last entry. */
static inline unsigned weave_done(struct ofl_gro *g, struct wflow *wf, uint64_t bytes, uint32_t held,
                                  const struct gro_item *lastit, unsigned k, unsigned nh, uint32_t head0, const int mb)
{
	unsigned j;
#if defined(__GNUC__)
#pragma GCC unroll 16
#endif
	for (j = 0; j < WEAVE_SLOTS; j++)
		if (wf[j].full) {
			if (mb)
				weave_xs(&wf[j]);
			weave_leave_as(&wf[j], &bytes, &held, mb);
		}
	if (nh) {
		/* (weave_hold.h weave_fill(): held from head0 on, the list
		 * empty before; prev: newflows.c gro_unidx_settle()) */
		g->items[g->age_tail].next = GRO_NONE;
		g->age_head = head0;
		g->nlone += nh;
	}
	g->held_bytes += held;
	if (lastit)
		g->last = (uint32_t)(lastit - g->items);
	g->st.rx_pkts += k; /* (a hold counted its bytes, not its frame) */
	g->st.held += nh;
	g->st.rx_bytes += bytes;
	g->st.merged += k - nh;
	g->st.merged_fast += k - nh;
	return k;
}

#endif
