/*
 * run_bufs.h - the run of a train for frames in several buffers (header
 * split, page fragments): run_bufs.c; and that of frames of one buffer in
 * the AVX2 train copies: run1.c.
 */
#ifndef OFL_GRO_RUN_BUFS_H
#define OFL_GRO_RUN_BUFS_H

#include "gro/run.h"

/* Where a TCP run of frames in nb buffers (2 or more) starts and what it
 * expects: its first frame at i, at most to iend (room for as many frames
 * checked by the caller), n the burst's length (prefetch); r the expected
 * header (hl bytes, all in the first buffer), seq and e (IPv4) the first
 * frame's sequence number and ID-to-checksum word, stepped by r->mss and
 * estep; seg its segment index; slices from s, cookies from c; want and
 * mask its packet word (nbufs included). */
struct run_at {
	const struct run *r;
	struct ofl_slice *s;
	void **c;
	uint64_t e, estep;
	uint32_t hl, seq, seg, want, mask, nb;
};
/* ... and for a TCP run (gro_run_bufs()), where a span's frames go: with
 * k2 below iend - i, the frames from i + k2 on (k2 >= 1) written at s2
 * and c2 instead, as the first frames of an entry (their segment index
 * from 0; *nslices counts both); else k2 is iend - i or more (s2 not
 * read).  (Not in struct run_at: the UDP runs' callers would write it.) */
struct run_at2 {
	struct run_at a;
	struct ofl_slice *s2;
	void **c2;
	uint32_t k2;
};

/* A run of several buffers that writes one place (fn) made one that
 * honours a->s2: the frames before k2, then those from k2 on written at
 * s2 (a second run: its set-up again). */
typedef unsigned gro_bufs_fn(const struct ofl_pkt *pkts, unsigned i, unsigned iend, unsigned n,
                             const struct run_at *a, uint32_t *nslices, int v4);
unsigned gro_bufs_at2(gro_bufs_fn *fn, const struct ofl_pkt *pkts, unsigned i, unsigned iend, unsigned n,
                      const struct run_at2 *a, uint32_t *nslices, int v4);

/* Takes the frames of a run of frames in several buffers, each a full
 * segment with every byte the run compares as expected (struct run), its
 * headers in its first buffer and its payload the rest of that buffer
 * (no slice when empty) and every later buffer (none empty or NULL, their
 * lengths adding up to a full segment); stops at the first that is not,
 * leaving it untouched.  Returns how many frames it took, *nslices how
 * many slices it wrote.  v4: IPv4 (else IPv6); avx2: the compare compiled
 * for AVX2 (only where gro_cpu_avx2()). */
unsigned gro_run_bufs(const struct ofl_pkt *pkts, unsigned i, unsigned iend, unsigned n, const struct run_at2 *a,
                      uint32_t *nslices, int v4, int avx2);
/* The same for a GRO_FAST_UDP entry's datagrams (udp.h): each one's
 * checksum not 0 in place of the sequence number (a->seq unused), its
 * header (a->hl: Ethernet, IP and UDP, 42 or 62 bytes) compared from its
 * first buffer alone, however short the compare of one buffer would be
 * (predict.h pred_cmp_len()). */
unsigned gro_run_bufs_udp(const struct ofl_pkt *pkts, unsigned i, unsigned iend, unsigned n, const struct run_at *a,
                          uint32_t *nslices, int v4, int avx2);

#if defined(TRAIN_AVX2)
/* The pair checks of the AVX2 runs, made as a frame's header is
 * prefetched: 16 bytes at x and 16 at y as the halves of one vector (two
 * frames' bufs pointer and packet word, struct ofl_pkt's first 16 bytes;
 * or two buffers' data pointer and length). */
static inline GRO_TARGET_AVX2 __m256i gro_pair_halves(const void *x, const void *y)
{
	return _mm256_inserti128_si256(_mm256_castsi128_si256(_mm_loadu_si128((const __m128i *)x)),
	                               _mm_loadu_si128((const __m128i *)y), 1);
}
/* Does either half of v (gro_pair_halves()) fail: its pointer (qword 0)
 * NULL, or its word at dword 2 other than want's under mask's?  One 64-bit
 * subtraction (as run1.c's pair checks): want's qword 0 is 1, so a NULL
 * pointer minus 1 has its top bit set (so would a pointer at 2^63 or above,
 * which no user address is: the run just ends there); the word minus
 * want's is 0 under the mask exactly when the masked word is want's (want
 * has no bit outside the mask: no borrow below the lowest bit that
 * differs).  mask: dword 1 its top bit (the pointer's test), dword 2 the
 * word's mask; dword 3 is never tested.  Dword 3 (a packet's vlan_tci and
 * csum, a buffer's padding: bytes a caller may leave unwritten) is cleared
 * before the subtraction: the result under the mask is the same, and
 * valgrind's memcheck, which takes a 64-bit lane of a subtraction as
 * undefined when any of its bits is, sees only bytes the caller wrote.
 * gro_pair_diff(): what is tested under mask (several pairs' OR-ed: one
 * test for all). */
static inline GRO_TARGET_AVX2 __m256i gro_pair_diff(__m256i v, __m256i want)
{
	const __m256i keep = _mm256_setr_epi32(-1, -1, -1, 0, -1, -1, -1, 0);
	return _mm256_sub_epi64(_mm256_and_si256(v, keep), want);
}
static inline GRO_TARGET_AVX2 int gro_pair_bad(__m256i v, __m256i want, __m256i mask)
{
	return !_mm256_testz_si256(gro_pair_diff(v, want), mask);
}


