/*
 * burst_first.c - the first frame of a burst that arrives with nothing
 * held, held without a second parse when it is a new flow the fast path
 * would hold (one buffer, several buffers, or a UDP datagram), and the
 * frames after it of its flow trained against it at once (burst.c calls
 * these when its pass-on run stops at frame 0).
 */
#include "gro/burst.h"
#include "gro/hold.h"
#include "gro/predict.h"
#include "gro/weave.h"

/* Would the fast path hold a frame pass_takes() said no to as a new flow
 * while nothing is held (receive.c fast_path())?  Plain (its payload len
 * not negative; its first buffer at p), a payload within the byte bound,
 * no flag that passes it on (its flag byte read again: not kept live
 * through pass_run()'s loop, and read only when the burst is not
 * grouped). */
static inline int first_holds(const struct ofl_gro *g, const uint8_t *p, int32_t len)
{
	const uint32_t l4 = plain_l4_off(p);
	return len > 0 && !(p[l4 + 13] & TCP_NO_RUN) &&
	       g->held_bytes + (uint32_t)len <= g->cfg.max_held_bytes;
}

/* Hold frame pkt as receive.c's fast path would hold it (gro_receive():
 * pass_run() stopped at it, nothing held, first_holds() true: one buffer,
 * plain, checksum verified, no hardware VLAN), its plain shape not
 * checked again (its TCP header offset found again, not kept live across
 * first_holds(): cheaper); out of the table (hold.h gro_hold_plain_out():
 * no key, hash, table or cache while its train runs; gro_first_hold() settles
 * it when the burst goes on past the train). */
static inline void hold_first(struct ofl_gro *g, const struct ofl_pkt *pkt, uint64_t now)
{
	const uint8_t *p = pkt->bufs->data;
	uint32_t b0 = pkt->bufs->len, l4 = plain_l4_off(p);
	g->st.rx_pkts++;
	g->st.rx_bytes += b0;
	/* (a copy for each IP version: its offsets constants) */
	if (l4 == 34)
		gro_hold_plain_out(g, pkt, p, 4, (p[34 + 12] >> 2) & 0x3cu, b0, now, 0);
	else
		gro_hold_plain_out(g, pkt, p, 6, (p[54 + 12] >> 2) & 0x3cu, b0, now, 0);
}


/* After the burst's first frame (its first buffer at p, its L4 header at
 * l4) was held as a new entry (g->last): the frames after it go straight
 * into the train against it when header prediction covers it and the next
 * frame carries its ports, as train_after_hold() would take them (bufs 0:
 * a frame of one buffer, gro_train_held(), the entry's state known; 1:
 * of several, gro_train_held_bufs()).  Returns the last frame taken. */
static inline OFL_ALWAYS_INLINE unsigned train_after_first(struct ofl_gro *g, const struct ofl_pkt *pkts, unsigned n,
                                                           uint64_t now, const uint8_t *p, uint32_t l4,
                                                           const int bufs)
{
	const struct ofl_pkt *q = pkts + 1;
	const uint32_t idx = g->last;
	if (n > 1 && g->items[idx].fast && q->nbufs && q->bufs && q->bufs->data && q->bufs->len >= l4 + 4u &&
	    ld32(q->bufs->data + l4) == ld32(p + l4))
		return bufs ? gro_train_held_bufs(g, idx, pkts, 1, n, now) : gro_train_held(g, idx, pkts, 1, n, now);
	return 0;
}

/* The first frame of a burst held: the header GRO_AHEAD on fetched, as the
 * burst loop does. */
static inline void first_prefetch(const struct ofl_pkt *pkts, unsigned n)
{
#if defined(__GNUC__)
	if (GRO_AHEAD < n && pkts[GRO_AHEAD].nbufs && pkts[GRO_AHEAD].bufs && pkts[GRO_AHEAD].bufs[0].data) {
		__builtin_prefetch(pkts[GRO_AHEAD].bufs[0].data);
		__builtin_prefetch(pkts[GRO_AHEAD].bufs[0].data + 64);
	}
#else
	(void)pkts;
	(void)n;
#endif
}

/* gro_first_hold() for a UDP datagram: the first frame of a burst not
 * grouped, nothing held, pass_shape() true but not plain TCP (pass_len()),
 * UDP GRO on.  Held when receive.c's
 * gro_receive() would hold it at once (its fast path finds no entry and
 * does not take it; udp_hold_new(): hold.h gro_udp_plain_new(), and an
 * IPv6 frame long enough for plain_key(): plain_keyed()), without its set-up;
 * its next frames trained.  Returns the frame the burst loop goes on from
 * (0: not held, the loop decides). */
