/*
 * gro_weave_test.c - interleaved flows in one burst (src/gro/merge.c, the
 * weave): several TCP flows round robin, each frame the next full segment
 * of its flow, taken one after the other against the entries the
 * recent-flows cache names.  Each case changes one frame in the middle (or
 * the configuration) so that the weave must stop there and leave the frame
 * to the per-frame path: PSH, a short segment, a sequence gap, a bad IP
 * checksum, another TTL, an IP ID step, two buffers, a checksum not
 * verified, a hardware VLAN tag, the segment, byte and size limits, two
 * flows that share the cache slot and the ports, IPv4 and IPv6 flows mixed;
 * and flows with TCP options: the timestamps (a header of three 32-byte
 * blocks in the AVX2 weave), with one frame of another destination address
 * (bytes 32-33 of an IPv4 header: the middle block only), and 20 option
 * bytes; and a frame of 30 bytes in a buffer of its own (its TCP ports and
 * the cache's bytes past its end: never read, which ASan and memcheck
 * see); and a new flow's first frame (flow 1's, frame 1: the fresh weave
 * holds the new flows where it meets them) whose TCP data offset says 16
 * bytes, which the weave's hold must leave to the per-frame path; and a
 * flow limit of three (the fourth flow's first frame: the weave holds no
 * more, the per-frame path makes room); and frames in two buffers (the
 * header split, TCP timestamps) whose new flow's first frame has its last
 * header bytes in the second buffer, which the weave's hold must leave; and
 * addresses of all ones but the first byte, whose pseudo-header sum carries
 * out of 32 bits twice (the completion at the poll end, flush_unidx.c); and
 * flows of three header lengths interleaved (none, the timestamps, twice
 * the timestamps), their frames of one length: the AVX2 weave's run is
 * made for one header length, a frame of another stops it; and
 * a new flow's first frame (frame 1) that is an IPv4 fragment (MF), which
 * the weave's hold must leave (its IPv4 check, weave_hold.h
 * weave_ip4_ok()); and a hardware VLAN tag on frame 6, among the first
 * eight frames the weave checks before its loop (unrolled there); and one
 * on frame 10, among the next eight, which the fresh weave checks before
 * its loop of new flows too (weave.c weave_l3(): the weave ends there);
 * and every frame with the RX hash flag (the packet word the weave's
 * checks compare second, weave.h weave_pkt_ok()), frame MID's with the
 * hardware VLAN flag too: the weave must take the others and stop there.
 * Every case runs once as one burst and once frame by frame
 * (ofl_gro_receive()); both must deliver the same packets (header bytes,
 * each merged packet's lengths and checksums checked on their own too,
 * payload bytes, segments, cookies, flags) in the same lists and end with
 * the same counters (gro.h: lookups and merged_fast may differ), and every
 * frame must leave.  As gro_burst_diff_weave_test the same calls run again
 * as bursts of every size (support/burstdiff.h).
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include <ofl/gro.h>

#include "gen.h"
#include "harness.h"

#define FLOWS 4u
#define SEGS 10u
#define NFR (FLOWS * SEGS)
#define MSS 1000u
#define FRAME 1200u
#define OUTMAX 131072u /* (mask_per_l3: two polls) */

/* the frame changed in the middle: flow 1, segment 5 */
#define MID (5u * FLOWS + 1u)
/* EARLY_VLAN's frame: among the first GRO_AHEAD (8) of the burst, which
 * the weave checks before its loop */
#define EARLY (FLOWS + 2u)
/* LATE_VLAN's: among frames 8 to 15, checked before the fresh weave's
 * loop of new flows */
#define LATE (2u * FLOWS + 2u)
/* the weave's GRO_AHEAD (src/gro/gro_int.h) */
#define GRO_TEST_AHEAD 8u

enum change {
	NONE, PSH, SHORT, SEQ_GAP, BAD_IPSUM, TTL, ID_STEP, TWO_BUFS, CSUM_NONE, HW_VLAN,
	MAX_SEGS, MAX_HELD, MAX_SIZE, FIXED_ID, SAME_SLOT, MIXED_L3, OPTS, OPTS_DADDR, LONG_OPTS, TINY,
	NEW_DOFF, MAX_FLOWS, NEW_HDR_SPLIT, HIGH_ADDR, MIXED_HL, NEW_FRAG, EARLY_VLAN, LATE_VLAN, HASH_VLAN, NCHANGES
};

