/*
 * burst.c - the entry points for received frames: ofl_gro_receive() (a burst
 * of one) and ofl_gro_receive_burst(), whose loop predicts each frame against
 * the last or the cached entry and hands runs to the train.
 */
#include <stddef.h>
#include <string.h>

#include "core/csum_int.h"
#include "gro/burst.h"
#include "gro/group.h"
#include "gro/hold.h"
#include "gro/predict.h"
#include "gro/weave.h"

static inline int check_args(struct ofl_gro *g, const struct ofl_pkt *pkt)
{
	if (pkt && pkt->nbufs == 1 && pkt->bufs && (pkt->bufs[0].data || !pkt->bufs[0].len) && !g->in_cb)
		return 0; /* the common case */
	if (!pkt || !pkt->bufs || pkt->nbufs == 0)
		return OFL_EINVAL;
	if (g->in_cb)
		return OFL_ESTATE;
	if (pkt->nbufs > g->cfg.max_bufs)
		return OFL_E2BIG;
	return ofl_bufs_size(pkt->bufs, pkt->nbufs) == UINT64_MAX ? OFL_EINVAL : 0;
}

/* Header prediction of a frame (headers in its first buffer, checksum
 * verified, no hardware VLAN, at least 54 bytes there) against entry idx,
 * the ports first: another flow fails there, cheaply. */
static inline int try_predict(struct ofl_gro *g, uint32_t idx, const struct ofl_pkt *pkt, const uint8_t *p,
                              uint32_t len)
{
	const struct gro_item *it = &g->items[idx];
	return it->state == GRO_HELD && it->fast && pkt->bufs[0].len >= it->hdr_len + tag_pre(it) &&
	       len <= 0xffffu && same_ports_at(it, p, pkt->bufs[0].len) && predict(g, idx, pkt, p, len);
}

/* Where a plain frame has its TCP ports (0: too short to tell). */
static inline OFL_ALWAYS_INLINE uint32_t port_word(const struct ofl_pkt *pkt)
{
	const struct ofl_buf *b = pkt->bufs;
	uint32_t o;
	if (!b || !pkt->nbufs || !b->data || b->len < 38)
		return 0;
	o = plain_l4_off(b->data);
	return b->len >= o + 4 ? ld32(b->data + o) : 0; /* (a header split at 54: IPv4) */
}

_Static_assert(OFL_GRO_OUT_F_HASH % OFL_PKT_F_HASH == 0, "the hash flag moves up");

/* The arguments and buffer of a frame pass_run() may take: one buffer of
 * 54 to 0xffff bytes (data not NULL), checksum verified, no hardware VLAN. */
static inline int pass_shape(const struct ofl_pkt *pkt)
{
	const struct ofl_buf *b = pkt->bufs;
	return gro_pkt_plain_meta(pkt) && b && b->data && b->len - 54u <= 0xffffu - 54u;
}

/* The TCP payload length of a plain frame whose TCP header starts at l4
 * (b0 bytes at p, the whole frame), its flag byte in *flags; -1 when the
 * TCP header is shorter than 20 bytes or runs past the frame. */
static inline OFL_ALWAYS_INLINE int32_t pass_tcp_len(const uint8_t *p, uint32_t b0, uint32_t l4, uint8_t *flags)
{
	uint32_t doff = p[l4 + 12];
	*flags = p[l4 + 13];
	if (doff < 0x50)
		return -1;
	return (int32_t)(b0 - l4 - ((doff >> 2) & 0x3cu)); /* b0 <= 0xffff: negative when past the end */
}

/* The TCP payload length of a frame of the plain shape (ofl_parse_plain():
 * the same tests, nothing written) but for an IPv4 header's checksum, its
 * TCP flag byte in *flags, *v4 1 for IPv4 (its header checksum left to
 * the caller: pass_ip_ok()), else 0; -1 when the frame is not plain (b0
 * bytes at p, the whole frame, b0 >= 54). */
