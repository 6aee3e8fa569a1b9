/*
 * stage.h - what the GRO stages share: the frame's DSA tag, unaligned loads,
 * the recent-flows cache, and the functions one stage calls in another
 * (receive.c, merge.c, hold.c, deliver.c, create.c).
 */
#ifndef OFL_GRO_STAGE_H
#define OFL_GRO_STAGE_H

#include <stddef.h>
#include <string.h>

#include "gro/gro_int.h"

/* What the DSA tag of the frame in hand said (GRO through the tag). */
struct rx_tag {
	int has;
	struct ofl_dsa_meta meta;
	struct ofl_dsa_view view;
};

static inline uint64_t ld64(const uint8_t *p)
{
	uint64_t v;
	memcpy(&v, p, 8);
	return v;
}
static inline uint32_t ld32(const uint8_t *p)
{
	uint32_t v;
	memcpy(&v, p, 4);
	return v;
}
static inline uint16_t ld16(const uint8_t *p)
{
	uint16_t v;
	memcpy(&v, p, 2);
	return v;
}


/* Start the cache miss of the first buffer of frame i + GRO_AHEAD of a
 * burst of n (of the last frame near the end), as poll-mode drivers do:
 * the first touch of a received header misses the cache. */
static inline void gro_prefetch_ahead(const struct ofl_pkt *pkts, unsigned i, unsigned n)
{
#if defined(__GNUC__)
	const struct ofl_pkt *a = &pkts[i + GRO_AHEAD < n ? i + GRO_AHEAD : n - 1];
	if (a->bufs && a->nbufs)
		__builtin_prefetch(a->bufs->data);
#else
	(void)pkts;
	(void)i;
	(void)n;
#endif
}

/* The recent-flows cache: a slot per frame from bytes 26-33 (IPv4
 * addresses, part of the IPv6 source address) and the TCP ports where a
 * plain header has them (bytes 34-37 of IPv4, 54-57 of IPv6), naming the
 * entry last held or merged for them.  Only a hint: try_predict() checks
 * the entry is held and compares the whole header.  The frame has at
 * least 38 bytes, and 58 when its EtherType is IPv6 (rcache_room()). */
static inline uint32_t rcache_ports(const uint8_t *p)
{
	return ld16(p + 12) == ld16((const uint8_t *)"\x86\xdd") ? ld32(p + 54) : ld32(p + 34);
}
static inline int rcache_room(const uint8_t *p, uint32_t len)
{
	return len >= 58 || (len >= 38 && ld16(p + 12) != ld16((const uint8_t *)"\x86\xdd"));
}
/* x hashed to a slot of a table of 2^bits (the top bits of its product
 * with 2^32 over the golden ratio): the cache's slot and the weave's
 * (weave_slot.h weave_slot()). */
static inline uint32_t gro_hash_bits(uint32_t x, unsigned bits)
{
	return (x * 0x9e3779b1u) >> (32 - bits);
}
static inline uint32_t rcache_slot(const uint8_t *p)
{
	return gro_hash_bits(ld32(p + 26) ^ ld32(p + 30) ^ rcache_ports(p), GRO_RCACHE_BITS);
}

/* A cache value: the entry and the frame's TCP ports (rcache_ports()), so
 * that most misses are seen without touching the entry. */
static inline uint64_t rcache_val(const uint8_t *p, uint32_t idx)
{
	return (uint64_t)rcache_ports(p) << 32 | idx;
}

/* Where the header copy of an entry starts, relative to the frame: the
 * frame itself, or (untagged mode) the untagged frame. */
static inline int32_t hdr_shift(const struct ofl_gro *g, const struct ofl_hdrs *h, const struct rx_tag *tag)
{
	if (!tag->has || g->cfg.dsa_keep_tag)
		return 0;
	return (int32_t)h->et_off - (int32_t)tag->view.hdr_len;
}

/* What the fast path (receive.c) learnt of a frame it did not merge, for
 * the full path to reuse: the flow key (built when the frame looked plain:
 * hold.h plain_key()), its hash and table lookup (skipped while nothing is
 * held), and the whole parse when the frame is the plain shape
 * (ofl_parse_plain()). */
struct fast_key {
	uint8_t valid;  /* k holds the key build_key() would build */
	uint8_t hashed; /* hash is k's hash */
	uint8_t looked; /* idx is k's entry (or GRO_NONE) in the table */
	uint8_t plain;  /* h holds the parse */
	uint32_t hash, idx;
	struct ofl_flow_key k;
	struct ofl_hdrs h;
};

/* A segment of len payload bytes merged into entry idx (its slices
 * recorded): its cookie, the entry's counts, the context's. */
