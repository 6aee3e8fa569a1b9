/*
 * run_bufs.c - the run of a train for frames in several buffers (header
 * split, page fragments).  The same checks as the run of one-buffer frames
 * (merge.c run_take()): the packet word, the masked compare of the headers
 * against the expected next header, the sequence number, the IPv4
 * ID-to-checksum word; then each later buffer becomes a slice as it is
 * read, its length summed and checked non-zero, its address non-NULL.
 * A copy per common buffer count (2, 3, 4: the buffer loop unrolled) and
 * one for any other, in a function of its own for each L3 and compare.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "gro/lanes.h"

/* A slice's pkt and buf fields as one 32-bit word, in memory order. */
#define SL_PB offsetof(struct ofl_slice, pkt)
_Static_assert(offsetof(struct ofl_slice, buf) == SL_PB + 2, "pkt, buf: one word");
static inline uint32_t pb_word(uint16_t pkt, uint16_t buf)
{
	uint16_t f[2] = {pkt, buf};
	uint32_t w;
	memcpy(&w, f, 4);
	return w;
}

/* A slice: its address, length and pkt/buf word (pb_word()). */
static inline void put_slice(struct ofl_slice *t, const uint8_t *data, uint32_t len, uint32_t pb)
{
	t->data = data;
	t->len = len;
	memcpy((uint8_t *)t + SL_PB, &pb, 4);
}

#if defined(TRAIN_AVX2)
_Static_assert(sizeof(struct ofl_buf) == 16 && sizeof(struct ofl_slice) == 16 &&
                   offsetof(struct ofl_slice, pkt) == 12,
               "a buffer and a slice: 16 bytes, the slice's pkt/buf word where the buffer has padding");
/* The pkt/buf words of a frame's buffers 1 to 3 (the frame's pb plus 1 to
 * 3 times bstep) where cut3_avx2() blends them in: a, dwords 3 and 7
 * (buffers 1, 2), b, dword 3 (buffer 3); stepped by step (pkt + 1) a
 * frame taken, so that no frame broadcasts its own. */
struct pb_lanes {
	__m256i a, b, step;
};
static inline GRO_TARGET_AVX2 void pb_lanes_init(struct pb_lanes *l, uint32_t pb, uint32_t bstep, uint32_t pbstep)
{
	const __m256i p = _mm256_set1_epi32((int)pb);
	l->a = _mm256_add_epi32(p, _mm256_setr_epi32(0, 0, 0, (int)bstep, 0, 0, 0, (int)(2 * bstep)));
	l->b = _mm256_add_epi32(p, _mm256_set1_epi32((int)(3 * bstep)));
	l->step = _mm256_set1_epi32((int)pbstep);
}
static inline GRO_TARGET_AVX2 void pb_lanes_step(struct pb_lanes *l)
{
	l->a = _mm256_add_epi32(l->a, l->step);
	l->b = _mm256_add_epi32(l->b, l->step);
}

/* The compare of a frame in four buffers with the fields that advance in
 * it (headers of at most 96 bytes, the sequence number in the last block
 * at a multiple of 4: bufs_l3() checks): x0 the expected block 0 with the
 * IPv4 ID (bytes 18-19) and checksum (24-25) in CPU order, turned to wire
 * order by the shuffle s0 and stepped by d0 (+1, -1: exact within
 * run_word()'s bound); x1 the last block (at hl - 32) with the sequence
 * number in CPU order, s1 and d1 (+mss) alike; x2 the block at 32 when
 * hl > 64; m0 to m2 the run's masks with the fields' bytes. */
struct seq_lanes {
	__m256i x0, s0, d0, m0, x1, s1, d1, m1, x2, m2;
};
static inline GRO_TARGET_AVX2 void seq_lanes_init(struct seq_lanes *l, const struct run *r, uint32_t hl,
                                                  uint32_t sp, uint32_t seq, uint64_t e, uint64_t estep, int v4)
{
#define LD(a) _mm256_loadu_si256((const __m256i *)(const void *)(a))
	if (v4) {
		lanes_word(r, e, estep, &l->x0, &l->s0, &l->d0, &l->m0);
	} else {
		l->x0 = LD(r->tp), l->m0 = LD(r->mk);
		l->s0 = lanes_ident(), l->d0 = _mm256_setzero_si256(); /* unused: block 0 compared as it is */
	}
	lanes_seq(r, hl - 32, sp, seq, &l->x1, &l->s1, &l->d1, &l->m1);
	l->x2 = LD(r->tp + 32), l->m2 = LD(r->mk + 32);
#undef LD
}
/* Does frame header p differ from the expected one (l, nblk 2 or 3
 * blocks, the last at o)? */
