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

/* Takes the frames of a run of frames in several buffers, each a full
 * segment with every byte the run compares as expected (struct run), its
 * headers in its first buffer and its payload the rest of that buffer
 * (no slice when empty) and every later buffer (none empty or NULL, their
 * lengths adding up to a full segment); stops at the first that is not,
 * leaving it untouched.  Returns how many frames it took, *nslices how
 * many slices it wrote.  v4: IPv4 (else IPv6); avx2: the compare compiled
 * for AVX2 (only where gro_cpu_avx2()). */
unsigned gro_run_bufs(const struct ofl_pkt *pkts, unsigned i, unsigned iend, unsigned n, const struct run_at *a,
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
/* Does either half of v (gro_pair_halves()) fail: its pointer (qword 0,
 * want's 0) NULL, or its word at dword 2 other than want's under mask's?
 * mask: dwords 0 and 1 all ones (the pointer's test), dword 3 what else
 * is compared whole (0: nothing).  gro_pair_diff(): what is tested under
 * mask (several pairs' OR-ed: one test for all). */
static inline GRO_TARGET_AVX2 __m256i gro_pair_diff(__m256i v, __m256i want)
{
	return _mm256_blend_epi32(_mm256_cmpeq_epi64(v, want), _mm256_xor_si256(v, want), 0x44);
}
static inline GRO_TARGET_AVX2 int gro_pair_bad(__m256i v, __m256i want, __m256i mask)
{
	return !_mm256_testz_si256(gro_pair_diff(v, want), mask);
}

#endif

#endif
