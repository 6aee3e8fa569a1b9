/*
 * group.c - stage 2: a burst grouped by flow, and the frames alone in their
 * flow held as lone records instead of flow entries.
 *
 * With flush_timeout_ns 0 a frame that is held and meets no other frame of
 * its flow before the poll ends leaves at poll end as a GRO packet of one
 * segment (its own bytes).  When a burst arrives with nothing held, the
 * frames alone in their flow in the burst are such frames unless a later
 * call brings their flow: each is held as a lone record, its output record
 * written at once, with no entry, no flow key, no table insert and no
 * completion.  A lone record is a held packet in every other respect (the
 * held and byte counters, the flow limits, its place in the age order), so
 * what leaves is what an entry would have delivered:
 *   - a flush of everything (poll end, ofl_gro_flush, destroy) delivers
 *     entries and lone records in the order they were held (deliver.c);
 *   - any other call first turns the lone records into entries
 *     (gro_lone_settle()), in their place in the age list, so that a later
 *     frame of their flow, a flush by age or a full table finds them.
 *
 * The grouping must never split a flow: two frames that the full path gives
 * the same flow key (receive.c, build_key()) must land in one group.  A
 * group is a hash of the IP addresses and the TCP ports wherever the full
 * parser finds them, for every frame that could share a flow key with a
 * plain frame (a lone record is always plain: core/parse.h,
 * ofl_parse_plain(); or a tunnel frame of the shape tunfast.c parses, whose
 * group is its inner flow's, and then every UDP frame to a tunnel port of
 * another shape leaves the burst ungrouped); frames that never can (a VLAN tag in the frame or
 * from the NIC, not IP, not TCP, IPv6 extension headers) join no group.  A
 * frame whose flow cannot be told from its first buffer leaves the whole
 * burst ungrouped.  Different flows in one group only cost the bypass.
 */
#include <stddef.h>

#include "gro/dsa_hold.h"
#include "gro/group.h"
#include "gro/hold.h"
#include "gro/lone_bufs.h"
#include "gro/tunfast.h"
#include "gro/tunnel.h"

/* A UDP frame while tunnels are on (its UDP header at o): it may share a
 * flow key with a lone record through a tunnel (tunfast.c) when it goes to
 * a tunnel port, so the burst is not grouped then (UINT32_MAX); else no
 * group (0). */
static uint32_t udp_group(const struct ofl_gro *g, const uint8_t *p, uint32_t b0, uint32_t o)
{
	if (b0 < o + 4)
		return UINT32_MAX;
	return gro_tun_port(g, ofl_get16(p + o + 2)) ? UINT32_MAX : 0;
}

/* The group of a frame that did not parse plain: a gro_group_hash(), 0 for
 * none, UINT32_MAX when the burst cannot be grouped.  A UDP or tunnel
 * layer whose flows can be held adds its frames here. */
uint32_t gro_group_of(const struct ofl_gro *g, const struct ofl_pkt *pkt)
{
	const uint8_t *p;
	uint32_t b0, o, unknown;
	if (!pkt->bufs || pkt->nbufs == 0 || (pkt->flags & OFL_PKT_F_VLAN))
		return 0;
	b0 = pkt->bufs[0].len;
	p = pkt->bufs[0].data;
	/* a header past the first buffer: the full path gathers it */
	unknown = pkt->nbufs > 1 ? UINT32_MAX : 0;
	if (b0 < 14 || !p)
		return unknown;
	if (ld16(p + 12) == ld16((const uint8_t *)"\x08\x00")) {
		if (b0 < 34)
			return unknown;
		if (p[23] == 17 && gro_tunnel_on(g))
			return udp_group(g, p, b0, 14u + (p[14] & 0xfu) * 4u);
		if ((p[14] >> 4) != 4 || (p[14] & 0xf) < 5 || (p[23] != 6 && !(p[23] == 17 && g->cfg.udp)))
			return 0; /* malformed, or not TCP nor UDP that udp.c merges: never a flow key */
		o = 14u + (p[14] & 0xfu) * 4u;
		if (b0 < o + 4)
			return unknown;
		return gro_group_hash(gro_addr_v4(p), ld32(p + o));
	}
	if (ld16(p + 12) == ld16((const uint8_t *)"\x86\xdd")) {
		if (b0 < 58)
			return unknown;
		if (p[20] == 44)
			return UINT32_MAX; /* a fragment header first: no extension bytes in the key */
		if (p[20] != 6 && gro_tunnel_on(g)) /* UDP, or extension headers before it */
			return p[20] == 17 ? udp_group(g, p, b0, 54) : UINT32_MAX;
		if (p[20] != 6 && !(p[20] == 17 && g->cfg.udp))
			return 0; /* not TCP nor merged UDP, or extension headers: another key */
		return gro_group_hash(gro_addr_v6(p), ld32(p + 54));
	}
	return 0; /* not IP, or VLAN tags (in the key) */
}

