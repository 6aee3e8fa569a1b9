/*
 * tunfast.c - header prediction and the train for tunnel flows (tunfast.h).
 *
 * A tunnel frame of the shape tunfast.h names is, for prediction, a plain
 * frame with a longer header: outer Ethernet, outer IP, UDP and the 8-byte
 * tunnel header, inner Ethernet, inner IP, TCP.  Every byte the full path
 * wants equal (tunnel.c: the outer side of the flow and the outer IP rules;
 * the inner flow and its TCP and IP rules) is compared under a mask built
 * from the layers (layer.h), with the UDP length as one more hole; the zero
 * UDP checksum is compared whole (a flow whose outer checksum is not 0 is
 * never predicted).  Then the fields that advance: every length ends at the
 * frame's end, both IPv4 header checksums are valid, both IPv4 IDs follow
 * their own rule (ipv4.h gro_id_breaks()), the sequence number is the next.
 *
 * The train's run compares each frame with the expected next full segment:
 * the lengths of a full segment in the template, the flag byte the held one
 * (no FIN or PSH), the sequence number, and for each IPv4 header the eight
 * bytes from its ID to its checksum as one big-endian word stepped by ID + 1
 * and checksum - 1 per segment (RFC 1624), the run cut before either wraps;
 * a fixed ID keeps its word.  Anything else is left to header prediction
 * and the full path.
 */
#include <stddef.h>

#include "core/csum_int.h"
#include "gro/layer.h"
#include "gro/predict.h"
#include "gro/run.h" /* (run_account()) */
#include "gro/tunfast.h"
#include "gro/tunnel.h"

/* The UDP header and an 8-byte tunnel header (VXLAN, Geneve without
 * options): only the UDP length differs per segment. */
static const struct gro_layer udp_tun8 = {
	.name = "udp+tunnel",
	.plain_len = 16,
	.nholes = 1,
	.holes = {{4, 2, 0}},
};

void gro_tun_masks(struct ofl_gro *g)
{
	unsigned o, i;
	for (o = 4; o <= 6; o += 2)
		for (i = 4; i <= 6; i += 2) {
			const struct gro_layer *l[6] = {&gro_layer_eth, o == 4 ? &gro_layer_ipv4 : &gro_layer_ipv6,
			                                &udp_tun8,      &gro_layer_eth,
			                                i == 4 ? &gro_layer_ipv4 : &gro_layer_ipv6, &gro_layer_tcp};
			if (gro_tmask_of(o, i) < GRO_TMASKS)
				gro_layers_pred_mask(l, 6, g->tmask[gro_tmask_of(o, i)]);
		}
}

uint8_t gro_tun_fast_of(const struct gro_item *it, const struct ofl_pkt *pkt)
{
	const struct gro_tun *t = &it->tun;
	uint32_t ol4 = t->ol3 == 4 ? 34u : 54u;
	if ((t->type != OFL_GRO_TUN_VXLAN && t->type != OFL_GRO_TUN_GENEVE) || t->ocsum ||
	    (pkt->flags & OFL_PKT_F_VLAN) || t->ol3_off != 14 || t->ol4_off != ol4 || t->in_off != ol4 + 16u ||
	    it->l3_off != t->in_off + 14u || it->l4_off != it->l3_off + (it->l3 == 4 ? 20u : 40u) ||
	    it->hdr_len > GRO_PRED_MAX || gro_tmask_of(t->ol3, it->l3) >= GRO_TMASKS)
		return 0;
	return GRO_FAST_TUN;
}