static inline GRO_TARGET_AVX2 int seq_lanes_cmp(const struct seq_lanes *l, const uint8_t *p, uint32_t o, int nblk,
                                                int v4)
{
#define BLK(a, x, m) \
	_mm256_and_si256(_mm256_xor_si256(_mm256_loadu_si256((const __m256i *)(const void *)(a)), x), m)
	__m256i y = _mm256_or_si256(BLK(p, v4 ? _mm256_shuffle_epi8(l->x0, l->s0) : l->x0, l->m0),
	                            BLK(p + o, _mm256_shuffle_epi8(l->x1, l->s1), l->m1));
	if (nblk > 2)
		y = _mm256_or_si256(y, BLK(p + 32, l->x2, l->m2));
#undef BLK
	return !_mm256_testz_si256(y, y);
}
static inline GRO_TARGET_AVX2 void seq_lanes_step(struct seq_lanes *l)
{
	l->x0 = _mm256_add_epi32(l->x0, l->d0);
	l->x1 = _mm256_add_epi32(l->x1, l->d1);
}
/* Do frame headers p and p1 differ from the expected ones (l and l
 * stepped once, as seq_lanes_cmp())?  One test for the two: each block's
 * differences OR-ed before its mask. */
static inline GRO_TARGET_AVX2 int seq_lanes_cmp2(const struct seq_lanes *l, const uint8_t *p, const uint8_t *p1,
                                                 uint32_t o, int nblk, int v4)
{
#define DIF(a, x) _mm256_xor_si256(_mm256_loadu_si256((const __m256i *)(const void *)(a)), x)
	const __m256i x1 = _mm256_add_epi32(l->x1, l->d1);
	__m256i b0, y;
	if (v4)
		b0 = _mm256_or_si256(DIF(p, _mm256_shuffle_epi8(l->x0, l->s0)),
		                     DIF(p1, _mm256_shuffle_epi8(_mm256_add_epi32(l->x0, l->d0), l->s0)));
	else
		b0 = _mm256_or_si256(DIF(p, l->x0), DIF(p1, l->x0));
	y = _mm256_or_si256(_mm256_and_si256(b0, l->m0),
	                    _mm256_and_si256(_mm256_or_si256(DIF(p + o, _mm256_shuffle_epi8(l->x1, l->s1)),
	                                                     DIF(p1 + o, _mm256_shuffle_epi8(x1, l->s1))),
	                                     l->m1));
	if (nblk > 2)
		y = _mm256_or_si256(y, _mm256_and_si256(_mm256_or_si256(DIF(p + 32, l->x2), DIF(p1 + 32, l->x2)), l->m2));
#undef DIF
	return !_mm256_testz_si256(y, y);
}

/* Buffers 1 to 3 of a frame in four (qb) written as slices s[0] to s[2],
 * their pkt/buf words from l (struct pb_lanes): two buffers in one
 * 32-byte load and the third in a 16-byte one (a buffer and a slice begin
 * alike, core/cursor.h), the pkt/buf words blended into the buffers'
 * padding words.  Returns their lengths' sum, plus 2^40 when one is empty
 * or longer than 0xffff or its data NULL (bufs_take()'s checks). */
static inline GRO_TARGET_AVX2 uint64_t cut3_avx2(const struct ofl_buf *qb, struct ofl_slice *s,
                                                 const struct pb_lanes *l)
{
	const __m256i zero = _mm256_setzero_si256(), m1 = _mm256_set1_epi32(-1);
	const __m256i hi = _mm256_setr_epi32(0, 0, (int)0xffff0000u, 0, 0, 0, (int)0xffff0000u, 0);
	__m256i t, z;
	__m256i a = _mm256_loadu_si256((const __m256i *)(const void *)(qb + 1));
	__m256i b = _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)(const void *)(qb + 3)));
	a = _mm256_blend_epi32(a, l->a, 0x88);
	b = _mm256_blend_epi32(b, l->b, 0x88);
	_mm256_storeu_si256((__m256i *)(void *)s, a);
	_mm_storeu_si128((__m128i *)(void *)(s + 2), _mm256_castsi256_si128(b));
	/* each length less one: no bit above 15; no address 0 (the words
	 * of length and pkt/buf never are: buf is 1 to 3) */
	t = _mm256_and_si256(_mm256_or_si256(_mm256_add_epi32(a, m1), _mm256_add_epi32(b, m1)), hi);
	z = _mm256_or_si256(_mm256_cmpeq_epi64(a, zero), _mm256_cmpeq_epi64(b, zero));
	t = _mm256_or_si256(t, z); /* one test for both */
	return (uint64_t)qb[1].len + qb[2].len + qb[3].len + ((uint64_t)!_mm256_testz_si256(t, t) << 40);
}
#endif

