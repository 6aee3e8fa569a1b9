/*
 * run1.c - the run of a train for frames of one buffer in the AVX2 train
 * copies (merge.c): the same checks as merge.c's run_take(), which the
 * scalar, SSE2 and NEON builds keep, with the expected header and mask in
 * YMM registers and, for the usual header shapes, the fields that advance
 * (the TCP sequence number, the IPv4 ID-to-checksum word) compared in the
 * masked compare itself.
 *
 * The stepped lanes: a block of the compare that holds such a field keeps
 * the expected bytes as a state vector in which each field is stored in
 * the CPU's byte order (little-endian: x86-64), one vpshufb turning it
 * into the bytes on the wire (the field's bytes swapped in place, every
 * other byte where it is) and one vpaddd stepping it to the next frame's:
 * the sequence number is a whole 32-bit lane (+mss, wrapping as
 * seq += mss does); the IP ID the upper half of the lane of bytes 16-19
 * (+1) and the header checksum the lower half of the lane of bytes 24-27
 * (-1), exact while neither wraps: the run is bounded there (run.h
 * run_word(), the same bound as the word compare it replaces).
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "gro/lanes.h"

#if defined(TRAIN_AVX2)

/*
 * The run: frames [i, iend) of the burst while each is the expected full
 * segment of one buffer (run_take()'s checks), nblk the 32-byte blocks of
 * the compare (2 + (cl > 64) + (cl > 96), as gro_cmp_avx2() reads them);
 * fold: the sequence number (TCP) and the IPv4 word in stepped blocks
 * (the word in block 0, the sequence number in the last block: the caller
 * checks it lies there, at a multiple of 4).  One function per shape,
 * block count and fold, out of line: its own registers, nothing of the
 * train's state spilled, no frame testing the header length.  A frame's
 * checks before the compare are made when its header is prefetched,
 * GRO_AHEAD frames early (they load what the prefetch loads).  Two frames
 * an iteration while the frame GRO_AHEAD on is in the burst, then one.
 */
