/*
 * burst.h - what the burst entry (burst.c) shares with the holds of a
 * burst's first frame (burst_first.c).
 */
#ifndef OFL_GRO_BURST_H
#define OFL_GRO_BURST_H

#include "gro/stage.h"

/* The TCP header's offset in a frame of the plain shape whose first
 * buffer is at p (Ethernet, then IPv6 or a 20-byte IPv4 header). */
static inline uint32_t plain_l4_off(const uint8_t *p)
{
	return ld16(p + 12) == ld16((const uint8_t *)"\x86\xdd") ? 54u : 34u;
}

/* burst_first.c: a burst not grouped whose first frame, nothing held, is
 * plain TCP with len payload bytes and not one the pass-on run takes: when
 * it is a new flow the fast path would hold, held here without a second
 * parse, its next frames trained.  Each returns the frame the burst loop
 * goes on from (0: not held, the loop decides). */
unsigned gro_first_hold(struct ofl_gro *g, const struct ofl_pkt *pkts, unsigned n, uint64_t now, int32_t len);
/* ... a UDP datagram (UDP GRO on, the plain shape, not TCP) */
unsigned gro_first_hold_udp(struct ofl_gro *g, const struct ofl_pkt *pkts, unsigned n, uint64_t now);
/* ... a frame in several buffers (pkts->nbufs > 1), its flow next */
unsigned gro_first_hold_bufs(struct ofl_gro *g, const struct ofl_pkt *pkts, unsigned n, uint64_t now);

#endif