static uint8_t frames[NFR][FRAME];
static uint8_t *tiny; /* TINY: the frame's 30 bytes, allocated to size (NEW_HDR_SPLIT: frame 1's first buffer) */
static struct ofl_buf bufs[NFR][2];
static struct ofl_pkt pkts[NFR];

/* What one run delivered, serialized. */
struct out {
	uint8_t b[OUTMAX];
	size_t n;
	unsigned lists, pkts, segs;
};

static void put(struct out *o, const void *p, size_t n)
{
	if (!n)
		return; /* (p may be NULL then) */
	ck_assert_uint_le(o->n + n, OUTMAX);
	memcpy(o->b + o->n, p, n);
	o->n += n;
}

/* Ones'-complement sum of n big-endian 16-bit words at p, added to s. */
static uint32_t sum16(const uint8_t *p, unsigned n, uint32_t s)
{
	unsigned i;
	for (i = 0; i < n; i++)
		s += (uint32_t)p[2 * i] << 8 | p[2 * i + 1];
	return s;
}

static uint16_t fold16(uint32_t s)
{
	while (s >> 16)
		s = (s & 0xffffu) + (s >> 16);
	return (uint16_t)s;
}

/* A merged packet's headers, checked on their own (both runs rewrite them
 * with the same completion, which the comparison alone would not see
 * wrong): the IP length, the IPv4 header checksum, and the TCP checksum
 * field's pseudo-header seed (CHECKSUM_PARTIAL: folded, not inverted). */
static void check_merged(const struct ofl_gro_out *r)
{
	const uint8_t *ip = r->hdr + r->l3_off, *th = r->hdr + r->l4_off;
	uint32_t l4_len = r->len - r->l4_off, s;
	ck_assert(r->flags & OFL_GRO_OUT_F_CSUM_PARTIAL);
	if ((ip[0] >> 4) == 4) {
		ck_assert_uint_eq((uint32_t)ip[2] << 8 | ip[3], r->len - r->l3_off);
		ck_assert_uint_eq(fold16(sum16(ip, (ip[0] & 15u) * 2u, 0)), 0xffffu);
		s = sum16(ip + 12, 4, 6u + l4_len);
	} else {
		ck_assert_uint_eq((uint32_t)ip[4] << 8 | ip[5], r->len - r->l3_off - 40u);
		s = sum16(ip + 8, 16, 6u + (l4_len >> 16) + (l4_len & 0xffffu));
	}
	ck_assert_uint_eq((uint32_t)th[16] << 8 | th[17], fold16(s));
}

static void collect(void *user, const struct ofl_gro_out *p, unsigned n)
{
	struct out *o = user;
	unsigned k, s;
	o->lists++;
	put(o, &n, sizeof n);
	for (k = 0; k < n; k++) {
		const struct ofl_gro_out *r = &p[k];
		uint32_t w[6] = {r->len, r->seg_count, r->seg_size, r->flags, r->hdr_len, r->ncookies};
		o->pkts++;
		o->segs += r->seg_count;
		if (r->seg_count > 1)
			check_merged(r);
		put(o, w, sizeof w);
		put(o, r->hdr, r->hdr_len);
		for (s = 0; s < r->nslices; s++)
			put(o, r->slices[s].data, r->slices[s].len);
		for (s = 0; s < r->ncookies; s++)
			put(o, &r->cookies[s], sizeof r->cookies[s]);
	}
}

/* The frames: FLOWS flows round robin over IPv(l3), SEGS full segments
 * each, one buffer, checksum verified; then the change. */
