/*
 * hold.h - holding a new flow, the part the fast path inlines: an entry
 * taken from the free list, filled from a plain frame, linked on the age
 * list and into the flow table (hold.c has the general case).
 */
#ifndef OFL_GRO_HOLD_H
#define OFL_GRO_HOLD_H

#include "gro/layer.h"
#include "gro/stage.h"
#include "gro/tcp.h"
#include "gro/tunnel.h"
#include "gro/udp.h"

/* The free list's first entry, taken off it as it is (a free entry's lcsum
 * may be set: gro_int.h; hold_fill_plain_l4() clears it). */
static inline uint32_t item_take(struct ofl_gro *g)
{
	uint32_t i = g->free_head;
	/* The pool is sized so this never fails: max_flows held plus at most
	 * normal_batch pending, plus one. */
	g->free_head = g->items[i].next;
	return i;
}

/* ... with lcsum cleared: not chained until list.c says so. */
static inline uint32_t item_alloc(struct ofl_gro *g)
{
	uint32_t i = item_take(g);
	g->items[i].lcsum = 0;
	return i;
}

static inline uint8_t pkt_out_flags(const struct ofl_pkt *pkt)
{
	return (uint8_t)((pkt->flags & OFL_PKT_F_VLAN ? OFL_GRO_OUT_F_VLAN : 0) |
	                 (pkt->flags & OFL_PKT_F_HASH ? OFL_GRO_OUT_F_HASH : 0));
}

/* The part of entry it's output record known once it is held (struct
 * gro_item, out_cstart on), as a merged entry of its stack over plain IP
 * (deliver.c complete_plain_as()) has it: the checksum to finish from
 * its L4 header at l4_off, and its DSA fields (NULL: none).  Every hold
 * writes it (hold.c hold_fill(), hold_fill_plain_l4() below). */
static inline void gro_hold_rec(struct gro_item *it, uint32_t l4_off, unsigned stack,
                                const struct ofl_dsa_meta *dsa)
{
	it->out_cstart = (uint16_t)l4_off;
	it->out_coff = (uint16_t)gro_stack_csum_off(stack);
	it->out_dsa = dsa;
}

/* What a new entry takes from its first frame's struct ofl_pkt.  un: an
 * entry held out of the table (gro_hold_plain_unidx()): pkt of the plain
 * shape's fields (stage.h gro_pkt_plain_meta()), and no place in the age
 * order yet (gro_unidx_enter()). */
static inline OFL_ALWAYS_INLINE void hold_pkt_as(struct ofl_gro *g, uint32_t idx, const struct ofl_pkt *pkt,
                                                 uint64_t now, const int un)
{
	struct gro_item *it = &g->items[idx];
	/* a PARTIAL first segment: its seed stays in hdr, delivered partial even alone */
	it->out_flags = (uint8_t)(OFL_GRO_OUT_F_CSUM_VERIFIED |
	                          (un ? (pkt->flags & OFL_PKT_F_HASH ? OFL_GRO_OUT_F_HASH : 0)
	                              : pkt_out_flags(pkt) |
	                                    (pkt->csum_status == OFL_CSUM_PARTIAL ? OFL_GRO_OUT_F_CSUM_PARTIAL : 0)));
	it->vlan_tci = pkt->vlan_tci;
	it->rx_hash = pkt->rx_hash;
	it->first_ns = now;
	it->state = GRO_HELD;
	if (!un)
		it->age_seq = g->hold_seq++;
	gro_cookies(g, idx)[0] = pkt->cookie;
}

static inline void hold_pkt(struct ofl_gro *g, uint32_t idx, const struct ofl_pkt *pkt, uint64_t now)
{
	hold_pkt_as(g, idx, pkt, now, 0);
}

/* The end of holding a new entry but the table: what comes from the
 * packet, the age list (newest at the tail), the counters (un:
 * hold_pkt_as(); the last entry and st.held left to the caller, the
 * weave's end: weave_slot.h weave_done()). */
