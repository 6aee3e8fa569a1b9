/*
 * run_split.c - the header split under AVX2 (run_bufs.c's run of frames in
 * several buffers when each frame's buffers are as long as the run's first
 * frame's): the headers the whole first buffer, four or two buffers a
 * frame, a copy per L3, header blocks and buffer count, picked by
 * gro_run_bufs().
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "gro/lanes.h"
#define GRO_RUN_BUFS_LANES
#include "gro/run_bufs.h"

#if defined(TRAIN_AVX2)
/* Does a run of frames in nbuf buffers (4 or 2) take split_avx2()?  The
 * headers of the folded shape (bufs_l3()), the first frame's first buffer
 * exactly the headers and its later buffers none empty, none over 0xffff
 * bytes, adding up to a full segment. */
static inline int split_ok(const struct ofl_pkt *pkts, unsigned i, const struct run_at *a, int v4, int nbuf,
                           uint32_t hlc)
{
	const struct ofl_buf *b = pkts[i].bufs;
	const uint32_t l4c = v4 ? 34u : 54u, hl = hlc ? hlc : a->hl;
	/* the packet word the train's (merge.c): a constant of the copy */
	if (a->want != gro_pkt_word_of((uint16_t)nbuf, OFL_CSUM_UNNECESSARY, 0) || a->mask != GRO_PKT_PLAIN_MASK)
		return 0;
	if (hl > l4c + 36 || hl > 96 || (hl - l4c) % 4 || b[0].len != hl)
		return 0;
	/* each of buffers 1 to nbuf - 1 in [1, 0xffff] (then no sum wraps) */
	if (((b[1].len - 1u) | (nbuf == 4 ? (b[2].len - 1u) | (b[3].len - 1u) : 0u)) > 0xfffeu)
		return 0;
	return hl + b[1].len + (nbuf == 4 ? b[2].len + b[3].len : 0u) == a->r->full;
}

/*
 * The header split in nbuf buffers (4 or 2) under AVX2: the headers the
 * whole first buffer and every frame's buffers as long as the run's first
 * frame's (so that they add up to a full segment: the caller checks it,
 * split_ok()).  A frame's four (two) buffers are read in two (one) 32-byte
 * loads and checked with one 64-bit subtraction each from the expected
 * lengths and data 1 (a NULL one's top bit set), one test a frame (a
 * pair); buffers 1 to 3 written as slices as cut3_avx2()
 * writes them, the lengths' vector doubling as the pkt/buf lanes (struct
 * pb_lanes): p (buffers 0, 1) and p2 (2, 3; two buffers: none), each
 * dwords 2 and 6 the lengths, 3 and 7 the pkt/buf words, stepped a frame.  A frame's packet word and buffer
 * array are checked as its header is prefetched, GRO_AHEAD frames early,
 * and two frames an iteration while that frame is in the burst, then one
 * (as run1.c does it).  Stops at the first frame that is not the expected
 * segment; at the first whose buffers are not as the first frame's, goes
 * on with bufs_take() (which checks their sum).  A span's frames (from
 * a2->k2 on: struct run_at2) go to the next entry: the loops run to the
 * first of them, then again from it with the slices and cookies at s2
 * and c2 and the pkt/buf lanes' segment index from 0 (no copy of them
 * after the run: merge.c).  Returns as gro_run_bufs().
 */