static void make(enum change c, int l3)
{
	struct gen_tcp g[FLOWS];
	unsigned f, k;
	for (f = 0; f < FLOWS; f++) {
		gen_tcp_init(&g[f], c == MIXED_L3 && (f & 1) ? 10 - l3 : l3);
		g[f].sport = (uint16_t)(2000 + f);
		g[f].seq = 1000u * f + 7u;
		g[f].ip_id = (uint16_t)(0xfff0u + 3u * f); /* some wrap */
		g[f].payload_len = MSS;
		g[f].flow_salt = f;
		if (c == OPTS || c == OPTS_DADDR || c == NEW_HDR_SPLIT)
			gen_opt_ts(&g[f], 77u + f, 5u);
		if (c == MIXED_HL) {
			/* header lengths 54, 66, 78, 66 (IPv6 20 more), the
			 * frames all of one length */
			if (f % 2 == 1)
				gen_opt_ts(&g[f], 77u + f, 5u);
			if (f == 0)
				g[f].payload_len = MSS + 12u;
			if (f == 2) {
				gen_opt_ts(&g[f], 77u + f, 5u);
				gen_opt_ts(&g[f], 78u + f, 6u);
				g[f].payload_len = MSS - 12u;
			}
		}
		if (c == LONG_OPTS) {
			gen_opt_ts(&g[f], 77u + f, 5u);
			gen_opt_ts(&g[f], 78u + f, 6u);
		}
		if (c == HIGH_ADDR) {
			/* addresses whose 32-bit words overflow the pseudo-header
			 * sum twice (flush_unidx.c complete_un_hdr(): both end-around
			 * carries taken) */
			memset(g[f].saddr, 0xff, 16);
			memset(g[f].daddr, 0xff, 16);
			g[f].saddr[0] = 10;
			g[f].daddr[0] = 250;
			g[f].ip_id = (uint16_t)(100u + f); /* no wrap: the weave takes every frame */
		}
	}
	if (c == SAME_SLOT) {
		/* flow 1 is flow 0 with the addresses swapped: the same
		 * cache slot and ports word, another flow */
		g[1].sport = g[0].sport;
		memcpy(g[1].saddr, g[0].daddr, 16);
		memcpy(g[1].daddr, g[0].saddr, 16);
	}
	for (k = 0; k < NFR; k++) {
		struct gen_tcp *t = &g[k % FLOWS];
		struct gen_tcp m = *t;
		size_t len;
		if (k == MID) {
			switch (c) {
			case PSH: m.flags |= GEN_PSH; break;
			case SHORT: m.payload_len = MSS / 2; break;
			case SEQ_GAP: m.seq += 1; break;
			case BAD_IPSUM: m.bad_ip_csum = true; break;
			case TTL: m.ttl = 9; break;
			case ID_STEP: m.ip_id = (uint16_t)(m.ip_id + 2u); break;
			case OPTS_DADDR: m.daddr[l3 == 4 ? 3 : 15] ^= 0x40; break;
			default: break;
			}
		}
		if (k == 1 && c == NEW_FRAG)
			m.frag = 0x2000; /* IPv4 MF: a fragment (IPv6: no change) */
		len = gen_tcp_frame(&m, frames[k], FRAME);
		ck_assert_uint_gt(len, 0);
		if (k == 1 && c == NEW_DOFF) {
			/* data offset 4: a TCP header of 16 bytes (the
			 * checksum marked verified) */
			uint8_t *th = frames[k] + (m.l3 == 4 ? 34 : 54);
			th[12] = (uint8_t)(0x40u | (th[12] & 0x0fu));
		}
		t->seq += m.payload_len;
		if (c != FIXED_ID)
			t->ip_id++;
		memset(&pkts[k], 0, sizeof pkts[k]);
		pkts[k].bufs = bufs[k];
		pkts[k].nbufs = 1;
		pkts[k].csum_status = OFL_CSUM_UNNECESSARY;
		pkts[k].cookie = (void *)(uintptr_t)(k + 1);
		bufs[k][0] = (struct ofl_buf){frames[k], (uint32_t)len};
		if (k == MID && c == TWO_BUFS) {
			bufs[k][0].len = (uint32_t)len - 300;
			bufs[k][1] = (struct ofl_buf){frames[k] + len - 300, 300};
			pkts[k].nbufs = 2;
		}
		if (k == MID && c == TINY) {
			free(tiny);
			tiny = malloc(30);
			ck_assert_ptr_nonnull(tiny);
			memcpy(tiny, frames[k], 30);
			bufs[k][0] = (struct ofl_buf){tiny, 30};
		}
		if (c == NEW_HDR_SPLIT) {
			/* the header split (headers, payload), and flow 1's
			 * first frame (frame 1) with its last 6 header bytes in
			 * the second buffer: its first buffer allocated to
			 * size */
			uint32_t hl = (m.l3 == 4 ? 34u : 54u) + 32u, b0 = k == 1 ? hl - 6u : hl;
			uint8_t *p = frames[k];
			if (k == 1) {
				free(tiny);
				tiny = malloc(b0);
				ck_assert_ptr_nonnull(tiny);
				memcpy(tiny, frames[k], b0);
				p = tiny;
			}
			bufs[k][0] = (struct ofl_buf){p, b0};
			bufs[k][1] = (struct ofl_buf){frames[k] + b0, (uint32_t)len - b0};
			pkts[k].nbufs = 2;
		}
		if (k == MID && c == CSUM_NONE)
			pkts[k].csum_status = OFL_CSUM_NONE;
		if ((k == MID && c == HW_VLAN) || (k == EARLY && c == EARLY_VLAN) || (k == LATE && c == LATE_VLAN)) {
			pkts[k].flags = OFL_PKT_F_VLAN;
			pkts[k].vlan_tci = 5;
		}
		if (c == HASH_VLAN) {
			pkts[k].flags = k == MID ? OFL_PKT_F_HASH | OFL_PKT_F_VLAN : OFL_PKT_F_HASH;
			pkts[k].vlan_tci = k == MID ? 5 : 0;
			pkts[k].rx_hash = 0x9e3779b9u * (k % FLOWS + 1u);
		}
	}
}

