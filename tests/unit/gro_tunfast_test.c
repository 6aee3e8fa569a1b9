/*
 * gro_tunfast_test.c - header prediction and the train of tunnel flows
 * (src/gro/tunfast.c) against the full path (src/gro/tunnel.c).
 *
 * Six VXLAN segments of one flow (each outer/inner IPv4/IPv6 combination;
 * Geneve without options once), one of them (the second or the fourth) with
 * one header byte changed (bit 0 or bit 7), its IPv4 header checksums left
 * as they are or made valid again, its inner TCP checksum always valid.
 * Fed three ways:
 *   - one frame at a time with a software checksum (OFL_CSUM_NONE): the
 *     full path only (prediction needs a verified checksum): the reference;
 *   - one frame at a time, checksum verified: header prediction first;
 *   - the six as one burst, checksum verified: the train, then prediction.
 * All three must deliver the same packets (segment count, length, bytes
 * with full checksums, cookies) and count the same held, merged, normal
 * and flush reasons.  A changed outer UDP checksum (not 0 now) is
 * verified in software and not with a verified one, a real difference:
 * there the two verified ways must agree and deliver that frame alone (a
 * flow of its own: the outer checksums both 0 or both not).
 *
 * Then many flows in a burst with flush timeout 0 (lone records through a
 * tunnel, group.c and tunfast.c): one segment of each of eight flows (one
 * with PSH, one empty) and a plain frame of one's inner flow, a byte of
 * one frame changed in turn; a second burst in the same poll (the lone
 * records settled into entries, the next segments merged); a third after
 * poll end; once more with a frame whose headers span two buffers (the
 * burst cannot be grouped).  The same three ways must agree.
 *
 * Under a memory checker (OFL_TEST_CHECKER set) every 19th byte only.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ofl/csum.h>
#include <ofl/gro.h>

#include "gen.h"
#include "gen_tun.h"
#include "harness.h"

#define NSEG 6
#define FMAX 1600
#define NFL 8              /* flows of the lone-record sequence */
#define LMAX (3 * NFL + 3) /* its frames */

struct log {
	char s[4096];
	size_t pos;
	uint8_t lin[70000];
};

static void deliver(void *user, const struct ofl_gro_out *o, unsigned n)
{
	struct log *l = user;
	unsigned i, j;
	for (i = 0; i < n; i++, o++) {
		int w = ofl_gro_linearize(o, l->lin, sizeof(l->lin), OFL_CSUM_MODE_FULL);
		uint32_t h = 2166136261u;
		ck_assert_int_eq(w, (int)o->len);
		for (j = 0; j < o->len; j++)
			h = (h ^ l->lin[j]) * 16777619u;
		l->pos += (size_t)snprintf(l->s + l->pos, sizeof(l->s) - l->pos, "[%u %u %08x t%u:", o->seg_count,
		                           o->len, h, OFL_GRO_OUT_TUN_TYPE(o->flags));
		if (o->seg_count) /* (a frame passed on: flags say how its checksum came) */
			l->pos += (size_t)snprintf(l->s + l->pos, sizeof(l->s) - l->pos, "%u/%u/%u/%u/%u/%u/%u:",
			                           o->hdr_len, o->l3_off, o->l4_off, o->seg_size, o->gso_type,
			                           o->flags, o->csum_start);
		for (j = 0; j < o->ncookies; j++)
			l->pos += (size_t)snprintf(l->s + l->pos, sizeof(l->s) - l->pos, " %u",
			                           (unsigned)(uintptr_t)o->cookies[j]);
		l->pos += (size_t)snprintf(l->s + l->pos, sizeof(l->s) - l->pos, "]");
		ck_assert_uint_lt(l->pos, sizeof(l->s) - 64);
	}
}

static uint8_t frames[NSEG][FMAX];
static uint32_t flen[NSEG];
static struct ofl_buf fbuf[LMAX];
static struct log logs[3];

/* Header offsets of the frames (the shape tunfast.c predicts). */
struct shape {
	unsigned ol3, il3, ol4, il3_off, il4;
};

