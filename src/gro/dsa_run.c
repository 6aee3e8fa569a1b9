/*
 * dsa_run.c - the run of a train behind a DSA tag (untagged mode, an entry
 * hold.c hold_tag_pred() predicts): the full-size segments of its flow, in
 * one buffer, whose bytes up to the untagged EtherType (MACs and tag) and
 * tail tag repeat the entry's first frame's, taken as merge.c's run takes
 * plain ones (run.h struct run: the expected next header, the sequence
 * number, the IPv4 ID-to-checksum word), the tag's length added to every
 * offset and its bytes part of the one masked compare.  The frame it stops
 * at and the rest go to merge.c's tagged train, which applies the rules one
 * by one (ends the train, completes the entry for its size).
 */
#include <string.h>

#include "gro/dsa_run.h"

/* The tagged frame q: of one buffer of full bytes, its checksum verified,
 * its header t's under its mask, sequence number seq, IPv4 word e (v4)
 * and tail tag the entry's?  Its data when it is, else NULL. */
static inline OFL_ALWAYS_INLINE const uint8_t *tag_next(const struct ofl_pkt *q, const struct tag_hdr *t,
                                                        uint32_t full, uint32_t thl, uint32_t pre, uint32_t l4,
                                                        uint32_t seq, uint64_t e, const uint8_t *tail, uint32_t tl,
                                                        const int v4, const int avx2)
{
	const struct ofl_buf *b = q->bufs;
	const uint8_t *d;
	if (!gro_pkt_plain_meta(q) || !b || b->len != full || !(d = b->data))
		return NULL;
	if (train_cmp(d, t->tp, t->mk, 0, thl, avx2) || ofl_get32(d + pre + l4 + 4) != seq ||
	    (v4 && get64(d + pre + 18) != e) ||
	    (tl && (((ld64(d + full - 8u) ^ t->tw) & t->tm) || (tl > 8u && tail_differs(d + full - tl, tail, tl)))))
		return NULL;
	return d;
}

/* The frames from pkts[i] on that are entry *pidx's next full segments
 * behind its tag (at most n - i), merged; when the entry fills up and the
 * next frame is its next full segment, the entry is completed for the size
 * and that frame held as the flow's next (gro_tag_renew()), *pidx, whose
 * run goes on.  Returns how many frames it took.  avx2: the compare
 * run.h train_cmp() picks (a copy compiled for AVX2). */
static inline OFL_ALWAYS_INLINE unsigned tag_run(struct ofl_gro *g, uint32_t *pidx, const struct ofl_pkt *pkts,
                                                 unsigned i, unsigned n, uint64_t now, const int avx2)
{
	const unsigned first = i, pfend = n > GRO_AHEAD ? n - GRO_AHEAD : 0;
	const struct gro_item *it0 = &g->items[*pidx];
	const struct gro_cold *cold = &g->cold[*pidx];
	const int v4 = it0->l3 == 4;
	const uint32_t hl = it0->hdr_len, rp = it0->rawpre_len, pre = rp - 12u, tl = it0->rawtail_len;
	const uint32_t mss = it0->seg_size, thl = pre + hl, l4 = it0->l4_off;
	struct run r;
	struct tag_hdr t;
	uint64_t lstep;
	uint32_t full;
	if (it0->fast != GRO_FAST_PLAIN || !rp || thl > GRO_PRED_MAX || hl < 54u)
		return 0;
	/* the expected frame, once for the flow: a renewed entry's first
	 * frame passed tag_next() against it, so its tag bytes, tail tag and
	 * the header bytes under the mask are the same, and so its header
	 * length, segment size (a full segment's), IPv4 header sum and
	 * prediction (gro_tag_renew(): GRO_FAST_PLAIN behind a tag of rp
	 * bytes; not tested again: a test there cost ~6 a frame) */
	run_init(&r, it0, g->pmask[!v4], v4 ? ip4_rest_sum(it0->hdr) : 0, v4, 0);
	full = r.full + pre + tl;
	if (r.full == UINT32_MAX || full > 0xffffu)
		return 0;
	tag_expect(&t, r.tp, r.mk, cold, rp, hl, tl);
	lstep = sl_word(0, 1, 0);
	for (;;) {
		const uint32_t idx = *pidx;
		struct gro_item *it = &g->items[idx];
		const uint32_t nsegs = it->nsegs, nsl = it->nslices;
		struct ofl_slice *sl = gro_slices(g, idx) + nsl;
		void **ck = gro_cookies(g, idx) + nsegs;
		uint64_t e = 0, estep = 0, lw;
		uint32_t steps = UINT32_MAX, k, kend, kroom, kmax, seq = it->next_seq;
		if (v4)
			e = run_word(r.tp, r.ipsum, (uint16_t)(it->id0 + (it->fixedid ? 0u : nsegs)), it->fixedid, &estep,
			             &steps);
		/* every bound of the entry: segments, slices (one kept free),
		 * the held bytes, the word's steps, then its size (kroom) */
		kend = min32(min32(n - i, steps), min32(sat_sub(g->cfg.max_segs, nsegs), sat_sub(g->max_slices - 1u, nsl)));
		kend = min32(kend, sat_sub(g->cfg.max_held_bytes, g->held_bytes) / mss);
		kroom = sat_sub(g->cfg.max_size, it->l3_len) / mss;
		/* a slice's len, pkt and buf as one word (run.h) */
		lw = sl_word(mss, (uint16_t)nsegs, 0);
		kmax = min32(kend, kroom);
		for (k = 0; k < kmax; k++) {
			const struct ofl_pkt *q = &pkts[i + k];
			const uint8_t *d;
			run_prefetch(q, i + k, pfend);
			if (!(d = tag_next(q, &t, full, thl, pre, l4, seq, e, cold->rawtail, tl, v4, avx2)))
				break;
			sl[k].data = d + thl;
			memcpy((uint8_t *)&sl[k] + SL_LEN, &lw, 8);
			lw += lstep;
			ck[k] = q->cookie;
			seq += mss;
			e += estep;
		}
		if (k) {
			run_account(g, it, k, mss, full, seq, nsegs, nsl);
			it->fin_psh |= it->hdr[l4 + 13] & (TCP_FIN | TCP_PSH);
		}
		i += k;
		/* the entry full (its size the only bound reached) and the next
		 * frame its next full segment: the flow's next entry */
		if (k != kroom || kroom >= kend ||
		    !tag_next(&pkts[i], &t, full, thl, pre, l4, seq, e, cold->rawtail, tl, v4, avx2) ||
		    (*pidx = gro_tag_renew(g, idx, &pkts[i], now)) == GRO_NONE) {
			*pidx = idx;
			break;
		}
		if (++i >= n)
			break;
	}
	return i - first;
}

