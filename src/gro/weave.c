/*
 * weave.c - interleaved flows: the full segments of several held flows
 * taken one after the other from a burst (gro_weave(), called by the burst
 * loop after a frame predicted through the recent-flows cache).
 */
#include <stddef.h>
#include <string.h>

#include "gro/lanes.h"

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
	    (h0[l4c + 13] & (TCP_PSH | TCP_FIN | TCP_URG | TCP_RST | TCP_SYN)))
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

/* Entry it's taken frames written into it (as predict_take_l4() and
 * merge_tail() count them, the context's counters aside): taken segments
 * of mss bytes, seq the next sequence number. */
static inline void weave_count(struct gro_item *it, uint32_t taken, uint32_t mss, uint32_t seq)
{
	uint32_t add = taken * mss;
	it->nsegs = (uint16_t)(it->nsegs + taken);
	it->nslices = (uint16_t)(it->nslices + taken);
	it->payload += add;
	it->l3_len += add;
	it->next_seq = seq;
}

/* The state of entry idx for frames whose ports word is ports, in w; 0
 * when the weave cannot take its frames (weave_entry()).  The entry's
 * own ports must be ports: an entry is in one slot at most. */
static inline OFL_ALWAYS_INLINE int weave_join(struct ofl_gro *g, struct wflow *w, uint32_t idx, uint32_t ports,
                                               const int v4)
{
	struct gro_item *it = &g->items[idx];
	uint32_t hl = it->hdr_len, mss = it->seg_size, left;
	if (!weave_entry(g, it, ports, &left, &w->e, &w->estep, v4))
		return 0;
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
	w->left = w->left0 = left;
	w->idx = idx;
	return 1;
}

/* Flow w's frames written into its entry. */
static inline void weave_leave(struct wflow *w)
{
	weave_count(w->it, w->left0 - w->left, w->mss, w->seq);
	w->it = NULL;
}

/* The run's mask (struct run) for the weave's frames: the context's
 * prediction mask, the IP length and the TCP flag byte. */
static inline void weave_mask(const struct ofl_gro *g, uint8_t *rm, const int v4)
{
	memcpy(rm, g->pmask[!v4], GRO_PRED_MAX);
	memset(rm + (v4 ? 16 : 18), 0xff, 2);
	rm[(v4 ? 34u : 54u) + 13] = 0xff;
}