#if defined(TRAIN_AVX2)
#define TRAIN_AVX2_ON 1
#else
#define TRAIN_AVX2_ON 0
#endif

/* nbc: the frames' buffer count when a constant (the loop unrolled), 0
 * when a->nb.  The pkt/buf word of buffer k's slice: the frame's (pb,
 * its segment index) plus k (no carry: each field stays below 0xffff). */
static inline OFL_ALWAYS_INLINE unsigned bufs_take(const struct ofl_pkt *pkts, unsigned i, unsigned iend, unsigned n,
                                                   const struct run_at *a, uint32_t *nslices, const int v4,
                                                   const int avx2, const unsigned nbc, const int fold)
{
	const struct run *r = a->r;
	const uint32_t l4c = v4 ? 34u : 54u; /* a fast entry's L4 offset */
	const uint32_t hl = a->hl, mss = r->mss, want = a->want, mask = a->mask;
	const uint32_t nb = nbc ? nbc : a->nb;
	const uint32_t pbstep = pb_word(1, 0), bstep = pb_word(0, 1);
	const uint64_t estep = a->estep, full = r->full;
	const struct ofl_pkt *q = pkts + i, *const qend = pkts + iend, *const q0 = q;
	const struct ofl_pkt *const pfend = pkts + (n > GRO_AHEAD ? n - GRO_AHEAD : 0);
	struct ofl_slice *s = a->s, *const s0 = a->s;
	void **c = a->c;
	uint32_t seq = a->seq;
	uint64_t e = a->e;
	uint32_t pb = pb_word((uint16_t)a->seg, 0);
	const int lanes = TRAIN_AVX2_ON && avx2 && nbc == 4; /* cut3_avx2() */
#if defined(TRAIN_AVX2)
	struct pb_lanes pl = {{0}, {0}, {0}};
	struct seq_lanes sl;
	if (lanes)
		pb_lanes_init(&pl, pb, bstep, pbstep);
	if (fold)
		seq_lanes_init(&sl, r, hl, l4c + 4, seq, e, estep, v4);
	else
		memset(&sl, 0, sizeof sl);
#else
	(void)fold;
#endif
	for (; q < qend; q++, c++) {
		const struct ofl_buf *qb = q->bufs;
		const uint8_t *d;
		uintptr_t pmin = UINTPTR_MAX;
		uint64_t tot;
		uint32_t pw, b0, acc = 0, k;
		memcpy(&pw, &q->nbufs, 4);
		if ((pw & mask) != want || !qb)
			break;
		d = qb->data;
		b0 = qb->len;
		if (b0 < hl || !d)
			break;
#if defined(__GNUC__)
		if (q < pfend && q[GRO_AHEAD].bufs && q[GRO_AHEAD].nbufs)
			__builtin_prefetch(q[GRO_AHEAD].bufs->data);
#endif
#if defined(TRAIN_AVX2)
		if (fold) {
			if (seq_lanes_cmp(&sl, d, hl - 32, hl > 64 ? 3 : 2, v4))
				break;
		} else
#endif
		    if (train_cmp(d, r->tp, r->mk, 0, hl, avx2) || ofl_get32(d + l4c + 4) != seq ||
		        (v4 && get64(d + 18) != e))
			break;
		/* the slices written as the buffers are read, counted when
		 * they add up to a full segment (no wrap: 64 bits), none
		 * empty (then each is at most 0xffff: bl - 1 has no bit
		 * above 15) and none NULL; the first buffer's rest, when
		 * there is any */
		tot = b0;
		if (b0 != hl) /* with the lanes, pb is not stepped: from q */
			put_slice(s++, d + hl, b0 - hl, lanes ? pb + (uint32_t)(q - q0) * pbstep : pb);
#if defined(TRAIN_AVX2)
		if (lanes) {
			tot += cut3_avx2(qb, s, &pl);
			if (tot != full) {
				s -= b0 != hl;
				break;
			}
			s += 3;
			pb_lanes_step(&pl);
			if (fold) {
				seq_lanes_step(&sl);
				*c = q->cookie;
				continue;
			}
			goto taken;
		}
#endif
#if defined(__GNUC__)
#pragma GCC unroll 4
#endif
		for (k = 1; k < nb; k++) {
			const uint8_t *bd = qb[k].data;
			uint32_t bl = qb[k].len;
			put_slice(s + k - 1, bd, bl, pb + k * bstep);
			tot += bl;
			acc |= bl - 1u;
			pmin = (uintptr_t)bd < pmin ? (uintptr_t)bd : pmin;
		}
		if (tot != full || acc > 0xffffu || pmin == 0) {
			s -= b0 != hl;
			break;
		}
		s += nb - 1;
		pb += pbstep;
#if defined(TRAIN_AVX2)
taken:
#endif
		*c = q->cookie;
		seq += mss;
		e += estep;
	}
	*nslices = (uint32_t)(s - s0);
	return (unsigned)(q - q0);
}

