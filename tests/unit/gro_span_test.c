/*
 * gro_span_test.c - one TCP flow whose entry fills up inside a poll
 * (src/gro/merge.c: the span, a run of one buffer that goes on past the
 * entry's room into the entry held from the frame that did not fit; the
 * first run word of an entry held from a burst's first frame): polls of 64
 * full segments of one flow that arrive with nothing held, so that the
 * first frame is held from the burst loop (burst_first.c gro_first_hold()), the entry
 * fills at max_size and the flow's next entry is held from the frame
 * after.  Each poll has one frame changed, at one position of twelve in turn
 * (the first frames, those around the fill, the last): PSH,
 * CWR, a short segment, a sequence gap, an IPv4 ID step, another TOS,
 * another TTL, a bad IPv4 header checksum, the checksum not verified, an
 * IP length one more than the frame's, no payload, two buffers.  The flow over IPv4 and IPv6, with TCP options or without
 * (run1.c's copies for both), its IP ID wrapping in the poll or at its
 * first frame, with the held bytes bounding the second entry, and with a
 * delivery list longer than a poll (the full entry not delivered when the
 * next is held).
 * Each sequence runs on one context as one burst a poll and on another as
 * one ofl_gro_receive() a frame: what they deliver (every field, header,
 * payload and cookie, folded into a digest) and their counters (but
 * lookups and merged_fast) must be the same; unchanged polls deliver two
 * packets of every segment.  As gro_burst_diff_span_test the same calls run
 * again as bursts of every size (support/burstdiff.h).
 * The same in several buffers (merge.c's span for runs of several buffers,
 * run_split.c, run_bufs.c; renew.c holding the frame with the run's
 * slices): every frame in two or four buffers, its headers the whole first
 * (header split) or with payload bytes after them, the payload's buffers
 * of unequal lengths; the changed frame then also in one buffer (C_BUFS),
 * cut at another place (C_CUT: the run's frames' slices unequal) or with
 * page fragments of other lengths (C_PAGES: as many slices; the header
 * split's run goes on in run_bufs.c's, before the next entry's frames,
 * which the run writes into that entry, or among them).
 * And one UDP flow (UDP GRO on: merge.c's train of a GRO_FAST_UDP entry,
 * run_bufs.c's UDP copies for several buffers, whose IPv4 header split
 * leaves 42 header bytes in the first buffer) in every layout, against the
 * same frames received one by one, with the UDP changes: a zero checksum,
 * a UDP length one off, a datagram longer than the first; a shorter one
 * (C_SHORT) mid-run and last; and a flow whose every checksum is 0.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ofl/gro.h>

#include "gen.h"
#include "harness.h"
#include "outdigest.h"

#define POLL 64u
#define MSS 1400u /* 46 segments an entry under the default max_size */
#define FRAME 1536u

enum change {
	C_NONE, C_PSH, C_CWR, C_SHORT, C_SEQ, C_ID, C_TOS, C_TTL, C_IPSUM, C_CSUM, C_LEN, C_NOPAY, C_BUFS, C_CUT, C_PAGES,
	NCHANGE,
	/* UDP only */
	C_ZERO = NCHANGE, C_ULEN, C_LONG
};
/* The changes of the UDP sequences. */
static const enum change udp_changes[] = {C_NONE, C_SHORT, C_ID,   C_TOS,  C_TTL,  C_IPSUM, C_CSUM,
                                          C_LEN,  C_BUFS,  C_CUT,  C_ZERO, C_ULEN, C_LONG};
#define NUDP (sizeof udp_changes / sizeof udp_changes[0])

/* How a frame is cut into buffers: one; the headers alone then one
 * (header split) or three; the headers and 120 payload bytes then one or
 * three.  Several buffers: the payload's later ones of 500, 300 and the
 * rest bytes. */
enum layout { L_ONE, L_HS2, L_HS4, L_OFF2, L_OFF4, NLAYOUT };

/* The flow's variants: TCP options (timestamps), the IP ID near its wrap
 * (in the poll's second entry, or at its first frame), the held bytes
 * bounding the second entry, a delivery list longer than a poll (the
 * entry completed for its size not delivered: the next held in another
 * entry than after a delivery). */
enum variant { V_PLAIN, V_OPTS, V_WRAP, V_WRAP0, V_HELD, V_BATCH, NVARIANT };

static uint8_t frames[POLL][FRAME];
static struct ofl_buf bufs[POLL][4];
static struct ofl_pkt pkts[POLL];

/* Frame k (len bytes, hl of headers) cut into nb buffers (1, 2 or 4), the
 * first of hl + off bytes (or the whole frame when it has no more); four:
 * the second of p1 bytes, the third 300. */