/* Buffers 1 to nb - 1 of a frame (b; its first buffer b0 bytes), segment
 * seg, as slices from o, written before they are checked (the caller
 * checked the room; a frame refused leaves them past the entry's slices).
 * Returns the frame's length, or a value above 0xffff when a later buffer
 * is empty or its data NULL (never a full segment's length then). */
static inline OFL_ALWAYS_INLINE uint64_t cut_later(struct ofl_slice *o, const struct ofl_buf *b, uint32_t nb,
                                                   uint32_t b0, uint32_t seg)
{
	uint64_t tot = b0;
	uint32_t j, bad = 0;
#if defined(__GNUC__)
#pragma GCC unroll 4
#endif
	for (j = 1; j < nb; j++) {
		const uint32_t len = b[j].len;
		o[j - 1] = (struct ofl_slice){b[j].data, len, (uint16_t)seg, (uint16_t)j};
		tot += len;
		bad |= (len - 1u) | (uint32_t)(b[j].data == NULL) << 31; /* (empty: all ones) */
	}
	return tot | (uint64_t)(bad >> 16) << 32;
}

/* The frames from pkts[i] on that are entry idx's next full segments
 * behind its header tag in several buffers (at most n - i): the tagged
 * headers in the first buffer (all of them, compared as tag_next()
 * compares), the payload the rest of that buffer (no slice when empty)
 * and every later buffer (none empty or NULL, the frame's length a full
 * segment's), within every bound of the entry (its size too: the
 * one-frame path completes it and holds the next, whose train comes back
 * here); merged.  Returns how many frames it took. */
