/*
 * gro_udpfast_test.c - header prediction and the train of a UDP flow
 * (udp.h GRO_FAST_UDP; predict.h, merge.c) against UDP GRO's full path
 * (udp.c), byte for byte.
 *
 * A flow of UDP datagrams with NIC-verified checksums is played three ways:
 *   0  the full path only: every frame's first buffer is 20 bytes, too
 *      short for the fast path, the rest in a second buffer;
 *   1  one ofl_gro_receive() per frame, one buffer each (the fast path:
 *      prediction against the last entry, or the entry its key finds);
 *   2  the whole sequence as one ofl_gro_receive_burst() (prediction and
 *      the train's run of full datagrams).
 * All three must deliver the same packets (linearized, hashed, with their
 * segment counts, offsets, flags and cookies) and end with the same
 * counters (but merged_fast, csum_sw and lookups, which gro.h lets differ).
 * The sweep changes each header byte of a datagram in turn (two bit
 * patterns, the IPv4 header checksum made valid again or not; the UDP
 * checksum recomputed unless the byte is in it), so that every rule the
 * fast path applies is met once each way; the long sequences cross the
 * 64 KiB bound and UDP_GRO_CNT_MAX.  Under a memory checker
 * (OFL_TEST_CHECKER) the sweep takes every 7th byte and the UDP checksum's.
 *
 * The lone frames (src/gro/group.c, group.h: with timeout 0 a datagram
 * alone in its flow in a burst is held as a lone record, no entry): a burst
 * of datagrams of many flows, most alone in theirs, one datagram changed by
 * a UDP rule row (zero checksum, UDP length, a port never merged, IP
 * options, padding, a fragment, a software checksum, a hardware VLAN tag,
 * two buffers; alone, or of the flow of the datagram before it) or by the
 * byte sweep, played the three ways above and a fourth:
 *   3  bursts of 5, so that a lone record's flow comes again in a later
 *      burst (the record turned into an entry first).
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ofl/csum.h>
#include <ofl/gro.h>

#include "gen.h"
#include "harness.h"

#define NSEG 6
#define NMAX 140 /* frames of the longest sequence */
#define SPLIT 0x80 /* in fflags: the frame in two buffers, 20 bytes and the rest */
#define FMAX 1600

/* What one delivered packet was: its bytes (hashed) and its description. */
struct rec {
	uint32_t segs, len, hash, cookies;
	uint16_t hdr_len, l3_off, l4_off, seg_size;
	uint8_t gso_type, flags;
};

struct log {
	struct rec r[NMAX];
	unsigned n;
	uint8_t lin[70000];
};

#define NWAYS 4
static struct log logs[NWAYS];
static uint8_t frames[NMAX][FMAX];
static uint32_t flen[NMAX];
/* each frame's checksum state and packet flags (build() and build_lone()) */
static uint8_t fcsum[NMAX], fflags[NMAX];
/* the UDP destination port never merged (ofl_gro_config.udp_no_merge_ports) */
#define NO_MERGE_PORT 9999
/* play(): the VXLAN port this (0: none; tunnel_port) */
static uint16_t vxlan_port;

static void deliver(void *user, const struct ofl_gro_out *o, unsigned n)
{
	struct log *l = user;
	for (; n; n--, o++) {
		struct rec *r = &l->r[l->n++];
		unsigned j;
		ck_assert_uint_le(l->n, NMAX);
		memset(r, 0, sizeof(*r));
		ck_assert_int_eq(ofl_gro_linearize(o, l->lin, sizeof(l->lin), OFL_CSUM_MODE_FULL), (int)o->len);
		r->hash = 2166136261u;
		for (j = 0; j < o->len; j++)
			r->hash = (r->hash ^ l->lin[j]) * 16777619u;
		/* the cookies in order, one number */
		for (j = 0; j < o->ncookies; j++)
			r->cookies = r->cookies * 131u + (uint32_t)(uintptr_t)o->cookies[j] + 1u;
		r->segs = o->seg_count;
		r->len = o->len;
		r->hdr_len = o->hdr_len;
		r->l3_off = o->l3_off;
		r->l4_off = o->l4_off;
		r->seg_size = o->seg_size;
		r->gso_type = o->gso_type;
		r->flags = o->flags;
	}
}

