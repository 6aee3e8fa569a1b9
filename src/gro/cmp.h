/*
 * cmp.h - the masked compare of header prediction: do a frame's header
 * bytes [from, hl) equal a held header's wherever a byte mask is 0xff?
 *
 * One answer, several ways to compute it, all with the same result for
 * every input (tests/unit/gro_cmp_test.c runs each against the others and
 * against a byte-by-byte reference):
 *   gro_cmp_scalar  portable C, 8-byte words;
 *   gro_cmp_sse2    x86-64 (SSE2 is part of the baseline), 16-byte blocks;
 *   gro_cmp_avx2    x86-64, 32-byte blocks, for code compiled for AVX2
 *                   (merge.c's train copies chosen at run time when the CPU
 *                   has it: gro_cpu_avx2());
 *   gro_cmp_neon    AArch64 (and 32-bit ARM with NEON), 16-byte blocks.
 * gro_cmp() is the one the library calls: the vector one the target
 * always has (SSE2, NEON), or the scalar one when built with
 * -DOFL_SIMD=OFF (CMake, which defines OFL_SIMD_OFF) or for another CPU.
 *
 * Every function reads exactly the bytes [from, hl) of p, h and m, no
 * more (the last block overlaps the one before it instead of running
 * past hl).  Requires from 0 or 12 and 54 <= hl <= GRO_CMP_MAX (a plain
 * Ethernet + IPv4 + TCP header is 54 bytes; behind a DSA tag the compare
 * starts at the EtherType, byte 12).  Returns 1 when some masked byte
 * differs, 0 when all are equal.
 */
#ifndef OFL_GRO_CMP_H
#define OFL_GRO_CMP_H

#include <stdint.h>
#include <string.h>

#include "core/compiler.h"

#define GRO_CMP_MIN 54u
#define GRO_CMP_MAX 128u

static inline uint64_t cmp_ld64(const uint8_t *p)
{
	uint64_t v;
	memcpy(&v, p, 8);
	return v;
}

static inline OFL_ALWAYS_INLINE int gro_cmp_scalar(const uint8_t *p, const uint8_t *h, const uint8_t *m, uint32_t from,
                                 uint32_t hl)
{
	uint64_t d = 0;
	uint32_t o;
#define CMP_W(o) ((cmp_ld64(p + (o)) ^ cmp_ld64(h + (o))) & cmp_ld64(m + (o)))
	for (o = from; o + 8 < hl; o += 8)
		d |= CMP_W(o);
	d |= CMP_W(hl - 8);
#undef CMP_W
	return d != 0;
}

/* The 16-byte block walk the SSE2 and NEON versions share: the blocks any
 * header of GRO_CMP_MIN bytes has need no test (from is a constant at
 * each call site), then whole blocks, then the last 16 bytes. */
#define GRO_CMP_BLOCKS16(BLK, from, hl)                                                            \
	do {                                                                                       \
		uint32_t o_;                                                                       \
		BLK(from);                                                                         \
		BLK((from) + 16);                                                                  \
		if ((from) == 0)                                                                   \
			BLK(32);                                                                   \
		for (o_ = (from) == 0 ? 48 : (from) + 32; o_ + 16 < (hl); o_ += 16)                \
			BLK(o_);                                                                   \
		BLK((hl) - 16);                                                                    \
	} while (0)

