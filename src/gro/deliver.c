/*
 * deliver.c - completion and delivery: the age and delivery lists, an entry
 * completed (its headers rewritten outwards), batches of normal_batch,
 * flushes, the flush timer and poll end.
 */
#include <string.h>

#include "core/csum_int.h"
#include "gro/hold.h"
#include "gro/ipv4.h"
#include "gro/ipv6.h"
#include "gro/layer.h"
#include "gro/stage.h"
#include "gro/tcp.h"
#include "gro/udp.h"

#include <ofl/csum.h>

static void age_unlink(struct ofl_gro *g, struct gro_item *it)
{
	if (it->prev != GRO_NONE)
		g->items[it->prev].next = it->next;
	else
		g->age_head = it->next;
	if (it->next != GRO_NONE)
		g->items[it->next].prev = it->prev;
	else
		g->age_tail = it->prev;
}

/* The encapsulation field of a merged tunnel packet's gso_type (gro_out.h). */
static uint8_t tun_gso_type(const struct gro_tun *t)
{
	switch (t->type) {
	case OFL_GRO_TUN_IPIP:
		return t->ol3 == 4 ? OFL_GSO_IPXIP4 : OFL_GSO_IPXIP6;
	case OFL_GRO_TUN_GRE:
		return t->ocsum ? OFL_GSO_GRE_CSUM : OFL_GSO_GRE;
	default:
		return t->ocsum ? OFL_GSO_UDP_TUNNEL_CSUM : OFL_GSO_UDP_TUNNEL;
	}
}

/* The output record of entry idx.  plain: the entry is known to be one that
 * complete_plain_as() completed (merged, not through a tunnel, no tail tag)
 * over IP version l3 and UDP (udp) or TCP, which the compiler folds into
 * the tests below (l3 and udp are only read when plain).  un (with plain,
 * TCP): a merged entry held out of the table (hold.h
 * gro_hold_plain_unidx()): gro_int.h gro_fill_out_un()'s record. */
static inline OFL_ALWAYS_INLINE void fill_out(struct ofl_gro *g, uint32_t idx, struct ofl_gro_out *o, int plain,
                                              unsigned l3, int udp, const int un)
{
	/* every field assigned: no memset of the whole struct per packet */
	struct gro_item *it = &g->items[idx];
	if (un) {
		gro_fill_out_un(o, it, l3); /* (merged: complete_unidx()) */
		return;
	}
	int gro = plain || it->nsegs != 0, merged = plain || it->nsegs > 1;
	/* merged: the seed gro_tcp_complete() wrote; one segment: the seed a
	 * PARTIAL first segment came with (hold_link).  csum_done is only set
	 * with a tail tag (finish_csum()), which a plain entry has not. */
	int partial = (merged || (gro && (it->out_flags & OFL_GRO_OUT_F_CSUM_PARTIAL))) && (plain || !it->csum_done);
	/* a plain entry's stack, known: one of the same kind */
	unsigned stack = plain ? (udp ? GRO_STACK_UDP4 : GRO_STACK_TCP4) : it->stack;
	o->slices = gro_slices(g, idx);
	o->nslices = it->nslices;
	o->cookies = gro_cookies(g, idx);
	o->ncookies = gro ? it->nsegs : 1u;
	if (plain) {
		/* csum_start to dsa as the hold wrote them (gro_int.h),
		 * flags and gso_type below */
		gro_rec_out(o, it);
	} else {
		o->vlan_tci = it->vlan_tci;
		o->rx_hash = it->rx_hash;
		o->first_ns = it->first_ns;
		o->dsa = gro_out_dsa(g, idx);
		o->csum_start = partial ? it->l4_off : 0;
		o->csum_offset = partial ? (uint16_t)gro_stack_csum_off(stack) : 0;
	}
	o->hdr = plain || it->hdr_len ? it->hdr : NULL;
	o->hdr_len = it->hdr_len;
	o->seg_count = it->nsegs;
	o->seg_size = gro ? it->seg_size : 0;
	o->len = gro ? it->hdr_len + it->payload + (plain ? 0u : it->tail_len) : it->frame_len;
	o->l3_off = gro ? it->l3_off : 0;
	o->l4_off = gro ? it->l4_off : 0;
	if (plain && GRO_REC_SAME)
		o->flags |= OFL_GRO_OUT_F_CSUM_PARTIAL; /* (out_flags copied above; partial) */
	else
		o->flags = (uint8_t)((it->out_flags & ~OFL_GRO_OUT_F_CSUM_PARTIAL) |
		                     (partial ? OFL_GRO_OUT_F_CSUM_PARTIAL : 0));
	if (merged && gro_stack_udp(stack)) {
		o->gso_type = (uint8_t)(OFL_GSO_UDP_L4 | (it->lcsum ? OFL_GSO_FRAGLIST : 0));
		return;
	}
	l3 = plain ? l3 : it->l3;
	/* (fixedid and cwr are 0 or 1: gro_int.h) */
	o->gso_type = merged ? (uint8_t)((l3 == 4 ? OFL_GSO_TCPV4 | it->fixedid * OFL_GSO_TCP_FIXEDID : OFL_GSO_TCPV6) |
	                                 it->cwr * OFL_GSO_TCP_ECN |
	                                 (it->lcsum ? OFL_GSO_FRAGLIST : 0)) /* a list: list.c */
	                     : 0;
	if (!plain && gro && gro_stack_tun(stack)) {
		/* through a tunnel (tunnel.c): its type in flags, the
		 * encapsulation in gso_type (gro_out.h) */
		o->flags = (uint8_t)(o->flags | (unsigned)it->tun.type << 5);
		if (merged)
			o->gso_type = (uint8_t)(o->gso_type | tun_gso_type(&it->tun));
	}
}

