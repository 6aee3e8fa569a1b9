/*
 * weave.c - interleaved flows: the full segments of several held flows
 * taken one after the other from a burst (gro_weave(), called by the burst
 * loop after a frame predicted through the recent-flows cache): TCP frames
 * of one buffer, or of several (header split, page fragments), and UDP
 * flows' datagrams, each in a copy of the loop (weave_l3(): mb, udp).
 */
#include <stddef.h>
#include <string.h>

#include "gro/lanes.h"
#define GRO_RUN_BUFS_LANES
#include "gro/run_bufs.h"
#include "gro/layer.h"
#include "gro/udp.h"
#include "gro/weave_hold.h"
#include "gro/weave_run.h"
#include "gro/weave_slot.h"

/*
 * Interleaved flows (the weave): frames [i, n) of the burst while each is
 * a full-size segment, in one buffer, of a held plain untagged TCP flow of
 * L3 v4 (4 or 6) that the recent-flows cache names, and header prediction
 * takes it.  Such a merge (a full segment without PSH/FIN/URG/RST/SYN)
 * completes nothing and emits nothing, so taking the frames one after the
 * other here is the per-frame path with less around it: no call per frame,
 * no argument checks (the packet word and buffer pointers are what
 * check_args() accepts), no attempt against the last entry, and each
 * flow's state in a slot of a small table (struct wflow, 128 bytes) while
 * the frames run, as a train keeps one flow's in locals: the frame is
 * compared as a run compares (struct run: the held header is the expected
 * one, its IP length a full segment's and its flag byte no flag that ends
 * a train, checked when the flow joins), the sequence number and the IPv4
 * ID-to-checksum word each one compare.  The limits (segments, slices,
 * size, the ID or checksum wrap) are a count of frames taken when the flow
 * joins; the slot counts the frames it took (its next slice, cookie and
 * slice word found from the count) and the entry and the context's
 * counters are written when it leaves.  The held bytes are a bound on the
 * frames: the room when the weave started over the largest segment size
 * met, so never more than the room (a frame past the bound stops the
 * weave).  A frame's checks before its ports are read (packet word, one
 * buffer, its data, room for the header) are made as its header is
 * prefetched, GRO_AHEAD frames early, as run1.c makes them.  The first
 * frame that is anything else stops the loop, untouched, for the caller's
 * per-frame path (predict() and the full path apply the rules one by
 * one).  Returns how many frames it took.
 */

/* Frame q's payload, after hl header bytes in its first buffer of b0, as
 * slices from s of the pkt/buf word pb (the frame's segment, buffer 0):
 * the rest of the first buffer when there is any, then one a later buffer
 * (as hold.c gro_add_slices() cuts a frame whose buffers are none empty).
 * Returns the frame's length (the buffers' sum), with a bit above 15 set
 * when b0 is below hl (the headers not all in the first buffer), a later
 * buffer is empty, longer than 0xffff or its data NULL (never a full
 * segment's length then: no such frame taken, what was written is past
 * the entry's slices).  The caller checked the room (nb slices). */
static inline OFL_ALWAYS_INLINE uint64_t weave_cut_n(struct ofl_slice *s, const struct ofl_buf *qb, uint32_t nb,
                                                     uint32_t hl, uint32_t b0, uint32_t pb)
{
	const uint32_t bstep = pb_word(0, 1);
	uint64_t tot = b0;
	uint32_t k, len = b0 - hl, acc = len; /* (b0 below hl: wraps, a bit above 15) */
	uintptr_t pmin = UINTPTR_MAX; /* (a NULL: 0) */
	put_slice(s, qb->data + hl, len, pb);
	s += len != 0;
#if defined(__GNUC__)
#pragma GCC unroll 4
#endif
	for (k = 1; k < nb; k++, s++) {
		const uint8_t *bd = qb[k].data;
		len = qb[k].len;
		pb += bstep;
		put_slice(s, bd, len, pb);
		tot += len;
		acc |= len - 1u; /* (empty: all ones) */
		pmin = (uintptr_t)bd < pmin ? (uintptr_t)bd : pmin;
	}
	return tot | (acc & ~0xffffu) | (uint64_t)(pmin == 0) << 32;
}
/* (the header split's four buffers: the loop unrolled) */
static inline OFL_ALWAYS_INLINE uint64_t weave_cut(struct ofl_slice *s, const struct ofl_pkt *q, uint32_t hl,
                                                   uint32_t b0, uint32_t pb)
{
	return q->nbufs == 4 ? weave_cut_n(s, q->bufs, 4, hl, b0, pb) : weave_cut_n(s, q->bufs, q->nbufs, hl, b0, pb);
}