static inline OFL_ALWAYS_INLINE void hold_age(struct ofl_gro *g, uint32_t idx, const struct ofl_pkt *pkt,
                                              uint32_t len, uint64_t now, const int un)
{
	struct gro_item *it = &g->items[idx];
	if (un)
		hold_pkt_as(g, idx, pkt, now, 1);
	else
		hold_pkt(g, idx, pkt, now); /* (left to the compiler to inline, as before) */
	it->next = GRO_NONE;
	it->prev = g->age_tail;
	if (g->age_tail == GRO_NONE)
		g->age_head = idx;
	else
		g->items[g->age_tail].next = idx;
	g->age_tail = idx;
	g->held_bytes += len;
	if (!un) {
		g->last = idx;
		g->st.held++;
	}
}

/* ... and into the table. */
static inline int hold_link(struct ofl_gro *g, uint32_t idx, const struct ofl_pkt *pkt, uint32_t hash,
                            uint32_t len, uint64_t now)
{
	hold_age(g, idx, pkt, len, now, 0);
	ofl_flowtab_insert(&g->tab, hash, idx);
	return OFL_GRO_HELD;
}

/* The output record o of a frame passed on whole: nb slices at s and its
 * cookie at ck (both written by the caller), total bytes, out flags. */
static inline void gro_pass_record(struct ofl_gro_out *o, const struct ofl_pkt *pkt, const struct ofl_slice *s,
                                   void *const *ck, uint32_t nb, uint32_t total, uint8_t flags, uint64_t now)
{
	o->hdr = NULL;
	o->hdr_len = 0;
	o->nslices = nb;
	o->slices = s;
	o->len = total;
	o->seg_count = 0;
	o->seg_size = 0;
	o->cookies = ck;
	o->ncookies = 1;
	o->l3_off = o->l4_off = 0;
	o->csum_start = o->csum_offset = 0;
	o->flags = flags;
	o->gso_type = 0;
	o->vlan_tci = pkt->vlan_tci;
	o->rx_hash = pkt->rx_hash;
	o->first_ns = now;
	o->dsa = NULL;
}

/* A frame passed on whole (no DSA metadata): its output record written
 * straight into the delivery list, no entry; the caller counts it
 * (st.normal, normal_why: gro_pass_normal() in hold.c; the burst's
 * pass_run() in burst.c writes the same record for a run of frames). */
static inline int gro_pass_through(struct ofl_gro *g, const struct ofl_pkt *pkt, uint32_t total, uint64_t now)
{
	uint32_t slot = g->pend_n;
	struct ofl_slice *s = g->oslices + (size_t)slot * g->cfg.max_bufs;
	void **ck = g->ocookies + slot;
	unsigned b, nb = pkt->nbufs;
	*ck = pkt->cookie;
	for (b = 0; b < nb; b++) {
		s[b].data = pkt->bufs[b].data;
		s[b].len = pkt->bufs[b].len;
		s[b].pkt = 0;
		s[b].buf = (uint16_t)b;
	}
	gro_pass_record(&g->outs[slot], pkt, s, ck, nb, total,
	                (uint8_t)((pkt->csum_status == OFL_CSUM_UNNECESSARY ? OFL_GRO_OUT_F_CSUM_VERIFIED : 0) |
	                          (pkt->csum_status == OFL_CSUM_PARTIAL ? OFL_GRO_OUT_F_CSUM_RX_PARTIAL : 0) |
	                          pkt_out_flags(pkt)),
	                now);
	gro_pend_commit(g, 1, 0);
	return OFL_GRO_NORMAL;
}

/* Is a frame of the plain shape over IP version l3 (4 or 6), b0 bytes in
 * its first buffer, long enough for plain_key() (and for burst.c's TCP
 * plain-shape test): IPv4, or IPv6 with the room of a 20-byte TCP header
 * after its Ethernet and IPv6 headers (74 bytes; a UDP datagram shorter
 * than that is keyed by the full path). */