static inline void gro_merge_count(struct ofl_gro *g, uint32_t idx, const struct ofl_pkt *pkt, uint32_t len)
{
	struct gro_item *it = &g->items[idx];
	g->cookies[(size_t)idx * g->cfg.max_segs + it->nsegs] = pkt->cookie;
	it->nsegs++;
	it->payload += len;
	it->l3_len += len;
	g->held_bytes += len;
	g->last = idx;
	g->st.merged++;
}

/* Flows held: entries in the table and lone records (group.c). */
static inline uint32_t gro_nflows(const struct ofl_gro *g)
{
	return g->tab.count + g->nlone;
}

/* Is hold a before hold b (wrap-safe; held entries are never 2^31 holds apart)? */
static inline int seq_before(uint32_t a, uint32_t b)
{
	return (int32_t)(a - b) < 0;
}

/* group.c: stage 2, the burst grouped by flow; lone records */
int gro_group(struct ofl_gro *g, const struct ofl_pkt *pkts, unsigned n, uint64_t now);
void gro_lone_settle(struct ofl_gro *g);
void gro_lone_push(struct ofl_gro *g, uint32_t k, unsigned reason);
void gro_lone_deliver(struct ofl_gro *g, unsigned reason);
void gro_burst_init(struct gro_burst *bs);

/* deliver.c: completion, the delivery list, flushes */
void gro_deliver_pending(struct ofl_gro *g);
/* The output record g->outs[g->pend_n] is written: queue it (segs segments;
 * gro: a GRO packet).  A list of normal_batch segments goes out. */
static inline void gro_pend_commit(struct ofl_gro *g, uint32_t segs, unsigned gro)
{
	g->pend_n++;
	g->pend_segs += segs;
	g->pend_gro += gro;
	if (g->pend_segs >= g->cfg.normal_batch)
		gro_deliver_pending(g);
}
void gro_pend_push(struct ofl_gro *g, uint32_t idx);
/* a full flush of the entries held out of the table (gro_int.h unidx: the
 * IP version), none in it, no lone record (deliver.c gro_flush_all()):
 * flush_unidx.c, its single segments through deliver.c; returns 0 (the
 * poll end's result: a tail call) */
int gro_flush_unidx(struct ofl_gro *g, unsigned reason);
void gro_flush_unidx_lone(struct ofl_gro *g, uint32_t idx, unsigned l3);
void gro_complete(struct ofl_gro *g, uint32_t idx, unsigned reason);
/* every entry and record delivered (deliver.c); returns 0 (the poll end's
 * result: a tail call) */
int gro_flush_all(struct ofl_gro *g, unsigned reason);
void gro_end_train(struct ofl_gro *g, uint32_t idx, uint8_t flags);
/* the same two for an entry held out of the table (hold.h
 * gro_hold_plain_out()), plain TCP over IP version l3 */
void gro_complete_out(struct ofl_gro *g, uint32_t idx, unsigned reason, unsigned l3);
void gro_end_train_out(struct ofl_gro *g, uint32_t idx, uint8_t flags, unsigned l3);
/* nbufs, csum_status and flags of a struct ofl_pkt as one word (host
 * order), to test the three at once whatever the byte order. */
_Static_assert(offsetof(struct ofl_pkt, csum_status) == offsetof(struct ofl_pkt, nbufs) + 2 &&
                   offsetof(struct ofl_pkt, flags) == offsetof(struct ofl_pkt, nbufs) + 3,
               "nbufs, csum_status, flags: four bytes in a row");
static inline uint32_t gro_pkt_word(const struct ofl_pkt *pkt)
{
	uint32_t w;
	memcpy(&w, (const uint8_t *)pkt + offsetof(struct ofl_pkt, nbufs), 4);
	return w;
}
static inline uint32_t gro_pkt_word_of(uint16_t nbufs, uint8_t csum_status, uint8_t flags)
{
	struct ofl_pkt t;
	t.nbufs = nbufs;
	t.csum_status = csum_status;
	t.flags = flags;
	return gro_pkt_word(&t);
}
/* The packet fields of the plain shape the fast path, the lone records,
 * the pass-on run and the trains take: one buffer, checksum verified, no
 * hardware VLAN. */
#define GRO_PKT_PLAIN_MASK gro_pkt_word_of(0xffff, 0xff, OFL_PKT_F_VLAN)
#define GRO_PKT_PLAIN_WANT gro_pkt_word_of(1, OFL_CSUM_UNNECESSARY, 0)
static inline int gro_pkt_plain_meta(const struct ofl_pkt *pkt)
{
	return (gro_pkt_word(pkt) & GRO_PKT_PLAIN_MASK) == GRO_PKT_PLAIN_WANT;
}

