/*
 * weave.c - interleaved flows: the full segments of several held flows
 * taken one after the other from a burst (gro_weave(), called by the burst
 * loop after a frame predicted through the recent-flows cache).
 */
#include <stddef.h>
#include <string.h>

#include "gro/run.h"

/*
 * Interleaved flows (the weave): frames [i, n) of the burst while each is
 * a full-size segment, in one buffer, of a held plain untagged TCP flow of
 * L3 v4 (4 or 6) that the recent-flows cache names, and header prediction
 * takes it.  Such a merge (a full segment without PSH/FIN/URG/RST/SYN)
 * completes nothing and emits nothing, so taking the frames one after the
 * other here is the per-frame path with less around it: no call per frame,
 * no argument checks (the packet word and buffer pointers are what
 * check_args() accepts), no attempt against the last entry, and each
 * flow's state in a small table (struct wflow) while the frames run, as a
 * train keeps one flow's in locals: the frame is compared as a run
 * compares (struct run: the held header is the expected one, its IP length
 * a full segment's and its flag byte no flag that ends a train, checked
 * when the flow joins), the sequence number and the IPv4 ID-to-checksum
 * word each one compare; the limits (segments, slices, size, the ID or
 * checksum wrap) as a count taken when the flow joins, the held bytes as
 * one budget.  The first frame that is anything else stops the loop,
 * untouched, for the caller's per-frame path (predict() and the full path
 * apply the rules one by one).  Returns how many frames it took.
 */
#define WEAVE_BITS 4
#define WEAVE_SLOTS (1u << WEAVE_BITS)

struct wflow {
	struct gro_item *it;  /* NULL: a free slot */
	struct ofl_slice *s;  /* the next slice and cookie */
	void **c;
	uint64_t e, estep;    /* IPv4: the next ID-to-checksum word, its step */
	uint64_t lw;          /* the next slice's len, pkt and buf (SL_LEN) */
	uint32_t ports;       /* the frames' TCP ports */
	uint32_t full, hl;    /* a full segment's frame length; header length */
	uint32_t mss, seq;    /* the entry's segment size; the next sequence number */
	uint32_t left, left0; /* frames it may take still, and when it joined */
	uint32_t idx;
};

/* The state of entry idx for frames whose ports word is ports, in w; 0
 * when the weave cannot take its frames (the checks of predict_l4() the
 * compare does not make, as the run's set-up makes them).  The entry's
 * own ports must be ports: an entry is in one slot at most. */
static inline OFL_ALWAYS_INLINE int weave_join(struct ofl_gro *g, struct wflow *w, uint32_t idx, uint32_t ports,
                                               const int v4)
{
	struct gro_item *it = &g->items[idx];
	const uint8_t *h0 = it->hdr;
	const uint32_t l4c = v4 ? 34u : 54u;
	uint32_t hl = it->hdr_len, mss = it->seg_size, left, steps = UINT32_MAX;
	if (it->state != GRO_HELD || it->fast != GRO_FAST_PLAIN || it->rawpre_len || it->l3 != (v4 ? 4 : 6) ||
	    it->l4_off != l4c || ld32(h0 + l4c) != ports || !mss || hl + mss > 0xffffu ||
	    ofl_get16(h0 + (v4 ? 16 : 18)) + (v4 ? 14u : 54u) != hl + mss ||
	    (h0[l4c + 13] & (TCP_PSH | TCP_FIN | TCP_URG | TCP_RST | TCP_SYN)))
		return 0;
	left = min32(sat_sub(g->cfg.max_segs, it->nsegs), sat_sub(g->max_slices - 1u, it->nslices));
	left = min32(left, sat_sub(g->cfg.max_size, it->l3_len) / mss);
	if (v4)
		w->e = run_word(h0, fold32(ip4_rest_sum(h0)), (uint16_t)(it->id0 + (it->fixedid ? 0u : it->nsegs)),
		                it->fixedid, &w->estep, &steps);
	else
		w->e = w->estep = 0;
	{
		struct ofl_slice ls = {NULL, mss, it->nsegs, 0};
		memcpy(&w->lw, (const uint8_t *)&ls + SL_LEN, 8);
	}
	w->it = it;
	w->s = gro_slices(g, idx) + it->nslices;
	w->c = gro_cookies(g, idx) + it->nsegs;
	w->ports = ports;
	w->full = hl + mss;
	w->hl = hl;
	w->mss = mss;
	w->seq = it->next_seq;
	w->left = w->left0 = min32(left, steps);
	w->idx = idx;
	return 1;
}

/* Flow w's frames written into its entry (as predict_take_l4() and
 * merge_tail() count them, the context's counters aside). */
static inline void weave_leave(struct wflow *w)
{
	struct gro_item *it = w->it;
	uint32_t taken = w->left0 - w->left, add = taken * w->mss;
	it->nsegs = (uint16_t)(it->nsegs + taken);
	it->nslices = (uint16_t)(it->nslices + taken);
	it->payload += add;
	it->l3_len += add;
	it->next_seq = w->seq;
	w->it = NULL;
}