/* The header length of a lone record of a TCP segment (its TCP header at
 * th, len payload bytes), or 1 when the fast path passes it on rather than
 * holds it (no payload, or PSH, FIN, URG, RST, SYN; group.h). */
static inline uint32_t pass_mark(uint32_t hl, const uint8_t *th, uint32_t len)
{
	return !len || (th[13] & TCP_NO_RUN) ? 1u : hl;
}

/* A frame that did not parse plain, tunnels on: its record written
 * (gro_lone_write()) when it is the tunnel frame tunfast.c holds as a lone
 * record, its bytes added as group_parse() adds them; its group. */
static inline uint32_t tun_group(const struct ofl_gro *g, struct gro_burst *bs, unsigned i,
                                                   const struct ofl_pkt *pkt, uint64_t now, uint32_t *bytes,
                                                   uint64_t *rx, uint32_t *bad)
{
	const uint8_t *p = pkt->bufs[0].data;
	uint32_t b0 = pkt->bufs[0].len, ports;
	struct gro_brec r;
	uint64_t addr;
	if (gro_tun_lone_parse(g, p, b0, &r, &addr, &ports)) {
		uint32_t m = pass_mark(r.hl, p + r.l4, r.len);
		bs->hl[i] = (uint8_t)m;
		*bad += m <= 1;
		gro_lone_write(bs, i, pkt, p, b0, r.hl, gro_l3l4_word(r.l3, r.l4), r.tun, now, 1);
		*bytes += r.len;
		*rx += b0;
		return gro_group_hash(addr, ports);
	}
	bs->hl[i] = 0;
	*bad += 1;
	return gro_group_of(g, pkt);
}

/* A UDP datagram of the plain shape (its UDP header at uh, l4_len bytes
 * from there to the frame's end, checksum verified by the NIC) that udp.c
 * would hold as a new flow: a destination port that may merge, a nonzero
 * checksum, a UDP length above 8 and equal to l4_len (udp.h).  Any other
 * datagram goes the full path, which applies the rule. */
static inline int udp_lone_ok(const struct ofl_gro *g, const uint8_t *uh, uint32_t l4_len)
{
	return gro_udp_new_ok(&g->cfg, uh, l4_len);
}

/* The TCP header of a plain frame (b0 bytes at p) at l4 (a constant where
 * it is inlined: 34 or 54): 0 when it is not the plain shape
 * (ofl_plain_tcp_at()); else its record's header length in *hl and
 * pass_mark() of it, *bad counting a frame passed on. */
static inline uint32_t lone_tcp(const uint8_t *p, uint32_t b0, uint32_t l4, uint32_t *hl, uint32_t *bad)
{
	uint32_t thl = ofl_plain_tcp_at(p, b0, b0, l4), m;
	if (!thl)
		return 0;
	*hl = l4 + thl;
	m = pass_mark(l4 + thl, p + l4, b0 - l4 - thl);
	*bad += m == 1;
	return m;
}

