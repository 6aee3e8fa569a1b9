/*
 * group.h - the part of stage 2 (group.c) the burst loop inlines: the
 * frames alone in their flow held as lone records.
 */
#ifndef OFL_GRO_GROUP_H
#define OFL_GRO_GROUP_H

#include <stddef.h>
#include <string.h>

#include "gro/hold.h"
#include "gro/lone_bufs.h"

/* A group: the addresses (folded) and the TCP ports, hashed (the upper
 * bits of one product: every bit of the key reaches them); never 0, below
 * 2^31 (UINT32_MAX says "not grouped", group.c group_of()). */
static inline uint32_t gro_group_hash(uint64_t addr, uint32_t ports)
{
	return (uint32_t)(((addr ^ ((uint64_t)ports << 16)) * 0xff51afd7ed558ccdull) >> 33) | 1u;
}

/* An output record's l3_off and l4_off as the one word they make in
 * memory (a constant where l3 and l4 are). */
static inline uint32_t gro_l3l4_word(uint32_t l3, uint32_t l4)
{
	uint16_t off[2] = {(uint16_t)l3, (uint16_t)l4};
	uint32_t w;
	_Static_assert(offsetof(struct ofl_gro_out, l4_off) == offsetof(struct ofl_gro_out, l3_off) + 2,
	               "l3_off, l4_off: one word");
	memcpy(&w, off, 4);
	return w;
}

/* Frame i's record, written in its slot while the burst is grouped: the
 * output record it leaves as when it proves alone in its flow
 * (gro_lone_run() keeps it, moved down to its place among the lone
 * records when frames before it were not alone), a frame of b0 bytes at p
 * (no hardware VLAN) of hl header bytes, its IP and transport header
 * offsets in offs (gro_l3l4_word()), through tunnel type tun (<< 5, 0 for
 * none); its one slice too when one (a constant) is 1 (a frame in several
 * buffers has its own: lone_bufs.h).  For a frame passed on (hl 1) only
 * the payload length counts. */
static inline void gro_lone_write(struct gro_burst *bs, unsigned i, const struct ofl_pkt *pkt, const uint8_t *p,
                                  uint32_t b0, uint32_t hl, uint32_t offs, unsigned tun, uint64_t now, int one)
{
	struct ofl_gro_out *o = &bs->out[i];
	uint32_t len = b0 - hl;
	_Static_assert(OFL_GRO_OUT_F_HASH % OFL_PKT_F_HASH == 0, "the hash flag moves up");
	o->hdr = p;
	o->hdr_len = hl;
	o->len = b0;
	o->seg_size = (uint16_t)len;
	memcpy(&o->l3_off, &offs, 4);
	o->flags = (uint8_t)(OFL_GRO_OUT_F_CSUM_VERIFIED |
	                     (pkt->flags & OFL_PKT_F_HASH) * (OFL_GRO_OUT_F_HASH / OFL_PKT_F_HASH) | tun);
	o->vlan_tci = pkt->vlan_tci;
	o->rx_hash = pkt->rx_hash;
	o->first_ns = now;
	if (one) {
		bs->sl[i].data = p + hl;
		bs->sl[i].len = len;
	}
	bs->ck[i] = pkt->cookie;
}

/* Frame i of group h (gro_group_hash()) entered in the burst's group table
 * (genhi: its generation << 32; a slot holds the generation and a group's
 * hash in one word, another generation's slot is free, and the group's
 * first frame): 1 for a new group; else 0, the frame and the group's first
 * frame marked not alone (bs->hl[] 0). */
static inline OFL_ALWAYS_INLINE int gro_group_enter(struct gro_burst *bs, unsigned i, uint32_t h, uint64_t genhi)
{
	uint64_t want = genhi | h, k;
	uint32_t s = h >> (31 - GRO_GBITS);
	k = bs->gkey[s];
	if (!OFL_LIKELY(k < genhi)) {
		/* a slot of this burst: this group's, or another's (linear
		 * probing up to a free one) */
		while (k != want) {
			s = (s + 1u) & (GRO_GSLOTS - 1u);
			k = bs->gkey[s];
			if (k < genhi)
				goto fresh;
		}
		/* the group's second frame or later: none alone */
		bs->hl[bs->gfirst[s]] = 0;
		bs->hl[i] = 0;
		return 0;
	}
fresh:
	/* a free slot (another burst's key, below genhi): a new group */
	bs->gkey[s] = want;
	bs->gfirst[s] = (uint16_t)i;
	return 1;
}

/* The grouping's give-up rule (group.c, group_bufs.c): a few interleaved
 * flows, not lone frames (dup, the frames of a group seen before, counted
 * up to frame i): the burst goes the usual way (the weave, the trains). */
#define GRO_GROUP_GIVES_UP(dup, i) ((dup) >= 8 && (i) < 16)

/* A burst's grouping begun (gro_group(), group_bufs.c): a new generation
 * of the group table, with reset (a constant) the slots of an earlier
 * burst's header-split records given back their own slices (lone_bufs.h;
 * group_bufs.c writes each frame's own instead); returns the generation
 * << 32.  A slot of an earlier burst holds a smaller generation: its key
 * is below that (generations only grow until they wrap). */
static inline OFL_ALWAYS_INLINE uint64_t gro_group_gen(struct gro_burst *bs, int reset)
{
	uint32_t gen = ++bs->gen;
	if (reset && bs->nmsl)
		gro_lone_bufs_reset(bs);
	if (gen == 0) {
		/* the generation wrapped: forget every slot */
		memset(bs->gkey, 0, sizeof(bs->gkey));
		gen = bs->gen = 1;
	}
	bs->seq_all = 0;
	return (uint64_t)gen << 32;
}