/* Hand the delivery list to the caller and recycle its entries: the list
 * (pend_head to pend_tail through next) put on the free list whole, each
 * entry left as it is (gro_int.h: a free entry's state and lcsum).  n:
 * its records (not 0); head: the list has an entry (pend_head is not
 * GRO_NONE: known to the caller). */
static inline OFL_ALWAYS_INLINE void deliver_pending_as(struct ofl_gro *g, uint32_t n, const int head)
{
	g->st.out_pkts += n;
	g->st.out_segs += g->pend_segs;
	g->st.out_gro_pkts += g->pend_gro;
	g->st.out_lists++;
	g->in_cb = 1;
	g->cfg.deliver(g->cfg.user, g->outs, n);
	g->in_cb = 0;
	if (head || g->pend_head != GRO_NONE) {
		g->items[g->pend_tail].next = g->free_head;
		g->free_head = g->pend_head;
		g->pend_head = GRO_NONE;
	}
	g->pend_segs = g->pend_n = g->pend_gro = 0;
}

void gro_deliver_pending(struct ofl_gro *g)
{
	uint32_t n = g->pend_n;
	if (n == 0)
		return;
	deliver_pending_as(g, n, 0);
}

/* Append an entry to the delivery list: its output record written now, the
 * entry kept until the list is delivered (the record points into it).
 * chained: the entry is the one pend_tail's next names already (a full
 * flush: flush_entries()), or the list is empty. */
static inline OFL_ALWAYS_INLINE void pend_link(struct ofl_gro *g, uint32_t idx, int plain, unsigned l3, int udp,
                                               int chained, const int un)
{
	struct gro_item *it = &g->items[idx];
	it->state = GRO_PENDING;
	if (g->pend_head == GRO_NONE)
		g->pend_head = idx;
	else if (!chained)
		g->items[g->pend_tail].next = idx;
	g->pend_tail = idx;
	fill_out(g, idx, &g->outs[g->pend_n], plain, l3, udp, un);
}

/* ... and counted (delivered when the list is full). */
static inline OFL_ALWAYS_INLINE void pend_push(struct ofl_gro *g, uint32_t idx, int plain, unsigned l3, int udp,
                                               int chained, const int un)
{
	const struct gro_item *it = &g->items[idx];
	pend_link(g, idx, plain, l3, udp, chained, un);
	gro_pend_commit(g, plain || it->nsegs ? it->nsegs : 1u, plain || it->nsegs != 0);
}

void gro_pend_push(struct ofl_gro *g, uint32_t idx)
{
	pend_push(g, idx, 0, 0, 0, 0, 0);
}

