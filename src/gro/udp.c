/*
 * udp.c - the UDP layer of GRO: the kernel's UDP GRO as it merges for a
 * device with rx-udp-gro-forwarding (net/ipv4/udp_offload.c udp4_gro_receive,
 * udp_gro_receive, udp_gro_receive_segment; net/ipv6/udp_offload.c), and the
 * completion of a merged train (udp4/6_gro_complete).  A flow of the plain
 * shape (udp.h gro_udp_plain(): item.fast GRO_FAST_UDP) is also predicted
 * and trained as a TCP one is (predict.h, merge.c), with the datagram
 * rules and the merge's end of udp.h; every frame they refuse comes here.
 *
 * The order of the checks, as in Linux 6.18:
 *   - the UDP header must be in the frame (udp_gro_udphdr);
 *   - the checksum is validated unless it is 0 or the NIC did
 *     (skb_gro_checksum_validate_zero_check): bad -> not merged;
 *   - a zero checksum is not merged ("for symmetry with GSO");
 *   - a UDP length <= 8 or other than the datagram's real length is not
 *     merged ("padded or malicious packets");
 *   - a held datagram of the same addresses and ports (and VLAN, DSA port)
 *     is looked up; the IP rules of TCP (gro_receive_network_flush: IPv4
 *     TTL/TOS/DF and ID, IPv6 traffic class and hop limit, extension
 *     headers) or a datagram larger than the first complete it and the new
 *     one starts a train (ulen > ntohs(uh2->len));
 *   - the merge itself may fail for the size (skb_gro_receive: 64 KiB of IP
 *     packet) and then also starts a train; else the datagram is merged,
 *     and a shorter one than the first, or the 64th (UDP_GRO_CNT_MAX),
 *     completes the train at once.
 * Where the kernel passes a datagram on and keeps the held train of its
 * flow (bad, zero checksum, bad length, padding, IP options, ...), the train
 * is completed first here, as for TCP: per-flow order (gro.h).
 * A port in udp_no_merge_ports is the kernel's socket that did not ask for
 * UDP_GRO: never merged (checked first here, the checksum unread).
 */
#include <ofl/csum.h>

#include "core/csum_int.h"
#include "gro/hold.h"
#include "gro/ipv4.h"
#include "gro/ipv6.h"
#include "gro/layer.h"
#include "gro/list.h"
#include "gro/udp.h"

/* udp4/6_gro_complete: udp.h gro_udp_complete_l3(). */
static void gro_udp_complete(struct gro_item *it)
{
	gro_udp_complete_l3(it, it->l3);
}

/* Per datagram the length and the checksum differ; the ports are compared
 * whole (they are in the flow key).  No options: the payload follows. */
const struct gro_layer gro_layer_udp = {
	.name = "udp",
	.plain_len = 8,
	.fixed_len = 1,
	.nholes = 1,
	.holes = {{4, 4, 0}},
	.complete = gro_udp_complete,
};

/* Pass the frame on; the held train of its flow, if any, goes first. */
static int refuse(struct ofl_gro *g, const struct ofl_pkt *pkt, const struct rx_tag *tag,
                  const struct ofl_flow_key *k, unsigned flush_why, unsigned why, uint32_t total, uint64_t now)
{
	uint32_t hash, idx = gro_flow_lookup(g, k, &hash);
	if (idx != GRO_NONE)
		gro_complete(g, idx, flush_why);
	return gro_pass_normal(g, pkt, total, why, now, tag);
}

/* Merge the datagram (len payload bytes after hdr_len) into held entry idx,
 * or say why not (a flush reason; the caller completes the entry).  -1: the
 * datagram may not join in fraglist mode and is passed on (its checksum
 * state; the kernel keeps the train and sends the datagram up alone). */
static int try_merge(struct ofl_gro *g, uint32_t idx, const struct ofl_pkt *pkt, const struct ofl_view *v,
                     const struct ofl_hdrs *h, uint32_t len, int csum_status, unsigned *why)
{
	struct gro_item *it = &g->items[idx];
	const uint8_t *ip = v->p + h->l3_off;
	uint32_t nm, max_l3 = gro_udp_max_l3(g);
	nm = h->l3 == 4 ? gro_ipv4_nomerge(ip, it) : gro_ipv6_nomerge(ip, it, h->ip6_ext_len);
	if (!nm && len > it->seg_size)
		nm = NM(OFL_GRO_FLUSH_SIZE);
	if (!nm && it->lcsum) {
		/* fraglist mode: after the IP rules and the size, as
		 * udp_gro_receive_segment() checks is_flist */
		nm = gro_list_nomerge(g, idx, h->l3_end - h->l3_off, csum_status);
		if (nm == NM(OFL_GRO_FLUSH_CSUM_STATE)) {
			*why = OFL_GRO_FLUSH_CSUM_STATE;
			return -1;
		}
	}
	if (!nm && it->l3_len + len > max_l3)
		nm = NM(OFL_GRO_FLUSH_MAX_SIZE);
	if (!nm && (it->nsegs == g->cfg.max_segs ||
	            it->nslices + gro_count_slices(pkt, h->hdr_len, len) + 1u > g->max_slices))
		nm = NM(OFL_GRO_FLUSH_MAX_SEGS);
	if (nm) {
		*why = (unsigned)__builtin_ctz(nm);
		return 0;
	}
	if (it->lcsum)
		gro_list_add(g, idx, pkt, h->hdr_len);
	if (pkt->nbufs == 1)
		gro_slices(g, idx)[it->nslices++] =
		    (struct ofl_slice){pkt->bufs[0].data + h->hdr_len, len, it->nsegs, 0};
	else
		gro_add_slices(g, idx, pkt, h->hdr_len, len, it->nsegs);
	gro_udp_merged(g, idx, pkt, len);
	return 1;
}

