/*
 * gro_runs_test.c - interleaved new flows (src/gro/newflows.c, the weave
 * from a burst's first frame): polls of F flows round robin (2 to 17; 17
 * is one more than the weave's slots), four full segments of each, that
 * arrive with nothing held, so that every flow's first frame is held where
 * the weave meets it and its next frames are taken after it.  Each poll
 * has one frame changed, at every position in turn, so that the weave
 * must stop there (or, for a new flow's first frame, not hold it): PSH, a
 * short segment, a sequence gap, a bad IPv4 header checksum, no payload
 * (a new flow that is passed on), a SYN, another flow with the same ports
 * (other addresses), a frame of the other IP version, an IPv4 ID step, two
 * buffers, a checksum not verified, another timestamp value; and the
 * configuration's limits: fewer flows than the poll has, held bytes for a
 * third of it or, segment sizes growing from flow to flow, for less than
 * the first two flows' first frames, two segments a packet, and every
 * flow with TCP options; a frame with an empty buffer, and one whose
 * headers (with TCP options) end in its second buffer; and CWR on a
 * flow's frames from the changed one on (from its first: a flow held and
 * merged with CWR, delivered with OFL_GSO_TCP_ECN); and a frame of another
 * flow (other ports) in place of one (in the last round: a new flow of one
 * frame the weave holds and the poll's end completes as it is); and the
 * merged size bound (max_size 1280) with segment sizes growing from flow to
 * flow (fewer segments fit in the later flows' packets).
 * runs_bufs_equal runs the same with every frame in several buffers (the
 * weave's frames in several buffers, weave.c): the header split in two or
 * four buffers, and buffer counts from 2 to 4 with the boundaries at other
 * places from frame to frame, some with payload in the first buffer.
 * runs_settle_calls (the new flows held out of the flow table, settled
 * by the calls that may look one up) runs with the frames in one buffer,
 * in four (the header split) and cut as runs_bufs_equal's mixed layout.
 * runs_udp_equal runs it with UDP flows (UDP GRO on; the weave's UDP
 * datagrams): PSH is a zero checksum there, SYN a UDP length one short,
 * the TCP-only changes none.
 * Each sequence runs on one context as one burst a poll and on another as
 * one ofl_gro_receive() a frame: what they deliver (every field, header,
 * payload and cookie, folded into a digest list by list) and their
 * counters (gro.h: but lookups and merged_fast) must be the same.  As
 * gro_burst_diff_runs_test the same calls run again as bursts of every
 * size (support/burstdiff.h).
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ofl/gro.h>

#include "gen.h"
#include "harness.h"
#include "outdigest.h"

#define SEGS 4u                    /* segments of each flow a poll */
#define FMAX 17u                   /* flows at most */
#define LONG 80u                   /* segments of each flow a poll: runs_udp_long */
#define PMAX (2u * LONG)           /* frames a poll at most */
_Static_assert(PMAX >= FMAX * SEGS, "room for every poll");
static unsigned segs = SEGS;
#define MSS 200u
#define FRAME 512u

enum change {
	C_NONE, C_PSH, C_SHORT, C_SEQ, C_IPSUM, C_NOPAY, C_SYN, C_ADDR, C_L3, C_ID, C_BUFS, C_CSUM, C_TS,
	C_FLOWS, C_HELD, C_HELD1, C_SEGS, C_OPTS, C_EMPTY, C_HSPLIT, C_CWR, C_PORT, C_SIZE, C_PAD, NCHANGE
};
#define PAD 6u /* C_PAD: bytes after the IP packet (Ethernet padding) */

/* How the frames are cut into buffers: all in one; the header split in
 * two or four (headers, then the payload in equal parts); 2 to 4 buffers
 * by frame, the boundaries moved from frame to frame, every fourth frame
 * with payload bytes in its first buffer. */
enum split { S_ONE, S_SPLIT2, S_SPLIT4, S_MIXED, NSPLIT };
static enum split split;
static int udp; /* UDP flows (runs_udp_equal) */

