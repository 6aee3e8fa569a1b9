/*
 * cursor.c - the payload cursor: a (unit, byte) position in the input's
 * buffers, walked forward to cut segments into slices without copying, and
 * the checksum of a segment's slices.
 */
#include "gso/gso_int.h"

static void cursor_norm(const struct ofl_gso_iter *it, uint32_t *u, uint32_t *o)
{
	while (*u < it->nunits && *o >= gso_unit_len(it, *u)) {
		*o -= gso_unit_len(it, *u);
		(*u)++;
	}
}

void gso_cursor_at(const struct ofl_gso_iter *it, uint32_t off, uint32_t *u, uint32_t *o)
{
	*u = 0;
	*o = off;
	cursor_norm(it, u, o);
}

uint32_t gso_take(const struct ofl_gso_iter *it, uint32_t *u, uint32_t *o, uint32_t len,
                  struct ofl_slice *out)
{
	uint32_t n = 0;
	while (len && *u < it->nunits) {
		const uint8_t *d;
		uint32_t ul, c;
		uint16_t pk, bf;
		gso_unit(it, *u, &d, &ul, &pk, &bf);
		c = ul - *o < len ? ul - *o : len;
		if (c) {
			if (out) {
				out[n].data = d + *o;
				out[n].len = c;
				out[n].pkt = pk;
				out[n].buf = bf;
			}
			n++;
		}
		*o += c;
		len -= c;
		cursor_norm(it, u, o);
	}
	return n;
}

uint32_t gso_slices_sum(const struct ofl_slice *s, uint32_t n)
{
	uint32_t sum = 0, done = 0, i;
	if (n == 1)
		return ofl_csum_partial(s[0].data, s[0].len, 0);
	for (i = 0; i < n; i++) {
		sum = ofl_csum_add_at(sum, ofl_csum_partial(s[i].data, s[i].len, 0), (int)(done & 1));
		done += s[i].len;
	}
	return sum;
}

