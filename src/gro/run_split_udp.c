/*
 * run_split_udp.c - the header split of a GRO_FAST_UDP entry's datagrams
 * under AVX2 (run_bufs.c gro_run_bufs_udp() picks it): each datagram's
 * first buffer exactly its headers (Ethernet, IP without options, UDP:
 * 42 or 62 bytes), its later buffers (four or two in all) as long as the
 * run's first datagram's.  A copy per L3 and buffer count.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "gro/lanes.h"
#define GRO_RUN_BUFS_LANES
#include "gro/run_bufs.h"

#if defined(TRAIN_AVX2)
/* The expected buffers b[0], b[1] of a frame as one vector: their
 * lengths, their data 1 (a frame's data minus it has its top bit set when
 * NULL), and in each padding word (dwords 3 and 7) the pkt/buf words pb0
 * and pb1 (a frame's buffers get them blended in before they are written
 * as slices, so that the difference is 0 there). */
static inline GRO_TARGET_AVX2 __m256i udp_expect(const struct ofl_buf *b, uint32_t pb0, uint32_t pb1)
{
	const __m256i v = _mm256_loadu_si256((const __m256i *)(const void *)b);
	const __m256i w = _mm256_setr_epi32(1, 0, 0, (int)pb0, 1, 0, 0, (int)pb1);
	return _mm256_blend_epi32(v, w, 0xbb);
}

/* Do the datagrams' buffers split as udp_split() takes them?  The packet
 * word the train's (merge.c: nbuf buffers, checksum verified, no VLAN
 * flag), the first datagram's first buffer exactly the headers and its
 * later ones none empty, none over 0x10000 bytes (so that three add up
 * without a wrap), adding up to a full datagram. */
static inline OFL_ALWAYS_INLINE int udp_split_ok(const struct ofl_buf *b, const struct run_at *a, uint32_t hl,
                                                 int nbuf)
{
	/* (two buffers: the third and fourth taken as 1 byte, not added) */
	const uint32_t l1 = b[1].len, l2 = nbuf == 4 ? b[2].len : 1u, l3 = nbuf == 4 ? b[3].len : 1u;
	const uint32_t w = gro_pkt_word_of((uint16_t)nbuf, OFL_CSUM_UNNECESSARY, 0);
	return a->want == w && a->mask == GRO_PKT_PLAIN_MASK && b[0].len == hl &&
	       !(((l1 - 1u) | (l2 - 1u) | (l3 - 1u)) >> 16) && hl + l1 + (nbuf == 4 ? l2 + l3 : 0u) == a->r->full;
}

/*
 * The run of datagrams at the header split (nbuf 4 or 2 buffers), as
 * gro_run_bufs_udp().  A datagram's buffers read in one or two 32-byte
 * loads, buffers 1 to nbuf - 1 written as its slices (pkt/buf words
 * blended in), and the loads minus the expected ones (udp_expect())
 * tested under one mask: no data NULL, every length the first datagram's.
 * The header compared in two blocks, [0, 32) and [hl - 32, hl): block 0
 * with the IPv4 ID-to-checksum word in stepped lanes (lanes.h
 * lanes_word()), the last with the UDP checksum expected 0xffff where the
 * mask leaves it out, so that its XOR there is the checksum's complement:
 * that minus 0xfffe with unsigned saturation is 1 when the checksum is 0
 * (else 0, and 0 in every other word, minus 0xffff), OR-ed into block 0's
 * XOR at byte 30 (the IPv4 destination address, byte 8 of the IPv6
 * source: compared), so that a zero checksum fails block 0.  Two
 * datagrams a step while the two GRO_AHEAD on are in the burst (their
 * packet words and buffer arrays checked as one and their headers
 * prefetched; the first GRO_AHEAD checked before the loop), their tests
 * OR-ed; when they fail, and past them, one a step with its own checks,
 * which stops at the one that fails.  A datagram whose buffers differ
 * from the first's: the rest to gro_bufs_udp_avx2(), which checks their
 * sum.
 */