static inline OFL_ALWAYS_INLINE GRO_TARGET_AVX2 unsigned split_avx2(const struct ofl_pkt *pkts, unsigned i,
                                                                    unsigned iend, unsigned n,
                                                                    const struct run_at2 *a2, uint32_t *nslices,
                                                                    const int v4, const int nblk, const int nbuf,
                                                                    const uint32_t hlc)
{
	const uint32_t ns = (uint32_t)nbuf - 1; /* slices a frame */
	const struct run_at *const a = &a2->a;
	if (!split_ok(pkts, i, a, v4, nbuf, hlc))
		return gro_bufs_at2(gro_bufs_avx2, pkts, i, iend, n, a2, nslices, v4);
	const struct run *r = a->r;
	const uint32_t l4c = v4 ? 34u : 54u, hl = hlc ? hlc : a->hl;
	const uint32_t want = gro_pkt_word_of((uint16_t)nbuf, OFL_CSUM_UNNECESSARY, 0), mask = GRO_PKT_PLAIN_MASK;
	const uint32_t pb0 = pb_word((uint16_t)a->seg, 0), bstep = pb_word(0, 1), pbstep = pb_word(1, 0);
	const struct ofl_buf *fb = pkts[i].bufs;
	const struct ofl_pkt *q = pkts + i, *const q0 = q, *qend = pkts + iend, *qpf, *f;
	/* the run's end (qend: this part's, below it when the frames after
	 * go to a2->s2); in memory, read where a part ends (as a register
	 * GCC kept the pair loop's bound on the stack instead: 1 4 4 0 +0.9) */
	const struct ofl_pkt *volatile qall;
	const struct ofl_pkt *pfend = n > GRO_AHEAD ? pkts + (n - GRO_AHEAD) : pkts;
	struct ofl_slice *s = a->s;
	void **c = a->c;
	struct seq_lanes sl;
	const __m256i st = _mm256_setr_epi32(0, 0, 0, (int)pbstep, 0, 0, 0, (int)pbstep);
	/* the first frame's buffers, their data 1 and their pkt/buf words
	 * blended in: a frame's buffers (its pkt/buf words blended in) minus
	 * these are 0 in each length's qword when the length is the first
	 * frame's, and have the top bit of each data qword set when the data
	 * is NULL (as gro_pair_diff()), tested under bm */
#define FIRST(b, v)                                                                                           \
	_mm256_blend_epi32(_mm256_blend_epi32(_mm256_loadu_si256((const __m256i *)(const void *)(b)), v, 0x88), \
	                   _mm256_setr_epi64x(1, 0, 1, 0), 0x33)
	const __m256i pbv = _mm256_add_epi32(_mm256_set1_epi32((int)pb0), _mm256_setr_epi32(0, 0, 0, 0, 0, 0, 0, (int)bstep));
	__m256i p = FIRST(fb, pbv);
	__m256i p2 = nbuf == 4 ? FIRST(fb + 2, _mm256_add_epi32(pbv, _mm256_set1_epi32((int)(2 * bstep)))) : p;
#undef FIRST
	__m256i dd0, dd1; /* two steps */
	/* two frames' bufs pointers and packet words (gro_pair_bad()) */
	_Static_assert(offsetof(struct ofl_pkt, bufs) == 0 && offsetof(struct ofl_pkt, nbufs) == 8 &&
	                   sizeof(struct ofl_pkt) == 32 && sizeof(void *) == 8,
	               "a frame's bufs pointer and packet word: its first 16 bytes");
	const __m256i pw = _mm256_setr_epi32(1, 0, (int)want, 0, 1, 0, (int)want, 0);
	const __m256i pm = _mm256_setr_epi32(0, INT32_MIN, (int)mask, 0, 0, INT32_MIN, (int)mask, 0);
	const __m256i bm = _mm256_setr_epi32(0, INT32_MIN, -1, -1, 0, INT32_MIN, -1, -1);
	seq_lanes_init(&sl, r, hl, l4c + 4, a->seq, a->e, a->estep, v4);
	dd0 = _mm256_add_epi32(sl.d0, sl.d0);
	dd1 = _mm256_add_epi32(sl.d1, sl.d1);
#define SPLIT_OK(f) ((gro_pkt_word(f) & mask) == want && (f)->bufs)
	/* frames f to f + 3 as gro_pair_diff() (OR-ed: one test) */
#define SPLIT_QUAD(f)                                                       \
	_mm256_or_si256(gro_pair_diff(gro_pair_halves(f, (f) + 1), pw), \
	                gro_pair_diff(gro_pair_halves((f) + 2, (f) + 3), pw))
#define SPLIT_AHEAD(f)                                    \
	do {                                               \
		if (!SPLIT_OK(f)) {                        \
			qall = (f) < qall ? (f) : qall;    \
			qend = qall < qend ? qall : qend;  \
			pfend = q;                         \
			goto tail;                         \
		}                                          \
		__builtin_prefetch((f)->bufs->data);       \
	} while (0)
	/* frame q[j], its packet word and buffer array checked already:
	 * its slices written, its buffers checked (x and y minus p and p2:
	 * no data NULL, each length the first frame's), its header compared,
	 * then taken */
#define SPLIT_FRAME(j)                                                                                    \
	do {                                                                                               \
		const struct ofl_buf *qb = q[j].bufs;                                                      \
		__m256i x = _mm256_loadu_si256((const __m256i *)(const void *)qb);                         \
		__m256i y;                                                                                 \
		x = _mm256_blend_epi32(x, p, 0x88);                                                        \
		y = nbuf == 4 ? _mm256_blend_epi32(_mm256_loadu_si256((const __m256i *)(const void *)(qb + 2)), \
		                                   p2, 0x88)                                               \
		              : x;                                                                         \
		_mm_storeu_si128((__m128i *)(void *)(s + ns * (j)), _mm256_extracti128_si256(x, 1));       \
		if (nbuf == 4)                                                                             \
			_mm256_storeu_si256((__m256i *)(void *)(s + ns * (j) + 1), y);                     \
		if (!_mm256_testz_si256(_mm256_or_si256(_mm256_sub_epi64(x, p), _mm256_sub_epi64(y, p2)), bm))   \
			goto bufs##j;                                                                      \
		if (seq_lanes_cmp(&sl, (const uint8_t *)(uintptr_t)_mm256_extract_epi64(x, 0), hl - 32,   \
		                  nblk, v4))                                                               \
			goto out##j;                                                                       \
		c[j] = q[j].cookie;                                                                        \
		if (v4)                                                                                    \
			sl.x0 = _mm256_add_epi32(sl.x0, sl.d0);                                            \
		sl.x1 = _mm256_add_epi32(sl.x1, sl.d1);                                                    \
		p = _mm256_add_epi32(p, st);                                                               \
		p2 = nbuf == 4 ? _mm256_add_epi32(p2, st) : p;                                             \
	} while (0)
	/* the first GRO_AHEAD frames checked here: the run ends at the
	 * first that fails */
	f = (size_t)(qend - q) > GRO_AHEAD ? q + GRO_AHEAD : qend;
	_Static_assert(GRO_AHEAD == 8, "the first GRO_AHEAD frames: four pairs in one test");
	if (f == q + GRO_AHEAD && _mm256_testz_si256(_mm256_or_si256(SPLIT_QUAD(q), SPLIT_QUAD(q + 4)), pm))
		q = f;
	while (q + 1 < f && !gro_pair_bad(gro_pair_halves(q, q + 1), pw, pm))
		q += 2;
	while (q < f && SPLIT_OK(q))
		q++;
	qall = q < f ? q : qend;
	/* the frames from q0 + a2->k2 on written at a2->s2 (none when that is
	 * past qall: a2->k2 is at most iend - i): to there first (qend below
	 * qall), then from there at s2 (back at again, qend qall) */
	qend = a2->k2 < (size_t)(qall - q0) ? q0 + a2->k2 : qall;
	q = q0;
again:
	qpf = pfend < qend ? pfend : qend;
	/* two frames an iteration, their checks made as one: when they fail,
	 * the loop below takes them one by one and stops at the one that
	 * fails */
	/* frames q[j] and q[j + 1], their packet words and buffer arrays
	 * checked already: taken both, or to fail (then tail, one by one: it
	 * stops at the one that fails) */
#define SPLIT_PAIR(j, fail)                                                                                   \
	do {                                                                                                   \
		struct ofl_slice *const sj = s + ns * (j);                                                     \
		const struct ofl_buf *qb = q[j].bufs, *qb1 = q[(j) + 1].bufs;                                  \
		int bad;                                                                                       \
		const __m256i pn = _mm256_add_epi32(p, st), p2n = _mm256_add_epi32(p2, st);                    \
		const __m256i x = _mm256_blend_epi32(_mm256_loadu_si256((const __m256i *)(const void *)qb), p, 0x88); \
		const __m256i x1 =                                                                             \
		    _mm256_blend_epi32(_mm256_loadu_si256((const __m256i *)(const void *)qb1), pn, 0x88);      \
		_mm_storeu_si128((__m128i *)(void *)sj, _mm256_extracti128_si256(x, 1));                       \
		_mm_storeu_si128((__m128i *)(void *)(sj + ns), _mm256_extracti128_si256(x1, 1));               \
		if (nbuf == 4) {                                                                               \
			const __m256i y = _mm256_blend_epi32(                                                  \
			    _mm256_loadu_si256((const __m256i *)(const void *)(qb + 2)), p2, 0x88);            \
			const __m256i y1 = _mm256_blend_epi32(                                                 \
			    _mm256_loadu_si256((const __m256i *)(const void *)(qb1 + 2)), p2n, 0x88);          \
			_mm256_storeu_si256((__m256i *)(void *)(sj + 1), y);                                   \
			_mm256_storeu_si256((__m256i *)(void *)(sj + ns + 1), y1);                             \
			/* the two frames' differences OR-ed: one test */                                      \
			bad = !_mm256_testz_si256(                                                             \
			    _mm256_or_si256(_mm256_or_si256(_mm256_sub_epi64(x, p), _mm256_sub_epi64(y, p2)),   \
			                    _mm256_or_si256(_mm256_sub_epi64(x1, pn), _mm256_sub_epi64(y1, p2n))), \
			    bm);                                                                               \
		} else {                                                                                       \
			bad = !_mm256_testz_si256(_mm256_or_si256(_mm256_sub_epi64(x, p), _mm256_sub_epi64(x1, pn)), \
			                          bm);                                                         \
		}                                                                                              \
		if (bad ||                                                                                     \
		    seq_lanes_cmp2(&sl, (const uint8_t *)(uintptr_t)_mm256_extract_epi64(x, 0),                \
		                   (const uint8_t *)(uintptr_t)_mm256_extract_epi64(x1, 0), hl - 32, nblk, v4)) \
			goto fail;                                                                             \
		/* both cookies in one store (a load and a load of the high half) */                           \
		_mm_storeu_si128((__m128i *)(void *)(c + (j)),                                                 \
		                 _mm_castpd_si128(_mm_loadh_pd(                                                \
		                     _mm_castsi128_pd(_mm_loadl_epi64((const __m128i *)(const void *)&q[j].cookie)), \
		                     (const double *)(const void *)&q[(j) + 1].cookie)));                      \
		if (v4)                                                                                        \
			sl.x0 = _mm256_add_epi32(sl.x0, dd0);                                                  \
		sl.x1 = _mm256_add_epi32(sl.x1, dd1);                                                          \
		p = _mm256_add_epi32(pn, st);                                                                  \
		p2 = nbuf == 4 ? _mm256_add_epi32(p2n, st) : p;                                                \
	} while (0)
	/* two buffers: four frames an iteration (then two) while the four
	 * (two) GRO_AHEAD on are in the burst, their packet words and buffer
	 * arrays checked (as one: when they fail, to tail, which checks them
	 * one by one) and their headers prefetched first; four buffers: two
	 * (four: more instructions, the vectors spilled) */
	for (; nbuf == 2 && q + 3 < qpf; q += 4, s += 4 * ns, c += 4) {
		const struct ofl_pkt *const qa = q + GRO_AHEAD;
		if (!_mm256_testz_si256(SPLIT_QUAD(qa), pm))
			goto tail;
		__builtin_prefetch(qa[0].bufs->data);
		__builtin_prefetch(qa[1].bufs->data);
		__builtin_prefetch(qa[2].bufs->data);
		__builtin_prefetch(qa[3].bufs->data);
		SPLIT_PAIR(0, tail);
		SPLIT_PAIR(2, tail2);
	}
	for (; q + 1 < qpf; q += 2, s += 2 * ns, c += 2) {
		const struct ofl_pkt *const qa = q + GRO_AHEAD;
		if (gro_pair_bad(gro_pair_halves(qa, qa + 1), pw, pm))
			goto tail;
		__builtin_prefetch(qa[0].bufs->data);
		__builtin_prefetch(qa[1].bufs->data);
		SPLIT_PAIR(0, tail);
	}
	/* past the frames with one GRO_AHEAD on in the burst (every frame to
	 * qend checked already): one frame when the pairs stopped one short,
	 * then two an iteration without the ahead checks */
	if (q < qend && q < pfend) {
		SPLIT_AHEAD(q + GRO_AHEAD);
		SPLIT_FRAME(0);
		q++, s += ns, c++;
	}
	for (; q + 1 < qend; q += 2, s += 2 * ns, c += 2)
		SPLIT_PAIR(0, tail);
	/* then one a time (back here when the frame GRO_AHEAD on fails:
	 * the run cut there, no more prefetches) */
	goto tail;
tail2: /* the second pair of four failed: the first taken */
	q += 2, s += 2 * ns, c += 2;
tail:
	for (; q < qend; q++, s += ns, c++) {
		if (q < pfend)
			SPLIT_AHEAD(q + GRO_AHEAD);
		SPLIT_FRAME(0);
	}
	if (OFL_UNLIKELY(q < qall)) {
		/* every frame before q0 + a2->k2 taken: the rest at s2, their
		 * segment index from 0 (the pkt/buf lanes' taken off) */
		const int32_t d = (int32_t)(pb_word((uint16_t)(a->seg + a2->k2), 0) - pb_word(0, 0));
		const __m256i dv = _mm256_setr_epi32(0, 0, 0, d, 0, 0, 0, d);
		p = _mm256_sub_epi32(p, dv);
		p2 = nbuf == 4 ? _mm256_sub_epi32(p2, dv) : p;
		s = a2->s2;
		c = a2->c2;
		qend = qall;
		goto again;
	}
#undef SPLIT_PAIR
#undef SPLIT_QUAD
#undef SPLIT_FRAME
#undef SPLIT_AHEAD
#undef SPLIT_OK
	{
		unsigned k;
		uint32_t nsl;
	out0:
		*nslices = ns * (uint32_t)(q - q0);
		return (unsigned)(q - q0);
	bufs0:
		k = (unsigned)(q - q0);
		{
			/* (from frame q's slot on: before a2->k2, s2 from there;
			 * past it, at s2 already) */
			const int at2 = k >= a2->k2;
			const struct run_at2 b = {{r, s, c, a->e + a->estep * k, a->estep, hl, a->seq + r->mss * k,
			                           at2 ? k - a2->k2 : a->seg + k, want, mask, (uint32_t)nbuf},
			                          a2->s2,
			                          a2->c2,
			                          at2 ? iend - i - k : a2->k2 - k};
			unsigned k2 = gro_bufs_at2(gro_bufs_avx2, pkts, i + k, iend, n, &b, &nsl, v4);
			*nslices = ns * k + nsl;
			return k + k2;
		}
	}
}