int gro_tun_lone_parse(const struct ofl_gro *g, const uint8_t *p, uint32_t b0, struct gro_brec *r, uint64_t *addr,
                       uint32_t *ports)
{
	const uint8_t *ip = p + 14, *uh, *iip;
	struct ofl_hdrs h;
	uint32_t ol4;
	unsigned type;
	uint16_t et;
	if (!p || b0 < 104) /* the shortest: 14 + 20 + 8 + 8 + 14 + 20 + 20 */
		return 0;
	et = ofl_get16(p + 12);
	if (et == 0x0800u) {
		if (ip[0] != 0x45 || ip[9] != 17 || (ofl_get16(ip + 6) & 0x3fffu) || ofl_get16(ip + 2) != b0 - 14u ||
		    ofl_csum_ip4_fold(ip) != 0xffff)
			return 0;
		ol4 = 34;
	} else if (et == 0x86ddu) {
		if ((ip[0] >> 4) != 6 || ip[6] != 17 || ofl_get16(ip + 4) != b0 - 54u)
			return 0;
		ol4 = 54;
	} else {
		return 0;
	}
	uh = p + ol4;
	type = gro_tun_port(g, ofl_get16(uh + 2));
	if ((type != OFL_GRO_TUN_VXLAN && type != OFL_GRO_TUN_GENEVE) || ofl_get16(uh + 4) != b0 - ol4 || uh[6] ||
	    uh[7])
		return 0;
	/* Geneve: version 0, no options, no OAM, Ethernet inside */
	if (type == OFL_GRO_TUN_GENEVE && (uh[8] != 0 || (uh[9] & 0x80u) || ofl_get16(uh + 10) != 0x6558u))
		return 0;
	if (!ofl_parse_plain_at(p + ol4 + 16, b0 - ol4 - 16, b0 - ol4 - 16, ol4 + 16, &h))
		return 0;
	iip = p + h.l3_off;
	r->len = (uint16_t)h.payload_len;
	r->hl = (uint8_t)h.hdr_len;
	r->tun = (uint8_t)(type << 5);
	r->l3 = (uint16_t)h.l3_off;
	r->l4 = (uint16_t)h.l4_off;
	*ports = ld32(p + h.l4_off);
	*addr = h.l3 == 4 ? ld64(iip + 12) ^ 4
	                  : ld64(iip + 8) ^ ld64(iip + 16) ^ ld64(iip + 24) ^ ld64(iip + 32) ^ 6;
	return 1;
}

/* The largest outer IP packet a tunnel flow may grow to (tunnel.c). */
static inline uint32_t max_outer(const struct ofl_gro *g)
{
	return g->cfg.max_size < 65535u ? g->cfg.max_size : 65535u;
}

/* Does the IP header at ip (version l3) say it ends at the frame's end,
 * total bytes from the frame's start, and (IPv4) is its checksum valid? */
static inline int ip_ends_ok(const uint8_t *ip, unsigned l3, uint32_t off, uint32_t total)
{
	if (l3 == 4)
		return ofl_get16(ip + 2) == total - off && ofl_csum_ip4_fold(ip) == 0xffff;
	return ofl_get16(ip + 4) == total - off - 40u;
}

int gro_predict_tun(struct ofl_gro *g, uint32_t idx, const struct ofl_pkt *pkt, const uint8_t *p, uint32_t total)
{
	struct gro_item *it = &g->items[idx];
	struct gro_tun *t = &it->tun;
	const uint8_t *oip = p + 14, *ip = p + it->l3_off, *th = p + it->l4_off;
	uint32_t hl = it->hdr_len, len = total - hl;
	if (pkt->nbufs != 1 || total < hl || gro_cmp(p, it->hdr, g->tmask[gro_tmask_of(t->ol3, it->l3)], 0, hl))
		return 0;
	if (len - 1u >= it->seg_size || ofl_get32(th + 4) != it->next_seq || !ip_ends_ok(oip, t->ol3, 14, total) ||
	    ofl_get16(p + t->ol4_off + 4) != total - t->ol4_off || !ip_ends_ok(ip, it->l3, it->l3_off, total))
		return 0;
	if (it->l3_len + (uint32_t)(it->l3_off - 14u) + len > max_outer(g) || it->nsegs == g->cfg.max_segs ||
	    g->held_bytes + len > g->cfg.max_held_bytes || it->nslices + 2u > g->max_slices)
		return 0;
	if ((t->ol3 == 4 && gro_id_breaks(ofl_get16(oip + 4), t->oid0, &t->ofixedid, it->nsegs)) ||
	    (it->l3 == 4 && gro_ipv4_id_nomerge(ip, it)))
		return 0;
	return predict_take(g, idx, pkt, p + hl, len, th[13]);
}

/* ---- the train ------------------------------------------------------------ */

/* The expected header of the next full segment, and its mask. */
struct trun {
	_Alignas(32) uint8_t tp[GRO_PRED_MAX];
	_Alignas(32) uint8_t mk[GRO_PRED_MAX];
};

