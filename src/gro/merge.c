/*
 * merge.c - merge runs: header prediction's end for a frame in several
 * buffers, and the train loop that takes the next segments of a flow from
 * the burst with the entry's state in locals.
 */
#include <stddef.h>
#include <string.h>

#include "gro/predict.h"

/* Header prediction's end for a frame in several buffers (header split):
 * room for its slices, the IP ID rule, then the merge (a UDP flow's: udp.h). */
static inline OFL_ALWAYS_INLINE int predict_bufs(struct ofl_gro *g, uint32_t idx, const struct ofl_pkt *pkt,
                                                 const uint8_t *ip, uint32_t len, uint8_t flags, const int udp)
{
	struct gro_item *it = &g->items[idx];
	uint32_t hl = it->hdr_len;
	if (it->nslices + gro_count_slices(pkt, hl, len) + 1u > g->max_slices ||
	    (it->l3 == 4 && gro_ipv4_id_nomerge(ip, it)))
		return 0;
	gro_add_slices(g, idx, pkt, hl, len, it->nsegs);
	return predict_merged(g, idx, pkt, hl + len, len, flags, udp);
}

int gro_predict_bufs(struct ofl_gro *g, uint32_t idx, const struct ofl_pkt *pkt, const uint8_t *ip, uint32_t len,
                     uint8_t flags)
{
	return predict_bufs(g, idx, pkt, ip, len, flags, 0);
}

int gro_predict_bufs_udp(struct ofl_gro *g, uint32_t idx, const struct ofl_pkt *pkt, const uint8_t *ip,
                         uint32_t len)
{
	return predict_bufs(g, idx, pkt, ip, len, 0, 1);
}

int gro_predict_udp(struct ofl_gro *g, uint32_t idx, const struct ofl_pkt *pkt, const uint8_t *p, uint32_t total)
{
	return predict_l4(g, idx, pkt, p, total, 1);
}

/*
 * A train: after a packet merged into entry idx by header prediction, the
 * packets that follow it in the burst are most often the next segments of
 * the same flow.  This loop takes them with the entry's state in locals
 * (next sequence number, segment and slice counts, byte budget, expected IP
 * ID) and writes it back once, when the train stops: at a packet that does
 * not predict (left to the caller, untouched), at the end of the burst, or
 * at a segment that ends the train (merged, then the entry completed).
 * Same checks as predict(); returns how many packets it took.
 */
/* The packet fields a train segment must have (one buffer, checksum
 * verified, no hardware VLAN) as one 32-bit compare, whatever the byte
 * order; *nb_mask: the mask without nbufs. */
static void train_pkt_word(uint32_t *want_w, uint32_t *mask_w, uint32_t *nb_mask)
{
	struct ofl_pkt want, mask;
	memset(&want, 0, sizeof(want));
	memset(&mask, 0, sizeof(mask));
	want.nbufs = 1;
	want.csum_status = OFL_CSUM_UNNECESSARY;
	mask.nbufs = 0xffff;
	mask.csum_status = 0xff;
	mask.flags = OFL_PKT_F_VLAN;
	memcpy(want_w, &want.nbufs, 4);
	memcpy(mask_w, &mask.nbufs, 4);
	mask.nbufs = 0;
	memcpy(nb_mask, &mask.nbufs, 4);
}

/* Where a slice's len, pkt and buf fields sit: one 64-bit word. */
#define SL_LEN offsetof(struct ofl_slice, len)
_Static_assert(offsetof(struct ofl_slice, len) + 8 == sizeof(struct ofl_slice) &&
                   offsetof(struct ofl_slice, pkt) == SL_LEN + 4 && offsetof(struct ofl_slice, buf) == SL_LEN + 6,
               "len, pkt, buf: the last 8 bytes of a slice");

/* The train's masked compare: the AVX2 one in the train copies compiled
 * for AVX2 (chosen per train at run time, gro_train()), else the one the
 * build chose (cmp.h). */
#if defined(GRO_CMP_HAVE_AVX2) && !defined(OFL_SIMD_OFF)
#define TRAIN_AVX2 1
#endif
static inline OFL_ALWAYS_INLINE int train_cmp(const uint8_t *p, const uint8_t *h, const uint8_t *m, uint32_t from,
                                              uint32_t hl, const int avx2)
{
#if defined(TRAIN_AVX2)
	if (avx2)
		return gro_cmp_avx2(p, h, m, from, hl);
#else
	(void)avx2;
#endif
	return gro_cmp(p, h, m, from, hl);
}

