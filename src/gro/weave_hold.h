/*
 * weave_hold.h - a new flow's first frame held where the weave meets it
 * (newflows.c for frames in several buffers, weave.c inlines the one-buffer
 * case into its loop: no call, no frame).
 */
#ifndef OFL_GRO_WEAVE_HOLD_H
#define OFL_GRO_WEAVE_HOLD_H

#include "gro/hold.h"
#include "gro/weave.h"

/* weave_limit() for a new flow (one segment, one slice) of l3_len IP
 * bytes (below 0xffff) and segment size mss (not 0), kept for the next of
 * the same (the limits are the configuration's, which does not change).
 * (One buffer: another key the unlikely path; mb: not so marked, the
 * several-buffer copy's code better so, measured.) */
static inline OFL_ALWAYS_INLINE uint32_t new_limit(struct ofl_gro *g, uint32_t l3_len, uint32_t mss, const int mb)
{
	uint32_t key = l3_len << 16 | mss;
	if (mb ? key != g->wl_key : OFL_UNLIKELY(key != g->wl_key)) {
		g->wl_key = key;
		g->wl_left = weave_limit(g, 1, 1, l3_len, mss);
	}
	return g->wl_left;
}

/* The smaller of two signed values. */
static inline OFL_ALWAYS_INLINE int32_t min_i32(int32_t a, int32_t b)
{
	return a < b ? a : b;
}

/* The plain TCP/IPv4 shape of frame d of total bytes (54 to 0xffff: the
 * caller checks the top after): core/parse.h ofl_plain_is_ip4(), then
 * protocol 6 and ofl_plain_ip4_rest() as one masked compare of the
 * big-endian word at 16 (the total length, no fragment bits, the protocol;
 * the ID and TTL not looked at) and the header checksum. */
static inline OFL_ALWAYS_INLINE int weave_ip4_ok(const uint8_t *d, uint32_t total)
{
	return ofl_plain_is_ip4(d) &&
	       (get64(d + 16) & 0xffff00003fff00ffull) == ((uint64_t)(total - 14u) << 48 | 6u) && ofl_ip4_sum_ok(d + 14);
}

/* The header of a new flow's first frame (n bytes, 54 to GRO_PRED_MAX)
 * copied as hold.h copy_hdr() copies it, its loop unrolled (IPv6's 74
 * bytes: one more piece, no loop). */
static inline OFL_ALWAYS_INLINE void weave_copy_hdr(uint8_t *dst, const uint8_t *src, uint32_t n)
{
	uint32_t o;
	_Static_assert(GRO_PRED_MAX <= 128u, "at most five pieces before the last");
	memcpy(dst, src, 16);
	memcpy(dst + 16, src + 16, 16);
	memcpy(dst + 32, src + 32, 16);
#if defined(__GNUC__)
#pragma GCC unroll 5
#endif
	for (o = 48; o < GRO_PRED_MAX - 16u; o += 16)
		if (o + 16 < n)
			memcpy(dst + o, src + o, 16);
	memcpy(dst + n - 16, src + n - 16, 16);
}

/* A new flow's first frame pkt (its headers, hl bytes, at d; total
 * bytes, len of payload; over IPv4 with v4, else IPv6; mb: in several
 * buffers, else one) held out of the table in the entry returned (taken
 * from the free list, its slices and cookies its own pointers'), as
 * hold.h gro_hold_plain_unidx() holds it, every field it writes written
 * the same but these: next_seq (the slot's leave writes
 * it: weave_slot.h weave_leave_as(); every slot that names a flow leaves
 * before the weave ends), prev (newflows.c gro_unidx_settle(); a full
 * flush reads no prev), the age list's head and nlone (weave.c
 * weave_done()), out_dsa (NULL in every entry of a context the weave
 * holds in: below); the flow's slot w set (weave_slot_at_h(): ports, the
 * next sequence number, the frame's and its payload; mb: seq, the
 * caller's).  The context's arrays are read before the first store (a
 * byte store may alias them: each would be read again after it); the
 * entry's slices and cookies (mb: before too) where they are written;
 * mb: the payload's slices cut as hold.c gro_add_slices() cuts them, the
 * header split's inline (hold.h gro_split_slices()). */
