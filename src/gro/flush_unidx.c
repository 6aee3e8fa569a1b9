/*
 * flush_unidx.c - a full flush (deliver.c gro_flush_all(): the poll end
 * with timeout 0) of the entries held out of the flow table (gro_int.h
 * unidx: plain TCP over one IP version, hold.h gro_hold_plain_unidx(),
 * the weave's new flows): each completed, its output record written and
 * the delivery list handed over, in one loop with the list's state in
 * locals.
 */
#include <string.h>

#include "core/csum_int.h"
#include "gro/ipv4.h"
#include "gro/ipv6.h"
#include "gro/stage.h"
#include "gro/tcp.h"

/* The delivery list's records [0, n) handed to the caller in a full flush
 * of entries held out of the table (flush_unidx_as()): its entries head to
 * tail (chained through next; its head in pend_head already), n records
 * (each counted a GRO packet: flush_unidx_as()), segs segments.  Its entries are put on the free list
 * by the caller (free_un()), the lists of a flush at once. */
static inline OFL_ALWAYS_INLINE void deliver_un(struct ofl_gro *g, uint32_t tail, uint32_t n, uint32_t segs)
{
	struct ofl_gro_stats *st = &g->st;
	st->out_pkts += n;
	st->out_segs += segs;
	st->out_gro_pkts += n;
	st->out_lists++;
	g->pend_tail = tail; /* (list.c ofl_gro_list_seg() walks it in the callback) */
	g->in_cb = 1;
	g->cfg.deliver(g->cfg.user, g->outs, n);
	g->in_cb = 0;
}

/* The entries delivered from head to tail (chained through next: lists
 * delivered one after the other, each the age list's next entries) put on
 * the free list, as deliver.c deliver_pending_as() puts one list (nothing
 * takes an entry from it in between: the callback may not call in). */
static inline void free_un(struct ofl_gro *g, uint32_t head, uint32_t tail)
{
	g->items[tail].next = g->free_head;
	g->free_head = head;
}

/* deliver.c complete_plain_hdr() of a merged entry held out of the table (un 1:
 * plain TCP over IP version l3, no FIN or PSH merged).  big: max_size is
 * above 0xffff (else no IPv4 total length is past it: no test).  IPv4 on
 * a little-endian host: the pseudo-header sum in 32 bits with the
 * end-around carries (two adds with carry, no 64-bit fold). */
static inline OFL_ALWAYS_INLINE void complete_un_hdr(struct gro_item *it, const unsigned l3, const int big)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	if (l3 == 4) {
		uint8_t *ip = it->hdr + 14;
		const uint32_t l3_len = it->l3_len, tot = big ? gro_ipv4_tot_len(l3_len) : l3_len;
		/* the TCP length and protocol as gro_pseudo_sum_at() adds them */
		const uint32_t t8 = l3_len << 8, t = t8 - (20u - 6u) * 256u;
		uint16_t old_len, old_c, new_len, c;
		uint32_t lo, hi, x;
		/* (two 4-byte loads: GCC's split of one 8-byte load took a
		 * register the completion loop wants) */
		memcpy(&lo, ip + 12, 4);
		memcpy(&hi, ip + 16, 4);
		memcpy(&old_len, ip + 2, 2);
		memcpy(&old_c, ip + 10, 2);
		x = lo + hi;
		x += x < hi;
		x += t;
		x += x < t;
		c = (uint16_t)((x + (x << 16 | x >> 16)) >> 16);
		memcpy(ip + 36, &c, 2); /* the TCP checksum field: the folded sum */
		/* the total length and header checksum: gro_ipv4_complete_len() */
		new_len = (uint16_t)tot;
		new_len = (uint16_t)(new_len >> 8 | new_len << 8);
		/* (without big, the new length as l3_len << 8, t's term: the
		 * same modulo 0xffff as its bytes swapped, gro_pseudo_sum_at(),
		 * and the sum never 0: folded the same) */
		c = ofl_csum_fold_inl(3u * 0xffffu - old_c - old_len + (big ? new_len : t8));
		memcpy(ip + 2, &new_len, 2);
		memcpy(ip + 10, &c, 2);
		return;
	} else {
		/* IPv6: the addresses as four 64-bit words, each added with
		 * its end-around carry, then the length and protocol, folded
		 * to 32 bits as gro_pseudo_sum_at() folds (the same value
		 * modulo 0xffff, never 0: folded the same) */
		uint8_t *ip = it->hdr + 14;
		const uint32_t l3_len = it->l3_len;
		const uint64_t t = ((uint64_t)l3_len - 40u + 6u) << 8;
		uint64_t s, a, k;
		uint32_t x;
		uint16_t c;
		unsigned i;
		/* (the carries counted apart, added at the end: an add with
		 * carry each, whatever registers GCC has free) */
		memcpy(&s, ip + 8, 8);
		s += t;
		k = s < t;
		for (i = 1; i < 4; i++) {
			memcpy(&a, ip + 8 + 8 * i, 8);
			s += a;
			k += s < a;
		}
		s += k;
		s += s < k;
		x = (uint32_t)((s + (s << 32 | s >> 32)) >> 32);
		c = (uint16_t)((x + (x << 16 | x >> 16)) >> 16);
		memcpy(ip + 56, &c, 2); /* the TCP checksum field */
		gro_ipv6_complete_len(ip, l3_len);
		return;
	}
#endif
	{
		/* (deliver.c complete_plain_hdr() un 1) */
		const uint32_t l3_len = it->l3_len;
		(void)big;
		gro_tcp_complete_at(it, l3, 14, gro_unidx_l4(l3), 0);
		if (l3 == 4)
			gro_ipv4_complete_len(it->hdr + 14, l3_len);
		else
			gro_ipv6_complete_len(it->hdr + 14, l3_len);
	}
}