/* Keep-tag mode with a tail tag: the tag follows the payload, so a checksum
 * "from csum_start to the end" would cover it.  Finish the TCP (UDP) checksum here
 * instead (as Linux finishes it before a tail tagger runs). */
static void finish_csum(struct ofl_gro *g, uint32_t idx)
{
	struct gro_item *it = &g->items[idx];
	const struct ofl_slice *sl = gro_slices(g, idx);
	uint32_t s = ofl_csum_partial(it->hdr + it->l4_off, (size_t)(it->hdr_len - it->l4_off), 0);
	uint32_t off = gro_stack_csum_off(it->stack);
	uint16_t c;
	c = ofl_csum_fold(ofl_csum_slices(sl, it->nslices, s, it->hdr_len - it->l4_off));
	if (c == 0 && gro_stack_udp(it->stack))
		c = 0xffff; /* UDP sends a computed 0 as all ones */
	memcpy(it->hdr + it->l4_off + off, &c, 2);
	it->csum_done = 1;
}

/*
 * The entries most completions are of: merged (two segments or more) over
 * a stack of IP (IPv4, with options or not, or IPv6) and TCP or UDP, first in
 * the frame or after Ethernet, with no tail tag to finish the checksum
 * before.  Their completion is their stack's walk (gro_stack_complete(),
 * the stacks of layers.c: the Ethernet layer completes nothing, the IP
 * layer then the L4 one), with each layer's own completion inlined for the
 * IP version and protocol known instead of called through the table.
 * The stacks below GRO_STACK_TUN4 name the IP version in bit 0 and UDP in
 * bit 2 (layer.h), so the stack alone says which of the four it is.
 */
_Static_assert(GRO_STACK_TCP4 == 0 && GRO_STACK_TCP6 == 1 && GRO_STACK_RAW4 == 2 && GRO_STACK_RAW6 == 3 &&
                   GRO_STACK_UDP4 == 4 && GRO_STACK_UDP6 == 5 && GRO_STACK_RAWUDP4 == 6 && GRO_STACK_RAWUDP6 == 7 &&
                   GRO_STACK_TUN4 == 8,
               "plain stacks: bit 0 IPv6, bit 2 UDP");
static inline int plain_done(const struct gro_item *it)
{
	/* (IPv4 options too: gro_ipv4_complete_len() changes only the length
	 * and the checksum) */
	return it->nsegs > 1 && it->tail_len == 0 && it->stack < GRO_STACK_TUN4;
}

/* A plain entry over IP version l3 and UDP (udp) or TCP completed and
 * queued (chained, un: pend_push(); un 1: no FIN or PSH merged either, 2:
 * its fin_psh or'ed in as gro_tcp_complete_l3() does). */
static inline OFL_ALWAYS_INLINE void complete_plain_hdr(struct gro_item *it, unsigned l3, int udp, const int un)
{
	uint8_t *ip = it->hdr + (un ? 14u : it->l3_off);
	const uint32_t l3_len = it->l3_len;
	/* L4 first: it reads the entry's fields before its header stores */
	if (udp)
		gro_udp_complete_l3(it, l3);
	else if (un)
		gro_tcp_complete_at(it, l3, 14, gro_unidx_l4(l3), un == 2 ? it->fin_psh : 0);
	else
		gro_tcp_complete_l3(it, l3);
	if (l3 == 4)
		gro_ipv4_complete_len(ip, l3_len);
	else
		gro_ipv6_complete_len(ip, l3_len);
}

static inline OFL_ALWAYS_INLINE void complete_plain_as(struct ofl_gro *g, uint32_t idx, unsigned l3, int udp,
                                                       int chained, const int un)
{
	complete_plain_hdr(&g->items[idx], l3, udp, un);
	pend_push(g, idx, 1, l3, udp, chained, un);
}

/* Every other entry (a single segment or a NORMAL packet, a tunnel, IPv4
 * options, a tail tag; out of line, every non-plain row got slower). */