int gro_udp_receive(struct ofl_gro *g, const struct ofl_pkt *pkt, struct ofl_view *v, struct ofl_hdrs *h,
                    const struct rx_tag *tag, const uint8_t *mac, uint32_t total, int csum_status,
                    uint64_t now, const struct fast_key *fk)
{
	struct ofl_flow_key k;
	const uint8_t *uh;
	uint32_t l4 = h->l4_off, hash = 0, idx, ulen, len;
	unsigned why;
	int looked = fk->looked, hashed = 0;
	/* no UDP header: a later fragment, or one that does not fit in the
	 * IP packet (no flow to name: nothing held goes first) */
	if (l4 == 0 || l4 + 8u > h->l3_end || l4 + 8u > h->frame_len)
		return gro_pass_normal(g, pkt, total,
		                       h->status == OFL_PARSE_NOT_TCP ? OFL_GRO_NORMAL_MALFORMED : h->status, now, tag);
	if (l4 + 8u > v->len && pkt->nbufs > 1)
		*v = ofl_view_make(pkt->bufs, pkt->nbufs, total, g->scratch, OFL_GRO_SCRATCH);
	if (l4 + 8u > v->len)
		return gro_pass_normal(g, pkt, total, OFL_GRO_NORMAL_HDR_TOO_LONG, now, tag);
	uh = v->p + l4;
	if (!gro_udp_port_ok(&g->cfg, ofl_get16(uh + 2)))
		return gro_pass_normal(g, pkt, total, OFL_GRO_NORMAL_UDP_PORT, now, tag);
	h->hdr_len = (uint16_t)(l4 + 8u);
	h->payload_len = h->l3_end - h->hdr_len;
	h->l4_ok = 1;
	if (fk->valid && (fk->k.w[1] & GRO_KEY_UDP) && !tag->has && h->nvlan == 0 && h->l3_off == 14 &&
	    h->ip6_ext_len == 0 && l4 == (h->l3 == 4 ? 34u : 54u)) {
		/* the words the fast path built (hold.h plain_key(), and the
		 * UDP bit: receive.c) */
		k = fk->k;
		hash = fk->hash;
		hashed = 1;
	} else {
		gro_flow_key(pkt, mac, v->p, h, tag, &k);
		k.w[1] |= GRO_KEY_UDP;
		/* the fast path's lookup holds for this key only when nothing
		 * was held (no key, no entry) */
		looked = looked && !fk->valid;
	}
	/* what the IP layer refused (options, header checksum, a first
	 * fragment, ...), or headers too long to hold */
	if (h->status != OFL_PARSE_NOT_TCP)
		return refuse(g, pkt, tag, &k, OFL_GRO_FLUSH_NOT_GRO, h->status, total, now);
	if (h->hdr_len - hdr_shift(g, h, tag) > (int32_t)OFL_GRO_MAX_HDR)
		return refuse(g, pkt, tag, &k, OFL_GRO_FLUSH_NOT_GRO, OFL_GRO_NORMAL_HDR_TOO_LONG, total, now);
	if (h->trimmed) {
		/* Ethernet padding after the IP packet: the kernel compares the
		 * UDP length with the frame's and merges nothing (ipv4.h) */
		g->st.padding_trimmed++;
		return refuse(g, pkt, tag, &k, OFL_GRO_FLUSH_NOT_GRO, OFL_GRO_NORMAL_PADDED, total, now);
	}
	ulen = ofl_get16(uh + 4);
	if (uh[6] | uh[7]) {
		if (csum_status != OFL_CSUM_UNNECESSARY && csum_status != OFL_CSUM_PARTIAL)
			g->st.csum_sw++;
		if (!gro_tcp_csum_ok(pkt, csum_status, v, h))
			return refuse(g, pkt, tag, &k, OFL_GRO_FLUSH_CSUM, OFL_GRO_NORMAL_UDP_CSUM, total, now);
	} else {
		return refuse(g, pkt, tag, &k, OFL_GRO_FLUSH_NOT_GRO, OFL_GRO_NORMAL_UDP_ZERO_CSUM, total, now);
	}
	if (!gro_udp_len_ok(ulen, h->l3_end - l4))
		return refuse(g, pkt, tag, &k, OFL_GRO_FLUSH_NOT_GRO, OFL_GRO_NORMAL_UDP_LEN, total, now);
	len = h->payload_len;
	if (g->held_bytes + len > g->cfg.max_held_bytes) {
		gro_make_room(g, len);
		looked = 0; /* entries may have gone */
	}
	if (looked) {
		idx = fk->idx;
	} else {
		idx = gro_flow_lookup(g, &k, &hash);
		hashed = 1;
	}
	if (idx != GRO_NONE) {
		int r = try_merge(g, idx, pkt, v, h, len, csum_status, &why);
		if (r > 0)
			return OFL_GRO_MERGED;
		gro_complete(g, idx, why);
		if (r < 0)
			return gro_pass_normal(g, pkt, total, OFL_GRO_NORMAL_CSUM_STATE, now, tag);
	}
	if (len > g->cfg.max_held_bytes)
		return gro_pass_normal(g, pkt, total, OFL_GRO_NORMAL_OVER_LIMIT, now, tag);
	if (!hashed)
		hash = ofl_flow_hash(&g->tab, &k);
	return gro_hold_new_list(g, pkt, v, h, tag, &k, hash, now, csum_status);
}

