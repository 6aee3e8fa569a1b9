/*
 * train_run.h - merge.c's run of one train (train_once()): the run of full
 * segments with the checks one frame at a time (run_take(): the scalar,
 * SSE2 and NEON builds' run, and every build's for one frame or several
 * buffers), the run of one buffer (run1.c's in the AVX2 copies), and the
 * frames a span carries into the flow's next entry.
 */
#ifndef OFL_GRO_TRAIN_RUN_H
#define OFL_GRO_TRAIN_RUN_H

#include <stddef.h>
#include <string.h>

#include "gro/run.h"

/*
 * The run's loop (train_once()): frames [i, iend) of the burst while each is
 * the expected full segment, r the expected header, seq and e (IPv4) the
 * first one's sequence number and ID-to-checksum word, seg its segment
 * index; slices from s, cookies from c (room for iend - i frames checked
 * by the caller); frames of one buffer (want: their packet word).
 * Returns how many frames it took, *nslices how many slices it wrote.
 */
static inline OFL_ALWAYS_INLINE unsigned run_take(const struct ofl_pkt *pkts, unsigned i, unsigned iend, unsigned n,
                                                  const struct run *r, uint32_t hl, uint32_t seq, uint64_t e,
                                                  uint64_t estep, uint32_t seg, struct ofl_slice *s, void **c,
                                                  uint32_t want, uint32_t mask, uint32_t *nslices, const int v4,
                                                  const int avx2, const int udp)
{
	struct ofl_slice *s0 = s;
	const uint32_t l4c = v4 ? 34u : 54u; /* a fast entry's L4 offset */
	const uint32_t cl = udp ? pred_cmp_len(hl) : hl; /* bytes compared */
	const uint32_t mss = r->mss;
	const unsigned start = i, pfend = n > GRO_AHEAD ? n - GRO_AHEAD : 0;
	/* the slice's len, pkt and buf fields as one word, and the step of
	 * pkt in it (either byte order: pkt stays below 0xffff, no carry) */
	uint64_t lw = sl_word(mss, (uint16_t)seg, 0), lstep = sl_word(0, 1, 0);
	for (; i < iend; i++, c++) {
		const struct ofl_pkt *q = &pkts[i];
		const struct ofl_buf *qb = q->bufs;
		const uint8_t *d;
		uint32_t pw;
		memcpy(&pw, &q->nbufs, 4);
		if ((pw & mask) != want || !qb)
			break;
		d = qb->data;
		if (qb->len != r->full || !d)
			break;
		run_prefetch(q, i, pfend);
		if (train_cmp(d, r->tp, r->mk, 0, cl, avx2) ||
		    (udp ? !(d[l4c + 6] | d[l4c + 7]) : ofl_get32(d + l4c + 4) != seq) || (v4 && get64(d + 18) != e))
			break;
		s->data = d + hl;
		memcpy((uint8_t *)s + SL_LEN, &lw, 8);
		lw += lstep;
		s++;
		*c = q->cookie;
		seq += mss;
		e += estep;
	}
	*nslices = (uint32_t)(s - s0);
	return i - start;
}


/* The run of frames of one buffer: run1.c's in the AVX2 copies, else
 * run_take(); *nsl: the slices written (one a frame). */
static inline OFL_ALWAYS_INLINE unsigned run_one_buf(const struct ofl_pkt *pkts, unsigned i, unsigned iend,
                                                     unsigned n, struct run *r, uint32_t hl, uint32_t seq,
                                                     uint64_t e, uint64_t estep, uint32_t seg, struct ofl_slice *s,
                                                     void **c, uint32_t *nsl, const int v4, const int avx2,
                                                     const int udp)
{
#if defined(TRAIN_AVX2)
	if (avx2) {
		/* run1.c's run, its copy picked once a train (r->run1) */
		return *nsl = r->run1(pkts + i, iend - i, r, hl, seq, e, estep, seg, s, c);
	}
#endif
	return run_take(pkts, i, iend, n, r, hl, seq, e, estep, seg, s, c, GRO_PKT_PLAIN_WANT, GRO_PKT_PLAIN_MASK,
	                nsl, v4, avx2, udp);
}

/* The slices a run of several buffers writes for frame q (its first
 * buffer's rest when there is any, and every later buffer). */
static inline uint32_t frame_slices(const struct ofl_pkt *q, uint32_t hl)
{
	return q->nbufs - 1u + (q->bufs->len != hl);
}

/* A span of several buffers (train_once()): of the nadd frames from q the
 * run took, writing nsl slices, frame k is the next entry's first.  When
 * every frame has as many slices as the first (each has nbufs - 1 or
 * nbufs: the sum says), the frames after it are carried (*renew kept);
 * else none (*renew 1: the burst goes on from frame k + 1).  Returns the
 * slices of the frames before k. */
