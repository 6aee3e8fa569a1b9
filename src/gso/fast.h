/*
 * fast.h - the fast segment code of iter.c: a middle segment (and the first
 * and last ones) of a TCP or UDP L4 packet with partial checksums built
 * from the middle-segment template by a fixed-size copy and a few patches.
 * The per-segment pieces are inline here (ofl_gso_next() inlines
 * fast_one()); the loop over the middle segments of a burst is fast.c.
 */
#ifndef OFL_GSO_FAST_H
#define OFL_GSO_FAST_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "gso/seg.h"

/* ---- The middle segments of a burst, the common case made cheap ----
 *
 * A middle segment of a TCP or UDP L4 packet with partial checksums is the
 * middle-segment template (gso_mid_template(): lengths, flags and the L4
 * pseudo-header sum already right) with two or three fields patched: the
 * TCP sequence number, the IPv4 ID and header checksum.  When the input is
 * plain buffers, the slots come from a BLOCK pool and no hook runs, m such
 * segments inside the current buffer are built by one loop with the state
 * (sequence number, ID, payload pointer, pool head) in registers and written
 * back once: a fixed-size copy of the template, the patches, one slice, and
 * the segment record from a per-burst copy.  Everything that decides
 * whether it applies is checked once per burst (mid_fast_count()). */

/* Bytes of the template copied per segment: a whole number of 32-byte
 * blocks covering the header, so the copy has a constant size (the slot
 * must hold it; the bytes past hdr_len are not part of the segment). */
static inline uint32_t mid_copy_len(uint32_t hdr_len)
{
	return (hdr_len + 31u) & ~31u;
}

/* Can the fast code build segments now (its input-side conditions,
 * GSO_ITF_MID_FAST, were checked at start): slots of a BLOCK or RING pool
 * that hold the 128 bytes the template copy may write, one free, and the
 * cursor inside a buffer. */
static inline int fast_ok(const struct gso_it *it, const struct ofl_gso_pool *pool)
{
	return (it->flags & GSO_ITF_MID_FAST) && !it->done &&
	       (pool->kind == OFL_GSO_POOL_BLOCK || pool->kind == OFL_GSO_POOL_RING) && pool->slot_size >= 128u &&
	       pool->nfree && it->cur_unit < it->nunits;
}

/* fast_ok() for a BLOCK pool, and for a pool of this kind (a constant at
 * each call).  (Functions, not forced inline, and the BLOCK one the test
 * fast_ok() was before RING pools: written in place in fast_one(), GCC
 * laid out ofl_gso_next()'s middle segment 5 instructions dearer,
 * callgrind, bench/instr.sh's TCP/IPv4 64000 B iterator row.) */
static inline int fast_ok_block(const struct gso_it *it, const struct ofl_gso_pool *pool)
{
	return (it->flags & GSO_ITF_MID_FAST) && !it->done && pool->kind == OFL_GSO_POOL_BLOCK &&
	       pool->slot_size >= 128u && pool->nfree && it->cur_unit < it->nunits;
}
static inline int fast_ok_kind(const struct gso_it *it, const struct ofl_gso_pool *pool, uint32_t kind)
{
	if (kind == OFL_GSO_POOL_BLOCK)
		return fast_ok_block(it, pool);
	return (it->flags & GSO_ITF_MID_FAST) && !it->done && pool->kind == kind && pool->slot_size >= 128u &&
	       pool->nfree && it->cur_unit < it->nunits;
}

/* Take the slot at the head of a pool of this kind (BLOCK or RING, a
 * constant at each call) whose data starts at h (pool->head's slot): the
 * head moves on, the count goes down. */
GSO_ALWAYS_INLINE void fast_pop(struct ofl_gso_pool *pool, const uint8_t *h, uint32_t kind)
{
	if (kind == OFL_GSO_POOL_RING)
		pool->head = pool->head + 1u == pool->nslots ? 0u : pool->head + 1u;
	else
		memcpy(&pool->head, h, 4); /* the free list's next slot */
	pool->nfree--;
}

