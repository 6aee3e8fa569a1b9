/*
 * csum.c - the Internet checksum over memory, in memory byte order.
 *
 * Ones'-complement addition is commutative and byte-order neutral: summing
 * native 32-bit words and folding gives the byte-swapped-or-not result of
 * summing big-endian 16-bit words, as long as every word is taken from an
 * even offset.  We add 32-bit halves of 64-bit loads into two 64-bit
 * accumulators (no carry can be lost before 2^32 additions), which
 * compilers vectorise.
 */
#include <ofl/csum.h>

#include <string.h>

#include "core/csum_int.h"
#include "core/cursor.h"

static inline uint64_t load64(const uint8_t *p)
{
	uint64_t v;
	memcpy(&v, p, 8);
	return v;
}

static inline uint32_t fold64(uint64_t s)
{
	while (s >> 32)
		s = (s & 0xffffffffu) + (s >> 32);
	return (uint32_t)s;
}

uint32_t ofl_csum_partial(const void *buf, size_t len, uint32_t sum)
{
	const uint8_t *p = buf;
	uint64_t a = sum, b = 0, c = 0, d = 0;
	while (len >= 32) {
		uint64_t w0 = load64(p), w1 = load64(p + 8), w2 = load64(p + 16), w3 = load64(p + 24);
		a += (w0 & 0xffffffffu) + (w0 >> 32);
		b += (w1 & 0xffffffffu) + (w1 >> 32);
		c += (w2 & 0xffffffffu) + (w2 >> 32);
		d += (w3 & 0xffffffffu) + (w3 >> 32);
		p += 32;
		len -= 32;
	}
	while (len >= 8) {
		uint64_t w = load64(p);
		a += (w & 0xffffffffu) + (w >> 32);
		p += 8;
		len -= 8;
	}
	if (len) {
		uint8_t tail[8] = {0};
		uint64_t w;
		memcpy(tail, p, len);
		w = load64(tail);
		a += (w & 0xffffffffu) + (w >> 32);
	}
	/* Each accumulator grew by < 2^33 per 32 bytes: no overflow below
	 * 2^31 * 32 bytes, far beyond any packet. */
	return fold64(fold64(a) + (uint64_t)fold64(b) + fold64(c) + fold64(d));
}

uint32_t ofl_csum_add_at(uint32_t sum, uint32_t block_sum, int odd)
{
	uint64_t s;
	if (odd) {
		/* A block at an odd offset has its bytes in the other lane of
		 * each 16-bit word: rotate its folded sum by 8 bits. */
		uint32_t f = fold64(block_sum);
		f = (f & 0xffff) + (f >> 16);
		f = (f & 0xffff) + (f >> 16);
		block_sum = ((f & 0xff) << 8) | (f >> 8);
	}
	s = (uint64_t)sum + block_sum;
	return fold64(s);
}

uint16_t ofl_csum_fold(uint32_t sum)
{
	return ofl_csum_fold_inl(sum);
}

uint32_t ofl_csum_cursor(struct ofl_cursor *c, uint32_t len)
{
	const uint8_t *p;
	uint32_t s = 0, done = 0, n;
	while ((n = ofl_cur_piece(c, &len, &p)) != 0) {
		s = done ? ofl_csum_add_at(s, ofl_csum_partial(p, n, 0), (int)(done & 1))
		         : ofl_csum_partial(p, n, 0);
		done += n;
	}
	return s;
}

uint32_t ofl_csum_hcursor(struct ofl_hcursor *h, uint32_t len)
{
	uint32_t head, s;
	if (h->hoff >= h->hdr_len || !len)
		return ofl_csum_cursor(&h->c, len);
	head = h->hdr_len - h->hoff < len ? h->hdr_len - h->hoff : len;
	s = ofl_csum_partial(h->hdr + h->hoff, head, 0);
	h->hoff += head;
	return ofl_csum_add_at(s, ofl_csum_cursor(&h->c, len - head), (int)(head & 1));
}

uint32_t ofl_csum_slices(const struct ofl_slice *s, uint32_t n, uint32_t sum, size_t at)
{
	struct ofl_cursor c;
	uint32_t part;
	if (!s || !n)
		return sum;
	if (n == 1) {
		part = ofl_csum_partial(s[0].data, s[0].len, 0);
	} else {
		c = ofl_cur_slices(s, n, 0);
		part = ofl_csum_cursor(&c, UINT32_MAX);
	}
	if (!sum && !(at & 1))
		return part;
	return ofl_csum_add_at(sum, part, (int)(at & 1));
}