static inline uint32_t span_slices(const struct ofl_pkt *q, uint32_t k, uint32_t nadd, uint32_t nsl,
                                   uint32_t hl, uint32_t *renew)
{
	const uint32_t f = frame_slices(q, hl);
	uint32_t j;
	if (nsl == nadd * f)
		return k * f;
	for (j = k; j < nadd; j++)
		nsl -= frame_slices(q + j, hl);
	*renew = 1;
	return nsl;
}

/* One carried slice: ss's, its segment index w0 (as the pkt field's
 * difference in the word at SL_LEN) lower, at ds. */
static inline OFL_ALWAYS_INLINE void carry_one(struct ofl_slice *ds, const struct ofl_slice *ss, uint64_t w0)
{
	uint64_t w;
	memcpy(&w, (const uint8_t *)ss + SL_LEN, 8);
	w -= w0;
	ds->data = ss->data;
	memcpy((uint8_t *)ds + SL_LEN, &w, 8);
}

/* A span's carried frames of one buffer (train_once(); a span of several
 * buffers writes them where they go: run_split.c, struct run_at2): n
 * slices and cookies from ss and sc to ds and dc, the slices' segment
 * index from seg on (the same length and buffer; its index one more than
 * the last's as at ss).  Four slices and four cookies (32 bytes) a step
 * with GCC's vectors, then two. */
static inline OFL_ALWAYS_INLINE void carry_slices(struct ofl_slice *ds, void **dc, const struct ofl_slice *ss,
                                                  void *const *sc, uint32_t n, uint32_t seg)
{
	uint64_t w0, w1;
	uint32_t t = 0;
	memcpy(&w0, (const uint8_t *)ss + SL_LEN, 8);
	w1 = w0;
	memcpy((uint8_t *)&w1 + (offsetof(struct ofl_slice, pkt) - SL_LEN), &(uint16_t){(uint16_t)seg}, 2);
	w0 -= w1; /* (the pkt field's difference, no borrow: seg is the lower) */
#if defined(__GNUC__)
	{
		typedef uint64_t v4q __attribute__((vector_size(32)));
		typedef uint64_t v2q __attribute__((vector_size(16)));
		const v4q d = {0, w0, 0, w0};
		for (; t + 3 < n; t += 4) {
			v4q x, x1, y;
			memcpy(&x, ss + t, sizeof(x));
			memcpy(&x1, ss + t + 2, sizeof(x1));
			memcpy(&y, sc + t, sizeof(y));
			memcpy(dc + t, &y, sizeof(y));
			x -= d;
			x1 -= d;
			memcpy(ds + t, &x, sizeof(x));
			memcpy(ds + t + 2, &x1, sizeof(x1));
		}
		for (; t + 1 < n; t += 2) {
			v4q x;
			v2q y;
			memcpy(&x, ss + t, sizeof(x));
			memcpy(&y, sc + t, sizeof(y));
			memcpy(dc + t, &y, sizeof(y));
			x -= d;
			memcpy(ds + t, &x, sizeof(x));
		}
	}
#endif
	for (; t < n; t++) {
		carry_one(ds + t, ss + t, w0);
		dc[t] = sc[t];
	}
}

/* A span's carried UDP datagrams of several buffers (TCP's are written by
 * the run where they go: struct run_at2): ns slices from ss to ds, their
 * segment index from seg on (each frame's as many slices, its index one
 * more than the last's as at ss), and n cookies from sc to dc.  Four
 * slices (two vectors of 32 bytes) and two cookies a step with GCC's
 * vectors. */
static inline OFL_ALWAYS_INLINE void carry_slices_bufs(struct ofl_slice *ds, void **dc, const struct ofl_slice *ss,
                                                       void *const *sc, uint32_t ns, uint32_t n, uint32_t seg)
{
	uint64_t w0, w1;
	uint32_t t = 0, u = 0;
	memcpy(&w0, (const uint8_t *)ss + SL_LEN, 8);
	w1 = w0;
	memcpy((uint8_t *)&w1 + (offsetof(struct ofl_slice, pkt) - SL_LEN), &(uint16_t){(uint16_t)seg}, 2);
	w0 -= w1;
#if defined(__GNUC__)
	{
		typedef uint64_t v4q __attribute__((vector_size(32)));
		typedef uint64_t v2q __attribute__((vector_size(16)));
		const v4q d = {0, w0, 0, w0};
		for (; t + 3 < ns; t += 4) {
			v4q x0, x1;
			memcpy(&x0, ss + t, sizeof(x0));
			memcpy(&x1, ss + t + 2, sizeof(x1));
			x0 -= d;
			x1 -= d;
			memcpy(ds + t, &x0, sizeof(x0));
			memcpy(ds + t + 2, &x1, sizeof(x1));
		}
		for (; u + 1 < n; u += 2) {
			v2q y;
			memcpy(&y, sc + u, sizeof(y));
			memcpy(dc + u, &y, sizeof(y));
		}
	}
#endif
	for (; t < ns; t++)
		carry_one(ds + t, ss + t, w0);
	for (; u < n; u++)
		dc[u] = sc[u];
}

#endif