static inline OFL_ALWAYS_INLINE int32_t pass_len(const uint8_t *p, uint32_t b0, uint8_t *flags, int *v4)
{
	const uint8_t *ip = p + 14;
	*v4 = 0;
	if ((ld32(p + 12) & ld32((const uint8_t *)"\xff\xff\xff\x00")) == ld32((const uint8_t *)"\x08\x00\x45\x00")) {
		/* IPv4 without options: total length, no fragment (MF, offset),
		 * TCP, in one word */
		uint64_t w = (uint64_t)ofl_get32(ip + 2) << 32 | ofl_get32(ip + 6);
		if ((w & 0xffff00003fff00ffull) != ((uint64_t)(b0 - 14u) << 48 | 6u))
			return -1;
		*v4 = 1;
		return pass_tcp_len(p, b0, 34, flags);
	}
	/* (the payload length, b0 - 54 >= 20, is not 0) */
	if (ld16(p + 12) == ld16((const uint8_t *)"\x86\xdd") && plain_keyed(6, b0) && (ip[0] >> 4) == 6 &&
	    ip[6] == 6 && ofl_get16(ip + 4) + 54u == b0)
		return pass_tcp_len(p, b0, 54, flags);
	return -1;
}

/* The rest of the plain shape of a frame pass_len() gave a length (p its
 * first buffer, v4 its *v4): an IPv4 header's checksum. */
static inline int pass_ip_ok(const uint8_t *p, int v4)
{
	return !v4 || ofl_ip4_sum_ok(p + 14);
}

/* Can frame pkt (pass_shape() true) only be passed on, and does pass_run()
 * take it: plain, its payload within room (at most 0xffff), PSH, FIN, URG,
 * RST, SYN or no payload?  Its first buffer at *p, *b0 bytes, and its
 * payload length in *len (-1: not plain) then; when it is not taken, *len
 * may be a plain frame's with a bad IPv4 header checksum (*v4: pass_len(),
 * pass_ip_ok() tells). */
static inline OFL_ALWAYS_INLINE int pass_takes(const struct ofl_pkt *pkt, uint32_t room, const uint8_t **p,
                                               uint32_t *b0, int32_t *len, int *v4)
{
	uint8_t fl;
	*p = pkt->bufs->data;
	*b0 = pkt->bufs->len;
	*len = pass_len(*p, *b0, &fl, v4);
	/* (a negative length is above room as unsigned) */
	return (uint32_t)*len <= room && (*len == 0 || (fl & TCP_NO_RUN)) && pass_ip_ok(*p, *v4);
}

/* k records written from the delivery list's end on join it (one segment
 * each). */
static inline void pass_commit(struct ofl_gro *g, uint32_t k)
{
	g->pend_n += k;
	g->pend_segs += k;
}

/* The payload pass_run() may take (0xffff at most: a payload is shorter). */
static inline uint32_t pass_room(const struct ofl_gro *g)
{
	const uint32_t held = g->cfg.max_held_bytes - g->held_bytes;
	return held < 0xffffu ? held : 0xffffu;
}

/*
 * The frames at the start of a burst that arrive while nothing is held and
 * can only be passed on (PSH, FIN, URG, RST, SYN, or no payload): each is
 * checked to be of the plain shape (one pass over its header bytes, as the
 * fast path's parse) and goes straight into the delivery list, exactly as
 * the fast path passes it on (receive.c: gro_pass_through()), with the
 * counters added once.  Returns how many it took; it stops at the first
 * frame that could be held or that the usual path must see.
 *
 * The arguments of the frame GRO_AHEAD on are checked while a frame is
 * taken (pass_shape()), and its header fetched then (the first GRO_AHEAD
 * after the first frame once that is taken); the record, its slice and
 * cookie step along the delivery list, which goes out every normal_batch
 * frames (one segment each).
 *
 * The caller checked the first frame (pass_shape(), pass_takes() with
 * room, pass_room()): its first buffer at p, b0 bytes, payload len.
 */