static inline OFL_ALWAYS_INLINE struct gro_item *weave_fill(struct ofl_gro *g, struct wflow *w,
                                                         const struct ofl_pkt *pkt, const uint8_t *d, uint32_t total,
                                                         uint32_t hl, uint32_t len, uint32_t ports, uint32_t seq,
                                                         uint64_t now, const int v4, const int mb)
{
	const uint32_t l4c = v4 ? 34u : 54u, idx = g->free_head;
	struct gro_item *const it = &g->items[idx];
	/* (gro_slices(), gro_cookies(): create.c sets them; one buffer: read
	 * where they are written, fewer values live across the stores) */
	struct ofl_slice *s = mb ? it->sl : NULL;
	void **c = mb ? it->ck : NULL;
	g->free_head = it->next;
	/* the age list: the entries taken one after the other from the free
	 * list, nothing else taken between (the weave's holds, the list empty
	 * when the first is held: nothing is held), so each one's next names
	 * the next already; the last one's made GRO_NONE, and the head set,
	 * at the weave's end (weave_slot.h weave_done()) */
	g->age_tail = idx;
	if (mb)
		copy_hdr(it->hdr, d, hl, 0);
	else
		weave_copy_hdr(it->hdr, d, hl);
	it->l3_len = total - 14u;
	it->payload = len;
	it->seg_size = (uint16_t)len;
	it->nsegs = 1;
	if (!mb)
		it->nslices = 1;
	it->hdr_len = (uint16_t)hl;
	it->id0 = v4 ? ofl_get16(d + 18) : 0;
	it->fixedid = 0;
	it->fin_psh = 0;
	it->state = GRO_HELD;
	/* the record part (gro_hold_rec(), hold_pkt_as() un, out_gso) */
	{
		/* (out_cstart and out_coff: one store) */
		const uint16_t co[2] = {(uint16_t)l4c, (uint16_t)gro_stack_csum_off(GRO_STACK_TCP4)};
		_Static_assert(offsetof(struct gro_item, out_coff) == offsetof(struct gro_item, out_cstart) + 2,
		               "out_cstart, out_coff: one word");
		memcpy(&it->out_cstart, co, 4);
	}
	_Static_assert(OFL_GRO_OUT_F_HASH == OFL_PKT_F_HASH << 2, "the hash flag: two bits up");
	it->out_flags = (uint8_t)((pkt->flags & OFL_PKT_F_HASH) * 4u + OFL_GRO_OUT_F_CSUM_VERIFIED);
	it->out_gso = (uint8_t)((v4 ? OFL_GSO_TCPV4 : OFL_GSO_TCPV6) | (d[l4c + 13] & TCP_CWR ? OFL_GSO_TCP_ECN : 0));
	it->vlan_tci = pkt->vlan_tci;
	it->rx_hash = pkt->rx_hash;
	it->first_ns = now;
	/* (out_dsa NULL already: the weave holds only with the fast path, so
	 * with no DSA format, whose entries alone point it anywhere: hold.c;
	 * create.c zeroes the entries) */
	if (!mb) {
		s = it->sl;
		s->data = d + hl;
		s->len = len;
		s->pkt = 0;
		s->buf = 0;
	}
	if (!mb)
		c = it->ck;
	c[0] = pkt->cookie;
	if (!mb)
		w->c = c + 1; /* (weave_slot_at_h()) */
	if (mb) /* (one buffer: at weave_hold()'s end, fewer spills) */
		g->held_bytes += len;
	/* (one buffer: the next sequence number read here, fewer values
	 * live; mb: the caller's, the copy's code better so, measured) */
	weave_slot_at_h(w, it, s + 1, c + 1, ports, 1, len, hl, mb ? seq : ofl_get32(d + l4c + 4) + len, !mb);
	if (mb) {
		/* the cut of the fast path's hold (hold.c gro_add_slices()):
		 * the header split's here (gro_split_slices(), the headers
		 * the whole first buffer), else hold.c's */
		uint32_t ns = gro_split_slices(s, pkt, hl, len, 0, g->max_slices);
		if (ns == UINT32_MAX) {
			it->nslices = 0;
			gro_add_slices(g, idx, pkt, hl, len, 0);
			ns = it->nslices;
		}
		it->nslices = (uint16_t)ns;
		w->s = s + ns;
	}
	return it;
}

/* Frame pkt (total bytes; mb: in several buffers, its headers in the
 * first; the weave's frame checks made: its data, room for a TCP header at
 * 34 or 54; else in one buffer, the packet word the plain one), whose TCP
 * ports (ports) no held flow has while nothing but
 * the weave's slots is held, held as a new flow and slot w (free) set for
 * it: 1; else 0, nothing changed.  Held when receive.c's fast path would hold it (the
 * plain TCP shape of this L3, a payload, no flag that passes it on; the
 * flow limit and the byte bound checked by the caller, weave.c
 * weave_l3()), and when the weave can take its next frames (a header
 * prediction covers).  len is the caller's payload length (total less
 * l4c and the TCP header its data offset says; checked here).  Its payload cut as the fast path's hold cuts it (hold.c
 * gro_add_slices() for several buffers); mb: the slot's slice room set
 * (weave_sroom()). */