/* A context for change c's frames, delivering into o (emptied). */
static struct ofl_gro *open_gro(enum change c, struct out *o)
{
	struct ofl_gro_config cfg;
	struct ofl_gro *gro;
	memset(o, 0, sizeof *o);
	ofl_gro_config_default(&cfg);
	cfg.deliver = collect;
	cfg.user = o;
	if (c == MAX_SEGS)
		cfg.max_segs = 4;
	if (c == MAX_HELD)
		cfg.max_held_bytes = 9 * MSS;
	if (c == MAX_SIZE)
		cfg.max_size = 6 * MSS;
	if (c == MAX_FLOWS)
		cfg.max_flows = 3;
	ck_assert_int_eq(ofl_gro_create(&cfg, &gro), 0);
	return gro;
}

/* One run of the first nfr frames: one burst (burst) or one call per
 * frame; what left and the counters. */
static void run_n(enum change c, int burst, unsigned nfr, struct out *o, struct ofl_gro_stats *st)
{
	struct ofl_gro *gro = open_gro(c, o);
	unsigned k;
	int err = 0;
	if (burst) {
		ck_assert_uint_eq(ofl_gro_receive_burst(gro, pkts, nfr, 0, &err), nfr);
		ck_assert_int_eq(err, 0);
	} else {
		for (k = 0; k < nfr; k++)
			ck_assert_int_ge(ofl_gro_receive(gro, &pkts[k], 0), 0);
	}
	ck_assert_int_eq(ofl_gro_poll_end(gro, nfr, 0, NULL), 0);
	ck_assert_int_eq(ofl_gro_get_stats(gro, st, sizeof *st), 0);
	ofl_gro_destroy(gro);
	/* what gro.h lets differ */
	st->lookups = st->lookup_probes = st->merged_fast = 0;
}
static void run(enum change c, int burst, struct out *o, struct ofl_gro_stats *st)
{
	run_n(c, burst, NFR, o, st);
}