/* A big-endian 64-bit load. */
static inline uint64_t get64(const uint8_t *p)
{
	return (uint64_t)ofl_get32(p) << 32 | ofl_get32(p + 4);
}

/*
 * The run: what a train takes most of the time, full-size segments in one
 * buffer, each compared with its predecessor as one masked compare of the
 * whole header against the expected next header (struct run).  The bytes
 * the context's prediction mask (layer.h: every layer's rule) wants equal
 * are equal to the held header's; the IP length field is that of a full
 * segment and the TCP flag byte the held one's (no FIN or PSH: such a
 * segment ends the train, the general body takes it); then the fields that
 * advance, each one compare: the sequence number, and for IPv4 the eight
 * bytes from the ID to the header checksum as one big-endian word, in
 * which the next segment's ID and checksum are this one's plus one and
 * minus one (RFC 1624, exact while neither wraps: run_start() bounds the
 * run there; a fixed ID keeps the word).  A segment that differs in any way
 * is left to the general body, which applies the rules one by one.
 */
struct run {
	_Alignas(16) uint8_t tp[GRO_PRED_MAX]; /* the expected header */
	_Alignas(16) uint8_t mk[GRO_PRED_MAX]; /* 0xff: compared */
	uint32_t full;                          /* a full segment's frame length */
	uint32_t mss;
	uint32_t ipsum;                         /* IPv4: sum of the header without length, ID, checksum */
};

/* IPv4: the sum of the held header without length, ID and checksum (the
 * same for every segment that predicts: its other bytes equal the held
 * header's), and that sum folded to 32 bits. */
static inline uint64_t ip4_rest_sum(const uint8_t *h0)
{
	return (uint64_t)ld16(h0 + 14) + ld32(h0 + 20) + ld32(h0 + 26) + ld32(h0 + 30);
}
static inline uint32_t fold32(uint64_t s)
{
	s = (s & 0xffffffffu) + (s >> 32);
	return (uint32_t)((s & 0xffffffffu) + (s >> 32));
}

/* The expected header of the next full segment (once per train); udp: a
 * UDP flow's, its length field that of a full datagram (its checksum,
 * a hole, is checked on its own). */
static inline void run_init(struct run *r, const struct gro_item *it, const uint8_t *m, uint64_t ipsum,
                            const int v4, const int udp)
{
	uint32_t hl = it->hdr_len, mss = it->seg_size;
	memcpy(r->tp, it->hdr, GRO_PRED_MAX);
	memcpy(r->mk, m, GRO_PRED_MAX);
	ofl_put16(r->tp + (v4 ? 16 : 18), (uint16_t)(v4 ? hl - 14 + mss : hl - 54 + mss));
	memset(r->mk + (v4 ? 16 : 18), 0xff, 2);
	if (udp) {
		ofl_put16(r->tp + it->l4_off + 4, (uint16_t)(8u + mss));
		memset(r->mk + it->l4_off + 4, 0xff, 2);
	} else {
		r->mk[it->l4_off + 13] = 0xff;
	}
	/* UINT32_MAX: no run (never a frame's length: at most 0xffff here;
	 * nor shorter than the compare reads) */
	r->mss = mss;
	r->full = mss && hl + mss <= 0xffffu && (!udp || hl + mss >= pred_cmp_len(hl)) ? hl + mss : UINT32_MAX;
	r->ipsum = fold32(ipsum);
}

/* IPv4: the word of bytes 18-25 (ID to checksum) the segment with IP ID
 * id must carry, tp the expected header (its length field a full
 * segment's) and ipsum its ip4_rest_sum() folded, and how many segments
 * may follow it with the word stepped by *step (exact: neither the ID nor
 * the checksum wraps). */
static inline uint64_t run_word(const uint8_t *tp, uint32_t ipsum, uint16_t id, int fixedid, uint64_t *step,
                                uint32_t *steps)
{
	uint8_t w[8];
	uint64_t s, e;
	uint16_t c;
	memcpy(w, tp + 18, 8);
	ofl_put16(w, id);
	/* the checksum: the complement of the header's sum, memory order */
	s = (uint64_t)ipsum + ld16(tp + 16) + ld16(w);
	s = (s & 0xffff) + (s >> 16);
	s = (s & 0xffff) + (s >> 16);
	s = (s & 0xffff) + (s >> 16);
	c = (uint16_t)~s;
	memcpy(w + 6, &c, 2);
	e = get64(w);
	if (fixedid) {
		*step = 0;
		*steps = UINT32_MAX;
	} else {
		uint32_t a = 0xffffu - (uint32_t)(e >> 48), b = (uint32_t)(e & 0xffff);
		*step = (1ull << 48) - 1u;
		*steps = a < b ? a : b;
	}
	return e;
}