/* hlc: the header length when a constant of the copy (the TCP header
 * without options, the caller checks a->hl), else 0 */
#define SPLIT_COPY(name, v4, nblk, nbuf, hlc)                                                                \
	OFL_NOINLINE GRO_TARGET_AVX2 unsigned name(const struct ofl_pkt *pkts, unsigned i, unsigned iend, \
	                                                  unsigned n, const struct run_at2 *a,                   \
	                                                  uint32_t *nslices)                                     \
	{                                                                                                        \
		return split_avx2(pkts, i, iend, n, a, nslices, v4, nblk, nbuf, hlc);                               \
	}
SPLIT_COPY(gro_split4_v4_2, 1, 2, 4, 0)
SPLIT_COPY(gro_split4_v4_3, 1, 3, 4, 0)
SPLIT_COPY(gro_split4_v6_3, 0, 3, 4, 0)
SPLIT_COPY(gro_split2_v4_2, 1, 2, 2, 0)
SPLIT_COPY(gro_split2_v4_3, 1, 3, 2, 0)
SPLIT_COPY(gro_split2_v6_3, 0, 3, 2, 0)
SPLIT_COPY(gro_split4_v4_p, 1, 2, 4, GRO_SPLIT_HL4)
SPLIT_COPY(gro_split4_v6_p, 0, 3, 4, GRO_SPLIT_HL6)
SPLIT_COPY(gro_split2_v4_p, 1, 2, 2, GRO_SPLIT_HL4)
SPLIT_COPY(gro_split2_v6_p, 0, 3, 2, GRO_SPLIT_HL6)
#undef SPLIT_COPY

#endif