/* Make an IPv4 header's checksum (at ip) valid again. */
static void fix_ip4(uint8_t *ip)
{
	uint16_t c;
	ip[10] = ip[11] = 0;
	c = ofl_csum_fold(ofl_csum_partial(ip, 20, 0));
	memcpy(ip + 10, &c, 2);
}

/* Make the inner TCP checksum valid for the frame's bytes as they are. */
static void fix_tcp(uint8_t *f, uint32_t len, const struct shape *s)
{
	uint8_t ph[40];
	uint32_t tl = len - s->il4, sum;
	uint16_t c;
	const uint8_t *ip = f + s->il3_off;
	size_t pl;
	pl = gen_pseudo_hdr(ph, ip, s->il3, tl, 6);
	f[s->il4 + 16] = f[s->il4 + 17] = 0;
	sum = ofl_csum_partial(ph, pl, 0);
	sum = ofl_csum_partial(f + s->il4, tl, sum);
	c = ofl_csum_fold(sum);
	memcpy(f + s->il4 + 16, &c, 2);
}

static void shape_of(struct shape *s, int ol3, int il3)
{
	s->ol3 = (unsigned)ol3;
	s->il3 = (unsigned)il3;
	s->ol4 = ol3 == 4 ? 34u : 54u;
	s->il3_off = s->ol4 + 30u;
	s->il4 = s->il3_off + (il3 == 4 ? 20u : 40u);
}

/* Byte off of the frame xored with x, its IPv4 header checksums made
 * valid again (fixip), its TCP checksum valid. */
static void spoil(uint8_t *f, uint32_t len, const struct shape *s, uint32_t off, uint8_t x, int fixip)
{
	f[off] ^= x;
	if (fixip && s->ol3 == 4)
		fix_ip4(f + 14);
	if (fixip && s->il3 == 4)
		fix_ip4(f + s->il3_off);
	if (len >= s->il4 + 20u)
		fix_tcp(f, len, s);
}

/* The six segments, frame m with byte off xored with x (x 0: none). */
static void build(int ol3, int il3, int type, unsigned m, uint32_t off, uint8_t x, int fixip, struct shape *s)
{
	static uint8_t inner[FMAX];
	struct gen_tcp in;
	struct gen_tun t;
	unsigned k;
	gen_tcp_init(&in, il3);
	in.payload_len = 1000;
	gen_tun_init(&t, type, ol3);
	shape_of(s, ol3, il3);
	for (k = 0; k < NSEG; k++) {
		size_t il = gen_tcp_frame(&in, inner, sizeof(inner));
		flen[k] = (uint32_t)gen_tun_wrap(&t, inner, il, frames[k], FMAX);
		ck_assert_uint_gt(flen[k], 0);
		if (k == m && x)
			spoil(frames[k], flen[k], s, off, x, fixip);
		fbuf[k] = (struct ofl_buf){frames[k], flen[k]};
		in.seq += in.payload_len;
		in.ip_id++;
		t.ip_id++;
	}
}

/* Feed n frames (one buffer each, from bufs) in bursts of count[0],
 * count[1], ... (nburst of them), ofl_gro_poll_end() after burst r when
 * bit r of poll is set, then flush: way 0 one frame at a time with a
 * software checksum, 1 one at a time verified, 2 each burst in one call,
 * verified.  split >= 0: that frame's buffers are two[].  The log (in
 * logs[way]) and the counters. */