static uint8_t frames[PMAX][FRAME];
static struct ofl_buf bufs[PMAX][4];
static struct ofl_pkt pkts[PMAX];

/* The flows of one sequence: flow f of IPv(l3), every flow with the
 * timestamps option for C_OPTS and C_TS. */
static void flows_init(struct gen_tcp *g, unsigned nf, int l3, enum change c)
{
	unsigned f;
	for (f = 0; f < nf; f++) {
		gen_tcp_init(&g[f], l3);
		g[f].sport = (uint16_t)(3000 + 7 * f);
		g[f].seq = 5000u * f + 1u;
		g[f].ip_id = (uint16_t)(0xffd0u + 3u * f); /* (some first frames at 0xffff) */
		/* (segment sizes that grow) */
		g[f].payload_len = c == C_HELD1 ? MSS + 8 * f : c == C_SIZE ? 300 + 6 * f : MSS;
		g[f].flow_salt = f + 1;
		g[f].udp = udp != 0;
		if (!udp && (c == C_OPTS || c == C_TS || c == C_HSPLIT)) /* (C_HSPLIT: the TCP header past 20 bytes) */
			gen_opt_ts(&g[f], 900u + f, 40u);
	}
}

/* Frame k, len bytes of which hl of headers, cut into buffers as split
 * says (one when its payload is too short for them). */
static void cut_frame(unsigned k, uint32_t len, uint32_t hl)
{
	uint8_t *f = frames[k];
	uint32_t nb = split == S_SPLIT2 ? 2 : split == S_SPLIT4 ? 4 : 2 + k % 3;
	uint32_t b0 = hl + (split == S_MIXED && k % 4 == 1 ? 7 + k % 5 : 0), off, j;
	if (split == S_ONE || len < b0 + 4 * nb)
		return;
	pkts[k].nbufs = (uint16_t)nb;
	bufs[k][0] = (struct ofl_buf){f, b0};
	for (j = 1, off = b0; j < nb; j++) {
		uint32_t l = j + 1 == nb ? len - off : (len - b0) / (nb - 1) + (split == S_MIXED ? k % 3 : 0);
		bufs[k][j] = (struct ofl_buf){f + off, l};
		off += l;
	}
}

/* Poll at of the sequence: SEGS frames of each of the nf flows, round
 * robin, frame at changed; the flows stepped on.  Returns the frame
 * count. */
