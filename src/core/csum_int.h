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
	uint32_t w[5];
	uint64_t s;
	memcpy(w, p, 20);
	s = (uint64_t)w[0] + w[1] + w[2] + w[3] + w[4];
	s = (s & 0xffffffffu) + (s >> 32);
	s = (s & 0xffff) + (s >> 16);
	s = (s & 0xffff) + (s >> 16);
	s = (s & 0xffff) + (s >> 16);
	return (uint16_t)s;
}

#endif