static void play_seq(int way, int type, const struct ofl_buf *bufs, const unsigned *count, unsigned nburst,
                     unsigned poll, int split, const struct ofl_buf *two, struct ofl_gro_stats *st)
{
	struct ofl_gro_config c;
	struct ofl_gro *g;
	struct ofl_pkt p[LMAX];
	unsigned k, r, at = 0;
	ofl_gro_config_default(&c);
	c.deliver = deliver;
	c.user = &logs[way];
	c.flush_timeout_ns = 0;
	if (type == GEN_TUN_VXLAN)
		c.vxlan_ports[c.vxlan_nports++] = 4789;
	else
		c.geneve_ports[c.geneve_nports++] = 6081;
	logs[way].pos = 0;
	logs[way].s[0] = 0;
	ck_assert_int_eq(ofl_gro_create(&c, &g), 0);
	memset(p, 0, sizeof(p));
	for (k = 0; k < LMAX; k++) {
		p[k].bufs = &bufs[k];
		p[k].nbufs = 1;
		p[k].cookie = (void *)(uintptr_t)k;
		p[k].csum_status = way == 0 ? OFL_CSUM_NONE : OFL_CSUM_UNNECESSARY;
	}
	if (split >= 0) {
		p[split].bufs = two;
		p[split].nbufs = 2;
	}
	for (r = 0; r < nburst; r++) {
		if (way == 2) {
			ck_assert_uint_eq(ofl_gro_receive_burst(g, p + at, count[r], 0, NULL), count[r]);
		} else {
			for (k = 0; k < count[r]; k++)
				ck_assert_int_ge(ofl_gro_receive(g, &p[at + k], 0), 0);
		}
		at += count[r];
		if (poll & (1u << r))
			ck_assert_int_ge(ofl_gro_poll_end(g, count[r], 0, NULL), 0);
	}
	ck_assert_int_eq(ofl_gro_flush(g), 0);
	ck_assert_int_eq(ofl_gro_get_stats(g, st, sizeof(*st)), 0);
	ofl_gro_destroy(g);
}

/* The six frames in one burst. */
static void play(int way, int type, struct ofl_gro_stats *st)
{
	static const unsigned six = NSEG;
	play_seq(way, type, fbuf, &six, 1, 0, -1, NULL, st);
}

/* The counters that must agree (csum_sw, lookups and merged_fast may not). */
static void same_counts(const struct ofl_gro_stats *a, const struct ofl_gro_stats *b, const char *what)
{
	ck_assert_msg(a->rx_pkts == b->rx_pkts && a->merged == b->merged && a->held == b->held &&
	                  a->normal == b->normal && memcmp(a->flush, b->flush, sizeof(a->flush)) == 0 &&
	                  memcmp(a->normal_why, b->normal_why, sizeof(a->normal_why)) == 0,
	              "%s: counters differ", what);
}

/* Variant i (0-4): outer IPv6 (bit 0), inner IPv6 (bit 1), or (4) Geneve
 * over IPv4 with IPv4 inside.  Returns the tunnel type. */
static int variant(int i, int *ol3, int *il3)
{
	*ol3 = i != 4 && (i & 1) ? 6 : 4;
	*il3 = i != 4 && (i & 2) ? 6 : 4;
	return i == 4 ? GEN_TUN_GENEVE : GEN_TUN_VXLAN;
}

/* Every byte; under a memory checker every 19th. */
static unsigned sweep_stride(void)
{
	return getenv("OFL_TEST_CHECKER") ? 19u : 1u;
}

