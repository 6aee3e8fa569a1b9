/*
 * iter.c - the GSO iterator after start: count, next / unnext, the callback
 * runner and abort.
 *
 * The whole state is the caller's struct ofl_gso_iter.  Segment k is a pure
 * function of k (payload range, sequence number, IP ID, fragment offset), so
 * the only thing carried from one segment to the next is the payload cursor
 * (which unit, which byte), kept to avoid re-walking the buffers.
 */
#include <string.h>

#include "gso/seg.h"

static uint32_t max_hdr(const struct ofl_gso_iter *it)
{
	return it->hdr_len + (it->type == OFL_GSO_TYPE_UDP_FRAG ? GSO_UDP_HLEN : 0u);
}

int ofl_gso_count(const struct ofl_gso_iter *it, struct ofl_gso_counts *cnt)
{
	uint32_t u, o, k;
	if (!it || !cnt || !it->nsegs)
		return OFL_EINVAL;
	memset(cnt, 0, sizeof(*cnt));
	cnt->segs = it->nsegs;
	cnt->segs_left = it->done ? 0 : it->nsegs - it->seg;
	cnt->hdr_len = max_hdr(it);
	cnt->type = it->type;
	gso_cursor_at(it, it->pay_base, &u, &o);
	for (k = 0; k < it->nsegs; k++) {
		uint32_t s, len, n;
		gso_bounds(it, k, &s, &len);
		n = gso_take(it, &u, &o, len, NULL);
		if (n > cnt->max_slices)
			cnt->max_slices = n;
		n++; /* the header */
		cnt->descs += n;
		if (k >= it->seg && !it->done)
			cnt->descs_left += n;
	}
	return 0;
}

int ofl_gso_check_pool(const struct ofl_gso_iter *it, const struct ofl_gso_pool *pool)
{
	if (!it || !pool || !pool->kind)
		return OFL_EINVAL;
	return pool->slot_size < max_hdr(it) ? OFL_ENOSPC : 0;
}

/* Copy the n-byte header template with fixed-size moves (overlapping for
 * the common sizes) instead of a library call per segment. */
static inline void copy_hdr(uint8_t *restrict d, const uint8_t *restrict s, uint32_t n)
{
	if (n > 64 && n <= 128) {
		memcpy(d, s, 64);
		memcpy(d + n - 64, s + n - 64, 64);
	} else if (n >= 32 && n <= 64) {
		memcpy(d, s, 32);
		memcpy(d + n - 32, s + n - 32, 32);
	} else {
		memcpy(d, s, n);
	}
}

/* ofl_gso_next() after its argument checks; restrict: the slot, the
 * segment, the pool and the iterator do not overlap, so the compiler need
 * not reload the iterator after every header byte it writes. */
static inline int next_seg(struct ofl_gso_iter *restrict it, struct ofl_gso_pool *restrict pool,
                           struct ofl_gso_seg *restrict seg)
{
	uint32_t k, start, plen, u, o, hl, last;
	uint8_t *h;
	int rc;
	if (pool->slot_size < max_hdr(it))
		return OFL_ENOSPC;
	rc = pool->kind == OFL_GSO_POOL_BLOCK ? gso_block_get(pool, &seg->hdr) : ofl_gso_pool_get(pool, &seg->hdr);
	if (rc != 0)
		return rc;
	k = it->seg;
	last = k + 1 == it->nsegs;
	gso_bounds(it, k, &start, &plen);
	u = it->cur_unit;
	o = it->cur_off;
	if (it->unit_kind == GSO_UNIT_BUF && plen &&
	    plen < ((const struct ofl_buf *)it->units)[u].len - o) {
		/* the common case: the segment lies inside one buffer */
		const struct ofl_buf *b = (const struct ofl_buf *)it->units + u;
		seg->slices[0].data = b->data + o;
		seg->slices[0].len = plen;
		seg->slices[0].pkt = 0;
		seg->slices[0].buf = (uint16_t)u;
		seg->nslices = 1;
		o += plen;
	} else {
		seg->nslices = gso_take(it, &u, &o, plen, seg->slices);
	}
	seg->payload_len = plen;
	seg->index = k;
	seg->nsegs = it->nsegs;
	seg->flags = (uint16_t)((k == 0 ? OFL_GSO_SEG_F_FIRST : 0) | (last ? OFL_GSO_SEG_F_LAST : 0));
	seg->l3_off = it->l3_off;
	seg->l4_off = it->l4_off;
	seg->csum_start = seg->csum_offset = 0;
	seg->release_first = (uint16_t)it->rel_next;
	seg->release_count = (uint16_t)((last ? it->nunits : u) - it->rel_next);

