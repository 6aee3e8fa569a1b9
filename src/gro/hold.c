/*
 * hold.c - holding: a frame passed on untouched (a NORMAL entry), a new flow
 * held (its header copied, its payload recorded as slices), room made.
 */
#include <string.h>

#include "core/cursor.h"
#include "core/mem.h"
#include "gro/dsa_hold.h"
#include "gro/hold.h"
#include "gro/layer.h"
#include "gro/udp.h"

/* The pieces of the bytes [off, off + len) of a packet's buffers: written to
 * out (at most cap of them) when out is not NULL; returns how many there
 * are, or UINT32_MAX when they do not fit in cap. */
static inline OFL_ALWAYS_INLINE uint32_t slices_of(const struct ofl_pkt *pkt, uint32_t off, uint32_t len,
                                                  uint16_t seg, struct ofl_slice *out, uint32_t cap)
{
	struct ofl_cursor c = ofl_cur_bufs(pkt->bufs, pkt->nbufs, off);
	return ofl_cur_cut(&c, len, 0, seg, out, cap);
}

/* Record the payload bytes [off, off + len) of the packet as slices of the
 * entry (the caller checked there is room: gro_count_slices()). */
int gro_add_slices(struct ofl_gro *g, uint32_t idx, const struct ofl_pkt *pkt, uint32_t off,
                      uint32_t len, uint16_t seg)
{
	struct gro_item *it = &g->items[idx];
	struct ofl_slice *s = gro_slices(g, idx) + it->nslices;
	uint32_t cap = g->max_slices - it->nslices, n = gro_split_slices(s, pkt, off, len, seg, cap);
	if (n == UINT32_MAX)
		n = slices_of(pkt, off, len, seg, s, cap);
	if (n == UINT32_MAX)
		return -1;
	it->nslices = (uint16_t)(it->nslices + n);
	return 0;
}

/* Count of payload slices a packet needs (the buffers it spans). */
uint32_t gro_count_slices(const struct ofl_pkt *pkt, uint32_t off, uint32_t len)
{
	if (pkt->nbufs == 1)
		return len ? 1 : 0;
	return slices_of(pkt, off, len, 0, NULL, 0);
}

/* Queue a frame GRO does not take.  Untouched, except that with a DSA
 * format in untagged mode a frame with a valid tag is described untagged:
 * its 12-16 MAC/VLAN bytes in hdr, the rest as slices of its buffers. */
int gro_pass_normal(struct ofl_gro *g, const struct ofl_pkt *pkt, uint32_t total,
                       unsigned why, uint64_t now, const struct rx_tag *tag)
{
	uint32_t idx;
	struct gro_item *it;
	struct ofl_slice *s;
	unsigned b;
	g->st.normal++;
	g->st.normal_why[why]++;
	if (!tag || !tag->has)
		return gro_pass_through(g, pkt, total, now);
	idx = item_alloc(g);
	it = &g->items[idx];
	s = gro_slices(g, idx);
	it->nsegs = 0;
	it->hdr_len = 0;
	it->tail_len = 0;
	it->out_flags = (uint8_t)((pkt->csum_status == OFL_CSUM_UNNECESSARY ? OFL_GRO_OUT_F_CSUM_VERIFIED : 0) |
	                          (pkt->csum_status == OFL_CSUM_PARTIAL ? OFL_GRO_OUT_F_CSUM_RX_PARTIAL : 0) |
	                          pkt_out_flags(pkt));
	it->vlan_tci = pkt->vlan_tci;
	it->rx_hash = pkt->rx_hash;
	it->first_ns = now;
	it->has_meta = 1;
	g->cold[idx].meta = tag->meta;
	gro_cookies(g, idx)[0] = pkt->cookie;
	if (!g->cfg.dsa_keep_tag) {
		const struct ofl_dsa_view *dv = &tag->view;
		memcpy(it->hdr, dv->hdr, dv->hdr_len);
		it->hdr_len = (uint16_t)dv->hdr_len;
		it->frame_len = dv->hdr_len + dv->rest_len;
		it->nslices = 0;
		gro_add_slices(g, idx, pkt, dv->rest_off, dv->rest_len, 0);
		gro_pend_push(g, idx);
		return OFL_GRO_NORMAL;
	}
	it->frame_len = total;
	it->nslices = pkt->nbufs;
	for (b = 0; b < pkt->nbufs; b++) {
		s[b].data = pkt->bufs[b].data;
		s[b].len = pkt->bufs[b].len;
		s[b].pkt = 0;
		s[b].buf = (uint16_t)b;
	}
	gro_pend_push(g, idx);
	return OFL_GRO_NORMAL;
}

