/*
 * list.h - fraglist mode (ofl_gro_config.fraglist; list.c): the segments of
 * a train kept as they came, Linux's NETIF_F_GRO_FRAGLIST.  The rules it
 * adds to the plain TCP and UDP ones, and the record of where each
 * segment's own headers are, so that ofl_gro_list_seg() gives every frame
 * back whole.
 */
#ifndef OFL_GRO_LIST_H
#define OFL_GRO_LIST_H

#include "gro/stage.h"

/* Segments of a chained train: TCP stops at 64 (tcp_gro_receive: count >=
 * 64 flushes), UDP at UDP_GRO_CNT_MAX, the same number. */
#define GRO_LIST_MAX 64u
/* Per entry in ofl_gro.lidx: where the header slices of segment k start
 * in ofl_gro.lhs (k <= nsegs: the one past the last is the count), then
 * where its payload slices start in the entry's slices. */
#define GRO_LIDX (2u * (GRO_LIST_MAX + 1u))

/* Header slices per entry (ofl_gro.lhs): a segment's header spans at most
 * max_bufs buffers, so a chained train never runs out of them. */
static inline uint32_t gro_list_cap(const struct ofl_gro_config *c)
{
	return (c->max_segs < GRO_LIST_MAX ? c->max_segs : GRO_LIST_MAX) * (uint32_t)c->max_bufs;
}

/* A frame's checksum state as the kernel compares it once GRO verified it
 * (ip_summed, csum_level): NONE becomes UNNECESSARY when GRO checks it
 * (__skb_incr_checksum_unnecessary), COMPLETE and PARTIAL stay as they
 * are.  Never 0 (0: an entry not chained). */
static inline uint8_t gro_list_csum_state(int csum_status)
{
	return (uint8_t)(csum_status == OFL_CSUM_COMPLETE ? 2 : csum_status == OFL_CSUM_PARTIAL ? 3 : 1);
}

/* Why a segment (l3_len bytes of IP packet) may not
 * join the chained entry idx, beyond the plain rules: NM bits of
 * OFL_GRO_FLUSH_CSUM_STATE, _MAX_SIZE (the merged packet plus the frame's
 * own IP packet over 65535 bytes or max_size, skb_gro_receive_list),
 * _MAX_SEGS (64 segments); 0: it may. */
uint32_t gro_list_nomerge(const struct ofl_gro *g, uint32_t idx, uint32_t l3_len, int csum_status);
/* Record where segment it->nsegs of entry idx has its header (the frame's
 * first hdr_len bytes): call before its payload slices are added and
 * nsegs counts it. */
void gro_list_add(struct ofl_gro *g, uint32_t idx, const struct ofl_pkt *pkt, uint32_t hdr_len);
/* Entry idx was just held from pkt (its payload slices recorded): make it
 * a chained one, its first segment's header recorded. */
void gro_list_hold(struct ofl_gro *g, uint32_t idx, const struct ofl_pkt *pkt, uint32_t hdr_len,
                   int csum_status);
/* TCP in fraglist mode (tcp_gro_receive with is_flist): the whole flag word
 * (data offset, flags, window: bytes 12-15) equal, FLUSH_FLAGS, and the
 * rules of gro_list_nomerge(). */
uint32_t gro_list_tcp_nomerge(const struct ofl_gro *g, uint32_t idx, const uint8_t *th, const struct ofl_hdrs *h,
                              int csum_status);

/* gro_hold_new(), then (fraglist mode) the new entry made a chained one. */
static inline int gro_hold_new_list(struct ofl_gro *g, const struct ofl_pkt *pkt, const struct ofl_view *v,
                                    const struct ofl_hdrs *h, const struct rx_tag *tag,
                                    const struct ofl_flow_key *k, uint32_t hash, uint64_t now, int csum_status)
{
	int r = gro_hold_new(g, pkt, v, h, tag, k, hash, now);
	if (g->lhs)
		gro_list_hold(g, g->last, pkt, h->hdr_len, csum_status);
	return r;
}

#endif