/* Do ways a and b agree on what they delivered? */
static void same_log(int a, int b, const char *what)
{
	unsigned k;
	ck_assert_msg(logs[a].n == logs[b].n, "%s: way %d delivered %u packets, way %d %u", what, b, logs[b].n, a,
	              logs[a].n);
	for (k = 0; k < logs[a].n; k++) {
		const struct rec *x = &logs[a].r[k], *y = &logs[b].r[k];
		ck_assert_msg(memcmp(x, y, sizeof(*x)) == 0,
		              "%s: packet %u: way %d %u segs, %u bytes, %08x; way %d %u segs, %u bytes, %08x", what, k, a,
		              x->segs, x->len, x->hash, b, y->segs, y->len, y->hash);
	}
}

/* n datagrams of one flow over IPv(l3), pay bytes each (the last one last
 * bytes), the IPv4 ID advancing unless fixed. */
static void build(int l3, unsigned n, uint32_t pay, uint32_t last, int fixed_id)
{
	struct gen_tcp g;
	unsigned k;
	gen_tcp_init(&g, l3);
	g.udp = true;
	g.sport = 4433;
	g.dport = 443;
	for (k = 0; k < n; k++) {
		g.payload_len = k + 1 == n ? last : pay;
		flen[k] = (uint32_t)gen_tcp_frame(&g, frames[k], FMAX);
		fcsum[k] = OFL_CSUM_UNNECESSARY;
		fflags[k] = 0;
		ck_assert_uint_gt(flen[k], 0);
		g.seq += g.payload_len;
		if (!fixed_id)
			g.ip_id++;
	}
}

/* The configuration every way starts from: UDP GRO, timeout 0, delivering
 * to way w's log (emptied). */
static void config_way(struct ofl_gro_config *c, int w)
{
	ck_assert_int_eq(ofl_gro_config_default(c), 0);
	c->udp = 1;
	c->flush_timeout_ns = 0;
	c->deliver = deliver;
	c->user = &logs[w];
	logs[w].n = 0;
}

/* Play frames [0, n) way w (see the top); the context's counters in *st. */
static void play(int w, unsigned n, struct ofl_gro_stats *st)
{
	static struct ofl_buf bufs[NMAX][2];
	static struct ofl_pkt pkts[NMAX];
	struct ofl_gro_config c;
	struct ofl_gro *g;
	unsigned k;
	config_way(&c, w);
	c.max_flows = 8;
	c.hash_key[0] = 0x0123456789abcdefull;
	c.hash_key[1] = 0xfedcba9876543210ull;
	c.udp_nports = 1;
	c.udp_no_merge_ports[0] = NO_MERGE_PORT;
	c.vxlan_nports = vxlan_port ? 1 : 0;
	c.vxlan_ports[0] = vxlan_port;
	ck_assert_int_eq(ofl_gro_create(&c, &g), 0);
	memset(pkts, 0, sizeof(pkts));
	for (k = 0; k < n; k++) {
		pkts[k].bufs = bufs[k];
		pkts[k].cookie = (void *)(uintptr_t)k;
		pkts[k].csum_status = fcsum[k];
		pkts[k].flags = (uint8_t)(fflags[k] & ~SPLIT);
		pkts[k].vlan_tci = fflags[k] & OFL_PKT_F_VLAN ? 5 : 0;
		pkts[k].rx_hash = fflags[k] & OFL_PKT_F_HASH ? 0x1000u + k : 0;
		if (w == 0 || fflags[k] & SPLIT) {
			bufs[k][0] = (struct ofl_buf){frames[k], 20};
			bufs[k][1] = (struct ofl_buf){frames[k] + 20, flen[k] - 20};
			pkts[k].nbufs = 2;
		} else {
			bufs[k][0] = (struct ofl_buf){frames[k], flen[k]};
			pkts[k].nbufs = 1;
		}
	}
	if (w == 2) {
		ck_assert_uint_eq(ofl_gro_receive_burst(g, pkts, n, 0, NULL), n);
	} else if (w == 3) {
		for (k = 0; k < n; k += 5)
			ck_assert_uint_eq(ofl_gro_receive_burst(g, pkts + k, n - k < 5 ? n - k : 5, 0, NULL),
			                  n - k < 5 ? n - k : 5);
	} else {
		for (k = 0; k < n; k++)
			ck_assert_int_ge(ofl_gro_receive(g, &pkts[k], 0), 0);
	}
	ck_assert_int_ge(ofl_gro_poll_end(g, n, 0, NULL), 0);
	ck_assert_int_eq(ofl_gro_flush(g), 0);
	ck_assert_int_eq(ofl_gro_get_stats(g, st, sizeof(*st)), 0);
	ofl_gro_destroy(g);
}