/* Every entry of the age list held out of the table (gro_int.h unidx:
 * plain TCP over IP version l3, hold.h gro_hold_plain_unidx()) completed
 * and delivered, oldest first, as flush_entries_in() with complete_x()
 * completes them: no table, no test of the stack, each merged entry's
 * completion complete_unidx()'s with no FIN or PSH (a train's end
 * completes such an entry; big: complete_un_hdr()'s), and the delivery
 * list (its next record, segments, NORMAL records, head and the free
 * list's head) kept in locals while merged entries are queued: the header
 * stores (bytes) would have every field of the context read again after
 * each.  The list is delivered when it has normal_batch segments and at
 * the end; the records delivered count the entries flushed. */
static inline OFL_ALWAYS_INLINE void flush_unidx_as(struct ofl_gro *g, unsigned reason, const unsigned l3,
                                                    const int big, const int empty)
{
	struct gro_item *const items = g->items;
	struct ofl_gro_out *const outs = g->outs;
	const uint32_t batch = g->cfg.normal_batch;
	const uint64_t before = g->st.out_pkts + (empty ? 0 : g->pend_n); /* (records queued already) */
	uint32_t idx = g->age_head, pn = empty ? 0 : g->pend_n, segs = empty ? 0 : g->pend_segs;
	struct ofl_gro_out *o = outs + pn;
	/* every record counted a GRO packet when delivered: the NORMAL ones
	 * queued already taken off first (nothing delivered in between) */
	if (!empty) {
		g->st.out_gro_pkts -= pn - g->pend_gro;
		g->pend_segs = g->pend_n = g->pend_gro = 0; /* (taken: the list's state in locals) */
	}
	/* the list's head (pend_head, not in a register while the list is
	 * built): the entries before (chained on to the age list) or idx */
	if (!empty && g->pend_head != GRO_NONE)
		items[g->pend_tail].next = idx;
	else
		g->pend_head = idx;
	/* the entries delivered from fh on, not yet on the free list (fh to
	 * the entry before the list's head) */
	uint32_t fh = g->pend_head;
	g->age_head = g->age_tail = g->last = GRO_NONE;
	for (;;) {
		struct gro_item *it = &items[idx];
		const uint32_t nx = it->next, ns = it->nsegs;
		if (OFL_LIKELY(ns > 1)) {
			complete_un_hdr(it, l3, big);
			it->state = GRO_PENDING;
			gro_fill_out_un(o, it, l3);
			o++;
			pn++;
			segs += ns;
			if (segs >= batch) {
				deliver_un(g, idx, pn, segs);
				if (nx == GRO_NONE) {
					/* (the last: every entry from fh on delivered) */
					free_un(g, fh, idx);
					pn = 0;
					break;
				}
				g->pend_head = nx;
				o = outs;
				pn = segs = 0;
				idx = nx;
				continue;
			}
		} else {
			/* the entries delivered put on the free list (from fh
			 * to the one before the list's head), then the
			 * context's delivery list as it is, taken back after */
			const uint32_t head = g->pend_head;
			if (fh != head) {
				uint32_t t = fh;
				while (items[t].next != head)
					t = items[t].next;
				free_un(g, fh, t);
			}
			g->pend_n = pn;
			g->pend_segs = segs;
			g->pend_gro = pn;
			if (!pn)
				g->pend_head = GRO_NONE;
			gro_flush_unidx_lone(g, idx, l3);
			pn = g->pend_n;
			o = outs + pn;
			segs = g->pend_segs;
			g->pend_segs = g->pend_n = g->pend_gro = 0;
			if (!pn)
				g->pend_head = nx;
			fh = g->pend_head;
		}
		if (nx == GRO_NONE)
			break;
		idx = nx;
	}
	if (pn) {
		deliver_un(g, idx, pn, segs);
		free_un(g, fh, idx); /* (every entry from fh on delivered: the last is idx) */
	}
	g->pend_head = GRO_NONE; /* (pend_segs, pend_n and pend_gro 0 already) */
	g->st.flush[reason] += g->st.out_pkts - before;
}

/* flush_unidx_as() (the list delivered, nothing pending after) of every
 * entry held out of the table (deliver.c gro_flush_all(): no lone record),
 * the context's state of them reset first.  GCC's basic-block vectorizer
 * would make deliver_un()'s four counter adds (one instruction each) two
 * vector adds of eleven instructions. */
OFL_NO_SLP int gro_flush_unidx(struct ofl_gro *g, unsigned reason)
{
	const unsigned l3 = g->unidx;
	const int big = g->cfg.max_size > 0xffffu;
	g->unidx = 0;
	g->nlone = 0;
	g->held_bytes = 0; /* (not read by the flush) */
	/* (the IP version and the size tested as branches: GCC's setcc
	 * pair for the common case was longer) */
	if (OFL_LIKELY(l3 == 4) && OFL_LIKELY(!big)) {
		/* (nothing queued: the list's state from nothing; a NORMAL
		 * record passed on without an entry counts in pend_n only) */
		if (OFL_LIKELY(g->pend_n == 0))
			flush_unidx_as(g, reason, 4, 0, 1);
		else
			flush_unidx_as(g, reason, 4, 0, 0);
	} else if (g->pend_n == 0) {
		if (l3 == 4)
			flush_unidx_as(g, reason, 4, 1, 1);
		else
			flush_unidx_as(g, reason, 6, 1, 1); /* (IPv6: no total length) */
	} else {
		flush_unidx_as(g, reason, l3, 1, 0);
	}
	return 0;
}