static inline void complete_general(struct ofl_gro *g, uint32_t idx, int chained)
{
	struct gro_item *it = &g->items[idx];
	if (it->nsegs > 1) {
		gro_stack_complete(it);
		if (it->tail_len)
			finish_csum(g, idx);
	} else if (it->tail_len && (it->out_flags & OFL_GRO_OUT_F_CSUM_PARTIAL)) {
		finish_csum(g, idx); /* a lone PARTIAL segment: its seed, finished */
	}
	if (it->tail_len) {
		/* keep-tag mode with a tail tag: the first segment's tag ends it */
		struct ofl_slice *sl = &gro_slices(g, idx)[it->nslices++];
		sl->data = g->cold[idx].tailbuf;
		sl->len = it->tail_len;
		sl->pkt = 0;
		sl->buf = 0xffff;
	}
	pend_push(g, idx, 0, 0, 0, chained, 0);
}

/* An entry held out of the table (hold.h gro_hold_plain_unidx(),
 * gro_hold_plain_out()), plain TCP over IP version l3, completed and
 * queued (chained: pend_push()): merged, with its offsets known (fp: FIN
 * or PSH may have been merged, complete_plain_as() un 2); a single segment
 * after gro_unidx_kind() (the fields the unidx hold leaves out; the out
 * hold wrote them already, the same), as complete_general() completes it.
 * The one completion of such an entry: gro_complete_out() and a full
 * flush (flush_unidx.c, gro_flush_unidx_lone() for a single segment). */
static inline OFL_ALWAYS_INLINE void complete_unidx(struct ofl_gro *g, uint32_t idx, const unsigned l3, int chained,
                                                    const int fp)
{
	struct gro_item *it = &g->items[idx];
	if (OFL_LIKELY(it->nsegs > 1)) {
		complete_plain_as(g, idx, l3, 0, chained, fp ? 2 : 1); /* (plain_done()) */
	} else {
		gro_unidx_kind(it, l3);
		complete_general(g, idx, chained);
	}
}

/* Rewrite the header of an entry out of the table and the age list and
 * queue it for delivery (chained: pend_push()). */
static inline OFL_ALWAYS_INLINE void complete_entry(struct ofl_gro *g, uint32_t idx, int chained)
{
	const struct gro_item *it = &g->items[idx];
	if (!OFL_LIKELY(plain_done(it))) {
		complete_general(g, idx, chained);
		return;
	}
	/* TCP/IPv4 tested first: the most common */
	if (OFL_LIKELY((it->stack & 5u) == 0))
		complete_plain_as(g, idx, 4, 0, chained, 0);
	else if ((it->stack & 5u) == 1)
		complete_plain_as(g, idx, 6, 0, chained, 0);
	else if ((it->stack & 5u) == 4)
		complete_plain_as(g, idx, 4, 1, chained, 0);
	else
		complete_plain_as(g, idx, 6, 1, chained, 0);
}

/* Complete a held entry: rewrite its header and queue it for delivery.
 * in_table: 1, take it out of the flow table; 2, the same when every entry
 * is leaving it (gro_flush_all(): ofl_flowtab_drop()); 0, the table was
 * cleared. */
static inline OFL_ALWAYS_INLINE void complete_unlink(struct ofl_gro *g, uint32_t idx, unsigned reason, int in_table)
{
	struct gro_item *it = &g->items[idx];
	if (in_table == 2)
		ofl_flowtab_drop(&g->tab, it->hash, idx);
	else if (in_table)
		ofl_flowtab_remove(&g->tab, it->hash, idx);
	age_unlink(g, it);
	g->held_bytes -= it->payload;
	g->st.flush[reason]++;
	if (g->last == idx)
		g->last = GRO_NONE;
}

static inline void complete_x(struct ofl_gro *g, uint32_t idx, unsigned reason, int in_table)
{
	complete_unlink(g, idx, reason, in_table);
	complete_entry(g, idx, 0);
}

void gro_complete(struct ofl_gro *g, uint32_t idx, unsigned reason)
{
	complete_x(g, idx, reason, 1);
}

/* ... of an entry held out of the table (hold.h gro_hold_plain_out(): the
 * train after burst_first.c gro_first_hold(), gro_first_hold_bufs() completes it),
 * plain TCP over IP version l3: no table, one flow less in nlone. */
static inline OFL_ALWAYS_INLINE void complete_out(struct ofl_gro *g, uint32_t idx, unsigned reason, const unsigned l3)
{
	g->nlone--;
	complete_unlink(g, idx, reason, 0);
	complete_unidx(g, idx, l3, 0, 1);
}

