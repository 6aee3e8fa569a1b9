/*
 * iter.c - the GSO iterator after start: count, next / next_burst / unnext,
 * the callback runner and abort.
 *
 * The whole state is the caller's struct ofl_gso_iter.  Segment k is a pure
 * function of k (payload range, sequence number, IP ID, fragment offset), so
 * the only thing carried from one segment to the next is the payload cursor
 * (which unit, which byte), kept to avoid re-walking the buffers.
 */
#include <stddef.h>
#include <string.h>

#include "gso/fast.h"

static uint32_t max_hdr(const struct gso_it *it)
{
	return it->hdr_len + (it->type == OFL_GSO_TYPE_UDP_FRAG ? GSO_UDP_HLEN : 0u);
}

int ofl_gso_count(const struct ofl_gso_iter *itp, struct ofl_gso_counts *cnt_out, size_t size)
{
	const struct gso_it *it = gso_itc(itp);
	struct ofl_gso_counts c, *cnt = &c;
	if (!it || !cnt_out || !size || !it->nsegs)
		return OFL_EINVAL;
	memset(cnt, 0, sizeof(*cnt));
	cnt->segs = it->nsegs;
	cnt->segs_left = it->done ? 0 : it->nsegs - it->seg;
	cnt->hdr_len = max_hdr(it);
	cnt->type = it->type;
	cnt->seg_size = it->seg_size;
	cnt->tunnel = it->tun;
	cnt->outer_l3_off = it->o_l3_off;
	cnt->outer_l4_off = it->o_l4_off;
	cnt->max_slices = gso_walk_segs(it, it->done ? it->nsegs : it->seg, &cnt->descs, &cnt->descs_left);
	ofl_copy_sized(cnt_out, size, cnt, sizeof(*cnt));
	return 0;
}

int ofl_gso_next_descs(const struct ofl_gso_iter *itp)
{
	const struct gso_it *it = gso_itc(itp);
	uint32_t start, plen, u, o;
	if (!it || !it->nsegs)
		return OFL_EINVAL;
	if (it->done || it->seg >= it->nsegs)
		return 0;
	gso_bounds(it, it->seg, &start, &plen);
	u = it->cur_unit;
	o = it->cur_off;
	return 1 + (int)gso_take(it, &u, &o, plen, NULL);
}

int ofl_gso_check_pool(const struct ofl_gso_iter *itp, const struct ofl_gso_pool *pool)
{
	const struct gso_it *it = gso_itc(itp);
	if (!it || !pool || !pool->kind)
		return OFL_EINVAL;
	return pool->slot_size < max_hdr(it) ? OFL_ENOSPC : 0;
}

/* Copy the n-byte header template with a few fixed-size moves (the last
 * one overlapping) instead of a library call per segment: 16-byte vector
 * moves written out (fast.h), as a 64-byte memcpy() may become a string
 * instruction (GCC 12 -O2 made it `rep movsd`, 16 steps). */
GSO_ALWAYS_INLINE void copy32(uint8_t *restrict d, const uint8_t *restrict s)
{
	copy16(d, s);
	copy16(d + 16, s + 16);
}
static inline void copy_hdr(uint8_t *restrict d, const uint8_t *restrict s, uint32_t n)
{
	if (n < 32 || n > 128) {
		memcpy(d, s, n);
	} else if (n <= 64) {
		copy32(d, s);
		copy32(d + n - 32, s + n - 32);
	} else {
		copy64(d, s);
		if (n <= 80)
			copy16(d + n - 16, s + n - 16);
		else if (n <= 96)
			copy32(d + n - 32, s + n - 32);
		else
			copy64(d + n - 64, s + n - 64);
	}
}

/* Do the pool's slots hold the longest header of a segment of this type? */
GSO_ALWAYS_INLINE int slot_fits(const struct gso_it *it, const struct ofl_gso_pool *pool, uint32_t type)
{
	return pool->slot_size >= it->hdr_len + (type == OFL_GSO_TYPE_UDP_FRAG ? GSO_UDP_HLEN : 0u);
}