/* Frames [a, pe) of one buffer checked as weave.h weave_ok() checks one,
 * each one's header fetched (at most GRO_AHEAD of them; all GRO_AHEAD:
 * unrolled, no bound in each): the first that fails, or pe.  (The fresh
 * weave's next GRO_AHEAD; weave_l3()'s first GRO_AHEAD keep their own loop
 * and weave_ok()'s checks written out as a macro, WEAVE_OK, with the
 * several-buffer form beside them: with this helper there the
 * several-buffer copy's register allocation cost 2 instructions a frame,
 * and with weave_ok() called in the macro 0.1.) */
static inline OFL_ALWAYS_INLINE const struct ofl_pkt *weave_check(const struct ofl_pkt *a, const struct ofl_pkt *pe,
                                                                  uint32_t l4c)
{
	if (pe == a + GRO_AHEAD) {
		unsigned k;
#if defined(__GNUC__)
#pragma GCC unroll 8
#endif
		for (k = 0; k < GRO_AHEAD; k++) {
			if (!weave_ok(a + k, l4c))
				return a + k;
#if defined(__GNUC__)
			__builtin_prefetch(a[k].bufs->data);
#endif
		}
		return pe;
	}
	for (; a < pe; a++) {
		if (!weave_ok(a, l4c))
			break;
#if defined(__GNUC__)
		__builtin_prefetch(a->bufs->data);
#endif
	}
	return a;
}

/* udp: the datagrams of UDP flows (one buffer), the held header's UDP
 * length compared (a full datagram's), the checksum not 0 instead of the
 * sequence number; never fresh.
 * mb: frames in several buffers (header split, page fragments), their
 * headers in the first: the frame's length the buffers' sum, its slices
 * weave_cut()'s, bounded by the entry's slice room (a frame's count of
 * slices), the packet word's nbufs any from 2 to the context's max_bufs;
 * fresh: a new flow's first frame held as the fast path's hold cuts it
 * (weave_hold.h weave_hold(), inline in each copy). */
