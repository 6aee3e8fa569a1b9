/*
 * cursor.c - the payload cursor: a (unit, byte) position in the input's
 * buffers, kept in the iterator as two numbers and walked through the shared
 * cursor (core/cursor.h): segments cut into slices without copying, sums of
 * payload bytes, a segment copied out in one piece.  A GRO packet's header
 * (unit 0 of GSO_UNIT_GRO) is the shared cursor's header (struct
 * ofl_hcursor).
 */
#include "core/cursor.h"
#include "gso/gso_int.h"

/* The units as a shared cursor at (unit u, byte o): a GRO packet's header
 * (unit 0 of GSO_UNIT_GRO) in front of the chunks after it. */
static inline struct ofl_hcursor units_at(const struct gso_it *it, uint32_t u, uint32_t o)
{
	uint32_t first = it->unit_kind == GSO_UNIT_GRO;
	struct ofl_hcursor h = {first ? it->hdr0 : NULL, first ? it->hdr0_len : 0, o,
	                        {it->units, it->unit_kind == GSO_UNIT_BUF ? sizeof(struct ofl_buf) : sizeof(struct ofl_slice),
	                         it->nunits - first, 0, 0}};
	if (u >= first) { /* in the chunks */
		h.hoff = h.hdr_len;
		h.c.i = u - first;
		h.c.off = o;
	}
	return h;
}

static inline void units_back(const struct gso_it *it, const struct ofl_hcursor *h, uint32_t *u, uint32_t *o)
{
	int in_hdr = h->hoff < h->hdr_len;
	*u = in_hdr ? 0 : h->c.i + (it->unit_kind == GSO_UNIT_GRO);
	*o = in_hdr ? h->hoff : h->c.off;
}

void gso_cursor_at(const struct gso_it *it, uint32_t off, uint32_t *u, uint32_t *o)
{
	struct ofl_hcursor h = units_at(it, 0, 0);
	ofl_hcur_skip(&h, off);
	units_back(it, &h, u, o);
}

uint32_t gso_take(const struct gso_it *it, uint32_t *u, uint32_t *o, uint32_t len,
                  struct ofl_slice *out)
{
	struct ofl_hcursor h = units_at(it, *u, *o);
	uint32_t n = ofl_hcur_cut(&h, len, it->unit_kind != GSO_UNIT_BUF, 0, out, UINT32_MAX);
	units_back(it, &h, u, o);
	return n;
}

uint32_t gso_units_sum(const struct gso_it *it, uint32_t off, uint32_t len)
{
	struct ofl_hcursor h = units_at(it, 0, 0);
	ofl_hcur_skip(&h, off);
	return ofl_csum_hcursor(&h, len);
}

uint32_t gso_slices_sum(const struct ofl_slice *s, uint32_t n)
{
	return ofl_csum_slices(s, n, 0, 0);
}


int ofl_gso_seg_linearize(const struct ofl_gso_seg *seg, void *buf, size_t cap)
{
	struct ofl_hcursor h;
	if (!seg || !buf || seg->nslices > OFL_GSO_SEG_MAX_SLICES || seg->hdr_len > seg->len ||
	    seg->len > (uint32_t)INT32_MAX)
		return OFL_EINVAL;
	h = ofl_hcur(seg->hdr.data, seg->hdr_len, ofl_cur_slices(seg->slices, seg->nslices, 0), 0);
	if (ofl_cur_size(&h.c) != seg->len - seg->hdr_len)
		return OFL_EINVAL;
	if (cap < seg->len)
		return OFL_ENOSPC;
	ofl_hcur_copy(&h, seg->len, buf);
	return (int)seg->len;
}

uint32_t gso_walk_segs(const struct gso_it *it, uint32_t from, uint32_t *descs, uint32_t *descs_left)
{
	uint32_t u, o, k, most = 0;
	*descs = *descs_left = 0;
	gso_cursor_at(it, it->pay_base, &u, &o);
	for (k = 0; k < it->nsegs; k++) {
		uint32_t s, len, n;
		gso_bounds(it, k, &s, &len);
		n = gso_take(it, &u, &o, len, NULL);
		if (n > most)
			most = n;
		*descs += n + 1u; /* the slices and the header */
		if (k >= from)
			*descs_left += n + 1u;
	}
	return most;
}