static inline OFL_ALWAYS_INLINE unsigned tag_run_bufs(struct ofl_gro *g, uint32_t idx, const struct ofl_pkt *pkts,
                                                      unsigned i, unsigned n, const int avx2)
{
	struct gro_item *it = &g->items[idx];
	const int v4 = it->l3 == 4;
	const uint32_t hl = it->hdr_len, rp = it->rawpre_len, pre = rp - 12u, mss = it->seg_size, thl = pre + hl;
	const uint32_t l4 = it->l4_off, nsegs = it->nsegs, nsl = it->nslices, smax = g->max_slices - 1u;
	const uint32_t nbm1 = g->cfg.max_bufs - 1u; /* (max_bufs is not 0) */
	const unsigned pfend = n > GRO_AHEAD ? n - GRO_AHEAD : 0;
	struct ofl_slice *sl = gro_slices(g, idx);
	void **ck = gro_cookies(g, idx) + nsegs;
	struct run r;
	struct tag_hdr t;
	uint64_t e = 0, estep = 0;
	uint32_t steps = UINT32_MAX, full, k, kmax, ns = nsl, seq = it->next_seq, want, mask, nbmask;
	if (it->fast != GRO_FAST_PLAIN || !rp || it->rawtail_len || thl > GRO_PRED_MAX || hl < 54u)
		return 0;
	run_init(&r, it, g->pmask[!v4], v4 ? ip4_rest_sum(it->hdr) : 0, v4, 0);
	full = r.full + pre;
	if (r.full == UINT32_MAX || full > 0xffffu)
		return 0;
	if (v4)
		e = run_word(r.tp, r.ipsum, (uint16_t)(it->id0 + (it->fixedid ? 0u : nsegs)), it->fixedid, &estep, &steps);
	/* every bound of the entry: segments, the held bytes, the word's
	 * steps, its size; the slices a frame at a time */
	kmax = min32(min32(n - i, steps), sat_sub(g->cfg.max_segs, nsegs));
	kmax = min32(kmax, sat_sub(g->cfg.max_held_bytes, g->held_bytes) / mss);
	kmax = min32(kmax, sat_sub(g->cfg.max_size, it->l3_len) / mss);
	tag_expect(&t, r.tp, r.mk, &g->cold[idx], rp, hl, 0);
	train_pkt_word(&want, &mask, &nbmask);
	want &= nbmask;
	for (k = 0; k < kmax; k++) {
		const struct ofl_pkt *q = &pkts[i + k];
		const struct ofl_buf *b = q->bufs;
		const uint8_t *d;
		uint32_t nb = q->nbufs, b0, cnt;
		uint64_t tot;
		run_prefetch(q, i + k, pfend);
		if ((gro_pkt_word(q) & nbmask) != want || nb - 2u >= nbm1 || !b || !(d = b->data) || (b0 = b->len) < thl ||
		    train_cmp(d, t.tp, t.mk, 0, thl, avx2) || ofl_get32(d + pre + l4 + 4) != seq ||
		    (v4 && get64(d + pre + 18) != e))
			break;
		cnt = (b0 > thl) + nb - 1u;
		if (ns + cnt > smax)
			break;
		/* (four buffers: the loop unrolled) */
		tot = nb == 4 ? cut_later(sl + ns + (b0 > thl), b, 4, b0, nsegs + k)
		              : cut_later(sl + ns + (b0 > thl), b, nb, b0, nsegs + k);
		if (tot != full)
			break;
		if (b0 > thl)
			sl[ns] = (struct ofl_slice){d + thl, b0 - thl, (uint16_t)(nsegs + k), 0};
		ns += cnt;
		ck[k] = q->cookie;
		seq += mss, e += estep;
	}
	if (k) /* (then the slices it wrote) */
		run_account(g, it, k, mss, full, seq, nsegs, nsl), it->nslices = (uint16_t)ns;
	return k;
}

static OFL_NOINLINE unsigned tag_run_any(struct ofl_gro *g, uint32_t *idx, const struct ofl_pkt *pkts, unsigned i,
                                         unsigned n, uint64_t now)
{
	return tag_run(g, idx, pkts, i, n, now, 0);
}
static OFL_NOINLINE unsigned tag_bufs_any(struct ofl_gro *g, uint32_t idx, const struct ofl_pkt *pkts, unsigned i,
                                          unsigned n)
{
	return tag_run_bufs(g, idx, pkts, i, n, 0);
}
#if defined(TRAIN_AVX2)
static OFL_NOINLINE GRO_TARGET_AVX2 unsigned tag_run_avx2(struct ofl_gro *g, uint32_t *idx,
                                                          const struct ofl_pkt *pkts, unsigned i, unsigned n,
                                                          uint64_t now)
{
	return tag_run(g, idx, pkts, i, n, now, 1);
}
static OFL_NOINLINE GRO_TARGET_AVX2 unsigned tag_bufs_avx2(struct ofl_gro *g, uint32_t idx, const struct ofl_pkt *pkts,
                                                           unsigned i, unsigned n)
{
	return tag_run_bufs(g, idx, pkts, i, n, 1);
}
#endif

unsigned gro_train_tagged(struct ofl_gro *g, uint32_t idx, const struct ofl_pkt *pkts, unsigned i, unsigned n,
                          uint64_t now)
{
	unsigned k;
	if (pkts[i].nbufs != 1) {
		/* frames in several buffers: the burst loop predicts the one
		 * the run stops at */
#if defined(TRAIN_AVX2)
		if (gro_cpu_avx2())
			return tag_bufs_avx2(g, idx, pkts, i, n);
#endif
		return tag_bufs_any(g, idx, pkts, i, n);
	}
#if defined(TRAIN_AVX2)
	if (gro_cpu_avx2())
		k = tag_run_avx2(g, &idx, pkts, i, n, now);
	else
#endif
		k = tag_run_any(g, &idx, pkts, i, n, now);
	/* (after a renew: when its entry is predicted behind the tag) */
	if (i + k < n && g->items[idx].fast == GRO_FAST_PLAIN && g->items[idx].rawpre_len)
		k += gro_train_tagged_rest(g, idx, pkts, i + k, n, now);
	return k;
}