/* Is segment it->seg a middle one (neither the first nor the last)? */
static inline int mid_now(const struct gso_it *it)
{
	return it->seg - 1u < it->nsegs - 2u;
}

/* Bytes of the current buffer after the cursor (fast_ok() holds: the
 * cursor is inside it). */
static inline uint32_t mid_room(const struct gso_it *it)
{
	return ((const struct ofl_buf *)it->units)[it->cur_unit].len - it->cur_off;
}

/* How many segments, at most n, the fast loop may build now: 0 when any
 * condition fails (the general body then builds the segment).  Middle
 * segments, the first one and the last one of a packet of two or more
 * (middle ones but for what gso_mid_fast_any() patches: the first's
 * flags, the last's flags, lengths and sums).  Each segment but the last
 * ends strictly inside the buffer (as next_seg()'s one-slice case: the
 * cursor then needs no normalising); the last ends inside it or at its
 * end. */
static inline uint32_t mid_fast_count(const struct gso_it *it, const struct ofl_gso_pool *pool, uint32_t n)
{
	const uint32_t mss = it->seg_size;
	uint32_t left, m, room, whole;
	if (!fast_ok(it, pool) || it->nsegs < 2u || it->seg >= it->nsegs)
		return 0;
	left = it->nsegs - it->seg;
	m = left < n ? left : n;
	if (m > pool->nfree)
		m = pool->nfree;
	room = mid_room(it);
	/* the last too: what is left of the payload fits the buffer */
	if (m == left && it->payload - it->seg * mss <= room)
		return m;
	if (m == left)
		m--;
	whole = (room - 1u) / mss; /* middle segments strictly inside */
	return m < whole ? m : whole;
}

/* 16 bytes kept in a vector register across the loop (the template and
 * the constant parts of the segment record), moved with memcpy. */
#if defined(__GNUC__)
typedef uint64_t gso_v16 __attribute__((vector_size(16)));
#else
typedef struct {
	uint64_t w[2];
} gso_v16;
#endif

/* GSO_V16_STEP: 1 where gso_v16 takes + (GCC, clang) and a pointer is a
 * 64-bit lane of it (the payload pointer of a segment record is stepped
 * in its vector); else 0 and those fields are stored one by one. */
#if defined(__GNUC__) && UINTPTR_MAX == UINT64_MAX
#define GSO_V16_STEP 1
static inline gso_v16 v16_add(gso_v16 a, gso_v16 b)
{
	return a + b;
}
#else
#define GSO_V16_STEP 0
static inline gso_v16 v16_add(gso_v16 a, gso_v16 b)
{
	a.w[0] += b.w[0];
	a.w[1] += b.w[1];
	return a;
}
#endif

/* A vector that adds v to the native field of n bytes (2, 4 or 8) at byte
 * off (a multiple of n; no carry out of it where used) of 16 bytes. */
static inline gso_v16 v16_field(size_t off, uint64_t v, size_t n)
{
	uint8_t b[16] = {0};
	uint32_t v32 = (uint32_t)v;
	uint16_t v16 = (uint16_t)v;
	gso_v16 r;
	if (n == 2)
		memcpy(b + off, &v16, 2);
	else if (n == 4)
		memcpy(b + off, &v32, 4);
	else
		memcpy(b + off, &v, 8);
	memcpy(&r, b, 16);
	return r;
}

/* 16 bytes from s to d through a vector register. */
GSO_ALWAYS_INLINE void copy16(uint8_t *restrict d, const uint8_t *restrict s)
{
	gso_v16 v;
	memcpy(&v, s, 16);
	memcpy(d, &v, 16);
}

/* 64 bytes so, unrolled by hand (a memcpy() or a loop of this size may
 * become a string instruction or a library call). */
GSO_ALWAYS_INLINE void copy64(uint8_t *restrict d, const uint8_t *restrict s)
{
	copy16(d, s);
	copy16(d + 16, s + 16);
	copy16(d + 32, s + 32);
	copy16(d + 48, s + 48);
}