/* The weave with the build's compare (the copy for CPUs without AVX2). */
static inline OFL_ALWAYS_INLINE unsigned weave_l3(struct ofl_gro *g, const struct ofl_pkt *pkts, unsigned i,
                                                  unsigned n, const int v4)
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
	weave_mask(g, rm, v4);
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
		if (tot != w->full || !w->left || w->mss > hroom || train_cmp(d, w->it->hdr, rm, 0, w->hl, 0) ||
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
/*
 * The weave of the AVX2 copies: the loop above with each flow's expected
 * header as the stepped lanes of run1.c (lanes.h), so a frame is one
 * masked compare with no scalar compare after it, and the flow's slot
 * (struct lflow, 256 bytes) counting the frames it took: its slice, cookie
 * and slice word found from the count; the entry and the context's
 * counters written when it leaves.  The flows it takes: TCP headers of at
 * most l4c + 36 bytes (the sequence number in the last 32-byte block, at a
 * multiple of 4: two or three blocks); any other stops it at its first
 * frame.  The held bytes as a bound on the frames (the room when the
 * weave started over the largest segment size met): never more than the
 * room, and a frame past the bound stops the weave for the per-frame path.
 */
struct lflow {
	__m256i t0, t1;      /* blocks 0 (IPv4: its word stepped) and hl - 32 (the sequence number stepped) */
	__m256i d0, d1;      /* their steps */
	__m256i h1, m1;      /* t1's shuffle to wire order and its mask */
	struct gro_item *it;
	struct ofl_slice *s; /* the entry's next slice and cookie when it joined */
	void **c;
	uint64_t lw;         /* that slice's len, pkt and buf (SL_LEN) */
	uint32_t ports;      /* the frames' TCP ports */
	uint32_t full;       /* and their length (a full segment's); 0: a free slot */
	uint32_t hl, o;      /* header length; the last block's offset (hl - 32) */
	uint32_t n, left;    /* frames taken, and how many it may take */
};
_Static_assert(sizeof(struct lflow) == 256, "a slot: 256 bytes");

/* Flow w's frames written into its entry, and counted in *bytes (frame
 * bytes) and *held (payload). */
static inline GRO_TARGET_AVX2 void lanes_leave(struct lflow *w, uint64_t *bytes, uint32_t *held)
{
	struct gro_item *it = w->it;
	uint32_t mss = it->seg_size;
	*bytes += (uint64_t)w->n * (w->hl + mss);
	*held += w->n * mss;
	weave_count(it, w->n, mss, it->next_seq + w->n * mss);
	w->full = 0;
}

/* The flow of frame d (ports its ports word) into slot w, whose flow
 * leaves first: the entry the recent-flows cache names, if the weave can
 * take its frames (weave_entry(), a header of two or three blocks with
 * the sequence number in the last); 0 if not.  r: its mask is the weave's
 * (weave_mask()), its header the joining entry's (96 bytes copied). */
static inline OFL_ALWAYS_INLINE GRO_TARGET_AVX2 int lanes_join(struct ofl_gro *g, struct lflow *w, struct run *r,
                                                               const uint8_t *d, uint32_t ports, uint64_t *bytes,
                                                               uint32_t *held, const int v4)
{
	const uint32_t l4c = v4 ? 34u : 54u;
	struct gro_item *it;
	uint64_t hint, e, estep;
	uint32_t idx, hl, left;
	__m256i h, m;
	if (w->full)
		lanes_leave(w, bytes, held);
	/* (the EtherType first: rcache_ports() reads where it says) */
	if (ld16(d + 12) != ld16((const uint8_t *)(v4 ? "\x08\x00" : "\x86\xdd")))
		return 0;
	hint = g->rcache[rcache_slot(d)];
	idx = (uint32_t)hint;
	if ((uint32_t)(hint >> 32) != ports || idx == GRO_NONE)
		return 0;
	it = &g->items[idx];
	hl = it->hdr_len;
	if (hl < l4c + 20u || hl > l4c + 36u || ((hl - l4c) & 3u) || !weave_entry(g, it, ports, &left, &e, &estep, v4))
		return 0;
	memcpy(r->tp, it->hdr, 96);
	r->mss = it->seg_size;
	if (v4) {
		lanes_word(r, e, estep, &w->t0, &h, &w->d0, &m);
	} else {
		w->t0 = _mm256_loadu_si256((const __m256i *)(const void *)r->tp);
		w->d0 = _mm256_setzero_si256();
	}
	lanes_seq(r, hl - 32u, l4c + 4u, it->next_seq, &w->t1, &w->h1, &w->d1, &w->m1);
	{
		struct ofl_slice ls = {NULL, it->seg_size, it->nsegs, 0};
		memcpy(&w->lw, (const uint8_t *)&ls + SL_LEN, 8);
	}
	w->it = it;
	w->s = gro_slices(g, idx) + it->nslices;
	w->c = gro_cookies(g, idx) + it->nsegs;
	w->hl = hl;
	w->o = hl - 32u;
	w->ports = ports;
	w->full = hl + it->seg_size;
	w->n = 0;
	w->left = left;
	return 1;
}

/* Out of line: the loop keeps its registers. */
static OFL_NOINLINE GRO_TARGET_AVX2 int lanes_join_v4(struct ofl_gro *g, struct lflow *w, struct run *r,
                                                     const uint8_t *d, uint32_t ports, uint64_t *bytes,
                                                     uint32_t *held)
{
	return lanes_join(g, w, r, d, ports, bytes, held, 1);
}
static OFL_NOINLINE GRO_TARGET_AVX2 int lanes_join_v6(struct ofl_gro *g, struct lflow *w, struct run *r,
                                                     const uint8_t *d, uint32_t ports, uint64_t *bytes,
                                                     uint32_t *held)
{
	return lanes_join(g, w, r, d, ports, bytes, held, 0);
}

static inline OFL_ALWAYS_INLINE GRO_TARGET_AVX2 unsigned weave_lanes(struct ofl_gro *g, const struct ofl_pkt *pkts,
                                                                     unsigned i, unsigned n, const int v4)
{
	_Alignas(32) struct lflow wf[WEAVE_SLOTS];
	struct run r;
	struct ofl_slice st1 = {NULL, 0, 1, 0};
	const uint32_t l4c = v4 ? 34u : 54u;
	const struct ofl_pkt *q = pkts + i, *q0 = q, *qend = pkts + n;
	const struct ofl_pkt *pfend = n > GRO_AHEAD ? pkts + (n - GRO_AHEAD) : pkts;
	const uint32_t hroom = sat_sub(g->cfg.max_held_bytes, g->held_bytes);
	uint32_t held = 0, maxmss = 0, k;
	uint64_t bytes = 0, lstep;
	const struct gro_item *lastit = NULL;
	__m256i h0, m0, m2, x;
	memcpy(&lstep, (const uint8_t *)&st1 + SL_LEN, 8);
	weave_mask(g, r.mk, v4);
	/* the shuffle and mask of block 0, the same for every flow */
	memset(r.tp, 0, 32);
	if (v4)
		lanes_word(&r, 0, 0, &x, &h0, &x, &m0);
	else
		h0 = m0 = _mm256_loadu_si256((const __m256i *)(const void *)r.mk);
	m2 = _mm256_loadu_si256((const __m256i *)(const void *)(r.mk + 32));
	for (k = 0; k < WEAVE_SLOTS; k++)
		wf[k].full = wf[k].ports = 0;
	/* a frame's checks before its ports are read (packet word, one
	 * buffer, its data, room for the header): made as its header is
	 * prefetched, GRO_AHEAD frames before it (as run1.c makes them), the
	 * first GRO_AHEAD before the loop; the first that fails ends the
	 * weave there */
#define WEAVE_OK(a) \
	(gro_pkt_plain_meta(a) && (a)->bufs && (a)->bufs->data && (a)->bufs->len >= l4c + 20u)
	{
		const struct ofl_pkt *a = q, *pe = (size_t)(qend - q) > GRO_AHEAD ? q + GRO_AHEAD : qend;
		while (a < pe && WEAVE_OK(a))
			a++;
		qend = a < pe ? a : qend;
	}
	for (; q < qend; q++) {
		const uint8_t *d;
		struct lflow *w;
		uint32_t tot, ports, nn;
		__m256i t0, t1;
		struct ofl_slice *s;
		if (q < pfend) {
			const struct ofl_pkt *a = q + GRO_AHEAD;
			if (WEAVE_OK(a)) {
				__builtin_prefetch(a->bufs->data);
			} else {
				qend = a < qend ? a : qend;
				pfend = q;
			}
		}
		d = q->bufs->data;
		tot = q->bufs->len;
		ports = ld32(d + l4c);
		w = (struct lflow *)(void *)((char *)wf + ((size_t)((ports * 0x9e3779b1u) >> (32 - WEAVE_BITS)) << 8));
		if (w->ports != ports || w->full != tot) {
			/* a flow joins, unless it is the slot's (another length) */
			if ((w->full && w->ports == ports) ||
			    !(v4 ? lanes_join_v4 : lanes_join_v6)(g, w, &r, d, ports, &bytes, &held) || w->full != tot)
				break;
			/* the held bytes: at most the room over the largest
			 * segment size frames from the first */
			if (tot - w->hl > maxmss) {
				const struct ofl_pkt *qlim;
				maxmss = tot - w->hl;
				qlim = q0 + hroom / maxmss;
				qend = qlim < qend ? qlim : qend;
				if (q >= qend)
					break;
			}
		}
		nn = w->n;
		if (nn == w->left)
			break;
		t0 = w->t0;
		t1 = w->t1;
		x = _mm256_or_si256(
		    _mm256_and_si256(_mm256_xor_si256(_mm256_loadu_si256((const __m256i *)(const void *)d),
		                                      v4 ? _mm256_shuffle_epi8(t0, h0) : t0),
		                     m0),
		    _mm256_and_si256(_mm256_xor_si256(_mm256_loadu_si256((const __m256i *)(const void *)(d + w->o)),
		                                      _mm256_shuffle_epi8(t1, w->h1)),
		                     w->m1));
		if (w->o > 32u) /* three blocks: 32-63 as held */
			x = _mm256_or_si256(
			    x, _mm256_and_si256(
			           _mm256_xor_si256(_mm256_loadu_si256((const __m256i *)(const void *)(d + 32)),
			                            _mm256_loadu_si256((const __m256i *)(const void *)(w->it->hdr + 32))),
			           m2));
		if (!_mm256_testz_si256(x, x))
			break;
		s = w->s + nn;
		s->data = d + w->hl;
		{
			uint64_t lw = w->lw + nn * lstep;
			memcpy((uint8_t *)s + SL_LEN, &lw, 8);
		}
		w->c[nn] = q->cookie;
		w->n = nn + 1;
		if (v4)
			w->t0 = _mm256_add_epi32(t0, w->d0);
		w->t1 = _mm256_add_epi32(t1, w->d1);
		lastit = w->it;
	}
#undef WEAVE_OK
	for (k = 0; k < WEAVE_SLOTS; k++)
		if (wf[k].full)
			lanes_leave(&wf[k], &bytes, &held);
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

static OFL_NOINLINE GRO_TARGET_AVX2 unsigned weave_v4_avx2(struct ofl_gro *g, const struct ofl_pkt *pkts, unsigned i,
                                                           unsigned n)
{
	return weave_lanes(g, pkts, i, n, 1);
}
static OFL_NOINLINE GRO_TARGET_AVX2 unsigned weave_v6_avx2(struct ofl_gro *g, const struct ofl_pkt *pkts, unsigned i,
                                                           unsigned n)
{
	return weave_lanes(g, pkts, i, n, 0);
}
#endif

/* A copy per L3 in one function (each L3's register-allocated on its
 * own path), and with AVX2 one compiled for it. */
static OFL_NOINLINE unsigned weave_sse(struct ofl_gro *g, const struct ofl_pkt *pkts, unsigned i, unsigned n,
                                       unsigned l3)
{
	return l3 == 4 ? weave_l3(g, pkts, i, n, 1) : weave_l3(g, pkts, i, n, 0);
}

unsigned gro_weave(struct ofl_gro *g, const struct ofl_pkt *pkts, unsigned i, unsigned n, unsigned l3)
{
#if defined(TRAIN_AVX2)
	if (gro_cpu_avx2())
		return l3 == 4 ? weave_v4_avx2(g, pkts, i, n) : weave_v6_avx2(g, pkts, i, n);
#endif
	return weave_sse(g, pkts, i, n, l3);
}