START_TEST(weave_equals_single_frames)
{
	/* packets that leave, and of them frames passed on without merging;
	 * IPv6 has no header checksum and no ID: those frames merge there */
	static const struct {
		unsigned pkts, normal;
	} want[NCHANGES] = {
	    [NONE] = {4, 0},      [PSH] = {5, 0},       [SHORT] = {5, 0},     [SEQ_GAP] = {6, 0},
	    [BAD_IPSUM] = {6, 1}, [TTL] = {6, 0},       [ID_STEP] = {6, 0},   [TWO_BUFS] = {4, 0},
	    [CSUM_NONE] = {4, 0}, [HW_VLAN] = {6, 0},   [MAX_SEGS] = {12, 0}, [MAX_HELD] = {12, 0},
	    [MAX_SIZE] = {8, 0},  [FIXED_ID] = {4, 0},  [SAME_SLOT] = {4, 0}, [MIXED_L3] = {4, 0},
	    [OPTS] = {4, 0},      [OPTS_DADDR] = {6, 0}, [LONG_OPTS] = {4, 0}, [TINY] = {6, 1},
	    [NEW_DOFF] = {5, 1},  [MAX_FLOWS] = {40, 0}, [NEW_HDR_SPLIT] = {4, 0}, [HIGH_ADDR] = {4, 0},
	    [MIXED_HL] = {4, 0},  [NEW_FRAG] = {5, 1},  [EARLY_VLAN] = {6, 0}, [LATE_VLAN] = {6, 0},
	    [HASH_VLAN] = {6, 0},
	};
	static struct out a, b;
	unsigned c;
	for (c = 0; c < 2 * NCHANGES; c++) {
		enum change ch = (enum change)(c % NCHANGES);
		int l3 = c < NCHANGES ? 4 : 6, v6same = l3 == 6 && (ch == BAD_IPSUM || ch == ID_STEP || ch == NEW_FRAG);
		struct ofl_gro_stats sa, sb;
		make(ch, l3);
		run(ch, 1, &a, &sa);
		run(ch, 0, &b, &sb);
		ck_assert_msg(a.n == b.n && memcmp(a.b, b.b, a.n) == 0, "IPv%d, change %u: burst and single frames differ",
		              l3, ch);
		ck_assert_msg(memcmp(&sa, &sb, sizeof sa) == 0, "IPv%d, change %u: counters differ", l3, ch);
		ck_assert_uint_eq(sa.rx_pkts, NFR);
		ck_assert_uint_eq(a.segs, NFR - sa.normal);
		ck_assert_msg(a.pkts == (v6same ? FLOWS : want[ch].pkts) && sa.normal == (v6same ? 0 : want[ch].normal),
		              "IPv%d, change %u: %u packets, %u passed on", l3, ch, a.pkts, (unsigned)sa.normal);
	}
	free(tiny);
	tiny = NULL;
}
END_TEST

/* One poll holds a frame of flow X, which leaves at its end; the next
 * poll's first flow Y takes X's entry, and a frame of X comes among the
 * interleaved frames of Y and Z: the recent-flows cache still names that
 * entry for X's addresses and ports.  The weave must not take X's frame
 * for Y's entry (nor keep two states of one entry): the same output as
 * frame by frame, for X's ports in many cache and weave slots (32 of
 * them; 8 under a checker). */
START_TEST(stale_cache_hint)
{
	/* poll 2: Y0 Z0 Y1 Z1 Y2 X0 Y3 Z2 Y4 */
	static const uint8_t flow[] = {1, 2, 1, 2, 1, 0, 1, 2, 1};
	static struct out a, b;
	/* under ASan or memcheck (OFL_TEST_CHECKER) 8 of X's ports */
	unsigned px, k, burst, nports = getenv("OFL_TEST_CHECKER") ? 8 : 32;
	for (px = 0; px < nports; px++) {
		struct ofl_gro_stats st[2];
		for (burst = 0; burst < 2; burst++) {
			struct out *o = burst ? &a : &b;
			struct ofl_gro_config cfg;
			struct ofl_gro *gro;
			struct gen_tcp g[3];
			unsigned f;
			memset(o, 0, sizeof *o);
			for (f = 0; f < 3; f++) {
				gen_tcp_init(&g[f], 4);
				g[f].sport = (uint16_t)(f ? 3000 + f : 4000 + px);
				g[f].payload_len = MSS;
				g[f].flow_salt = f;
			}
			for (k = 0; k < 1 + sizeof flow; k++) {
				struct gen_tcp *t = &g[k ? flow[k - 1] : 0];
				size_t len = gen_tcp_frame(t, frames[k], FRAME);
				ck_assert_uint_gt(len, 0);
				t->seq += MSS;
				t->ip_id++;
				memset(&pkts[k], 0, sizeof pkts[k]);
				bufs[k][0] = (struct ofl_buf){frames[k], (uint32_t)len};
				pkts[k].bufs = bufs[k];
				pkts[k].nbufs = 1;
				pkts[k].csum_status = OFL_CSUM_UNNECESSARY;
				pkts[k].cookie = (void *)(uintptr_t)(k + 1);
			}
			ofl_gro_config_default(&cfg);
			cfg.deliver = collect;
			cfg.user = o;
			ck_assert_int_eq(ofl_gro_create(&cfg, &gro), 0);
			ck_assert_int_eq(ofl_gro_receive(gro, &pkts[0], 0), OFL_GRO_HELD);
			ck_assert_int_eq(ofl_gro_poll_end(gro, 1, 0, NULL), 0);
			if (burst) {
				ck_assert_uint_eq(ofl_gro_receive_burst(gro, pkts + 1, sizeof flow, 0, NULL), sizeof flow);
			} else {
				for (k = 1; k <= sizeof flow; k++)
					ck_assert_int_ge(ofl_gro_receive(gro, &pkts[k], 0), 0);
			}
			ck_assert_int_eq(ofl_gro_poll_end(gro, sizeof flow, 0, NULL), 0);
			ck_assert_int_eq(ofl_gro_get_stats(gro, &st[burst], sizeof st[burst]), 0);
			ofl_gro_destroy(gro);
			st[burst].lookups = st[burst].lookup_probes = st[burst].merged_fast = 0;
		}
		ck_assert_msg(a.n == b.n && memcmp(a.b, b.b, a.n) == 0, "X's port %u: burst and single frames differ",
		              4000 + px);
		ck_assert_msg(memcmp(&st[0], &st[1], sizeof st[0]) == 0, "X's port %u: counters differ", 4000 + px);
		/* X twice (one segment each), Y (5 segments), Z (3) */
		ck_assert_uint_eq(a.pkts, 4);
		ck_assert_uint_eq(a.segs, 1 + sizeof flow);
	}
}
END_TEST