static inline int plain_keyed(unsigned l3, uint32_t b0)
{
	return l3 == 4 || b0 >= 14u + 40u + 20u;
}

/* The flow key of a frame that looks plain (the words build_key() in
 * receive.c would write for it, with udp.c's GRO_KEY_UDP for a UDP
 * datagram over IPv6; over IPv4 the protocol is not read here and
 * receive.c adds the bit); 0 when it does not, else its L3. */
static inline int plain_key(const uint8_t *p, uint32_t b0, struct ofl_flow_key *k)
{
	const uint8_t *ip = p + 14;
	uint16_t et = ld16(p + 12);
	k->w[0] = ld64(p);
	k->w[8] = 0;
	if (et == ld16((const uint8_t *)"\x08\x00")) {
		if (ip[0] != 0x45)
			return 0;
		k->w[1] = ld32(p + 8) | 4ull << 56;
		k->w[2] = (uint64_t)ld32(p + 34) << 32;
		k->w[3] = ld64(ip + 12);
		k->w[4] = k->w[5] = k->w[6] = k->w[7] = 0;
		return 4;
	}
	if (et == ld16((const uint8_t *)"\x86\xdd") && plain_keyed(6, b0)) {
		k->w[1] = ld32(p + 8) | 6ull << 56;
		if (ip[6] != 6) {
			if (ip[6] != 17)
				return 0;
			k->w[1] |= GRO_KEY_UDP; /* udp.c's flow */
		}
		k->w[2] = (uint64_t)ld32(p + 54) << 32;
		k->w[3] = ld64(ip + 8);
		k->w[4] = ld64(ip + 16);
		k->w[5] = ld64(ip + 24);
		k->w[6] = ld64(ip + 32);
		k->w[7] = ofl_get32(ip) & 0xf00fffffu;
		return 6;
	}
	return 0;
}

/* plain_key() of a frame its caller knows plain (over IPv4, else IPv6),
 * and the key's flow hash. */
static inline uint32_t plain_key_hash(const struct ofl_gro *g, const uint8_t *p, uint32_t b0, struct ofl_flow_key *k)
{
	return ofl_flow_hash_ip(&g->tab, k, plain_key(p, b0, k) == 4);
}

/* The slices of the payload bytes [off, off + len) of a frame in the
 * header split (the headers the whole first buffer, the payload every
 * later buffer, none empty or past len, at most cap of them): one a later
 * buffer, written as hold.c slices_of() writes them (which also ends at the
 * frame's end when the buffers hold fewer than len bytes); returns their
 * count, or UINT32_MAX for any other layout (hold.c gro_add_slices()
 * cuts it then, over what this wrote). */
static inline OFL_ALWAYS_INLINE uint32_t gro_split_slices(struct ofl_slice *s, const struct ofl_pkt *pkt, uint32_t off,
                                                      uint32_t len, uint16_t seg, uint32_t cap)
{
	const struct ofl_buf *b = pkt->bufs;
	uint32_t n = pkt->nbufs, k, l;
	if (b[0].len != off || n - 1u > cap)
		return UINT32_MAX;
	for (k = 1; k < n; k++) {
		l = b[k].len;
		if (l - 1u >= len)
			return UINT32_MAX; /* empty, or past the payload */
		s[k - 1].data = b[k].data;
		s[k - 1].len = l;
		s[k - 1].pkt = seg;
		s[k - 1].buf = (uint16_t)k;
		len -= l;
	}
	return n - 1u;
}

/* Copy a plain header (n >= 54 bytes; 42 or 62 for UDP: udp) in 16-byte
 * pieces, the last one overlapping: a variable-length memcpy() of 42-128
 * bytes becomes "rep movs" here, whose start-up costs more than the copy. */
