/*
 * merge.c - merge runs: the train loop that takes the next segments of a
 * flow from the burst with the entry's state in locals (header
 * prediction's out-of-line ends: predict.c).
 */
#include <stddef.h>
#include <string.h>

#include "gro/dsa_hold.h"
#include "gro/hold.h"
#include "gro/list.h"
#include "gro/run.h"
#include "gro/run_bufs.h"
#include "gro/train_run.h"

/*
 * A train: after a packet merged into entry idx by header prediction, the
 * packets that follow it in the burst are most often the next segments of
 * the same flow.  This loop takes them with the entry's state in locals
 * (next sequence number, segment and slice counts, byte budget, expected IP
 * ID) and writes it back once, when the train stops: at a packet that does
 * not predict (left to the caller, untouched), at the end of the burst, or
 * at a segment that ends the train (merged, then the entry completed).
 * Same checks as predict(); returns how many packets it took.
 */

/* gro_train() for one L3 (v4 is a constant in each copy).  udp: a
 * GRO_FAST_UDP flow (udp.h), its run of full datagrams only: every other
 * frame is left to header prediction and the full path, which apply the
 * UDP rules one by one; a train completed at UDP_GRO_CNT_MAX datagrams.
 * An entry completed for the size goes on into the flow's next entry,
 * held from the frame that did not fit (gro_train_renew()). */