static unsigned poll_make(struct gen_tcp *g, unsigned nf, unsigned at, enum change c, unsigned poll)
{
	unsigned k, n = nf * segs;
	for (k = 0; k < n; k++) {
		struct gen_tcp *t = &g[k % nf], m = *t;
		size_t len;
		if (c == C_CWR && k >= at && k % nf == at % nf)
			m.flags |= GEN_CWR; /* (no change for UDP flows) */
		if (k == at) {
			switch (c) {
			case C_PSH:
				if (udp)
					m.udp_zero_csum = true;
				else
					m.flags |= GEN_PSH;
				break;
			case C_SHORT: m.payload_len = MSS - 1; break;
			case C_SEQ: m.seq += 3; break;
			case C_IPSUM: m.bad_ip_csum = true; break;
			case C_NOPAY: m.payload_len = 0; break;
			case C_SYN:
				if (udp)
					m.udp_len_delta = -1;
				else
					m.flags |= GEN_SYN;
				break;
			case C_ADDR: m.saddr[m.l3 == 4 ? 2 : 14] ^= 0x10; break;
			case C_PORT: m.sport ^= 0x4000; break;
			case C_L3:
				gen_tcp_init(&m, 10 - t->l3);
				m.udp = t->udp;
				m.sport = t->sport;
				m.payload_len = MSS;
				break;
			case C_ID: m.ip_id = (uint16_t)(m.ip_id + 5u); break;
			case C_TS: m.opts[7] ^= 1; break; /* (NOP NOP kind len, then the value) */
			default: break;
			}
		}
		len = gen_tcp_frame(&m, frames[k], FRAME);
		ck_assert_uint_gt(len, 0);
		if (k != at || (c != C_ADDR && c != C_L3 && c != C_PORT)) {
			t->seq += m.payload_len;
			t->ip_id++;
		}
		memset(&pkts[k], 0, sizeof pkts[k]);
		pkts[k].bufs = bufs[k];
		pkts[k].nbufs = 1;
		pkts[k].csum_status = k == at && c == C_CSUM ? OFL_CSUM_NONE : OFL_CSUM_UNNECESSARY;
		pkts[k].cookie = (void *)(uintptr_t)(poll << 8 | k);
		if (k == at && c == C_PAD) {
			/* the frame's buffers PAD bytes longer than its IP
			 * packet: its IP length still a full segment's */
			ck_assert_uint_le(len + PAD, FRAME);
			memset(frames[k] + len, 0xee, PAD);
			len += PAD;
		}
		bufs[k][0] = (struct ofl_buf){frames[k], (uint32_t)len};
		cut_frame(k, (uint32_t)len, (uint32_t)len - m.payload_len - (k == at && c == C_PAD ? PAD : 0u));
		if (k == at && c == C_EMPTY) {
			/* the headers, an empty buffer, the payload */
			uint32_t hl = (uint32_t)len - m.payload_len;
			bufs[k][0].len = hl;
			bufs[k][1] = (struct ofl_buf){frames[k] + hl, 0};
			bufs[k][2] = (struct ofl_buf){frames[k] + hl, m.payload_len};
			pkts[k].nbufs = 3;
		}
		if (k == at && c == C_HSPLIT) {
			/* the headers split: their last 4 bytes in a second buffer */
			uint32_t b0 = (uint32_t)len - m.payload_len - 4u;
			bufs[k][0].len = b0;
			bufs[k][1] = (struct ofl_buf){frames[k] + b0, (uint32_t)len - b0};
			pkts[k].nbufs = 2;
		}
		if (k == at && c == C_BUFS) {
			bufs[k][0].len = (uint32_t)len - 50u;
			bufs[k][1] = (struct ofl_buf){frames[k] + len - 50u, 50u};
			pkts[k].nbufs = 2;
		}
	}
	return n;
}

/* Frames p[0..n) at now: one burst (burst) or one call a frame. */
static void feed(struct ofl_gro *gro, const struct ofl_pkt *p, unsigned n, uint64_t now, int burst)
{
	unsigned k;
	if (burst) {
		int err = 1;
		ck_assert_uint_eq(ofl_gro_receive_burst(gro, p, n, now, &err), n);
		ck_assert_int_eq(err, 0);
	} else {
		for (k = 0; k < n; k++)
			ck_assert_int_ge(ofl_gro_receive(gro, &p[k], now), 0);
	}
}

/* The default configuration delivering into s (emptied). */
static void seen_config(struct ofl_gro_config *cfg, struct seen *s)
{
	memset(s, 0, sizeof *s);
	ofl_gro_config_default(cfg);
	cfg->deliver = seen_deliver;
	cfg->user = s;
}

/* The sequence for nf flows over IPv(l3), change c at every position in
 * turn (one poll each), into s: one burst a poll (burst) or one call a
 * frame; its counters in *st. */
static void sequence(unsigned nf, int l3, enum change c, int burst, struct seen *s, struct ofl_gro_stats *st)
{
	struct gen_tcp g[FMAX];
	struct ofl_gro_config cfg;
	struct ofl_gro *gro;
	unsigned at, n;
	seen_config(&cfg, s);
	cfg.udp = udp != 0;
	if (c == C_FLOWS)
		cfg.max_flows = nf / 2 + 1;
	if (c == C_HELD)
		cfg.max_held_bytes = nf * segs * MSS / 3;
	if (c == C_HELD1)
		cfg.max_held_bytes = 2 * MSS + 4; /* (the second flow's first frame, 8 bytes more, over it) */
	if (segs > SEGS)
		cfg.max_segs = 128; /* (above the UDP count bound, 64) */
	if (c == C_SEGS)
		cfg.max_segs = 2;
	if (c == C_SIZE)
		cfg.max_size = 1280; /* (4 segments of 300 fit, of 396 3) */
	ck_assert_int_eq(ofl_gro_create(&cfg, &gro), 0);
	flows_init(g, nf, l3, c);
	for (at = 0; at < nf * segs; at++) {
		n = poll_make(g, nf, at, c, at);
		feed(gro, pkts, n, at, burst);
		ck_assert_int_eq(ofl_gro_poll_end(gro, n, at, NULL), 0);
	}
	ck_assert_int_eq(ofl_gro_get_stats(gro, st, sizeof *st), 0);
	ofl_gro_destroy(gro);
	st->lookups = st->lookup_probes = st->merged_fast = 0; /* (gro.h) */
}