/* The UDP header of a plain frame at l4 (as lone_tcp()): its record's
 * header length (l4 + 8) when udp.c would hold it as a new flow
 * (udp_lone_ok()), else 0. */
static inline uint32_t lone_udp(const struct ofl_gro *g, const uint8_t *p, uint32_t b0, uint32_t l4, uint32_t *hl)
{
	if (l4 + 8u > b0 || !udp_lone_ok(g, p + l4, b0 - l4))
		return 0;
	return *hl = l4 + 8u;
}

/* Frame i, when it is the plain shape the fast path holds (one buffer,
 * checksum verified, no hardware VLAN; TCP, or with UDP GRO on and no
 * tunnel port a UDP datagram udp.c would hold, whose record has hl = l4 +
 * 8: a TCP header is 20 bytes or more): its record written (gro_lone_write())
 * and bs->hl[i] its header length, 1 for a TCP segment the fast path
 * passes on; else bs->hl[i] 0 (alt: 17 when a UDP datagram may be a lone
 * record, else 6).  The plain shape is core/parse.h's ofl_plain_ip() and
 * ofl_plain_tcp_at(), taken here by IP version so that the transport
 * header's offset is a constant.  Its payload bytes added to *bytes and
 * its frame's to *rx when it parsed plain; *bad counts it when it may not
 * be held (bs->hl[i] 0 or 1).  Returns its group. */
static inline uint32_t group_parse(const struct ofl_gro *g, struct gro_burst *bs, unsigned i,
                                                     const struct ofl_pkt *pkt, uint64_t now, unsigned alt,
                                                     uint32_t *bytes, uint64_t *rx, uint32_t *bad)
{
	const uint8_t *p;
	uint32_t b0, hl, m, offs, h, l4;
	uint64_t addr;
	if (!gro_pkt_plain_meta(pkt) || !pkt->bufs)
		goto other;
	p = pkt->bufs[0].data;
	b0 = pkt->bufs[0].len;
	if (!p || b0 > 0xffffu || b0 < 34u)
		goto other;
	if (ofl_plain_is_ip4(p)) {
		/* the protocol before the header is summed */
		if (p[23] == 6) {
			if (!ofl_plain_ip4_rest(p + 14, b0) || !(m = lone_tcp(p, b0, 34, &hl, bad)))
				goto not_plain;
		} else if (p[23] != alt || !ofl_plain_ip4_rest(p + 14, b0) || !(m = lone_udp(g, p, b0, 34, &hl))) {
			goto not_plain;
		}
		offs = gro_l3l4_word(14, 34);
		h = gro_group_hash(gro_addr_v4(p), ld32(p + 34));
	} else if (ofl_plain_is_ip6(p, b0) && (p[20] == 6 || p[20] == alt)) {
		if (p[20] == 6 ? !(m = lone_tcp(p, b0, 54, &hl, bad)) : !(m = lone_udp(g, p, b0, 54, &hl)))
			goto not_plain;
		offs = gro_l3l4_word(14, 54);
		h = gro_group_hash(gro_addr_v6(p), ld32(p + 54));
	} else {
		goto not_plain;
	}
	bs->hl[i] = (uint8_t)m;
	gro_lone_write(bs, i, pkt, p, b0, hl, offs, 0, now, 1);
	*bytes += b0 - hl;
	*rx += b0;
	return h;
not_plain:
	if (gro_tunnel_on(g))
		return tun_group(g, bs, i, pkt, now, bytes, rx, bad);
other:
	if (pkt->nbufs > 1 && (hl = gro_lone_bufs_parse(g, bs, i, pkt, &b0, &l4, &addr)) != 0) {
		/* header split (lone_bufs.h): as above, b0 the frame's length */
		p = pkt->bufs[0].data;
		bs->hl[i] = (uint8_t)hl;
		gro_lone_write(bs, i, pkt, p, b0, hl, gro_l3l4_word(14, l4), 0, now, 1);
		*bytes += b0 - hl;
		*rx += b0;
		return gro_group_hash(addr, ld32(p + l4));
	}
	bs->hl[i] = 0;
	*bad += 1;
	return gro_group_of(g, pkt);
}