/* The header of the frame GRO_AHEAD after q (frame i of a run or the
 * weave) started while there is one (pfend: the burst's length less
 * GRO_AHEAD); those of the last frames were started GRO_AHEAD frames
 * before them. */
static inline void run_prefetch(const struct ofl_pkt *q, unsigned i, unsigned pfend)
{
	const struct ofl_pkt *a = i < pfend ? q + GRO_AHEAD : NULL;
	if (a && a->bufs && a->nbufs) {
#if defined(__GNUC__)
		__builtin_prefetch(a->bufs->data);
#endif
	}
}

static inline uint32_t min32(uint32_t a, uint32_t b)
{
	return a < b ? a : b;
}

/*
 * The run's loop (train_l3()): frames [i, iend) of the burst while each is
 * the expected full segment, r the expected header, seq and e (IPv4) the
 * first one's sequence number and ID-to-checksum word, seg its segment
 * index; slices from s, cookies from c (room for iend - i frames checked
 * by the caller).  multi 0: frames of one buffer; 1: frames of the same
 * number of buffers as the first (want: its packet word), the headers in
 * the first, the payload its rest and every later buffer.  Returns how
 * many frames it took, *nslices how many slices it wrote.
 */
static inline OFL_ALWAYS_INLINE unsigned run_take(const struct ofl_pkt *pkts, unsigned i, unsigned iend, unsigned n,
                                                  const struct run *r, uint32_t hl, uint32_t seq, uint64_t e,
                                                  uint64_t estep, uint32_t seg, struct ofl_slice *s, void **c,
                                                  uint32_t want, uint32_t mask, uint32_t *nslices, const int v4,
                                                  const int multi, const int avx2, const int udp)
{
	/* the slice's len, pkt and buf fields as one word, and the step of
	 * pkt in it (either byte order: pkt stays below 0xffff, no carry) */
	struct ofl_slice ls = {NULL, r->mss, (uint16_t)seg, 0}, st1 = {NULL, 0, 1, 0};
	struct ofl_slice *s0 = s;
	const uint32_t l4c = v4 ? 34u : 54u; /* a fast entry's L4 offset */
	const uint32_t cl = udp ? pred_cmp_len(hl) : hl; /* bytes compared */
	const uint32_t mss = r->mss;
	const unsigned start = i, pfend = n > GRO_AHEAD ? n - GRO_AHEAD : 0;
	uint64_t lw, lstep;
	memcpy(&lw, (const uint8_t *)&ls + SL_LEN, 8);
	memcpy(&lstep, (const uint8_t *)&st1 + SL_LEN, 8);
	for (; i < iend; i++, c++) {
		const struct ofl_pkt *q = &pkts[i];
		const struct ofl_buf *qb = q->bufs;
		const uint8_t *d;
		uint32_t pw;
		memcpy(&pw, &q->nbufs, 4);
		if ((pw & mask) != want || !qb)
			break;
		d = qb->data;
		if ((multi ? qb->len < cl : qb->len != r->full) || !d)
			break;
		run_prefetch(q, i, pfend);
		if (train_cmp(d, r->tp, r->mk, 0, cl, avx2) ||
		    (udp ? !(d[l4c + 6] | d[l4c + 7]) : ofl_get32(d + l4c + 4) != seq) || (v4 && get64(d + 18) != e))
			break;
		if (multi) {
			/* the slices written first, counted when the buffers add
			 * up to a full segment; a later buffer empty or NULL is
			 * left to the general body (room for all: checked) */
			struct ofl_slice *t = s;
			uintptr_t pmin = UINTPTR_MAX;
			uint64_t tot = qb->len; /* no wrap, whatever the lengths */
			uint32_t k, nb = q->nbufs, lmin = UINT32_MAX, pl = qb->len - hl;
			uint16_t sg = (uint16_t)(seg + (i - start));
			t->data = d + hl;
			t->len = pl;
			t->pkt = sg;
			t->buf = 0;
			t += pl != 0;
			for (k = 1; k < nb; k++, t++) {
				const uint8_t *bd = qb[k].data;
				uint32_t bl = qb[k].len;
				t->data = bd;
				t->len = bl;
				t->pkt = sg;
				t->buf = (uint16_t)k;
				tot += bl;
				lmin = bl < lmin ? bl : lmin;
				pmin = (uintptr_t)bd < pmin ? (uintptr_t)bd : pmin;
			}
			if (tot != r->full || lmin == 0 || pmin == 0)
				break;
			s = t;
		} else {
			s->data = d + hl;
			memcpy((uint8_t *)s + SL_LEN, &lw, 8);
			lw += lstep;
			s++;
		}
		*c = q->cookie;
		seq += mss;
		e += estep;
	}
	*nslices = (uint32_t)(s - s0);
	return i - start;
}

