/*
 * fast.c - the loop over the middle segments of a burst (fast.h says when
 * it applies): one copy of the body per L3, protocol, copy size and
 * layout, the state in registers, written back once.
 */
#include "gso/fast.h"

/* m (>= 1, from mid_fast_count()) segments into segs, each built as a
 * middle one (gso_mid_fast_any() patches the first and the last).  l3: 4
 * or 6; tcp: TCP (else UDP L4); cl: mid_copy_len(hdr_len), 64, 96 or 128;
 * l3o, l4o: the IP and L4 header offsets - constants in each copy of the
 * body but the last two, which are constants in the copy for untagged
 * frames without IP options or extension headers (then the patches are
 * stores at fixed offsets and the loop has the registers it needs); ring:
 * the pool is a RING (else a BLOCK).  Per segment: the slot (BLOCK: the
 * free-list pop, the slot's pointer, index and offset stored into the
 * record; RING: the next slot, the record's first 32 bytes - pointer,
 * size, index, offset - stepped in their vectors where GSO_V16_STEP), the
 * template stored from registers, the sequence number, IPv4 bytes 4..11
 * as one store (ID and checksum stepped together), the record stored from
 * registers (segment index and payload pointer stepped inside their
 * vectors where GSO_V16_STEP); no branch but the loop's. */
GSO_ALWAYS_INLINE void mid_fast(struct gso_it *restrict it, struct ofl_gso_pool *restrict pool,
                                struct ofl_gso_seg *restrict segs, uint32_t m, unsigned l3, int tcp, uint32_t cl,
                                uint32_t l3o, uint32_t l4o, int ring)
{
	const uint8_t *tmpl = it->tmpl;
	const uint32_t k0 = it->seg, mss = it->seg_size;
	const uint32_t slot = pool->slot_size, ns = pool->nslots;
	const uint32_t inc = (it->flags & OFL_GSO_F_FIXED_ID) ? 0u : 1u;
	const uint64_t step = inc ? ((uint64_t)1 << 48) - 1u : 0u;
	uint8_t *const base = pool->base;
	const uint8_t *pay = ((const struct ofl_buf *)it->units)[it->cur_unit].data + it->cur_off;
	uint32_t seq = it->seq0 + k0 * mss, head = pool->head, ipb = 0, k = k0;
	uint64_t ipmid = 0;
	gso_v16 t0, t1, t2, t3, t4, t5, t6, t7, r0, r1, r2, r3, r4, r5, r2_step, r5_step, r0_step, r1_step;
	struct ofl_gso_seg *sg = segs, *const end = segs + m;
	const uint8_t *rec0 = tmpl + GSO_MID_REC;
	if (l3 == 4) {
		ipb = ip4_sum(it);
		ipmid = ip4_mid(it);
	}
	/* the record every middle segment shares: the one cached at start
	 * (zero where it differs per pool, buffer or segment) with the slot
	 * size, the first buffer to release, the slice's buffer and (where
	 * stepped) the segment index and the payload pointer added */
	memcpy(&r0, rec0, 16);
	memcpy(&r1, rec0 + 16, 16);
	memcpy(&r2, rec0 + 32, 16);
	memcpy(&r3, rec0 + 48, 16);
	memcpy(&r4, rec0 + 64, 16);
	memcpy(&r5, rec0 + GSO_SEG_HEAD - 16, 16);
	r0 = v16_add(r0, v16_field(offsetof(struct ofl_gso_seg, hdr.size), slot, 4));
	r3 = v16_add(r3, v16_field(offsetof(struct ofl_gso_seg, release_first) - 48u, (uint16_t)it->rel_next, 2));
	r5 = v16_add(r5, v16_field(offsetof(struct ofl_gso_seg, slices[0].buf) - (GSO_SEG_HEAD - 16u),
	                           (uint16_t)it->cur_unit, 2));
	if (GSO_V16_STEP) {
		r2 = v16_add(r2, v16_field(offsetof(struct ofl_gso_seg, index) - 32u, k0, 4));
		r5 = v16_add(r5, v16_field(0, (uint64_t)(uintptr_t)pay, 8));
	}
	/* (r4's last 8 bytes are r5's first: the pointer goes in with r5) */
	r2_step = v16_field(offsetof(struct ofl_gso_seg, index) - 32u, 1u, 4);
	r5_step = v16_field(0, mss, 8);
	r0_step = v16_add(v16_field(0, slot, 8), v16_field(offsetof(struct ofl_gso_seg, hdr.index), 1u, 4));
	r1_step = v16_field(0, slot, 8);
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
		/* a run of segments whose IPv4 ID and checksum step exactly
		 * (RING: and whose slots do not wrap) */
		uint64_t w = l3 == 4 ? ip4_word(ipb, ipmid, it->id0 + k * inc) : 0;
		uint32_t run = l3 == 4 && inc ? ip4_run(w) : m;
		struct ofl_gso_seg *stop;
		gso_v16 q0 = r0, q1 = r1;
		uint8_t *rh = base + (size_t)head * slot;
		if (ring) {
			if (run > ns - head)
				run = ns - head;
			q0 = v16_add(q0, v16_add(v16_field(0, (uint64_t)(uintptr_t)rh, 8),
			                         v16_field(offsetof(struct ofl_gso_seg, hdr.index), head, 4)));
			q1 = v16_add(q1, v16_field(0, (uint64_t)head * slot, 8));
		}
		stop = (uint32_t)(end - sg) < run ? end : sg + run;
		for (; sg != stop; sg++) {
			uint8_t *rec = (uint8_t *)sg, *h;
			if (ring) {
				h = rh;
				rh += slot;
			} else {
				h = base + (size_t)head * slot;
			}
			memcpy(rec, ring ? &q0 : &r0, 16);
			memcpy(rec + 16, ring ? &q1 : &r1, 16);
			memcpy(rec + 32, &r2, 16);
			memcpy(rec + 48, &r3, 16);
			memcpy(rec + 64, &r4, 16);
			memcpy(rec + GSO_SEG_HEAD - 16, &r5, 16);
			if (!ring || !GSO_V16_STEP) {
				sg->hdr.data = h;
				sg->hdr.index = head;
				sg->hdr.offset = (size_t)head * slot;
			}
			if (ring)
				head++;
			else
				memcpy(&head, h, 4); /* the free list's next slot */
			if (GSO_V16_STEP) {
				r2 = v16_add(r2, r2_step);
				r5 = v16_add(r5, r5_step);
				if (ring) {
					q0 = v16_add(q0, r0_step);
					q1 = v16_add(q1, r1_step);
				}
			} else {
				sg->index = k;
				sg->slices[0].data = pay;
			}
			k++;
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
		if (ring && head == ns)
			head = 0;
	}
	pool->head = head;
	pool->nfree -= m;
	it->seg = k;
	it->cur_off += m * mss;
}