static inline OFL_ALWAYS_INLINE unsigned weave_l3(struct ofl_gro *g, const struct ofl_pkt *pkts, unsigned i,
                                                  unsigned n, int fresh, uint64_t now, const int v4, const int avx2,
                                                  const int mb, const int udp)
{
	struct wflow *wf = g->weave;
	/* the run's mask (struct run); TCP in one buffer: the context's, built
	 * when the last weave's was the other L3's (pmask is fixed at create;
	 * UDP and several buffers: built here, fewer instructions so) */
	_Alignas(32) uint8_t rmb[GRO_PRED_MAX];
	uint8_t *const rm = mb || udp ? rmb : g->wmask;
	const uint32_t wmk = 1u + !v4;
	const uint32_t l4c = v4 ? 34u : 54u;
	const struct ofl_pkt *q = pkts + i, *q0 = q, *qend = pkts + n;
	const struct ofl_pkt *pfend = n > GRO_AHEAD ? pkts + (n - GRO_AHEAD) : pkts;
	const uint32_t hroom = sat_sub(g->cfg.max_held_bytes, g->held_bytes);
	uint32_t held = 0, maxmss = 0, nh = 0;
	/* the flows it may hold (fresh: none held, none in lone records) */
	const uint32_t froom = fresh ? sat_sub(g->cfg.max_flows, gro_nflows(g)) : 0, head0 = g->free_head;
	const uint32_t mbmask = gro_pkt_word_of(0, 0xff, OFL_PKT_F_VLAN), mbwant = gro_pkt_word_of(0, OFL_CSUM_UNNECESSARY, 0);
	const uint32_t nbm1 = g->cfg.max_bufs - 1u; /* (max_bufs is not 0) */
	uint64_t bytes = 0, lstep;
	/* the last frame's entry: its slot's at the end (weave_last()), but
	 * when the frame the loop stopped at (fixq) joined that slot: fixit */
	const struct ofl_pkt *fixq = NULL;
	const struct wflow *fixw = NULL;
	const struct gro_item *fixit = NULL;
	/* one buffer: the slot of the frame before, whose nx names the slot
	 * the frame is tried against first (its flow next last time) */
	struct wflow *wp = wf;
	lstep = sl_word(0, 1, 0);
	if (!mb && OFL_UNLIKELY(!wf->nx)) {
		unsigned j;
		for (j = 0; j < WEAVE_SLOTS; j++)
			wf[j].nx = &wf[j];
	}
	if (mb || udp || OFL_UNLIKELY(g->wm_key != wmk)) {
		if (!mb && !udp)
			g->wm_key = wmk;
		memcpy(rm, g->pmask[udp ? (v4 ? GRO_STACK_UDP4 : GRO_STACK_UDP6) : !v4], GRO_PRED_MAX);
		run_mask_fix(rm, l4c, v4, udp);
		/* the ports compared too (the rules compare them): a frame
		 * that the guessed slot takes has its ports, and that slot is
		 * its ports' */
		if (!mb)
			memset(rm + l4c, 0xff, 4);
	}
#define WEAVE_OK(a) \
	((mb ? (gro_pkt_word(a) & mbmask) == mbwant && (uint32_t)((a)->nbufs - 2u) < nbm1 \
	     : weave_pkt_ok(a)) && \
	 (a)->bufs && (a)->bufs->data && (a)->bufs->len >= l4c + 20u)
	if (udp)
		fresh = 0;
	{
		/* the first GRO_AHEAD frames checked here, the first that
		 * fails ending the weave there */
		const struct ofl_pkt *a = q, *pe = (size_t)(qend - q) > GRO_AHEAD ? q + GRO_AHEAD : qend;
		if (pe == q + GRO_AHEAD) {
			/* (all of them there: unrolled, no bound in each) */
			unsigned k;
#if defined(__GNUC__)
#pragma GCC unroll 8
#endif
			for (k = 0; k < GRO_AHEAD; k++)
				if (!WEAVE_OK(q + k))
					break;
			a = q + k;
		} else {
			while (a < pe && WEAVE_OK(a))
				a++;
		}
		qend = a < pe ? a : qend;
	}
	/* (a frame's header fetched: GRO_AHEAD frames before it is read) */
#if defined(__GNUC__)
#define WEAVE_PREFETCH(p) __builtin_prefetch(p)
#else
#define WEAVE_PREFETCH(p) ((void)(p))
#endif
	if (!mb && fresh) {
		/* one buffer, fresh: the new flows first, in a loop of their
		 * own (the frames while each one's slot is free, held as the
		 * loop below holds them, weave_new()), each slot the guess of
		 * the one before's; a hold refused ends the weave there.  The
		 * next GRO_AHEAD frames checked and fetched first, at once (no
		 * check ahead a flow for the first GRO_AHEAD; the first that
		 * fails ends the weave there, as the check ahead would) */
		const struct ofl_pkt *const pchk = q + GRO_AHEAD;
		{
			const struct ofl_pkt *pe = qend - pchk > (ptrdiff_t)GRO_AHEAD ? pchk + GRO_AHEAD : qend;
			const struct ofl_pkt *a = weave_check(pchk, pe, l4c);
			qend = a < pe ? a : qend;
		}
		/* the flow limit: at most froom frames, each one a new flow
		 * (nothing was held when the weave started); fend: qend, or
		 * before it the frame past that limit */
		const struct ofl_pkt *fend = (size_t)(qend - q) > froom ? q + froom : qend;
		for (; q < fend; q++) {
			const uint8_t *d;
			struct wflow *w;
			uint32_t ports;
			d = q->bufs->data;
			ports = ld32(d + l4c);
			w = weave_slot(wf, ports);
			if (w->full)
				break;
			if (q >= pchk && q < pfend) {
				const struct ofl_pkt *a = q + GRO_AHEAD;
				if (WEAVE_OK(a)) {
					WEAVE_PREFETCH(a->bufs->data);
				} else {
					qend = a < qend ? a : qend;
					fend = a < fend ? a : fend;
					pfend = q;
				}
			}
			/* (the guess before the hold: fewer values live across
			 * it; a hint, set for a frame the hold refuses too) */
			wp->nx = w;
			wp = w;
			if (!weave_new(g, w, q, q0, d, ports, q->bufs->len, now, hroom, &maxmss, &qend, &fend, v4)) {
				qend = q;
				break;
			}
		}
		/* (a new flow past the limit: the loop below stops there, nh
		 * froom) */
		nh = (uint32_t)(q - q0);
	}
	for (; q < qend; q++) {
		const uint8_t *d;
		struct wflow *w;
		struct ofl_slice *s;
		uint32_t tot, ports, nn;
		if (!mb && q->bufs->len == wp->nx->full) {
			/* the frames the guess takes (weave_run(); its first
			 * test here: no call for a frame it would not take) */
			const struct wrun r = WEAVE_RUNS_OF(v4, avx2, udp)(q, pfend, qend, wp, rm);
			q = r.q;
			wp = r.w;
			if (q >= qend)
				break;
		}
		if (q < pfend) {
			const struct ofl_pkt *a = q + GRO_AHEAD;
			if (WEAVE_OK(a)) {
#if defined(__GNUC__)
				__builtin_prefetch(a->bufs->data);
#endif
			} else {
				qend = a < qend ? a : qend;
				pfend = q;
			}
		}
		d = q->bufs->data;
		tot = q->bufs->len; /* mb: the first buffer's */
		ports = ld32(d + l4c);
		w = weave_slot(wf, ports);
		if (mb ? w->ports != ports || !w->full : !weave_slot_is(w, ports, tot)) {
			if (fresh && !w->full) {
				/* no held flow has its ports: a new flow, held
				 * (the bytes bound first: with its payload as the
				 * largest segment size, frames from the first;
				 * mb: the frame's length its buffers' sum) */
				const uint32_t fl = mb ? bufs_total(g, q) : tot;
				uint32_t len = fl - l4c - ((d[l4c + 12] >> 2) & 0x3cu);
				/* (a payload no larger than the largest met: within
				 * the bound, q below qend; the flow limit: nothing
				 * was held when the weave started, nh held since) */
				if ((mb && !fl) || (len > maxmss && (uint64_t)(q - q0 + 1) * len > hroom) || nh >= froom ||
				    !weave_hold(g, w, q, ports, fl, len, now, v4, mb))
					break;
				nh++;
				if (!mb) {
					wp->nx = w;
					wp = w;
				}
				if (len > maxmss) {
					const struct ofl_pkt *qlim;
					maxmss = len;
					qlim = q0 + hroom / maxmss;
					qend = qlim < qend ? qlim : qend;
				}
				continue;
			}
			/* a flow joins, unless it is the slot's (another length);
			 * another flow's slot taken: not every held flow in a slot */
			fresh = 0;
			fixq = q;
			fixw = w;
			fixit = w->it;
			if (w->full) {
				if (mb)
					weave_xs(w);
				else
					w->xs = 0; /* (its leave in weave_join(): weave_slot_at() does not set it) */
			}
			if ((!mb && w->full && w->ports == ports) ||
			    !(v4 ? weave_join_v4 : weave_join_v6)(g, w, d, ports, &bytes, &held, udp) ||
			    (!mb && w->full != tot))
				break;
			if (mb)
				weave_sroom(g, w);
			/* the held bytes: at most the room over the largest
			 * segment size, frames from the first */
			if (w->mss > maxmss) {
				const struct ofl_pkt *qlim;
				maxmss = w->mss;
				qlim = q0 + hroom / maxmss;
				qend = qlim < qend ? qlim : qend;
				if (q >= qend)
					break;
			}
		}
		if (mb) {
			/* the slices' room, cut (the headers in the first
			 * buffer), the frame's length a full segment's */
			s = w->sp;
			if (q->nbufs > (size_t)(w->send - s) || /* (nbufs: at most one more) */
			    weave_cut(s, q, w->hl, tot, w->pb) != w->full)
				break;
		}
		if (!weave_takes(w, d, rm, v4, avx2, udp))
			break;
		if (!mb) {
			wp->nx = w;
			weave_take1(w, q, d, w->hl, lstep, v4, udp);
			wp = w;
			continue;
		}
		nn = w->n;
		w->sp = s + q->nbufs - (tot == w->hl);
		w->pb += pb_word(1, 0);
		w->c[nn] = q->cookie;
		w->n = nn + 1;
		w->seq += w->mss; /* (mb: TCP) */
		if (v4)
			w->e += w->estep;
	}
#undef WEAVE_OK
#undef WEAVE_PREFETCH
	return weave_done(g, wf, bytes, held, weave_last(wf, q0, q, fixq, fixw, fixit, l4c), (unsigned)(q - q0), nh,
	                  head0, mb);
}