static unsigned pass_run(struct ofl_gro *g, const struct ofl_pkt *pkts, unsigned n, uint64_t now, uint32_t room,
                         const uint8_t *p, uint32_t b0, int32_t len)
{
	const size_t mb = g->cfg.max_bufs;
	const uint32_t slot = g->pend_n;
	const struct ofl_pkt *pkt = pkts, *end = pkts + n, *ahead;
	struct ofl_gro_out *o = g->outs + slot;
	struct ofl_slice *s = g->oslices + slot * mb;
	void **ck = g->ocookies + slot;
	uint32_t left, nopay = 0;
	uint64_t bytes = 0;
	unsigned i;
	int v4;
	/* the frames after it, up to GRO_AHEAD: checked, fetched */
	for (ahead = pkt + 1; ahead < end && ahead - pkt <= (ptrdiff_t)GRO_AHEAD && pass_shape(ahead); ahead++) {
#if defined(__GNUC__)
		__builtin_prefetch(ahead->bufs->data);
#endif
	}
	if (ahead - pkt <= (ptrdiff_t)GRO_AHEAD)
		end = ahead; /* (stopped early: the burst's end, or a frame to leave) */
	/* the records the batch has room for are counted at its start, the
	 * ones not written taken off at the end */
	left = g->pend_segs < g->cfg.normal_batch ? g->cfg.normal_batch - g->pend_segs : 1u;
	pass_commit(g, left);
	for (;;) {
		if (ahead < end) {
			/* ahead is pkt + GRO_AHEAD + 1 */
			if (pass_shape(ahead)) {
#if defined(__GNUC__)
				__builtin_prefetch(ahead->bufs->data);
#endif
				ahead++;
			} else {
				end = ahead;
			}
		}
		nopay += len == 0;
		bytes += b0;
		*ck = pkt->cookie;
		s->data = p;
		s->len = b0;
		s->pkt = 0;
		s->buf = 0;
		gro_pass_record(o, pkt, s, ck, 1, b0,
		                (uint8_t)(OFL_GRO_OUT_F_CSUM_VERIFIED |
		                          (pkt->flags & OFL_PKT_F_HASH) * (OFL_GRO_OUT_F_HASH / OFL_PKT_F_HASH)),
		                now);
		o++;
		s += mb;
		ck++;
		if (--left == 0) {
			gro_deliver_pending(g);
			o = g->outs;
			s = g->oslices;
			ck = g->ocookies;
			left = g->cfg.normal_batch;
			pass_commit(g, left);
		}
		if (++pkt == end || !pass_takes(pkt, room, &p, &b0, &len, &v4))
			break;
	}
	g->pend_n -= left;
	g->pend_segs -= left;
	i = (unsigned)(pkt - pkts);
	g->st.rx_pkts += i;
	g->st.rx_bytes += bytes;
	g->st.normal += i;
	g->st.normal_why[OFL_GRO_NORMAL_FLAGS] += i - nopay;
	g->st.normal_why[OFL_GRO_NORMAL_NO_PAYLOAD] += nopay;
	return i;
}

/* Is the burst grouped (stage 2, group.c)?  With timeout 0, nothing held
 * and the first frame's flow (its TCP ports) not coming again among the
 * next 15 (the next frame for one flow's train, further for a few
 * interleaved flows; worth grouping when it does not: a hint only, the
 * grouping decides).  *inter: 1 when it was looked at and comes again
 * later but not next (interleaved flows: newflows.c), else 0 (left as it
 * was when not looked at).  p0: the first frame's first buffer when
 * pass_shape() holds for it (its ports read with no test), else NULL. */
static inline OFL_ALWAYS_INLINE int burst_groups_at(struct ofl_gro *g, const struct ofl_pkt *pkts, unsigned n,
                                                    int *inter, const uint8_t *p0)
{
	uint32_t w, h;
	if (!g || !g->bs || n < 2 || n > GRO_BURST_MAX || g->age_head != GRO_NONE)
		return 0;
	/* (as far as it decides: the next frame the first's flow, or else
	 * that flow anywhere among the next 15; first where it came again
	 * last time, as interleaved flows in turn do) */
	w = p0 ? ld32(p0 + plain_l4_off(p0)) : port_word(&pkts[0]);
	if (port_word(&pkts[1]) == w) {
		*inter = 0;
		return 0;
	}
	h = g->bs->rep_at;
	if (!(h - 2u < 14u && h < n && port_word(&pkts[h]) == w)) {
		const struct ofl_pkt *a = pkts + 2, *e = pkts + (n < 16 ? n : 16);
#if defined(__GNUC__)
#pragma GCC unroll 4
#endif
		for (; a < e; a++)
			if (port_word(a) == w)
				break;
		if (a == e) {
			*inter = 0;
			return 1;
		}
		g->bs->rep_at = (uint32_t)(a - pkts);
	}
	*inter = 1;
	return 0;
}

