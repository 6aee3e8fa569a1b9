/*
 * dsa_run.h - what the runs behind a DSA tag share (dsa_run.c: one flow's
 * run, in one buffer or several; dsa_weave.c: the weave): the expected
 * tagged frame (its bytes up to the untagged EtherType, then the untagged
 * header under a run's mask, the tail tag) and its compare.
 */
#ifndef OFL_GRO_DSA_RUN_H
#define OFL_GRO_DSA_RUN_H

#include <string.h>

#include "gro/dsa_hold.h"
#include "gro/run.h"

/* The tagged frame's expected header: its bytes before the untagged
 * EtherType as the entry holds them (compared whole), then the run's
 * expected untagged header from its EtherType on, under the run's mask. */
struct tag_hdr {
	_Alignas(16) uint8_t tp[GRO_RAWPRE_MAX + GRO_PRED_MAX];
	_Alignas(16) uint8_t mk[GRO_RAWPRE_MAX + GRO_PRED_MAX];
	uint64_t tw, tm; /* the frame's last 8 bytes: a tail tag of at most 8 there, under its mask */
};

/* The expected tagged frame t: the rp bytes of the entry's first frame
 * before the untagged EtherType (cold->rawpre, compared whole), then the
 * expected untagged header tp (hl bytes) from its EtherType on, under its
 * mask mk (a run's: struct run); a tail tag of tl bytes (at most 8) as the
 * word of the frame's last 8. */
static inline void tag_expect(struct tag_hdr *t, const uint8_t *tp, const uint8_t *mk, const struct gro_cold *cold,
                              uint32_t rp, uint32_t hl, uint32_t tl)
{
	uint8_t w[8] = {0}, m[8] = {0};
	memcpy(t->tp, cold->rawpre, rp);
	memset(t->mk, 0xff, rp);
	memcpy(t->tp + rp, tp + 12, hl - 12u);
	memcpy(t->mk + rp, mk + 12, hl - 12u);
	if (tl <= 8u) {
		memcpy(w + 8u - tl, cold->rawtail, tl);
		memset(m + 8u - tl, 0xff, tl);
	}
	memcpy(&t->tw, w, 8);
	memcpy(&t->tm, m, 8);
}

/* Do the tl tail tag bytes at t differ from the held ones at h? */
static inline int tail_differs(const uint8_t *t, const uint8_t *h, uint32_t tl)
{
	uint32_t o, d = 0;
	for (o = 0; o < tl; o++)
		d |= (uint32_t)(t[o] ^ h[o]);
	return d != 0;
}

/* Does the tail tag (tl bytes, not 0) of the tagged frame d (full bytes
 * in one buffer) differ from t's (the held ones at tail)? */
static inline OFL_ALWAYS_INLINE int tag_tail_differs(const uint8_t *d, const struct tag_hdr *t, uint32_t full,
                                                     const uint8_t *tail, uint32_t tl)
{
	return ((ld64(d + full - 8u) ^ t->tw) & t->tm) || (tl > 8u && tail_differs(d + full - tl, tail, tl));
}

#endif
