/*
 * run.h - what merge.c's train and weave.c's weave share: the packet word a
 * segment of a run must have, the masked compare (AVX2 or the build's
 * choice), the expected next header of a run (struct run), the steps of
 * its IPv4 ID-to-checksum word, and its end written (run_account()).
 */
#ifndef OFL_GRO_RUN_H
#define OFL_GRO_RUN_H

#include <stddef.h>
#include <string.h>

#include "gro/predict.h"

/* The packet fields a train segment must have (one buffer, checksum
 * verified, no hardware VLAN) as one 32-bit compare, whatever the byte
 * order; *nb_mask: the mask without nbufs. */
static inline void train_pkt_word(uint32_t *want_w, uint32_t *mask_w, uint32_t *nb_mask)
{
	*want_w = GRO_PKT_PLAIN_WANT;
	*mask_w = GRO_PKT_PLAIN_MASK;
	*nb_mask = gro_pkt_word_of(0, 0xff, OFL_PKT_F_VLAN);
}

/* Where a slice's len, pkt and buf fields sit: one 64-bit word. */
#define SL_LEN offsetof(struct ofl_slice, len)
_Static_assert(offsetof(struct ofl_slice, len) + 8 == sizeof(struct ofl_slice) &&
                   offsetof(struct ofl_slice, pkt) == SL_LEN + 4 && offsetof(struct ofl_slice, buf) == SL_LEN + 6,
               "len, pkt, buf: the last 8 bytes of a slice");

/* A slice's len, pkt and buf as that word (a run's slice word; its step
 * from one segment to the next: sl_word(0, 1, 0)). */
static inline uint64_t sl_word(uint32_t len, uint16_t pkt, uint16_t buf)
{
	const struct ofl_slice s = {NULL, len, pkt, buf};
	uint64_t w;
	memcpy(&w, (const uint8_t *)&s + SL_LEN, 8);
	return w;
}

/* The train's masked compare: the AVX2 one in the train copies compiled
 * for AVX2 (chosen per train at run time, gro_train()), else the one the
 * build chose (cmp.h). */
#if defined(GRO_CMP_HAVE_AVX2) && !defined(OFL_SIMD_OFF)
#define TRAIN_AVX2 1
#endif
static inline OFL_ALWAYS_INLINE int train_cmp(const uint8_t *p, const uint8_t *h, const uint8_t *m, uint32_t from,
                                              uint32_t hl, const int avx2)
{
#if defined(TRAIN_AVX2)
	if (avx2)
		return gro_cmp_avx2(p, h, m, from, hl);
#else
	(void)avx2;
#endif
	return gro_cmp(p, h, m, from, hl);
}

/* A big-endian 64-bit load. */
static inline uint64_t get64(const uint8_t *p)
{
	return (uint64_t)ofl_get32(p) << 32 | ofl_get32(p + 4);
}

/*
 * The run: what a train takes most of the time, full-size segments in one
 * buffer, each compared with its predecessor as one masked compare of the
 * whole header against the expected next header (struct run).  The bytes
 * the context's prediction mask (layer.h: every layer's rule) wants equal
 * are equal to the held header's; the IP length field is that of a full
 * segment and the TCP flag byte the held one's (no FIN or PSH: such a
 * segment ends the train, the general body takes it); then the fields that
 * advance, each one compare: the sequence number, and for IPv4 the eight
 * bytes from the ID to the header checksum as one big-endian word, in
 * which the next segment's ID and checksum are this one's plus one and
 * minus one (RFC 1624, exact while neither wraps: run_start() bounds the
 * run there; a fixed ID keeps the word).  A segment that differs in any way
 * is left to the general body, which applies the rules one by one.
 */
struct run;
#if defined(TRAIN_AVX2)
/* The run of frames of one buffer in the AVX2 train copies (run1.c):
 * frames p[0, kend) while each is the expected full segment (the checks of
 * merge.c's run_take() for one buffer), r the expected header, seq and e
 * (IPv4) the first one's sequence number and ID-to-checksum word (e
 * stepped by estep), seg its segment index; one slice from s and one
 * cookie from c a frame.  Returns how many frames it took.  The copy for
 * one header shape, picked once a train (gro_run1_pick()); only where
 * gro_cpu_avx2(). */
typedef unsigned run1_fn(const struct ofl_pkt *p, unsigned kend, struct run *r, uint32_t hl, uint32_t seq,
                         uint64_t e, uint64_t estep, uint32_t seg, struct ofl_slice *s, void **c);
/* The copy of the run for a header of hl bytes (IPv4 v4, else IPv6; UDP udp). */
run1_fn *gro_run1_pick(uint32_t hl, int v4, int udp);
/* A train's first run for each shape: picks the copy (r->run1) for its
 * later runs and runs it. */
run1_fn gro_run1_first_v4, gro_run1_first_v6, gro_run1_first_udp4, gro_run1_first_udp6;
#endif
struct run {
	_Alignas(16) uint8_t tp[GRO_PRED_MAX]; /* the expected header, bytes [0, pred_cmp_len(hl)) set */
	_Alignas(16) uint8_t mk[GRO_PRED_MAX]; /* 0xff: compared (the same bytes set) */
	uint32_t full;                          /* a full segment's frame length */
	uint32_t mss;
	uint32_t ipsum;                         /* IPv4: sum of the header without length, ID, checksum */
#if defined(TRAIN_AVX2)
	run1_fn *run1; /* the AVX2 train copies: the run's copy (merge.c train_l3(): first the pick) */
#endif
};

