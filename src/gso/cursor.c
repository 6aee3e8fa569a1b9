/*
 * cursor.c - the payload cursor: a (unit, byte) position in the input's
 * buffers, kept in the iterator as two numbers and walked through the shared
 * cursor (core/cursor.h): segments cut into slices without copying, sums of
 * payload bytes, a segment copied out in one piece.  A GRO packet's header
 * (unit 0 of GSO_UNIT_GRO) is the one unit outside the shared cursor.
 */
#include "core/cursor.h"
#include "gso/gso_int.h"

/* The units after the GRO header (all of them for the other kinds) as a
 * shared cursor at (unit u, byte o); units are counted from the first. */
static inline struct ofl_cursor units_at(const struct gso_it *it, uint32_t u, uint32_t o)
{
	uint32_t first = it->unit_kind == GSO_UNIT_GRO;
	struct ofl_cursor c = {it->units,
	                       it->unit_kind == GSO_UNIT_BUF ? sizeof(struct ofl_buf) : sizeof(struct ofl_slice),
	                       it->nunits - first, u - first, o};
	return c;
}

static inline void units_back(const struct gso_it *it, const struct ofl_cursor *c, uint32_t *u, uint32_t *o)
{
	*u = c->i + (it->unit_kind == GSO_UNIT_GRO);
	*o = c->off;
}

void gso_cursor_at(const struct gso_it *it, uint32_t off, uint32_t *u, uint32_t *o)
{
	struct ofl_cursor c;
	if (it->unit_kind == GSO_UNIT_GRO) {
		if (off < it->hdr0_len) { /* a payload byte in the GRO header */
			*u = 0;
			*o = off;
			return;
		}
		off -= it->hdr0_len;
	}
	c = units_at(it, it->unit_kind == GSO_UNIT_GRO, 0);
	ofl_cur_skip(&c, off);
	units_back(it, &c, u, o);
}

uint32_t gso_take(const struct gso_it *it, uint32_t *u, uint32_t *o, uint32_t len,
                  struct ofl_slice *out)
{
	struct ofl_cursor c;
	uint32_t n = 0;
	if (*u == 0 && it->unit_kind == GSO_UNIT_GRO) {
		/* payload bytes in the GRO header: its piece first */
		uint32_t t;
		if (!len)
			return 0;
		t = it->hdr0_len - *o < len ? it->hdr0_len - *o : len;
		if (out) {
			out[0].data = it->hdr0 + *o;
			out[0].len = t;
			out[0].pkt = 0;
			out[0].buf = 0;
		}
		n = 1;
		len -= t;
		*o += t;
		if (*o < it->hdr0_len)
			return n;
		*u = 1;
		*o = 0;
	}
	c = units_at(it, *u, *o);
	n += ofl_cur_cut(&c, len, it->unit_kind != GSO_UNIT_BUF, 0, out ? out + n : NULL, UINT32_MAX);
	units_back(it, &c, u, o);
	return n;
}

uint32_t gso_units_sum(const struct gso_it *it, uint32_t off, uint32_t len)
{
	struct ofl_cursor c;
	uint32_t u, o, s = 0, head = 0;
	if (!len)
		return 0;
	gso_cursor_at(it, off, &u, &o);
	if (u == 0 && it->unit_kind == GSO_UNIT_GRO) {
		/* bytes in the GRO header first */
		head = it->hdr0_len - o < len ? it->hdr0_len - o : len;
		s = ofl_csum_partial(it->hdr0 + o, head, 0);
		len -= head;
		u = 1;
		o = 0;
	}
	c = units_at(it, u, o);
	return ofl_csum_add_at(s, ofl_csum_cursor(&c, len), (int)(head & 1));
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
