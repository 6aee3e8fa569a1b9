/*
 * tcp.c - per-segment TCP rules (tcp_gso_segment): the sequence number
 * advances by the payload before it; FIN and PSH only on the last segment;
 * CWR only on the first (unless OFL_GSO_F_KEEP_CWR, the AccECN rule); the
 * checksum either complete or left as the pseudo-header sum.
 */
#include "gso/gso_int.h"

void gso_tcp_fix(const struct ofl_gso_iter *it, uint8_t *h, struct ofl_gso_seg *seg)
{
	uint8_t *th = h + it->l4_off;
	const uint8_t *tt = it->tmpl + it->l4_off;
	uint32_t k = seg->index, thl = seg->hdr_len - it->l4_off;
	uint32_t seq = it->seq0 + k * it->seg_size;
	uint8_t fl = tt[13];
	if (!(seg->flags & OFL_GSO_SEG_F_LAST))
		fl &= (uint8_t)~(GSO_TCP_FIN | GSO_TCP_PSH);
	if (k && !(it->flags & OFL_GSO_F_KEEP_CWR))
		fl &= (uint8_t)~GSO_TCP_CWR;
	ofl_put32(th + 4, seq);
	th[13] = fl;
	gso_ip_fix(it, h, k, thl + seg->payload_len);
	gso_l4_csum(it, th, thl, 16, (seq >> 16) + (seq & 0xffffu) + ((uint32_t)tt[12] << 8 | fl), seg);
}
