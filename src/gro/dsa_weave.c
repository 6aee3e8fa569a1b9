/*
 * dsa_weave.c - interleaved new flows behind a DSA tag (untagged mode,
 * timeout 0): the fresh weave of a burst that arrives with nothing held,
 * whose first frame's flow comes again later but not next (dsa_group.c
 * gro_tag_group() calls it where the burst is not grouped).
 *
 * From frame 0 on, a frame whose flow no slot has is a new flow, held as
 * the one-frame path holds it (dsa_receive.c gro_tag_hold(): its tag decoded,
 * gro_tag_new_flow()) and its entry given a slot of the weave's table
 * (struct wflow, weave.h; found by the untagged frame's TCP ports) when
 * it is predicted behind its tag (hold.c hold_tag_pred()) with the tag
 * length of the burst's first frame.  A frame of a flow a slot has is
 * taken as weave.c takes an untagged one and dsa_run.c a tagged run: its
 * bytes up to the untagged EtherType (same tag, same port) and the
 * untagged header, under the run's mask, one compare against the slot's
 * expected frame (dsa_run.h: the held header is a full segment's, with no
 * flag that ends a train), its tail tag one word, the sequence number and
 * the IPv4
 * ID-to-checksum word each one compare, within the entry's bounds counted
 * when it joined (weave.h weave_left()) and the held bytes (the context's,
 * written a frame at a time: a later hold sees them).  Such a merge
 * completes and emits nothing, so it is what header prediction does frame
 * by frame.  The weave stops, untouched, at the first frame that is
 * anything else (another flow in a taken slot, a frame that fails a check,
 * a new flow the one-frame path would not hold at once, or at the flow
 * limit); the burst loop takes the rest.
 */
#include <string.h>

#include "gro/dsa_run.h"
#include "gro/weave.h"

/* Slot w (free) takes entry idx, just held from a frame with TCP ports
 * ports behind a tag of pre bytes beyond the MACs and a tail tag of tl:
 * 1 when its frames can be woven (the checks weave_slot.h weave_entry() makes
 * for an untagged entry, and its tag predicted with those lengths), its
 * expected frame in t (the held header is that of a full segment; under
 * the run's mask rm, its IP version's); else 0. */
static inline OFL_ALWAYS_INLINE int tag_join(struct ofl_gro *g, struct wflow *w, struct tag_hdr *t, uint32_t idx,
                                             uint32_t ports, uint32_t pre, uint32_t tl, uint8_t (*rm)[GRO_PRED_MAX])
{
	const struct gro_item *it = &g->items[idx];
	const int v4 = it->l3 == 4;
	const uint32_t l4c = v4 ? 34u : 54u, hl = it->hdr_len, mss = it->seg_size;
	uint32_t left;
	if (it->state != GRO_HELD || it->fast != GRO_FAST_PLAIN || !it->rawpre_len || tag_pre(it) != pre ||
	    it->rawtail_len != tl || it->l4_off != l4c || !mss || pre + hl > GRO_PRED_MAX ||
	    hl + pre + tl + mss > 0xffffu || ofl_get16(it->hdr + (v4 ? 16 : 18)) + (v4 ? 14u : 54u) != hl + mss ||
	    (it->hdr[l4c + 13] & TCP_NO_RUN))
		return 0;
	tag_expect(t, it->hdr, rm[!v4], &g->cold[idx], pre + 12u, hl, tl);
	left = v4 ? weave_left(g, it, &w->e, &w->estep, 1) : weave_left(g, it, &w->e, &w->estep, 0);
	weave_slot_set(g, w, idx, ports, it->nsegs, it->nslices, mss, hl, it->next_seq);
	w->full = hl + mss + pre + it->rawtail_len; /* the tagged frame's length */
	w->left = left;
	return 1;
}

/* Slot w's frames written into its entry (run.h run_account()); its slot
 * free. */
static inline void tag_leave(struct ofl_gro *g, struct wflow *w)
{
	run_account(g, w->it, w->n, w->mss, w->full, w->seq, w->it->nsegs, w->it->nslices);
	w->full = 0;
}

/* The weave of pkts[0, n) (the caller's tests: nothing held, untagged
 * mode); returns how many frames it took. */
