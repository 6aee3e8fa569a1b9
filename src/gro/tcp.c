/*
 * tcp.c - TCP checksum validation on receive (tcp4/6_gro_receive:
 * skb_gro_checksum_validate) and completion (tcp_gro_complete).
 */
#include <ofl/csum.h>

#include "core/cursor.h"
#include "gro/layer.h"
#include "gro/tcp.h"

/* Sum of the bytes [from, to) of a packet's buffers, as if contiguous and
 * starting at an even offset. */
static uint32_t sum_range(const struct ofl_pkt *pkt, uint32_t from, uint32_t to)
{
	struct ofl_cursor c = ofl_cur_bufs(pkt->bufs, pkt->nbufs, from);
	return ofl_csum_cursor(&c, to - from);
}

int gro_tcp_csum_ok(const struct ofl_pkt *pkt, int csum_status, const struct ofl_view *v,
                    const struct ofl_hdrs *h)
{
	if (csum_status == OFL_CSUM_UNNECESSARY || csum_status == OFL_CSUM_PARTIAL)
		return 1; /* PARTIAL: a seed, nothing to verify (skb_csum_unnecessary) */
	/* TCP, or UDP (udp.c) */
	return gro_l4_sum_ok(pkt, csum_status, v, h,
	                     gro_pseudo_sum(v->p, h->l3, h->l3_off, h->l3_end - h->l4_off, h->l4proto));
}

int gro_l4_sum_ok(const struct ofl_pkt *pkt, int csum_status, const struct ofl_view *v, const struct ofl_hdrs *h,
                  uint32_t s)
{
	uint32_t l4_len = h->l3_end - h->l4_off;
	if (csum_status == OFL_CSUM_COMPLETE) {
		/* The NIC summed everything after the 14-byte Ethernet header
		 * (raw IP: from the IP header): take away the VLAN tags and IP
		 * header, and any padding. */
		uint16_t hw = pkt->csum, pre;
		uint32_t t = hw, from = h->raw ? 0 : OFL_ETH_HLEN;
		pre = (uint16_t)~ofl_csum_fold(ofl_csum_partial(v->p + from, h->l4_off - from, 0));
		t = ofl_csum_add_at(t, (uint16_t)~pre, 0);
		if (h->l3_end < h->frame_len) {
			/* padding may sit in a later buffer than the headers */
			uint16_t pad = (uint16_t)~ofl_csum_fold(sum_range(pkt, h->l3_end, h->frame_len));
			t = ofl_csum_add_at(t, (uint16_t)~pad, (int)((h->l3_end - from) & 1));
		}
		s = ofl_csum_add_at(s, t, 0);
	} else {
		if (pkt->nbufs == 1)
			s = ofl_csum_partial(v->p + h->l4_off, l4_len, s);
		else
			s = ofl_csum_add_at(s, sum_range(pkt, h->l4_off, h->l3_end), 0);
	}
	return ofl_csum_fold(s) == 0;
}

void gro_tcp_complete(struct gro_item *it)
{
	gro_tcp_complete_l3(it, it->l3);
}

/* Per segment the sequence number (strictly the next, tcp.h), FIN and PSH,
 * the checksum and the urgent pointer differ; ports, ack, the flag word's
 * other bits, window and options are compared whole (tcp.h). */
const struct gro_layer gro_layer_tcp = {
	.name = "tcp",
	.plain_len = 20,
	.nholes = 3,
	.holes = {{4, 4, 0}, {13, 1, (uint8_t)~(TCP_FIN | TCP_PSH)}, {16, 4, 0}},
	.complete = gro_tcp_complete,
};