static inline OFL_ALWAYS_INLINE int burst_groups(struct ofl_gro *g, const struct ofl_pkt *pkts, unsigned n,
                                                 int *inter)
{
	return burst_groups_at(g, pkts, n, inter, NULL);
}

/* After frame i was held as a new entry that header prediction covers:
 * the next frames of its flow go straight to the train (the same checks
 * as predict()); returns the last frame taken. */
static inline unsigned train_after_hold(struct ofl_gro *g, const struct ofl_pkt *pkts, unsigned i, unsigned n,
                                        int r, uint64_t now)
{
	if (r == OFL_GRO_HELD && i + 1 < n && g->last != GRO_NONE && g->items[g->last].fast &&
	    same_ports(&g->items[g->last], &pkts[i + 1]))
		i += gro_train(g, g->last, pkts, i + 1, n, now);
	return i;
}

/* ... its flow again later but not next (interleaved flows): the new
 * flows held where the weave meets them (newflows.c); returns the frame
 * the burst loop goes on from (0: none taken, the loop decides). */
static OFL_NOINLINE unsigned new_flows_bufs(struct ofl_gro *g, const struct ofl_pkt *pkts, unsigned n, uint64_t now)
{
	return bufs_total(g, pkts) ? gro_new_flows_bufs(g, pkts, n, now) : 0;
}

int ofl_gro_receive(struct ofl_gro *g, const struct ofl_pkt *pkt, uint64_t now)
{
	int err;
	if (!g)
		return OFL_EINVAL;
	err = check_args(g, pkt);
	if (err) {
		g->st.api_errors++;
		return err;
	}
	if (g->nlone)
		gro_lone_settle(g);
	return gro_receive(g, pkt, now, 0);
}

