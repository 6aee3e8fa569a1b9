/* csum_int.h - checksum helpers the packet path inlines. */
#ifndef OFL_CORE_CSUM_INT_H
#define OFL_CORE_CSUM_INT_H

#include <stdint.h>
#include <string.h>

/* Ones'-complement sum of n 32-bit words (memory order), folded to 16 bits
 * (0 and 0xffff both mean zero).  For IPv4 headers: valid when it is
 * 0xffff. */
static inline uint16_t ofl_csum_words_fold(const uint8_t *p, unsigned nwords)
{
	uint64_t s = 0;
	unsigned i;
	for (i = 0; i < nwords; i++) {
		uint32_t w;
		memcpy(&w, p + 4 * i, 4);
		s += w;
	}
	s = (s & 0xffffffffu) + (s >> 32);
	s = (s & 0xffffffffu) + (s >> 32);
	s = (s & 0xffff) + (s >> 16);
	s = (s & 0xffff) + (s >> 16);
	return (uint16_t)s;
}

/* ofl_csum_words_fold(p, 5), written out: an IPv4 header without options
 * (0xffff when its checksum is valid). */
static inline uint16_t ofl_csum_ip4_fold(const uint8_t *p)
{
	/* five 32-bit loads (one 20-byte copy into an array went through the
	 * stack: a vector store and five reloads) */
	uint32_t w0, w1, w2, w3, w4;
	uint64_t s;
	memcpy(&w0, p, 4);
	memcpy(&w1, p + 4, 4);
	memcpy(&w2, p + 8, 4);
	memcpy(&w3, p + 12, 4);
	memcpy(&w4, p + 16, 4);
	uint32_t x, hi;
	s = (uint64_t)w0 + w1 + w2 + w3 + w4;
	/* to 32 bits with the end-around carry, then to 16 by adding the
	 * word to itself rotated (the upper half takes both halves' sum and
	 * the carry between them) */
	hi = (uint32_t)(s >> 32);
	x = (uint32_t)s + hi;
	x += x < hi;
	return (uint16_t)((x + (x << 16 | x >> 16)) >> 16);
}

#endif
