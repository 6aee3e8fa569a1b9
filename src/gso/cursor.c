/*
 * cursor.c - the payload cursor: a (unit, byte) position in the input's
 * buffers, walked forward to cut segments into slices without copying, the
 * checksum of a segment's slices, and a segment copied out in one piece
 * (through the shared cursor, core/cursor.h).
 */
#include "core/cursor.h"
#include "gso/gso_int.h"

static void cursor_norm(const struct gso_it *it, uint32_t *u, uint32_t *o)
{
	while (*u < it->nunits && *o >= gso_unit_len(it, *u)) {
		*o -= gso_unit_len(it, *u);
		(*u)++;
	}
}

void gso_cursor_at(const struct gso_it *it, uint32_t off, uint32_t *u, uint32_t *o)
{
	*u = 0;
	*o = off;
	cursor_norm(it, u, o);
}

uint32_t gso_take(const struct gso_it *it, uint32_t *u, uint32_t *o, uint32_t len,
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
	return ofl_csum_slices(s, n, 0, 0);
}


int ofl_gso_seg_linearize(const struct ofl_gso_seg *seg, void *buf, size_t cap)
{
	struct ofl_cursor c;
	uint64_t pay = 0;
	uint8_t *d = buf;
	uint32_t i;
	if (!seg || !buf || seg->nslices > OFL_GSO_SEG_MAX_SLICES || seg->hdr_len > seg->len ||
	    seg->len > (uint32_t)INT32_MAX)
		return OFL_EINVAL;
	for (i = 0; i < seg->nslices; i++)
		pay += seg->slices[i].len;
	if (pay != seg->len - seg->hdr_len)
		return OFL_EINVAL;
	if (cap < seg->len)
		return OFL_ENOSPC;
	memcpy(d, seg->hdr.data, seg->hdr_len);
	c = ofl_cur_slices(seg->slices, seg->nslices, 0);
	ofl_cur_copy(&c, (uint32_t)pay, d + seg->hdr_len);
	return (int)seg->len;
}