/* The run of frames in several buffers under AVX2 (run_bufs.c), any
 * buffer count; and the header split's copies (run_split.c: 4 or 2
 * buffers, IPv4 or IPv6, 2 or 3 header blocks), as gro_run_bufs(). */
gro_bufs_fn gro_bufs_avx2;
typedef unsigned gro_split_fn(const struct ofl_pkt *pkts, unsigned i, unsigned iend, unsigned n,
                              const struct run_at2 *a, uint32_t *nslices);
gro_split_fn gro_split4_v4_2, gro_split4_v4_3, gro_split4_v6_3, gro_split2_v4_2, gro_split2_v4_3, gro_split2_v6_3;
/* The copies for the plain header (Ethernet, IPv4 or IPv6 without
 * options, TCP without options: hl a constant, the sequence number's lane
 * too): a->hl GRO_SPLIT_HL4 (IPv4) or GRO_SPLIT_HL6 (IPv6). */
#define GRO_SPLIT_HL4 54u
#define GRO_SPLIT_HL6 74u
gro_split_fn gro_split4_v4_p, gro_split4_v6_p, gro_split2_v4_p, gro_split2_v6_p;
/* UDP (gro_run_bufs_udp()): the run of frames in several buffers under
 * AVX2 (run_bufs.c), any buffer count; the header split's copies
 * (run_split_udp.c: 4 or 2 buffers, IPv4 or IPv6). */
unsigned gro_bufs_udp_avx2(const struct ofl_pkt *pkts, unsigned i, unsigned iend, unsigned n, const struct run_at *a,
                           uint32_t *nslices, int v4);
typedef unsigned gro_split_udp_fn(const struct ofl_pkt *pkts, unsigned i, unsigned iend, unsigned n,
                                  const struct run_at *a, uint32_t *nslices);
gro_split_udp_fn gro_split_udp4_4, gro_split_udp6_4, gro_split_udp4_2, gro_split_udp6_2;

#endif

#endif

/* What run_bufs.c and run_split.c share, after lanes.h (which includes
 * this header first): a slice's pkt/buf word, the stepped lanes of frames
 * in several buffers. */
#if defined(GRO_RUN_BUFS_LANES) && !defined(OFL_GRO_RUN_BUFS_LANES_H)
#define OFL_GRO_RUN_BUFS_LANES_H

#include <string.h>

/* A slice's pkt and buf fields as one 32-bit word, in memory order. */
#define SL_PB offsetof(struct ofl_slice, pkt)
_Static_assert(offsetof(struct ofl_slice, buf) == SL_PB + 2, "pkt, buf: one word");
/* A slice: its address, length and pkt/buf word (pb_word()). */
static inline void put_slice(struct ofl_slice *t, const uint8_t *data, uint32_t len, uint32_t pb)
{
	t->data = data;
	t->len = len;
	memcpy((uint8_t *)t + SL_PB, &pb, 4);
}
static inline uint32_t pb_word(uint16_t pkt, uint16_t buf)
{
	uint16_t f[2] = {pkt, buf};
	uint32_t w;
	memcpy(&w, f, 4);
	return w;
}

#if defined(TRAIN_AVX2)
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
 * stepped once, as seq_lanes_cmp())?  Each block's differences of the
 * two frames OR-ed before its mask; IPv4: each block tested under its mask
 * (vptest: no AND, a test a block), IPv6 (three blocks): the masked
 * blocks OR-ed, one test (fewer instructions for each: GCC's registers). */
static inline GRO_TARGET_AVX2 int seq_lanes_cmp2(const struct seq_lanes *l, const uint8_t *p, const uint8_t *p1,
                                                 uint32_t o, int nblk, int v4)
{
#define DIF(a, x) _mm256_xor_si256(_mm256_loadu_si256((const __m256i *)(const void *)(a)), x)
	const __m256i x1 = _mm256_add_epi32(l->x1, l->d1);
	__m256i y;
	if (v4)
		return !_mm256_testz_si256(
		           _mm256_or_si256(DIF(p, _mm256_shuffle_epi8(l->x0, l->s0)),
		                           DIF(p1, _mm256_shuffle_epi8(_mm256_add_epi32(l->x0, l->d0), l->s0))),
		           l->m0) ||
		       !_mm256_testz_si256(_mm256_or_si256(DIF(p + o, _mm256_shuffle_epi8(l->x1, l->s1)),
		                                           DIF(p1 + o, _mm256_shuffle_epi8(x1, l->s1))),
		                           l->m1) ||
		       (nblk > 2 && !_mm256_testz_si256(_mm256_or_si256(DIF(p + 32, l->x2), DIF(p1 + 32, l->x2)), l->m2));
	y = _mm256_or_si256(_mm256_and_si256(_mm256_or_si256(DIF(p, l->x0), DIF(p1, l->x0)), l->m0),
	                    _mm256_and_si256(_mm256_or_si256(DIF(p + o, _mm256_shuffle_epi8(l->x1, l->s1)),
	                                                     DIF(p1 + o, _mm256_shuffle_epi8(x1, l->s1))),
	                                     l->m1));
	if (nblk > 2)
		y = _mm256_or_si256(y, _mm256_and_si256(_mm256_or_si256(DIF(p + 32, l->x2), DIF(p1 + 32, l->x2)), l->m2));
#undef DIF
	return !_mm256_testz_si256(y, y);
}
#endif

#endif