/* The record of a middle segment but its five per-segment fields (slot
 * pointer, index and offset, segment index, payload pointer): the one
 * cached at start (GSO_MID_REC) with the slot size, the first buffer to
 * release and the buffer the slice is in, written to r. */
GSO_ALWAYS_INLINE void mid_record(struct ofl_gso_seg *restrict r, const struct gso_it *restrict it,
                                  uint32_t slot)
{
	copy64((uint8_t *)r, it->tmpl + GSO_MID_REC);
	copy16((uint8_t *)r + 64, it->tmpl + GSO_MID_REC + 64);
	memcpy((uint8_t *)r + 80, it->tmpl + GSO_MID_REC + 80, GSO_SEG_HEAD - 80);
	r->hdr.size = slot;
	r->release_first = (uint16_t)it->rel_next;
	r->slices[0].buf = (uint16_t)it->cur_unit;
}

/* The first segment's release range (next_seg()'s rule, iter.c): nothing
 * is released before it (it->rel_next is 0), and the buffers before the one
 * its payload starts in (it->cur_unit) hold header bytes only, copied at
 * start, so it releases [0, cur_unit); every later segment's range starts
 * at the payload's buffer.  Returns the count. */
GSO_ALWAYS_INLINE uint16_t fast_first_release(struct gso_it *it)
{
	it->rel_next = it->cur_unit;
	return (uint16_t)it->cur_unit;
}

/* v at p, most significant byte first (one byte-swapped store). */
static inline void put64(uint8_t *p, uint64_t v)
{
	ofl_put32(p, (uint32_t)(v >> 32));
	ofl_put32(p + 4, (uint32_t)v);
}

/* Bytes 4..11 of a segment's IPv4 header (ID, fragment offset, TTL,
 * protocol, header checksum) as a native 64-bit number, most significant
 * byte first: ipb is the BE sum of the header without ID and checksum,
 * folded to 16 bits; mid the fragment, TTL and protocol words in place. */
static inline uint64_t ip4_word(uint32_t ipb, uint64_t mid, uint32_t id)
{
	uint32_t x = ipb + (uint16_t)id;
	return (uint64_t)(uint16_t)id << 48 | mid | (uint16_t)~((x & 0xffffu) + (x >> 16));
}

/* How many segments from the one whose ip4_word() is w may take theirs
 * by adding (1 << 48) - 1 (ID + 1, checksum - 1, RFC 1624): the step is
 * exact while the ID does not wrap (0xffff + 1 adds 0 to a ones'-complement
 * sum: the checksum stays) and the checksum does not pass 0 (the sum
 * 0xffff + 1 folds to 1: 0 is followed by 0xfffe). */
static inline uint32_t ip4_run(uint64_t w)
{
	uint32_t id = (uint32_t)(w >> 48), c = (uint32_t)(w & 0xffffu);
	return (0xffffu - id < c ? 0xffffu - id : c) + 1u;
}

/* ip4_word()'s ipb and mid, computed at start (GSO_MID_IPB). */
static inline uint32_t ip4_sum(const struct gso_it *it)
{
	uint32_t v;
	memcpy(&v, it->tmpl + GSO_MID_IPB, 4);
	return v;
}
static inline uint64_t ip4_mid(const struct gso_it *it)
{
	uint64_t v;
	memcpy(&v, it->tmpl + GSO_MID_IPMID, 8);
	return v;
}

/* m (>= 1, from mid_fast_count()) segments into segs, the state in
 * registers (fast.c: mid_fast()'s copies by L3, protocol, copy size and
 * layout); the first segment of the packet, when it is one of them, with
 * its own flags. */
void gso_mid_fast_any(struct gso_it *restrict it, struct ofl_gso_pool *restrict pool,
                      struct ofl_gso_seg *restrict segs, uint32_t m);

/* The last segment of a packet (plen payload bytes, its header h a middle
 * segment's but for the IPv4 bytes 4..11) in seg and h: what differs from
 * a middle segment in its record (flags, lengths, release range) and
 * header (TCP FIN and PSH back, the lengths, the pseudo-header sum; IPv4:
 * the total length), seg.h's rules; l3o, l4o, tcp: the iterator's.
 * Returns the IPv4 header's sum for ip4_word() (0 for IPv6). */