/* One context weaves a burst of one L3's flows, then one of the other L3's
 * whose frame MID has PSH (the weave's mask is kept in the context from one
 * weave to the next, weave.c, and built again for the other L3): burst and
 * frame by frame, both orders, the same output.  (The other L3's mask
 * would only stop the weave, its TCP fields compared where this L3 has
 * addresses: no output shows that.) */
START_TEST(mask_per_l3)
{
	static struct out a, b;
	unsigned order, burst, k;
	for (order = 0; order < 2; order++) {
		struct ofl_gro_stats st[2];
		for (burst = 0; burst < 2; burst++) {
			struct ofl_gro *gro = open_gro(NONE, burst ? &a : &b);
			unsigned pass;
			for (pass = 0; pass < 2; pass++) {
				make(pass ? PSH : NONE, (order ^ pass) ? 6 : 4);
				if (burst) {
					ck_assert_uint_eq(ofl_gro_receive_burst(gro, pkts, NFR, 0, NULL), NFR);
				} else {
					for (k = 0; k < NFR; k++)
						ck_assert_int_ge(ofl_gro_receive(gro, &pkts[k], 0), 0);
				}
				ck_assert_int_eq(ofl_gro_poll_end(gro, NFR, 0, NULL), 0);
			}
			ck_assert_int_eq(ofl_gro_get_stats(gro, &st[burst], sizeof st[burst]), 0);
			ofl_gro_destroy(gro);
			st[burst].lookups = st[burst].lookup_probes = st[burst].merged_fast = 0;
		}
		ck_assert_msg(a.n == b.n && memcmp(a.b, b.b, a.n) == 0, "order %u: burst and single frames differ", order);
		ck_assert_msg(memcmp(&st[0], &st[1], sizeof st[0]) == 0, "order %u: counters differ", order);
		/* FLOWS, then FLOWS and the PSH flow's second packet */
		ck_assert_uint_eq(a.pkts, 2 * FLOWS + 1);
	}
}
END_TEST

/* LATE_VLAN's frames in bursts of 9 to 16 (the fresh weave's next frames
 * checked in a loop with a bound, weave.c weave_check(); the VLAN frame,
 * frame 10, among them from 11 on): burst and frame by frame, the same
 * output. */
START_TEST(late_vlan_short_burst)
{
	static struct out a, b;
	unsigned l3, nb;
	for (l3 = 4; l3 <= 6; l3 += 2) {
		make(LATE_VLAN, (int)l3);
		for (nb = GRO_TEST_AHEAD + 1u; nb <= 2u * GRO_TEST_AHEAD; nb++) {
			struct ofl_gro_stats sa, sb;
			run_n(LATE_VLAN, 1, nb, &a, &sa);
			run_n(LATE_VLAN, 0, nb, &b, &sb);
			ck_assert_msg(a.n == b.n && memcmp(a.b, b.b, a.n) == 0, "IPv%u, %u frames: burst and single frames differ",
			              l3, nb);
			ck_assert_msg(memcmp(&sa, &sb, sizeof sa) == 0, "IPv%u, %u frames: counters differ", l3, nb);
		}
	}
}
END_TEST

int main(void)
{
	const TTest *tests[] = {weave_equals_single_frames, stale_cache_hint, mask_per_l3, late_vlan_short_burst};
	return h_run_tests("gro_weave", tests, sizeof tests / sizeof tests[0]);
}