static inline OFL_ALWAYS_INLINE unsigned weave_l3(struct ofl_gro *g, const struct ofl_pkt *pkts, unsigned i,
                                                  unsigned n, const int v4, const int avx2)
{
	struct wflow wf[WEAVE_SLOTS];
	_Alignas(32) uint8_t rm[GRO_PRED_MAX]; /* the run's mask (struct run) */
	struct ofl_slice st1 = {NULL, 0, 1, 0};
	const uint32_t l4c = v4 ? 34u : 54u;
	const unsigned start = i, pfend = n > GRO_AHEAD ? n - GRO_AHEAD : 0;
	uint32_t hroom0 = sat_sub(g->cfg.max_held_bytes, g->held_bytes), hroom = hroom0, last = g->last, k;
	uint64_t bytes = 0, lstep;
	uint32_t pw_want, pw_mask, pw_nb;
	train_pkt_word(&pw_want, &pw_mask, &pw_nb);
	memcpy(&lstep, (const uint8_t *)&st1 + SL_LEN, 8);
	memcpy(rm, g->pmask[!v4], GRO_PRED_MAX);
	memset(rm + (v4 ? 16 : 18), 0xff, 2);
	rm[l4c + 13] = 0xff;
	for (k = 0; k < WEAVE_SLOTS; k++)
		wf[k].it = NULL;
	for (; i < n; i++) {
		const struct ofl_pkt *q = &pkts[i];
		const struct ofl_buf *qb = q->bufs;
		const uint8_t *d;
		struct wflow *w;
		uint32_t pw, tot, ports;
		memcpy(&pw, &q->nbufs, 4);
		if ((pw & pw_mask) != pw_want || !qb)
			break;
		d = qb->data;
		tot = qb->len;
		/* (the EtherType first: rcache_ports() reads where it says) */
		if (!d || tot < l4c + 20u || ld16(d + 12) != ld16((const uint8_t *)(v4 ? "\x08\x00" : "\x86\xdd")))
			break;
		run_prefetch(q, i, pfend);
		ports = ld32(d + l4c);
		w = &wf[(ports * 0x9e3779b1u) >> (32 - WEAVE_BITS)];
		if (!w->it || w->ports != ports) {
			/* a flow joins (the one in its slot leaves first), the
			 * entry the recent-flows cache names */
			uint64_t hint = g->rcache[rcache_slot(d)];
			if (w->it)
				weave_leave(w);
			if ((uint32_t)(hint >> 32) != ports || (uint32_t)hint == GRO_NONE ||
			    !weave_join(g, w, (uint32_t)hint, ports, v4))
				break;
		}
		if (tot != w->full || !w->left || w->mss > hroom || train_cmp(d, w->it->hdr, rm, 0, w->hl, avx2) ||
		    ofl_get32(d + l4c + 4) != w->seq || (v4 && get64(d + 18) != w->e))
			break;
		w->s->data = d + w->hl;
		memcpy((uint8_t *)w->s + SL_LEN, &w->lw, 8);
		w->s++;
		w->lw += lstep;
		*w->c++ = q->cookie;
		w->seq += w->mss;
		w->e += w->estep;
		w->left--;
		hroom -= w->mss;
		bytes += tot;
		last = w->idx;
	}
	for (k = 0; k < WEAVE_SLOTS; k++)
		if (wf[k].it)
			weave_leave(&wf[k]);
	g->held_bytes += hroom0 - hroom;
	g->last = last;
	g->st.rx_pkts += i - start;
	g->st.rx_bytes += bytes;
	g->st.merged += i - start;
	g->st.merged_fast += i - start;
	return i - start;
}

#if defined(TRAIN_AVX2)
static OFL_NOINLINE GRO_TARGET_AVX2 unsigned weave_v4_avx2(struct ofl_gro *g, const struct ofl_pkt *pkts, unsigned i,
                                                           unsigned n)
{
	return weave_l3(g, pkts, i, n, 1, 1);
}
static OFL_NOINLINE GRO_TARGET_AVX2 unsigned weave_v6_avx2(struct ofl_gro *g, const struct ofl_pkt *pkts, unsigned i,
                                                           unsigned n)
{
	return weave_l3(g, pkts, i, n, 0, 1);
}
#endif

/* A copy per L3 in one function (each L3's register-allocated on its
 * own path), and with AVX2 one compiled for it. */
static OFL_NOINLINE unsigned weave_sse(struct ofl_gro *g, const struct ofl_pkt *pkts, unsigned i, unsigned n,
                                       unsigned l3)
{
	return l3 == 4 ? weave_l3(g, pkts, i, n, 1, 0) : weave_l3(g, pkts, i, n, 0, 0);
}

unsigned gro_weave(struct ofl_gro *g, const struct ofl_pkt *pkts, unsigned i, unsigned n, unsigned l3)
{
#if defined(TRAIN_AVX2)
	if (gro_cpu_avx2())
		return l3 == 4 ? weave_v4_avx2(g, pkts, i, n) : weave_v6_avx2(g, pkts, i, n);
#endif
	return weave_sse(g, pkts, i, n, l3);
}