/* The bursts' run (a, sa) and the single frames' (b, sb) delivered and
 * counted the same (what k: the change or op). */
static void same_seen(const struct seen *a, const struct seen *b, const struct ofl_gro_stats *sa,
                      const struct ofl_gro_stats *sb, int l3, unsigned nf, const char *what, int k)
{
	ck_assert_msg(a->h == b->h && a->lists == b->lists && a->pkts == b->pkts,
	              "IPv%d, %u flows, %s %d: bursts and single frames deliver differently "
	              "(%u/%u lists, %u/%u packets)",
	              l3, nf, what, k, a->lists, b->lists, a->pkts, b->pkts);
	ck_assert_msg(memcmp(sa, sb, sizeof *sa) == 0, "IPv%d, %u flows, %s %d: counters differ", l3, nf, what, k);
}

/* Change _i: every flow count (under a checker a few), both IP versions. */
START_TEST(runs_equal_single_frames)
{
	static const unsigned few[] = {2, 3, 8, 16, 17};
	const enum change c = (enum change)_i;
	const int all = getenv("OFL_TEST_CHECKER") == NULL;
	unsigned j, nf;
	int l3;
	for (l3 = 4; l3 <= 6; l3 += 2) {
		for (j = 0; j < (all ? FMAX - 1u : sizeof few / sizeof few[0]); j++) {
			struct seen a, b;
			struct ofl_gro_stats sa, sb;
			nf = all ? j + 2u : few[j];
			sequence(nf, l3, c, 1, &a, &sa);
			sequence(nf, l3, c, 0, &b, &sb);
			same_seen(&a, &b, &sa, &sb, l3, nf, "change", (int)c);
			ck_assert_uint_eq(sa.rx_pkts, (uint64_t)nf * SEGS * nf * SEGS);
			if (c == C_NONE || c == C_OPTS) {
				/* every poll: each flow one packet of SEGS segments */
				ck_assert_uint_eq(a.pkts, nf * nf * SEGS);
				ck_assert_uint_eq(sa.merged, (uint64_t)nf * SEGS * nf * (SEGS - 1u));
			}
			/* CWR from a flow's frame j of SEGS on: its frames from
			 * there merged with it when j < SEGS - 1 (from its first:
			 * held with it, and woven) */
			ck_assert_uint_eq(a.ecn, c == C_CWR ? nf * (SEGS - 1u) : 0u);
		}
	}
}
END_TEST

/*
 * The new flows a burst's weave holds are out of the flow table until a
 * call may look one up (hold.h gro_hold_plain_unidx()).  Each poll: a
 * first burst of two rounds of the nf flows (all of it woven: every flow
 * held out of the table), then a call of each kind that comes before the
 * poll's end, then the poll's other frames, then its end; the same calls
 * with every burst given as single frames must deliver the same.
 */
enum settle_op {
	S_BURST,   /* the rest of the poll as a second burst */
	S_SINGLE,  /* ... as single frames */
	S_STATS,   /* ofl_gro_get_stats() between the bursts */
	S_OLDER,   /* ofl_gro_flush_older() that flushes nothing */
	S_OLDER0,  /* ... that flushes every flow (max_age 0) */
	S_FLUSH,   /* ofl_gro_flush() */
	S_END,     /* ofl_gro_poll_end() (timeout 0) between the bursts */
	S_TIMEOUT, /* a flush timeout: poll end (also between the bursts) keeps the flows held,
	              the next poll merges on */
	S_ROOM,    /* max_flows nf: a frame of another flow between the bursts makes room */
	NSETTLE
};