/* Put a length field of the template, compared whole. */
static inline void put_len(struct trun *r, uint32_t off, uint32_t v)
{
	ofl_put16(r->tp + off, (uint16_t)v);
	r->mk[off] = r->mk[off + 1] = 0xff;
}

/* A big-endian 64-bit load. */
static inline uint64_t be64_at(const uint8_t *p)
{
	return (uint64_t)ofl_get32(p) << 32 | ofl_get32(p + 4);
}

/* The bytes 4-11 (ID to checksum) of the template's IPv4 header at ip
 * (its length field set) as the segment with ID id carries them, a
 * big-endian word; *step what each later segment adds to it, *k cut to
 * the segments that may follow before the ID or the checksum wraps. */
static inline uint64_t v4_word(const uint8_t *ip, uint16_t id, int fixed, uint64_t *step, uint32_t *k)
{
	uint8_t w[8];
	uint64_t s, e;
	uint16_t c;
	uint32_t a, b;
	memcpy(w, ip + 4, 8);
	ofl_put16(w, id);
	/* the header's sum without its checksum (memory order), folded to
	 * 16 bits, complemented */
	s = (uint64_t)ld32(ip) + ld16(w) + ld16(ip + 6) + ld16(ip + 8) + ld32(ip + 12) + ld32(ip + 16);
	while (s > 0xffffu)
		s = (s >> 16) + (s & 0xffffu);
	c = (uint16_t)~s;
	memcpy(w + 6, &c, 2);
	e = be64_at(w);
	if (fixed) {
		*step = 0;
		return e;
	}
	*step = (1ull << 48) - 1u;
	a = 0xffffu - id;
	b = (uint32_t)(e & 0xffffu);
	*k = *k < a ? *k : a;
	*k = *k < b ? *k : b;
	return e;
}

static inline uint32_t min_u32(uint32_t a, uint32_t b)
{
	return a < b ? a : b;
}

/* The compare of the train copies: AVX2 in the copy compiled for it. */
#if defined(GRO_CMP_HAVE_AVX2) && !defined(OFL_SIMD_OFF)
#define TUN_AVX2 1
#endif
static inline OFL_ALWAYS_INLINE int tun_cmp(const uint8_t *p, const struct trun *r, uint32_t hl, const int avx2)
{
#if defined(TUN_AVX2)
	if (avx2)
		return gro_cmp_avx2(p, r->tp, r->mk, 0, hl);
#else
	(void)avx2;
#endif
	return gro_cmp(p, r->tp, r->mk, 0, hl);
}

/* 0xff then 0: the window at 128 - hl of it keeps the bytes of the last 32
 * below hl (mask_to()). */
static const uint8_t keep_below[64] = {
	0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
	0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
};

/* Clear the mask mk (GRO_PRED_MAX bytes) from hl on (96 < hl <= 128: the
 * shortest header of a run with constants is 104 bytes), in fixed-size
 * words: a memset() of a variable length is a library call. */
static inline void mask_to(uint8_t *mk, uint32_t hl)
{
	const uint8_t *k = keep_below + (GRO_PRED_MAX - hl);
	unsigned o;
	_Static_assert(GRO_PRED_MAX == 128, "the last 32 bytes of 128");
	for (o = 0; o < 32; o += 8) {
		uint64_t m, w;
		memcpy(&m, mk + 96 + o, 8);
		memcpy(&w, k + o, 8);
		m &= w;
		memcpy(mk + 96 + o, &m, 8);
	}
}

/* What a run carries from frame to frame: the next sequence number, the
 * two IPv4 ID-to-checksum words, and the next slice's len, pkt and buf
 * fields as one word (pkt advances by sl1 per frame). */
struct tstate {
	uint32_t seq;
	uint64_t eo, ei, lw;
};
#define SLICE_TAIL offsetof(struct ofl_slice, len)
_Static_assert(SLICE_TAIL + 8 == sizeof(struct ofl_slice) && offsetof(struct ofl_slice, buf) == SLICE_TAIL + 6,
               "a slice ends in len (4 bytes), pkt and buf (2 each)");