	hl = it->hdr_len;
	if (it->type == OFL_GSO_TYPE_UDP_FRAG && k == 0)
		hl += GSO_UDP_HLEN;
	h = seg->hdr.data;
	copy_hdr(h, it->tmpl, hl);
	seg->hdr_len = hl;
	seg->len = hl + plen;
	if (it->type == OFL_GSO_TYPE_TCP)
		gso_tcp_fix(it, h, seg, k, plen, last);
	else if (it->type == OFL_GSO_TYPE_UDP_L4)
		gso_udp_fix(it, h, seg, k, plen);
	else
		gso_frag_fix(it, h, seg);
	if (it->l2_fill && it->l2_fill(it->l2_user, h, hl, k) != 0) {
		ofl_gso_pool_put(pool, &seg->hdr);
		return OFL_EBADMSG;
	}
	it->cur_unit = u;
	it->cur_off = o;
	it->rel_next += seg->release_count;
	it->seg = k + 1;
	return 1;
}

int ofl_gso_next(struct ofl_gso_iter *it, struct ofl_gso_pool *pool, struct ofl_gso_seg *seg)
{
	if (!it || !pool || !seg || !it->nsegs)
		return OFL_EINVAL;
	if (it->done || it->seg >= it->nsegs)
		return 0;
	if (!pool->kind)
		return OFL_EINVAL;
	return next_seg(it, pool, seg);
}

int ofl_gso_unnext(struct ofl_gso_iter *it, struct ofl_gso_pool *pool, const struct ofl_gso_seg *seg)
{
	uint32_t k, start, plen, u, o;
	if (!it || !pool || !seg || !it->nsegs || it->seg == 0 || seg->index + 1 != it->seg ||
	    seg->nsegs != it->nsegs)
		return OFL_EINVAL;
	k = seg->index;
	gso_bounds(it, k, &start, &plen);
	gso_cursor_at(it, it->pay_base, &u, &o);
	gso_take(it, &u, &o, start, NULL);
	it->cur_unit = u;
	it->cur_off = o;
	it->rel_next -= seg->release_count;
	it->seg = k;
	it->done = 0;
	return ofl_gso_pool_put(pool, &seg->hdr);
}

int ofl_gso_run(struct ofl_gso_iter *it, struct ofl_gso_pool *pool, const struct ofl_gso_callbacks *cb,
                uint32_t *emitted)
{
	struct ofl_gso_seg seg;
	uint32_t n = 0;
	int rc;
	if (emitted)
		*emitted = 0;
	if (!it || !pool || !cb || !cb->segment)
		return OFL_EINVAL;
	for (;;) {
		int r;
		rc = ofl_gso_next(it, pool, &seg);
		if (rc <= 0)
			break;
		r = cb->segment(cb->user, &seg);
		if (r < 0) {
			ofl_gso_unnext(it, pool, &seg);
			rc = OFL_EAGAIN;
			break;
		}
		n++;
		if (r > 0) {
			rc = it->seg >= it->nsegs ? 0 : OFL_EAGAIN;
			break;
		}
	}
	if (emitted)
		*emitted = n;
	return rc;
}

int ofl_gso_abort(struct ofl_gso_iter *it)
{
	int left;
	if (!it)
		return OFL_EINVAL;
	left = it->done ? 0 : (int)(it->nsegs - it->seg);
	it->done = 1;
	return left;
}