static inline OFL_ALWAYS_INLINE GRO_TARGET_AVX2 unsigned run1_avx2(const struct ofl_pkt *pkts, unsigned i,
                                                                   unsigned iend, unsigned n, const struct run *r,
                                                                   uint32_t hl, uint32_t seq, uint64_t e,
                                                                   uint64_t estep, uint32_t seg,
                                                                   struct ofl_slice *s, void **c, const int v4,
                                                                   const int udp, const int nblk, const int fold)
{
	struct ofl_slice ls = {NULL, r->mss, (uint16_t)seg, 0}, st1 = {NULL, 0, 1, 0};
	const struct ofl_pkt *q = pkts + i, *q0 = q, *qend = pkts + iend;
	const struct ofl_pkt *pfend = n > GRO_AHEAD ? pkts + (n - GRO_AHEAD) : pkts, *qpf;
	const uint32_t l4c = v4 ? 34u : 54u, cl = udp ? pred_cmp_len(hl) : hl, mss = r->mss, full = r->full;
	const int sw0 = fold && v4, swl = fold && !udp; /* block 0, the last block: stepped */
	const __m256i *tp = (const __m256i *)(const void *)r->tp, *mk = (const __m256i *)(const void *)r->mk;
	__m256i t0, m0, h0 = _mm256_setzero_si256(), d0 = h0, t1, m1, h1 = h0, d1 = h0;
	const __m256i t2 = nblk > 2 ? _mm256_loadu_si256(tp + 1) : h0, m2 = nblk > 2 ? _mm256_loadu_si256(mk + 1) : h0;
	const __m256i t3 = nblk > 3 ? _mm256_loadu_si256(tp + 2) : h0, m3 = nblk > 3 ? _mm256_loadu_si256(mk + 2) : h0;
	uint64_t lw, lstep;
	if (sw0) {
		lanes_word(r, e, estep, &t0, &h0, &d0, &m0);
	} else {
		t0 = _mm256_loadu_si256(tp);
		m0 = _mm256_loadu_si256(mk);
	}
	if (swl) {
		lanes_seq(r, cl - 32, l4c + 4, seq, &t1, &h1, &d1, &m1);
	} else {
		t1 = _mm256_loadu_si256((const __m256i *)(const void *)(r->tp + cl - 32));
		m1 = _mm256_loadu_si256((const __m256i *)(const void *)(r->mk + cl - 32));
	}
	memcpy(&lw, (const uint8_t *)&ls + SL_LEN, 8);
	memcpy(&lstep, (const uint8_t *)&st1 + SL_LEN, 8);
	/* frame a's checks before its compare (packet word, one buffer of a
	 * full segment's length, data): made as its header is prefetched,
	 * GRO_AHEAD frames before it is compared (the first GRO_AHEAD of the
	 * run here), so a frame compared has passed them; the first that
	 * fails ends the run there, and the prefetches with it (the frames
	 * after it may have no buffer) */
#define RUN1_OK(a) (gro_pkt_plain_meta(a) && (a)->bufs && (a)->bufs->len == full && (a)->bufs->data)
#define RUN1_AHEAD(a)                                   \
	do {                                            \
		if (!RUN1_OK(a)) {                      \
			qend = (a) < qend ? (a) : qend; \
			pfend = q;                      \
			goto tail;                      \
		}                                       \
		__builtin_prefetch((a)->bufs->data);    \
	} while (0)
	/* frame q[j], checked already (by RUN1_AHEAD() or before the loop):
	 * compared, then taken (its slice and cookie written, the expected
	 * fields stepped); at the first that is not, q is it */
#define RUN1_BLK(o, t, m) \
	_mm256_and_si256(_mm256_xor_si256(_mm256_loadu_si256((const __m256i *)(const void *)(d + (o))), t), m)
#define RUN1_FRAME(j)                                                                                       \
	do {                                                                                                \
		const struct ofl_pkt *qq = q + (j);                                                          \
		const uint8_t *d;                                                                           \
		__m256i x;                                                                                  \
		d = qq->bufs->data;                                                                         \
		x = _mm256_or_si256(RUN1_BLK(0, sw0 ? _mm256_shuffle_epi8(t0, h0) : t0, m0),                \
		                    RUN1_BLK(cl - 32, swl ? _mm256_shuffle_epi8(t1, h1) : t1, m1));         \
		if (nblk > 2)                                                                               \
			x = _mm256_or_si256(x, RUN1_BLK(32, t2, m2));                                       \
		if (nblk > 3)                                                                               \
			x = _mm256_or_si256(x, RUN1_BLK(64, t3, m3));                                       \
		if (!_mm256_testz_si256(x, x) || (udp && !(d[l4c + 6] | d[l4c + 7])) ||                     \
		    (!udp && !swl && ofl_get32(d + l4c + 4) != seq) || (v4 && !sw0 && get64(d + 18) != e))  \
			goto out##j;                                                                        \
		s[j].data = d + hl;                                                                         \
		memcpy((uint8_t *)&s[j] + SL_LEN, &lw, 8);                                                  \
		lw += lstep;                                                                                \
		c[j] = qq->cookie;                                                                          \
		if (sw0)                                                                                    \
			t0 = _mm256_add_epi32(t0, d0);                                                      \
		else if (v4)                                                                                \
			e += estep;                                                                         \
		if (swl)                                                                                    \
			t1 = _mm256_add_epi32(t1, d1);                                                      \
		else                                                                                        \
			seq += mss;                                                                         \
	} while (0)
	{
		/* the first GRO_AHEAD frames checked here; the two-frame loop
		 * while the frame GRO_AHEAD on is in the burst (the frames
		 * past the run's end checked too, harmlessly), then one a time */
		const struct ofl_pkt *a = q, *pe = (size_t)(qend - q) > GRO_AHEAD ? q + GRO_AHEAD : qend;
		while (a < pe && RUN1_OK(a))
			a++;
		qend = a < pe ? a : qend;
		qpf = pfend < qend ? pfend : qend;
	}
	for (; q + 1 < qpf; q += 2, s += 2, c += 2) {
		RUN1_AHEAD(q + GRO_AHEAD);
		RUN1_AHEAD(q + GRO_AHEAD + 1);
		RUN1_FRAME(0);
		RUN1_FRAME(1);
	}
tail:
	for (; q < qend; q++, s++, c++) {
		if (q < pfend) {
			const struct ofl_pkt *a = q + GRO_AHEAD;
			if (RUN1_OK(a)) {
				__builtin_prefetch(a->bufs->data);
			} else {
				qend = a < qend ? a : qend;
				pfend = q;
			}
		}
		RUN1_FRAME(0);
	}
#undef RUN1_FRAME
#undef RUN1_BLK
#undef RUN1_AHEAD
#undef RUN1_OK
out0:
	return (unsigned)(q - q0);
out1:
	return (unsigned)(q + 1 - q0);
}

