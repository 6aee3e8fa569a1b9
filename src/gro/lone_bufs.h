/*
 * lone_bufs.h - lone records (group.c) of frames in several buffers: the
 * header-split layout, every header in the first buffer, the payload in
 * the rest of it (often nothing) and in each later buffer (page
 * fragments).  Such a record is a one-buffer lone record with its own
 * slices: out[i].slices points into bs->msl instead of at bs->sl[i], and
 * out[i].nslices is their count.  Those two fields are constant for the
 * one-buffer records (gro_burst_init()), so the slots such a record
 * touched get them back before the next burst is grouped by group.c's
 * general loop (gro_lone_bufs_reset(); the records are gone by then:
 * settled or delivered; group_bufs.c's loop writes each record's own and
 * leaves the reset of the slots past them to that loop).  A lone record is settled into the entry the fast path
 * would have held (group.c gro_lone_settle(), the buffers rebuilt from
 * the slices: gro_lone_bufs_of()).
 */
#ifndef OFL_GRO_LONE_BUFS_H
#define OFL_GRO_LONE_BUFS_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "core/parse.h"
#include "gro/cmp.h"
#include "gro/gro_int.h"
#include "gro/stage.h"
#include "gro/tcp.h"

/* The packet fields of such a frame: checksum verified, no hardware VLAN
 * (any buffer count). */
#define GRO_PKT_BUFS_MASK gro_pkt_word_of(0, 0xff, OFL_PKT_F_VLAN)
#define GRO_PKT_BUFS_WANT gro_pkt_word_of(0, OFL_CSUM_UNNECESSARY, 0)

/* A slice's pkt and buf fields as one 32-bit word, in memory order. */
static inline uint32_t gro_lone_pb(uint16_t pkt, uint16_t buf)
{
	uint16_t f[2] = {pkt, buf};
	uint32_t w;
	memcpy(&w, f, 4);
	return w;
}

#if defined(GRO_CMP_HAVE_SSE2) && !defined(OFL_SIMD_OFF) && UINTPTR_MAX == UINT64_MAX
#define GRO_LONE_CUT_SSE2 1
#endif

/* Buffers 1 to nb - 1 of a frame (b) as slices s[1] to s[nb - 1] (pkt 0,
 * buf its index); returns their length (64 bits: no sum wraps), or
 * UINT32_MAX or more when one is empty or NULL (or, in the scalar code,
 * longer than 0x10000: the caller bounds the sum with the first buffer at
 * 0xffff, which bounds each).  nb a constant for the common counts (the
 * loop unrolled).  With SSE2 each buffer is its slice in one 16-byte
 * copy, its padding replaced by the pkt/buf word; the copy minus (1, 1
 * and that word) has the top bit of its data qword set when the data is
 * NULL (or at 2^63 and above: no user address, the frame then goes the
 * full path) and of its length qword when the length is 0, and adds up
 * to the lengths less one each. */
