/*
 * receive.c - one frame through the engine: the fast path (prediction against
 * the last or looked-up entry, a plain new flow held), then the full path
 * (DSA tag, parse, flow key, lookup, the kernel's rules, hold or pass on).
 */
#include <string.h>

#include "core/csum_int.h"
#include "gro/dsa_hold.h"
#include "gro/ipv4.h"
#include "gro/hold.h"
#include "gro/ipv6.h"
#include "gro/key.h"
#include "gro/list.h" /* fraglist mode (frag13) */
#include "gro/predict.h"
#include "gro/tcp.h"
#include "gro/tunnel.h"
#include "gro/udp.h" /* UDP hook (udp13) */

#include <ofl/csum.h>

/* The MAC addresses of a raw-IP packet's flow key (it has none). */
static const uint8_t no_mac[12];

static void build_key(const struct ofl_pkt *pkt, const uint8_t *mac, const uint8_t *p,
                      const struct ofl_hdrs *h, const struct rx_tag *tag, struct ofl_flow_key *k)
{
	uint64_t l2 = (uint64_t)h->nvlan << 1 | (uint64_t)(h->vlan_tpid[0] == 0x88a8) << 3 |
	              (uint64_t)(h->vlan_tpid[1] == 0x88a8) << 4;
	gro_key_fields(pkt, mac, p, l2, (uint64_t)h->vlan_tci[0] | (uint64_t)h->vlan_tci[1] << 16, h->l3, h->l3_off,
	              h->l4_off, h->ip6_ext_len, tag, k);
}

/* Lookup when the key's hash is known already. */
static uint32_t lookup_hashed(struct ofl_gro *g, const struct ofl_flow_key *k, uint32_t hash)
{
	if (g->last != GRO_NONE && g->items[g->last].hash == hash &&
	    ofl_flow_key_eq(&g->items[g->last].key, k))
		return g->last;
	g->st.lookups++;
	return ofl_flowtab_find(&g->tab, hash, k, gro_key_of, g, &g->st.lookup_probes);
}

static uint32_t lookup(struct ofl_gro *g, const struct ofl_flow_key *k, uint32_t *hash)
{
	if (g->last != GRO_NONE && ofl_flow_key_eq(&g->items[g->last].key, k)) {
		*hash = g->items[g->last].hash;
		return g->last;
	}
	*hash = ofl_flow_hash(&g->tab, k);
	g->st.lookups++;
	return ofl_flowtab_find(&g->tab, *hash, k, gro_key_of, g, &g->st.lookup_probes);
}

static unsigned first_reason(uint32_t nm)
{
	return (unsigned)__builtin_ctz(nm);
}

/* Decode the frame's DSA tag once.  Returns -1 when the frame was passed on
 * (no valid tag, or a switch control frame). */
static int decode_tag(struct ofl_gro *g, const struct ofl_pkt *pkt, uint32_t total,
                      struct rx_tag *tag, uint64_t now)
{
	int r;
	if (pkt->nbufs == 1)
		r = ofl_dsa_decode(g->cfg.dsa, &g->cfg.dsa_params, OFL_DSA_RX, pkt->bufs[0].data,
		                   pkt->bufs[0].len, &tag->meta, &tag->view);
	else
		r = ofl_dsa_decode_bufs(g->cfg.dsa, &g->cfg.dsa_params, OFL_DSA_RX, pkt->bufs,
		                        pkt->nbufs, &tag->meta, &tag->view);
	if (r != 0) {
		tag->has = 0;
		gro_pass_normal(g, pkt, total, OFL_GRO_NORMAL_BAD_TAG, now, NULL);
		return -1;
	}
	tag->has = 1;
	if (tag->meta.flags & OFL_DSA_MF_CONTROL) {
		gro_pass_normal(g, pkt, total, OFL_GRO_NORMAL_DSA_CONTROL, now, tag);
		return -1;
	}
	return 0;
}

/* A UDP datagram of a new flow that fast_path() looked up and did not
 * take (fk->looked: checksum verified, no hardware VLAN, a first buffer of
 * 54 bytes or more, a frame of at most 0xffff; no entry of its flow): held as gro_udp_receive() holds it when it is of the
 * plain shape and udp.c would (hold.h gro_udp_plain_new()), with the key
 * and hash fk has (fk->valid) or the ones udp.c would build; else -1 with
 * nothing changed, and the full path decides. */