static uint16_t frame_cut(unsigned k, uint32_t len, uint32_t hl, unsigned nb, uint32_t off, uint32_t p1)
{
	uint8_t *f = frames[k];
	const uint32_t b0 = nb == 1 ? len : hl + off, rest = len - b0; /* (rest: when len > b0) */
	if (nb == 1 || len <= b0) {
		bufs[k][0] = (struct ofl_buf){f, len};
		return 1;
	}
	bufs[k][0] = (struct ofl_buf){f, b0};
	if (nb == 2 || rest <= 800u) {
		bufs[k][1] = (struct ofl_buf){f + b0, rest};
		return 2;
	}
	bufs[k][1] = (struct ofl_buf){f + b0, p1};
	bufs[k][2] = (struct ofl_buf){f + b0 + p1, 300};
	bufs[k][3] = (struct ofl_buf){f + b0 + p1 + 300, rest - p1 - 300u};
	return 4;
}

/* Poll number poll of the flow g (stepped on), frame at changed by c,
 * each frame cut as lay says. */
static void poll_make(struct gen_tcp *g, unsigned at, enum change c, unsigned poll, enum layout lay)
{
	static const unsigned nbs[NLAYOUT] = {1, 2, 4, 2, 4}, offs[NLAYOUT] = {0, 0, 0, 120, 120};
	unsigned k;
	for (k = 0; k < POLL; k++) {
		struct gen_tcp m = *g;
		size_t len;
		uint32_t hl;
		if (k == at) {
			switch (c) {
			case C_PSH: m.flags |= GEN_PSH; break;
			case C_CWR: m.flags |= GEN_CWR; break;
			case C_SHORT: m.payload_len = MSS - 1; break;
			case C_SEQ: m.seq += 3; break;
			case C_ID: m.ip_id = (uint16_t)(m.ip_id + 5u); break;
			case C_TOS: m.tos ^= 4; break;
			case C_TTL: m.ttl--; break;
			case C_IPSUM: m.bad_ip_csum = true; break;
			case C_LEN: m.ip_len_delta = 1; break;
			case C_NOPAY: m.payload_len = 0; break;
			case C_ZERO: m.udp_zero_csum = true; break;
			case C_ULEN: m.udp_len_delta = -1; break;
			case C_LONG: m.payload_len = MSS + 1; break;
			default: break;
			}
		}
		len = gen_tcp_frame(&m, frames[k], FRAME);
		ck_assert_uint_gt(len, 0);
		hl = (uint32_t)len - m.payload_len;
		g->seq += m.payload_len;
		g->ip_id++;
		/* as the layout says; the changed frame (C_BUFS): of one
		 * buffer the headers and the payload, else in one; (C_CUT)
		 * the first buffer 40 bytes longer; (C_PAGES) in four
		 * buffers, the second 100 bytes shorter (as many slices as
		 * the others, of other lengths) */
		uint16_t nb;
		if (k == at && c == C_BUFS)
			nb = frame_cut(k, (uint32_t)len, hl, nbs[lay] == 1 ? 2 : 1, 0, 500);
		else
			nb = frame_cut(k, (uint32_t)len, hl, nbs[lay] == 1 && k == at && c == C_CUT ? 2 : nbs[lay],
			               offs[lay] + (k == at && c == C_CUT ? 40u : 0u), k == at && c == C_PAGES ? 400u : 500u);
		pkts[k] = (struct ofl_pkt){.bufs = bufs[k],
		                           .nbufs = nb,
		                           .csum_status = k == at && c == C_CSUM ? OFL_CSUM_NONE : OFL_CSUM_UNNECESSARY,
		                           .cookie = (void *)(uintptr_t)(poll << 8 | k)};
	}
}

/* The sequence over IPv(l3) in variant v, change c at every position in
 * turn (one poll each), into s: one burst a poll (burst) or one call a
 * frame; its counters in *st. */