static inline OFL_ALWAYS_INLINE uint64_t gro_lone_cut(const struct ofl_buf *b, struct ofl_slice *s, uint32_t nb)
{
#if defined(GRO_LONE_CUT_SSE2)
	const __m128i keep = _mm_set_epi32(0, -1, -1, -1);
	__m128i bad = _mm_setzero_si128(), sum = bad;
	uint32_t k;
	_Static_assert(sizeof(struct ofl_buf) == 16 && sizeof(struct ofl_slice) == 16 &&
	                   offsetof(struct ofl_buf, len) == 8 && offsetof(struct ofl_slice, len) == 8 &&
	                   offsetof(struct ofl_slice, pkt) == 12,
	               "a buffer and its slice: one 16-byte layout");
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC unroll 4
#endif
	for (k = 1; k < nb; k++) {
		int pb = (int)gro_lone_pb(0, (uint16_t)k);
		__m128i v = _mm_loadu_si128((const __m128i *)(const void *)&b[k]), d;
		v = _mm_or_si128(_mm_and_si128(v, keep), _mm_set_epi32(pb, 0, 0, 0));
		_mm_storeu_si128((__m128i *)(void *)&s[k], v);
		d = _mm_sub_epi64(v, _mm_set_epi32(pb, 1, 0, 1));
		bad = _mm_or_si128(bad, d);
		sum = _mm_add_epi64(sum, d);
	}
	if (_mm_movemask_pd(_mm_castsi128_pd(bad)))
		return UINT32_MAX;
	return (uint64_t)_mm_cvtsi128_si64(_mm_unpackhi_epi64(sum, sum)) + (nb - 1u);
#else
	uint32_t tot = 0, acc = 0, k;
	uintptr_t pmin = UINTPTR_MAX;
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC unroll 4
#endif
	for (k = 1; k < nb; k++) {
		const uint8_t *bd = b[k].data;
		uint32_t bl = b[k].len, pb = gro_lone_pb(0, (uint16_t)k);
		s[k].data = bd;
		s[k].len = bl;
		memcpy((uint8_t *)&s[k] + offsetof(struct ofl_slice, pkt), &pb, 4);
		tot += bl;
		acc |= bl - 1u; /* none empty, each at most 0x10000 */
		pmin = (uintptr_t)bd < pmin ? (uintptr_t)bd : pmin;
	}
	return acc > 0xffffu || pmin == 0 ? UINT32_MAX : tot;
#endif
}

/* The TCP header of a plain frame (tot bytes, the first b0 at p) at o (34
 * or 54, a constant where inlined): the header length o + its length when
 * it is there (ofl_plain_tcp_at()) and carries none of the flags that pass
 * the frame on (FIN, URG, RST, SYN, PSH), else 0. */
static inline OFL_ALWAYS_INLINE uint32_t gro_lone_tcp(const uint8_t *p, uint32_t b0, uint32_t tot, uint32_t o)
{
	uint32_t thl = ofl_plain_tcp_at(p, b0, tot, o);
	return thl && !(p[o + 13] & TCP_NO_RUN) ? o + thl : 0;
}

/* A plain frame's IP addresses folded into one word for its group
 * (group.c group_hash()): IPv4's two, IPv6's four halves of 8 bytes. */
static inline uint64_t gro_addr_v4(const uint8_t *p)
{
	return ld64(p + 26);
}

static inline uint64_t gro_addr_v6(const uint8_t *p)
{
	return ld64(p + 22) ^ ld64(p + 30) ^ ld64(p + 38) ^ ld64(p + 46);
}

/* The plain shape (ofl_plain_ip(), protocol 6) of a frame (tot bytes,
 * the first b0 at p, at least 54) taken by IP version, as group.c's
 * group_parse() takes it, the TCP header's offset o a constant: 34 for a
 * frame that ofl_plain_is_ip4() says is IPv4, 54 for any other (IPv6 is
 * checked here).  Returns the header length (gro_lone_tcp()), else 0. */
static inline OFL_ALWAYS_INLINE uint32_t gro_lone_bufs_l4(const uint8_t *p, uint32_t b0, uint32_t tot, uint32_t o)
{
	if (o == 34)
		return p[23] == 6 && ofl_plain_ip4_rest(p + 14, tot) ? gro_lone_tcp(p, b0, tot, 34) : 0;
	return ofl_plain_is_ip6(p, tot) && p[20] == 6 ? gro_lone_tcp(p, b0, tot, 54) : 0;
}

/* Record out's slices: the first buffer's rest (b0 bytes at p, hl of
 * headers) written at s[0] when there is any, buffers 1 to nb - 1 at s[1]
 * on (gro_lone_cut()). */
static inline OFL_ALWAYS_INLINE void gro_lone_bufs_slices(struct ofl_gro_out *out, struct ofl_slice *s, uint32_t nb,
                                                          const uint8_t *p, uint32_t b0, uint32_t hl)
{
	out->slices = s + 1;
	out->nslices = nb - 1;
	if (b0 != hl) {
		s[0].data = p + hl;
		s[0].len = b0 - hl;
		s[0].pkt = 0;
		s[0].buf = 0;
		out->slices = s;
		out->nslices = nb;
	}
}