/* Every frame of a burst of n (nothing held) alone in its flow and held
 * as a lone record, bytes payload bytes and rx frame bytes in all, when
 * the limits allow it (as gro_lone_run() would take them one by one, none
 * making room first): 1, the counters added; else 0.  Their hold order is
 * not written (bs->seq_all: record k was held as seq_base + k). */
static inline OFL_ALWAYS_INLINE int lone_take_all(struct ofl_gro *g, unsigned n, uint32_t bytes,
                                                  uint64_t rx)
{
	struct gro_burst *bs = g->bs;
	uint32_t seq0 = g->hold_seq;
	if ((uint64_t)g->held_bytes + bytes > g->cfg.max_held_bytes || g->tab.count + n > g->cfg.max_flows)
		return 0;
	bs->seq_all = 1;
	bs->seq_base = seq0;
	g->st.rx_pkts += n;
	g->st.rx_bytes += rx;
	g->st.held += n;
	bs->bytes += bytes;
	g->held_bytes += bytes;
	g->hold_seq = seq0 + n;
	g->nlone = n;
	return 1;
}

/* The end of a grouped burst of n frames (bad, dup, bytes and rx as
 * gro_group() counts them): gro_group()'s return. */
static inline OFL_ALWAYS_INLINE int group_end(struct ofl_gro *g, unsigned n, uint32_t bad, uint32_t dup, uint32_t bytes,
                            uint64_t rx)
{
	g->bs->hl[n] = 0; /* the end of the last run (group.h) */
	g->bs->mtop = n;
	/* (every frame may be held, none of another's group: each is alone
	 * and was added to bytes and rx) */
	if (!bad && !dup && lone_take_all(g, n, bytes, rx))
		return 2;
	return rx != 0; /* (a frame parsed plain) */
}

int gro_group_end(struct ofl_gro *g, unsigned n, uint32_t dup, uint32_t bytes, uint64_t rx)
{
	return group_end(g, n, 0, dup, bytes, rx);
}

/* Group the burst (n <= GRO_BURST_MAX, no lone record held): bs->hl[i] is
 * not 0 when frame i is alone in its group and parsed plain, and bs->hl[n]
 * is 0.  Returns 0 when no frame parsed plain (or the burst cannot be
 * grouped), so that the burst goes the usual way; 2 when every frame was
 * alone, parsed plain and held (lone_take_all()); else 1.  A burst whose
 * first frame is in several buffers is grouped by group_bufs.c's loop
 * instead (the same result). */
static OFL_NOINLINE int group_all(struct ofl_gro *g, const struct ofl_pkt *pkts, unsigned n, uint64_t now)
{
	struct gro_burst *bs;
	uint32_t dup = 0, bad = 0, bytes = 0;
	/* the second protocol a lone record may carry: UDP with UDP GRO on
	 * and no tunnel port (then udp.c holds the datagram) */
	unsigned alt = g->cfg.udp && !gro_tunnel_on(g) ? 17u : 6u;
	uint64_t rx = 0, genhi;
	unsigned i, ahead = n > GRO_AHEAD ? n - GRO_AHEAD : 0; /* frames with one GRO_AHEAD after */
	bs = g->bs;
	genhi = gro_group_gen(bs, 1);

	for (i = 0; i < n; i++) {
		uint32_t h;
#if defined(__GNUC__)
		/* the first touch of a header: start it a few frames ahead (in
		 * the loop: GCC takes a function around the prefetch for pure
		 * and drops its call) */
		if (i < ahead && pkts[i + GRO_AHEAD].nbufs && pkts[i + GRO_AHEAD].bufs)
			__builtin_prefetch(pkts[i + GRO_AHEAD].bufs[0].data);
#endif
		h = group_parse(g, bs, i, &pkts[i], now, alt, &bytes, &rx, &bad);
		if (h - 1u >= UINT32_MAX - 1u) {
			if (h) {
				bs->mtop = i + 1; /* (lone_bufs.h: the slots to reset) */
				return 0; /* UINT32_MAX */
			}
			continue;
		}
		if (!gro_group_enter(bs, i, h, genhi)) {
			if (GRO_GROUP_GIVES_UP(++dup, i)) {
				bs->mtop = i + 1;
				return 0;
			}
			continue;
		}
	}
	return group_end(g, n, bad, dup, bytes, rx);
}