/* Make room for a new entry: the table holds max_flows and max_held_bytes. */
void gro_make_room(struct ofl_gro *g, uint32_t payload)
{
	if (g->nlone && (gro_nflows(g) >= g->cfg.max_flows || g->held_bytes + payload > g->cfg.max_held_bytes))
		gro_lone_settle(g); /* the oldest may be a lone record */
	while (g->age_head != GRO_NONE &&
	       (g->tab.count >= g->cfg.max_flows || g->held_bytes + payload > g->cfg.max_held_bytes))
		gro_complete(g, g->age_head, OFL_GRO_FLUSH_TABLE_FULL);
}

/* Write the untagged headers of a frame behind a tag (its 12-16 MAC/VLAN
 * bytes, then the headers from the EtherType on) to hdr in fixed-size
 * copies (a variable one is a call): the rebuilt bytes of a view with more
 * than 12 are in its 16-byte buf[]; 64 bytes from the EtherType when the
 * headers end within them and the view holds them.  Bytes past the
 * headers' end are left in hdr (unread). */
static inline OFL_ALWAYS_INLINE void hdr_untagged(uint8_t *hdr, const struct ofl_view *v, const struct ofl_hdrs *h,
                                                  const struct ofl_dsa_view *dv)
{
	uint32_t mh = dv->hdr_len, n = h->hdr_len - h->et_off;
	_Static_assert(OFL_GRO_MAX_HDR >= 16 + 64, "room for the fixed copies");
	memcpy(hdr, dv->hdr, 12);
	if (mh > 12)
		memcpy(hdr + 12, dv->hdr + 12, 4); /* (hdr is buf then) */
	if (n <= 64 && v->len >= h->et_off + 64u)
		memcpy(hdr + mh, v->p + h->et_off, 64);
	else
		memcpy(hdr + mh, v->p + h->et_off, n);
}

/* Behind a tag: entry idx (fast set as for an untagged frame) is
 * predicted when the next frame repeats the first one's bytes up to the
 * EtherType and its tail tag (one buffer, or several with no tail tag and
 * a first buffer of GRO_RAWPRE_MAX bytes or more: dsa_run.c's run;
 * untagged mode, MACs as in the frame p), else not at all (fast 0). */
static inline OFL_ALWAYS_INLINE void hold_tag_pred(struct ofl_gro *g, uint32_t idx, const struct ofl_pkt *pkt,
                                                   const uint8_t *p, const struct ofl_dsa_view *dv)
{
	struct gro_item *it = &g->items[idx];
	/* only for a flow that may be predicted (TCP: a UDP frame behind a
	 * tag may be shorter than the 48 bytes copied) */
	if (it->fast && !g->cfg.dsa_keep_tag &&
	    (pkt->nbufs == 1 || (dv->tail_len == 0 && pkt->bufs[0].len >= GRO_RAWPRE_MAX)) && dv->ins_len == 0 &&
	    !dv->mac_patched &&
	    dv->rest_off >= 12 && dv->rest_off <= GRO_RAWPRE_MAX && dv->tail_len <= GRO_RAWTAIL_MAX &&
	    dv->hdr_len == 12) {
		const uint8_t *tail = p + (pkt->bufs[0].len - dv->tail_len);
		unsigned t;
		it->rawpre_len = (uint8_t)dv->rest_off;
		/* a fixed-size copy (the headers after rawpre_len make the
		 * frame longer than GRO_RAWPRE_MAX): a variable one compiles
		 * to "rep movsb" */
		_Static_assert(GRO_RAWPRE_MAX == 48, "the frame holds a plain header: 54 bytes");
		memcpy(g->cold[idx].rawpre, p, 16);
		memcpy(g->cold[idx].rawpre + 16, p + 16, 16);
		memcpy(g->cold[idx].rawpre + 32, p + 32, 16);
		it->rawtail_len = (uint8_t)dv->tail_len;
		for (t = 0; t < dv->tail_len; t++)
			g->cold[idx].rawtail[t] = tail[t];
	} else {
		it->fast = 0;
	}
}

