/*
 * weave_run.h - the weave's frames of one buffer while each is taken by the
 * slot its predecessor's names (struct wflow nx: the round robin of a few
 * interleaved flows, nothing looked up); weave.c's loop calls it (out of
 * line: its own registers) and looks at the frame it stops at.
 */
#ifndef OFL_GRO_WEAVE_RUN_H
#define OFL_GRO_WEAVE_RUN_H

#include <stddef.h>
#include <string.h>

#include "gro/weave.h"

/* AVX2, TCP/IPv4, little endian: weave_takes()'s compare with the
 * sequence number and the ID-to-checksum word in it: one shuffle of the
 * frame's 32 bytes from 18 puts them, host order, where the slot keeps
 * them (e in its first 8 bytes, seq at 16).  (IPv6: its sequence number
 * alone, one compare of a word, costs less than the shuffle.) */
#if defined(TRAIN_AVX2) && defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define WEAVE_CMP_AVX2 1
static inline GRO_TARGET_AVX2 int weave_cmp_avx2(const struct wflow *w, const uint8_t *d, const uint8_t *rm)
{
	/* each 16-byte half: its bytes 7..0 (a 64-bit word's byte swap; in
	 * the upper half only 7..4, the sequence number's) */
	const __m256i sh = _mm256_setr_epi8(7, 6, 5, 4, 3, 2, 1, 0, -1, -1, -1, -1, -1, -1, -1, -1, 7, 6, 5, 4, -1, -1,
	                                    -1, -1, -1, -1, -1, -1, -1, -1, -1, -1);
	const __m256i f = _mm256_shuffle_epi8(_mm256_loadu_si256((const __m256i *)(const void *)(d + 18)), sh);
	/* (the slot's bytes around e and seq are zeros, as f's) */
	const __m256i x = _mm256_xor_si256(f, _mm256_loadu_si256((const __m256i *)(const void *)w));
	return gro_cmp_avx2_d(x, d, w->it->hdr, rm, 0, w->hl);
}
#endif

/* Does slot w take frame d (its length checked: a full segment's of the
 * flow, or its slices cut)?  Its count within the bound, its header the
 * expected one (the masked compare, rm), its sequence number (udp: a
 * checksum not 0) and IPv4 its ID-to-checksum word the next. */
static inline OFL_ALWAYS_INLINE int weave_takes(const struct wflow *w, const uint8_t *d, const uint8_t *rm,
                                                const int v4, const int avx2, const int udp)
{
	const uint32_t l4c = v4 ? 34u : 54u;
#if defined(WEAVE_CMP_AVX2)
	if (avx2 && v4 && !udp)
		return w->n != w->left && !weave_cmp_avx2(w, d, rm);
#endif
	return w->n != w->left && !train_cmp(d, w->it->hdr, rm, 0, udp ? pred_cmp_len(w->hl) : w->hl, avx2) &&
	       (udp ? (d[l4c + 6] | d[l4c + 7]) != 0 : ofl_get32(d + l4c + 4) == w->seq) &&
	       (!v4 || get64(d + 18) == w->e);
}

/* Frame q (one buffer, its data d) taken by slot w (weave_takes() said
 * yes): its payload's slice (after hl, the slot's header length) and its
 * cookie written, the slot's count and expected fields stepped.  lstep: a
 * slice word's step (pkt one more). */
static inline OFL_ALWAYS_INLINE void weave_take1(struct wflow *w, const struct ofl_pkt *q, const uint8_t *d,
                                                 uint32_t hl, uint64_t lstep, const int v4, const int udp)
{
	const uint32_t nn = w->n;
	const uint64_t lw = w->lw + nn * lstep;
	struct ofl_slice *s = w->s + nn;
	s->data = d + hl;
	memcpy((uint8_t *)s + SL_LEN, &lw, 8);
	w->c[nn] = q->cookie;
	w->n = nn + 1;
	if (!udp)
		w->seq += w->mss;
	if (v4)
		w->e += w->estep;
}

/* The frames from q (below lim) while each is taken by the slot its
 * predecessor's names (nx: the round robin of a few interleaved flows,
 * nothing looked up), w the slot of the frame before q; pf: the header GRO_AHEAD on fetched first, checked as the
 * weave checks it (a frame that fails, or one the guess does not take,
 * left to the weave's loop, which looks at it again).  Returns where it
 * stopped and the slot of the frame before. */
