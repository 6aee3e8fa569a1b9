/*
 * run1.c - the run of a train for frames of one buffer in the AVX2 train
 * copies (merge.c): the same checks as merge.c's run_take(), which the
 * scalar, SSE2 and NEON builds keep, with the expected header and mask in
 * YMM registers and, for the usual header shapes, the fields that advance
 * (the TCP sequence number, the IPv4 ID-to-checksum word) compared in the
 * masked compare itself, and the UDP checksum's test for zero folded into
 * it (run1_avx2()).
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

/* The pair checks read a frame's bufs pointer and packet word, and a
 * buffer's data pointer and length, as 16-byte halves of one vector. */
_Static_assert(offsetof(struct ofl_pkt, bufs) == 0 && offsetof(struct ofl_pkt, nbufs) == 8 &&
                   offsetof(struct ofl_pkt, cookie) == 24 && sizeof(struct ofl_pkt) == 32 &&
                   offsetof(struct ofl_buf, data) == 0 && offsetof(struct ofl_buf, len) == 8 &&
                   sizeof(struct ofl_buf) == 16 && sizeof(void *) == 8 && SL_LEN == 8,
               "struct ofl_pkt, ofl_buf, ofl_slice as the pair checks read and write them");

/*
 * The run: frames [i, iend) of the burst while each is the expected full
 * segment of one buffer (run_take()'s checks), nblk the 32-byte blocks of
 * the compare (2 + (cl > 64) + (cl > 96), as gro_cmp_avx2() reads them);
 * fold: the sequence number (TCP) and the IPv4 word in stepped blocks
 * (the word in block 0, the sequence number in the last block: the caller
 * checks it lies there, at a multiple of 4).  One function per shape,
 * block count and fold, out of line: its own registers, nothing of the
 * train's state spilled, no frame testing the header length (UDP: one
 * copy a shape, the header length a constant).
 *
 * Frame k's checks before the compare (packet word, one buffer of a full
 * segment's length, data) are made GRO_AHEAD frames before it is compared
 * (the first GRO_AHEAD of the run before the loop), two frames with two
 * vector tests: one of both packets' bufs pointer and packet word, one of
 * both buffers' data pointer and length.  A frame that passes has its
 * header prefetched and its slice (both frames' with one 32-byte store)
 * and cookie written there, so the compare loads only the slice's data
 * pointer.  The first frame that fails ends the run there (the frames
 * after it may have no buffer); no frame past the run is read.  Compares
 * are two frames at a time too, the blocks of both ORed before one test a
 * block; when the pair fails the first frame is tested alone.  Slices and
 * cookies written past the frames taken lie in the room the caller gave
 * for [i, iend) and are not counted.
 */
