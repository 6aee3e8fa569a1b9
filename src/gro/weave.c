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
 * flow's state in a slot of a small table (struct wflow, 128 bytes) while
 * the frames run, as a train keeps one flow's in locals: the frame is
 * compared as a run compares (struct run: the held header is the expected
 * one, its IP length a full segment's and its flag byte no flag that ends
 * a train, checked when the flow joins), the sequence number and the IPv4
 * ID-to-checksum word each one compare.  The limits (segments, slices,
 * size, the ID or checksum wrap) are a count of frames taken when the flow
 * joins; the slot counts the frames it took (its next slice, cookie and
 * slice word found from the count) and the entry and the context's
 * counters are written when it leaves.  The held bytes are a bound on the
 * frames: the room when the weave started over the largest segment size
 * met, so never more than the room (a frame past the bound stops the
 * weave).  A frame's checks before its ports are read (packet word, one
 * buffer, its data, room for the header) are made as its header is
 * prefetched, GRO_AHEAD frames early, as run1.c makes them.  The first
 * frame that is anything else stops the loop, untouched, for the caller's
 * per-frame path (predict() and the full path apply the rules one by
 * one).  Returns how many frames it took.
 */
#define WEAVE_BITS 4
#define WEAVE_SLOTS (1u << WEAVE_BITS)

struct wflow {
	uint64_t e, estep;   /* IPv4: the next ID-to-checksum word, its step */
	struct gro_item *it;
	struct ofl_slice *s; /* the entry's next slice and cookie when it joined */
	void **c;
	uint64_t lw;         /* that slice's len, pkt and buf (SL_LEN) */
	uint32_t seq, mss;   /* the next sequence number, its step */
	uint32_t ports;      /* the frames' TCP ports */
	uint32_t full;       /* and their length (a full segment's); 0: a free slot */
	uint32_t hl, n;      /* header length; frames taken */
	uint32_t left;       /* how many it may take */
	uint8_t pad[128 - 76]; /* a slot a power of two: its address one shift */
};
_Static_assert(sizeof(struct wflow) == 128, "a slot: 128 bytes");

/* Whether the weave can take the frames of entry it whose ports word is
 * ports (the checks of predict_l4() the compare does not make, as the
 * run's set-up makes them): 1, with *left the frames it may take (the
 * segment, slice, size and, IPv4, ID or checksum wrap limits) and, IPv4,
 * *e the next ID-to-checksum word and *estep its step; else 0. */
static inline OFL_ALWAYS_INLINE int weave_entry(const struct ofl_gro *g, const struct gro_item *it, uint32_t ports,
                                                uint32_t *left, uint64_t *e, uint64_t *estep, const int v4)
{
	const uint8_t *h0 = it->hdr;
	const uint32_t l4c = v4 ? 34u : 54u;
	uint32_t hl = it->hdr_len, mss = it->seg_size, n, steps = UINT32_MAX;
	if (it->state != GRO_HELD || it->fast != GRO_FAST_PLAIN || it->rawpre_len || it->l3 != (v4 ? 4 : 6) ||
	    it->l4_off != l4c || ld32(h0 + l4c) != ports || !mss || hl + mss > 0xffffu ||
	    ofl_get16(h0 + (v4 ? 16 : 18)) + (v4 ? 14u : 54u) != hl + mss ||
	    (h0[l4c + 13] & TCP_NO_RUN))
		return 0;
	n = min32(sat_sub(g->cfg.max_segs, it->nsegs), sat_sub(g->max_slices - 1u, it->nslices));
	n = min32(n, sat_sub(g->cfg.max_size, it->l3_len) / mss);
	if (v4)
		*e = run_word(h0, fold32(ip4_rest_sum(h0)), (uint16_t)(it->id0 + (it->fixedid ? 0u : it->nsegs)),
		              it->fixedid, estep, &steps);
	else
		*e = *estep = 0;
	*left = min32(n, steps);
	return 1;
}

/* Flow w's frames written into its entry (as predict_take_l4() and
 * merge_tail() count them), and counted in *bytes (frame bytes) and *held
 * (payload); its slot free. */
static inline void weave_leave(struct wflow *w, uint64_t *bytes, uint32_t *held)
{
	struct gro_item *it = w->it;
	uint32_t add = w->n * w->mss;
	it->nsegs = (uint16_t)(it->nsegs + w->n);
	it->nslices = (uint16_t)(it->nslices + w->n);
	it->payload += add;
	it->l3_len += add;
	it->next_seq = w->seq;
	*bytes += (uint64_t)w->n * w->full;
	*held += add;
	w->full = 0;
}

/* The flow of frame d (ports its ports word, its EtherType not checked)
 * into slot w, whose flow leaves first: the entry the recent-flows cache
 * names, if the weave can take its frames (weave_entry()); 0 if not. */
static inline OFL_ALWAYS_INLINE int weave_join(struct ofl_gro *g, struct wflow *w, const uint8_t *d, uint32_t ports,
                                               uint64_t *bytes, uint32_t *held, const int v4)
{
	struct gro_item *it;
	uint64_t hint;
	uint32_t idx, left;
	if (w->full)
		weave_leave(w, bytes, held);
	/* (the EtherType first: rcache_ports() reads where it says) */
	if (ld16(d + 12) != ld16((const uint8_t *)(v4 ? "\x08\x00" : "\x86\xdd")))
		return 0;
	hint = g->rcache[rcache_slot(d)];
	idx = (uint32_t)hint;
	if ((uint32_t)(hint >> 32) != ports || idx == GRO_NONE)
		return 0;
	it = &g->items[idx];
	if (!weave_entry(g, it, ports, &left, &w->e, &w->estep, v4))
		return 0;
	{
		struct ofl_slice ls = {NULL, it->seg_size, it->nsegs, 0};
		memcpy(&w->lw, (const uint8_t *)&ls + SL_LEN, 8);
	}
	w->it = it;
	w->s = gro_slices(g, idx) + it->nslices;
	w->c = gro_cookies(g, idx) + it->nsegs;
	w->seq = it->next_seq;
	w->mss = it->seg_size;
	w->ports = ports;
	w->full = it->hdr_len + it->seg_size;
	w->hl = it->hdr_len;
	w->n = 0;
	w->left = left;
	return 1;
}