/* The counters that must agree. */
static void same_counts(const struct ofl_gro_stats *a, const struct ofl_gro_stats *b, const char *what)
{
	ck_assert_msg(a->rx_pkts == b->rx_pkts && a->merged == b->merged && a->held == b->held &&
	                  a->normal == b->normal && memcmp(a->flush, b->flush, sizeof(a->flush)) == 0 &&
	                  memcmp(a->normal_why, b->normal_why, sizeof(a->normal_why)) == 0,
	              "%s: counters differ", what);
}

/* Play n frames the first nways ways and compare (all but merged_fast: a
 * lone record turned into an entry may be predicted where the single
 * frames' entry was found by its key); returns how many way 2 predicted. */
static uint64_t play_ways(unsigned n, const char *what, int nways)
{
	struct ofl_gro_stats st[NWAYS];
	int w;
	for (w = 0; w < nways; w++)
		play(w, n, &st[w]);
	ck_assert_uint_eq(st[0].merged_fast, 0);
	for (w = 1; w < nways; w++) {
		same_log(0, w, what);
		same_counts(&st[0], &st[w], what);
	}
	return nways > 2 ? st[2].merged_fast : 0;
}

/* ... all three ways, way 1 and way 2 predicting alike. */
static uint64_t play_all(unsigned n, const char *what)
{
	struct ofl_gro_stats st;
	uint64_t fast = play_ways(n, what, 3);
	play(1, n, &st);
	ck_assert_uint_eq(st.merged_fast, fast);
	return fast;
}

/* Make the UDP checksum of frame k valid for its bytes as they are (IP
 * header at 14, UDP header at l4). */
static void fix_udp(unsigned k, int l3, uint32_t l4)
{
	uint8_t *f = frames[k], ph[40];
	uint32_t ulen = flen[k] - l4, a = l3 == 4 ? 8u : 32u;
	uint16_t c;
	/* the pseudo-header: addresses, then zero, protocol, UDP length */
	memcpy(ph, f + (l3 == 4 ? 26 : 22), a);
	ph[a] = 0;
	ph[a + 1] = 17;
	ph[a + 2] = (uint8_t)(ulen >> 8);
	ph[a + 3] = (uint8_t)ulen;
	f[l4 + 6] = f[l4 + 7] = 0;
	c = (uint16_t)~ofl_csum_fold(ofl_csum_partial(f + l4, ulen, ofl_csum_partial(ph, a + 4, 0)));
	if (c == 0)
		c = 0xffff;
	memcpy(f + l4 + 6, &c, 2);
}

/* Variant i: 0 IPv4, 1 IPv6, 2 IPv4 with a fixed ID, 3 IPv4 and 4 IPv6
 * with a shorter last datagram. */
static void variant(int i, int *l3, int *fixed, uint32_t *last)
{
	*l3 = i == 1 || i == 4 ? 6 : 4;
	*fixed = i == 2;
	*last = i >= 3 ? 40u : 64u;
}

/* The byte after off in a sweep of the given stride that does not step
 * over keep. */
static uint32_t next_off(uint32_t off, unsigned stride, uint32_t keep)
{
	return off < keep && off + stride > keep ? keep : off + stride;
}