/* group_bufs.c: gro_group() for a burst whose first frame is in several
 * buffers, when its frames are header-split lone records of that buffer
 * count or of other groups (gro_group()'s result); -1 when a frame is of
 * another shape: gro_group()'s loop then groups the burst from its start
 * (bs->mtop and bs->nmsl say which slots took slices). */
int gro_group_bufs(struct ofl_gro *g, const struct ofl_pkt *pkts, unsigned n, uint64_t now);

/* group.c, for group_bufs.c: the end of a grouped burst of n frames, each
 * parsed plain and held or of a group seen before (dup of them), bytes
 * payload and rx frame bytes in all (bs->hl[n], bs->mtop; every frame held
 * at once when none was of a group seen before and the limits allow:
 * lone_take_all()); gro_group()'s return. */
int gro_group_end(struct ofl_gro *g, unsigned n, uint32_t dup, uint32_t bytes, uint64_t rx);

/* group.c: the group of a frame that is no lone record (the full
 * parser's addresses and ports, hashed: gro_group_hash()), 0 for none,
 * UINT32_MAX when the burst cannot be grouped. */
uint32_t gro_group_of(const struct ofl_gro *g, const struct ofl_pkt *pkt);

/* dsa_group.c: gro_group() for a burst behind a DSA tag (untagged mode:
 * g->bs->tag; else 0): the same results, the records those of tagged
 * frames; or, for a few interleaved flows, the burst woven from frame 0
 * (dsa_weave.c): minus the frames it took (n is at most GRO_BURST_MAX). */
int gro_tag_group(struct ofl_gro *g, const struct ofl_pkt *pkts, unsigned n, uint64_t now);

/* Lone record j, written in frame j's slot, moved to slot k (k < j): its
 * output record with the slot's own slices and cookies, its slice, its
 * cookie. */
static inline void gro_lone_move(struct gro_burst *bs, uint32_t j, uint32_t k)
{
	struct ofl_gro_out o = bs->out[j];
	o.slices = o.slices == &bs->sl[j] ? &bs->sl[k] : o.slices; /* (or its own: lone_bufs.h) */
	o.cookies = &bs->ck[k];
	bs->out[k] = o;
	bs->sl[k] = bs->sl[j];
	bs->ck[k] = bs->ck[j];
	if (bs->tag) {
		/* behind a tag: its frame (gro_int.h gro_tag_slot) */
		bs->tag[k].frame = bs->tag[j].frame;
		bs->tag[k].flen = bs->tag[j].flen;
	}
}

/*
 * Frames i, i + 1, ... of a grouped burst (gro_group(), nothing held before
 * the burst), each alone in its group and parsed plain (bs->hl[] not 0,
 * the record in the frame's slot of bs->out[]): each held as a lone record
 * when it is what the fast path (receive.c fast_path(), hold.h
 * gro_hold_plain()) or udp.c would hold as a new entry without making room
 * first, or passed on as the fast path would pass it on (hl 1: a TCP
 * segment with PSH, ..., or no payload); a frame through a tunnel of the
 * shape tunfast.c parses, the same for tunnel.c's full path.  The counters
 * are added once for the run.  Returns how many frames it took; it stops
 * at the first frame that is not alone or not parsed plain (the end of the
 * burst: gro_group() marks it so), or that the usual path must see (the
 * byte bound or the flow limit reached).
 */
static inline unsigned gro_lone_run(struct ofl_gro *g, const struct ofl_pkt *pkts, unsigned i, uint64_t now)
{
	struct gro_burst *bs = g->bs;
	uint32_t k = g->nlone, k0 = k, seq0 = g->hold_seq - k0, held = g->held_bytes, max = g->cfg.max_held_bytes;
	uint32_t kmax = g->cfg.max_flows > g->tab.count ? g->cfg.max_flows - g->tab.count : 0;
	uint64_t rx = 0;
	unsigned j;
	for (j = i;; j++) {
		uint32_t len = bs->out[j].seg_size, hl = bs->hl[j];
		if (hl <= 1) {
			const struct ofl_pkt *pkt = &pkts[j];
			if (!hl || held + len > max)
				break;
			/* nothing of its flow held, and it cannot be: passed on */
			g->st.rx_pkts++;
			g->st.rx_bytes += pkt->bufs[0].len;
			gro_pass_normal(g, pkt, pkt->bufs[0].len, len ? OFL_GRO_NORMAL_FLAGS : OFL_GRO_NORMAL_NO_PAYLOAD,
			                now, NULL);
			continue;
		}
		if (held + len > max || k >= kmax)
			break; /* the full path makes room first */
		if (k != j)
			gro_lone_move(bs, j, k);
		rx += bs->out[k].len;
		bs->seq[k] = seq0 + k;
		k++;
		held += len;
	}
	if (bs->tag) {
		/* behind a tag (dsa_group.c): the tagged frames' bytes */
		uint32_t t;
		for (t = k0; t < k; t++)
			rx += bs->tag[t].flen - bs->out[t].len;
	}
	g->st.rx_pkts += k - k0;
	g->st.rx_bytes += rx;
	g->st.held += k - k0;
	bs->bytes += held - g->held_bytes;
	g->held_bytes = held;
	g->hold_seq = seq0 + k;
	g->nlone = k;
	return j - i;
}

#endif
