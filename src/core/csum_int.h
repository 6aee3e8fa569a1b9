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

/* ofl_csum_fold() (ofl/csum.h), for the packet path to inline: a 32-bit
 * sum folded to 16 bits and complemented. */
static inline uint16_t ofl_csum_fold_inl(uint32_t sum)
{
	/* the halves' sum with the end-around carry in one step: the word
	 * plus itself rotated by 16 has it in its upper half (as
	 * ofl_csum_ip4_fold() below) */
	return (uint16_t)~((sum + (sum << 16 | sum >> 16)) >> 16);
}

/* The plain sum of the five 32-bit words (memory order) of an IPv4 header
 * without options at p: five loads (one 20-byte copy into an array went
 * through the stack: a vector store and five reloads). */
static inline uint64_t ofl_csum_ip4_words(const uint8_t *p)
{
	uint32_t w0, w1, w2, w3, w4;
	memcpy(&w0, p, 4);
	memcpy(&w1, p + 4, 4);
	memcpy(&w2, p + 8, 4);
	memcpy(&w3, p + 12, 4);
	memcpy(&w4, p + 16, 4);
	return (uint64_t)w0 + w1 + w2 + w3 + w4;
}

/* ofl_csum_words_fold(p, 5), written out: an IPv4 header without options
 * (0xffff when its checksum is valid). */
static inline uint16_t ofl_csum_ip4_fold(const uint8_t *p)
{
	uint64_t s = ofl_csum_ip4_words(p);
	uint32_t x, hi;
	/* to 32 bits with the end-around carry, then to 16 by adding the
	 * word to itself rotated (the upper half takes both halves' sum and
	 * the carry between them) */
	hi = (uint32_t)(s >> 32);
	x = (uint32_t)s + hi;
	x += x < hi;
	return (uint16_t)((x + (x << 16 | x >> 16)) >> 16);
}

/* Is the 20-byte IPv4 header at ip right (its first byte not 0)?  Its
 * ones'-complement sum folds to 0xffff exactly when the plain sum of its
 * 32-bit words (either byte order) is a non-zero multiple of 0xffff, 2^16
 * being 1 modulo 0xffff (never 0 with a first byte that is not).  s is a
 * multiple of the odd 0xffff when s times its inverse modulo 2^64 is at
 * most (2^64 - 1) / 0xffff: a multiply, not a division; the product is
 * then s / 0xffff, below 2^20 as s is below 5 * 2^32, and any other s
 * gives a product above (2^64 - 1) / 0xffff: below 2^20 says it (a
 * 32-bit immediate to compare with). */
static inline int ofl_ip4_sum_ok(const uint8_t *ip)
{
	return ofl_csum_ip4_words(ip) * 0xfffefffefffeffffull < (1u << 20);
}

#endif