/* gro_hold_fill(), inlined in gro_hold_new(). */
static inline OFL_ALWAYS_INLINE void hold_fill(struct ofl_gro *g, uint32_t idx, const struct ofl_pkt *pkt,
                                               const struct ofl_view *v, const struct ofl_hdrs *h,
                                               const struct rx_tag *tag, const struct ofl_flow_key *k,
                                               uint32_t hash)
{
	struct gro_item *it = &g->items[idx];
	const uint8_t *th = v->p + h->l4_off;
	int32_t sh = hdr_shift(g, h, tag);
	it->key = *k;
	it->hash = hash;
	it->l3 = h->l3;
	it->stack = gro_stack_of(h, g->raw); /* TCP or UDP (UDP hook, udp13) */
	it->hdr_len = (uint16_t)(h->hdr_len - sh);
	it->l3_off = (uint16_t)(h->l3_off - sh);
	it->l4_off = (uint16_t)(h->l4_off - sh);
	gro_hold_rec(it, it->l4_off, it->stack, tag->has ? &g->cold[idx].meta : NULL); /* (has_meta below) */
	if (sh || (tag->has && !g->cfg.dsa_keep_tag))
		hdr_untagged(it->hdr, v, h, &tag->view);
	else
		memcpy(it->hdr, v->p, h->hdr_len);
	it->tail_len = 0;
	it->csum_done = 0;
	if (tag->has && g->cfg.dsa_keep_tag && tag->view.tail_len) {
		it->tail_len = (uint8_t)tag->view.tail_len;
		/* the tail tag follows the untagged frame's content */
		ofl_bufs_copy(pkt->bufs, pkt->nbufs, h->frame_len, it->tail_len, g->cold[idx].tailbuf);
	}
	it->has_meta = (uint8_t)tag->has;
	if (tag->has)
		g->cold[idx].meta = tag->meta;
	/* a UDP flow is predicted untagged only (udp.h) */
	it->fast = (uint8_t)(h->l4proto == 6 && !(pkt->flags & OFL_PKT_F_VLAN) && it->l3_off == 14 && h->ip6_ext_len == 0 &&
	                     it->hdr_len <= GRO_PRED_MAX && it->l4_off == (h->l3 == 4 ? 34u : 54u));
	if (gro_udp_plain(it, pkt, h, tag))
		it->fast = GRO_FAST_UDP;
	it->rawpre_len = it->rawtail_len = 0;
	if (tag->has)
		hold_tag_pred(g, idx, pkt, v->p, &tag->view);
	it->seg_size = (uint16_t)(h->payload_len > 0xffffu ? 0xffffu : h->payload_len);
	it->nsegs = 1;
	it->nslices = 0;
	it->payload = h->payload_len;
	it->l3_len = h->l3_end - h->l3_off;
	it->next_seq = ofl_get32(th + 4) + h->payload_len;
	it->id0 = h->l3 == 4 ? ofl_get16(v->p + h->l3_off + 4) : 0;
	it->fixedid = 0;
	it->fin_psh = 0;
	it->cwr = h->l4proto == 6 && (th[13] & TCP_CWR) != 0; /* UDP hook (udp13): TCP only */
	if (pkt->nbufs == 1 && h->payload_len) {
		struct ofl_slice *sl = gro_slices(g, idx);
		*sl = (struct ofl_slice){pkt->bufs[0].data + h->hdr_len, h->payload_len, 0, 0};
		it->nslices = 1;
	} else {
		gro_add_slices(g, idx, pkt, h->hdr_len, h->payload_len, 0);
	}
	if (rcache_room(v->p, v->len))
		g->rcache[rcache_slot(v->p)] = rcache_val(v->p, idx);
}