/* gro_train() for one L3 (v4 is a constant in each copy).  udp: a
 * GRO_FAST_UDP flow (udp.h), its run of full datagrams only: every other
 * frame is left to header prediction and the full path, which apply the
 * UDP rules one by one; a train completed at UDP_GRO_CNT_MAX datagrams. */
static inline OFL_ALWAYS_INLINE unsigned train_l3(struct ofl_gro *g, uint32_t idx, const struct ofl_pkt *pkts,
                                           unsigned i, unsigned n, const int v4, const int tagged,
                                           const int avx2, const int udp)
{
	struct gro_item *it = &g->items[idx];
	const uint8_t *h0 = it->hdr, *m = udp ? g->pmask[it->stack] : g->pmask[!v4];
	const uint32_t hl = it->hdr_len, l4 = it->l4_off, mss = it->seg_size;
	const uint32_t lenoff = v4 ? 14u : 54u, lenpos = v4 ? 16u : 18u;
	/* behind a DSA tag: bytes before the untagged EtherType beyond the
	 * 12 MAC bytes, and the tail tag */
	const uint32_t pre = tagged ? tag_pre(it) : 0, tl = tagged ? it->rawtail_len : 0;
	struct ofl_slice *sl = gro_slices(g, idx);
	void **ck = gro_cookies(g, idx);
	uint32_t seq = it->next_seq, nsegs = it->nsegs, nsl = it->nslices, added = 0;
	uint32_t room = sat_sub(udp ? gro_udp_max_l3(g) : g->cfg.max_size, it->l3_len);
	uint32_t hroom = sat_sub(g->cfg.max_held_bytes, g->held_bytes);
	/* segments and slices the entry may still take */
	uint32_t seg_end = udp ? min32(g->cfg.max_segs, GRO_UDP_CNT_MAX) : g->cfg.max_segs, sl_end = g->max_slices - 1u;
	uint16_t id = (uint16_t)(it->id0 + (it->fixedid ? 0u : nsegs)), idinc = it->fixedid ? 0u : 1u;
	/* the IPv4 header sum without length, ID and checksum: the same for
	 * every segment that predicts (all its other bytes equal the held
	 * header's) */
	uint64_t ipsum = v4 ? ip4_rest_sum(h0) : 0;
	uint32_t pw_want, pw_mask, pw_nb;
	unsigned start = i;
	uint8_t end = 0, fl = 0;
	struct run r;
	train_pkt_word(&pw_want, &pw_mask, &pw_nb);
	if (!tagged)
		run_init(&r, it, m, ipsum, v4, udp);
	for (; i < n; i++) {
		const struct ofl_pkt *pkt = &pkts[i];
		const struct ofl_buf *b = pkt->bufs;
		const uint8_t *p, *th;
		uint32_t tot, len, pw, nsl_pkt = 1;
		memcpy(&pw, &pkt->nbufs, 4);
		if (!tagged && r.full != UINT32_MAX && b && ((pw & pw_mask) == pw_want ? b->len == r.full
		                                            : (pw & pw_nb) == (pw_want & pw_nb) && b->len >= hl &&
		                                                  pkt->nbufs <= g->cfg.max_bufs && pkt->nbufs > 1)) {
			/* a run of full segments (struct run), of one buffer or
			 * of as many as this frame has */
			uint64_t e = 0, estep = 0;
			uint32_t steps = UINT32_MAX, k, iend, nbr = pkt->nbufs, nsl_run, nadd;
			if (v4)
				e = run_word(r.tp, r.ipsum, id, it->fixedid, &estep, &steps);
			k = min32(min32(n - i, steps), min32(sat_sub(seg_end, nsegs), sat_sub(sl_end, nsl) / nbr));
			k = min32(k, min32(room / mss, hroom / mss));
			iend = i + k;
			if (nbr == 1)
				nadd = run_take(pkts, i, iend, n, &r, hl, seq, e, estep, nsegs, sl + nsl, ck + nsegs,
				                pw_want, pw_mask, &nsl_run, v4, 0, avx2, udp);
			else
				nadd = run_take(pkts, i, iend, n, &r, hl, seq, e, estep, nsegs, sl + nsl, ck + nsegs,
				                pw & pw_mask, pw_mask, &nsl_run, v4, 1, avx2, udp);
			i += nadd;
			k = nadd;
			nsl += nsl_run;
			nsegs += k;
			seq += mss * k;
			if (v4)
				id = (uint16_t)(id + idinc * k);
			room -= mss * k;
			hroom -= mss * k;
			added += mss * k;
			if (i >= n || udp)
				break;
			pkt = &pkts[i];
			b = pkt->bufs;
			memcpy(&pw, &pkt->nbufs, 4);
		}
		if (!b || udp)
			break;
#if defined(__GNUC__)
		if (i + GRO_AHEAD < n) {
			const struct ofl_buf *nb = pkts[i + GRO_AHEAD].bufs;
			if (nb && pkts[i + GRO_AHEAD].nbufs)
				__builtin_prefetch(nb->data);
		}
#endif
		p = b->data;
		tot = b->len;
		if ((pw & pw_mask) != pw_want) {
			if (tagged)
				break;
			/* several buffers (header split, page fragments): what
			 * check_args() would refuse is left to the full path */
			unsigned k, nb = pkt->nbufs;
			if ((pw & pw_nb) != (pw_want & pw_nb) || nb > g->cfg.max_bufs || nb == 0)
				break;
			for (k = 1; k < nb && (b[k].data || !b[k].len); k++)
				tot += b[k].len;
			if (k < nb || tot > 0xffffu || b->len < hl)
				break;
			nsl_pkt = 0; /* counted below */
		}
		if (!p || tot < hl + pre + tl || tot > 0xffffu)
			break;
		if (tagged) {
			if (!tag_same(it, &g->cold[idx], p, tot) || train_cmp(p + pre, h0, m, 12, hl, avx2))
				break;
			p += pre;
			tot -= pre + tl;
		} else if (train_cmp(p, h0, m, 0, hl, avx2)) {
			break;
		}
		th = p + l4;
		len = tot - hl;
		if (len - 1u >= mss || ofl_get32(th + 4) != seq ||
		    ofl_get16(p + lenpos) + lenoff != tot || nsegs >= seg_end || nsl >= sl_end)
			break;
		if (v4) {
			uint64_t s2 = ipsum + ld32(p + 16) + ld16(p + 24);
			s2 = (s2 & 0xffffffffu) + (s2 >> 32);
			s2 = (s2 & 0xffff) + (s2 >> 16);
			s2 = (s2 & 0xffff) + (s2 >> 16);
			s2 = (s2 & 0xffff) + (s2 >> 16);
			if (s2 != 0xffff || ofl_get16(p + 18) != id)
				break;
		}
		if (len > room || len > hroom) {
			/* mergeable but for the size: the full path flushes the
			 * entry (max_size) or makes room first (held bytes) */
			if (len > room && len <= hroom)
				end = 2;
			break;
		}
		if (nsl_pkt) {
			sl[nsl].data = p + hl;
			sl[nsl].len = len;
			sl[nsl].pkt = (uint16_t)nsegs;
			sl[nsl].buf = 0;
		} else {
			/* the payload is the first buffer's rest and every
			 * later buffer (checked above to sum to len) */
			const struct ofl_buf *bb = pkt->bufs;
			unsigned k, nb = pkt->nbufs;
			if (nsl + nb > sl_end)
				break;
			if (bb[0].len > hl)
				sl[nsl + nsl_pkt++] = (struct ofl_slice){bb[0].data + hl, bb[0].len - hl, (uint16_t)nsegs, 0};
			for (k = 1; k < nb; k++)
				if (bb[k].len)
					sl[nsl + nsl_pkt++] =
					    (struct ofl_slice){bb[k].data, bb[k].len, (uint16_t)nsegs, (uint16_t)k};
		}
		id = (uint16_t)(id + idinc);
		ck[nsegs] = pkt->cookie;
		nsl += nsl_pkt;
		nsegs++;
		seq += len;
		room -= len;
		hroom -= len;
		added += len;
		fl = th[13];
		if ((fl & (TCP_PSH | TCP_FIN | TCP_URG | TCP_RST | TCP_SYN)) || len < mss) {
			end = 1;
			i++;
			break;
		}
	}
	it->next_seq = seq;
	it->nslices = (uint16_t)nsl;
	it->payload += added;
	it->l3_len += added;
	it->fin_psh |= fl & (TCP_FIN | TCP_PSH);
	g->held_bytes += added;
	g->st.rx_pkts += i - start;
	g->st.rx_bytes += added + (uint64_t)(nsegs - it->nsegs) * (hl + pre + tl);
	g->st.merged += i - start;
	g->st.merged_fast += i - start;
	it->nsegs = (uint16_t)nsegs;
	if (end == 1)
		gro_end_train(g, idx, fl);
	else if (end == 2)
		gro_complete(g, idx, OFL_GRO_FLUSH_MAX_SIZE);
	else if (udp && nsegs >= GRO_UDP_CNT_MAX)
		gro_complete(g, idx, OFL_GRO_FLUSH_UDP_CNT); /* udp.h gro_udp_merged() */
	return i - start;
}