static inline OFL_ALWAYS_INLINE int weave_hold(struct ofl_gro *g, struct wflow *w, const struct ofl_pkt *pkt,
                                               uint32_t ports, uint32_t total, uint32_t len, uint64_t now,
                                               const int v4, const int mb)
{
	const uint8_t *d = pkt->bufs->data;
	const uint32_t l4c = v4 ? 34u : 54u;
	struct gro_item *it;
	uint32_t left, hl;
	int32_t idl = 0;
	uint64_t e;
	/* (several buffers: core/parse.h's two halves, the copy's register
	 * allocation better so, measured) */
	if (v4 ? (mb ? !ofl_plain_is_ip4(d) || d[23] != 6 || !ofl_plain_ip4_rest(d + 14, total) : !weave_ip4_ok(d, total))
	       : !ofl_plain_is_ip6(d, total) || d[20] != 6)
		return 0;
	/* (the buffer's length at least l4c + 20: the weave's checks) a TCP
	 * data offset of 5 or more (len the caller's: total less l4c and the
	 * TCP header) and a payload, no more than 0xffff bytes in all: the
	 * TCP header within the frame (len - 1 wraps when it is not); mb: and
	 * within the first buffer (core/parse.h ofl_plain_tcp_at()) */
	if (d[l4c + 12] < 0x50u || ((len - 1u) | total) > 0xffffu)
		return 0;
	hl = total - len;
	if (mb && hl > pkt->bufs->len)
		return 0;
	if ((d[l4c + 13] & TCP_NO_RUN) || hl > GRO_PRED_MAX)
		return 0;
	if (!v4)
		g->st.rx_bytes += total; /* (IPv4: at the end, fewer spills; st.rx_pkts, st.held: weave_slot.h weave_done()) */
	/* (out of the table: gro_new_flows()) */
	it = weave_fill(g, w, pkt, d, total, hl, len, ports, mb ? ofl_get32(d + l4c + 4) + len : 0, now, v4, mb);
	left = new_limit(g, total - 14u, len, mb);
	if (mb) /* (weave_limit() of its slices: one or more, new_limit() counts one) */
		left = min32(left, sat_sub(g->max_slices - 1u, it->nslices));
	if (!v4) {
		w->e = w->estep = 0;
	} else if (e = get64(d + 18),
	           /* one buffer: the steps before the ID reaches 0xffff or
	            * the checksum 0, negative when one is there already (one
	            * test); mb: the two tests (the copy's register allocation
	            * better so, measured) */
	           mb ? e >> 48 != 0xffffu && (e & 0xffffu) != 0
	              : (idl = min_i32(0xfffe - (int32_t)(e >> 48), (int32_t)(e & 0xffffu) - 1)) >= 0) {
		/* the next frame's ID-to-checksum word: this one's, the ID
		 * one more and the checksum one less (the checksum verified:
		 * exact while neither wraps, as run_word() computes it) */
		w->estep = (1ull << 48) - 1u;
		w->e = e += w->estep;
		left = min32(left, mb ? min32(0xffffu - (uint32_t)(e >> 48), (uint32_t)(e & 0xffffu)) : (uint32_t)idl);
	} else {
		left = weave_left(g, it, &w->e, &w->estep, v4); /* (an ID or checksum at its end) */
	}
	w->left = left;
	if (mb)
		weave_sroom(g, w);
	if (v4)
		g->st.rx_bytes += total;
	if (!mb)
		g->held_bytes += len; /* (weave_fill()'s, one buffer) */
	return 1;
}

/* A frame q in one buffer (data d, TCP ports ports, tot bytes) whose slot
 * w is free while the weave is fresh: no held flow has its ports, a new
 * flow held: 1; else 0 (the weave ends there).  The bytes bound (a
 * payload above the largest met, *maxmss: frames from q0 at it within the
 * room hroom, *qend and *fend that bound) checked, and the bound updated,
 * before the hold (fewer values live across it; when the hold refuses the
 * frame the weave ends there, and neither is read again); the flow limit
 * is the caller's (its loop's end, fend). */
static inline OFL_ALWAYS_INLINE int weave_new(struct ofl_gro *g, struct wflow *w, const struct ofl_pkt *q,
                                              const struct ofl_pkt *q0, const uint8_t *d, uint32_t ports,
                                              uint32_t tot, uint64_t now, uint32_t hroom, uint32_t *maxmss,
                                              const struct ofl_pkt **qend, const struct ofl_pkt **fend, const int v4)
{
	const uint32_t l4c = v4 ? 34u : 54u;
	const uint32_t len = tot - l4c - ((d[l4c + 12] >> 2) & 0x3cu);
	if (OFL_UNLIKELY(len > *maxmss)) {
		const struct ofl_pkt *qlim = q0 + hroom / len;
		if ((uint64_t)(q - q0 + 1) * len > hroom)
			return 0;
		*maxmss = len;
		*qend = qlim < *qend ? qlim : *qend;
		*fend = qlim < *fend ? qlim : *fend;
	}
	return weave_hold(g, w, q, ports, tot, len, now, v4, 0);
}

#endif
