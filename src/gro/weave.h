/*
 * weave.h - what weave.c's weave and newflows.c share: a flow's slot in
 * the weave's table (struct wflow) and how a held entry takes one.
 */
#ifndef OFL_GRO_WEAVE_H
#define OFL_GRO_WEAVE_H

#include <stddef.h>
#include <string.h>

#include "gro/run.h"

/* (struct wflow, a flow's slot: gro_int.h) */

/* gro_pkt_plain_meta() of a frame the weave checks, the burst's usual
 * packet words first, each compared whole with the word in memory (one
 * compare, no load into a register, no mask): no flags, or the RX hash
 * flag alone; any other word masked.  The same answer either way. */
#define WEAVE_PKT_HASH gro_pkt_word_of(1, OFL_CSUM_UNNECESSARY, OFL_PKT_F_HASH)
static inline OFL_ALWAYS_INLINE int weave_pkt_ok(const struct ofl_pkt *a)
{
	if (OFL_LIKELY(gro_pkt_word(a) == GRO_PKT_PLAIN_WANT))
		return 1;
	{
		/* (the masked test through an opaque copy of the pointer:
		 * else GCC loads the word once for both, into a register,
		 * and the first test is a load and two instructions) */
		const struct ofl_pkt *a2 = a;
#if defined(__GNUC__)
		__asm__("" : "+r"(a2));
#endif
		return gro_pkt_word(a2) == WEAVE_PKT_HASH || gro_pkt_plain_meta(a2);
	}
}

/* The checks a frame in one buffer passes before the weave reads it: its
 * packet word (weave_pkt_ok()), its buffer and data, room for the headers
 * to l4c and a TCP header there.  (weave.c WEAVE_OK writes the same checks
 * out, with the several-buffer form beside them.) */
static inline OFL_ALWAYS_INLINE int weave_ok(const struct ofl_pkt *a, uint32_t l4c)
{
	return weave_pkt_ok(a) && a->bufs && a->bufs->data && a->bufs->len >= l4c + 20u;
}

/* The frames the weave may take for an entry of nsegs segments, nslices
 * slices, l3_len IP bytes and segment size mss (not 0): the segment,
 * slice and size limits. */
static inline OFL_ALWAYS_INLINE uint32_t weave_limit(const struct ofl_gro *g, uint32_t nsegs, uint32_t nslices,
                                                     uint32_t l3_len, uint32_t mss)
{
	uint32_t n = min32(sat_sub(g->cfg.max_segs, nsegs), sat_sub(g->max_slices - 1u, nslices));
	return min32(n, sat_sub(g->cfg.max_size, l3_len) / mss);
}

/* The frames the weave may take for entry it (plain TCP, its header the
 * expected one: weave_slot.h weave_entry()), and, IPv4, *e the next
 * ID-to-checksum word and *estep its step: weave_limit() and, IPv4, the ID
 * or checksum wrap. */
static inline OFL_ALWAYS_INLINE uint32_t weave_left(const struct ofl_gro *g, const struct gro_item *it, uint64_t *e,
                                                    uint64_t *estep, const int v4)
{
	const uint8_t *h0 = it->hdr;
	uint32_t n = weave_limit(g, it->nsegs, it->nslices, it->l3_len, it->seg_size), steps = UINT32_MAX;
	if (v4)
		*e = run_word(h0, fold32(ip4_rest_sum(h0)), (uint16_t)(it->id0 + (it->fixedid ? 0u : it->nsegs)),
		              it->fixedid, estep, &steps);
	else
		*e = *estep = 0;
	return min32(n, steps);
}

/* Slot w takes entry it, whose frames have TCP ports ports: nsegs
 * segments held, its next slice s and cookie c, segment size mss, header
 * length hl, next sequence number seq (the entry's own fields, or what
 * was just written there); w->e, w->estep and w->left set by the
 * caller.  hold1: a new flow's slot, one buffer (weave_hold.h
 * weave_fill()): c not written here (the caller writes w->c where it has
 * c, which else stayed live across the stores below and was spilled),
 * and the slice word as two 4-byte stores (mss from its register, nsegs
 * a constant) instead of mss copied and a bit set in the copy. */