#if defined(TRAIN_AVX2)
static OFL_NOINLINE GRO_TARGET_AVX2 unsigned weave_v4_avx2(struct ofl_gro *g, const struct ofl_pkt *pkts, unsigned i,
                                                           unsigned n, int fresh, uint64_t now)
{
	return weave_l3(g, pkts, i, n, fresh, now, 1, 1, 0, 0);
}
static OFL_NOINLINE GRO_TARGET_AVX2 unsigned weave_v6_avx2(struct ofl_gro *g, const struct ofl_pkt *pkts, unsigned i,
                                                           unsigned n, int fresh, uint64_t now)
{
	return weave_l3(g, pkts, i, n, fresh, now, 0, 1, 0, 0);
}
/* UDP flows' datagrams; frames in several buffers (weave_l3()) */
static OFL_NOINLINE GRO_TARGET_AVX2 unsigned weave_udp_avx2(struct ofl_gro *g, const struct ofl_pkt *pkts, unsigned i,
                                                            unsigned n, unsigned l3)
{
	return l3 == 4 ? weave_l3(g, pkts, i, n, 0, 0, 1, 1, 0, 1) : weave_l3(g, pkts, i, n, 0, 0, 0, 1, 0, 1);
}
static OFL_NOINLINE GRO_TARGET_AVX2 unsigned weave_bufs_avx2(struct ofl_gro *g, const struct ofl_pkt *pkts, unsigned i,
                                                             unsigned n, unsigned l3, int fresh, uint64_t now)
{
	return l3 == 4 ? weave_l3(g, pkts, i, n, fresh, now, 1, 1, 1, 0) : weave_l3(g, pkts, i, n, fresh, now, 0, 1, 1, 0);
}
#endif

