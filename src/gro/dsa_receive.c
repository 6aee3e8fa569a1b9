/*
 * dsa_receive.c - one frame behind a DSA tag, the parts of the one-frame
 * path that know the tag (receive.c calls them): a held flow found through
 * the recent-flows cache before any decode, a new flow held right after
 * its tag is decoded without a parse, and the holds, fills and renewals
 * the burst stages behind a tag (dsa_weave.c, group.c, dsa_run.c) ask for.
 */
#include "gro/dsa_hold.h"
#include "gro/hold.h"
#include "gro/key.h"
#include "gro/predict.h"
#include "gro/tcp.h"

/* The key of the untagged frame behind the decoded tag (plain TCP, its
 * TCP header at l4 from rest_off - 12) in *k, returned hashed. */
static inline OFL_ALWAYS_INLINE uint32_t tagged_key(struct ofl_gro *g, const struct ofl_pkt *pkt,
                                                    const struct rx_tag *tag, uint32_t l4, struct ofl_flow_key *k)
{
	const uint32_t base = tag->view.rest_off - 12u;
	gro_key_fields(pkt, tag->view.hdr, pkt->bufs[0].data, 0, 0, l4 == 34 ? 4 : 6, base + 14, base + l4, 0, tag, k);
	return ofl_flow_hash_ip(&g->tab, k, l4 == 34);
}

/* ... its parse for gro_hold_tagged_plain() (thl TCP header bytes, len
 * payload bytes), offsets from the tagged frame's start. */
static inline OFL_ALWAYS_INLINE void tagged_hdrs(struct ofl_hdrs *h, const struct ofl_dsa_view *dv, uint32_t l4,
                                                 uint32_t thl, uint32_t len)
{
	h->l3 = (uint8_t)(l4 == 34 ? 4 : 6);
	h->l4_off = (uint16_t)(dv->rest_off - 12u + l4);
	h->hdr_len = (uint16_t)(h->l4_off + thl);
	h->l3_end = dv->rest_off + dv->rest_len;
	h->payload_len = len;
}

/* A new flow behind the decoded tag, untagged mode, in one buffer of at
 * most 0xffff bytes with a checksum the NIC verified (the caller's tests):
 * when the untagged frame is plain TCP with payload and no flag that
 * passes it on, within the byte bound, and its flow holds nothing, held as
 * the full path holds it (gro_hold_tagged_plain()) without its parse; else
 * -1 with nothing changed, and the full path decides.  (dsa_group.c holds
 * the same frames as lone records.) */
OFL_NOINLINE int gro_tag_new_flow(struct ofl_gro *g, const struct ofl_pkt *pkt, const struct rx_tag *tag, uint64_t now)
{
	const struct ofl_dsa_view *dv = &tag->view;
	const uint8_t *f = pkt->bufs[0].data;
	const uint32_t b0 = pkt->bufs[0].len, base = dv->rest_off - 12u, end = dv->rest_off + dv->rest_len;
	uint32_t l4, thl, len, hash, idx;
	uint64_t probes = 0;
	struct ofl_flow_key k;
	struct ofl_view v;
	struct ofl_hdrs h;
	if (dv->hdr_len != 12 || dv->rest_off < 12 || b0 < dv->rest_off)
		return -1;
	thl = ofl_plain_tcp(f + base, b0 - base, end - base, &l4);
	if (!thl)
		return -1;
	len = end - base - l4 - thl;
	if (!len || (f[base + l4 + 13] & TCP_NO_RUN) || g->held_bytes + len > g->cfg.max_held_bytes)
		return -1;
	hash = tagged_key(g, pkt, tag, l4, &k);
	if (g->last != GRO_NONE && g->items[g->last].hash == hash && ofl_flow_key_eq(&g->items[g->last].key, &k))
		return -1;
	idx = ofl_flowtab_find(&g->tab, hash, &k, gro_key_of, g, &probes);
	if (idx != GRO_NONE)
		return -1; /* (the full path looks it up again, and counts that) */
	g->st.lookups++;
	g->st.lookup_probes += probes;
	tagged_hdrs(&h, dv, l4, thl, len);
	v.p = f;
	v.len = b0;
	return gro_hold_tagged_plain(g, pkt, &v, &h, tag, &k, hash, now);
}

int gro_tag_hold(struct ofl_gro *g, const struct ofl_pkt *pkt, uint64_t now)
{
	const struct ofl_buf *b = pkt->bufs;
	struct rx_tag tag;
	int r;
	if (g->cfg.dsa_keep_tag || pkt->nbufs != 1 || !b || !b->data || b->len > 0xffffu || !gro_pkt_plain_meta(pkt) ||
	    ofl_dsa_decode(g->cfg.dsa, &g->cfg.dsa_params, OFL_DSA_RX, b->data, b->len, &tag.meta, &tag.view) != 0 ||
	    (tag.meta.flags & OFL_DSA_MF_CONTROL))
		return -1;
	tag.has = 1;
	r = gro_tag_new_flow(g, pkt, &tag, now);
	if (r >= 0) {
		/* (what gro_receive() counts before the decode) */
		g->st.rx_pkts++;
		g->st.rx_bytes += b->len;
	}
	return r;
}