int gro_group(struct ofl_gro *g, const struct ofl_pkt *pkts, unsigned n, uint64_t now)
{
	if (OFL_UNLIKELY(pkts[0].nbufs > 1)) {
		/* header-split frames: their own loop (group_bufs.c), which
		 * leaves the burst to group_all() (from its start, in a new
		 * generation) when a frame is of another shape */
		int r = gro_group_bufs(g, pkts, n, now);
		if (r >= 0)
			return r;
	}
	return group_all(g, pkts, n, now);
}

/* Queue lone record k for delivery (a flush by reason). */
void gro_lone_push(struct ofl_gro *g, uint32_t k, unsigned reason)
{
	g->held_bytes -= g->bs->out[k].seg_size;
	g->bs->bytes -= g->bs->out[k].seg_size;
	g->st.flush[reason]++;
	g->outs[g->pend_n] = g->bs->out[k];
	gro_pend_commit(g, 1, 1);
}

/* Every lone record delivered straight from its place (a flush by reason,
 * with nothing else held or queued): lists of normal_batch, the last one
 * shorter, as gro_pend_commit() cuts them. */
void gro_lone_deliver(struct ofl_gro *g, unsigned reason)
{
	uint32_t k, n = g->nlone, b = g->cfg.normal_batch;
	g->nlone = 0;
	g->held_bytes -= g->bs->bytes;
	g->bs->bytes = 0;
	g->st.flush[reason] += n;
	g->st.out_pkts += n;
	g->st.out_segs += n;
	g->st.out_gro_pkts += n;
	for (k = 0; k < n; k += b) {
		uint32_t m = n - k < b ? n - k : b;
		g->st.out_lists++;
		g->in_cb = 1;
		g->cfg.deliver(g->cfg.user, g->bs->out + k, m);
		g->in_cb = 0;
	}
}

/* A UDP lone record o (its frame pkt) made the entry udp.c would have
 * held for it (gro_udp_receive(): the parse's UDP fields, the key with the
 * UDP bit, gro_hold_new()'s fill): its index in *idx; returns its hash. */
static uint32_t lone_udp_fill(struct ofl_gro *g, const struct ofl_pkt *pkt, const struct ofl_gro_out *o,
                              struct ofl_flow_key *key, uint32_t *idx)
{
	struct ofl_view v = {o->hdr, o->len};
	struct ofl_hdrs h;
	struct rx_tag tag;
	uint32_t hash;
	memset(&tag, 0, sizeof(tag));
	/* it parsed plain when it was held: it does now */
	ofl_parse_plain_udp(o->hdr, o->len, o->len, &h);
	h.hdr_len = (uint16_t)(h.l4_off + 8u);
	h.payload_len = h.l3_end - h.hdr_len;
	h.l4_ok = 1;
	/* (not plain_key(): it takes no IPv6 frame under 74 bytes) */
	gro_flow_key(pkt, o->hdr, o->hdr, &h, &tag, key);
	key->w[1] |= GRO_KEY_UDP;
	hash = ofl_flow_hash(&g->tab, key);
	*idx = item_alloc(g);
	gro_hold_fill(g, *idx, pkt, &v, &h, &tag, key, hash);
	return hash;
}