static OFL_NOINLINE int udp_hold_new(struct ofl_gro *g, const struct ofl_pkt *pkt, const uint8_t *p, uint32_t b0,
                                     uint32_t total, struct fast_key *fk, uint64_t now)
{
	struct ofl_hdrs h;
	struct ofl_flow_key k;
	uint32_t hash;
	if (!gro_udp_plain_new(g, p, b0, total, &h))
		return -1;
	if (fk->valid) {
		k = fk->k;
		hash = fk->hash;
	} else {
		int l3 = plain_key(p, b0, &k);
		if (!l3)
			return -1; /* (an IPv6 frame under 74 bytes) */
		k.w[1] |= GRO_KEY_UDP;
		hash = ofl_flow_hash_ip(&g->tab, &k, l3 == 4);
	}
	g->st.rx_pkts++;
	g->st.rx_bytes += total;
	return gro_udp_hold_plain(g, pkt, p, &h, &k, hash, now);
}

/*
 * The fast path: a frame whose headers are all in its first buffer, with a
 * hardware-verified checksum, that looks like plain Ethernet + IPv4 (no
 * options) or IPv6 (no extension headers) + TCP is first predicted against
 * the entry of the last merge (one flow's train costs no key and no hash);
 * failing that its flow key is built from fixed offsets and looked up, and
 * a held entry of the same plain shape is predicted against.  Anything
 * unexpected returns 0 and the full path decides: this path only ever
 * accepts packets the full path would merge into the same entry (returns 1:
 * OFL_GRO_MERGED).
 */
/* Returns OFL_GRO_MERGED or OFL_GRO_HELD when it took the frame, -1 when
 * the full path decides (with what fk learnt). */
static inline int fast_path(struct ofl_gro *g, const struct ofl_pkt *pkt, uint32_t total,
                            struct fast_key *fk, int tried_last, uint64_t now)
{
	struct ofl_flow_key *kp = &fk->k;
	uint32_t idx = GRO_NONE, b0 = pkt->bufs[0].len, l4, thl;
	const uint8_t *p;
	/* the headers must be in the first buffer (one buffer, or header split) */
	if (pkt->csum_status != OFL_CSUM_UNNECESSARY || (pkt->flags & OFL_PKT_F_VLAN) || b0 < 54 ||
	    total > 0xffffu)
		return -1;
	p = pkt->bufs[0].data;
	if (g->tab.count) {
		int l3;
		if (!tried_last && g->last != GRO_NONE && predict(g, g->last, pkt, p, total))
			return OFL_GRO_MERGED;
		l3 = plain_key(p, b0, kp);
		if (!l3)
			return -1;
		/* no compare with the last entry's key first: the packet did
		 * not predict against it, so it is most likely another flow */
		fk->hash = ofl_flow_hash_ip(&g->tab, kp, l3 == 4);
		g->st.lookups++;
		idx = ofl_flowtab_find(&g->tab, fk->hash, kp, gro_key_of, g, &g->st.lookup_probes);
		fk->valid = fk->hashed = 1;
	}
	/* else nothing is held: no entry to find, and no key or hash unless
	 * the frame is held (PSH-only traffic never builds one) */
	fk->looked = 1;
	fk->idx = idx;
	if (idx != GRO_NONE) {
		if (idx != g->last && predict(g, idx, pkt, p, total))
			return OFL_GRO_MERGED;
		return -1;
	}
	thl = ofl_plain_tcp(p, b0, total, &l4);
	if (thl) {
		/* a new flow of the plain shape: held here when the full path
		 * would hold it (payload, no flag that passes it on, within
		 * the byte bound); the parse is filled only for the full path */
		uint32_t len = total - l4 - thl;
		uint8_t flags = p[l4 + 13];
		if (g->held_bytes + len > g->cfg.max_held_bytes) {
			fk->plain = (uint8_t)ofl_parse_plain(p, b0, total, &fk->h);
			return -1; /* the full path makes room first */
		}
		g->st.rx_pkts++;
		g->st.rx_bytes += total;
		if (!len || (flags & TCP_NO_RUN))
			/* no held packet of this flow to go first: passed on */
			return gro_pass_normal(g, pkt, total, len ? OFL_GRO_NORMAL_FLAGS : OFL_GRO_NORMAL_NO_PAYLOAD,
			                   now, NULL);
		if (!fk->hashed) {
			plain_key(p, b0, kp); /* a plain frame has one */
			fk->hash = ofl_flow_hash_ip(&g->tab, kp, l4 == 34);
		}
		return gro_hold_plain_tcp(g, pkt, p, l4, thl, total, kp, fk->hash, now);
	}
	if (fk->valid && p[23] == 17 && kp->w[1] >> 56 == 4) {
		/* a UDP datagram over IPv4 (udp.c): its flow's key has the UDP
		 * bit, which the lookup above lacked (here, off TCP's way) */
		kp->w[1] |= GRO_KEY_UDP;
		fk->hash = ofl_flow_hash_v4(&g->tab, kp);
		g->st.lookups++;
		idx = ofl_flowtab_find(&g->tab, fk->hash, kp, gro_key_of, g, &g->st.lookup_probes);
		fk->idx = idx;
		if (idx != GRO_NONE && idx != g->last && predict(g, idx, pkt, p, total))
			return OFL_GRO_MERGED;
	}
	return -1;
}