START_TEST(byte_changed)
{
	int ol3, il3, type = variant(_i, &ol3, &il3);
	unsigned stride = sweep_stride(), m, xi, fixip, predicted = 0;
	uint32_t off, hl;
	struct shape s;
	struct ofl_gro_stats st[3];
	char what[128];
	build(ol3, il3, type, 0, 0, 0, 0, &s);
	hl = s.il4 + 20u;
	/* unchanged: one packet of six segments every way, predicted */
	play(0, type, &st[0]);
	play(1, type, &st[1]);
	play(2, type, &st[2]);
	ck_assert_str_eq(logs[0].s, logs[1].s);
	ck_assert_str_eq(logs[0].s, logs[2].s);
	ck_assert_uint_eq(st[0].merged, NSEG - 1);
	ck_assert_uint_eq(st[0].merged_fast, 0);
	if (ol3 == 4 || il3 == 4) /* (IPv6 in IPv6 is past the prediction's 128 bytes) */
		ck_assert_uint_eq(st[1].merged_fast, NSEG - 1);
	for (m = 1; m < NSEG; m += 2)
		for (off = 0; off < hl; off += stride)
			for (xi = 0; xi < 2; xi++)
				for (fixip = 0; fixip < 2; fixip++) {
					build(ol3, il3, type, m, off, xi ? 0x80 : 0x01, (int)fixip, &s);
					play(0, type, &st[0]);
					play(1, type, &st[1]);
					play(2, type, &st[2]);
					snprintf(what, sizeof(what), "variant %d, frame %u, byte %u ^ 0x%02x%s", _i, m,
					         (unsigned)off, xi ? 0x80 : 0x01, fixip ? ", IP checksums made valid" : "");
					if (off == s.ol4 + 6 || off == s.ol4 + 7) {
						/* the outer UDP checksum (above): not 0 now, so
						 * a flow of its own, alone between the others */
						char alone[32];
						snprintf(alone, sizeof(alone), ": %u]", m);
						ck_assert_msg(strstr(logs[1].s, alone) != NULL, "%s: %s", what, logs[1].s);
						ck_assert_str_eq(logs[1].s, logs[2].s);
						same_counts(&st[1], &st[2], what);
						continue;
					}
					ck_assert_msg(strcmp(logs[0].s, logs[1].s) == 0, "%s: single: %s, want %s", what,
					              logs[1].s, logs[0].s);
					ck_assert_msg(strcmp(logs[0].s, logs[2].s) == 0, "%s: burst: %s, want %s", what,
					              logs[2].s, logs[0].s);
					same_counts(&st[0], &st[1], what);
					same_counts(&st[0], &st[2], what);
					predicted += st[1].merged_fast != 0;
				}
	/* the changes that still merge (ID, checksums, urgent pointer, ...)
	 * went through prediction */
	if (ol3 == 4 || il3 == 4)
		ck_assert_uint_gt(predicted, 0);
}
END_TEST

/* ---- many flows in a burst: lone records through a tunnel ------------- */

static uint8_t lframes[LMAX][FMAX];
static struct ofl_buf lbuf[LMAX];
static struct ofl_buf lsplit[2];
static unsigned lburst[4]; /* frames per burst: A, B (before poll end), C */
static int lsplit_at;      /* the frame of A in two buffers (-1: none) */

/* Burst A: one segment of each of NFL flows (outer source port and inner
 * port per flow), flow 5's with PSH, flow 6's without payload, then a
 * plain frame of flow 3's inner flow; frame a (of A) with byte off ^ x.
 * Burst B, before poll end: the next segment of each flow.  Burst C, after
 * poll end: one more of flows 0 and 1. */
static void build_lone(int ol3, int il3, int type, unsigned a, uint32_t off, uint8_t x, int fixip, int split,
                       struct shape *s)
{
	static uint8_t inner[FMAX];
	struct gen_tcp in[NFL];
	struct gen_tun t[NFL];
	unsigned f, n = 0, r;
	lsplit_at = -1;
	shape_of(s, ol3, il3);
	for (f = 0; f < NFL; f++) {
		gen_tcp_init(&in[f], il3);
		in[f].payload_len = 700;
		in[f].sport = (uint16_t)(2000 + f);
		gen_tun_init(&t[f], type, ol3);
		t[f].sport = (uint16_t)(40000 + f);
	}
	in[5].flags |= GEN_PSH;
	in[6].payload_len = 0;
	for (r = 0; r < 3; r++) {
		unsigned nf = r == 2 ? 2 : NFL;
		lburst[r] = 0;
		for (f = 0; f < nf; f++) {
			size_t il = gen_tcp_frame(&in[f], inner, sizeof(inner));
			uint32_t len = (uint32_t)gen_tun_wrap(&t[f], inner, il, lframes[n], FMAX);
			ck_assert_uint_gt(len, 0);
			if (r == 0 && f == a && x)
				spoil(lframes[n], len, s, off, x, fixip);
			lbuf[n] = (struct ofl_buf){lframes[n], len};
			n++;
			lburst[r]++;
			in[f].seq += in[f].payload_len;
			in[f].ip_id++;
			t[f].ip_id++;
			in[f].flags &= (uint8_t)~GEN_PSH;
			if (!in[f].payload_len)
				in[f].payload_len = 700;
		}
		if (r == 0 && split) {
			/* flow 1's next segment, its headers over two buffers:
			 * the burst cannot be grouped */
			size_t il = gen_tcp_frame(&in[1], inner, sizeof(inner));
			uint32_t len = (uint32_t)gen_tun_wrap(&t[1], inner, il, lframes[n], FMAX);
			lsplit[0] = (struct ofl_buf){lframes[n], 60};
			lsplit[1] = (struct ofl_buf){lframes[n] + 60, len - 60};
			lsplit_at = (int)n;
			n++;
			lburst[0]++;
			in[1].seq += in[1].payload_len;
			in[1].ip_id++;
			t[1].ip_id++;
		}
		if (r == 0) {
			struct gen_tcp bare = in[3];
			lbuf[n] = (struct ofl_buf){lframes[n], (uint32_t)gen_tcp_frame(&bare, lframes[n], FMAX)};
			n++;
			lburst[0]++;
		}
	}
}