static inline OFL_ALWAYS_INLINE unsigned train_once(struct ofl_gro *g, uint32_t idx, const struct ofl_pkt *pkts,
                                                    unsigned i, unsigned n, uint64_t now, struct run *rp,
                                                    const int v4, const int tagged, const int avx2, const int udp,
                                                    const int fresh)
{
	struct gro_item *it = &g->items[idx];
	const uint8_t *h0 = it->hdr, *m = udp ? g->pmask[it->stack] : g->pmask[!v4];
	const uint32_t hl = it->hdr_len, l4 = it->l4_off;
	uint32_t mss = it->seg_size;
	const uint32_t lenoff = v4 ? 14u : 54u, lenpos = v4 ? 16u : 18u;
	/* behind a DSA tag: bytes before the untagged EtherType beyond the
	 * 12 MAC bytes, and the tail tag */
	const uint32_t pre = tagged ? tag_pre(it) : 0, tl = tagged ? it->rawtail_len : 0;
	struct ofl_slice *sl = gro_slices(g, idx);
	void **ck = gro_cookies(g, idx);
	/* fresh: entry idx just held from one frame (hold.h
	 * hold_fill_plain_l4(): one segment, the ID not fixed), 1 of one
	 * buffer (one slice), 2 of several (burst_first.c gro_first_hold_bufs());
	 * out (TCP: only after burst_first.c gro_first_hold(), gro_first_hold_bufs()):
	 * held out of the table (hold.h gro_hold_plain_out()), and so its
	 * next entries */
	const int one = fresh == 1;
	const int out = fresh && !udp;
	uint32_t seq = it->next_seq, nsegs = fresh ? 1u : it->nsegs, nsl = one ? 1u : it->nslices, added = 0;
	uint32_t room = sat_sub(udp ? gro_udp_max_l3(g) : g->cfg.max_size, it->l3_len);
	uint32_t hroom = sat_sub(g->cfg.max_held_bytes, g->held_bytes);
	/* segments and slices the entry may still take */
	const uint32_t seg_end = udp ? min32(g->cfg.max_segs, GRO_UDP_CNT_MAX) : g->cfg.max_segs,
	               sl_end = g->max_slices - 1u;
	uint16_t id = (uint16_t)(it->id0 + (fresh || !it->fixedid ? nsegs : 0u)), idinc = fresh || !it->fixedid ? 1u : 0u;
	/* the IPv4 header sum without length, ID and checksum: the same for
	 * every segment that predicts (all its other bytes equal the held
	 * header's); the run's (folded) once it is set */
	uint64_t ipsum;
	uint32_t pw_want, pw_mask, pw_nb;
	unsigned start = i, first = i;
	train_pkt_word(&pw_want, &pw_mask, &pw_nb);
	if (tagged) {
		ipsum = v4 ? ip4_rest_sum(h0) : 0;
	} else {
		run_init(rp, it, m, v4 ? ip4_rest_sum(h0) : 0, v4, udp);
		ipsum = rp->ipsum;
	}
	/* IPv4 after a renew: the run word of the frame at i and how many
	 * frames may follow it stepped (ecn 0: none kept; run_word()) */
	uint64_t ec = 0;
	uint32_t ecn = 0;
	/* renew: the frame at i to be held as the flow's next entry, 1 +
	 * the frames after it the run took (span: their slices and cookies
	 * after the entry's) */
	uint32_t renew;
	uint8_t end, fl;
entry:
	end = fl = 0;
	renew = 0;
	for (; i < n; i++) {
		const struct ofl_pkt *pkt = &pkts[i];
		const struct ofl_buf *b = pkt->bufs;
		const uint8_t *p, *th;
		uint32_t tot, len, pw, nsl_pkt = 1;
		memcpy(&pw, &pkt->nbufs, 4);
		if (!tagged && rp->full != UINT32_MAX && b && ((pw & pw_mask) == pw_want ? b->len == rp->full
		                                            : (pw & pw_nb) == (pw_want & pw_nb) && b->len >= hl &&
		                                                  pkt->nbufs <= g->cfg.max_bufs && pkt->nbufs > 1)) {
			/* a run of full segments (struct run), of one buffer or
			 * of as many as this frame has */
			uint64_t e = 0, estep = 0;
			uint32_t steps = UINT32_MAX, k, iend, nbr = pkt->nbufs, nsl_run, nadd, ext, span;
			if (fresh && v4 && ecn) {
				e = ec;
				estep = (1ull << 48) - 1u;
				steps = ecn;
			} else if (fresh && v4 && !udp && i == first && (e = get64(h0 + 18)) >> 48 != 0xffffu &&
			           (uint16_t)e) {
				/* the held frame's own word stepped once (burst.c
				 * gro_first_hold(), gro_first_hold_bufs(): its header sum
				 * verified by pass_len(), ofl_plain_tcp(); its length
				 * a full segment's, the entry's mss its payload),
				 * while neither its ID nor its checksum wraps */
				estep = (1ull << 48) - 1u;
				steps = min32(0xffffu - (uint32_t)(e >> 48), (uint16_t)e) - 1u;
				e += estep;
			} else if (v4) {
				e = run_word(rp->tp, rp->ipsum, id, it->fixedid, &estep, &steps);
			}
			k = min32(min32(n - i, steps), min32(sat_sub(seg_end, nsegs), sat_sub(sl_end, nsl) / nbr));
			/* ext (UDP of one buffer): the entry's room bounds the
			 * run, and the frame after it is in the burst, within
			 * every other bound (the held bytes with it taken, a
			 * segment, its slices, the stepped word) and would not
			 * fit: the run checks it too, and when it is the next
			 * full segment the entry is completed for the size and
			 * the frame held as the flow's next (below: renew), as
			 * udp.c would */
			ext = nbr == 1 && udp && room / mss < min32(k, hroom / mss);
			/* span (TCP of one buffer in the fresh copies, of several
			 * in the others; UDP of several in the others, after
			 * udp.c gro_udp_first_bufs()): as ext, and the frames after it too,
			 * up to as many as the entry took (within the new
			 * entry's room: its length is at most the old one's;
			 * its slices: at most nbr a frame for all of them, k's
			 * bound) and every other bound for all: the run writes
			 * their slices and cookies after the entry's, and when
			 * the frame after the room's is the next full segment
			 * they go to the entry held from it (below: carry) */
			span = (!udp || !fresh) && (one ? nbr == 1 : nbr > 1) && room / mss < min32(k, hroom / mss)
			           ? min32(min32(k, hroom / mss) - room / mss, room / mss + 1u)
			           : 0;
			k = min32(k, min32(room / mss, hroom / mss));
			iend = i + k + ext + span;
			if (nbr == 1)
				nadd = run_one_buf(pkts, i, iend, n, rp, hl, seq, e, estep, nsegs, sl + nsl, ck + nsegs,
				                   &nsl_run, v4, avx2, udp);
			else {
				/* several buffers: run_bufs.c (UDP: its own copies) */
				const struct run_at ra = {rp,  sl + nsl, ck + nsegs,   e,       estep, hl,
				                          seq, nsegs,    pw & pw_mask, pw_mask, nbr};
				if (udp) {
					nadd = gro_run_bufs_udp(pkts, i, iend, n, &ra, &nsl_run, v4, avx2);
				} else {
					/* a span's frames from the run's frame k on
					 * written straight into the entry the flow's
					 * next will be held in (the free list's first,
					 * never empty: hold.h item_take(); below, where
					 * the entry is completed), as its first frames
					 * (not in the copies of one buffer: a constant
					 * there) */
					const int at2 = !one && span;
					const uint32_t nx = at2 ? g->free_head : 0u;
					const struct run_at2 ra2 = {ra, at2 ? gro_slices(g, nx) : NULL,
					                            at2 ? gro_cookies(g, nx) : NULL, k};
					nadd = gro_run_bufs(pkts, i, iend, n, &ra2, &nsl_run, v4, avx2);
				}
			}
			if (span && nadd > k) {
				/* the run's frame k is the next entry's first, the
				 * frames after it its next (carry); several
				 * buffers: when each frame of the run has as many
				 * slices as its first (nbr - 1 or nbr: the sum
				 * says), else none carried (each frame after k's
				 * slices taken off) */
				renew = nadd - k;
				if (one)
					nsl_run = k;
				else
					nsl_run = span_slices(pkts + i, k, nadd, nsl_run, hl, &renew);
				nadd = k;
			} else if (ext && nadd > k) {
				nsl_run = k; /* (its one slice taken off) */
				nadd = k;
				renew = 1;
			}
			i += nadd;
			k = nadd;
			nsl += nsl_run;
			nsegs += k;
			seq += mss * k;
			if (v4)
				id = (uint16_t)(id + idinc * k);
			room -= mss * k;
			hroom -= mss * k;
			added += mss * k;
			/* (marked unlikely: laid out of the run's way; TCP/IPv6
			 * too since the renew after several buffers: 1 flow
			 * -0.41 a packet, its 4-buffer copy +0.05) */
			if (renew) {
				end = 2;
				goto full;
			}
			if (OFL_UNLIKELY(!ext && !span && i < n && mss > room && (udp || nbr == 1) && mss <= hroom &&
			                 nsegs < seg_end && nsl < sl_end)) {
				/* the next frame does not fit: when it is the run's
				 * next full one, the general body below (TCP after
				 * a run of one buffer) or udp.c would complete the
				 * entry for the size and leave it to be held
				 * (below: gro_train_renew()); the run's checks,
				 * on copies, its IPv4 word the run's first stepped
				 * k times (exact: k is at most steps) */
				struct ofl_slice ts;
				void *tc;
				if (run_take(pkts, i, i + 1, n, rp, hl, seq, e + estep * k, estep, nsegs, &ts, &tc,
				             GRO_PKT_PLAIN_WANT, GRO_PKT_PLAIN_MASK, &nsl_run, v4, avx2, udp)) {
					end = 2;
					renew = 1;
					goto full;
				}
			}
			if (i >= n || udp)
				break;
			ecn = 0;
			if (0) {
full:
				/* the run's frame k (at i) held as the next entry:
				 * the word of the frame after it is the run's
				 * stepped k + 1 times, exact while that is within
				 * steps (the ID not fixed: a renewed entry's is
				 * not) */
				ec = e + estep * (k + 1u);
				ecn = fresh && v4 && estep && steps > k + 1u ? steps - (k + 1u) : 0;
				break;
			}
			pkt = &pkts[i];
			b = pkt->bufs;
			memcpy(&pw, &pkt->nbufs, 4);
		}
		if (!b || udp)
			break;
#if defined(__GNUC__)
		if (i + GRO_AHEAD < n) {
			const struct ofl_buf *nb = pkts[i + GRO_AHEAD].bufs;
			if (nb && pkts[i + GRO_AHEAD].nbufs)
				__builtin_prefetch(nb->data);
		}
#endif
		p = b->data;
		tot = b->len;
		if ((pw & pw_mask) != pw_want) {
			if (tagged)
				break;
			/* several buffers (header split, page fragments): what
			 * check_args() would refuse is left to the full path */
			unsigned k, nb = pkt->nbufs;
			if ((pw & pw_nb) != (pw_want & pw_nb) || nb > g->cfg.max_bufs || nb == 0)
				break;
			for (k = 1; k < nb && (b[k].data || !b[k].len); k++)
				tot += b[k].len;
			if (k < nb || tot > 0xffffu || b->len < hl)
				break;
			nsl_pkt = 0; /* counted below */
		}
		if (!p || tot < hl + pre + tl || tot > 0xffffu)
			break;
		if (tagged) {
			if (!tag_same(it, &g->cold[idx], p, tot) || train_cmp(p + pre, h0, m, 12, hl, avx2))
				break;
			p += pre;
			tot -= pre + tl;
		} else if (train_cmp(p, h0, m, 0, hl, avx2)) {
			break;
		}
		th = p + l4;
		len = tot - hl;
		if (len - 1u >= mss || ofl_get32(th + 4) != seq ||
		    ofl_get16(p + lenpos) + lenoff != tot || nsegs >= seg_end || nsl >= sl_end)
			break;
		if (v4) {
			uint64_t s2 = ipsum + ld32(p + 16) + ld16(p + 24);
			s2 = (s2 & 0xffffffffu) + (s2 >> 32);
			s2 = (s2 & 0xffff) + (s2 >> 16);
			s2 = (s2 & 0xffff) + (s2 >> 16);
			s2 = (s2 & 0xffff) + (s2 >> 16);
			if (s2 != 0xffff || ofl_get16(p + 18) != id)
				break;
		}
		if (len > room || len > hroom) {
			/* mergeable but for the size: the full path flushes the
			 * entry (max_size) or makes room first (held bytes) */
			if (len > room && len <= hroom) {
				end = 2;
				renew = !tagged; /* gro_train() may hold it */
			}
			break;
		}
		if (nsl_pkt) {
			sl[nsl].data = p + hl;
			sl[nsl].len = len;
			sl[nsl].pkt = (uint16_t)nsegs;
			sl[nsl].buf = 0;
		} else {
			/* the payload is the first buffer's rest and every
			 * later buffer (checked above to sum to len) */
			const struct ofl_buf *bb = pkt->bufs;
			unsigned k, nb = pkt->nbufs;
			if (nsl + nb > sl_end)
				break;
			if (bb[0].len > hl)
				sl[nsl + nsl_pkt++] = (struct ofl_slice){bb[0].data + hl, bb[0].len - hl, (uint16_t)nsegs, 0};
			for (k = 1; k < nb; k++)
				if (bb[k].len)
					sl[nsl + nsl_pkt++] =
					    (struct ofl_slice){bb[k].data, bb[k].len, (uint16_t)nsegs, (uint16_t)k};
		}
		id = (uint16_t)(id + idinc);
		ecn = 0; /* (ec was the word of this frame's run) */
		ck[nsegs] = pkt->cookie;
		nsl += nsl_pkt;
		nsegs++;
		seq += len;
		room -= len;
		hroom -= len;
		added += len;
		fl = th[13];
		if ((fl & TCP_NO_RUN) || len < mss) {
			end = 1;
			i++;
			break;
		}
	}
	it->next_seq = seq;
	it->nslices = (uint16_t)nsl;
	it->payload += added;
	it->l3_len += added;
	it->fin_psh |= fl & (TCP_FIN | TCP_PSH);
	g->held_bytes += added;
	g->st.rx_pkts += i - start;
	g->st.rx_bytes += added + (uint64_t)(nsegs - (fresh ? 1u : it->nsegs)) * (hl + pre + tl);
	g->st.merged += i - start;
	g->st.merged_fast += i - start;
	it->nsegs = (uint16_t)nsegs;
	/* a span's carried frames of several buffers (renew > 1, not one):
	 * written by the run into the free list's first entry, taken off the
	 * list here, before the completion (which may give the list the entry
	 * completed, delivered: its slices are still read there), and put
	 * back after it, first, for the renew's hold to take */
	uint32_t nx = GRO_NONE;
	if (!one && !udp && renew > 1) {
		nx = g->free_head;
		g->free_head = g->items[nx].next;
	}
	if (end == 1 && out)
		gro_end_train_out(g, idx, fl, v4 ? 4u : 6u);
	else if (end == 1)
		gro_end_train(g, idx, fl);
	else if (end == 2 && out)
		gro_complete_out(g, idx, OFL_GRO_FLUSH_MAX_SIZE, v4 ? 4u : 6u);
	else if (end == 2)
		gro_complete(g, idx, OFL_GRO_FLUSH_MAX_SIZE);
	else if (udp && nsegs >= GRO_UDP_CNT_MAX)
		gro_complete(g, idx, OFL_GRO_FLUSH_UDP_CNT); /* udp.h gro_udp_merged() */
	if (!renew)
		return i - first;
	/* the frame that did not fit held as the flow's new entry
	 * (gro_train_renew()), and the train carried on into it, as the burst
	 * loop would go on after holding that frame: when the frame after it
	 * looks like the flow's.  The new entry has the shape of the one
	 * before it (the same header where the copy reads it). */
	{
		const uint8_t stack = it->stack;
		/* (carry, one buffer or UDP: the run's frames after the held
		 * one, after the entry's slices and cookies and the held
		 * one's; several buffers, the held one's with them) */
		/* (the slices of a frame of the run: span_slices(); several
		 * buffers: the held one's too, the entry held without them) */
		const uint32_t fsl = one || renew == 1 ? 1u : frame_slices(&pkts[i], hl);
		const struct ofl_slice *const csl = sl + nsl + (one ? 1u : 0u);
		void *const *const cck = ck + nsegs + 1u;
		if (!one && !udp && renew > 1) {
			g->items[nx].next = g->free_head;
			g->free_head = nx;
		}
		if ((idx = out && one ? gro_train_renew_out(g, idx, &pkts[i], now, v4 ? 4u : 6u)
		           : out      ? gro_train_renew_out_bufs(g, idx, &pkts[i], now, v4 ? 4u : 6u, renew > 1)
		           : udp && !fresh && renew > 1 ? gro_train_renew_udp_bufs(g, idx, &pkts[i], now)
		           : udp      ? gro_train_renew_udp(g, idx, &pkts[i], now)
		                      : gro_train_renew(g, idx, &pkts[i], now, !one && renew > 1)) == GRO_NONE)
			return i - first;
		it = &g->items[idx];
		if (++i >= n || (renew == 1 && !same_ports(it, &pkts[i])))
			return i - first;
		h0 = it->hdr;
		sl = gro_slices(g, idx);
		ck = gro_cookies(g, idx);
		seq = it->next_seq;
		nsegs = it->nsegs;
		nsl = it->nslices;
		added = 0;
		room = sat_sub(udp ? gro_udp_max_l3(g) : g->cfg.max_size, it->l3_len);
		hroom = sat_sub(g->cfg.max_held_bytes, g->held_bytes);
		id = (uint16_t)(it->id0 + (it->fixedid ? 0u : nsegs));
		idinc = it->fixedid ? 0u : 1u;
		start = i;
		/* the run's expected header and mask kept: the new entry's
		 * header is the frame's, equal to the last one's under the mask
		 * (the train's checks), and of its length when it is a full
		 * segment of the same stack (ipsum: the same bytes) */
		if (it->seg_size != mss || it->stack != stack) {
			ecn = 0;
			mss = it->seg_size;
			m = udp ? g->pmask[it->stack] : g->pmask[!v4];
			run_init(rp, it, m, v4 ? ip4_rest_sum(h0) : 0, v4, udp);
			ipsum = rp->ipsum;
		}
		if (renew > 1) {
			const uint32_t carry = renew - 1u;
			/* the run's frames after the held one: the new entry's
			 * next segments (its header the held frame's, their
			 * length a full segment's, mss the same: a fresh
			 * entry's is its first frame's payload) */
			if (one) {
				carry_slices(sl + nsl, ck + nsegs, csl, cck, carry, nsegs);
				nsl += carry;
			} else if (udp) {
				/* (UDP of several buffers: the run wrote them after
				 * the old entry's; copied with the held one's,
				 * which the hold left: nosl) */
				nsl = fsl * renew;
				carry_slices_bufs(sl, ck + nsegs, csl, cck, nsl, carry, 0);
			} else {
				/* (several buffers: the run wrote them at nx, the held
				 * frame's too, which the hold left (nosl); the hold
				 * took nx, the free list's first: no room is made
				 * there, the flows one fewer since the completion;
				 * were it another entry, copied there) */
				nsl = fsl * renew;
				if (OFL_UNLIKELY(idx != nx)) {
					memcpy(sl, gro_slices(g, nx), nsl * sizeof(*sl));
					memcpy(ck + 1, gro_cookies(g, nx) + 1, carry * sizeof(*ck));
				}
			}
			nsegs += carry;
			seq += mss * carry;
			if (v4) {
				id = (uint16_t)(id + carry);
				ec += ((1ull << 48) - 1u) * carry;
				ecn = ecn > carry ? ecn - carry : 0;
			}
			room -= mss * carry;
			hroom -= mss * carry;
			added += mss * carry;
			i += carry;
		}
		goto entry;
	}
}