static inline OFL_ALWAYS_INLINE void copy_hdr(uint8_t *dst, const uint8_t *src, uint32_t n, const int udp)
{
	uint32_t o;
	if (udp && n < 48) {
		/* (no byte past the header read) */
		memcpy(dst, src, 16);
		memcpy(dst + 16, src + 16, 16);
		memcpy(dst + n - 16, src + n - 16, 16);
		return;
	}
	memcpy(dst, src, 16);
	memcpy(dst + 16, src + 16, 16);
	memcpy(dst + 32, src + 32, 16);
	for (o = 48; o + 16 < n; o += 16)
		memcpy(dst + o, src + o, 16);
	memcpy(dst + n - 16, src + n - 16, 16);
}

/* The fields that say what a plain entry is (its stack, where its
 * headers are, no tag, no list, the prediction that covers it, CWR of its
 * first segment from its TCP header th): over IP version l3, its L4 header
 * at l4_off, hl bytes of headers; udp as below. */
static inline OFL_ALWAYS_INLINE void hold_plain_kind(struct gro_item *it, unsigned l3, uint32_t l4_off, uint32_t hl,
                                                     const uint8_t *th, const int udp)
{
	it->l3 = (uint8_t)l3;
	it->stack = (uint8_t)(gro_stack_of_l3(l3, 0) + (udp ? GRO_STACK_UDP4 : 0)); /* never raw-IP input */
	it->l3_off = 14;
	it->l4_off = (uint16_t)l4_off;
	it->tail_len = 0;
	it->csum_done = 0;
	it->has_meta = 0;
	it->lcsum = 0; /* (item_take()) */
	it->fast = (uint8_t)(hl <= GRO_PRED_MAX ? (udp ? GRO_FAST_UDP : GRO_FAST_PLAIN) : 0);
	it->rawpre_len = it->rawtail_len = 0;
	it->cwr = !udp && (th[13] & TCP_CWR) != 0;
}

/* Fill entry idx from a frame of the plain shape (ofl_parse_plain() filled
 * h; the headers are in the first buffer): header, key, per-flow state, the
 * first segment's slices.  The entry is not linked anywhere yet.  udp: a
 * UDP datagram of the plain shape (gro_udp_hold_plain()), filled as
 * hold.c's gro_hold_fill() fills it (no tag, no hardware VLAN).  k NULL:
 * the entry's key was built there already.  un: an entry held out of the
 * table (gro_hold_plain_unidx()): no hash, and hold_plain_kind() left to
 * gro_unidx_kind().  sl1: a frame of several buffers whose slices and
 * slice count the caller writes (burst_first.c gro_first_hold_bufs(), renew.c
 * nosl): none written here; the one way such a frame is held. */
static inline OFL_ALWAYS_INLINE void hold_fill_plain_l4(struct ofl_gro *g, uint32_t idx, const struct ofl_pkt *pkt,
                                                        const uint8_t *p, const struct ofl_hdrs *h,
                                                        const struct ofl_flow_key *k, uint32_t hash, const int udp,
                                                        const int un, int sl1)
{
	const uint8_t *th = p + h->l4_off;
	uint32_t len = h->payload_len, hl = h->hdr_len;
	struct gro_item *it = &g->items[idx];
	struct ofl_slice *sl;
	copy_hdr(it->hdr, p, hl, udp);
	if (k)
		ofl_flow_key_copy(&it->key, k);
	it->hdr_len = (uint16_t)hl;
	if (!un) {
		it->hash = hash;
		hold_plain_kind(it, h->l3, h->l4_off, hl, th, udp);
	}
	gro_hold_rec(it, h->l4_off, udp ? GRO_STACK_UDP4 : GRO_STACK_TCP4, NULL);
	it->seg_size = (uint16_t)len; /* the frame is at most 0xffff bytes */
	it->nsegs = 1;
	it->payload = len;
	it->l3_len = h->l3_end - 14;
	it->next_seq = ofl_get32(th + 4) + len;
	it->id0 = h->l3 == 4 ? ofl_get16(p + 18) : 0;
	it->fixedid = 0;
	it->fin_psh = 0;
	if (sl1) {
		/* (the caller's) */
	} else if (pkt->nbufs == 1) {
		sl = gro_slices(g, idx);
		sl->data = p + hl;
		sl->len = len;
		sl->pkt = 0;
		sl->buf = 0;
		it->nslices = 1;
	} else {
		it->nslices = 0;
		gro_add_slices(g, idx, pkt, hl, len, 0);
	}
}