static void settle_seq(unsigned nf, int l3, enum settle_op op, int burst, struct seen *s, struct ofl_gro_stats *st)
{
	static uint8_t xframe[FRAME];
	struct gen_tcp g[FMAX], x;
	struct ofl_gro_config cfg;
	struct ofl_gro *gro;
	unsigned poll, n, m = nf * 2u;
	seen_config(&cfg, s);
	if (op == S_TIMEOUT)
		cfg.flush_timeout_ns = 1000;
	if (op == S_ROOM)
		cfg.max_flows = nf;
	ck_assert_int_eq(ofl_gro_create(&cfg, &gro), 0);
	flows_init(g, nf, l3, C_NONE);
	gen_tcp_init(&x, l3);
	x.sport = 999;
	x.payload_len = MSS;
	for (poll = 0; poll < 6; poll++) {
		uint64_t now = 300u * poll;
		struct ofl_gro_stats mid;
		n = poll_make(g, nf, PMAX, C_NONE, poll);
		if (op == S_TIMEOUT) {
			/* (held across polls: each poll's frames in buffers of their own) */
			static uint8_t kept[6][PMAX][FRAME];
			unsigned k, j;
			memcpy(kept[poll], frames, sizeof frames);
			for (k = 0; k < n; k++)
				for (j = 0; j < pkts[k].nbufs; j++)
					bufs[k][j].data = kept[poll][k] + (bufs[k][j].data - frames[k]);
		}
		feed(gro, pkts, m, now, burst);
		switch (op) {
		case S_STATS:
			ck_assert_int_eq(ofl_gro_get_stats(gro, &mid, sizeof mid), 0);
			ck_assert_uint_eq(mid.flows_held, nf);
			ck_assert_uint_eq(mid.bytes_held, (uint64_t)m * MSS);
			break;
		case S_OLDER:
			ck_assert_int_eq(ofl_gro_flush_older(gro, now, 1000), 0);
			break;
		case S_OLDER0:
			ck_assert_int_eq(ofl_gro_flush_older(gro, now, 0), (int)nf);
			break;
		case S_FLUSH:
			ck_assert_int_eq(ofl_gro_flush(gro), 0);
			break;
		case S_END:
			ck_assert_int_eq(ofl_gro_poll_end(gro, m, now, NULL), 0);
			break;
		case S_TIMEOUT: {
			uint64_t dl = 0;
			ck_assert_int_eq(ofl_gro_poll_end(gro, m, now, &dl), 0);
			ck_assert(dl == 0 || dl > now); /* (the oldest flow's deadline: 0 when none is held) */
			break;
		}
		case S_ROOM: {
			struct ofl_buf b = {xframe, 0};
			struct ofl_pkt p;
			b.len = (uint32_t)gen_tcp_frame(&x, xframe, FRAME);
			x.seq += MSS;
			x.ip_id++;
			memset(&p, 0, sizeof p);
			p.bufs = &b;
			p.nbufs = 1;
			p.csum_status = OFL_CSUM_UNNECESSARY;
			p.cookie = (void *)(uintptr_t)(poll << 8 | 0xff);
			feed(gro, &p, 1, now, burst);
			break;
		}
		default:
			break;
		}
		feed(gro, pkts + m, n - m, now, burst && op != S_SINGLE);
		ck_assert_int_eq(ofl_gro_poll_end(gro, n, now, NULL), 0);
	}
	ck_assert_int_eq(ofl_gro_get_stats(gro, st, sizeof *st), 0);
	ofl_gro_destroy(gro);
	st->lookups = st->lookup_probes = st->merged_fast = 0; /* (gro.h) */
}

/* Op _i % NSETTLE: a few flow counts, both IP versions; the frames in
 * one buffer, or (_i / NSETTLE 1, 2) in four (the header split) or in 2
 * to 4 with payload in some first buffers (the weave's new flows in
 * several buffers, newflows.c). */
