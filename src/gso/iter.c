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

#include "gso/seg.h"

static uint32_t max_hdr(const struct gso_it *it)
{
	return it->hdr_len + (it->type == OFL_GSO_TYPE_UDP_FRAG ? GSO_UDP_HLEN : 0u);
}

int ofl_gso_count(const struct ofl_gso_iter *itp, struct ofl_gso_counts *cnt_out, size_t size)
{
	const struct gso_it *it = gso_itc(itp);
	struct ofl_gso_counts c, *cnt = &c;
	uint32_t u, o, k;
	if (!it || !cnt_out || !size || !it->nsegs)
		return OFL_EINVAL;
	memset(cnt, 0, sizeof(*cnt));
	cnt->segs = it->nsegs;
	cnt->segs_left = it->done ? 0 : it->nsegs - it->seg;
	cnt->hdr_len = max_hdr(it);
	cnt->type = it->type;
	cnt->seg_size = it->seg_size;
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
 * one overlapping) instead of a library call per segment. */
static inline void copy_hdr(uint8_t *restrict d, const uint8_t *restrict s, uint32_t n)
{
	if (n < 32 || n > 128) {
		memcpy(d, s, n);
	} else if (n <= 64) {
		memcpy(d, s, 32);
		memcpy(d + n - 32, s + n - 32, 32);
	} else {
		memcpy(d, s, 64);
		if (n <= 80)
			memcpy(d + n - 16, s + n - 16, 16);
		else if (n <= 96)
			memcpy(d + n - 32, s + n - 32, 32);
		else
			memcpy(d + n - 64, s + n - 64, 64);
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
	rc = (uint32_t)(pool_kind == OFL_GSO_POOL_BLOCK ? gso_block_get(pool, &seg->hdr)
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
 * GSO_ITF_MID_FAST, were checked at start): slots of a BLOCK pool that
 * hold the 128 bytes the template copy may write, one free, and the
 * cursor inside a buffer. */
static inline int fast_ok(const struct gso_it *it, const struct ofl_gso_pool *pool)
{
	return (it->flags & GSO_ITF_MID_FAST) && !it->done && pool->kind == OFL_GSO_POOL_BLOCK &&
	       pool->slot_size >= 128u && pool->nfree && it->cur_unit < it->nunits;
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

/* How many middle segments, at most n, the fast loop may build now: 0 when
 * any condition fails (the general body then builds the segment).  Each
 * segment ends strictly inside the buffer (as next_seg()'s one-slice case:
 * the cursor then needs no normalising). */
static inline uint32_t mid_fast_count(const struct gso_it *it, const struct ofl_gso_pool *pool, uint32_t n)
{
	uint32_t m, room;
	if (!fast_ok(it, pool) || !mid_now(it))
		return 0;
	m = it->nsegs - 1u - it->seg; /* middle segments left (the last one excluded) */
	if (m > n)
		m = n;
	if (m > pool->nfree)
		m = pool->nfree;
	room = (mid_room(it) - 1u) / it->seg_size;
	return m < room ? m : room;
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

/* m (>= 1, from mid_fast_count()) middle segments into segs.  l3: 4 or 6;
 * tcp: TCP (else UDP L4); cl: mid_copy_len(hdr_len), 64, 96 or 128; l3o,
 * l4o: the IP and L4 header offsets - constants in each copy of the body
 * but the last two, which are constants in the copy for untagged frames
 * without IP options or extension headers (then the patches are stores at
 * fixed offsets and the loop has the registers it needs).  Per segment:
 * the free-list pop, the template stored from registers, the sequence
 * number, IPv4 bytes 4..11 as one store (ID and checksum stepped
 * together), the record stored from registers with its five per-segment
 * fields; no branch but the loop's. */
GSO_ALWAYS_INLINE void mid_fast(struct gso_it *restrict it, struct ofl_gso_pool *restrict pool,
                                struct ofl_gso_seg *restrict segs, uint32_t m, unsigned l3, int tcp, uint32_t cl,
                                uint32_t l3o, uint32_t l4o)
{
	const uint8_t *tmpl = it->tmpl;
	const uint32_t k0 = it->seg, mss = it->seg_size;
	const uint32_t slot = pool->slot_size;
	const uint32_t inc = (it->flags & OFL_GSO_F_FIXED_ID) ? 0u : 1u;
	const uint64_t step = inc ? ((uint64_t)1 << 48) - 1u : 0u;
	uint8_t *const base = pool->base;
	const uint8_t *pay = ((const struct ofl_buf *)it->units)[it->cur_unit].data + it->cur_off;
	uint32_t seq = it->seq0 + k0 * mss, head = pool->head, ipb = 0, k = k0;
	uint64_t ipmid = 0, rtail;
	gso_v16 t0, t1, t2, t3, t4, t5, t6, t7, r0, r1, r2, r3, r4;
	struct ofl_gso_seg r; /* the record every middle segment shares */
	struct ofl_gso_seg *sg = segs, *const end = segs + m;
	if (l3 == 4) {
		ipb = ip4_sum(it);
		ipmid = ip4_mid(it);
	}
	mid_record(&r, it, slot);
	memcpy(&r0, (const uint8_t *)&r, 16);
	memcpy(&r1, (const uint8_t *)&r + 16, 16);
	memcpy(&r2, (const uint8_t *)&r + 32, 16);
	memcpy(&r3, (const uint8_t *)&r + 48, 16);
	memcpy(&r4, (const uint8_t *)&r + 64, 16);
	memcpy(&rtail, (const uint8_t *)&r + 80, GSO_SEG_HEAD - 80);
	memcpy(&t0, tmpl, 16);
	memcpy(&t1, tmpl + 16, 16);
	memcpy(&t2, tmpl + 32, 16);
	memcpy(&t3, tmpl + 48, 16);
	if (cl > 64) {
		memcpy(&t4, tmpl + 64, 16);
		memcpy(&t5, tmpl + 80, 16);
	}
	if (cl > 96) {
		memcpy(&t6, tmpl + 96, 16);
		memcpy(&t7, tmpl + 112, 16);
	}
	while (sg != end) {
		/* a run of segments whose IPv4 ID and checksum step exactly */
		uint64_t w = l3 == 4 ? ip4_word(ipb, ipmid, it->id0 + k * inc) : 0;
		uint32_t run = l3 == 4 && inc ? ip4_run(w) : m;
		struct ofl_gso_seg *const stop = (uint32_t)(end - sg) < run ? end : sg + run;
		for (; sg != stop; sg++) {
			const uint32_t idx = head;
			const size_t off = (size_t)idx * slot;
			uint8_t *h = base + off;
			uint8_t *rec = (uint8_t *)sg;
			memcpy(&head, h, 4); /* the free list's next slot */
			memcpy(rec, &r0, 16);
			memcpy(rec + 16, &r1, 16);
			memcpy(rec + 32, &r2, 16);
			memcpy(rec + 48, &r3, 16);
			memcpy(rec + 64, &r4, 16);
			memcpy(rec + 80, &rtail, GSO_SEG_HEAD - 80);
			sg->hdr.data = h;
			sg->hdr.index = idx;
			sg->hdr.offset = off;
			sg->index = k++;
			sg->slices[0].data = pay;
			memcpy(h, &t0, 16);
			memcpy(h + 16, &t1, 16);
			memcpy(h + 32, &t2, 16);
			memcpy(h + 48, &t3, 16);
			if (cl > 64) {
				memcpy(h + 64, &t4, 16);
				memcpy(h + 80, &t5, 16);
			}
			if (cl > 96) {
				memcpy(h + 96, &t6, 16);
				memcpy(h + 112, &t7, 16);
			}
			if (tcp) {
				ofl_put32(h + l4o + 4, seq);
				seq += mss;
			}
			if (l3 == 4) {
				put64(h + l3o + 4, w);
				w += step;
			}
			pay += mss;
		}
	}
	pool->head = head;
	pool->nfree -= m;
	it->seg = k;
	it->cur_off += m * mss;
}

/* The copies of mid_fast() by L3, protocol, copy size and layout. */
static OFL_NOINLINE void mid_fast_any(struct gso_it *restrict it, struct ofl_gso_pool *restrict pool,
                                      struct ofl_gso_seg *restrict segs, uint32_t m)
{
	uint32_t cl = mid_copy_len(it->hdr_len), l3o = it->l3_off, l4o = it->l4_off;
	int tcp = it->type == OFL_GSO_TYPE_TCP;
	int plain = l3o == 14 && l4o == (it->l3 == 4 ? 34u : 54u) && cl <= 96;
#define GSO_MID_FAST(L3, TCP)                                                         \
	do {                                                                          \
		if (plain && cl == 64)                                                \
			mid_fast(it, pool, segs, m, L3, TCP, 64, 14, L3 == 4 ? 34 : 54); \
		else if (plain)                                                       \
			mid_fast(it, pool, segs, m, L3, TCP, 96, 14, L3 == 4 ? 34 : 54); \
		else                                                                  \
			mid_fast(it, pool, segs, m, L3, TCP, 128, l3o, l4o);          \
	} while (0)
	if (it->l3 == 4) {
		if (tcp)
			GSO_MID_FAST(4, 1);
		else
			GSO_MID_FAST(4, 0);
	} else {
		if (tcp)
			GSO_MID_FAST(6, 1);
		else
			GSO_MID_FAST(6, 0);
	}
#undef GSO_MID_FAST
}

/* Which segment one_seg() builds. */
#define GSO_ONE_MID 0
#define GSO_ONE_FIRST 1 /* the first of several */
#define GSO_ONE_LAST 2  /* the last of several */

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
                               struct ofl_gso_seg *restrict seg, int what, uint32_t plen)
{
	const uint32_t k = it->seg, mss = it->seg_size, slot = pool->slot_size, idx = pool->head;
	const uint32_t l3o = it->l3_off, l4o = it->l4_off, u = it->cur_unit, o = it->cur_off;
	const int tcp = it->type == OFL_GSO_TYPE_TCP;
	const size_t off = (size_t)idx * slot;
	const uint8_t *tmpl = it->tmpl;
	uint8_t *h = pool->base + off;
	uint32_t ipb = 0, gone = (uint32_t)it->flags >> GSO_ITF_TCP_SHIFT;
	mid_record(seg, it, slot);
	seg->hdr.data = h;
	seg->hdr.index = idx;
	seg->hdr.offset = off;
	seg->index = k;
	seg->slices[0].data = ((const struct ofl_buf *)it->units)[u].data + o;
	memcpy(&pool->head, h, 4);
	pool->nfree--;
	copy64(h, tmpl);
	if (it->hdr_len > 64u)
		copy64(h + 64, tmpl + 64);
	if (tcp)
		ofl_put32(h + l4o + 4, it->seq0 + k * mss);
	if (it->l3 == 4)
		ipb = ip4_sum(it);
	if (what == GSO_ONE_FIRST) {
		seg->flags = OFL_GSO_SEG_F_FIRST | OFL_GSO_SEG_F_CSUM_PARTIAL;
		if (tcp)
			h[l4o + 13] = (uint8_t)(tmpl[l4o + 13] | (gone & GSO_TCP_CWR));
	} else if (what == GSO_ONE_LAST) {
		const uint32_t pay = it->hdr_len - l4o + plen; /* L4 header and payload */
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
			ipb = gso_fold_be(it->ip_base + it->l3_hlen + pay + ofl_get16(tmpl + l3o + 6));
		} else {
			ofl_put16(h + l3o + 4, (uint16_t)(it->l3_hlen - 40u + pay));
		}
	}
	if (it->l3 == 4) {
		uint32_t id = it->id0 + ((it->flags & OFL_GSO_F_FIXED_ID) ? 0u : k);
		put64(h + l3o + 4, ip4_word(ipb, ip4_mid(it), id));
	}
	it->seg = k + 1u;
	it->cur_off = o + plen;
	if (what == GSO_ONE_LAST) {
		/* the cursor past the payload, normalised as gso_take() does */
		uint32_t uu = u;
		if (it->cur_off == ((const struct ofl_buf *)it->units)[uu].len) {
			it->cur_off = 0;
			while (++uu < it->nunits && ((const struct ofl_buf *)it->units)[uu].len == 0)
				;
			it->cur_unit = uu;
		}
		it->rel_next = it->nunits;
	}
}

/* Build segment it->seg by one_seg() when it can: 1, or 0 (nothing
 * done; the general body builds it). */
GSO_ALWAYS_INLINE int fast_one(struct gso_it *restrict it, struct ofl_gso_pool *restrict pool,
                               struct ofl_gso_seg *restrict seg)
{
	uint32_t k, room, mss;
	if (!fast_ok(it, pool))
		return 0;
	k = it->seg;
	room = mid_room(it);
	mss = it->seg_size;
	if (mid_now(it)) {
		if (room <= mss)
			return 0;
		one_seg(it, pool, seg, GSO_ONE_MID, mss);
	} else if (k == 0) {
		if (it->nsegs < 2u || room <= mss)
			return 0;
		one_seg(it, pool, seg, GSO_ONE_FIRST, mss);
	} else {
		uint32_t plen = it->payload - k * mss;
		if (k + 1u != it->nsegs || room < plen)
			return 0;
		one_seg(it, pool, seg, GSO_ONE_LAST, plen);
	}
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
			mid_fast_any(it, pool, segs + i, m);
			i += m;
			continue;
		}
		if (fast_one(it, pool, segs + i)) {
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

/* ofl_gso_next() for a segment fast_one() does not build (out of line: the
 * registers it saves are not the fast path's). */
static OFL_NOINLINE int next_general(struct gso_it *it, struct ofl_gso_pool *pool, struct ofl_gso_seg *seg)
{
	int rc;
	/* the common case first: it implies the checks below */
	if (it->seg < it->nsegs && !it->done && it->type == OFL_GSO_TYPE_TCP && pool->kind == OFL_GSO_POOL_BLOCK)
		return next_n(it, pool, seg, 1, OFL_GSO_TYPE_TCP, OFL_GSO_POOL_BLOCK);
	rc = next_ready(it, pool);
	if (rc <= 0)
		return rc;
	return next_n(it, pool, seg, 1, it->type, pool->kind);
}

int ofl_gso_next(struct ofl_gso_iter *itp, struct ofl_gso_pool *pool, struct ofl_gso_seg *seg)
{
	struct gso_it *it = gso_it(itp);
	if (!it || !pool || !seg)
		return OFL_EINVAL;
	if (fast_one(it, pool, seg))
		return 1;
	return next_general(it, pool, seg);
}

int ofl_gso_next_burst(struct ofl_gso_iter *itp, struct ofl_gso_pool *pool, struct ofl_gso_seg *segs,
                       unsigned n)
{
	struct gso_it *it = gso_it(itp);
	uint32_t left;
	int rc;
	if (!it || !pool || !segs || n == 0)
		return OFL_EINVAL;
	rc = next_ready(it, pool);
	if (rc <= 0)
		return rc;
	left = it->nsegs - it->seg;
	if (n > left)
		n = left;
	if (it->type == OFL_GSO_TYPE_TCP && pool->kind == OFL_GSO_POOL_BLOCK)
		return next_n(it, pool, segs, n, OFL_GSO_TYPE_TCP, OFL_GSO_POOL_BLOCK);
	return next_n(it, pool, segs, n, it->type, pool->kind);
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
	return left;
}