static inline void hold_fill_plain(struct ofl_gro *g, uint32_t idx, const struct ofl_pkt *pkt, const uint8_t *p,
                                   const struct ofl_hdrs *h, const struct ofl_flow_key *k, uint32_t hash)
{
	hold_fill_plain_l4(g, idx, pkt, p, h, k, hash, 0, 0, 0);
}

/* Hold a new flow of the plain shape: gro_hold_new() without the tag cases
 * (the held bytes within their bound: checked by the caller).  k NULL:
 * the key built in the entry and hashed here (for UDP with GRO_KEY_UDP,
 * as udp.c's key has it). */
static inline OFL_ALWAYS_INLINE int hold_plain_l4(struct ofl_gro *g, const struct ofl_pkt *pkt, const uint8_t *p,
                                                  const struct ofl_hdrs *h, const struct ofl_flow_key *k,
                                                  uint32_t hash, uint64_t now, const int udp, int sl1)
{
	uint32_t idx;
	if (gro_nflows(g) >= g->cfg.max_flows)
		gro_make_room(g, h->payload_len);
	idx = item_take(g);
	if (!k) {
		struct ofl_flow_key *kh = &g->items[idx].key;
		plain_key(p, pkt->bufs[0].len, kh); /* (a plain frame has one) */
		if (udp)
			kh->w[1] |= GRO_KEY_UDP; /* (over IPv6 set already) */
		hash = ofl_flow_hash_ip(&g->tab, kh, h->l3 == 4);
	}
	hold_fill_plain_l4(g, idx, pkt, p, h, k, hash, udp, 0, sl1);
	g->rcache[rcache_slot(p)] = rcache_val(p, idx);
	return hold_link(g, idx, pkt, hash, h->payload_len, now);
}
/* A UDP datagram of the plain shape (core/parse.h ofl_parse_plain_udp():
 * its headers in the b0 bytes at p, total the frame's length) that udp.c's
 * gro_udp_receive() holds as a new flow when nothing of its flow is held,
 * checksum verified, with no tag, tunnel or fraglist in the way (the
 * caller's tests): its rules (gro_udp_new_ok()), within the byte bound.
 * Returns 1 with h filled as gro_udp_receive() fills it, else 0. */
static inline int gro_udp_plain_new(const struct ofl_gro *g, const uint8_t *p, uint32_t b0, uint32_t total,
                                    struct ofl_hdrs *h)
{
	if (!ofl_parse_plain_udp(p, b0, total, h) || !gro_udp_new_ok(&g->cfg, p + h->l4_off, total - h->l4_off))
		return 0;
	h->hdr_len = (uint16_t)(h->l4_off + 8u);
	h->payload_len = h->l3_end - h->hdr_len;
	h->l4_ok = 1;
	return g->held_bytes + h->payload_len <= g->cfg.max_held_bytes;
}

/* Does the full path give a plain UDP datagram straight to udp.c
 * (receive.c gro_receive(): UDP GRO on, no UDP tunnel port to look at
 * first; no fraglist, no DSA tag to decode, Ethernet input: full_only is 0
 * where the fast path runs)? */
static inline int gro_udp_plain_on(const struct ofl_gro *g)
{
	return g->cfg.udp && !gro_tunnel_on(g);
}

/* Hold it (the key with GRO_KEY_UDP): gro_hold_new()'s entry.  k NULL:
 * the key built in the entry and hashed (an IPv6 frame has 74 bytes or
 * more there, as plain_key() takes). */
static inline int gro_udp_hold_plain(struct ofl_gro *g, const struct ofl_pkt *pkt, const uint8_t *p,
                                     const struct ofl_hdrs *h, const struct ofl_flow_key *k, uint32_t hash,
                                     uint64_t now)
{
	return hold_plain_l4(g, pkt, p, h, k, hash, now, 1, 0);
}