START_TEST(byte_changed)
{
	int l3, fixed;
	uint32_t last, l4, hl, off;
	unsigned m, xi, fixip, stride = getenv("OFL_TEST_CHECKER") ? 7u : 1u;
	uint64_t predicted = 0, runs = 0;
	char what[128];
	variant(_i, &l3, &fixed, &last);
	l4 = l3 == 4 ? 34u : 54u;
	hl = l4 + 8u;
	build(l3, NSEG, 64, last, fixed);
	/* unchanged: one packet of six datagrams every way, predicted */
	ck_assert_uint_eq(play_all(NSEG, "unchanged"), NSEG - 1);
	for (m = 1; m < NSEG; m += 2)
		for (off = 0; off < hl; off = next_off(off, stride, l4 + 6))
			for (xi = 0; xi < 2; xi++)
				for (fixip = 0; fixip < (l3 == 4 ? 2u : 1u); fixip++) {
					build(l3, NSEG, 64, last, fixed);
					frames[m][off] ^= xi ? 0x80 : 0x01;
					if (fixip) {
						uint16_t c;
						frames[m][24] = frames[m][25] = 0;
						c = (uint16_t)~ofl_csum_fold(ofl_csum_partial(frames[m] + 14, 20, 0));
						memcpy(frames[m] + 24, &c, 2);
					}
					if (off != l4 + 6 && off != l4 + 7)
						fix_udp(m, l3, l4);
					snprintf(what, sizeof(what), "variant %d, frame %u, byte %u ^ 0x%02x%s", _i, m,
					         (unsigned)off, xi ? 0x80 : 0x01, fixip ? ", IP checksum valid" : "");
					predicted += play_all(NSEG, what) == NSEG - 1;
					runs++;
				}
	/* some changes leave every datagram to the fast path (the UDP
	 * checksum, a hole), most do not */
	ck_assert_uint_gt(predicted, 0);
	ck_assert_uint_gt(runs, predicted);
}
END_TEST

/* Long sequences: past 64 KiB (1400-byte datagrams) and UDP_GRO_CNT_MAX
 * (100-byte datagrams), both families, fixed and advancing IDs. */
START_TEST(long_trains)
{
	int l3 = _i & 1 ? 6 : 4, fixed = (_i >> 1) & 1;
	uint32_t pay = _i & 4 ? 100u : 1400u;
	unsigned n = _i & 4 ? 135u : 100u;
	char what[64];
	build(l3, n, pay, pay - 7, fixed);
	snprintf(what, sizeof(what), "IPv%d, %u x %u bytes%s", l3, n, (unsigned)pay, fixed ? ", fixed ID" : "");
	ck_assert_uint_gt(play_all(n, what), 0);
}
END_TEST

/* UDP GRO on and a VXLAN port: a datagram to that port goes to the
 * tunnel's rules (tunnel.c) before UDP GRO's, also the first one of a
 * burst while nothing is held (receive.c: the fast path holds a new UDP
 * flow only when no tunnel port is set); to another port, to udp.c. */
START_TEST(tunnel_port)
{
	int l3 = _i & 1 ? 6 : 4;
	char what[64];
	vxlan_port = _i & 2 ? 4789 : 443; /* the flow's destination port: 443 */
	build(l3, 100, 1400, 1393, 0);
	snprintf(what, sizeof(what), "IPv%d, VXLAN port %u", l3, (unsigned)vxlan_port);
	play_ways(100, what, 3);
	vxlan_port = 0;
}
END_TEST

/* The lone-frame bursts: frame k of flow lone_flow[k] (flows 1 and 2 have
 * two datagrams, the others one), with more flows than the context's 8. */
#define LONE_N 12
static const unsigned lone_flow[LONE_N] = {0, 1, 2, 3, 4, 5, 2, 6, 7, 8, 9, 1};

/* The rule rows of a changed datagram (build_lone()). */
enum lone_row {
	ROW_NONE,
	ROW_ZERO_CSUM,
	ROW_ULEN_LONGER,
	ROW_ULEN_8,
	ROW_PORT,
	ROW_IP_OPTS,
	ROW_PADDED,
	ROW_FRAGMENT,
	ROW_SW_CSUM,
	ROW_SW_CSUM_BAD,
	ROW_BAD_IP_CSUM,
	ROW_HW_VLAN,
	ROW_SPLIT,
	NROWS
};