static inline OFL_ALWAYS_INLINE void weave_slot_at_h(struct wflow *w, struct gro_item *it, struct ofl_slice *s,
                                                     void **c, uint32_t ports, uint32_t nsegs, uint32_t mss,
                                                     uint32_t hl, uint32_t seq, const int hold1)
{
	if (hold1) {
		const uint16_t pb[2] = {(uint16_t)nsegs, 0};
		memcpy((uint8_t *)&w->lw, &mss, 4);
		memcpy((uint8_t *)&w->lw + 4, pb, 4);
	} else {
		struct ofl_slice ls = {NULL, mss, (uint16_t)nsegs, 0};
		memcpy(&w->lw, (const uint8_t *)&ls + SL_LEN, 8);
		w->c = c;
	}
	w->it = it;
	w->s = s;
	w->seq = seq;
	w->mss = mss;
	w->ports = ports;
	{
		/* (full and hl stored apart from ports: not joined into a
		 * vector store, which took more instructions) */
		struct wflow *w2 = w;
#if defined(__GNUC__) && !defined(__clang__)
		__asm__("" : "+r"(w2));
#endif
		w2->full = hl + mss;
		w2->hl = hl;
		w2->n = 0; /* (xs: set before the leave reads it, weave.c) */
	}
}
static inline OFL_ALWAYS_INLINE void weave_slot_at(struct wflow *w, struct gro_item *it, struct ofl_slice *s,
                                                   void **c, uint32_t ports, uint32_t nsegs, uint32_t mss,
                                                   uint32_t hl, uint32_t seq)
{
	weave_slot_at_h(w, it, s, c, ports, nsegs, mss, hl, seq, 0);
}

/* ... entry idx, nslices slices held. */
static inline OFL_ALWAYS_INLINE void weave_slot_set(struct ofl_gro *g, struct wflow *w, uint32_t idx, uint32_t ports,
                                                    uint32_t nsegs, uint32_t nslices, uint32_t mss, uint32_t hl,
                                                    uint32_t seq)
{
	weave_slot_at(w, &g->items[idx], gro_slices(g, idx) + nslices, gro_cookies(g, idx) + nsegs, ports, nsegs, mss,
	              hl, seq);
}

/* Frames in several buffers: slot w's next slice (the entry's next), the
 * end of the slices its flow may write (the entry's room less one: a
 * frame's count of slices and one more, as predict_bufs() bounds it) and
 * its next frame's pkt/buf word (segment nsegs, buffer 0). */
static inline void weave_sroom(const struct ofl_gro *g, struct wflow *w)
{
	const uint16_t pb[2] = {w->it->nsegs, 0};
	memcpy(&w->pb, pb, 4);
	w->sp = w->s;
	w->send = w->s + sat_sub(g->max_slices - 1u, w->it->nslices);
}

/* The length of a frame in several buffers (pkt->nbufs > 1) whose
 * arguments check_args() takes and whose headers receive.c's fast path
 * would look at: checksum verified, no hardware VLAN, at most max_bufs
 * buffers, the first with its data and 54 bytes or more, every later one
 * with its data or empty, the whole at most 0xffff bytes; else 0. */
static inline uint32_t bufs_total(const struct ofl_gro *g, const struct ofl_pkt *pkt)
{
	const struct ofl_buf *b = pkt->bufs;
	uint32_t k, nb = pkt->nbufs;
	uint64_t t;
	if ((gro_pkt_word(pkt) & gro_pkt_word_of(0, 0xff, OFL_PKT_F_VLAN)) != gro_pkt_word_of(0, OFL_CSUM_UNNECESSARY, 0) ||
	    nb > g->cfg.max_bufs || !b || !b->data || b->len < 54)
		return 0;
	t = b->len;
	for (k = 1; k < nb; k++) {
		if (b[k].len && !b[k].data)
			return 0;
		t += b[k].len;
	}
	return t <= 0xffffu ? (uint32_t)t : 0;
}

/* weave.c: the weave from frame 0 of a burst that arrived with nothing
 * held (no entry, no lone record): a frame of a flow no slot has is a new
 * flow, held there (weave_hold.h weave_hold()); the frames of the flows held
 * so are taken as gro_weave() takes them.  Returns how many frames it
 * took. */
unsigned gro_weave_new(struct ofl_gro *g, const struct ofl_pkt *pkts, unsigned n, uint64_t now, unsigned l3);
/* ... frame 0 in several buffers (the weave's copy for them). */
unsigned gro_weave_new_bufs(struct ofl_gro *g, const struct ofl_pkt *pkts, unsigned n, uint64_t now, unsigned l3);

/* newflows.c, for the burst loop (burst.c): a burst whose first frame is
 * plain TCP with payload, nothing held, not grouped, and whose second
 * frame is another flow's (interleaved flows, not a train): its new flows
 * held and their frames taken by gro_weave_new(); returns the frame the
 * burst loop goes on from (0: none taken, the loop decides). */
unsigned gro_new_flows(struct ofl_gro *g, const struct ofl_pkt *pkts, unsigned n, uint64_t now);
/* ... a first frame in several buffers (bufs_total() not 0; the weave's
 * copy for them, gro_weave_new_bufs(), new flows held by weave_hold.h
 * weave_hold() inline there too). */
unsigned gro_new_flows_bufs(struct ofl_gro *g, const struct ofl_pkt *pkts, unsigned n, uint64_t now);

#endif