/* (sl1: hold_fill_plain_l4()'s) */
static inline int gro_hold_plain(struct ofl_gro *g, const struct ofl_pkt *pkt, const uint8_t *p,
                                 const struct ofl_hdrs *h, const struct ofl_flow_key *k, uint32_t hash, uint64_t now,
                                 int sl1)
{
	return hold_plain_l4(g, pkt, p, h, k, hash, now, 0, sl1);
}

/* The fields of h a plain TCP hold takes (gro_hold_plain_tcp()) for a
 * frame of total bytes, its TCP header at l4 (34 IPv4, 54 IPv6), thl bytes. */
static inline OFL_ALWAYS_INLINE void plain_tcp_hdrs(struct ofl_hdrs *h, uint32_t l4, uint32_t thl, uint32_t total)
{
	h->l3 = l4 == 34 ? 4 : 6;
	h->l4_off = (uint16_t)l4;
	h->hdr_len = (uint16_t)(l4 + thl);
	h->l3_end = total;
	h->payload_len = total - l4 - thl;
}

/* gro_hold_plain() of a frame core/parse.h ofl_plain_tcp() found plain
 * (its TCP header at l4, thl bytes; total the frame's length) without the
 * parse filled: the fields of h the entry takes, nothing else. */
static inline OFL_ALWAYS_INLINE int gro_hold_plain_tcp(struct ofl_gro *g, const struct ofl_pkt *pkt,
                                                       const uint8_t *p, uint32_t l4, uint32_t thl,
                                                       uint32_t total, const struct ofl_flow_key *k,
                                                       uint32_t hash, uint64_t now)
{
	struct ofl_hdrs h;
	plain_tcp_hdrs(&h, l4, thl, total);
	return hold_plain_l4(g, pkt, p, &h, k, hash, now, 0, 0);
}

/* gro_hold_plain_tcp() when nothing of the frame's flow was looked up:
 * its key built in the entry it is held in (not copied there), and
 * hashed. */
static inline OFL_ALWAYS_INLINE int gro_hold_plain_new(struct ofl_gro *g, const struct ofl_pkt *pkt,
                                                       const uint8_t *p, uint32_t l4, uint32_t thl,
                                                       uint32_t total, uint64_t now)
{
	return gro_hold_plain_tcp(g, pkt, p, l4, thl, total, NULL, 0, now);
}

/*
 * A new flow held out of the flow table (newflows.c, the weave's fresh
 * mode: nothing else is held, and until the weave ends nothing looks a
 * flow up but by the weave's slots).  gro_hold_plain_new() without the
 * key, its hash, the table insert and the recent-flows cache: the entry
 * is counted in nlone (gro_nflows() counts it) and the caller sets
 * g->unidx to the IP version (4 or 6) of what it held so.  While unidx is
 * not 0:
 * - every held entry (the whole age list) is such an entry, plain TCP
 *   over IP version unidx (deliver.c completes them so), out of the table
 *   (tab.count 0); nlone counts them and there is no lone record;
 * - every entry point that may look a flow up settles them first, as it
 *   settles lone records when nlone is not 0 (group.c gro_lone_settle()
 *   calls gro_unidx_settle()); a full flush (deliver.c gro_flush_all())
 *   completes them without the table.
 * The flow limit (gro_nflows() below max_flows) and the byte bound are
 * the caller's, and so are the last entry (g->last) and st.held (the
 * weave's end sets and counts them: weave_slot.h weave_done()).  Returns the
 * entry.
 */