/* ofl_gso_next() after its argument checks and the slot size check (the
 * caller's: once per segment or once per burst), for a segment of this type
 * from this kind of pool (both constants in the common case's copy of the
 * body, so its branches fold away).  restrict: the slot, the segment, the
 * pool and the iterator do not overlap, so the compiler need not reload the
 * iterator after every header byte it writes.  in_mid: 1 when the caller
 * knows that the segment is neither the first nor the last (its copy of
 * the body then drops their cases), 0 when it does not. */
GSO_ALWAYS_INLINE int next_seg(struct gso_it *restrict it, struct ofl_gso_pool *restrict pool,
                               struct ofl_gso_seg *restrict seg, uint32_t type, uint32_t pool_kind,
                               int in_mid)
{
	const uint32_t k = it->seg, nsegs = it->nsegs, rel = it->rel_next;
	const int last = !in_mid && k + 1 == nsegs;
	const int first = !in_mid && k == 0;
	const int mid = in_mid || (!first && !last);
	uint32_t start, plen, u = it->cur_unit, o = it->cur_off, hl = it->hdr_len, nsl, rc, flags;
	uint8_t *h;
	rc = (uint32_t)(pool_kind == OFL_GSO_POOL_BLOCK  ? gso_block_get(pool, &seg->hdr)
	                : pool_kind == OFL_GSO_POOL_RING ? gso_ring_get(pool, &seg->hdr)
	                                                 : ofl_gso_pool_get(pool, &seg->hdr));
	if (rc != 0)
		return (int)rc;
	gso_bounds(it, k, &start, &plen);
	if (type == OFL_GSO_TYPE_UDP_FRAG && first)
		hl += GSO_UDP_HLEN;
	if (it->unit_kind == GSO_UNIT_BUF && plen &&
	    plen < ((const struct ofl_buf *)it->units)[u].len - o) {
		/* the common case: the segment lies inside one buffer */
		const struct ofl_buf *b = (const struct ofl_buf *)it->units + u;
		seg->slices[0].data = b->data + o;
		seg->slices[0].len = plen;
		seg->slices[0].pkt = 0;
		seg->slices[0].buf = (uint16_t)u;
		nsl = 1;
		o += plen;
	} else {
		nsl = gso_take(it, &u, &o, plen, seg->slices);
	}
	rc = (last ? it->nunits : u) - rel; /* buffers released */
	flags = (first ? OFL_GSO_SEG_F_FIRST : 0u) | (last ? OFL_GSO_SEG_F_LAST : 0u);
	seg->hdr_len = hl;
	seg->payload_len = plen;
	seg->len = hl + plen;
	seg->index = k;
	seg->nsegs = nsegs;
	seg->l3_off = it->l3_off;
	/* a UDP fragment after the first has no UDP header */
	seg->l4_off = type == OFL_GSO_TYPE_UDP_FRAG && !first ? 0 : it->l4_off;
	if (type != OFL_GSO_TYPE_UDP_FRAG && it->csum == OFL_CSUM_MODE_PARTIAL) {
		flags |= OFL_GSO_SEG_F_CSUM_PARTIAL;
		seg->csum_start = it->l4_off;
		seg->csum_offset = type == OFL_GSO_TYPE_TCP ? GSO_TCP_CSUM_OFF : GSO_UDP_CSUM_OFF;
	} else {
		seg->csum_start = seg->csum_offset = 0;
	}
	seg->flags = (uint16_t)flags;
	seg->release_first = (uint16_t)rel;
	seg->release_count = (uint16_t)rc;
	seg->nslices = nsl;
	h = seg->hdr.data;
	copy_hdr(h, it->tmpl, hl);
	if (type == OFL_GSO_TYPE_TCP)
		gso_tcp_fix(it, h, k, plen, last, mid, seg->slices, nsl);
	else if (type == OFL_GSO_TYPE_UDP_L4)
		gso_udp_fix(it, h, k, plen, mid, seg->slices, nsl);
	else
		gso_frag_fix(it, h, k, plen, last);
	if (it->l2_fill && it->l2_fill(it->l2_user, h, hl, k) != 0) {
		gso_pool_unget(pool, &seg->hdr);
		return OFL_EBADMSG;
	}
	it->cur_unit = u;
	it->cur_off = o;
	it->rel_next = rel + rc;
	it->seg = k + 1;
	return 1;
}