/* The copies of mid_fast() by L3, protocol, copy size, layout and pool.
 * The first segment of a packet is built as a middle one (same length, so
 * the same header but the ID) and then given what one_seg() gives it: the
 * FIRST flag, and CWR back unless it stays everywhere; the last one is
 * built as a middle one and then given its own lengths, flags and sums
 * (last_hdr(), as one_seg() does). */
void gso_mid_fast_any(struct gso_it *restrict it, struct ofl_gso_pool *restrict pool,
                      struct ofl_gso_seg *restrict segs, uint32_t m)
{
	uint32_t cl = mid_copy_len(it->hdr_len), l3o = it->l3_off, l4o = it->l4_off;
	const uint32_t k0 = it->seg, mss = it->seg_size;
	int tcp = it->type == OFL_GSO_TYPE_TCP, first = k0 == 0, last = k0 + m == it->nsegs;
	int plain = l3o == 14 && l4o == (it->l3 == 4 ? 34u : 54u) && cl <= 96;
	int ring = pool->kind == OFL_GSO_POOL_RING;
	/* every segment here but a first one starts its release range at the
	 * payload's buffer (fast_first_release(); after a segment that is
	 * it->rel_next already) */
	fast_first_release(it);
#define GSO_MID_FAST_P(L3, TCP, R)                                                          \
	do {                                                                                \
		if (plain && cl == 64)                                                      \
			mid_fast(it, pool, segs, m, L3, TCP, 64, 14, L3 == 4 ? 34 : 54, R); \
		else if (plain)                                                             \
			mid_fast(it, pool, segs, m, L3, TCP, 96, 14, L3 == 4 ? 34 : 54, R); \
		else                                                                        \
			mid_fast(it, pool, segs, m, L3, TCP, 128, l3o, l4o, R);             \
	} while (0)
#define GSO_MID_FAST(L3, TCP)                      \
	do {                                       \
		if (ring)                          \
			GSO_MID_FAST_P(L3, TCP, 1); \
		else                               \
			GSO_MID_FAST_P(L3, TCP, 0); \
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
#undef GSO_MID_FAST_P
	if (first) {
		segs[0].flags = OFL_GSO_SEG_F_FIRST | OFL_GSO_SEG_F_CSUM_PARTIAL;
		segs[0].release_first = 0; /* fast_first_release() */
		segs[0].release_count = (uint16_t)it->cur_unit;
		if (tcp)
			segs[0].hdr.data[l4o + 13] =
				(uint8_t)(it->tmpl[l4o + 13] | (((uint32_t)it->flags >> GSO_ITF_TCP_SHIFT) & GSO_TCP_CWR));
	}
	if (last) {
		struct ofl_gso_seg *sg = segs + m - 1u;
		const uint32_t k = it->nsegs - 1u, plen = it->payload - k * mss;
		uint32_t ipb = last_hdr(it, sg, sg->hdr.data, plen, l3o, l4o, tcp);
		if (it->l3 == 4) {
			uint32_t id = it->id0 + ((it->flags & OFL_GSO_F_FIXED_ID) ? 0u : k);
			put64(sg->hdr.data + l3o + 4, ip4_word(ipb, ip4_mid(it), id));
		}
		it->cur_off -= mss - plen;
		last_cursor(it, it->cur_unit);
	}
}