/* IPv4: the sum of the held header without length, ID and checksum (the
 * same for every segment that predicts: its other bytes equal the held
 * header's), and that sum folded to 32 bits. */
static inline uint64_t ip4_rest_sum(const uint8_t *h0)
{
	return (uint64_t)ld16(h0 + 14) + ld32(h0 + 20) + ld32(h0 + 26) + ld32(h0 + 30);
}
static inline uint32_t fold32(uint64_t s)
{
	s = (s & 0xffffffffu) + (s >> 32);
	return (uint32_t)((s & 0xffffffffu) + (s >> 32));
}

/* A run's mask mk made from a prediction mask (its first bytes copied by
 * the caller): the IP length and, at l4, UDP's length or TCP's flag byte
 * compared whole (a run's frames are full segments without a flag that
 * ends it). */
static inline void run_mask_fix(uint8_t *mk, uint32_t l4, const int v4, const int udp)
{
	memset(mk + (v4 ? 16 : 18), 0xff, 2);
	if (udp)
		memset(mk + l4 + 4, 0xff, 2);
	else
		mk[l4 + 13] = 0xff;
}

/* The expected header of the next full segment (once per train); udp: a
 * UDP flow's, its length field that of a full datagram (its checksum,
 * a hole, is checked on its own). */
static inline void run_init(struct run *r, const struct gro_item *it, const uint8_t *m, uint64_t ipsum,
                            const int v4, const int udp)
{
	uint32_t hl = it->hdr_len, mss = it->seg_size;
	/* only the bytes a run reads, [0, pred_cmp_len(hl)): IPv4 the first
	 * 64 when they hold them (no TCP options, or timestamps), else all */
	if (v4 && pred_cmp_len(hl) <= 64u) {
		memcpy(r->tp, it->hdr, 64);
		memcpy(r->mk, m, 64);
	} else {
		memcpy(r->tp, it->hdr, GRO_PRED_MAX);
		memcpy(r->mk, m, GRO_PRED_MAX);
	}
	ofl_put16(r->tp + (v4 ? 16 : 18), (uint16_t)(v4 ? hl - 14 + mss : hl - 54 + mss));
	if (udp)
		ofl_put16(r->tp + it->l4_off + 4, (uint16_t)(8u + mss));
	run_mask_fix(r->mk, it->l4_off, v4, udp);
	/* UINT32_MAX: no run (never a frame's length: at most 0xffff here;
	 * nor shorter than the compare reads) */
	r->mss = mss;
	r->full = mss && hl + mss <= 0xffffu && (!udp || hl + mss >= pred_cmp_len(hl)) ? hl + mss : UINT32_MAX;
	r->ipsum = fold32(ipsum);
}

/* IPv4: the word of bytes 18-25 (ID to checksum) the segment with IP ID
 * id must carry, tp the expected header (its length field a full
 * segment's) and ipsum its ip4_rest_sum() folded, and how many segments
 * may follow it with the word stepped by *step (exact: neither the ID nor
 * the checksum wraps). */
static inline uint64_t run_word(const uint8_t *tp, uint32_t ipsum, uint16_t id, int fixedid, uint64_t *step,
                                uint32_t *steps)
{
	uint8_t w[8];
	uint64_t s, e;
	uint16_t c;
	memcpy(w, tp + 18, 8);
	ofl_put16(w, id);
	/* the checksum: the complement of the header's sum, memory order */
	s = (uint64_t)ipsum + ld16(tp + 16) + ld16(w);
	s = (s & 0xffff) + (s >> 16);
	s = (s & 0xffff) + (s >> 16);
	s = (s & 0xffff) + (s >> 16);
	c = (uint16_t)~s;
	memcpy(w + 6, &c, 2);
	e = get64(w);
	if (fixedid) {
		*step = 0;
		*steps = UINT32_MAX;
	} else {
		uint32_t a = 0xffffu - (uint32_t)(e >> 48), b = (uint32_t)(e & 0xffff);
		*step = (1ull << 48) - 1u;
		*steps = a < b ? a : b;
	}
	return e;
}

/* The header of the frame GRO_AHEAD after q (frame i of a run or the
 * weave) started while there is one (pfend: the burst's length less
 * GRO_AHEAD); those of the last frames were started GRO_AHEAD frames
 * before them. */
static inline void run_prefetch(const struct ofl_pkt *q, unsigned i, unsigned pfend)
{
	const struct ofl_pkt *a = i < pfend ? q + GRO_AHEAD : NULL;
	if (a && a->bufs && a->nbufs) {
#if defined(__GNUC__)
		__builtin_prefetch(a->bufs->data);
#endif
	}
}

static inline uint32_t min32(uint32_t a, uint32_t b)
{
	return a < b ? a : b;
}

/* The end of a run that took k full segments of mss payload bytes (frames
 * of full bytes) for entry it, which had nsegs segments and nsl slices
 * before them (one slice a frame), seq the sequence number after them:
 * the entry's fields, the held bytes and the context's counters. */
static inline void run_account(struct ofl_gro *g, struct gro_item *it, uint32_t k, uint32_t mss, uint32_t full,
                               uint32_t seq, uint32_t nsegs, uint32_t nsl)
{
	const uint32_t added = mss * k;
	it->next_seq = seq;
	it->nsegs = (uint16_t)(nsegs + k);
	it->nslices = (uint16_t)(nsl + k);
	it->payload += added;
	it->l3_len += added;
	g->held_bytes += added;
	g->st.rx_pkts += k;
	g->st.rx_bytes += (uint64_t)full * k;
	g->st.merged += k;
	g->st.merged_fast += k;
}

#endif