/*
 * gro_udp_first_bufs() (udp.h): the datagram gro_receive() would give to
 * gro_udp_receive() (UDP GRO on, no tunnel port: gro_udp_plain_on()),
 * which would find nothing held and hold it (hold.h gro_udp_plain_new():
 * the plain shape, its rules, the byte bound), its checksum verified and
 * no VLAN flag, its buffers as check_args() takes them (a NULL one empty,
 * within max_bufs) and at most 0xffff bytes.  The key as gro_hold_new()'s
 * (hold.h plain_key(), GRO_KEY_UDP): of an IPv6 datagram whose first
 * buffer ends before the 74 bytes plain_key() wants (a TCP header's; the
 * UDP key's words end at byte 58), from its headers copied and padded.
 * Its slices cut as the hold cuts a frame of several buffers.
 */
unsigned gro_udp_first_bufs(struct ofl_gro *g, const struct ofl_pkt *pkts, unsigned n, uint64_t now)
{
	const struct ofl_buf *b = pkts->bufs;
	const struct ofl_pkt *q = pkts + 1;
	const uint32_t nb = pkts->nbufs;
	uint64_t total;
	uint32_t k, idx, empty = 0;
	struct ofl_hdrs h;
	struct ofl_flow_key key, *kp = NULL;
	uint32_t hash = 0;
	if (!gro_udp_plain_on(g) || (gro_pkt_word(pkts) & gro_pkt_word_of(0, 0xff, OFL_PKT_F_VLAN)) !=
	                                gro_pkt_word_of(0, OFL_CSUM_UNNECESSARY, 0) ||
	    nb > g->cfg.max_bufs || !b || !b->data)
		return 0;
	for (total = b->len, k = 1; k < nb; k++) {
		if (b[k].len && !b[k].data)
			return 0;
		total += b[k].len;
		empty |= !b[k].len;
	}
	if (total > 0xffffu || !gro_udp_plain_new(g, b->data, b->len, (uint32_t)total, &h))
		return 0;
	if (!plain_keyed(h.l3, b->len)) {
		/* (IPv6: the headers, 62 bytes, within the first buffer) */
		uint8_t hdr[14u + 40u + 20u] = {0};
		memcpy(hdr, b->data, h.l4_off + 8u);
		plain_key(hdr, sizeof hdr, &key);
		kp = &key;
		hash = ofl_flow_hash_ip(&g->tab, kp, 0);
	}
	g->st.rx_pkts++;
	g->st.rx_bytes += total;
	if (empty || b->len != h.hdr_len) {
		gro_udp_hold_plain(g, pkts, b->data, &h, kp, hash, now); /* (hold.c's cut) */
		idx = g->last;
	} else {
		/* the header split: the later buffers the slices, written
		 * here (hold.h sl1: the hold writes none) */
		struct ofl_slice *s;
		hold_plain_l4(g, pkts, b->data, &h, kp, hash, now, 1, 1);
		idx = g->last;
		s = gro_slices(g, idx);
		for (k = 1; k < nb; k++)
			s[k - 1] = (struct ofl_slice){b[k].data, b[k].len, 0, (uint16_t)k};
		g->items[idx].nslices = (uint16_t)(nb - 1u);
	}
	/* its next frames trained when the next has its ports (as burst.c
	 * train_after_first()) */
	if (n > 1 && g->items[idx].fast == GRO_FAST_UDP && q->nbufs && q->bufs && q->bufs->data &&
	    q->bufs->len >= h.l4_off + 4u && ld32(q->bufs->data + h.l4_off) == ld32(b->data + h.l4_off))
		return gro_train(g, idx, pkts, 1, n, now) + 1;
	return 1;
}
