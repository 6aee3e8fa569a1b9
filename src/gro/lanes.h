/*
 * lanes.h - the stepped lanes of the AVX2 runs (run1.c for frames of one
 * buffer, run_bufs.c for frames of four): a block of the header compare
 * that holds a field which advances from frame to frame, kept with the
 * field in CPU byte order, turned to wire order by one shuffle and stepped
 * by one add (run1.c's opening comment says how, and which bound makes it
 * exact).
 */
#ifndef OFL_GRO_LANES_H
#define OFL_GRO_LANES_H

#include "gro/run_bufs.h"

#if defined(TRAIN_AVX2)

/* The shuffle that leaves every byte where it is (within its 16-byte lane). */
static inline GRO_TARGET_AVX2 __m256i lanes_ident(void)
{
	return _mm256_setr_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11,
	                        12, 13, 14, 15);
}

/* Block 0 of an IPv4 header with the ID-to-checksum word e (bytes 18-25)
 * stepped by estep (0: a fixed ID): *t the state, *h its shuffle, *d the
 * step, *m the run's mask and the word's bytes. */
static inline GRO_TARGET_AVX2 void lanes_word(const struct run *r, uint64_t e, uint64_t estep, __m256i *t,
                                              __m256i *h, __m256i *d, __m256i *m)
{
	/* the ID (bytes 18-19) and the checksum (24-25) swapped */
	const __m256i sw = _mm256_setr_epi8(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, 1, 1,
	                                    0, 0, 0, 0, 0, 0);
	const __m256i wm = _mm256_setr_epi8(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, -1, -1, -1, -1, -1, -1,
	                                    -1, -1, 0, 0, 0, 0, 0, 0);
	__m256i x;
	*h = _mm256_xor_si256(lanes_ident(), sw);
	x = _mm256_shuffle_epi8(_mm256_loadu_si256((const __m256i *)(const void *)r->tp), *h);
	x = _mm256_insert_epi16(x, (short)(e >> 48), 9); /* bytes 18-19 */
	*t = _mm256_insert_epi16(x, (short)e, 12);        /* bytes 24-25 */
	*d = estep ? _mm256_setr_epi32(0, 0, 0, 0, 1 << 16, 0, -1, 0) : _mm256_setzero_si256();
	*m = _mm256_or_si256(_mm256_loadu_si256((const __m256i *)(const void *)r->mk), wm);
}

/* The block at byte o with the sequence number seq at byte sp (sp - o a
 * multiple of 4, at most 28), stepped by r->mss: as lanes_word(). */
static inline GRO_TARGET_AVX2 void lanes_seq(const struct run *r, uint32_t o, uint32_t sp, uint32_t seq,
                                             __m256i *t, __m256i *h, __m256i *d, __m256i *m)
{
	const __m256i fm = _mm256_cmpeq_epi32(_mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7),
	                                      _mm256_set1_epi32((int)((sp - o) / 4u)));
	/* the field's four bytes reversed: at a multiple of 4, byte k to k ^ 3 */
	*h = _mm256_xor_si256(lanes_ident(), _mm256_and_si256(fm, _mm256_set1_epi8(3)));
	*t = _mm256_blendv_epi8(_mm256_shuffle_epi8(_mm256_loadu_si256((const __m256i *)(const void *)(r->tp + o)), *h),
	                        _mm256_set1_epi32((int)seq), fm);
	*d = _mm256_and_si256(fm, _mm256_set1_epi32((int)r->mss));
	*m = _mm256_or_si256(_mm256_loadu_si256((const __m256i *)(const void *)(r->mk + o)), fm);
}

#endif
#endif
