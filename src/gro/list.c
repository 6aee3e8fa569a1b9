/*
 * list.c - fraglist mode (list.h): what Linux does with NETIF_F_GRO_FRAGLIST
 * (net/ipv4/udp_offload.c udp_gro_receive_segment with is_flist,
 * net/ipv4/tcp_offload.c tcp_gro_receive, net/core/gro.c
 * skb_gro_receive_list), and the walk over a delivered list packet.
 *
 * The kernel chains the skbs of a train on the first one's frag_list, each
 * with its headers still in front of its data, and its forwarding path
 * gives them back with skb_segment_list().  Here the merged packet is
 * delivered as usual (hdr + slices) and each segment's own header bytes are
 * recorded as slices of its buffers next to the entry, so that
 * ofl_gro_list_seg() gives every frame back as it came.
 */
#include <string.h>

#include <ofl/gro.h>

#include "core/cursor.h"
#include "gro/list.h"

static uint32_t *lidx_of(const struct ofl_gro *g, uint32_t idx)
{
	return g->lidx + (size_t)idx * GRO_LIDX;
}

static struct ofl_slice *lhs_of(const struct ofl_gro *g, uint32_t idx)
{
	return g->lhs + (size_t)idx * gro_list_cap(&g->cfg);
}

uint32_t gro_list_nomerge(const struct ofl_gro *g, uint32_t idx, uint32_t l3_len, int csum_status)
{
	const struct gro_item *it = &g->items[idx];
	uint32_t max = g->cfg.max_size < 65535u ? g->cfg.max_size : 65535u;
	if (gro_list_csum_state(csum_status) != it->lcsum)
		return NM(OFL_GRO_FLUSH_CSUM_STATE);
	/* skb_gro_receive_list(): p->len + skb->len >= 65536, where skb->len
	 * still counts the new segment's own headers */
	if (it->l3_len + l3_len > max)
		return NM(OFL_GRO_FLUSH_MAX_SIZE);
	if (it->nsegs >= GRO_LIST_MAX)
		return NM(OFL_GRO_FLUSH_MAX_SEGS);
	return 0;
}

uint32_t gro_list_tcp_nomerge(const struct ofl_gro *g, uint32_t idx, const uint8_t *th, const struct ofl_hdrs *h,
                              int csum_status)
{
	const struct gro_item *it = &g->items[idx];
	uint32_t nm = 0;
	if (memcmp(th + 12, it->hdr + it->l4_off + 12, 4) != 0)
		nm = NM(OFL_GRO_FLUSH_FLAGS);
	return nm | gro_list_nomerge(g, idx, h->l3_end - h->l3_off, csum_status);
}

/* Records segment k's own header bytes (hdr_len of pkt) and where its
 * payload slices start (first, the entry's slice count before it). */
static void list_record(struct ofl_gro *g, uint32_t idx, uint32_t k, uint32_t first, const struct ofl_pkt *pkt,
                        uint32_t hdr_len)
{
	uint32_t *x = lidx_of(g, idx);
	uint32_t used = x[k], n;
	struct ofl_slice *s = lhs_of(g, idx) + used;
	if (pkt->nbufs == 1) {
		*s = (struct ofl_slice){pkt->bufs[0].data, hdr_len, (uint16_t)k, 0};
		n = 1;
	} else {
		/* at most nbufs pieces: gro_list_cap() has room for them */
		struct ofl_cursor c = ofl_cur_bufs(pkt->bufs, pkt->nbufs, 0);
		n = ofl_cur_cut(&c, hdr_len, 0, (uint16_t)k, s, pkt->nbufs);
	}
	x[k + 1] = used + n;
	x[GRO_LIST_MAX + 1 + k] = first;
}

void gro_list_add(struct ofl_gro *g, uint32_t idx, const struct ofl_pkt *pkt, uint32_t hdr_len)
{
	const struct gro_item *it = &g->items[idx];
	list_record(g, idx, it->nsegs, it->nslices, pkt, hdr_len);
}

void gro_list_hold(struct ofl_gro *g, uint32_t idx, const struct ofl_pkt *pkt, uint32_t hdr_len,
                   int csum_status)
{
	struct gro_item *it = &g->items[idx];
	it->lcsum = gro_list_csum_state(csum_status);
	it->fast = 0; /* never predicted: every segment through the rules here */
	lidx_of(g, idx)[0] = 0;
	/* the first segment: its payload slices are the entry's first */
	list_record(g, idx, 0, 0, pkt, hdr_len);
}

/* Is entry idx on the delivery list the deliver callback has now (a free
 * entry may be PENDING too: gro_int.h)? */
static int on_delivery(const struct ofl_gro *g, uint32_t idx)
{
	uint32_t i = g->pend_head;
	if (!g->in_cb || i == GRO_NONE)
		return 0;
	for (;;) {
		if (i == idx)
			return 1;
		if (i == g->pend_tail)
			return 0;
		i = g->items[i].next;
	}
}

int ofl_gro_list_seg(const struct ofl_gro *g, const struct ofl_gro_out *o, unsigned i, struct ofl_gro_seg *seg)
{
	const struct gro_item *it;
	const uint32_t *x;
	uintptr_t at, base;
	size_t off;
	uint32_t idx, k, pend;
	if (seg)
		memset(seg, 0, sizeof(*seg));
	if (!g || !o || !seg || !g->lhs || !o->slices)
		return OFL_EINVAL;
	/* the entry whose slices the record points to (compared as numbers:
	 * the record may point anywhere) */
	at = (uintptr_t)o->slices;
	base = (uintptr_t)g->slices;
	if (at < base || (at - base) % sizeof(struct ofl_slice))
		return OFL_EINVAL;
	off = (at - base) / sizeof(struct ofl_slice);
	idx = (uint32_t)(off / g->max_slices);
	if (off % g->max_slices || off / g->max_slices >= g->nitems)
		return OFL_EINVAL;
	it = &g->items[idx];
	if (!on_delivery(g, idx) || !it->lcsum || it->nsegs < 2 || it->nsegs != o->seg_count ||
	    (o->gso_type & OFL_GSO_TUNNEL_MASK) != OFL_GSO_FRAGLIST || i >= it->nsegs)
		return OFL_EINVAL;
	x = lidx_of(g, idx);
	seg->hdr = lhs_of(g, idx) + x[i];
	seg->nhdr = (uint32_t)(x[i + 1] - x[i]);
	pend = i + 1 < it->nsegs ? x[GRO_LIST_MAX + 2 + i] : it->nslices;
	seg->payload = o->slices + x[GRO_LIST_MAX + 1 + i];
	seg->npayload = pend - x[GRO_LIST_MAX + 1 + i];
	for (k = 0; k < seg->nhdr; k++)
		seg->hdr_len += seg->hdr[k].len;
	seg->len = seg->hdr_len;
	for (k = 0; k < seg->npayload; k++)
		seg->len += seg->payload[k].len;
	seg->cookie = o->cookies[i];
	return 0;
}