static inline OFL_ALWAYS_INLINE unsigned bufs_l3(const struct ofl_pkt *pkts, unsigned i, unsigned iend, unsigned n,
                                                 const struct run_at *a, uint32_t *nslices, const int v4,
                                                 const int avx2)
{
	/* the sequence number in the last block at a multiple of 4 (TCP
	 * headers are), at most three blocks: struct seq_lanes */
	const uint32_t l4c = v4 ? 34u : 54u;
	switch (a->nb) {
	case 2:
		return bufs_take(pkts, i, iend, n, a, nslices, v4, avx2, 2, 0);
	case 3:
		return bufs_take(pkts, i, iend, n, a, nslices, v4, avx2, 3, 0);
	case 4:
		if (TRAIN_AVX2_ON && avx2 && a->hl <= l4c + 36 && a->hl <= 96 && (a->hl - l4c) % 4 == 0)
			return bufs_take(pkts, i, iend, n, a, nslices, v4, avx2, 4, 1);
		return bufs_take(pkts, i, iend, n, a, nslices, v4, avx2, 4, 0);
	default:
		return bufs_take(pkts, i, iend, n, a, nslices, v4, avx2, 0, 0);
	}
}

/* GCC joins a slice's length and pkt/buf stores into one vector store
 * built in three instructions (its straight-line vectorizer): not here. */
#if defined(__GNUC__) && !defined(__clang__)
#define NO_SLP __attribute__((optimize("no-tree-slp-vectorize")))
#else
#define NO_SLP
#endif

/* Each compare in a function of its own (with AVX2: compiled for it), an
 * L3 a constant in each copy of the loop. */
static OFL_NOINLINE NO_SLP unsigned bufs_plain(const struct ofl_pkt *pkts, unsigned i, unsigned iend, unsigned n,
                                        const struct run_at *a, uint32_t *nslices, int v4)
{
	return v4 ? bufs_l3(pkts, i, iend, n, a, nslices, 1, 0) : bufs_l3(pkts, i, iend, n, a, nslices, 0, 0);
}
#if defined(TRAIN_AVX2)
static OFL_NOINLINE GRO_TARGET_AVX2 NO_SLP unsigned bufs_avx2(const struct ofl_pkt *pkts, unsigned i, unsigned iend,
                                                       unsigned n, const struct run_at *a, uint32_t *nslices,
                                                       int v4)
{
	return v4 ? bufs_l3(pkts, i, iend, n, a, nslices, 1, 1) : bufs_l3(pkts, i, iend, n, a, nslices, 0, 1);
}
#endif

#if defined(TRAIN_AVX2)
/* Does a run of frames in nbuf buffers (4 or 2) take split_avx2()?  The
 * headers of the folded shape (bufs_l3()), the first frame's first buffer
 * exactly the headers and its later buffers none empty, none over 0xffff
 * bytes, adding up to a full segment. */