static inline OFL_ALWAYS_INLINE uint32_t hold_plain_unidx(struct ofl_gro *g, const struct ofl_pkt *pkt,
                                                          const uint8_t *p, uint32_t l4, uint32_t thl, uint32_t total,
                                                          uint64_t now, const int sl1)
{
	struct ofl_hdrs h;
	uint32_t idx = item_take(g);
	plain_tcp_hdrs(&h, l4, thl, total);
	hold_fill_plain_l4(g, idx, pkt, p, &h, NULL, 0, 0, 1, sl1); /* (hash: gro_unidx_settle()) */
	hold_age(g, idx, pkt, h.payload_len, now, 1);
	/* the merged packet's gso_type as deliver.c completes such an entry
	 * (merged here only by the weave: full segments with the first's
	 * flags, the ID never fixed, never a list) */
	g->items[idx].out_gso = (uint8_t)((l4 == 34 ? OFL_GSO_TCPV4 : OFL_GSO_TCPV6) |
	                                  (p[l4 + 13] & TCP_CWR ? OFL_GSO_TCP_ECN : 0));
	g->nlone++;
	return idx;
}

static inline OFL_ALWAYS_INLINE uint32_t gro_hold_plain_unidx(struct ofl_gro *g, const struct ofl_pkt *pkt,
                                                              const uint8_t *p, uint32_t l4, uint32_t thl,
                                                              uint32_t total, uint64_t now)
{
	return hold_plain_unidx(g, pkt, p, l4, thl, total, now, 0);
}

/* The fields gro_hold_plain_unidx() left out of entry it (hold_plain_kind(),
 * from its header copy; l3 g->unidx), which the weave and a full flush's
 * completion of a merged entry do not read: written before anything else
 * reads the entry (deliver.c flush_unidx() for a single segment,
 * gro_unidx_enter()).  (The weave's join of a flow through the
 * recent-flows cache may meet the entry before: it then reads the fields
 * an earlier use of the entry left, and takes its frames only where each
 * says what every such entry is, or stops.) */
static inline OFL_ALWAYS_INLINE void gro_unidx_kind(struct gro_item *it, unsigned l3)
{
	const uint32_t l4 = gro_unidx_l4(l3);
	hold_plain_kind(it, l3, l4, it->hdr_len, it->hdr + l4, 0);
}

/* Entry it, held by gro_hold_plain_unidx(), made what gro_hold_plain_new()
 * holds (but the key, its hash, the table and the cache: newflows.c
 * gro_unidx_settle()): its fields (gro_unidx_kind()), and its place in the
 * age order (the next hold after those before it: gro_unidx_settle() takes
 * them in the order they were held, none held since). */
static inline void gro_unidx_enter(struct ofl_gro *g, struct gro_item *it)
{
	gro_unidx_kind(it, g->unidx);
	it->age_seq = g->hold_seq++;
}

/* A frame of the plain TCP shape over IP version l3 (its TCP header thl
 * bytes, total the frame's length) held out of the table as a new flow
 * that a train goes on with (burst_first.c gro_first_hold(), renew.c), as
 * gro_hold_plain_unidx() holds it (the flow limit and byte bound the
 * caller's) with the fields a train and a completion read written too
 * (gro_unidx_kind()), and unidx set: until the entries are settled, a
 * completion takes them out of no table (deliver.c gro_complete_out()).
 * sl1: hold_fill_plain_l4()'s.  Returns the entry. */
static inline OFL_ALWAYS_INLINE uint32_t gro_hold_plain_out(struct ofl_gro *g, const struct ofl_pkt *pkt,
                                                            const uint8_t *p, unsigned l3, uint32_t thl,
                                                            uint32_t total, uint64_t now, const int sl1)
{
	const uint32_t idx = hold_plain_unidx(g, pkt, p, gro_unidx_l4(l3), thl, total, now, sl1);
	/* (the last entry and st.held: the unidx hold leaves them to its
	 * caller) */
	g->last = idx;
	g->st.held++;
	gro_unidx_kind(&g->items[idx], l3);
	g->unidx = (uint8_t)l3;
	return idx;
}

/* newflows.c: the entries held by gro_hold_plain_unidx() keyed, hashed,
 * put in the table and the recent-flows cache (as gro_hold_plain_new()
 * would have), in the order they were held; nlone and unidx 0. */
void gro_unidx_settle(struct ofl_gro *g);

#endif