static inline OFL_ALWAYS_INLINE GRO_TARGET_AVX2 unsigned run1_avx2(const struct ofl_pkt *pkts, unsigned i,
                                                                   unsigned iend, unsigned n, const struct run *r,
                                                                   uint32_t hl, uint32_t seq, uint64_t e,
                                                                   uint64_t estep, uint32_t seg,
                                                                   struct ofl_slice *s, void **c, const int v4,
                                                                   const int udp, const int nblk, const int fold)
{
	const struct ofl_pkt *const p = pkts + i;
	const struct ofl_pkt *pa = p;  /* the next frame to check */
	struct ofl_slice *sk = s;      /* the next frame to compare: its slice */
	unsigned kend = iend - i;      /* frames [0, kend) checked at most */
	const uint32_t l4c = v4 ? 34u : 54u, cl = udp ? pred_cmp_len(hl) : hl, mss = r->mss, full = r->full;
	const int sw0 = fold && v4, swl = fold && !udp; /* block 0, the last block: stepped */
	const __m256i *tp = (const __m256i *)(const void *)r->tp, *mk = (const __m256i *)(const void *)r->mk;
	__m256i t0, m0, h0 = _mm256_setzero_si256(), d0 = h0, t1, m1, h1 = h0, d1 = h0, lwv;
	const __m256i t2 = nblk > 2 ? _mm256_loadu_si256(tp + 1) : h0, m2 = nblk > 2 ? _mm256_loadu_si256(mk + 1) : h0;
	const __m256i t3 = nblk > 3 ? _mm256_loadu_si256(tp + 2) : h0, m3 = nblk > 3 ? _mm256_loadu_si256(mk + 2) : h0;
	/* the pair checks, one 64-bit subtraction and one test a vector:
	 * the packet word (dword 2 of each half) and the length (the same
	 * place in a buffer) minus theirs, zero under their masks when equal
	 * (the masked fields low to high: nbufs and csum_status whole, so a
	 * borrow into a higher one only comes from a lower one that differs),
	 * the pointers (qword 0) minus 1, the top bit set when NULL (or at
	 * 2^63 and above, no user address: the run just ends there); cookies
	 * two a store */
	_Static_assert(sizeof(void *) == 8, "two cookies in 16 bytes");
	const __m256i pw = _mm256_setr_epi32(1, 0, (int)GRO_PKT_PLAIN_WANT, 0, 1, 0, (int)GRO_PKT_PLAIN_WANT, 0);
	const __m256i pm = _mm256_setr_epi32(0, INT32_MIN, (int)GRO_PKT_PLAIN_MASK, 0, 0, INT32_MIN,
	                                     (int)GRO_PKT_PLAIN_MASK, 0);
	const __m256i bl = _mm256_setr_epi32(1, 0, (int)full, 0, 1, 0, (int)full, 0);
	const __m256i bm = _mm256_setr_epi32(0, INT32_MIN, -1, 0, 0, INT32_MIN, -1, 0);
	const __m256i hlv = _mm256_setr_epi64x((long long)hl, 0, (long long)hl, 0);
	/* UDP: a zero checksum ends the run.  The last block's expected
	 * checksum is 0xffff (its mask is 0 there), so a frame's XOR holds
	 * the checksum's complement at word csl / 2 of that block; that
	 * (or the max of two frames') minus 0xfffe with unsigned saturation
	 * is 1 there when a (either) checksum is 0, else 0, and 0 at every
	 * other word (minus 0xffff there); it is ORed into block 0's XOR,
	 * whose byte csl is compared (the IPv4 ID in the stepped lanes, byte
	 * 30 of the IPv6 source address), and so fails that block's test. */
	const uint32_t csl = l4c + 6u - (pred_cmp_len(l4c + 8u) - 32u); /* a UDP header is l4c + 8 bytes */
	const __m256i csw = _mm256_cmpeq_epi16(_mm256_setr_epi16(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15),
	                                       _mm256_set1_epi16((short)(csl / 2u)));
	const __m256i ck = _mm256_add_epi16(_mm256_set1_epi16(-1), csw); /* 0xfffe there, 0xffff elsewhere */
	__m256i lw2;
	uint64_t lw, lstep;
	(void)n;
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
	if (udp)
		t1 = _mm256_or_si256(csw, t1); /* the checksum compared with 0 */
	lw = sl_word(r->mss, (uint16_t)seg, 0);
	lstep = sl_word(0, 1, 0);
	/* the len, pkt and buf words of the slices of frames 0 and 1 (qwords
	 * 1 and 3), and their step to the next pair */
	lwv = _mm256_setr_epi64x(0, (long long)lw, 0, (long long)(lw + lstep));
	lw2 = _mm256_setr_epi64x(0, (long long)(2 * lstep), 0, (long long)(2 * lstep));
	/* frame a checked alone; when it passes, its slice and cookie written
	 * and its header prefetched, else the run ends before it */
#define RUN1_ONE(a)                                                                                      \
	do {                                                                                             \
		const struct ofl_pkt *pq = p + (a);                                                      \
		uint64_t w = lw + (uint64_t)(a)*lstep;                                                   \
		if (!(gro_pkt_plain_meta(pq) && pq->bufs && pq->bufs->len == full && pq->bufs->data)) { \
			kend = (a);                                                                      \
			goto cmp;                                                                        \
		}                                                                                        \
		__builtin_prefetch(pq->bufs->data);                                                      \
		s[a].data = pq->bufs->data + hl;                                                         \
		memcpy((uint8_t *)&s[a] + SL_LEN, &w, 8);                                                \
		c[a] = pq->cookie;                                                                       \
	} while (0)
#define RUN1_AT(a)             \
	do {                   \
		pa = p + (a);  \
		goto bad;      \
	} while (0)
/* a whole frame: bufs pointer and packet word in the low half, the
 * cookie the high half's qword 1 */
#define RUN1_PKT(x) _mm256_loadu_si256((const __m256i *)(const void *)(x))
#define RUN1_HALVES(x, y)                                                                                      \
	_mm256_inserti128_si256(_mm256_castsi128_si256(_mm_loadu_si128((const __m128i *)(const void *)(x))), \
	                        _mm_loadu_si128((const __m128i *)(const void *)(y)), 1)
/* (want's qword 0 is 1: the NULL test; run_bufs.h) */
#define RUN1_BAD(v, want, mask) gro_pair_bad(v, want, mask)
	/* frames pa[0] and pa[1] (both before kend; slices at sa, cookies at
	 * ca) checked: when both pass, their slices and cookies written,
	 * their headers prefetched; else fail (to bad: the first tested
	 * alone, and the run ends at the one that fails) */
#define RUN1_TWO(pa, sa, ca, fail)                                                              \
	do {                                                                                    \
		const struct ofl_buf *b0, *b1;                                                  \
		const __m256i l0 = RUN1_PKT(pa), l1 = RUN1_PKT((pa) + 1);                       \
		__m256i v = _mm256_permute2x128_si256(l0, l1, 0x20);                            \
		if (RUN1_BAD(v, pw, pm))                                                        \
			fail;                                                                   \
		b0 = (pa)[0].bufs;                                                              \
		b1 = (pa)[1].bufs;                                                              \
		v = RUN1_HALVES(b0, b1);                                                        \
		if (RUN1_BAD(v, bl, bm))                                                        \
			fail;                                                                   \
		__builtin_prefetch(b0->data);                                                   \
		__builtin_prefetch(b1->data);                                                   \
		_mm256_storeu_si256((__m256i *)(void *)(sa),                                    \
		                    _mm256_add_epi64(_mm256_blend_epi32(v, lwv, 0xcc), hlv));   \
		lwv = _mm256_add_epi64(lwv, lw2);                                               \
		_mm_storeu_si128((__m128i *)(void *)(ca),                                       \
		                 _mm256_extracti128_si256(_mm256_unpackhi_epi64(l0, l1), 1));  \
	} while (0)
	/* the compare of the header at dd - hl (dd: its slice's data) with
	 * the expected blocks and, in the copies without stepped lanes, sq
	 * and ee */
#define RUN1_X(dd, o, t) \
	_mm256_xor_si256(_mm256_loadu_si256((const __m256i *)(const void *)((dd) + ((ptrdiff_t)(o) - (ptrdiff_t)hl))), t)
#define RUN1_SCALAR(dd, sq, ee)                                                                  \
	((!udp && !swl && ofl_get32((dd) + ((ptrdiff_t)l4c + 4 - (ptrdiff_t)hl)) != (sq)) ||      \
	 (v4 && !sw0 && get64((dd) + (18 - (ptrdiff_t)hl)) != (ee)))
/* the zero-checksum word (UDP) of the last block's XOR x, else 0 */
#define RUN1_CS(x) (udp ? _mm256_subs_epu16(x, ck) : _mm256_setzero_si256())
#define RUN1_DIFF(xa, xb, m) (!_mm256_testz_si256(_mm256_or_si256(xa, xb), m))
#define RUN1_DIFF1(dd, e0, e1, sq, ee)                                                                       \
	(RUN1_DIFF1X(dd, e0, RUN1_X(dd, cl - 32, e1), sq, ee))
#define RUN1_DIFF1X(dd, e0, x1, sq, ee)                                                                      \
	(!_mm256_testz_si256(_mm256_or_si256(RUN1_X(dd, 0, e0), RUN1_CS(x1)), m0) ||                           \
	 !_mm256_testz_si256(x1, m1) || (nblk > 2 && !_mm256_testz_si256(RUN1_X(dd, 32, t2), m2)) ||           \
	 (nblk > 3 && !_mm256_testz_si256(RUN1_X(dd, 64, t3), m3)) || RUN1_SCALAR(dd, sq, ee))
	/* frames sa[0] and sa[1] (checked) compared; when both match, the
	 * expected blocks stepped past them, else the run ends (at out, sk
	 * after the first when it matches alone) */
#define RUN1_CMP2(sa)                                                                                       \
	do {                                                                                                \
		const uint8_t *da = (sa)[0].data, *db = (sa)[1].data;                                       \
		const __m256i ta = t0, ua = t1;                                                             \
		const __m256i tb = sw0 ? _mm256_add_epi32(ta, d0) : ta, ub = swl ? _mm256_add_epi32(ua, d1) : ua; \
		const __m256i ea = sw0 ? _mm256_shuffle_epi8(ta, h0) : ta;                                  \
		const __m256i fa = swl ? _mm256_shuffle_epi8(ua, h1) : ua;                                  \
		const __m256i eb = sw0 ? _mm256_shuffle_epi8(tb, h0) : tb;                                  \
		const __m256i fb = swl ? _mm256_shuffle_epi8(ub, h1) : ub;                                  \
		const __m256i xa = RUN1_X(da, cl - 32, fa), xb = RUN1_X(db, cl - 32, fb);                 \
		if (!_mm256_testz_si256(_mm256_or_si256(_mm256_or_si256(RUN1_X(da, 0, ea), RUN1_X(db, 0, eb)), \
		                                        RUN1_CS(_mm256_max_epu16(xa, xb))),                 \
		                        m0) ||                                                              \
		    RUN1_DIFF(xa, xb, m1) ||                                                                \
		    (nblk > 2 && RUN1_DIFF(RUN1_X(da, 32, t2), RUN1_X(db, 32, t2), m2)) ||                  \
		    (nblk > 3 && RUN1_DIFF(RUN1_X(da, 64, t3), RUN1_X(db, 64, t3), m3)) ||                  \
		    RUN1_SCALAR(da, seq, e) || RUN1_SCALAR(db, seq + mss, e + estep)) {                     \
			sk = (sa) + !RUN1_DIFF1X(da, ea, xa, seq, e);                                       \
			goto out;                                                                           \
		}                                                                                           \
		if (sw0)                                                                                    \
			t0 = _mm256_add_epi32(tb, d0);                                                      \
		else if (v4)                                                                                \
			e += 2 * estep;                                                                     \
		if (swl)                                                                                    \
			t1 = _mm256_add_epi32(ub, d1);                                                      \
		else                                                                                        \
			seq += 2 * mss;                                                                     \
	} while (0)
	/* the first GRO_AHEAD frames checked (unrolled when the run has them) */
	_Static_assert(GRO_AHEAD == 8, "the checks before the loop: four pairs");
	if (kend >= GRO_AHEAD) {
		RUN1_TWO(p, s, c, RUN1_AT(0));
		RUN1_TWO(p + 2, s + 2, c + 2, RUN1_AT(2));
		RUN1_TWO(p + 4, s + 4, c + 4, RUN1_AT(4));
		RUN1_TWO(p + 6, s + 6, c + 6, RUN1_AT(6));
		pa = p + GRO_AHEAD;
	} else {
		for (; pa + 1 < p + kend; pa += 2)
			RUN1_TWO(pa, s + (pa - p), c + (pa - p), goto bad);
		if (pa < p + kend)
			RUN1_ONE(kend - 1);
		goto cmp;
	}
	/* two frames compared an iteration while the two GRO_AHEAD on are
	 * in the run, which are checked first */
	if (kend > GRO_AHEAD + 1) {
		/* one index x for the three arrays: 8 bytes a frame (a
		 * cookie), the slices at 2x and the frames at 4x */
		const uint8_t *const pb = (const uint8_t *)(const void *)(p + GRO_AHEAD);
		uint8_t *const sb = (uint8_t *)(void *)s, *const cb = (uint8_t *)(void *)(c + GRO_AHEAD);
		const size_t xend = (size_t)(kend - 1u - GRO_AHEAD) * 8u;
		size_t x = 0;
		for (; x < xend; x += 16) {
			RUN1_TWO((const struct ofl_pkt *)(const void *)(pb + 4 * x),
			         (struct ofl_slice *)(void *)(sb + 2 * x + GRO_AHEAD * sizeof(struct ofl_slice)), cb + x,
			         goto badx);
			RUN1_CMP2((struct ofl_slice *)(void *)(sb + 2 * x));
		}
		pa = p + GRO_AHEAD + x / 8u;
		sk = s + x / 8u;
		if (0) {
badx:
			pa = p + GRO_AHEAD + x / 8u;
			sk = s + x / 8u;
			goto bad;
		}
	}
	if (pa < p + kend)
		RUN1_ONE(kend - 1);
	goto cmp;
bad:
	/* a pair failed: the first alone */
	RUN1_ONE((unsigned)(pa - p));
	kend = (unsigned)(pa - p) + 1;
cmp:
	for (; sk + 1 < s + kend; sk += 2)
		RUN1_CMP2(sk);
	if (sk < s + kend && !RUN1_DIFF1(sk->data, sw0 ? _mm256_shuffle_epi8(t0, h0) : t0,
	                                 swl ? _mm256_shuffle_epi8(t1, h1) : t1, seq, e))
		sk++;
out:
#undef RUN1_CMP2
#undef RUN1_DIFF1
#undef RUN1_DIFF1X
#undef RUN1_CS
#undef RUN1_DIFF
#undef RUN1_SCALAR
#undef RUN1_X
#undef RUN1_TWO
#undef RUN1_BAD
#undef RUN1_HALVES
#undef RUN1_PKT
#undef RUN1_AT
#undef RUN1_ONE
	return (unsigned)(sk - s);
}