/*
 * Frame i of a burst being grouped, in 2 to GRO_LONE_NB buffers (and no
 * more than max_bufs): when it is a TCP segment that the fast path
 * (receive.c fast_path(), hold.h gro_hold_plain()) holds as a new flow -
 * checksum verified, no hardware VLAN, the plain shape (core/parse.h) with
 * every header in the first buffer, the frame at most 0xffff bytes, none
 * of the flags that pass it on - and each later buffer is not empty and
 * not NULL (so the payload is not empty and the arguments are good, as
 * check_args() in burst.c wants them): its slices written to bs->msl (one
 * per buffer that has payload, as hold.c gro_add_slices() cuts them) and
 * pointed to by out[i], its length in *total, its TCP header's offset in
 * *l4 and its addresses folded in *addr (gro_addr_v4(), gro_addr_v6());
 * returns its header length.  Else 0: the full path takes it.  bs->mtop
 * is not raised here: gro_group() sets it to the frames it looked at when
 * it returns (one store a burst instead of one a record).
 */
static inline uint32_t gro_lone_bufs_parse(const struct ofl_gro *g, struct gro_burst *bs, unsigned i,
                                           const struct ofl_pkt *pkt, uint32_t *total, uint32_t *l4,
                                           uint64_t *addr)
{
	const struct ofl_buf *b = pkt->bufs;
	const uint8_t *p;
	uint32_t nb = pkt->nbufs, b0, tot, o, hl, at = bs->nmsl;
	uint64_t cut;
	struct ofl_slice *s;
	if ((gro_pkt_word(pkt) & GRO_PKT_BUFS_MASK) != GRO_PKT_BUFS_WANT || nb > GRO_LONE_NB ||
	    nb > g->cfg.max_bufs || at > GRO_LONE_NSL - GRO_LONE_NB || !b)
		return 0;
	p = b[0].data;
	b0 = b[0].len;
	if (!p || b0 < 54u)
		return 0;
	/* buffer k's slice at s[k] (the first buffer's rest at s[0], when
	 * there is any) */
	s = &bs->msl[at];
	if (nb == 2)
		cut = gro_lone_cut(b, s, 2);
	else if (nb == 4)
		cut = gro_lone_cut(b, s, 4);
	else
		cut = gro_lone_cut(b, s, nb);
	if (cut + b0 > 0xffffu) /* (UINT32_MAX too) */
		return 0;
	tot = (uint32_t)cut + b0;
	if (ofl_plain_is_ip4(p)) {
		o = 34;
		*addr = gro_addr_v4(p);
	} else {
		o = 54;
		*addr = gro_addr_v6(p);
	}
	if (!(hl = o == 34 ? gro_lone_bufs_l4(p, b0, tot, 34) : gro_lone_bufs_l4(p, b0, tot, 54)))
		return 0;
	gro_lone_bufs_slices(&bs->out[i], s, nb, p, b0, hl);
	bs->nmsl = at + pkt->nbufs;
	*total = tot;
	*l4 = o;
	return hl;
}

/* The slots [0, bs->mtop) given back their constant slices and nslices
 * (gro_burst_init()) before a burst is grouped when bs->nmsl says that a
 * record of an earlier burst took slices from bs->msl, bs->msl emptied. */
void gro_lone_bufs_reset(struct gro_burst *bs);

/* Lone record o of a frame in several buffers: its buffers rebuilt in b
 * (at least GRO_LONE_NB of them) from its header and slices, pkt pointed
 * at them; returns its first buffer's length. */
uint32_t gro_lone_bufs_of(const struct ofl_gro_out *o, struct ofl_pkt *pkt, struct ofl_buf *b);

#endif