void gro_complete_out(struct ofl_gro *g, uint32_t idx, unsigned reason, unsigned l3)
{
	if (l3 == 4)
		complete_out(g, idx, reason, 4);
	else
		complete_out(g, idx, reason, 6);
}

/* A single segment of a full flush of the entries held out of the table
 * (flush_unidx.c), plain TCP over IP version l3: complete_unidx(), queued
 * on the context's delivery list (chained). */
void gro_flush_unidx_lone(struct ofl_gro *g, uint32_t idx, unsigned l3)
{
	if (l3 == 4)
		complete_unidx(g, idx, 4, 1, 0);
	else
		complete_unidx(g, idx, 6, 1, 0);
}

/* Every entry of the age list completed, oldest first, as complete_x()
 * completes one, but the list taken whole: no entry unlinked from it, and
 * each joins the delivery list by the next it has on the age list (the
 * delivery list's tail linked to the age list's head first).  Nothing
 * reads the age list, the last merge or the held bytes until the flush
 * ends (a delivery on the way is in the callback: in_cb). */
static inline OFL_ALWAYS_INLINE void flush_entries_in(struct ofl_gro *g, unsigned reason, const int in_table)
{
	uint32_t idx = g->age_head, n = 0;
	if (g->pend_head != GRO_NONE)
		g->items[g->pend_tail].next = idx;
	g->age_head = g->age_tail = g->last = GRO_NONE;
	do {
		const struct gro_item *it = &g->items[idx];
		uint32_t nx = it->next;
		if (in_table)
			ofl_flowtab_drop(&g->tab, it->hash, idx);
		complete_entry(g, idx, 1);
		n++;
		idx = nx;
	} while (idx != GRO_NONE);
	g->st.flush[reason] += n;
}

/* ... in_table: 1, each entry's slot emptied (ofl_flowtab_drop()); 0, the
 * table cleared already (a copy each: no test a flow). */
static OFL_NOINLINE void flush_entries(struct ofl_gro *g, unsigned reason, int in_table)
{
	if (in_table)
		flush_entries_in(g, reason, 1);
	else
		flush_entries_in(g, reason, 0);
}

/* gro_flush_all() with lone records (group.c) and entries held: both in
 * the order they were held, until no lone record is left. */
static OFL_NOINLINE void flush_lone(struct ofl_gro *g, unsigned reason, int in_table)
{
	uint32_t k;
	for (k = 0; k < g->nlone;) {
		if (g->age_head != GRO_NONE && seq_before(g->items[g->age_head].age_seq, g->bs->seq[k]))
			complete_x(g, g->age_head, reason, in_table);
		else
			gro_lone_push(g, k++, reason);
	}
	g->nlone = 0;
}

static OFL_NOINLINE void flush_all(struct ofl_gro *g, unsigned reason)
{
	int in_table = 2;
	/* every entry leaves the table: clearing it at once beats a removal
	 * per entry once it is an eighth full; else each entry's slot is
	 * emptied, nothing moved (nothing is looked up until the last is) */
	if (g->tab.count && (uint64_t)g->tab.count * 8u >= (uint64_t)g->tab.mask + 1u) {
		ofl_flowtab_clear(&g->tab);
		in_table = 0;
	}
	if (g->nlone) {
		if (g->age_head == GRO_NONE && g->pend_n == 0) {
			gro_lone_deliver(g, reason); /* nothing else: straight from where they are */
			return;
		}
		if (g->unidx) {
			/* no lone record: the entries held out of the table
			 * (hold.h gro_hold_plain_unidx()), none in it */
			gro_flush_unidx(g, reason);
			return;
		}
		flush_lone(g, reason, in_table);
	}
	/* (out of line: the flushes with no entry held pay no frame for it) */
	if (g->age_head != GRO_NONE)
		flush_entries(g, reason, in_table != 0);
	g->held_bytes = 0; /* nothing held now */
	gro_deliver_pending(g);
}

/* The weave's new flows at a poll end: every entry held out of the table
 * (hold.h gro_hold_plain_unidx(), IP version unidx), none in it, no lone
 * record: gro_flush_unidx() (flush_all()'s way for them, tested first: no
 * frame saved for the rest). */