/* A, B and C; poll end after B (A and B in one poll) and after C. */
static void play_lone(int way, int type, struct ofl_gro_stats *st)
{
	play_seq(way, type, lbuf, lburst, 3, 6u, lsplit_at, lsplit, st);
}

/* _i as for byte_changed: a byte of flow 2's first frame changed in turn. */
START_TEST(lone_records)
{
	int ol3, il3, type = variant(_i, &ol3, &il3);
	unsigned stride = sweep_stride(), xi, fixip;
	uint32_t off, hl;
	struct shape s;
	struct ofl_gro_stats st[3];
	char what[128];
	unsigned split;
	/* unchanged (split 0), then flow 1 with a second segment in two
	 * buffers (split 1: not grouped): the same every way */
	for (split = 0; split < 2; split++) {
		build_lone(ol3, il3, type, 2, 0, 0, 0, (int)split, &s);
		play_lone(0, type, &st[0]);
		play_lone(1, type, &st[1]);
		play_lone(2, type, &st[2]);
		ck_assert_str_eq(logs[0].s, logs[1].s);
		ck_assert_str_eq(logs[1].s, logs[2].s);
		same_counts(&st[0], &st[1], "split");
		same_counts(&st[1], &st[2], "split");
	}
	hl = s.il4 + 20u;
	/* (split 1) held in A flows 0-4 and 7 and the plain one (5 PSH and 6
	 * empty passed on), in B flows 5 and 6 (the rest merged), in C two */
	ck_assert_uint_eq(st[2].held, NFL - 2 + 1 + 2 + 2);
	ck_assert_uint_eq(st[2].merged, NFL - 2 + 1);
	for (off = 0; off < hl; off += stride)
		for (xi = 0; xi < 2; xi++)
			for (fixip = 0; fixip < 2; fixip++) {
				build_lone(ol3, il3, type, 2, off, xi ? 0x80 : 0x01, (int)fixip, 0, &s);
				play_lone(0, type, &st[0]);
				play_lone(1, type, &st[1]);
				play_lone(2, type, &st[2]);
				snprintf(what, sizeof(what), "lone, variant %d, byte %u ^ 0x%02x%s", _i, (unsigned)off,
				         xi ? 0x80 : 0x01, fixip ? ", IP checksums made valid" : "");
				ck_assert_msg(strcmp(logs[1].s, logs[2].s) == 0, "%s: burst: %s, want %s", what,
				              logs[2].s, logs[1].s);
				same_counts(&st[1], &st[2], what);
				if (off == s.ol4 + 6 || off == s.ol4 + 7)
					continue; /* the outer UDP checksum: see the top */
				ck_assert_msg(strcmp(logs[0].s, logs[1].s) == 0, "%s: single: %s, want %s", what,
				              logs[1].s, logs[0].s);
				same_counts(&st[0], &st[1], what);
			}
}
END_TEST

int main(void)
{
	const struct h_test tests[] = {
		{byte_changed, 5},
		{lone_records, 5},
	};
	return h_run_table("gro_tunfast", 120, 0, tests, sizeof(tests) / sizeof(tests[0]));
}