unsigned ofl_gro_receive_burst(struct ofl_gro *g, const struct ofl_pkt *pkts, unsigned n,
                               uint64_t now, int *err)
{
	unsigned i = 0, done = 0;
	int e = 0, grouped = 0;
	if (!g || (!pkts && n) || (g->in_cb && n)) {
		e = !g || !pkts ? OFL_EINVAL : OFL_ESTATE;
		if (g)
			g->st.api_errors++;
		n = 0;
	}
	if (n && g->nlone)
		gro_lone_settle(g);
	/* nothing held: the frames that can only be passed on go first */
	if (n && !g->tab.count && !g->full_only && pass_shape(pkts)) {
		const uint32_t room = pass_room(g);
		const uint8_t *p;
		uint32_t b0;
		int32_t len;
		int v4;
		if (pass_takes(pkts, room, &p, &b0, &len, &v4)) {
			done = pass_run(g, pkts, n, now, room, p, b0, len);
			pkts += done;
			n -= done;
		} else if (len > 0 || gro_udp_plain_on(g)) {
			/* a plain first frame with payload, or one not plain
			 * TCP with UDP GRO on: grouped with the burst, or else
			 * held (gro_first_hold(), gro_first_hold_udp()) */
			int inter = 0;
			/* (the first frame's ports where pass_shape() and
			 * pass_len() saw its headers: no test again) */
			if (burst_groups_at(g, pkts, n, &inter, p)) {
				grouped = gro_group(g, pkts, n, now);
				i = grouped == 2 ? n : 0;
			} else if (len <= 0 || !inter || !(i = gro_new_flows(g, pkts, n, now))) {
				/* (its flow again later, not next: interleaved
				 * flows, newflows.c, whose hold checks the IPv4
				 * header's checksum; the first hold's plain
				 * shape checked here: a bad one is not plain, as
				 * for the usual path, grouped or not) */
				if (len > 0 && !pass_ip_ok(p, v4))
					len = -1;
				if (len > 0)
					i = gro_first_hold(g, pkts, n, now, len);
				else if (gro_udp_plain_on(g))
					i = gro_first_hold_udp(g, pkts, n, now);
			}
			goto loop;
		}
	} else if (n && !g->tab.count && !g->full_only && pkts->nbufs > 1) {
		/* a first frame in several buffers: grouped with the burst,
		 * or held (gro_first_hold_bufs()) when its flow comes next, or
		 * the new flows woven (new_flows_bufs()) */
		int inter = 0;
		if (burst_groups(g, pkts, n, &inter))
			grouped = gro_group(g, pkts, n, now);
		else if (!inter)
			i = gro_first_hold_bufs(g, pkts, n, now);
		else
			i = new_flows_bufs(g, pkts, n, now);
		if (grouped == 2)
			i = n;
		goto loop;
	}
	/* stage 2, when nothing is held (timeout 0): the burst grouped by
	 * flow, unless the first frame's flow comes again at once; every
	 * frame alone in its flow: all held then (2) */
	{
		int inter; /* (not read here) */
		if (n && OFL_UNLIKELY(g->full_only)) { /* (n 0: g may be NULL) */
			grouped = gro_tag_group(g, pkts, n, now); /* behind a DSA tag (dsa_group.c) */
			if (grouped < 0) { /* -(frames woven): dsa_weave.c */
				i = (unsigned)-grouped;
				grouped = 0;
				goto loop;
			}
		} else if (burst_groups(g, pkts, n, &inter))
			grouped = gro_group(g, pkts, n, now);
	}
	i = grouped == 2 ? n : 0;
loop:
	for (; i < n; i++) {
		const struct ofl_pkt *pkt = &pkts[i];
		int r, tried = 0;
		if (grouped) {
			/* a run of frames alone in their flow and parsed plain
			 * (their arguments are good then): lone records, or
			 * passed on */
			if (g->bs->hl[i]) {
				unsigned m = gro_lone_run(g, pkts, i, now);
				if (m) {
					i += m - 1;
					continue;
				}
			}
			goto checked; /* gro_group() prefetched the headers */
		}
#if defined(__GNUC__)
		/* the first touch of a received header is a cache miss: start it
		 * a few packets ahead, as poll-mode drivers do */
		if (i + GRO_AHEAD < n && pkts[i + GRO_AHEAD].nbufs && pkts[i + GRO_AHEAD].bufs &&
		    pkts[i + GRO_AHEAD].bufs[0].data) {
			/* (an empty first buffer may be NULL: no d + 64 then) */
			const uint8_t *d = pkts[i + GRO_AHEAD].bufs[0].data;
			__builtin_prefetch(d);
			__builtin_prefetch(d + 64);
		}
#endif
checked:
		r = check_args(g, pkt);
		if (r) {
			g->st.api_errors++;
			e = r;
			break;
		}
		/* the next segment of a train: header prediction against the
		 * last entry, or against the entry the recent-flows cache names
		 * for the frame's addresses and ports, then the train loop */
		if (g->tab.count && pkt->csum_status == OFL_CSUM_UNNECESSARY && !(pkt->flags & OFL_PKT_F_VLAN) &&
		    pkt->bufs[0].len >= 54) {
			const uint8_t *p = pkt->bufs[0].data;
			uint32_t len = pkt->nbufs == 1 ? pkt->bufs[0].len : ofl_pkt_len(pkt->bufs, pkt->nbufs);
			uint32_t idx = g->last, again;
			uint64_t hint;
			if (idx != GRO_NONE && try_predict(g, idx, pkt, p, len))
				goto merged;
			if (!rcache_room(p, pkt->bufs[0].len))
				goto slow_tried;
			hint = g->rcache[rcache_slot(p)];
			again = (uint32_t)hint;
			if ((uint32_t)(hint >> 32) == rcache_ports(p) && again != idx && again != GRO_NONE &&
			    try_predict(g, again, pkt, p, len)) {
				idx = again;
				goto merged;
			}
slow_tried:
			tried = idx != GRO_NONE;
			goto slow;
merged:
			/* a train when the next frame looks like the same flow
			 * (and the entry did not just complete) */
			if (g->last == idx && i + 1 < n && same_ports(&g->items[idx], &pkts[i + 1]))
				i += gro_train(g, idx, pkts, i + 1, n, now);
			else if (i + 1 < n && (g->items[idx].fast == GRO_FAST_PLAIN || g->items[idx].fast == GRO_FAST_UDP))
				/* another flow next: interleaved flows, the
				 * frames that predict taken in a row */
				i += gro_weave(g, pkts, i + 1, n, g->items[idx].l3);
			continue;
		}
slow:
		r = gro_receive(g, pkt, now, tried);
		/* held as a new entry that header prediction covers: the next
		 * frames of its flow go straight to the train */
		i = train_after_hold(g, pkts, i, n, r, now);
	}
	if (err)
		*err = e;
	return done + i;
}