static inline int split_ok(const struct ofl_pkt *pkts, unsigned i, const struct run_at *a, int v4, int nbuf)
{
	const struct ofl_buf *b = pkts[i].bufs;
	const uint32_t l4c = v4 ? 34u : 54u, hl = a->hl;
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
 * loads and checked in one compare each against the expected lengths and
 * data 0 (a NULL one); buffers 1 to 3 written as slices as cut3_avx2()
 * writes them, the lengths' vector doubling as the pkt/buf lanes (struct
 * pb_lanes): p (buffers 0, 1) and p2 (2, 3; two buffers: none), each
 * dwords 2 and 6 the lengths, 3 and 7 the pkt/buf words, stepped a frame.  A frame's packet word and buffer
 * array are checked as its header is prefetched, GRO_AHEAD frames early,
 * and two frames an iteration while that frame is in the burst, then one
 * (as run1.c does it).  Stops at the first frame that is not the expected
 * segment; at the first whose buffers are not as the first frame's, goes
 * on with bufs_take() (which checks their sum).  Returns as
 * gro_run_bufs().
 */
static inline OFL_ALWAYS_INLINE GRO_TARGET_AVX2 unsigned split_avx2(const struct ofl_pkt *pkts, unsigned i,
                                                                    unsigned iend, unsigned n,
                                                                    const struct run_at *a, uint32_t *nslices,
                                                                    const int v4, const int nblk, const int nbuf)
{
	const uint32_t ns = (uint32_t)nbuf - 1; /* slices a frame */
	if (!split_ok(pkts, i, a, v4, nbuf))
		return bufs_avx2(pkts, i, iend, n, a, nslices, v4);
	const struct run *r = a->r;
	const uint32_t l4c = v4 ? 34u : 54u, hl = a->hl, want = a->want, mask = a->mask;
	const uint32_t pb0 = pb_word((uint16_t)a->seg, 0), bstep = pb_word(0, 1), pbstep = pb_word(1, 0);
	const struct ofl_buf *fb = pkts[i].bufs;
	const struct ofl_pkt *q = pkts + i, *const q0 = q, *qend = pkts + iend, *qpf, *f;
	const struct ofl_pkt *pfend = n > GRO_AHEAD ? pkts + (n - GRO_AHEAD) : pkts;
	struct ofl_slice *s = a->s;
	void **c = a->c;
	struct seq_lanes sl;
	const __m256i st = _mm256_setr_epi32(0, 0, 0, (int)pbstep, 0, 0, 0, (int)pbstep);
	/* the first frame's buffers, their data 0 and their pkt/buf words
	 * blended in */
#define FIRST(b, v)                                                                                           \
	_mm256_blend_epi32(_mm256_blend_epi32(_mm256_loadu_si256((const __m256i *)(const void *)(b)), v, 0x88), \
	                   _mm256_setzero_si256(), 0x33)
	const __m256i pbv = _mm256_add_epi32(_mm256_set1_epi32((int)pb0), _mm256_setr_epi32(0, 0, 0, 0, 0, 0, 0, (int)bstep));
	__m256i p = FIRST(fb, pbv);
	__m256i p2 = nbuf == 4 ? FIRST(fb + 2, _mm256_add_epi32(pbv, _mm256_set1_epi32((int)(2 * bstep)))) : p;
#undef FIRST
	__m256i dd0, dd1; /* two steps */
	/* two frames' bufs pointers and packet words (gro_pair_bad()) */
	_Static_assert(offsetof(struct ofl_pkt, bufs) == 0 && offsetof(struct ofl_pkt, nbufs) == 8 &&
	                   sizeof(struct ofl_pkt) == 32 && sizeof(void *) == 8,
	               "a frame's bufs pointer and packet word: its first 16 bytes");
	const __m256i pw = _mm256_setr_epi32(0, 0, (int)want, 0, 0, 0, (int)want, 0);
	const __m256i pm = _mm256_setr_epi32(-1, -1, (int)mask, 0, -1, -1, (int)mask, 0);
	seq_lanes_init(&sl, r, hl, l4c + 4, a->seq, a->e, a->estep, v4);
	dd0 = _mm256_add_epi32(sl.d0, sl.d0);
	dd1 = _mm256_add_epi32(sl.d1, sl.d1);
#define SPLIT_OK(f) ((gro_pkt_word(f) & mask) == want && (f)->bufs)
	/* frames f to f + 3 as gro_pair_diff() (OR-ed: one test) */
#define SPLIT_QUAD(f)                                                       \
	_mm256_or_si256(gro_pair_diff(gro_pair_halves(f, (f) + 1), pw), \
	                gro_pair_diff(gro_pair_halves((f) + 2, (f) + 3), pw))
#define SPLIT_AHEAD(f)                                 \
	do {                                            \
		if (!SPLIT_OK(f)) {                    \
			qend = (f) < qend ? (f) : qend; \
			pfend = q;                      \
			goto tail;                      \
		}                                       \
		__builtin_prefetch((f)->bufs->data);    \
	} while (0)
	/* frame q[j], its packet word and buffer array checked already:
	 * its slices written, its buffers checked (each qword of x and y
	 * equal to p's, p2's: data 0, or the length as expected: the pack's
	 * bytes 4-7 of each 8 set, none else), its header compared, then
	 * taken */
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
		if ((uint32_t)_mm256_movemask_epi8(_mm256_packs_epi32(_mm256_cmpeq_epi64(x, p),            \
		                                                      _mm256_cmpeq_epi64(y, p2))) !=       \
		    0xf0f0f0f0u)                                                                           \
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
	qend = q < f ? q : qend;
	q = q0;
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
			/* the pack of the two frames' packs: bytes 2-3 of each 4 set */                       \
			bad = (uint32_t)_mm256_movemask_epi8(_mm256_packs_epi16(                               \
			          _mm256_packs_epi32(_mm256_cmpeq_epi64(x, p), _mm256_cmpeq_epi64(y, p2)),     \
			          _mm256_packs_epi32(_mm256_cmpeq_epi64(x1, pn), _mm256_cmpeq_epi64(y1, p2n)))) != \
			      0xccccccccu;                                                                     \
		} else { /* the two frames' pack: bytes 4-7 of each 8 set */                                  \
			bad = (uint32_t)_mm256_movemask_epi8(                                                  \
			          _mm256_packs_epi32(_mm256_cmpeq_epi64(x, p), _mm256_cmpeq_epi64(x1, pn))) !=  \
			      0xf0f0f0f0u;                                                                     \
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
			const struct run_at b = {r,        a->s + ns * k, a->c + k, a->e + a->estep * k, a->estep,
			                         hl,       a->seq + r->mss * k,     a->seg + k,          want,
			                         mask,     (uint32_t)nbuf};
			unsigned k2 = bufs_avx2(pkts, i + k, iend, n, &b, &nsl, v4);
			*nslices = ns * k + nsl;
			return k + k2;
		}
	}
}