uint32_t gro_tag_lone_fill(struct ofl_gro *g, uint32_t k, struct ofl_pkt *pkt, struct ofl_buf *b)
{
	const struct gro_tag_slot *ts = &g->bs->tag[k];
	const struct ofl_gro_out *o = &g->bs->out[k];
	struct ofl_flow_key key;
	struct ofl_hdrs h;
	struct ofl_view v = {ts->frame, ts->flen};
	struct rx_tag tag;
	uint32_t hash, idx;
	b->data = ts->frame;
	b->len = ts->flen;
	pkt->bufs = b;
	/* its tag decoded when it was grouped (dsa_group.c): it does now; its
	 * record says where its headers are */
	tag.has = 1;
	ofl_dsa_decode(g->cfg.dsa, &g->cfg.dsa_params, OFL_DSA_RX, ts->frame, ts->flen, &tag.meta, &tag.view);
	hash = tagged_key(g, pkt, &tag, o->l4_off, &key);
	tagged_hdrs(&h, &tag.view, o->l4_off, o->hdr_len - o->l4_off, o->seg_size);
	idx = item_take(g);
	gro_tagged_plain_fill(g, idx, pkt, &v, &h, &tag, &key, hash);
	return idx;
}

uint32_t gro_tag_renew(struct ofl_gro *g, uint32_t idx, const struct ofl_pkt *pkt, uint64_t now)
{
	const struct gro_item *old = &g->items[idx];
	const uint8_t *f = pkt->bufs[0].data;
	const uint32_t total = pkt->bufs[0].len, l4 = old->l4_off, hl = old->hdr_len;
	const uint32_t len = total - old->rawpre_len - old->rawtail_len - (hl - 12u);
	struct ofl_flow_key k;
	struct ofl_hdrs h;
	struct ofl_view v = {f, total};
	struct rx_tag tag;
	uint32_t hash;
	/* its tag decoded (as decode_tag() would: not a control frame), of
	 * the entry's layout, its key the entry's (so no entry of its flow
	 * once that one is completed), within the byte bound with that
	 * entry's bytes still held */
	tag.has = 1;
	if (ofl_dsa_decode(g->cfg.dsa, &g->cfg.dsa_params, OFL_DSA_RX, f, total, &tag.meta, &tag.view) != 0 ||
	    (tag.meta.flags & OFL_DSA_MF_CONTROL) || tag.view.hdr_len != 12 || tag.view.rest_off != old->rawpre_len ||
	    tag.view.rest_off + tag.view.rest_len + old->rawtail_len != total ||
	    g->held_bytes + len > g->cfg.max_held_bytes)
		return GRO_NONE;
	hash = tagged_key(g, pkt, &tag, l4, &k);
	if (hash != old->hash || !ofl_flow_key_eq(&k, &old->key))
		return GRO_NONE;
	gro_complete(g, idx, OFL_GRO_FLUSH_MAX_SIZE);
	g->st.rx_pkts++;
	g->st.rx_bytes += total;
	tagged_hdrs(&h, &tag.view, l4, hl - l4, len);
	gro_hold_tagged_plain(g, pkt, &v, &h, &tag, &k, hash, now);
	return g->last;
}

/* A frame behind a DSA tag (one buffer, checksum verified, no hardware
 * VLAN, at most 0xffff bytes: the caller's tests) of a flow held and
 * predicted behind its tag, not the last entry (the burst loop or the
 * caller tried that one): its entry found by the recent-flows cache at
 * the untagged frame, seen from the last entry's tag length on (a tag's
 * length rarely changes; hold.c names a tagged entry there), and header
 * prediction (its tag bytes and tail tag compared whole: same tag, same
 * port; then the untagged header under the mask).  Before any decode:
 * several interleaved flows behind a tag.  Returns 1 when it merged the
 * frame, else 0 with nothing changed. */
OFL_NOINLINE int gro_tag_cached(struct ofl_gro *g, const struct ofl_pkt *pkt, uint32_t total)
{
	const uint32_t last = g->last, b0 = pkt->bufs[0].len;
	const uint8_t *p = pkt->bufs[0].data, *u;
	const struct gro_item *it;
	uint32_t pre, idx;
	uint64_t hint;
	if (!g->tab.count || last == GRO_NONE || !g->items[last].rawpre_len)
		return 0;
	pre = tag_pre(&g->items[last]);
	if (b0 < pre || !p || !rcache_room(p + pre, b0 - pre))
		return 0;
	u = p + pre;
	hint = g->rcache[rcache_slot(u)];
	idx = (uint32_t)hint;
	if ((uint32_t)(hint >> 32) != rcache_ports(u) || idx == last || idx == GRO_NONE)
		return 0;
	it = &g->items[idx];
	return it->state == GRO_HELD && it->fast == GRO_FAST_PLAIN && it->rawpre_len &&
	       b0 >= it->hdr_len + tag_pre(it) && predict_l4(g, idx, pkt, p, total, 0);
}