void gro_hold_fill(struct ofl_gro *g, uint32_t idx, const struct ofl_pkt *pkt, const struct ofl_view *v,
                   const struct ofl_hdrs *h, const struct rx_tag *tag, const struct ofl_flow_key *k, uint32_t hash)
{
	hold_fill(g, idx, pkt, v, h, tag, k, hash);
}

int gro_hold_new(struct ofl_gro *g, const struct ofl_pkt *pkt, const struct ofl_view *v,
                    const struct ofl_hdrs *h, const struct rx_tag *tag,
                    const struct ofl_flow_key *k, uint32_t hash, uint64_t now)
{
	uint32_t idx;
	gro_make_room(g, h->payload_len);
	idx = item_alloc(g);
	hold_fill(g, idx, pkt, v, h, tag, k, hash);
	return hold_link(g, idx, pkt, hash, h->payload_len, now);
}


/* A new flow behind a tag in untagged mode whose untagged frame is plain
 * TCP, entry idx filled (receive.c: ofl_parse_plain_at() filled h, its offsets from the
 * tagged frame's start, the untagged EtherType at rest_off), in one buffer
 * of at most 0xffff bytes: held as gro_hold_new() holds it, by the plain
 * shape's fill (hold.h) over the frame seen from rest_off - 12 (the
 * headers and payload where they are), its first 12 bytes then the MACs,
 * and the tag's part after (metadata, prediction). */
static inline OFL_ALWAYS_INLINE void tagged_plain_fill(struct ofl_gro *g, uint32_t idx, const struct ofl_pkt *pkt,
                                                       const struct ofl_view *v, const struct ofl_hdrs *h,
                                                       const struct rx_tag *tag, const struct ofl_flow_key *k,
                                                       uint32_t hash)
{
	const struct ofl_dsa_view *dv = &tag->view;
	const uint32_t base = dv->rest_off - 12u;
	const struct ofl_hdrs u = {.l3 = h->l3,
	                           .l4_off = (uint16_t)(h->l4_off - base),
	                           .hdr_len = (uint16_t)(h->hdr_len - base),
	                           .l3_end = h->l3_end - base,
	                           .payload_len = h->payload_len};
	struct gro_item *it = &g->items[idx];
	hold_fill_plain_l4(g, idx, pkt, v->p + base, &u, k, hash, 0, 0, 0);
	memcpy(it->hdr, dv->hdr, 12);
	it->has_meta = 1;
	g->cold[idx].meta = tag->meta;
	it->out_dsa = &g->cold[idx].meta;
	if (pkt->flags & OFL_PKT_F_VLAN)
		it->fast = 0;
	hold_tag_pred(g, idx, pkt, v->p, dv);
	/* (named for the untagged frame: dsa_receive.c gro_tag_cached()) */
	if (rcache_room(v->p + base, v->len - base))
		g->rcache[rcache_slot(v->p + base)] = rcache_val(v->p + base, idx);
}

void gro_tagged_plain_fill(struct ofl_gro *g, uint32_t idx, const struct ofl_pkt *pkt, const struct ofl_view *v,
                           const struct ofl_hdrs *h, const struct rx_tag *tag, const struct ofl_flow_key *k,
                           uint32_t hash)
{
	tagged_plain_fill(g, idx, pkt, v, h, tag, k, hash);
}

/* ... held: filled, linked. */
int gro_hold_tagged_plain(struct ofl_gro *g, const struct ofl_pkt *pkt, const struct ofl_view *v,
                          const struct ofl_hdrs *h, const struct rx_tag *tag, const struct ofl_flow_key *k,
                          uint32_t hash, uint64_t now)
{
	uint32_t idx;
	if (gro_nflows(g) >= g->cfg.max_flows)
		gro_make_room(g, h->payload_len); /* (the bytes' bound: the caller) */
	idx = item_take(g);
	tagged_plain_fill(g, idx, pkt, v, h, tag, k, hash);
	return hold_link(g, idx, pkt, hash, h->payload_len, now);
}