/* A UDP header's length: the plain shape's, as merge.c holds it (a
 * constant in the UDP copies); a TCP header's without options (plain: a
 * constant in those copies). */
#define RUN1_UDP_HL(v4) ((v4) ? 34u + 8u : 54u + 8u)
#define RUN1_TCP_HL(v4) ((v4) ? 34u + 20u : 54u + 20u)
#define RUN1_COPYP(name, v4, udp, nblk, fold, plain)                                                           \
	static OFL_NOINLINE GRO_TARGET_AVX2 unsigned name(const struct ofl_pkt *p, unsigned kend, struct run *r,       \
	                                                  uint32_t hl, uint32_t seq, uint64_t e, uint64_t estep,      \
	                                                  uint32_t seg, struct ofl_slice *s, void **c)                \
	{                                                                                                       \
		return run1_avx2(p, 0, kend, kend, r,                                                           \
		                 udp ? RUN1_UDP_HL(v4) : plain ? RUN1_TCP_HL(v4) : hl, seq, e, estep, seg, s, c, v4, \
		                 udp, nblk, fold);                                                              \
	}
#define RUN1_COPY(name, v4, udp, nblk, fold) RUN1_COPYP(name, v4, udp, nblk, fold, 0)
/* the three block counts of a shape */
#define RUN1_COPIES(pre, v4, udp, fold) \
	RUN1_COPY(pre##_2, v4, udp, 2, fold) RUN1_COPY(pre##_3, v4, udp, 3, fold) RUN1_COPY(pre##_4, v4, udp, 4, fold)
/* TCP folded: headers of at most l4c + 36 bytes (the sequence number in
 * the last block), so never four blocks, nor two for IPv6 (cl >= 74) */
RUN1_COPY(run1_v4f_2, 1, 0, 2, 1)
RUN1_COPY(run1_v4f_3, 1, 0, 3, 1)
RUN1_COPY(run1_v6f_3, 0, 0, 3, 1)
/* and without TCP options (hl a constant) */
RUN1_COPYP(run1_v4p, 1, 0, 2, 1, 1)
RUN1_COPYP(run1_v6p, 0, 0, 3, 1, 1)
RUN1_COPIES(run1_v4, 1, 0, 0)
RUN1_COPIES(run1_v6, 0, 0, 0)
/* UDP: the plain shape only (merge.c: hl is l4c + 8), two blocks */
RUN1_COPY(run1_udp4_2, 1, 1, 2, 1)
RUN1_COPY(run1_udp6_2, 0, 1, 2, 0)
#undef RUN1_COPIES
#undef RUN1_COPY
#undef RUN1_COPYP
#undef RUN1_TCP_HL
#undef RUN1_UDP_HL

#define RUN1_PICK(pre, cl) ((cl) > 96 ? pre##_4 : (cl) > 64 ? pre##_3 : pre##_2)
run1_fn *gro_run1_pick(uint32_t hl, int v4, int udp)
{
	const uint32_t cl = udp ? pred_cmp_len(hl) : hl, l4c = v4 ? 34u : 54u;
	if (udp)
		return v4 ? run1_udp4_2 : run1_udp6_2;
	if (hl == l4c + 20u)
		return v4 ? run1_v4p : run1_v6p; /* no TCP options */
	if (hl >= l4c + 20u && hl <= l4c + 36u && !((hl - l4c) & 3u))
		return v4 ? (cl > 64 ? run1_v4f_3 : run1_v4f_2) : run1_v6f_3; /* the sequence number in the last block */
	return v4 ? RUN1_PICK(run1_v4, cl) : RUN1_PICK(run1_v6, cl);
}

#define RUN1_FIRST(name, v4, udp)                                                                              \
	unsigned name(const struct ofl_pkt *p, unsigned kend, struct run *r, uint32_t hl, uint32_t seq, uint64_t e, \
	              uint64_t estep, uint32_t seg, struct ofl_slice *s, void **c)                                 \
	{                                                                                                         \
		r->run1 = gro_run1_pick(hl, v4, udp);                                                             \
		return r->run1(p, kend, r, hl, seq, e, estep, seg, s, c);                                         \
	}
RUN1_FIRST(gro_run1_first_v4, 1, 0)
RUN1_FIRST(gro_run1_first_v6, 0, 0)
RUN1_FIRST(gro_run1_first_udp4, 1, 1)
RUN1_FIRST(gro_run1_first_udp6, 0, 1)
#undef RUN1_FIRST

#undef RUN1_PICK

#endif