/* n (>= 1, at most the segments left) segments into segs: the slot size
 * checked once, then ofl_gso_next()'s body n times, runs of middle
 * segments by the fast loop.  Stops at the first failure: the segments
 * built so far, or its error when there are none. */
GSO_ALWAYS_INLINE int next_n(struct gso_it *restrict it, struct ofl_gso_pool *restrict pool,
                             struct ofl_gso_seg *restrict segs, uint32_t n, uint32_t type, uint32_t pool_kind)
{
	uint32_t i;
	int rc = 0;
	if (!slot_fits(it, pool, type))
		return OFL_ENOSPC;
	for (i = 0; i < n;) {
		uint32_t m = n > 1 ? mid_fast_count(it, pool, n - i) : 0;
		if (m) {
			gso_mid_fast_any(it, pool, segs + i, m);
			i += m;
			continue;
		}
		if (fast_one_any(it, pool, segs + i, pool_kind)) {
			i++;
			continue;
		}
		/* most segments are middle ones: their own copy of the body */
		if (it->seg != 0 && it->seg + 1 < it->nsegs)
			rc = next_seg(it, pool, segs + i, type, pool_kind, 1);
		else
			rc = next_seg(it, pool, segs + i, type, pool_kind, 0);
		if (rc < 0)
			break;
		i++;
	}
	return i ? (int)i : rc;
}

/* The checks both entry points share.  Returns 1 (go on), 0 (nothing left)
 * or the error. */
static inline int next_ready(const struct gso_it *it, const struct ofl_gso_pool *pool)
{
	if (!it->nsegs)
		return OFL_EINVAL;
	if (it->done || it->seg >= it->nsegs)
		return 0;
	if (!pool->kind)
		return OFL_EINVAL;
	return 1;
}

/* ofl_gso_next() past its argument checks for a segment the window does
 * not build (out of line: the registers it saves are not the fast path's). */
static OFL_NOINLINE int next_general(struct gso_it *it, struct ofl_gso_pool *pool, struct ofl_gso_seg *seg)
{
	int rc;
	/* the common case first: it implies the checks below */
	if (it->seg < it->nsegs && !it->done && it->type == OFL_GSO_TYPE_TCP) {
		if (pool->kind == OFL_GSO_POOL_BLOCK)
			return next_n(it, pool, seg, 1, OFL_GSO_TYPE_TCP, OFL_GSO_POOL_BLOCK);
		if (pool->kind == OFL_GSO_POOL_RING)
			return next_n(it, pool, seg, 1, OFL_GSO_TYPE_TCP, OFL_GSO_POOL_RING);
	}
	rc = next_ready(it, pool);
	if (rc <= 0)
		return rc;
	return next_n(it, pool, seg, 1, it->type, pool->kind);
}

/* A segment inside the window by its general copy (the caller checked
 * the pool: BLOCK, or ring for a RING one, with a free slot that
 * win_pool_ok() takes): one copy per L3 and protocol, the pool kind, the
 * copy size and the header offsets tested in each. */
static OFL_NOINLINE GSO_NO_SLP int next_win_other(struct gso_it *restrict it, struct ofl_gso_pool *restrict pool,
                                                  struct ofl_gso_seg *restrict seg, uint32_t ring)
{
	const uint32_t mode = it->win_mode, rest = (mode & (GSO_WIN_128 | GSO_WIN_OFF)) | ring;
	switch (mode & (GSO_WIN_IP6 | GSO_WIN_UDP)) {
	case 0:
		win_seg(it, pool, seg, rest);
		break;
	case GSO_WIN_IP6:
		win_seg(it, pool, seg, GSO_WIN_IP6 | rest);
		break;
	case GSO_WIN_UDP:
		win_seg(it, pool, seg, GSO_WIN_UDP | rest);
		break;
	default:
		win_seg(it, pool, seg, GSO_WIN_IP6 | GSO_WIN_UDP | rest);
		break;
	}
	return 1;
}

/* ofl_gso_next() for an iterator the fast code may serve
 * (GSO_ITF_MID_FAST) past its common case: a segment inside the window
 * from another pool the window can take slots from (a RING one, or slots
 * too small for the 128-byte copy: then the general body), or the segment
 * by fast_one() or the general body, then the window opened at the next
 * one (fast.h). */