static void sequence(int l3, enum variant v, enum change c, enum layout lay, int burst, struct seen *s,
                     struct ofl_gro_stats *st, int udp)
{
	struct gen_tcp g;
	struct ofl_gro_config cfg;
	struct ofl_gro *gro;
	/* the positions changed: the first frames, around where the first
	 * entry fills (46 segments: frames 0 to 45, the next entry held from
	 * frame 46), the last frames */
	static const unsigned ats[] = {0, 1, 2, 9, 44, 45, 46, 47, 48, 49, 55, 63};
	unsigned a, at;
	memset(s, 0, sizeof *s);
	ofl_gro_config_default(&cfg);
	cfg.deliver = seen_deliver;
	cfg.user = s;
	if (v == V_HELD)
		cfg.max_held_bytes = 50u * MSS + 10u; /* (the poll's 50th frame over it) */
	if (v == V_BATCH)
		cfg.normal_batch = 256;
	cfg.udp = (uint8_t)(udp != 0);
	ck_assert_int_eq(ofl_gro_create(&cfg, &gro), 0);
	gen_tcp_init(&g, l3);
	g.seq = 0xfffff000u;
	g.payload_len = MSS;
	g.df = true;
	if (v == V_OPTS && !udp)
		gen_opt_ts(&g, 900u, 40u);
	/* UDP: V_OPTS, every checksum 0 */
	g.udp = udp != 0;
	g.udp_zero_csum = udp && v == V_OPTS;
	for (a = 0; a < sizeof ats / sizeof ats[0]; a++) {
		at = ats[a];
		if (v == V_WRAP)
			g.ip_id = (uint16_t)(0xffffu - 50u); /* (at the poll's frame 51) */
		if (v == V_WRAP0)
			g.ip_id = (uint16_t)(0xffffu - at % 3u); /* (at its first frames) */
		poll_make(&g, at, c, a, lay);
		if (burst) {
			int err = 1;
			ck_assert_uint_eq(ofl_gro_receive_burst(gro, pkts, POLL, a, &err), POLL);
			ck_assert_int_eq(err, 0);
		} else {
			unsigned k;
			for (k = 0; k < POLL; k++)
				ck_assert_int_ge(ofl_gro_receive(gro, &pkts[k], a), 0);
		}
		ck_assert_int_eq(ofl_gro_poll_end(gro, POLL, a, NULL), 0);
	}
	ck_assert_int_eq(ofl_gro_get_stats(gro, st, sizeof *st), 0);
	ofl_gro_destroy(gro);
	st->lookups = st->lookup_probes = st->merged_fast = 0; /* (gro.h) */
}

/* The sequences of change c in layout lay (udp: a UDP flow) as bursts and
 * as single frames, both IP versions, every variant: the same. */
static void equal_single_frames(enum change c, enum layout lay, int udp)
{
	const char *what = udp ? "UDP/" : "";
	int l3;
	unsigned v;
	for (l3 = 4; l3 <= 6; l3 += 2) {
		for (v = 0; v < NVARIANT; v++) {
			struct seen a, b;
			struct ofl_gro_stats sa, sb;
			sequence(l3, (enum variant)v, c, lay, 1, &a, &sa, udp);
			sequence(l3, (enum variant)v, c, lay, 0, &b, &sb, udp);
			ck_assert_msg(a.h == b.h && a.lists == b.lists && a.pkts == b.pkts && a.segs == b.segs,
			              "%sIPv%d, variant %u, change %d, layout %d: bursts and single frames deliver "
			              "differently (%u/%u packets, %u/%u segments)",
			              what, l3, v, (int)c, (int)lay, a.pkts, b.pkts, a.segs, b.segs);
			ck_assert_msg(memcmp(&sa, &sb, sizeof sa) == 0,
			              "%sIPv%d, variant %u, change %d, layout %d: counters differ", what, l3, v, (int)c,
			              (int)lay);
			if (udp && c == C_NONE && v == V_OPTS)
				ck_assert_uint_eq(a.pkts, 12u * POLL); /* every checksum 0: no datagram merged */
			if (!udp && c != C_PSH && c != C_IPSUM && c != C_LEN && c != C_NOPAY)
				ck_assert_uint_eq(a.segs, 12u * POLL); /* every frame a segment, delivered once */
			if (c == C_NONE && v != V_HELD && v != V_WRAP0 && (!udp || v != V_OPTS))
				ck_assert_uint_eq(a.pkts, 2u * 12u); /* two entries a poll: 46 and 18 segments */
		}
	}
}

/* Change _i % NCHANGE, layout _i / NCHANGE. */
START_TEST(span_equal_single_frames)
{
	equal_single_frames((enum change)(_i % NCHANGE), (enum layout)(_i / NCHANGE), 0);
}
END_TEST

/* UDP: change udp_changes[_i % NUDP], layout _i / NUDP (V_OPTS: every
 * checksum 0). */
START_TEST(span_udp_equal_single_frames)
{
	equal_single_frames(udp_changes[_i % NUDP], (enum layout)(_i / NUDP), 1);
}
END_TEST

H_MAIN("gro_span", 0, 0, {span_equal_single_frames, NCHANGE * NLAYOUT},
       {span_udp_equal_single_frames, (int)(NUDP * NLAYOUT)})
