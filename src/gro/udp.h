/*
 * udp.h - UDP GRO (udp.c): the kernel's udp_gro_receive_segment rules for a
 * context with ofl_gro_config.udp set, reached from the full path of
 * receive.c for every frame whose IP header says UDP; and the per-datagram
 * rules and the merge's end that header prediction and the train share
 * with it (predict.h, merge.c) for a flow of the plain shape (GRO_FAST_UDP).
 */
#ifndef OFL_GRO_UDP_H
#define OFL_GRO_UDP_H

#include "core/csum_int.h"
#include "gro/stage.h"

/* The kernel's UDP_GRO_CNT_MAX: a train is completed at 64 datagrams. */
#define GRO_UDP_CNT_MAX 64u
/* UDP GRO builds no IP packet above the legacy 64 KiB, whatever max_size
 * (skb_gro_receive lets only unencapsulated TCP grow past it). */
#define GRO_UDP_MAX_L3 65535u
/* Bit 55 of flow key word 1 (flowtab.h): the flow is UDP, so that a UDP
 * flow never meets the TCP flow of the same addresses and ports. */
#define GRO_KEY_UDP (1ull << 55)

/* The largest IP packet a UDP flow of the context grows to. */
static inline uint32_t gro_udp_max_l3(const struct ofl_gro *g)
{
	return g->cfg.max_size < GRO_UDP_MAX_L3 ? g->cfg.max_size : GRO_UDP_MAX_L3;
}

/* A datagram's own rules once its checksum is known valid (the UDP header
 * at uh, l4_len the bytes the IP header gives it): a zero checksum is never
 * merged, nor a UDP length <= 8 or other than l4_len. */
static inline int gro_udp_len_ok(uint32_t ulen, uint32_t l4_len)
{
	return ulen > 8u && ulen == l4_len;
}
static inline int gro_udp_own_ok(const uint8_t *uh, uint32_t l4_len)
{
	return (uh[6] | uh[7]) && gro_udp_len_ok(ofl_get16(uh + 4), l4_len);
}

/* May a datagram to port (host order) merge: not one of
 * udp_no_merge_ports, the kernel's sockets that did not ask for UDP_GRO? */
static inline int gro_udp_port_ok(const struct ofl_gro_config *c, uint16_t port)
{
	unsigned i;
	for (i = 0; i < c->udp_nports; i++)
		if (c->udp_no_merge_ports[i] == port)
			return 0;
	return 1;
}

/* A datagram of a new flow that udp.c holds (its UDP header at uh, l4_len
 * bytes from there to the IP packet's end, no padding, checksum verified,
 * the IP layer's checks passed): the datagram's own rules
 * (gro_udp_own_ok()) and a destination port that may merge. */
static inline int gro_udp_new_ok(const struct ofl_gro_config *c, const uint8_t *uh, uint32_t l4_len)
{
	if (!gro_udp_own_ok(uh, l4_len))
		return 0;
	return !c->udp_nports || gro_udp_port_ok(c, ofl_get16(uh + 2));
}

/* The end of a datagram's merge into entry idx (its slices written):
 * counted, and the train completed when the datagram is shorter than the
 * first or the 64th (UDP_GRO_CNT_MAX). */
static inline int gro_udp_merged(struct ofl_gro *g, uint32_t idx, const struct ofl_pkt *pkt, uint32_t len)
{
	struct gro_item *it = &g->items[idx];
	gro_merge_count(g, idx, pkt, len);
	if (len < it->seg_size)
		gro_complete(g, idx, OFL_GRO_FLUSH_SHORT);
	else if (it->nsegs >= GRO_UDP_CNT_MAX)
		gro_complete(g, idx, OFL_GRO_FLUSH_UDP_CNT);
	return OFL_GRO_MERGED;
}

/* Is a UDP flow just held (entry it, from frame pkt, parse h) of the plain
 * shape header prediction covers (GRO_FAST_UDP): untagged Ethernet, IPv4
 * without options or IPv6 without extension headers, no DSA tag? */
static inline int gro_udp_plain(const struct gro_item *it, const struct ofl_pkt *pkt, const struct ofl_hdrs *h,
                                const struct rx_tag *tag)
{
	return h->l4proto == 17 && !tag->has && !(pkt->flags & OFL_PKT_F_VLAN) && it->l3_off == 14 &&
	       h->ip6_ext_len == 0 && it->l4_off == (h->l3 == 4 ? 34u : 54u) && it->hdr_len <= GRO_PRED_MAX;
}

/* Header prediction of a frame against a GRO_FAST_UDP entry (predict.h,
 * the same checks as a TCP flow's with the UDP rules): 1 when it merged
 * the frame as udp.c would have, 0 when the full path decides (merge.c). */
int gro_predict_udp(struct ofl_gro *g, uint32_t idx, const struct ofl_pkt *pkt, const uint8_t *p, uint32_t total);

/*
 * Offer a UDP frame (h->l4proto 17; any parse status: the IP-level refusals
 * arrive here too, so that the held train of their flow goes first).  v is
 * the view the frame was parsed over (it may be replaced by a gathered one),
 * mac the flow key's MAC bytes (receive.c), csum_status the frame's checksum
 * state as GRO sees it (COMPLETE turned NONE behind a DSA tag), fk what the
 * fast path learnt of the frame (its key, hash and lookup, reused when the
 * frame is of the plain shape).  Returns an enum ofl_gro_result.
 */
int gro_udp_receive(struct ofl_gro *g, const struct ofl_pkt *pkt, struct ofl_view *v, struct ofl_hdrs *h,
                    const struct rx_tag *tag, const uint8_t *mac, uint32_t total, int csum_status,
                    uint64_t now, const struct fast_key *fk);

/* udp4/6_gro_complete (the layer's completion, udp.c), for a flow over IP
 * version l3: the UDP length of the merged datagram, and in the checksum
 * field the pseudo-header sum (CHECKSUM_PARTIAL). */
static inline OFL_ALWAYS_INLINE void gro_udp_complete_l3(struct gro_item *it, unsigned l3)
{
	uint8_t *uh = it->hdr + it->l4_off;
	uint32_t ulen = it->l3_len - (uint32_t)(it->l4_off - it->l3_off);
	uint16_t c;
	ofl_put16(uh + 4, (uint16_t)ulen); /* <= 65535 - 20 (GRO_UDP_MAX_L3) */
	c = (uint16_t)~ofl_csum_fold_inl(gro_pseudo_sum_at(it->hdr, l3, it->l3_off, ulen, 17));
	memcpy(uh + 6, &c, 2);
}

/* burst_first.c gro_first_hold_bufs(): a burst's first frame in several buffers
 * (nbufs > 1), nothing held, the burst not grouped and its flow next, not
 * plain TCP.  A UDP datagram of the plain shape (its headers in the first
 * buffer) held as gro_receive() would hold it, then its next frames
 * trained (merge.c gro_train()).  Returns the frame the burst loop goes on
 * from (0: not held, the loop decides). */
unsigned gro_udp_first_bufs(struct ofl_gro *g, const struct ofl_pkt *pkts, unsigned n, uint64_t now);

/* renew.c: gro_train_renew_udp() for a span of several buffers (merge.c:
 * the frame held with the run's slices, nosl). */
uint32_t gro_train_renew_udp_bufs(struct ofl_gro *g, uint32_t idx, const struct ofl_pkt *pkt, uint64_t now);

#endif