/* hold.c: slices, passing a frame on, holding a new flow */
int gro_add_slices(struct ofl_gro *g, uint32_t idx, const struct ofl_pkt *pkt, uint32_t off, uint32_t len,
                   uint16_t seg);
uint32_t gro_count_slices(const struct ofl_pkt *pkt, uint32_t off, uint32_t len);
int gro_pass_normal(struct ofl_gro *g, const struct ofl_pkt *pkt, uint32_t total, unsigned why, uint64_t now,
                    const struct rx_tag *tag);
void gro_make_room(struct ofl_gro *g, uint32_t payload);
int gro_hold_new(struct ofl_gro *g, const struct ofl_pkt *pkt, const struct ofl_view *v, const struct ofl_hdrs *h,
                 const struct rx_tag *tag, const struct ofl_flow_key *k, uint32_t hash, uint64_t now);
/* gro_hold_new()'s middle: entry idx (allocated) filled from the frame, not
 * linked anywhere (a lone record settled: group.c, tunnel.c) */
void gro_hold_fill(struct ofl_gro *g, uint32_t idx, const struct ofl_pkt *pkt, const struct ofl_view *v,
                   const struct ofl_hdrs *h, const struct rx_tag *tag, const struct ofl_flow_key *k, uint32_t hash);
/* predict.c: header prediction's end for several buffers */
int gro_predict_bufs(struct ofl_gro *g, uint32_t idx, const struct ofl_pkt *pkt, const uint8_t *ip, uint32_t len,
                     uint8_t flags);
/* the same for a UDP flow (GRO_FAST_UDP: udp.h gro_udp_merged()) */
int gro_predict_bufs_udp(struct ofl_gro *g, uint32_t idx, const struct ofl_pkt *pkt, const uint8_t *ip,
                         uint32_t len);
/* (now: the time a new entry of the flow is held at, when the train holds
 * the frame its full entry left: renew.c gro_train_renew()) */
unsigned gro_train(struct ofl_gro *g, uint32_t idx, const struct ofl_pkt *pkts, unsigned i, unsigned n,
                   uint64_t now);
/* renew.c: the frame a train left when its entry idx filled up, held
 * as the flow's next entry; GRO_NONE: not held.  nosl: a frame of several
 * buffers whose slices the caller writes (one slice held in their place) */
uint32_t gro_train_renew(struct ofl_gro *g, uint32_t idx, const struct ofl_pkt *pkt, uint64_t now, int nosl);
/* ... of a UDP flow */
uint32_t gro_train_renew_udp(struct ofl_gro *g, uint32_t idx, const struct ofl_pkt *pkt, uint64_t now);
/* ... TCP over IP version l3, entry idx held out of the table, and the
 * next one so (hold.h gro_hold_plain_out()); a frame of one buffer */
uint32_t gro_train_renew_out(struct ofl_gro *g, uint32_t idx, const struct ofl_pkt *pkt, uint64_t now, unsigned l3);
/* ... a frame of several buffers (after burst_first.c gro_first_hold_bufs()); nosl
 * as gro_train_renew()'s */
uint32_t gro_train_renew_out_bufs(struct ofl_gro *g, uint32_t idx, const struct ofl_pkt *pkt, uint64_t now,
                                  unsigned l3, int nosl);
/* gro_train() of an entry just held (GRO_FAST_PLAIN or GRO_FAST_UDP, no
 * tag) from one frame of one buffer, the one before pkts[i] */
unsigned gro_train_held(struct ofl_gro *g, uint32_t idx, const struct ofl_pkt *pkts, unsigned i, unsigned n,
                        uint64_t now);
/* ... from one frame of several buffers (burst_first.c gro_first_hold_bufs()) */
unsigned gro_train_held_bufs(struct ofl_gro *g, uint32_t idx, const struct ofl_pkt *pkts, unsigned i, unsigned n,
                             uint64_t now);
/* interleaved flows: the frames from i on that predict into the held
 * entries the recent-flows cache names, without a train (l3: 4 or 6) */
unsigned gro_weave(struct ofl_gro *g, const struct ofl_pkt *pkts, unsigned i, unsigned n, unsigned l3);
/* receive.c: one frame through the full path */
int gro_receive(struct ofl_gro *g, const struct ofl_pkt *pkt, uint64_t now, int tried_last);
/* receive.c, for udp.c (UDP hook, udp13): the full path's flow key of a
 * parsed frame, and its lookup (sets *hash) */
void gro_flow_key(const struct ofl_pkt *pkt, const uint8_t *mac, const uint8_t *p, const struct ofl_hdrs *h,
                  const struct rx_tag *tag, struct ofl_flow_key *k);
uint32_t gro_flow_lookup(struct ofl_gro *g, const struct ofl_flow_key *k, uint32_t *hash);

#endif