/* The datagrams of lone_flow[] over IPv(fam) (0: flow f over IPv6 when f is
 * odd), datagram m changed by rule row row and, with same, made a datagram
 * of the flow of datagram m - 1. */
static void build_lone(int fam, unsigned m, unsigned row, int same)
{
	unsigned k;
	for (k = 0; k < LONE_N; k++) {
		unsigned f = k == m && same ? lone_flow[k - 1] : lone_flow[k];
		int l3 = fam ? fam : f & 1 ? 6 : 4;
		struct gen_tcp g;
		gen_tcp_init(&g, l3);
		g.udp = true;
		g.sport = (uint16_t)(5000 + f);
		g.dport = 443;
		g.payload_len = 64;
		g.flow_salt = f;
		g.seq = 100u * k;
		g.ip_id = (uint16_t)(7 * f + k);
		fcsum[k] = OFL_CSUM_UNNECESSARY;
		fflags[k] = k & 1 ? OFL_PKT_F_HASH : 0;
		if (k == m) {
			switch (row) {
			case ROW_ZERO_CSUM:
				g.udp_zero_csum = true;
				break;
			case ROW_ULEN_LONGER:
				g.udp_len_delta = 1;
				break;
			case ROW_ULEN_8:
				g.payload_len = 0;
				break;
			case ROW_PORT:
				g.dport = NO_MERGE_PORT;
				break;
			case ROW_IP_OPTS:
				if (l3 == 4) {
					memcpy(g.ip_opts, "\x01\x01\x01\x00", 4); /* NOP NOP NOP EOL */
					g.ip_optlen = 4;
				} else {
					memcpy(g.ext, "\x11\x00\x01\x04\x00\x00\x00\x00", 8); /* destination options, PadN */
					g.extlen = 8;
					g.ext_nh = 60;
				}
				break;
			case ROW_PADDED:
				g.payload_len = 2;
				g.pad_to = 60;
				break;
			case ROW_FRAGMENT:
				if (l3 == 4) {
					g.frag = 0x2000; /* MF */
				} else {
					memcpy(g.ext, "\x11\x00\x00\x01\x00\x00\x00\x07", 8); /* first fragment, M */
					g.extlen = 8;
					g.ext_nh = 44;
				}
				break;
			case ROW_SW_CSUM:
				fcsum[k] = OFL_CSUM_NONE;
				break;
			case ROW_SW_CSUM_BAD:
				fcsum[k] = OFL_CSUM_NONE;
				g.bad_tcp_csum = true;
				break;
			case ROW_BAD_IP_CSUM:
				g.bad_ip_csum = true;
				break;
			case ROW_HW_VLAN:
				fflags[k] |= OFL_PKT_F_VLAN;
				break;
			case ROW_SPLIT:
				fflags[k] |= SPLIT;
				break;
			default:
				break;
			}
		}
		flen[k] = (uint32_t)gen_tcp_frame(&g, frames[k], FMAX);
		ck_assert_uint_gt(flen[k], 0);
	}
}

/* Every rule row, each datagram position (under a memory checker every
 * 5th), alone or of another datagram's flow, both families and the two
 * mixed. */
START_TEST(lone_rules)
{
	static const int fams[3] = {4, 6, 0};
	unsigned m, row, same, step = getenv("OFL_TEST_CHECKER") ? 5u : 1u;
	char what[96];
	for (m = 0; m < LONE_N; m += step)
		for (row = 0; row < NROWS; row++)
			for (same = 0; same < (m ? 2u : 1u); same++) {
				build_lone(fams[_i], m, row, (int)same);
				snprintf(what, sizeof(what), "lone bursts, IPv%d, datagram %u, row %u%s", fams[_i], m,
				         row, same ? ", the flow of the one before" : "");
				play_ways(LONE_N, what, NWAYS);
			}
}
END_TEST

/* The byte sweep of byte_changed on a datagram alone in its flow (1) and
 * on one whose flow has another datagram later in the burst (2). */