GSO_ALWAYS_INLINE uint32_t last_hdr(const struct gso_it *restrict it, struct ofl_gso_seg *restrict seg,
                                    uint8_t *restrict h, uint32_t plen, uint32_t l3o, uint32_t l4o, int tcp)
{
	const uint32_t pay = it->hdr_len - l4o + plen; /* L4 header and payload */
	const uint32_t gone = (uint32_t)it->flags >> GSO_ITF_TCP_SHIFT;
	const uint8_t *tmpl = it->tmpl;
	seg->flags = OFL_GSO_SEG_F_LAST | OFL_GSO_SEG_F_CSUM_PARTIAL;
	seg->payload_len = plen;
	seg->len = it->hdr_len + plen;
	seg->slices[0].len = plen;
	seg->release_count = (uint16_t)(it->nunits - it->rel_next);
	if (tcp) {
		h[l4o + 13] = (uint8_t)(tmpl[l4o + 13] | (gone & (GSO_TCP_FIN | GSO_TCP_PSH)));
		ofl_put16(h + l4o + GSO_TCP_CSUM_OFF, gso_fold_be(it->ps_base + pay));
	} else {
		ofl_put16(h + l4o + 4, (uint16_t)pay);
		ofl_put16(h + l4o + GSO_UDP_CSUM_OFF, gso_fold_be(it->ps_base + pay));
	}
	if (it->l3 == 4) {
		ofl_put16(h + l3o + 2, (uint16_t)(it->l3_hlen + pay));
		return gso_fold_be(it->ip_base + it->l3_hlen + pay + ofl_get16(tmpl + l3o + 6));
	}
	ofl_put16(h + l3o + 4, (uint16_t)(it->l3_hlen - 40u + pay));
	return 0;
}


/* After the last segment (it->cur_off just past its payload, in buffer
 * u, it->cur_unit): the cursor normalised as gso_take() leaves it, every
 * buffer released. */
GSO_ALWAYS_INLINE void last_cursor(struct gso_it *it, uint32_t u)
{
	if (it->cur_off == ((const struct ofl_buf *)it->units)[u].len) {
		it->cur_off = 0;
		while (++u < it->nunits && ((const struct ofl_buf *)it->units)[u].len == 0)
			;
		it->cur_unit = u;
	}
	it->rel_next = it->nunits;
}

/* Which segment one_seg() builds. */
#define GSO_ONE_MID 0
#define GSO_ONE_FIRST 1 /* the first of several */
#define GSO_ONE_LAST 2  /* the last of several */

/* What every segment one_seg() builds has (a middle segment's record and
 * header but for IPv4 bytes 4..11): the cached record with its
 * per-segment fields, the slot taken from a pool of this kind (BLOCK or
 * RING, a constant at each call), the template copied in 64-byte halves
 * (the slot holds 128 bytes; the template is zero after the header) and
 * the TCP sequence number of segment it->seg, whose payload starts at the
 * cursor.  Returns the slot.  (The window's win_seg() builds the same
 * from the window's cache.) */
GSO_ALWAYS_INLINE uint8_t *seg_base(const struct gso_it *restrict it, struct ofl_gso_pool *restrict pool,
                                    struct ofl_gso_seg *restrict seg, uint32_t kind)
{
	const uint32_t k = it->seg, slot = pool->slot_size, idx = pool->head;
	const size_t off = (size_t)idx * slot;
	uint8_t *h = pool->base + off;
	mid_record(seg, it, slot);
	seg->hdr.data = h;
	seg->hdr.index = idx;
	seg->hdr.offset = off;
	seg->index = k;
	seg->slices[0].data = ((const struct ofl_buf *)it->units)[it->cur_unit].data + it->cur_off;
	fast_pop(pool, h, kind);
	copy64(h, it->tmpl);
	if (it->hdr_len > 64u)
		copy64(h + 64, it->tmpl + 64);
	if (it->type == OFL_GSO_TYPE_TCP)
		ofl_put32(h + it->l4_off + 4, it->seq0 + k * it->seg_size);
	return h;
}