static inline OFL_ALWAYS_INLINE GRO_TARGET_AVX2 unsigned udp_split(const struct ofl_pkt *pkts, unsigned i,
                                                                   unsigned iend, unsigned n,
                                                                   const struct run_at *a, uint32_t *nslices,
                                                                   const int v4, const int nbuf)
{
	const uint32_t l4c = v4 ? 34u : 54u, hl = l4c + 8u, ns = (uint32_t)nbuf - 1u;
	if (!udp_split_ok(pkts[i].bufs, a, hl, nbuf))
		return gro_bufs_udp_avx2(pkts, i, iend, n, a, nslices, v4);
	const struct run *r = a->r;
	const uint32_t want = a->want, mask = a->mask;
	const uint32_t pb0 = pb_word((uint16_t)a->seg, 0), bstep = pb_word(0, 1), pbstep = pb_word(1, 0);
	const struct ofl_buf *fb = pkts[i].bufs;
	const struct ofl_pkt *q = pkts + i, *const q0 = q, *qend = pkts + iend, *f, *qpf;
	const struct ofl_pkt *const pfend = pkts + (n > GRO_AHEAD ? n - GRO_AHEAD : 0);
	struct ofl_slice *s = a->s;
	void **c = a->c;
	const __m256i st = _mm256_setr_epi32(0, 0, 0, (int)pbstep, 0, 0, 0, (int)pbstep);
	const __m256i bm = _mm256_setr_epi32(0, INT32_MIN, -1, -1, 0, INT32_MIN, -1, -1);
	const __m256i csw = _mm256_cmpeq_epi16(_mm256_setr_epi16(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15),
	                                       _mm256_set1_epi16(15)); /* the checksum: bytes 30, 31 of the block */
	const __m256i ck = _mm256_add_epi16(_mm256_set1_epi16(-1), csw);
	/* two frames' bufs pointers and packet words (gro_pair_bad()) */
	const __m256i pw = _mm256_setr_epi32(1, 0, (int)want, 0, 1, 0, (int)want, 0);
	const __m256i pm = _mm256_setr_epi32(0, INT32_MIN, (int)mask, 0, 0, INT32_MIN, (int)mask, 0);
	__m256i p = udp_expect(fb, pb0, pb0 + bstep);
	__m256i p2 = nbuf == 4 ? udp_expect(fb + 2, pb0 + 2 * bstep, pb0 + 3 * bstep) : p;
	__m256i x0, s0, d0, dd0, m0, x1, m1;
	_Static_assert(offsetof(struct ofl_buf, data) == 0 && sizeof(struct ofl_buf) == 16,
	               "a buffer: data, then length, in 16 bytes");
	_Static_assert(offsetof(struct ofl_pkt, bufs) == 0 && offsetof(struct ofl_pkt, nbufs) == 8 &&
	                   sizeof(struct ofl_pkt) == 32 && sizeof(void *) == 8,
	               "a frame's bufs pointer and packet word: its first 16 bytes");
	if (v4) {
		lanes_word(r, a->e, a->estep, &x0, &s0, &d0, &m0);
	} else {
		x0 = _mm256_loadu_si256((const __m256i *)(const void *)r->tp);
		m0 = _mm256_loadu_si256((const __m256i *)(const void *)r->mk);
		s0 = d0 = _mm256_setzero_si256(); /* (unused) */
	}
	dd0 = _mm256_add_epi32(d0, d0);
	x1 = _mm256_or_si256(_mm256_loadu_si256((const __m256i *)(const void *)(r->tp + hl - 32)), csw);
	m1 = _mm256_loadu_si256((const __m256i *)(const void *)(r->mk + hl - 32));
#define LD(a) _mm256_loadu_si256((const __m256i *)(const void *)(a))
#define UDP_OK(f) ((gro_pkt_word(f) & mask) == want && (f)->bufs)
	/* the first GRO_AHEAD frames checked here (a pair a test): the run
	 * ends at the first that fails */
	for (f = (size_t)(qend - q) > GRO_AHEAD ? q + GRO_AHEAD : qend; q + 1 < f; q += 2)
		if (gro_pair_bad(gro_pair_halves(q, q + 1), pw, pm))
			break;
	for (; q < f; q++)
		if (!UDP_OK(q))
			break;
	qend = q < f ? q : qend;
	qpf = pfend < qend ? pfend : qend;
	q = q0;
	/* frames q[0] and q[1], their packet words and buffer arrays checked
	 * already: taken both, or to fail (then one by one: it stops at the
	 * one that fails) */
#define UDP_PAIR(fail)                                                                                            \
	do {                                                                                                       \
		const struct ofl_buf *qb = q[0].bufs, *qb1 = q[1].bufs;                                            \
		const __m256i pn = _mm256_add_epi32(p, st), p2n = _mm256_add_epi32(p2, st);                        \
		const __m256i x = _mm256_blend_epi32(LD(qb), p, 0x88), xn = _mm256_blend_epi32(LD(qb1), pn, 0x88); \
		__m256i y, b0, b1, b0n, b1n;                                                                       \
		const uint8_t *d, *dn;                                                                             \
		_mm_storeu_si128((__m128i *)(void *)s, _mm256_extracti128_si256(x, 1));                            \
		_mm_storeu_si128((__m128i *)(void *)(s + ns), _mm256_extracti128_si256(xn, 1));                    \
		y = _mm256_or_si256(_mm256_sub_epi64(x, p), _mm256_sub_epi64(xn, pn));                             \
		if (nbuf == 4) {                                                                                   \
			const __m256i z = _mm256_blend_epi32(LD(qb + 2), p2, 0x88);                                \
			const __m256i zn = _mm256_blend_epi32(LD(qb1 + 2), p2n, 0x88);                             \
			_mm256_storeu_si256((__m256i *)(void *)(s + 1), z);                                        \
			_mm256_storeu_si256((__m256i *)(void *)(s + ns + 1), zn);                                  \
			y = _mm256_or_si256(y, _mm256_or_si256(_mm256_sub_epi64(z, p2), _mm256_sub_epi64(zn, p2n))); \
		}                                                                                                  \
		if (!_mm256_testz_si256(y, bm))                                                                    \
			goto fail;                                                                                 \
		d = (const uint8_t *)(uintptr_t)_mm256_extract_epi64(x, 0);                                        \
		dn = (const uint8_t *)(uintptr_t)_mm256_extract_epi64(xn, 0);                                      \
		b0 = _mm256_xor_si256(LD(d), v4 ? _mm256_shuffle_epi8(x0, s0) : x0);                               \
		b0n = _mm256_xor_si256(LD(dn), v4 ? _mm256_shuffle_epi8(_mm256_add_epi32(x0, d0), s0) : x0);       \
		b1 = _mm256_xor_si256(LD(d + hl - 32), x1);                                                        \
		b1n = _mm256_xor_si256(LD(dn + hl - 32), x1);                                                      \
		if (!_mm256_testz_si256(_mm256_or_si256(_mm256_or_si256(b0, b0n),                                  \
		                                        _mm256_subs_epu16(_mm256_max_epu16(b1, b1n), ck)),         \
		                        m0) ||                                                                     \
		    !_mm256_testz_si256(_mm256_or_si256(b1, b1n), m1))                                             \
			goto fail;                                                                                 \
		/* both cookies in one store */                                                                    \
		_mm_storeu_si128((__m128i *)(void *)c,                                                             \
		                 _mm_castpd_si128(_mm_loadh_pd(                                                    \
		                     _mm_castsi128_pd(_mm_loadl_epi64((const __m128i *)(const void *)&q[0].cookie)), \
		                     (const double *)(const void *)&q[1].cookie)));                                \
		if (v4)                                                                                            \
			x0 = _mm256_add_epi32(x0, dd0);                                                            \
		p = _mm256_add_epi32(pn, st);                                                                      \
		if (nbuf == 4)                                                                                     \
			p2 = _mm256_add_epi32(p2n, st);                                                            \
	} while (0)
	for (; q + 1 < qpf; q += 2, s += 2 * ns, c += 2) {
		const struct ofl_pkt *const qa = q + GRO_AHEAD;
		if (gro_pair_bad(gro_pair_halves(qa, qa + 1), pw, pm))
			break; /* (the pairs below check themselves) */
		__builtin_prefetch(qa[0].bufs->data);
		__builtin_prefetch(qa[1].bufs->data);
		UDP_PAIR(one);
	}
	/* past the frames with two GRO_AHEAD on in the burst: each pair's
	 * own packet words and buffer arrays checked, nothing prefetched */
	for (; q + 1 < qend; q += 2, s += 2 * ns, c += 2) {
		if (gro_pair_bad(gro_pair_halves(q, q + 1), pw, pm))
			break;
		UDP_PAIR(one);
	}
#undef UDP_PAIR
one:
	/* one a step (from the pair that failed, or past the pairs) */
	for (; q < qend; q++, s += ns, c++) {
		const struct ofl_buf *qb = q->bufs;
		const uint8_t *d;
		__m256i x, y, b0, b1;
		if (!UDP_OK(q))
			break;
		if (q < pfend && q[GRO_AHEAD].bufs && q[GRO_AHEAD].nbufs)
			__builtin_prefetch(q[GRO_AHEAD].bufs->data);
		x = _mm256_blend_epi32(LD(qb), p, 0x88);
		_mm_storeu_si128((__m128i *)(void *)s, _mm256_extracti128_si256(x, 1));
		y = _mm256_sub_epi64(x, p);
		if (nbuf == 4) {
			const __m256i z = _mm256_blend_epi32(LD(qb + 2), p2, 0x88);
			_mm256_storeu_si256((__m256i *)(void *)(s + 1), z);
			y = _mm256_or_si256(y, _mm256_sub_epi64(z, p2));
		}
		if (!_mm256_testz_si256(y, bm))
			goto bufs;
		d = (const uint8_t *)(uintptr_t)_mm256_extract_epi64(x, 0);
		b0 = _mm256_xor_si256(LD(d), v4 ? _mm256_shuffle_epi8(x0, s0) : x0);
		b1 = _mm256_xor_si256(LD(d + hl - 32), x1);
		if (!_mm256_testz_si256(_mm256_or_si256(b0, _mm256_subs_epu16(b1, ck)), m0) || !_mm256_testz_si256(b1, m1))
			break;
		*c = q->cookie;
		if (v4)
			x0 = _mm256_add_epi32(x0, d0);
		p = _mm256_add_epi32(p, st);
		if (nbuf == 4)
			p2 = _mm256_add_epi32(p2, st);
	}
#undef UDP_OK
#undef LD
	*nslices = ns * (uint32_t)(q - q0);
	return (unsigned)(q - q0);
bufs: {
	/* the datagram at q and the rest: as many buffers, other lengths */
	const unsigned k = (unsigned)(q - q0);
	const struct run_at b = {r,  a->s + ns * k, a->c + k, a->e + a->estep * k, a->estep, hl, a->seq, a->seg + k,
	                         want, mask,         a->nb};
	uint32_t nsl;
	const unsigned k2 = gro_bufs_udp_avx2(pkts, i + k, iend, n, &b, &nsl, v4);
	*nslices = ns * k + nsl;
	return k + k2;
}
}

#define UDP_SPLIT_COPY(name, v4, nbuf)                                                                       \
	OFL_NOINLINE GRO_TARGET_AVX2 unsigned name(const struct ofl_pkt *pkts, unsigned i, unsigned iend,     \
	                                           unsigned n, const struct run_at *a, uint32_t *nslices)     \
	{                                                                                                      \
		return udp_split(pkts, i, iend, n, a, nslices, v4, nbuf);                                     \
	}
UDP_SPLIT_COPY(gro_split_udp4_4, 1, 4)
UDP_SPLIT_COPY(gro_split_udp6_4, 0, 4)
UDP_SPLIT_COPY(gro_split_udp4_2, 1, 2)
UDP_SPLIT_COPY(gro_split_udp6_2, 0, 2)
#undef UDP_SPLIT_COPY

#endif