#define SPLIT_COPY(name, v4, nblk, nbuf)                                                                     \
	static OFL_NOINLINE GRO_TARGET_AVX2 unsigned name(const struct ofl_pkt *pkts, unsigned i, unsigned iend, \
	                                                  unsigned n, const struct run_at *a,                    \
	                                                  uint32_t *nslices)                                     \
	{                                                                                                        \
		return split_avx2(pkts, i, iend, n, a, nslices, v4, nblk, nbuf);                                    \
	}
SPLIT_COPY(split4_v4_2, 1, 2, 4)
SPLIT_COPY(split4_v4_3, 1, 3, 4)
SPLIT_COPY(split4_v6_3, 0, 3, 4)
SPLIT_COPY(split2_v4_2, 1, 2, 2)
SPLIT_COPY(split2_v4_3, 1, 3, 2)
SPLIT_COPY(split2_v6_3, 0, 3, 2)
#undef SPLIT_COPY

#endif

unsigned gro_run_bufs(const struct ofl_pkt *pkts, unsigned i, unsigned iend, unsigned n, const struct run_at *a,
                      uint32_t *nslices, int v4, int avx2)
{
#if defined(TRAIN_AVX2)
	if (avx2)
	{
		/* the header split (split_avx2(): else bufs_take()), its copy
		 * for the L3 and the header blocks */
		if (a->nb == 4)
			return (v4 ? (a->hl > 64 ? split4_v4_3 : split4_v4_2) : split4_v6_3)(pkts, i, iend, n, a, nslices);
		if (a->nb == 2)
			return (v4 ? (a->hl > 64 ? split2_v4_3 : split2_v4_2) : split2_v6_3)(pkts, i, iend, n, a, nslices);
		return bufs_avx2(pkts, i, iend, n, a, nslices, v4);
	}
#else
	(void)avx2;
#endif
	return bufs_plain(pkts, i, iend, n, a, nslices, v4);
}