static inline OFL_ALWAYS_INLINE int flush_unidx_now(const struct ofl_gro *g)
{
	/* (a test and a branch each: GCC's setcc chain of the four was
	 * longer) */
	if (OFL_LIKELY(g->unidx != 0))
		if (OFL_LIKELY(g->nlone != 0))
			if (OFL_LIKELY(g->age_head != GRO_NONE))
				return g->tab.count == 0;
	return 0;
}

int gro_flush_all(struct ofl_gro *g, unsigned reason)
{
	if (flush_unidx_now(g))
		return gro_flush_unidx(g, reason);
	flush_all(g, reason);
	return 0;
}

/* Why the segment just merged (its TCP flags) ends its train. */
static inline unsigned end_reason(uint8_t flags)
{
	if (flags & TCP_PSH)
		return OFL_GRO_FLUSH_PSH;
	if (flags & (TCP_FIN | TCP_URG | TCP_RST | TCP_SYN))
		return OFL_GRO_FLUSH_FIN_URG_RST_SYN;
	return OFL_GRO_FLUSH_SHORT;
}

/* The segment just merged ends its train: complete the entry. */
void gro_end_train(struct ofl_gro *g, uint32_t idx, uint8_t flags)
{
	gro_complete(g, idx, end_reason(flags));
}

/* ... an entry held out of the table (gro_complete_out()). */
void gro_end_train_out(struct ofl_gro *g, uint32_t idx, uint8_t flags, unsigned l3)
{
	gro_complete_out(g, idx, end_reason(flags), l3);
}

/* ---- flushes and the timer ---------------------------------------------- */

static int check_ctx(struct ofl_gro *g)
{
	if (!g)
		return OFL_EINVAL;
	if (g->in_cb) {
		g->st.api_errors++;
		return OFL_ESTATE;
	}
	return 0;
}

static int flush_older(struct ofl_gro *g, uint64_t now, uint64_t age)
{
	int n = 0;
	while (g->age_head != GRO_NONE) {
		uint64_t t = g->items[g->age_head].first_ns;
		if (t > now || now - t < age)
			break;
		gro_complete(g, g->age_head, OFL_GRO_FLUSH_TIMEOUT);
		n++;
	}
	return n;
}

int ofl_gro_flush(struct ofl_gro *g)
{
	int err = check_ctx(g);
	if (err)
		return err;
	gro_flush_all(g, OFL_GRO_FLUSH_EXPLICIT);
	return 0;
}

int ofl_gro_flush_older(struct ofl_gro *g, uint64_t now, uint64_t max_age)
{
	int n, err = check_ctx(g);
	if (err)
		return err;
	if (g->nlone)
		gro_lone_settle(g);
	n = flush_older(g, now, max_age);
	gro_deliver_pending(g);
	return n;
}

/* ofl_gro_poll_end() but the full flush of a context not in its callback
 * (out of line: that path saves no registers for this one's loop). */
static OFL_NOINLINE int poll_end_timed(struct ofl_gro *g, unsigned work_done, uint64_t now, uint64_t *deadline)
{
	uint64_t t = g ? g->cfg.flush_timeout_ns : 0;
	int err = check_ctx(g);
	if (err)
		return err;
	if (t == 0 || work_done == 0) {
		gro_flush_all(g, OFL_GRO_FLUSH_POLL_END);
		return 0;
	}
	if (g->nlone)
		gro_lone_settle(g); /* (lone records are held with timeout 0 only) */
	flush_older(g, now, t);
	gro_deliver_pending(g);
	if (deadline && g->age_head != GRO_NONE)
		*deadline = g->items[g->age_head].first_ns + t;
	return 0;
}

int ofl_gro_poll_end(struct ofl_gro *g, unsigned work_done, uint64_t now, uint64_t *deadline)
{
	if (deadline)
		*deadline = 0;
	if (OFL_LIKELY(g && !g->in_cb) && (g->cfg.flush_timeout_ns == 0 || work_done == 0)) {
		/* (the full flush after the weave a tail call) */
		return gro_flush_all(g, OFL_GRO_FLUSH_POLL_END);
	}
	return poll_end_timed(g, work_done, now, deadline);
}
