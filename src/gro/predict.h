/*
 * predict.h - header prediction: a frame against a held entry in one masked
 * compare of the header bytes that must be equal, then the fields that
 * must advance; the merge of a predicted segment.
 */
#ifndef OFL_GRO_PREDICT_H
#define OFL_GRO_PREDICT_H

#include "gro/cmp.h"
#include "gro/ipv4.h"
#include "gro/stage.h"
#include "gro/tcp.h"
#include "gro/tunfast.h"
#include "gro/udp.h"

/* Account a merged segment whose slices are recorded, and end the train
 * on a short segment or PSH/FIN/URG/RST/SYN (tcp_gro_receive's final check). */
static inline int merge_tail(struct ofl_gro *g, uint32_t idx, const struct ofl_pkt *pkt, uint32_t len,
                             uint8_t flags)
{
	struct gro_item *it = &g->items[idx];
	gro_merge_count(g, idx, pkt, len);
	it->next_seq += len;
	it->fin_psh |= flags & (TCP_FIN | TCP_PSH);
	if ((flags & TCP_NO_RUN) || len < it->seg_size)
		gro_end_train(g, idx, flags);
	return OFL_GRO_MERGED;
}

/* A predicted frame of bytes bytes (len of payload, its slices recorded)
 * counted and merged: merge_tail(), or a UDP flow's gro_udp_merged(). */
static inline OFL_ALWAYS_INLINE int predict_merged(struct ofl_gro *g, uint32_t idx, const struct ofl_pkt *pkt,
                                                   uint32_t bytes, uint32_t len, uint8_t flags, const int udp)
{
	g->st.rx_pkts++;
	g->st.rx_bytes += bytes;
	g->st.merged_fast++;
	if (udp)
		gro_udp_merged(g, idx, pkt, len);
	else
		merge_tail(g, idx, pkt, len, flags);
	return 1;
}

/* The end of header prediction for a frame in one buffer: its payload (len
 * bytes at data) becomes the entry's next slice, then merge_tail() (udp:
 * gro_udp_merged()). */
static inline OFL_ALWAYS_INLINE int predict_take_l4(struct ofl_gro *g, uint32_t idx, const struct ofl_pkt *pkt,
                                                    const uint8_t *data, uint32_t len, uint8_t flags, const int udp)
{
	struct gro_item *it = &g->items[idx];
	struct ofl_slice *sl = &gro_slices(g, idx)[it->nslices++];
	sl->data = data;
	sl->len = len;
	sl->pkt = it->nsegs;
	sl->buf = 0;
	return predict_merged(g, idx, pkt, pkt->bufs[0].len, len, flags, udp);
}
static inline int predict_take(struct ofl_gro *g, uint32_t idx, const struct ofl_pkt *pkt, const uint8_t *data,
                               uint32_t len, uint8_t flags)
{
	return predict_take_l4(g, idx, pkt, data, len, flags, 0);
}

/* Bytes before the untagged frame's EtherType beyond the 12 MAC bytes: the
 * DSA tag's, for an entry predicted behind one (0 otherwise). */
static inline uint32_t tag_pre(const struct gro_item *it)
{
	return it->rawpre_len ? it->rawpre_len - 12u : 0;
}

/* Does the frame (buflen bytes at p) carry the entry's TCP ports where its
 * shape has them?  The cheap first check of header prediction. */
static inline int same_ports_at(const struct gro_item *it, const uint8_t *p, uint32_t buflen)
{
	uint32_t o = tag_pre(it) + it->l4_off;
	return buflen >= o + 4 && ld32(p + o) == ld32(it->hdr + it->l4_off);
}

/* Does the frame carry the entry's TCP ports where a plain header has them
 * (a hint: a train of one frame costs more than it saves)? */
static inline int same_ports(const struct gro_item *it, const struct ofl_pkt *pkt)
{
	return pkt->nbufs && pkt->bufs && pkt->bufs[0].data &&
	       same_ports_at(it, pkt->bufs[0].data, pkt->bufs[0].len);
}

/* Does the tagged frame p (total bytes, one buffer) repeat the entry's
 * first segment up to the untagged EtherType (tag, MACs) and in its tail
 * tag?  The tag decodes the same then: same port, same metadata. */