/* gro_train() for one shape: train_once() with its struct run, which
 * goes on into the flow's next entries (each started with the frame the
 * last left when it filled up: gro_train_renew()). */
static inline OFL_ALWAYS_INLINE unsigned train_l3(struct ofl_gro *g, uint32_t idx, const struct ofl_pkt *pkts,
                                                  unsigned i, unsigned n, uint64_t now, const int v4,
                                                  const int tagged, const int avx2, const int udp, const int fresh)
{
	struct run r;
#if defined(TRAIN_AVX2)
	/* the run's copy, picked at the first run by the header length and
	 * shape, which the renewed entries keep */
	r.run1 = v4 ? (udp ? gro_run1_first_udp4 : gro_run1_first_v4) : (udp ? gro_run1_first_udp6 : gro_run1_first_v6);
#endif
	return train_once(g, idx, pkts, i, n, now, &r, v4, tagged, avx2, udp, fresh);
}

/* One function per copy: each is register-allocated on its own; with
 * AVX2, an untagged copy per L3 compiled for it. */
#define TRAIN_COPY(name, v4, tagged, avx2, udp, fresh, attr)                                       \
	static OFL_NOINLINE attr unsigned name(struct ofl_gro *g, uint32_t idx, const struct ofl_pkt *pkts, \
	                                       unsigned i, unsigned n, uint64_t now)                     \
	{                                                                                          \
		return train_l3(g, idx, pkts, i, n, now, v4, tagged, avx2, udp, fresh);            \
	}