/* Out of line: the loop keeps its registers. */
static OFL_NOINLINE int weave_join_v4(struct ofl_gro *g, struct wflow *w, const uint8_t *d, uint32_t ports,
                                      uint64_t *bytes, uint32_t *held)
{
	return weave_join(g, w, d, ports, bytes, held, 1);
}
static OFL_NOINLINE int weave_join_v6(struct ofl_gro *g, struct wflow *w, const uint8_t *d, uint32_t ports,
                                      uint64_t *bytes, uint32_t *held)
{
	return weave_join(g, w, d, ports, bytes, held, 0);
}

static inline OFL_ALWAYS_INLINE unsigned weave_l3(struct ofl_gro *g, const struct ofl_pkt *pkts, unsigned i,
                                                  unsigned n, const int v4, const int avx2)
{
	_Alignas(32) struct wflow wf[WEAVE_SLOTS];
	_Alignas(32) uint8_t rm[GRO_PRED_MAX]; /* the run's mask (struct run) */
	struct ofl_slice st1 = {NULL, 0, 1, 0};
	const uint32_t l4c = v4 ? 34u : 54u;
	const struct ofl_pkt *q = pkts + i, *q0 = q, *qend = pkts + n;
	const struct ofl_pkt *pfend = n > GRO_AHEAD ? pkts + (n - GRO_AHEAD) : pkts;
	const uint32_t hroom = sat_sub(g->cfg.max_held_bytes, g->held_bytes);
	uint32_t held = 0, maxmss = 0, k;
	uint64_t bytes = 0, lstep;
	const struct gro_item *lastit = NULL;
	memcpy(&lstep, (const uint8_t *)&st1 + SL_LEN, 8);
	memcpy(rm, g->pmask[!v4], GRO_PRED_MAX);
	memset(rm + (v4 ? 16 : 18), 0xff, 2);
	rm[l4c + 13] = 0xff;
	for (k = 0; k < WEAVE_SLOTS; k++)
		wf[k].full = wf[k].ports = 0;
#define WEAVE_OK(a) \
	(gro_pkt_plain_meta(a) && (a)->bufs && (a)->bufs->data && (a)->bufs->len >= l4c + 20u)
	{
		/* the first GRO_AHEAD frames checked here, the first that
		 * fails ending the weave there */
		const struct ofl_pkt *a = q, *pe = (size_t)(qend - q) > GRO_AHEAD ? q + GRO_AHEAD : qend;
		while (a < pe && WEAVE_OK(a))
			a++;
		qend = a < pe ? a : qend;
	}
	for (; q < qend; q++) {
		const uint8_t *d;
		struct wflow *w;
		struct ofl_slice *s;
		uint32_t tot, ports, nn;
		if (q < pfend) {
			const struct ofl_pkt *a = q + GRO_AHEAD;
			if (WEAVE_OK(a)) {
#if defined(__GNUC__)
				__builtin_prefetch(a->bufs->data);
#endif
			} else {
				qend = a < qend ? a : qend;
				pfend = q;
			}
		}
		d = q->bufs->data;
		tot = q->bufs->len;
		ports = ld32(d + l4c);
		w = (struct wflow *)(void *)((char *)wf + ((size_t)((ports * 0x9e3779b1u) >> (32 - WEAVE_BITS)) << 7));
		if (w->ports != ports || w->full != tot) {
			/* a flow joins, unless it is the slot's (another length) */
			if ((w->full && w->ports == ports) ||
			    !(v4 ? weave_join_v4 : weave_join_v6)(g, w, d, ports, &bytes, &held) || w->full != tot)
				break;
			/* the held bytes: at most the room over the largest
			 * segment size, frames from the first */
			if (w->mss > maxmss) {
				const struct ofl_pkt *qlim;
				maxmss = w->mss;
				qlim = q0 + hroom / maxmss;
				qend = qlim < qend ? qlim : qend;
				if (q >= qend)
					break;
			}
		}
		nn = w->n;
		if (nn == w->left || train_cmp(d, w->it->hdr, rm, 0, w->hl, avx2) ||
		    ofl_get32(d + l4c + 4) != w->seq || (v4 && get64(d + 18) != w->e))
			break;
		s = w->s + nn;
		s->data = d + w->hl;
		{
			uint64_t lw = w->lw + nn * lstep;
			memcpy((uint8_t *)s + SL_LEN, &lw, 8);
		}
		w->c[nn] = q->cookie;
		w->n = nn + 1;
		w->seq += w->mss;
		if (v4)
			w->e += w->estep;
		lastit = w->it;
	}
#undef WEAVE_OK
	for (k = 0; k < WEAVE_SLOTS; k++)
		if (wf[k].full)
			weave_leave(&wf[k], &bytes, &held);
	g->held_bytes += held;
	if (lastit)
		g->last = (uint32_t)(lastit - g->items);
	k = (unsigned)(q - q0);
	g->st.rx_pkts += k;
	g->st.rx_bytes += bytes;
	g->st.merged += k;
	g->st.merged_fast += k;
	return k;
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