static inline int tag_same(const struct gro_item *it, const struct gro_cold *c, const uint8_t *p,
                           uint32_t total)
{
	uint32_t n = it->rawpre_len, t = it->rawtail_len, o;
	uint64_t d = ld64(p + n - 8) ^ ld64(c->rawpre + n - 8);
	for (o = 0; o + 8 < n; o += 8)
		d |= ld64(p + o) ^ ld64(c->rawpre + o);
	for (o = 0; o < t; o++)
		d |= (uint64_t)(p[total - t + o] ^ c->rawtail[o]);
	return d == 0;
}

static inline uint32_t sat_sub(uint32_t a, uint32_t b)
{
	return a > b ? a - b : 0;
}

/* How many header bytes the masked compare reads for a header of hl bytes:
 * at least GRO_CMP_MIN (cmp.h; a UDP/IPv4 header is 42 bytes, and its
 * stack's mask is 0 past the header: layer.h). */
static inline uint32_t pred_cmp_len(uint32_t hl)
{
	return hl < GRO_CMP_MIN ? GRO_CMP_MIN : hl;
}

/* Header prediction proper: the frame (headers in p, the first buffer)
 * against the held entry idx.  Every header byte the kernel's rules want
 * equal is compared under the context's byte mask for the entry's stack in
 * one compare (cmp.h: MACs, ethertype, addresses and ports included, so this is
 * also the flow check); the bytes that change per segment (IP length, ID
 * and checksum, TCP sequence, FIN/PSH, checksum, urgent pointer; UDP length
 * and checksum) are checked by their own rules after.  udp: a GRO_FAST_UDP
 * entry (udp.h: its datagram rules instead of the TCP sequence, its
 * merge's end, its size bound; never behind a DSA tag). */
static inline OFL_ALWAYS_INLINE int predict_l4(struct ofl_gro *g, uint32_t idx, const struct ofl_pkt *pkt,
                                               const uint8_t *p, uint32_t total, const int udp)
{
	struct gro_item *it = &g->items[idx];
	const uint8_t *h0 = it->hdr, *m, *ip, *th;
	uint32_t hl = it->hdr_len, len;
	if (pkt->bufs[0].len < (udp ? pred_cmp_len(hl) : hl))
		return 0;
	m = udp ? g->pmask[it->stack] : g->pmask[it->l3 == 6];
	if (!udp && it->rawpre_len) {
		/* behind a DSA tag: the same tag (and MACs), then the untagged
		 * header from its EtherType on */
		uint32_t pre = tag_pre(it);
		if (pkt->nbufs != 1 || pkt->bufs[0].len < hl + pre ||
		    !tag_same(it, &g->cold[idx], p, total) || gro_cmp(p + pre, h0, m, 12, hl))
			return 0;
		p += pre;
		total -= pre + it->rawtail_len;
	} else if (gro_cmp(p, h0, m, 0, udp ? pred_cmp_len(hl) : hl)) {
		return 0;
	}
	ip = p + 14;
	th = p + it->l4_off;
	len = total - hl;
	if (len - 1u >= it->seg_size ||
	    (udp ? !gro_udp_own_ok(th, total - it->l4_off) : ofl_get32(th + 4) != it->next_seq))
		return 0;
	if (it->l3 == 4) {
		if (ofl_get16(ip + 2) != total - 14 || ofl_csum_ip4_fold(ip) != 0xffff)
			return 0;
	} else if (ofl_get16(ip + 4) != total - 54) {
		return 0;
	}
	if (it->l3_len + len > (udp ? gro_udp_max_l3(g) : g->cfg.max_size) || it->nsegs == g->cfg.max_segs ||
	    g->held_bytes + len > g->cfg.max_held_bytes)
		return 0;
	if (pkt->nbufs != 1)
		return udp ? gro_predict_bufs_udp(g, idx, pkt, ip, len) : gro_predict_bufs(g, idx, pkt, ip, len, th[13]);
	if (it->nslices + 2u > g->max_slices || (it->l3 == 4 && gro_ipv4_id_nomerge(ip, it)))
		return 0;
	return predict_take_l4(g, idx, pkt, p + hl, len, udp ? 0 : th[13], udp);
}

static inline int predict(struct ofl_gro *g, uint32_t idx, const struct ofl_pkt *pkt, const uint8_t *p,
                          uint32_t total)
{
	const struct gro_item *it = &g->items[idx];
	if (it->fast != GRO_FAST_PLAIN)
		return it->fast == GRO_FAST_TUN ? gro_predict_tun(g, idx, pkt, p, total)
		                                : it->fast == GRO_FAST_UDP && gro_predict_udp(g, idx, pkt, p, total);
	return predict_l4(g, idx, pkt, p, total, 0);
}

#endif