/*
 * The run's loop: frames from q up to qe while each is the expected full
 * segment (one buffer, checksum verified, no hardware VLAN, full bytes
 * long, the template under the mask, the sequence number and each IPv4
 * header's ID-to-checksum word as st has them, each word stepped by step
 * (outer) and istep (inner) per frame); slices from s, cookies from c
 * (room for qe - q frames checked by the caller).  il3 and il4 are the
 * inner IP and TCP offsets, ov4 and iv4 the IP versions.  v44 (IPv4 in
 * IPv4, one step for both words, frames of at least GRO_PRED_MAX bytes):
 * constant offsets and the whole GRO_PRED_MAX bytes compared, the mask 0
 * past the header.  pf: the headers GRO_AHEAD frames on are prefetched
 * (the caller keeps them within the burst).  Returns where it stopped.
 */
static inline OFL_ALWAYS_INLINE const struct ofl_pkt *
tun_run(const struct ofl_pkt *q, const struct ofl_pkt *qe, const struct trun *r, uint32_t hl, uint32_t full,
        uint32_t mss, struct tstate *st, uint64_t step, uint64_t istep, struct ofl_slice *s, void **c, uint32_t il3,
        uint32_t il4, const int ov4, const int iv4, const int v44, const int pf, const int avx2)
{
	struct ofl_slice one = {NULL, 0, 1, 0};
	uint64_t sl1, lw = st->lw, eo = st->eo, ei = v44 ? 0 : st->ei, e44 = v44 ? st->ei : 0;
	uint32_t seq = st->seq;
	memcpy(&sl1, (const uint8_t *)&one + SLICE_TAIL, 8);
	for (; q < qe; q++, s++, c++) {
		const struct ofl_buf *b = q->bufs;
		const uint8_t *d;
		if (q->nbufs != 1 || q->csum_status != OFL_CSUM_UNNECESSARY || (q->flags & OFL_PKT_F_VLAN) || !b ||
		    b->len != full || !(d = b->data))
			break;
#if defined(__GNUC__)
		if (pf) {
			const struct ofl_pkt *a = q + GRO_AHEAD;
			if (a->bufs && a->nbufs) {
				/* (an address, not a pointer: NULL data is fine, a
				 * prefetch never faults) */
				uintptr_t ad = (uintptr_t)a->bufs->data;
				__builtin_prefetch((const void *)ad);
				__builtin_prefetch((const void *)(ad + 64));
			}
		}
#else
		(void)pf;
#endif
		if (v44) {
			if (tun_cmp(d, r, GRO_PRED_MAX, avx2) || ofl_get32(d + 88) != seq ||
			    ((be64_at(d + 18) ^ eo) | (be64_at(d + 68) ^ e44)) != 0)
				break;
			e44 += step;
		} else {
			if (tun_cmp(d, r, hl, avx2) || ofl_get32(d + il4 + 4) != seq || (ov4 && be64_at(d + 18) != eo) ||
			    (iv4 && be64_at(d + il3 + 4) != ei))
				break;
			ei += istep;
		}
		s->data = d + hl;
		memcpy((uint8_t *)s + SLICE_TAIL, &lw, 8);
		*c = q->cookie;
		lw += sl1;
		seq += mss;
		eo += step;
	}
	st->seq = seq;
	st->eo = eo;
	st->ei = v44 ? e44 : ei;
	st->lw = lw;
	return q;
}