struct wrun {
	const struct ofl_pkt *q;
	struct wflow *w;
};
static inline OFL_ALWAYS_INLINE struct wrun weave_run(const struct ofl_pkt *q, const struct ofl_pkt *lim,
                                                      struct wflow *w, const uint8_t *rm, uint64_t lstep,
                                                      const int v4, const int avx2, const int udp, const int pf)
{
	const uint32_t l4c = v4 ? 34u : 54u;
	struct wrun r;
	for (; q < lim; q++) {
		const uint8_t *d;
		struct wflow *x;
		if (pf) {
			const struct ofl_pkt *a = q + GRO_AHEAD;
			if (!weave_ok(a, l4c))
				break;
#if defined(__GNUC__)
			__builtin_prefetch(a->bufs->data);
#endif
		}
		d = q->bufs->data;
		x = w->nx;
		/* (a free slot's full is 0, never a frame's length here: at
		 * least l4c + 20) */
		if (q->bufs->len != x->full || !weave_takes(x, d, rm, v4, avx2, udp))
			break;
		weave_take1(x, q, d, x->hl, lstep, v4, udp);
		w = x;
	}
	r.q = q;
	r.w = w;
	return r;
}

/* weave_run() from q with the header fetched while below pfend, then
 * without, up to qend; out of line (its own registers: the slot of the
 * frame before in one), a copy for each L3, UDP and AVX2. */
static inline OFL_ALWAYS_INLINE struct wrun weave_runs(const struct ofl_pkt *q, const struct ofl_pkt *pfend,
                                                       const struct ofl_pkt *qend, struct wflow *w,
                                                       const uint8_t *rm, const int v4, const int avx2,
                                                       const int udp)
{
	struct wrun r = {q, w};
	const uint64_t lstep = sl_word(0, 1, 0);
	if (q < pfend)
		r = weave_run(q, pfend < qend ? pfend : qend, w, rm, lstep, v4, avx2, udp, 1);
	if (r.q >= pfend)
		r = weave_run(r.q, qend, r.w, rm, lstep, v4, avx2, udp, 0);
	return r;
}
#if defined(WEAVE_CMP_AVX2)
/* The constants of weave_run_hl(): the masks of a header of hl bytes, its
 * blocks from 0, 32 (mid) and hl - 32, and the shuffle compare's. */
struct wmask {
	__m256i m0, m1, ml, sh;
};

/* AVX2, TCP: does slot x take frame q (weave_run()'s test and take, with
 * the frame GRO_AHEAD on checked and its header fetched first when pf),
 * the slot's header length hl?  The compare's masks and the shuffle's
 * constants in registers (k), and the slot's length and header length one
 * word compared with the frame's length and hl (hlm: hl - 32, hlw: hl <<
 * 32).  mid: the header has a middle block (64 < hl <= 96; else hl <= 64). */