/* Segment it->seg (what: a GSO_ONE_* constant at each call; fast_ok(), and
 * its plen payload bytes lie in the current buffer, strictly inside it
 * unless it is the last segment) by mid_fast()'s rules without the
 * per-burst setup: the cached record with its per-segment fields, the
 * template copied in 64-byte halves (the slot holds 128 bytes; the
 * template is zero after the header), the sequence number and IPv4 bytes
 * 4..11 computed for segment k.  The first segment also gets CWR back
 * (unless it stays everywhere), the last one FIN and PSH, its lengths,
 * its pseudo-header sum and its release range (seg.h's rules for these
 * segments). */
GSO_ALWAYS_INLINE void one_seg(struct gso_it *restrict it, struct ofl_gso_pool *restrict pool,
                               struct ofl_gso_seg *restrict seg, int what, uint32_t plen, uint32_t kind)
{
	const uint32_t k = it->seg, l3o = it->l3_off, l4o = it->l4_off, u = it->cur_unit, o = it->cur_off;
	const int tcp = it->type == OFL_GSO_TYPE_TCP;
	const uint8_t *tmpl = it->tmpl;
	uint8_t *h = seg_base(it, pool, seg, kind);
	uint32_t ipb = 0, gone = (uint32_t)it->flags >> GSO_ITF_TCP_SHIFT;
	if (it->l3 == 4)
		ipb = ip4_sum(it);
	if (what == GSO_ONE_FIRST) {
		seg->flags = OFL_GSO_SEG_F_FIRST | OFL_GSO_SEG_F_CSUM_PARTIAL;
		seg->release_count = fast_first_release(it); /* from 0: mid_record() */
		if (tcp)
			h[l4o + 13] = (uint8_t)(tmpl[l4o + 13] | (gone & GSO_TCP_CWR));
	} else if (what == GSO_ONE_LAST) {
		ipb = last_hdr(it, seg, h, plen, l3o, l4o, tcp);
	}
	if (it->l3 == 4)
		put64(h + l3o + 4, ip4_word(ipb, ip4_mid(it), gso_ip_id(it, k)));
	it->seg = k + 1u;
	it->cur_off = o + plen;
	if (what == GSO_ONE_LAST)
		last_cursor(it, u);
}

/* ---- The fast window: ofl_gso_next()'s middle segments ----
 *
 * After a segment built outside it, fast_window() opens the window of the
 * middle segments that follow strictly inside the current buffer and whose
 * IPv4 ID and checksum step exactly (ip4_run()): segments it->seg ..
 * it->fend - 1, each a pure function of its index.  What is the same for
 * all of them is cached when it opens (struct gso_it's win_* fields): the
 * record's bytes but for the slot and the two per-segment words (segment
 * index, payload pointer), the buffer, the IPv4 bytes 4..11 of segment 0
 * (ip4_word() of the window's first segment, stepped back modulo 2^64) and
 * their step, an exact ones'-complement step inside the window, and which
 * copy of win_seg() builds its segments (GSO_WIN_*).  None of it depends on
 * the pool, which is public and may change between calls: ofl_gso_next()
 * builds such a segment after one compare of the iterator (it->seg <
 * it->fend) and the pool's checks (win_pool_ok()).  Segments built by
 * other code inside the window (a burst) leave it right; what moves the
 * segment back (unnext), done, or a new start close it (fend 0). */

/* it->win_mode: the copy of win_seg() (0, the common one: TCP over IPv4
 * in an untagged frame without IP options, a header of 64 bytes or less;
 * next_window() passes GSO_WIN_RING for a RING pool). */
#define GSO_WIN_RING 1u /* a RING pool (else BLOCK) */
#define GSO_WIN_IP6 2u  /* IPv6 (else IPv4) */
#define GSO_WIN_UDP 4u  /* UDP L4 (else TCP) */
#define GSO_WIN_128 8u  /* a header over 64 bytes: the template copied in 128 */
#define GSO_WIN_OFF 16u /* IP and L4 headers elsewhere than an untagged
                           frame's without IP options or extension headers */