static OFL_NOINLINE int next_window(struct gso_it *it, struct ofl_gso_pool *pool, struct ofl_gso_seg *seg)
{
	int rc = 1;
	if (it->seg < it->fend && (pool->kind == OFL_GSO_POOL_BLOCK || pool->kind == OFL_GSO_POOL_RING) &&
	    pool->nfree && win_pool_ok(pool, it->win_mode))
		return next_win_other(it, pool, seg, pool->kind == OFL_GSO_POOL_RING ? GSO_WIN_RING : 0u);
	if (!fast_one(it, pool, seg, OFL_GSO_POOL_BLOCK))
		rc = next_general(it, pool, seg);
	/* (a window still holding the next segment stays: other pool kinds
	 * build its segments by the general body, one after the other) */
	if (rc > 0 && it->seg >= it->fend)
		fast_window(it);
	return rc;
}

/* A window segment of one of the other common modes than 0 (TCP/IPv6
 * with a 128-byte copy, UDP L4 over IPv4 or IPv6) from a BLOCK pool or
 * (ring GSO_WIN_RING) a RING one with a free slot, by its own copy of the
 * body: 1, or 0 for another mode (nothing done). */
GSO_ALWAYS_INLINE int win_seg_common(struct gso_it *restrict it, struct ofl_gso_pool *restrict pool,
                                     struct ofl_gso_seg *restrict seg, uint32_t ring)
{
	const uint32_t mode = it->win_mode;
	if (mode == (GSO_WIN_IP6 | GSO_WIN_128) && win_pool_ok(pool, mode))
		win_seg(it, pool, seg, GSO_WIN_IP6 | GSO_WIN_128 | ring);
	else if (mode == GSO_WIN_UDP)
		win_seg(it, pool, seg, GSO_WIN_UDP | ring);
	else if (mode == (GSO_WIN_IP6 | GSO_WIN_UDP))
		win_seg(it, pool, seg, GSO_WIN_IP6 | GSO_WIN_UDP | ring);
	else
		return 0;
	return 1;
}

/* ofl_gso_next()'s segment inside the window from a BLOCK pool with a
 * free slot for another mode than its own (it->win_mode not 0): a copy
 * for each of the other common ones (no register to save), else
 * next_window(). */
static OFL_NOINLINE GSO_NO_SLP int next_win_block(struct gso_it *restrict it, struct ofl_gso_pool *restrict pool,
                                                  struct ofl_gso_seg *restrict seg)
{
	if (win_seg_common(it, pool, seg, 0))
		return 1;
	return next_window(it, pool, seg);
}

/* ofl_gso_next()'s segment inside the window from a RING pool with a
 * free slot (the way a driver that completes its TX ring in order keeps
 * its header slots): mode 0 and the other common ones by their own copy,
 * the rest by next_win_other() when the slots hold their copy, else
 * next_window() (no register to save on the way). */
static OFL_NOINLINE GSO_NO_SLP int next_win_ring(struct gso_it *restrict it, struct ofl_gso_pool *restrict pool,
                                                 struct ofl_gso_seg *restrict seg)
{
	if (it->win_mode == 0)
		win_seg(it, pool, seg, GSO_WIN_RING);
	else if (!win_seg_common(it, pool, seg, GSO_WIN_RING))
		return win_pool_ok(pool, it->win_mode) ? next_win_other(it, pool, seg, GSO_WIN_RING)
		                                       : next_window(it, pool, seg);
	return 1;
}

/* 0: what ofl_gso_next() returns for a started iterator of the fast code
 * with no segment left (next_ready()'s answer), out of line so that GCC
 * does not give the window segment's return a jump to a shared one. */
static OFL_NOINLINE int next_done(void)
{
	return 0;
}

/* The window's segment (fast.h) in the fewest instructions: the
 * iterator's conditions are the one compare, the pool's (public, so
 * checked per call) two, BLOCK and a free slot (a slot holds the 64-byte
 * copy of mode 0); the NULL checks kept as separate branches
 * (GSO_BRANCH_APART); a RING pool's by next_win_ring() (its kind
 * compared with memory again, GSO_RELOAD: the BLOCK test stays one
 * instruction); everything else by a tail call. */