#define RUN1_COPY(name, v4, udp, nblk, fold)                                                                    \
	static OFL_NOINLINE GRO_TARGET_AVX2 unsigned name(const struct ofl_pkt *pkts, unsigned i, unsigned iend,  \
	                                                  unsigned n, const struct run *r, uint32_t hl,           \
	                                                  uint32_t seq, uint64_t e, uint64_t estep, uint32_t seg, \
	                                                  struct ofl_slice *s, void **c)                          \
	{                                                                                                         \
		return run1_avx2(pkts, i, iend, n, r, hl, seq, e, estep, seg, s, c, v4, udp, nblk, fold);         \
	}
/* the three block counts of a shape */
#define RUN1_COPIES(pre, v4, udp, fold) \
	RUN1_COPY(pre##_2, v4, udp, 2, fold) RUN1_COPY(pre##_3, v4, udp, 3, fold) RUN1_COPY(pre##_4, v4, udp, 4, fold)
/* TCP folded: headers of at most l4c + 36 bytes (the sequence number in
 * the last block), so never four blocks, nor two for IPv6 (cl >= 74) */
RUN1_COPY(run1_v4f_2, 1, 0, 2, 1)
RUN1_COPY(run1_v4f_3, 1, 0, 3, 1)
RUN1_COPY(run1_v6f_3, 0, 0, 3, 1)
RUN1_COPIES(run1_v4, 1, 0, 0)
RUN1_COPIES(run1_v6, 0, 0, 0)
RUN1_COPIES(run1_udp4, 1, 1, 1)
RUN1_COPIES(run1_udp6, 0, 1, 0)
#undef RUN1_COPIES
#undef RUN1_COPY

typedef unsigned run1_fn(const struct ofl_pkt *pkts, unsigned i, unsigned iend, unsigned n, const struct run *r,
                         uint32_t hl, uint32_t seq, uint64_t e, uint64_t estep, uint32_t seg, struct ofl_slice *s,
                         void **c);

#define RUN1_PICK(pre, cl) ((cl) > 96 ? pre##_4 : (cl) > 64 ? pre##_3 : pre##_2)
unsigned gro_run1_avx2(const struct ofl_pkt *pkts, unsigned i, unsigned iend, unsigned n, const struct run *r,
                       uint32_t hl, uint32_t seq, uint64_t e, uint64_t estep, uint32_t seg, struct ofl_slice *s,
                       void **c, int v4, int udp)
{
	const uint32_t cl = udp ? pred_cmp_len(hl) : hl, l4c = v4 ? 34u : 54u;
	run1_fn *f;
	if (udp)
		f = v4 ? RUN1_PICK(run1_udp4, cl) : RUN1_PICK(run1_udp6, cl);
	else if (hl >= l4c + 20u && hl <= l4c + 36u && !((hl - l4c) & 3u))
		f = v4 ? (cl > 64 ? run1_v4f_3 : run1_v4f_2) : run1_v6f_3; /* the sequence number in the last block */
	else
		f = v4 ? RUN1_PICK(run1_v4, cl) : RUN1_PICK(run1_v6, cl);
	return f(pkts, i, iend, n, r, hl, seq, e, estep, seg, s, c);
}
#undef RUN1_PICK

#endif