/* The copies of the weave for UDP flows' datagrams (never fresh) and for
 * frames in several buffers. */
static OFL_NOINLINE unsigned weave_udp(struct ofl_gro *g, const struct ofl_pkt *pkts, unsigned i, unsigned n,
                                       unsigned l3)
{
#if defined(TRAIN_AVX2)
	if (gro_cpu_avx2())
		return weave_udp_avx2(g, pkts, i, n, l3);
#endif
	return l3 == 4 ? weave_l3(g, pkts, i, n, 0, 0, 1, 0, 0, 1) : weave_l3(g, pkts, i, n, 0, 0, 0, 0, 0, 1);
}
static OFL_NOINLINE unsigned weave_bufs(struct ofl_gro *g, const struct ofl_pkt *pkts, unsigned i, unsigned n,
                                        unsigned l3, int fresh, uint64_t now)
{
#if defined(TRAIN_AVX2)
	if (gro_cpu_avx2())
		return weave_bufs_avx2(g, pkts, i, n, l3, fresh, now);
#endif
	return l3 == 4 ? weave_l3(g, pkts, i, n, fresh, now, 1, 0, 1, 0) : weave_l3(g, pkts, i, n, fresh, now, 0, 0, 1, 0);
}

/* A copy per L3 in one function (each L3's register-allocated on its
 * own path), and with AVX2 one compiled for it. */
static OFL_NOINLINE unsigned weave_sse(struct ofl_gro *g, const struct ofl_pkt *pkts, unsigned i, unsigned n,
                                       unsigned l3, int fresh, uint64_t now)
{
	return l3 == 4 ? weave_l3(g, pkts, i, n, fresh, now, 1, 0, 0, 0) : weave_l3(g, pkts, i, n, fresh, now, 0, 0, 0, 0);
}

static inline unsigned weave_any(struct ofl_gro *g, const struct ofl_pkt *pkts, unsigned i, unsigned n,
                                 unsigned l3, int fresh, uint64_t now)
{
#if defined(TRAIN_AVX2)
	if (gro_cpu_avx2())
		return l3 == 4 ? weave_v4_avx2(g, pkts, i, n, fresh, now) : weave_v6_avx2(g, pkts, i, n, fresh, now);
#endif
	return weave_sse(g, pkts, i, n, l3, fresh, now);
}

unsigned gro_weave(struct ofl_gro *g, const struct ofl_pkt *pkts, unsigned i, unsigned n, unsigned l3)
{
	if (g->last != GRO_NONE && g->items[g->last].fast == GRO_FAST_UDP) /* (the entry just predicted) */
		return pkts[i].nbufs == 1 ? weave_udp(g, pkts, i, n, l3) : 0;
	if (g->last != GRO_NONE && g->items[g->last].rawpre_len) /* (behind a DSA tag: no weave; dsa37) */
		return 0;
	if (pkts[i].nbufs != 1)
		return weave_bufs(g, pkts, i, n, l3, 0, 0);
	return weave_any(g, pkts, i, n, l3, 0, 0);
}

unsigned gro_weave_new(struct ofl_gro *g, const struct ofl_pkt *pkts, unsigned n, uint64_t now, unsigned l3)
{
	return weave_any(g, pkts, 0, n, l3, 1, now);
}

unsigned gro_weave_new_bufs(struct ofl_gro *g, const struct ofl_pkt *pkts, unsigned n, uint64_t now, unsigned l3)
{
	return weave_bufs(g, pkts, 0, n, l3, 1, now);
}
