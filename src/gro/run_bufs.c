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
#define GRO_RUN_BUFS_LANES
#include "gro/run_bufs.h"

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

/* UDP: the masked compare of a GRO_FAST_UDP entry's plain header (hl =
 * l4c + 8: 42 bytes for IPv4, under cmp.h's GRO_CMP_MIN, or 62), reading
 * [0, hl) of d and no more: at the header split the first buffer ends
 * there.  [0, 32) and [hl - 32, hl) cover it (32 <= hl <= 64). */
#if defined(TRAIN_AVX2)
static inline GRO_TARGET_AVX2 int udp_cmp_avx2(const uint8_t *d, const uint8_t *tp, const uint8_t *mk, uint32_t hl)
{
#define BLK(o)                                                                                                  \
	_mm256_and_si256(_mm256_xor_si256(_mm256_loadu_si256((const __m256i *)(const void *)(d + (o))),           \
	                                  _mm256_loadu_si256((const __m256i *)(const void *)(tp + (o)))),          \
	                 _mm256_loadu_si256((const __m256i *)(const void *)(mk + (o))))
	const __m256i y = _mm256_or_si256(BLK(0), BLK(hl - 32));
#undef BLK
	return !_mm256_testz_si256(y, y);
}
#endif
static inline OFL_ALWAYS_INLINE int udp_hdr_cmp(const uint8_t *d, const uint8_t *tp, const uint8_t *mk, uint32_t hl,
                                                const int avx2)
{
#if defined(TRAIN_AVX2)
	if (avx2)
		return udp_cmp_avx2(d, tp, mk, hl);
#else
	(void)avx2;
#endif
	return gro_cmp_scalar(d, tp, mk, 0, hl);
}

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
                                                   const int avx2, const unsigned nbc, const int fold, const int udp)
{
	const struct run *r = a->r;
	const uint32_t l4c = v4 ? 34u : 54u; /* a fast entry's L4 offset */
	/* udp: a GRO_FAST_UDP entry's plain header, its length a constant */
	const uint32_t hl = udp ? l4c + 8u : a->hl, mss = r->mss, want = a->want, mask = a->mask;
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
		    if ((udp ? udp_hdr_cmp(d, r->tp, r->mk, hl, avx2) || !(d[l4c + 6] | d[l4c + 7])
		             : train_cmp(d, r->tp, r->mk, 0, hl, avx2) || ofl_get32(d + l4c + 4) != seq) ||
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
		return bufs_take(pkts, i, iend, n, a, nslices, v4, avx2, 2, 0, 0);
	case 3:
		return bufs_take(pkts, i, iend, n, a, nslices, v4, avx2, 3, 0, 0);
	case 4:
		if (TRAIN_AVX2_ON && avx2 && a->hl <= l4c + 36 && a->hl <= 96 && (a->hl - l4c) % 4 == 0)
			return bufs_take(pkts, i, iend, n, a, nslices, v4, avx2, 4, 1, 0);
		return bufs_take(pkts, i, iend, n, a, nslices, v4, avx2, 4, 0, 0);
	default:
		return bufs_take(pkts, i, iend, n, a, nslices, v4, avx2, 0, 0, 0);
	}
}

/* (NO_SLP: GCC would join a slice's length and pkt/buf stores into one
 * vector store built in three instructions: core/compiler.h) */
#define NO_SLP OFL_NO_SLP

/* Each compare in a function of its own (with AVX2: compiled for it), an
 * L3 a constant in each copy of the loop. */
static OFL_NOINLINE NO_SLP unsigned bufs_plain(const struct ofl_pkt *pkts, unsigned i, unsigned iend, unsigned n,
                                        const struct run_at *a, uint32_t *nslices, int v4)
{
	return v4 ? bufs_l3(pkts, i, iend, n, a, nslices, 1, 0) : bufs_l3(pkts, i, iend, n, a, nslices, 0, 0);
}
#if defined(TRAIN_AVX2)
OFL_NOINLINE GRO_TARGET_AVX2 NO_SLP unsigned gro_bufs_avx2(const struct ofl_pkt *pkts, unsigned i, unsigned iend,
                                                      unsigned n, const struct run_at *a, uint32_t *nslices, int v4)
{
	return v4 ? bufs_l3(pkts, i, iend, n, a, nslices, 1, 1) : bufs_l3(pkts, i, iend, n, a, nslices, 0, 1);
}
#endif


