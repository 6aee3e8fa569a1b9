/*
 * fast.c - the loop over the middle segments of a burst (fast.h says when
 * it applies): one copy of the body per L3, protocol, copy size and
 * layout, the state in registers, written back once.
 */
#include "gso/fast.h"

/* m (>= 1, from mid_fast_count()) middle segments into segs.  l3: 4 or 6;
 * tcp: TCP (else UDP L4); cl: mid_copy_len(hdr_len), 64, 96 or 128; l3o,
 * l4o: the IP and L4 header offsets - constants in each copy of the body
 * but the last two, which are constants in the copy for untagged frames
 * without IP options or extension headers (then the patches are stores at
 * fixed offsets and the loop has the registers it needs).  Per segment:
 * the free-list pop, the template stored from registers, the sequence
 * number, IPv4 bytes 4..11 as one store (ID and checksum stepped
 * together), the record stored from registers with its five per-segment
 * fields (segment index and payload pointer stepped inside their vectors
 * where GSO_V16_STEP, the slot's pointer, index and offset stored); no
 * branch but the loop's. */
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
	uint64_t ipmid = 0;
	gso_v16 t0, t1, t2, t3, t4, t5, t6, t7, r0, r1, r2, r3, r4, r5, r2_step, r5_step;
	struct ofl_gso_seg r; /* the record every middle segment shares */
	struct ofl_gso_seg *sg = segs, *const end = segs + m;
	if (l3 == 4) {
		ipb = ip4_sum(it);
		ipmid = ip4_mid(it);
	}
	mid_record(&r, it, slot);
	if (GSO_V16_STEP) {
		/* the segment index and the payload pointer in the record's
		 * vectors, stepped by a vector add per segment */
		r.index = k0;
		r.slices[0].data = pay;
	}
	memcpy(&r0, (const uint8_t *)&r, 16);
	memcpy(&r1, (const uint8_t *)&r + 16, 16);
	memcpy(&r2, (const uint8_t *)&r + 32, 16);
	memcpy(&r3, (const uint8_t *)&r + 48, 16);
	memcpy(&r4, (const uint8_t *)&r + 64, 16);
	/* the last 16 bytes (overlapping r4): all in vector registers */
	memcpy(&r5, (const uint8_t *)&r + GSO_SEG_HEAD - 16, 16);
	r2_step = v16_field(offsetof(struct ofl_gso_seg, index) - 32u, 1u, 4);
	r5_step = v16_field(0, mss, 8);
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
			memcpy(rec + GSO_SEG_HEAD - 16, &r5, 16);
			sg->hdr.data = h;
			sg->hdr.index = idx;
			sg->hdr.offset = off;
			if (GSO_V16_STEP) {
				r2 = v16_add(r2, r2_step);
				r5 = v16_add(r5, r5_step);
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
	}
	pool->head = head;
	pool->nfree -= m;
	it->seg = k;
	it->cur_off += m * mss;
}

/* The copies of mid_fast() by L3, protocol, copy size and layout.  The
 * first segment of a packet is built as a middle one (same length, so
 * the same header but the ID) and then given what one_seg() gives it:
 * the FIRST flag, and CWR back unless it stays everywhere. */
void gso_mid_fast_any(struct gso_it *restrict it, struct ofl_gso_pool *restrict pool,
                      struct ofl_gso_seg *restrict segs, uint32_t m)
{
	uint32_t cl = mid_copy_len(it->hdr_len), l3o = it->l3_off, l4o = it->l4_off;
	int tcp = it->type == OFL_GSO_TYPE_TCP, first = it->seg == 0;
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
	if (first) {
		segs[0].flags = OFL_GSO_SEG_F_FIRST | OFL_GSO_SEG_F_CSUM_PARTIAL;
		if (tcp)
			segs[0].hdr.data[l4o + 13] =
				(uint8_t)(it->tmpl[l4o + 13] | (((uint32_t)it->flags >> GSO_ITF_TCP_SHIFT) & GSO_TCP_CWR));
	}
}