static inline OFL_ALWAYS_INLINE unsigned tag_weave(struct ofl_gro *g, const struct ofl_pkt *pkts, unsigned n,
                                                   uint64_t now, const int avx2)
{
	struct wflow *wf = g->weave, *w;
	_Alignas(32) uint8_t rm[2][GRO_PRED_MAX]; /* the run's mask, IPv4 and IPv6 (struct run) */
	struct tag_hdr th[WEAVE_SLOTS];            /* each slot's expected frame */
	const struct ofl_pkt *q = pkts, *qend = pkts + n, *pfend = n > GRO_AHEAD ? pkts + (n - GRO_AHEAD) : pkts;
	const struct gro_item *lastit; /* the entry of the last frame taken */
	uint64_t lstep;
	uint32_t pre, tl, j;
	if (gro_tag_hold(g, q, now) != OFL_GRO_HELD)
		return 0;
	lastit = &g->items[g->last];
	pre = tag_pre(lastit);
	tl = lastit->rawtail_len;
	if (!lastit->rawpre_len)
		return 1;
	lstep = sl_word(0, 1, 0);
	for (j = 0; j < 2; j++) {
		memcpy(rm[j], g->pmask[j], GRO_PRED_MAX);
		run_mask_fix(rm[j], j ? 54u : 34u, !j, 0);
	}
	{
		const uint32_t ports = ld32(q->bufs->data + pre + lastit->l4_off);
		j = gro_hash_bits(ports, WEAVE_BITS);
		w = &wf[j];
		if (!tag_join(g, w, &th[j], g->last, ports, pre, tl, rm))
			return 1;
	}
	for (q++; q < qend; q++) {
		const uint8_t *d, *u;
		uint32_t tot, ports, l4c, nn;
		int v6;
		if (q < pfend && q[GRO_AHEAD].nbufs && q[GRO_AHEAD].bufs) {
#if defined(__GNUC__)
			__builtin_prefetch(q[GRO_AHEAD].bufs->data);
#endif
		}
		if (!gro_pkt_plain_meta(q) || !q->bufs || !(d = q->bufs->data) || (tot = q->bufs->len) < pre + 58u ||
		    tot > 0xffffu)
			break;
		u = d + pre; /* the untagged frame from its EtherType on */
		v6 = ld16(u + 12) == ld16((const uint8_t *)"\x86\xdd");
		l4c = v6 ? 54u : 34u;
		ports = ld32(u + l4c);
		j = gro_hash_bits(ports, WEAVE_BITS);
		w = &wf[j];
		if (w->ports != ports || w->full != tot) {
			/* a new flow (its slot free: no flow of the weave's
			 * has its ports, and nothing else is held), held as
			 * the one-frame path holds it, then its slot set; not
			 * at the flow limit (the hold would complete the
			 * oldest entry, a slot's, its frames not written) */
			if (w->full || gro_nflows(g) >= g->cfg.max_flows || gro_tag_hold(g, q, now) != OFL_GRO_HELD)
				break;
			lastit = &g->items[g->last];
			if (!tag_join(g, w, &th[j], g->last, ports, pre, tl, rm)) {
				q++;
				break;
			}
			continue;
		}
		nn = w->n;
		{
			const struct gro_item *it = w->it;
			if (nn == w->left || g->held_bytes + w->mss > g->cfg.max_held_bytes ||
			    train_cmp(d, th[j].tp, th[j].mk, 0, pre + w->hl, avx2) || ofl_get32(u + l4c + 4) != w->seq ||
			    (!v6 && get64(u + 18) != w->e) ||
			    (tl && tag_tail_differs(d, &th[j], tot, g->cold[it - g->items].rawtail, tl)))
				break;
			lastit = it;
		}
		{
			struct ofl_slice *s = w->s + nn;
			uint64_t lw = w->lw + nn * lstep;
			s->data = u + w->hl;
			memcpy((uint8_t *)s + SL_LEN, &lw, 8);
		}
		w->c[nn] = q->cookie;
		w->n = nn + 1;
		w->seq += w->mss;
		w->e += w->estep; /* (IPv6: 0) */
		g->held_bytes += w->mss;
	}
	for (j = 0; j < WEAVE_SLOTS; j++)
		if (wf[j].full) {
			g->held_bytes -= wf[j].n * wf[j].mss; /* (run_account() adds them) */
			tag_leave(g, &wf[j]);
		}
	g->last = (uint32_t)(lastit - g->items);
	return (unsigned)(q - pkts);
}

static OFL_NOINLINE unsigned tag_weave_any(struct ofl_gro *g, const struct ofl_pkt *pkts, unsigned n, uint64_t now)
{
	return tag_weave(g, pkts, n, now, 0);
}
#if defined(TRAIN_AVX2)
static OFL_NOINLINE GRO_TARGET_AVX2 unsigned tag_weave_avx2(struct ofl_gro *g, const struct ofl_pkt *pkts, unsigned n,
                                                            uint64_t now)
{
	return tag_weave(g, pkts, n, now, 1);
}
#endif

unsigned gro_tag_weave(struct ofl_gro *g, const struct ofl_pkt *pkts, unsigned n, uint64_t now)
{
#if defined(TRAIN_AVX2)
	if (gro_cpu_avx2())
		return tag_weave_avx2(g, pkts, n, now);
#endif
	return tag_weave_any(g, pkts, n, now);
}