/* Turn the lone records into entries, each in its place in the age list
 * (a call other than a full flush follows: it may look for their flows);
 * with unidx, put the entries out of the table in it. */
void gro_lone_settle(struct ofl_gro *g)
{
	struct gro_burst *bs = g->bs;
	uint32_t k, at = g->age_head;
	if (g->unidx) {
		gro_unidx_settle(g); /* not lone records: entries out of the table (hold.h) */
		return;
	}
	for (k = 0; k < g->nlone; k++) {
		const struct ofl_gro_out *o = &bs->out[k];
		struct ofl_buf b = {o->hdr, o->len}, bufs[GRO_LONE_NB];
		struct ofl_pkt pkt;
		struct ofl_hdrs h = {0};
		struct ofl_flow_key key = {{0}};
		struct gro_item *it;
		uint32_t idx, hash;
		memset(&pkt, 0, sizeof(pkt));
		pkt.bufs = &b;
		pkt.nbufs = 1;
		pkt.csum_status = OFL_CSUM_UNNECESSARY;
		pkt.flags = (uint16_t)(o->flags & OFL_GRO_OUT_F_HASH ? OFL_PKT_F_HASH : 0);
		pkt.vlan_tci = o->vlan_tci;
		pkt.rx_hash = o->rx_hash;
		pkt.cookie = bs->ck[k];
		if (o->dsa) {
			/* behind a DSA tag (dsa_group.c): from its tagged frame */
			idx = gro_tag_lone_fill(g, k, &pkt, &b);
			hash = g->items[idx].hash;
		} else if (OFL_GRO_OUT_TUN_TYPE(o->flags)) {
			/* through a tunnel (tunfast.c) */
			idx = gro_tunnel_fill_lone(g, &pkt, OFL_GRO_OUT_TUN_TYPE(o->flags));
			hash = g->items[idx].hash;
		} else if (o->hdr_len == o->l4_off + 8u) {
			/* a UDP datagram (group_parse(): hl = l4 + 8): the entry udp.c
			 * holds, its key with the UDP bit */
			hash = lone_udp_fill(g, &pkt, o, &key, &idx);
		} else {
			/* it parsed plain when it was held: it does now (its
			 * buffers rebuilt when several: lone_bufs.h) */
			uint32_t b0 = o->slices == &bs->sl[k] ? o->len : gro_lone_bufs_of(o, &pkt, bufs);
			ofl_parse_plain(o->hdr, b0, o->len, &h);
			hash = plain_key_hash(g, o->hdr, b0, &key);
			idx = item_alloc(g);
			hold_fill_plain(g, idx, &pkt, o->hdr, &h, &key, hash);
		}
		it = &g->items[idx];
		hold_pkt(g, idx, &pkt, o->first_ns);
		it->age_seq = bs->seq_all ? bs->seq_base + k : bs->seq[k];
		/* before the first entry held after it */
		while (at != GRO_NONE && seq_before(g->items[at].age_seq, it->age_seq))
			at = g->items[at].next;
		it->next = at;
		it->prev = at == GRO_NONE ? g->age_tail : g->items[at].prev;
		if (it->prev == GRO_NONE)
			g->age_head = idx;
		else
			g->items[it->prev].next = idx;
		if (at == GRO_NONE)
			g->age_tail = idx;
		else
			g->items[at].prev = idx;
		ofl_flowtab_insert(&g->tab, hash, idx);
	}
	g->nlone = 0;
	bs->bytes = 0;
}

/* The constant fields of the lone records' output records. */
void gro_burst_init(struct gro_burst *bs)
{
	uint32_t k;
	memset(bs, 0, sizeof(*bs));
	for (k = 0; k < GRO_BURST_MAX; k++) {
		struct ofl_gro_out *o = &bs->out[k];
		o->nslices = 1;
		o->slices = &bs->sl[k];
		o->seg_count = 1;
		o->cookies = &bs->ck[k];
		o->ncookies = 1;
		o->l3_off = 14;
	}
}