/* Offer a frame the caller's arguments were checked for; tried_last: the
 * burst loop predicted it against the last entry already. */
int gro_receive(struct ofl_gro *g, const struct ofl_pkt *pkt, uint64_t now, int tried_last)
{
	struct ofl_hdrs h;
	struct ofl_view v;
	struct ofl_flow_key k;
	struct rx_tag tag;
	struct fast_key fk;
	uint32_t total, idx, hash = 0, nm = 0, len, et_off = 12, end;
	const uint8_t *th, *mac;
	int csum_status, plain_tag = 0;
	uint8_t flags;
	total = pkt->nbufs == 1 ? pkt->bufs[0].len : ofl_pkt_len(pkt->bufs, pkt->nbufs);
	fk.valid = fk.hashed = fk.looked = fk.plain = 0;
	if (!g->full_only) {
		int r = fast_path(g, pkt, total, &fk, tried_last, now);
		if (r >= 0)
			return r;
		/* a UDP datagram of a new flow (nothing held, or its UDP key
		 * not found: fast_path() looked, and the frame is not the
		 * plain TCP shape): held here when udp.c would hold it */
		if (gro_udp_plain_on(g) && fk.looked && !fk.plain && fk.idx == GRO_NONE &&
		    (!fk.valid || (fk.k.w[1] & GRO_KEY_UDP))) {
			r = udp_hold_new(g, pkt, pkt->bufs[0].data, pkt->bufs[0].len, total, &fk, now);
			if (r >= 0)
				return r;
		}
	} else if ((!tried_last || g->cfg.dsa) && g->last != GRO_NONE && pkt->csum_status == OFL_CSUM_UNNECESSARY &&
	           !(pkt->flags & OFL_PKT_F_VLAN) &&
	           pkt->nbufs == 1 && total <= 0xffffu &&
	           ((!tried_last && predict(g, g->last, pkt, pkt->bufs[0].data, total)) ||
	            (g->cfg.dsa && gro_tag_cached(g, pkt, total)))) {
		/* the next segment behind the same tag, or another held flow's */
		return OFL_GRO_MERGED;
	}
	g->st.rx_pkts++;
	g->st.rx_bytes += total;
	end = total;
	tag.has = 0;
	csum_status = pkt->csum_status;
	if (g->cfg.dsa) {
		if (decode_tag(g, pkt, total, &tag, now) < 0)
			return OFL_GRO_NORMAL;
		if (!g->cfg.dsa_keep_tag && pkt->nbufs == 1 && total <= 0xffffu &&
		    csum_status == OFL_CSUM_UNNECESSARY) {
			int r = gro_tag_new_flow(g, pkt, &tag, now);
			if (r >= 0)
				return r;
		}
		et_off = tag.view.rest_off;
		end = tag.view.rest_off + tag.view.rest_len;
		if (csum_status == OFL_CSUM_COMPLETE)
			csum_status = OFL_CSUM_NONE; /* the NIC's sum covered the tag */
	}
	/* Parse over the first buffer; gather a bounded copy of the headers
	 * only when they run past it. */
	v.p = pkt->bufs[0].data;
	v.len = pkt->bufs[0].len;
	if (fk.plain) {
		h = fk.h;
	} else if (tag.has && tag.view.hdr_len == 12 && tag.view.rest_off >= 12 && v.len >= tag.view.rest_off &&
	           ofl_parse_plain_at(v.p + (tag.view.rest_off - 12), v.len - (tag.view.rest_off - 12),
	                              end - (tag.view.rest_off - 12), tag.view.rest_off - 12, &h)) {
		/* behind a tag, a plain untagged frame: the one-pass parse,
		 * offsets from the tagged frame's start */
		plain_tag = 1;
	} else if (g->raw) {
		ofl_parse_raw(&v, end, &h);
		if (h.short_view && pkt->nbufs > 1) {
			v = ofl_view_make(pkt->bufs, pkt->nbufs, total, g->scratch, OFL_GRO_SCRATCH);
			ofl_parse_raw(&v, end, &h);
		}
	} else {
		ofl_parse_at(&v, end, et_off, &h);
		if (h.short_view && pkt->nbufs > 1) {
			v = ofl_view_make(pkt->bufs, pkt->nbufs, total, g->scratch, OFL_GRO_SCRATCH);
			ofl_parse_at(&v, end, et_off, &h);
		}
	}
	/* raw IP has no MAC addresses: 0 in the key */
	mac = tag.has ? tag.view.hdr : g->raw ? no_mac : v.p;
	/* a UDP tunnel port (tunnel.c) before UDP GRO: the kernel's tunnel
	 * socket takes the datagram first */
	if (h.l4proto == 17 && h.l3 && gro_tunnel_on(g)) {
		unsigned type = gro_tunnel_of(g, pkt, &v, &h, total);
		if (type)
			return gro_tunnel_receive(g, pkt, &v, &h, type, &tag, total, csum_status, now);
	}
	/* IP-in-IP (tunnel.c): IPv4 or IPv6 right behind the IP header */
	if ((h.l4proto == 4 || h.l4proto == 41) && h.l3 && h.l4_off && g->cfg.ipip)
		return gro_tunnel_receive(g, pkt, &v, &h, OFL_GRO_TUN_IPIP, &tag, total, csum_status, now);
	/* GRE (gre.c, tunnel.c): protocol 47 */
	if (h.l4proto == 47 && h.l3 && h.l4_off && g->cfg.gre)
		return gro_tunnel_receive(g, pkt, &v, &h, OFL_GRO_TUN_GRE, &tag, total, csum_status, now);
	/* UDP hook (udp13): with UDP GRO on, every UDP frame goes to udp.c */
	if ((g->cfg.udp || g->cfg.fraglist) && h.l4proto == 17 && h.l3)
		return gro_udp_receive(g, pkt, &v, &h, &tag, mac, total, csum_status, now, &fk);
	if (h.status != OFL_PARSE_OK ||
	    h.hdr_len - hdr_shift(g, &h, &tag) > (int32_t)OFL_GRO_MAX_HDR) {
		unsigned why = h.status == OFL_PARSE_OK ? (unsigned)OFL_GRO_NORMAL_HDR_TOO_LONG : h.status;
		if (h.l4_ok) {
			/* Same flow as a held packet: that one goes first. */
			build_key(pkt, mac, v.p, &h, &tag, &k);
			idx = lookup(g, &k, &hash);
			if (idx != GRO_NONE)
				gro_complete(g, idx, OFL_GRO_FLUSH_NOT_GRO);
		}
		return gro_pass_normal(g, pkt, total, why, now, &tag);
	}
	len = h.payload_len;
	th = v.p + h.l4_off;
	flags = th[13];
	if (fk.valid && h.nvlan == 0 && h.l3_off == 14 && h.ip6_ext_len == 0 &&
	    h.l4_off == (h.l3 == 4 ? 34 : 54)) {
		k = fk.k; /* the same words build_key() would write */
		hash = fk.hash;
	} else {
		if (plain_tag) /* (no VLAN tag, no extension header) */
			gro_key_fields(pkt, mac, v.p, 0, 0, h.l3, h.l3_off, h.l4_off, 0, &tag, &k);
		else
			build_key(pkt, mac, v.p, &h, &tag, &k);
		fk.valid = fk.hashed = fk.looked = 0;
		if (tag.has && h.l3 == 4) {
			/* behind a tag (no fast path): an IPv4 key has words
			 * 4-7 zero, the cheaper hash of the same value */
			hash = ofl_flow_hash_v4(&g->tab, &k);
			fk.hashed = 1;
		}
	}
	if (h.trimmed)
		g->st.padding_trimmed++;
	/* The kernel's length rule (ipv4.h, gro_ip_len_nomerge): a segment
	 * whose IP packet ends before the frame (Ethernet padding) is not
	 * merged and the held packet of its flow goes first.  Before the TCP
	 * checksum, which the kernel does not verify for such a frame.  Header
	 * prediction and the train never take one: they compare the IP length
	 * field with the frame's length. */
	if (len && gro_ip_len_nomerge(&h)) {
		idx = lookup(g, &k, &hash);
		if (idx != GRO_NONE)
			gro_complete(g, idx, OFL_GRO_FLUSH_NOT_GRO);
		return gro_pass_normal(g, pkt, total, OFL_GRO_NORMAL_PADDED, now, &tag);
	}
	if (len && csum_status != OFL_CSUM_UNNECESSARY && csum_status != OFL_CSUM_PARTIAL)
		g->st.csum_sw++;
	if (len && !gro_tcp_csum_ok(pkt, csum_status, &v, &h)) {
		idx = lookup(g, &k, &hash);
		if (idx != GRO_NONE)
			gro_complete(g, idx, OFL_GRO_FLUSH_CSUM);
		return gro_pass_normal(g, pkt, total, OFL_GRO_NORMAL_TCP_CSUM, now, &tag);
	}
	if (g->held_bytes + len > g->cfg.max_held_bytes) {
		gro_make_room(g, len);
		fk.looked = 0; /* entries may have gone */
	}
	if (fk.looked)
		idx = fk.idx; /* hash too, unless the table was empty */
	else if (fk.hashed)
		idx = lookup_hashed(g, &k, hash);
	else
		idx = lookup(g, &k, &hash), fk.hashed = 1;
	if (idx != GRO_NONE) {
		struct gro_item *it = &g->items[idx];
		nm = gro_tcp_nomerge(th, it, len);
		if (h.l3 == 4)
			nm |= gro_ipv4_nomerge(v.p + h.l3_off, it);
		else
			nm |= gro_ipv6_nomerge(v.p + h.l3_off, it, h.ip6_ext_len);
		if (!nm) {
			if (it->l3_len + len > g->cfg.max_size)
				nm = NM(OFL_GRO_FLUSH_MAX_SIZE);
			else if (it->nsegs == g->cfg.max_segs ||
			         it->nslices + gro_count_slices(pkt, h.hdr_len, len) + 1u > g->max_slices)
				nm = NM(OFL_GRO_FLUSH_MAX_SEGS);
		}
		if (it->lcsum) /* fraglist mode (list.c) */
			nm |= gro_list_tcp_nomerge(g, idx, th, &h, csum_status);
		if (!nm) {
			if (it->lcsum)
				gro_list_add(g, idx, pkt, h.hdr_len);
			gro_add_slices(g, idx, pkt, h.hdr_len, len, it->nsegs);
			return merge_tail(g, idx, pkt, len, flags);
		}
		gro_complete(g, idx, first_reason(nm));
	}
	/* New flow entry (the kernel's mss = 1 path). */
	if (len == 0)
		return gro_pass_normal(g, pkt, total, OFL_GRO_NORMAL_NO_PAYLOAD, now, &tag);
	if (flags & TCP_NO_RUN)
		return gro_pass_normal(g, pkt, total, OFL_GRO_NORMAL_FLAGS, now, &tag);
	if (len > g->cfg.max_held_bytes)
		return gro_pass_normal(g, pkt, total, OFL_GRO_NORMAL_OVER_LIMIT, now, &tag);
	if (!fk.hashed)
		hash = ofl_flow_hash(&g->tab, &k);
	if (plain_tag && !g->cfg.dsa_keep_tag && pkt->nbufs == 1 && total <= 0xffffu)
		return gro_hold_tagged_plain(g, pkt, &v, &h, &tag, &k, hash, now);
	return gro_hold_new_list(g, pkt, &v, &h, &tag, &k, hash, now, csum_status);
}

/* UDP hook (udp13): build_key() and lookup() for udp.c (stage.h). */
void gro_flow_key(const struct ofl_pkt *pkt, const uint8_t *mac, const uint8_t *p, const struct ofl_hdrs *h,
                  const struct rx_tag *tag, struct ofl_flow_key *k)
{
	build_key(pkt, mac, p, h, tag, k);
}

uint32_t gro_flow_lookup(struct ofl_gro *g, const struct ofl_flow_key *k, uint32_t *hash)
{
	return lookup(g, k, hash);
}