GSO_NO_SLP int ofl_gso_next(struct ofl_gso_iter *itp, struct ofl_gso_pool *pool, struct ofl_gso_seg *seg)
{
	struct gso_it *it = gso_it(itp);
	if (!it)
		return OFL_EINVAL;
	GSO_BRANCH_APART();
	if (!pool)
		return OFL_EINVAL;
	GSO_BRANCH_APART();
	if (!seg)
		return OFL_EINVAL;
	if (it->seg < it->fend) {
		if (pool->kind == OFL_GSO_POOL_BLOCK && pool->nfree) {
			if (it->win_mode != 0)
				return next_win_block(it, pool, seg);
			win_seg(it, pool, seg, 0);
			return 1;
		}
		/* the same from a RING pool */
		GSO_RELOAD(pool->kind);
		if (pool->kind == OFL_GSO_POOL_RING && pool->nfree)
			return next_win_ring(it, pool, seg);
	}
	/* (the call that finds the packet done: 0 here for a started iterator
	 * of the fast code (what next_ready() says for it), else the general
	 * body) */
	if (it->flags & GSO_ITF_MID_FAST) {
		if (it->seg < it->nsegs)
			return next_window(it, pool, seg);
		return next_done();
	}
	return next_general(it, pool, seg);
}

/* ofl_gso_next_burst() past its checks (out of line: the call that finds
 * the packet done, one per packet, saves none of the registers this one
 * does). */
static OFL_NOINLINE int next_burst(struct gso_it *restrict it, struct ofl_gso_pool *restrict pool,
                                   struct ofl_gso_seg *restrict segs, unsigned n)
{
	const uint32_t left = it->nsegs - it->seg;
	if (n > left)
		n = left;
	if (it->type == OFL_GSO_TYPE_TCP && pool->kind == OFL_GSO_POOL_BLOCK)
		return next_n(it, pool, segs, n, OFL_GSO_TYPE_TCP, OFL_GSO_POOL_BLOCK);
	if (it->type == OFL_GSO_TYPE_TCP && pool->kind == OFL_GSO_POOL_RING)
		return next_n(it, pool, segs, n, OFL_GSO_TYPE_TCP, OFL_GSO_POOL_RING);
	return next_n(it, pool, segs, n, it->type, pool->kind);
}

int ofl_gso_next_burst(struct ofl_gso_iter *itp, struct ofl_gso_pool *pool, struct ofl_gso_seg *segs,
                       unsigned n)
{
	struct gso_it *it = gso_it(itp);
	int rc;
	if (!it || !pool || !segs || n == 0)
		return OFL_EINVAL;
	rc = next_ready(it, pool);
	if (rc <= 0)
		return rc;
	return next_burst(it, pool, segs, n);
}

int ofl_gso_unnext(struct ofl_gso_iter *itp, struct ofl_gso_pool *pool, const struct ofl_gso_seg *seg)
{
	struct gso_it *it = gso_it(itp);
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
	it->fend = 0;
	it->done = 0;
	return gso_pool_unget(pool, &seg->hdr);
}

int ofl_gso_run(struct ofl_gso_iter *itp, struct ofl_gso_pool *pool, const struct ofl_gso_callbacks *cb,
                uint32_t *emitted)
{
	struct gso_it *it = gso_it(itp);
	struct ofl_gso_seg seg;
	uint32_t n = 0;
	int rc;
	if (emitted)
		*emitted = 0;
	if (!it || !pool || !cb || !cb->segment)
		return OFL_EINVAL;
	for (;;) {
		int r;
		rc = ofl_gso_next(itp, pool, &seg);
		if (rc <= 0)
			break;
		r = cb->segment(cb->user, &seg);
		if (r < 0) {
			ofl_gso_unnext(itp, pool, &seg);
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

int ofl_gso_abort(struct ofl_gso_iter *itp)
{
	struct gso_it *it = gso_it(itp);
	int left;
	if (!it)
		return OFL_EINVAL;
	left = it->done ? 0 : (int)(it->nsegs - it->seg);
	it->done = 1;
	it->fend = 0;
	return left;
}