OFL_NOINLINE unsigned gro_first_hold_udp(struct ofl_gro *g, const struct ofl_pkt *pkts, unsigned n, uint64_t now)
{
	const uint8_t *p = pkts->bufs->data;
	uint32_t b0 = pkts->bufs->len;
	struct ofl_hdrs h;
	if (!gro_udp_plain_new(g, p, b0, b0, &h) || !plain_keyed(h.l3, b0))
		return 0;
	first_prefetch(pkts, n);
	g->st.rx_pkts++;
	g->st.rx_bytes += b0;
	gro_udp_hold_plain(g, pkts, p, &h, NULL, 0, now);
	return train_after_first(g, pkts, n, now, p, h.l4_off, 0) + 1;
}

/* A burst not grouped whose first frame, nothing held, is plain with len
 * payload bytes and not one pass_run() takes: when it is a new flow the
 * fast path would hold, held here without a second parse, its next frames
 * trained.  Returns the frame the burst loop goes on from (0: not held). */
OFL_NOINLINE unsigned gro_first_hold(struct ofl_gro *g, const struct ofl_pkt *pkts, unsigned n, uint64_t now, int32_t len)
{
	if (!first_holds(g, pkts->bufs->data, len))
		return 0;
	unsigned k;
	first_prefetch(pkts, n);
	hold_first(g, pkts, now);
	k = train_after_first(g, pkts, n, now, pkts->bufs->data, plain_l4_off(pkts->bufs->data), 0) + 1;
	/* the burst goes on (the loop looks flows up), or nothing is held
	 * (unidx only with entries out of the table): the entries put in
	 * the table, unidx 0; else a full flush completes them (deliver.c) */
	if (k < n || !g->nlone)
		gro_unidx_settle(g);
	return k;
}

/* gro_first_hold() for a first frame in several buffers (header split, page
 * fragments; pkts->nbufs > 1), nothing held, the burst not grouped and
 * its flow next: held when receive.c's fast path would hold it (plain
 * TCP with its headers in the first buffer, a payload, no flag that
 * passes it on, within the byte bound), its next frames trained.  Returns
 * the frame the burst loop goes on from (0: not held, the loop decides). */
OFL_NOINLINE unsigned gro_first_hold_bufs(struct ofl_gro *g, const struct ofl_pkt *pkts, unsigned n, uint64_t now)
{
	const uint32_t total = bufs_total(g, pkts);
	const uint8_t *p;
	uint32_t l4, thl;
	if (!total)
		return gro_udp_first_bufs(g, pkts, n, now); /* (udp.c: not TCP) */
	p = pkts->bufs->data;
	thl = ofl_plain_tcp(p, pkts->bufs->len, total, &l4);
	if (!thl)
		return gro_udp_first_bufs(g, pkts, n, now);
	if (!first_holds(g, p, (int32_t)(total - l4 - thl)))
		return 0;
	first_prefetch(pkts, n);
	g->st.rx_pkts++;
	g->st.rx_bytes += total;
	{
		/* held without its slices (hold.h sl1), out of the
		 * table as gro_first_hold() holds (a copy for each IP
		 * version), its slices then written here: in the header
		 * split (the headers the whole first buffer, no
		 * later one empty) each later buffer's, else hold.c's cut */
		const struct ofl_buf *b = pkts->bufs;
		const uint32_t nb = pkts->nbufs, hl = l4 + thl;
		struct ofl_slice *s;
		uint32_t k, empty = b->len != hl, idx;
		if (l4 == 34)
			idx = gro_hold_plain_out(g, pkts, p, 4, thl, total, now, 1);
		else
			idx = gro_hold_plain_out(g, pkts, p, 6, thl, total, now, 1);
		s = gro_slices(g, idx);
		for (k = 1; k < nb; k++) {
			s[k - 1] = (struct ofl_slice){b[k].data, b[k].len, 0, (uint16_t)k};
			empty |= b[k].len == 0;
		}
		g->items[idx].nslices = (uint16_t)(nb - 1u);
		if (empty) {
			g->items[idx].nslices = 0;
			gro_add_slices(g, idx, pkts, hl, total - hl, 0);
		}
	}
	{
		const unsigned k = train_after_first(g, pkts, n, now, p, l4, 1) + 1;
		/* (as gro_first_hold(): settled when the burst goes on or nothing
		 * is held) */
		if (k < n || !g->nlone)
			gro_unidx_settle(g);
		return k;
	}
}