START_TEST(runs_settle_calls)
{
	static const unsigned few[] = {2, 5, 8, 15}; /* (16: the first flow again past repeat_at()'s look) */
	static const enum split sp[] = {S_ONE, S_SPLIT4, S_MIXED};
	const enum settle_op op = (enum settle_op)(_i % NSETTLE);
	unsigned j;
	int l3;
	split = sp[_i / NSETTLE];
	for (l3 = 4; l3 <= 6; l3 += 2) {
		for (j = 0; j < sizeof few / sizeof few[0]; j++) {
			const unsigned nf = few[j];
			struct seen a, b;
			struct ofl_gro_stats sa, sb;
			settle_seq(nf, l3, op, 1, &a, &sa);
			settle_seq(nf, l3, op, 0, &b, &sb);
			same_seen(&a, &b, &sa, &sb, l3, nf, "op", (int)op);
			if (op <= S_OLDER) {
				/* every poll: each flow one packet of SEGS segments */
				ck_assert_uint_eq(a.pkts, 6u * nf);
				ck_assert_uint_eq(sa.merged, 6u * nf * (SEGS - 1u));
			}
			if (op == S_TIMEOUT) /* (held across polls: fewer, longer packets) */
				ck_assert_uint_lt(a.pkts, 6u * nf);
		}
	}
	split = S_ONE;
}
END_TEST

/* Change c over a few flow counts, both IP versions, the frames cut as
 * split says, UDP flows when udp: bursts and single frames the same. */
static void few_equal(enum change c)
{
	static const unsigned few[] = {2, 3, 8, 16, 17};
	char what[40];
	unsigned j;
	int l3;
	snprintf(what, sizeof what, "split %d, UDP %d, change", (int)split, udp);
	for (l3 = 4; l3 <= 6; l3 += 2) {
		for (j = 0; j < sizeof few / sizeof few[0]; j++) {
			struct seen a, b;
			struct ofl_gro_stats sa, sb;
			sequence(few[j], l3, c, 1, &a, &sa);
			sequence(few[j], l3, c, 0, &b, &sb);
			same_seen(&a, &b, &sa, &sb, l3, few[j], what, (int)c);
			if (c == C_NONE && segs == SEGS)
				ck_assert_uint_eq(a.pkts, few[j] * few[j] * SEGS);
		}
	}
}

/* Change _i % NCHANGE, frames cut as split 1 + _i / NCHANGE says. */
START_TEST(runs_bufs_equal)
{
	split = (enum split)(1 + _i / NCHANGE);
	few_equal((enum change)(_i % NCHANGE));
	split = S_ONE;
}
END_TEST

/* Change _i with UDP flows. */
START_TEST(runs_udp_equal)
{
	udp = 1;
	few_equal((enum change)_i);
	udp = 0;
}
END_TEST

/* Two UDP flows of LONG datagrams a poll: each flow's entry reaches the
 * UDP count bound (64 segments) within the poll, in the weave's frames;
 * change _i (none, a zero checksum, a short datagram), both IP versions. */
START_TEST(runs_udp_long)
{
	int l3;
	udp = 1;
	segs = LONG;
	for (l3 = 4; l3 <= 6; l3 += 2) {
		struct seen a, b;
		struct ofl_gro_stats sa, sb;
		sequence(2, l3, (enum change)_i, 1, &a, &sa);
		sequence(2, l3, (enum change)_i, 0, &b, &sb);
		same_seen(&a, &b, &sa, &sb, l3, 2, "UDP, long datagrams, change", _i);
		if (_i == C_NONE)
			ck_assert_uint_eq(a.pkts, 2u * LONG * 2u * 2u); /* (64 and 16 segments a flow and poll) */
	}
	segs = SEGS;
	udp = 0;
}
END_TEST

H_MAIN("gro_runs", 0, 0, {runs_equal_single_frames, NCHANGE}, {runs_settle_calls, 3 * NSETTLE},
       {runs_bufs_equal, NCHANGE * (NSPLIT - 1)}, {runs_udp_equal, NCHANGE}, {runs_udp_long, 3})
