/*
 * dsa_group.c - stage 2 behind a DSA tag: a burst of tagged frames grouped
 * by flow, and the frames alone in their flow held as lone records (group.c
 * says what a lone record is and why it is what an entry would deliver).
 *
 * Untagged mode only (dsa_keep_tag 0).  A frame becomes a lone record when
 * the one-frame path would hold it as a new flow through receive.c
 * gro_tag_new_flow(): one buffer of at most 0xffff bytes, checksum
 * verified, no hardware VLAN, a tag that decodes (not a control frame) to
 * 12 MAC bytes, and behind it plain TCP with payload and no flag that
 * passes it on.  Its record is the one that entry's completion delivers:
 * the MACs and the headers from the untagged EtherType on (the frame's own
 * bytes when they follow each other, as for a tag before the DA or a tail
 * tag; else a copy in the frame's slot, bs->tag[]), the payload where it
 * is, the tag's metadata (its slot's copy).
 *
 * The grouping must never split a flow (group.c): every frame whose tag
 * decodes joins the group of its untagged frame's addresses and ports
 * (gro_group_of() over the untagged frame seen from rest_off - 12; the
 * switch port is in the flow key but not in the group: two ports of one
 * group only cost the bypass); a frame whose tag does not decode, or a
 * control frame, touches no flow (the one-frame path passes it on) and
 * joins none; a frame in several buffers leaves the burst ungrouped.
 * Frames that are no lone record (hl 0) take the usual path, which decodes
 * their tag again.
 */
#include <string.h>

#include "gro/dsa_hold.h"
#include "gro/group.h"

/* The untagged header of a frame (f, its DSA view dv; hl bytes from
 * rest_off - 12 on, within b0 bytes) copied to slot ts: the MACs, then the
 * rest in 16-byte copies while the frame holds them (a variable one is a
 * call). */
static inline void tag_hdr_copy(struct gro_tag_slot *ts, const uint8_t *f, uint32_t b0,
                                const struct ofl_dsa_view *dv, uint32_t hl)
{
	const uint8_t *src = f + dv->rest_off;
	uint32_t n = hl - 12u, o;
	_Static_assert(GRO_TAG_HDR >= 12 + 112, "hl <= 12 + 102, rounded up to 16");
	memcpy(ts->hdr, dv->hdr, 12);
	if (n <= 64 && dv->rest_off + 64u <= b0) {
		memcpy(ts->hdr + 12, src, 64); /* (IPv4, or IPv6 with a TCP header up to 22 bytes) */
	} else if (dv->rest_off + ((n + 15u) & ~15u) <= b0) {
		for (o = 0; o < n; o += 16)
			memcpy(ts->hdr + 12 + o, src + o, 16);
	} else {
		memcpy(ts->hdr + 12, src, n);
	}
}

/* Frame i of the burst: its tag decoded into its slot; when it is a lone
 * record (see the head), its record written (group.h gro_lone_write(),
 * its own slice and metadata) and bs->hl[i] its untagged header length,
 * else 0, *bad counting it; its payload bytes added to *bytes and its
 * frame's to *rx when a record, and *po where its TCP ports are.  Returns its group (0: none, UINT32_MAX:
 * the burst cannot be grouped). */
static inline uint32_t tag_parse(struct ofl_gro *g, struct gro_burst *bs, unsigned i, const struct ofl_pkt *pkt,
                                 uint64_t now, uint32_t *bytes, uint64_t *rx, uint32_t *bad, uint32_t *po)
{
	struct gro_tag_slot *ts = &bs->tag[i];
	struct ofl_dsa_view dv;
	struct ofl_pkt u;
	struct ofl_buf ub;
	const uint8_t *f, *hdr;
	uint32_t b0, base, end, l4, thl, len, hl;
	bs->hl[i] = 0;
	if (pkt->nbufs != 1 || !pkt->bufs)
		return UINT32_MAX; /* (the full path decodes over the buffers) */
	f = pkt->bufs[0].data;
	b0 = pkt->bufs[0].len;
	if (!f || ofl_dsa_decode(g->cfg.dsa, &g->cfg.dsa_params, OFL_DSA_RX, f, b0, &ts->meta, &dv) != 0 ||
	    (ts->meta.flags & OFL_DSA_MF_CONTROL)) {
		*bad += 1;
		return 0; /* passed on, no flow touched */
	}
	if (dv.rest_off < 12 || b0 < dv.rest_off)
		return UINT32_MAX;
	base = dv.rest_off - 12u;
	end = dv.rest_off + dv.rest_len;
	if (!gro_pkt_plain_meta(pkt) || b0 > 0xffffu || dv.hdr_len != 12 ||
	    !(thl = ofl_plain_tcp(f + base, b0 - base, end - base, &l4)))
		goto other;
	len = end - base - l4 - thl;
	hl = l4 + thl;
	if (!len || (f[base + l4 + 13] & TCP_NO_RUN))
		goto other;
	if (dv.hdr + 12 == f + dv.rest_off) {
		hdr = dv.hdr; /* the MACs right before the EtherType */
	} else {
		tag_hdr_copy(ts, f, b0, &dv, hl);
		hdr = ts->hdr;
	}
	ts->frame = f;
	ts->flen = b0;
	bs->hl[i] = (uint8_t)hl;
	gro_lone_write(bs, i, pkt, hdr, hl + len, hl, gro_l3l4_word(14, l4), 0, now, 0);
	bs->sl[i].data = f + base + hl;
	bs->sl[i].len = len;
	bs->out[i].dsa = &ts->meta;
	*bytes += len;
	*rx += b0;
	*po = base + l4;
	return gro_group_hash(l4 == 34 ? gro_addr_v4(f + base) : gro_addr_v6(f + base), ld32(f + base + l4));
other:
	/* the untagged frame's group, as group.c finds it */
	*bad += 1;
	ub.data = f + base;
	ub.len = (pkt->bufs[0].len < end ? pkt->bufs[0].len : end) - base;
	u = *pkt;
	u.bufs = &ub;
	return gro_group_of(g, &u);
}

