/*
 * tcp.h - the kernel's TCP merge rules (net/ipv4/tcp_offload.c
 * tcp_gro_receive), as one function that ORs a named bit per failed rule.
 */
#ifndef OFL_GRO_TCP_H
#define OFL_GRO_TCP_H

#include "core/csum_int.h"
#include "gro/gro_int.h"

#define TCP_FIN 0x01u
#define TCP_SYN 0x02u
#define TCP_RST 0x04u
#define TCP_PSH 0x08u
#define TCP_ACK 0x10u
#define TCP_URG 0x20u
#define TCP_ECE 0x40u
#define TCP_CWR 0x80u

/*
 * A segment with any of these flags (or no payload) never enters a fast
 * path (train, weave, prediction, plain hold, lone test): it goes the
 * per-frame way, where gro_tcp_nomerge() below applies the kernel's rules
 * (PSH and FIN merge as the last segment of a train; the rest pass on).
 */
#define TCP_NO_RUN (TCP_FIN | TCP_SYN | TCP_RST | TCP_PSH | TCP_URG)

/* Compare n 32-bit words (option words, like the kernel's loop). */
static inline int gro_words_eq(const uint8_t *a, const uint8_t *b, unsigned n)
{
	uint32_t d = 0, x, y;
	unsigned i;
	for (i = 0; i < n; i++) {
		memcpy(&x, a + 4 * i, 4);
		memcpy(&y, b + 4 * i, 4);
		d |= x ^ y;
	}
	return d == 0;
}

/*
 * th: the new segment's TCP header; it: the held entry (its header copy).
 * len: the new segment's payload.
 *  - the flag word (data offset, reserved/AE bits, every flag but FIN and
 *    PSH, and the window) must be equal: since the 2026 AccECN change CWR is
 *    compared like the rest, so CWR segments merge with each other;
 *  - ack_seq equal; option bytes equal (timestamps included);
 *  - a segment larger than the first never merges ((len - 1) >= mss, which
 *    also refuses len 0);
 *  - strictly the next sequence number.
 */
static inline uint32_t gro_tcp_nomerge(const uint8_t *th, const struct gro_item *it, uint32_t len)
{
	const uint8_t *th2 = it->hdr + it->l4_off;
	uint32_t nm = 0, thl = (uint32_t)(th[12] >> 4) * 4u;
	if (th[12] != th2[12] || ((th[13] ^ th2[13]) & ~(TCP_FIN | TCP_PSH)) || th[14] != th2[14] ||
	    th[15] != th2[15])
		nm |= NM(OFL_GRO_FLUSH_FLAGS);
	else if (thl > 20 && !gro_words_eq(th + 20, th2 + 20, (thl - 20) / 4))
		nm |= NM(OFL_GRO_FLUSH_OPTIONS);
	if (!gro_words_eq(th + 8, th2 + 8, 1))
		nm |= NM(OFL_GRO_FLUSH_ACK);
	if (len - 1u >= it->seg_size)
		nm |= NM(OFL_GRO_FLUSH_SIZE);
	if (ofl_get32(th + 4) != it->next_seq)
		nm |= NM(OFL_GRO_FLUSH_SEQ);
	return nm;
}

/* tcp_gro_complete (the layer's completion, tcp.c), for a flow over IP
 * version l3 whose IP and TCP headers are at l3_off and l4_off in its
 * header, fp its FIN and PSH (the entry's own, or what its caller knows
 * of them): FIN and PSH of the merged segments, and in the checksum field
 * the folded pseudo-header sum (CHECKSUM_PARTIAL). */
static inline OFL_ALWAYS_INLINE void gro_tcp_complete_at(struct gro_item *it, unsigned l3, uint32_t l3_off,
                                                         uint32_t l4_off, uint8_t fp)
{
	uint8_t *th = it->hdr + l4_off;
	/* every field read before the header is written (a byte store may
	 * alias them) */
	uint16_t c = (uint16_t)~ofl_csum_fold_inl(
	    gro_pseudo_sum_at(it->hdr, l3, l3_off, it->l3_len - (l4_off - l3_off), 6));
	th[13] |= fp;
	memcpy(th + 16, &c, 2);
}

static inline OFL_ALWAYS_INLINE void gro_tcp_complete_l3(struct gro_item *it, unsigned l3)
{
	gro_tcp_complete_at(it, l3, it->l3_off, it->l4_off, it->fin_psh);
}

#endif