/* One function per copy: each is register-allocated on its own; with
 * AVX2, an untagged copy per L3 compiled for it. */
#define TRAIN_COPY(name, v4, tagged, avx2, udp, attr)                                              \
	static OFL_NOINLINE attr unsigned name(struct ofl_gro *g, uint32_t idx, const struct ofl_pkt *pkts, \
	                                       unsigned i, unsigned n)                                   \
	{                                                                                          \
		return train_l3(g, idx, pkts, i, n, v4, tagged, avx2, udp);                        \
	}
TRAIN_COPY(train_v4, 1, 0, 0, 0, )
TRAIN_COPY(train_v6, 0, 0, 0, 0, )
TRAIN_COPY(train_v4_tagged, 1, 1, 0, 0, )
TRAIN_COPY(train_v6_tagged, 0, 1, 0, 0, )
TRAIN_COPY(train_udp4, 1, 0, 0, 1, )
TRAIN_COPY(train_udp6, 0, 0, 0, 1, )
#if defined(TRAIN_AVX2)
TRAIN_COPY(train_v4_avx2, 1, 0, 1, 0, GRO_TARGET_AVX2)
TRAIN_COPY(train_v6_avx2, 0, 0, 1, 0, GRO_TARGET_AVX2)
TRAIN_COPY(train_udp4_avx2, 1, 0, 1, 1, GRO_TARGET_AVX2)
TRAIN_COPY(train_udp6_avx2, 0, 0, 1, 1, GRO_TARGET_AVX2)
#endif
#undef TRAIN_COPY

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