static inline OFL_ALWAYS_INLINE GRO_TARGET_AVX2 int weave_hl1(const struct ofl_pkt *q, struct wflow *x,
                                                             const struct wmask *k, uint64_t lstep, size_t hlm,
                                                             uint64_t hlw, const int v4, const int mid, const int pf)
{
	const uint32_t l4c = v4 ? 34u : 54u;
	const struct ofl_buf *b;
	const uint8_t *d, *h;
	uint64_t fw;
	__m256i y;
	if (pf) {
		const struct ofl_pkt *a = q + GRO_AHEAD;
		if (!weave_ok(a, l4c))
			return 0;
		__builtin_prefetch(a->bufs->data);
	}
	b = q->bufs;
	memcpy(&fw, &x->full, 8);
	/* (a free slot's full is 0, never a frame's length here) */
	if ((b->len | hlw) != fw || x->n == x->left)
		return 0;
	d = b->data;
	h = x->it->hdr;
#define WRY(o, m)                                                                                          \
	_mm256_and_si256(_mm256_xor_si256(_mm256_loadu_si256((const __m256i *)(const void *)(d + (o))),         \
	                                  _mm256_loadu_si256((const __m256i *)(const void *)(h + (o)))),        \
	                 (m))
	y = _mm256_or_si256(WRY(0, k->m0), WRY(hlm, k->ml));
	if (mid || !v4) {
		/* (IPv6: its sequence number, bytes 58-61, is the middle
		 * block's 26-29, shuffled from there) */
		__m256i b1 = _mm256_loadu_si256((const __m256i *)(const void *)(d + 32));
		if (!v4)
			__asm__("" : "+x"(b1)); /* (one load for both) */
		y = _mm256_or_si256(y, _mm256_and_si256(_mm256_xor_si256(b1, _mm256_loadu_si256((const __m256i *)(const void *)(h + 32))), k->m1));
		if (!v4)
			y = _mm256_or_si256(y, _mm256_xor_si256(_mm256_shuffle_epi8(b1, k->sh),
			                                        _mm256_loadu_si256((const __m256i *)(const void *)x)));
	}
#undef WRY
	if (v4) {
		const __m256i f = _mm256_shuffle_epi8(_mm256_loadu_si256((const __m256i *)(const void *)(d + 18)), k->sh);
		y = _mm256_or_si256(y, _mm256_xor_si256(f, _mm256_loadu_si256((const __m256i *)(const void *)x)));
	}
	if (!_mm256_testz_si256(y, y))
		return 0;
	weave_take1(x, q, d + hlm, 32, lstep, v4, 0); /* (d + hl: one register for hl) */
	return 1;
}

/* AVX2, TCP: weave_run() for the slots whose header length is hl (the
 * slot of the first frame's; a frame of another slot's, or of another
 * length, stops it): weave_hl1() frame by frame, two a turn (the slot
 * pointers in turn, one bound test). */
static inline OFL_ALWAYS_INLINE GRO_TARGET_AVX2 struct wrun weave_run_hl(const struct ofl_pkt *q,
                                                                        const struct ofl_pkt *lim, struct wflow *w,
                                                                        const struct wmask *k, uint64_t lstep,
                                                                        uint32_t hl, const int v4, const int mid,
                                                                        const int pf)
{
	const uint64_t hlw = (uint64_t)hl << 32;
	const size_t hlm = hl - 32u;
	const struct ofl_pkt *const lim1 = q < lim ? lim - 1 : q; /* (a pair: its first below) */
	struct wflow *x;
	struct wrun r;
	while (q < lim1) {
		x = w->nx;
		if (!weave_hl1(q, x, k, lstep, hlm, hlw, v4, mid, pf))
			goto out;
		w = x->nx;
		if (!weave_hl1(q + 1, w, k, lstep, hlm, hlw, v4, mid, pf)) {
			w = x;
			q++;
			goto out;
		}
		q += 2;
	}
	if (q < lim) {
		x = w->nx;
		if (weave_hl1(q, x, k, lstep, hlm, hlw, v4, mid, pf)) {
			w = x;
			q++;
		}
	}
out:
	r.q = q;
	r.w = w;
	return r;
}

/* weave_runs() of the AVX2 TCP copies: weave_run_hl() for the first
 * frame's slot's header length when it is at most 96 (no more than three
 * blocks), else weave_run(). */