static inline OFL_ALWAYS_INLINE unsigned train_tun(struct ofl_gro *g, uint32_t idx, const struct ofl_pkt *pkts,
                                                   unsigned i, unsigned n, const int v44, const int avx2)
{
	struct gro_item *it = &g->items[idx];
	const struct gro_tun *t = &it->tun;
	/* IPv4 in IPv4 (v44): the offsets of tunfast.h's shape, constants */
	const uint32_t il3 = v44 ? 64u : it->l3_off, il4 = v44 ? 84u : it->l4_off, ol4 = v44 ? 34u : t->ol4_off;
	const uint32_t hl = it->hdr_len, mss = it->seg_size;
	const uint32_t full = hl + mss;
	const int ov4 = v44 || t->ol3 == 4, iv4 = v44 || it->l3 == 4;
	uint32_t nsegs = it->nsegs, nsl = it->nslices, k, pfk;
	uint64_t so = 0, si = 0;
	struct ofl_slice first = {NULL, mss, (uint16_t)nsegs, 0};
	struct ofl_slice *s = gro_slices(g, idx) + nsl;
	void **c = gro_cookies(g, idx) + nsegs;
	const struct ofl_pkt *q = pkts + i, *q0 = q;
	struct tstate st = {it->next_seq, 0, 0, 0};
	struct trun r;
	if (!mss || full > 0xffffu || i >= n)
		return 0;
	memcpy(&st.lw, (const uint8_t *)&first + SLICE_TAIL, 8);
	memcpy(r.tp, it->hdr, GRO_PRED_MAX);
	memcpy(r.mk, g->tmask[gro_tmask_of(ov4 ? 4 : 6, iv4 ? 4 : 6)], GRO_PRED_MAX);
	if (v44)
		mask_to(r.mk, hl); /* compared whole: the payload is no part */
	put_len(&r, ov4 ? 16u : 18u, full - (ov4 ? 14u : 54u));
	put_len(&r, ol4 + 4u, full - ol4);
	put_len(&r, il3 + (iv4 ? 2u : 4u), full - il3 - (iv4 ? 0u : 40u));
	r.mk[il4 + 13] = 0xff; /* the held flag byte: no FIN, no PSH */
	/* the frames the entry may take: segments, slices, bytes */
	k = min_u32(n - i, sat_sub(g->cfg.max_segs, nsegs));
	k = min_u32(k, sat_sub(g->max_slices - 1u, nsl));
	k = min_u32(k, sat_sub(max_outer(g), it->l3_len + (il3 - 14u)) / mss);
	k = min_u32(k, sat_sub(g->cfg.max_held_bytes, g->held_bytes) / mss);
	if (ov4)
		st.eo = v4_word(r.tp + 14, (uint16_t)(t->oid0 + (t->ofixedid ? 0u : nsegs)), t->ofixedid, &so, &k);
	if (iv4)
		st.ei = v4_word(r.tp + il3, (uint16_t)(it->id0 + (it->fixedid ? 0u : nsegs)), it->fixedid, &si, &k);
	/* the frames whose GRO_AHEAD-th successor is in the burst prefetch it */
	pfk = n - i > GRO_AHEAD ? min_u32(k, n - i - GRO_AHEAD) : 0;
	q = tun_run(q, q0 + pfk, &r, hl, full, mss, &st, so, si, s, c, il3, il4, ov4, iv4, v44, 1, avx2);
	if (q == q0 + pfk)
		q = tun_run(q, q0 + k, &r, hl, full, mss, &st, so, si, s + pfk, c + pfk, il3, il4, ov4, iv4, v44, 0,
		            avx2);
	k = (uint32_t)(q - q0);
	if (!k)
		return 0;
	run_account(g, it, k, mss, full, st.seq, nsegs, nsl);
	g->last = idx;
	return k;
}

/* One function per copy: IPv4 in IPv4 with constant offsets and the
 * rest, each with AVX2 in a copy compiled for it. */
#define TUN_COPY(name, v44, avx2, attr)                                                            \
	static OFL_NOINLINE attr unsigned name(struct ofl_gro *g, uint32_t idx, const struct ofl_pkt *pkts, \
	                                       unsigned i, unsigned n)                                   \
	{                                                                                          \
		return train_tun(g, idx, pkts, i, n, v44, avx2);                                   \
	}
TUN_COPY(train_tun44_sse, 1, 0, )
TUN_COPY(train_tun_sse, 0, 0, )
#if defined(TUN_AVX2)
TUN_COPY(train_tun44_avx2, 1, 1, GRO_TARGET_AVX2)
TUN_COPY(train_tun_avx2, 0, 1, GRO_TARGET_AVX2)
#endif
#undef TUN_COPY

unsigned gro_train_tun(struct ofl_gro *g, uint32_t idx, const struct ofl_pkt *pkts, unsigned i, unsigned n)
{
	const struct gro_item *it = &g->items[idx];
	/* IPv4 in IPv4 with both IDs fixed or both incrementing, full
	 * segments at least GRO_PRED_MAX long: the copy with constants */
	int v44 = it->tun.ol3 == 4 && it->l3 == 4 && it->tun.ofixedid == it->fixedid &&
	          it->hdr_len + (uint32_t)it->seg_size >= GRO_PRED_MAX;
#if defined(TUN_AVX2)
	if (gro_cpu_avx2())
		return v44 ? train_tun44_avx2(g, idx, pkts, i, n) : train_tun_avx2(g, idx, pkts, i, n);
#endif
	return v44 ? train_tun44_sse(g, idx, pkts, i, n) : train_tun_sse(g, idx, pkts, i, n);
}