unsigned gro_train(struct ofl_gro *g, uint32_t idx, const struct ofl_pkt *pkts, unsigned i, unsigned n)
{
	const struct gro_item *it = &g->items[idx];
	if (it->fast != GRO_FAST_PLAIN) {
		if (it->fast == GRO_FAST_TUN)
			return gro_train_tun(g, idx, pkts, i, n);
		/* GRO_FAST_UDP */
#if defined(TRAIN_AVX2)
		if (gro_cpu_avx2())
			return it->l3 == 4 ? train_udp4_avx2(g, idx, pkts, i, n) : train_udp6_avx2(g, idx, pkts, i, n);
#endif
		return it->l3 == 4 ? train_udp4(g, idx, pkts, i, n) : train_udp6(g, idx, pkts, i, n);
	}
	if (it->rawpre_len)
		return it->l3 == 4 ? train_v4_tagged(g, idx, pkts, i, n) : train_v6_tagged(g, idx, pkts, i, n);
#if defined(TRAIN_AVX2)
	if (gro_cpu_avx2())
		return it->l3 == 4 ? train_v4_avx2(g, idx, pkts, i, n) : train_v6_avx2(g, idx, pkts, i, n);
#endif
	return it->l3 == 4 ? train_v4(g, idx, pkts, i, n) : train_v6(g, idx, pkts, i, n);
}