_Static_assert(offsetof(struct ofl_gso_seg, index) == 44 && offsetof(struct ofl_gso_seg, slices) == 72 &&
                       offsetof(struct ofl_gso_seg, hdr.cookie) == 24 && GSO_SEG_HEAD == 88,
               "win_seg()'s record layout: bytes 32..71 and 80..87 cached");
_Static_assert(GSO_MIN_SLOT >= 64u, "every pool's slot holds the 64-byte template copy");
_Static_assert((6u & GSO_WIN_IP6) == GSO_WIN_IP6 && (4u & GSO_WIN_IP6) == 0u && GSO_WIN_UDP == 4u &&
                       OFL_GSO_TYPE_TCP == 1 && OFL_GSO_TYPE_UDP_L4 == 2,
               "fast_window(): the mode's IPv6 and UDP bits from l3 and type");

/* Can a window segment of this mode take its slot from pool (a BLOCK or
 * RING one: the caller's test, with a free slot)?  Every slot holds the
 * 64-byte template copy (GSO_MIN_SLOT); the 128-byte one needs slots of
 * 128 bytes. */
static inline int win_pool_ok(const struct ofl_gso_pool *pool, uint32_t mode)
{
	return !(mode & GSO_WIN_128) || pool->slot_size >= 128u;
}

/* Open the window at it->seg (a segment was just built outside it), or
 * leave it empty: the iterator's side of fast_ok() and mid_now(), and
 * mid_fast_count()'s count of the middle segments strictly inside the
 * buffer. */
static inline void fast_window(struct gso_it *it)
{
	const uint32_t k = it->seg, mss = it->seg_size;
	const uint16_t rel = (uint16_t)it->rel_next, buf = (uint16_t)it->cur_unit;
	uint32_t n, room;
	uint8_t *r = it->win_rec;
	if (!(it->flags & GSO_ITF_MID_FAST) || it->done || !mid_now(it) || it->cur_unit >= it->nunits ||
	    (room = mid_room(it)) <= mss)
		return;
	n = (room - 1u) / mss;
	if (n > it->nsegs - 1u - k)
		n = it->nsegs - 1u - k;
	if (it->l3 == 4) {
		const uint64_t w = ip4_word(ip4_sum(it), ip4_mid(it), gso_ip_id(it, k));
		const uint64_t step = (it->flags & OFL_GSO_F_FIXED_ID) ? 0u : ((uint64_t)1 << 48) - 1u;
		if (step && ip4_run(w) < n)
			n = ip4_run(w);
		it->win_w0 = w - (uint64_t)k * step;
		it->win_wstep = step;
	}
	it->win_buf = ((const struct ofl_buf *)it->units)[it->cur_unit].data;
	/* (l3 4 or 6, type TCP or UDP_L4 (GSO_ITF_MID_FAST): their bits give
	 * GSO_WIN_IP6 and GSO_WIN_UDP without a compare) */
	it->win_mode = (uint8_t)((it->l3 & GSO_WIN_IP6) | (it->type & OFL_GSO_TYPE_UDP_L4) << 1 |
	                         (it->hdr_len > 64u ? GSO_WIN_128 : 0u) |
	                         (it->l3_off != 14u || it->l4_off != (it->l3 == 4 ? 34u : 54u) ? GSO_WIN_OFF : 0u));
	/* the cached middle record's bytes 32..71 and 80..87 with the first
	 * buffer to release and the slice's buffer */
	memcpy(r, it->tmpl + GSO_MID_REC + 32, 40);
	memcpy(r + 40, it->tmpl + GSO_MID_REC + 80, 8);
	memcpy(r + offsetof(struct ofl_gso_seg, release_first) - 32u, &rel, 2);
	memcpy(r + offsetof(struct ofl_gso_seg, slices[0].buf) - 40u, &buf, 2);
	it->fend = k + n;
}