/* Does the flow of the burst's first frame (a record: its TCP ports at po,
 * within its first buffer) come again among the next 15 frames (their
 * words at po)?  One flow's train, or a few interleaved flows: not worth
 * grouping (a hint only, as burst.c burst_groups() for untagged frames). */
static inline unsigned tag_repeats(const struct ofl_pkt *pkts, unsigned n, uint32_t po)
{
	const uint32_t w = ld32(pkts[0].bufs[0].data + po);
	unsigned j, m = n < 16 ? n : 16;
	for (j = 1; j < m; j++) {
		const struct ofl_pkt *q = &pkts[j];
		if (q->nbufs && q->bufs && q->bufs[0].data && q->bufs[0].len >= po + 4u &&
		    ld32(q->bufs[0].data + po) == w)
			return j;
	}
	return 0;
}

/* Not worth grouping (a hint): where the first frame of the last burst
 * not grouped had its TCP ports (the tag's length rarely changes), the
 * burst's first frame has a word that comes again among the next 15
 * (tag_repeats()); n < 2 too.  Returns where it comes again (1: the
 * next frame, one flow's train), 0 when it does not. */
static inline unsigned tag_train(const struct gro_burst *bs, const struct ofl_pkt *pkts, unsigned n)
{
	const uint32_t po = bs->tag_po;
	if (n < 2)
		return 1;
	return po && pkts[0].nbufs && pkts[0].bufs && pkts[0].bufs[0].data && pkts[0].bufs[0].len >= po + 4u
	           ? tag_repeats(pkts, n, po)
	           : 0;
}

/* gro_tag_group() past its first tests. */
static OFL_NOINLINE int tag_group(struct ofl_gro *g, const struct ofl_pkt *pkts, unsigned n, uint64_t now)
{
	struct gro_burst *bs = g->bs;
	uint32_t dup = 0, bad = 0, bytes = 0;
	uint64_t rx = 0, genhi;
	unsigned i, ahead = n > GRO_AHEAD ? n - GRO_AHEAD : 0;
	genhi = gro_group_gen(bs, 0);
	for (i = 0; i < n; i++) {
		uint32_t h, po = 0;
#if defined(__GNUC__)
		if (i < ahead && pkts[i + GRO_AHEAD].nbufs && pkts[i + GRO_AHEAD].bufs)
			__builtin_prefetch(pkts[i + GRO_AHEAD].bufs[0].data);
#endif
		h = tag_parse(g, bs, i, &pkts[i], now, &bytes, &rx, &bad, &po);
		if (i == 0 && po && po != bs->tag_po && tag_repeats(pkts, n, po)) {
			/* (at tag_po: tag_train() looked) */
			bs->tag_po = po;
			bs->mtop = 1;
			return 0;
		}
		if (h - 1u >= UINT32_MAX - 1u) {
			if (h) {
				bs->mtop = i + 1;
				return 0; /* UINT32_MAX */
			}
			continue;
		}
		if (!gro_group_enter(bs, i, h, genhi) && GRO_GROUP_GIVES_UP(++dup, i)) {
			bs->mtop = i + 1;
			return 0;
		}
	}
	/* (a frame no record, or of a group seen before: not every frame held at once) */
	return gro_group_end(g, n, dup + bad, bytes, rx);
}

int gro_tag_group(struct ofl_gro *g, const struct ofl_pkt *pkts, unsigned n, uint64_t now)
{
	const struct gro_burst *bs = g->bs;
	if (!bs || !bs->tag || n > GRO_BURST_MAX || g->age_head != GRO_NONE)
		return 0;
	unsigned j = tag_train(bs, pkts, n);
	if (!j)
		return tag_group(g, pkts, n, now);
	/* a few flows in turn (the first frame's flow again, not next):
	 * woven, nothing held (dsa_weave.c checks each frame) */
	return j > 1 ? -(int)gro_tag_weave(g, pkts, n, now) : 0;
}