#if defined(__SSE2__) && (defined(__x86_64__) || defined(_M_X64) || defined(__i386__))
#include <emmintrin.h>
#define GRO_CMP_HAVE_SSE2 1
static inline OFL_ALWAYS_INLINE int gro_cmp_sse2(const uint8_t *p, const uint8_t *h, const uint8_t *m, uint32_t from, uint32_t hl)
{
	__m128i d = _mm_setzero_si128();
#define CMP_B(o)                                                                                   \
	d = _mm_or_si128(d, _mm_and_si128(_mm_xor_si128(_mm_loadu_si128((const __m128i *)(const void *)(p + (o))),    \
	                                                _mm_loadu_si128((const __m128i *)(const void *)(h + (o)))),   \
	                                  _mm_loadu_si128((const __m128i *)(const void *)(m + (o)))))
	GRO_CMP_BLOCKS16(CMP_B, from, hl);
#undef CMP_B
	return _mm_movemask_epi8(_mm_cmpeq_epi8(d, _mm_setzero_si128())) != 0xffff;
}
#endif

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#define GRO_CMP_HAVE_AVX2 1
#define GRO_TARGET_AVX2 __attribute__((target("avx2")))
/* Only in code compiled for AVX2 (GRO_TARGET_AVX2) and run where
 * gro_cpu_avx2() said yes.  32-byte blocks from from, the last one ending
 * at hl; d: what its caller found differing already (a byte not 0: a
 * difference too). */
static inline GRO_TARGET_AVX2 int gro_cmp_avx2_d(__m256i d, const uint8_t *p, const uint8_t *h, const uint8_t *m,
                                                 uint32_t from, uint32_t hl)
{
#define CMP_Y(o)                                                                                   \
	d = _mm256_or_si256(d, _mm256_and_si256(                                                   \
	                           _mm256_xor_si256(_mm256_loadu_si256((const __m256i *)(const void *)(p + (o))), \
	                                            _mm256_loadu_si256((const __m256i *)(const void *)(h + (o)))), \
	                           _mm256_loadu_si256((const __m256i *)(const void *)(m + (o)))))
	/* from + 32 < 54 <= hl, and hl <= 128 <= from + 128: at most four
	 * blocks, no loop */
	CMP_Y(from);
	if (hl > from + 64)
		CMP_Y(from + 32);
	if (hl > from + 96)
		CMP_Y(from + 64);
	CMP_Y(hl - 32);
#undef CMP_Y
	return !_mm256_testz_si256(d, d);
}
static inline GRO_TARGET_AVX2 int gro_cmp_avx2(const uint8_t *p, const uint8_t *h, const uint8_t *m,
                                               uint32_t from, uint32_t hl)
{
	return gro_cmp_avx2_d(_mm256_setzero_si256(), p, h, m, from, hl);
}
/* Does this CPU (and its OS: the YMM state saved) run AVX2 code?  Asks the
 * compiler's runtime, which reads CPUID once at load time. */
static inline int gro_cpu_avx2(void)
{
	return __builtin_cpu_supports("avx2");
}
#endif

#if defined(__ARM_NEON) || defined(__ARM_NEON__)
#include <arm_neon.h>
#define GRO_CMP_HAVE_NEON 1
static inline OFL_ALWAYS_INLINE int gro_cmp_neon(const uint8_t *p, const uint8_t *h, const uint8_t *m, uint32_t from, uint32_t hl)
{
	uint8x16_t d = vdupq_n_u8(0);
#define CMP_B(o) d = vorrq_u8(d, vandq_u8(veorq_u8(vld1q_u8(p + (o)), vld1q_u8(h + (o))), vld1q_u8(m + (o))))
	GRO_CMP_BLOCKS16(CMP_B, from, hl);
#undef CMP_B
#if defined(__aarch64__)
	return vmaxvq_u32(vreinterpretq_u32_u8(d)) != 0;
#else
	{
		uint64x2_t q = vreinterpretq_u64_u8(d);
		return (vgetq_lane_u64(q, 0) | vgetq_lane_u64(q, 1)) != 0;
	}
#endif
}
#endif

/* The library's compare (see the top of the file). */
#if !defined(OFL_SIMD_OFF) && defined(GRO_CMP_HAVE_SSE2)
#define gro_cmp gro_cmp_sse2
#elif !defined(OFL_SIMD_OFF) && defined(GRO_CMP_HAVE_NEON)
#define gro_cmp gro_cmp_neon
#else
#define gro_cmp gro_cmp_scalar
#endif

#endif