START_TEST(lone_bytes)
{
	int l3 = _i & 1 ? 6 : 4;
	unsigned m = _i & 2 ? 2u : 3u, l4 = l3 == 4 ? 34u : 54u, off, xi, stride = getenv("OFL_TEST_CHECKER") ? 7u : 1u;
	char what[96];
	for (off = 0; off < l4 + 8u; off = next_off(off, stride, l4 + 6))
		for (xi = 0; xi < 2; xi++) {
			build_lone(l3, m, ROW_NONE, 0);
			frames[m][off] ^= xi ? 0x80 : 0x01;
			if (off != l4 + 6 && off != l4 + 7)
				fix_udp(m, l3, l4);
			snprintf(what, sizeof(what), "lone bursts, IPv%d, datagram %u, byte %u ^ 0x%02x", l3, m,
			         (unsigned)off, xi ? 0x80 : 0x01);
			play_ways(LONE_N, what, NWAYS);
		}
}
END_TEST

/* The first datagram of a burst while nothing is held, over IPv6 and under
 * 74 bytes (too short for hold.h plain_key()): burst_first.c gro_first_hold_udp()
 * leaves it to the full path, which keys its entry as udp.c does; a
 * datagram of its flow found by that key later (received alone, another
 * entry the last) merges into it as when every frame is received alone.
 * Way 0: frames 0-3 alone; way 1: frames 0 and 1 as one burst, then 3
 * and 2 alone; the order of way 0 is 0, 1, 3, 2 too.  pay: the payload
 * of the flow's datagrams (4: 66-byte frames; 20: 82, held by
 * gro_first_hold_udp()). */
static void play_short(int w, struct ofl_gro_stats *st)
{
	static const unsigned order[4] = {0, 1, 3, 2};
	struct ofl_buf bufs[4];
	struct ofl_pkt pkts[4];
	struct ofl_gro_config c;
	struct ofl_gro *g;
	unsigned k;
	config_way(&c, w);
	ck_assert_int_eq(ofl_gro_create(&c, &g), 0);
	memset(pkts, 0, sizeof(pkts));
	for (k = 0; k < 4; k++) {
		bufs[k] = (struct ofl_buf){frames[k], flen[k]};
		pkts[k].bufs = &bufs[k];
		pkts[k].nbufs = 1;
		pkts[k].cookie = (void *)(uintptr_t)k;
		pkts[k].csum_status = OFL_CSUM_UNNECESSARY;
	}
	if (w == 1) {
		ck_assert_uint_eq(ofl_gro_receive_burst(g, pkts, 2, 0, NULL), 2);
		k = 2;
	} else {
		k = 0;
	}
	for (; k < 4; k++)
		ck_assert_int_ge(ofl_gro_receive(g, &pkts[order[k]], 0), 0);
	ck_assert_int_eq(ofl_gro_flush(g), 0);
	ck_assert_int_eq(ofl_gro_get_stats(g, st, sizeof(*st)), 0);
	ofl_gro_destroy(g);
}

START_TEST(short_v6_first)
{
	uint32_t pay = _i & 1 ? 20u : 4u;
	int l3 = _i & 2 ? 4 : 6;
	struct ofl_gro_stats st[2];
	struct gen_tcp a;
	char what[64];
	unsigned k;
	build(l3, 3, pay, pay, 0); /* frames 0-2: the flow */
	gen_tcp_init(&a, l3);
	a.udp = true;
	a.sport = 5353; /* frame 3: another flow */
	a.dport = 443;
	a.payload_len = 100;
	flen[3] = (uint32_t)gen_tcp_frame(&a, frames[3], FMAX);
	ck_assert_uint_gt(flen[3], 0);
	for (k = 0; k < 2; k++)
		play_short((int)k, &st[k]);
	snprintf(what, sizeof(what), "IPv%d, first datagram of %u bytes", l3, (unsigned)flen[0]);
	ck_assert_uint_eq(logs[0].n, 2); /* the flow's three merged, the other one */
	same_log(0, 1, what);
	same_counts(&st[0], &st[1], what);
}
END_TEST

H_MAIN("gro_udpfast", 0, 0, {byte_changed, 5}, {long_trains, 8}, {lone_rules, 3}, {lone_bytes, 4}, {tunnel_port, 4},
       {short_v6_first, 4})