/* (the copies of a shape: after any entry, and after one just held) */
#define TRAIN_COPIES(name, v4, avx2, udp, attr) \
	TRAIN_COPY(name, v4, 0, avx2, udp, 0, attr) TRAIN_COPY(name##_new, v4, 0, avx2, udp, 1, attr)
TRAIN_COPIES(train_v4, 1, 0, 0, )
TRAIN_COPIES(train_v6, 0, 0, 0, )
TRAIN_COPY(train_v4_tagged, 1, 1, 0, 0, 0, )
TRAIN_COPY(train_v6_tagged, 0, 1, 0, 0, 0, )
TRAIN_COPIES(train_udp4, 1, 0, 1, )
TRAIN_COPIES(train_udp6, 0, 0, 1, )
/* (after a first frame of several buffers held: gro_train_held_bufs()) */
TRAIN_COPY(train_v4_bufs, 1, 0, 0, 0, 2, )
TRAIN_COPY(train_v6_bufs, 0, 0, 0, 0, 2, )
#if defined(TRAIN_AVX2)
TRAIN_COPIES(train_v4_avx2, 1, 1, 0, GRO_TARGET_AVX2)
TRAIN_COPIES(train_v6_avx2, 0, 1, 0, GRO_TARGET_AVX2)
TRAIN_COPIES(train_udp4_avx2, 1, 1, 1, GRO_TARGET_AVX2)
TRAIN_COPIES(train_udp6_avx2, 0, 1, 1, GRO_TARGET_AVX2)
/* (after a first frame of several buffers held: gro_train_held_bufs()) */
TRAIN_COPY(train_v4_avx2_bufs, 1, 0, 1, 0, 2, GRO_TARGET_AVX2)
TRAIN_COPY(train_v6_avx2_bufs, 0, 0, 1, 0, 2, GRO_TARGET_AVX2)
#endif
#undef TRAIN_COPIES
#undef TRAIN_COPY

/* gro_train() of an entry just held from the frame before pkts[i]
 * (burst.c: a new flow's first frame, one buffer, plain Ethernet, TCP
 * or a UDP flow's datagram, header prediction on): no tunnel or tag
 * case, the entry's counts known. */
unsigned gro_train_held(struct ofl_gro *g, uint32_t idx, const struct ofl_pkt *pkts, unsigned i, unsigned n,
                        uint64_t now)
{
	const struct gro_item *it = &g->items[idx];
	const int v4 = it->l3 == 4;
#if defined(TRAIN_AVX2)
	if (gro_cpu_avx2()) {
		if (it->fast == GRO_FAST_UDP)
			return v4 ? train_udp4_avx2_new(g, idx, pkts, i, n, now) : train_udp6_avx2_new(g, idx, pkts, i, n, now);
		return v4 ? train_v4_avx2_new(g, idx, pkts, i, n, now) : train_v6_avx2_new(g, idx, pkts, i, n, now);
	}
#endif
	if (it->fast == GRO_FAST_UDP)
		return v4 ? train_udp4_new(g, idx, pkts, i, n, now) : train_udp6_new(g, idx, pkts, i, n, now);
	return v4 ? train_v4_new(g, idx, pkts, i, n, now) : train_v6_new(g, idx, pkts, i, n, now);
}

/* gro_train() of an entry just held from the frame before pkts[i], in
 * several buffers (burst_first.c gro_first_hold_bufs(): plain TCP, its IPv4 header
 * sum verified, out of the table; GRO_FAST_PLAIN, no tag): the copies that
 * know its counts and take its first run word from its header. */
unsigned gro_train_held_bufs(struct ofl_gro *g, uint32_t idx, const struct ofl_pkt *pkts, unsigned i, unsigned n,
                             uint64_t now)
{
	const int v4 = g->items[idx].l3 == 4;
#if defined(TRAIN_AVX2)
	if (gro_cpu_avx2())
		return v4 ? train_v4_avx2_bufs(g, idx, pkts, i, n, now) : train_v6_avx2_bufs(g, idx, pkts, i, n, now);
#endif
	return v4 ? train_v4_bufs(g, idx, pkts, i, n, now) : train_v6_bufs(g, idx, pkts, i, n, now);
}

unsigned gro_train_tagged_rest(struct ofl_gro *g, uint32_t idx, const struct ofl_pkt *pkts, unsigned i, unsigned n,
                               uint64_t now)
{
	return g->items[idx].l3 == 4 ? train_v4_tagged(g, idx, pkts, i, n, now) : train_v6_tagged(g, idx, pkts, i, n, now);
}

unsigned gro_train(struct ofl_gro *g, uint32_t idx, const struct ofl_pkt *pkts, unsigned i, unsigned n,
                   uint64_t now)
{
	const struct gro_item *it = &g->items[idx];
	if (it->fast != GRO_FAST_PLAIN) {
		if (it->fast == GRO_FAST_TUN)
			return gro_train_tun(g, idx, pkts, i, n);
		/* GRO_FAST_UDP */
#if defined(TRAIN_AVX2)
		if (gro_cpu_avx2())
			return it->l3 == 4 ? train_udp4_avx2(g, idx, pkts, i, n, now)
			                   : train_udp6_avx2(g, idx, pkts, i, n, now);
#endif
		return it->l3 == 4 ? train_udp4(g, idx, pkts, i, n, now) : train_udp6(g, idx, pkts, i, n, now);
	}
	if (it->rawpre_len)
		return gro_train_tagged(g, idx, pkts, i, n, now); /* dsa_run.c */
#if defined(TRAIN_AVX2)
	if (gro_cpu_avx2())
		return it->l3 == 4 ? train_v4_avx2(g, idx, pkts, i, n, now) : train_v6_avx2(g, idx, pkts, i, n, now);
#endif
	return it->l3 == 4 ? train_v4(g, idx, pkts, i, n, now) : train_v6(g, idx, pkts, i, n, now);
}