/* (out of line: its frame and struct off the dispatch's path) */
OFL_NOINLINE unsigned gro_bufs_at2(gro_bufs_fn *fn, const struct ofl_pkt *pkts, unsigned i, unsigned iend,
                                  unsigned n, const struct run_at2 *a2, uint32_t *nslices, int v4)
{
	const struct run_at *a = &a2->a;
	struct run_at b;
	uint32_t n1;
	unsigned k;
	if (!a2->s2 || iend - i <= a2->k2)
		return fn(pkts, i, iend, n, a, nslices, v4);
	k = fn(pkts, i, i + a2->k2, n, a, &n1, v4);
	if (k < a2->k2) {
		*nslices = n1;
		return k;
	}
	b = *a;
	b.s = a2->s2;
	b.c = a2->c2;
	b.e = a->e + a->estep * k;
	b.seq = a->seq + a->r->mss * k;
	b.seg = 0;
	k += fn(pkts, i + k, iend, n, &b, nslices, v4);
	*nslices += n1;
	return k;
}

unsigned gro_run_bufs(const struct ofl_pkt *pkts, unsigned i, unsigned iend, unsigned n, const struct run_at2 *a2,
                      uint32_t *nslices, int v4, int avx2)
{
#if defined(TRAIN_AVX2)
	const struct run_at *a = &a2->a;
	if (avx2)
	{
		/* the header split (split_avx2(): else bufs_take()), its copy
		 * for the L3 and the header blocks */
		if (a->nb == 4) {
			if (v4 && a->hl == GRO_SPLIT_HL4)
				return gro_split4_v4_p(pkts, i, iend, n, a2, nslices);
			if (!v4 && a->hl == GRO_SPLIT_HL6)
				return gro_split4_v6_p(pkts, i, iend, n, a2, nslices);
			return (v4 ? (a->hl > 64 ? gro_split4_v4_3 : gro_split4_v4_2) : gro_split4_v6_3)(pkts, i, iend, n, a2, nslices);
		}
		if (a->nb == 2) {
			if (v4 && a->hl == GRO_SPLIT_HL4)
				return gro_split2_v4_p(pkts, i, iend, n, a2, nslices);
			if (!v4 && a->hl == GRO_SPLIT_HL6)
				return gro_split2_v6_p(pkts, i, iend, n, a2, nslices);
			return (v4 ? (a->hl > 64 ? gro_split2_v4_3 : gro_split2_v4_2) : gro_split2_v6_3)(pkts, i, iend, n, a2, nslices);
		}
		return gro_bufs_at2(gro_bufs_avx2, pkts, i, iend, n, a2, nslices, v4);
	}
#else
	(void)avx2;
#endif
	return gro_bufs_at2(bufs_plain, pkts, i, iend, n, a2, nslices, v4);
}


/* UDP: each buffer count's copy (four with AVX2: cut3_avx2()). */
static inline OFL_ALWAYS_INLINE unsigned bufs_udp_l3(const struct ofl_pkt *pkts, unsigned i, unsigned iend,
                                                     unsigned n, const struct run_at *a, uint32_t *nslices,
                                                     const int v4, const int avx2)
{
	switch (a->nb) {
	case 2:
		return bufs_take(pkts, i, iend, n, a, nslices, v4, avx2, 2, 0, 1);
	case 4:
		return bufs_take(pkts, i, iend, n, a, nslices, v4, avx2, 4, 0, 1);
	default:
		return bufs_take(pkts, i, iend, n, a, nslices, v4, avx2, 0, 0, 1);
	}
}
#if defined(TRAIN_AVX2)
OFL_NOINLINE GRO_TARGET_AVX2 NO_SLP unsigned gro_bufs_udp_avx2(const struct ofl_pkt *pkts, unsigned i, unsigned iend,
                                                              unsigned n, const struct run_at *a, uint32_t *nslices,
                                                              int v4)
{
	return v4 ? bufs_udp_l3(pkts, i, iend, n, a, nslices, 1, 1) : bufs_udp_l3(pkts, i, iend, n, a, nslices, 0, 1);
}
#endif

/* (without AVX2: the build's compare, here) */
NO_SLP unsigned gro_run_bufs_udp(const struct ofl_pkt *pkts, unsigned i, unsigned iend, unsigned n,
                                 const struct run_at *a, uint32_t *nslices, int v4, int avx2)
{
#if defined(TRAIN_AVX2)
	if (avx2) {
		/* the header split (run_split_udp.c: else gro_bufs_udp_avx2()) */
		if (a->nb == 4)
			return (v4 ? gro_split_udp4_4 : gro_split_udp6_4)(pkts, i, iend, n, a, nslices);
		if (a->nb == 2)
			return (v4 ? gro_split_udp4_2 : gro_split_udp6_2)(pkts, i, iend, n, a, nslices);
		return gro_bufs_udp_avx2(pkts, i, iend, n, a, nslices, v4);
	}
#else
	(void)avx2;
#endif
	if (v4)
		return bufs_udp_l3(pkts, i, iend, n, a, nslices, 1, 0);
	return bufs_udp_l3(pkts, i, iend, n, a, nslices, 0, 0);
}