/* Segment it->seg inside the window (it->seg < it->fend) from a BLOCK or
 * (mode & GSO_WIN_RING) RING pool with a free slot that win_pool_ok()
 * takes, by the copy of the body for mode (it->win_mode and the pool's
 * kind: a constant at each call but the general one): one_seg()'s middle
 * segment from the window's cache. */
GSO_ALWAYS_INLINE void win_seg(struct gso_it *restrict it, struct ofl_gso_pool *restrict pool,
                               struct ofl_gso_seg *restrict seg, uint32_t mode)
{
	const uint32_t k = it->seg, o = it->cur_off, slot = pool->slot_size, idx = pool->head;
	const uint32_t l3o = mode & GSO_WIN_OFF ? it->l3_off : 14u;
	const uint32_t l4o = mode & GSO_WIN_OFF ? it->l4_off : mode & GSO_WIN_IP6 ? 54u : 34u;
	const size_t off = (size_t)idx * slot;
	uint8_t *h = pool->base + off, *r = (uint8_t *)seg;
	seg->hdr.data = h;
	seg->hdr.size = slot;
	seg->hdr.index = idx;
	seg->hdr.offset = off;
	seg->hdr.cookie = NULL;
	copy16(r + 32, it->win_rec);
	copy16(r + 48, it->win_rec + 16);
	memcpy(r + 64, it->win_rec + 32, 8);
	memcpy(r + 80, it->win_rec + 40, 8);
	seg->index = k;
	seg->slices[0].data = it->win_buf + o;
	fast_pop(pool, h, mode & GSO_WIN_RING ? OFL_GSO_POOL_RING : OFL_GSO_POOL_BLOCK);
	copy64(h, it->tmpl);
	if (mode & GSO_WIN_128)
		copy64(h + 64, it->tmpl + 64);
	if (!(mode & GSO_WIN_UDP))
		ofl_put32(h + l4o + 4, it->seq0 + k * it->seg_size);
	if (!(mode & GSO_WIN_IP6))
		put64(h + l3o + 4, it->win_w0 + (uint64_t)k * it->win_wstep);
	it->seg = k + 1u;
	it->cur_off = o + it->seg_size;
}

/* Build segment it->seg by one_seg() when it can (fast_ok_kind(): a pool
 * of this kind, BLOCK or RING, a constant at each call): 1, or 0 (nothing
 * done; the general body builds it). */
GSO_ALWAYS_INLINE int fast_one(struct gso_it *restrict it, struct ofl_gso_pool *restrict pool,
                               struct ofl_gso_seg *restrict seg, uint32_t kind)
{
	uint32_t k, room, mss;
	if (!fast_ok_kind(it, pool, kind))
		return 0;
	k = it->seg;
	room = mid_room(it);
	mss = it->seg_size;
	if (mid_now(it)) {
		if (room <= mss)
			return 0;
		one_seg(it, pool, seg, GSO_ONE_MID, mss, kind);
	} else if (k == 0) {
		if (it->nsegs < 2u || room <= mss)
			return 0;
		one_seg(it, pool, seg, GSO_ONE_FIRST, mss, kind);
	} else {
		uint32_t plen = it->payload - k * mss;
		if (k + 1u != it->nsegs || room < plen)
			return 0;
		one_seg(it, pool, seg, GSO_ONE_LAST, plen, kind);
	}
	return 1;
}

/* fast_one() from a pool of kind pool_kind (pool->kind; a constant in
 * the callers' common-case copies): BLOCK and RING have their own copy,
 * other kinds none (0). */
GSO_ALWAYS_INLINE int fast_one_any(struct gso_it *restrict it, struct ofl_gso_pool *restrict pool,
                                   struct ofl_gso_seg *restrict seg, uint32_t pool_kind)
{
	if (pool_kind == OFL_GSO_POOL_BLOCK)
		return fast_one(it, pool, seg, OFL_GSO_POOL_BLOCK);
	if (pool_kind == OFL_GSO_POOL_RING)
		return fast_one(it, pool, seg, OFL_GSO_POOL_RING);
	return 0;
}

#endif /* OFL_GSO_FAST_H */