static inline OFL_ALWAYS_INLINE GRO_TARGET_AVX2 struct wrun weave_runs_hl(const struct ofl_pkt *q,
                                                                         const struct ofl_pkt *pfend,
                                                                         const struct ofl_pkt *qend, struct wflow *w,
                                                                         const uint8_t *rm, const int v4)
{
	struct wrun r = {q, w};
	const uint64_t lstep = sl_word(0, 1, 0);
	const uint32_t hl = w->nx->hl;
	struct wmask k;
	if (hl > 96)
		return weave_runs(q, pfend, qend, w, rm, v4, 1, 0);
	k.m0 = _mm256_loadu_si256((const __m256i *)(const void *)rm);
	k.m1 = _mm256_loadu_si256((const __m256i *)(const void *)(rm + 32));
	k.ml = _mm256_loadu_si256((const __m256i *)(const void *)(rm + hl - 32));
	/* the shuffle compare's: IPv4 weave_cmp_avx2()'s (from byte 18); IPv6
	 * the sequence number from the middle block (bytes 32-63) to bytes
	 * 16-19, host order, the rest zeros (e is 0 then) */
	k.sh = v4 ? _mm256_setr_epi8(7, 6, 5, 4, 3, 2, 1, 0, -1, -1, -1, -1, -1, -1, -1, -1, 7, 6, 5, 4, -1, -1, -1, -1,
	                             -1, -1, -1, -1, -1, -1, -1, -1)
	          : _mm256_setr_epi8(-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 13, 12, 11, 10, -1,
	                             -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1);
	/* (opaque: kept in registers, not loaded again a frame) */
	__asm__("" : "+x"(k.m0), "+x"(k.m1), "+x"(k.ml), "+x"(k.sh));
	if (!v4 && hl <= 64)
		return r; /* (never: an IPv6 header is 74 bytes or more) */
	if (q < pfend)
		r = hl > 64 ? weave_run_hl(q, pfend < qend ? pfend : qend, w, &k, lstep, hl, v4, 1, 1)
		            : weave_run_hl(q, pfend < qend ? pfend : qend, w, &k, lstep, hl, v4, 0, 1);
	if (r.q >= pfend)
		r = hl > 64 ? weave_run_hl(r.q, qend, r.w, &k, lstep, hl, v4, 1, 0)
		            : weave_run_hl(r.q, qend, r.w, &k, lstep, hl, v4, 0, 0);
	return r;
}
#endif

#define WEAVE_RUNS(name, attr, v4, avx2, udp)                                                                \
	static OFL_NOINLINE attr struct wrun name(const struct ofl_pkt *q, const struct ofl_pkt *pfend,        \
	                                          const struct ofl_pkt *qend, struct wflow *w, const uint8_t *rm) \
	{                                                                                                    \
		return weave_runs(q, pfend, qend, w, rm, v4, avx2, udp);                                     \
	}
WEAVE_RUNS(weave_runs_v4, , 1, 0, 0)
WEAVE_RUNS(weave_runs_v6, , 0, 0, 0)
WEAVE_RUNS(weave_runs_u4, , 1, 0, 1)
WEAVE_RUNS(weave_runs_u6, , 0, 0, 1)
#if defined(TRAIN_AVX2)
#if defined(WEAVE_CMP_AVX2)
#define WEAVE_RUNS_HL(name, v4)                                                                               \
	static OFL_NOINLINE GRO_TARGET_AVX2 struct wrun name(const struct ofl_pkt *q, const struct ofl_pkt *pfend, \
	                                                     const struct ofl_pkt *qend, struct wflow *w,         \
	                                                     const uint8_t *rm)                                    \
	{                                                                                                     \
		return weave_runs_hl(q, pfend, qend, w, rm, v4);                                              \
	}
WEAVE_RUNS_HL(weave_runs_v4_avx2, 1)
WEAVE_RUNS_HL(weave_runs_v6_avx2, 0)
#undef WEAVE_RUNS_HL
#else
WEAVE_RUNS(weave_runs_v4_avx2, GRO_TARGET_AVX2, 1, 1, 0)
WEAVE_RUNS(weave_runs_v6_avx2, GRO_TARGET_AVX2, 0, 1, 0)
#endif
WEAVE_RUNS(weave_runs_u4_avx2, GRO_TARGET_AVX2, 1, 1, 1)
WEAVE_RUNS(weave_runs_u6_avx2, GRO_TARGET_AVX2, 0, 1, 1)
#define WEAVE_RUNS_OF(v4, avx2, udp)                                                                          \
	((avx2) ? ((udp) ? ((v4) ? weave_runs_u4_avx2 : weave_runs_u6_avx2)                                   \
	                 : ((v4) ? weave_runs_v4_avx2 : weave_runs_v6_avx2))                                  \
	        : ((udp) ? ((v4) ? weave_runs_u4 : weave_runs_u6) : ((v4) ? weave_runs_v4 : weave_runs_v6)))
#else
#define WEAVE_RUNS_OF(v4, avx2, udp) ((udp) ? ((v4) ? weave_runs_u4 : weave_runs_u6) : ((v4) ? weave_runs_v4 : weave_runs_v6))
#endif
#undef WEAVE_RUNS

#endif
