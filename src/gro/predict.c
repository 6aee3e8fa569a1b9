/*
 * predict.c - header prediction's out-of-line ends (predict.h has the
 * inline part): a frame in several buffers (header split), TCP or UDP,
 * and a UDP datagram of one buffer.
 */
#include "gro/hold.h"
#include "gro/predict.h"

/* Header prediction's end for a frame in several buffers (header split):
 * room for its slices, the IP ID rule, then the merge (a UDP flow's: udp.h). */
static inline OFL_ALWAYS_INLINE int predict_bufs(struct ofl_gro *g, uint32_t idx, const struct ofl_pkt *pkt,
                                                 const uint8_t *ip, uint32_t len, uint8_t flags, const int udp)
{
	struct gro_item *it = &g->items[idx];
	uint32_t hl = it->hdr_len;
	if (it->nslices + gro_count_slices(pkt, hl, len) + 1u > g->max_slices ||
	    (it->l3 == 4 && gro_ipv4_id_nomerge(ip, it)))
		return 0;
	gro_add_slices(g, idx, pkt, hl, len, it->nsegs);
	return predict_merged(g, idx, pkt, hl + len, len, flags, udp);
}

int gro_predict_bufs(struct ofl_gro *g, uint32_t idx, const struct ofl_pkt *pkt, const uint8_t *ip, uint32_t len,
                     uint8_t flags)
{
	return predict_bufs(g, idx, pkt, ip, len, flags, 0);
}

int gro_predict_bufs_udp(struct ofl_gro *g, uint32_t idx, const struct ofl_pkt *pkt, const uint8_t *ip,
                         uint32_t len)
{
	return predict_bufs(g, idx, pkt, ip, len, 0, 1);
}

int gro_predict_udp(struct ofl_gro *g, uint32_t idx, const struct ofl_pkt *pkt, const uint8_t *p, uint32_t total)
{
	return predict_l4(g, idx, pkt, p, total, 1);
}
